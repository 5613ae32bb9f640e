/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Requests to a container runtime over its unix socket, with libcurl loaded
 * as the HTTP output loads it (outputs/curl_dl.h): plain HTTP/1.1 for the
 * Docker and Podman APIs, gRPC (HTTP/2 with prior knowledge, one unary call)
 * for containerd's. Called from the resolver thread only.
 *
 * Each request is bounded in time (timeout_ms, connect included) and in
 * size (CHTTP_RESPONSE_MAX: a bigger answer is refused, not truncated), so a
 * slow, dead or hostile socket costs the resolver at most the timeout and
 * never the memory.
 */
#ifndef AS_CHTTP_H
#define AS_CHTTP_H

#include <stddef.h>
#include <stdint.h>

/* Largest answer read: a docker inspect is 5-20 KiB, a containerd container
 * with its OCI spec 10-30 KiB; 1 MiB leaves room for huge label sets. */
#define CHTTP_RESPONSE_MAX (1024 * 1024)

struct chttp_resp {
	long status; /* HTTP status; for gRPC the grpc-status (0 OK, 5 NOT_FOUND), -1 none */
	uint8_t *body; /* malloc'd, NUL-terminated; for gRPC the message without its frame */
	size_t len;
	char err[160]; /* why it failed, when it did */
};

/* Load libcurl, once, when the first socket is found (a host without
 * runtimes never maps it); 0 or -1 with the reason in err. */
int chttp_init(char *err, size_t cap);
/* GET path on the HTTP API at socket; 0 when an answer came (any status). */
int chttp_get(const char *socket, const char *path, uint32_t timeout_ms, struct chttp_resp *r);
/* One gRPC unary call: method "/pkg.Service/Method", ns the containerd
 * namespace header (NULL: none); 0 when a status came. */
int chttp_grpc(const char *socket, const char *method, const char *ns, const uint8_t *req,
	       size_t req_len, uint32_t timeout_ms, struct chttp_resp *r);
void chttp_resp_free(struct chttp_resp *r);

#endif /* AS_CHTTP_H */
