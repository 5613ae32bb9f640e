// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The helpers the configuration, the rules and agent-egress share: the YAML
 * helper (user/yamlutil.c: booleans, null, positions, walking sequences and
 * mappings), the FILE:LINE:COL formatter (user/diag.c) and the priority
 * list (user/rules/prio.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <yaml.h>
#include "yamlutil.h"
#include "diag.h"
#include "rules/engine.h"

static void test_bool_set(void **state)
{
	static const char *const yes[] = { "true", "TRUE", "True", "yes", "Yes", "on", "ON", "y", "Y" };
	static const char *const no[] = { "false", "FALSE", "no", "No", "off", "Off", "n", "N" };
	static const char *const neither[] = { "", "1", "0", "t", "f", "yess", "nope", "enabled" };
	int b;

	(void)state;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		b = -1;
		assert_int_equal(yamlutil_bool(yes[i], &b), 0);
		assert_int_equal(b, 1);
	}
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		b = -1;
		assert_int_equal(yamlutil_bool(no[i], &b), 0);
		assert_int_equal(b, 0);
	}
	for (size_t i = 0; i < sizeof(neither) / sizeof(neither[0]); i++) {
		b = -1;
		assert_int_not_equal(yamlutil_bool(neither[i], &b), 0);
		assert_int_equal(b, -1);
	}
}

static void load(yaml_document_t *doc, const char *text)
{
	yaml_parser_t p;

	assert_true(yaml_parser_initialize(&p));
	yaml_parser_set_input_string(&p, (const unsigned char *)text, strlen(text));
	assert_true(yaml_parser_load(&p, doc));
	yaml_parser_delete(&p);
}

static void test_null(void **state)
{
	yaml_document_t doc;
	yaml_node_t *root, *k, *v;
	/* values 0-4 are YAML null, 5-8 are not (quoted, another word, a list) */
	static const char text[] = "a:\nb: ~\nc: null\nd: Null\ne: NULL\n"
				   "f: 'null'\ng: \"\"\nh: nil\ni: []\n";

	(void)state;
	load(&doc, text);
	root = yaml_document_get_root_node(&doc);
	assert_int_equal(yamlutil_len(root), 9);
	for (size_t i = 0; i < 9; i++) {
		assert_true(yamlutil_pair(&doc, root, i, &k, &v));
		assert_int_equal(yamlutil_is_null(v), i < 5);
	}
	yaml_document_delete(&doc);
}

static void test_walk(void **state)
{
	yaml_document_t doc;
	yaml_node_t *root, *k = NULL, *v = NULL, *item;

	(void)state;
	load(&doc, "a: [x, y]\nb:\n  c: 1\n");
	root = yaml_document_get_root_node(&doc);
	assert_int_equal(root->type, YAML_MAPPING_NODE);
	assert_int_equal(yamlutil_len(root), 2);
	assert_null(yamlutil_scalar(root));
	assert_null(yamlutil_item(&doc, root, 0)); /* a mapping has pairs, not items */

	assert_true(yamlutil_pair(&doc, root, 0, &k, &v));
	assert_string_equal(yamlutil_scalar(k), "a");
	assert_int_equal(yamlutil_line(k), 1);
	assert_int_equal(yamlutil_col(k), 1);
	assert_int_equal(yamlutil_len(v), 2);
	item = yamlutil_item(&doc, v, 1);
	assert_non_null(item);
	assert_string_equal(yamlutil_scalar(item), "y");
	assert_int_equal(yamlutil_line(item), 1);
	assert_int_equal(yamlutil_col(item), 8);
	assert_null(yamlutil_item(&doc, v, 2));
	assert_int_equal(yamlutil_len(item), 0); /* a scalar has no length */

	assert_true(yamlutil_pair(&doc, root, 1, &k, &v));
	assert_int_equal(v->type, YAML_MAPPING_NODE);
	assert_true(yamlutil_pair(&doc, v, 0, &k, &v));
	assert_string_equal(yamlutil_scalar(k), "c");
	assert_int_equal(yamlutil_line(k), 3);
	assert_int_equal(yamlutil_col(k), 3);
	assert_string_equal(yamlutil_scalar(v), "1");
	assert_false(yamlutil_pair(&doc, root, 2, &k, &v));

	/* no node: line 1, column 1, no text */
	assert_int_equal(yamlutil_line(NULL), 1);
	assert_int_equal(yamlutil_col(NULL), 1);
	assert_null(yamlutil_scalar(NULL));
	yaml_document_delete(&doc);
}

static void test_diag_at(void **state)
{
	char buf[64], *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(diag_fmt_at(buf, sizeof(buf), "a.yaml", 12, 3), 13);
	assert_string_equal(buf, "a.yaml:12:3: ");
	/* cut as snprintf cuts, the length it wanted returned */
	assert_int_equal(diag_fmt_at(buf, 5, "a.yaml", 12, 3), 13);
	assert_string_equal(buf, "a.ya");
	f = open_memstream(&text, &len);
	assert_non_null(f);
	diag_at(f, "rules.yaml", 1, 40);
	fclose(f);
	assert_string_equal(text, "rules.yaml:1:40: ");
	free(text);
}

/* yamlutil_parse_error: the one wording of a libyaml failure, with the
 * position where libyaml stopped; without a context, no parenthesis */
static void test_parse_error(void **state)
{
	static const struct {
		const char *text, *msg;
		size_t line, col;
	} cases[] = {
	    {"a: [b\n", "invalid YAML: did not find expected ',' or ']' (while parsing a flow "
			"sequence on line 1)", 2, 1},
	    {"a: b\n  c: d\n", "invalid YAML: mapping values are not allowed in this context", 2, 4},
	};
	char msg[512];
	size_t line, col;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		yaml_parser_t p;
		yaml_document_t doc;

		assert_true(yaml_parser_initialize(&p));
		yaml_parser_set_input_string(&p, (const unsigned char *)cases[i].text,
					     strlen(cases[i].text));
		assert_false(yaml_parser_load(&p, &doc));
		yamlutil_parse_error(&p, msg, sizeof(msg), &line, &col);
		assert_string_equal(msg, cases[i].msg);
		assert_int_equal(line, cases[i].line);
		assert_int_equal(col, cases[i].col);
		/* a short buffer is cut, never overrun */
		yamlutil_parse_error(&p, msg, 8, &line, &col);
		assert_string_equal(msg, "invalid");
		yaml_parser_delete(&p);
	}
}

static void test_priority_list(void **state)
{
	char buf[128], small[12];

	(void)state;
	engine_priority_list(buf, sizeof(buf));
	assert_string_equal(buf, "emergency, alert, critical, error, warning, notice, informational, "
				 "debug");
	/* every name in the list is one engine_priority_parse takes */
	for (char *tok = strtok(buf, ", "); tok; tok = strtok(NULL, ", "))
		assert_true(engine_priority_parse(tok) > 0);
	memset(small, 'x', sizeof(small));
	engine_priority_list(small, sizeof(small));
	assert_string_equal(small, "emergency, ");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_bool_set),
	    cmocka_unit_test(test_null),
	    cmocka_unit_test(test_walk),
	    cmocka_unit_test(test_diag_at),
	    cmocka_unit_test(test_parse_error),
	    cmocka_unit_test(test_priority_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
