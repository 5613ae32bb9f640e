/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * One direction of a relayed connection: bytes read from one non-blocking
 * descriptor into a fixed buffer and written to another. A side that stops
 * reading only fills its own buffer: nothing else waits for it. EOF is passed
 * on as shutdown(SHUT_WR) once the buffer is drained. Used by agent-egress
 * (tunnels) and by agent-bwrap's in-sandbox relay.
 */
#ifndef AS_EGRESS_PUMP_H
#define AS_EGRESS_PUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes buffered per direction: a TLS record (16 KiB plus header) in one read. */
#define EGRESS_PUMP_BUF (16 * 1024 + 512)

struct egress_pump {
	char buf[EGRESS_PUMP_BUF];
	size_t off, len; /* pending bytes are buf[off..len) */
	uint64_t total; /* bytes written to the destination */
	bool eof; /* the source is done */
	bool shut; /* and the destination was told (shutdown) */
};

/* Queue bytes to send before anything read (a reply, a rewritten head). n <= EGRESS_PUMP_BUF. */
void egress_pump_preload(struct egress_pump *p, const void *data, size_t n);
/* poll(2) events wanted on the source and on the destination. */
short egress_pump_want_src(const struct egress_pump *p);
short egress_pump_want_dst(const struct egress_pump *p);
/* Move what can move without blocking. 1 when a byte moved or EOF was
 * seen, 0 when nothing could, -errno on an error of either side. */
int egress_pump_run(struct egress_pump *p, int src, int dst);
/* Both done: EOF seen and passed on. */
static inline bool egress_pump_done(const struct egress_pump *p)
{
	return p->shut;
}

#endif
