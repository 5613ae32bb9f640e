/* SPDX-License-Identifier: MIT */
/*
 * Landlock, the sandbox's second wall, applied by agent-bwrap-init inside
 * the sandbox just before it execs the agent:
 *   files   read and execute everywhere; write, create, remove, rename only
 *           under /workspace, /tmp, /var/tmp and /dev/shm, and on the device
 *           nodes bubblewrap's --dev makes (null, zero, full, random,
 *           urandom, tty, ptmx, pts)
 *   TCP     (ABI >= 4) connect only to the relay port on loopback, no bind
 *   scoping (ABI >= 6) no abstract unix socket or signal out of the sandbox
 * An older kernel gets what its ABI offers and one line saying what is
 * missing; with require set, anything missing is fatal.
 */
#ifndef AGENT_BWRAP_LANDLOCK_H
#define AGENT_BWRAP_LANDLOCK_H

#include <stdbool.h>
#include <stdint.h>

/* The ABI that has every restriction above (scoping came in ABI 6, Linux 6.12). */
#define LANDLOCK_ABI_FULL 6

struct landlock_policy {
	uint16_t relay_port; /* 0: no TCP connect at all */
	bool require; /* --require-landlock: missing pieces are fatal */
	int abi_max; /* use at most this ABI (-1: what the kernel has; 0: none) */
};

/* The kernel's Landlock ABI, 0 when unavailable (errno then says why). */
int landlock_abi(void);
/* Restrict this process and what it execs. 0, or -errno when required and
 * not possible (printed). */
int landlock_apply(const struct landlock_policy *p);

#endif
