// SPDX-License-Identifier: MIT
/* Session id: taken from AGENT_SESSION_ID or generated (UUID v4 from getrandom). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "bwlog.h"
#include "session.h"

#define SESSION_UUID_BYTES 16

/* The id becomes a cgroup directory name: letters, digits, '-', '_', '.' not first. */
static int session_valid(const char *id)
{
	size_t n = strlen(id);

	if (n == 0 || n > SESSION_ID_MAX || id[0] == '.')
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = id[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '-' || c == '_' || c == '.'))
			return 0;
	}
	return 1;
}

int session_init(char id[SESSION_ID_MAX + 1])
{
	unsigned char b[SESSION_UUID_BYTES];
	const char *env = getenv(SESSION_ENV);
	ssize_t n;

	if (env) {
		if (!session_valid(env)) {
			bwlog_err("%s must be 1 to %d letters, digits, '-', '_' or '.' (not first)",
				  SESSION_ENV, SESSION_ID_MAX);
			return -EINVAL;
		}
		strcpy(id, env);
		return 0;
	}
	do
		n = getrandom(b, sizeof(b), 0);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(b)) {
		int err = n < 0 ? -errno : -EIO;

		bwlog_err("session id: getrandom failed: %s", strerror(-err));
		return err;
	}
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40); /* version 4 */
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80); /* RFC 4122 variant */
	snprintf(id, SESSION_ID_MAX + 1,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
		 b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
		 b[15]);
	return 0;
}

void session_announce(const char *id)
{
	bwlog_err("session %s", id);
}
