/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The one YAML helper of the configuration (config.c), the rules
 * (rules/yamlload.c, rules/keys.c) and agent-egress's configuration
 * (egress/config.c): where a node is, what a scalar says, and walking
 * sequences and mappings of a libyaml document. */
#ifndef AS_YAMLUTIL_H
#define AS_YAMLUTIL_H

#include <stddef.h>
#include <yaml.h>

/* A YAML 1.1 boolean as yaml-cpp, Falco's reader of both, takes it: true,
 * yes, on, y and false, no, off, n, in any case. 0 (*out 1 or 0), or
 * -EINVAL when s is none of them. */
int yamlutil_bool(const char *s, int *out);

/* Why libyaml could not parse a YAML input, worded once for all of them
 * (rules files, the config file, -o values, agent-egress's config):
 * "invalid YAML: PROBLEM (CONTEXT on line N)" into msg, and in *line and
 * *col (1-based) where libyaml stopped, for the caller's FILE:LINE:COL. */
void yamlutil_parse_error(const yaml_parser_t *p, char *msg, size_t cap, size_t *line,
			  size_t *col);

/* Where n starts, from 1 (line 1, column 1 for no node). */
static inline size_t yamlutil_line(const yaml_node_t *n)
{
	return n ? n->start_mark.line + 1 : 1;
}

static inline size_t yamlutil_col(const yaml_node_t *n)
{
	return n ? n->start_mark.column + 1 : 1;
}

/* The text of a scalar node; NULL for no node, a sequence or a mapping. */
const char *yamlutil_scalar(const yaml_node_t *n);
/* A plain scalar that YAML reads as null: empty, ~, null, Null, NULL. */
int yamlutil_is_null(const yaml_node_t *n);

/* Sequences and mappings: their length (0 for any other node), and item or
 * pair i of it (NULL, or 0, when the document does not hold it). */
size_t yamlutil_len(const yaml_node_t *n);
yaml_node_t *yamlutil_item(yaml_document_t *doc, const yaml_node_t *seq, size_t i);
int yamlutil_pair(yaml_document_t *doc, const yaml_node_t *map, size_t i, yaml_node_t **key,
		  yaml_node_t **val);

#endif /* AS_YAMLUTIL_H */
