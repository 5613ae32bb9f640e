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
