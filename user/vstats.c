// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The verifier's own statistics per program (vstats.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diag.h"
#include "vstats.h"

#define VSTATS_MAX_PROGS 64   /* the object has 12 */
#define VSTATS_LOG_SIZE	 1024 /* log level 4 writes three short lines */
#define VSTATS_LOG_STATS 4    /* BPF_LOG_STATS */

static char *vstats_logs; /* VSTATS_MAX_PROGS logs of VSTATS_LOG_SIZE */

int vstats_wanted(void)
{
	const char *env = getenv(VSTATS_ENV);

	return env && !strcmp(env, "1");
}

int vstats_arm(struct bpf_object *obj)
{
	struct bpf_program *p;
	unsigned i = 0;

	free(vstats_logs);
	vstats_logs = calloc(VSTATS_MAX_PROGS, VSTATS_LOG_SIZE);
	if (!vstats_logs)
		return -ENOMEM;
	bpf_object__for_each_program(p, obj)
	{
		if (!bpf_program__autoload(p))
			continue;
		if (i == VSTATS_MAX_PROGS)
			return -E2BIG;
		bpf_program__set_log_buf(p, vstats_logs + (size_t)i++ * VSTATS_LOG_SIZE,
					 VSTATS_LOG_SIZE);
		bpf_program__set_log_level(p, VSTATS_LOG_STATS);
	}
	return 0;
}

void vstats_report(struct bpf_object *obj)
{
	unsigned long long us_all = 0, insns_all = 0;
	struct bpf_program *p;

	if (!vstats_logs)
		return;
	bpf_object__for_each_program(p, obj)
	{
		size_t size = 0;
		const char *log = bpf_program__log_buf(p, &size);
		const char *t, *n;
		unsigned long long us = 0, insns = 0, states = 0, peak = 0;

		if (!log || !bpf_program__autoload(p))
			continue;
		t = strstr(log, "verification time ");
		n = strstr(log, "processed ");
		if (!t || !n || sscanf(t, "verification time %llu usec", &us) != 1 ||
		    sscanf(n,
			   "processed %llu insns (limit %*u) max_states_per_insn %*u total_states "
			   "%llu peak_states %llu",
			   &insns, &states, &peak) != 3) {
			diag_info("verifier: %s: no statistics in its log", bpf_program__name(p));
			continue;
		}
		diag_info("verifier: %-24s %7.1f ms %7llu instructions %5llu states (peak %llu)",
			  bpf_program__name(p), us / 1000.0, insns, states, peak);
		us_all += us;
		insns_all += insns;
	}
	diag_info("verifier: %-24s %7.1f ms %7llu instructions", "all programs", us_all / 1000.0,
		  insns_all);
}

void vstats_free(void)
{
	free(vstats_logs);
	vstats_logs = NULL;
}
