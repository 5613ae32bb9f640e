// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* One write(2) per line (logline.c, as agent-bwrap's), so lines never mix with another writer's. */
#include <stdarg.h>

#include "elog.h"
#include "../logline.h"

void elog(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	logline_v(ELOG_PREFIX, fmt, ap);
	va_end(ap);
}
