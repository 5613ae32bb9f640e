/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Kernel timestamps are CLOCK_BOOTTIME; alerts want wall-clock time. */
#ifndef AS_CLOCK_H
#define AS_CLOCK_H

#include <stdint.h>

/* Measure CLOCK_REALTIME - CLOCK_BOOTTIME now (call again to follow clock steps). */
void clock_calibrate(void);
uint64_t clock_boot_to_wall(uint64_t boot_ns);
uint64_t clock_wall_now(void);
uint64_t clock_mono_now(void);

#endif /* AS_CLOCK_H */
