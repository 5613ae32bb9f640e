// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <ctype.h>
#include <errno.h>
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

static int hexdig(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * As libsinsp's lexer and unescape_str: the string ends at the first quote
 * of its kind whose previous byte is not a backslash (so 'a\\' does not end
 * there); then the escapes \b \f \n \r \t \\ \/ \xHH, \" only in a
 * "-quoted and \' only in a '-quoted string, and "\ " (a backslash: kept
 * for rules escaped that way) are decoded; any other escape is an error.
 */
int lex_quoted(struct lex *l, struct tok *t, char **out, const char **err, size_t *erroff)
{
	char q;
	size_t p, end, o = 0;
	char *b;

	lex_ws(l);
	if (l->pos >= l->len || (l->s[l->pos] != '"' && l->s[l->pos] != '\''))
		return 0;
	q = l->s[l->pos];
	t->off = l->pos;
	for (end = l->pos + 1; end < l->len; end++)
		if (l->s[end] == q && l->s[end - 1] != '\\')
			break;
	if (end >= l->len)
		return -1;
	b = malloc(end - l->pos + 1);
	if (!b)
		return -ENOMEM;
	for (p = l->pos + 1; p < end; p++) {
		char c = l->s[p];
		int hi, lo;

		if (c != '\\' || p + 1 >= end) {
			b[o++] = c;
			continue;
		}
		c = l->s[++p];
		switch (c) {
		case 'b':
			b[o++] = '\b';
			break;
		case 'f':
			b[o++] = '\f';
			break;
		case 'n':
			b[o++] = '\n';
			break;
		case 'r':
			b[o++] = '\r';
			break;
		case 't':
			b[o++] = '\t';
			break;
		case ' ':
		case '\\':
			b[o++] = '\\';
			break;
		case '/':
			b[o++] = '/';
			break;
		case '"':
		case '\'':
			if (c != q) {
				*err = c == '"' ? "invalid \\\" escape in a '-quoted string" :
						  "invalid \\' escape in a \"-quoted string";
				goto bad;
			}
			b[o++] = c;
			break;
		case 'x':
			hi = p + 1 < end ? hexdig(l->s[p + 1]) : -1;
			lo = p + 2 < end ? hexdig(l->s[p + 2]) : -1;
			if (hi < 0 || lo < 0) {
				*err = "\\x needs two hex digits";
				goto bad;
			}
			b[o++] = (char)(hi << 4 | lo);
			p += 2;
			break;
		default:
			*err = "unsupported escape sequence in a quoted string";
			goto bad;
		}
	}
	b[o] = 0;
	t->len = end + 1 - l->pos;
	l->pos = end + 1;
	*out = b;
	return 1;
bad:
	free(b);
	*erroff = p - 1;
	return -2;
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
