/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The process table: what an event does not carry (command line, exe, cwd,
 * cgroup paths, container id, agent session), keyed by pid. Seeded from /proc
 * at start, updated from exec/fork/exit events, entries freed on exit, so its
 * size follows the live process set.
 */
#ifndef AS_PROCTABLE_H
#define AS_PROCTABLE_H

#include <stdint.h>
#include <stddef.h>
#include "event.h"

/* Live processes tracked at most; pid_max is 4194304 but a host with more
 * live processes than this is far outside what we watch. A full table
 * evicts nothing: new processes then go untracked and are counted. */
#define PROCTABLE_MAX_ENTRIES 131072
#define PROCTABLE_CONTAINER_ID_LEN 12 /* Falco's short container id */
/* the exec's flags an entry keeps, for proc.is_exe_* of later events */
#define PROCTABLE_EXE_FLAGS \
	(AS_XF_EXE_MEMFD | AS_XF_EXE_DELETED | AS_XF_EXE_WRITABLE | AS_XF_EXE_UPPER | AS_XF_LD_ENV | \
	 AS_XF_INTERP_NOLINK)

struct proc_entry {
	uint32_t pid;
	uint32_t ppid;
	uint64_t cgroup_id; /* v2 id when the strings below were taken */
	uint64_t start_ts; /* wall-clock ns of the exec (or the /proc snapshot) */
	char comm[AS_COMM_LEN];
	char *exe; /* absolute path of the executable, "" unknown */
	char *args; /* argv, NUL-separated, args_len bytes */
	uint32_t args_len;
	char *cwd; /* cwd at exec */
	char *cgroup; /* cgroup v2 path ("/" root, "" unknown) */
	char *cgroups; /* every hierarchy: "name=path" separated by spaces */
	char container_id[PROCTABLE_CONTAINER_ID_LEN + 1]; /* "host" outside containers */
	char session[AS_SESSION_MAX]; /* agent session id, "" none */
	uint32_t exe_flags; /* AS_XF_EXE_* of the exec */
	/* the lineage (bpf/events.h): the exec's or /proc's, a fork's derived
	 * from its creator's as the kernel derives it; NULL unknown */
	struct as_lineage *lin;
	/* agentid_nearest_by_name(lin), worked out when lin is set (a rule on
	 * the agent tree asks it on every event of the process): valid while
	 * lin_agent_gen is agentid_generation(); 0 when agents are pinned by
	 * executable (their paths change with the table) */
	uint32_t lin_agent_gen;
	int16_t lin_agent;
	uint8_t used; /* slot state, private to proctable.c */
	uint8_t container_type; /* enum cgpath_type: how container_id was recognised */
};

struct proctable;

struct proctable *proctable_new(uint32_t max_entries);
void proctable_free(struct proctable *pt);
const struct proc_entry *proctable_lookup(const struct proctable *pt, uint32_t pid);
/* Apply an event before it is evaluated: exec and proc snapshots replace the
 * process's strings, fork copies the parent's entry to the child. */
int proctable_apply(struct proctable *pt, const struct event *ev);
/* Apply an event after it is evaluated: exit frees the process's entry. */
void proctable_retire(struct proctable *pt, const struct event *ev);
/* Whether proctable_apply / proctable_retire do anything for an event of
 * this type: most events (opens) change nothing, and the caller skips two
 * calls per event. */
static inline int proctable_applies(unsigned type)
{
	return type == AS_EV_EXEC || type == AS_EV_PROC || type == AS_EV_FORK || type == AS_EV_SYS;
}

static inline int proctable_retires(unsigned type)
{
	return type == AS_EV_EXIT;
}
uint32_t proctable_count(const struct proctable *pt);
/* agent-sentinel itself as the processes it watches name it (a signal's
 * target): its pid and process group in the host's pid namespace, and
 * whether it is running (its threads can be asked of /proc) or a
 * recording's run is replayed. pid 0: unknown, nothing names it. */
struct proctable_self {
	uint32_t pid;
	uint32_t pgid;
	int live;
};
void proctable_set_self(struct proctable *pt, const struct proctable_self *self);
const struct proctable_self *proctable_self(const struct proctable *pt);
/* The path of the executable with this identity (a lineage entry's), as the
 * last exec or /proc snapshot of it said; NULL when not seen. Remembered for
 * PROCTABLE_EXE_CACHE identities at most. */
#define PROCTABLE_EXE_CACHE 4096
const char *proctable_exe_path(const struct proctable *pt, uint32_t dev, uint64_t ino);
uint64_t proctable_untracked(const struct proctable *pt); /* inserts refused: table full */

/* Parse Falco's container id from a cgroup path list; writes "host" when none. */
void proctable_container_id(const char *cgroups, char out[PROCTABLE_CONTAINER_ID_LEN + 1]);

/*
 * Told whenever a process enters a container (delta +1: at the exec or fork
 * that gives an entry that container id; full_id is the 64-hex id when the
 * cgroup path gave it, NULL for a fork, which copies its parent's) or leaves
 * it (delta -1: exit, or an exec into another cgroup). The container module
 * counts live processes per container with it, and forgets a container when
 * its count drops to zero. Never called for "host"; not called by
 * proctable_free.
 */
typedef void (*proctable_container_fn)(void *ctx, const char *short_id, const char *full_id,
				       unsigned type, int delta);
void proctable_on_container(struct proctable *pt, proctable_container_fn fn, void *ctx);

#endif /* AS_PROCTABLE_H */
