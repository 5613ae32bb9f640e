/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The bounded queue in front of each output: one producer (outputs_emit),
 * one consumer (the output's thread). Messages are reference counted so one
 * copy of an alert serves every output. Pushing never blocks: a full queue
 * refuses the message and counts the drop.
 */
#ifndef AS_OUTQ_H
#define AS_OUTQ_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* Longest rule name kept for the "last dropped rule" of a drop report. */
#define OUTQ_RULE_MAX 128

struct outmsg {
	atomic_uint refs;
	int prio;    /* 1..8, Emergency..Debug */
	size_t len;  /* bytes of the line, without the '\n' that follows it */
	char line[]; /* len bytes, then '\n', then '\0' */
};

/* A message holding one reference, or NULL (ENOMEM). */
struct outmsg *outmsg_new(const char *line, size_t len, int prio);
void outmsg_get(struct outmsg *m);
void outmsg_put(struct outmsg *m);

struct outq {
	pthread_mutex_t lock;
	pthread_cond_t more;	/* consumer: a message arrived, or stop */
	pthread_cond_t drained; /* closer: the queue became empty */
	struct outmsg **ring;
	size_t cap, head, count;
	uint64_t dropped;
	char last_drop_rule[OUTQ_RULE_MAX];
	int stop;
	int waiting; /* the consumer sleeps in outq_peek: only then does a push signal */
	pthread_cond_t room; /* a blocked producer: a message was taken */
	long block_ms; /* a full queue makes push wait this long (a replay); 0: drop (live) */
	int stuck; /* a blocking push timed out once: drop from then on */
};

int outq_init(struct outq *q, size_t cap);
/* Release every message still queued; returns how many there were. */
size_t outq_destroy(struct outq *q);
/* A sleeping consumer is woken by outq_kick, or by the push that makes
 * this many messages wait. */
#define OUTQ_WAKE_BATCH 64

/* How long a blocking push (a replay) waits for room before it gives up on
 * the consumer (an output that does not deliver), drops, and stops blocking. */
#define OUTQ_BLOCK_MS 10000

/* Queue m, taking a reference; -ENOBUFS when full (dropped, rule remembered).
 * With outq_set_block, a full queue waits for room instead. */
int outq_push(struct outq *q, struct outmsg *m, const char *rule);
/* Live, an alert the output cannot take is dropped (and reported): the ring
 * buffer must be drained. A replay has no such hurry and loses nothing. */
void outq_set_block(struct outq *q, long wait_ms);
/* Wake the consumer if it sleeps with messages queued: the producer calls it
 * after each batch of events, so a burst costs one wakeup, not one per alert. */
void outq_kick(struct outq *q);
/* Count a drop that never reached the queue (no memory for the message). */
void outq_drop(struct outq *q, const char *rule);
/*
 * The oldest message, left in the queue (only the consumer removes it, with
 * outq_pop, once it is delivered or given up). Waits up to timeout_ms for one;
 * NULL on timeout or when stopping.
 */
struct outmsg *outq_peek(struct outq *q, long timeout_ms);
void outq_pop(struct outq *q);
/* Sleep up to ms; returns -ECANCELED as soon as the queue is stopped, else 0. */
int outq_sleep(struct outq *q, long ms);
/* Wait until empty or the CLOCK_MONOTONIC deadline; 0 or -ETIMEDOUT. */
int outq_wait_drained(struct outq *q, const struct timespec *deadline);
void outq_stop(struct outq *q);
int outq_stopping(struct outq *q);
size_t outq_count(struct outq *q);
/* Drops so far, and the last dropped rule copied into rule (rule_size bytes). */
uint64_t outq_dropped(struct outq *q, char *rule, size_t rule_size);

/* now + ms on CLOCK_MONOTONIC. */
void outq_deadline(struct timespec *ts, long ms);

#endif /* AS_OUTQ_H */
