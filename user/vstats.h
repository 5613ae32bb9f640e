/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef AS_VSTATS_H
#define AS_VSTATS_H

#include <bpf/libbpf.h>

/* Set to 1: load the programs on one thread and print, per program, what
 * the kernel's verifier reports of it (time, instructions processed,
 * states): start-up is mostly verification, and bpftool 7.1 does not show
 * it. A developer's switch, as AGENT_SENTINEL_SERIAL_LOAD is. */
#define VSTATS_ENV "AGENT_SENTINEL_VERIFIER_STATS"

/* Is the switch on? */
int vstats_wanted(void);
/* Ask the kernel for each program's statistics (before the object loads);
 * 0, or -ENOMEM / -E2BIG (more programs than it keeps logs for). */
int vstats_arm(struct bpf_object *obj);
/* After the load: one stderr line per program, then the totals. */
void vstats_report(struct bpf_object *obj);
/* Free what vstats_arm took (after the load). */
void vstats_free(void);

#endif /* AS_VSTATS_H */
