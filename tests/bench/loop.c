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
 *   churn N DIR        create DIR/f, rename it to DIR/g, unlink DIR/g, N times
 *   sendto N           sendto(2) of one UDP byte to 127.0.0.1:PORT (a socket of
 *                      its own, never read), with the address each time
 *
 * Built with plain -O2 and no sanitizers: their runtimes make syscalls too.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>
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

static long churn(const char *dir)
{
	char f[4096], g[4096];

	snprintf(f, sizeof(f), "%s/f", dir);
	snprintf(g, sizeof(g), "%s/g", dir);
	if (open_close(f, O_WRONLY | O_CREAT) || syscall(SYS_rename, f, g) ||
	    syscall(SYS_unlink, g))
		return -1;
	return 0;
}

/* A UDP receiver on the loopback and a sender; returns the sender. */
static int udp_pair(struct sockaddr_in *to)
{
	socklen_t len = sizeof(*to);
	int rx = socket(AF_INET, SOCK_DGRAM, 0), tx = socket(AF_INET, SOCK_DGRAM, 0);

	memset(to, 0, sizeof(*to));
	to->sin_family = AF_INET;
	to->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (rx < 0 || tx < 0 || bind(rx, (struct sockaddr *)to, sizeof(*to)) ||
	    getsockname(rx, (struct sockaddr *)to, &len))
		return -1;
	return tx; /* rx stays open, unread: its queue fills and drops */
}

static int usage(void)
{
	fprintf(stderr, "usage: as-bench-loop open N PATH | write N PATH | exec N | "
			"paced N RATE PATH | churn N DIR | sendto N\n");
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
	if ((!strcmp(mode, "open") || !strcmp(mode, "write") || !strcmp(mode, "churn")) &&
	    argc == 4)
		path = argv[3];
	else if (!strcmp(mode, "paced") && argc == 5) {
		rate = strtod(argv[3], NULL);
		path = argv[4];
		if (rate <= 0)
			return usage();
	} else if ((strcmp(mode, "exec") && strcmp(mode, "sendto")) || argc != 3)
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
	} else if (!strcmp(mode, "churn")) {
		for (uint64_t i = 0; i < n; i++)
			errors += churn(path) != 0;
	} else if (!strcmp(mode, "sendto")) {
		struct sockaddr_in to;
		int tx = udp_pair(&to);

		if (tx < 0)
			return 1;
		t0 = now_ns();
		for (uint64_t i = 0; i < n; i++)
			errors += sendto(tx, "x", 1, 0, (struct sockaddr *)&to, sizeof(to)) != 1;
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
