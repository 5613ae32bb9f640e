// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The bounded queue: a ring of message pointers under one mutex. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "outq.h"

struct outmsg *outmsg_new(const char *line, size_t len, int prio)
{
	struct outmsg *m;

	if (len > SIZE_MAX - sizeof(*m) - 2)
		return NULL;
	m = malloc(sizeof(*m) + len + 2);
	if (!m)
		return NULL;
	atomic_init(&m->refs, 1);
	m->prio = prio;
	m->len = len;
	memcpy(m->line, line, len);
	m->line[len] = '\n';
	m->line[len + 1] = '\0';
	return m;
}

void outmsg_get(struct outmsg *m)
{
	atomic_fetch_add_explicit(&m->refs, 1, memory_order_relaxed);
}

void outmsg_put(struct outmsg *m)
{
	if (m && atomic_fetch_sub_explicit(&m->refs, 1, memory_order_acq_rel) == 1)
		free(m);
}

void outq_deadline(struct timespec *ts, long ms)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
	ts->tv_sec += ms / 1000;
	ts->tv_nsec += (ms % 1000) * 1000000L;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

int outq_init(struct outq *q, size_t cap)
{
	pthread_condattr_t ca;
	int err;

	memset(q, 0, sizeof(*q));
	if (!cap)
		return -EINVAL;
	q->ring = calloc(cap, sizeof(*q->ring));
	if (!q->ring)
		return -ENOMEM;
	q->cap = cap;
	err = pthread_condattr_init(&ca);
	if (!err)
		err = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	if (!err)
		err = pthread_mutex_init(&q->lock, NULL);
	if (!err) {
		err = pthread_cond_init(&q->more, &ca);
		if (!err) {
			err = pthread_cond_init(&q->drained, &ca);
			if (err)
				pthread_cond_destroy(&q->more);
		}
		if (!err) {
			err = pthread_cond_init(&q->room, &ca);
			if (err) {
				pthread_cond_destroy(&q->drained);
				pthread_cond_destroy(&q->more);
			}
		}
		if (err)
			pthread_mutex_destroy(&q->lock);
	}
	pthread_condattr_destroy(&ca);
	if (err) {
		free(q->ring);
		q->ring = NULL;
		return -err;
	}
	return 0;
}

size_t outq_destroy(struct outq *q)
{
	size_t n = q->count;

	if (!q->ring)
		return 0;
	while (q->count) {
		outmsg_put(q->ring[q->head]);
		q->head = (q->head + 1) % q->cap;
		q->count--;
	}
	free(q->ring);
	q->ring = NULL;
	pthread_cond_destroy(&q->room);
	pthread_cond_destroy(&q->drained);
	pthread_cond_destroy(&q->more);
	pthread_mutex_destroy(&q->lock);
	return n;
}

static void outq_note_drop(struct outq *q, const char *rule)
{
	q->dropped++;
	if (rule) {
		strncpy(q->last_drop_rule, rule, sizeof(q->last_drop_rule) - 1);
		q->last_drop_rule[sizeof(q->last_drop_rule) - 1] = '\0';
	}
}

/* Under q->lock, with the queue full: wake the consumer and wait until it
 * takes a message, or block_ms pass (then stop blocking for good). */
static void outq_wait_room(struct outq *q)
{
	struct timespec dl;

	outq_deadline(&dl, q->block_ms);
	while (q->count == q->cap && !q->stop) {
		if (q->waiting) {
			q->waiting = 0;
			pthread_cond_signal(&q->more);
		}
		if (pthread_cond_timedwait(&q->room, &q->lock, &dl) == ETIMEDOUT) {
			q->stuck = q->count == q->cap;
			break;
		}
	}
}

void outq_set_block(struct outq *q, long wait_ms)
{
	pthread_mutex_lock(&q->lock);
	q->block_ms = wait_ms > 0 ? wait_ms : 0;
	q->stuck = 0;
	pthread_mutex_unlock(&q->lock);
}

int outq_push(struct outq *q, struct outmsg *m, const char *rule)
{
	int err = 0;

	pthread_mutex_lock(&q->lock);
	if (q->count == q->cap && q->block_ms && !q->stuck && !q->stop)
		outq_wait_room(q);
	if (q->count == q->cap || q->stop) {
		outq_note_drop(q, rule);
		err = -ENOBUFS;
	} else {
		outmsg_get(m);
		q->ring[(q->head + q->count) % q->cap] = m;
		q->count++;
		/* a futex wake per alert cost a context switch per alert: the
		 * producer wakes a sleeping consumer once per batch (outq_kick),
		 * or here when a batch has piled up */
		if (q->waiting && q->count >= OUTQ_WAKE_BATCH) {
			q->waiting = 0;
			pthread_cond_signal(&q->more);
		}
	}
	pthread_mutex_unlock(&q->lock);
	return err;
}

void outq_kick(struct outq *q)
{
	pthread_mutex_lock(&q->lock);
	if (q->waiting && q->count) {
		q->waiting = 0;
		pthread_cond_signal(&q->more);
	}
	pthread_mutex_unlock(&q->lock);
}

void outq_drop(struct outq *q, const char *rule)
{
	pthread_mutex_lock(&q->lock);
	outq_note_drop(q, rule);
	pthread_mutex_unlock(&q->lock);
}

struct outmsg *outq_peek(struct outq *q, long timeout_ms)
{
	struct outmsg *m = NULL;
	struct timespec dl;

	outq_deadline(&dl, timeout_ms);
	pthread_mutex_lock(&q->lock);
	while (!q->count && !q->stop) {
		int rc;

		q->waiting = 1;
		rc = pthread_cond_timedwait(&q->more, &q->lock, &dl);
		q->waiting = 0;
		if (rc == ETIMEDOUT)
			break;
	}
	if (q->count && !q->stop)
		m = q->ring[q->head];
	pthread_mutex_unlock(&q->lock);
	return m;
}

void outq_pop(struct outq *q)
{
	struct outmsg *m = NULL;

	pthread_mutex_lock(&q->lock);
	if (q->count) {
		m = q->ring[q->head];
		q->ring[q->head] = NULL;
		q->head = (q->head + 1) % q->cap;
		q->count--;
		if (!q->count)
			pthread_cond_broadcast(&q->drained);
		if (q->block_ms)
			pthread_cond_signal(&q->room);
	}
	pthread_mutex_unlock(&q->lock);
	outmsg_put(m);
}

int outq_sleep(struct outq *q, long ms)
{
	struct timespec dl;
	int err = 0;

	outq_deadline(&dl, ms);
	pthread_mutex_lock(&q->lock);
	while (!q->stop) {
		if (pthread_cond_timedwait(&q->more, &q->lock, &dl) == ETIMEDOUT)
			break;
	}
	if (q->stop)
		err = -ECANCELED;
	pthread_mutex_unlock(&q->lock);
	return err;
}

int outq_wait_drained(struct outq *q, const struct timespec *deadline)
{
	int err = 0;

	pthread_mutex_lock(&q->lock);
	while (q->count && !err) {
		if (pthread_cond_timedwait(&q->drained, &q->lock, deadline) == ETIMEDOUT)
			err = -ETIMEDOUT;
	}
	if (!q->count)
		err = 0;
	pthread_mutex_unlock(&q->lock);
	return err;
}

void outq_stop(struct outq *q)
{
	pthread_mutex_lock(&q->lock);
	q->stop = 1;
	pthread_cond_broadcast(&q->more);
	pthread_cond_broadcast(&q->drained);
	pthread_cond_broadcast(&q->room);
	pthread_mutex_unlock(&q->lock);
}

int outq_stopping(struct outq *q)
{
	int stop;

	pthread_mutex_lock(&q->lock);
	stop = q->stop;
	pthread_mutex_unlock(&q->lock);
	return stop;
}

size_t outq_count(struct outq *q)
{
	size_t n;

	pthread_mutex_lock(&q->lock);
	n = q->count;
	pthread_mutex_unlock(&q->lock);
	return n;
}

uint64_t outq_dropped(struct outq *q, char *rule, size_t rule_size)
{
	uint64_t n;

	pthread_mutex_lock(&q->lock);
	n = q->dropped;
	if (rule && rule_size) {
		strncpy(rule, q->last_drop_rule, rule_size - 1);
		rule[rule_size - 1] = '\0';
	}
	pthread_mutex_unlock(&q->lock);
	return n;
}
