// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The helpers rule loading reads YAML items with: a key as a scalar or a
 * boolean, unknown and deprecated keys, override's {key: append|replace},
 * texts assembled from appends (with where each piece came from), string
 * vectors.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "load.h"
#include "yamlutil.h"

int keys_text_set(struct text *t, const char *s, const struct srcpos *pos)
{
	free(t->s);
	free(t->segs);
	t->s = strdup(s);
	t->len = strlen(s);
	t->segs = malloc(sizeof(*t->segs));
	t->nsegs = 1;
	if (!t->s || !t->segs)
		return -ENOMEM;
	t->segs[0].off = 0;
	t->segs[0].pos = *pos;
	return 0;
}

/* Falco joins appended text with one space. */
int keys_text_append(struct text *t, const char *s, const struct srcpos *pos)
{
	size_t n = strlen(s);
	char *ns = realloc(t->s, t->len + n + 2);
	struct textseg *sg;

	if (!ns)
		return -ENOMEM;
	t->s = ns;
	ns[t->len] = ' ';
	memcpy(ns + t->len + 1, s, n + 1);
	sg = realloc(t->segs, (t->nsegs + 1) * sizeof(*sg));
	if (!sg)
		return -ENOMEM;
	t->segs = sg;
	sg[t->nsegs].off = t->len + 1;
	sg[t->nsegs].pos = *pos;
	t->nsegs++;
	t->len += n + 1;
	return 0;
}

void keys_text_free(struct text *t)
{
	free(t->s);
	free(t->segs);
	memset(t, 0, sizeof(*t));
}

const char *keys_item_name(const struct yval *v)
{
	return v && v->kind == YV_SCALAR ? v->s : "";
}

/* A key of the item that must be a scalar. */
const struct yval *keys_scalar(struct rules_loader *L, const struct yval *m, const char *key,
				     const char *kind, const char *name)
{
	const struct yval *v = yamlload_get(m, key, NULL);

	if (v && v->kind != YV_SCALAR) {
		engine_diag(&L->d, &v->pos, 1, kind, name, "value of '%s' is not a string", key);
		return NULL;
	}
	return v;
}

int keys_bool(struct rules_loader *L, const struct yval *m, const char *key, const char *kind,
		    const char *name, int *out)
{
	const struct yval *v = yamlload_get(m, key, NULL);

	if (!v)
		return 0;
	if (v->kind != YV_SCALAR || yamlutil_bool(v->s, out)) {
		engine_diag(&L->d, &v->pos, 1, kind, name, "value of '%s' is not a boolean", key);
		return -EINVAL;
	}
	return 1;
}

/* Falco's warning for the legacy key (rule_loading_messages.h
 * WARNING_APPEND_MESSAGE, in our words). */
void keys_warn_legacy_append(struct rules_loader *L, const struct yval *m, const char *kind,
			       const char *name, int app)
{
	size_t i;

	if (!app || !yamlload_get(m, "append", &i))
		return;
	engine_diag(&L->d, &m->keypos[i], 0, kind, name,
		    "key 'append' is deprecated: name the key under 'override' instead "
		    "(e.g. 'condition: append')");
}

int keys_unknown(struct rules_loader *L, const struct yval *m, const struct item_key *known,
		 size_t nknown, int is_err, const char *kind, const char *name)
{
	int bad = 0;

	for (size_t i = 0; i < m->n; i++) {
		size_t k = 0;

		while (k < nknown && strcmp(known[k].key, m->keys[i]))
			k++;
		if (k < nknown)
			continue;
		engine_diag(&L->d, &m->keypos[i], is_err, kind, name, "unknown key '%s'", m->keys[i]);
		bad = 1;
	}
	return bad && is_err ? -EINVAL : 0;
}

int keys_override(struct rules_loader *L, const struct yval *m, const char *kind,
		  const char *name, const struct item_key *keys, size_t nkeys,
		  struct keys_ovr *o)
{
	const struct yval *v = yamlload_get(m, "override", NULL);

	memset(o, 0, sizeof(*o));
	if (!v)
		return 0;
	o->present = 1;
	if (v->kind != YV_MAP) {
		engine_diag(&L->d, &v->pos, 1, kind, name, "value of 'override' is not a mapping");
		return -EINVAL;
	}
	if (yamlload_get(m, "append", NULL)) {
		engine_diag(&L->d, &v->pos, 1, kind, name,
			    "keys 'override' and 'append' cannot be used together");
		return -EINVAL;
	}
	for (size_t i = 0; i < v->n && i < KEYS_OVR_MAX; i++) {
		const struct yval *how = &v->items[i];
		unsigned want;
		int app;
		size_t k = 0;

		if (how->kind != YV_SCALAR ||
		    (strcmp(how->s, "append") && strcmp(how->s, "replace"))) {
			engine_diag(&L->d, &v->keypos[i], 1, kind, name,
				    "override of '%s' must be 'append' or 'replace'", v->keys[i]);
			return -EINVAL;
		}
		app = !strcmp(how->s, "append");
		want = app ? KEY_APPEND : KEY_REPLACE;
		while (k < nkeys && strcmp(keys[k].key, v->keys[i]))
			k++;
		if (k == nkeys || !(keys[k].flags & want)) {
			engine_diag(&L->d, &v->keypos[i], 1, kind, name, "key '%s' cannot be %s",
				    v->keys[i], app ? "appended" : "replaced");
			return -EINVAL;
		}
		if (!yamlload_get(m, v->keys[i], NULL)) {
			engine_diag(&L->d, &v->keypos[i], 1, kind, name,
				    "override of '%s' but the item has no '%s' key", v->keys[i],
				    v->keys[i]);
			return -EINVAL;
		}
		o->keys[o->n] = v->keys[i];
		o->append[o->n++] = app;
	}
	/* every other key must be named by override */
	for (size_t i = 0; i < m->n; i++) {
		size_t k = 0;

		if (!strcmp(m->keys[i], kind) || !strcmp(m->keys[i], "override"))
			continue;
		while (k < o->n && strcmp(o->keys[k], m->keys[i]))
			k++;
		if (k == o->n) {
			engine_diag(&L->d, &m->keypos[i], 1, kind, name,
				    "key '%s' is present but not listed under 'override'",
				    m->keys[i]);
			return -EINVAL;
		}
	}
	return 0;
}

int keys_ovr_mode(const struct keys_ovr *o, const char *key)
{
	for (size_t i = 0; i < o->n; i++)
		if (!strcmp(o->keys[i], key))
			return o->append[i];
	return -1;
}

int keys_strv_from_seq(const struct yval *v, char ***out, size_t *n)
{
	char **a = calloc(v->n ? v->n : 1, sizeof(*a));

	if (!a)
		return -ENOMEM;
	for (size_t i = 0; i < v->n; i++) {
		if (v->items[i].kind != YV_SCALAR) {
			for (size_t j = 0; j < i; j++)
				free(a[j]);
			free(a);
			return -EINVAL;
		}
		a[i] = strdup(v->items[i].s);
		if (!a[i]) {
			for (size_t j = 0; j < i; j++)
				free(a[j]);
			free(a);
			return -ENOMEM;
		}
	}
	*out = a;
	*n = v->n;
	return 0;
}

void keys_strv_free(char **a, size_t n)
{
	for (size_t i = 0; a && i < n; i++)
		free(a[i]);
	free(a);
}

int keys_strv_append(char ***a, size_t *n, char **b, size_t bn, int uniq)
{
	char **r = realloc(*a, (*n + bn + 1) * sizeof(*r));

	if (!r)
		return -ENOMEM;
	*a = r;
	for (size_t i = 0; i < bn; i++) {
		int dup = 0;

		for (size_t j = 0; uniq && j < *n; j++)
			dup |= !strcmp(r[j], b[i]);
		if (dup)
			continue;
		r[*n] = strdup(b[i]);
		if (!r[*n])
			return -ENOMEM;
		(*n)++;
	}
	return 0;
}
