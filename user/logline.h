/* SPDX-License-Identifier: MIT */
/* The diagnostics of agent-bwrap (bwrap/bwlog.c) and agent-egress
 * (egress/elog.c): one line each on stderr, "PREFIX message". */
#ifndef AS_LOGLINE_H
#define AS_LOGLINE_H

#include <stdarg.h>

/* Write prefix and the formatted message as one line, in one write(2), so
 * that lines of concurrent writers never mix; a longer line is cut. */
void logline_v(const char *prefix, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

#endif
