/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The request head a client sends the proxy: "CONNECT host:port HTTP/1.x"
 * (a tunnel) or "METHOD http://host[:port]/path HTTP/1.x" (plain HTTP, one
 * request per connection: the head goes upstream in origin form with
 * "Connection: close", hop-by-hop and Proxy-* headers removed).
 */
#ifndef AS_EGRESS_HTTP_H
#define AS_EGRESS_HTTP_H

#include <stddef.h>
#include <stdint.h>

#include "allow.h"

/* Longest request head accepted: nginx's large_client_header_buffers (8k) is
 * the common ceiling a client expects a proxy to honour. */
#define EGRESS_HEAD_MAX 8192
/* Room for the rewritten plain-HTTP head: the head plus an added Host and Connection. */
#define EGRESS_HEAD_OUT_MAX (EGRESS_HEAD_MAX + EGRESS_HOST_MAX + 64)
#define EGRESS_HTTP_PORT 80 /* port of an http:// URI without one */

struct egress_request {
	int connect; /* 1: CONNECT tunnel, 0: plain HTTP */
	char host[EGRESS_HOST_MAX + 1];
	uint16_t port;
	size_t head_len; /* bytes of the head in the input, CRLF CRLF included */
	char out[EGRESS_HEAD_OUT_MAX]; /* plain HTTP: the head sent upstream */
	size_t out_len;
};

/*
 * Parse the head at buf (len bytes so far). 1: complete, req filled.
 * 0: incomplete, read more. -EINVAL: malformed, -E2BIG: longer than
 * EGRESS_HEAD_MAX; the reason is in err in both cases.
 */
int egress_http_parse(const char *buf, size_t len, struct egress_request *req, char *err,
		      size_t errsz);

#endif /* AS_EGRESS_HTTP_H */
