// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * stdout: the JSON stream. Every line is written whole by this one thread
 * (the caller routes every other stdout write through the output stage), so
 * lines never interleave. Unbuffered (-U): one write per alert. Buffered:
 * blocks of OUT_BUF_SIZE bytes, and whatever is gathered once the queue has
 * been idle for OUT_TICK_MS.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "out.h"

struct out_stdout {
	struct out_buf buf;
};

static int out_stdout_put(struct out *o, const char *data, size_t len)
{
	int err = out_fd_write_all(o, STDOUT_FILENO, data, len, NULL);

	if (err && err != -ECANCELED)
		out_why(o, "write to stdout: %s", strerror(-err));
	return err;
}

static int out_stdout_flush(struct out *o)
{
	struct out_stdout *s = o->be;
	int err = 0;

	if (s->buf.len)
		err = out_stdout_put(o, s->buf.data, s->buf.len);
	s->buf.len = 0;
	return err;
}

static int out_stdout_write(struct out *o, const struct outmsg *m)
{
	struct out_stdout *s = o->be;
	int err;

	if (!o->buffered)
		return out_stdout_put(o, m->line, m->len + 1);
	if (!out_buf_add(&s->buf, m->line, m->len + 1))
		return 0;
	err = out_stdout_flush(o);
	if (err)
		return err;
	if (!out_buf_add(&s->buf, m->line, m->len + 1))
		return 0;
	return out_stdout_put(o, m->line, m->len + 1); /* longer than a block */
}

static void out_stdout_idle(struct out *o)
{
	if (out_stdout_flush(o))
		out_log_limited(o, &o->err_log, "error", "%s", o->why);
}

static void out_stdout_close(struct out *o)
{
	struct out_stdout *s = o->be;

	out_stdout_idle(o);
	out_buf_free(&s->buf);
	free(s);
	o->be = NULL;
}

static const struct out_ops out_stdout_ops = {
    .name = "stdout",
    .write = out_stdout_write,
    .idle = out_stdout_idle,
    .close = out_stdout_close,
};

int out_stdout_open(struct out *o, const struct outputs_config *cfg)
{
	(void)cfg;
	o->be = calloc(1, sizeof(struct out_stdout));
	if (!o->be)
		return -ENOMEM;
	o->ops = &out_stdout_ops;
	return 0;
}
