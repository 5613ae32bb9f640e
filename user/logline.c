// SPDX-License-Identifier: MIT
/* One write(2) per line, so lines never mix with another writer's. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "logline.h"

/* One diagnostic line; longer ones are cut (they name a file, a place and a reason). */
#define LOGLINE_MAX 1024

void logline_v(const char *prefix, const char *fmt, va_list ap)
{
	char line[LOGLINE_MAX];
	size_t n = strlen(prefix);
	int len;

	if (n > sizeof(line) / 2)
		n = sizeof(line) / 2;
	memcpy(line, prefix, n);
	len = vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
	if (len < 0)
		return;
	n += (size_t)len < sizeof(line) - n - 1 ? (size_t)len : sizeof(line) - n - 2;
	line[n++] = '\n';
	if (write(STDERR_FILENO, line, n) < 0)
		return;
}
