/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * One piece of work run beside the event loop, on its own thread, so the
 * loop keeps emptying the ring buffer while it runs (a reload's parse and
 * compile: 60 ms under AddressSanitizer, more on a loaded machine, while a
 * busy agent fills a 4 MiB ring in a fraction of a second). The loop asks
 * bgjob_done each turn and joins a finished job; nothing is shared with the
 * job while it runs but what the caller gave it.
 *
 * The thread runs with every signal blocked: SIGHUP, SIGTERM and friends
 * stay the loop's.
 */
#ifndef AS_BGJOB_H
#define AS_BGJOB_H

#include <pthread.h>
#include <stdatomic.h>

struct bgjob {
	pthread_t th;
	int running; /* started, not joined yet */
	atomic_int done; /* fn returned: bgjob_join does not wait */
	void (*fn)(void *arg);
	void *arg;
};

/* Run fn(arg) on a new thread; 0, or -errno (nothing started). */
int bgjob_start(struct bgjob *j, void (*fn)(void *arg), void *arg);
int bgjob_running(const struct bgjob *j);
/* Started, and fn has returned. */
int bgjob_done(struct bgjob *j);
/* Wait for fn to return (at once when bgjob_done); a job not running: no-op. */
void bgjob_join(struct bgjob *j);

#endif /* AS_BGJOB_H */
