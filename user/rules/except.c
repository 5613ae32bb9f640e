// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Exceptions: a rule item's exceptions into its definition (merged by name
 * across appends), and at compile time into condition nodes built directly,
 * not rendered into text and parsed again.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "load.h"


void except_free(struct exc_def *x)
{
	free(x->name);
	keys_strv_free(x->fields, x->nfields);
	keys_strv_free(x->comps, x->ncomps);
	free(x->values); /* yvals borrowed from the files */
	memset(x, 0, sizeof(*x));
}

static int scalar_or_seq(const struct yval *v, char ***out, size_t *n, int *is_list)
{
	if (v->kind == YV_SCALAR) {
		*out = calloc(1, sizeof(**out));
		if (!*out)
			return -ENOMEM;
		(*out)[0] = strdup(v->s);
		*n = 1;
		*is_list = 0;
		return (*out)[0] ? 0 : -ENOMEM;
	}
	if (v->kind == YV_SEQ) {
		*is_list = 1;
		return keys_strv_from_seq(v, out, n);
	}
	return -EINVAL;
}

static const struct item_key exc_keys[] = {
	{ "name", KEY_REQUIRED }, { "fields", 0 }, { "comps", 0 }, { "values", 0 },
};

static int exc_values_add(struct exc_def *x, const struct yval *vals)
{
	struct yval *n;

	if (!vals || vals->kind != YV_SEQ)
		return 0;
	n = realloc(x->values, (x->nvalues + vals->n + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	x->values = n;
	for (size_t i = 0; i < vals->n; i++)
		x->values[x->nvalues++] = vals->items[i];
	return 0;
}

/* Parse the exceptions of a rule item into (or onto) r. */
int except_collect(struct rules_loader *L, struct rule_def *r, const struct yval *ev,
			      int merge)
{
	if (ev->kind != YV_SEQ) {
		engine_diag(&L->d, &ev->pos, 1, "rule", r->name, "value of 'exceptions' is not a sequence");
		return -EINVAL;
	}
	for (size_t i = 0; i < ev->n; i++) {
		const struct yval *x = &ev->items[i], *nv, *fv, *cv, *vv;
		struct exc_def nx = { 0 }, *old = NULL, *arr;
		int rc, dummy;

		if (x->kind != YV_MAP) {
			engine_diag(&L->d, &x->pos, 1, "rule", r->name, "exception is not a mapping");
			return -EINVAL;
		}
		nv = yamlload_get(x, "name", NULL);
		if (!nv || nv->kind != YV_SCALAR || !nv->s[0]) {
			engine_diag(&L->d, &x->pos, 1, "rule", r->name,
				    "exception has no mapping for key 'name'");
			return -EINVAL;
		}
		keys_unknown(L, x, exc_keys, sizeof(exc_keys) / sizeof(exc_keys[0]), 0, "rule",
			     r->name);
		/* Falco's LOAD_EXCEPTION_NAME_NOT_UNIQUE: within one item */
		for (size_t k = 0; k < i; k++) {
			const struct yval *pn = ev->items[k].kind == YV_MAP ?
							yamlload_get(&ev->items[k], "name", NULL) :
							NULL;

			if (pn && pn->kind == YV_SCALAR && !strcmp(pn->s, nv->s)) {
				engine_diag(&L->d, &x->pos, 0, "rule", r->name,
					    "multiple definitions of exception '%s' in the same rule",
					    nv->s);
				break;
			}
		}
		fv = yamlload_get(x, "fields", NULL);
		cv = yamlload_get(x, "comps", NULL);
		vv = yamlload_get(x, "values", NULL);
		/* Falco's LOAD_APPEND_NO_VALUES */
		if (merge && !vv)
			engine_diag(&L->d, &x->pos, 0, "rule", r->name,
				    "exception '%s': overriding/appending exception with no values",
				    nv->s);
		if (vv && vv->kind != YV_SEQ && vv->kind != YV_NONE) {
			engine_diag(&L->d, &vv->pos, 1, "rule", r->name,
				    "exception '%s': value of 'values' is not a sequence", nv->s);
			return -EINVAL;
		}
		for (size_t k = 0; merge && k < r->nexcs; k++)
			if (!strcmp(r->excs[k].name, nv->s))
				old = &r->excs[k];
		if (old) {
			if (exc_values_add(old, vv))
				return -ENOMEM;
			continue;
		}
		if (!fv) {
			engine_diag(&L->d, &x->pos, 1, "rule", r->name,
				    "exception '%s' has no mapping for key 'fields'", nv->s);
			return -EINVAL;
		}
		nx.pos = x->pos;
		nx.name = strdup(nv->s);
		if (!nx.name)
			return -ENOMEM;
		rc = scalar_or_seq(fv, &nx.fields, &nx.nfields, &nx.fields_list);
		if (!rc && cv)
			rc = scalar_or_seq(cv, &nx.comps, &nx.ncomps, &dummy);
		if (rc == -EINVAL) {
			engine_diag(&L->d, &x->pos, 1, "rule", r->name,
				    "exception '%s': fields and comps must be strings or sequences of strings",
				    nv->s);
			except_free(&nx);
			return rc;
		}
		if (!rc)
			rc = exc_values_add(&nx, vv);
		if (rc) {
			except_free(&nx);
			return rc;
		}
		arr = realloc(r->excs, (r->nexcs + 1) * sizeof(*arr));
		if (!arr) {
			except_free(&nx);
			return -ENOMEM;
		}
		r->excs = arr;
		r->excs[r->nexcs++] = nx;
	}
	return 0;
}

/* What a single field's comps may be: a set operator, or an operator with a
 * list modifier (Falco 0.44: "startswith anyof") */
static int is_set_comp(const char *c)
{
	size_t n;
	int op = ops_match(c, &n);

	if (op < 0)
		return 0;
	if (!c[n])
		return ops_table[op].kind == OK_LIST;
	for (int m = 0; m < MOD_MAX; m++)
		if (c[n] == ' ' && !strcmp(c + n + 1, mods_table[m]))
			return (ops_table[op].flags & OF_MODIFIER) != 0;
	return 0;
}

/* One comparison of an exception: field, comp and a value (a scalar, or a
 * sequence for a set). */
static int exc_cmp(struct rules_loader *L, const struct rule_def *r, const struct exc_def *x,
		   const struct cond_env *env, const struct text *src, const char *field,
		   const char *comp, const struct yval *v, struct ast **out)
{
	const char *one[1];
	const char **vals = one;
	char msg[ENGINE_MSG_MAX];
	size_t n = 1;
	int rc;

	if (v->kind == YV_SEQ) {
		vals = calloc(v->n ? v->n : 1, sizeof(*vals));
		if (!vals)
			return -ENOMEM;
		for (n = 0; n < v->n; n++) {
			if (v->items[n].kind != YV_SCALAR) {
				free(vals);
				engine_diag(&L->d, &v->items[n].pos, 1, "rule", r->name,
					    "exception '%s': a value list holds only strings",
					    x->name);
				return -EINVAL;
			}
			vals[n] = v->items[n].s;
		}
	} else {
		one[0] = v->kind == YV_SCALAR ? v->s : "";
	}
	rc = parse_cmp_parts(env, src, field, comp, vals, n, out, msg, sizeof(msg));
	if (vals != one)
		free((void *)vals);
	if (rc == -EINVAL)
		engine_diag(&L->d, &x->pos, 1, "rule", r->name, "exceptions: %s", msg);
	return rc;
}

/* a op b, a NULL: b */
static int join(int kind, struct ast **a, struct ast *b)
{
	struct ast *n;

	if (!*a) {
		*a = b;
		return 0;
	}
	n = calloc(1, sizeof(*n));
	if (!n) {
		parse_free(b);
		return -ENOMEM;
	}
	n->kind = kind;
	n->l = *a;
	n->r = b;
	n->off = b->off;
	n->src = b->src;
	*a = n;
	return 0;
}

/*
 * Falco's exception condition, built as nodes: the list form is (f1 c1 v1
 * and f2 c2 v2) per value, comps '=' by default; the scalar form f c (v1,
 * v2, ...), c 'in' by default and one of in, pmatch, intersects. Every
 * value of every exception is or'ed, left to right, as the text Falco
 * renders would parse.
 */
static int exc_node(struct rules_loader *L, const struct rule_def *r, const struct exc_def *x,
		    const struct cond_env *env, const struct text *src, struct ast **acc)
{
	struct ast *c = NULL;
	int rc;

	if (!x->fields_list) {
		const char *comp = x->ncomps ? x->comps[0] : "in";
		struct yval set = { .kind = YV_SEQ, .items = x->values, .n = x->nvalues };

		if (!is_set_comp(comp)) {
			engine_diag(&L->d, &x->pos, 1, "rule", r->name,
				    "exception '%s': comps of a single field must be in, pmatch, intersects or an operator with oneof, anyof or allof",
				    x->name);
			return -EINVAL;
		}
		if (!x->nvalues)
			return 0;
		for (size_t i = 0; i < x->nvalues; i++) {
			if (x->values[i].kind != YV_SCALAR) {
				engine_diag(&L->d, &x->values[i].pos, 1, "rule", r->name,
					    "exception '%s': values of a single field must be strings",
					    x->name);
				return -EINVAL;
			}
		}
		rc = exc_cmp(L, r, x, env, src, x->fields[0], comp, &set, &c);
		return rc ? rc : join(A_OR, acc, c);
	}
	if (x->ncomps && x->ncomps != x->nfields) {
		engine_diag(&L->d, &x->pos, 1, "rule", r->name,
			    "exception '%s': fields and comps lists must have the same length",
			    x->name);
		return -EINVAL;
	}
	for (size_t i = 0; i < x->nvalues; i++) {
		const struct yval *v = &x->values[i];
		struct ast *tuple = NULL;

		if (v->kind != YV_SEQ || v->n != x->nfields) {
			engine_diag(&L->d, &v->pos, 1, "rule", r->name,
				    "exception '%s': value has %zu items, fields has %zu", x->name,
				    v->kind == YV_SEQ ? v->n : 1, x->nfields);
			return -EINVAL;
		}
		for (size_t j = 0; j < x->nfields; j++) {
			rc = exc_cmp(L, r, x, env, src, x->fields[j], x->ncomps ? x->comps[j] : "=",
				     &v->items[j], &c);
			if (!rc)
				rc = join(A_AND, &tuple, c);
			if (rc) {
				parse_free(tuple);
				return rc;
			}
		}
		rc = join(A_OR, acc, tuple);
		if (rc)
			return rc;
	}
	return 0;
}

int except_ast(struct rules_loader *L, const struct rule_def *rd, const struct cond_env *env,
	       const struct text *src, struct ast **out)
{
	*out = NULL;
	for (size_t i = 0; i < rd->nexcs; i++) {
		int rc = exc_node(L, rd, &rd->excs[i], env, src, out);

		if (rc) {
			parse_free(*out);
			*out = NULL;
			return rc;
		}
	}
	return 0;
}
