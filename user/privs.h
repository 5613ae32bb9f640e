/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Once the programs are attached, agent-sentinel keeps only the capabilities
 * it still uses: CAP_BPF (map reads, the drop counters), CAP_PERFMON
 * (attaching programs again on a rules reload), CAP_SYS_PTRACE and
 * CAP_DAC_READ_SEARCH (/proc of other users' processes). On a kernel older
 * than 5.8, which has no CAP_BPF/CAP_PERFMON, CAP_SYS_ADMIN stands in for
 * both. Everything else leaves the effective, permitted, inheritable and
 * bounding sets, so no child (a program output) can get it back.
 */
#ifndef AS_PRIVS_H
#define AS_PRIVS_H

#include <stdint.h>

/* 0, or -errno after saying why (the agent goes on with what it has). */
int privs_drop(void);
/* The effective set of this process (for logs and tests). */
uint64_t privs_effective(void);
/* Can this process load and attach tracing programs? (root, CAP_BPF with
 * CAP_PERFMON, or CAP_SYS_ADMIN) */
int privs_can_trace(void);

#endif /* AS_PRIVS_H */
