// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <linux/types.h>
#include "../bpf/events.h"
#include "clock.h"
#include "diag.h"
#include "ringwarm.h"

/* One run: up to records pages; how many it wrote, or -errno. */
static int ringwarm_round(int prog_fd, uint32_t records)
{
	struct as_warm_ctx ctx = { .records = records };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = &ctx, .ctx_size_in = sizeof(ctx));

	/* a syscall program's context comes back through ctx_in */
	if (bpf_prog_test_run_opts(prog_fd, &opts))
		return -errno;
	return (int)ctx.done;
}

int ringwarm_run(int prog_fd, int ring_fd, uint32_t ring_bytes, struct ringwarm_result *res)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uint64_t t0 = clock_mono_now();
	unsigned long *cons;
	const unsigned long *prod;
	/* headers AS_WARM_STEP apart from the start to the end: one in each page */
	uint32_t want = (ring_bytes + AS_WARM_STEP - 1) / AS_WARM_STEP;
	int err = 0;

	memset(res, 0, sizeof(*res));
	cons = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, ring_fd, 0);
	if (cons == MAP_FAILED) {
		err = -errno;
		diag_warn("ring buffer warm-up: cannot map its consumer page: %s", strerror(-err));
		return err;
	}
	prod = mmap(NULL, page, PROT_READ, MAP_SHARED, ring_fd, (off_t)page);
	if (prod == MAP_FAILED) {
		err = -errno;
		diag_warn("ring buffer warm-up: cannot map its producer page: %s", strerror(-err));
		munmap(cons, page);
		return err;
	}
	while (res->records < want && res->rounds < RINGWARM_ROUNDS_MAX) {
		uint64_t used = __atomic_load_n(prod, __ATOMIC_ACQUIRE) - *cons;
		/* the kernel keeps the bytes in use below the ring's size */
		uint32_t room = (uint32_t)((ring_bytes - 1 - used) / AS_WARM_STEP);
		int n;

		if (room > want - res->records)
			room = want - res->records;
		n = ringwarm_round(prog_fd, room);
		res->rounds++;
		if (n < 0) {
			err = n;
			diag_warn("ring buffer warm-up: cannot run its program: %s", strerror(-err));
			break;
		}
		res->records += (uint32_t)n;
		/* nothing else writes the ring yet: all of it was ours, discarded */
		__atomic_store_n(cons, __atomic_load_n(prod, __ATOMIC_ACQUIRE), __ATOMIC_RELEASE);
		if (!n)
			break;
	}
	res->pages = res->records >= want ? ring_bytes / AS_WARM_PAGE :
					    (uint32_t)((uint64_t)res->records * AS_WARM_STEP / AS_WARM_PAGE);
	res->ns = clock_mono_now() - t0;
	munmap((void *)prod, page);
	munmap(cons, page);
	return err;
}
