/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What both rules fuzzers require of the diagnostics: every line starts
 * "fuzz.yaml:LINE:COL: ", LINE and COL from 1; else abort() (a finding). */
#ifndef AS_FUZZ_DIAG_H
#define AS_FUZZ_DIAG_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void fuzz_check_diag(const char *d, size_t n)
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

#endif /* AS_FUZZ_DIAG_H */
