/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Every decision of agent-egress is one Falco JSON line on stdout (source
 * "agent-egress"): "Agent Egress Allowed" (Informational) when an allowed
 * connection ends, with its bytes and duration; "Agent Egress Denied"
 * (Warning, Error for IP literals and special ranges, Critical for cloud
 * metadata) when a request is refused.
 */
#ifndef AS_EGRESS_ALERT_H
#define AS_EGRESS_ALERT_H

#include <stdint.h>

#include "peer.h"

#define EGRESS_RULE_ALLOWED "Agent Egress Allowed"
#define EGRESS_RULE_DENIED "Agent Egress Denied"
#define EGRESS_SOURCE "agent-egress"

struct egress_decision {
	int allowed;
	int prio; /* enum engine_priority */
	const char *host; /* "" before a request was read */
	unsigned port;
	const char *address; /* resolved address connected to, or "" */
	const char *reason; /* the allow entry, or why not */
	const char *error; /* an allowed connection's failure, or "" */
	uint64_t bytes_out, bytes_in; /* client to upstream, upstream to client */
	uint64_t duration_ms;
	const struct egress_peer *peer;
};

/* Call once: the hostname every line carries. */
void egress_alert_init(void);
/* Write the line for d to stdout. */
void egress_alert_emit(const struct egress_decision *d);

#endif
