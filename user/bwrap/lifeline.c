// SPDX-License-Identifier: MIT
/* The init's side of the lifeline: wait for EOF, then end the sandbox. */
#include <errno.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "detach.h"
#include "lifeline.h"

static void lifeline_watch(void *arg)
{
	int fd = *(const int *)arg;
	char b;
	ssize_t n;

	/* not dumpable: with no capabilities the agent cannot open
	 * /proc/PID/fd/N of the watcher and become a second writer */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	/* nothing is ever written: only EOF (or an error) ends the wait */
	do
		n = read(fd, &b, 1);
	while (n > 0 || (n < 0 && errno == EINTR));
	/* every process of the PID namespace but PID 1 and the caller */
	kill(-1, SIGKILL);
}

int lifeline_spawn(int fd)
{
	int err = detach_spawn("lifeline", LIFELINE_NAME, lifeline_watch, &fd);

	close(fd);
	return err;
}
