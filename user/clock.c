// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <time.h>
#include "clock.h"

static int64_t boot_to_wall_offset;

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void clock_calibrate(void)
{
	/* bracket the boottime read between two realtime reads to halve the error */
	uint64_t r1 = clock_ns(CLOCK_REALTIME);
	uint64_t b = clock_ns(CLOCK_BOOTTIME);
	uint64_t r2 = clock_ns(CLOCK_REALTIME);

	boot_to_wall_offset = (int64_t)(r1 / 2 + r2 / 2) - (int64_t)b;
}

uint64_t clock_boot_to_wall(uint64_t boot_ns)
{
	return (uint64_t)((int64_t)boot_ns + boot_to_wall_offset);
}

uint64_t clock_wall_now(void)
{
	return clock_ns(CLOCK_REALTIME);
}

uint64_t clock_mono_now(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}
