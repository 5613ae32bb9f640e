// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * as-lineage: builds the process shapes test_lineage.py asserts on, one
 * command after another (each command runs the rest of the line):
 *   write PATH            open PATH for writing; prints "write PID RESULT"
 *   pid                   prints "pid PID PPID"
 *   child CMD...          fork; the child runs CMD, the parent waits
 *   dfork CMD...          fork, the child forks again and exits; the
 *                         grandchild calls setsid, waits until it has been
 *                         reparented, runs CMD (the caller waits for it)
 *   rename NAME CMD...    prctl(PR_SET_NAME, NAME), then CMD
 *   deep N CMD...         N generations, each a fork and an exec of this
 *                         program (as the name it was run as), then CMD
 *   exec PATH ARG0 CMD... execv(PATH, [ARG0, CMD...])
 *   memfd CMD...          copy this program into a memfd, fexecve it with CMD
 *   seccomp CMD...        no_new_privs and an allow-everything seccomp filter
 *   wait FIFO CMD...      read a line from FIFO, then CMD
 *   spin FIFO PATH CMD... open PATH for writing every 0.2 ms until FIFO has
 *                         a line, then CMD
 *   storm N               N children, each exits at once
 *   env NAME=VALUE CMD... setenv, then CMD (for the next exec)
 *   cgroup DIR CMD...     move into cgroup DIR (writes DIR/cgroup.procs), then CMD
 *   thread CMD...         run CMD on a second thread (the first waits for it)
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static const char *self_path; /* argv[0] as this program was run */

static int run(int argc, char **argv);

static void say(const char *fmt, long a, long b)
{
	printf(fmt, a, b);
	fflush(stdout);
}

static int wait_child(pid_t p)
{
	int st = 0;

	if (p < 0)
		return 1;
	while (waitpid(p, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

static int do_dfork(int argc, char **argv)
{
	int fds[2];
	pid_t mid;
	char c;

	if (pipe(fds))
		return 1;
	mid = fork();
	if (mid == 0) {
		pid_t me = getpid();

		if (fork() == 0) {
			close(fds[0]);
			setsid();
			while (getppid() == me) /* until the middle one is gone */
				usleep(1000);
			_exit(run(argc, argv));
		}
		_exit(0);
	}
	close(fds[1]);
	wait_child(mid);
	/* EOF once the grandchild (holding the write end) is done */
	while (read(fds[0], &c, 1) > 0)
		;
	close(fds[0]);
	return 0;
}

static int do_deep(int n, int argc, char **argv)
{
	char num[16], exe[4096], **av;
	ssize_t len;
	pid_t p;

	if (n <= 0)
		return run(argc, argv);
	p = fork();
	if (p == 0) {
		av = calloc((size_t)argc + 4, sizeof(*av));
		if (!av)
			_exit(1);
		snprintf(num, sizeof(num), "%d", n - 1);
		av[0] = (char *)self_path;
		av[1] = "deep";
		av[2] = num;
		memcpy(av + 3, argv, (size_t)argc * sizeof(*av));
		/* this program's file, by its name: that is the exec-time name */
		len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (len <= 0)
			_exit(127);
		exe[len] = 0;
		execv(exe, av);
		_exit(127);
	}
	return wait_child(p);
}

static int do_memfd(int argc, char **argv)
{
	int in = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	int fd = (int)syscall(SYS_memfd_create, "as-lineage", 0);
	char **av = calloc((size_t)argc + 2, sizeof(*av));
	struct stat st;

	if (in < 0 || fd < 0 || !av || fstat(in, &st))
		return 1;
	for (off_t off = 0; off < st.st_size;)
		if (sendfile(fd, in, &off, (size_t)(st.st_size - off)) <= 0)
			return 1;
	av[0] = (char *)self_path;
	memcpy(av + 1, argv, (size_t)argc * sizeof(*av));
	fexecve(fd, av, environ);
	return 127;
}

static int do_seccomp(void)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { .len = 1, .filter = &allow };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return 1;
	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) ? 1 : 0;
}

static int run(int argc, char **argv);

struct thread_cmd {
	int argc;
	char **argv;
	int rc;
};

static void *thread_main(void *arg)
{
	struct thread_cmd *t = arg;

	t->rc = run(t->argc, t->argv);
	return NULL;
}

static int run(int argc, char **argv)
{
	const char *cmd;
	pid_t p;

	if (argc < 1)
		return 0;
	cmd = argv[0];
	if (!strcmp(cmd, "write") && argc >= 2) {
		int fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

		say("write %ld %ld\n", getpid(), fd < 0 ? -errno : 0);
		if (fd >= 0)
			close(fd);
		return run(argc - 2, argv + 2);
	}
	if (!strcmp(cmd, "pid")) {
		say("pid %ld %ld\n", getpid(), getppid());
		return run(argc - 1, argv + 1);
	}
	if (!strcmp(cmd, "child")) {
		p = fork();
		if (p == 0)
			_exit(run(argc - 1, argv + 1));
		return wait_child(p);
	}
	if (!strcmp(cmd, "dfork"))
		return do_dfork(argc - 1, argv + 1);
	if (!strcmp(cmd, "rename") && argc >= 2) {
		prctl(PR_SET_NAME, argv[1], 0, 0, 0);
		return run(argc - 2, argv + 2);
	}
	if (!strcmp(cmd, "deep") && argc >= 2)
		return do_deep(atoi(argv[1]), argc - 2, argv + 2);
	if (!strcmp(cmd, "exec") && argc >= 3) {
		execv(argv[1], argv + 2);
		say("exec %ld %ld\n", getpid(), -errno);
		return 127;
	}
	if (!strcmp(cmd, "memfd"))
		return do_memfd(argc - 1, argv + 1);
	if (!strcmp(cmd, "seccomp")) {
		if (do_seccomp())
			return 1;
		return run(argc - 1, argv + 1);
	}
	if (!strcmp(cmd, "wait") && argc >= 2) {
		char line[16];
		FILE *f = fopen(argv[1], "r");

		if (!f || !fgets(line, sizeof(line), f))
			return 1;
		fclose(f);
		return run(argc - 2, argv + 2);
	}
	if (!strcmp(cmd, "spin") && argc >= 3) {
		/* busy until the FIFO says go: each round an open for writing
		 * of PATH, an event the pre-filter judges (and caches) */
		char line[16];
		int fd = open(argv[1], O_RDONLY | O_NONBLOCK), n = 0;

		if (fd < 0)
			return 1;
		while ((n = (int)read(fd, line, sizeof(line))) <= 0) {
			int w = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);

			if (w >= 0)
				close(w);
			usleep(200);
		}
		close(fd);
		return run(argc - 3, argv + 3);
	}
	if (!strcmp(cmd, "storm") && argc >= 2) {
		int n = atoi(argv[1]);

		for (int i = 0; i < n; i++) {
			p = fork();
			if (p == 0)
				_exit(0);
			wait_child(p);
		}
		say("storm %ld %ld\n", getpid(), n);
		return run(argc - 2, argv + 2);
	}
	if (!strcmp(cmd, "env") && argc >= 2) {
		putenv(argv[1]);
		return run(argc - 2, argv + 2);
	}
	if (!strcmp(cmd, "cgroup") && argc >= 2) {
		char path[4096];
		FILE *f;

		snprintf(path, sizeof(path), "%s/cgroup.procs", argv[1]);
		f = fopen(path, "w");
		if (!f || fprintf(f, "%d\n", getpid()) < 0 || fclose(f))
			return 1;
		return run(argc - 2, argv + 2);
	}
	if (!strcmp(cmd, "thread")) {
		struct thread_cmd t = { argc - 1, argv + 1, 1 };
		pthread_t tid;

		if (pthread_create(&tid, NULL, thread_main, &t) || pthread_join(tid, NULL))
			return 1;
		return t.rc;
	}
	fprintf(stderr, "as-lineage: unknown command %s\n", cmd);
	return 2;
}

int main(int argc, char **argv)
{
	self_path = argv[0];
	return run(argc - 1, argv + 1);
}
