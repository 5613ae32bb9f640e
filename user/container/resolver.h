/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The resolver: one background thread that asks the runtimes about new
 * containers, so no event ever waits for a socket. The event thread puts
 * requests in (resolver_ask: a lock held for a copy, never during I/O) and
 * takes answers out (resolver_take); a full request queue refuses (the
 * container then stays id-only), and every answer, found or not, comes back
 * exactly once.
 */
#ifndef AS_RESOLVER_H
#define AS_RESOLVER_H

#include <stdint.h>
#include "cgpath.h"
#include "cmeta.h"

#define RESOLVER_QUEUE_MAX 1024 /* requests waiting: a burst of new containers; more are refused */
#define RESOLVER_SOCKETS_MAX 8 /* sockets per runtime */

struct resolver_config {
	const char *const *docker; /* socket paths, tried in order */
	size_t n_docker;
	const char *const *podman;
	size_t n_podman;
	const char *const *containerd;
	size_t n_containerd;
	const char *const *crio;
	size_t n_crio;
	uint32_t timeout_ms; /* per request to one socket */
	int verbose; /* say on stderr why a lookup failed */
};

struct resolver_answer {
	char id[CGPATH_SHORT_LEN + 1];
	struct cmeta *meta; /* NULL: no runtime knew it */
	struct resolver_answer *next;
};

struct resolver;

/* Start the thread; NULL with a one-line reason on stderr. */
struct resolver *resolver_start(const struct resolver_config *cfg);
/* Stop and join it (a request in flight ends within timeout_ms); frees
 * what was never taken. */
void resolver_stop(struct resolver *r);
/* Queue a lookup; 0, or -ENOSPC when the queue is full. */
int resolver_ask(struct resolver *r, const char *full_id, enum cgpath_type type);
/* Answers so far, oldest first (NULL: none); the caller frees each node
 * (not its meta, which it takes over). Cheap when there are none. */
struct resolver_answer *resolver_take(struct resolver *r);

/* One lookup, synchronously, as the thread does it: the sources in the
 * order the type suggests. For tests. */
struct cmeta *resolver_lookup(const struct resolver_config *cfg, const char *full_id,
			      enum cgpath_type type, char *err, size_t cap);

#endif /* AS_RESOLVER_H */
