// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Stage 2 of a condition (after lex.c): a precedence-climbing parser (not >
 * and > or) into an AST whose every node keeps its offset in the source
 * text, lists expanded as Falco's list resolver does, macros looked up.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* binary operators as data: keyword, precedence, AST kind */
static const struct {
	const char *kw;
	int prec;
	int kind;
} binops[] = {
	{ "or", 1, A_OR },
	{ "and", 2, A_AND },
};

static void perr(struct parser *p, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void perr(struct parser *p, size_t off, const char *fmt, ...)
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

static struct ast *node(struct parser *p, int kind, size_t off)
{
	struct ast *a = calloc(1, sizeof(*a));

	if (!a) {
		perr(p, off, "out of memory");
		return NULL;
	}
	a->kind = kind;
	a->off = off;
	a->src = p->t;
	return a;
}

static char *dup_tok(const struct parser *p, const struct tok *t)
{
	return strndup(p->l.s + t->off, t->len);
}

/* what is at pos, for error messages */
static void near(const struct parser *p, char *buf, size_t cap)
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
	free(a->lhs.name);
	free(a->lhs.arg);
	free(a->rhs.name);
	free(a->rhs.arg);
	for (size_t i = 0; i < a->nvals; i++)
		free(a->vals[i]);
	free(a->vals);
	free(a->valquoted);
	free(a->name);
	free(a);
}

static const struct list_def *find_list(const struct cond_env *env, const char *name)
{
	for (size_t i = env->nlists; i-- > 0;)
		if (strcmp(env->lists[i].name, name) == 0)
			return &env->lists[i];
	return NULL;
}

/* A list a condition expands: noted as used (the unused-list warning). */
static const struct list_def *use_list(const struct cond_env *env, const char *name)
{
	const struct list_def *ld = find_list(env, name);

	if (ld)
		env->lists[ld - env->lists].used = 1;
	return ld;
}

static const struct macro_def *find_macro(const struct cond_env *env, const char *name)
{
	for (size_t i = 0; i < env->nmacros; i++)
		if (strcmp(env->macros[i].name, name) == 0)
			return &env->macros[i];
	return NULL;
}

static int add_val(struct parser *p, struct ast *a, char *v, int quoted)
{
	char **nv = realloc(a->vals, (a->nvals + 1) * sizeof(*nv));
	int *nq;

	if (!nv) {
		free(v);
		perr(p, a->off, "out of memory");
		return -ENOMEM;
	}
	a->vals = nv;
	nq = realloc(a->valquoted, (a->nvals + 1) * sizeof(*nq));
	if (!nq) {
		free(v);
		perr(p, a->off, "out of memory");
		return -ENOMEM;
	}
	a->valquoted = nq;
	a->vals[a->nvals] = v;
	a->valquoted[a->nvals++] = quoted;
	return 0;
}

/* One list item as Falco's textual expansion would read it: a quoted item
 * loses its quotes. */
static int add_list_item(struct parser *p, struct ast *a, const char *item)
{
	size_t n = strlen(item);

	if (n >= 2 && (item[0] == '"' || item[0] == '\'') && item[n - 1] == item[0])
		return add_val(p, a, strndup(item + 1, n - 2), 1);
	return add_val(p, a, strdup(item), 0);
}

/* A value: quoted, or bare; a bare list name in a list expands to its items. */
static int parse_value(struct parser *p, struct ast *a, int in_list)
{
	struct tok t;
	char *q = NULL;
	const char *why = NULL;
	size_t at = 0;
	int r = lex_quoted(&p->l, &t, &q, &why, &at);
	char buf[32];

	if (r == -ENOMEM) {
		perr(p, p->l.pos, "out of memory");
		return r;
	}
	if (r == -2) {
		if (!strncmp(why, "unsupported", 11))
			perr(p, at, "unsupported escape sequence '\\%c' in a quoted string",
			     p->l.s[at + 1]);
		else
			perr(p, at, "%s", why);
		return -EINVAL;
	}
	if (r < 0) {
		perr(p, t.off, "unterminated quoted string");
		return -EINVAL;
	}
	if (r > 0) {
		/* libsinsp's list resolver sees values, not quotes: a quoted item
		 * naming a list (one with a space, say) expands too */
		const struct list_def *ld = in_list ? use_list(p->env, q) : NULL;

		if (!ld)
			return add_val(p, a, q, 1);
		free(q);
		for (size_t i = 0; i < ld->nitems; i++)
			if (add_list_item(p, a, ld->items[i]))
				return -ENOMEM;
		return 0;
	}
	if (!lex_bare(&p->l, &t)) {
		near(p, buf, sizeof(buf));
		perr(p, p->l.pos, "expected a value, found %s", buf);
		return -EINVAL;
	}
	if (in_list) {
		char *name = dup_tok(p, &t);
		const struct list_def *ld = name ? use_list(p->env, name) : NULL;

		if (ld) {
			free(name);
			for (size_t i = 0; i < ld->nitems; i++)
				if (add_list_item(p, a, ld->items[i]))
					return -ENOMEM;
			return 0;
		}
		return add_val(p, a, name, 0);
	}
	return add_val(p, a, dup_tok(p, &t), 0);
}

static int parse_list(struct parser *p, struct ast *a)
{
	char buf[32];

	a->is_list = 1;
	if (!lex_char(&p->l, '(')) {
		/* a bare list name stands for its parenthesised items */
		size_t at = p->l.pos;

		if (parse_value(p, a, 1))
			return -EINVAL;
		if (a->nvals == 1 && !a->valquoted[0] && !find_list(p->env, a->vals[0])) {
			perr(p, at, "expected '(' or a list name after '%s'", ops_table[a->op].text);
			return -EINVAL;
		}
		return 0;
	}
	if (lex_char(&p->l, ')'))
		return 0;
	for (;;) {
		if (parse_value(p, a, 1))
			return -EINVAL;
		if (lex_char(&p->l, ','))
			continue;
		if (lex_char(&p->l, ')'))
			return 0;
		near(p, buf, sizeof(buf));
		perr(p, p->l.pos, "expected ',' or ')' in a list, found %s", buf);
		return -EINVAL;
	}
}

static int lex_xform(struct parser *p);

/* field, [arg], or transformer(field) */
static int parse_fref(struct parser *p, struct fref *f)
{
	struct tok t, ta;
	char buf[32];

	lex_ws(&p->l);
	f->off = p->l.pos;
	for (;;) {
		int x = lex_xform(p);

		if (x < 0)
			break;
		if (f->nxf >= COND_MAX_XFORMS) {
			perr(p, p->l.pos, "more than %d nested transformers", COND_MAX_XFORMS);
			return -EINVAL;
		}
		f->xf[f->nxf++] = x;
	}
	if (!lex_ident(&p->l, &t)) {
		near(p, buf, sizeof(buf));
		perr(p, p->l.pos, "expected a field name, found %s", buf);
		return -EINVAL;
	}
	f->name = dup_tok(p, &t);
	switch (lex_farg(&p->l, &ta)) {
	case 1:
		f->arg = strndup(p->l.s + ta.off, ta.len);
		f->has_arg = 1;
		break;
	case -1:
		perr(p, ta.off, "unterminated '[' after field '%s'", f->name);
		return -EINVAL;
	default:
		break;
	}
	for (int i = 0; i < f->nxf; i++) {
		if (!lex_char(&p->l, ')')) {
			near(p, buf, sizeof(buf));
			perr(p, p->l.pos, "expected ')' after transformer argument, found %s", buf);
			return -EINVAL;
		}
	}
	return f->name ? 0 : -ENOMEM;
}

/* A transformer name followed by '(' at pos (consumed); -1 when none. */
static int lex_xform(struct parser *p)
{
	for (int x = XF_NONE + 1; x < XF_MAX; x++) {
		size_t save = p->l.pos;

		if (lex_keyword(&p->l, xforms_table[x].name) && lex_char(&p->l, '('))
			return x;
		p->l.pos = save;
	}
	return -1;
}

/*
 * The right-hand side as a field, as libsinsp reads it: val(field), where
 * the field takes no transformer, or a transformer around a field (or
 * around another transformer). 1 parsed into a->rhs, 0 none here, -EINVAL.
 */
static int parse_rhs_field(struct parser *p, struct ast *a)
{
	struct lex save = p->l;
	char buf[32];
	size_t at;

	lex_ws(&p->l);
	at = p->l.pos;
	if (lex_keyword(&p->l, "val") && lex_char(&p->l, '(')) {
		lex_ws(&p->l);
		if (lex_xform(p) >= 0) {
			perr(p, p->l.pos, "val() takes a field, not a transformer");
			return -EINVAL;
		}
		a->has_rfield = 1;
		if (parse_fref(p, &a->rhs))
			return -EINVAL;
		if (!lex_char(&p->l, ')')) {
			near(p, buf, sizeof(buf));
			perr(p, p->l.pos, "expected ')' after val(, found %s", buf);
			return -EINVAL;
		}
		return 1;
	}
	p->l = save;
	lex_ws(&p->l);
	if (lex_xform(p) >= 0) {
		p->l.pos = at;
		a->has_rfield = 1;
		return parse_fref(p, &a->rhs) ? -EINVAL : 1;
	}
	p->l = save;
	return 0;
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
			perr(p, start, "condition nested deeper than %d levels", COND_MAX_DEPTH);
			return NULL;
		}
		a = parse_expr(p, 1);
		p->depth--;
		if (!a)
			return NULL;
		if (!lex_char(&p->l, ')')) {
			near(p, buf, sizeof(buf));
			perr(p, p->l.pos, "expected ')', found %s", buf);
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
					a = node(p, A_MACRO, t.off);
					if (!a)
						return NULL;
					a->name = dup_tok(p, &t);
					a->m = a->name ? find_macro(p->env, a->name) : NULL;
					return a;
				}
			}
		}
		p->l = save;
	}
	a = node(p, A_CMP, start);
	if (!a)
		return NULL;
	a->src = p->t;
	{
		struct lex save = p->l;

		if (lex_keyword(&p->l, "val") && lex_char(&p->l, '(')) {
			perr(p, start, "val() can only be used on the right of an operator");
			goto fail;
		}
		p->l = save;
	}
	if (parse_fref(p, &a->lhs))
		goto fail;
	lex_ws(&p->l);
	op = p->l.pos < p->l.len ? ops_match(p->l.s + p->l.pos, &oplen) : -1;
	if (op < 0) {
		near(p, buf, sizeof(buf));
		perr(p, p->l.pos, "expected an operator after '%s', found %s", a->lhs.name, buf);
		goto fail;
	}
	a->op = op;
	p->l.pos += oplen;
	switch (ops_table[op].kind) {
	case OK_UNARY:
		break;
	default:
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
		perr(p, off, "condition nested deeper than %d levels", COND_MAX_DEPTH);
		return NULL;
	}
	inner = parse_not(p);
	p->depth--;
	if (!inner)
		return NULL;
	a = node(p, A_NOT, off);
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
			perr(p, off, "condition nested deeper than %d levels", COND_MAX_DEPTH);
			parse_free(lhs);
			return NULL;
		}
		rhs = parse_expr(p, binops[i].prec + 1);
		p->depth--;
		if (!rhs) {
			parse_free(lhs);
			return NULL;
		}
		n = node(p, binops[i].kind, off);
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
		near(&p, buf, sizeof(buf));
		perr(&p, p.l.pos, "unexpected %s", buf);
		parse_free(a);
		a = NULL;
	}
	if (!a) {
		if (!p.failed)
			perr(&p, p.l.pos, "invalid condition");
		*erroff = p.erroff;
		return -EINVAL;
	}
	*out = a;
	return 0;
}

/* The whole of s as one thing parse_one reads; 0, or -EINVAL with msg. */
static int parse_whole(struct parser *p, const char *s, const char *what,
		       int (*parse_one)(struct parser *, void *), void *arg)
{
	char buf[32];

	p->l = (struct lex){ .s = s, .len = strlen(s) };
	if (parse_one(p, arg))
		return -EINVAL;
	if (!lex_eof(&p->l)) {
		near(p, buf, sizeof(buf));
		perr(p, p->l.pos, "unexpected %s after the %s '%s'", buf, what, s);
		return -EINVAL;
	}
	return 0;
}

static int parse_one_fref(struct parser *p, void *f)
{
	return parse_fref(p, f);
}

static int parse_one_rhs(struct parser *p, void *a)
{
	return parse_rhs_field(p, a) == 1 ? 0 : -EINVAL;
}

/* val(f) or a transformer call: a value that stands for a field. */
static int is_field_call(const char *v)
{
	size_t n = strlen(v);

	if (!n || v[n - 1] != ')')
		return 0;
	if (!strncmp(v, "val(", 4))
		return 1;
	for (int x = XF_NONE + 1; x < XF_MAX; x++) {
		size_t k = strlen(xforms_table[x].name);

		if (!strncmp(v, xforms_table[x].name, k) && v[k] == '(')
			return 1;
	}
	return 0;
}

int parse_cmp_parts(const struct cond_env *env, const struct text *src, const char *field,
		    const char *op, const char *const *vals, size_t nvals, struct ast **out,
		    char *msg, size_t msgsz)
{
	struct parser p = { .t = src, .env = env, .msg = msg, .msgsz = msgsz };
	struct ast *a = node(&p, A_CMP, 0);
	size_t oplen;
	int rc = -EINVAL;

	*out = NULL;
	if (!a)
		return -ENOMEM;
	if (parse_whole(&p, field, "field", parse_one_fref, &a->lhs))
		goto fail;
	a->op = ops_match(op, &oplen);
	if (a->op < 0 || oplen != strlen(op) || ops_table[a->op].kind == OK_UNARY) {
		snprintf(msg, msgsz, "'%s' is not a comparison operator", op);
		goto fail;
	}
	a->is_list = ops_table[a->op].kind == OK_LIST;
	/* Falco's exception values are values, not condition text: a field
	 * call on its own is the field on the right, a list name in a set is
	 * its items, anything else the string as written */
	if (nvals == 1 && is_field_call(vals[0])) {
		if (parse_whole(&p, vals[0], "value", parse_one_rhs, a))
			goto fail;
		*out = a;
		return 0;
	}
	if (!a->is_list && nvals != 1) {
		snprintf(msg, msgsz, "a list of values needs in, intersects or pmatch, not '%s'", op);
		goto fail;
	}
	for (size_t i = 0; i < nvals; i++) {
		const struct list_def *ld = a->is_list ? use_list(env, vals[i]) : NULL;

		char *v = ld ? NULL : strdup(vals[i]);

		rc = -ENOMEM;
		if (!ld && (!v || add_val(&p, a, v, 1)))
			goto fail;
		for (size_t k = 0; ld && k < ld->nitems; k++)
			if (add_list_item(&p, a, ld->items[k]))
				goto fail;
	}
	*out = a;
	return 0;
fail:
	parse_free(a);
	return rc;
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

