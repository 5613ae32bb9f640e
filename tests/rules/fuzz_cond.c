// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* libFuzzer: any bytes as a condition (with a few lists and macros defined)
 * and as an exception value must compile or be rejected cleanly, every
 * diagnostic at FILE:LINE:COL. The corpus (corpus/cond) seeds the paths of
 * transformers on both sides, join/concat/getopt calls (getopt's [c]),
 * modifiers, field arguments, escapes and list names with a blank. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "fuzz_diag.h"

static const char prelude[] =
	"- list: l1\n  items: [a, \"b c\", '\"q\"']\n"
	"- list: l2\n  items: [l1, d]\n"
	"- list: l 3\n  items: [e, \"f g\"]\n"
	"- macro: m1\n  condition: proc.name = x\n"
	"- macro: m2\n  condition: m1 or evt.type in (l2)\n"
	"- rule: r\n  desc: d\n  output: \"%proc.name %fd.name\"\n  priority: INFO\n"
	"  exceptions:\n    - name: e\n      fields: [proc.name, fd.name]\n"
	"      comps: [=, pmatch]\n      values:\n        - [toupper(proc.pname), [/a/*]]\n"
	"        - ['concat(proc.pname, \"/x\")', [/b]]\n"
	"        - - |-\n            ";
static const char middle[] = "\n          - x\n  condition: |-\n    ";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct engine_opts o = { .json = 1, .hostname = "h" };
	struct engine *e = NULL;
	size_t n = sizeof(prelude) - 1, len = 0;
	char *y = malloc(n + sizeof(middle) + 2 * size + 2), *d = NULL;
	size_t dl = 0;
	FILE *df;

	if (!y)
		return 0;
	memcpy(y, prelude, n);
	len = n;
	/* one line of block scalar each: newlines would end it */
	for (size_t i = 0; i < size; i++)
		y[len++] = data[i] == '\n' || data[i] == '\r' ? ' ' : (char)data[i];
	memcpy(y + len, middle, sizeof(middle) - 1);
	len += sizeof(middle) - 1;
	for (size_t i = 0; i < size; i++)
		y[len++] = data[i] == '\n' || data[i] == '\r' ? ' ' : (char)data[i];
	y[len++] = '\n';
	df = open_memstream(&d, &dl);
	engine_load_buffer(&e, "fuzz.yaml", y, len, &o, df);
	engine_free(e);
	if (df) {
		fclose(df);
		fuzz_check_diag(d, dl);
	}
	free(d);
	free(y);
	return 0;
}
