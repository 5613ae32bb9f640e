// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * as-floor: loads floor.bpf.c (empty programs on agent-sentinel's
 * tracepoints), attaches every one this kernel has, prints
 * "READY <attached> <skipped>" on stdout, and waits for SIGTERM/SIGINT.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "as_floor.skel.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

int main(void)
{
	struct as_floor_bpf *skel;
	struct bpf_program *prog;
	struct sigaction sa = { .sa_handler = on_signal };
	unsigned attached = 0, skipped = 0;
	sigset_t none, block;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	libbpf_set_print(quiet);
	skel = as_floor_bpf__open_and_load();
	if (!skel) {
		fprintf(stderr, "as-floor: cannot load: %s\n", strerror(errno));
		return 1;
	}
	bpf_object__for_each_program(prog, skel->obj) {
		struct bpf_link *link = bpf_program__attach(prog);

		if (!link) {
			/* a tracepoint this kernel lacks (agent-sentinel skips it too) */
			fprintf(stderr, "as-floor: %s not attached: %s\n",
				bpf_program__section_name(prog), strerror(errno));
			skipped++;
			continue;
		}
		attached++; /* links live until exit */
	}
	/* blocked until sigsuspend, so a signal cannot slip in before it */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, NULL);
	printf("READY %u %u\n", attached, skipped);
	fflush(stdout);
	sigemptyset(&none);
	while (!stop)
		sigsuspend(&none);
	as_floor_bpf__destroy(skel);
	return 0;
}
