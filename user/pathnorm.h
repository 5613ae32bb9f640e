/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Path rebuilding and normalisation, as Falco shows fd.name. */
#ifndef AS_PATHNORM_H
#define AS_PATHNORM_H

#include <stddef.h>

/* Components of one path walk in the kernel: bounded by AS_PATH_MAX_DEPTH,
 * but a recorded or hand-made list may hold more; a list with more is
 * refused, as the kernel never sends one. */
#define PATHNORM_MAX_COMPONENTS 4096

/* Rebuild "/a/b/c" from a kernel component list ("c\0b\0a\0", leaf first).
 * Writes at most cap bytes including the NUL; returns the length, or -1 when
 * the list is malformed (a component not NUL-terminated) or does not fit. */
long pathnorm_from_components(const char *list, size_t list_len, char *out, size_t cap);

/* Normalise an absolute path in place: collapse "//", drop ".", resolve ".."
 * lexically (never above "/"), drop a trailing '/'. Returns the new length. */
size_t pathnorm_normalize(char *path);

/* out = normalise(base + "/" + rel), or normalise(rel) when rel is absolute
 * or base is NULL. Returns the length, or -1 when it does not fit in cap. */
long pathnorm_join(const char *base, const char *rel, char *out, size_t cap);

#endif /* AS_PATHNORM_H */
