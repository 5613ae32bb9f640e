// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Touching the ring buffer's pages once, at start-up, before any program is
 * attached (user/ringwarm.c runs this through BPF_PROG_RUN). The kernel
 * writes records through its own mapping of the ring's pages, and on a
 * host that builds page tables lazily (shadow paging: PVM and the like)
 * the first write to each such page costs a fault in the hypervisor, some
 * 10 us here: every event of the first ring's worth paid it (the exec
 * record's send 3.5 us instead of 0.5). Records a little shorter than a
 * page, reserved and discarded: the kernel writes each one's header, so
 * every page gets a write. Attached nowhere; the consumer skips discarded
 * records.
 */
#include "sentinel.bpf.h"

static long as_warm_one(__u32 index, struct as_warm_ctx *w)
{
	void *r = bpf_ringbuf_reserve(&events, AS_WARM_REC, 0);

	if (!r)
		return 1; /* full: the caller consumes and asks again */
	bpf_ringbuf_discard(r, BPF_RB_NO_WAKEUP);
	w->done++;
	return 0;
}

SEC("syscall")
int as_ring_warm(struct as_warm_ctx *ctx)
{
	struct as_warm_ctx w = { .records = ctx->records };

	bpf_loop(w.records, as_warm_one, &w, 0);
	ctx->done = w.done;
	return 0;
}
