/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Inside the configuration (config.c, config_keys.c, config_values.c): the
 * key table, where a value came from, and one line per problem. */
#ifndef AS_CONFIG_INT_H
#define AS_CONFIG_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <yaml.h>
#include "config.h"
#include "yamlutil.h"

#define CONFIG_SHOW_MAX			60     /* bytes of a bad value quoted in an error */
#define CONFIG_MAX_SEEN			128 /* keys and sections tracked for duplicates in one file */

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* config_keys.c: every key, in one table */
extern const struct config_key config_table[];
extern const size_t config_nkeys;

/* "http_output" when some key is "http_output.<...>". */
int config_is_section(const char *name);
int config_strset(char **slot, const char *v);
void config_paths_free(char **v, size_t n);

static inline void *config_field(struct config *cfg, const struct config_key *k)
{
	return (char *)cfg + k->off;
}

static inline const void *config_cfield(const struct config *cfg, const struct config_key *k)
{
	return (const char *)cfg + k->off;
}

/* A list of paths is a char ** and, right after it, its size_t count. */
static inline size_t *config_paths_count(const void *list)
{
	return (size_t *)((char *)(uintptr_t)list + sizeof(char **));
}

/* ---- where a value came from, and one line per problem ---- */

struct config_ctx {
	struct config *cfg;
	FILE *diag;
	const char *file; /* NULL: an -o override */
	yaml_document_t *doc;
	int errors;
	int nomem;
	struct {
		char name[64];
		size_t line;
	} seen[CONFIG_MAX_SEEN];
	size_t n_seen;
};

__attribute__((format(printf, 4, 5))) void config_err(struct config_ctx *c, const yaml_node_t *n,
						      const char *key, const char *fmt, ...);

/* config_values.c */
/* What a wrong value is, for "got ...": "soon" quoted and escaped, or its kind. */
const char *config_show(const yaml_node_t *n, char *buf, size_t len);
#define GOT(n) config_show((n), got, sizeof(got))
/* Errors point at the key (at), as the value can span lines; list items at themselves. */
void config_apply_key(struct config_ctx *c, const struct config_key *k, const yaml_node_t *at,
		      yaml_node_t *n);

#endif /* AS_CONFIG_INT_H */
