/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * One client connection of agent-egress and its states:
 *   HEAD     reading the request head (idle timeout)
 *   RESOLVE  waiting for the resolver threads
 *   CONNECT  non-blocking connect to each resolved address in turn (connect timeout)
 *   TUNNEL   bytes both ways through two pumps (idle timeout)
 * A refusal answers with an HTTP status and closes; every decision is one
 * alert line (alert.h).
 */
#ifndef AS_EGRESS_CONN_H
#define AS_EGRESS_CONN_H

#include <netinet/in.h>
#include <stdint.h>

#include "allow.h"
#include "config.h"
#include "http.h"
#include "peer.h"
#include "pump.h"
#include "resolve.h"

/* Addresses of one name tried in turn (getaddrinfo answers rarely hold more). */
#define EGRESS_ADDRS_MAX 8
#define EGRESS_ADDR_TEXT_MAX 46 /* INET6_ADDRSTRLEN */

enum egress_state { EGRESS_HEAD, EGRESS_RESOLVE, EGRESS_CONNECT, EGRESS_TUNNEL };

struct egress_conn {
	uint64_t id;
	enum egress_state st;
	int cfd, ufd; /* client, upstream (-1 until CONNECT) */
	uint64_t start_ms, deadline_ms; /* CLOCK_MONOTONIC */
	struct egress_peer peer;
	char head[EGRESS_HEAD_MAX];
	size_t head_used;
	struct egress_request req;
	struct sockaddr_in6 addrs[EGRESS_ADDRS_MAX]; /* IPv4 as mapped IPv6 */
	unsigned n_addrs, next_addr;
	char address[EGRESS_ADDR_TEXT_MAX];
	char allowed_by[EGRESS_ENTRY_TEXT_MAX + 32]; /* the reason of an allowed connection */
	char error[128];
	size_t reply_len; /* of the proxy's own "200" in down */
	struct egress_pump up, down; /* client to upstream, upstream to client */
};

/* What a connection's step needs from the proxy. */
struct egress_ctx {
	const struct egress_config *cfg;
	struct egress_resolver *resolver;
	uint64_t now_ms;
};

/* Steps: each returns 0 to keep the connection, 1 when it is finished (the
 * caller closes it with egress_conn_close). */
int egress_conn_on_head(struct egress_conn *c, const struct egress_ctx *x);
int egress_conn_on_resolved(struct egress_conn *c, const struct egress_ctx *x,
			    const struct egress_resolve_job *j);
int egress_conn_on_connect(struct egress_conn *c, const struct egress_ctx *x);
/* hup: poll reported POLLHUP or POLLERR on a side. */
int egress_conn_on_tunnel(struct egress_conn *c, const struct egress_ctx *x, int hup);
int egress_conn_on_timeout(struct egress_conn *c, const struct egress_ctx *x);
/* Refuse before a request was read (the connection limits). */
void egress_conn_refuse(struct egress_conn *c, const struct egress_ctx *x, int status,
			const char *reason);
/* Emit the allowed line if it was allowed, close the descriptors, free. */
void egress_conn_close(struct egress_conn *c, const struct egress_ctx *x);

#endif
