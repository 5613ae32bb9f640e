/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The container cache: one entry per container some live process is in,
 * keyed by the short id, owned by the event thread (no lock: the resolver
 * thread never touches it; results reach it through container.c's queue).
 *
 * Bounded twice: an entry lives only while processes are in its container
 * (the process table counts them in and out, and the entry and its
 * metadata are freed when the count reaches zero), and there are at most
 * max_entries of them (a container beyond that gets no entry: its events
 * carry the id and <NA>, and the refusal is counted).
 */
#ifndef AS_CCACHE_H
#define AS_CCACHE_H

#include <stdint.h>
#include "cgpath.h"
#include "cmeta.h"

#define CCACHE_MAX_ENTRIES 65536 /* live containers on one host; kubelet's default cap is 110 pods */
#define CCACHE_DEFAULT_ENTRIES 4096

enum ccache_state {
	CCACHE_NEW, /* not yet asked for */
	CCACHE_PENDING, /* the resolver has it */
	CCACHE_RESOLVED, /* meta set */
	CCACHE_FAILED, /* no runtime knew it, or none answered in time */
};

struct ccache_entry {
	char id[CGPATH_SHORT_LEN + 1];
	char full_id[CGPATH_ID_LEN + 1]; /* "" until an exec's cgroup path gave it */
	uint8_t type; /* enum cgpath_type from the cgroup path */
	uint8_t state; /* enum ccache_state */
	uint8_t used;
	uint8_t tries; /* lookups asked for (container.c: CONTAINER_LOOKUP_TRIES) */
	uint8_t _pad0[4];
	uint32_t refs; /* live processes in the container */
	uint32_t _pad1;
	uint64_t retry_ns; /* CLOCK_MONOTONIC ns from which a failed one may be asked again */
	struct cmeta *meta; /* CCACHE_RESOLVED */
};

struct ccache_stats {
	uint64_t added, evicted, refused, resolved, failed;
};

struct ccache;

struct ccache *ccache_new(uint32_t max_entries);
void ccache_free(struct ccache *c);
/*
 * One more process in container short_id. Creates the entry when needed
 * (NULL when the cache is full, or for a fork into a container that has no
 * entry and so no full id). *created says the entry is new: ask for it.
 */
struct ccache_entry *ccache_ref(struct ccache *c, const char *short_id, const char *full_id,
				unsigned type, int *created);
/* One process less; the entry goes at zero. */
void ccache_unref(struct ccache *c, const char *short_id);
struct ccache_entry *ccache_get(const struct ccache *c, const char *short_id);
/* A resolver's answer (meta NULL: failed). Taken over: freed when the
 * container has gone meanwhile. */
void ccache_publish(struct ccache *c, const char *short_id, struct cmeta *meta);
uint32_t ccache_count(const struct ccache *c);
/* Call fn on every entry (it may change the entry's state, not add or remove). */
void ccache_each(struct ccache *c, void (*fn)(struct ccache_entry *e, void *ctx), void *ctx);
struct ccache_stats ccache_stats(const struct ccache *c);

#endif /* AS_CCACHE_H */
