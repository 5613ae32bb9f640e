/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Condition tokens: every token is a span of the source text, so errors can
 * point at its offset. */
#ifndef AS_LEX_H
#define AS_LEX_H

#include <stddef.h>

struct lex {
	const char *s;
	size_t len;
	size_t pos;
};

struct tok {
	size_t off; /* in the source */
	size_t len;
};

void lex_ws(struct lex *l);
int lex_eof(struct lex *l);
/* Keyword (and, or, not, a transformer, val) as a whole word at pos. */
int lex_keyword(struct lex *l, const char *kw);
/* Field or macro name: [A-Za-z_][A-Za-z0-9_]*(.[A-Za-z0-9_]+)* */
int lex_ident(struct lex *l, struct tok *t);
/* Bare value: [^ \b\t\n\r(),="']+ */
int lex_bare(struct lex *l, struct tok *t);
/* Quoted value, its escapes decoded into out (malloc), as libsinsp reads it.
 * 1 ok, 0 not a quote here, -1 unterminated, -2 a bad escape (*err, at
 * *erroff), -ENOMEM. */
int lex_quoted(struct lex *l, struct tok *t, char **out, const char **err, size_t *erroff);
int lex_char(struct lex *l, char c);

#endif /* AS_LEX_H */
