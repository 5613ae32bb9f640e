/* SPDX-License-Identifier: MIT */
/* The session id: one per launch, or AGENT_SESSION_ID; names the cgroup too. */
#ifndef AGENT_BWRAP_SESSION_H
#define AGENT_BWRAP_SESSION_H

/* Longest accepted AGENT_SESSION_ID; generated ids are UUIDs (36). */
#define SESSION_ID_MAX 64
#define SESSION_ENV "AGENT_SESSION_ID"

/* AGENT_SESSION_ID if set (-EINVAL when unusable), else a random UUID v4. */
int session_init(char id[SESSION_ID_MAX + 1]);
/* "agent-bwrap: session ID" on stderr. */
void session_announce(const char *id);

#endif
