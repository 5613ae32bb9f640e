// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "lex.h"

void lex_ws(struct lex *l)
{
	while (l->pos < l->len && (l->s[l->pos] == ' ' || l->s[l->pos] == '\t' ||
				   l->s[l->pos] == '\n' || l->s[l->pos] == '\r' ||
				   l->s[l->pos] == '\b' || l->s[l->pos] == '\f'))
		l->pos++;
}

int lex_eof(struct lex *l)
{
	lex_ws(l);
	return l->pos >= l->len;
}

static int ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

int lex_keyword(struct lex *l, const char *kw)
{
	size_t n = strlen(kw);

	lex_ws(l);
	if (l->len - l->pos < n || strncmp(l->s + l->pos, kw, n) != 0)
		return 0;
	if (l->pos + n < l->len && (ident_char(l->s[l->pos + n]) || l->s[l->pos + n] == '.'))
		return 0;
	l->pos += n;
	return 1;
}

int lex_ident(struct lex *l, struct tok *t)
{
	size_t p;

	lex_ws(l);
	p = l->pos;
	if (p >= l->len || !(isalpha((unsigned char)l->s[p]) || l->s[p] == '_'))
		return 0;
	while (p < l->len && ident_char(l->s[p]))
		p++;
	while (p + 1 < l->len && l->s[p] == '.' && ident_char(l->s[p + 1])) {
		p++;
		while (p < l->len && ident_char(l->s[p]))
			p++;
	}
	t->off = l->pos;
	t->len = p - l->pos;
	l->pos = p;
	return 1;
}

int lex_farg(struct lex *l, struct tok *t)
{
	size_t p = l->pos;

	if (p >= l->len || l->s[p] != '[')
		return 0;
	p++;
	while (p < l->len && l->s[p] != ']')
		p++;
	if (p >= l->len)
		return -1;
	t->off = l->pos + 1;
	t->len = p - l->pos - 1;
	l->pos = p + 1;
	return 1;
}

int lex_bare(struct lex *l, struct tok *t)
{
	size_t p;

	lex_ws(l);
	p = l->pos;
	while (p < l->len && !strchr(" \b\t\n\r\f(),=\"'", l->s[p]) && l->s[p])
		p++;
	if (p == l->pos)
		return 0;
	t->off = l->pos;
	t->len = p - l->pos;
	l->pos = p;
	return 1;
}

int lex_quoted(struct lex *l, struct tok *t, char **out)
{
	char q;
	size_t p, o = 0;
	char *b;

	lex_ws(l);
	if (l->pos >= l->len || (l->s[l->pos] != '"' && l->s[l->pos] != '\''))
		return 0;
	q = l->s[l->pos];
	b = malloc(l->len - l->pos + 1);
	if (!b)
		return -1;
	for (p = l->pos + 1; p < l->len && l->s[p] != q; p++) {
		char c = l->s[p];

		if (c == '\\' && p + 1 < l->len) {
			c = l->s[++p];
			switch (c) {
			case 'n':
				c = '\n';
				break;
			case 't':
				c = '\t';
				break;
			case 'r':
				c = '\r';
				break;
			case 'b':
				c = '\b';
				break;
			case 'f':
				c = '\f';
				break;
			case '"':
			case '\'':
			case '\\':
				break;
			default: /* unknown escape: keep the backslash */
				b[o++] = '\\';
				break;
			}
		}
		b[o++] = c;
	}
	if (p >= l->len) {
		free(b);
		t->off = l->pos;
		return -1;
	}
	b[o] = 0;
	t->off = l->pos;
	t->len = p + 1 - l->pos;
	l->pos = p + 1;
	*out = b;
	return 1;
}

int lex_char(struct lex *l, char c)
{
	lex_ws(l);
	if (l->pos < l->len && l->s[l->pos] == c) {
		l->pos++;
		return 1;
	}
	return 0;
}
