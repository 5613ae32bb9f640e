// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * as-workload: makes exactly the syscalls an end-to-end test asserts on, so
 * that the expected event fields are known. Prints the syscall's result
 * (a number, or -errno) on stdout, one line per operation.
 *   open PATH | creat PATH | openat-cwd REL | openat-dirfd DIR REL
 *   openat2-dirfd DIR REL | chdir-openat DIR REL | read PATH
 *   as-user UID OP ARGS... (drop to UID, then run OP)
 *   setuid U | setgid G | setreuid R E | setregid R E | setresuid R E S |
 *   setresgid R E S | capset E P I
 *   connect4 IP PORT | connect6 IP PORT | connect-unix PATH | connect-abstract NAME
 *   forkstorm N | execfail PATH [ARGS...] | execveat PATH [ARGS...] (through a
 *   dirfd of PATH's directory; on failure prints -errno)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/openat2.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static long res(long r)
{
	return r < 0 ? -errno : r;
}

static int report(long r)
{
	printf("%ld\n", r);
	fflush(stdout);
	return 0;
}

static int do_connect(int family, const struct sockaddr *sa, socklen_t len)
{
	int fd = socket(family, SOCK_STREAM, 0);
	long r;

	if (fd < 0)
		return report(-errno);
	r = res(connect(fd, sa, len));
	report(r);
	close(fd);
	return 0;
}

static int run(int argc, char **argv)
{
	const char *op = argv[0];
	struct sockaddr_un sun = { .sun_family = AF_UNIX };

	if (!strcmp(op, "open") && argc == 2)
		return report(res(syscall(SYS_open, argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644)));
	if (!strcmp(op, "read") && argc == 2)
		return report(res(syscall(SYS_openat, AT_FDCWD, argv[1], O_RDONLY, 0)));
	if (!strcmp(op, "creat") && argc == 2)
		return report(res(syscall(SYS_creat, argv[1], 0600)));
	if (!strcmp(op, "openat-cwd") && argc == 2)
		return report(res(syscall(SYS_openat, AT_FDCWD, argv[1], O_WRONLY | O_CREAT, 0644)));
	if (!strcmp(op, "chdir-openat") && argc == 3) {
		if (chdir(argv[1]))
			return report(-errno);
		return report(res(syscall(SYS_openat, AT_FDCWD, argv[2], O_WRONLY | O_CREAT, 0644)));
	}
	if ((!strcmp(op, "openat-dirfd") || !strcmp(op, "openat2-dirfd")) && argc == 3) {
		int dfd = open(argv[1], O_RDONLY | O_DIRECTORY);
		struct open_how how = { .flags = O_WRONLY | O_CREAT, .mode = 0640 };

		if (dfd < 0)
			return report(-errno);
		printf("dirfd %d\n", dfd);
		if (!strcmp(op, "openat2-dirfd"))
			return report(res(syscall(SYS_openat2, dfd, argv[2], &how, sizeof(how))));
		return report(res(syscall(SYS_openat, dfd, argv[2], O_WRONLY | O_CREAT, 0644)));
	}
	if (!strcmp(op, "as-user") && argc >= 3) {
		uid_t u = (uid_t)atoi(argv[1]);

		if (setgroups(0, NULL) || setgid(u) || setuid(u))
			return report(-errno);
		return run(argc - 2, argv + 2);
	}
	if (!strcmp(op, "setuid") && argc == 2)
		return report(res(syscall(SYS_setuid, atoi(argv[1]))));
	if (!strcmp(op, "setgid") && argc == 2)
		return report(res(syscall(SYS_setgid, atoi(argv[1]))));
	if (!strcmp(op, "setreuid") && argc == 3)
		return report(res(syscall(SYS_setreuid, atoi(argv[1]), atoi(argv[2]))));
	if (!strcmp(op, "setregid") && argc == 3)
		return report(res(syscall(SYS_setregid, atoi(argv[1]), atoi(argv[2]))));
	if (!strcmp(op, "setresuid") && argc == 4)
		return report(res(syscall(SYS_setresuid, atoi(argv[1]), atoi(argv[2]), atoi(argv[3]))));
	if (!strcmp(op, "setresgid") && argc == 4)
		return report(res(syscall(SYS_setresgid, atoi(argv[1]), atoi(argv[2]), atoi(argv[3]))));
	if (!strcmp(op, "capset") && argc == 4) {
		struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
		struct __user_cap_data_struct d[2] = { 0 };

		d[0].effective = (uint32_t)strtoul(argv[1], NULL, 0);
		d[0].permitted = (uint32_t)strtoul(argv[2], NULL, 0);
		d[0].inheritable = (uint32_t)strtoul(argv[3], NULL, 0);
		return report(res(syscall(SYS_capset, &h, d)));
	}
	if (!strcmp(op, "connect4") && argc == 3) {
		struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(atoi(argv[2])) };

		inet_pton(AF_INET, argv[1], &sin.sin_addr);
		return do_connect(AF_INET, (struct sockaddr *)&sin, sizeof(sin));
	}
	if (!strcmp(op, "connect6") && argc == 3) {
		struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6,
					     .sin6_port = htons(atoi(argv[2])) };

		inet_pton(AF_INET6, argv[1], &sin6.sin6_addr);
		return do_connect(AF_INET6, (struct sockaddr *)&sin6, sizeof(sin6));
	}
	if (!strcmp(op, "connect-unix") && argc == 2) {
		snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", argv[1]);
		return do_connect(AF_UNIX, (struct sockaddr *)&sun,
				  (socklen_t)(offsetof(struct sockaddr_un, sun_path) +
					      strlen(sun.sun_path) + 1));
	}
	if (!strcmp(op, "connect-abstract") && argc == 2) {
		size_t l = strlen(argv[1]);

		memcpy(sun.sun_path + 1, argv[1], l);
		return do_connect(AF_UNIX, (struct sockaddr *)&sun,
				  (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + l));
	}
	if (!strcmp(op, "forkstorm") && argc == 2) {
		int n = atoi(argv[1]);

		for (int i = 0; i < n; i++) {
			pid_t p = fork();

			if (p == 0)
				_exit(0);
			if (p < 0)
				return report(-errno);
			waitpid(p, NULL, 0);
		}
		return report(n);
	}
	if (!strcmp(op, "execfail") && argc >= 2) {
		execv(argv[1], argv + 1);
		return report(-errno);
	}
	if (!strcmp(op, "execveat") && argc >= 2) {
		char dir[4096];
		const char *slash = strrchr(argv[1], '/');
		int dfd;

		if (!slash || (size_t)(slash - argv[1]) >= sizeof(dir))
			return 2;
		memcpy(dir, argv[1], (size_t)(slash - argv[1]));
		dir[slash - argv[1]] = 0;
		dfd = open(dir[0] ? dir : "/", O_RDONLY | O_DIRECTORY);
		if (dfd < 0)
			return report(-errno);
		fflush(stdout);
		syscall(SYS_execveat, dfd, slash + 1, argv + 1, environ, 0);
		return report(-errno);
	}
	fprintf(stderr, "as-workload: unknown operation or arguments: %s\n", op);
	return 2;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: as-workload OP ARGS...\n");
		return 2;
	}
	return run(argc - 1, argv + 1);
}
