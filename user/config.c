// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The configuration: one walker over a libyaml document that checks each
 * value against its row of the key table (config_keys.c, values parsed in
 * config_values.c), and the same walker for -o overrides (the value becomes
 * a one-node document, or is parsed as YAML flow when it starts with '[' or
 * '{'); then the checks across keys.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "config_int.h"
#include "diag.h"

void config_err(struct config_ctx *c, const yaml_node_t *n, const char *key, const char *fmt, ...)
{
	va_list ap;

	c->errors++;
	if (!c->diag)
		return;
	if (c->file) {
		diag_at(c->diag, c->file, yamlutil_line(n), yamlutil_col(n));
		fprintf(c->diag, "%s: ", key);
	} else
		fprintf(c->diag, "-o %s: ", key);
	va_start(ap, fmt);
	vfprintf(c->diag, fmt, ap);
	va_end(ap);
	fputc('\n', c->diag);
}

/* ---- mappings: sections and keys ---- */

/* A key given twice in one file: the second one is an error. */
static int config_seen(struct config_ctx *c, const char *name, const yaml_node_t *n)
{
	if (!c->file)
		return 0; /* -o: the last one wins */
	for (size_t i = 0; i < c->n_seen; i++) {
		if (!strcmp(c->seen[i].name, name)) {
			config_err(c, n, name, "given twice (first on line %zu)", c->seen[i].line);
			return 1;
		}
	}
	if (c->n_seen < CONFIG_MAX_SEEN && strlen(name) < sizeof(c->seen[0].name)) {
		strcpy(c->seen[c->n_seen].name, name);
		c->seen[c->n_seen++].line = yamlutil_line(n);
	}
	return 0;
}

/* "unknown key", with the full name when only the section was left out and
 * exactly one key has that last part. */
static void config_unknown(struct config_ctx *c, const yaml_node_t *n, const char *name)
{
	const char *leaf = strrchr(name, '.'), *match = NULL;
	int matches = 0;

	leaf = leaf ? leaf + 1 : name;
	for (size_t i = 0; i < config_nkeys; i++) {
		const char *dot = strrchr(config_table[i].name, '.');

		if (dot && !strcmp(dot + 1, leaf) && strcmp(config_table[i].name, name)) {
			match = config_table[i].name;
			matches++;
		}
	}
	if (matches == 1)
		config_err(c, n, name, "unknown key (did you mean %s?)", match);
	else
		config_err(c, n, name, "unknown key");
}

static void config_apply(struct config_ctx *c, const char *name, yaml_node_t *key,
			 yaml_node_t *val);

static void config_apply_map(struct config_ctx *c, const char *prefix, yaml_node_t *map)
{
	char got[CONFIG_SHOW_MAX + 16];

	for (size_t i = 0; i < yamlutil_len(map); i++) {
		yaml_node_t *k, *v;
		char name[160];

		if (!yamlutil_pair(c->doc, map, i, &k, &v))
			continue;
		if (k->type != YAML_SCALAR_NODE) {
			config_err(c, k, prefix ? prefix : "(top)",
				   "keys are names, got %s as a key", GOT(k));
			continue;
		}
		if (prefix)
			snprintf(name, sizeof(name), "%s.%s", prefix, k->data.scalar.value);
		else
			snprintf(name, sizeof(name), "%s", k->data.scalar.value);
		config_apply(c, name, k, v);
	}
}

static void config_apply(struct config_ctx *c, const char *name, yaml_node_t *key, yaml_node_t *val)
{
	const struct config_key *k;
	char got[CONFIG_SHOW_MAX + 16];

	if (!strcmp(name, "rules_file")) /* Falco's older name */
		name = "rules_files";
	k = config_key_find(name);
	if (k) {
		if (!config_seen(c, name, key))
			config_apply_key(c, k, key, val);
		return;
	}
	if (!config_is_section(name)) {
		config_unknown(c, key, name);
		return;
	}
	if (config_seen(c, name, key))
		return;
	if (val->type == YAML_MAPPING_NODE)
		config_apply_map(c, name, val);
	else if (!yamlutil_is_null(val)) /* "http_output:" alone sets nothing */
		config_err(c, key, name, "expected a mapping of %s.* settings, got %s", name,
			   GOT(val));
}

static int config_result(const struct config_ctx *c)
{
	if (c->nomem)
		return -ENOMEM;
	return c->errors ? -EINVAL : 0;
}

/* ---- the file ---- */

/* a libyaml problem and context are short fixed strings; a -o key is a
 * config key (config_keys.c), short too */
#define CONFIG_YAML_MSG_MAX 512

/* one_line: p read a -o value, where libyaml's end of input is past a line
 * break it adds: the column is the byte offset on line 1 */
static void config_yaml_error(FILE *diag, const char *path, const yaml_parser_t *p, int one_line)
{
	char msg[CONFIG_YAML_MSG_MAX];
	size_t line, col;

	if (!diag)
		return;
	yamlutil_parse_error(p, msg, sizeof(msg), &line, &col);
	if (one_line) {
		line = 1;
		col = p->problem_mark.index + 1;
	}
	diag_at(diag, path, line, col);
	fprintf(diag, "%s\n", msg);
}

int config_load_file(struct config *cfg, const char *path, FILE *diag)
{
	struct config_ctx *c;
	yaml_parser_t parser;
	yaml_document_t doc, next;
	yaml_node_t *root, *extra;
	char got[CONFIG_SHOW_MAX + 16];
	FILE *f;
	int err;

	f = fopen(path, "re");
	if (!f) {
		err = -errno;
		if (diag)
			fprintf(diag, "%s: cannot open: %s\n", path, strerror(-err));
		return err;
	}
	c = calloc(1, sizeof(*c));
	if (!c || !yaml_parser_initialize(&parser)) {
		free(c);
		fclose(f);
		return -ENOMEM;
	}
	yaml_parser_set_input_file(&parser, f);
	if (!yaml_parser_load(&parser, &doc)) {
		config_yaml_error(diag, path, &parser, 0);
		err = parser.error == YAML_MEMORY_ERROR ? -ENOMEM : -EINVAL;
		goto out_parser;
	}
	/* one document: a second one would be silently ignored otherwise */
	if (yaml_document_get_root_node(&doc)) {
		if (!yaml_parser_load(&parser, &next)) {
			config_yaml_error(diag, path, &parser, 0);
			err = parser.error == YAML_MEMORY_ERROR ? -ENOMEM : -EINVAL;
			goto out_doc;
		}
		extra = yaml_document_get_root_node(&next);
		if (extra && diag) {
			diag_at(diag, path, yamlutil_line(extra), yamlutil_col(extra));
			fprintf(diag, "a second YAML document: one is expected\n");
		}
		yaml_document_delete(&next);
		if (extra) {
			err = -EINVAL;
			goto out_doc;
		}
	}
	c->cfg = cfg;
	c->diag = diag;
	c->file = path;
	c->doc = &doc;
	root = yaml_document_get_root_node(&doc);
	if (root && root->type == YAML_MAPPING_NODE)
		config_apply_map(c, NULL, root);
	else if (root && !yamlutil_is_null(root))
		config_err(c, root, "(top)", "expected a mapping of settings, got %s", GOT(root));
	err = config_result(c);
out_doc:
	yaml_document_delete(&doc);
out_parser:
	yaml_parser_delete(&parser);
	fclose(f);
	free(c);
	return err;
}

/* ---- -o overrides ---- */

/* "a,b" -> a sequence of scalars (spaces around items dropped). */
static int config_split_list(yaml_document_t *doc, const char *value)
{
	int seq = yaml_document_add_sequence(doc, NULL, YAML_FLOW_SEQUENCE_STYLE);
	const char *p = value;

	if (!seq)
		return -ENOMEM;
	while (*p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		int item;

		while (len && isspace((unsigned char)*p))
			p++, len--;
		while (len && isspace((unsigned char)p[len - 1]))
			len--;
		if (len > INT_MAX)
			return -EINVAL;
		item = yaml_document_add_scalar(doc, NULL, (yaml_char_t *)p, (int)len,
						YAML_SINGLE_QUOTED_SCALAR_STYLE);
		if (!item || !yaml_document_append_sequence_item(doc, seq, item))
			return -ENOMEM;
		if (!end)
			break;
		p = end + 1;
	}
	return 0;
}

int config_set(struct config *cfg, const char *key, const char *value, FILE *diag)
{
	const struct config_key *k = NULL;
	struct config_ctx *c;
	yaml_document_t doc;
	yaml_node_t *root, knode = {.type = YAML_SCALAR_NODE};
	int err = 0, have_doc = 0;

	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->cfg = cfg;
	c->diag = diag;
	c->doc = &doc;
	if (!strcmp(key, "rules_file"))
		key = "rules_files";
	k = config_key_find(key);
	if (!k && !config_is_section(key)) {
		config_unknown(c, NULL, key);
		err = -EINVAL;
		goto out;
	}
	if (value[0] == '[' || value[0] == '{') { /* YAML flow, as Falco's -o key={...} */
		yaml_parser_t parser;

		if (!yaml_parser_initialize(&parser)) {
			err = -ENOMEM;
			goto out;
		}
		yaml_parser_set_input_string(&parser, (const unsigned char *)value, strlen(value));
		if (!yaml_parser_load(&parser, &doc)) {
			if (diag) { /* the value is the "file": -o KEY:1:COL */
				char where[CONFIG_YAML_MSG_MAX];

				snprintf(where, sizeof(where), "-o %s", key);
				config_yaml_error(diag, where, &parser, 1);
			}
			err = parser.error == YAML_MEMORY_ERROR ? -ENOMEM : -EINVAL;
			yaml_parser_delete(&parser);
			goto out;
		}
		yaml_parser_delete(&parser);
	} else {
		if (!yaml_document_initialize(&doc, NULL, NULL, NULL, 1, 1)) {
			err = -ENOMEM;
			goto out;
		}
		have_doc = 1;
		if (k && k->type == CONFIG_T_PATHS)
			err = config_split_list(&doc, value);
		else if (strlen(value) > INT_MAX ||
			 !yaml_document_add_scalar(&doc, NULL, (yaml_char_t *)value,
						   (int)strlen(value),
						   YAML_SINGLE_QUOTED_SCALAR_STYLE))
			err = -ENOMEM;
		if (err)
			goto out;
	}
	have_doc = 1;
	root = yaml_document_get_root_node(&doc);
	if (!root) { /* "[" alone parses to nothing */
		if (diag)
			fprintf(diag, "-o %s: no value\n", key);
		err = -EINVAL;
		goto out;
	}
	knode.data.scalar.value = (yaml_char_t *)key;
	config_apply(c, key, &knode, root);
	err = config_result(c);
out:
	if (have_doc)
		yaml_document_delete(&doc);
	free(c);
	return err;
}

int config_set_option(struct config *cfg, const char *kv, FILE *diag)
{
	const char *eq = strchr(kv, '=');
	char key[160];

	if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof(key)) {
		if (diag)
			fprintf(diag, "-o %s: expected KEY=VALUE\n", kv);
		return -EINVAL;
	}
	memcpy(key, kv, (size_t)(eq - kv));
	key[eq - kv] = 0;
	return config_set(cfg, key, eq + 1, diag);
}

/* ---- checks across keys ---- */

int config_validate(const struct config *cfg, FILE *diag)
{
	int bad = 0;

#define CONFIG_NEED(cond, ...)                                                                     \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			bad = 1;                                                                   \
			if (diag) {                                                                \
				fprintf(diag, __VA_ARGS__);                                        \
				fputc('\n', diag);                                                 \
			}                                                                          \
		}                                                                                  \
	} while (0)

	CONFIG_NEED(!cfg->file_output.enabled || *cfg->file_output.filename,
		    "file_output.filename: empty, but file_output.enabled is true");
	CONFIG_NEED(!cfg->program_output.enabled || *cfg->program_output.program,
		    "program_output.program: empty, but program_output.enabled is true");
	CONFIG_NEED(!cfg->http_output.enabled || *cfg->http_output.url,
		    "http_output.url: empty, but http_output.enabled is true");
	CONFIG_NEED(!cfg->syslog_output.enabled || *cfg->syslog_output.socket,
		    "syslog_output.socket: empty, but syslog_output.enabled is true");
	CONFIG_NEED(!*cfg->http_output.client_cert == !*cfg->http_output.client_key,
		    "http_output.client_cert and http_output.client_key: give both or neither");
	CONFIG_NEED(cfg->ringbuf.wakeup_bytes <= cfg->ringbuf.size_bytes,
		    "ringbuf.wakeup_bytes: %llu is more than ringbuf.size_bytes (%u): the "
		    "consumer would never be woken by size",
		    (unsigned long long)cfg->ringbuf.wakeup_bytes, cfg->ringbuf.size_bytes);
#undef CONFIG_NEED
	return bad ? -EINVAL : 0;
}
