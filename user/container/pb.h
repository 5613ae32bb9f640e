/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Just enough protobuf for containerd's API: reading varints and
 * length-delimited fields of a message (anything else is skipped), writing
 * a message of string fields. Every read is bounds-checked: a hostile
 * socket's bytes give -1, never a read past the buffer.
 */
#ifndef AS_PB_H
#define AS_PB_H

#include <stddef.h>
#include <stdint.h>

struct pb {
	const uint8_t *p, *end;
};

struct pb_field {
	uint32_t num;
	uint32_t wire; /* 0 varint, 1 fixed64, 2 bytes, 5 fixed32 */
	uint64_t v; /* varint and fixed values */
	const uint8_t *data; /* wire 2 */
	size_t len;
};

static inline struct pb pb_of(const void *data, size_t len)
{
	return (struct pb){ (const uint8_t *)data, (const uint8_t *)data + len };
}

/* The next field: 1, 0 at the end of the message, -1 on malformed bytes. */
int pb_next(struct pb *r, struct pb_field *f);
/* Append field num as a string (wire type 2) to buf (cap bytes) at *pos;
 * -1 when it does not fit. */
int pb_put_str(uint8_t *buf, size_t cap, size_t *pos, uint32_t num, const char *s);
/* A length-delimited field's bytes as a NUL-terminated string, cut at cap - 1. */
void pb_str(const struct pb_field *f, char *out, size_t cap);

#endif /* AS_PB_H */
