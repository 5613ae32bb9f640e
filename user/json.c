// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "json.h"

void jw_init(struct jw *w, char *buf, size_t cap)
{
	w->buf = buf;
	w->cap = cap;
	w->len = 0;
	w->overflow = 0;
	w->need_comma = 0;
	if (cap)
		buf[0] = 0;
}

__attribute__((noinline)) void jw_copy_long(char *d, const char *s, size_t n)
{
	memcpy(d, s, n);
}

static void jw_ch(struct jw *w, char c)
{
	jw_raw(w, &c, 1);
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if invalid. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

/* 1 for a byte copied as is: printable ASCII but '"' and '\\' (the loop
 * below tests one table entry per byte instead of four comparisons) */
static const unsigned char jw_plain[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

#define JW_ONES 0x0101010101010101ull
#define JW_HIGHS 0x8080808080808080ull

/* Eight bytes that jw_plain copies as they are: none below 0x20, none
 * 0x7f or above, no '"' and no '\\'. Each test sets a byte's high bit only
 * where (or, after a borrow or carry, above where) a byte fails it. */
static inline int jw_plain8(uint64_t x)
{
	uint64_t ctl = (x - JW_ONES * 0x20) & ~x;
	uint64_t high = x | (x + JW_ONES);
	uint64_t quote = x ^ (JW_ONES * '"'), bsl = x ^ (JW_ONES * '\\');

	quote = (quote - JW_ONES) & ~quote;
	bsl = (bsl - JW_ONES) & ~bsl;
	return ((ctl | high | quote | bsl) & JW_HIGHS) == 0;
}

static inline uint64_t jw_load8(const unsigned char *p)
{
	uint64_t x;

	memcpy(&x, p, sizeof(x));
	return x;
}

/* The escape of one byte that is not copied as is. */
static void jw_escape_byte(struct jw *w, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";
	char esc[6];

	switch (c) {
	case '"':
		jw_raw(w, "\\\"", 2);
		break;
	case '\\':
		jw_raw(w, "\\\\", 2);
		break;
	case '\n':
		jw_raw(w, "\\n", 2);
		break;
	case '\t':
		jw_raw(w, "\\t", 2);
		break;
	case '\r':
		jw_raw(w, "\\r", 2);
		break;
	default: /* other control bytes, DEL, invalid UTF-8 */
		memcpy(esc, "\\u00", 4);
		esc[4] = hex[c >> 4];
		esc[5] = hex[c & 15];
		jw_raw(w, esc, 6);
		break;
	}
}

#ifdef __SSE2__
#define JW_VEC 16 /* bytes of an SSE2 register */

/* Bit j for each byte p[j] of sixteen that jw_plain does not copy as it is:
 * below 0x20 or above 0x7e (signed: below 0x20, or 0x7f), '"', '\\'. */
static inline unsigned jw_unplain16(const unsigned char *p)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i bad = _mm_or_si128(
	    _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)), _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f))),
	    _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));

	return (unsigned)_mm_movemask_epi8(bad);
}
#endif

/* Where the next byte at or after i that is not copied as is stands; n when
 * there is none. Most text is plain ASCII: sixteen or eight bytes at a
 * time, the last ones as the last sixteen or eight again (bytes already
 * seen are plain). */
static inline size_t jw_next_unplain(const unsigned char *p, size_t i, size_t n)
{
	const size_t word = sizeof(uint64_t);

#ifdef __SSE2__
	if (n >= JW_VEC) {
		unsigned m;

		for (; n - i >= JW_VEC; i += JW_VEC)
			if ((m = jw_unplain16(p + i)) != 0)
				return i + (size_t)__builtin_ctz(m);
		if (i == n)
			return n;
		m = jw_unplain16(p + n - JW_VEC) >> (JW_VEC - (n - i));
		return m ? i + (size_t)__builtin_ctz(m) : n;
	}
#endif
	for (; n - i >= word; i += word) {
		if (!jw_plain8(jw_load8(p + i))) {
			/* a word that fails holds such a byte */
			while (jw_plain[p[i]])
				i++;
			return i;
		}
	}
	if (i < n && n >= word && jw_plain8(jw_load8(p + n - word)))
		return n;
	while (i < n && jw_plain[p[i]])
		i++;
	return i;
}

/* Runs of bytes copied as they are go out in one jw_raw each, cut only by
 * a byte that needs escaping. ascii: stop at the first byte above 0x7f
 * (-1) instead of checking it for UTF-8. */
static inline int jw_escape_run(struct jw *w, const char *s, size_t n, int ascii)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, start = 0;

	while ((i = jw_next_unplain(p, i, n)) < n) {
		unsigned char c = p[i];

		if (c >= 0x80) {
			size_t seq;

			if (ascii)
				return -1;
			seq = utf8_seq(p + i, n - i);
			if (seq) {
				i += seq;
				continue;
			}
		}
		jw_raw(w, (const char *)p + start, i - start);
		jw_escape_byte(w, c);
		start = ++i;
	}
	jw_raw(w, (const char *)p + start, n - start);
	return 0;
}

void jw_escape(struct jw *w, const char *s, size_t n)
{
	jw_escape_run(w, s, n, 0);
}

int jw_escape_ascii(struct jw *w, const char *s, size_t n)
{
	return jw_escape_run(w, s, n, 1);
}

static void jw_sep(struct jw *w)
{
	if (w->need_comma)
		jw_ch(w, ',');
	w->need_comma = 1;
}

void jw_key(struct jw *w, const char *key)
{
	jw_sep(w);
	if (!key)
		return;
	jw_ch(w, '"');
	jw_escape(w, key, strlen(key));
	jw_raw(w, "\":", 2);
}

void jw_obj_open(struct jw *w, const char *key)
{
	jw_key(w, key);
	jw_ch(w, '{');
	w->need_comma = 0;
}

void jw_obj_close(struct jw *w)
{
	jw_ch(w, '}');
	w->need_comma = 1;
}

void jw_arr_open(struct jw *w, const char *key)
{
	jw_key(w, key);
	jw_ch(w, '[');
	w->need_comma = 0;
}

void jw_arr_close(struct jw *w)
{
	jw_ch(w, ']');
	w->need_comma = 1;
}

void jw_strn(struct jw *w, const char *key, const char *s, size_t n)
{
	jw_key(w, key);
	jw_ch(w, '"');
	jw_escape(w, s, n);
	jw_ch(w, '"');
}

void jw_str(struct jw *w, const char *key, const char *s)
{
	if (!s) {
		jw_null(w, key);
		return;
	}
	jw_strn(w, key, s, strlen(s));
}

/* Two digits at a time: a division by 100 per pair instead of by 10 per digit. */
static const char jw_pairs[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";

/* The digits of v after a '-' when neg: at most 1 + 20 digits + NUL. */
static size_t jw_fmt(char *buf, uint64_t v, int neg)
{
	char tmp[JW_NUM_MAX];
	size_t n = sizeof(tmp), i = 0, len;

	while (v >= 100) {
		unsigned d = (unsigned)(v % 100) * 2;

		v /= 100;
		tmp[--n] = jw_pairs[d + 1];
		tmp[--n] = jw_pairs[d];
	}
	if (v >= 10) {
		tmp[--n] = jw_pairs[v * 2 + 1];
		tmp[--n] = jw_pairs[v * 2];
	} else {
		tmp[--n] = (char)('0' + v);
	}
	if (neg)
		buf[i++] = '-';
	len = sizeof(tmp) - n;
	jw_copy(buf + i, tmp + n, len); /* 20 digits at most: no memcpy call */
	buf[i + len] = 0;
	return i + len;
}

size_t jw_fmt_u64(char buf[JW_NUM_MAX], uint64_t v)
{
	return jw_fmt(buf, v, 0);
}

size_t jw_fmt_i64(char buf[JW_NUM_MAX], int64_t v)
{
	return v >= 0 ? jw_fmt(buf, (uint64_t)v, 0) : jw_fmt(buf, 0 - (uint64_t)v, 1);
}

void jw_u64(struct jw *w, const char *key, uint64_t v)
{
	char tmp[JW_NUM_MAX];
	size_t n = jw_fmt_u64(tmp, v);

	jw_key(w, key);
	jw_raw(w, tmp, n);
}

void jw_i64(struct jw *w, const char *key, int64_t v)
{
	char tmp[JW_NUM_MAX];
	size_t n = jw_fmt_i64(tmp, v);

	jw_key(w, key);
	jw_raw(w, tmp, n);
}

void jw_bool(struct jw *w, const char *key, int v)
{
	jw_key(w, key);
	if (v)
		jw_raw(w, "true", 4);
	else
		jw_raw(w, "false", 5);
}

void jw_null(struct jw *w, const char *key)
{
	jw_key(w, key);
	jw_raw(w, "null", 4);
}

long jw_finish(struct jw *w)
{
	if (w->overflow || w->len + 2 > w->cap)
		return -1;
	w->buf[w->len++] = '\n';
	w->buf[w->len] = 0;
	return (long)w->len;
}
