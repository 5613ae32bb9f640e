// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The verifier's own statistics per program (vstats.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diag.h"
#include "vstats.h"

#define VSTATS_MAX_PROGS 64 /* the object has 12 */
/* Log level 4 asks for the statistics alone, but kernels up to 6.18 also
 * log a line per global function validated and per call to one; a log that
 * does not fit fails the load (ENOSPC): room for a few hundred lines. */
#define VSTATS_LOG_SIZE	 (64 * 1024)
#define VSTATS_LOG_STATS 4 /* BPF_LOG_STATS */

static char *vstats_logs; /* one log of VSTATS_LOG_SIZE per program loaded */

int vstats_wanted(void)
{
	const char *env = getenv(VSTATS_ENV);

	return env && !strcmp(env, "1");
}

int vstats_arm(struct bpf_object *obj)
{
	struct bpf_program *p;
	unsigned n = 0, i = 0;

	bpf_object__for_each_program(p, obj)
	{
		n += bpf_program__autoload(p);
	}
	if (n > VSTATS_MAX_PROGS)
		return -E2BIG;
	free(vstats_logs);
	vstats_logs = calloc(n ? n : 1, VSTATS_LOG_SIZE);
	if (!vstats_logs)
		return -ENOMEM;
	bpf_object__for_each_program(p, obj)
	{
		if (!bpf_program__autoload(p))
			continue;
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

/* The programs keep pointing at their freed logs (libbpf takes no new
 * buffer once the object is loaded): it reads a log only while loading,
 * and the object is never loaded again. */
void vstats_free(void)
{
	free(vstats_logs);
	vstats_logs = NULL;
}
