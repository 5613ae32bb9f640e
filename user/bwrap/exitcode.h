/* SPDX-License-Identifier: MIT */
/*
 * Exit codes of agent-bwrap. 1 and 64 are the seed launcher's; the others
 * follow sysexits(3) where one fits, one distinct code per kind of bad input.
 * Any other status is the sandboxed command's own (128 + N for signal N).
 */
#ifndef AGENT_BWRAP_EXITCODE_H
#define AGENT_BWRAP_EXITCODE_H

enum exitcode {
	EXITCODE_OK = 0,
	EXITCODE_EGRESS = 1, /* seed: egress socket missing (hint: USE_NETWORK=0) */
	EXITCODE_USAGE = 2, /* bad option, bad limit, bad AGENT_SESSION_ID */
	EXITCODE_WORKSPACE_MISSING = 64, /* seed: WORK_DIR does not exist */
	EXITCODE_WORKSPACE_NOT_DIR = 65, /* WORK_DIR exists but is not a directory */
	EXITCODE_SECCOMP_MISSING = 66, /* SECCOMP_FILE missing or unreadable */
	EXITCODE_SECCOMP_MALFORMED = 67, /* not JSON, or not an OCI seccomp profile */
	EXITCODE_SECCOMP_UNSUPPORTED = 68, /* unknown syscall, action, arch or operator */
	EXITCODE_BWRAP_MISSING = 69, /* bubblewrap not found or not executable */
	EXITCODE_INTERNAL = 70, /* memfd, pipe, fork, libseccomp export failed */
	EXITCODE_CGROUP = 71, /* agent-sandbox cgroup could not be set up */
	EXITCODE_LANDLOCK = 72, /* --require-landlock and Landlock cannot do it all (inside) */
	EXITCODE_INIT_MISSING = 73, /* agent-bwrap-init not found or not executable */
	EXITCODE_SIGNAL_BASE = 128, /* sandbox killed by signal N: 128 + N */
};

#endif
