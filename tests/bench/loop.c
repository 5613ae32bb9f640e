// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * as-bench-loop: the benchmark's workloads, each a tight loop of one kind of
 * syscall, timed with CLOCK_MONOTONIC. Prints one line of JSON on stdout:
 *   {"mode":..,"iters":N,"ns":T,"ns_per_iter":T/N,"errors":E}
 *
 *   open N PATH        openat(AT_FDCWD, PATH, O_RDONLY) + close, N times
 *   write N PATH       openat(AT_FDCWD, PATH, O_WRONLY|O_CREAT, 0644) + close
 *   exec N             fork + execve("/bin/true") + waitpid, N times
 *   paced N RATE PATH  as write, but RATE opens per second (busy-waits to
 *                      the next deadline), for alert latency
 *
 * Built with plain -O2 and no sanitizers: their runtimes make syscalls too.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static long open_close(const char *path, int flags)
{
	/* the raw syscall: exactly one openat per iteration, whatever libc does */
	long fd = syscall(SYS_openat, AT_FDCWD, path, flags, 0644);

	if (fd < 0)
		return -1;
	close((int)fd);
	return 0;
}

static long exec_true(void)
{
	static char *const argv[] = { "true", NULL };
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		execve("/bin/true", argv, environ);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: as-bench-loop open N PATH | write N PATH | exec N | "
			"paced N RATE PATH\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *mode, *path = NULL;
	uint64_t n, errors = 0, t0, t1;
	double rate = 0;

	if (argc < 3)
		return usage();
	mode = argv[1];
	n = strtoull(argv[2], NULL, 10);
	if ((!strcmp(mode, "open") || !strcmp(mode, "write")) && argc == 4)
		path = argv[3];
	else if (!strcmp(mode, "paced") && argc == 5) {
		rate = strtod(argv[3], NULL);
		path = argv[4];
		if (rate <= 0)
			return usage();
	} else if (strcmp(mode, "exec") || argc != 3)
		return usage();

	t0 = now_ns();
	if (!strcmp(mode, "open")) {
		for (uint64_t i = 0; i < n; i++)
			errors += open_close(path, O_RDONLY) != 0;
	} else if (!strcmp(mode, "write")) {
		for (uint64_t i = 0; i < n; i++)
			errors += open_close(path, O_WRONLY | O_CREAT) != 0;
	} else if (!strcmp(mode, "exec")) {
		for (uint64_t i = 0; i < n; i++)
			errors += exec_true() != 0;
	} else {
		double step = 1e9 / rate;

		for (uint64_t i = 0; i < n; i++) {
			uint64_t due = t0 + (uint64_t)(step * (double)i);

			while (now_ns() < due)
				;
			errors += open_close(path, O_WRONLY | O_CREAT) != 0;
		}
	}
	t1 = now_ns();
	printf("{\"mode\":\"%s\",\"iters\":%llu,\"ns\":%llu,\"ns_per_iter\":%.1f,\"errors\":%llu}\n",
	       mode, (unsigned long long)n, (unsigned long long)(t1 - t0),
	       n ? (double)(t1 - t0) / (double)n : 0.0, (unsigned long long)errors);
	return errors ? 1 : 0;
}
