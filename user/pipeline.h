/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The per-record path shared by the kernel consumer, --replay and the /proc
 * snapshot: decode, number, update the process table, record, hand to the
 * sink (trace printer or rule engine), retire exits.
 */
#ifndef AS_PIPELINE_H
#define AS_PIPELINE_H

#include <stdio.h>
#include "event.h"
#include "ldpath.h"
#include "pathres.h"
#include "proctable.h"
#include "record.h"

/* Decoder errors reported on stderr before we only count them. */
#define PIPELINE_BAD_REPORT_MAX 10

typedef int (*pipeline_sink)(void *ctx, const struct event *ev, const struct proctable *pt);

struct pipeline {
	struct event *ev; /* reused for every record */
	struct proctable *pt;
	struct recorder *recorder; /* NULL: not recording */
	pipeline_sink sink; /* NULL: nothing to evaluate */
	void *sink_ctx;
	/* replay only: a record the kernel pre-filter would have dropped is
	 * skipped as if it never came (NULL: keep everything) */
	int (*admit)(void *ctx, const struct event *ev);
	void *admit_ctx;
	/* live only: symlinks followed on file changes' paths (NULL: none) */
	struct pathres *pathres;
	/* live only: LD_LIBRARY_PATH's directories judged (NULL: it counts as set) */
	struct ldpath *ldpath;
	uint64_t num; /* events numbered so far */
	uint64_t by_type[AS_EV_MAX];
	uint64_t bad_records;
	uint64_t untracked; /* process-table inserts refused */
};

int pipeline_init(struct pipeline *p, uint32_t max_procs);
void pipeline_fini(struct pipeline *p);
/* Handle one record. from_kernel: hdr->ts is boot time and gets converted.
 * Returns 0, or -EINVAL for a record the decoder rejected (counted). */
int pipeline_feed(struct pipeline *p, const void *rec, size_t len, int from_kernel);
/* Feed the /proc snapshot through the pipeline (not shown to the sink);
 * seen(ctx, rec) is called for each snapshot record too, when not NULL. */
int pipeline_seed(struct pipeline *p, const char *proc_root,
		  void (*seen)(void *ctx, const struct as_hdr *rec), void *ctx);

#endif /* AS_PIPELINE_H */
