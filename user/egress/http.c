// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Request heads: the request line, the target, the header lines, the rewrite. */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "http.h"

/* Headers that concern this hop only (RFC 9110 7.6.1) or the proxy: not sent upstream. */
static const char *const egress_http_hop[] = {
	"Connection", "Keep-Alive", "Proxy-Connection", "Proxy-Authorization", "TE",
	"Trailer", "Upgrade",
};

/* End of the head: offset just past the blank line, or 0. Lines end in LF or CRLF. */
static size_t egress_http_end(const char *buf, size_t len)
{
	for (size_t i = 0; i + 1 < len; i++) {
		if (buf[i] != '\n')
			continue;
		if (buf[i + 1] == '\n')
			return i + 2;
		if (buf[i + 1] == '\r' && i + 2 < len && buf[i + 2] == '\n')
			return i + 3;
	}
	return 0;
}

static int egress_http_tchar(int c)
{
	return isalnum(c) || strchr("!#$%&'*+-.^_`|~", c);
}

/* "host:port" or "[v6]:port" (port required) or, with dflt, "host" alone. */
static int egress_http_authority(const char *s, size_t n, struct egress_request *req,
				 int dflt, char *err, size_t errsz)
{
	const char *colon = NULL, *h = s;
	size_t hn;
	unsigned long port = 0;

	if (n && s[0] == '[') {
		const char *close = memchr(s, ']', n);

		if (!close) {
			snprintf(err, errsz, "unbalanced [ in the target");
			return -EINVAL;
		}
		h = s + 1;
		hn = (size_t)(close - h);
		if (close + 1 < s + n) {
			if (close[1] != ':') {
				snprintf(err, errsz, "junk after ] in the target");
				return -EINVAL;
			}
			colon = close + 1;
		}
	} else {
		colon = memchr(s, ':', n);
		hn = colon ? (size_t)(colon - s) : n;
	}
	if (memchr(s, '@', n)) {
		snprintf(err, errsz, "user information in the target");
		return -EINVAL;
	}
	if (!hn || hn > EGRESS_HOST_MAX) {
		snprintf(err, errsz, "%s host in the target", hn ? "too long a" : "no");
		return -EINVAL;
	}
	if (colon) {
		const char *p = colon + 1;

		if (p == s + n)
			goto bad_port;
		for (; p < s + n; p++) {
			if (!isdigit((unsigned char)*p) || port > 65535)
				goto bad_port;
			port = port * 10 + (unsigned long)(*p - '0');
		}
		if (port == 0 || port > 65535)
			goto bad_port;
	} else if (dflt) {
		port = (unsigned long)dflt;
	} else {
		snprintf(err, errsz, "CONNECT target without a port");
		return -EINVAL;
	}
	for (size_t i = 0; i < hn; i++) {
		unsigned char c = (unsigned char)h[i];

		if (!isalnum(c) && !strchr("-._:", c)) {
			snprintf(err, errsz, "character 0x%02x in the host", c);
			return -EINVAL;
		}
	}
	memcpy(req->host, h, hn);
	req->host[hn] = 0;
	req->port = (uint16_t)port;
	return 0;
bad_port:
	snprintf(err, errsz, "port in the target is not 1-65535");
	return -EINVAL;
}

static int egress_http_is_hop(const char *line, size_t n)
{
	for (size_t i = 0; i < sizeof(egress_http_hop) / sizeof(egress_http_hop[0]); i++) {
		size_t k = strlen(egress_http_hop[i]);

		if (n > k && line[k] == ':' && strncasecmp(line, egress_http_hop[i], k) == 0)
			return 1;
	}
	return 0;
}

/* Append to the upstream head; a head of bare-LF lines grows by a byte a
 * line, so the room is checked (out_len past the room marks overflow). */
static void egress_http_put(struct egress_request *req, const char *s, size_t n)
{
	if (req->out_len + n > sizeof(req->out)) {
		req->out_len = sizeof(req->out) + 1;
		return;
	}
	memcpy(req->out + req->out_len, s, n);
	req->out_len += n;
}

/* Header lines from p to end (the blank line excluded): checked, and for
 * plain HTTP copied upstream without the hop-by-hop ones. */
static int egress_http_headers(const char *p, const char *end, struct egress_request *req,
			       char *err, size_t errsz)
{
	int have_host = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)(nl - p);
		const char *colon;

		if (n && p[n - 1] == '\r')
			n--;
		colon = memchr(p, ':', n);
		if (!colon || colon == p) {
			snprintf(err, errsz, "header line without a name and colon");
			return -EINVAL;
		}
		for (const char *q = p; q < colon; q++) {
			if (!egress_http_tchar((unsigned char)*q)) {
				snprintf(err, errsz, "header name with character 0x%02x",
					 (unsigned char)*q);
				return -EINVAL;
			}
		}
		for (const char *q = colon; q < p + n; q++) {
			if ((unsigned char)*q < 0x20 && *q != '\t') {
				snprintf(err, errsz, "control character in a header value");
				return -EINVAL;
			}
		}
		if (!req->connect && !egress_http_is_hop(p, n)) {
			have_host |= colon - p == 4 && strncasecmp(p, "Host", 4) == 0;
			egress_http_put(req, p, n);
			egress_http_put(req, "\r\n", 2);
		}
		p = nl + 1;
	}
	if (!req->connect && !have_host) {
		char line[EGRESS_HOST_MAX + 32];
		int v6 = strchr(req->host, ':') != NULL;
		int k = snprintf(line, sizeof(line), "Host: %s%s%s:%u\r\n", v6 ? "[" : "",
				 req->host, v6 ? "]" : "", req->port);

		egress_http_put(req, line, (size_t)k);
	}
	if (!req->connect)
		egress_http_put(req, "Connection: close\r\n\r\n", 21);
	if (req->out_len > sizeof(req->out)) {
		snprintf(err, errsz, "request head too long once rewritten for upstream");
		return -E2BIG;
	}
	return 0;
}

int egress_http_parse(const char *buf, size_t len, struct egress_request *req, char *err,
		      size_t errsz)
{
	const char *sp1, *sp2, *eol, *target, *ver;
	size_t end = egress_http_end(buf, len), mlen, tlen;

	if (!end) {
		if (len >= EGRESS_HEAD_MAX) {
			snprintf(err, errsz, "request head longer than %d bytes", EGRESS_HEAD_MAX);
			return -E2BIG;
		}
		/* a request line must show itself early: reject junk before the blank line */
		for (size_t i = 0; i < len && buf[i] != '\n'; i++)
			if (buf[i] != '\r' && ((unsigned char)buf[i] < 0x20 ||
					       (unsigned char)buf[i] > 0x7e))
				goto bad_line;
		return 0;
	}
	if (end > EGRESS_HEAD_MAX) {
		snprintf(err, errsz, "request head longer than %d bytes", EGRESS_HEAD_MAX);
		return -E2BIG;
	}
	memset(req, 0, offsetof(struct egress_request, out));
	req->out_len = 0;
	req->head_len = end;
	eol = memchr(buf, '\n', end);
	sp1 = memchr(buf, ' ', (size_t)(eol - buf));
	if (!sp1 || sp1 == buf)
		goto bad_line;
	mlen = (size_t)(sp1 - buf);
	for (size_t i = 0; i < mlen; i++)
		if (!egress_http_tchar((unsigned char)buf[i]))
			goto bad_line;
	target = sp1 + 1;
	sp2 = memchr(target, ' ', (size_t)(eol - target));
	if (!sp2 || sp2 == target)
		goto bad_line;
	tlen = (size_t)(sp2 - target);
	ver = sp2 + 1;
	if ((size_t)(eol - ver) < 8 || strncmp(ver, "HTTP/1.", 7) || (ver[7] != '0' && ver[7] != '1') ||
	    (eol - ver != 8 && !(eol - ver == 9 && ver[8] == '\r'))) {
		snprintf(err, errsz, "not an HTTP/1.0 or HTTP/1.1 request line");
		return -EINVAL;
	}
	for (size_t i = 0; i < tlen; i++)
		if ((unsigned char)target[i] <= 0x20 || (unsigned char)target[i] > 0x7e)
			goto bad_line;
	req->connect = mlen == 7 && memcmp(buf, "CONNECT", 7) == 0;
	if (req->connect) {
		if (egress_http_authority(target, tlen, req, 0, err, errsz))
			return -EINVAL;
	} else {
		const char *auth = target + 7, *path;

		if (tlen >= 8 && strncasecmp(target, "https://", 8) == 0) {
			snprintf(err, errsz, "https:// target: use CONNECT for HTTPS");
			return -EINVAL;
		}
		if (tlen < 8 || strncasecmp(target, "http://", 7)) {
			snprintf(err, errsz, "target is not an absolute http:// URI");
			return -EINVAL;
		}
		path = auth;
		while (path < target + tlen && *path != '/' && *path != '?' && *path != '#')
			path++;
		if (egress_http_authority(auth, (size_t)(path - auth), req, EGRESS_HTTP_PORT, err,
					  errsz))
			return -EINVAL;
		egress_http_put(req, buf, mlen + 1);
		if (path == target + tlen || *path != '/')
			egress_http_put(req, "/", 1);
		egress_http_put(req, path, (size_t)(target + tlen - path));
		egress_http_put(req, " HTTP/1.1\r\n", 11);
	}
	if (egress_http_headers(eol + 1, buf + end - (buf[end - 2] == '\r' ? 2 : 1), req, err,
				errsz))
		return req->out_len > sizeof(req->out) ? -E2BIG : -EINVAL;
	return 1;
bad_line:
	snprintf(err, errsz, "malformed request line");
	return -EINVAL;
}
