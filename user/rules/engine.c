// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The engine's public side: load (read files, collect items with Falco's
 * append/override rules, compile, index by event type), process events,
 * list rules and fields.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "rules.h"
#include "json.h"
#include "names.h"

/* The Falco engine version these rules files may require: Falco 0.44's,
 * whose language (libs 0.25) the engine follows. */
#define ENGINE_VERSION_MAJOR 0
#define ENGINE_VERSION_MINOR 62
#define ENGINE_VERSION_PATCH 0
#define ENGINE_VERSION_STR "0.62.0"
#define ENGINE_MAX_DIR_FILES 4096 /* rules files read from one directory */

static const char *const prio_names[ENGINE_PRIO_MAX] = {
	[ENGINE_PRIO_EMERGENCY] = "Emergency", [ENGINE_PRIO_ALERT] = "Alert",
	[ENGINE_PRIO_CRITICAL] = "Critical",   [ENGINE_PRIO_ERROR] = "Error",
	[ENGINE_PRIO_WARNING] = "Warning",     [ENGINE_PRIO_NOTICE] = "Notice",
	[ENGINE_PRIO_INFORMATIONAL] = "Informational", [ENGINE_PRIO_DEBUG] = "Debug",
};

int engine_priority_parse(const char *name)
{
	if (!strcasecmp(name, "info"))
		return ENGINE_PRIO_INFORMATIONAL;
	for (int i = ENGINE_PRIO_EMERGENCY; i < ENGINE_PRIO_MAX; i++)
		if (!strcasecmp(name, prio_names[i]))
			return i;
	return -1;
}

const char *engine_priority_name(int prio)
{
	return prio > ENGINE_PRIO_NONE && prio < ENGINE_PRIO_MAX ? prio_names[prio] : "Debug";
}

void engine_diag(struct diag *d, const struct srcpos *p, int is_err, const char *kind,
		 const char *name, const char *fmt, ...)
{
	va_list ap;

	if (is_err)
		d->errors++;
	else
		d->warnings++;
	if (!d->f)
		return;
	fprintf(d->f, "%s:%u:%u: %s: ", p && p->file ? p->file : "<rules>", p ? p->line : 0,
		p ? p->col : 0, is_err ? "error" : "warning");
	if (kind)
		fprintf(d->f, "%s '%s': ", kind, name ? name : "");
	va_start(ap, fmt);
	vfprintf(d->f, fmt, ap);
	va_end(ap);
	fputc('\n', d->f);
}

/* ---- collection ---- */

struct loader {
	struct engine *e;
	struct diag d;
	struct yfile *files;
	size_t nfiles;
	struct list_def *lists;
	size_t nlists;
	struct macro_def *macros;
	size_t nmacros;
	struct rule_def *rules;
	size_t nrules;
	size_t nitems;
};

static int text_set(struct text *t, const char *s, const struct srcpos *pos)
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
static int text_append(struct text *t, const char *s, const struct srcpos *pos)
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

static void text_free(struct text *t)
{
	free(t->s);
	free(t->segs);
	memset(t, 0, sizeof(*t));
}

static const char *item_name(const struct yval *v)
{
	return v && v->kind == YV_SCALAR ? v->s : "";
}

/* A key of the item that must be a scalar. */
static const struct yval *scalar_key(struct loader *L, const struct yval *m, const char *key,
				     const char *kind, const char *name)
{
	const struct yval *v = yamlload_get(m, key, NULL);

	if (v && v->kind != YV_SCALAR) {
		engine_diag(&L->d, &v->pos, 1, kind, name, "value of '%s' is not a string", key);
		return NULL;
	}
	return v;
}

static int parse_yaml_bool(const char *s, int *out)
{
	static const char *const t[] = { "true", "yes", "on", "y" };
	static const char *const f[] = { "false", "no", "off", "n" };

	for (size_t i = 0; i < 4; i++) {
		if (!strcasecmp(s, t[i])) {
			*out = 1;
			return 0;
		}
		if (!strcasecmp(s, f[i])) {
			*out = 0;
			return 0;
		}
	}
	return -EINVAL;
}

static int bool_key(struct loader *L, const struct yval *m, const char *key, const char *kind,
		    const char *name, int *out)
{
	const struct yval *v = yamlload_get(m, key, NULL);

	if (!v)
		return 0;
	if (v->kind != YV_SCALAR || parse_yaml_bool(v->s, out)) {
		engine_diag(&L->d, &v->pos, 1, kind, name, "value of '%s' is not a boolean", key);
		return -EINVAL;
	}
	return 1;
}

/* Falco's warning for the legacy key (rule_loading_messages.h
 * WARNING_APPEND_MESSAGE, in our words). */
static void warn_legacy_append(struct loader *L, const struct yval *m, const char *kind,
			       const char *name, int app)
{
	size_t i;

	if (!app || !yamlload_get(m, "append", &i))
		return;
	engine_diag(&L->d, &m->keypos[i], 0, kind, name,
		    "key 'append' is deprecated: name the key under 'override' instead "
		    "(e.g. 'condition: append')");
}

static void warn_unknown_keys(struct loader *L, const struct yval *m, const char *const *known,
			      const char *kind, const char *name)
{
	for (size_t i = 0; i < m->n; i++) {
		size_t k = 0;

		while (known[k] && strcmp(known[k], m->keys[i]))
			k++;
		if (!known[k])
			engine_diag(&L->d, &m->keypos[i], 0, kind, name, "unknown key '%s'",
				    m->keys[i]);
	}
}

/* override: {key: append|replace}; returns 0, sets masks of keys. */
struct ovr {
	int present;
	const char *keys[16];
	int append[16];
	size_t n;
};

static int parse_override(struct loader *L, const struct yval *m, const char *kind,
			  const char *name, const char *const *can_append,
			  const char *const *can_replace, struct ovr *o)
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
	for (size_t i = 0; i < v->n && i < 16; i++) {
		const struct yval *how = &v->items[i];
		const char *const *allowed;
		int app;
		size_t k = 0;

		if (how->kind != YV_SCALAR ||
		    (strcmp(how->s, "append") && strcmp(how->s, "replace"))) {
			engine_diag(&L->d, &v->keypos[i], 1, kind, name,
				    "override of '%s' must be 'append' or 'replace'", v->keys[i]);
			return -EINVAL;
		}
		app = !strcmp(how->s, "append");
		allowed = app ? can_append : can_replace;
		while (allowed[k] && strcmp(allowed[k], v->keys[i]))
			k++;
		if (!allowed[k]) {
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

static int ovr_mode(const struct ovr *o, const char *key) /* -1 absent, 0 replace, 1 append */
{
	for (size_t i = 0; i < o->n; i++)
		if (!strcmp(o->keys[i], key))
			return o->append[i];
	return -1;
}

static int strv_from_seq(const struct yval *v, char ***out, size_t *n)
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

static void strv_free(char **a, size_t n)
{
	for (size_t i = 0; a && i < n; i++)
		free(a[i]);
	free(a);
}

static int strv_append(char ***a, size_t *n, char **b, size_t bn, int uniq)
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

static const char *const list_keys[] = { "list", "items", "append", "override", NULL };
static const char *const list_app[] = { "items", NULL };

static int collect_list(struct loader *L, const struct yval *m)
{
	const struct yval *nv = scalar_key(L, m, "list", "list", "");
	const char *name = item_name(nv);
	const struct yval *items = yamlload_get(m, "items", NULL);
	struct list_def *ld = NULL;
	struct ovr o;
	char **v = NULL;
	size_t n = 0;
	int app = 0, rc;

	if (!nv || !name[0]) {
		engine_diag(&L->d, &m->pos, 1, "list", name, "list has no name");
		return -EINVAL;
	}
	warn_unknown_keys(L, m, list_keys, "list", name);
	if (parse_override(L, m, "list", name, list_app, list_app, &o))
		return -EINVAL;
	if (bool_key(L, m, "append", "list", name, &app) < 0)
		return -EINVAL;
	if (!items) {
		engine_diag(&L->d, &m->pos, 1, "list", name, "item has no mapping for key 'items'");
		return -EINVAL;
	}
	if (items->kind == YV_NONE || (items->kind == YV_SCALAR && !items->s[0] && !items->quoted)) {
		v = calloc(1, sizeof(*v));
		if (!v)
			return -ENOMEM;
	} else if (items->kind != YV_SEQ || (rc = strv_from_seq(items, &v, &n)) == -EINVAL) {
		engine_diag(&L->d, &items->pos, 1, "list", name,
			    "value of 'items' is not a sequence of strings");
		return -EINVAL;
	} else if (rc) {
		return rc;
	}
	for (size_t i = 0; i < L->nlists; i++)
		if (!strcmp(L->lists[i].name, name))
			ld = &L->lists[i];
	warn_legacy_append(L, m, "list", name, app);
	if (o.present)
		app = ovr_mode(&o, "items") == 1;
	/* a replace with nothing before defines the list (Falco's
	 * list_override_replace_before_list_definition) */
	if (app || (o.present && ld)) {
		if (!ld) {
			engine_diag(&L->d, &m->pos, 1, "list", name,
				    "list has '%s' but no list by that name is defined before",
				    o.present ? "override" : "append");
			strv_free(v, n);
			return -EINVAL;
		}
		if (app) {
			rc = strv_append(&ld->items, &ld->nitems, v, n, 0);
			strv_free(v, n);
			return rc;
		}
		strv_free(ld->items, ld->nitems);
		ld->items = v;
		ld->nitems = n;
		return 0;
	}
	if (ld) { /* redefinition replaces in place */
		strv_free(ld->items, ld->nitems);
		ld->items = v;
		ld->nitems = n;
		ld->pos = m->pos;
		return 0;
	}
	ld = realloc(L->lists, (L->nlists + 1) * sizeof(*ld));
	if (!ld) {
		strv_free(v, n);
		return -ENOMEM;
	}
	L->lists = ld;
	ld = &L->lists[L->nlists++];
	memset(ld, 0, sizeof(*ld));
	ld->name = strdup(name);
	ld->pos = m->pos;
	ld->items = v;
	ld->nitems = n;
	return ld->name ? 0 : -ENOMEM;
}

static const char *const macro_keys[] = { "macro", "condition", "append", "override", NULL };
static const char *const macro_app[] = { "condition", NULL };

static int collect_macro(struct loader *L, const struct yval *m)
{
	const struct yval *nv = scalar_key(L, m, "macro", "macro", "");
	const char *name = item_name(nv);
	const struct yval *cv;
	struct macro_def *md = NULL;
	struct ovr o;
	int app = 0;

	if (!nv || !name[0]) {
		engine_diag(&L->d, &m->pos, 1, "macro", name, "macro has no name");
		return -EINVAL;
	}
	warn_unknown_keys(L, m, macro_keys, "macro", name);
	if (parse_override(L, m, "macro", name, macro_app, macro_app, &o))
		return -EINVAL;
	if (bool_key(L, m, "append", "macro", name, &app) < 0)
		return -EINVAL;
	cv = yamlload_get(m, "condition", NULL);
	if (!cv) {
		engine_diag(&L->d, &m->pos, 1, "macro", name,
			    "item has no mapping for key 'condition'");
		return -EINVAL;
	}
	if (cv->kind != YV_SCALAR) {
		engine_diag(&L->d, &cv->pos, 1, "macro", name, "value of 'condition' is not a string");
		return -EINVAL;
	}
	for (size_t i = 0; i < L->nmacros; i++)
		if (!strcmp(L->macros[i].name, name))
			md = &L->macros[i];
	warn_legacy_append(L, m, "macro", name, app);
	if (o.present)
		app = ovr_mode(&o, "condition") == 1;
	/* as for lists, a replace with nothing before defines the macro */
	if (app || (o.present && md)) {
		if (!md) {
			engine_diag(&L->d, &m->pos, 1, "macro", name,
				    "macro has '%s' but no macro by that name is defined before",
				    o.present ? "override" : "append");
			return -EINVAL;
		}
		return app ? text_append(&md->cond, cv->s, &cv->pos) :
			     text_set(&md->cond, cv->s, &cv->pos);
	}
	if (md) {
		md->pos = m->pos;
		return text_set(&md->cond, cv->s, &cv->pos);
	}
	md = realloc(L->macros, (L->nmacros + 1) * sizeof(*md));
	if (!md)
		return -ENOMEM;
	L->macros = md;
	md = &L->macros[L->nmacros];
	memset(md, 0, sizeof(*md));
	md->order = L->nmacros++;
	md->name = strdup(name);
	md->pos = m->pos;
	if (!md->name)
		return -ENOMEM;
	return text_set(&md->cond, cv->s, &cv->pos);
}

/* ---- exceptions ---- */

static void exc_free(struct exc_def *x)
{
	free(x->name);
	strv_free(x->fields, x->nfields);
	strv_free(x->comps, x->ncomps);
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
		return strv_from_seq(v, out, n);
	}
	return -EINVAL;
}

static const char *const exc_keys[] = { "name", "fields", "comps", "values", NULL };

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
static int collect_exceptions(struct loader *L, struct rule_def *r, const struct yval *ev,
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
		warn_unknown_keys(L, x, exc_keys, "rule", r->name);
		fv = yamlload_get(x, "fields", NULL);
		cv = yamlload_get(x, "comps", NULL);
		vv = yamlload_get(x, "values", NULL);
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
			exc_free(&nx);
			return rc;
		}
		if (!rc)
			rc = exc_values_add(&nx, vv);
		if (rc) {
			exc_free(&nx);
			return rc;
		}
		arr = realloc(r->excs, (r->nexcs + 1) * sizeof(*arr));
		if (!arr) {
			exc_free(&nx);
			return -ENOMEM;
		}
		r->excs = arr;
		r->excs[r->nexcs++] = nx;
	}
	return 0;
}

/* ---- rules ---- */

static const char *const rule_keys[] = { "rule", "condition", "output", "desc", "priority",
					 "tags", "enabled", "exceptions", "source", "warn_evttypes",
					 "skip-if-unknown-filter", "append", "override",
					 "required_engine_version", NULL };
static const char *const rule_app[] = { "condition", "output", "desc", "tags", "exceptions", NULL };
static const char *const rule_repl[] = { "condition", "output", "desc", "priority", "tags",
					  "exceptions", "enabled", "warn_evttypes",
					  "skip-if-unknown-filter", NULL };

static void rule_def_free(struct rule_def *r)
{
	free(r->name);
	text_free(&r->cond);
	text_free(&r->output);
	free(r->desc);
	strv_free(r->tags, r->ntags);
	free(r->source);
	for (size_t i = 0; i < r->nexcs; i++)
		exc_free(&r->excs[i]);
	free(r->excs);
}

/* Apply key (replace, or append when app) from item m onto r. */
static int rule_apply_key(struct loader *L, struct rule_def *r, const struct yval *m,
			  const char *key, int app)
{
	const struct yval *v = yamlload_get(m, key, NULL);
	int b, rc;

	if (!v)
		return 0;
	if (!strcmp(key, "condition") || !strcmp(key, "output") || !strcmp(key, "desc") ||
	    !strcmp(key, "priority") || !strcmp(key, "source")) {
		if (v->kind != YV_SCALAR) {
			engine_diag(&L->d, &v->pos, 1, "rule", r->name, "value of '%s' is not a string",
				    key);
			return -EINVAL;
		}
	}
	if (!strcmp(key, "condition")) {
		r->has_cond = 1;
		return app ? text_append(&r->cond, v->s, &v->pos) : text_set(&r->cond, v->s, &v->pos);
	}
	if (!strcmp(key, "output")) {
		r->has_output = 1;
		return app ? text_append(&r->output, v->s, &v->pos) :
			     text_set(&r->output, v->s, &v->pos);
	}
	if (!strcmp(key, "desc")) {
		char *n;

		r->has_desc = 1;
		if (app && r->desc) {
			n = malloc(strlen(r->desc) + strlen(v->s) + 2);
			if (n)
				sprintf(n, "%s %s", r->desc, v->s);
		} else {
			n = strdup(v->s);
		}
		if (!n)
			return -ENOMEM;
		free(r->desc);
		r->desc = n;
		return 0;
	}
	if (!strcmp(key, "priority")) {
		int p = engine_priority_parse(v->s);

		if (p < 0) {
			engine_diag(&L->d, &v->pos, 1, "rule", r->name, "invalid priority '%s'", v->s);
			return -EINVAL;
		}
		r->prio = p;
		r->has_prio = 1;
		return 0;
	}
	if (!strcmp(key, "source")) {
		free(r->source);
		r->source = strdup(v->s);
		return r->source ? 0 : -ENOMEM;
	}
	if (!strcmp(key, "tags")) {
		char **t;
		size_t n;

		if (v->kind == YV_NONE) {
			t = NULL;
			n = 0;
		} else if (v->kind != YV_SEQ || (rc = strv_from_seq(v, &t, &n)) == -EINVAL) {
			engine_diag(&L->d, &v->pos, 1, "rule", r->name,
				    "value of 'tags' is not a sequence of strings");
			return -EINVAL;
		} else if (rc) {
			return rc;
		}
		if (app) {
			rc = strv_append(&r->tags, &r->ntags, t, n, 1);
			strv_free(t, n);
			return rc;
		}
		strv_free(r->tags, r->ntags);
		r->tags = t;
		r->ntags = n;
		return 0;
	}
	if (!strcmp(key, "exceptions")) {
		if (v->kind == YV_NONE)
			return 0;
		if (!app) {
			for (size_t i = 0; i < r->nexcs; i++)
				exc_free(&r->excs[i]);
			r->nexcs = 0;
		}
		return collect_exceptions(L, r, v, app);
	}
	if (!strcmp(key, "enabled") || !strcmp(key, "warn_evttypes") ||
	    !strcmp(key, "skip-if-unknown-filter")) {
		if (bool_key(L, m, key, "rule", r->name, &b) < 0)
			return -EINVAL;
		if (!strcmp(key, "enabled"))
			r->enabled = b;
		else if (!strcmp(key, "warn_evttypes"))
			r->warn_evttypes = b;
		else
			r->skip_unknown = b;
	}
	return 0;
}

static int collect_rule(struct loader *L, const struct yval *m)
{
	const struct yval *nv = scalar_key(L, m, "rule", "rule", "");
	const char *name = item_name(nv);
	struct rule_def *r = NULL, nr;
	struct ovr o;
	int app = 0, rc = 0;

	if (!nv || !name[0]) {
		engine_diag(&L->d, &m->pos, 1, "rule", name, "rule has no name");
		return -EINVAL;
	}
	warn_unknown_keys(L, m, rule_keys, "rule", name);
	if (parse_override(L, m, "rule", name, rule_app, rule_repl, &o))
		return -EINVAL;
	if (bool_key(L, m, "append", "rule", name, &app) < 0)
		return -EINVAL;
	for (size_t i = 0; i < L->nrules; i++)
		if (!strcmp(L->rules[i].name, name))
			r = &L->rules[i];
	if (o.present) {
		if (!r) {
			engine_diag(&L->d, &m->pos, 1, "rule", name,
				    "rule has 'override' but no rule by that name is defined before");
			return -EINVAL;
		}
		for (size_t i = 0; i < o.n && !rc; i++)
			rc = rule_apply_key(L, r, m, o.keys[i], o.append[i]);
		return rc;
	}
	warn_legacy_append(L, m, "rule", name, app);
	if (app) {
		/* as Falco's reader: the legacy form appends condition and
		 * exceptions; any other key (desc, output, priority, enabled) is
		 * ignored */
		if (!r) {
			engine_diag(&L->d, &m->pos, 1, "rule", name,
				    "rule has 'append' but no rule by that name is defined before");
			return -EINVAL;
		}
		if (!yamlload_get(m, "condition", NULL) && !yamlload_get(m, "exceptions", NULL)) {
			engine_diag(&L->d, &m->pos, 1, "rule", name,
				    "appended rule must have 'condition' or 'exceptions'");
			return -EINVAL;
		}
		rc = rule_apply_key(L, r, m, "condition", 1);
		if (!rc)
			rc = rule_apply_key(L, r, m, "exceptions", 1);
		return rc;
	}
	/* "rule: X, enabled: B" alone toggles an existing rule */
	if (r && yamlload_get(m, "enabled", NULL) && !yamlload_get(m, "condition", NULL) &&
	    !yamlload_get(m, "output", NULL) && !yamlload_get(m, "priority", NULL)) {
		size_t i;

		yamlload_get(m, "enabled", &i);
		/* Falco's WARNING_ENABLED_MESSAGE, in our words */
		engine_diag(&L->d, &m->keypos[i], 0, "rule", name,
			    "a lone 'enabled' key is deprecated: add 'override: {enabled: replace}'");
		return rule_apply_key(L, r, m, "enabled", 0);
	}

	memset(&nr, 0, sizeof(nr));
	nr.name = strdup(name);
	nr.pos = m->pos;
	nr.enabled = 1;
	nr.warn_evttypes = 1;
	nr.source = strdup("syscall");
	if (!nr.name || !nr.source) {
		rule_def_free(&nr);
		return -ENOMEM;
	}
	for (const char *const *k = rule_keys + 1; *k && !rc; k++)
		if (strcmp(*k, "append") && strcmp(*k, "override") &&
		    strcmp(*k, "required_engine_version"))
			rc = rule_apply_key(L, &nr, m, *k, 0);
	if (!rc) {
		static const char *const req[] = { "condition", "output", "desc", "priority" };
		int have[] = { nr.has_cond, nr.has_output, nr.has_desc, nr.has_prio };

		for (size_t i = 0; i < 4; i++) {
			if (!have[i]) {
				engine_diag(&L->d, &m->pos, 1, "rule", name,
					    "item has no mapping for key '%s'", req[i]);
				rc = -EINVAL;
				break;
			}
		}
	}
	if (rc) {
		rule_def_free(&nr);
		return rc;
	}
	if (r) { /* redefinition replaces in place */
		rule_def_free(r);
		*r = nr;
		return 0;
	}
	r = realloc(L->rules, (L->nrules + 1) * sizeof(*r));
	if (!r) {
		rule_def_free(&nr);
		return -ENOMEM;
	}
	L->rules = r;
	L->rules[L->nrules++] = nr;
	return 0;
}

static int parse_version(const char *s, int v[3])
{
	char *end;
	long x;

	v[0] = v[1] = v[2] = 0;
	if (!strchr(s, '.')) { /* an integer is the minor version: 17 = 0.17.0 */
		x = strtol(s, &end, 10);
		if (!s[0] || *end || x < 0)
			return -EINVAL;
		v[1] = (int)x;
		return 0;
	}
	for (int i = 0; i < 3; i++) {
		x = strtol(s, &end, 10);
		if (end == s || x < 0 || x > 100000)
			return -EINVAL;
		v[i] = (int)x;
		s = end;
		if (i < 2) {
			if (*s != '.')
				return -EINVAL;
			s++;
		}
	}
	return *s ? -EINVAL : 0;
}

static int collect_item(struct loader *L, const struct yval *m)
{
	const struct yval *v;

	if (++L->nitems > RULES_MAX_ITEMS) {
		engine_diag(&L->d, &m->pos, 1, NULL, NULL, "more than %d items", RULES_MAX_ITEMS);
		return -E2BIG;
	}
	if (yamlload_get(m, "rule", NULL))
		return collect_rule(L, m);
	if (yamlload_get(m, "macro", NULL))
		return collect_macro(L, m);
	if (yamlload_get(m, "list", NULL))
		return collect_list(L, m);
	if ((v = yamlload_get(m, "required_engine_version", NULL))) {
		int want[3], have[3] = { ENGINE_VERSION_MAJOR, ENGINE_VERSION_MINOR,
					 ENGINE_VERSION_PATCH };

		if (v->kind != YV_SCALAR || parse_version(v->s, want)) {
			engine_diag(&L->d, &v->pos, 1, NULL, NULL,
				    "required_engine_version is not an integer or a semver string");
			return -EINVAL;
		}
		for (int i = 0; i < 3; i++) {
			if (want[i] < have[i])
				break;
			if (want[i] > have[i]) {
				engine_diag(&L->d, &v->pos, 1, NULL, NULL,
					    "rules require engine version %s, but engine version is %s",
					    v->s, ENGINE_VERSION_STR);
				return -EINVAL;
			}
		}
		return 0;
	}
	if (yamlload_get(m, "required_plugin_versions", NULL)) {
		engine_diag(&L->d, &m->pos, 0, NULL, NULL,
			    "required_plugin_versions ignored: agent-sentinel loads no plugins");
		return 0;
	}
	engine_diag(&L->d, &m->pos, 0, NULL, NULL, "unknown top level item%s%s",
		    m->n ? " with key " : "", m->n ? m->keys[0] : "");
	return 0;
}

/* ---- compile ---- */

static int quote_needed(const char *s)
{
	size_t n = strlen(s);

	if (n >= 2 && (s[0] == '"' || s[0] == '\'') && s[n - 1] == s[0])
		return 0;
	return n == 0 || strpbrk(s, " \t\n\r(),=\"'") != NULL;
}

struct sb {
	char *s;
	size_t len, cap;
	int oom;
};

static void sb_add(struct sb *b, const char *s)
{
	size_t n = strlen(s);

	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->len + n + 1) * 2;
		char *x = realloc(b->s, cap);

		if (!x) {
			b->oom = 1;
			return;
		}
		b->s = x;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n + 1);
	b->len += n;
}

/* An exception value that is a field on the right (val(f), tolower(f),
 * ...): Falco's rule compiler leaves it unquoted, so it compares fields. */
static int is_field_value(const char *v)
{
	static const char *const calls[] = { "val(", "tolower(", "toupper(", "b64(",
					     "basename(", "len(" };
	size_t n = strlen(v);

	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (!strncmp(v, calls[i], strlen(calls[i])) && n && v[n - 1] == ')')
			return 1;
	return 0;
}

static void sb_value(struct sb *b, const char *v)
{
	if (!quote_needed(v) || is_field_value(v)) {
		sb_add(b, v);
		return;
	}
	sb_add(b, "\"");
	for (const char *p = v; *p; p++) {
		char c[3] = { *p, 0, 0 };

		if (*p == '"' || *p == '\\') {
			c[0] = '\\';
			c[1] = *p;
		}
		sb_add(b, c);
	}
	sb_add(b, "\"");
}

static void sb_yvalue(struct sb *b, const struct yval *v)
{
	if (v->kind == YV_SEQ) {
		sb_add(b, "(");
		for (size_t i = 0; i < v->n; i++) {
			if (i)
				sb_add(b, ", ");
			if (v->items[i].kind == YV_SCALAR)
				sb_value(b, v->items[i].s);
		}
		sb_add(b, ")");
	} else if (v->kind == YV_SCALAR) {
		sb_value(b, v->s);
	}
}

static int is_set_comp(const char *c)
{
	return !strcmp(c, "in") || !strcmp(c, "pmatch") || !strcmp(c, "intersects");
}

/* Falco's exception text: (f1 c1 v1 and f2 c2 v2) or (...); "" when no values. */
static int exc_text(struct loader *L, const struct rule_def *r, const struct exc_def *x,
		    struct sb *b)
{
	if (!x->fields_list) {
		const char *comp = x->ncomps ? x->comps[0] : "in";

		if (!is_set_comp(comp)) {
			engine_diag(&L->d, &x->pos, 1, "rule", r->name,
				    "exception '%s': comps of a single field must be in, pmatch or intersects",
				    x->name);
			return -EINVAL;
		}
		if (!x->nvalues)
			return 0;
		sb_add(b, x->fields[0]);
		sb_add(b, " ");
		sb_add(b, comp);
		sb_add(b, " (");
		for (size_t i = 0; i < x->nvalues; i++) {
			if (i)
				sb_add(b, ", ");
			if (x->values[i].kind != YV_SCALAR) {
				engine_diag(&L->d, &x->values[i].pos, 1, "rule", r->name,
					    "exception '%s': values of a single field must be strings",
					    x->name);
				return -EINVAL;
			}
			sb_value(b, x->values[i].s);
		}
		sb_add(b, ")");
		return 0;
	}
	if (x->ncomps && x->ncomps != x->nfields) {
		engine_diag(&L->d, &x->pos, 1, "rule", r->name,
			    "exception '%s': fields and comps lists must have the same length",
			    x->name);
		return -EINVAL;
	}
	for (size_t i = 0; i < x->nvalues; i++) {
		const struct yval *v = &x->values[i];

		if (v->kind != YV_SEQ || v->n != x->nfields) {
			engine_diag(&L->d, &v->pos, 1, "rule", r->name,
				    "exception '%s': value has %zu items, fields has %zu", x->name,
				    v->kind == YV_SEQ ? v->n : 1, x->nfields);
			return -EINVAL;
		}
		sb_add(b, i ? " or (" : "(");
		for (size_t j = 0; j < x->nfields; j++) {
			const char *comp = x->ncomps ? x->comps[j] : "=";

			if (j)
				sb_add(b, " and ");
			sb_add(b, x->fields[j]);
			sb_add(b, " ");
			sb_add(b, comp);
			sb_add(b, " ");
			sb_yvalue(b, &v->items[j]);
		}
		sb_add(b, ")");
	}
	return 0;
}

static void report_at(struct loader *L, const struct rule_def *rd, const struct ast *at,
		      int is_err, const char *prefix, const char *msg)
{
	struct srcpos p = rd->pos;

	if (at && at->src)
		yamlload_map(at->src, at->off, &p);
	if (!p.file)
		p = rd->pos;
	engine_diag(&L->d, &p, is_err, "rule", rd->name, "%s%s", prefix, msg);
}

static int flatten_lists(struct loader *L)
{
	for (size_t i = 0; i < L->nlists; i++) {
		struct list_def *ld = &L->lists[i];
		char **out = NULL;
		size_t n = 0;

		for (size_t k = 0; k < ld->nitems; k++) {
			const struct list_def *sub = NULL;

			for (size_t j = 0; j < i; j++)
				if (!strcmp(L->lists[j].name, ld->items[k]))
					sub = &L->lists[j];
			if (sub)
				L->lists[sub - L->lists].used = 1;
			if (sub ? strv_append(&out, &n, sub->items, sub->nitems, 0) :
				  strv_append(&out, &n, &ld->items[k], 1, 0)) {
				strv_free(out, n);
				return -ENOMEM;
			}
		}
		strv_free(ld->items, ld->nitems);
		ld->items = out;
		ld->nitems = n;
	}
	return 0;
}

static void parse_macros(struct loader *L)
{
	for (size_t i = 0; i < L->nmacros; i++) {
		struct macro_def *md = &L->macros[i];
		struct cond_env env = { L->lists, L->nlists, L->macros, i };
		char msg[ENGINE_MSG_MAX];
		size_t off;

		if (parse_cond(&md->cond, &env, &md->ast, msg, sizeof(msg), &off)) {
			struct srcpos p;

			yamlload_map(&md->cond, off, &p);
			engine_diag(&L->d, &p, 1, "macro", md->name, "%s", msg);
			md->bad = 1;
		}
	}
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void rule_free(struct rule *r)
{
	free(r->name);
	free(r->desc);
	free(r->file);
	strv_free(r->tags, r->ntags);
	free(r->source);
	free(r->code);
	for (unsigned sc = 0; sc < AS_SC_MAX; sc++)
		if (r->graph_sc[sc] != r->graph)
			free(r->graph_sc[sc]);
	free(r->graph);
	free(r->outtext);
	free(r->segs);
	for (size_t i = 0; i < r->nkeys; i++) {
		free((char *)r->keys[i].key);
		free(r->keys[i].json);
	}
	free(r->keys);
	free(r->json_tail);
}

static struct ast *and_not(struct ast *cond, struct ast *exc)
{
	struct ast *n = calloc(1, sizeof(*n)), *a = calloc(1, sizeof(*a));

	if (!n || !a) {
		free(n);
		free(a);
		return NULL;
	}
	n->kind = A_NOT;
	n->l = exc;
	n->off = exc->off;
	n->src = exc->src;
	a->kind = A_AND;
	a->l = cond;
	a->r = n;
	a->off = cond->off;
	a->src = cond->src;
	return a;
}

static int compile_rule(struct loader *L, struct rule_def *rd)
{
	struct engine *e = L->e;
	struct cond_env env = { L->lists, L->nlists, L->macros, L->nmacros };
	struct ast *a = NULL, *x = NULL;
	struct text xt = { 0 };
	struct textseg xseg;
	struct sb b = { 0 };
	struct cond_err err = { 0 };
	struct rule r = { 0 }, *nr;
	char msg[ENGINE_MSG_MAX], warn[ENGINE_MSG_MAX];
	size_t off;
	int named = 0, rc;

	if (strcmp(rd->source, "syscall")) {
		engine_diag(&L->d, &rd->pos, 0, "rule", rd->name,
			    "skipped: source '%s' is not supported", rd->source);
		return 0;
	}
	if (e->opts.min_priority > ENGINE_PRIO_NONE && rd->prio > e->opts.min_priority) {
		/* dropped, but its lists count as used (Falco compiles it) */
		if (!parse_cond(&rd->cond, &env, &a, msg, sizeof(msg), &off))
			parse_free(a);
		return 0;
	}
	if (parse_cond(&rd->cond, &env, &a, msg, sizeof(msg), &off)) {
		struct srcpos p;

		yamlload_map(&rd->cond, off, &p);
		engine_diag(&L->d, &p, 1, "rule", rd->name, "%s", msg);
		return -EINVAL;
	}
	if (parse_uses_field(a, "evt.dir", 0))
		engine_diag(&L->d, &rd->pos, 0, "rule", rd->name,
			    "field 'evt.dir' is deprecated: events are exits only, it is always '<'");
	/* exceptions: (cond) and not (exc1 or exc2 ...) */
	for (size_t i = 0; i < rd->nexcs; i++) {
		size_t before = b.len;

		if (b.len)
			sb_add(&b, " or ");
		if (exc_text(L, rd, &rd->excs[i], &b)) {
			rc = -EINVAL;
			goto out;
		}
		if (b.len == before + (before ? 4 : 0)) {
			b.len = before; /* no values: adds nothing */
			if (b.s)
				b.s[b.len] = 0;
		}
	}
	if (b.oom) {
		rc = -ENOMEM;
		goto out;
	}
	if (b.len) {
		struct ast *na;

		xseg.off = 0;
		xseg.pos = rd->excs[0].pos;
		xseg.pos.raw = NULL;
		xt.s = b.s;
		xt.len = b.len;
		xt.segs = &xseg;
		xt.nsegs = 1;
		if (parse_cond(&xt, &env, &x, msg, sizeof(msg), &off)) {
			engine_diag(&L->d, &xseg.pos, 1, "rule", rd->name, "exceptions: %s", msg);
			rc = -EINVAL;
			goto out;
		}
		na = and_not(a, x);
		if (!na) {
			rc = -ENOMEM;
			goto out;
		}
		a = na;
		x = NULL;
	}
	rc = compile_cond(e, a, &r.code, &r.ncode, &r.evmask, &named, &err);
	if (rc) {
		if (rc == -ENOMEM)
			goto out;
		if (err.unsupported || rd->skip_unknown) {
			report_at(L, rd, err.at, 0, "skipped: ", err.msg);
			rc = 0;
		} else {
			report_at(L, rd, err.at, 1, "", err.msg);
		}
		goto out;
	}
	rc = specialise_graph(r.code, r.ncode, &r.graph, &r.entry);
	if (rc)
		goto out;
	rc = specialise_entries(e, &r);
	if (rc)
		goto out;
	kfilter_derive(a, &r.kf);
	kfopen_derive(a, &r.kfo);
	if (!r.evmask && named) {
		engine_diag(&L->d, &rd->pos, 0, "rule", rd->name,
			    "skipped: needs event types agent-sentinel does not capture");
		goto out;
	}
	rc = output_compile(e, &r, &rd->output, &err, warn, sizeof(warn));
	if (rc) {
		if (rc != -ENOMEM) {
			struct srcpos p = rd->output.nsegs ? rd->output.segs[0].pos : rd->pos;

			if (err.unsupported || rd->skip_unknown) {
				engine_diag(&L->d, &p, 0, "rule", rd->name, "skipped: %s", err.msg);
				rc = 0;
			} else {
				engine_diag(&L->d, &p, 1, "rule", rd->name, "%s", err.msg);
			}
		}
		goto out;
	}
	if (warn[0]) {
		struct srcpos p = rd->output.nsegs ? rd->output.segs[0].pos : rd->pos;

		engine_diag(&L->d, &p, 0, "rule", rd->name, "%s", warn);
	}
	if (rd->enabled && rd->warn_evttypes && r.evmask == EVMASK_ALL)
		engine_diag(&L->d, &rd->pos, 0, "rule", rd->name,
			    "Rule matches too many evt.type values. This has a significant performance penalty.");
	r.name = strdup(rd->name);
	r.desc = strdup(rd->desc ? rd->desc : "");
	r.file = strdup(rd->pos.file ? rd->pos.file : "");
	r.line = rd->pos.line;
	r.prio = rd->prio;
	r.enabled = rd->enabled;
	r.source = strdup(rd->source);
	r.ntags = 0;
	if (!r.name || !r.desc || !r.file || !r.source ||
	    strv_append(&r.tags, &r.ntags, rd->tags, rd->ntags, 1)) {
		rc = -ENOMEM;
		goto out;
	}
	if (r.ntags)
		qsort(r.tags, r.ntags, sizeof(*r.tags), str_cmp);
	rc = output_prepare(&r);
	if (rc)
		goto out;
	nr = realloc(e->rules, (e->nrules + 1) * sizeof(*nr));
	if (!nr) {
		rc = -ENOMEM;
		goto out;
	}
	e->rules = nr;
	e->rules[e->nrules++] = r;
	memset(&r, 0, sizeof(r));
out:
	rule_free(&r);
	parse_free(a);
	parse_free(x);
	free(b.s);
	return rc;
}

static int build_index(struct engine *e)
{
	for (size_t sc = 0; sc < AS_SC_MAX; sc++) {
		size_t n = 0;

		for (size_t i = 0; i < e->nrules; i++)
			n += e->rules[i].enabled && (e->rules[i].evmask & (1u << sc));
		e->index[sc] = calloc(n ? n : 1, sizeof(uint32_t));
		if (!e->index[sc])
			return -ENOMEM;
		for (size_t i = 0; i < e->nrules; i++)
			if (e->rules[i].enabled && (e->rules[i].evmask & (1u << sc)))
				e->index[sc][e->nindex[sc]++] = (uint32_t)i;
		if (n)
			e->wants |= 1u << sc;
	}
	return 0;
}

static int read_file(const char *path, char **buf, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	size_t got = 0;
	char *b;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || st.st_size > RULES_MAX_FILE) {
		int rc = st.st_size > RULES_MAX_FILE ? -EFBIG : -errno;

		close(fd);
		return rc;
	}
	b = malloc((size_t)st.st_size + 1);
	if (!b) {
		close(fd);
		return -ENOMEM;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, b + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	b[got] = 0;
	*buf = b;
	*len = got;
	return 0;
}

static int add_file(struct loader *L, const char *name, char *raw, size_t len)
{
	struct yfile *f = realloc(L->files, (L->nfiles + 1) * sizeof(*f));

	if (!f) {
		free(raw);
		return -ENOMEM;
	}
	L->files = f;
	f = &L->files[L->nfiles++];
	memset(f, 0, sizeof(*f));
	f->name = strdup(name);
	f->raw = raw;
	f->len = len;
	if (!f->name)
		return -ENOMEM;
	return yamlload_parse(f, &L->d) == -ENOMEM ? -ENOMEM : 0;
}

static int has_rules_ext(const char *n)
{
	size_t l = strlen(n);

	return (l > 5 && !strcmp(n + l - 5, ".yaml")) || (l > 4 && !strcmp(n + l - 4, ".yml"));
}

static int load_path(struct loader *L, const char *path)
{
	struct stat st;
	struct srcpos p = { .file = path, .line = 1, .col = 1 };
	char *raw = NULL;
	size_t len = 0;
	int rc;

	if (stat(path, &st)) {
		engine_diag(&L->d, &p, 1, NULL, NULL, "cannot read rules: %s", strerror(errno));
		return 0;
	}
	if (S_ISDIR(st.st_mode)) {
		struct dirent **names;
		int n = scandir(path, &names, NULL, alphasort);

		if (n < 0) {
			engine_diag(&L->d, &p, 1, NULL, NULL, "cannot list directory: %s",
				    strerror(errno));
			return 0;
		}
		rc = 0;
		for (int i = 0; i < n; i++) {
			if (!rc && i < ENGINE_MAX_DIR_FILES && has_rules_ext(names[i]->d_name)) {
				char full[4096];

				snprintf(full, sizeof(full), "%s/%s", path, names[i]->d_name);
				if (stat(full, &st) == 0 && S_ISREG(st.st_mode))
					rc = load_path(L, full);
			}
			free(names[i]);
		}
		free(names);
		return rc;
	}
	rc = read_file(path, &raw, &len);
	if (rc) {
		engine_diag(&L->d, &p, 1, NULL, NULL, "cannot read rules: %s", strerror(-rc));
		return rc == -ENOMEM ? rc : 0;
	}
	return add_file(L, path, raw, len);
}

static void loader_free(struct loader *L)
{
	for (size_t i = 0; i < L->nlists; i++) {
		free(L->lists[i].name);
		strv_free(L->lists[i].items, L->lists[i].nitems);
	}
	free(L->lists);
	for (size_t i = 0; i < L->nmacros; i++) {
		free(L->macros[i].name);
		text_free(&L->macros[i].cond);
		parse_free(L->macros[i].ast);
	}
	free(L->macros);
	for (size_t i = 0; i < L->nrules; i++)
		rule_def_free(&L->rules[i]);
	free(L->rules);
	for (size_t i = 0; i < L->nfiles; i++)
		yamlload_free(&L->files[i]);
	free(L->files);
}

static struct engine *engine_new(const struct engine_opts *o)
{
	struct engine *e = calloc(1, sizeof(*e));
	const char *h;

	if (!e)
		return NULL;
	if (o)
		e->opts = *o;
	else
		e->opts.json = 1;
	h = e->opts.hostname ? e->opts.hostname : getenv("FALCO_HOSTNAME");
	if (h)
		snprintf(e->hostname, sizeof(e->hostname), "%s", h);
	else if (gethostname(e->hostname, sizeof(e->hostname) - 1))
		snprintf(e->hostname, sizeof(e->hostname), "unknown");
	e->opts.hostname = NULL;
	e->line = malloc(OUTPUT_LINE_MAX);
	e->textbuf = malloc(OUTPUT_LINE_MAX);
	e->second.secs = -1;
	if (!e->line || !e->textbuf || output_init(e)) {
		engine_free(e);
		return NULL;
	}
	return e;
}

/* Collect every item of every file, then compile. */
static int load_all(struct loader *L)
{
	int rc = 0;

	for (size_t i = 0; i < L->nfiles && !rc; i++)
		for (size_t k = 0; k < L->files[i].nitems && !rc; k++) {
			rc = collect_item(L, &L->files[i].items[k].map);
			if (rc == -EINVAL)
				rc = 0; /* reported; the next item still loads */
		}
	if (rc)
		return rc;
	rc = flatten_lists(L);
	if (rc)
		return rc;
	parse_macros(L);
	for (size_t i = 0; i < L->nrules; i++) {
		rc = compile_rule(L, &L->rules[i]);
		if (rc == -ENOMEM)
			return rc;
	}
	/* Falco's LOAD_UNUSED_LIST, in our words */
	for (size_t i = 0; i < L->nlists; i++)
		if (!L->lists[i].used)
			engine_diag(&L->d, &L->lists[i].pos, 0, "list", L->lists[i].name,
				    "list is not used by any macro, rule or list");
	return build_index(L->e);
}

static int finish(struct loader *L, struct engine **out, int rc)
{
	if (rc == -ENOMEM || rc == -E2BIG) {
		if (rc == -ENOMEM)
			engine_diag(&L->d, NULL, 1, NULL, NULL, "out of memory loading rules");
		engine_free(L->e);
		loader_free(L);
		*out = NULL;
		return rc == -E2BIG ? -EINVAL : rc;
	}
	loader_free(L);
	*out = L->e;
	return L->d.errors ? -EINVAL : 0;
}

int engine_load(struct engine **out, const char *const *paths, size_t npaths,
		const struct engine_opts *o, FILE *diag)
{
	struct loader L = { .d = { .f = diag } };
	int rc = 0;

	*out = NULL;
	L.e = engine_new(o);
	if (!L.e)
		return -ENOMEM;
	for (size_t i = 0; i < npaths && !rc; i++)
		rc = load_path(&L, paths[i]);
	if (!rc)
		rc = load_all(&L);
	return finish(&L, out, rc);
}

int engine_load_buffer(struct engine **out, const char *name, const char *buf, size_t len,
		       const struct engine_opts *o, FILE *diag)
{
	struct loader L = { .d = { .f = diag } };
	char *raw;
	int rc;

	*out = NULL;
	L.e = engine_new(o);
	if (!L.e)
		return -ENOMEM;
	raw = malloc(len + 1);
	if (!raw) {
		engine_free(L.e);
		return -ENOMEM;
	}
	memcpy(raw, buf, len);
	raw[len] = 0;
	rc = add_file(&L, name, raw, len);
	if (!rc)
		rc = load_all(&L);
	return finish(&L, out, rc);
}

void engine_free(struct engine *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->nrules; i++)
		rule_free(&e->rules[i]);
	free(e->rules);
	for (size_t i = 0; i < AS_SC_MAX; i++)
		free(e->index[i]);
	for (size_t i = 0; i < e->nslots; i++) {
		free(e->slots[i].arg);
		free(e->slots[i].text);
		free(e->slots[i].buf);
	}
	free(e->slots);
	for (size_t i = 0; i < e->ncmps; i++)
		compile_free_cmp(&e->cmps[i]);
	free(e->cmps);
	free(e->line);
	free(e->textbuf);
	free(e->json_head);
	free(e);
}

int engine_wants(const struct engine *e, unsigned type, unsigned syscall)
{
	if (!e || type == AS_EV_PROC || syscall >= AS_SC_MAX)
		return 0;
	return !!(e->wants & (1u << syscall));
}

int engine_process(struct engine *e, const struct event *ev, const struct proctable *pt,
		   FILE *out)
{
	struct evctx c = { .e = e, .ev = ev, .pt = pt };
	unsigned sc;
	int n = 0;

	/* /proc snapshots are state, not events (Falco raises nothing for them) */
	if (!e || !ev || !ev->hdr || ev->hdr->type == AS_EV_PROC)
		return 0;
	sc = ev->hdr->syscall;
	if (sc >= AS_SC_MAX)
		return 0;
	/* folded comparisons hold for events of the syscall's own type */
	c.sc = names_syscall_type(sc) == ev->hdr->type ? sc : AS_SC_NONE;
	if (++e->gen == 0) { /* wrapped: forget every cached value */
		for (size_t i = 0; i < e->nslots; i++)
			e->slots[i].gen = 0;
		for (size_t i = 0; i < e->ncmps; i++)
			e->cmps[i].gen = 0;
		e->gen = 1;
	}
	c.gen = e->gen;
	if (ev->hdr->type == AS_EV_OPEN)
		c.ocls = EVAL_OCLS_OPEN | engine_open_class(ev);
	for (size_t i = 0; i < e->nindex[sc]; i++) {
		const struct rule *r = &e->rules[e->index[sc][i]];

		if (!eval_rule(&c, r))
			continue;
		output_alert(&c, r, out);
		n++;
		if (!e->opts.rule_matching_all)
			break;
	}
	e->alerts += (uint64_t)n;
	return n;
}

uint64_t engine_alert_count(const struct engine *e)
{
	return e ? e->alerts : 0;
}

size_t engine_rule_count(const struct engine *e)
{
	return e ? e->nrules : 0;
}

static void evtypes_text(uint32_t mask, char *buf, size_t cap)
{
	size_t pos = 0;

	buf[0] = 0;
	if (mask == EVMASK_ALL) {
		snprintf(buf, cap, "all");
		return;
	}
	for (unsigned sc = AS_SC_NONE + 1; sc < AS_SC_MAX && pos < cap; sc++) {
		unsigned t;
		const char *name;

		if (!(mask & (1u << sc)))
			continue;
		/* the type of a syscall: try each event type */
		name = "unknown";
		for (t = AS_EV_EXEC; t < AS_EV_MAX; t++) {
			name = names_evt_type(t, sc);
			if (strcmp(name, "unknown") && strcmp(name, "procinfo"))
				break;
		}
		pos += (size_t)snprintf(buf + pos, cap - pos, "%s%s", pos ? "," : "", name);
	}
}

const char *engine_hostname(const struct engine *e)
{
	return e->hostname;
}

void engine_continue_seq(struct engine *e, const struct engine *from)
{
	if (e && from)
		e->seq = from->seq;
}

int engine_list_rules(const struct engine *e, FILE *out, int json)
{
	char types[512];

	if (json)
		fputs("{\"rules\":[", out);
	for (size_t i = 0; i < e->nrules; i++) {
		const struct rule *r = &e->rules[i];

		evtypes_text(r->evmask, types, sizeof(types));
		if (!json) {
			fprintf(out, "%s\t%s\t%s\t%s\t%s:%u\n", r->name,
				engine_priority_name(r->prio), types,
				r->enabled ? "enabled" : "disabled", r->file, r->line);
			continue;
		}
		struct jw w;

		jw_init(&w, e->line, OUTPUT_LINE_MAX);
		w.need_comma = i > 0;
		jw_obj_open(&w, NULL);
		jw_str(&w, "name", r->name);
		jw_str(&w, "priority", engine_priority_name(r->prio));
		jw_str(&w, "event_types", types);
		jw_bool(&w, "enabled", r->enabled);
		jw_str(&w, "source", r->source);
		jw_str(&w, "file", r->file);
		jw_u64(&w, "line", r->line);
		jw_str(&w, "desc", r->desc);
		jw_arr_open(&w, "tags");
		for (size_t k = 0; k < r->ntags; k++)
			jw_str(&w, NULL, r->tags[k]);
		jw_arr_close(&w);
		jw_obj_close(&w);
		fwrite(w.buf, 1, w.len, out);
	}
	if (json)
		fputs("]}\n", out);
	return 0;
}

static void field_syntax(int i, char *buf, size_t cap)
{
	const struct field_info *f = &fields_table[i];

	if (f->flags & FA_IDX)
		snprintf(buf, cap, "%s[N]", f->name);
	else if (f->flags & FA_ARG)
		snprintf(buf, cap, "%s.NAME", f->name);
	else
		snprintf(buf, cap, "%s", f->name);
}

int engine_list_fields(FILE *out, const char *format)
{
	char name[64], line[1024];
	int json = format && !strcmp(format, "json");
	int md = format && !strcmp(format, "markdown");

	if (format && !json && !md && strcmp(format, "text"))
		return -EINVAL;
	if (json)
		fputs("[", out);
	if (md)
		fputs("| Field | Type | Description |\n| --- | --- | --- |\n", out);
	for (int i = 0; i < F_MAX; i++) {
		const struct field_info *f = &fields_table[i];

		field_syntax(i, name, sizeof(name));
		if (json) {
			struct jw w;

			jw_init(&w, line, sizeof(line));
			w.need_comma = i > 0;
			jw_obj_open(&w, NULL);
			jw_str(&w, "name", name);
			jw_str(&w, "type", fields_type_name(f->type));
			jw_str(&w, "desc", f->doc);
			jw_obj_close(&w);
			fwrite(w.buf, 1, w.len, out);
		} else if (md) {
			fprintf(out, "| `%s` | %s | %s |\n", name, fields_type_name(f->type), f->doc);
		} else {
			fprintf(out, "%-22s %-7s %s\n", name, fields_type_name(f->type), f->doc);
		}
	}
	if (json)
		fputs("]\n", out);
	return 0;
}
