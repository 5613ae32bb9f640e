// SPDX-License-Identifier: MIT
/* Name, fork, fork again, let the middle child go: see detach.h. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bwlog.h"
#include "detach.h"

int detach_spawn(const char *what, const char *name, void (*fn)(void *arg), void *arg)
{
	pid_t pid, grandchild, w;
	int status, null, err;

	/* named before the fork, so that the helper has its name from its first
	 * instant on (the caller's exec then names the caller after its program) */
	prctl(PR_SET_NAME, name, 0, 0, 0);
	pid = fork();
	if (pid < 0) {
		err = errno;
		bwlog_err("%s: fork: %s", what, strerror(err));
		return -err;
	}
	if (pid == 0) {
		grandchild = fork();
		if (grandchild != 0)
			_exit(grandchild < 0 ? 1 : 0);
		null = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
			close(null);
		}
		fn(arg);
		_exit(0);
	}
	while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
		;
	if (w < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		bwlog_err("%s: fork failed", what);
		return -ECHILD;
	}
	return 0;
}
