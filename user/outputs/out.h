/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Inside the output stage: one struct out per enabled output (its queue, its
 * thread, its counters) and the operations each kind of output provides.
 * The thread (out_worker.c) is the same for every kind; the kinds only know
 * how to deliver one line to their receiver.
 */
#ifndef AS_OUT_H
#define AS_OUT_H

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "outputs.h"
#include "outq.h"

/* How often an idle output thread wakes up to act on a reopen request (the
 * latency of outputs_reopen); buffers are flushed whenever the queue drains. */
#define OUT_TICK_MS 200
/* Retry delays while a receiver is unavailable: doubling from MIN up to MAX. */
#define OUT_BACKOFF_MIN_MS 100
#define OUT_BACKOFF_MAX_MS 5000
/* After outputs_close's own timeout, how long a thread still gets to flush
 * its buffer before its writes are abandoned. */
#define OUT_CLOSE_GRACE_MS 1000
/* At most one error (and one drop) line per output per this many ms. */
#define OUT_LOG_INTERVAL_MS 1000

/*
 * What a kind's write returns:
 *   0            delivered;
 *   -EAGAIN      the receiver is unavailable: keep the alert, back off, retry
 *                without limit (the queue bound limits what waits);
 *   -ETIMEDOUT   this attempt failed (timeout, 5xx, TLS): retry up to
 *                out->max_retries times, then count it failed;
 *   other -errno the receiver refused this alert: count it failed now.
 * A kind that fails says why in out->why (one line, no newline).
 */
#define OUT_WHY_MAX 512

struct out;

struct out_ops {
	const char *name;
	/* optional, at thread start: can the receiver be reached? 0 or -EAGAIN + why */
	int (*probe)(struct out *o);
	int (*write)(struct out *o, const struct outmsg *m);
	void (*idle)(struct out *o);   /* nothing queued for OUT_TICK_MS: flush buffers */
	void (*reopen)(struct out *o); /* outputs_reopen was called */
	void (*close)(struct out *o);  /* thread is exiting: flush, release */
};

struct out_log {
	struct timespec last; /* when the last line was written */
	uint64_t suppressed;  /* lines not written since */
};

struct out {
	const struct out_ops *ops;
	void *be; /* the kind's state */
	int buffered;
	int max_retries; /* for -ETIMEDOUT; < 0 = without limit */
	struct outq q;
	pthread_t thread;
	int started;
	atomic_int reopen; /* set by outputs_reopen (async-signal-safe) */
	atomic_int abort;  /* outputs_close ran out of time: abandon blocking writes */
	_Atomic uint64_t emitted, failed;
	char why[OUT_WHY_MAX];
	struct out_log err_log, drop_log;
	uint64_t drops_reported;
};

/* The thread of one output (out_worker.c). */
int out_worker_start(struct out *o);
/* Stop the thread; past deadline (CLOCK_MONOTONIC) plus OUT_CLOSE_GRACE_MS
 * its blocking writes are abandoned. */
void out_worker_join(struct out *o, const struct timespec *deadline);
/* Nonzero once outputs_close ran out of time: long waits in a kind give up. */
int out_worker_stopping(struct out *o);

/* Diagnostics, one line on stderr "agent-sentinel: LEVEL: output NAME: ..." (out_log.c). */
__attribute__((format(printf, 3, 4))) void out_log_err(struct out *o, const char *level,
						       const char *fmt, ...);
/* The same, at most once per OUT_LOG_INTERVAL_MS for l; returns 1 if written. */
__attribute__((format(printf, 4, 5))) int out_log_limited(struct out *o, struct out_log *l,
							  const char *level, const char *fmt, ...);
/* Nonzero when a line for l would be written now. */
int out_log_due(const struct out_log *l);
/* Set o->why. */
__attribute__((format(printf, 2, 3))) void out_why(struct out *o, const char *fmt, ...);

/* Writing to a file descriptor without blocking past a stop (out_fd.c). */
/* Write all of buf; waits for POLLOUT in OUT_TICK_MS steps and writes at most
 * PIPE_BUF at a time, so a stuck reader cannot hold the thread past a stop.
 * Returns 0, -ECANCELED (stopping) or -errno; *done = bytes written. */
int out_fd_write_all(struct out *o, int fd, const char *buf, size_t len, size_t *done);

/* A block buffer of whole lines for buffered_outputs (out_fd.c). */
#define OUT_BUF_SIZE 65536 /* bytes gathered before one write */
struct out_buf {
	char *data;
	size_t len;
};
/* 0 if line fits (appended), -ENOSPC if the buffer must be flushed first. */
int out_buf_add(struct out_buf *b, const char *line, size_t len);
void out_buf_free(struct out_buf *b);

/* The kinds: each fills o->ops and o->be, or returns -errno after one line
 * on stderr. cfg is the caller's (strings are copied). */
int out_stdout_open(struct out *o, const struct outputs_config *cfg);
int out_file_open(struct out *o, const struct outputs_config *cfg);
int out_syslog_open(struct out *o, const struct outputs_config *cfg);
int out_program_open(struct out *o, const struct outputs_config *cfg);
int out_http_open(struct out *o, const struct outputs_config *cfg);
/* libcurl's global state, once per process around every HTTP output. */
int out_http_global_init(void);
void out_http_global_cleanup(void);

/* Syslog: the level of a Falco priority (1..8 -> LOG_EMERG..LOG_DEBUG;
 * anything else LOG_INFO) and the RFC 3164 datagram syslog(3) would send:
 * "<PRI>Mmm dd hh:mm:ss TAG[PID]: MSG". Returns the length written (NUL not
 * counted, never more than size - 1) or -ENOSPC when the header does not fit;
 * a message that does not fit is cut. */
int out_syslog_level(int prio);
int out_syslog_format(char *buf, size_t size, int facility, int level, const char *tag, pid_t pid,
		      time_t now, const char *msg, size_t len);

#endif /* AS_OUT_H */
