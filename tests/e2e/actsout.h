/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * How the test drivers (as-acts, as-ia32) answer: the result of their one
 * act on the last line (a number, or -errno), set-up values before it as
 * "NAME VALUE" lines; numbers on their command lines in any base strtoul
 * reads (0755, 0x10000000).
 */
#ifndef AS_ACTSOUT_H
#define AS_ACTSOUT_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int report(long r)
{
	printf("%ld\n", r);
	fflush(stdout);
	return 0;
}

static void note(const char *name, long v)
{
	printf("%s %ld\n", name, v);
	fflush(stdout);
}

static unsigned long num(const char *s)
{
	return strtoul(s, NULL, 0);
}

/* US microseconds, spun (not slept: a sleep's wake-up is too coarse) */
static void spin_us(unsigned long us)
{
	struct timespec t0, t;

	if (!us)
		return;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((unsigned long)((t.tv_sec - t0.tv_sec) * 1000000000L + t.tv_nsec - t0.tv_nsec) <
	       us * 1000);
}

/* CALL(ARG) every GAP microseconds until STOP exists (looked for every 256
 * calls); prints "CALLS FAILED", failed = calls that returned nonzero. The
 * gaps are spun, or with sleep slept: a load that leaves the CPU to others
 * (the gaps then last longer than GAP) */
static int acts_until_paced(const char *stop, unsigned long gap, int sleep,
			    long (*call)(const void *), const void *arg)
{
	unsigned long calls = 0, failed = 0;
	struct timespec ts = { .tv_sec = (time_t)(gap / 1000000), .tv_nsec = (long)(gap % 1000000) * 1000 };

	while ((calls & 255) || access(stop, F_OK)) {
		failed += call(arg) != 0;
		calls++;
		if (sleep)
			nanosleep(&ts, NULL);
		else
			spin_us(gap);
	}
	printf("%lu %lu\n", calls, failed);
	return 0;
}

static int acts_until(const char *stop, unsigned long gap, long (*call)(const void *),
		      const void *arg)
{
	return acts_until_paced(stop, gap, 0, call, arg);
}

#endif /* AS_ACTSOUT_H */
