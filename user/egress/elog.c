// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* One write(2) per line, so lines never mix with another writer's. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "elog.h"

/* One diagnostic line; longer ones are cut (they name a file, a place and a reason). */
#define ELOG_LINE_MAX 1024

void elog(const char *fmt, ...)
{
	char line[ELOG_LINE_MAX];
	size_t n = sizeof(ELOG_PREFIX) - 1;
	va_list ap;
	int len;

	memcpy(line, ELOG_PREFIX, n);
	va_start(ap, fmt);
	len = vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
	va_end(ap);
	if (len < 0)
		return;
	n += (size_t)len < sizeof(line) - n - 1 ? (size_t)len : sizeof(line) - n - 2;
	line[n++] = '\n';
	if (write(STDERR_FILENO, line, n) < 0)
		return;
}
