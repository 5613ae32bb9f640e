// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <stdarg.h>
#include <stdio.h>
#include "diag.h"

int diag_verbose;

static void diag_line(const char *level, const char *fmt, va_list ap)
{
	char line[1024];

	vsnprintf(line, sizeof(line), fmt, ap);
	fprintf(stderr, "agent-sentinel: %s%s\n", level, line);
}

void diag_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_line("error: ", fmt, ap);
	va_end(ap);
}

void diag_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_line("warning: ", fmt, ap);
	va_end(ap);
}

void diag_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_line("", fmt, ap);
	va_end(ap);
}

#define DIAG_AT_FMT "%s:%zu:%zu: "

void diag_at(FILE *f, const char *file, size_t line, size_t col)
{
	fprintf(f, DIAG_AT_FMT, file, line, col);
}

int diag_fmt_at(char *buf, size_t cap, const char *file, size_t line, size_t col)
{
	return snprintf(buf, cap, DIAG_AT_FMT, file, line, col);
}
