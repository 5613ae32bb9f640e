/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Ring warm-up: every page of the BPF ring buffer written once by the
 * kernel before the first event is (bpf/ring.bpf.c says why). Run once at
 * start-up, after load and before attach: the ring is ours alone then, so
 * its consumer position is moved here and no event can be in it.
 */
#ifndef AS_RINGWARM_H
#define AS_RINGWARM_H

#include <stdint.h>

#define RINGWARM_ROUNDS_MAX 8 /* runs of the program: two cover an empty ring */

struct ringwarm_result {
	uint32_t pages; /* pages written once */
	uint32_t records; /* records reserved and discarded */
	uint32_t rounds; /* runs of the program */
	uint64_t ns; /* time it took */
};

/* Run prog_fd (as_ring_warm) over the ring ring_fd of ring_bytes until
 * each of its pages has had a record; returns 0, or -errno after saying
 * why (the ring is then as the kernel left it, consumed to its end). */
int ringwarm_run(int prog_fd, int ring_fd, uint32_t ring_bytes, struct ringwarm_result *res);

#endif /* AS_RINGWARM_H */
