/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Counters of the running agent, and an optional local HTTP endpoint serving
 * them in Prometheus' text format (GET /metrics) plus a liveness answer
 * (GET /healthz: 200 once the programs are attached). The event thread
 * publishes with relaxed atomics; the endpoint's thread only reads them.
 */
#ifndef AS_METRICS_H
#define AS_METRICS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "abi.h"

#define METRICS_RULES_MAX 512 /* rules counted by name; more share "other" */
#define METRICS_OUTPUTS_MAX 8
#define METRICS_NAME_MAX 128
#define METRICS_PRIO_MAX 9 /* enum engine_priority */

struct metrics_rule {
	char name[METRICS_NAME_MAX];
	int prio;
	atomic_uint_fast64_t alerts;
};

struct metrics_output {
	char name[16];
	atomic_uint_fast64_t emitted, dropped, failed, queued;
};

struct metrics {
	atomic_uint_fast64_t events[AS_EV_MAX];
	atomic_uint_fast64_t kernel_drops[AS_EV_MAX];
	atomic_uint_fast64_t bad_records;
	atomic_uint_fast64_t eval_ns; /* time in the rule engine */
	atomic_uint_fast64_t proctable_entries;
	atomic_uint_fast64_t untracked;
	atomic_uint_fast64_t reloads, reload_failures;
	atomic_int ready;
	struct metrics_rule rules[METRICS_RULES_MAX];
	atomic_size_t nrules;
	struct metrics_output outputs[METRICS_OUTPUTS_MAX];
	atomic_size_t noutputs;
	/* endpoint */
	int listen_fd;
	int stop_pipe[2];
	pthread_t thread;
	int running;
};

void metrics_init(struct metrics *m);
/* Count one alert of rule (created on first use; event thread only). */
void metrics_alert(struct metrics *m, const char *rule, int prio);
/* Render the Prometheus text into buf; returns its length. */
size_t metrics_render(struct metrics *m, char *buf, size_t cap);
/* Serve on address:port (port 0: pick one; *bound_port gets it). 0 or -errno. */
int metrics_serve(struct metrics *m, const char *address, int port, int *bound_port);
void metrics_stop(struct metrics *m);
/* Resident set size of this process, bytes (0 when unknown). */
uint64_t metrics_rss_bytes(void);

#endif /* AS_METRICS_H */
