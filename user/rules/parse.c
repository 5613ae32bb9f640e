// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Stage 2 of a condition (after lex.c): a precedence-climbing parser (not >
 * and > or) into an AST whose every node keeps its offset in the source
 * text; macros are looked up here, comparisons read by parse_operand.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "parse.h"

/* binary operators as data: keyword, precedence, AST kind */
static const struct {
	const char *kw;
	int prec;
	int kind;
} binops[] = {
	{ "or", 1, A_OR },
	{ "and", 2, A_AND },
};

void parse_err(struct parser *p, size_t off, const char *fmt, ...)
{
	va_list ap;

	if (p->failed)
		return;
	p->failed = 1;
	p->erroff = off;
	va_start(ap, fmt);
	vsnprintf(p->msg, p->msgsz, fmt, ap);
	va_end(ap);
}

struct ast *parse_node(struct parser *p, int kind, size_t off)
{
	struct ast *a = calloc(1, sizeof(*a));

	if (!a) {
		parse_err(p, off, "out of memory");
		return NULL;
	}
	a->kind = kind;
	a->off = off;
	a->src = p->t;
	return a;
}

char *parse_dup_tok(const struct parser *p, const struct tok *t)
{
	return strndup(p->l.s + t->off, t->len);
}

/* what is at pos, for error messages */
void parse_near(const struct parser *p, char *buf, size_t cap)
{
	size_t n = p->l.len - p->l.pos;

	if (n == 0) {
		snprintf(buf, cap, "end of condition");
		return;
	}
	if (n > 20)
		n = 20;
	snprintf(buf, cap, "'%.*s'", (int)n, p->l.s + p->l.pos);
	for (char *c = buf; *c; c++)
		if (*c == '\n' || *c == '\t' || *c == '\r')
			*c = ' ';
}

void parse_free(struct ast *a)
{
	if (!a)
		return;
	parse_free(a->l);
	parse_free(a->r);
	parse_fref_free(&a->lhs);
	parse_fref_free(&a->rhs);
	for (size_t i = 0; i < a->nvals; i++)
		free(a->vals[i]);
	free(a->vals);
	free(a->valquoted);
	free(a->name);
	free(a);
}

static const struct macro_def *find_macro(const struct cond_env *env, const char *name)
{
	for (size_t i = 0; i < env->nmacros; i++)
		if (strcmp(env->macros[i].name, name) == 0)
			return &env->macros[i];
	return NULL;
}

static struct ast *parse_expr(struct parser *p, int min_prec);

static struct ast *parse_check(struct parser *p)
{
	struct ast *a;
	struct tok t;
	size_t start, oplen;
	int op, rc;
	char buf[32];

	lex_ws(&p->l);
	start = p->l.pos;
	if (lex_char(&p->l, '(')) {
		if (++p->depth > COND_MAX_DEPTH) {
			parse_err(p, start, "condition nested deeper than %d levels", COND_MAX_DEPTH);
			return NULL;
		}
		a = parse_expr(p, 1);
		p->depth--;
		if (!a)
			return NULL;
		if (!lex_char(&p->l, ')')) {
			parse_near(p, buf, sizeof(buf));
			parse_err(p, p->l.pos, "expected ')', found %s", buf);
			parse_free(a);
			return NULL;
		}
		return a;
	}
	/* a macro: a name without dots, not a transformer call */
	{
		struct lex save = p->l;

		if (lex_ident(&p->l, &t) && !memchr(p->l.s + t.off, '.', t.len)) {
			size_t after = p->l.pos;

			lex_ws(&p->l);
			if (p->l.pos >= p->l.len || p->l.s[p->l.pos] != '(') {
				size_t n;

				p->l.pos = after;
				lex_ws(&p->l);
				if (p->l.pos >= p->l.len || ops_match(p->l.s + p->l.pos, &n) < 0) {
					p->l.pos = after;
					a = parse_node(p, A_MACRO, t.off);
					if (!a)
						return NULL;
					a->name = parse_dup_tok(p, &t);
					a->m = a->name ? find_macro(p->env, a->name) : NULL;
					return a;
				}
			}
		}
		p->l = save;
	}
	a = parse_node(p, A_CMP, start);
	if (!a)
		return NULL;
	a->src = p->t;
	{
		struct lex save = p->l;

		if (lex_keyword(&p->l, "val") && lex_char(&p->l, '(')) {
			parse_err(p, start, "val() can only be used on the right of an operator");
			goto fail;
		}
		p->l = save;
	}
	if (parse_fref(p, &a->lhs))
		goto fail;
	lex_ws(&p->l);
	op = p->l.pos < p->l.len ? ops_match(p->l.s + p->l.pos, &oplen) : -1;
	if (op < 0) {
		parse_near(p, buf, sizeof(buf));
		parse_err(p, p->l.pos, "expected an operator after '%s', found %s", a->lhs.name, buf);
		goto fail;
	}
	a->op = op;
	p->l.pos += oplen;
	switch (ops_table[op].kind) {
	case OK_UNARY:
		break;
	default:
		if (ops_table[op].flags & OF_MODIFIER) {
			struct ast *d = NULL;

			rc = parse_modified(p, a, &d);
			if (rc < 0)
				goto fail;
			if (rc > 0) {
				parse_free(a);
				return d;
			}
		}
		rc = parse_rhs_field(p, a);
		if (rc < 0)
			goto fail;
		if (rc > 0)
			break;
		if (ops_table[op].kind == OK_LIST ? parse_list(p, a) : parse_value(p, a, 0))
			goto fail;
		break;
	}
	return a;
fail:
	parse_free(a);
	return NULL;
}

static struct ast *parse_not(struct parser *p)
{
	size_t off;
	struct ast *a, *inner;

	lex_ws(&p->l);
	off = p->l.pos;
	if (!lex_keyword(&p->l, "not"))
		return parse_check(p);
	if (++p->depth > COND_MAX_DEPTH) {
		parse_err(p, off, "condition nested deeper than %d levels", COND_MAX_DEPTH);
		return NULL;
	}
	inner = parse_not(p);
	p->depth--;
	if (!inner)
		return NULL;
	a = parse_node(p, A_NOT, off);
	if (!a) {
		parse_free(inner);
		return NULL;
	}
	a->l = inner;
	return a;
}

/* precedence climbing over binops[] */
static struct ast *parse_expr(struct parser *p, int min_prec)
{
	struct ast *lhs = parse_not(p);

	while (lhs) {
		size_t i, off;
		struct ast *rhs, *n;

		lex_ws(&p->l);
		off = p->l.pos;
		for (i = 0; i < sizeof(binops) / sizeof(binops[0]); i++)
			if (binops[i].prec >= min_prec && lex_keyword(&p->l, binops[i].kw))
				break;
		if (i == sizeof(binops) / sizeof(binops[0]))
			break;
		if (++p->depth > COND_MAX_DEPTH) {
			parse_err(p, off, "condition nested deeper than %d levels", COND_MAX_DEPTH);
			parse_free(lhs);
			return NULL;
		}
		rhs = parse_expr(p, binops[i].prec + 1);
		p->depth--;
		if (!rhs) {
			parse_free(lhs);
			return NULL;
		}
		n = parse_node(p, binops[i].kind, off);
		if (!n) {
			parse_free(lhs);
			parse_free(rhs);
			return NULL;
		}
		n->l = lhs;
		n->r = rhs;
		lhs = n;
	}
	return lhs;
}

int parse_cond(const struct text *t, const struct cond_env *env, struct ast **out, char *msg,
	       size_t msgsz, size_t *erroff)
{
	struct parser p = { .l = { .s = t->s, .len = t->len }, .t = t, .env = env,
			    .msg = msg, .msgsz = msgsz };
	struct ast *a;
	char buf[32];

	*out = NULL;
	if (t->len > COND_MAX_LEN) {
		snprintf(msg, msgsz, "condition longer than %d bytes", COND_MAX_LEN);
		*erroff = 0;
		return -EINVAL;
	}
	if (lex_eof(&p.l)) {
		snprintf(msg, msgsz, "empty condition");
		*erroff = 0;
		return -EINVAL;
	}
	a = parse_expr(&p, 1);
	if (a && !lex_eof(&p.l)) {
		parse_near(&p, buf, sizeof(buf));
		parse_err(&p, p.l.pos, "unexpected %s", buf);
		parse_free(a);
		a = NULL;
	}
	if (!a) {
		if (!p.failed)
			parse_err(&p, p.l.pos, "invalid condition");
		*erroff = p.erroff;
		return -EINVAL;
	}
	*out = a;
	return 0;
}

int parse_uses_field(const struct ast *a, const char *name, int depth)
{
	if (!a || depth > COND_MAX_DEPTH + COND_MAX_MACRO_DEPTH)
		return 0;
	switch (a->kind) {
	case A_CMP:
		return !strcmp(a->lhs.name, name) || (a->has_rfield && !strcmp(a->rhs.name, name));
	case A_MACRO:
		return a->m && parse_uses_field(a->m->ast, name, depth + 1);
	default:
		return parse_uses_field(a->l, name, depth + 1) ||
		       parse_uses_field(a->r, name, depth + 1);
	}
}
