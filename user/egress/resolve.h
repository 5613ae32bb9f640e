/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Name resolution off the event loop: getaddrinfo(3) blocks, so a few
 * worker threads run it and hand each finished job back through a pipe the
 * loop polls. A job outlives the connection that asked (the loop drops
 * answers whose connection is gone).
 */
#ifndef AS_EGRESS_RESOLVE_H
#define AS_EGRESS_RESOLVE_H

#include <netdb.h>
#include <pthread.h>
#include <stdint.h>

#include "allow.h"

/* Worker threads: lookups are mostly answered from /etc/hosts or a local
 * cache in well under a millisecond; four keep one slow server from
 * holding up the rest (glibc's getaddrinfo_a allows up to 20). */
#define EGRESS_RESOLVERS 4

struct egress_resolve_job {
	struct egress_resolve_job *next; /* queue link */
	uint64_t conn_id; /* who asked */
	char host[EGRESS_HOST_MAX + 1];
	int gai_err; /* getaddrinfo's result */
	struct addrinfo *res;
};

struct egress_resolver {
	pthread_t threads[EGRESS_RESOLVERS];
	pthread_mutex_t lock;
	pthread_cond_t more;
	struct egress_resolve_job *head, *tail;
	int done_rd, done_wr; /* finished jobs, one pointer per write */
};

/* 0 or -errno (printed). */
int egress_resolve_init(struct egress_resolver *r);
/* Queue a lookup of host for connection id. 0 or -ENOMEM. */
int egress_resolve_start(struct egress_resolver *r, uint64_t id, const char *host);
/* A finished job, or NULL when none is waiting (done_rd is non-blocking). */
struct egress_resolve_job *egress_resolve_next(struct egress_resolver *r);
void egress_resolve_free(struct egress_resolve_job *j);

#endif
