/* SPDX-License-Identifier: MIT */
/*
 * bubblewrap's stderr (where EPERM surfaces) to the caller's stderr, as is,
 * and line by line to syslog with tag agent-sandbox, priority user.warning,
 * as the seed's `tee >(logger -t agent-sandbox -p user.warning)` did.
 */
#ifndef AGENT_BWRAP_SYSLOGTEE_H
#define AGENT_BWRAP_SYSLOGTEE_H

#include <stdbool.h>
#include <sys/types.h>

#define SYSLOGTEE_TAG "agent-sandbox"
/* A syslog line longer than this is sent in pieces (logger(1) splits at 1 KiB too). */
#define SYSLOGTEE_LINE_MAX 1024

struct syslogtee {
	const char *socket_path; /* AGENT_BWRAP_SYSLOG_SOCKET, /dev/log by default */
	int fd; /* connected socket, -1 when syslog is unavailable */
	int type; /* SOCK_DGRAM or SOCK_STREAM */
	pid_t pid; /* shown as agent-sandbox[pid] */
	char line[SYSLOGTEE_LINE_MAX];
	size_t len;
	bool warned;
};

/* Connect to syslog. Never fails: without syslog it warns once and tees to stderr only. */
void syslogtee_open(struct syslogtee *t, const char *socket_path);
/* Copy fd to stderr and syslog until EOF. 0 or -errno (printed) of reading fd. */
int syslogtee_pump(struct syslogtee *t, int fd);
void syslogtee_close(struct syslogtee *t);

#endif
