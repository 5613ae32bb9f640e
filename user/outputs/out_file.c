// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * file_output: alerts appended to a file. keep_alive false (Falco's default):
 * the file is opened, appended to and closed for every alert, so rotation
 * needs nothing. keep_alive true: the file stays open and outputs_reopen
 * (SIGUSR1, after logrotate renamed it) makes the next line go to a freshly
 * opened file. A file that cannot be opened or written is "unavailable": the
 * alerts wait in the queue and the open is retried with backoff. A line cut by
 * a failed write is cut off the file again, so the file holds whole lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "out.h"

/* Mode of a file we create (before umask): alerts are not for every user. */
#define OUT_FILE_MODE 0640

struct out_file {
	char *path;
	int keep_alive;
	int fd;
	struct out_buf buf;
};

static int out_file_openfd(struct out *o)
{
	struct out_file *f = o->be;
	int err;

	if (f->fd >= 0)
		return 0;
	f->fd = open(f->path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, OUT_FILE_MODE);
	if (f->fd >= 0)
		return 0;
	err = errno;
	out_why(o, "open %s: %s", f->path, strerror(err));
	return -EAGAIN;
}

static void out_file_closefd(struct out_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

/* Append data whole, or leave the file as it was and return -EAGAIN. */
static int out_file_append(struct out *o, const char *data, size_t len)
{
	struct out_file *f = o->be;
	size_t done = 0;
	off_t start;
	int err;

	err = out_file_openfd(o);
	if (err)
		return err;
	start = lseek(f->fd, 0, SEEK_END);
	err = out_fd_write_all(o, f->fd, data, len, &done);
	if (!err) {
		if (!f->keep_alive)
			out_file_closefd(f);
		return 0;
	}
	if (done && start >= 0 && ftruncate(f->fd, start) < 0)
		done = 0; /* nothing more to do: the cut line stays */
	if (err != -ECANCELED)
		out_why(o, "write %s: %s", f->path, strerror(-err));
	out_file_closefd(f);
	return err == -ECANCELED ? err : -EAGAIN;
}

static int out_file_flush(struct out *o)
{
	struct out_file *f = o->be;
	int err = 0;

	if (f->buf.len) {
		err = out_file_append(o, f->buf.data, f->buf.len);
		if (!err)
			f->buf.len = 0;
	}
	return err;
}

static int out_file_write(struct out *o, const struct outmsg *m)
{
	struct out_file *f = o->be;
	int err;

	if (!o->buffered || !f->keep_alive)
		return out_file_append(o, m->line, m->len + 1);
	if (!out_buf_add(&f->buf, m->line, m->len + 1))
		return 0;
	err = out_file_flush(o);
	if (err)
		return err;
	if (!out_buf_add(&f->buf, m->line, m->len + 1))
		return 0;
	return out_file_append(o, m->line, m->len + 1); /* longer than a block */
}

static int out_file_probe(struct out *o)
{
	struct out_file *f = o->be;
	int err = out_file_openfd(o);

	if (!err && !f->keep_alive)
		out_file_closefd(f);
	return err;
}

static void out_file_idle(struct out *o)
{
	if (out_file_flush(o) == -EAGAIN)
		out_log_limited(o, &o->err_log, "error", "%s; retrying", o->why);
}

static void out_file_reopen(struct out *o)
{
	struct out_file *f = o->be;

	out_file_flush(o);
	out_file_closefd(f);
	/* open now, so the new file exists as soon as the rotation is done */
	if (f->keep_alive && out_file_openfd(o))
		out_log_limited(o, &o->err_log, "error", "%s; retrying", o->why);
}

static void out_file_close(struct out *o)
{
	struct out_file *f = o->be;

	if (out_file_flush(o))
		out_log_err(o, "error", "%s; %zu buffered bytes lost", o->why, f->buf.len);
	out_file_closefd(f);
	out_buf_free(&f->buf);
	free(f->path);
	free(f);
	o->be = NULL;
}

static const struct out_ops out_file_ops = {
    .name = "file",
    .probe = out_file_probe,
    .write = out_file_write,
    .idle = out_file_idle,
    .reopen = out_file_reopen,
    .close = out_file_close,
};

int out_file_open(struct out *o, const struct outputs_config *cfg)
{
	struct out_file *f;

	o->ops = &out_file_ops;
	if (!cfg->file_output.filename || !cfg->file_output.filename[0]) {
		out_log_err(o, "error", "file_output.filename is not set");
		return -EINVAL;
	}
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->path = strdup(cfg->file_output.filename);
	if (!f->path) {
		free(f);
		return -ENOMEM;
	}
	f->keep_alive = cfg->file_output.keep_alive;
	f->fd = -1;
	o->be = f;
	return 0;
}
