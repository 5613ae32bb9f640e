// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "consumer.h"
#include "diag.h"

int consumer_open(struct consumer *c, int ringbuf_fd, consumer_cb cb, void *ctx)
{
	c->rb = ring_buffer__new(ringbuf_fd, (ring_buffer_sample_fn)cb, ctx, NULL);
	if (!c->rb) {
		int err = -errno;

		diag_err("cannot map the ring buffer: %s", strerror(-err));
		return err;
	}
	return 0;
}

int consumer_poll(struct consumer *c)
{
	int n = ring_buffer__poll(c->rb, CONSUMER_POLL_MS);

	if (n == -EINTR)
		return 0;
	if (n == 0) /* woken by nothing: the kernel batches, so look anyway */
		n = ring_buffer__consume(c->rb);
	return n;
}

int consumer_drain(struct consumer *c)
{
	return ring_buffer__consume(c->rb);
}

void consumer_close(struct consumer *c)
{
	ring_buffer__free(c->rb);
	c->rb = NULL;
}
