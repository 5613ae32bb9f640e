/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The alert output stage: every alert line goes to each enabled output
 * (stdout, file, syslog, program, HTTP(S)) through that output's own bounded
 * queue and thread, so a slow or dead receiver never stalls the caller. When
 * a queue is full the alert is dropped for that output and counted; errors
 * and drops are reported on stderr, one line each, at most once per second
 * per output.
 *
 * While a receiver is unavailable (file not writable, syslog socket absent,
 * program not running, HTTP server not reachable) the output keeps its oldest
 * alert and retries with exponential backoff: the alerts waiting in the queue
 * are delivered once the receiver is back, the excess is counted as dropped.
 */
#ifndef AS_OUTPUTS_H
#define AS_OUTPUTS_H

#include <stddef.h>
#include <stdint.h>

/* Defaults applied when a field of struct outputs_config is 0 or NULL. */
#define OUTPUTS_QUEUE_MAX_DEFAULT 1000	     /* alerts per output; outputs_queue.capacity */
#define OUTPUTS_SYSLOG_SOCKET	  "/dev/log" /* where syslog(3) writes */
#define OUTPUTS_SYSLOG_TAG	  "agent-sentinel"
#define OUTPUTS_HTTP_USER_AGENT	  "agent-sentinel"
#define OUTPUTS_HTTP_TIMEOUT_MS	  5000 /* one POST, connect included */

struct outputs_config {	  /* Falco key names in comments */
	int json;	  /* json_output: 1 = lines are JSON (HTTP Content-Type) */
	int buffered;	  /* buffered_outputs: 0 = flush every line (-U) */
	size_t queue_max; /* alerts waiting per output before drops (outputs_queue.capacity) */
	struct {
		int enabled;
	} stdout_output;
	struct {
		int enabled;
		const char *filename;
		int keep_alive; /* 0: open, append, close per alert (Falco default) */
	} file_output;
	struct {
		int enabled;
		const char *socket_path; /* NULL = OUTPUTS_SYSLOG_SOCKET */
		int facility;	 /* LOG_USER, LOG_LOCAL0, ... from <syslog.h>; 0 = LOG_USER */
		const char *tag; /* NULL = OUTPUTS_SYSLOG_TAG */
	} syslog_output;
	struct {
		int enabled;
		const char *program; /* run by /bin/sh -c; its stdout goes to our stderr */
		int keep_alive;	     /* 1: one long-running child, restarted if it exits;
				      * 0: one child per alert (Falco default) */
	} program_output;
	struct {
		int enabled;
		const char *url;	 /* http:// or https:// */
		const char *user_agent;	 /* NULL = OUTPUTS_HTTP_USER_AGENT */
		int insecure;		 /* 1 = no TLS peer/host verification */
		const char *ca_cert;	 /* CA bundle file */
		const char *ca_path;	 /* CA directory (c_rehash'd) */
		const char *client_cert; /* mTLS: PEM certificate ... */
		const char *client_key;	 /* ... and its PEM key */
		long timeout_ms;	 /* one POST; 0 = OUTPUTS_HTTP_TIMEOUT_MS */
		int max_retries;	 /* retries of one alert after a timeout, 5xx or TLS error
					  * before it counts as failed; connection refused is
					  * "receiver down" and waits without limit */
	} http_output;
};

struct outputs;

/*
 * Start every enabled output. Returns 0 or -errno with a one-line reason on
 * stderr: -EINVAL for a configuration that can never work (no filename, a
 * malformed or non-HTTP URL, a client cert without key, ...), -ENOMEM, or
 * the error of a thread that could not start. A receiver that is merely
 * unavailable now (file not writable, program not found, server down) is
 * reported with one warning line and retried: that output does not fail open.
 * The strings of cfg are copied.
 */
int outputs_open(struct outputs **out, const struct outputs_config *cfg);
/*
 * Queue one alert: line is one complete line WITHOUT the trailing newline;
 * prio 1..8 = Emergency..Debug (enum engine_priority order); rule = rule name
 * (named in drop reports). Never blocks the caller: a full queue drops
 * (counted per output), unless outputs_set_block. Thread-safe for one producer.
 */
void outputs_emit(struct outputs *o, const char *line, size_t len, int prio, const char *rule);
/* After each batch of events: hand what was emitted to the output threads. */
void outputs_kick(struct outputs *o);
/* A replay: full queues make the producer wait (outq_set_block), so the
 * alerts of a recording do not depend on how fast the outputs are. */
void outputs_set_block(struct outputs *o, int block);
/* SIGUSR1: reopen file outputs (logrotate). Async-signal-safe: it only sets a
 * flag, which each file output acts on within OUT_TICK_MS. */
void outputs_reopen(struct outputs *o);

struct outputs_stats {
	uint64_t emitted; /* delivered (or written to the output's buffer) */
	uint64_t dropped; /* queue full, or still queued when outputs_close gave up */
	uint64_t failed;  /* the receiver refused it, or retries ran out */
	size_t queued;	  /* waiting now, the one being delivered included */
};
size_t outputs_count(const struct outputs *o); /* number of enabled outputs */
/* "stdout", "file", "syslog", "program", "http"; NULL when i >= outputs_count(). */
const char *outputs_name(const struct outputs *o, size_t i);
void outputs_stats_get(const struct outputs *o, size_t i, struct outputs_stats *st);
/* Flush: wait up to timeout_ms for queues to drain, then stop threads and free.
 * What is still queued then is counted as dropped and reported. o may be NULL. */
void outputs_close(struct outputs *o, long timeout_ms);

/* Syslog facility by name ("user", "daemon", "local0".."local7", "auth", ...),
 * as a <syslog.h> LOG_* value; -EINVAL if unknown. For the config parser. */
int outputs_syslog_facility_parse(const char *name);
/* Its name as the config prints it ("local3"); "?" if none. The one table of
 * facility names (out_syslog.c) serves both. */
const char *outputs_syslog_facility_name(int facility);

#endif /* AS_OUTPUTS_H */
