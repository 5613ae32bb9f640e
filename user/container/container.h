/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Container and Kubernetes metadata for the fields (container.name,
 * container.image*, container.labels, k8s.pod.*, ...): the process table
 * reports processes entering and leaving containers, a new container is
 * handed to the resolver thread, and its answer lands in the cache, which
 * the fields read. Everything here runs on the event thread and never
 * waits for a runtime: a container not (yet) resolved has its id and type,
 * and <NA> for the rest.
 *
 * Without container_start (replays, rule tests) every lookup finds nothing.
 */
#ifndef AS_CONTAINER_H
#define AS_CONTAINER_H

#include <stdbool.h>
#include <stdint.h>
#include "ccache.h"
#include "cmeta.h"
#include "proctable.h"

struct container_config {
	bool enabled;
	char **docker_sockets;
	size_t n_docker_sockets;
	char **podman_sockets;
	size_t n_podman_sockets;
	char **containerd_sockets;
	size_t n_containerd_sockets;
	char **crio_sockets;
	size_t n_crio_sockets;
	uint32_t timeout_ms;
	uint32_t max_entries;
	int verbose;
};

/* Start the cache and hook it to pt (before the table is seeded). 0, or -1
 * (said on stderr); disabled is 0 and does nothing. */
int container_start(const struct container_config *cfg, struct proctable *pt);
/* Start the resolver thread and ask for every container seen so far. Call
 * it after privileges are dropped: a thread keeps the capabilities it was
 * created with. 0, or -1 (said on stderr: containers then stay id-only). */
int container_resolve(void);
void container_stop(struct proctable *pt);
/* Once a second from the event loop: ask again for containers whose lookup
 * failed (a runtime busy starting the very container answers late). */
void container_tick(void);
/* The metadata of a container by short id, NULL while unknown. */
const struct cmeta *container_meta(const char *short_id);
/* The 64-hex id of a container by short id, NULL when not cached. */
const char *container_full_id(const char *short_id);
/* container.type: the runtime that answered, else what the cgroup path said. */
const char *container_type_name(const char *short_id, unsigned cgroup_type);
/* What the cache holds and has done, for -v and the tests. */
uint32_t container_cached(void);
struct ccache_stats container_stats(void);

/* The process table hook (exported for the tests). */
void container_on_proc(void *ctx, const char *short_id, const char *full_id, unsigned type,
		       int delta);

#endif /* AS_CONTAINER_H */
