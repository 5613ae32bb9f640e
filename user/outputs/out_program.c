// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * program_output: alerts fed to a program's stdin, one line each, the program
 * run by /bin/sh -c as Falco's popen does. keep_alive true: one long-running
 * child, restarted (with backoff) when it exits. keep_alive false (Falco's
 * default): one child per alert, waited for. The child's stdout goes to our
 * stderr, so that stdout stays the JSON stream; its signal mask and SIGPIPE
 * disposition are reset to the defaults.
 *
 * A command that cannot be found (its first word, when that is a plain
 * command and not a shell construct) is "unavailable": the alerts wait and
 * the start is retried, instead of being fed to a shell that exits 127.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "out.h"

extern char **environ;

/* The shell that runs the program, as popen(3). */
#define OUT_PROGRAM_SHELL "/bin/sh"
/* keep_alive false: how long one run may take before it is killed. */
#define OUT_PROGRAM_RUN_MAX_MS 10000
/* At close, how long the child gets to finish after its stdin is closed. */
#define OUT_PROGRAM_EXIT_WAIT_MS 2000
/* Longest command word looked up in PATH. */
#define OUT_PROGRAM_WORD_MAX 4096

struct out_program {
	char *cmd;
	int keep_alive;
	pid_t pid; /* 0: not running */
	int fd;	   /* the child's stdin */
};

/* Words after which the first word is not a command we can look up. */
static const char *const out_program_shell_words[] = {
    "exec",  "eval", "command", "builtin", "test", "[",	     "echo",  "printf", "read", "true",
    "false", ":",    ".",	"set",	   "cd",   "export", "trap",  "while",	"for",	"if",
    "until", "case", "{",	"(",	   "!",	   "ulimit", "umask", "nice",	"env",	NULL,
};

static int out_program_in_path(const char *word)
{
	const char *path = getenv("PATH");
	char full[OUT_PROGRAM_WORD_MAX + 256];

	if (!path)
		path = "/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");
		int k = snprintf(full, sizeof(full), "%.*s/%s", (int)n, n ? path : ".", word);

		if (k > 0 && (size_t)k < sizeof(full) && !access(full, X_OK))
			return 1;
		path += n;
		if (*path == ':')
			path++;
	}
	return 0;
}

/* 0 when the command can run (or we cannot tell), -ENOENT/-EACCES + why if not. */
static int out_program_check(struct out *o, const char *cmd)
{
	char word[OUT_PROGRAM_WORD_MAX];
	size_t n;
	int i;

	cmd += strspn(cmd, " \t");
	n = strcspn(cmd, " \t\n;&|<>");
	if (!n || n >= sizeof(word))
		return 0;
	memcpy(word, cmd, n);
	word[n] = '\0';
	if (strpbrk(word, "$`'\"\\=(){}*?[~"))
		return 0; /* a shell construct: the shell will tell */
	for (i = 0; out_program_shell_words[i]; i++)
		if (!strcmp(word, out_program_shell_words[i]))
			return 0;
	if (strchr(word, '/')) {
		if (!access(word, X_OK))
			return 0;
		out_why(o, "program '%s': %s", word, strerror(errno));
		return errno == ENOENT ? -ENOENT : -EACCES;
	}
	if (out_program_in_path(word))
		return 0;
	out_why(o, "program '%s': not found in PATH", word);
	return -ENOENT;
}

static int out_program_spawn(struct out *o)
{
	struct out_program *p = o->be;
	char *argv[] = {"sh", "-c", p->cmd, NULL};
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none, def;
	int pfd[2], err;

	if (out_program_check(o, p->cmd))
		return -EAGAIN;
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		err = errno;
		out_why(o, "pipe: %s", strerror(err));
		return -EAGAIN;
	}
	sigemptyset(&none);
	sigfillset(&def);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pfd[0], STDIN_FILENO);
	posix_spawn_file_actions_adddup2(&fa, STDERR_FILENO, STDOUT_FILENO);
	posix_spawnattr_init(&at);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &def);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	err = posix_spawn(&p->pid, OUT_PROGRAM_SHELL, &fa, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[0]);
	if (err) {
		close(pfd[1]);
		p->pid = 0;
		out_why(o, "start %s -c '%s': %s", OUT_PROGRAM_SHELL, p->cmd, strerror(err));
		return -EAGAIN;
	}
	p->fd = pfd[1];
	fcntl(p->fd, F_SETFL, fcntl(p->fd, F_GETFL) | O_NONBLOCK);
	return 0;
}

/* Wait up to ms for the child; 1 and *status when it exited, 0 if still running. */
static int out_program_wait(struct out_program *p, long ms, int *status)
{
	struct timespec step = {0, 5 * 1000000L}; /* 5 ms, doubling up to OUT_TICK_MS */
	long waited = 0;

	for (;;) {
		pid_t r = waitpid(p->pid, status, WNOHANG);

		if (r == p->pid || (r < 0 && errno == ECHILD)) {
			p->pid = 0;
			return 1;
		}
		if (waited >= ms)
			return 0;
		nanosleep(&step, NULL);
		waited += step.tv_nsec / 1000000L;
		if (step.tv_nsec * 2 <= OUT_TICK_MS * 1000000L)
			step.tv_nsec *= 2;
	}
}

static void out_program_closefd(struct out_program *p)
{
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
}

/* Close the child's stdin and reap it, killing it after ms. */
static int out_program_stop(struct out_program *p, long ms)
{
	int status = 0;

	out_program_closefd(p);
	if (!p->pid)
		return 0;
	if (!out_program_wait(p, ms, &status)) {
		kill(p->pid, SIGKILL);
		out_program_wait(p, OUT_PROGRAM_EXIT_WAIT_MS, &status);
		p->pid = 0;
		return -ETIMEDOUT;
	}
	return status;
}

static void out_program_describe(struct out *o, int status)
{
	struct out_program *p = o->be;

	if (WIFSIGNALED(status))
		out_why(o, "'%s' killed by signal %d", p->cmd, WTERMSIG(status));
	else
		out_why(o, "'%s' exited with status %d", p->cmd, WEXITSTATUS(status));
}

static int out_program_write_once(struct out *o, const struct outmsg *m)
{
	struct out_program *p = o->be;
	int err, status;

	err = out_program_spawn(o);
	if (err)
		return err;
	err = out_fd_write_all(o, p->fd, m->line, m->len + 1, NULL);
	status = out_program_stop(p, err == -ECANCELED ? 0 : OUT_PROGRAM_RUN_MAX_MS);
	if (err == -ECANCELED)
		return err;
	if (status == -ETIMEDOUT) {
		out_why(o, "'%s' still running after %d ms: killed", p->cmd,
			OUT_PROGRAM_RUN_MAX_MS);
		return -ETIMEDOUT;
	}
	if (WIFEXITED(status) && (WEXITSTATUS(status) == 126 || WEXITSTATUS(status) == 127)) {
		out_program_describe(o, status); /* the shell could not run it */
		return -EAGAIN;
	}
	if (err) {
		out_why(o, "write to '%s': %s", p->cmd, strerror(-err));
		return err;
	}
	return 0;
}

static int out_program_write_alive(struct out *o, const struct outmsg *m)
{
	struct out_program *p = o->be;
	int err, status;

	if (p->pid && out_program_wait(p, 0, &status)) {
		out_program_closefd(p);
		out_program_describe(o, status);
		out_log_limited(o, &o->err_log, "warning", "%s; restarting it", o->why);
	}
	if (!p->pid) {
		err = out_program_spawn(o);
		if (err)
			return err;
	}
	err = out_fd_write_all(o, p->fd, m->line, m->len + 1, NULL);
	if (!err || err == -ECANCELED)
		return err;
	out_why(o, "write to '%s': %s", p->cmd, strerror(-err));
	if (err == -EPIPE) { /* it exited: the line waits for the next one */
		out_program_closefd(p);
		out_program_wait(p, OUT_TICK_MS, &status);
		return -EAGAIN;
	}
	return err;
}

static int out_program_write(struct out *o, const struct outmsg *m)
{
	struct out_program *p = o->be;

	return p->keep_alive ? out_program_write_alive(o, m) : out_program_write_once(o, m);
}

static int out_program_probe(struct out *o)
{
	struct out_program *p = o->be;

	if (p->keep_alive)
		return out_program_spawn(o);
	return out_program_check(o, p->cmd) ? -EAGAIN : 0;
}

static void out_program_close(struct out *o)
{
	struct out_program *p = o->be;
	int status = out_program_stop(p, atomic_load(&o->abort) ? 0 : OUT_PROGRAM_EXIT_WAIT_MS);

	if (status == -ETIMEDOUT)
		out_log_err(o, "warning",
			    "'%s' did not exit within %d ms of its stdin closing: "
			    "killed",
			    p->cmd, OUT_PROGRAM_EXIT_WAIT_MS);
	free(p->cmd);
	free(p);
	o->be = NULL;
}

static const struct out_ops out_program_ops = {
    .name = "program",
    .probe = out_program_probe,
    .write = out_program_write,
    .close = out_program_close,
};

int out_program_open(struct out *o, const struct outputs_config *cfg)
{
	struct out_program *p;

	o->ops = &out_program_ops;
	if (!cfg->program_output.program || !cfg->program_output.program[0]) {
		out_log_err(o, "error", "program_output.program is not set");
		return -EINVAL;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->cmd = strdup(cfg->program_output.program);
	if (!p->cmd) {
		free(p);
		return -ENOMEM;
	}
	p->keep_alive = cfg->program_output.keep_alive;
	p->fd = -1;
	o->be = p;
	return 0;
}
