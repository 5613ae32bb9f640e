/* SPDX-License-Identifier: MIT */
/*
 * The session cgroup: <current cgroup>/agent-sandbox/<session> in the cgroup v2
 * hierarchy (or, without v2, the v1 name=systemd one), so that a monitor's
 * proc.cgroup contains "agent-sandbox"; plus the v1 memory/pids hierarchies
 * when a limit is asked for and v2 does not offer that controller.
 */
#ifndef AGENT_BWRAP_CGROUP_H
#define AGENT_BWRAP_CGROUP_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

#define CGROUP_SANDBOX_DIR "agent-sandbox"
/* v2 (or name=systemd) for placement, plus one v1 hierarchy per limit. */
#define CGROUP_PLACES_MAX 3

struct cgroup_dir {
	char path[PATH_MAX]; /* .../agent-sandbox/<session> */
	bool created; /* by us: removed by cgroup_release */
};

struct cgroup {
	struct cgroup_dir dirs[CGROUP_PLACES_MAX];
	size_t n;
};

struct cgroup_limits {
	long long memory_max; /* bytes, < 0 for none */
	long long pids_max; /* tasks, < 0 for none */
};

/* Create the session cgroup(s) and write the limits. 0 or -errno (printed). */
int cgroup_prepare(struct cgroup *cg, const char *session, const struct cgroup_limits *lim);
/* Move pid into every session cgroup. 0 or -errno (printed). */
int cgroup_attach(const struct cgroup *cg, pid_t pid);
/* Remove the session cgroups this launch created, once empty. */
void cgroup_release(struct cgroup *cg);

#endif
