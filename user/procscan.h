/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The /proc snapshot taken at start: one AS_EV_PROC record per live process,
 * built in the exec record layout with plain strings, so that the process
 * table, --record and --replay treat it like any other record.
 */
#ifndef AS_PROCSCAN_H
#define AS_PROCSCAN_H

#include <stddef.h>
#include <stdint.h>
#include "abi.h"

/* One snapshot record: header, argv, exe, cwd, cgroup, with room to spare. */
#define PROCSCAN_REC_MAX \
	(sizeof(struct as_exec) + AS_ARGS_MAX + 3 * AS_PATH_MAX + AS_CGROUP_MAX + AS_LDPATH_MAX)

typedef int (*procscan_cb)(const void *rec, size_t len, void *ctx);

/* Build the record for one pid into buf (cap bytes); returns its size, or a
 * negative errno when the process is gone or unreadable. ts is wall-clock ns. */
long procscan_one(const char *proc_root, uint32_t pid, uint64_t ts, void *buf, size_t cap);
/* What /proc tells of pid's lineage (its real_parent chain now). */
void procscan_lineage(const char *proc_root, uint32_t pid, struct as_lineage *l);
/* pid's parent's pid now, from PID/stat under proc_root ("/proc");
 * 0 when the process is gone, unreadable or has none. */
uint32_t procscan_ppid(const char *proc_root, uint32_t pid);
/* Call cb for every process under proc_root ("/proc"); returns how many. */
int procscan_all(const char *proc_root, procscan_cb cb, void *ctx);
/* procscan_all remembering at most max_known processes' entries and
 * lineages during the scan (the rest read as procscan_one reads them):
 * procscan_all is this with PROCSCAN_CACHE_MAX (procscan.c); tests use less. */
int procscan_all_max(const char *proc_root, procscan_cb cb, void *ctx, uint32_t max_known);

#endif /* AS_PROCSCAN_H */
