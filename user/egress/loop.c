// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Listening, accepting under the limits, polling, dispatching, timeouts, reload. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "clock.h"
#include "elog.h"
#include "loop.h"

/* Fixed slots of the poll array before the connections' two each. */
enum { EGRESS_PFD_LISTEN, EGRESS_PFD_SIGNAL, EGRESS_PFD_RESOLVER, EGRESS_PFD_FIXED };

static uint64_t egress_now_ms(void)
{
	return clock_mono_now() / 1000000u;
}

/* A socket path left by a proxy that died is replaced; a live one is not. */
static int egress_loop_listen(struct egress_proxy *p)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int fd, err;

	if (strlen(p->socket_path) >= sizeof(sa.sun_path)) {
		elog("socket %s: path longer than %zu bytes", p->socket_path,
		     sizeof(sa.sun_path) - 1);
		return -ENAMETOOLONG;
	}
	strcpy(sa.sun_path, p->socket_path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		goto fail;
	if (lstat(p->socket_path, &st) == 0) {
		int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		int live = probe >= 0 && connect(probe, (struct sockaddr *)&sa, sizeof(sa)) == 0;

		if (probe >= 0)
			close(probe);
		if (!S_ISSOCK(st.st_mode) || live) {
			elog("socket %s: %s", p->socket_path,
			     live ? "another proxy is listening on it" : "exists and is not a socket");
			close(fd);
			return -EADDRINUSE;
		}
		unlink(p->socket_path);
	}
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    chmod(p->socket_path, EGRESS_SOCKET_MODE) < 0 || listen(fd, SOMAXCONN) < 0)
		goto fail;
	p->lfd = fd;
	return 0;
fail:
	err = -errno;
	elog("socket %s: %s", p->socket_path, strerror(errno));
	if (fd >= 0)
		close(fd);
	return err;
}

/* The descriptor limit raised to its hard limit, and what it leaves for connections. */
static void egress_loop_fd_budget(struct egress_proxy *p)
{
	struct rlimit rl;

	p->fd_budget = EGRESS_LIMIT_MAX;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return;
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < 2ull * EGRESS_LIMIT_MAX)
		p->fd_budget = rl.rlim_cur > EGRESS_FD_RESERVE
				       ? (unsigned)((rl.rlim_cur - EGRESS_FD_RESERVE) / 2)
				       : 1;
}

static unsigned egress_loop_total(const struct egress_proxy *p)
{
	return p->cfg.lim.total < p->fd_budget ? p->cfg.lim.total : p->fd_budget;
}

int egress_loop_init(struct egress_proxy *p)
{
	sigset_t set;
	int err;

	p->lfd = p->sfd = -1;
	egress_loop_fd_budget(p);
	if (p->cfg.lim.total > p->fd_budget)
		elog("connections_total %u: the descriptor limit allows %u", p->cfg.lim.total,
		     p->fd_budget);
	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	signal(SIGPIPE, SIG_IGN);
	/* blocked before the resolver threads start, so they inherit the mask */
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0 ||
	    (p->sfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC)) < 0) {
		err = -errno;
		elog("signals: %s", strerror(errno));
		return err;
	}
	err = egress_resolve_init(&p->resolver);
	if (err)
		return err;
	return egress_loop_listen(p);
}

static void egress_loop_reload(struct egress_proxy *p)
{
	struct egress_config next;

	if (!p->config_path) {
		elog("SIGHUP: no --config file to reload; the command line's entries stay");
		return;
	}
	if (egress_config_load(&next, p->config_path, p->cli_allow, p->n_cli)) {
		elog("%s: reload failed (errors above): keeping the previous configuration",
		     p->config_path);
		return;
	}
	egress_config_free(&p->cfg);
	p->cfg = next;
	elog("%s: reloaded, %zu allow entries", p->config_path, p->cfg.allow.n);
}

/* The key the per-session limit counts by: the session, else the pid. */
static int egress_same_session(const struct egress_peer *a, const struct egress_peer *b)
{
	if (a->session[0] || b->session[0])
		return strcmp(a->session, b->session) == 0;
	return a->pid == b->pid;
}

static int egress_loop_push(struct egress_proxy *p, struct egress_conn *c)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 64;
		struct egress_conn **v = realloc(p->conns, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		p->conns = v;
		p->cap = cap;
	}
	p->conns[p->n++] = c;
	return 0;
}

static void egress_loop_accept(struct egress_proxy *p, const struct egress_ctx *x)
{
	for (int i = 0; i < EGRESS_ACCEPT_BATCH; i++) {
		int fd = accept4(p->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		struct egress_conn *c;
		unsigned same = 0;
		char reason[96];

		if (fd < 0) {
			if (errno != EAGAIN && errno != EINTR && errno != ECONNABORTED)
				elog("accept: %s", strerror(errno));
			return;
		}
		c = calloc(1, sizeof(*c));
		if (!c) {
			elog("connection: out of memory");
			close(fd);
			continue;
		}
		c->id = ++p->next_id;
		c->cfd = fd;
		c->ufd = -1;
		c->start_ms = x->now_ms;
		c->deadline_ms = x->now_ms + p->cfg.lim.idle_ms;
		egress_peer_read(fd, &c->peer);
		for (size_t k = 0; k < p->n; k++)
			same += p->conns[k] && egress_same_session(&p->conns[k]->peer, &c->peer);
		if (p->n >= egress_loop_total(p)) {
			snprintf(reason, sizeof(reason), "connection limit reached (%u in all)",
				 egress_loop_total(p));
			egress_conn_refuse(c, x, 503, reason);
		} else if (same >= p->cfg.lim.per_session) {
			snprintf(reason, sizeof(reason), "session connection limit reached (%u)",
				 p->cfg.lim.per_session);
			egress_conn_refuse(c, x, 429, reason);
		} else if (egress_loop_push(p, c) == 0) {
			continue;
		}
		egress_conn_close(c, x);
	}
}

static short egress_want_client(const struct egress_conn *c)
{
	if (c->st == EGRESS_HEAD)
		return POLLIN;
	if (c->st == EGRESS_TUNNEL)
		return egress_pump_want_src(&c->up) | egress_pump_want_dst(&c->down);
	return 0;
}

static short egress_want_upstream(const struct egress_conn *c)
{
	if (c->st == EGRESS_CONNECT)
		return POLLOUT;
	if (c->st == EGRESS_TUNNEL)
		return egress_pump_want_src(&c->down) | egress_pump_want_dst(&c->up);
	return 0;
}

/* Fill the poll array; returns the poll timeout in ms (-1: none) or -ENOMEM. */
static int egress_loop_prepare(struct egress_proxy *p, uint64_t now)
{
	size_t need = EGRESS_PFD_FIXED + 2 * p->n;
	uint64_t next = UINT64_MAX;

	if (need > p->pfd_cap) {
		struct pollfd *v = realloc(p->pfd, need * 2 * sizeof(*v));

		if (!v)
			return -ENOMEM;
		p->pfd = v;
		p->pfd_cap = need * 2;
	}
	p->pfd[EGRESS_PFD_LISTEN] = (struct pollfd){ .fd = p->lfd, .events = POLLIN };
	p->pfd[EGRESS_PFD_SIGNAL] = (struct pollfd){ .fd = p->sfd, .events = POLLIN };
	p->pfd[EGRESS_PFD_RESOLVER] =
		(struct pollfd){ .fd = p->resolver.done_rd, .events = POLLIN };
	for (size_t i = 0; i < p->n; i++) {
		const struct egress_conn *c = p->conns[i];
		struct pollfd *f = &p->pfd[EGRESS_PFD_FIXED + 2 * i];

		/* a state that waits on neither side (RESOLVE) leaves the fds out, so a
		 * hang-up does not wake the loop again and again */
		short wc = egress_want_client(c), wu = egress_want_upstream(c);

		f[0] = (struct pollfd){ .fd = wc ? c->cfd : -1, .events = wc };
		f[1] = (struct pollfd){ .fd = wu ? c->ufd : -1, .events = wu };
		if (c->deadline_ms < next)
			next = c->deadline_ms;
	}
	if (next == UINT64_MAX)
		return -1;
	return next <= now ? 0 : (int)(next - now < INT32_MAX ? next - now : INT32_MAX);
}

/* One connection's events and deadline: 1 when it is finished. */
static int egress_loop_conn(struct egress_conn *c, const struct pollfd *f,
			    const struct egress_ctx *x)
{
	short rc = f[0].revents, ru = f[1].revents;
	int hup = (rc | ru) & (POLLHUP | POLLERR);

	if (c->st == EGRESS_HEAD && rc)
		return egress_conn_on_head(c, x);
	if (c->st == EGRESS_CONNECT && ru)
		return egress_conn_on_connect(c, x);
	if (c->st == EGRESS_TUNNEL && (rc || ru))
		return egress_conn_on_tunnel(c, x, hup);
	if (c->deadline_ms <= x->now_ms)
		return egress_conn_on_timeout(c, x);
	return 0;
}

static void egress_loop_resolved(struct egress_proxy *p, const struct egress_ctx *x)
{
	struct egress_resolve_job *j;

	while ((j = egress_resolve_next(&p->resolver))) {
		for (size_t i = 0; i < p->n; i++) {
			struct egress_conn *c = p->conns[i];

			if (c && c->id == j->conn_id && c->st == EGRESS_RESOLVE) {
				if (egress_conn_on_resolved(c, x, j)) {
					egress_conn_close(c, x);
					p->conns[i] = NULL;
				}
				break;
			}
		}
		egress_resolve_free(j);
	}
}

/* SIGHUP reloads; 1 on SIGTERM or SIGINT. */
static int egress_loop_signals(struct egress_proxy *p)
{
	struct signalfd_siginfo si;

	while (read(p->sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo != SIGHUP)
			return 1;
		egress_loop_reload(p);
	}
	return 0;
}

int egress_loop_run(struct egress_proxy *p)
{
	for (;;) {
		struct egress_ctx x = { .cfg = &p->cfg, .resolver = &p->resolver };
		uint64_t now = egress_now_ms();
		int timeout = egress_loop_prepare(p, now);
		size_t n = p->n, k = 0;

		if (timeout < -1) {
			elog("poll array: out of memory");
			return timeout;
		}
		if (poll(p->pfd, EGRESS_PFD_FIXED + 2 * n, timeout) < 0 && errno != EINTR) {
			elog("poll: %s", strerror(errno));
			return -errno;
		}
		x.now_ms = egress_now_ms();
		if (p->pfd[EGRESS_PFD_SIGNAL].revents && egress_loop_signals(p))
			return 0;
		for (size_t i = 0; i < n; i++) {
			if (egress_loop_conn(p->conns[i], &p->pfd[EGRESS_PFD_FIXED + 2 * i], &x)) {
				egress_conn_close(p->conns[i], &x);
				p->conns[i] = NULL;
			}
		}
		if (p->pfd[EGRESS_PFD_RESOLVER].revents)
			egress_loop_resolved(p, &x);
		for (size_t i = 0; i < n; i++)
			if (p->conns[i])
				p->conns[k++] = p->conns[i];
		p->n = k;
		if (p->pfd[EGRESS_PFD_LISTEN].revents)
			egress_loop_accept(p, &x);
	}
}

void egress_loop_fini(struct egress_proxy *p)
{
	struct egress_ctx x = { .cfg = &p->cfg, .resolver = &p->resolver,
				.now_ms = egress_now_ms() };

	for (size_t i = 0; i < p->n; i++)
		egress_conn_close(p->conns[i], &x);
	free(p->conns);
	free(p->pfd);
	if (p->lfd >= 0) {
		close(p->lfd);
		unlink(p->socket_path);
	}
	if (p->sfd >= 0)
		close(p->sfd);
	egress_config_free(&p->cfg);
}
