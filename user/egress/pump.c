// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* read into the buffer when it is empty, write out what it holds, pass EOF on. */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "pump.h"

/* Reads per call: a connection that always has data yields to the others after this many. */
#define EGRESS_PUMP_ROUNDS 4

void egress_pump_preload(struct egress_pump *p, const void *data, size_t n)
{
	memcpy(p->buf + p->len, data, n);
	p->len += n;
}

short egress_pump_want_src(const struct egress_pump *p)
{
	return !p->eof && p->len == 0 ? POLLIN : 0;
}

short egress_pump_want_dst(const struct egress_pump *p)
{
	return p->off < p->len ? POLLOUT : 0;
}

int egress_pump_run(struct egress_pump *p, int src, int dst)
{
	int moved = 0;
	ssize_t n;

	for (int round = 0;; round++) {
		if (p->off < p->len) {
			n = send(dst, p->buf + p->off, p->len - p->off, MSG_NOSIGNAL);
			if (n < 0) {
				if (errno == EAGAIN || errno == EINTR)
					return moved;
				return -errno;
			}
			p->off += (size_t)n;
			p->total += (uint64_t)n;
			moved = 1;
			if (p->off < p->len)
				return moved; /* the destination is full: poll for POLLOUT */
			p->off = p->len = 0;
		}
		if (p->eof) {
			if (!p->shut) {
				shutdown(dst, SHUT_WR);
				p->shut = true;
				moved = 1;
			}
			return moved;
		}
		if (round == EGRESS_PUMP_ROUNDS)
			return moved;
		n = read(src, p->buf, sizeof(p->buf));
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return moved;
			return -errno;
		}
		if (n == 0)
			p->eof = true;
		p->len = (size_t)n;
		moved = 1;
	}
}
