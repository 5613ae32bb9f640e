/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the previous run left in the state directory. While agent-sentinel
 * runs it keeps a marker there (its pid, its start, its last sign of life,
 * renewed every LASTRUN_BEAT_NS) and removes it when it stops cleanly. A
 * marker found at start means the run before was killed (SIGKILL: nothing
 * can catch it), crashed, or the host went down with it: a stretch of time
 * nobody watched, which agent-sentinel then reports as an alert.
 */
#ifndef AS_LASTRUN_H
#define AS_LASTRUN_H

#include <stdint.h>

#define LASTRUN_FILE "agent-sentinel.run"
#define LASTRUN_BEAT_NS 5000000000ull /* how stale "last alive" can be */
#define LASTRUN_TIME_MAX 32 /* "2026-12-02T18:44:57Z" and a NUL */

/* The marker the previous run left, if any. */
struct lastrun_prev {
	int found; /* there was one: that run did not stop cleanly */
	int readable; /* and it said the fields below */
	uint32_t pid;
	uint64_t started_ns, alive_ns; /* wall clock, ns since the epoch */
};

#define LASTRUN_DIR_MAX 4096

struct lastrun {
	int active; /* a state directory is open (lastrun_open) */
	int dirfd;
	char dir[LASTRUN_DIR_MAX]; /* for messages */
	uint32_t pid;
	uint64_t started_ns; /* 0 until lastrun_mark */
	uint64_t next_beat; /* CLOCK_MONOTONIC ns */
	int beat_failed; /* the last renewal failed (said once per failing spell) */
};

/* Open the state directory dir (NULL or "": none, nothing kept) and read
 * what the previous run left there into prev. 0, or -errno after one line
 * on stderr: a directory that cannot be used, or one another running
 * agent-sentinel keeps its marker in. */
int lastrun_open(struct lastrun *r, const char *dir, struct lastrun_prev *prev);
/* Monitoring has started: write our own marker. 0 or -errno (said). */
int lastrun_mark(struct lastrun *r);
/* Renew the marker's last sign of life (at most every LASTRUN_BEAT_NS). */
void lastrun_beat(struct lastrun *r, uint64_t mono_now);
/* A clean stop: the marker goes. */
void lastrun_end(struct lastrun *r);
/* Any other end (an error): the directory is closed, the marker stays, so
 * the next start reports the time nobody watched. */
void lastrun_close(struct lastrun *r);
/* ns since the epoch as UTC "YYYY-MM-DDTHH:MM:SSZ". */
void lastrun_time(char buf[LASTRUN_TIME_MAX], uint64_t wall_ns);

#endif /* AS_LASTRUN_H */
