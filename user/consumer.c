// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <linux/bpf.h>
#include "clock.h"
#include "consumer.h"
#include "diag.h"

/* A record's header, as the kernel writes it (kernel/bpf/ringbuf.c): its
 * length, with two flag bits, then the page offset only the kernel reads. */
#define CONSUMER_HDR_SZ 8
#define CONSUMER_BUSY (1u << 31) /* reserved, not yet submitted */
#define CONSUMER_DISCARD (1u << 30) /* submitted as discarded: skip */

static size_t consumer_data_size(const struct consumer *c)
{
	return (size_t)c->mask + 1;
}

int consumer_open(struct consumer *c, int ringbuf_fd, consumer_cb cb, void *ctx)
{
	struct bpf_map_info info = { 0 };
	uint32_t len = sizeof(info);
	struct epoll_event ev = { .events = EPOLLIN };
	void *m;
	int err;

	memset(c, 0, sizeof(*c));
	c->cb = cb;
	c->ctx = ctx;
	c->epfd = -1;
	c->map_fd = ringbuf_fd;
	c->page = (size_t)sysconf(_SC_PAGESIZE);
	if (bpf_obj_get_info_by_fd(ringbuf_fd, &info, &len)) {
		err = -errno;
		diag_err("cannot read the ring buffer's size: %s", strerror(-err));
		return err;
	}
	if (info.type != BPF_MAP_TYPE_RINGBUF || !info.max_entries ||
	    (info.max_entries & (info.max_entries - 1))) {
		diag_err("the ring buffer map is not a BPF ring buffer of a power-of-two size");
		return -EINVAL;
	}
	c->mask = info.max_entries - 1;
	m = mmap(NULL, c->page, PROT_READ | PROT_WRITE, MAP_SHARED, ringbuf_fd, 0);
	if (m == MAP_FAILED)
		goto fail_map;
	c->cons_pos = m;
	/* the producer's page and the data once (libbpf: twice, see consumer.h) */
	m = mmap(NULL, c->page + consumer_data_size(c), PROT_READ, MAP_SHARED, ringbuf_fd,
		 (off_t)c->page);
	if (m == MAP_FAILED)
		goto fail_map;
	c->prod_pos = m;
	c->data = (const uint8_t *)m + c->page;
	c->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (c->epfd < 0 || epoll_ctl(c->epfd, EPOLL_CTL_ADD, ringbuf_fd, &ev)) {
		err = -errno;
		diag_err("cannot wait on the ring buffer: %s", strerror(-err));
		consumer_close(c);
		return err;
	}
	return 0;
fail_map:
	err = -errno;
	diag_err("cannot map the ring buffer: %s", strerror(-err));
	consumer_close(c);
	return err;
}

/* The record of len bytes at ring offset off, contiguous: in place, or
 * copied when it runs past the data's end; NULL without memory for that. */
static void *consumer_record(struct consumer *c, uint64_t off, size_t len)
{
	size_t at = (size_t)(off & c->mask), first = consumer_data_size(c) - at;

	if (len <= first)
		return (void *)(c->data + at);
	if (len > c->wrap_cap) {
		void *w = realloc(c->wrap, len);

		if (!w)
			return NULL;
		c->wrap = w;
		c->wrap_cap = len;
	}
	memcpy(c->wrap, c->data + at, first);
	memcpy((uint8_t *)c->wrap + first, c->data, len - first);
	return c->wrap;
}

/* Handle submitted records, at most max and for at most CONSUMER_BATCH_NS;
 * returns how many. Each is released to the kernel once handled. */
static int consumer_process(struct consumer *c, int max)
{
	uint64_t cons = __atomic_load_n(c->cons_pos, __ATOMIC_RELAXED), prod;
	uint64_t end = clock_mono_now() + CONSUMER_BATCH_NS;
	int n = 0;

	prod = __atomic_load_n(c->prod_pos, __ATOMIC_ACQUIRE);
	while (n < max) {
		const uint32_t *hdr;
		uint32_t len;
		size_t rec_len;

		if (n && n % CONSUMER_CLOCK_EVERY == 0 && clock_mono_now() >= end)
			break;
		if (cons >= prod) {
			/* caught up: anything submitted meanwhile? */
			prod = __atomic_load_n(c->prod_pos, __ATOMIC_ACQUIRE);
			if (cons >= prod)
				break;
		}
		hdr = (const uint32_t *)(c->data + (cons & c->mask));
		len = __atomic_load_n(hdr, __ATOMIC_ACQUIRE);
		if (len & CONSUMER_BUSY)
			break; /* reserved, not yet submitted: records after it wait too */
		rec_len = len & ~(CONSUMER_BUSY | CONSUMER_DISCARD);
		if (!(len & CONSUMER_DISCARD)) {
			void *rec = consumer_record(c, cons + CONSUMER_HDR_SZ, rec_len);

			if (rec)
				c->cb(c->ctx, rec, rec_len);
			else /* passed on as a record cut short: the decoder counts it */
				c->cb(c->ctx, (void *)(c->data + ((cons + CONSUMER_HDR_SZ) & c->mask)),
				      consumer_data_size(c) - ((cons + CONSUMER_HDR_SZ) & c->mask));
			n++;
		}
		cons += (rec_len + CONSUMER_HDR_SZ + 7) & ~(uint64_t)7;
		__atomic_store_n(c->cons_pos, cons, __ATOMIC_RELEASE);
	}
	return n;
}

void consumer_set_idle_flag(struct consumer *c, volatile uint32_t *idle)
{
	c->idle = idle;
}

int consumer_poll(struct consumer *c, int max_ms)
{
	struct epoll_event ev;
	int ms = CONSUMER_POLL_MS, n;

	if (max_ms > CONSUMER_IDLE_MS)
		max_ms = CONSUMER_IDLE_MS;
	if (c->idle && c->empty_polls >= CONSUMER_IDLE_POLLS && max_ms > ms) {
		__atomic_store_n(c->idle, 1, __ATOMIC_SEQ_CST);
		/* what came before the kernel saw the flag woke nobody */
		n = consumer_process(c, CONSUMER_BATCH_MAX);
		if (n)
			goto got;
		ms = max_ms;
	}
	/* level-triggered: ready at once while records wait */
	if (epoll_wait(c->epfd, &ev, 1, ms) < 0 && errno != EINTR)
		return -errno;
	/* woken or not: the kernel wakes us only per wakeup_bytes, so look anyway */
	n = consumer_process(c, CONSUMER_BATCH_MAX);
	if (!n) {
		c->empty_polls++;
		return 0;
	}
got:
	c->empty_polls = 0;
	if (c->idle && *c->idle)
		__atomic_store_n(c->idle, 0, __ATOMIC_RELAXED);
	return n;
}

int consumer_drain(struct consumer *c)
{
	uint64_t end = clock_mono_now() + CONSUMER_DRAIN_MS * 1000000ull;
	int n, total = 0;

	do {
		n = consumer_process(c, CONSUMER_BATCH_MAX);
		if (n < 0)
			return n;
		total += n;
	} while (n > 0 && clock_mono_now() < end);
	return total;
}

void consumer_close(struct consumer *c)
{
	if (c->epfd >= 0)
		close(c->epfd);
	if (c->prod_pos)
		munmap((void *)c->prod_pos, c->page + consumer_data_size(c));
	if (c->cons_pos)
		munmap(c->cons_pos, c->page);
	free(c->wrap);
	memset(c, 0, sizeof(*c));
	c->epfd = -1;
}
