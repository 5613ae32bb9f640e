// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * What a comparison's constants look like, checked once at load: the
 * warnings about a string that reads like a pattern, a field or a
 * transformer call, and the guard a regex passes before regcomp.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rules.h"

/* A string an equality compares that reads like a pattern (a glob's '*', a
 * regex's '.*', '^' or '$' at the ends): equality takes it literally, which
 * a rule rarely means. Warned once per compile, like Falco's other load
 * warnings. */
static void warn_pattern(const struct ast *a, const char *v, struct cond_err *err)
{
	size_t n = strlen(v);

	if (err->warn[0] || !(a->op == OP_EQ || a->op == OP_EQ2 || a->op == OP_NE ||
			      a->op == OP_IN || a->op == OP_INTERSECTS))
		return;
	if (!strchr(v, '*') && !(n > 1 && v[0] == '^') && !(n > 1 && v[n - 1] == '$'))
		return;
	snprintf(err->warn, sizeof(err->warn),
		 "'%s' looks like a pattern, but '%s' compares it as a plain string (glob, regex or pmatch match patterns)",
		 v, ops_table[a->op].text);
	err->warn_at = a;
}

/* As libs' compiler (check_warnings_field_value, _transformer_value): a
 * constant that, its blanks removed, names a field Falco knows or is a
 * transformer call was most likely meant as one (val(), or written without
 * quotes); it still compares as the string. Warned once per compile. */
static void warn_field_like(const struct ast *a, const char *v, struct cond_err *err)
{
	char s[ENGINE_MSG_MAX / 4], name[ENGINE_MSG_MAX / 4];
	size_t n = 0, k;

	if (err->warn[0])
		return;
	for (const char *p = v; *p && n + 1 < sizeof(s); p++)
		if (!isspace((unsigned char)*p))
			s[n++] = *p;
	s[n] = 0;
	k = strcspn(s, "[");
	if (k && (k == n || s[n - 1] == ']') && k < sizeof(name)) {
		memcpy(name, s, k);
		name[k] = 0;
		/* a name, not a class prefix: "k8s.gcr.io/x" is an image */
		if (strchr(name, '.') && strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_.") == k &&
		    (fields_lookup(name) >= 0 || fields_falco_known(name))) {
			snprintf(err->warn, sizeof(err->warn),
				 "'%s' may be a valid field misused as a const string value", v);
			err->warn_at = a;
			return;
		}
	}
	for (int x = 0; x <= XF_MAX; x++) {
		const char *t = x == XF_MAX ? "val" : x == XF_NONE ? NULL : xforms_table[x].name;
		size_t tn = t ? strlen(t) : 0;

		if (t && n >= tn + 2 && !strncmp(s, t, tn) && s[tn] == '(' && s[n - 1] == ')') {
			snprintf(err->warn, sizeof(err->warn),
				 "'%s' may be a valid field transformer misused as a const string value",
				 v);
			err->warn_at = a;
			return;
		}
	}
}

/* As libs' compiler (check_warnings_regex_value): a regex whose only
 * special characters are a leading '^', a trailing '$' and '.*' or '.+'
 * (or '.?') at either end is a plain comparison in disguise. */
static void warn_regex(const struct ast *a, const char *v, struct cond_err *err)
{
	size_t n = strlen(v);

	if (err->warn[0] || !(ops_table[a->op].flags & OF_REGEX))
		return;
	for (size_t i = 0; i < n; i++) {
		if ((i == 0 && v[i] == '^') || (i == n - 1 && v[i] == '$'))
			continue;
		if (((i == 0 && n > 1) || i + 2 == n) && v[i] == '.' && strchr("+*?", v[i + 1])) {
			i++;
			continue;
		}
		if (strchr(".+*?^$()[]{}|\\", v[i]))
			return;
	}
	snprintf(err->warn, sizeof(err->warn),
		 "regex check with '%s' may be optimized with simpler operators such as '=', 'contains', 'startswith', 'endswith'",
		 v);
	err->warn_at = a;
}

void constchk_warn(const struct ast *a, const char *v, struct cond_err *err)
{
	warn_regex(a, v, err);
	warn_pattern(a, v, err);
	warn_field_like(a, v, err);
}

/*
 * Falco compiles a regex with RE2, in time linear in its size; glibc's
 * regcomp is not linear: a repetition of a repetition ("a++++"), deeply
 * nested repetitions and large counts take it exponential time or memory,
 * at load. Refused as RE2 refuses them (a repetition of a repetition, but
 * for one lazy '?', and a count, or counts nested into one another, over
 * RE2's 1000, and a back-reference, which RE2 does not have and glibc's
 * matcher backtracks on), and repetitions nested deeper than
 * CONSTCHK_NEST_MAX, which RE2 would take.
 */
#define CONSTCHK_REPEAT_MAX 1000 /* RE2's kMaxRepeat */
/* regcomp's time doubles with each level: 8 take some 40 ms, 16 over 8 s */
#define CONSTCHK_NEST_MAX 6
#define CONSTCHK_GROUPS_MAX 64 /* parentheses within parentheses */

struct rx_frame {
	int depth; /* the deepest repetition nesting within the group */
	long prod; /* the largest product of nested counts within it */
};

/* "{m}", "{m,}", "{m,n}" at s: its length and the count it expands to. */
static size_t interval(const char *s, long *k)
{
	const char *p = s + 1;
	long m = 0, n = -1;

	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p) && m <= CONSTCHK_REPEAT_MAX)
		m = m * 10 + (*p++ - '0');
	if (*p == ',') {
		p++;
		if (isdigit((unsigned char)*p))
			for (n = 0; isdigit((unsigned char)*p) && n <= CONSTCHK_REPEAT_MAX;)
				n = n * 10 + (*p++ - '0');
	}
	if (*p != '}')
		return 0;
	*k = n > m ? n : m;
	if (*k < 1)
		*k = 1;
	return (size_t)(p + 1 - s);
}

/* The end of the bracket expression opening at s ('[' ... ']'). */
static const char *bracket_end(const char *s)
{
	const char *p = s + 1;

	if (*p == '^')
		p++;
	if (*p == ']')
		p++;
	for (; *p && *p != ']'; p++)
		if (*p == '[' && (p[1] == ':' || p[1] == '=' || p[1] == '.')) {
			const char *e = strchr(p + 2, p[1]);

			if (e && e[1] == ']')
				p = e + 1;
		}
	return *p ? p : p - 1;
}

int constchk_regex(const char *v, char *why, size_t n)
{
	struct rx_frame st[CONSTCHK_GROUPS_MAX + 1] = { { 0, 1 } };
	int top = 0, last_d = -1, quant = 0; /* quant: 1 after a repetition, 2 after its lazy '?' */
	long last_p = 1, k;
	const char *prev = v;

	for (const char *p = v; *p; p++) {
		size_t il = *p == '{' ? interval(p, &k) : 0;

		if (*p == '*' || *p == '+' || *p == '?' || il) {
			if (il == 0)
				k = 1;
			if (quant == 1 && *p == '?') {
				quant = 2; /* RE2's non-greedy x*? */
				continue;
			}
			if (quant) {
				snprintf(why, n, "bad repetition operator: %.*s", (int)(p + (il ? il : 1) - prev),
					 prev);
				return -1;
			}
			if (k > CONSTCHK_REPEAT_MAX || last_p * k > CONSTCHK_REPEAT_MAX) {
				snprintf(why, n, "bad repetition operator: %.*s", (int)(il ? il : 1), p);
				return -1;
			}
			prev = p;
			p += il ? il - 1 : 0;
			if (last_d < 0) /* nothing to repeat: regcomp's to judge */
				continue;
			last_d++;
			last_p *= k;
			if (last_d > CONSTCHK_NEST_MAX) {
				snprintf(why, n, "repetitions nested more than %d deep", CONSTCHK_NEST_MAX);
				return -1;
			}
			quant = 1;
		} else if (*p == '(') {
			if (top == CONSTCHK_GROUPS_MAX) {
				snprintf(why, n, "groups nested more than %d deep", CONSTCHK_GROUPS_MAX);
				return -1;
			}
			st[++top] = (struct rx_frame){ 0, 1 };
			last_d = -1;
			quant = 0;
			continue;
		} else if (*p == '|') {
			last_d = -1;
			quant = 0;
			continue;
		} else if (*p == ')' && top > 0) {
			last_d = st[top].depth;
			last_p = st[top].prod;
			top--;
			quant = 0;
		} else {
			if (*p == '\\' && p[1] >= '1' && p[1] <= '9') {
				/* a back-reference: RE2 has none, and glibc's
				 * matcher backtracks on one, per event */
				snprintf(why, n, "invalid escape sequence: \\%c", p[1]);
				return -1;
			}
			if (*p == '\\' && p[1])
				p++;
			else if (*p == '[')
				p = bracket_end(p);
			last_d = 0;
			last_p = 1;
			quant = 0;
		}
		if (last_d > st[top].depth)
			st[top].depth = last_d;
		if (last_p > st[top].prod)
			st[top].prod = last_p;
	}
	return 0;
}
