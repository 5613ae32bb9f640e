// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "pathnorm.h"
#include "smallcopy.h"


#define PATHNORM_WORD sizeof(uint64_t)
#define PATHNORM_VEC 16 /* bytes of an SSE2 register */
#define PATHNORM_LOW7 0x7f7f7f7f7f7f7f7full

/* The high bit of each zero byte of x, and no other bit (no borrow runs
 * from one byte to the next, unlike the (x - 0x01..) & ~x test). */
static inline uint64_t pathnorm_zeros(uint64_t x)
{
	return ~(((x & PATHNORM_LOW7) + PATHNORM_LOW7) | x | PATHNORM_LOW7);
}

static inline uint64_t pathnorm_load(const char *p)
{
	uint64_t x;

	memcpy(&x, p, sizeof(x));
	return x;
}

/* n bytes from s to d: most names are short (smallcopy.h) */
static inline void pathnorm_copy(char *d, const char *s, size_t n)
{
	if (n > SMALLCOPY_MAX)
		memcpy(d, s, n);
	else
		smallcopy(d, s, n);
}

/*
 * The list "c\0b\0a\0" is the path "/a/b/c": exactly as long, each
 * component's NUL becoming the '/' in front of it. So each component goes
 * straight to its mirror position, in one pass, with no table of components
 * and no second length scan. The NULs are found eight bytes at a time (a
 * memchr call per component cost more than the component).
 */
long pathnorm_from_components(const char *list, size_t list_len, char *out, size_t cap)
{
	size_t start = 0, i = 0;

	if (list_len == 0) {
		if (cap < 2)
			return -1;
		out[0] = '/';
		out[1] = 0;
		return 1;
	}
	if (list[list_len - 1] != 0 || list_len + 1 > cap)
		return -1;
	/* a list has no more components than bytes: only a longer one can
	 * have too many, and only it is counted first */
	if (list_len > PATHNORM_MAX_COMPONENTS) {
		size_t nuls = 0;

		for (size_t k = 0; k < list_len; k++)
			nuls += !list[k];
		if (nuls > PATHNORM_MAX_COMPONENTS)
			return -1;
	}
/* the component [start, nul) to its mirror place, after its '/' */
#define PATHNORM_PUT(nul)                                                      \
	do {                                                                   \
		size_t at_ = list_len - (nul)-1;                               \
                                                                               \
		out[at_] = '/';                                                \
		pathnorm_copy(out + at_ + 1, list + start, (nul)-start);       \
		start = (nul) + 1;                                             \
	} while (0)
#ifdef __SSE2__
	if (list_len >= PATHNORM_VEC) {
		/* sixteen bytes at a time, a bit per NUL; then the last
		 * sixteen again with the bytes already seen masked off */
		const __m128i zero = _mm_setzero_si128();
		uint32_t z;

		for (; i + PATHNORM_VEC <= list_len; i += PATHNORM_VEC) {
			z = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(
			    _mm_loadu_si128((const __m128i *)(const void *)(list + i)), zero));
			for (; z; z &= z - 1)
				PATHNORM_PUT(i + (size_t)__builtin_ctz(z));
		}
		if (i < list_len) {
			size_t base = list_len - PATHNORM_VEC, seen = i - base;

			z = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(
			    _mm_loadu_si128((const __m128i *)(const void *)(list + base)), zero));
			for (z &= ~0u << seen; z; z &= z - 1)
				PATHNORM_PUT(base + (size_t)__builtin_ctz(z));
			i = list_len;
		}
	}
#endif
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (i < list_len && list_len >= PATHNORM_WORD) {
		/* whole words, then the last word again with the bytes
		 * already seen masked off */
		for (; i + PATHNORM_WORD <= list_len; i += PATHNORM_WORD) {
			for (uint64_t z = pathnorm_zeros(pathnorm_load(list + i)); z; z &= z - 1)
				PATHNORM_PUT(i + ((size_t)__builtin_ctzll(z) >> 3));
		}
		if (i < list_len) {
			size_t base = list_len - PATHNORM_WORD, seen = i - base;
			uint64_t z = pathnorm_zeros(pathnorm_load(list + base)) &
				     (~0ull << (8 * seen));

			for (; z; z &= z - 1)
				PATHNORM_PUT(base + ((size_t)__builtin_ctzll(z) >> 3));
			i = list_len;
		}
	}
#endif
	for (; i < list_len; i++)
		if (!list[i])
			PATHNORM_PUT(i);
#undef PATHNORM_PUT
	out[list_len] = 0;
	return (long)list_len;
}

size_t pathnorm_normalize(char *path)
{
	size_t r = 0, w = 0;
	int absolute = path[0] == '/';

	/* w never passes r, so the rewrite happens in place */
	if (absolute) {
		path[w++] = '/';
		r = 1;
	}
	while (path[r]) {
		size_t start = r, l;

		while (path[r] == '/')
			r++;
		start = r;
		while (path[r] && path[r] != '/')
			r++;
		l = r - start;
		if (l == 0)
			break;
		if (l == 1 && path[start] == '.')
			continue;
		if (l == 2 && path[start] == '.' && path[start + 1] == '.') {
			size_t last = w;

			while (last > (size_t)absolute && path[last - 1] != '/')
				last--;
			if (w > (size_t)absolute && !(w - last == 2 && path[last] == '.' &&
						       path[last + 1] == '.')) {
				/* drop the last component written, and its '/' */
				w = last > (size_t)absolute ? last - 1 : last;
				continue;
			}
			if (absolute)
				continue; /* nothing above "/" */
			/* a relative path climbing out: keep the "..", as a component */
		}
		if (w > (size_t)absolute && path[w - 1] != '/')
			path[w++] = '/';
		memmove(path + w, path + start, l);
		w += l;
	}
	if (w > 1 && path[w - 1] == '/')
		w--;
	if (w == 0 && !absolute) {
		path[w++] = '.';
	}
	path[w] = 0;
	return w;
}

long pathnorm_join(const char *base, const char *rel, char *out, size_t cap)
{
	size_t bl = 0, rl = strlen(rel);

	if (rel[0] != '/' && base) {
		bl = strlen(base);
		if (bl + 1 + rl + 1 > cap)
			return -1;
		memcpy(out, base, bl);
		out[bl++] = '/';
	} else if (rl + 1 > cap || cap < 2) { /* "" normalises to ".": two bytes */
		return -1;
	}
	memcpy(out + bl, rel, rl + 1);
	return (long)pathnorm_normalize(out);
}
