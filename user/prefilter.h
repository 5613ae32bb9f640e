/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * From what the rules imply (engine_kfilter) to what the kernel filters:
 * per event type a name depth, with exec and fork kept wherever any other
 * type's events can pass (the process table needs them for those processes)
 * and exits always kept. The same plan filters a replay in userspace, so a
 * recording can show that the pre-filter loses no alert.
 */
#ifndef AS_PREFILTER_H
#define AS_PREFILTER_H

#include <stdio.h>
#include "engine.h"
#include "loader.h"

/* want_types: bit per event type that some rule needs. */
void prefilter_plan(const struct engine *e, uint32_t want_types, struct engine_kfilter *out);
void prefilter_to_loader(const struct engine_kfilter *kf, struct loader_opts *lo);
/* Only the pinned executables (agentid.h) into lo: what follows a pin's update. */
void prefilter_pins_to_loader(struct loader_opts *lo);
void prefilter_describe(const struct engine_kfilter *kf, FILE *out);

#endif /* AS_PREFILTER_H */
