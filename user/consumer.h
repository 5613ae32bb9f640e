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
/* Records handled per poll at most: a ring that never empties (producers
 * faster than us) would otherwise keep libbpf's loop going for ever, and the
 * loop around the poll (watchdog, drop counters, output flush, reload) with
 * it. A few ms of work at full speed, the rest stays queued for the next. */
#define CONSUMER_BATCH_MAX 4096
#define CONSUMER_DRAIN_MS 2000 /* the last drain's bound (consumer_drain) */

typedef int (*consumer_cb)(void *ctx, void *rec, size_t len);

struct ring_buffer;

struct consumer {
	struct ring_buffer *rb;
	consumer_cb cb;
	void *ctx;
	unsigned batch; /* records handled in this poll */
	unsigned full; /* the poll stopped at CONSUMER_BATCH_MAX */
};

int consumer_open(struct consumer *c, int ringbuf_fd, consumer_cb cb, void *ctx);
/* Wait up to CONSUMER_POLL_MS and handle what arrived, at most
 * CONSUMER_BATCH_MAX records; returns records or -errno. */
int consumer_poll(struct consumer *c);
/* Handle what is queued now, without waiting, batch after batch for at
 * most CONSUMER_DRAIN_MS: at the end the programs are still attached, and a
 * storm would keep the ring full past systemd's stop timeout. */
int consumer_drain(struct consumer *c);
void consumer_close(struct consumer *c);

#endif /* AS_CONSUMER_H */
