/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The parser's state and the parts its two files share (not a public
 * interface): parse.c reads expressions, parse_operand.c what a comparison
 * holds (fields, transformers, values, lists). */
#ifndef AS_RULES_PARSE_H
#define AS_RULES_PARSE_H

#include "rules.h"
#include "lex.h"

struct parser {
	struct lex l;
	const struct text *t;
	const struct cond_env *env;
	int depth;
	char *msg;
	size_t msgsz;
	size_t erroff;
	int failed;
};

/* The first error wins: its message and offset. */
void parse_err(struct parser *p, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
struct ast *parse_node(struct parser *p, int kind, size_t off);
char *parse_dup_tok(const struct parser *p, const struct tok *t);
/* what is at the position, for error messages */
void parse_near(const struct parser *p, char *buf, size_t cap);

/* parse_operand.c; each 0 or -errno (the error set) */
int parse_fref(struct parser *p, struct fref *f); /* field, [arg], transformer(field) */
int parse_xform(struct parser *p); /* a transformer name and '(' (consumed), or -1 */
/* parse_call.c: the arguments of call xf (its name and '(' read, at off)
 * up to its ')'; *out is set even on error (parse_fref_free frees it) */
int parse_call(struct parser *p, int xf, size_t off, struct xcall **out);
void parse_xcall_free(struct xcall *x);
struct xcall *parse_xcall_copy(const struct xcall *x);
/* val(field) or a transformer on the right: 1 parsed, 0 none here, -EINVAL */
int parse_rhs_field(struct parser *p, struct ast *a);
int parse_value(struct parser *p, struct ast *a, int in_list);
/* lex_quoted's -2 (a bad escape, why, at) as the parse error */
void parse_quoted_err(struct parser *p, const char *why, size_t at);
/* lex_quoted's result r as the parse error it is (0 when r >= 0): out of
 * memory, a bad escape (why, at), or a string with no closing quote at t */
int parse_quoted_fail(struct parser *p, int r, const struct tok *t, const char *why, size_t at);
int parse_list(struct parser *p, struct ast *a);
/* op oneof|anyof|allof (list) after a's operator: 1 with *out the
 * comparisons it stands for (a unchanged), 0 no modifier here, -errno */
int parse_modified(struct parser *p, struct ast *a, struct ast **out);
/* The comparisons a (its values) stands for under modifier mod. */
int parse_expand_modifier(struct parser *p, const struct ast *a, int mod, struct ast **out);

#endif /* AS_RULES_PARSE_H */
