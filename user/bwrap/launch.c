// SPDX-License-Identifier: MIT
/* fork, hold, exec, wait: the process side of agent-bwrap. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bwlog.h"
#include "exitcode.h"
#include "launch.h"

/* Highest descriptor marked close-on-exec by hand when close_range(2) is missing (< 5.11). */
#define LAUNCH_FD_SCAN_MAX 65536
#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

/* Exit status of a child that could not exec (as the shell's "not found"). */
#define LAUNCH_EXEC_FAILED 127

static volatile sig_atomic_t launch_child_pid;
/* The lifeline's write end (lifeline.h), closed the moment bubblewrap exits:
 * a sandbox whose bubblewrap is gone (a forwarded signal, a crash) ends too,
 * instead of holding the stderr pipe that keeps the launcher waiting. */
static volatile sig_atomic_t launch_lifeline = -1;

/* SIGCHLD: the launcher's only child is bubblewrap. close(2) is async-signal-safe. */
static void launch_reaped(int sig)
{
	int fd = launch_lifeline;

	(void)sig;
	launch_lifeline = -1;
	if (fd >= 0)
		close(fd);
}

/* The same, from the main flow: SIGCHLD blocked, so the handler cannot close it twice. */
static void launch_cut_lifeline(void)
{
	sigset_t chld, old;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);
	launch_reaped(SIGCHLD);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static void launch_forward(int sig)
{
	if (launch_child_pid > 0)
		kill((pid_t)launch_child_pid, sig);
}

static void launch_close(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static ssize_t launch_read_full(int fd, void *buf, size_t len)
{
	ssize_t n;

	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n;
}

/* The caller's other descriptors must not reach the sandbox: all but 0-2 close on exec. */
static void launch_cloexec_all(void)
{
	struct rlimit rl;
	int max = LAUNCH_FD_SCAN_MAX;

	if (syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC) == 0)
		return;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < (rlim_t)max)
		max = (int)rl.rlim_cur;
	for (int fd = 3; fd < max; fd++)
		fcntl(fd, F_SETFD, FD_CLOEXEC);
}

static _Noreturn void launch_child(int go_rd, int err_wr, int stderr_wr, pid_t parent,
				   char *const argv[], const int keep[], size_t nkeep)
{
	char go;
	int err;

	/* Die with the launcher; it may already be gone. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(EXITCODE_INTERNAL);
	if (dup2(stderr_wr, STDERR_FILENO) < 0)
		_exit(EXITCODE_INTERNAL);
	launch_cloexec_all();
	for (size_t i = 0; i < nkeep; i++)
		if (keep[i] >= 0 && fcntl(keep[i], F_SETFD, 0) < 0)
			_exit(EXITCODE_INTERNAL);
	/* Wait for the cgroup move; EOF means the launcher gave up. */
	if (launch_read_full(go_rd, &go, 1) != 1)
		_exit(EXITCODE_INTERNAL);
	execv(argv[0], argv);
	err = errno;
	if (write(err_wr, &err, sizeof(err)) < 0)
		_exit(LAUNCH_EXEC_FAILED);
	_exit(LAUNCH_EXEC_FAILED);
}

int launch_start(struct launch *l, char *const argv[], const int keep[], size_t nkeep,
		 int lifeline)
{
	struct sigaction sa = { .sa_handler = launch_reaped, .sa_flags = SA_RESTART | SA_NOCLDSTOP };
	int go[2], errp[2], out[2];
	pid_t parent = getpid();
	int err;

	sigemptyset(&sa.sa_mask);
	launch_lifeline = lifeline;
	sigaction(SIGCHLD, &sa, NULL);

	l->path = argv[0];
	l->pid = -1;
	l->go_fd = l->err_fd = l->stderr_fd = -1;
	if (pipe2(go, O_CLOEXEC) < 0)
		goto fail_none;
	if (pipe2(errp, O_CLOEXEC) < 0)
		goto fail_go;
	if (pipe2(out, O_CLOEXEC) < 0)
		goto fail_err;
	l->pid = fork();
	if (l->pid < 0)
		goto fail_out;
	if (l->pid == 0)
		launch_child(go[0], errp[1], out[1], parent, argv, keep, nkeep);
	close(go[0]);
	close(errp[1]);
	close(out[1]);
	l->go_fd = go[1];
	l->err_fd = errp[0];
	l->stderr_fd = out[0];
	return 0;

fail_out:
	err = errno;
	close(out[0]);
	close(out[1]);
	errno = err;
fail_err:
	err = errno;
	close(errp[0]);
	close(errp[1]);
	errno = err;
fail_go:
	err = errno;
	close(go[0]);
	close(go[1]);
	errno = err;
fail_none:
	err = -errno;
	bwlog_err("starting bubblewrap: pipe or fork failed: %s", strerror(errno));
	launch_cut_lifeline();
	return err;
}

int launch_go(struct launch *l)
{
	ssize_t n;
	int child_errno = 0;

	n = write(l->go_fd, "g", 1);
	launch_close(&l->go_fd);
	if (n != 1) {
		bwlog_err("releasing the bubblewrap child failed: %s", strerror(errno));
		launch_abort(l);
		return -EPIPE;
	}
	n = launch_read_full(l->err_fd, &child_errno, sizeof(child_errno));
	launch_close(&l->err_fd);
	if (n == 0)
		return 0; /* close-on-exec closed it: bubblewrap runs */
	if (n != (ssize_t)sizeof(child_errno))
		child_errno = EIO;
	bwlog_err("bubblewrap %s: exec failed: %s", l->path, strerror(child_errno));
	launch_abort(l);
	return -child_errno;
}

void launch_forward_signals(const struct launch *l)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct sigaction sa = { .sa_handler = launch_forward };

	sigemptyset(&sa.sa_mask);
	launch_child_pid = l->pid;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

int launch_wait(struct launch *l)
{
	int status;
	pid_t p;

	launch_close(&l->stderr_fd);
	do
		p = waitpid(l->pid, &status, 0);
	while (p < 0 && errno == EINTR);
	launch_child_pid = 0;
	l->pid = -1;
	launch_cut_lifeline();
	if (p < 0) {
		bwlog_err("waiting for bubblewrap failed: %s", strerror(errno));
		return EXITCODE_INTERNAL;
	}
	if (WIFSIGNALED(status))
		return EXITCODE_SIGNAL_BASE + WTERMSIG(status);
	return WEXITSTATUS(status);
}

void launch_abort(struct launch *l)
{
	launch_close(&l->go_fd);
	launch_close(&l->err_fd);
	launch_close(&l->stderr_fd);
	if (l->pid > 0) {
		kill(l->pid, SIGKILL);
		while (waitpid(l->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	launch_child_pid = 0;
	l->pid = -1;
	launch_cut_lifeline();
}
