// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * as-floor CAT/NAME... | raw_tp/NAME... | tp_btf/{sched_process_fork,task_rename} |
 * cgroup/{sendmsg4,sendmsg6}:DIR: attaches floor.bpf.c's empty programs to
 * each tracepoint named, or cgroup DIR (agent-sentinel's list, as its -v says
 * "attached: ..."), prints "READY <attached> <skipped>" on stdout, and
 * waits for SIGTERM/SIGINT.
 */
#include <errno.h>
#include <fcntl.h>
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

int main(int argc, char **argv)
{
	struct as_floor_bpf *skel;
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
	for (int i = 1; i < argc; i++) {
		char cat[64];
		const char *slash = strchr(argv[i], '/');
		struct bpf_link *link;

		if (!slash || (size_t)(slash - argv[i]) >= sizeof(cat)) {
			fprintf(stderr, "as-floor: %s: not CAT/NAME\n", argv[i]);
			return 2;
		}
		snprintf(cat, sizeof(cat), "%.*s", (int)(slash - argv[i]), argv[i]);
		if (!strcmp(cat, "tp_btf")) {
			struct bpf_program *p =
				!strcmp(slash + 1, "sched_process_fork") ? skel->progs.floor_tp_btf :
				!strcmp(slash + 1, "task_rename")	   ? skel->progs.floor_tp_btf_rename :
									     NULL;

			errno = ENOENT;
			link = p ? bpf_program__attach_trace(p) : NULL;
		} else if (!strcmp(cat, "cgroup")) {
			const char *dir = strchr(slash + 1, ':');
			struct bpf_program *p =
				!strncmp(slash + 1, "sendmsg4:", 9) ? skel->progs.floor_cg_sendmsg4 :
				!strncmp(slash + 1, "sendmsg6:", 9) ? skel->progs.floor_cg_sendmsg6 :
								      NULL;
			int fd = dir ? open(dir + 1, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;

			if (!p)
				errno = ENOENT;
			link = p && fd >= 0 ? bpf_program__attach_cgroup(p, fd) : NULL;
			if (fd >= 0)
				close(fd); /* the link holds the cgroup */
		} else if (!strcmp(cat, "raw_tp"))
			link = bpf_program__attach_raw_tracepoint(skel->progs.floor_raw_tp, slash + 1);
		else
			link = bpf_program__attach_tracepoint(skel->progs.floor_tp, cat, slash + 1);
		if (!link) {
			/* a tracepoint this kernel lacks (agent-sentinel skips it too) */
			fprintf(stderr, "as-floor: %s not attached: %s\n", argv[i], strerror(errno));
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
