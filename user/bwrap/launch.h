/* SPDX-License-Identifier: MIT */
/*
 * Starting bubblewrap: fork a child that waits until it has been placed in
 * the session cgroup, then execs bubblewrap with stderr on a pipe for the tee.
 * The child dies with the launcher (PR_SET_PDEATHSIG), bubblewrap's sandbox
 * with bubblewrap (--die-with-parent) and, should that miss, with the
 * launcher's lifeline (lifeline.h): nothing outlives agent-bwrap.
 */
#ifndef AGENT_BWRAP_LAUNCH_H
#define AGENT_BWRAP_LAUNCH_H

#include <stddef.h>
#include <sys/types.h>

struct launch {
	const char *path; /* argv[0], for messages */
	pid_t pid; /* the child, later bubblewrap */
	int go_fd; /* write end: one byte releases the child */
	int err_fd; /* read end: errno of a failed exec, EOF on success */
	int stderr_fd; /* read end of the child's stderr */
};

/*
 * Fork the waiting child; the nkeep descriptors of keep (< 0: skipped) stay
 * open across exec. lifeline (the lifeline's write end, or -1) is the
 * launch's from here on, also on failure: closed when bubblewrap exits
 * (SIGCHLD) or is reaped. 0 or -errno (printed).
 */
int launch_start(struct launch *l, char *const argv[], const int keep[], size_t nkeep,
		 int lifeline);
/* Let the child exec. 0, or -errno of the failed exec (printed, child reaped). */
int launch_go(struct launch *l);
/* Forward SIGINT, SIGTERM, SIGHUP, SIGQUIT to the child from now on. */
void launch_forward_signals(const struct launch *l);
/* Reap the child: its exit code, or 128 + signal. */
int launch_wait(struct launch *l);
/* Kill and reap a child that was never released (after a failed cgroup_attach). */
void launch_abort(struct launch *l);

#endif
