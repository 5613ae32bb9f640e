// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Rule loading: YAML items into definitions (lists, macros, rules), with
 * Falco's append, override and redefinition, apart from compilation
 * (rulecomp.c). Which keys an item takes, and which of them override may
 * append or replace, is the key tables below.
 */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "load.h"
#include "vec.h"

/* The Falco engine version these rules files may require: Falco 0.44's,
 * whose language (libs 0.25) the engine follows. */
#define ENGINE_VERSION_MAJOR 0
#define ENGINE_VERSION_MINOR 62
#define ENGINE_VERSION_PATCH 0
#define ENGINE_VERSION_STR "0.62.0"

static const struct item_key list_keys[] = {
	{ "list", 0 }, { "items", KEY_APPEND | KEY_REPLACE }, { "append", 0 }, { "override", 0 },
};
#define LIST_NKEYS (sizeof(list_keys) / sizeof(list_keys[0]))

/* Falco's reader warns about names its condition grammar cannot refer to
 * (LOAD_INVALID_MACRO_NAME, LOAD_INVALID_LIST_NAME): a macro is an
 * identifier, [a-zA-Z]+[a-zA-Z0-9_]*; a list a bare string, no blank and
 * none of ( ) " ' = ,. The item still loads. */
static int name_is_ident(const char *s)
{
	if (!isalpha((unsigned char)*s))
		return 0;
	while (*s && (isalnum((unsigned char)*s) || *s == '_'))
		s++;
	return !*s;
}

static int name_is_bare(const char *s)
{
	for (; *s; s++)
		if (isspace((unsigned char)*s) || strchr("()\"'=,", *s))
			return 0;
	return 1;
}

static int collect_list(struct rules_loader *L, const struct yval *m)
{
	const struct yval *nv = keys_scalar(L, m, "list", "list", "");
	const char *name = keys_item_name(nv);
	const struct yval *items = yamlload_get(m, "items", NULL);
	struct list_def *ld = NULL;
	struct keys_ovr o;
	char **v = NULL;
	size_t n = 0;
	int app = 0, rc;

	if (!nv || !name[0]) {
		engine_diag(&L->d, &m->pos, 1, "list", name, "list has no name");
		return -EINVAL;
	}
	/* Falco 0.44 rejects what it does not know (falco PR 3805) */
	if (keys_unknown(L, m, list_keys, LIST_NKEYS, 1, "list", name))
		return -EINVAL;
	if (!name_is_bare(name))
		engine_diag(&L->d, &m->pos, 0, "list", name,
			    "list has an invalid name: list names should match the regular expression [^()\"'[:space:]=,]+");
	if (keys_override(L, m, "list", name, list_keys, LIST_NKEYS, &o))
		return -EINVAL;
	if (keys_bool(L, m, "append", "list", name, &app) < 0)
		return -EINVAL;
	if (!items) {
		engine_diag(&L->d, &m->pos, 1, "list", name, "item has no mapping for key 'items'");
		return -EINVAL;
	}
	if (items->kind == YV_NONE || (items->kind == YV_SCALAR && !items->s[0] && !items->quoted)) {
		v = calloc(1, sizeof(*v));
		if (!v)
			return -ENOMEM;
	} else if (items->kind != YV_SEQ || (rc = keys_strv_from_seq(items, &v, &n)) == -EINVAL) {
		engine_diag(&L->d, &items->pos, 1, "list", name,
			    "value of 'items' is not a sequence of strings");
		return -EINVAL;
	} else if (rc) {
		return rc;
	}
	for (size_t i = 0; i < L->nlists; i++)
		if (!strcmp(L->lists[i].name, name))
			ld = &L->lists[i];
	keys_warn_legacy_append(L, m, "list", name, app);
	if (o.present)
		app = keys_ovr_mode(&o, "items") == 1;
	/* a replace with nothing before defines the list (Falco's
	 * list_override_replace_before_list_definition) */
	if (app || (o.present && ld)) {
		if (!ld) {
			engine_diag(&L->d, &m->pos, 1, "list", name,
				    "list has '%s' but no list by that name is defined before",
				    o.present ? "override" : "append");
			keys_strv_free(v, n);
			return -EINVAL;
		}
		if (app) {
			rc = keys_strv_append(&ld->items, &ld->nitems, v, n, 0);
			keys_strv_free(v, n);
			return rc;
		}
		keys_strv_free(ld->items, ld->nitems);
		ld->items = v;
		ld->nitems = n;
		return 0;
	}
	if (ld) { /* redefinition replaces in place */
		keys_strv_free(ld->items, ld->nitems);
		ld->items = v;
		ld->nitems = n;
		ld->pos = m->pos;
		return 0;
	}
	if (vec_room(&L->lists, L->nlists, sizeof(*ld))) {
		keys_strv_free(v, n);
		return -ENOMEM;
	}
	ld = &L->lists[L->nlists++];
	memset(ld, 0, sizeof(*ld));
	ld->name = strdup(name);
	ld->pos = m->pos;
	ld->items = v;
	ld->nitems = n;
	return ld->name ? 0 : -ENOMEM;
}

static const struct item_key macro_keys[] = {
	{ "macro", 0 }, { "condition", KEY_APPEND | KEY_REPLACE }, { "append", 0 }, { "override", 0 },
};
#define MACRO_NKEYS (sizeof(macro_keys) / sizeof(macro_keys[0]))

static int collect_macro(struct rules_loader *L, const struct yval *m)
{
	const struct yval *nv = keys_scalar(L, m, "macro", "macro", "");
	const char *name = keys_item_name(nv);
	const struct yval *cv;
	struct macro_def *md = NULL;
	struct keys_ovr o;
	int app = 0;

	if (!nv || !name[0]) {
		engine_diag(&L->d, &m->pos, 1, "macro", name, "macro has no name");
		return -EINVAL;
	}
	/* Falco 0.44 rejects what it does not know (falco PR 3805) */
	if (keys_unknown(L, m, macro_keys, MACRO_NKEYS, 1, "macro", name))
		return -EINVAL;
	if (!name_is_ident(name))
		engine_diag(&L->d, &m->pos, 0, "macro", name,
			    "macro has an invalid name: macro names should match the regular expression [a-zA-Z]+[a-zA-Z0-9_]*");
	if (keys_override(L, m, "macro", name, macro_keys, MACRO_NKEYS, &o))
		return -EINVAL;
	if (keys_bool(L, m, "append", "macro", name, &app) < 0)
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
	keys_warn_legacy_append(L, m, "macro", name, app);
	if (o.present)
		app = keys_ovr_mode(&o, "condition") == 1;
	/* as for lists, a replace with nothing before defines the macro */
	if (app || (o.present && md)) {
		if (!md) {
			engine_diag(&L->d, &m->pos, 1, "macro", name,
				    "macro has '%s' but no macro by that name is defined before",
				    o.present ? "override" : "append");
			return -EINVAL;
		}
		return app ? keys_text_append(&md->cond, cv->s, &cv->pos) :
			     keys_text_set(&md->cond, cv->s, &cv->pos);
	}
	if (md) {
		md->pos = m->pos;
		return keys_text_set(&md->cond, cv->s, &cv->pos);
	}
	if (vec_room(&L->macros, L->nmacros, sizeof(*md)))
		return -ENOMEM;
	md = &L->macros[L->nmacros];
	memset(md, 0, sizeof(*md));
	md->order = L->nmacros++;
	md->name = strdup(name);
	md->pos = m->pos;
	if (!md->name)
		return -ENOMEM;
	return keys_text_set(&md->cond, cv->s, &cv->pos);
}

/* ---- rules ---- */

/*
 * The rule keys, in the order a new rule's are read: how each is read
 * (rule_apply_key), what override may do with it, whether a new rule must
 * have it; the text keys name their field and its has_ flag.
 */
/* RK_CAPTURE: Falco's capture keys (0.42's capture feature); read, not acted on */
enum rule_key_kind { RK_ITEM, RK_TEXT, RK_DESC, RK_PRIO, RK_TAGS, RK_EXCEPTIONS, RK_SOURCE,
		     RK_BOOL, RK_CAPTURE, RK_META };

struct rule_key {
	int kind; /* enum rule_key_kind */
	size_t off; /* RK_TEXT: the struct text; RK_BOOL: the int */
	size_t has; /* offset of the int set when the key is given, or 0 */
};

#define RD(f) offsetof(struct rule_def, f)
#define AR (KEY_APPEND | KEY_REPLACE)
/* K(key, flags, kind, off, has) */
#define RULE_KEY_LIST(K)                                                      \
	K("rule", 0, RK_ITEM, 0, 0)                                           \
	K("condition", AR | KEY_REQUIRED, RK_TEXT, RD(cond), RD(has_cond))    \
	K("output", AR | KEY_REQUIRED, RK_TEXT, RD(output), RD(has_output))   \
	K("desc", AR | KEY_REQUIRED, RK_DESC, 0, RD(has_desc))                \
	K("priority", KEY_REPLACE | KEY_REQUIRED, RK_PRIO, 0, RD(has_prio))   \
	K("tags", AR, RK_TAGS, 0, 0)                                          \
	K("enabled", KEY_REPLACE, RK_BOOL, RD(enabled), 0)                    \
	K("exceptions", AR, RK_EXCEPTIONS, 0, 0)                              \
	K("source", 0, RK_SOURCE, 0, 0)                                       \
	K("warn_evttypes", KEY_REPLACE, RK_BOOL, RD(warn_evttypes), 0)        \
	K("skip-if-unknown-filter", KEY_REPLACE, RK_BOOL, RD(skip_unknown), 0) \
	K("capture", KEY_REPLACE, RK_CAPTURE, 0, 0)                            \
	K("capture_duration", KEY_REPLACE, RK_CAPTURE, 0, 0)                   \
	K("append", 0, RK_META, 0, 0)                                         \
	K("override", 0, RK_META, 0, 0)                                       \
	K("required_engine_version", 0, RK_META, 0, 0)

#define ITEM_ROW(key, flags, kind, off, has) { key, flags },
static const struct item_key rule_item_keys[] = { RULE_KEY_LIST(ITEM_ROW) };
#undef ITEM_ROW
#define RULE_ROW(key, flags, kind, off, has) { kind, off, has },
static const struct rule_key rule_keys[] = { RULE_KEY_LIST(RULE_ROW) };
#undef RULE_ROW
#undef AR
#undef RD
#define RULE_NKEYS (sizeof(rule_keys) / sizeof(rule_keys[0]))

void collect_rule_def_free(struct rule_def *r)
{
	free(r->name);
	keys_text_free(&r->cond);
	keys_text_free(&r->output);
	free(r->desc);
	keys_strv_free(r->tags, r->ntags);
	free(r->source);
	for (size_t i = 0; i < r->nexcs; i++)
		except_free(&r->excs[i]);
	free(r->excs);
}

static int rule_tags(struct rules_loader *L, struct rule_def *r, const struct yval *v, int app)
{
	char **t;
	size_t n;
	int rc;

	if (v->kind == YV_NONE) {
		t = NULL;
		n = 0;
	} else if (v->kind != YV_SEQ || (rc = keys_strv_from_seq(v, &t, &n)) == -EINVAL) {
		engine_diag(&L->d, &v->pos, 1, "rule", r->name,
			    "value of 'tags' is not a sequence of strings");
		return -EINVAL;
	} else if (rc) {
		return rc;
	}
	if (app) {
		rc = keys_strv_append(&r->tags, &r->ntags, t, n, 1);
		keys_strv_free(t, n);
		return rc;
	}
	keys_strv_free(r->tags, r->ntags);
	r->tags = t;
	r->ntags = n;
	return 0;
}

/* Falco joins an appended description with one space. */
static int rule_desc(struct rule_def *r, const char *s, int app)
{
	char *n;

	if (app && r->desc) {
		n = malloc(strlen(r->desc) + strlen(s) + 2);
		if (n)
			sprintf(n, "%s %s", r->desc, s);
	} else {
		n = strdup(s);
	}
	if (!n)
		return -ENOMEM;
	free(r->desc);
	r->desc = n;
	return 0;
}

/* Apply key k (replace, or append when app) from item m onto r, as its
 * row of rule_keys says. */
static int rule_apply(struct rules_loader *L, struct rule_def *r, const struct yval *m,
		      size_t ki, int app)
{
	const struct rule_key *k = &rule_keys[ki];
	const char *key = rule_item_keys[ki].key;
	const struct yval *v = yamlload_get(m, key, NULL);
	char *base = (char *)r;
	int b, p;

	if (!v || k->kind == RK_ITEM || k->kind == RK_META || k->kind == RK_CAPTURE)
		return 0;
	if ((k->kind == RK_TEXT || k->kind == RK_DESC || k->kind == RK_PRIO ||
	     k->kind == RK_SOURCE) && v->kind != YV_SCALAR) {
		engine_diag(&L->d, &v->pos, 1, "rule", r->name, "value of '%s' is not a string",
			    key);
		return -EINVAL;
	}
	if (k->has)
		*(int *)(base + k->has) = 1;
	switch (k->kind) {
	case RK_TEXT:
		return app ? keys_text_append((struct text *)(base + k->off), v->s, &v->pos) :
			     keys_text_set((struct text *)(base + k->off), v->s, &v->pos);
	case RK_DESC:
		return rule_desc(r, v->s, app);
	case RK_PRIO:
		p = engine_priority_parse(v->s);
		if (p < 0) {
			engine_diag(&L->d, &v->pos, 1, "rule", r->name, "invalid priority '%s'", v->s);
			return -EINVAL;
		}
		r->prio = p;
		return 0;
	case RK_SOURCE:
		free(r->source);
		r->source = strdup(v->s);
		return r->source ? 0 : -ENOMEM;
	case RK_TAGS:
		return rule_tags(L, r, v, app);
	case RK_EXCEPTIONS:
		if (v->kind == YV_NONE)
			return 0;
		if (!app) {
			for (size_t i = 0; i < r->nexcs; i++)
				except_free(&r->excs[i]);
			r->nexcs = 0;
		}
		return except_collect(L, r, v, app);
	case RK_BOOL:
		if (keys_bool(L, m, key, "rule", r->name, &b) < 0)
			return -EINVAL;
		*(int *)(base + k->off) = b;
		return 0;
	default:
		return 0;
	}
}

static int rule_apply_key(struct rules_loader *L, struct rule_def *r, const struct yval *m,
			  const char *key, int app)
{
	for (size_t i = 0; i < RULE_NKEYS; i++)
		if (!strcmp(rule_item_keys[i].key, key))
			return rule_apply(L, r, m, i, app);
	return 0;
}

static int collect_rule(struct rules_loader *L, const struct yval *m)
{
	const struct yval *nv = keys_scalar(L, m, "rule", "rule", "");
	const char *name = keys_item_name(nv);
	struct rule_def *r = NULL, nr;
	struct keys_ovr o;
	int app = 0, rc = 0;

	if (!nv || !name[0]) {
		engine_diag(&L->d, &m->pos, 1, "rule", name, "rule has no name");
		return -EINVAL;
	}
	/* Falco 0.44 rejects what it does not know (falco PR 3805) */
	if (keys_unknown(L, m, rule_item_keys, RULE_NKEYS, 1, "rule", name))
		return -EINVAL;
	if (keys_override(L, m, "rule", name, rule_item_keys, RULE_NKEYS, &o))
		return -EINVAL;
	if (keys_bool(L, m, "append", "rule", name, &app) < 0)
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
	keys_warn_legacy_append(L, m, "rule", name, app);
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
		collect_rule_def_free(&nr);
		return -ENOMEM;
	}
	for (size_t i = 0; i < RULE_NKEYS && !rc; i++)
		rc = rule_apply(L, &nr, m, i, 0);
	for (size_t i = 0; i < RULE_NKEYS && !rc; i++) {
		const struct rule_key *k = &rule_keys[i];

		if ((rule_item_keys[i].flags & KEY_REQUIRED) &&
		    !*(const int *)((const char *)&nr + k->has)) {
			engine_diag(&L->d, &m->pos, 1, "rule", name,
				    "item has no mapping for key '%s'", rule_item_keys[i].key);
			rc = -EINVAL;
		}
	}
	if (rc) {
		collect_rule_def_free(&nr);
		return rc;
	}
	if (r) { /* redefinition replaces in place */
		collect_rule_def_free(r);
		*r = nr;
		return 0;
	}
	if (vec_room(&L->rules, L->nrules, sizeof(*r))) {
		collect_rule_def_free(&nr);
		return -ENOMEM;
	}
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

/* One plugin requirement, {name, version}, as Falco's reader checks it. */
static int plugin_req(struct rules_loader *L, const struct yval *r, const char *what)
{
	const char *keys[] = { "name", "version" };

	if (r->kind != YV_MAP) {
		engine_diag(&L->d, &r->pos, 1, NULL, NULL, "%s must be a mapping", what);
		return -EINVAL;
	}
	for (size_t k = 0; k < 2; k++) {
		const struct yval *v = yamlload_get(r, keys[k], NULL);

		if (!v || v->kind != YV_SCALAR || !v->s[0]) {
			engine_diag(&L->d, v ? &v->pos : &r->pos, 1, NULL, NULL,
				    "%s has no mapping for key '%s'", what, keys[k]);
			return -EINVAL;
		}
	}
	return 0;
}

/* required_plugin_versions: a sequence of {name, version, alternatives:
 * [{name, version}]}, checked as Falco's reader does (an error loads no
 * rule). Falco then refuses to start unless a loaded plugin satisfies each
 * entry; agent-sentinel loads none, and says once that it goes on: a rule
 * that needs a plugin's fields is skipped as not supported. */
static int collect_plugin_versions(struct rules_loader *L, const struct yval *m,
				   const struct yval *v)
{
	if (v->kind != YV_SEQ) {
		engine_diag(&L->d, &v->pos, 1, NULL, NULL,
			    "value of required_plugin_versions must be a sequence");
		return -EINVAL;
	}
	for (size_t i = 0; i < v->n; i++) {
		const struct yval *alt;

		if (plugin_req(L, &v->items[i], "plugin version"))
			return -EINVAL;
		alt = yamlload_get(&v->items[i], "alternatives", NULL);
		if (!alt)
			continue;
		if (alt->kind != YV_SEQ) {
			engine_diag(&L->d, &alt->pos, 1, NULL, NULL,
				    "value of plugin version alternatives must be a sequence");
			return -EINVAL;
		}
		for (size_t k = 0; k < alt->n; k++)
			if (plugin_req(L, &alt->items[k], "plugin version alternative"))
				return -EINVAL;
	}
	engine_diag(&L->d, &m->pos, 0, NULL, NULL,
		    "required_plugin_versions ignored: agent-sentinel loads no plugins");
	return 0;
}

int collect_item(struct rules_loader *L, const struct yval *m)
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
	if ((v = yamlload_get(m, "required_plugin_versions", NULL)))
		return collect_plugin_versions(L, m, v);
	engine_diag(&L->d, &m->pos, 0, NULL, NULL, "unknown top level item%s%s",
		    m->n ? " with key " : "", m->n ? m->keys[0] : "");
	return 0;
}
