// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The arguments of Falco 0.44's multivalue transformers (join, concat,
 * getopt), as libsinsp's parser reads them (filter_parser.ut.cpp
 * parse_transformer_list_*): each argument is a field (with transformers, or
 * a call of its own), a quoted string, a number, or a parenthesised list of
 * those; a list holds no list, and neither a bare string nor a macro name.
 * How many arguments and of what kind a call takes is the compiler's
 * question (xcall.c), as it is libsinsp's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "parse.h"

static void xarg_free(struct xarg *a)
{
	parse_fref_free(&a->f);
	free(a->s);
	for (size_t i = 0; i < a->nitems; i++)
		xarg_free(&a->items[i]);
	free(a->items);
}

void parse_xcall_free(struct xcall *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->nargs; i++)
		xarg_free(&x->args[i]);
	free(x->args);
	free(x);
}

static int xarg_copy(struct xarg *d, const struct xarg *s)
{
	*d = (struct xarg){ .kind = s->kind, .off = s->off };
	if (s->kind == XA_CONST)
		return (d->s = strdup(s->s)) ? 0 : -ENOMEM;
	if (s->kind == XA_FIELD) {
		d->f = s->f;
		d->f.name = strdup(s->f.name);
		d->f.arg = s->f.arg ? strdup(s->f.arg) : NULL;
		d->f.mx = s->f.mx ? parse_xcall_copy(s->f.mx) : NULL;
		return d->f.name && (!s->f.arg || d->f.arg) && (!s->f.mx || d->f.mx) ? 0 : -ENOMEM;
	}
	d->items = calloc(s->nitems ? s->nitems : 1, sizeof(*d->items));
	if (!d->items)
		return -ENOMEM;
	for (; d->nitems < s->nitems; d->nitems++)
		if (xarg_copy(&d->items[d->nitems], &s->items[d->nitems]))
			return -ENOMEM;
	return 0;
}

struct xcall *parse_xcall_copy(const struct xcall *s)
{
	struct xcall *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->xf = s->xf;
	d->sel = s->sel;
	d->off = s->off;
	d->args = calloc(s->nargs ? s->nargs : 1, sizeof(*d->args));
	if (!d->args) {
		free(d);
		return NULL;
	}
	for (; d->nargs < s->nargs; d->nargs++)
		if (xarg_copy(&d->args[d->nargs], &s->args[d->nargs])) {
			d->nargs++;
			parse_xcall_free(d);
			return NULL;
		}
	return d;
}

/* a number as libsinsp's RGX_NUMBER or RGX_HEXNUM reads it */
static int is_number(const char *s, size_t n)
{
	size_t i = 0, d = 0;

	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		for (i = 2; i < n; i++)
			if (!strchr("0123456789abcdefABCDEF", s[i]))
				return 0;
		return 1;
	}
	if (i < n && (s[i] == '+' || s[i] == '-'))
		i++;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++, d++;
	if (!d)
		return 0;
	if (i < n && s[i] == '.')
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			;
	if (i + 1 < n && (s[i] == 'e' || s[i] == 'E') && (s[i + 1] == '+' || s[i + 1] == '-')) {
		size_t e = i + 2;

		while (e < n && s[e] >= '0' && s[e] <= '9')
			e++;
		if (e > i + 2)
			i = e;
	}
	return i == n;
}

static struct xarg *grow(struct parser *p, struct xarg **v, size_t *n, size_t *total)
{
	struct xarg *nv;

	if (++*total > COND_MAX_XARGS) {
		parse_err(p, p->l.pos, "more than %d arguments in one transformer call",
			  COND_MAX_XARGS);
		return NULL;
	}
	nv = realloc(*v, (*n + 1) * sizeof(*nv));
	if (!nv) {
		parse_err(p, p->l.pos, "out of memory");
		return NULL;
	}
	*v = nv;
	nv[*n] = (struct xarg){ 0 };
	return &nv[(*n)++];
}

static int parse_arg(struct parser *p, struct xarg *a, int in_list, const char *fn,
		     size_t *total);

/* "(" read: items up to ")" */
static int parse_arg_list(struct parser *p, struct xarg *a, const char *fn, size_t *total)
{
	char buf[32];

	a->kind = XA_LIST;
	if (lex_char(&p->l, ')'))
		return 0;
	for (;;) {
		struct xarg *it = grow(p, &a->items, &a->nitems, total);

		if (!it || parse_arg(p, it, 1, fn, total))
			return -EINVAL;
		if (lex_char(&p->l, ','))
			continue;
		if (lex_char(&p->l, ')'))
			return 0;
		parse_near(p, buf, sizeof(buf));
		parse_err(p, p->l.pos, "expected ',' or ')' in a list of %s(), found %s", fn, buf);
		return -EINVAL;
	}
}

static int parse_arg(struct parser *p, struct xarg *a, int in_list, const char *fn,
		     size_t *total)
{
	struct tok t;
	const char *why = NULL;
	size_t at = 0;
	char buf[32];
	int r;

	lex_ws(&p->l);
	a->off = p->l.pos;
	r = lex_quoted(&p->l, &t, &a->s, &why, &at);
	if (r > 0) {
		a->kind = XA_CONST;
		return 0;
	}
	if (r < 0)
		return parse_quoted_fail(p, r, &t, why, at);
	if (lex_char(&p->l, '(')) {
		if (in_list) {
			parse_err(p, a->off, "a list in %s() cannot hold a list", fn);
			return -EINVAL;
		}
		return parse_arg_list(p, a, fn, total);
	}
	{
		struct lex save = p->l;

		if (lex_bare(&p->l, &t) && is_number(p->l.s + t.off, t.len)) {
			a->kind = XA_CONST;
			a->s = parse_dup_tok(p, &t);
			return a->s ? 0 : -ENOMEM;
		}
		p->l = save;
	}
	a->kind = XA_FIELD;
	if (parse_fref(p, &a->f))
		return -EINVAL;
	if (!a->f.mx && !strchr(a->f.name, '.')) {
		/* libsinsp: neither a macro nor a bare string is an argument */
		snprintf(buf, sizeof(buf), "%s", a->f.name);
		parse_err(p, a->off,
			  "expected a field, a quoted string or a list in %s(), found '%s'", fn,
			  buf);
		return -EINVAL;
	}
	return 0;
}

int parse_call(struct parser *p, int xf, size_t off, struct xcall **out)
{
	const char *fn = xforms_table[xf].name;
	struct xcall *x = calloc(1, sizeof(*x));
	size_t total = 0;
	char buf[32];

	*out = x;
	if (!x) {
		parse_err(p, off, "out of memory");
		return -ENOMEM;
	}
	x->xf = xf;
	x->off = off;
	if (++p->depth > COND_MAX_DEPTH) {
		parse_err(p, off, "transformer calls nested more than %d deep", COND_MAX_DEPTH);
		return -EINVAL;
	}
	if (!lex_char(&p->l, ')')) {
		for (;;) {
			struct xarg *a = grow(p, &x->args, &x->nargs, &total);

			if (!a || parse_arg(p, a, 0, fn, &total))
				return -EINVAL;
			if (lex_char(&p->l, ','))
				continue;
			if (lex_char(&p->l, ')'))
				break;
			parse_near(p, buf, sizeof(buf));
			parse_err(p, p->l.pos, "expected ',' or ')' in the arguments of %s(), found %s",
				  fn, buf);
			return -EINVAL;
		}
	}
	p->depth--;
	/* libs 0.25's field argument on a call: getopt(args, optstr)[c] keeps
	 * the last value of option c alone; no other call takes one */
	if (p->l.pos < p->l.len && p->l.s[p->l.pos] == '[') {
		size_t at = p->l.pos, end = at + 1;

		while (end < p->l.len && p->l.s[end] != ']')
			end++;
		if (end >= p->l.len) {
			parse_err(p, at, "unterminated '[' after %s()", fn);
			return -EINVAL;
		}
		if (xf != XF_GETOPT) {
			parse_err(p, at, "transformer '%s' does not support field arguments", fn);
			return -EINVAL;
		}
		if (end != at + 2) {
			parse_err(p, at, "getopt() field argument must be a single option character");
			return -EINVAL;
		}
		x->sel = p->l.s[at + 1];
		p->l.pos = end + 1;
	}
	return 0;
}
