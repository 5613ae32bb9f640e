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
#include "fuzz_diag.h"

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
		fuzz_check_diag(d, dl);
	}
	free(d);
	return 0;
}
