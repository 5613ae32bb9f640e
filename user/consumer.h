/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Consumer: drains the BPF ring buffer. The kernel side wakes us only every
 * so many bytes, so we also poll with a short timeout: every event is seen
 * within CONSUMER_POLL_MS of being queued. A ring found empty
 * CONSUMER_IDLE_POLLS times in a row is idle: we raise the kernel's flag
 * (consumer_set_idle_flag), look once more, and sleep up to the caller's
 * bound; the next record wakes us at once and clears the flag. (A record
 * whose program read the flag just before we raised it, and submitted
 * just after our last look, waits for the bound: a window of the
 * program's few hundred ns, once per idle spell.)
 *
 * The ring's protocol is read here rather than through libbpf's ring_buffer,
 * which maps the data area twice so that a record wrapping past its end
 * reads contiguously: the kernel fills every page of a ringbuf mapping at
 * mmap time, so that second view cost the ring's whole size again in RSS
 * (8 MiB of the 16 MB target for the default 4 MiB ring). Here the data is
 * mapped once and the rare record that wraps is copied whole into a buffer.
 */
#ifndef AS_CONSUMER_H
#define AS_CONSUMER_H

#include <stddef.h>
#include <stdint.h>

#define CONSUMER_POLL_MS 10 /* latency bound for an idle ring ("tens of ms" asked) */
/* Records handled per poll at most: a ring that never empties (producers
 * faster than us) would otherwise keep the loop here going for ever, and the
 * loop around the poll (watchdog, drop counters, output flush, reload) with
 * it. A few ms of work at full speed, the rest stays queued for the next. */
#define CONSUMER_BATCH_MAX 4096
/* ... and at most this long: a record can cost far more than usual (a
 * sanitizer build, --trace formatting every field, a slow VM), and the
 * watchdog wants the loop back well within its interval. */
#define CONSUMER_BATCH_NS (20 * 1000000ull)
#define CONSUMER_CLOCK_EVERY 64 /* records between two looks at the clock */
#define CONSUMER_DRAIN_MS 2000 /* the last drain's bound (consumer_drain) */
#define CONSUMER_IDLE_POLLS 10 /* empty polls in a row (100 ms) before sleeping long */
#define CONSUMER_IDLE_MS 250 /* the longest idle sleep (a missed wakeup's bound) */

typedef int (*consumer_cb)(void *ctx, void *rec, size_t len);

struct consumer {
	consumer_cb cb;
	void *ctx;
	int epfd;
	int map_fd;
	size_t page; /* the system's page size */
	uint64_t mask; /* data size - 1 (a power of two) */
	unsigned long *cons_pos; /* the first page: ours to write */
	const unsigned long *prod_pos; /* the second page, then the data */
	const uint8_t *data;
	void *wrap; /* a record that wraps, made contiguous */
	size_t wrap_cap;
	volatile uint32_t *idle; /* the kernel's as_ring_idle; NULL: never sleep long */
	unsigned empty_polls; /* polls in a row that found nothing */
};

int consumer_open(struct consumer *c, int ringbuf_fd, consumer_cb cb, void *ctx);
/* The kernel's idle flag, set while we sleep long (see above) */
void consumer_set_idle_flag(struct consumer *c, volatile uint32_t *idle);
/* Wait up to CONSUMER_POLL_MS (an idle ring: up to max_ms, at most
 * CONSUMER_IDLE_MS) and handle what arrived, at most CONSUMER_BATCH_MAX
 * records or CONSUMER_BATCH_NS; returns records or -errno. */
int consumer_poll(struct consumer *c, int max_ms);
/* Handle what is queued now, without waiting, batch after batch for at
 * most CONSUMER_DRAIN_MS: at the end the programs are still attached, and a
 * storm would keep the ring full past systemd's stop timeout. */
int consumer_drain(struct consumer *c);
void consumer_close(struct consumer *c);

#endif /* AS_CONSUMER_H */
