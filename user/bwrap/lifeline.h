/* SPDX-License-Identifier: MIT */
/*
 * The lifeline: the sandbox ends when agent-bwrap ends, however it ends.
 *
 * bubblewrap's --die-with-parent arms PR_SET_PDEATHSIG in its PID 1 only
 * after forking the command and without checking that its parent is still
 * there (bubblewrap 0.8): a launcher killed in that window leaves PID 1, and
 * with it the whole sandbox, running with no one to answer to. So the
 * launcher holds the only write end of a pipe whose read end bubblewrap
 * passes to agent-bwrap-init; the init's watcher (detach.h) waits for EOF,
 * which the kernel delivers when the launcher's last descriptor closes,
 * SIGKILL included, and then kills every process of the PID namespace. PID 1,
 * left without children, exits. The launcher also closes its end the moment
 * bubblewrap exits (launch.h), so a sandbox cannot outlive its bubblewrap.
 *
 * The watcher is not dumpable (no /proc/PID/fd for the agent to reopen the
 * pipe through). On Landlock ABI 6 (scoping) the agent cannot signal it; on
 * an older ABI it can kill it, as it can the relay, and only bubblewrap's
 * own --die-with-parent is left.
 */
#ifndef AGENT_BWRAP_LIFELINE_H
#define AGENT_BWRAP_LIFELINE_H

/* The watcher's name (proc.name). */
#define LIFELINE_NAME "bwrap-lifeline"

/* In the init: start the watcher on fd, then close fd. 0 or -errno (printed). */
int lifeline_spawn(int fd);

#endif
