/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* A set of syscalls (enum as_syscall): one bit each, more than fit a word. */
#ifndef AS_SCSET_H
#define AS_SCSET_H

#include <stdint.h>
#include "abi.h"

#define SCSET_WORDS ((AS_SC_MAX + 63) / 64)

struct scset {
	uint64_t w[SCSET_WORDS];
};

static inline int scset_has(const struct scset *s, unsigned sc)
{
	return sc < AS_SC_MAX && ((s->w[sc / 64] >> (sc % 64)) & 1);
}

static inline void scset_add(struct scset *s, unsigned sc)
{
	if (sc < AS_SC_MAX)
		s->w[sc / 64] |= 1ull << (sc % 64);
}

/* every syscall there is */
static inline struct scset scset_all(void)
{
	struct scset s = { { 0 } };

	for (unsigned sc = 0; sc < AS_SC_MAX; sc++)
		scset_add(&s, sc);
	return s;
}

static inline struct scset scset_and(struct scset a, struct scset b)
{
	for (unsigned i = 0; i < SCSET_WORDS; i++)
		a.w[i] &= b.w[i];
	return a;
}

static inline struct scset scset_or(struct scset a, struct scset b)
{
	for (unsigned i = 0; i < SCSET_WORDS; i++)
		a.w[i] |= b.w[i];
	return a;
}

/* every syscall not in a */
static inline struct scset scset_not(struct scset a)
{
	struct scset all = scset_all();

	for (unsigned i = 0; i < SCSET_WORDS; i++)
		a.w[i] = ~a.w[i] & all.w[i];
	return a;
}

static inline int scset_eq(const struct scset *a, const struct scset *b)
{
	for (unsigned i = 0; i < SCSET_WORDS; i++)
		if (a->w[i] != b->w[i])
			return 0;
	return 1;
}

static inline int scset_empty(const struct scset *a)
{
	for (unsigned i = 0; i < SCSET_WORDS; i++)
		if (a->w[i])
			return 0;
	return 1;
}

#endif /* AS_SCSET_H */
