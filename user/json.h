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

struct jw {
	char *buf;
	size_t cap;
	size_t len;
	int overflow; /* set when something did not fit; the line is then cut short */
	int need_comma;
};

void jw_init(struct jw *w, char *buf, size_t cap);
/* key NULL: a top-level object or an array element */
void jw_obj_open(struct jw *w, const char *key);
void jw_obj_close(struct jw *w);
void jw_arr_open(struct jw *w, const char *key);
void jw_arr_close(struct jw *w);
/* Separator and "key": (key NULL: separator only, for array elements) */
void jw_key(struct jw *w, const char *key);
/* Separator and a key already written out: json is "key": quoted, escaped,
 * with its colon (a constant key formatted once instead of per line). */
void jw_key_raw(struct jw *w, const char *json, size_t n);
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
/* Raw text, no escaping, no separator handling. */
void jw_raw(struct jw *w, const char *s, size_t n);
/* Terminate with "\n" and NUL; returns the line length or -1 on overflow. */
long jw_finish(struct jw *w);

#endif /* AS_JSON_H */
