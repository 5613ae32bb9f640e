/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Who is on the other end of an egress connection: the pid from
 * SO_PEERCRED, and from /proc (procscan, as agent-sentinel's snapshot reads
 * it) its name, executable, agent session and cgroup.
 */
#ifndef AS_EGRESS_PEER_H
#define AS_EGRESS_PEER_H

#include <sys/types.h>

#include "abi.h"

/* Shown for a session or cgroup that /proc does not give (a peer already gone). */
#define EGRESS_PEER_UNKNOWN ""

struct egress_peer {
	pid_t pid; /* 0: SO_PEERCRED failed */
	uid_t uid;
	char name[AS_COMM_LEN];
	char exe[AS_PATH_MAX];
	char session[AS_SESSION_MAX];
	char cgroup[AS_CGROUP_MAX];
};

/* Fill p for the peer of the connected unix socket fd (never fails: unknowns are ""). */
void egress_peer_read(int fd, struct egress_peer *p);

#endif
