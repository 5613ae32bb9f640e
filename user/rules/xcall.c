// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Falco 0.44's multivalue transformers (libs
 * sinsp_filtercheck_multivalue_transformer.cpp, and the cases of
 * test/filter_transformer.ut.cpp): their argument rules at load, their value
 * per event.
 *
 *   join(sep, list)      the list's values with sep between them: a string
 *   concat(a, b, ...)    two or more strings end to end: a string
 *   getopt(list, optstr) the options getopt(3) finds in list, each followed
 *                        by its argument when optstr says it takes one: a
 *                        list of strings (in, intersects, exists, len())
 *
 * A list is a parenthesised list of fields and constants, or a list-valued
 * call (getopt). A number in a list counts as its decimal text, as libsinsp's
 * rawnum_check makes it. Any argument without a value leaves the call
 * without one (libsinsp's list_check fails as a whole).
 *
 * Evaluation allocates nothing: the result is built in the slot's buffer
 * (FIELDS_BUF_MAX bytes, the largest value any field has); a result that
 * does not fit there has no value, so no comparison on it is true (where
 * Falco, with no limit, would compare the whole string).
 *
 * getopt follows the libs test suite case by case (filter_transformer.ut.cpp
 * multivalue_transformer_getopt): "--" ends the options; a word not starting
 * with '-', or "-" alone, is skipped and the scan goes on (the GNU
 * extension); in a word of options only letters and digits count and those
 * not in optstr are skipped; an option whose argument is missing gives "".
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rules.h"

static void xerr(struct cond_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void xerr(struct cond_err *err, const char *fmt, ...)
{
	va_list ap;

	err->at = NULL;
	err->unsupported = 0;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

/* ---- load ---- */

struct xbuild {
	struct slot_arg *v;
	size_t n;
	FILE *text; /* the call spelled out: the slot's text, what equal calls share */
};

/* what libsinsp's argument_types() says of one argument */
struct xfacts {
	int is_list;
	int type; /* check type (slot_check_type) of a single value */
};

static int xb_add(struct xbuild *b, int slot, const char *s, int in_list)
{
	struct slot_arg *nv = realloc(b->v, (b->n + 1) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	b->v = nv;
	nv[b->n] = (struct slot_arg){ .slot = slot, .in_list = in_list };
	if (s) {
		nv[b->n].s = strdup(s);
		if (!nv[b->n].s)
			return -ENOMEM;
		nv[b->n].len = strlen(s);
	}
	b->n++;
	return 0;
}

static void put_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static int xarg_build(struct engine *e, const struct xarg *a, int in_list, struct xbuild *b,
		      struct xfacts *fa, struct cond_err *err)
{
	int s, rc;

	switch (a->kind) {
	case XA_CONST:
		*fa = (struct xfacts){ .type = T_STR };
		put_quoted(b->text, a->s);
		return xb_add(b, -1, a->s, in_list);
	case XA_FIELD:
		s = slot_find(e, &a->f, err);
		if (s < 0)
			return s;
		if (e->slots[s].any) {
			xerr(err, "'%s' needs an index to be an argument of a transformer",
			     e->slots[s].text);
			return -EINVAL;
		}
		*fa = (struct xfacts){ .is_list = e->slots[s].list,
				       .type = slot_check_type(&e->slots[s]) };
		fputs(e->slots[s].text, b->text);
		return xb_add(b, s, NULL, in_list);
	default:
		fputc('(', b->text);
		for (size_t i = 0; i < a->nitems; i++) {
			struct xfacts it;

			if (i)
				fputs(", ", b->text);
			rc = xarg_build(e, &a->items[i], 1, b, &it, err);
			if (rc)
				return rc;
		}
		fputc(')', b->text);
		*fa = (struct xfacts){ .is_list = 1, .type = T_STR };
		return 0;
	}
}

/* libsinsp's constructor checks, its words */
static int xcall_check(int xf, const struct xfacts *fa, size_t n, struct cond_err *err)
{
	switch (xf) {
	case XF_JOIN:
		if (n != 2)
			xerr(err, "join() requires exactly 2 arguments: separator and list");
		else if (fa[0].is_list)
			xerr(err, "join() first argument (separator) must be a single value, not a list");
		else if (!fa[1].is_list)
			xerr(err, "join() second argument must be a list");
		else
			return 0;
		return -EINVAL;
	case XF_CONCAT:
		if (n < 2) {
			xerr(err, "concat() requires at least 2 arguments");
			return -EINVAL;
		}
		for (size_t i = 0; i < n; i++)
			if (fa[i].is_list || fa[i].type != T_STR) {
				xerr(err, "concat() arguments must be strings");
				return -EINVAL;
			}
		return 0;
	default: /* XF_GETOPT */
		if (n != 2)
			xerr(err, "getopt() requires exactly 2 arguments: args list and optstring");
		else if (!fa[0].is_list)
			xerr(err, "getopt() first argument must be a list");
		else if (fa[1].is_list)
			xerr(err, "getopt() second argument (optstring) must be a single value");
		else if (fa[1].type != T_STR)
			xerr(err, "getopt() arguments must be strings");
		else
			return 0;
		return -EINVAL;
	}
}

int xcall_slot(struct engine *e, const struct xcall *x, struct cond_err *err)
{
	struct xbuild b = { 0 };
	struct xfacts fa[COND_MAX_XARGS];
	struct slot k = { .field = 0, .idx = -1, .xform = x->xf, .parent = -1, .type = T_STR,
			  .list = x->xf == XF_GETOPT && !x->sel };
	char sel[2] = { x->sel, 0 };
	char *text = NULL;
	size_t tlen = 0;
	int rc = -ENOMEM, s;

	if (x->nargs > COND_MAX_XARGS) { /* the parser stops there first */
		xerr(err, "more than %d arguments in one transformer call", COND_MAX_XARGS);
		return -EINVAL;
	}
	b.text = open_memstream(&text, &tlen);
	if (!b.text)
		goto nomem;
	fprintf(b.text, "%s(", xforms_table[x->xf].name);
	for (size_t i = 0; i < x->nargs; i++) {
		if (i)
			fputs(", ", b.text);
		rc = xarg_build(e, &x->args[i], 0, &b, &fa[i], err);
		if (rc)
			goto fail;
	}
	fputc(')', b.text);
	if (x->sel) {
		fprintf(b.text, "[%c]", x->sel);
		k.arg = sel; /* slot_add copies it */
	}
	if (fclose(b.text)) {
		b.text = NULL;
		goto nomem;
	}
	b.text = NULL;
	rc = xcall_check(x->xf, fa, x->nargs, err);
	if (rc)
		goto fail;
	k.margs = b.v;
	k.nmargs = b.n;
	k.text = text;
	s = slot_add(e, &k);
	if (s < 0)
		goto nomem;
	if (e->slots[s].margs != b.v) /* an equal call's slot */
		goto done;
	free(text);
	return s;
done:
	for (size_t i = 0; i < b.n; i++)
		free(b.v[i].s);
	free(b.v);
	free(text);
	return s;
nomem:
	xerr(err, "out of memory");
	rc = -ENOMEM;
fail:
	if (b.text)
		fclose(b.text);
	for (size_t i = 0; i < b.n; i++)
		free(b.v[i].s);
	free(b.v);
	free(text);
	return rc;
}

/* ---- per event ---- */

struct xout {
	char *buf;
	size_t len, cap;
	int64_t count; /* getopt: values so far */
};

static int put(struct xout *o, const char *s, size_t n)
{
	if (o->len + n + 1 > o->cap)
		return -1;
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = 0;
	return 0;
}

/* getopt: one more value of the list result, NUL-terminated */
static int emit(struct xout *o, const char *s, size_t n)
{
	if (put(o, s, n) || put(o, "", 0))
		return -1;
	o->len++; /* keep the NUL */
	o->count++;
	return 0;
}

/* getopt(...)[c]: the one value so far, replaced; *found set */
static int keep(struct xout *o, int *found, const char *s, size_t n)
{
	*found = 1;
	o->len = 0;
	return put(o, s, n);
}

#define XNUM_MAX 24 /* an int64 in decimal, sign and NUL */

/* The values of margs[lo..hi), a list's items flattened, one at a time. */
struct xiter {
	struct evctx *c;
	const struct slot_arg *a;
	size_t i, hi;
	const struct fval *lv; /* the list value being walked, or NULL */
	size_t lpos;
	int64_t lleft;
	char num[XNUM_MAX];
};

/* 1: a value in *s and *n; 0: the end; -1: an argument without a value */
static int xnext(struct xiter *it, const char **s, size_t *n)
{
	for (;;) {
		const struct fval *v;

		if (it->lv && it->lleft > 0) {
			*s = it->lv->s + it->lpos;
			*n = strlen(*s);
			it->lpos += *n + 1;
			it->lleft--;
			return 1;
		}
		it->lv = NULL;
		if (it->i >= it->hi)
			return 0;
		if (it->a[it->i].slot < 0) {
			*s = it->a[it->i].s;
			*n = it->a[it->i].len;
			it->i++;
			return 1;
		}
		v = eval_slot(it->c, it->a[it->i].slot);
		if (!v->present)
			return -1;
		if (it->c->e->slots[it->a[it->i].slot].list) {
			it->lv = v;
			it->lpos = 0;
			it->lleft = v->n;
			it->i++;
			continue;
		}
		it->i++;
		if (v->type == T_STR) {
			*s = v->s;
			*n = v->len;
		} else {
			snprintf(it->num, sizeof(it->num), "%" PRId64, v->n);
			*s = it->num;
			*n = strlen(it->num);
		}
		return 1;
	}
}

static int xjoin(struct evctx *c, const struct slot *sl, struct xout *o)
{
	struct xiter sep = { .c = c, .a = sl->margs, .hi = 1 };
	struct xiter it = { .c = c, .a = sl->margs, .i = 1, .hi = sl->nmargs };
	const char *ss, *s;
	size_t sn, n;
	int r, first = 1;

	if (xnext(&sep, &ss, &sn) != 1)
		return -1;
	while ((r = xnext(&it, &s, &n)) == 1) {
		if ((!first && put(o, ss, sn)) || put(o, s, n))
			return -1;
		first = 0;
	}
	return r;
}

static int xconcat(struct evctx *c, const struct slot *sl, struct xout *o)
{
	struct xiter it = { .c = c, .a = sl->margs, .hi = sl->nmargs };
	const char *s;
	size_t n;
	int r;

	while ((r = xnext(&it, &s, &n)) == 1)
		if (put(o, s, n))
			return -1;
	return r;
}

static int xgetopt(struct evctx *c, const struct slot *sl, struct xout *o)
{
	struct xiter os = { .c = c, .a = sl->margs, .i = sl->nmargs - 1, .hi = sl->nmargs };
	struct xiter it = { .c = c, .a = sl->margs, .hi = sl->nmargs - 1 };
	unsigned char valid[256] = { 0 }, with_arg[256] = { 0 };
	const char *opts, *w, *v;
	size_t on, wn, vn;
	unsigned char sel = sl->arg ? (unsigned char)sl->arg[0] : 0;
	int r, found = 0;

	if (xnext(&os, &opts, &on) != 1)
		return -1;
	for (size_t i = 0; i < on; i++) {
		unsigned char ch = (unsigned char)opts[i];

		if (ch != ':')
			valid[ch] = 1;
		if (i + 1 < on && opts[i + 1] == ':') {
			with_arg[ch] = 1;
			i++;
		}
	}
	while ((r = xnext(&it, &w, &wn)) == 1) {
		if (wn == 2 && w[0] == '-' && w[1] == '-')
			break;
		if (wn < 2 || w[0] != '-')
			continue;
		for (size_t i = 1; i < wn; i++) {
			unsigned char ch = (unsigned char)w[i];

			if (!isalnum(ch) || !valid[ch])
				continue;
			if (sel) { /* getopt(...)[c]: the last c wins, copied at once (a
				    * number's text is the iterator's, rewritten by the next) */
				if (!with_arg[ch]) {
					if (ch == sel && keep(o, &found, w + i, 1))
						return -1;
					continue;
				}
				if (i + 1 < wn) {
					if (ch == sel && keep(o, &found, w + i + 1, wn - i - 1))
						return -1;
					break;
				}
				r = xnext(&it, &v, &vn);
				if (r < 0)
					return -1;
				if (ch == sel && keep(o, &found, r ? v : "", r ? vn : 0))
					return -1;
				break;
			}
			if (emit(o, w + i, 1))
				return -1;
			if (!with_arg[ch])
				continue;
			if (i + 1 < wn) {
				if (emit(o, w + i + 1, wn - i - 1))
					return -1;
				break;
			}
			r = xnext(&it, &v, &vn);
			if (r < 0)
				return -1;
			if (emit(o, r ? v : "", r ? vn : 0))
				return -1;
			break;
		}
	}
	if (r < 0)
		return -1;
	/* an option not given has no value, as in libs */
	return sel && !found ? -1 : 0;
}

void xcall_fill(struct evctx *c, struct slot *s)
{
	struct xout o = { .buf = s->buf, .cap = s->cap };
	int r;

	s->buf[0] = 0;
	switch (s->xform) {
	case XF_JOIN:
		r = xjoin(c, s, &o);
		break;
	case XF_CONCAT:
		r = xconcat(c, s, &o);
		break;
	default:
		r = xgetopt(c, s, &o);
		break;
	}
	if (r < 0) {
		s->v = (struct fval){ .type = T_STR };
		return;
	}
	s->v = (struct fval){ .present = 1, .type = T_STR, .s = s->buf, .len = o.len,
			      .n = o.count };
}
