// SPDX-License-Identifier: MIT
/* Diagnostics: one write(2) per line (logline.c) so lines of concurrent writers do not mix. */
#include <stdarg.h>

#include "bwlog.h"
#include "../logline.h"

void bwlog_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	logline_v(BWLOG_PREFIX, fmt, ap);
	va_end(ap);
}
