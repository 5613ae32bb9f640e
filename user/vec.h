/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Arrays that only grow, one element at a time, by doubling: appending n
 * elements costs O(n) copies, where growing by one each time costs O(n^2)
 * (glibc's realloc often grows in place; AddressSanitizer's never does,
 * and 1,000 rules took 11 s to load under it). The capacity follows from
 * the count alone, so the array's struct keeps no field for it:
 * VEC_MIN for 1..VEC_MIN elements, else the next power of two. Only an
 * array every element of which came through vec_room may use it.
 */
#ifndef AS_VEC_H
#define AS_VEC_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#define VEC_MIN 8 /* elements of a new array's first allocation */

/* Make room in *pv (an array of n elements of size bytes each) for element
 * n; 0, or -ENOMEM with *pv unchanged. */
static inline int vec_room(void *pv, size_t n, size_t size)
{
	void **p = pv;
	size_t cap;
	void *q;

	if (n && (n < VEC_MIN || (n & (n - 1)))) /* not full: n is below its capacity */
		return 0;
	cap = n < VEC_MIN ? VEC_MIN : 2 * n;
	if (cap > SIZE_MAX / size)
		return -ENOMEM;
	q = realloc(*p, cap * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	return 0;
}

#endif /* AS_VEC_H */
