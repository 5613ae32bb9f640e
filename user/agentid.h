/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Which lineage entries are agents (agent.ancestor.*, agent.sandboxed, the
 * kernel's lineage pre-filter). Two ways, from the configuration:
 *   agents.exe_paths: [/usr/bin/claude, ...]  pinned executables: an entry
 *       is an agent when its executable is one of them (same inode, or the
 *       same path), whatever it is called; a process that merely calls
 *       itself claude is not one;
 *   agents.names: [claude, node, agent-bwrap, mcp-launch]  (the default)
 *       used only when no executable is pinned: an entry is an agent when
 *       its exec-time name is one of them.
 */
#ifndef AS_AGENTID_H
#define AS_AGENTID_H

#include <stddef.h>
#include <stdint.h>
#include "abi.h"

#define AGENTID_MAX 64 /* names or pinned paths: the kernel's filter maps hold 64 each */
/* Files pinned paths led to earlier in this run (agentid_keep_seen), kept as agents */
#define AGENTID_SEEN_MAX 64
#define AGENTID_DEFAULT_NAMES { "claude", "node", "agent-bwrap", "mcp-launch" }

struct agentid_pin {
	char *path; /* as configured */
	char *real; /* where its links led when configured (realpath); NULL: path itself */
	uint64_t ino; /* 0: the path did not exist when configured */
	uint32_t dev; /* the kernel's s_dev (kdev.h), new_encode_dev() form */
	/* its directory's (0: missing when configured), for the kernel's
	 * test of where an executable is (a pin replaced by a new file) */
	uint32_t dir_dev;
	uint64_t dir_ino;
};

/* Replace the agent set; paths must be absolute (-EINVAL, one line on
 * stderr naming it). Names longer than a comm (15 bytes) never match. A
 * pinned path that the set being replaced had too, and that leads to
 * another file now, leaves its earlier file an agent (agentid_seen). */
int agentid_set(char *const *names, size_t nnames, char *const *paths, size_t npaths);
void agentid_free(void);
/* Is this lineage entry (exe: its path, NULL unknown) an agent? */
int agentid_is_agent(const struct as_lin_ent *e, const char *exe);
/* Are agents pinned by executable (agents.exe_paths)? Without pins the
 * exe argument of agentid_is_agent is not read. */
int agentid_pinned(void);
/* Changes whenever the agent set does (agentid_set, agentid_free); never 0.
 * What was worked out from the set is stale when its generation differs. */
uint32_t agentid_generation(void);
/* Without pins: the index of the nearest agent in the lineage (entry 0, the
 * process itself, first), or -1; as agentid_is_agent on each entry. */
int agentid_nearest_by_name(const struct as_lineage *l);
/* Where the pinned paths led when agentid_set resolved them, and where
 * they lead now (links, the file's and its directory's inode and mount, by
 * statx alone): when the two differ, a pinned path was updated (a link
 * moved to a new version, a file replaced or installed) and the pins need
 * setting again for the kernel's maps to match the new file. */
uint64_t agentid_pins_sig(void);
uint64_t agentid_pins_now(void);
/* The pinned executables ([0..n)), NULL when none. */
const struct agentid_pin *agentid_pins(size_t *n);
/* The files pinned paths led to earlier in this run and lead elsewhere now
 * (an agent updated while it ran): agents still, NULL when none. */
const struct agentid_pin *agentid_seen(size_t *n);
/* The names the kernel pre-filter tests for "an agent is in the lineage":
 * the configured names, or with pins the pinned files' names (the kernel
 * also matches pins by inode). Returns how many, at most max. */
size_t agentid_filter_names(char (*out)[AS_COMM_LEN], size_t max);

#endif /* AS_AGENTID_H */
