// SPDX-License-Identifier: MIT
/* Diagnostics: one write(2) per line so lines of concurrent writers do not mix. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bwlog.h"

/* One diagnostic line; longer ones are cut (they name a path and a reason). */
#define BWLOG_LINE_MAX 1024

void bwlog_err(const char *fmt, ...)
{
	char line[BWLOG_LINE_MAX];
	size_t n = sizeof(BWLOG_PREFIX) - 1;
	va_list ap;
	int len;

	memcpy(line, BWLOG_PREFIX, n);
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
