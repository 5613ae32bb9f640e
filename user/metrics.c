// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "diag.h"
#include "engine.h"
#include "metrics.h"
#include "names.h"

#define METRICS_PAGE_MAX (256 * 1024) /* one /metrics answer */
#define METRICS_REQUEST_MAX 2048 /* bytes of a request we read */
#define METRICS_IO_TIMEOUT_MS 2000 /* a slow client cannot hold the endpoint */

void metrics_init(struct metrics *m)
{
	memset(m, 0, sizeof(*m));
	m->listen_fd = -1;
	m->stop_pipe[0] = m->stop_pipe[1] = -1;
}

void metrics_alert(struct metrics *m, const char *rule, int prio)
{
	size_t n = atomic_load_explicit(&m->nrules, memory_order_acquire), i;

	for (i = 0; i < n; i++)
		if (m->rules[i].prio == prio && !strncmp(m->rules[i].name, rule, METRICS_NAME_MAX - 1))
			break;
	if (i == n) {
		if (n == METRICS_RULES_MAX)
			i = n - 1; /* the last slot counts every rule beyond */
		else {
			snprintf(m->rules[i].name, METRICS_NAME_MAX, "%s",
				 n == METRICS_RULES_MAX - 1 ? "other" : rule);
			m->rules[i].prio = prio;
			atomic_store_explicit(&m->nrules, n + 1, memory_order_release);
		}
	}
	atomic_fetch_add_explicit(&m->rules[i].alerts, 1, memory_order_relaxed);
}

uint64_t metrics_rss_bytes(void)
{
	char buf[256];
	unsigned long long pages = 0, rss = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f) && sscanf(buf, "%llu %llu", &pages, &rss) == 2) {
		fclose(f);
		return (uint64_t)rss * (uint64_t)sysconf(_SC_PAGESIZE);
	}
	fclose(f);
	return 0;
}

struct page {
	char *b;
	size_t cap, len;
};

__attribute__((format(printf, 2, 3))) static void put(struct page *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (p->len >= p->cap)
		return;
	va_start(ap, fmt);
	n = vsnprintf(p->b + p->len, p->cap - p->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		p->len += (size_t)n < p->cap - p->len ? (size_t)n : p->cap - p->len - 1;
}

/* A Prometheus label value: backslash, quote and newline escaped. */
static void put_label(struct page *p, const char *s)
{
	for (; *s && p->len + 3 < p->cap; s++) {
		if (*s == '\\' || *s == '"')
			put(p, "\\%c", *s);
		else if (*s == '\n')
			put(p, "\\n");
		else
			put(p, "%c", *s);
	}
}

#define LOAD(x) ((unsigned long long)atomic_load_explicit(&(x), memory_order_relaxed))

size_t metrics_render(struct metrics *m, char *buf, size_t cap)
{
	struct page p = { buf, cap, 0 };
	size_t nr = atomic_load_explicit(&m->nrules, memory_order_acquire);
	size_t no = atomic_load_explicit(&m->noutputs, memory_order_acquire);

	put(&p, "# HELP agent_sentinel_events_total Events received from the kernel, by type.\n"
		"# TYPE agent_sentinel_events_total counter\n");
	NAMES_EACH_KERNEL_TYPE(t)
		put(&p, "agent_sentinel_events_total{type=\"%s\"} %llu\n", names_event_kind(t),
		    LOAD(m->events[t]));
	put(&p, "# HELP agent_sentinel_drops_total Events or alerts lost, by cause.\n"
		"# TYPE agent_sentinel_drops_total counter\n");
	NAMES_EACH_KERNEL_TYPE(t)
		put(&p, "agent_sentinel_drops_total{cause=\"ringbuf\",type=\"%s\"} %llu\n",
		    names_event_kind(t), LOAD(m->kernel_drops[t]));
	put(&p, "agent_sentinel_drops_total{cause=\"malformed\"} %llu\n", LOAD(m->bad_records));
	for (size_t i = 0; i < no; i++)
		put(&p, "agent_sentinel_drops_total{cause=\"output_queue\",output=\"%s\"} %llu\n",
		    m->outputs[i].name, LOAD(m->outputs[i].dropped));
	put(&p, "# HELP agent_sentinel_alerts_total Alerts raised, by rule and priority.\n"
		"# TYPE agent_sentinel_alerts_total counter\n");
	for (size_t i = 0; i < nr; i++) {
		put(&p, "agent_sentinel_alerts_total{rule=\"");
		put_label(&p, m->rules[i].name);
		put(&p, "\",priority=\"%s\"} %llu\n", engine_priority_name(m->rules[i].prio),
		    LOAD(m->rules[i].alerts));
	}
	put(&p, "# HELP agent_sentinel_output_alerts_total Alerts delivered or failed, by output.\n"
		"# TYPE agent_sentinel_output_alerts_total counter\n");
	for (size_t i = 0; i < no; i++) {
		put(&p, "agent_sentinel_output_alerts_total{output=\"%s\",result=\"delivered\"} %llu\n",
		    m->outputs[i].name, LOAD(m->outputs[i].emitted));
		put(&p, "agent_sentinel_output_alerts_total{output=\"%s\",result=\"failed\"} %llu\n",
		    m->outputs[i].name, LOAD(m->outputs[i].failed));
	}
	put(&p, "# HELP agent_sentinel_output_queue_depth Alerts waiting, by output.\n"
		"# TYPE agent_sentinel_output_queue_depth gauge\n");
	for (size_t i = 0; i < no; i++)
		put(&p, "agent_sentinel_output_queue_depth{output=\"%s\"} %llu\n",
		    m->outputs[i].name, LOAD(m->outputs[i].queued));
	put(&p, "# HELP agent_sentinel_rule_eval_seconds_total Time spent evaluating rules.\n"
		"# TYPE agent_sentinel_rule_eval_seconds_total counter\n"
		"agent_sentinel_rule_eval_seconds_total %.9f\n",
	    (double)LOAD(m->eval_ns) / 1e9);
	put(&p, "# HELP agent_sentinel_proctable_entries Processes in the process table.\n"
		"# TYPE agent_sentinel_proctable_entries gauge\n"
		"agent_sentinel_proctable_entries %llu\n",
	    LOAD(m->proctable_entries));
	put(&p, "# HELP agent_sentinel_proctable_untracked_total Processes not tracked: table full.\n"
		"# TYPE agent_sentinel_proctable_untracked_total counter\n"
		"agent_sentinel_proctable_untracked_total %llu\n",
	    LOAD(m->untracked));
	put(&p, "# HELP agent_sentinel_reloads_total Rule and config reloads (SIGHUP), by result.\n"
		"# TYPE agent_sentinel_reloads_total counter\n"
		"agent_sentinel_reloads_total{result=\"ok\"} %llu\n"
		"agent_sentinel_reloads_total{result=\"failed\"} %llu\n",
	    LOAD(m->reloads), LOAD(m->reload_failures));
	put(&p, "# HELP agent_sentinel_rss_bytes Resident memory of the agent.\n"
		"# TYPE agent_sentinel_rss_bytes gauge\n"
		"agent_sentinel_rss_bytes %llu\n",
	    (unsigned long long)metrics_rss_bytes());
	return p.len;
}

static void metrics_reply(int fd, const char *status, const char *type, const char *body,
			  size_t len)
{
	char head[256];
	int n = snprintf(head, sizeof(head),
			 "HTTP/1.1 %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
			 "Connection: close\r\n\r\n",
			 status, type, len);

	if (write(fd, head, (size_t)n) == n && len)
		(void)!write(fd, body, len);
}

static void metrics_handle(struct metrics *m, int fd, char *page)
{
	char req[METRICS_REQUEST_MAX];
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	ssize_t n;

	if (poll(&pfd, 1, METRICS_IO_TIMEOUT_MS) != 1)
		return;
	n = read(fd, req, sizeof(req) - 1);
	if (n <= 0)
		return;
	req[n] = 0;
	if (!strncmp(req, "GET /metrics ", 13) || !strncmp(req, "GET /metrics?", 13)) {
		size_t len = metrics_render(m, page, METRICS_PAGE_MAX);

		metrics_reply(fd, "200 OK", "text/plain; version=0.0.4", page, len);
	} else if (!strncmp(req, "GET /healthz ", 13)) {
		if (atomic_load(&m->ready))
			metrics_reply(fd, "200 OK", "text/plain", "ok\n", 3);
		else
			metrics_reply(fd, "503 Service Unavailable", "text/plain", "starting\n", 9);
	} else {
		metrics_reply(fd, "404 Not Found", "text/plain", "not found\n", 10);
	}
}

static void *metrics_loop(void *arg)
{
	struct metrics *m = arg;
	char *page = malloc(METRICS_PAGE_MAX);

	if (!page)
		return NULL;
	for (;;) {
		struct pollfd pfd[2] = { { .fd = m->listen_fd, .events = POLLIN },
					 { .fd = m->stop_pipe[0], .events = POLLIN } };
		int fd;

		if (poll(pfd, 2, -1) < 0 && errno != EINTR)
			break;
		if (pfd[1].revents)
			break;
		if (!(pfd[0].revents & POLLIN))
			continue;
		fd = accept4(m->listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		metrics_handle(m, fd, page);
		close(fd);
	}
	free(page);
	return NULL;
}

int metrics_serve(struct metrics *m, const char *address, int port, int *bound_port)
{
	struct sockaddr_storage ss = { 0 };
	struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;
	socklen_t len;
	int one = 1, err;

	/* metrics.listen_address is a numeric IPv4 or IPv6 address */
	if (inet_pton(AF_INET, address, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons((uint16_t)port);
		len = sizeof(*sin);
	} else if (inet_pton(AF_INET6, address, &sin6->sin6_addr) == 1) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons((uint16_t)port);
		len = sizeof(*sin6);
	} else {
		diag_err("metrics.listen_address %s: not a numeric IPv4 or IPv6 address", address);
		return -EINVAL;
	}
	m->listen_fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (m->listen_fd < 0)
		return -errno;
	setsockopt(m->listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(m->listen_fd, (struct sockaddr *)&ss, len) || listen(m->listen_fd, 16)) {
		err = -errno;
		diag_err("metrics endpoint %s port %d: %s", address, port, strerror(-err));
		goto fail;
	}
	len = sizeof(ss);
	getsockname(m->listen_fd, (struct sockaddr *)&ss, &len);
	if (bound_port)
		*bound_port = ntohs(ss.ss_family == AF_INET ? sin->sin_port : sin6->sin6_port);
	if (pipe2(m->stop_pipe, O_CLOEXEC)) {
		err = -errno;
		goto fail;
	}
	err = -pthread_create(&m->thread, NULL, metrics_loop, m);
	if (err) {
		diag_err("metrics endpoint: cannot start its thread: %s", strerror(-err));
		goto fail;
	}
	m->running = 1;
	return 0;
fail:
	close(m->listen_fd);
	m->listen_fd = -1;
	return err;
}

void metrics_stop(struct metrics *m)
{
	if (m->running) {
		(void)!write(m->stop_pipe[1], "x", 1);
		pthread_join(m->thread, NULL);
		m->running = 0;
	}
	for (int i = 0; i < 2; i++)
		if (m->stop_pipe[i] >= 0)
			close(m->stop_pipe[i]);
	if (m->listen_fd >= 0)
		close(m->listen_fd);
	m->listen_fd = m->stop_pipe[0] = m->stop_pipe[1] = -1;
}
