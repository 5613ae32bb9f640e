// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * syslog_output: what syslog(3) would send, without syslog(3)'s process-wide
 * state, so that the socket (default /dev/log), the facility and the tag are
 * this output's own: one RFC 3164 datagram "<PRI>Mmm dd hh:mm:ss TAG[PID]: MSG"
 * per alert on a unix socket, datagram first and a stream socket (frames
 * ended by NUL, as glibc does) when the socket is a stream one. The level is
 * Falco's mapping of the alert's priority: Emergency..Debug -> LOG_EMERG..
 * LOG_DEBUG. A missing or refusing socket (syslogd restarting) is
 * "unavailable": alerts wait and the connection is retried with backoff.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <syslog.h>
#include <unistd.h>

#include "out.h"

/* "<191>Nov 29 15:48:00 " + tag + "[4194304]: " fits with a tag this long. */
#define OUT_SYSLOG_TAG_MAX    64
#define OUT_SYSLOG_HEADER_MAX (32 + OUT_SYSLOG_TAG_MAX + 16)
/* A syslogd that does not read for this long makes the send fail (retried). */
#define OUT_SYSLOG_SEND_TIMEOUT_MS 1000

struct out_syslog {
	char *path;
	char tag[OUT_SYSLOG_TAG_MAX + 1];
	int facility;
	pid_t pid;
	int fd, type;
	char *msg; /* the datagram being built */
	size_t msg_size;
};

static const struct {
	const char *name;
	int facility;
} out_syslog_facilities[] = {
    {"kern", LOG_KERN},	    {"user", LOG_USER},		{"mail", LOG_MAIL},
    {"daemon", LOG_DAEMON}, {"auth", LOG_AUTH},		{"syslog", LOG_SYSLOG},
    {"lpr", LOG_LPR},	    {"news", LOG_NEWS},		{"uucp", LOG_UUCP},
    {"cron", LOG_CRON},	    {"authpriv", LOG_AUTHPRIV}, {"ftp", LOG_FTP},
    {"local0", LOG_LOCAL0}, {"local1", LOG_LOCAL1},	{"local2", LOG_LOCAL2},
    {"local3", LOG_LOCAL3}, {"local4", LOG_LOCAL4},	{"local5", LOG_LOCAL5},
    {"local6", LOG_LOCAL6}, {"local7", LOG_LOCAL7},
};

int outputs_syslog_facility_parse(const char *name)
{
	size_t i;

	if (!name)
		return -EINVAL;
	if (!strncasecmp(name, "LOG_", 4))
		name += 4;
	for (i = 0; i < sizeof(out_syslog_facilities) / sizeof(out_syslog_facilities[0]); i++)
		if (!strcasecmp(name, out_syslog_facilities[i].name))
			return out_syslog_facilities[i].facility;
	return -EINVAL;
}

const char *outputs_syslog_facility_name(int facility)
{
	for (size_t i = 0; i < sizeof(out_syslog_facilities) / sizeof(out_syslog_facilities[0]); i++)
		if (out_syslog_facilities[i].facility == facility)
			return out_syslog_facilities[i].name;
	return "?";
}

int out_syslog_level(int prio)
{
	/* enum engine_priority: 1 Emergency .. 8 Debug; LOG_EMERG 0 .. LOG_DEBUG 7 */
	if (prio < 1 || prio > 8)
		return LOG_INFO;
	return prio - 1;
}

int out_syslog_format(char *buf, size_t size, int facility, int level, const char *tag, pid_t pid,
		      time_t now, const char *msg, size_t len)
{
	char stamp[32];
	struct tm tm;
	int hdr;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%b %e %H:%M:%S", &tm);
	hdr =
	    snprintf(buf, size, "<%d>%s %s[%d]: ", (facility & LOG_FACMASK) | (level & LOG_PRIMASK),
		     stamp, tag, (int)pid);
	if (hdr < 0 || (size_t)hdr >= size)
		return -ENOSPC;
	if (len > size - 1 - (size_t)hdr)
		len = size - 1 - (size_t)hdr;
	memcpy(buf + hdr, msg, len);
	buf[hdr + len] = '\0';
	return hdr + (int)len;
}

static void out_syslog_disconnect(struct out_syslog *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

static int out_syslog_try(struct out_syslog *s, int type)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	struct timeval tv = {.tv_sec = OUT_SYSLOG_SEND_TIMEOUT_MS / 1000,
			     .tv_usec = (OUT_SYSLOG_SEND_TIMEOUT_MS % 1000) * 1000};
	int fd, err;

	memcpy(sa.sun_path, s->path, strlen(s->path) + 1); /* length checked at open */
	fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	s->fd = fd;
	s->type = type;
	return 0;
}

static int out_syslog_connect(struct out *o)
{
	struct out_syslog *s = o->be;
	int err;

	if (s->fd >= 0)
		return 0;
	err = out_syslog_try(s, SOCK_DGRAM);
	if (err == -EPROTOTYPE)
		err = out_syslog_try(s, SOCK_STREAM);
	if (err) {
		out_why(o, "connect %s: %s", s->path, strerror(-err));
		return -EAGAIN;
	}
	return 0;
}

static int out_syslog_send(struct out_syslog *s, size_t len)
{
	/* a stream socket takes the terminating NUL as the end of the frame */
	size_t n = s->type == SOCK_STREAM ? len + 1 : len;
	ssize_t k = send(s->fd, s->msg, n, MSG_NOSIGNAL);

	if (k < 0)
		return -errno;
	return (size_t)k == n ? 0 : -EIO;
}

static int out_syslog_write(struct out *o, const struct outmsg *m)
{
	struct out_syslog *s = o->be;
	size_t need = OUT_SYSLOG_HEADER_MAX + m->len + 1;
	int len, err;

	if (need > s->msg_size) {
		char *p = realloc(s->msg, need);

		if (!p) {
			out_why(o, "no memory for a %zu-byte message", need);
			return -ENOMEM;
		}
		s->msg = p;
		s->msg_size = need;
	}
	len = out_syslog_format(s->msg, s->msg_size, s->facility, out_syslog_level(m->prio), s->tag,
				s->pid, time(NULL), m->line, m->len);
	if (len < 0) {
		out_why(o, "message header does not fit");
		return -EINVAL;
	}
	err = out_syslog_connect(o);
	if (err)
		return err;
	err = out_syslog_send(s, (size_t)len);
	if (err && err != -EMSGSIZE) { /* syslogd restarted: reconnect once, as glibc does */
		out_syslog_disconnect(s);
		if (!out_syslog_connect(o))
			err = out_syslog_send(s, (size_t)len);
	}
	if (!err)
		return 0;
	out_why(o, "send to %s: %s", s->path, strerror(-err));
	if (err == -EMSGSIZE)
		return err; /* this alert can never go: failed */
	out_syslog_disconnect(s);
	return -EAGAIN;
}

static int out_syslog_probe(struct out *o)
{
	return out_syslog_connect(o);
}

static void out_syslog_close(struct out *o)
{
	struct out_syslog *s = o->be;

	out_syslog_disconnect(s);
	free(s->msg);
	free(s->path);
	free(s);
	o->be = NULL;
}

static const struct out_ops out_syslog_ops = {
    .name = "syslog",
    .probe = out_syslog_probe,
    .write = out_syslog_write,
    .close = out_syslog_close,
};

int out_syslog_open(struct out *o, const struct outputs_config *cfg)
{
	const char *path = cfg->syslog_output.socket_path;
	const char *tag = cfg->syslog_output.tag;
	struct sockaddr_un sa;
	struct out_syslog *s;

	o->ops = &out_syslog_ops;
	if (!path || !path[0])
		path = OUTPUTS_SYSLOG_SOCKET;
	if (!tag || !tag[0])
		tag = OUTPUTS_SYSLOG_TAG;
	if (strlen(path) >= sizeof(sa.sun_path)) {
		out_log_err(o, "error", "syslog socket path longer than %zu bytes: %s",
			    sizeof(sa.sun_path) - 1, path);
		return -ENAMETOOLONG;
	}
	if (strlen(tag) > OUT_SYSLOG_TAG_MAX || strpbrk(tag, " :[]\n")) {
		out_log_err(o, "error",
			    "syslog tag must be 1 to %d characters without ' :[]': '%s'",
			    OUT_SYSLOG_TAG_MAX, tag);
		return -EINVAL;
	}
	if (cfg->syslog_output.facility & ~LOG_FACMASK) {
		out_log_err(o, "error", "syslog facility %d is not a LOG_* facility",
			    cfg->syslog_output.facility);
		return -EINVAL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->path = strdup(path);
	if (!s->path) {
		free(s);
		return -ENOMEM;
	}
	strcpy(s->tag, tag);
	s->facility = cfg->syslog_output.facility ? cfg->syslog_output.facility : LOG_USER;
	s->pid = getpid();
	s->fd = -1;
	o->be = s;
	return 0;
}
