// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Conditions: a precedence-climbing parser (not > and > or) into an AST,
 * and the compiler from the AST (macros inlined) to straight-line code with
 * short-circuit jumps over one boolean register.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rules.h"
#include "lex.h"
#include "names.h"

/* ---- parser ---- */

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

static const char *const xform_names[XF_MAX] = {
	[XF_TOLOWER] = "tolower", [XF_TOUPPER] = "toupper",
	[XF_BASENAME] = "basename", [XF_LEN] = "len",
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

void cond_free(struct ast *a)
{
	if (!a)
		return;
	cond_free(a->l);
	cond_free(a->r);
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
	int r = lex_quoted(&p->l, &t, &q);
	char buf[32];

	if (r < 0) {
		perr(p, t.off, "unterminated quoted string");
		return -EINVAL;
	}
	if (r > 0)
		return add_val(p, a, q, 1);
	if (!lex_bare(&p->l, &t)) {
		near(p, buf, sizeof(buf));
		perr(p, p->l.pos, "expected a value, found %s", buf);
		return -EINVAL;
	}
	if (in_list) {
		char *name = dup_tok(p, &t);
		const struct list_def *ld = name ? find_list(p->env, name) : NULL;

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

/* field, [arg], or transformer(field) */
static int parse_fref(struct parser *p, struct fref *f)
{
	struct tok t, ta;
	char buf[32];

	lex_ws(&p->l);
	f->off = p->l.pos;
	for (;;) {
		int x, found = 0;

		for (x = XF_TOLOWER; x < XF_MAX; x++) {
			size_t save = p->l.pos;

			if (lex_keyword(&p->l, xform_names[x]) && lex_char(&p->l, '(')) {
				found = 1;
				break;
			}
			p->l.pos = save;
		}
		if (!found)
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

static struct ast *parse_expr(struct parser *p, int min_prec);

static struct ast *parse_check(struct parser *p)
{
	struct ast *a;
	struct tok t;
	size_t start, oplen;
	int op;
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
			cond_free(a);
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
	case OK_LIST:
		if (parse_list(p, a))
			goto fail;
		break;
	default: {
		struct lex save = p->l;

		if (lex_keyword(&p->l, "val") && lex_char(&p->l, '(')) {
			a->has_rfield = 1;
			if (parse_fref(p, &a->rhs))
				goto fail;
			if (!lex_char(&p->l, ')')) {
				near(p, buf, sizeof(buf));
				perr(p, p->l.pos, "expected ')' after val(, found %s", buf);
				goto fail;
			}
			break;
		}
		p->l = save;
		if (parse_value(p, a, 0))
			goto fail;
		break;
	}
	}
	return a;
fail:
	cond_free(a);
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
		cond_free(inner);
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
			cond_free(lhs);
			return NULL;
		}
		rhs = parse_expr(p, binops[i].prec + 1);
		p->depth--;
		if (!rhs) {
			cond_free(lhs);
			return NULL;
		}
		n = node(p, binops[i].kind, off);
		if (!n) {
			cond_free(lhs);
			cond_free(rhs);
			return NULL;
		}
		n->l = lhs;
		n->r = rhs;
		lhs = n;
	}
	return lhs;
}

int cond_parse(const struct text *t, const struct cond_env *env, struct ast **out, char *msg,
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
		cond_free(a);
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

/* ---- compiler ---- */

static void cerr(struct cond_err *err, const struct ast *at, int unsupported, const char *fmt,
		 ...) __attribute__((format(printf, 4, 5)));

static void cerr(struct cond_err *err, const struct ast *at, int unsupported, const char *fmt,
		 ...)
{
	va_list ap;

	err->at = at;
	err->unsupported = unsupported;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

static int find_or_add_slot(struct engine *e, const struct slot *k)
{
	struct slot *s;

	for (size_t i = 0; i < e->nslots; i++) {
		s = &e->slots[i];
		if (s->field == k->field && s->idx == k->idx && s->xform == k->xform &&
		    s->parent == k->parent &&
		    ((!s->arg && !k->arg) || (s->arg && k->arg && !strcmp(s->arg, k->arg))))
			return (int)i;
	}
	if (e->nslots == e->capslots) {
		size_t cap = e->capslots ? 2 * e->capslots : 32;
		struct slot *n = realloc(e->slots, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		e->slots = n;
		e->capslots = cap;
	}
	s = &e->slots[e->nslots];
	*s = *k;
	s->direct = k->xform == XF_NONE && !k->any && !k->arg && fields_direct_ok(k->field);
	s->arg = k->arg ? strdup(k->arg) : NULL;
	s->text = strdup(k->text);
	s->cap = FIELDS_BUF_MAX;
	s->buf = malloc(s->cap);
	s->gen = 0;
	if (!s->text || !s->buf || (k->arg && !s->arg)) {
		free(s->arg);
		free(s->text);
		free(s->buf);
		return -ENOMEM;
	}
	return (int)e->nslots++;
}

int cond_slot(struct engine *e, const struct fref *f, struct cond_err *err)
{
	struct slot k = { .idx = -1, .xform = XF_NONE, .parent = -1 };
	char text[512];
	int id = fields_lookup(f->name), s;
	const char *arg = f->has_arg ? f->arg : NULL;

	if (id < 0 && strncmp(f->name, "evt.arg.", 8) == 0 && !f->has_arg) {
		id = F_EVT_ARG;
		arg = f->name + 8;
	}
	if (id < 0) {
		char full[300];

		snprintf(full, sizeof(full), "%s", f->name);
		if (fields_falco_known(f->name)) {
			cerr(err, NULL, 1, "field '%s' is not supported by agent-sentinel", f->name);
			return -ENOTSUP;
		}
		cerr(err, NULL, 0, "unknown field '%s'", full);
		return -EINVAL;
	}
	k.field = id;
	k.type = fields_table[id].type;
	if (fields_table[id].flags & FA_IDX) {
		if (arg) {
			char *end;
			long v = strtol(arg, &end, 10);

			if (!arg[0] || *end || v < 0 || v > 1000) {
				cerr(err, NULL, 0, "field '%s' needs a number in [], not '%s'",
				     f->name, arg);
				return -EINVAL;
			}
			k.idx = (int32_t)v;
			snprintf(text, sizeof(text), "%s[%ld]", f->name, v);
		} else {
			k.any = 1;
			snprintf(text, sizeof(text), "%s", f->name);
		}
	} else if (fields_table[id].flags & FA_ARG) {
		if (!arg || !arg[0]) {
			cerr(err, NULL, 0, "field '%s' needs an argument", f->name);
			return -EINVAL;
		}
		if (!fields_arg_known(arg)) {
			cerr(err, NULL, 1, "field 'evt.arg.%s' is not supported by agent-sentinel",
			     arg);
			return -ENOTSUP;
		}
		k.arg = (char *)arg;
		/* evt.arg[N] keeps Falco's spelling (output_fields key) */
		snprintf(text, sizeof(text), arg[0] >= '0' && arg[0] <= '9' ? "evt.arg[%s]" : "evt.arg.%s",
			 arg);
	} else {
		if (arg) {
			cerr(err, NULL, 0, "field '%s' does not take an argument", f->name);
			return -EINVAL;
		}
		snprintf(text, sizeof(text), "%s", f->name);
	}
	k.text = text;
	s = find_or_add_slot(e, &k);
	if (s < 0)
		goto nomem;
	for (int i = f->nxf; i-- > 0;) {
		struct slot x = { .field = id, .idx = k.idx, .xform = f->xf[i], .parent = s,
				  .any = 0 };
		char t2[600];

		if (e->slots[s].type != T_STR) {
			cerr(err, NULL, 0, "transformer %s() needs a string, '%s' is a %s",
			     xform_names[f->xf[i]], e->slots[s].text,
			     fields_type_name(e->slots[s].type));
			return -EINVAL;
		}
		if (e->slots[s].any) {
			cerr(err, NULL, 0, "transformer %s() needs one value: give '%s' an index",
			     xform_names[f->xf[i]], e->slots[s].text);
			return -EINVAL;
		}
		x.type = f->xf[i] == XF_LEN ? T_NUM : T_STR;
		snprintf(t2, sizeof(t2), "%s(%s)", xform_names[f->xf[i]], e->slots[s].text);
		x.text = t2;
		s = find_or_add_slot(e, &x);
		if (s < 0)
			goto nomem;
	}
	return s;
nomem:
	cerr(err, NULL, 0, "out of memory");
	return -ENOMEM;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static int parse_num(const char *s, int64_t *out)
{
	char *end;
	long long v;

	errno = 0;
	if (!s[0])
		return -EINVAL;
	v = strtoll(s, &end, 10);
	if (*end || errno)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_bool(const char *s, int64_t *out)
{
	if (!strcasecmp(s, "true")) {
		*out = 1;
		return 0;
	}
	if (!strcasecmp(s, "false")) {
		*out = 0;
		return 0;
	}
	return -EINVAL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void cond_free_cmp(struct cmp *c)
{
	free(c->s);
	for (size_t i = 0; c->set && i < c->nsetv; i++)
		free(c->set[i]);
	free(c->set);
	free(c->setlen);
	free(c->nset);
	free(c->skip);
	free(c->ckeys);
	if (c->re) {
		regfree(c->re);
		free(c->re);
	}
}

static int is_evtype(const struct engine *e, const struct ast *a)
{
	(void)e;
	return a->lhs.nxf == 0 && !strcmp(a->lhs.name, "evt.type") && !a->has_rfield;
}

static int same_bytes(const char *a, size_t al, const char *b, size_t bl)
{
	return al == bl && (al == 0 || memcmp(a, b, al) == 0);
}

/* Same comparison: same slots, operator and constants (a regex is compiled
 * from c->s, a fold worked out from the rest). */
static int cmp_same(const struct cmp *a, const struct cmp *b)
{
	if (a->slot != b->slot || a->op != b->op || a->rslot != b->rslot || a->n != b->n ||
	    a->nsetv != b->nsetv || !a->s != !b->s || !a->set != !b->set ||
	    !a->nset != !b->nset || !a->re != !b->re)
		return 0;
	if (a->s && !same_bytes(a->s, a->len, b->s, b->len))
		return 0;
	for (size_t i = 0; a->set && i < a->nsetv; i++)
		if (!same_bytes(a->set[i], a->setlen[i], b->set[i], b->setlen[i]))
			return 0;
	for (size_t i = 0; a->nset && i < a->nsetv; i++)
		if (a->nset[i] != b->nset[i])
			return 0;
	return 1;
}

/* Add c, or when an equal comparison exists, free c and return that one:
 * macros repeat comparisons across rules, and evaluation remembers each
 * result for the event. */
static int add_cmp(struct engine *e, struct cmp *c)
{
	for (size_t i = 0; i < e->ncmps; i++) {
		if (cmp_same(&e->cmps[i], c)) {
			cond_free_cmp(c);
			return (int)i;
		}
	}
	if (e->ncmps == e->capcmps) {
		size_t cap = e->capcmps ? 2 * e->capcmps : 64;
		struct cmp *n = realloc(e->cmps, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		e->cmps = n;
		e->capcmps = cap;
	}
	e->cmps[e->ncmps] = *c;
	return (int)e->ncmps++;
}

/* A plain field a syscall fixes (evt.type is the syscall's name) compared
 * with a constant: compare once per syscall, here, not per event. */
static void fold_fixed(struct cmp *c, const struct slot *sl)
{
	if (sl->xform != XF_NONE || sl->any || sl->arg || c->rslot >= 0)
		return;
	for (unsigned sc = AS_SC_NONE + 1; sc < AS_SC_MAX; sc++) {
		struct fval v;

		if (!fields_fixed(sl->field, sc, &v))
			continue;
		scset_add(&c->fold_known, sc);
		if (eval_cmp_const(c, &v))
			scset_add(&c->fold_true, sc);
	}
}

/* Horspool's table for contains of a constant needle of 2..255 bytes. */
static int contains_table(struct cmp *c)
{
	if ((c->op != OP_CONTAINS && c->op != OP_BCONTAINS) || c->len < 2 || c->len > UINT8_MAX)
		return 0;
	c->skip = malloc(UINT8_MAX + 1);
	if (!c->skip)
		return -ENOMEM;
	memset(c->skip, (int)c->len, UINT8_MAX + 1);
	for (size_t i = 0; i + 1 < c->len; i++)
		c->skip[(unsigned char)c->s[i]] = (uint8_t)(c->len - 1 - i);
	return 0;
}

/* evt.is_open_read/write =, != or exists: which bits of evctx.ocls decide */
static void specialise_open_class(struct cmp *c, uint32_t bit)
{
	int want;

	if (c->op == OP_EXISTS) {
		c->omask = c->owant = EVAL_OCLS_OPEN; /* present on every open */
		c->kind = CK_OPEN_CLASS;
		return;
	}
	if (c->op == OP_EQ || c->op == OP_EQ2)
		want = c->n != 0;
	else if (c->op == OP_NE)
		want = c->n == 0;
	else
		return;
	c->omask = EVAL_OCLS_OPEN | bit;
	c->owant = EVAL_OCLS_OPEN | (want ? bit : 0);
	c->kind = CK_OPEN_CLASS;
}

/* A comm name compared with constants: each constant as a comm image (a
 * longer one is no comm and is left out). Returns 0 or -ENOMEM. */
static int specialise_comm(struct cmp *c, int32_t idx)
{
	const char *const *vals = c->set ? (const char *const *)c->set : (const char *const *)&c->s;
	const size_t *lens = c->set ? c->setlen : &c->len;
	size_t n = c->set ? c->nsetv : 1;

	switch (c->op) {
	case OP_EXISTS: /* present: not equal to nothing */
		n = 0;
		c->cneg = 1;
		break;
	case OP_NE:
		c->cneg = 1;
		break;
	case OP_EQ:
	case OP_EQ2:
	case OP_IN:
	case OP_INTERSECTS:
		break;
	default:
		return 0;
	}
	if (n > CMP_COMM_KEYS_MAX)
		return 0;
	c->ckeys = calloc(n ? n : 1, sizeof(*c->ckeys));
	if (!c->ckeys)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		char img[AS_COMM_LEN] = { 0 };

		if (lens[i] > AS_COMM_LEN)
			continue;
		memcpy(img, vals[i], lens[i]);
		memcpy(&c->ckeys[c->nckeys], img, sizeof(img));
		c->chash |= 1ull << comm_key_hash(&c->ckeys[c->nckeys]);
		c->nckeys++;
	}
	c->cidx = idx;
	c->kind = CK_COMM;
	return 0;
}

/* fd.name startswith: the prefix's first bytes (up to a word) and their mask */
static void specialise_prefix(struct cmp *c)
{
	size_t n = c->len < sizeof(c->pword) ? c->len : sizeof(c->pword);
	unsigned char ones[sizeof(c->pmask)] = { 0 };

	c->pword = 0;
	memcpy(&c->pword, c->s, n);
	memset(ones, 0xff, n);
	memcpy(&c->pmask, ones, sizeof(ones));
	c->kind = CK_FD_PREFIX;
}

/* Pick how eval.c answers c (enum cmp_kind): a plain header field against
 * constants is answered inline, as fields_direct and cmp_value would.
 * Returns 0 or -ENOMEM. */
static int cmp_specialise(struct cmp *c, const struct slot *sl)
{
	c->kind = CK_GENERIC;
	if (!sl->direct || c->rslot >= 0)
		return 0;
	switch (sl->field) {
	case F_EVT_IS_OPEN_READ:
		specialise_open_class(c, AS_OPEN_READ);
		return 0;
	case F_EVT_IS_OPEN_WRITE:
		specialise_open_class(c, AS_OPEN_WRITE);
		return 0;
	case F_PROC_NAME:
		return specialise_comm(c, 0);
	case F_PROC_PNAME:
		return specialise_comm(c, 1);
	case F_PROC_ANAME:
		return sl->idx >= 0 ? specialise_comm(c, sl->idx) : 0;
	case F_FD_NUM:
		if (c->op != OP_EXISTS)
			c->kind = CK_FD_NUM;
		return 0;
	case F_FD_NAME:
		if (c->op == OP_STARTSWITH || c->op == OP_BSTARTSWITH)
			specialise_prefix(c);
		return 0;
	default:
		return 0;
	}
}

/* Note one string of a string set in its quick filter (eval.c in_sorted). */
static void set_filter_add(struct cmp *c, const char *s, size_t len)
{
	unsigned char b = (unsigned char)s[0];

	c->setlens |= 1ull << (len < SET_LEN_BITS ? len : SET_LEN_BITS - 1);
	if (len)
		c->setfirst[b >> 6] |= 1ull << (b & 63);
}

/* Compile one comparison node; returns the cmp index, or -errno. */
static int compile_cmp(struct engine *e, const struct ast *a, struct cond_err *err)
{
	struct cmp c = { .op = a->op, .rslot = -1 };
	const struct slot *sl;
	int type, rc;

	c.slot = cond_slot(e, &a->lhs, err);
	if (c.slot < 0) {
		err->at = a;
		return c.slot;
	}
	sl = &e->slots[c.slot];
	type = sl->type;
	if (!(ops_table[a->op].types & (1u << type))) {
		cerr(err, a, 0, "operator '%s' cannot be used on field '%s' (%s)",
		     ops_table[a->op].text, sl->text, fields_type_name(type));
		return -EINVAL;
	}
	if (a->has_rfield) {
		c.rslot = cond_slot(e, &a->rhs, err);
		if (c.rslot < 0) {
			err->at = a;
			return c.rslot;
		}
		if (e->slots[c.rslot].type != type || e->slots[c.rslot].any) {
			cerr(err, a, 0, "val(%s) is a %s, '%s' is a %s", e->slots[c.rslot].text,
			     fields_type_name(e->slots[c.rslot].type), sl->text,
			     fields_type_name(type));
			return -EINVAL;
		}
		if (a->op == OP_BCONTAINS || a->op == OP_BSTARTSWITH || a->op == OP_REGEX ||
		    a->op == OP_GLOB || a->op == OP_IGLOB) {
			cerr(err, a, 0, "operator '%s' needs a constant, not val()",
			     ops_table[a->op].text);
			return -EINVAL;
		}
		c.dfield = -1;
		rc = add_cmp(e, &c);
		return rc < 0 ? -ENOMEM : rc;
	}
	if (ops_table[a->op].kind == OK_SCALAR) {
		const char *v = a->vals[0];

		if (type == T_NUM && parse_num(v, &c.n)) {
			cerr(err, a, 0, "'%s' is not a number, as field '%s' needs", v, sl->text);
			return -EINVAL;
		}
		if (type == T_BOOL && parse_bool(v, &c.n)) {
			cerr(err, a, 0, "'%s' is not true or false, as field '%s' needs", v,
			     sl->text);
			return -EINVAL;
		}
		if (a->op == OP_BCONTAINS || a->op == OP_BSTARTSWITH) {
			size_t n = strlen(v);

			if (n % 2) {
				cerr(err, a, 0, "'%s' is not a hex byte string", v);
				return -EINVAL;
			}
			c.s = malloc(n / 2 + 1);
			if (!c.s)
				return -ENOMEM;
			for (size_t i = 0; i < n / 2; i++) {
				int hi = hexval(v[2 * i]), lo = hexval(v[2 * i + 1]);

				if (hi < 0 || lo < 0) {
					free(c.s);
					cerr(err, a, 0, "'%s' is not a hex byte string", v);
					return -EINVAL;
				}
				c.s[i] = (char)(hi << 4 | lo);
			}
			c.len = n / 2;
		} else {
			c.s = strdup(v);
			if (!c.s)
				return -ENOMEM;
			c.len = strlen(v);
		}
		if (a->op == OP_REGEX) {
			size_t n = c.len + 8;
			char *pat = malloc(n);

			c.re = calloc(1, sizeof(*c.re));
			if (!pat || !c.re) {
				free(pat);
				cond_free_cmp(&c);
				return -ENOMEM;
			}
			/* Falco (RE2 FullMatch) matches the whole string */
			snprintf(pat, n, "^(%s)$", v);
			rc = regcomp(c.re, pat, REG_EXTENDED | REG_NOSUB);
			free(pat);
			if (rc) {
				char m[128];

				regerror(rc, c.re, m, sizeof(m));
				free(c.re);
				c.re = NULL;
				cond_free_cmp(&c);
				cerr(err, a, 0, "invalid regex '%s': %s", v, m);
				return -EINVAL;
			}
		}
	} else if (ops_table[a->op].kind == OK_LIST) {
		size_t n = a->nvals;

		c.nsetv = n;
		if (type == T_STR) {
			c.set = calloc(n ? n : 1, sizeof(*c.set));
			c.setlen = calloc(n ? n : 1, sizeof(*c.setlen));
			if (!c.set || !c.setlen) {
				cond_free_cmp(&c);
				return -ENOMEM;
			}
			for (size_t i = 0; i < n; i++) {
				c.set[i] = strdup(a->vals[i]);
				if (!c.set[i]) {
					cond_free_cmp(&c);
					return -ENOMEM;
				}
			}
			if (a->op != OP_PMATCH)
				qsort(c.set, n, sizeof(*c.set), cmp_str);
			for (size_t i = 0; i < n; i++) {
				c.setlen[i] = strlen(c.set[i]);
				set_filter_add(&c, c.set[i], c.setlen[i]);
			}
		} else {
			c.nset = calloc(n ? n : 1, sizeof(*c.nset));
			if (!c.nset)
				return -ENOMEM;
			for (size_t i = 0; i < n; i++) {
				int bad = type == T_NUM ? parse_num(a->vals[i], &c.nset[i]) :
							  parse_bool(a->vals[i], &c.nset[i]);
				if (bad) {
					cerr(err, a, 0, "'%s' is not a %s, as field '%s' needs",
					     a->vals[i], fields_type_name(type), sl->text);
					cond_free_cmp(&c);
					return -EINVAL;
				}
			}
		}
	}
	fold_fixed(&c, sl);
	c.dfield = sl->direct && c.rslot < 0 ? sl->field : -1;
	c.didx = sl->idx;
	if (contains_table(&c) || cmp_specialise(&c, sl)) {
		cond_free_cmp(&c);
		return -ENOMEM;
	}
	rc = add_cmp(e, &c);
	if (rc < 0) {
		cond_free_cmp(&c);
		return -ENOMEM;
	}
	return rc;
}

struct gen {
	struct insn *code;
	size_t n, cap;
};

static int emit(struct gen *g, uint32_t op, uint32_t arg)
{
	if (g->n == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 16;
		struct insn *n = realloc(g->code, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		g->code = n;
		g->cap = cap;
	}
	g->code[g->n].op = op;
	g->code[g->n].arg = arg;
	return (int)g->n++;
}

/* syscalls named by an evt.type comparison; unknown names counted */
static struct scset evtype_set(const struct ast *a, int *unknown)
{
	struct scset m = { { 0 } };

	for (size_t i = 0; i < a->nvals; i++) {
		unsigned t, sc;

		if (names_evt_type_parse(a->vals[i], &t, &sc) == 0)
			scset_add(&m, sc);
		else if (unknown)
			(*unknown)++;
	}
	return m;
}

static struct scset evmask(const struct ast *a, int neg, int depth)
{
	struct scset l, r, s, none = { { 0 } };

	if (!a || depth > COND_MAX_MACRO_DEPTH + COND_MAX_DEPTH)
		return scset_all();
	switch (a->kind) {
	case A_AND:
	case A_OR:
		l = evmask(a->l, neg, depth + 1);
		r = evmask(a->r, neg, depth + 1);
		return (a->kind == A_AND) != neg ? scset_and(l, r) : scset_or(l, r);
	case A_NOT:
		return evmask(a->l, !neg, depth + 1);
	case A_MACRO:
		return a->m ? evmask(a->m->ast, neg, depth + 1) : scset_all();
	case A_CONST:
		return (a->val != 0) != neg ? scset_all() : none;
	case A_CMP:
		if (!is_evtype(NULL, a))
			return scset_all();
		s = evtype_set(a, NULL);
		if (a->op == OP_EQ || a->op == OP_EQ2 || a->op == OP_IN || a->op == OP_INTERSECTS)
			return neg ? scset_not(s) : s;
		if (a->op == OP_NE)
			return neg ? s : scset_not(s);
		return scset_all();
	default:
		return scset_all();
	}
}

static int gen_node(struct engine *e, struct gen *g, const struct ast *a, int depth,
		    int *named, struct cond_err *err)
{
	int rc, j;

	if (depth > COND_MAX_DEPTH + COND_MAX_MACRO_DEPTH) {
		cerr(err, a, 0, "condition nested deeper than %d levels (macros included)",
		     COND_MAX_DEPTH + COND_MAX_MACRO_DEPTH);
		return -EINVAL;
	}
	switch (a->kind) {
	case A_AND:
	case A_OR:
		if ((rc = gen_node(e, g, a->l, depth + 1, named, err)))
			return rc;
		j = emit(g, a->kind == A_AND ? I_JF : I_JT, 0);
		if (j < 0)
			return -ENOMEM;
		if ((rc = gen_node(e, g, a->r, depth + 1, named, err)))
			return rc;
		g->code[j].arg = (uint32_t)g->n;
		return 0;
	case A_NOT:
		if ((rc = gen_node(e, g, a->l, depth + 1, named, err)))
			return rc;
		return emit(g, I_NOT, 0) < 0 ? -ENOMEM : 0;
	case A_CONST:
		return emit(g, a->val ? I_TRUE : I_FALSE, 0) < 0 ? -ENOMEM : 0;
	case A_MACRO:
		if (!a->m) {
			cerr(err, a, 0, "Undefined macro '%s' used in filter.", a->name);
			return -EINVAL;
		}
		if (!a->m->ast) {
			cerr(err, a, 0, "macro '%s' has errors", a->name);
			return -EINVAL;
		}
		return gen_node(e, g, a->m->ast, depth + 1, named, err);
	case A_CMP:
		if (is_evtype(e, a)) {
			int unknown = 0;
			struct scset s = evtype_set(a, &unknown);

			(*named)++;
			if (unknown && scset_empty(&s) && (a->op == OP_EQ || a->op == OP_EQ2 ||
					      a->op == OP_IN || a->op == OP_INTERSECTS)) {
				/* only types we never see: never true */
				return emit(g, I_FALSE, 0) < 0 ? -ENOMEM : 0;
			}
		}
		rc = compile_cmp(e, a, err);
		if (rc < 0) {
			if (!err->at)
				err->at = a;
			return rc;
		}
		return emit(g, I_CMP, (uint32_t)rc) < 0 ? -ENOMEM : 0;
	default:
		return -EINVAL;
	}
}

/* Where the code goes from pc with the register known to be acc: the pc of
 * the next comparison, or the result when the code ends first. gen_node only
 * jumps forward, so this ends. */
static int32_t graph_follow(const struct insn *code, size_t ncode, size_t pc, int acc)
{
	while (pc < ncode) {
		const struct insn *in = &code[pc];

		switch (in->op) {
		case I_CMP:
			return (int32_t)pc;
		case I_JF:
			pc = acc ? pc + 1 : in->arg;
			break;
		case I_JT:
			pc = acc ? in->arg : pc + 1;
			break;
		case I_NOT:
			acc = !acc;
			pc++;
			break;
		default:
			acc = in->op == I_TRUE;
			pc++;
			break;
		}
	}
	return acc ? BN_TRUE : BN_FALSE;
}

int cond_graph(const struct insn *code, size_t ncode, struct bnode **graph, int32_t *entry)
{
	struct bnode *g = calloc(ncode ? ncode : 1, sizeof(*g));

	if (!g)
		return -ENOMEM;
	for (size_t pc = 0; pc < ncode; pc++) {
		if (code[pc].op != I_CMP)
			continue;
		g[pc].cmp = code[pc].arg;
		g[pc].t = graph_follow(code, ncode, pc + 1, 1);
		g[pc].f = graph_follow(code, ncode, pc + 1, 0);
	}
	*entry = graph_follow(code, ncode, 0, 0); /* the register starts false */
	*graph = g;
	return 0;
}

/* Where pc leads for syscall sc once the comparisons sc folds are passed */
static int32_t entry_follow(const struct engine *e, const struct bnode *g, unsigned sc, int32_t pc)
{
	while (pc >= 0) {
		const struct cmp *c = &e->cmps[g[pc].cmp];

		if (!scset_has(&c->fold_known, sc))
			break;
		pc = scset_has(&c->fold_true, sc) ? g[pc].t : g[pc].f;
	}
	return pc;
}

int cond_entries(const struct engine *e, struct rule *r)
{
	for (unsigned sc = 0; sc < AS_SC_MAX; sc++) {
		int folds = 0;
		struct bnode *g;

		r->entry_sc[sc] = entry_follow(e, r->graph, sc, r->entry);
		r->graph_sc[sc] = r->graph;
		/* a folded comparison left in a graph is still answered right (the
		 * generic way), so only the syscalls the rule is indexed under are
		 * worth a graph of their own */
		if (!scset_has(&r->evmask, sc))
			continue;
		for (size_t pc = 0; pc < r->ncode; pc++)
			if (r->code[pc].op == I_CMP &&
			    scset_has(&e->cmps[r->graph[pc].cmp].fold_known, sc))
				folds = 1;
		if (!folds)
			continue;
		g = malloc(r->ncode * sizeof(*g));
		if (!g)
			return -ENOMEM;
		for (size_t pc = 0; pc < r->ncode; pc++) {
			g[pc] = r->graph[pc];
			if (r->code[pc].op != I_CMP)
				continue;
			g[pc].t = entry_follow(e, r->graph, sc, g[pc].t);
			g[pc].f = entry_follow(e, r->graph, sc, g[pc].f);
		}
		r->graph_sc[sc] = g;
	}
	return 0;
}

int cond_compile(struct engine *e, const struct ast *a, struct insn **code, size_t *ncode,
		 struct scset *mask, int *evtype_named, struct cond_err *err)
{
	struct gen g = { 0 };
	int rc;

	err->at = NULL;
	err->unsupported = 0;
	err->msg[0] = 0;
	*evtype_named = 0;
	rc = gen_node(e, &g, a, 0, evtype_named, err);
	if (rc) {
		if (rc == -ENOMEM && !err->msg[0])
			snprintf(err->msg, sizeof(err->msg), "out of memory");
		free(g.code);
		return rc;
	}
	*code = g.code;
	*ncode = g.n;
	*mask = evmask(a, 0, 0);
	return 0;
}
