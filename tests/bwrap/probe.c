// SPDX-License-Identifier: MIT
/*
 * bwrap_probe: runs inside the sandbox and tries one thing. Prints "ok" or
 * "errno=N" (and a reply for "unix"), exits 0 when the attempt was made.
 *
 *   unshare | mount | ptrace | clone-ns | clone | clone3 | fork | thread
 *   write PATH | tcp IPV4 PORT | bind IPV4 PORT | unix PATH | cgroup | env NAME
 *   io_uring_setup | io_uring_enter | io_uring_register | kill PID
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

/* Namespaces a sandboxed agent must not create (the profile's clone mask). */
#define PROBE_NS_FLAGS (CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET)
/* Reply of the test's egress echo server. */
#define PROBE_REPLY_MAX 64

static int probe_result(long rc)
{
	if (rc < 0)
		printf("errno=%d\n", errno);
	else
		printf("ok\n");
	return 0;
}

/* A raw clone: rc 0 in the child, which leaves at once. */
static long probe_clone(unsigned long flags)
{
	long pid = syscall(SYS_clone, flags | SIGCHLD, 0, NULL, NULL, 0);

	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid((pid_t)pid, NULL, 0);
	return pid;
}

static void *probe_thread_fn(void *arg)
{
	return arg;
}

static int probe_connect(int fd, const struct sockaddr *sa, socklen_t len)
{
	long rc = connect(fd, sa, len);

	return rc < 0 ? -errno : 0;
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IONBF, 0);
	if (!strcmp(what, "unshare"))
		return probe_result(unshare(CLONE_NEWNS));
	if (!strcmp(what, "mount"))
		return probe_result(mount("none", "/tmp", "tmpfs", 0, NULL));
	if (!strcmp(what, "ptrace"))
		return probe_result(ptrace(PTRACE_TRACEME, 0, NULL, NULL));
	if (!strcmp(what, "clone-ns"))
		return probe_result(probe_clone(PROBE_NS_FLAGS));
	if (!strcmp(what, "clone"))
		return probe_result(probe_clone(0));
	if (!strcmp(what, "clone3")) {
		struct clone_args ca = { .exit_signal = SIGCHLD };
		long pid = syscall(SYS_clone3, &ca, sizeof(ca));

		if (pid == 0)
			_exit(0);
		if (pid > 0)
			waitpid((pid_t)pid, NULL, 0);
		return probe_result(pid);
	}
	if (!strcmp(what, "fork")) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		return probe_result(pid);
	}
	if (!strcmp(what, "thread")) {
		pthread_t t;
		int err = pthread_create(&t, NULL, probe_thread_fn, NULL);

		if (!err)
			pthread_join(t, NULL);
		errno = err;
		return probe_result(err ? -1 : 0);
	}
	/* the raw calls: glibc has no wrappers, and the filter answers before the arguments matter */
	if (!strcmp(what, "io_uring_setup"))
		return probe_result(syscall(SYS_io_uring_setup, 1, NULL));
	if (!strcmp(what, "io_uring_enter"))
		return probe_result(syscall(SYS_io_uring_enter, -1, 0, 0, 0, NULL, 0));
	if (!strcmp(what, "io_uring_register"))
		return probe_result(syscall(SYS_io_uring_register, -1, 0, NULL, 0));
	if (!strcmp(what, "kill") && argc == 3)
		return probe_result(kill((pid_t)atoi(argv[2]), 0));
	if (!strcmp(what, "bind") && argc == 4) {
		struct sockaddr_in sa = { .sin_family = AF_INET,
					  .sin_port = htons((uint16_t)atoi(argv[3])) };
		int fd = socket(AF_INET, SOCK_STREAM, 0);

		if (fd < 0 || inet_pton(AF_INET, argv[2], &sa.sin_addr) != 1)
			return probe_result(-1);
		return probe_result(bind(fd, (struct sockaddr *)&sa, sizeof(sa)));
	}
	if (!strcmp(what, "write") && argc == 3) {
		int fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd >= 0 && write(fd, "probe\n", 6) != 6)
			fd = -1;
		return probe_result(fd);
	}
	if (!strcmp(what, "tcp") && argc == 4) {
		struct sockaddr_in sa = { .sin_family = AF_INET,
					  .sin_port = htons((uint16_t)atoi(argv[3])) };
		int fd = socket(AF_INET, SOCK_STREAM, 0), err;

		if (fd < 0 || inet_pton(AF_INET, argv[2], &sa.sin_addr) != 1)
			return probe_result(-1);
		err = probe_connect(fd, (struct sockaddr *)&sa, sizeof(sa));
		errno = -err;
		return probe_result(err);
	}
	if (!strcmp(what, "unix") && argc == 3) {
		struct sockaddr_un sa = { .sun_family = AF_UNIX };
		char reply[PROBE_REPLY_MAX] = "";
		int fd = socket(AF_UNIX, SOCK_STREAM, 0), err;
		ssize_t n;

		snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", argv[2]);
		err = fd < 0 ? -errno : probe_connect(fd, (struct sockaddr *)&sa, sizeof(sa));
		if (err) {
			errno = -err;
			return probe_result(-1);
		}
		if (write(fd, "ping\n", 5) != 5)
			return probe_result(-1);
		n = read(fd, reply, sizeof(reply) - 1);
		if (n < 0)
			return probe_result(-1);
		reply[n] = '\0';
		printf("ok %s", reply);
		return 0;
	}
	if (!strcmp(what, "env") && argc == 3) {
		const char *v = getenv(argv[2]);

		printf("%s\n", v ? v : "(unset)");
		return 0;
	}
	fprintf(stderr, "usage: bwrap_probe unshare|mount|ptrace|clone-ns|clone|clone3|fork|"
			"thread|write PATH|tcp IP PORT|bind IP PORT|unix PATH|env NAME|io_uring_*|"
			"kill PID\n");
	return 2;
}
