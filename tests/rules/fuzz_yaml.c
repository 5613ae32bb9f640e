// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* libFuzzer: any bytes as a rules file must load or fail cleanly, every
 * diagnostic at FILE:LINE:COL (a line and column inside the file). The
 * corpus (corpus/yaml) seeds the loader's paths: items, override and
 * append, exceptions, lists and macros with odd names, required_*
 * versions. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"

/* Every diagnostic line starts "fuzz.yaml:LINE:COL: ", LINE and COL from 1. */
static void check_diag(const char *d, size_t n)
{
	const char *l = d, *end = d + n;

	while (l < end) {
		const char *nl = memchr(l, '\n', (size_t)(end - l));
		unsigned line, col;
		int k = 0;

		if (sscanf(l, "fuzz.yaml:%u:%u: %n", &line, &col, &k) != 2 || !k || !line || !col)
			abort();
		l = nl ? nl + 1 : end;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct engine_opts o = { .json = 1, .hostname = "h" };
	struct engine *e = NULL;
	char *d = NULL;
	size_t dl = 0;
	FILE *df = open_memstream(&d, &dl);

	engine_load_buffer(&e, "fuzz.yaml", (const char *)data, size, &o, df);
	engine_free(e);
	if (df) {
		fclose(df);
		check_diag(d, dl);
	}
	free(d);
	return 0;
}
