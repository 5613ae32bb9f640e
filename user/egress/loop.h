/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The proxy's one thread of I/O: a poll(2) loop over the listening socket,
 * a signalfd (SIGHUP reloads, SIGTERM/SIGINT stop), the resolver's pipe and
 * every connection's descriptors. Nothing in it blocks: a client that
 * stops reading fills its own buffers and waits alone.
 */
#ifndef AS_EGRESS_LOOP_H
#define AS_EGRESS_LOOP_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "conn.h"
#include "resolve.h"

/* The listening socket's mode: any local user may ask; the allowlist decides. */
#define EGRESS_SOCKET_MODE 0666
/* Connections accepted per loop round, so that a flood does not starve the rest. */
#define EGRESS_ACCEPT_BATCH 64
/* Descriptors kept aside from the connection budget: stdio, listener, signalfd, pipes. */
#define EGRESS_FD_RESERVE 32

struct egress_proxy {
	const char *socket_path;
	const char *config_path; /* NULL: command-line entries only */
	char *const *cli_allow;
	size_t n_cli;
	struct egress_config cfg;
	unsigned fd_budget; /* connections the descriptor limit allows */
	int lfd, sfd;
	struct egress_resolver resolver;
	struct egress_conn **conns;
	size_t n, cap;
	struct pollfd *pfd;
	size_t pfd_cap;
	uint64_t next_id;
};

/* Listen, set up the resolver and signals. 0 or -errno (printed). */
int egress_loop_init(struct egress_proxy *p);
/* Run until SIGTERM/SIGINT; 0, or -errno of a failure of the loop itself. */
int egress_loop_run(struct egress_proxy *p);
void egress_loop_fini(struct egress_proxy *p);

#endif
