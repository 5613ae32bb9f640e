/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Copies of a few bytes without a call: most JSON pieces and path names are
 * short, and a memcpy call cost more than the copy. */
#ifndef AS_SMALLCOPY_H
#define AS_SMALLCOPY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define SMALLCOPY_MAX 32 /* the longest copy smallcopy() takes */

/* n <= SMALLCOPY_MAX bytes from s to d: two loads and stores of one width,
 * which overlap when n is not that width (nothing read or written outside). */
static inline void smallcopy(char *d, const char *s, size_t n)
{
	if (n >= 16) {
		char a[16], b[16];

		memcpy(a, s, 16);
		memcpy(b, s + n - 16, 16);
		memcpy(d, a, 16);
		memcpy(d + n - 16, b, 16);
	} else if (n >= 8) {
		uint64_t a, b;

		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + n - 8, &b, 8);
	} else if (n >= 4) {
		uint32_t a, b;

		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		memcpy(d, &a, 4);
		memcpy(d + n - 4, &b, 4);
	} else if (n) {
		d[0] = s[0];
		d[n / 2] = s[n / 2];
		d[n - 1] = s[n - 1];
	}
}

#endif /* AS_SMALLCOPY_H */
