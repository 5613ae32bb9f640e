/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Diagnostics of agent-egress: one line each on stderr, "agent-egress: ...". stdout is JSON. */
#ifndef AS_EGRESS_ELOG_H
#define AS_EGRESS_ELOG_H

#define ELOG_PREFIX "agent-egress: "

void elog(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
