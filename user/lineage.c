// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <string.h>
#include "lineage.h"

void lineage_shift(struct as_lineage *dst, const struct as_lineage *src)
{
	uint32_t n = src->n < AS_LINEAGE_MAX ? src->n : AS_LINEAGE_MAX, drop = n, low;
	int full = n == AS_LINEAGE_MAX;
	uint16_t forked = src->forked, named = src->named;
	uint8_t flags = src->flags;

	if (dst != src)
		memcpy(dst, src, sizeof(*dst));
	if (full) { /* the oldest entry not named gives way, as in the kernel */
		drop = AS_LINEAGE_MAX - 1;
		for (int i = AS_LINEAGE_MAX - 1; i >= 0; i--)
			if (!(named & (1u << i))) {
				drop = (uint32_t)i;
				break;
			}
	}
	if (drop)
		memmove(&dst->e[1], &dst->e[0], drop * sizeof(dst->e[0]));
	low = (2u << drop) - 1;
	dst->forked = (uint16_t)((forked & ~low) | ((forked << 1) & low));
	dst->named = (uint16_t)((named & ~low) | ((named << 1) & low));
	dst->flags = (uint8_t)(flags | (full ? AS_LIN_TRUNC : 0));
	dst->n = (uint8_t)(full ? AS_LINEAGE_MAX : n + 1);
}

void lineage_fork(struct as_lineage *dst, const struct as_lineage *src, uint32_t child_pid,
		  uint64_t child_start_ns)
{
	lineage_shift(dst, src);
	if (!src->n)
		dst->flags |= AS_LIN_NONE | AS_LIN_TRUNC;
	dst->forked |= 1;
	dst->named = (uint16_t)(dst->named | ((dst->named >> 1) & 1));
	dst->e[0].pid = child_pid;
	dst->e[0].start_ns = child_start_ns;
}

int lineage_creator(const struct as_lineage *l, uint32_t pid)
{
	for (int i = 0; i < l->n && i < AS_LINEAGE_MAX; i++)
		if (l->e[i].pid != pid)
			return i;
	return -1;
}
