// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* outq: bounds, drops, order, reference counts, waits, stop; a threaded run. */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "outq.h"

static struct outmsg *msg(const char *s, int prio)
{
	struct outmsg *m = outmsg_new(s, strlen(s), prio);

	assert_non_null(m);
	return m;
}

static void test_msg_layout(void **state)
{
	struct outmsg *m = msg("{\"a\":1}", 3);

	(void)state;
	assert_int_equal(m->len, 7);
	assert_int_equal(m->prio, 3);
	assert_memory_equal(m->line, "{\"a\":1}\n", 9); /* newline then NUL */
	outmsg_put(m);
}

static void test_bound_and_drops(void **state)
{
	struct outq q;
	char rule[OUTQ_RULE_MAX];
	int i;

	(void)state;
	assert_int_equal(outq_init(&q, 3), 0);
	for (i = 0; i < 5; i++) {
		char text[16];
		struct outmsg *m;

		snprintf(text, sizeof(text), "m%d", i);
		m = msg(text, 5);
		assert_int_equal(outq_push(&q, m, i < 3 ? "kept" : "lost rule"),
				 i < 3 ? 0 : -ENOBUFS);
		outmsg_put(m); /* the queue holds its own reference */
	}
	assert_int_equal(outq_count(&q), 3);
	assert_int_equal(outq_dropped(&q, rule, sizeof(rule)), 2);
	assert_string_equal(rule, "lost rule");
	/* oldest first; peek leaves it in place */
	assert_string_equal(outq_peek(&q, 0)->line, "m0\n");
	assert_string_equal(outq_peek(&q, 0)->line, "m0\n");
	outq_pop(&q);
	assert_string_equal(outq_peek(&q, 0)->line, "m1\n");
	/* room again: the ring wraps */
	{
		struct outmsg *m = msg("m5", 5);

		assert_int_equal(outq_push(&q, m, "r"), 0);
		outmsg_put(m);
	}
	outq_pop(&q);
	assert_string_equal(outq_peek(&q, 0)->line, "m2\n");
	outq_pop(&q);
	assert_string_equal(outq_peek(&q, 0)->line, "m5\n");
	assert_int_equal(outq_destroy(&q), 1); /* freed: ASan's leak check sees the rest */
}

static void test_shared_message(void **state)
{
	struct outq a, b;
	struct outmsg *m = msg("shared", 1);

	(void)state;
	assert_int_equal(outq_init(&a, 1), 0);
	assert_int_equal(outq_init(&b, 1), 0);
	assert_int_equal(outq_push(&a, m, NULL), 0);
	assert_int_equal(outq_push(&b, m, NULL), 0);
	outmsg_put(m);
	assert_int_equal(atomic_load(&m->refs), 2);
	outq_pop(&a);
	assert_int_equal(atomic_load(&m->refs), 1);
	assert_int_equal(outq_destroy(&b), 1);
	assert_int_equal(outq_destroy(&a), 0);
}

static long elapsed_ms(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

static void test_waits_and_stop(void **state)
{
	struct timespec t0, dl;
	struct outq q;
	struct outmsg *m;

	(void)state;
	assert_int_equal(outq_init(&q, 2), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_null(outq_peek(&q, 50));
	assert_true(elapsed_ms(&t0) >= 45);
	outq_deadline(&dl, 0);
	assert_int_equal(outq_wait_drained(&q, &dl), 0); /* empty: drained at once */
	m = msg("x", 1);
	assert_int_equal(outq_push(&q, m, NULL), 0);
	outmsg_put(m);
	outq_deadline(&dl, 30);
	assert_int_equal(outq_wait_drained(&q, &dl), -ETIMEDOUT);
	assert_int_equal(outq_sleep(&q, 10), 0);
	outq_stop(&q);
	assert_true(outq_stopping(&q));
	assert_null(outq_peek(&q, 1000)); /* stopping: nothing more is taken */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(outq_sleep(&q, 5000), -ECANCELED);
	assert_true(elapsed_ms(&t0) < 1000);
	m = msg("late", 1);
	assert_int_equal(outq_push(&q, m, "late"), -ENOBUFS); /* after stop: dropped */
	outmsg_put(m);
	assert_int_equal(outq_dropped(&q, NULL, 0), 1);
	assert_int_equal(outq_destroy(&q), 1);
}

static void test_zero_capacity(void **state)
{
	struct outq q;

	(void)state;
	assert_int_equal(outq_init(&q, 0), -EINVAL);
}

/* One producer, one consumer, a small queue: everything is either consumed
 * in order or counted as dropped. Also the ThreadSanitizer target. */
#define THREADED_N 200000

struct consumer {
	struct outq *q;
	long got, last;
	int order_ok;
};

static void *consume(void *arg)
{
	struct consumer *c = arg;

	for (;;) {
		struct outmsg *m = outq_peek(c->q, 10);
		long v;

		if (!m) {
			if (outq_stopping(c->q))
				return NULL;
			continue;
		}
		v = strtol(m->line, NULL, 10);
		if (v <= c->last)
			c->order_ok = 0;
		c->last = v;
		c->got++;
		outq_pop(c->q);
	}
}

static void test_threaded(void **state)
{
	struct consumer c = {.last = -1, .order_ok = 1};
	struct timespec dl;
	struct outq q;
	pthread_t t;
	long i;

	(void)state;
	assert_int_equal(outq_init(&q, 64), 0);
	c.q = &q;
	assert_int_equal(pthread_create(&t, NULL, consume, &c), 0);
	for (i = 0; i < THREADED_N; i++) {
		char text[32];
		struct outmsg *m;

		snprintf(text, sizeof(text), "%ld", i);
		m = msg(text, 1);
		outq_push(&q, m, "r");
		outmsg_put(m);
	}
	outq_deadline(&dl, 10000);
	assert_int_equal(outq_wait_drained(&q, &dl), 0);
	outq_stop(&q);
	pthread_join(t, NULL);
	assert_true(c.order_ok);
	assert_int_equal((uint64_t)c.got + outq_dropped(&q, NULL, 0), THREADED_N);
	assert_int_equal(outq_destroy(&q), 0);
}

struct sleeper {
	struct outq *q;
	struct outmsg *got;
};

static void *sleep_peek(void *arg)
{
	struct sleeper *s = arg;

	s->got = outq_peek(s->q, 60000); /* far longer than any test waits */
	return NULL;
}

/* Wait until the consumer sleeps in outq_peek (it sets q->waiting). */
static void wait_sleeping(struct outq *q)
{
	for (int i = 0; i < 10000; i++) {
		int w;

		pthread_mutex_lock(&q->lock);
		w = q->waiting;
		pthread_mutex_unlock(&q->lock);
		if (w)
			return;
		nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
	}
	fail_msg("the consumer never slept");
}

/* A sleeping consumer is woken by outq_kick, and by the push that makes a
 * batch wait; pushes below the batch leave it asleep. */
static void test_kick_and_batch_wakeups(void **state)
{
	struct sleeper s;
	struct outq q;
	pthread_t t;

	(void)state;
	assert_int_equal(outq_init(&q, 2 * OUTQ_WAKE_BATCH), 0);
	s.q = &q;
	s.got = NULL;
	assert_int_equal(pthread_create(&t, NULL, sleep_peek, &s), 0);
	wait_sleeping(&q);
	for (int i = 0; i < OUTQ_WAKE_BATCH - 1; i++) {
		struct outmsg *m = msg("x", 1);

		assert_int_equal(outq_push(&q, m, "r"), 0);
		outmsg_put(m);
	}
	pthread_mutex_lock(&q.lock);
	assert_int_equal(q.waiting, 1); /* not woken yet */
	pthread_mutex_unlock(&q.lock);
	outq_kick(&q);
	assert_int_equal(pthread_join(t, NULL), 0); /* returns: the kick woke it */
	assert_non_null(s.got);
	while (outq_peek(&q, 0))
		outq_pop(&q);

	s.got = NULL;
	assert_int_equal(pthread_create(&t, NULL, sleep_peek, &s), 0);
	wait_sleeping(&q);
	for (int i = 0; i < OUTQ_WAKE_BATCH; i++) {
		struct outmsg *m = msg("y", 1);

		assert_int_equal(outq_push(&q, m, "r"), 0);
		outmsg_put(m);
	}
	assert_int_equal(pthread_join(t, NULL), 0); /* the batch woke it, no kick */
	assert_non_null(s.got);
	outq_stop(&q);
	assert_int_equal(outq_destroy(&q), OUTQ_WAKE_BATCH);
}

struct slow {
	struct outq *q;
	long n, got, order_ok;
};

/* Takes n messages, slower than the producer pushes them. */
static void *slow_consume(void *arg)
{
	struct slow *c = arg;

	while (c->got < c->n) {
		struct outmsg *m = outq_peek(c->q, 60000);

		if (!m)
			break;
		c->order_ok &= strtol(m->line, NULL, 10) == c->got;
		c->got++;
		outq_pop(c->q);
		nanosleep(&(struct timespec){ .tv_nsec = 200000 }, NULL);
	}
	return NULL;
}

/* A replay's queue: a full one makes the producer wait and wakes the
 * consumer even below a batch (cap 4 < OUTQ_WAKE_BATCH, no kick): nothing is
 * dropped, nothing reordered. */
static void test_block_loses_nothing(void **state)
{
	struct slow c = { .n = 300, .order_ok = 1 };
	struct outq q;
	pthread_t t;

	(void)state;
	assert_int_equal(outq_init(&q, 4), 0);
	outq_set_block(&q, 60000);
	c.q = &q;
	assert_int_equal(pthread_create(&t, NULL, slow_consume, &c), 0);
	for (long i = 0; i < c.n; i++) {
		char text[32];
		struct outmsg *m;

		snprintf(text, sizeof(text), "%ld", i);
		m = msg(text, 1);
		assert_int_equal(outq_push(&q, m, "r"), 0);
		outmsg_put(m);
	}
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(c.got, c.n);
	assert_true(c.order_ok);
	assert_int_equal(outq_dropped(&q, NULL, 0), 0);
	outq_stop(&q);
	assert_int_equal(outq_destroy(&q), 0);
}

/* An output that never takes anything: the blocking push gives up after its
 * wait, drops, and every later push drops at once. */
static void test_block_gives_up(void **state)
{
	struct timespec t0, t1;
	struct outq q;
	long ms;

	(void)state;
	assert_int_equal(outq_init(&q, 2), 0);
	outq_set_block(&q, 50);
	for (int i = 0; i < 2; i++) {
		struct outmsg *m = msg("x", 1);

		assert_int_equal(outq_push(&q, m, "r"), 0);
		outmsg_put(m);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < 3; i++) {
		struct outmsg *m = msg("y", 1);

		assert_int_equal(outq_push(&q, m, "stuck"), -ENOBUFS);
		outmsg_put(m);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
	assert_true(ms >= 50); /* it did wait, once */
	assert_int_equal(outq_dropped(&q, NULL, 0), 3);
	outq_stop(&q);
	assert_int_equal(outq_destroy(&q), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_msg_layout),	   cmocka_unit_test(test_bound_and_drops),
	    cmocka_unit_test(test_shared_message), cmocka_unit_test(test_waits_and_stop),
	    cmocka_unit_test(test_zero_capacity),  cmocka_unit_test(test_threaded),
	    cmocka_unit_test(test_kick_and_batch_wakeups),
	    cmocka_unit_test(test_block_loses_nothing),
	    cmocka_unit_test(test_block_gives_up),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
