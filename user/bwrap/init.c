// SPDX-License-Identifier: MIT
/*
 * agent-bwrap-init: the first program bubblewrap runs in the sandbox, under
 * the seccomp filter, before the agent:
 *
 *   agent-bwrap-init [--lifeline FD] [--relay PORT --egress SOCK]
 *                    [--require-landlock] [--landlock-abi N] -- COMMAND [ARGS...]
 *
 * starts the lifeline's watcher (lifeline.h), the relay (relay.h) when the
 * sandbox has network, applies Landlock (landlock.h) and execs COMMAND. Built without the sanitizers: it runs under
 * the shipped profile, which denies calls their runtimes make.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bwlog.h"
#include "exitcode.h"
#include "landlock.h"
#include "lifeline.h"
#include "relay.h"

/* /proc/self/ns/pid's inode in the host's PID namespace (PROC_PID_INIT_INO, linux/proc_ns.h). */
#define INIT_HOST_PIDNS_INO 0xEFFFFFFCu

/* Exit status of a command that could not be executed (as the shell's "not found"). */
#define INIT_EXEC_FAILED 127

static int init_port(const char *s, uint16_t *port)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (!*s || *end || errno || v == 0 || v > 65535)
		return -EINVAL;
	*port = (uint16_t)v;
	return 0;
}

/* An inherited descriptor above stderr: the lifeline's read end. */
static int init_fd(const char *s, int *fd)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno || v <= STDERR_FILENO || v > INT_MAX || fcntl((int)v, F_GETFD) < 0)
		return -EBADF;
	*fd = (int)v;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "lifeline", required_argument, NULL, 'l' },
		{ "relay", required_argument, NULL, 'r' },
		{ "egress", required_argument, NULL, 'e' },
		{ "require-landlock", no_argument, NULL, 'R' },
		{ "landlock-abi", required_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 },
	};
	struct landlock_policy pol = { .abi_max = -1 };
	const char *egress = NULL;
	int c, lfd, lifeline = -1;
	struct stat ns;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			if (init_fd(optarg, &lifeline)) {
				bwlog_err("agent-bwrap-init: --lifeline %s: not an open descriptor above 2",
					  optarg);
				return EXITCODE_USAGE;
			}
			break;
		case 'r':
			if (init_port(optarg, &pol.relay_port))
				goto usage;
			break;
		case 'e':
			egress = optarg;
			break;
		case 'R':
			pol.require = true;
			break;
		case 'a':
			pol.abi_max = atoi(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (optind >= argc || (pol.relay_port && !egress))
		goto usage;
	/* the watcher kills every process it can: only ever in the sandbox's own
	 * PID namespace, whose PID 1 (bubblewrap) started the init (setuid
	 * bubblewrap forks a helper first: the init is not always PID 2) */
	if (lifeline >= 0 && (getppid() != 1 || stat("/proc/self/ns/pid", &ns) ||
			      ns.st_ino == INIT_HOST_PIDNS_INO)) {
		bwlog_err("agent-bwrap-init: --lifeline: not started by PID 1 of a new PID namespace");
		return EXITCODE_USAGE;
	}
	/* first: from here on the sandbox cannot outlive the launcher */
	if (lifeline >= 0 && lifeline_spawn(lifeline))
		return EXITCODE_INTERNAL;
	if (pol.relay_port) {
		lfd = relay_listen(pol.relay_port);
		if (lfd < 0 || relay_spawn(lfd, egress))
			return EXITCODE_INTERNAL;
		close(lfd);
	}
	if (landlock_apply(&pol))
		return EXITCODE_LANDLOCK;
	execvp(argv[optind], &argv[optind]);
	bwlog_err("%s: cannot execute: %s", argv[optind], strerror(errno));
	return INIT_EXEC_FAILED;
usage:
	bwlog_err("agent-bwrap-init: bad arguments (it is started by agent-bwrap)");
	return EXITCODE_USAGE;
}
