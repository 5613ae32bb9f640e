// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <ctype.h>
#include <string.h>
#include "fields.h"
#include "ops.h"

#define OP_ROW(id, t, k, ty, fl) [OP_##id] = { .text = t, .kind = k, .types = ty, .flags = fl },
const struct op_info ops_table[OP_MAX] = { OP_LIST(OP_ROW) };
#undef OP_ROW

#define XFORM_ROW(id, n, r, a) [XF_##id] = { .name = n, .result = r, .args = a },
const struct xform_info xforms_table[XF_MAX] = { XFORM_LIST(XFORM_ROW) };
#undef XFORM_ROW

#define MOD_ROW(id, kw) [MOD_##id] = kw,
const char *const mods_table[MOD_MAX] = { MOD_LIST(MOD_ROW) };
#undef MOD_ROW

static int is_word(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.';
}

static int joins_next(const char *s)
{
	size_t n = !strncmp(s, "and", 3) ? 3 : !strncmp(s, "or", 2) ? 2 : 0;

	return n && (s[n] == ' ' || s[n] == '\t' || s[n] == '\n' || s[n] == '\r' ||
		     s[n] == '\b' || s[n] == '(');
}

int ops_match(const char *s, size_t *len)
{
	int best = -1;
	size_t best_len = 0;

	for (int i = 0; i < OP_MAX; i++) {
		const char *t = ops_table[i].text;
		size_t n = strlen(t);

		if (strncmp(s, t, n) != 0)
			continue;
		/* "inx" is not "in"; but libsinsp reads "existsand x" as "exists
		 * and x" (filter_parser.ut.cpp parse_operators): a unary operator
		 * ends where "and" or "or" and a blank or '(' start */
		if (isalpha((unsigned char)t[0]) && is_word(s[n]) &&
		    !(ops_table[i].kind == OK_UNARY && joins_next(s + n)))
			continue;
		if (n > best_len) {
			best = i;
			best_len = n;
		}
	}
	*len = best_len;
	return best;
}
