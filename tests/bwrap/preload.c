// SPDX-License-Identifier: MIT
/* An LD_PRELOAD library for test_bwrap.py's loader test: every process that
 * loads it leaves a mark, an empty file named after its program (comm), in
 * each directory of $BWRAP_PRELOAD_MARKS (':' between them) it can see. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PRELOAD_COMM_MAX 32

__attribute__((constructor)) static void preload_mark(void)
{
	const char *dirs = getenv("BWRAP_PRELOAD_MARKS");
	char comm[PRELOAD_COMM_MAX] = "", path[4096];
	int fd = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, comm, sizeof(comm) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (!dirs || n <= 0)
		return;
	comm[strcspn(comm, "\n")] = 0;
	while (*dirs) {
		size_t len = strcspn(dirs, ":");

		snprintf(path, sizeof(path), "%.*s/%s", (int)len, dirs, comm);
		fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
		if (fd >= 0)
			close(fd);
		dirs += len + (dirs[len] == ':');
	}
}
