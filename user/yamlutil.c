// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>
#include "yamlutil.h"

int yamlutil_bool(const char *s, int *out)
{
	static const char *const t[] = { "true", "yes", "on", "y" };
	static const char *const f[] = { "false", "no", "off", "n" };

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
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

const char *yamlutil_scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

int yamlutil_is_null(const yaml_node_t *n)
{
	const char *s;

	if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return 0;
	s = (const char *)n->data.scalar.value;
	return !*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") ||
	       !strcmp(s, "NULL");
}

size_t yamlutil_len(const yaml_node_t *n)
{
	if (n->type == YAML_SEQUENCE_NODE)
		return (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
	if (n->type == YAML_MAPPING_NODE)
		return (size_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
	return 0;
}

yaml_node_t *yamlutil_item(yaml_document_t *doc, const yaml_node_t *seq, size_t i)
{
	if (seq->type != YAML_SEQUENCE_NODE || i >= yamlutil_len(seq))
		return NULL;
	return yaml_document_get_node(doc, seq->data.sequence.items.start[i]);
}

int yamlutil_pair(yaml_document_t *doc, const yaml_node_t *map, size_t i, yaml_node_t **key,
		  yaml_node_t **val)
{
	const yaml_node_pair_t *p;

	if (map->type != YAML_MAPPING_NODE || i >= yamlutil_len(map))
		return 0;
	p = &map->data.mapping.pairs.start[i];
	*key = yaml_document_get_node(doc, p->key);
	*val = yaml_document_get_node(doc, p->value);
	return *key && *val;
}

void yamlutil_parse_error(const yaml_parser_t *p, char *msg, size_t cap, size_t *line,
			  size_t *col)
{
	int n = snprintf(msg, cap, "invalid YAML: %s",
			 p->problem ? p->problem :
			 p->error == YAML_MEMORY_ERROR ? "out of memory" : "cannot parse");

	if (p->context && n >= 0 && (size_t)n < cap)
		snprintf(msg + n, cap - (size_t)n, " (%s on line %zu)", p->context,
			 p->context_mark.line + 1);
	*line = p->problem_mark.line + 1;
	*col = p->problem_mark.column + 1;
}
