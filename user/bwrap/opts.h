/* SPDX-License-Identifier: MIT */
/* Command line and environment of agent-bwrap, and the checks on them. */
#ifndef AGENT_BWRAP_OPTS_H
#define AGENT_BWRAP_OPTS_H

#include <limits.h>
#include <stdbool.h>

/* The seed launcher's defaults. */
#define OPTS_EGRESS_SOCK_DEFAULT "/run/agent-egress.sock"
#define OPTS_AGENT_CMD_DEFAULT "/usr/local/bin/claude"
#define OPTS_SYSLOG_SOCKET_DEFAULT "/dev/log"
#define OPTS_BWRAP_DEFAULT "bwrap"
#ifndef OPTS_SECCOMP_FILE_DEFAULT /* set by CMake to the installed profile */
#define OPTS_SECCOMP_FILE_DEFAULT "/usr/local/share/agent-sentinel/seccomp/agent.json"
#endif

#ifndef OPTS_INIT_DEFAULT /* set by CMake to the installed agent-bwrap-init */
#define OPTS_INIT_DEFAULT "/usr/local/libexec/agent-sentinel/agent-bwrap-init"
#endif
#define OPTS_INIT_NAME "agent-bwrap-init" /* looked for beside agent-bwrap first (build tree) */

#define OPTS_LIMIT_NONE (-1LL)

struct opts {
	const char *workdir; /* as given (default: the current directory) */
	char workdir_abs[PATH_MAX]; /* set by opts_check_workspace */
	const char *egress_sock; /* EGRESS_SOCK */
	const char *seccomp_file; /* SECCOMP_FILE */
	const char *syslog_socket; /* AGENT_BWRAP_SYSLOG_SOCKET */
	const char *bwrap; /* BWRAP, a path or a name looked up in PATH */
	char bwrap_path[PATH_MAX]; /* set by opts_find_bwrap */
	bool network; /* USE_NETWORK != "0": egress socket only */
	bool dry_run; /* print the bubblewrap command line and stop */
	long long memory_max; /* bytes, or OPTS_LIMIT_NONE */
	long long pids_max; /* tasks, or OPTS_LIMIT_NONE */
	unsigned relay_port; /* --relay-port: the in-sandbox proxy address 127.0.0.1:PORT */
	bool require_landlock; /* --require-landlock */
	const char *landlock_abi; /* AGENT_BWRAP_LANDLOCK_ABI: use at most this ABI, or NULL */
	char init_path[PATH_MAX]; /* set by opts_find_init */
	char *const *cmd; /* NULL-terminated command run in the sandbox */
};

/* Returns 0, 1 when --help was printed, or -EINVAL (message printed). */
int opts_parse(struct opts *o, int argc, char **argv);
/* -ENOENT when WORK_DIR is missing, -ENOTDIR when it is not a directory. */
int opts_check_workspace(struct opts *o);
/* -ENOENT when networking is on and EGRESS_SOCK is not a socket. */
int opts_check_egress(const struct opts *o);
/* -ENOENT/-EACCES when agent-bwrap-init cannot be found (AGENT_BWRAP_INIT,
 * beside agent-bwrap, OPTS_INIT_DEFAULT). */
int opts_find_init(struct opts *o);
/* -ENOENT/-EACCES when bubblewrap cannot be found or executed. */
int opts_find_bwrap(struct opts *o);

#endif
