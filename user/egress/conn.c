// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The steps of one connection: head, decision, resolution, connect, tunnel, close. */
#include <ctype.h>
#include <errno.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "alert.h"
#include "conn.h"
#include "engine.h"

#define EGRESS_ESTABLISHED "HTTP/1.1 200 Connection established\r\n\r\n"
/* One refusal: status line, three headers, the reason. */
#define EGRESS_REPLY_MAX 512
/* Unread request bytes discarded before closing: a unix socket closed with
 * unread data resets its peer, which would then lose the refusal. */
#define EGRESS_DRAIN_MAX (64 * 1024)

/* What the rewritten head and the bytes that followed it can take up in a pump. */
_Static_assert(EGRESS_HEAD_OUT_MAX + EGRESS_HEAD_MAX <= EGRESS_PUMP_BUF,
	       "a plain-HTTP head and what followed it fit the upstream pump");

static const struct {
	int status;
	const char *text;
} egress_statuses[] = {
	{ 400, "Bad Request" },	      { 403, "Forbidden" },
	{ 408, "Request Timeout" },   { 429, "Too Many Requests" },
	{ 431, "Request Header Fields Too Large" },
	{ 502, "Bad Gateway" },	      { 503, "Service Unavailable" },
	{ 504, "Gateway Timeout" },
};

static void egress_conn_reply(int fd, int status, const char *reason)
{
	const char *text = "Error";
	char buf[EGRESS_REPLY_MAX];
	int n;

	for (size_t i = 0; i < sizeof(egress_statuses) / sizeof(egress_statuses[0]); i++)
		if (egress_statuses[i].status == status)
			text = egress_statuses[i].text;
	n = snprintf(buf, sizeof(buf),
		     "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nContent-Length: %zu\r\n"
		     "Connection: close\r\n\r\nagent-egress: %s\n",
		     status, text, strlen(reason) + sizeof("agent-egress: \n") - 1, reason);
	if (n > 0 && (size_t)n < sizeof(buf))
		/* best effort: a client that does not read loses the explanation */
		(void)!send(fd, buf, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT);
}

static void egress_conn_decision(const struct egress_conn *c, const struct egress_ctx *x,
				 int allowed, int prio, const char *reason)
{
	struct egress_decision d = {
		.allowed = allowed,
		.prio = prio,
		.host = c->req.host,
		.port = c->req.port,
		.address = c->address,
		.reason = reason,
		.error = c->error,
		.bytes_out = c->up.total,
		.bytes_in = c->down.total > c->reply_len ? c->down.total - c->reply_len : 0,
		.duration_ms = x->now_ms - c->start_ms,
		.peer = &c->peer,
	};

	egress_alert_emit(&d);
}

/* Refuse: the Denied line, the HTTP status, finished. */
__attribute__((format(printf, 5, 6))) static int
egress_conn_deny(struct egress_conn *c, const struct egress_ctx *x, int status, int prio,
		 const char *fmt, ...)
{
	char reason[EGRESS_HOST_MAX + 256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	c->allowed_by[0] = 0;
	/* the client has its answer by the time the line says so */
	egress_conn_reply(c->cfd, status, reason);
	egress_conn_decision(c, x, 0, prio, reason);
	return 1;
}

void egress_conn_refuse(struct egress_conn *c, const struct egress_ctx *x, int status,
			const char *reason)
{
	egress_conn_deny(c, x, status, ENGINE_PRIO_WARNING, "%s", reason);
}

static int egress_conn_tunnel_start(struct egress_conn *c, const struct egress_ctx *x)
{
	const char *rest = c->head + c->req.head_len;
	size_t n_rest = c->head_used - c->req.head_len;

	c->st = EGRESS_TUNNEL;
	c->deadline_ms = x->now_ms + x->cfg->lim.idle_ms;
	if (c->req.connect) {
		egress_pump_preload(&c->down, EGRESS_ESTABLISHED, sizeof(EGRESS_ESTABLISHED) - 1);
		c->reply_len = sizeof(EGRESS_ESTABLISHED) - 1;
	} else {
		egress_pump_preload(&c->up, c->req.out, c->req.out_len);
	}
	egress_pump_preload(&c->up, rest, n_rest);
	return egress_conn_on_tunnel(c, x, 0);
}

/* Connect to the next address; all tried: a 502 and the allowed line with the error. */
static int egress_conn_try_next(struct egress_conn *c, const struct egress_ctx *x)
{
	while (c->next_addr < c->n_addrs) {
		struct sockaddr_in6 *a6 = &c->addrs[c->next_addr++];
		struct sockaddr_in a4 = { .sin_family = AF_INET, .sin_port = a6->sin6_port };
		const struct sockaddr *sa = (const struct sockaddr *)a6;
		socklen_t len = sizeof(*a6);
		uint8_t raw[16];
		int fd;

		memcpy(raw, &a6->sin6_addr, 16);
		egress_addr_format(raw, c->address, sizeof(c->address));
		if (IN6_IS_ADDR_V4MAPPED(&a6->sin6_addr)) {
			memcpy(&a4.sin_addr, raw + 12, 4);
			sa = (const struct sockaddr *)&a4;
			len = sizeof(a4);
		}
		fd = socket(sa->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			snprintf(c->error, sizeof(c->error), "socket: %s", strerror(errno));
			continue;
		}
		if (connect(fd, sa, len) == 0 || errno == EINPROGRESS) {
			c->ufd = fd;
			c->st = EGRESS_CONNECT;
			c->deadline_ms = x->now_ms + x->cfg->lim.connect_ms;
			return 0;
		}
		snprintf(c->error, sizeof(c->error), "connect: %s", strerror(errno));
		close(fd);
	}
	egress_conn_reply(c->cfd, 502, c->error);
	return 1;
}

/* Note an allowed request and connect. */
static int egress_conn_allow(struct egress_conn *c, const struct egress_ctx *x,
			     const struct egress_allow_entry *by)
{
	snprintf(c->allowed_by, sizeof(c->allowed_by), "allowed by %s", by->text);
	return egress_conn_try_next(c, x);
}

static void egress_conn_add_addr(struct egress_conn *c, const uint8_t raw[16])
{
	struct sockaddr_in6 *a;

	for (unsigned i = 0; i < c->n_addrs; i++)
		if (memcmp(&c->addrs[i].sin6_addr, raw, 16) == 0)
			return;
	if (c->n_addrs == EGRESS_ADDRS_MAX)
		return;
	a = &c->addrs[c->n_addrs++];
	memset(a, 0, sizeof(*a));
	a->sin6_family = AF_INET6;
	a->sin6_port = htons(c->req.port);
	memcpy(&a->sin6_addr, raw, 16);
}

/* Names compare and resolve case-insensitively and without the root's dot. */
static void egress_conn_normalize(char *host)
{
	size_t n = strlen(host);

	if (n > 1 && host[n - 1] == '.')
		host[n - 1] = 0;
	for (; *host; host++)
		*host = (char)tolower((unsigned char)*host);
}

/* The decision on a complete head. */
static int egress_conn_decide(struct egress_conn *c, const struct egress_ctx *x)
{
	const struct egress_allowlist *l = &x->cfg->allow;
	const struct egress_allow_entry *e;
	uint8_t raw[16];

	egress_conn_normalize(c->req.host);
	if (egress_allow_literal(c->req.host, raw)) {
		e = egress_allow_range(l, raw, c->req.port);
		if (!e)
			return egress_conn_deny(c, x, 403, ENGINE_PRIO_ERROR,
						"IP literal %s:%u not in the allowlist (name the "
						"range to allow it)",
						c->req.host, c->req.port);
		egress_conn_add_addr(c, raw);
		return egress_conn_allow(c, x, e);
	}
	e = egress_allow_name(l, c->req.host, c->req.port);
	if (!e)
		return egress_conn_deny(c, x, 403, ENGINE_PRIO_WARNING, "%s:%u not in the allowlist",
					c->req.host, c->req.port);
	if (egress_resolve_start(x->resolver, c->id, c->req.host))
		return egress_conn_deny(c, x, 503, ENGINE_PRIO_WARNING, "out of memory");
	c->st = EGRESS_RESOLVE;
	return 0;
}

int egress_conn_on_head(struct egress_conn *c, const struct egress_ctx *x)
{
	char err[256];
	ssize_t n;
	int rc;

	n = read(c->cfd, c->head + c->head_used, sizeof(c->head) - c->head_used);
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : 1;
	if (n == 0) {
		if (!c->head_used)
			return 1; /* connected and left: no request, no decision */
		return egress_conn_deny(c, x, 400, ENGINE_PRIO_WARNING,
					"client closed before the request head was complete");
	}
	c->head_used += (size_t)n;
	c->deadline_ms = x->now_ms + x->cfg->lim.idle_ms;
	rc = egress_http_parse(c->head, c->head_used, &c->req, err, sizeof(err));
	if (rc == -E2BIG)
		return egress_conn_deny(c, x, 431, ENGINE_PRIO_WARNING, "%s", err);
	if (rc < 0) {
		c->req.host[0] = 0;
		c->req.port = 0;
		return egress_conn_deny(c, x, 400, ENGINE_PRIO_WARNING, "%s", err);
	}
	return rc == 0 ? 0 : egress_conn_decide(c, x);
}

int egress_conn_on_resolved(struct egress_conn *c, const struct egress_ctx *x,
			    const struct egress_resolve_job *j)
{
	const struct egress_allow_entry *e;

	if (j->gai_err)
		return egress_conn_deny(c, x, 502, ENGINE_PRIO_WARNING, "cannot resolve %s: %s",
					c->req.host, gai_strerror(j->gai_err));
	/* every address must pass: a name answering one public and one private
	 * address (DNS rebinding) is refused, whichever would be tried first */
	for (const struct addrinfo *ai = j->res; ai; ai = ai->ai_next) {
		const char *special;
		uint8_t raw[16];
		char text[EGRESS_ADDR_TEXT_MAX];

		if (ai->ai_family != AF_INET && ai->ai_family != AF_INET6)
			continue;
		egress_addr_from_sa(ai->ai_addr, raw);
		special = egress_allow_special(raw);
		if (special && !egress_allow_range(&x->cfg->allow, raw, c->req.port)) {
			egress_addr_format(raw, text, sizeof(text));
			snprintf(c->address, sizeof(c->address), "%s", text);
			return egress_conn_deny(c, x, 403,
						strcmp(special, "metadata") ? ENGINE_PRIO_ERROR
									    : ENGINE_PRIO_CRITICAL,
						"%s resolves to %s address %s (name the range to "
						"allow it)",
						c->req.host, special, text);
		}
		egress_conn_add_addr(c, raw);
	}
	if (!c->n_addrs)
		return egress_conn_deny(c, x, 502, ENGINE_PRIO_WARNING,
					"%s has no IPv4 or IPv6 address", c->req.host);
	e = egress_allow_name(&x->cfg->allow, c->req.host, c->req.port);
	if (!e) /* a reload while the name resolved took it out */
		return egress_conn_deny(c, x, 403, ENGINE_PRIO_WARNING,
					"%s:%u not in the allowlist (reloaded)", c->req.host,
					c->req.port);
	return egress_conn_allow(c, x, e);
}

int egress_conn_on_connect(struct egress_conn *c, const struct egress_ctx *x)
{
	int soerr = 0;
	socklen_t len = sizeof(soerr);

	if (getsockopt(c->ufd, SOL_SOCKET, SO_ERROR, &soerr, &len) < 0)
		soerr = errno;
	if (soerr == 0) {
		c->error[0] = 0;
		return egress_conn_tunnel_start(c, x);
	}
	snprintf(c->error, sizeof(c->error), "connect: %s", strerror(soerr));
	close(c->ufd);
	c->ufd = -1;
	return egress_conn_try_next(c, x);
}

int egress_conn_on_tunnel(struct egress_conn *c, const struct egress_ctx *x, int hup)
{
	int a = egress_pump_run(&c->up, c->cfd, c->ufd);
	int b = egress_pump_run(&c->down, c->ufd, c->cfd);

	if (a < 0 || b < 0) {
		snprintf(c->error, sizeof(c->error), "%s: %s", a < 0 ? "client side" : "upstream",
			 strerror(a < 0 ? -a : -b));
		return 1;
	}
	if (a || b)
		c->deadline_ms = x->now_ms + x->cfg->lim.idle_ms;
	else if (hup) {
		/* a side hung up and nothing can move: poll would report it again at once */
		snprintf(c->error, sizeof(c->error), "a side hung up with data pending");
		return 1;
	}
	return egress_pump_done(&c->up) && egress_pump_done(&c->down);
}

int egress_conn_on_timeout(struct egress_conn *c, const struct egress_ctx *x)
{
	switch (c->st) {
	case EGRESS_HEAD:
		return egress_conn_deny(c, x, 408, ENGINE_PRIO_WARNING,
					"no complete request head within %u ms", x->cfg->lim.idle_ms);
	case EGRESS_RESOLVE:
		return egress_conn_deny(c, x, 504, ENGINE_PRIO_WARNING,
					"resolving %s took over %u ms", c->req.host,
					x->cfg->lim.idle_ms);
	case EGRESS_CONNECT:
		snprintf(c->error, sizeof(c->error), "connect: no answer within %u ms",
			 x->cfg->lim.connect_ms);
		close(c->ufd);
		c->ufd = -1;
		return egress_conn_try_next(c, x);
	case EGRESS_TUNNEL:
		snprintf(c->error, sizeof(c->error), "idle for %u ms", x->cfg->lim.idle_ms);
		return 1;
	}
	return 1;
}

void egress_conn_close(struct egress_conn *c, const struct egress_ctx *x)
{
	char sink[4096];

	if (c->allowed_by[0])
		egress_conn_decision(c, x, 1, ENGINE_PRIO_INFORMATIONAL, c->allowed_by);
	if (c->ufd >= 0)
		close(c->ufd);
	if (c->cfd >= 0) {
		for (size_t n = 0; n < EGRESS_DRAIN_MAX; n += sizeof(sink))
			if (recv(c->cfd, sink, sizeof(sink), MSG_DONTWAIT) <= 0)
				break;
		close(c->cfd);
	}
	free(c);
}
