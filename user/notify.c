// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include "notify.h"

int notify_send(const char *state)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t plen;
	socklen_t salen;
	int fd, err = 0;

	if (!path || !*path)
		return 0;
	plen = strlen(path);
	if ((path[0] != '/' && path[0] != '@') || plen >= sizeof(sa.sun_path))
		return -EINVAL;
	memcpy(sa.sun_path, path, plen);
	if (path[0] == '@') /* abstract namespace */
		sa.sun_path[0] = 0;
	salen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + plen);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (sendto(fd, state, strlen(state), MSG_NOSIGNAL, (struct sockaddr *)&sa, salen) < 0)
		err = -errno;
	close(fd);
	return err;
}

uint64_t notify_watchdog_ns(void)
{
	const char *usec = getenv("WATCHDOG_USEC"), *pid = getenv("WATCHDOG_PID");
	char *end;
	unsigned long long v;

	if (!usec || !*usec)
		return 0;
	if (pid && *pid && strtoull(pid, NULL, 10) != (unsigned long long)getpid())
		return 0; /* meant for another process (ours forked or exec'd) */
	errno = 0;
	v = strtoull(usec, &end, 10);
	if (errno || *end || !v || v > UINT64_MAX / 1000)
		return 0;
	return (uint64_t)v * 1000;
}
