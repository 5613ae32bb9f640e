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

#endif /* AS_ACTSOUT_H */
