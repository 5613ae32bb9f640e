// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "clock.h"
#include "consumer.h"
#include "diag.h"

/* The batch is full: libbpf stops at a negative return, this record counted
 * as consumed (it was handled), and hands the value back from the poll. */
#define CONSUMER_STOP (-ECANCELED)

static int consumer_sample(void *ctx, void *rec, size_t len)
{
	struct consumer *c = ctx;
	int err = c->cb(c->ctx, rec, len);

	if (err < 0)
		return err;
	if (++c->batch >= CONSUMER_BATCH_MAX) {
		c->full = 1;
		return CONSUMER_STOP;
	}
	return 0;
}

int consumer_open(struct consumer *c, int ringbuf_fd, consumer_cb cb, void *ctx)
{
	c->cb = cb;
	c->ctx = ctx;
	c->batch = 0;
	c->full = 0;
	c->rb = ring_buffer__new(ringbuf_fd, consumer_sample, c, NULL);
	if (!c->rb) {
		int err = -errno;

		diag_err("cannot map the ring buffer: %s", strerror(-err));
		return err;
	}
	return 0;
}

/* What a poll or consume returned, with a full batch as records handled. */
static int consumer_result(struct consumer *c, int n)
{
	if (c->full) {
		c->full = 0;
		return (int)c->batch;
	}
	return n;
}

int consumer_poll(struct consumer *c)
{
	int n;

	c->batch = 0;
	n = consumer_result(c, ring_buffer__poll(c->rb, CONSUMER_POLL_MS));
	if (n == -EINTR)
		return 0;
	if (n == 0) /* woken by nothing: the kernel batches, so look anyway */
		n = consumer_result(c, ring_buffer__consume(c->rb));
	return n;
}

int consumer_drain(struct consumer *c)
{
	uint64_t end = clock_mono_now() + CONSUMER_DRAIN_MS * 1000000ull;
	int n, total = 0;

	do {
		c->batch = 0;
		n = consumer_result(c, ring_buffer__consume(c->rb));
		if (n < 0)
			return n;
		total += n;
	} while (n >= CONSUMER_BATCH_MAX && clock_mono_now() < end);
	return total;
}

void consumer_close(struct consumer *c)
{
	ring_buffer__free(c->rb);
	c->rb = NULL;
}
