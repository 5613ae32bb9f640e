// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * config*.c: defaults, the shipped file, every key with a wrong type (from a
 * table checked against config_keys(), so no key is forgotten), unknown keys,
 * broken YAML with its line and column, -o overrides, checks across keys and
 * the file-safety check.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>
#include <cmocka.h>
#include <yaml.h>
#include "config.h"

#if !defined(SHIPPED_CONFIG) || !defined(K8S_DAEMONSET)
#error "SHIPPED_CONFIG, K8S_DAEMONSET: paths of packaging/agent-sentinel.yaml, k8s/daemonset.yaml"
#endif

/* ---- helpers: a scratch directory, a diag stream in memory ---- */

static char tmpdir[] = "/tmp/as-config-XXXXXX";

struct diagbuf {
	FILE *f;
	char *text;
	size_t len;
};

static void diag_open(struct diagbuf *d)
{
	d->text = NULL;
	d->len = 0;
	d->f = open_memstream(&d->text, &d->len);
	assert_non_null(d->f);
}

/* Close and return the text (owned by d). */
static const char *diag_text(struct diagbuf *d)
{
	fclose(d->f);
	d->f = NULL;
	return d->text;
}

static void diag_close(struct diagbuf *d)
{
	if (d->f)
		fclose(d->f);
	free(d->text);
}

static const char *write_file(const char *name, const char *text)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	chmod(path, 0644);
	return path;
}

/* Load text as a config file named "agent-sentinel.yaml" in tmpdir; returns
 * the diag text (caller frees) and the result in *rc. Paths in diag are
 * relative: we chdir into tmpdir. */
static char *load_text(const char *text, int *rc, struct config *cfg)
{
	struct diagbuf d;
	char *out;

	write_file("agent-sentinel.yaml", text);
	assert_int_equal(config_defaults(cfg), 0);
	diag_open(&d);
	*rc = config_load_file(cfg, "agent-sentinel.yaml", d.f);
	diag_text(&d);
	out = d.text ? strdup(d.text) : strdup("");
	diag_close(&d);
	return out;
}

static char *set_opt(struct config *cfg, const char *key, const char *value, int *rc)
{
	struct diagbuf d;
	char *out;

	diag_open(&d);
	*rc = config_set(cfg, key, value, d.f);
	diag_text(&d);
	out = strdup(d.text ? d.text : "");
	diag_close(&d);
	return out;
}

static char *fmt(const struct config *cfg, const char *key)
{
	static char buf[1024];

	assert_int_equal(config_format(cfg, key, buf, sizeof(buf)), 0);
	return buf;
}

/* "http_output.timeout_ms", "soon" -> "http_output:\n  timeout_ms: soon\n" */
static void yaml_for(const char *key, const char *value, char *buf, size_t len)
{
	const char *dot = strchr(key, '.');

	if (dot)
		snprintf(buf, len, "%.*s:\n  %s: %s\n", (int)(dot - key), key, dot + 1, value);
	else
		snprintf(buf, len, "%s: %s\n", key, value);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(tmpdir))
		return -1;
	return chdir(tmpdir);
}

static int teardown(void **state)
{
	char cmd[600];

	(void)state;
	if (chdir("/"))
		return -1;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* ---- the wrong-type table: one row per key, checked against config_keys() ---- */

static const struct bad_value {
	const char *key;
	const char *value; /* YAML text in a file, the same text after -o key= */
	const char *msg;   /* after "KEY: " */
} bad_values[] = {
    {"rules_files", "{a: 1}", "expected a list of paths, got a mapping"},
    {"agents.names", "{a: 1}", "expected a list of paths, got a mapping"},
    {"agents.exe_paths", "{a: 1}", "expected a list of paths, got a mapping"},
    {"json_output", "maybe", "expected true or false, got \"maybe\""},
    {"priority", "loud",
     "expected one of emergency, alert, critical, error, warning, notice, informational, "
     "debug, got \"loud\""},
    {"rule_matching", "sometimes", "expected first or all, got \"sometimes\""},
    {"buffered_outputs", "2", "expected true or false, got \"2\""},
    {"outputs_queue.capacity", "many", "expected an integer, got \"many\""},
    {"stdout_output.enabled", "yes please", "expected true or false, got \"yes please\""},
    {"file_output.enabled", "1", "expected true or false, got \"1\""},
    {"file_output.filename", "[a, b]", "expected a string, got a list"},
    {"file_output.keep_alive", "sometimes", "expected true or false, got \"sometimes\""},
    {"syslog_output.enabled", "enabled", "expected true or false, got \"enabled\""},
    {"syslog_output.facility", "local9",
     "expected a syslog facility (auth, authpriv, cron, daemon, ftp, kern, local0 to local7, "
     "lpr, mail, news, syslog, user, uucp), got \"local9\""},
    {"syslog_output.tag", "{a: 1}", "expected a string, got a mapping"},
    {"syslog_output.socket", "[/dev/log]", "expected a string, got a list"},
    {"program_output.enabled", "nope", "expected true or false, got \"nope\""},
    {"program_output.program", "[jq]", "expected a string, got a list"},
    {"program_output.keep_alive", "forever", "expected true or false, got \"forever\""},
    {"http_output.enabled", "on-demand", "expected true or false, got \"on-demand\""},
    {"http_output.url", "ftp://siem", "expected an http:// or https:// URL, got \"ftp://siem\""},
    {"http_output.user_agent", "{a: b}", "expected a string, got a mapping"},
    {"http_output.insecure", "very", "expected true or false, got \"very\""},
    {"http_output.ca_cert", "[a.pem]", "expected a string, got a list"},
    {"http_output.ca_path", "{a: b}", "expected a string, got a mapping"},
    {"http_output.client_cert", "[c.pem]", "expected a string, got a list"},
    {"http_output.client_key", "[k.pem]", "expected a string, got a list"},
    {"http_output.timeout_ms", "soon", "expected an integer, got \"soon\""},
    {"http_output.max_retries", "-1", "expected an integer, got \"-1\""},
    {"metrics.enabled", "maybe", "expected true or false, got \"maybe\""},
    {"metrics.interval", "soon",
     "expected a duration such as 15s, 1m, 500ms or 1h30m, got \"soon\""},
    {"metrics.listen_address", "localhost",
     "expected an IPv4 or IPv6 address (such as 127.0.0.1 or ::1), got \"localhost\""},
    {"metrics.listen_port", "http", "expected an integer, got \"http\""},
    {"ringbuf.size_bytes", "big", "expected a byte count (such as 4096, 256K, 16M), got \"big\""},
    {"ringbuf.wakeup_bytes", "lots",
     "expected a byte count (such as 4096, 256K, 16M), got \"lots\""},
    {"proctable.max_entries", "all", "expected an integer, got \"all\""},
    {"drop_alerts.rate_limit_s", "1m", "expected an integer, got \"1m\""},
    {"state_directory", "[/var/lib]", "expected a string, got a list"},
    {"container_engines.enabled", "auto", "expected true or false, got \"auto\""},
    {"container_engines.docker_sockets", "{a: 1}", "expected a list of paths, got a mapping"},
    {"container_engines.podman_sockets", "{a: 1}", "expected a list of paths, got a mapping"},
    {"container_engines.containerd_sockets", "{a: 1}", "expected a list of paths, got a mapping"},
    {"container_engines.crio_sockets", "{a: 1}", "expected a list of paths, got a mapping"},
    {"container_engines.lookup_timeout_ms", "1s", "expected an integer, got \"1s\""},
    {"container_engines.max_entries", "lots", "expected an integer, got \"lots\""},
};

/* Values of the right type but outside the key's bounds. */
static const struct bad_value out_of_range[] = {
    {"outputs_queue.capacity", "0", "expected an integer from 1 to 1048576, got \"0\""},
    {"http_output.timeout_ms", "0", "expected an integer from 1 to 600000, got \"0\""},
    {"http_output.max_retries", "101", "expected an integer from 0 to 100, got \"101\""},
    {"metrics.listen_port", "70000", "expected an integer from 1 to 65535, got \"70000\""},
    {"metrics.interval", "10ms", "expected a duration from 100ms to 1y, got \"10ms\""},
    {"metrics.interval", "1m1h",
     "expected a duration such as 15s, 1m, 500ms or 1h30m, got \"1m1h\""},
    {"ringbuf.size_bytes", "3000", "expected a power of two from 4K to 1G, got \"3000\""},
    {"ringbuf.size_bytes", "2G", "expected a power of two from 4K to 1G, got \"2G\""},
    {"ringbuf.wakeup_bytes", "2G", "expected a byte count from 0 to 1G, got \"2G\""},
    {"proctable.max_entries", "131073", "expected an integer from 1 to 131072, got \"131073\""},
    {"drop_alerts.rate_limit_s", "0", "expected an integer from 1 to 86400, got \"0\""},
    {"container_engines.lookup_timeout_ms", "0", "expected an integer from 1 to 60000, got \"0\""},
    {"container_engines.max_entries", "65537", "expected an integer from 1 to 65536, got \"65537\""},
    {"json_output", "", "expected true or false, got nothing"},
    {"rules_files", "[/a.yaml, {b: 1}]", "expected a path, got a mapping"},
};

static void test_table_covers_every_key(void **state)
{
	size_t n;
	const struct config_key *keys = config_keys(&n);

	(void)state;
	assert_int_equal(n, sizeof(bad_values) / sizeof(bad_values[0]));
	for (size_t i = 0; i < n; i++) {
		size_t j;

		for (j = 0; j < n; j++)
			if (!strcmp(bad_values[j].key, keys[i].name))
				break;
		if (j == n)
			fail_msg("key %s has no row in bad_values", keys[i].name);
	}
}

static void check_file_row(const struct bad_value *b)
{
	struct config cfg;
	char text[512], want[600];
	char *diag;
	int rc;

	yaml_for(b->key, b->value, text, sizeof(text));
	diag = load_text(text, &rc, &cfg);
	if (!strcmp(b->key, "rules_files") && strchr(b->value, ','))
		/* the item's own position: "[/a.yaml, {b: 1}]" -> column 24 */
		snprintf(want, sizeof(want), "agent-sentinel.yaml:1:24: rules_files[1]: %s\n",
			 b->msg);
	else
		snprintf(want, sizeof(want), "agent-sentinel.yaml:%d:%d: %s: %s\n",
			 strchr(b->key, '.') ? 2 : 1, strchr(b->key, '.') ? 3 : 1, b->key, b->msg);
	if (rc != -EINVAL || strcmp(diag, want))
		fail_msg("%s: %s\nwant rc -EINVAL, %sgot rc %d, %s", b->key, b->value, want, rc,
			 diag);
	free(diag);
	config_free(&cfg);
}

static void check_option_row(const struct bad_value *b)
{
	struct config cfg;
	char want[600], *diag;
	int rc;

	assert_int_equal(config_defaults(&cfg), 0);
	diag = set_opt(&cfg, b->key, b->value, &rc);
	if (!strcmp(b->key, "rules_files") && strchr(b->value, ','))
		snprintf(want, sizeof(want), "-o rules_files[1]: %s\n", b->msg);
	else
		snprintf(want, sizeof(want), "-o %s: %s\n", b->key, b->msg);
	if (rc != -EINVAL || strcmp(diag, want))
		fail_msg("-o %s=%s\nwant rc -EINVAL, %sgot rc %d, %s", b->key, b->value, want, rc,
			 diag);
	free(diag);
	config_free(&cfg);
}

static void test_wrong_type_in_file(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad_values) / sizeof(bad_values[0]); i++)
		check_file_row(&bad_values[i]);
	for (size_t i = 0; i < sizeof(out_of_range) / sizeof(out_of_range[0]); i++)
		check_file_row(&out_of_range[i]);
}

static void test_wrong_type_in_option(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad_values) / sizeof(bad_values[0]); i++)
		check_option_row(&bad_values[i]);
	for (size_t i = 0; i < sizeof(out_of_range) / sizeof(out_of_range[0]); i++)
		if (*out_of_range[i].value) /* "" is a valid -o string, tested below */
			check_option_row(&out_of_range[i]);
}

/* The brief's example, verbatim: the key on line 12, column 3. */
static void test_error_line_and_column(void **state)
{
	struct config cfg;
	char *diag;
	int rc;

	(void)state;
	diag = load_text("# comment\n"
			 "json_output: true\n"
			 "priority: warning\n"
			 "rule_matching: all\n"
			 "\n"
			 "stdout_output:\n"
			 "  enabled: true\n"
			 "\n"
			 "http_output:\n"
			 "  enabled: true\n"
			 "  url: https://siem.example:2801/\n"
			 "  timeout_ms: soon\n"
			 "  max_retries: 2\n",
			 &rc, &cfg);
	assert_int_equal(rc, -EINVAL);
	assert_string_equal(diag, "agent-sentinel.yaml:12:3: http_output.timeout_ms: expected an "
				  "integer, got \"soon\"\n");
	/* the good keys around it were applied */
	assert_int_equal(cfg.http_output.max_retries, 2);
	assert_int_equal(cfg.rule_matching, CONFIG_MATCH_ALL);
	free(diag);
	config_free(&cfg);
}

static void test_every_error_reported(void **state)
{
	struct config cfg;
	char *diag;
	int rc;

	(void)state;
	diag = load_text("json_output: maybe\n"
			 "metrics:\n"
			 "  interval: soon\n"
			 "  listen_port: 0\n",
			 &rc, &cfg);
	assert_int_equal(rc, -EINVAL);
	assert_string_equal(
	    diag,
	    "agent-sentinel.yaml:1:1: json_output: expected true or false, got \"maybe\"\n"
	    "agent-sentinel.yaml:3:3: metrics.interval: expected a duration such as 15s, 1m, "
	    "500ms or 1h30m, got \"soon\"\n"
	    "agent-sentinel.yaml:4:3: metrics.listen_port: expected an integer from 1 to 65535, "
	    "got \"0\"\n");
	free(diag);
	config_free(&cfg);
}

static void test_unknown_keys(void **state)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
	    {"jsn_output: true\n", "agent-sentinel.yaml:1:1: jsn_output: unknown key\n"},
	    {"json_output: true\nhttp_output:\n  enabled: false\n  timeout: 5\n",
	     "agent-sentinel.yaml:4:3: http_output.timeout: unknown key\n"},
	    {"timeout_ms: 5\n", "agent-sentinel.yaml:1:1: timeout_ms: unknown key (did you "
				"mean http_output.timeout_ms?)\n"},
	    {"grpc:\n  enabled: true\n", "agent-sentinel.yaml:1:1: grpc: unknown key\n"},
	    {"enabled: true\n", "agent-sentinel.yaml:1:1: enabled: unknown key\n"},
	    {"metrics:\n  url: http://x/\n",
	     "agent-sentinel.yaml:2:3: metrics.url: unknown key (did you mean http_output.url?)\n"},
	    {"http_output: true\n", "agent-sentinel.yaml:1:1: http_output: expected a mapping "
				    "of http_output.* settings, got \"true\"\n"},
	    {"- json_output\n", "agent-sentinel.yaml:1:1: (top): expected a mapping of "
				"settings, got a list\n"},
	    {"priority: debug\npriority: info\n",
	     "agent-sentinel.yaml:2:1: priority: given twice (first on line 1)\n"},
	    {"rules_file: /a\nrules_files: [/b]\n",
	     "agent-sentinel.yaml:2:1: rules_files: given twice (first on line 1)\n"},
	    {"json_output: true\n---\njson_output: false\n",
	     "agent-sentinel.yaml:3:1: a second YAML document: one is expected\n"},
	};
	struct config cfg;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc;
		char *diag = load_text(cases[i].text, &rc, &cfg);

		if (rc != -EINVAL || strcmp(diag, cases[i].msg))
			fail_msg("case %zu: want %s got rc %d %s", i, cases[i].msg, rc, diag);
		free(diag);
		config_free(&cfg);
	}
}

static void test_bad_yaml(void **state)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
	    {"json_output: true\nhttp_output:\n  url: [unclosed\n",
	     "agent-sentinel.yaml:4:1: invalid YAML: did not find expected ',' or ']' (while "
	     "parsing a flow sequence on line 3)\n"},
	    {"json_output: true\n  priority: debug\n",
	     "agent-sentinel.yaml:2:11: invalid YAML: mapping values are not allowed in this "
	     "context\n"},
	    {"json_output: true\n\tpriority: debug\n",
	     "agent-sentinel.yaml:2:1: invalid YAML: found a tab character that violates "
	     "indentation (while scanning a plain scalar on line 1)\n"},
	    {"http_output:\n  url: \"https://x\n",
	     "agent-sentinel.yaml:3:1: invalid YAML: found unexpected end of stream (while "
	     "scanning a quoted scalar on line 2)\n"},
	};
	struct config cfg;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc;
		char *diag = load_text(cases[i].text, &rc, &cfg);

		if (rc != -EINVAL || strcmp(diag, cases[i].msg))
			fail_msg("case %zu: want %s got rc %d %s", i, cases[i].msg, rc, diag);
		free(diag);
		config_free(&cfg);
	}
}

static void test_missing_file(void **state)
{
	struct config cfg;
	struct diagbuf d;

	(void)state;
	assert_int_equal(config_defaults(&cfg), 0);
	diag_open(&d);
	assert_int_equal(config_load_file(&cfg, "nonexistent.yaml", d.f), -ENOENT);
	assert_string_equal(diag_text(&d), "nonexistent.yaml: cannot open: No such file or "
					   "directory\n");
	diag_close(&d);
	config_free(&cfg);
}

/* ---- good input ---- */

static void test_defaults(void **state)
{
	struct config cfg;

	(void)state;
	assert_int_equal(config_defaults(&cfg), 0);
	assert_int_equal(config_validate(&cfg, stderr), 0);
	assert_int_equal(cfg.n_rules_files, 0);
	assert_true(cfg.json_output);
	assert_string_equal(fmt(&cfg, "priority"), "debug");
	assert_string_equal(fmt(&cfg, "rule_matching"), "first");
	assert_string_equal(fmt(&cfg, "metrics.interval"), "1h");
	assert_string_equal(fmt(&cfg, "syslog_output.facility"), "user");
	assert_int_equal(cfg.ringbuf.size_bytes, 4u << 20);
	assert_int_equal(cfg.metrics.listen_port, 8765);
	config_free(&cfg);
}

/* The shipped file: loads cleanly, lists every key, and (rules_files aside)
 * says exactly the built-in defaults. */
static void test_shipped_file(void **state)
{
	struct config def, cfg;
	struct diagbuf d;
	size_t n;
	const struct config_key *keys = config_keys(&n);
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(config_defaults(&def), 0);
	assert_int_equal(config_defaults(&cfg), 0);
	diag_open(&d);
	assert_int_equal(config_load_file(&cfg, SHIPPED_CONFIG, d.f), 0);
	assert_string_equal(diag_text(&d), "");
	diag_close(&d);
	assert_int_equal(config_validate(&cfg, stderr), 0);
	assert_int_equal(cfg.n_rules_files, 2);
	assert_string_equal(cfg.rules_files[0], "/usr/share/agent-sentinel/rules/agent.yaml");
	assert_string_equal(cfg.rules_files[1], "/etc/agent-sentinel/rules.d");

	f = fopen(SHIPPED_CONFIG, "r");
	assert_non_null(f);
	assert_true(getdelim(&text, &len, 0, f) > 0);
	fclose(f);
	for (size_t i = 0; i < n; i++) {
		char a[1024], b[1024], line[128];
		const char *dot = strchr(keys[i].name, '.');

		/* "\nsection:\n" then "\n  leaf: " after it, or "\nkey: " */
		if (dot) {
			char *sec;

			snprintf(line, sizeof(line), "\n%.*s:\n", (int)(dot - keys[i].name),
				 keys[i].name);
			sec = strstr(text, line);
			if (!sec)
				fail_msg("shipped config lacks section of %s", keys[i].name);
			snprintf(line, sizeof(line), "\n  %s: ", dot + 1);
			if (!strstr(sec, line))
				fail_msg("shipped config lacks %s", keys[i].name);
		} else {
			snprintf(line, sizeof(line), "\n%s:", keys[i].name);
			if (!strstr(text, line))
				fail_msg("shipped config lacks %s", keys[i].name);
		}
		if (keys[i].type == CONFIG_T_PATHS)
			continue;
		assert_int_equal(config_format(&def, keys[i].name, a, sizeof(a)), 0);
		assert_int_equal(config_format(&cfg, keys[i].name, b, sizeof(b)), 0);
		if (strcmp(a, b))
			fail_msg("shipped config: %s is %s, the built-in default is %s",
				 keys[i].name, b, a);
	}
	free(text);
	config_free(&def);
	config_free(&cfg);
}

static yaml_node_t *map_get(yaml_document_t *doc, yaml_node_t *map, const char *key)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(doc, p->key);

		if (k && k->type == YAML_SCALAR_NODE && !strcmp((char *)k->data.scalar.value, key))
			return yaml_document_get_node(doc, p->value);
	}
	return NULL;
}

/* The configuration in the DaemonSet's ConfigMap loads cleanly too. */
static void test_k8s_configmap(void **state)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	int found = 0;
	FILE *f = fopen(K8S_DAEMONSET, "r");

	(void)state;
	assert_non_null(f);
	assert_true(yaml_parser_initialize(&parser));
	yaml_parser_set_input_file(&parser, f);
	for (;;) {
		yaml_node_t *root, *kind, *text;

		assert_true(yaml_parser_load(&parser, &doc));
		root = yaml_document_get_root_node(&doc);
		if (!root && parser.stream_end_produced) {
			yaml_document_delete(&doc);
			break;
		}
		kind = map_get(&doc, root, "kind");
		text = map_get(&doc, map_get(&doc, root, "data"), "agent-sentinel.yaml");
		if (kind && !strcmp((char *)kind->data.scalar.value, "ConfigMap") && text) {
			struct config cfg;
			struct diagbuf d;

			write_file("configmap.yaml", (char *)text->data.scalar.value);
			assert_int_equal(config_defaults(&cfg), 0);
			diag_open(&d);
			if (config_load_file(&cfg, "configmap.yaml", d.f) ||
			    config_validate(&cfg, d.f))
				fail_msg("%s: the ConfigMap's agent-sentinel.yaml: %s",
					 K8S_DAEMONSET, diag_text(&d));
			diag_close(&d);
			assert_true(cfg.metrics.enabled);
			assert_string_equal(cfg.metrics.listen_address, "0.0.0.0");
			config_free(&cfg);
			found++;
		}
		yaml_document_delete(&doc);
	}
	yaml_parser_delete(&parser);
	fclose(f);
	assert_int_equal(found, 1);
}

static void test_full_file(void **state)
{
	struct config cfg;
	char *diag;
	int rc;

	(void)state;
	diag =
	    load_text("rules_file: /etc/rules.yaml\n" /* Falco's old name, a scalar */
		      "json_output: false\n"
		      "priority: Info\n"
		      "rule_matching: all\n"
		      "buffered_outputs: no\n"
		      "outputs_queue: {capacity: 100}\n"
		      "stdout_output:\n  enabled: False\n"
		      "file_output:\n  enabled: true\n  filename: \"/var/log/a s.json\"\n"
		      "  keep_alive: on\n"
		      "syslog_output:\n  enabled: true\n  facility: LOCAL3\n  tag: as\n"
		      "  socket: /run/log\n"
		      "program_output:\n  enabled: true\n"
		      "  program: \"jq '{text: .output}' | logger\"\n  keep_alive: true\n"
		      "http_output:\n  enabled: true\n  url: https://siem:2801/\n"
		      "  user_agent: ua\n  insecure: true\n  ca_cert: /c.pem\n  ca_path: /certs\n"
		      "  client_cert: /cc.pem\n  client_key: /ck.pem\n  timeout_ms: 250\n"
		      "  max_retries: 0\n"
		      "metrics:\n  enabled: true\n  interval: 1h30m\n  listen_address: \"::1\"\n"
		      "  listen_port: 9000\n"
		      "ringbuf:\n  size_bytes: 64M\n  wakeup_bytes: 0\n"
		      "proctable:\n  max_entries: 1000\n"
		      "drop_alerts:\n  rate_limit_s: 5\n",
		      &rc, &cfg);
	assert_string_equal(diag, "");
	assert_int_equal(rc, 0);
	assert_int_equal(config_validate(&cfg, stderr), 0);
	assert_int_equal(cfg.n_rules_files, 1);
	assert_string_equal(cfg.rules_files[0], "/etc/rules.yaml");
	assert_false(cfg.json_output);
	assert_string_equal(fmt(&cfg, "priority"), "informational");
	assert_int_equal(cfg.rule_matching, CONFIG_MATCH_ALL);
	assert_false(cfg.buffered_outputs);
	assert_int_equal(cfg.outputs_queue.capacity, 100);
	assert_false(cfg.stdout_output.enabled);
	assert_string_equal(cfg.file_output.filename, "/var/log/a s.json");
	assert_true(cfg.file_output.keep_alive);
	assert_int_equal(cfg.syslog_output.facility, LOG_LOCAL3);
	assert_string_equal(cfg.syslog_output.tag, "as");
	assert_string_equal(cfg.syslog_output.socket, "/run/log");
	assert_string_equal(cfg.program_output.program, "jq '{text: .output}' | logger");
	assert_string_equal(cfg.http_output.url, "https://siem:2801/");
	assert_true(cfg.http_output.insecure);
	assert_string_equal(cfg.http_output.client_key, "/ck.pem");
	assert_int_equal(cfg.http_output.timeout_ms, 250);
	assert_int_equal(cfg.http_output.max_retries, 0);
	assert_int_equal(cfg.metrics.interval_ms, 5400000);
	assert_string_equal(cfg.metrics.listen_address, "::1");
	assert_int_equal(cfg.metrics.listen_port, 9000);
	assert_int_equal(cfg.ringbuf.size_bytes, 64u << 20);
	assert_int_equal(cfg.ringbuf.wakeup_bytes, 0);
	assert_int_equal(cfg.proctable.max_entries, 1000);
	assert_int_equal(cfg.drop_alerts.rate_limit_s, 5);
	free(diag);
	config_free(&cfg);
}

static void test_durations(void **state)
{
	static const struct {
		const char *in;
		uint64_t ms;
		const char *out;
	} cases[] = {
	    {"15s", 15000, "15s"},	   {"1m", 60000, "1m"},
	    {"500ms", 500, "500ms"},	   {"1h30m", 5400000, "1h30m"},
	    {"90s", 90000, "1m30s"},	   {"1d", 86400000, "1d"},
	    {"2w", 1209600000, "2w"},	   {"1y", 31536000000ull, "1y"},
	    {"1m500ms", 60500, "1m500ms"},
	};
	struct config cfg;

	(void)state;
	assert_int_equal(config_defaults(&cfg), 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(config_set(&cfg, "metrics.interval", cases[i].in, stderr), 0);
		assert_int_equal(cfg.metrics.interval_ms, cases[i].ms);
		assert_string_equal(fmt(&cfg, "metrics.interval"), cases[i].out);
	}
	config_free(&cfg);
}

static void test_options(void **state)
{
	struct config cfg;
	char *diag;
	int rc;

	(void)state;
	assert_int_equal(config_defaults(&cfg), 0);
	/* lists: a,b and YAML flow; Falco's old name */
	assert_int_equal(config_set(&cfg, "rules_files", "/a.yaml, /b.yaml", stderr), 0);
	assert_string_equal(fmt(&cfg, "rules_files"), "[/a.yaml, /b.yaml]");
	assert_int_equal(config_set(&cfg, "rules_files", "[/c.yaml, \"/d d.yaml\"]", stderr), 0);
	assert_string_equal(fmt(&cfg, "rules_files"), "[/c.yaml, /d d.yaml]");
	assert_int_equal(config_set_option(&cfg, "rules_file=/e.yaml", stderr), 0);
	assert_string_equal(fmt(&cfg, "rules_files"), "[/e.yaml]");
	assert_int_equal(config_set(&cfg, "rules_files", "", stderr), 0);
	assert_int_equal(cfg.n_rules_files, 0);
	/* "KEY=VALUE", the value taken literally (": " is no YAML mapping here) */
	assert_int_equal(config_set_option(&cfg, "file_output.filename=/x", stderr), 0);
	assert_string_equal(cfg.file_output.filename, "/x");
	assert_int_equal(config_set_option(&cfg,
					   "program_output.program=jq '{text: .output}' | "
					   "curl -d @- http://h/",
					   stderr),
			 0);
	assert_string_equal(cfg.program_output.program,
			    "jq '{text: .output}' | curl -d @- http://h/");
	assert_int_equal(config_set_option(&cfg, "file_output.filename=", stderr), 0);
	assert_string_equal(cfg.file_output.filename, "");
	assert_int_equal(config_set_option(&cfg, "ringbuf.size_bytes=4K", stderr), 0);
	assert_int_equal(cfg.ringbuf.size_bytes, 4096);
	assert_int_equal(config_set_option(&cfg, "ringbuf.wakeup_bytes=0", stderr), 0);
	/* a whole section, as Falco's -o key={...} */
	assert_int_equal(config_set_option(&cfg,
					   "http_output={enabled: true, url: "
					   "'http://127.0.0.1:2801/', timeout_ms: 100}",
					   stderr),
			 0);
	assert_true(cfg.http_output.enabled);
	assert_string_equal(cfg.http_output.url, "http://127.0.0.1:2801/");
	assert_int_equal(cfg.http_output.timeout_ms, 100);
	/* the last -o wins */
	assert_int_equal(config_set_option(&cfg, "priority=error", stderr), 0);
	assert_int_equal(config_set_option(&cfg, "priority=WARNING", stderr), 0);
	assert_string_equal(fmt(&cfg, "priority"), "warning");

	diag = set_opt(&cfg, "http_output", "{enabled: true, timeout_ms: soon}", &rc);
	assert_int_equal(rc, -EINVAL);
	assert_string_equal(diag, "-o http_output.timeout_ms: expected an integer, got \"soon\"\n");
	free(diag);
	diag = set_opt(&cfg, "http_output", "true", &rc);
	assert_int_equal(rc, -EINVAL);
	assert_string_equal(diag, "-o http_output: expected a mapping of http_output.* settings, "
				  "got \"true\"\n");
	free(diag);
	diag = set_opt(&cfg, "jsonoutput", "true", &rc);
	assert_int_equal(rc, -EINVAL);
	assert_string_equal(diag, "-o jsonoutput: unknown key\n");
	free(diag);
	diag = set_opt(&cfg, "metrics.port", "1", &rc);
	assert_int_equal(rc, -EINVAL);
	assert_string_equal(diag, "-o metrics.port: unknown key\n");
	free(diag);
	diag = set_opt(&cfg, "rules_files", "[/a.yaml", &rc);
	assert_int_equal(rc, -EINVAL);
	assert_string_equal(diag, "-o rules_files:1:9: invalid YAML: did not find expected ',' or "
				  "']' (while parsing a flow sequence on line 1)\n");
	free(diag);
	{
		struct diagbuf d;

		diag_open(&d);
		assert_int_equal(config_set_option(&cfg, "json_output", d.f), -EINVAL);
		assert_string_equal(diag_text(&d), "-o json_output: expected KEY=VALUE\n");
		diag_close(&d);
	}
	config_free(&cfg);
}

static void test_validate_across_keys(void **state)
{
	struct config cfg;
	struct diagbuf d;

	(void)state;
	assert_int_equal(config_defaults(&cfg), 0);
	assert_int_equal(config_set_option(&cfg, "file_output.enabled=true", stderr), 0);
	assert_int_equal(config_set_option(&cfg, "file_output.filename=", stderr), 0);
	assert_int_equal(config_set_option(&cfg, "program_output.enabled=true", stderr), 0);
	assert_int_equal(config_set_option(&cfg, "http_output.enabled=true", stderr), 0);
	assert_int_equal(config_set_option(&cfg, "http_output.client_cert=/c.pem", stderr), 0);
	assert_int_equal(config_set_option(&cfg, "ringbuf.size_bytes=64K", stderr), 0);
	assert_int_equal(config_set_option(&cfg, "ringbuf.wakeup_bytes=1M", stderr), 0);
	diag_open(&d);
	assert_int_equal(config_validate(&cfg, d.f), -EINVAL);
	assert_string_equal(
	    diag_text(&d), "file_output.filename: empty, but file_output.enabled is true\n"
			   "program_output.program: empty, but program_output.enabled is true\n"
			   "http_output.url: empty, but http_output.enabled is true\n"
			   "http_output.client_cert and http_output.client_key: give both or "
			   "neither\n"
			   "ringbuf.wakeup_bytes: 1048576 is more than ringbuf.size_bytes (65536): "
			   "the consumer would never be woken by size\n");
	diag_close(&d);
	config_free(&cfg);
}

static void test_empty_file(void **state)
{
	struct config cfg;
	char *diag;
	int rc;

	(void)state;
	diag = load_text("# nothing but a comment\n", &rc, &cfg);
	assert_int_equal(rc, 0);
	assert_string_equal(diag, "");
	assert_true(cfg.stdout_output.enabled);
	free(diag);
	config_free(&cfg);
	diag = load_text("http_output:\nmetrics:\n  enabled: true\n", &rc, &cfg);
	assert_int_equal(rc, 0);
	assert_true(cfg.metrics.enabled);
	free(diag);
	config_free(&cfg);
}

/* ---- file safety ---- */

static char *safety(const char *path, int *rc)
{
	struct diagbuf d;
	char *out;

	diag_open(&d);
	*rc = config_check_file_safety(path, d.f);
	diag_text(&d);
	out = strdup(d.text ? d.text : "");
	diag_close(&d);
	return out;
}

static void expect_refused(const char *path, const char *reason)
{
	char want[1024], *diag;
	int rc;

	diag = safety(path, &rc);
	snprintf(want, sizeof(want),
		 "%s: refused: %s; the agent runs as root and would load what another user "
		 "wrote\n",
		 path, reason);
	if (rc != -EPERM || strcmp(diag, want))
		fail_msg("%s: want -EPERM %sgot %d %s", path, want, rc, diag);
	free(diag);
}

static void expect_safe(const char *path)
{
	int rc;
	char *diag = safety(path, &rc);

	if (rc != 0)
		fail_msg("%s: want safe, got %d %s", path, rc, diag);
	free(diag);
}

static void test_file_safety(void **state)
{
	char dir[600], sub[700], file[800], ok[800];
	int rc;
	char *diag;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/safety", tmpdir);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(ok, sizeof(ok), "%s/ok.yaml", dir);
	write_file("safety/ok.yaml", "json_output: true\n");
	expect_safe(ok);

	snprintf(file, sizeof(file), "%s/g.yaml", dir);
	write_file("safety/g.yaml", "x: 1\n");
	chmod(file, 0664);
	expect_refused(file, "file writable by group (mode 0664)");
	chmod(file, 0646);
	expect_refused(file, "file writable by others (mode 0646)");
	chmod(file, 0666);
	expect_refused(file, "file writable by group and others (mode 0666)");

	/* a rules directory: itself and each *.yaml in it */
	snprintf(sub, sizeof(sub), "%s/rules.d", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	write_file("safety/rules.d/a.yaml", "- list: a\n  items: []\n");
	write_file("safety/rules.d/notes.txt", "");
	snprintf(file, sizeof(file), "%s/notes.txt", sub);
	chmod(file, 0666); /* not a rules file: ignored */
	expect_safe(sub);
	snprintf(file, sizeof(file), "%s/a.yaml", sub);
	chmod(file, 0666);
	expect_refused(file, "file writable by group and others (mode 0666)");
	diag = safety(sub, &rc);
	assert_int_equal(rc, -EPERM);
	assert_non_null(strstr(diag, "/rules.d/a.yaml: refused: file writable by group and "
				     "others"));
	free(diag);
	chmod(file, 0644);
	chmod(sub, 0777);
	expect_refused(sub, "directory writable by group and others (mode 0777)");
	/* a file in a world-writable directory: anyone could replace it */
	{
		char want[900];

		snprintf(want, sizeof(want),
			 "directory %s above it is writable by group and others (mode 0777)", sub);
		expect_refused(file, want);
		/* sticky, as /tmp: others cannot replace what they do not own */
		chmod(sub, 01777);
		expect_safe(file);
		chmod(sub, 0755);
	}

	/* ownership: another user than root and us */
	if (geteuid() == 0) {
		char want[900];

		assert_int_equal(chown(ok, 4242, 4242), 0);
		expect_refused(ok, "file owned by uid 4242, not root");
		assert_int_equal(chown(ok, 0, 0), 0);
		assert_int_equal(chown(sub, 4242, 0), 0);
		snprintf(want, sizeof(want), "directory %s above it is owned by uid 4242, not root",
			 sub);
		expect_refused(file, want);
		assert_int_equal(chown(sub, 0, 0), 0);
	} else {
		fprintf(stderr, "test_file_safety: not root, ownership cases skipped\n");
	}

	/* a symlink: the directories above the link and above its target */
	{
		char link[800], evil[700], target[800], want[900];

		snprintf(evil, sizeof(evil), "%s/evil", dir);
		assert_int_equal(mkdir(evil, 0755), 0);
		snprintf(target, sizeof(target), "%s/t.yaml", evil);
		write_file("safety/evil/t.yaml", "x: 1\n");
		snprintf(link, sizeof(link), "%s/link.yaml", dir);
		assert_int_equal(symlink(target, link), 0);
		expect_safe(link);
		chmod(evil, 0777);
		snprintf(want, sizeof(want),
			 "directory %s above it is writable by group and others (mode 0777)", evil);
		expect_refused(link, want);
		chmod(evil, 0755);
	}

	diag = safety("/nonexistent/agent-sentinel.yaml", &rc);
	assert_int_equal(rc, -ENOENT);
	assert_string_equal(diag, "/nonexistent/agent-sentinel.yaml: cannot stat: No such file "
				  "or directory\n");
	free(diag);
	diag = safety("/dev/null", &rc);
	assert_int_equal(rc, -EPERM);
	assert_string_equal(diag, "/dev/null: refused: not a regular file or directory\n");
	free(diag);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_table_covers_every_key),
	    cmocka_unit_test(test_wrong_type_in_file),
	    cmocka_unit_test(test_wrong_type_in_option),
	    cmocka_unit_test(test_error_line_and_column),
	    cmocka_unit_test(test_every_error_reported),
	    cmocka_unit_test(test_unknown_keys),
	    cmocka_unit_test(test_bad_yaml),
	    cmocka_unit_test(test_missing_file),
	    cmocka_unit_test(test_defaults),
	    cmocka_unit_test(test_shipped_file),
	    cmocka_unit_test(test_k8s_configmap),
	    cmocka_unit_test(test_full_file),
	    cmocka_unit_test(test_durations),
	    cmocka_unit_test(test_options),
	    cmocka_unit_test(test_validate_across_keys),
	    cmocka_unit_test(test_empty_file),
	    cmocka_unit_test(test_file_safety),
	};

	return cmocka_run_group_tests_name("config", tests, setup, teardown);
}
