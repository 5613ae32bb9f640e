// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "clock.h"
#include "decode.h"
#include "diag.h"
#include "pipeline.h"
#include "procscan.h"

int pipeline_init(struct pipeline *p, uint32_t max_procs)
{
	memset(p, 0, sizeof(*p));
	p->ev = calloc(1, sizeof(*p->ev));
	p->pt = proctable_new(max_procs);
	if (!p->ev || !p->pt) {
		diag_err("cannot allocate the event buffer and process table: %s",
			 strerror(ENOMEM));
		pipeline_fini(p);
		return -ENOMEM;
	}
	return 0;
}

void pipeline_fini(struct pipeline *p)
{
	free(p->ev);
	proctable_free(p->pt);
	pathres_free(p->pathres);
	p->pathres = NULL;
	ldpath_free(p->ldpath);
	p->ldpath = NULL;
	p->ev = NULL;
	p->pt = NULL;
}

/* Recordings hold wall-clock stamps: patch a copy of the kernel's record. */
static void pipeline_record(struct pipeline *p, const void *rec, size_t len, uint64_t ts)
{
	static uint8_t copy[RECORD_MAX];

	if (len > sizeof(copy))
		return;
	memcpy(copy, rec, len);
	((struct as_hdr *)copy)->ts = ts;
	/* the verdict on LD_LIBRARY_PATH, which a replay cannot reach */
	if ((p->ev->hdr->type == AS_EV_EXEC || p->ev->hdr->type == AS_EV_PROC) && p->ev->ldpath &&
	    !(p->ev->exec_flags & AS_XF_LD_ENV))
		((struct as_exec *)copy)->pflags |= AS_XF_LD_PATH_ROOT;
	if (!(((struct as_hdr *)copy)->flags & AS_HF_WALL_START)) {
		((struct as_hdr *)copy)->start_ns = clock_boot_to_wall(((struct as_hdr *)copy)->start_ns);
		((struct as_hdr *)copy)->flags |= AS_HF_WALL_START;
	}
	recorder_write(p->recorder, copy, len);
}

int pipeline_feed(struct pipeline *p, const void *rec, size_t len, int from_kernel)
{
	struct event *ev = p->ev;
	char err[DECODE_ERR_MAX];
	unsigned type;
	int ret = 0;

	if (decode_record(rec, len, ev, err) != 0) {
		if (p->bad_records++ < PIPELINE_BAD_REPORT_MAX)
			diag_warn("dropped a malformed record: %s", err);
		return -EINVAL;
	}
	if (p->admit && !p->admit(p->admit_ctx, ev))
		return 0;
	/* live records and the /proc snapshot: the process is there to look at */
	ldpath_event(p->ldpath, p->pathres, ev);
	if (from_kernel) {
		ev->ts = clock_boot_to_wall(ev->hdr->ts);
		pathres_event(p->pathres, ev);
	}
	/* a replay's, and a walk's that could not be made */
	pathres_fdl(ev);
	type = ev->hdr->type;
	ev->num = type == AS_EV_PROC ? 0 : ++p->num;
	p->by_type[type]++;
	if (proctable_applies(type) && proctable_apply(p->pt, ev) == -ENOSPC)
		p->untracked++;
	if (p->recorder)
		pipeline_record(p, rec, len, ev->ts);
	if (p->sink && type != AS_EV_PROC)
		ret = p->sink(p->sink_ctx, ev, p->pt);
	if (proctable_retires(type))
		proctable_retire(p->pt, ev);
	return ret;
}

struct pipeline_seeding {
	struct pipeline *p;
	void (*seen)(void *ctx, const struct as_hdr *rec);
	void *ctx;
};

static int pipeline_seed_one(const void *rec, size_t len, void *ctx)
{
	struct pipeline_seeding *s = ctx;

	if (s->seen)
		s->seen(s->ctx, rec);
	return pipeline_feed(s->p, rec, len, 0);
}

int pipeline_seed(struct pipeline *p, const char *proc_root,
		  void (*seen)(void *ctx, const struct as_hdr *rec), void *ctx)
{
	struct pipeline_seeding s = { p, seen, ctx };

	return procscan_all(proc_root, pipeline_seed_one, &s);
}
