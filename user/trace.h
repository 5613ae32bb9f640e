/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* --trace: every event as one JSON object per line, keys named as Falco's fields. */
#ifndef AS_TRACE_H
#define AS_TRACE_H

#include <stdio.h>
#include "event.h"
#include "proctable.h"

/* One line is at most: header fields, ancestry, and the longest strings
 * escaped (6 bytes per byte in the worst case). */
#define TRACE_LINE_MAX (64 * 1024 + 6 * (AS_ARGS_MAX + 3 * AS_PATH_MAX + 2 * AS_PATH_MAX))

/* Format ev as one JSON line into buf; returns its length or -1. */
long trace_format(const struct event *ev, const struct proctable *pt, char *buf, size_t cap);
/* Format and write; returns 0 or -errno. */
int trace_write(const struct event *ev, const struct proctable *pt, FILE *out);
/* "O_WRONLY|O_CREAT|O_TRUNC", as Falco shows open flags. */
void trace_open_flags(uint64_t flags, char *buf, size_t cap);

#endif /* AS_TRACE_H */
