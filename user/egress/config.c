// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The YAML configuration: one table of keys walked by one function. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "config.h"
#include "elog.h"
#include "diag.h"
#include "yamlutil.h"

enum egress_key_kind { EGRESS_KEY_LIST, EGRESS_KEY_UINT };

/* Every key of the file: its name, its kind and where it lands. */
static const struct egress_key {
	const char *name;
	enum egress_key_kind kind;
	size_t off; /* of the unsigned in struct egress_limits (EGRESS_KEY_UINT) */
} egress_keys[] = {
	{ "allow", EGRESS_KEY_LIST, 0 },
	{ "connections_per_session", EGRESS_KEY_UINT, offsetof(struct egress_limits, per_session) },
	{ "connections_total", EGRESS_KEY_UINT, offsetof(struct egress_limits, total) },
	{ "idle_timeout_ms", EGRESS_KEY_UINT, offsetof(struct egress_limits, idle_ms) },
	{ "connect_timeout_ms", EGRESS_KEY_UINT, offsetof(struct egress_limits, connect_ms) },
};

struct egress_cfgctx {
	struct egress_config *cfg;
	const char *path;
	yaml_document_t *doc;
	int errors;
};

__attribute__((format(printf, 3, 4))) static void
egress_config_err(struct egress_cfgctx *c, const yaml_node_t *n, const char *fmt, ...)
{
	char msg[1024]; /* elog cuts a line at 1024 bytes */
	va_list ap;
	int o;

	c->errors++;
	o = diag_fmt_at(msg, sizeof(msg), c->path, yamlutil_line(n), yamlutil_col(n));
	if (o < 0 || (size_t)o >= sizeof(msg))
		o = 0;
	va_start(ap, fmt);
	vsnprintf(msg + o, sizeof(msg) - (size_t)o, fmt, ap);
	va_end(ap);
	elog("%s", msg);
}

static void egress_config_list(struct egress_cfgctx *c, const yaml_node_t *v)
{
	char err[256];

	if (v->type != YAML_SEQUENCE_NODE) {
		egress_config_err(c, v, "allow: expected a list of HOST[:PORT] entries");
		return;
	}
	for (size_t i = 0; i < yamlutil_len(v); i++) {
		yaml_node_t *item = yamlutil_item(c->doc, v, i);
		const char *s = yamlutil_scalar(item);

		if (!s)
			egress_config_err(c, item, "allow: an entry must be a string");
		else if (egress_allow_add(&c->cfg->allow, s, err, sizeof(err)))
			egress_config_err(c, item, "allow: \"%s\": %s", s, err);
	}
}

static void egress_config_uint(struct egress_cfgctx *c, const struct egress_key *k,
			       const yaml_node_t *v)
{
	const char *s = yamlutil_scalar(v);
	unsigned long n;
	char *end;

	errno = 0;
	n = s ? strtoul(s, &end, 10) : 0;
	if (!s || !*s || *s == '-' || *end || errno || n == 0 || n > EGRESS_LIMIT_MAX) {
		egress_config_err(c, v, "%s: expected a whole number from 1 to %u", k->name,
				  EGRESS_LIMIT_MAX);
		return;
	}
	*(unsigned *)((char *)&c->cfg->lim + k->off) = (unsigned)n;
}

static void egress_config_root(struct egress_cfgctx *c, const yaml_node_t *root)
{
	if (!root)
		return; /* an empty file: the defaults */
	if (root->type != YAML_MAPPING_NODE) {
		egress_config_err(c, root, "expected a mapping of configuration keys");
		return;
	}
	for (size_t i = 0; i < yamlutil_len(root); i++) {
		yaml_node_t *key = NULL, *val = NULL;
		const char *name;
		const struct egress_key *k = NULL;

		yamlutil_pair(c->doc, root, i, &key, &val);
		name = yamlutil_scalar(key);

		for (size_t i = 0; name && i < sizeof(egress_keys) / sizeof(egress_keys[0]); i++)
			if (strcmp(name, egress_keys[i].name) == 0)
				k = &egress_keys[i];
		if (!k)
			egress_config_err(c, key, "unknown key \"%s\"", name ? name : "?");
		else if (k->kind == EGRESS_KEY_LIST)
			egress_config_list(c, val);
		else
			egress_config_uint(c, k, val);
	}
}

static int egress_config_file(struct egress_cfgctx *c)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	FILE *f = fopen(c->path, "r");
	int ok;

	if (!f) {
		elog("%s: cannot open: %s", c->path, strerror(errno));
		return -EINVAL;
	}
	if (!yaml_parser_initialize(&parser)) {
		fclose(f);
		elog("%s: cannot start the YAML parser", c->path);
		return -ENOMEM;
	}
	yaml_parser_set_input_file(&parser, f);
	ok = yaml_parser_load(&parser, &doc);
	if (!ok) {
		char where[1024], msg[512];
		size_t line, col;

		yamlutil_parse_error(&parser, msg, sizeof(msg), &line, &col);
		diag_fmt_at(where, sizeof(where), c->path, line, col);
		elog("%s%s", where, msg);
		c->errors++;
	} else {
		c->doc = &doc;
		egress_config_root(c, yaml_document_get_root_node(&doc));
		yaml_document_delete(&doc);
	}
	yaml_parser_delete(&parser);
	fclose(f);
	return c->errors ? -EINVAL : 0;
}

void egress_config_defaults(struct egress_config *c)
{
	memset(c, 0, sizeof(*c));
	c->lim = (struct egress_limits){ .per_session = EGRESS_PER_SESSION_DEFAULT,
					 .total = EGRESS_TOTAL_DEFAULT,
					 .idle_ms = EGRESS_IDLE_MS_DEFAULT,
					 .connect_ms = EGRESS_CONNECT_MS_DEFAULT };
}

int egress_config_load(struct egress_config *c, const char *path, char *const *cli_allow,
		       size_t n_cli)
{
	struct egress_cfgctx ctx = { .cfg = c, .path = path };
	char err[256];

	egress_config_defaults(c);
	for (size_t i = 0; i < n_cli; i++) {
		if (egress_allow_add(&c->allow, cli_allow[i], err, sizeof(err))) {
			elog("--allow %s: %s", cli_allow[i], err);
			ctx.errors++;
		}
	}
	if (!ctx.errors && path && egress_config_file(&ctx))
		ctx.errors++;
	if (ctx.errors) {
		egress_config_free(c);
		return -EINVAL;
	}
	return 0;
}

void egress_config_free(struct egress_config *c)
{
	egress_allow_free(&c->allow);
}
