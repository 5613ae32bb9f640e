// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* libFuzzer: any bytes as a condition (with a few lists and macros defined)
 * must compile or be rejected cleanly. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"

static const char prelude[] =
	"- list: l1\n  items: [a, \"b c\", '\"q\"']\n"
	"- list: l2\n  items: [l1, d]\n"
	"- macro: m1\n  condition: proc.name = x\n"
	"- macro: m2\n  condition: m1 or evt.type in (l2)\n"
	"- rule: r\n  desc: d\n  output: \"%proc.name %fd.name\"\n  priority: INFO\n"
	"  condition: |-\n    ";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct engine_opts o = { .json = 1, .hostname = "h" };
	struct engine *e = NULL;
	size_t n = sizeof(prelude) - 1, len = 0;
	char *y = malloc(n + 2 * size + 2);

	if (!y)
		return 0;
	memcpy(y, prelude, n);
	len = n;
	/* one line of block scalar: newlines would end it */
	for (size_t i = 0; i < size; i++)
		y[len++] = data[i] == '\n' || data[i] == '\r' ? ' ' : (char)data[i];
	y[len++] = '\n';
	engine_load_buffer(&e, "fuzz.yaml", y, len, &o, NULL);
	engine_free(e);
	free(y);
	return 0;
}
