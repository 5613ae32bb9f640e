// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* libFuzzer: any bytes as a rules file must load or fail cleanly. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "engine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct engine_opts o = { .json = 1, .hostname = "h" };
	struct engine *e = NULL;

	engine_load_buffer(&e, "fuzz.yaml", (const char *)data, size, &o, NULL);
	engine_free(e);
	return 0;
}
