// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <string.h>
#include "pb.h"

#define PB_VARINT_MAX 10 /* bytes of a 64-bit varint */

static int pb_varint(struct pb *r, uint64_t *v)
{
	uint64_t x = 0;

	for (int i = 0; i < PB_VARINT_MAX; i++) {
		if (r->p >= r->end)
			return -1;
		x |= (uint64_t)(*r->p & 0x7f) << (7 * i);
		if (!(*r->p++ & 0x80)) {
			*v = x;
			return 0;
		}
	}
	return -1;
}

int pb_next(struct pb *r, struct pb_field *f)
{
	uint64_t key, len;

	if (r->p >= r->end)
		return 0;
	if (pb_varint(r, &key))
		return -1;
	memset(f, 0, sizeof(*f));
	f->num = (uint32_t)(key >> 3);
	f->wire = (uint32_t)(key & 7);
	switch (f->wire) {
	case 0:
		return pb_varint(r, &f->v) ? -1 : 1;
	case 1:
	case 5: {
		size_t n = f->wire == 1 ? 8 : 4;

		if ((size_t)(r->end - r->p) < n)
			return -1;
		for (size_t i = 0; i < n; i++)
			f->v |= (uint64_t)r->p[i] << (8 * i);
		r->p += n;
		return 1;
	}
	case 2:
		if (pb_varint(r, &len) || len > (uint64_t)(r->end - r->p))
			return -1;
		f->data = r->p;
		f->len = (size_t)len;
		r->p += len;
		return 1;
	default:
		return -1; /* groups (3, 4) are not in containerd's API */
	}
}

int pb_put_str(uint8_t *buf, size_t cap, size_t *pos, uint32_t num, const char *s)
{
	size_t n = strlen(s), p = *pos;
	uint64_t key = ((uint64_t)num << 3) | 2;

	for (uint64_t v = key;; v >>= 7) {
		if (p >= cap)
			return -1;
		buf[p++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		if (v <= 0x7f)
			break;
	}
	for (uint64_t v = n;; v >>= 7) {
		if (p >= cap)
			return -1;
		buf[p++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		if (v <= 0x7f)
			break;
	}
	if (cap - p < n)
		return -1;
	memcpy(buf + p, s, n);
	*pos = p + n;
	return 0;
}

void pb_str(const struct pb_field *f, char *out, size_t cap)
{
	size_t n = f->wire == 2 ? f->len : 0;

	if (!cap)
		return;
	if (n >= cap)
		n = cap - 1;
	if (n)
		memcpy(out, f->data, n);
	out[n] = 0;
	/* a NUL inside would cut the value anyway; strings stay C strings */
}
