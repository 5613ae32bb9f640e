// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * What a comparison holds, as libsinsp's parser reads it: a field with its
 * [argument] and transformers, the field on the right (val() or a
 * transformer), values bare or quoted, lists (a list name expands to its
 * items, as Falco's list resolver does); and a comparison built from an
 * exception's parts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "parse.h"

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

static int add_val(struct parser *p, struct ast *a, char *v, int quoted)
{
	char **nv = realloc(a->vals, (a->nvals + 1) * sizeof(*nv));
	int *nq;

	if (!nv) {
		free(v);
		parse_err(p, a->off, "out of memory");
		return -ENOMEM;
	}
	a->vals = nv;
	nq = realloc(a->valquoted, (a->nvals + 1) * sizeof(*nq));
	if (!nq) {
		free(v);
		parse_err(p, a->off, "out of memory");
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

void parse_quoted_err(struct parser *p, const char *why, size_t at)
{
	if (!strncmp(why, "unsupported", 11))
		parse_err(p, at, "unsupported escape sequence '\\%c' in a quoted string",
			  p->l.s[at + 1]);
	else
		parse_err(p, at, "%s", why);
}

int parse_quoted_fail(struct parser *p, int r, const struct tok *t, const char *why, size_t at)
{
	if (r >= 0)
		return 0;
	if (r == -ENOMEM) {
		parse_err(p, p->l.pos, "out of memory");
		return r;
	}
	if (r == -2)
		parse_quoted_err(p, why, at);
	else
		parse_err(p, t->off, "unterminated quoted string");
	return -EINVAL;
}

/* Falco expands list names in the condition's text (rule_loader_compiler's
 * resolve_list), so a list whose name has blanks ("test list") is found
 * there too, where a bare value would end at the first blank: the longest
 * such name at p's position, followed by a delimiter or the end. */
static const struct list_def *blank_list_at(struct parser *p)
{
	const struct list_def *best = NULL;
	size_t bn = 0, off = p->l.pos;

	for (size_t i = 0; i < p->env->nlists; i++) {
		const char *name = p->env->lists[i].name;
		size_t n = strlen(name);

		if (!strpbrk(name, " \t\n\r") || n <= bn || p->l.len - off < n ||
		    memcmp(p->l.s + off, name, n) != 0)
			continue;
		if (off + n < p->l.len && !strchr(" \t\n\r(),=", p->l.s[off + n]))
			continue;
		best = &p->env->lists[i];
		bn = n;
	}
	if (best) {
		p->env->lists[best - p->env->lists].used = 1;
		p->l.pos += bn;
	}
	return best;
}

/* A value: quoted, or bare; a bare list name in a list expands to its items. */
int parse_value(struct parser *p, struct ast *a, int in_list)
{
	struct tok t;
	char *q = NULL;
	const char *why = NULL;
	size_t at = 0;
	int r = lex_quoted(&p->l, &t, &q, &why, &at);
	char buf[32];

	if (r < 0)
		return parse_quoted_fail(p, r, &t, why, at);
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
	if (in_list) {
		const struct list_def *ld;

		lex_ws(&p->l);
		ld = blank_list_at(p);
		for (size_t i = 0; ld && i < ld->nitems; i++)
			if (add_list_item(p, a, ld->items[i]))
				return -ENOMEM;
		if (ld)
			return 0;
	}
	if (!lex_bare(&p->l, &t)) {
		parse_near(p, buf, sizeof(buf));
		parse_err(p, p->l.pos, "expected a value, found %s", buf);
		return -EINVAL;
	}
	if (in_list) {
		char *name = parse_dup_tok(p, &t);
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
	return add_val(p, a, parse_dup_tok(p, &t), 0);
}

int parse_list(struct parser *p, struct ast *a)
{
	char buf[32];

	a->is_list = 1;
	if (!lex_char(&p->l, '(')) {
		/* a bare list name stands for its parenthesised items */
		size_t at = p->l.pos;

		if (parse_value(p, a, 1))
			return -EINVAL;
		if (a->nvals == 1 && !a->valquoted[0] && !find_list(p->env, a->vals[0])) {
			parse_err(p, at, "expected '(' or a list name after '%s'", ops_table[a->op].text);
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
		parse_near(p, buf, sizeof(buf));
		parse_err(p, p->l.pos, "expected ',' or ')' in a list, found %s", buf);
		return -EINVAL;
	}
}

/* [arg] right after a field name, as libsinsp's parser reads it
 * (filter_parser.ut.cpp parse_str): a quoted string, decoded, or a bare
 * string of anything but blanks, brackets and quotes; then ']'. 1 read, 0
 * none here, -EINVAL (the error set). */
static int parse_farg(struct parser *p, struct fref *f)
{
	const char *s = p->l.s, *why = NULL;
	size_t e, at = 0;
	struct tok t;
	int r;

	if (p->l.pos >= p->l.len || s[p->l.pos] != '[')
		return 0;
	p->l.pos++;
	if (p->l.pos < p->l.len && (s[p->l.pos] == '"' || s[p->l.pos] == '\'')) {
		r = lex_quoted(&p->l, &t, &f->arg, &why, &at);
		if (r == -2) {
			parse_quoted_err(p, why, at);
			return -EINVAL;
		}
		if (r <= 0) {
			parse_err(p, p->l.pos, r == -ENOMEM ? "out of memory" :
					       "unterminated quoted string");
			return -EINVAL;
		}
	} else {
		for (e = p->l.pos; e < p->l.len && s[e] && !strchr(" \b\t\n\r[]\"'", s[e]); e++)
			;
		if (e == p->l.pos) {
			parse_err(p, p->l.pos,
				  "expected a quoted or bare argument after '[' of field '%s'", f->name);
			return -EINVAL;
		}
		f->arg = strndup(s + p->l.pos, e - p->l.pos);
		if (!f->arg) {
			parse_err(p, p->l.pos, "out of memory");
			return -EINVAL;
		}
		p->l.pos = e;
	}
	f->has_arg = 1;
	if (p->l.pos >= p->l.len || s[p->l.pos] != ']') {
		parse_err(p, p->l.pos, "expected ']' after the argument of field '%s'", f->name);
		return -EINVAL;
	}
	p->l.pos++;
	return 1;
}

/* field, [arg], transformer(field), or a call: join(...), concat(...), getopt(...) */
int parse_fref(struct parser *p, struct fref *f)
{
	struct tok t;
	char buf[32];

	lex_ws(&p->l);
	f->off = p->l.pos;
	for (;;) {
		size_t at;
		int x;

		lex_ws(&p->l);
		at = p->l.pos;
		x = parse_xform(p);
		if (x < 0)
			break;
		if (xforms_table[x].args == XA_MULTI) {
			if (parse_call(p, x, at, &f->mx))
				return -EINVAL;
			break;
		}
		if (f->nxf >= COND_MAX_XFORMS) {
			parse_err(p, p->l.pos, "more than %d nested transformers", COND_MAX_XFORMS);
			return -EINVAL;
		}
		f->xf[f->nxf++] = x;
	}
	if (f->mx) {
		f->name = strdup(xforms_table[f->mx->xf].name);
	} else {
		if (!lex_ident(&p->l, &t)) {
			parse_near(p, buf, sizeof(buf));
			parse_err(p, p->l.pos, "expected a field name, found %s", buf);
			return -EINVAL;
		}
		f->name = parse_dup_tok(p, &t);
		if (!f->name)
			return -ENOMEM;
		if (parse_farg(p, f) < 0)
			return -EINVAL;
	}
	for (int i = 0; i < f->nxf; i++) {
		if (!lex_char(&p->l, ')')) {
			parse_near(p, buf, sizeof(buf));
			parse_err(p, p->l.pos, "expected ')' after transformer argument, found %s", buf);
			return -EINVAL;
		}
	}
	return f->name ? 0 : -ENOMEM;
}

void parse_fref_free(struct fref *f)
{
	free(f->name);
	free(f->arg);
	parse_xcall_free(f->mx);
	f->name = f->arg = NULL;
	f->mx = NULL;
}

/* A transformer name followed at once by '(' (consumed); -1 when none. As
 * libsinsp's parser: "b64 (x)" is not a transformer. */
int parse_xform(struct parser *p)
{
	for (int x = XF_NONE + 1; x < XF_MAX; x++) {
		size_t save = p->l.pos;

		if (lex_keyword(&p->l, xforms_table[x].name) && p->l.pos < p->l.len &&
		    p->l.s[p->l.pos] == '(') {
			p->l.pos++;
			return x;
		}
		p->l.pos = save;
	}
	return -1;
}

/*
 * The right-hand side as a field, as libsinsp reads it: val(field), where
 * the field takes no transformer, or a transformer around a field (or
 * around another transformer). 1 parsed into a->rhs, 0 none here, -EINVAL.
 */
int parse_rhs_field(struct parser *p, struct ast *a)
{
	struct lex save = p->l;
	char buf[32];
	size_t at;

	lex_ws(&p->l);
	at = p->l.pos;
	if (lex_keyword(&p->l, "val") && lex_char(&p->l, '(')) {
		lex_ws(&p->l);
		if (parse_xform(p) >= 0) {
			parse_err(p, p->l.pos, "val() takes a field, not a transformer");
			return -EINVAL;
		}
		a->has_rfield = 1;
		if (parse_fref(p, &a->rhs))
			return -EINVAL;
		if (!lex_char(&p->l, ')')) {
			parse_near(p, buf, sizeof(buf));
			parse_err(p, p->l.pos, "expected ')' after val(, found %s", buf);
			return -EINVAL;
		}
		return 1;
	}
	p->l = save;
	lex_ws(&p->l);
	if (parse_xform(p) >= 0) {
		p->l.pos = at;
		a->has_rfield = 1;
		return parse_fref(p, &a->rhs) ? -EINVAL : 1;
	}
	p->l = save;
	return 0;
}

#define PARSE_ONEOF_MAX 64 /* values of one oneof: it expands into n(n-1)/2 pairs */

static int fref_copy(struct fref *d, const struct fref *s)
{
	*d = *s;
	d->name = strdup(s->name);
	d->arg = s->arg ? strdup(s->arg) : NULL;
	d->mx = s->mx ? parse_xcall_copy(s->mx) : NULL;
	return d->name && (!s->arg || d->arg) && (!s->mx || d->mx) ? 0 : -ENOMEM;
}

/* a's comparison with its i-th value alone */
static struct ast *cmp_one(struct parser *p, const struct ast *a, size_t i)
{
	struct ast *c = parse_node(p, A_CMP, a->off);
	char *v;

	if (!c)
		return NULL;
	c->op = a->op;
	v = strdup(a->vals[i]);
	if (fref_copy(&c->lhs, &a->lhs) || !v) {
		free(v);
		parse_free(c);
		return NULL;
	}
	if (add_val(p, c, v, a->valquoted[i])) { /* v freed */
		parse_free(c);
		return NULL;
	}
	return c;
}

static struct ast *bin(struct parser *p, int kind, struct ast *l, struct ast *r)
{
	struct ast *n = l && r ? parse_node(p, kind, l->off) : NULL;

	if (!n) {
		parse_free(l);
		parse_free(r);
		return NULL;
	}
	n->l = l;
	n->r = r;
	return n;
}

/* nodes[lo..hi) joined by kind as a balanced tree: the depth stays log n
 * however long the list (the compiler bounds the depth) */
static struct ast *balanced(struct parser *p, int kind, struct ast **nodes, size_t lo, size_t hi)
{
	size_t mid;

	if (hi - lo == 1)
		return nodes[lo];
	mid = lo + (hi - lo) / 2;
	return bin(p, kind, balanced(p, kind, nodes, lo, mid), balanced(p, kind, nodes, mid, hi));
}

int parse_expand_modifier(struct parser *p, const struct ast *a, int mod, struct ast **out)
{
	size_t n = a->nvals, npairs = mod == MOD_ONEOF ? n * (n - (n > 0)) / 2 : 0;
	struct ast **c = calloc(n + npairs + 1, sizeof(*c)), *any;

	*out = NULL;
	if (!c)
		return -ENOMEM;
	if (!n) { /* no values: false, whatever the modifier */
		free(c);
		*out = parse_node(p, A_CONST, a->off);
		return *out ? 0 : -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		c[i] = cmp_one(p, a, i);
		if (!c[i])
			goto nomem;
	}
	if (mod != MOD_ONEOF) {
		*out = balanced(p, mod == MOD_ALLOF ? A_AND : A_OR, c, 0, n);
		free(c);
		return *out ? 0 : -ENOMEM;
	}
	/* exactly one: at least one, and no two */
	if (n > 1) {
		struct ast **pairs = c + n, *two, *none2;
		size_t k = 0;

		for (size_t i = 0; i < n; i++)
			for (size_t j = i + 1; j < n; j++) {
				pairs[k] = bin(p, A_AND, cmp_one(p, a, i), cmp_one(p, a, j));
				if (!pairs[k++])
					goto nomem;
			}
		two = balanced(p, A_OR, pairs, 0, npairs);
		for (size_t i = 0; i < npairs; i++)
			pairs[i] = NULL;
		none2 = two ? parse_node(p, A_NOT, a->off) : NULL;
		if (!none2) {
			parse_free(two);
			goto nomem;
		}
		none2->l = two;
		any = balanced(p, A_OR, c, 0, n);
		for (size_t i = 0; i < n; i++)
			c[i] = NULL;
		*out = bin(p, A_AND, any, none2);
	} else {
		*out = c[0];
		c[0] = NULL;
	}
	free(c);
	return *out ? 0 : -ENOMEM;
nomem:
	for (size_t i = 0; i < n + npairs; i++)
		parse_free(c[i]);
	free(c);
	parse_err(p, a->off, "out of memory");
	return -ENOMEM;
}

int parse_modified(struct parser *p, struct ast *a, struct ast **out)
{
	struct lex save = p->l;
	size_t at;
	int mod = -1, rc;

	lex_ws(&p->l);
	at = p->l.pos;
	for (int m = 0; m < MOD_MAX && mod < 0; m++)
		if (lex_keyword(&p->l, mods_table[m]))
			mod = m;
	if (mod < 0) {
		p->l = save;
		return 0;
	}
	if (parse_list(p, a))
		return -EINVAL;
	if (mod == MOD_ONEOF && a->nvals > PARSE_ONEOF_MAX) {
		parse_err(p, at, "oneof takes at most %d values, not %zu", PARSE_ONEOF_MAX,
			  a->nvals);
		return -EINVAL;
	}
	rc = parse_expand_modifier(p, a, mod, out);
	return rc ? rc : 1;
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
		parse_near(p, buf, sizeof(buf));
		parse_err(p, p->l.pos, "unexpected %s after the %s '%s'", buf, what, s);
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

/* val(f) or a transformer call: a value that stands for a field. Written
 * with a blank ("toupper( proc.pname)") it is a string, as Falco reads an
 * exception value (test_rule_loader.cpp exceptions_values_transformer_space;
 * its compiler then warns about it), where an exception's field may have
 * blanks (exceptions_fields_transformer_space_quoted). */
static int is_field_call(const char *v)
{
	size_t n = strlen(v);

	if (!n || v[n - 1] != ')' || strpbrk(v, " \t\n\r"))
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
	struct ast *a = parse_node(&p, A_CMP, 0);
	size_t oplen;
	int rc = -EINVAL, mod = -1;

	*out = NULL;
	if (!a)
		return -ENOMEM;
	if (parse_whole(&p, field, "field", parse_one_fref, &a->lhs))
		goto fail;
	a->op = ops_match(op, &oplen);
	/* "startswith anyof": an operator and its list modifier */
	if (a->op >= 0 && op[oplen] == ' ' && (ops_table[a->op].flags & OF_MODIFIER)) {
		for (int m = 0; m < MOD_MAX && mod < 0; m++)
			if (!strcmp(op + oplen + 1, mods_table[m]))
				mod = m;
		if (mod >= 0)
			oplen = strlen(op);
	}
	if (a->op < 0 || oplen != strlen(op) || ops_table[a->op].kind == OK_UNARY) {
		snprintf(msg, msgsz, "'%s' is not a comparison operator", op);
		goto fail;
	}
	a->is_list = ops_table[a->op].kind == OK_LIST || mod >= 0;
	/* Falco's exception values are values, not condition text: a field
	 * call on its own is the field on the right, a list name in a set is
	 * its items, anything else the string as written */
	if (mod < 0 && nvals == 1 && is_field_call(vals[0])) {
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
	if (mod >= 0) {
		rc = parse_expand_modifier(&p, a, mod, out);
		parse_free(a);
		return rc;
	}
	*out = a;
	return 0;
fail:
	parse_free(a);
	return rc;
}
