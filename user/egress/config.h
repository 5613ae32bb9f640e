/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * agent-egress's configuration: the allowlist and the limits, from a YAML
 * file (--config), plus the --allow entries of the command line, which every
 * reload keeps. Keys:
 *
 *   allow: [HOST[:PORT], *.SUFFIX[:PORT], ADDR[/PREFIX][:PORT], ...]
 *   connections_per_session: N   connections_total: N
 *   idle_timeout_ms: N           connect_timeout_ms: N
 */
#ifndef AS_EGRESS_CONFIG_H
#define AS_EGRESS_CONFIG_H

#include "allow.h"

/* Concurrent connections of one agent session: npm and pip open up to 16
 * sockets at once (npm maxsockets, pip's pool); four times that. */
#define EGRESS_PER_SESSION_DEFAULT 64
/* Concurrent connections in all: two descriptors each, well inside the
 * 1024 descriptors of the default RLIMIT_NOFILE soft limit. */
#define EGRESS_TOTAL_DEFAULT 400
/* No byte either way for this long closes a connection (request head included). */
#define EGRESS_IDLE_MS_DEFAULT 60000
/* Upstream TCP handshake: Linux's own SYN retries give up after ~130 s; an agent waits 10. */
#define EGRESS_CONNECT_MS_DEFAULT 10000
/* Upper bound of every limit key: keeps the arithmetic on them in range. */
#define EGRESS_LIMIT_MAX 100000000u

struct egress_limits {
	unsigned per_session;
	unsigned total;
	unsigned idle_ms;
	unsigned connect_ms;
};

struct egress_config {
	struct egress_allowlist allow;
	struct egress_limits lim;
};

void egress_config_defaults(struct egress_config *c);
/* Load path (NULL: none) on top of the defaults and the command line's
 * entries. 0, or -EINVAL with every error printed as FILE:LINE:COL: ... */
int egress_config_load(struct egress_config *c, const char *path, char *const *cli_allow,
		       size_t n_cli);
void egress_config_free(struct egress_config *c);

#endif
