// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Writing lines to a file descriptor (stdout, a file, a program's stdin)
 * without letting a stuck reader hold the output thread past a stop, and the
 * block buffer of buffered_outputs.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "out.h"

int out_fd_write_all(struct out *o, int fd, const char *buf, size_t len, size_t *done)
{
	struct pollfd p = {.fd = fd, .events = POLLOUT};
	size_t off = 0;
	int err = 0;

	while (off < len) {
		size_t chunk = len - off;
		ssize_t n;
		int r;

		if (out_worker_stopping(o)) {
			err = -ECANCELED;
			break;
		}
		r = poll(&p, 1, OUT_TICK_MS);
		if (r < 0 && errno != EINTR) {
			err = -errno;
			break;
		}
		if (r <= 0)
			continue;
		/* POLLOUT on a pipe guarantees room for PIPE_BUF bytes, no more. */
		if (chunk > PIPE_BUF)
			chunk = PIPE_BUF;
		n = write(fd, buf + off, chunk);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			err = -errno;
			break;
		}
		off += (size_t)n;
	}
	if (done)
		*done = off;
	return err;
}

int out_buf_add(struct out_buf *b, const char *line, size_t len)
{
	if (!b->data) {
		b->data = malloc(OUT_BUF_SIZE);
		if (!b->data)
			return -ENOSPC;
	}
	if (len > OUT_BUF_SIZE - b->len)
		return -ENOSPC;
	memcpy(b->data + b->len, line, len);
	b->len += len;
	return 0;
}

void out_buf_free(struct out_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = 0;
}
