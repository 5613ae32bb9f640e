// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "chttp.h"
#include "curl_dl.h"

#define CHTTP_GRPC_FRAME 5 /* compressed flag + 4-byte big-endian length */
#define CHTTP_REQ_MAX 4096 /* a gRPC request we send: an id or a name */

struct chttp_buf {
	uint8_t *b;
	size_t len, cap;
	int too_big;
	long grpc_status;
};

static size_t chttp_write(char *p, size_t sz, size_t n, void *ctx)
{
	struct chttp_buf *b = ctx;
	size_t add = sz * n;

	if (add > CHTTP_RESPONSE_MAX - b->len) {
		b->too_big = 1;
		return 0; /* libcurl stops the transfer */
	}
	if (b->len + add + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 16384;
		uint8_t *g;

		while (cap < b->len + add + 1)
			cap *= 2;
		g = realloc(b->b, cap);
		if (!g)
			return 0;
		b->b = g;
		b->cap = cap;
	}
	memcpy(b->b + b->len, p, add);
	b->len += add;
	b->b[b->len] = 0;
	return add;
}

/* Headers and, for HTTP/2, trailers: gRPC's status comes in one or the other. */
static size_t chttp_header(char *p, size_t sz, size_t n, void *ctx)
{
	struct chttp_buf *b = ctx;
	size_t len = sz * n;

	if (len > 12 && !strncasecmp(p, "grpc-status:", 12)) {
		char v[16];
		size_t k = len - 12 < sizeof(v) - 1 ? len - 12 : sizeof(v) - 1;

		memcpy(v, p + 12, k);
		v[k] = 0;
		b->grpc_status = strtol(v, NULL, 10);
	}
	return len;
}

static pthread_once_t chttp_once = PTHREAD_ONCE_INIT;
static int chttp_rc = -1;
static char chttp_err[256];

static void chttp_load(void)
{
	if (curl_dl_load(chttp_err, sizeof(chttp_err)))
		return;
	/* thread-safe from libcurl 7.84 (Debian 12 has 7.88) */
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		snprintf(chttp_err, sizeof(chttp_err), "curl_global_init failed");
		return;
	}
	chttp_rc = 0;
}

int chttp_init(char *err, size_t cap)
{
	pthread_once(&chttp_once, chttp_load);
	if (chttp_rc && err && cap)
		snprintf(err, cap, "%s", chttp_err);
	return chttp_rc;
}

static int chttp_run(CURL *c, struct chttp_buf *b, struct chttp_resp *r, const char *socket,
		     uint32_t timeout_ms)
{
	char ebuf[CURL_ERROR_SIZE] = "";
	CURLcode rc;

	curl_easy_setopt(c, CURLOPT_UNIX_SOCKET_PATH, socket);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http");
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L); /* a thread: no SIGALRM */
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)timeout_ms);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, (long)timeout_ms);
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)CHTTP_RESPONSE_MAX);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, chttp_write);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, b);
	curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, chttp_header);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, b);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, ebuf);
	rc = curl_easy_perform(c);
	if (rc != CURLE_OK) {
		if (b->too_big)
			snprintf(r->err, sizeof(r->err), "answer larger than %d bytes",
				 CHTTP_RESPONSE_MAX);
		else
			snprintf(r->err, sizeof(r->err), "%s", ebuf[0] ? ebuf : curl_easy_strerror(rc));
		free(b->b);
		return -1;
	}
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r->status);
	r->body = b->b;
	r->len = b->len;
	if (!r->body) {
		r->body = calloc(1, 1);
		if (!r->body) {
			snprintf(r->err, sizeof(r->err), "%s", strerror(ENOMEM));
			return -1;
		}
	}
	return 0;
}

int chttp_get(const char *socket, const char *path, uint32_t timeout_ms, struct chttp_resp *r)
{
	struct chttp_buf b = { .grpc_status = -1 };
	char url[1024];
	CURL *c;
	int rc;

	memset(r, 0, sizeof(*r));
	r->status = -1;
	c = curl_easy_init();
	if (!c) {
		snprintf(r->err, sizeof(r->err), "curl_easy_init failed");
		return -1;
	}
	snprintf(url, sizeof(url), "http://localhost%s", path);
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_HTTPGET, 1L);
	rc = chttp_run(c, &b, r, socket, timeout_ms);
	curl_easy_cleanup(c);
	return rc;
}

int chttp_grpc(const char *socket, const char *method, const char *ns, const uint8_t *req,
	       size_t req_len, uint32_t timeout_ms, struct chttp_resp *r)
{
	struct chttp_buf b = { .grpc_status = -1 };
	struct curl_slist *h = NULL, *h2;
	uint8_t frame[CHTTP_GRPC_FRAME + CHTTP_REQ_MAX];
	char url[512], nsh[300];
	uint32_t mlen;
	CURL *c;
	int rc;

	memset(r, 0, sizeof(*r));
	r->status = -1;
	if (req_len > CHTTP_REQ_MAX) {
		snprintf(r->err, sizeof(r->err), "request too large");
		return -1;
	}
	frame[0] = 0;
	frame[1] = (uint8_t)(req_len >> 24);
	frame[2] = (uint8_t)(req_len >> 16);
	frame[3] = (uint8_t)(req_len >> 8);
	frame[4] = (uint8_t)req_len;
	memcpy(frame + CHTTP_GRPC_FRAME, req, req_len);
	c = curl_easy_init();
	if (!c) {
		snprintf(r->err, sizeof(r->err), "curl_easy_init failed");
		return -1;
	}
	snprintf(url, sizeof(url), "http://localhost%s", method);
	snprintf(nsh, sizeof(nsh), "containerd-namespace: %s", ns ? ns : "");
	h2 = curl_slist_append(h, "Content-Type: application/grpc");
	h = h2 ? h2 : h;
	h2 = h ? curl_slist_append(h, "TE: trailers") : NULL;
	h = h2 ? h2 : h;
	if (ns && h) {
		h2 = curl_slist_append(h, nsh);
		h = h2 ? h2 : h;
	}
	if (h) {
		h2 = curl_slist_append(h, "Expect:");
		h = h2 ? h2 : h;
	}
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(c, CURLOPT_POST, 1L);
	curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)(CHTTP_GRPC_FRAME + req_len));
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, frame);
	rc = chttp_run(c, &b, r, socket, timeout_ms);
	curl_easy_cleanup(c);
	curl_slist_free_all(h);
	if (rc)
		return -1;
	r->status = b.grpc_status;
	if (r->status < 0) {
		snprintf(r->err, sizeof(r->err), "no grpc-status in the answer");
		chttp_resp_free(r);
		return -1;
	}
	if (r->status)
		return 0;
	/* one message: the frame's length must be what came */
	if (r->len < CHTTP_GRPC_FRAME || r->body[0] != 0) {
		snprintf(r->err, sizeof(r->err), "malformed or compressed gRPC message");
		chttp_resp_free(r);
		return -1;
	}
	mlen = (uint32_t)r->body[1] << 24 | (uint32_t)r->body[2] << 16 | (uint32_t)r->body[3] << 8 |
	       r->body[4];
	if ((size_t)mlen != r->len - CHTTP_GRPC_FRAME) {
		snprintf(r->err, sizeof(r->err), "gRPC message of %u bytes in %zu", mlen,
			 r->len - CHTTP_GRPC_FRAME);
		chttp_resp_free(r);
		return -1;
	}
	memmove(r->body, r->body + CHTTP_GRPC_FRAME, mlen);
	r->len = mlen;
	r->body[mlen] = 0;
	return 0;
}

void chttp_resp_free(struct chttp_resp *r)
{
	free(r->body);
	r->body = NULL;
	r->len = 0;
}
