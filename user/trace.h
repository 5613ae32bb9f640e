/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* --trace: every event as one JSON object per line: the fields of the rules'
 * field table the event carries, keys named as Falco's fields. */
#ifndef AS_TRACE_H
#define AS_TRACE_H

#include <stdio.h>
#include "event.h"
#include "proctable.h"

/* One line is at most: header fields, ancestry, and the longest strings
 * escaped (6 bytes per byte in the worst case). The longest are an exec's
 * three copies of argv (proc.exe + proc.args, proc.cmdline, evt.arg.exe +
 * evt.arg.args) or an open's path four times (fd.name, fd.directory,
 * fd.filename, evt.arg.name; each up to two paths before normalising), with
 * the executable, the directory and both cgroup fields of either. */
#define TRACE_LINE_MAX                                                                       \
	(64 * 1024 + 6 * (3 * AS_ARGS_MAX + AS_FILENAME_MAX + 10 * AS_PATH_MAX + 4 * AS_CGROUP_MAX))

/* Format ev as one JSON line into buf; returns its length or -1. */
long trace_format(const struct event *ev, const struct proctable *pt, char *buf, size_t cap);
/* Format and write; returns 0 or -errno. */
int trace_write(const struct event *ev, const struct proctable *pt, FILE *out);
/*
 * --trace FILTER and -p FORMAT: the filter compiled by the rule compiler as
 * the condition of one rule (so the kernel pre-filter derives from it as
 * from a rule's), the format as that rule's output. Either may be NULL.
 */
struct trace_filter;
/* 0; -EINVAL after one diagnostic line per problem on diag (FILTER's column
 * as --trace:1:COL, FORMAT's as -p:1:COL); -ENOMEM. */
int trace_filter_load(struct trace_filter **out, const char *filter, const char *format,
		      FILE *diag);
void trace_filter_free(struct trace_filter *t);
/* The rule the filter compiled to (for the pre-filter); NULL without a filter. */
const struct engine *trace_filter_engine(const struct trace_filter *t);
/* Does ev pass? Every event does without a filter. */
int trace_filter_match(struct trace_filter *t, const struct event *ev, const struct proctable *pt);
/* One line for ev: the format's text when there is one, else the JSON object.
 * 0 or -errno. */
int trace_filter_write(struct trace_filter *t, const struct event *ev,
		       const struct proctable *pt, FILE *out);

/* "O_WRONLY|O_CREAT|O_TRUNC", as Falco shows open flags. */
void trace_open_flags(uint64_t flags, char *buf, size_t cap);

#endif /* AS_TRACE_H */
