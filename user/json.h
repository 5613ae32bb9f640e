/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A small JSON writer into a caller-owned fixed buffer: no allocation, so it
 * can run on the event path. Strings are escaped for any byte: control
 * characters as \u00XX, invalid UTF-8 bytes as \u00XX of the byte (so the
 * line stays valid JSON and the original byte stays recoverable).
 */
#ifndef AS_JSON_H
#define AS_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "smallcopy.h"

struct jw {
	char *buf;
	size_t cap;
	size_t len;
	int overflow; /* set when something did not fit; the line is then cut short */
	int need_comma;
};

void jw_init(struct jw *w, char *buf, size_t cap);
#define JW_COPY_INLINE SMALLCOPY_MAX /* pieces up to this long are copied without a call */

void jw_copy_long(char *d, const char *s, size_t n); /* memcpy, n > JW_COPY_INLINE */

/* n bytes from s to d; small pieces without a call (smallcopy.h) */
static inline void jw_copy(char *d, const char *s, size_t n)
{
	if (n > JW_COPY_INLINE)
		/* out of line: inlined, the compiler would hold this branch
		 * against every small buffer a piece comes from */
		jw_copy_long(d, s, n);
	else
		smallcopy(d, s, n);
}

static inline void jw_raw(struct jw *w, const char *s, size_t n)
{
	/* keep room for the "\n\0" that jw_finish adds */
	if (w->overflow || w->len + n + 2 > w->cap) {
		w->overflow = 1;
		return;
	}
	jw_copy(w->buf + w->len, s, n);
	w->len += n;
}

/* key NULL: a top-level object or an array element */
void jw_obj_open(struct jw *w, const char *key);
void jw_obj_close(struct jw *w);
void jw_arr_open(struct jw *w, const char *key);
void jw_arr_close(struct jw *w);
/* Separator and "key": (key NULL: separator only, for array elements) */
void jw_key(struct jw *w, const char *key);
/* Separator and a key already written out: json is "key": quoted, escaped,
 * with its colon (a constant key formatted once instead of per line). */
static inline void jw_key_raw(struct jw *w, const char *json, size_t n)
{
	if (w->need_comma)
		jw_raw(w, ",", 1);
	w->need_comma = 1;
	jw_raw(w, json, n);
}
void jw_str(struct jw *w, const char *key, const char *s);
void jw_strn(struct jw *w, const char *key, const char *s, size_t n);
/* Decimal digits of v (snprintf's "%" PRIu64 / PRId64, without its cost), NUL
 * terminated; returns the length. */
#define JW_NUM_MAX 24
size_t jw_fmt_u64(char buf[JW_NUM_MAX], uint64_t v);
size_t jw_fmt_i64(char buf[JW_NUM_MAX], int64_t v);
void jw_u64(struct jw *w, const char *key, uint64_t v);
void jw_i64(struct jw *w, const char *key, int64_t v);
void jw_bool(struct jw *w, const char *key, int v);
void jw_null(struct jw *w, const char *key);
/* Append s escaped (no quotes) to the buffer. */
void jw_escape(struct jw *w, const char *s, size_t n);
/* jw_escape of text that is all ASCII, where each byte escapes alone, so
 * text escaped piece by piece is the text escaped whole: 0. -1 at the first
 * byte above 0x7f (which may belong to a sequence a neighbour completes),
 * having written part of s: the caller rewinds w->len and escapes the whole. */
int jw_escape_ascii(struct jw *w, const char *s, size_t n);
/* Terminate with "\n" and NUL; returns the line length or -1 on overflow. */
long jw_finish(struct jw *w);

#endif /* AS_JSON_H */
