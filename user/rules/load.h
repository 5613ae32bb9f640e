/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Rule loading, shared by its stages (not a public interface): keys.c reads
 * YAML items, collect.c and except.c turn them into definitions, rulecomp.c
 * compiles the definitions into the engine, engine.c reads the files.
 */
#ifndef AS_RULES_LOAD_H
#define AS_RULES_LOAD_H

#include "rules.h"

#define ENGINE_MAX_DIR_FILES 4096 /* rules files read from one directory */

/* What loading holds between reading the files and the compiled engine. */
struct rules_loader {
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

/* keys.c: texts assembled from appends (Falco joins with one space) */
int keys_text_set(struct text *t, const char *s, const struct srcpos *pos);
int keys_text_append(struct text *t, const char *s, const struct srcpos *pos);
void keys_text_free(struct text *t);

/* keys.c: an item's keys */
const char *keys_item_name(const struct yval *v);
/* key of m that must be a scalar: NULL when absent or (reported) not one */
const struct yval *keys_scalar(struct rules_loader *L, const struct yval *m, const char *key,
			       const char *kind, const char *name);
/* a boolean key: 1 read into *out, 0 absent, -EINVAL reported */
int keys_bool(struct rules_loader *L, const struct yval *m, const char *key, const char *kind,
	      const char *name, int *out);
void keys_warn_legacy_append(struct rules_loader *L, const struct yval *m, const char *kind,
			     const char *name, int app);
/* One key an item may have, and what override may do with it. */
#define KEY_APPEND 1u /* override: {key: append} */
#define KEY_REPLACE 2u /* override: {key: replace} */
#define KEY_REQUIRED 4u /* a new definition must have it */

struct item_key {
	const char *key;
	unsigned flags;
};

/* Keys of m not in known: errors (is_err; -EINVAL) or warnings (0). */
int keys_unknown(struct rules_loader *L, const struct yval *m, const struct item_key *known,
		 size_t nknown, int is_err, const char *kind, const char *name);

#define KEYS_OVR_MAX 16 /* keys one override names; an item has at most 13 */

/* override: {key: append|replace} */
struct keys_ovr {
	int present;
	const char *keys[KEYS_OVR_MAX];
	int append[KEYS_OVR_MAX];
	size_t n;
};
int keys_override(struct rules_loader *L, const struct yval *m, const char *kind,
		  const char *name, const struct item_key *keys, size_t nkeys,
		  struct keys_ovr *o);
int keys_ovr_mode(const struct keys_ovr *o, const char *key); /* -1 absent, 0 replace, 1 append */

/* keys.c: string vectors */
int keys_strv_from_seq(const struct yval *v, char ***out, size_t *n);
void keys_strv_free(char **a, size_t n);
int keys_strv_append(char ***a, size_t *n, char **b, size_t bn, int uniq);

/* collect.c: one item of a file into the definitions; 0, -EINVAL reported,
 * -ENOMEM, -E2BIG */
int collect_item(struct rules_loader *L, const struct yval *m);
void collect_rule_def_free(struct rule_def *r);

/* except.c: a rule item's exceptions into (merge: onto) r */
int except_collect(struct rules_loader *L, struct rule_def *r, const struct yval *ev, int merge);
void except_free(struct exc_def *x);
/* The exceptions of rd as one condition, (e1 or e2 ...), nodes pointing at
 * src; *out NULL when no exception has values. 0, -EINVAL reported, -ENOMEM. */
int except_ast(struct rules_loader *L, const struct rule_def *rd, const struct cond_env *env,
	       const struct text *src, struct ast **out);

/* rulecomp.c: definitions into the engine */
int rulecomp_flatten_lists(struct rules_loader *L);
void rulecomp_parse_macros(struct rules_loader *L);
int rulecomp_rule(struct rules_loader *L, struct rule_def *rd);
void rulecomp_rule_free(struct rule *r);
int rulecomp_index(struct engine *e);

#endif /* AS_RULES_LOAD_H */
