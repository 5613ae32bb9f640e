// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
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

void jw_raw(struct jw *w, const char *s, size_t n)
{
	/* keep room for the "\n\0" that jw_finish adds */
	if (w->overflow || w->len + n + 2 > w->cap) {
		w->overflow = 1;
		return;
	}
	memcpy(w->buf + w->len, s, n);
	w->len += n;
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

/* Runs of bytes copied as they are go out in one jw_raw each, cut only by
 * a byte that needs escaping. */
void jw_escape(struct jw *w, const char *s, size_t n)
{
	const size_t word = sizeof(uint64_t);
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, start = 0;

	while (i < n) {
		size_t stop, seq;
		unsigned char c;

		/* most text is plain ASCII: a word at a time, and the last
		 * bytes as the last word (overlapping bytes known plain) */
		while (n - i >= word && jw_plain8(jw_load8(p + i)))
			i += word;
		if (i < n && n - i < word && n >= word && jw_plain8(jw_load8(p + n - word)))
			break;
		/* then byte by byte, to the end of this word at most */
		stop = n - i < word ? n : i + word;
		while (i < stop && jw_plain[p[i]])
			i++;
		if (i == stop)
			continue;
		c = p[i];
		if (c >= 0x80) {
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
}

static void jw_sep(struct jw *w)
{
	if (w->need_comma)
		jw_ch(w, ',');
	w->need_comma = 1;
}

void jw_key_raw(struct jw *w, const char *json, size_t n)
{
	jw_sep(w);
	jw_raw(w, json, n);
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

/* The digits of v after a '-' when neg: at most 1 + 20 digits + NUL. */
static size_t jw_fmt(char *buf, uint64_t v, int neg)
{
	char tmp[JW_NUM_MAX];
	size_t n = 0, i = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (neg)
		buf[i++] = '-';
	while (n)
		buf[i++] = tmp[--n];
	buf[i] = 0;
	return i;
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
