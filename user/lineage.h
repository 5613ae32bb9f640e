/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Lineage in userspace: the same rules as the kernel's (bpf/proc.bpf.c,
 * struct as_lineage in bpf/events.h), for the two places that build one
 * without the kernel: a fork's child in the process table, and a /proc
 * snapshot of a process alive at start.
 */
#ifndef AS_LINEAGE_H
#define AS_LINEAGE_H

#include <stdint.h>
#include "abi.h"

/* dst = src with a new entry in front (its slot e[0] left as src's e[0]);
 * dst may be src. Full: the oldest entry not named gives way, AS_LIN_TRUNC. */
void lineage_shift(struct as_lineage *dst, const struct as_lineage *src);
/* The child of a fork: src's chain with the child in front, forked. */
void lineage_fork(struct as_lineage *dst, const struct as_lineage *src, uint32_t child_pid,
		  uint64_t child_start_ns);
/* Index of the first entry that is not pid's own (its creator), or -1. */
int lineage_creator(const struct as_lineage *l, uint32_t pid);

#endif /* AS_LINEAGE_H */
