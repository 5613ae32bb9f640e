/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Record decoder: checks a record's size and type against the ABI before any
 * field is used, then rebuilds its strings (paths from component lists,
 * relative paths joined with their base and normalised) into the event.
 */
#ifndef AS_DECODE_H
#define AS_DECODE_H

#include <stddef.h>
#include "event.h"

#define DECODE_ERR_MAX 128 /* room for one decoder error sentence */

/* Decode len bytes at rec into ev (ev->ts = hdr->ts: the caller converts a
 * kernel record's boot-time stamp afterwards). Returns 0, or -EINVAL with a one-line reason in err (no newline). rec must
 * stay valid while ev is used. ev->num is left to the caller. */
int decode_record(const void *rec, size_t len, struct event *ev, char err[DECODE_ERR_MAX]);

/* Size of the fixed part of a record of this type, 0 for an unknown type. */
size_t decode_fixed_size(unsigned type);

#endif /* AS_DECODE_H */
