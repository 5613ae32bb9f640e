// SPDX-License-Identifier: MIT
/*
 * The tee. stderr gets every byte as it comes; syslog gets whole lines as
 * RFC 3164 messages "<12>Mmm dd hh:mm:ss agent-sandbox[pid]: line" on a unix
 * socket, datagram first, stream (NUL-framed, as glibc does) when the socket
 * is a stream one.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "bwlog.h"
#include "syslogtee.h"

/* LOG_USER | LOG_WARNING, written out to avoid <syslog.h>'s global state. */
#define SYSLOGTEE_PRI (1 * 8 + 4)
/* Header: "<12>Nov 29 15:48:00 agent-sandbox[4194304]: " fits in 64 bytes. */
#define SYSLOGTEE_HEADER_MAX 64
/* Bytes read from bubblewrap's stderr at a time. */
#define SYSLOGTEE_CHUNK 4096

static int syslogtee_connect(struct syslogtee *t, int type)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(t->socket_path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	memcpy(sa.sun_path, t->socket_path, strlen(t->socket_path) + 1);
	fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	t->fd = fd;
	t->type = type;
	return 0;
}

static int syslogtee_reconnect(struct syslogtee *t)
{
	int err;

	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	err = syslogtee_connect(t, SOCK_DGRAM);
	if (err == -EPROTOTYPE)
		err = syslogtee_connect(t, SOCK_STREAM);
	return err;
}

static void syslogtee_warn(struct syslogtee *t, int err)
{
	if (t->warned)
		return;
	t->warned = true;
	bwlog_err("syslog %s: %s; bubblewrap's stderr goes to stderr only", t->socket_path,
		  strerror(-err));
}

void syslogtee_open(struct syslogtee *t, const char *socket_path)
{
	int err;

	memset(t, 0, sizeof(*t));
	t->socket_path = socket_path;
	t->fd = -1;
	t->pid = getpid();
	err = syslogtee_reconnect(t);
	if (err)
		syslogtee_warn(t, err);
}

static int syslogtee_send_once(struct syslogtee *t, const char *msg, size_t len)
{
	ssize_t n;

	if (t->fd < 0)
		return -ENOTCONN;
	/* Stream sockets take the terminating NUL as the frame end. */
	n = send(t->fd, msg, t->type == SOCK_STREAM ? len + 1 : len, MSG_NOSIGNAL);
	return n < 0 ? -errno : 0;
}

static void syslogtee_send(struct syslogtee *t, const char *text, size_t len)
{
	char msg[SYSLOGTEE_HEADER_MAX + SYSLOGTEE_LINE_MAX + 1], stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	int hdr, err;

	if (t->fd < 0 && t->warned)
		return;
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%b %e %H:%M:%S", &tm);
	hdr = snprintf(msg, SYSLOGTEE_HEADER_MAX, "<%d>%s " SYSLOGTEE_TAG "[%d]: ", SYSLOGTEE_PRI,
		       stamp, (int)t->pid);
	if (hdr < 0 || hdr >= SYSLOGTEE_HEADER_MAX)
		return;
	memcpy(msg + hdr, text, len);
	msg[hdr + len] = '\0';
	err = syslogtee_send_once(t, msg, (size_t)hdr + len);
	if (err && err != -EAGAIN) { /* syslogd restarted: one reconnect, as glibc does */
		err = syslogtee_reconnect(t);
		if (!err)
			err = syslogtee_send_once(t, msg, (size_t)hdr + len);
	}
	if (err)
		syslogtee_warn(t, err);
}

static void syslogtee_flush(struct syslogtee *t)
{
	if (t->len)
		syslogtee_send(t, t->line, t->len);
	t->len = 0;
}

static void syslogtee_write_all(const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(STDERR_FILENO, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return; /* the caller closed stderr: syslog still gets the lines */
		buf += n;
		len -= (size_t)n;
	}
}

int syslogtee_pump(struct syslogtee *t, int fd)
{
	char buf[SYSLOGTEE_CHUNK];
	ssize_t n;

	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = -errno;

			bwlog_err("reading bubblewrap's stderr failed: %s", strerror(errno));
			syslogtee_flush(t);
			return err;
		}
		if (n == 0)
			break;
		syslogtee_write_all(buf, (size_t)n);
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] == '\n') {
				syslogtee_flush(t);
				continue;
			}
			t->line[t->len++] = buf[i];
			if (t->len == sizeof(t->line))
				syslogtee_flush(t);
		}
	}
	syslogtee_flush(t);
	return 0;
}

void syslogtee_close(struct syslogtee *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}
