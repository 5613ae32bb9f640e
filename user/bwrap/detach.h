/* SPDX-License-Identifier: MIT */
/*
 * A helper process of the sandbox's init (the relay, the lifeline): forked
 * twice, so that it is reparented to the sandbox's PID 1 (bubblewrap) and the
 * agent the init then execs never sees it among its children (a shell's
 * wait, waitpid(-1)). Forked before Landlock applies, it is outside the
 * agent's domain: on ABI 6 the agent cannot signal it.
 */
#ifndef AGENT_BWRAP_DETACH_H
#define AGENT_BWRAP_DETACH_H

/*
 * Run fn(arg) in a detached grandchild named name (its proc.name from its
 * first instant on), stdin and stdout on /dev/null; it exits when fn returns.
 * 0 or -errno (printed, prefixed with what).
 */
int detach_spawn(const char *what, const char *name, void (*fn)(void *arg), void *arg);

#endif
