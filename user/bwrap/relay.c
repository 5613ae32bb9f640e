// SPDX-License-Identifier: MIT
/* Loopback up, listen, detach, then one poll loop over every pair of sockets. */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "bwlog.h"
#include "detach.h"
#include "pump.h"
#include "relay.h"

/* The relay's name in ps and in agent-egress's alerts (proc.name). */
#define RELAY_NAME "egress-relay"

struct relay_pair {
	int tcp, ux;
	struct egress_pump up, down; /* agent to egress socket, and back */
};

static int relay_lo_up(void)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), err = 0;

	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0) {
		err = -errno;
	} else if (!(ifr.ifr_flags & IFF_UP)) {
		/* bubblewrap brings lo up in the namespace it makes; this is for one that did not */
		ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
			err = -errno;
	}
	close(fd);
	return err;
}

int relay_listen(uint16_t port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd, one = 1, err = relay_lo_up();

	if (err) {
		bwlog_err("relay: cannot bring lo up: %s", strerror(-err));
		return err;
	}
	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(fd, SOMAXCONN) < 0) {
		err = -errno;
		bwlog_err("relay: listen on 127.0.0.1:%u: %s", port, strerror(errno));
		if (fd >= 0)
			close(fd);
		return err;
	}
	return fd;
}

static void relay_close(struct relay_pair *p)
{
	close(p->tcp);
	close(p->ux);
	free(p);
}

static void relay_accept(int lfd, const struct sockaddr_un *sa, struct relay_pair **pairs,
			 size_t *n)
{
	while (*n < RELAY_CONN_MAX) {
		int tcp = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		struct relay_pair *p;
		int ux;

		if (tcp < 0)
			return;
		ux = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		p = ux >= 0 ? calloc(1, sizeof(*p)) : NULL;
		/* a unix connect completes at once, or fails (EAGAIN: the proxy's backlog is full) */
		if (!p || connect(ux, (const struct sockaddr *)sa, sizeof(*sa)) < 0) {
			free(p);
			if (ux >= 0)
				close(ux);
			close(tcp);
			continue;
		}
		p->tcp = tcp;
		p->ux = ux;
		pairs[(*n)++] = p;
	}
}

static _Noreturn void relay_run(int lfd, const char *egress_sock)
{
	static struct relay_pair *pairs[RELAY_CONN_MAX];
	static struct pollfd pfd[1 + 2 * RELAY_CONN_MAX];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct rlimit rl;
	size_t n = 0;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", egress_sock);
	/* two descriptors a connection: the soft limit up to the hard one */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	for (;;) {
		size_t k = 0;

		pfd[0] = (struct pollfd){ .fd = lfd, .events = n < RELAY_CONN_MAX ? POLLIN : 0 };
		for (size_t i = 0; i < n; i++) {
			struct relay_pair *p = pairs[i];

			pfd[1 + 2 * i] = (struct pollfd){
				.fd = p->tcp,
				.events = egress_pump_want_src(&p->up) | egress_pump_want_dst(&p->down)
			};
			pfd[2 + 2 * i] = (struct pollfd){
				.fd = p->ux,
				.events = egress_pump_want_src(&p->down) | egress_pump_want_dst(&p->up)
			};
		}
		if (poll(pfd, 1 + 2 * n, -1) < 0 && errno != EINTR)
			_exit(1);
		for (size_t i = 0; i < n; i++) {
			struct relay_pair *p = pairs[i];
			int a = 0, b = 0;

			if (pfd[1 + 2 * i].revents || pfd[2 + 2 * i].revents) {
				a = egress_pump_run(&p->up, p->tcp, p->ux);
				b = egress_pump_run(&p->down, p->ux, p->tcp);
			}
			if (a < 0 || b < 0 ||
			    (egress_pump_done(&p->up) && egress_pump_done(&p->down)) ||
			    (!a && !b && ((pfd[1 + 2 * i].revents | pfd[2 + 2 * i].revents) &
					  (POLLHUP | POLLERR)))) {
				relay_close(p);
				continue;
			}
			pairs[k++] = p;
		}
		n = k;
		if (pfd[0].revents)
			relay_accept(lfd, &sa, pairs, &n);
	}
}

struct relay_args {
	int lfd;
	const char *egress_sock;
};

static void relay_main(void *arg)
{
	const struct relay_args *a = arg;

	relay_run(a->lfd, a->egress_sock);
}

int relay_spawn(int lfd, const char *egress_sock)
{
	struct relay_args a = { .lfd = lfd, .egress_sock = egress_sock };

	return detach_spawn("relay", RELAY_NAME, relay_main, &a);
}
