/* SPDX-License-Identifier: MIT */
/* Diagnostics of agent-bwrap: one line each on stderr, prefixed "agent-bwrap: ". */
#ifndef AGENT_BWRAP_BWLOG_H
#define AGENT_BWRAP_BWLOG_H

#define BWLOG_PREFIX "agent-bwrap: "

void bwlog_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
