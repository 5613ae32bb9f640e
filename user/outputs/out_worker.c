// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The thread of one output: takes the oldest alert, hands it to the kind's
 * write, and on failure either keeps it and backs off (receiver unavailable,
 * retryable error) or counts it failed. Reports failures, recoveries and
 * drops on stderr, rate-limited. Runs with every signal blocked, so SIGPIPE
 * from a vanished reader comes back as EPIPE and the caller's handlers run
 * on the caller's threads.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "out.h"

int out_worker_stopping(struct out *o)
{
	return atomic_load(&o->abort);
}

static void out_worker_report_drops(struct out *o)
{
	char rule[OUTQ_RULE_MAX];
	uint64_t n = outq_dropped(&o->q, rule, sizeof(rule));

	if (n == o->drops_reported || !out_log_due(&o->drop_log))
		return;
	if (out_log_limited(o, &o->drop_log, "warning",
			    "queue full (%zu alerts waiting): %llu alerts dropped (%llu in all), "
			    "last rule '%s'",
			    o->q.cap, (unsigned long long)(n - o->drops_reported),
			    (unsigned long long)n, rule))
		o->drops_reported = n;
}

/* The receiver took it back: say so once, with how long it was away. */
static void out_worker_recovered(struct out *o, const struct timespec *since)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	out_log_err(o, "info", "delivering again after %lld s, %zu alerts waiting",
		    (long long)(now.tv_sec - since->tv_sec), outq_count(&o->q));
}

static void out_worker_consume_sigpipe(void)
{
	const struct timespec zero = {0, 0};
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	while (sigtimedwait(&set, NULL, &zero) > 0)
		;
}

static void *out_worker_main(void *arg)
{
	struct out *o = arg;
	long backoff = OUT_BACKOFF_MIN_MS;
	struct timespec down_since = {0, 0};
	int down = 0, tries = 0;

	if (o->ops->probe && o->ops->probe(o)) {
		clock_gettime(CLOCK_MONOTONIC, &down_since);
		down = 1;
		out_log_limited(o, &o->err_log, "error",
				"%s; alerts wait (up to %zu) and are retried", o->why, o->q.cap);
	}
	for (;;) {
		struct outmsg *m;
		int err;

		if (atomic_exchange(&o->reopen, 0) && o->ops->reopen)
			o->ops->reopen(o);
		out_worker_report_drops(o);
		m = outq_peek(&o->q, OUT_TICK_MS);
		if (!m) {
			if (outq_stopping(&o->q))
				break;
			if (o->ops->idle)
				o->ops->idle(o);
			continue;
		}
		o->why[0] = '\0';
		err = o->ops->write(o, m);
		if (err == -EPIPE)
			out_worker_consume_sigpipe();
		if (!err) {
			atomic_fetch_add(&o->emitted, 1);
			outq_pop(&o->q);
			/* buffered output batches while alerts keep coming and is
			 * flushed the moment the queue drains: no alert waits a tick */
			if (o->ops->idle && outq_count(&o->q) == 0)
				o->ops->idle(o);
			if (down)
				out_worker_recovered(o, &down_since);
			down = 0;
			tries = 0;
			backoff = OUT_BACKOFF_MIN_MS;
			continue;
		}
		if (err == -ECANCELED)
			break;
		if (err == -EAGAIN ||
		    (err == -ETIMEDOUT && (o->max_retries < 0 || tries < o->max_retries))) {
			if (err == -ETIMEDOUT)
				tries++;
			if (!down) {
				clock_gettime(CLOCK_MONOTONIC, &down_since);
				down = 1;
				/* the first failure of an episode always gets its line */
				o->err_log.last.tv_sec = o->err_log.last.tv_nsec = 0;
				out_log_limited(o, &o->err_log, "error",
						"%s; retrying with backoff, "
						"up to %zu alerts wait",
						o->why, o->q.cap);
			}
			if (outq_sleep(&o->q, backoff) < 0)
				break;
			backoff =
			    backoff * 2 > OUT_BACKOFF_MAX_MS ? OUT_BACKOFF_MAX_MS : backoff * 2;
			continue;
		}
		atomic_fetch_add(&o->failed, 1);
		out_log_limited(o, &o->err_log, "error", "alert not delivered: %s (%llu so far)",
				o->why[0] ? o->why : strerror(-err),
				(unsigned long long)atomic_load(&o->failed));
		outq_pop(&o->q);
		tries = 0;
		if (down)
			out_worker_recovered(o, &down_since);
		down = 0;
		backoff = OUT_BACKOFF_MIN_MS;
	}
	if (o->ops->close)
		o->ops->close(o);
	o->drop_log.last.tv_sec = o->drop_log.last.tv_nsec =
	    0; /* the last word is never held back */
	out_worker_report_drops(o);
	return NULL;
}

int out_worker_start(struct out *o)
{
	sigset_t all, old;
	int err;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&o->thread, NULL, out_worker_main, o);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err)
		return -err;
	o->started = 1;
	return 0;
}

void out_worker_join(struct out *o, const struct timespec *deadline)
{
	struct timespec now, rt;
	long ms;

	if (!o->started)
		return;
	outq_stop(&o->q);
	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (deadline->tv_sec - now.tv_sec) * 1000 + (deadline->tv_nsec - now.tv_nsec) / 1000000;
	if (ms < OUT_CLOSE_GRACE_MS)
		ms = OUT_CLOSE_GRACE_MS;
	/* pthread_timedjoin_np takes CLOCK_REALTIME */
	clock_gettime(CLOCK_REALTIME, &rt);
	rt.tv_sec += ms / 1000;
	rt.tv_nsec += (ms % 1000) * 1000000L;
	if (rt.tv_nsec >= 1000000000L) {
		rt.tv_sec++;
		rt.tv_nsec -= 1000000000L;
	}
	if (pthread_timedjoin_np(o->thread, NULL, &rt)) {
		atomic_store(&o->abort, 1);
		pthread_join(o->thread, NULL);
	}
	o->started = 0;
}
