// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Diagnostics of the outputs: one line each on stderr, written with one
 * write(2) so that lines from several output threads never mix, rate-limited
 * per output so that a dead receiver cannot flood stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "out.h"

/* Longest diagnostic line; longer ones are cut. */
#define OUT_LOG_LINE_MAX 1024

static void out_log_vline(struct out *o, const char *level, uint64_t suppressed, const char *fmt,
			  va_list ap)
{
	char line[OUT_LOG_LINE_MAX];
	size_t n;
	int k;

	k = snprintf(line, sizeof(line), "agent-sentinel: %s: output %s: ", level, o->ops->name);
	n = k < 0 ? 0 : (size_t)k;
	if (n < sizeof(line)) {
		k = vsnprintf(line + n, sizeof(line) - n, fmt, ap);
		n += k < 0 ? 0 : (size_t)k;
	}
	if (suppressed && n < sizeof(line)) {
		k = snprintf(line + n, sizeof(line) - n, " (%llu similar lines suppressed)",
			     (unsigned long long)suppressed);
		n += k < 0 ? 0 : (size_t)k;
	}
	if (n > sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	while (write(STDERR_FILENO, line, n) < 0 && errno == EINTR)
		;
}

void out_log_err(struct out *o, const char *level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	out_log_vline(o, level, 0, fmt, ap);
	va_end(ap);
}

static long out_log_since_ms(const struct out_log *l, struct timespec *now)
{
	clock_gettime(CLOCK_MONOTONIC, now);
	if (!l->last.tv_sec && !l->last.tv_nsec)
		return OUT_LOG_INTERVAL_MS;
	return (now->tv_sec - l->last.tv_sec) * 1000 + (now->tv_nsec - l->last.tv_nsec) / 1000000;
}

int out_log_due(const struct out_log *l)
{
	struct timespec now;

	return out_log_since_ms(l, &now) >= OUT_LOG_INTERVAL_MS;
}

int out_log_limited(struct out *o, struct out_log *l, const char *level, const char *fmt, ...)
{
	struct timespec now;
	va_list ap;

	if (out_log_since_ms(l, &now) < OUT_LOG_INTERVAL_MS) {
		l->suppressed++;
		return 0;
	}
	va_start(ap, fmt);
	out_log_vline(o, level, l->suppressed, fmt, ap);
	va_end(ap);
	l->last = now;
	l->suppressed = 0;
	return 1;
}

void out_why(struct out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(o->why, sizeof(o->why), fmt, ap);
	va_end(ap);
}
