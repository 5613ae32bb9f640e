// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <string.h>
#include "pathnorm.h"

/* Components of one path walk in the kernel: bounded by AS_PATH_MAX_DEPTH,
 * but a recorded or hand-made list may hold more; a list with more is
 * refused, as the kernel never sends one. */
#define PATHNORM_MAX_COMPONENTS 4096

/*
 * The list "c\0b\0a\0" is the path "/a/b/c": exactly as long, each
 * component's NUL becoming the '/' in front of it. So each component goes
 * straight to its mirror position, in one pass, with no table of components
 * and no second length scan.
 */
long pathnorm_from_components(const char *list, size_t list_len, char *out, size_t cap)
{
	size_t n = 0, pos = 0;

	if (list_len == 0) {
		if (cap < 2)
			return -1;
		out[0] = '/';
		out[1] = 0;
		return 1;
	}
	if (list[list_len - 1] != 0 || list_len + 1 > cap)
		return -1;
	while (pos < list_len) {
		const char *nul = memchr(list + pos, 0, list_len - pos);
		size_t l = (size_t)(nul - list) - pos, at = list_len - (pos + l) - 1;

		if (++n > PATHNORM_MAX_COMPONENTS)
			return -1;
		out[at] = '/';
		memcpy(out + at + 1, list + pos, l);
		pos += l + 1;
	}
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
