/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Consumer: drains the BPF ring buffer. The kernel side wakes us only every
 * so many bytes, so we also poll with a short timeout: every event is seen
 * within CONSUMER_POLL_MS of being queued.
 */
#ifndef AS_CONSUMER_H
#define AS_CONSUMER_H

#include <stddef.h>

#define CONSUMER_POLL_MS 10 /* latency bound for an idle ring ("tens of ms" asked) */

typedef int (*consumer_cb)(void *ctx, void *rec, size_t len);

struct ring_buffer;

struct consumer {
	struct ring_buffer *rb;
};

int consumer_open(struct consumer *c, int ringbuf_fd, consumer_cb cb, void *ctx);
/* Wait up to CONSUMER_POLL_MS and handle what arrived; returns records or -errno. */
int consumer_poll(struct consumer *c);
/* Handle everything queued now, without waiting. */
int consumer_drain(struct consumer *c);
void consumer_close(struct consumer *c);

#endif /* AS_CONSUMER_H */
