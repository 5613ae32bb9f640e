// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* json: escaping of every byte, UTF-8 validation, overflow, separators. */
#include <inttypes.h>
#include "testutil.h"
#include "json.h"

/* Escape n bytes of s; returns the escaped text (without the "\n" jw_finish adds). */
static const char *esc(const char *s, size_t n)
{
	static char buf[4096];
	struct jw w;
	long len;

	jw_init(&w, buf, sizeof(buf));
	jw_escape(&w, s, n);
	len = jw_finish(&w);
	assert_true(len >= 1);
	assert_int_equal(buf[len - 1], '\n');
	buf[len - 1] = 0;
	return buf;
}

#define ESC(lit) esc((lit), sizeof(lit) - 1)

/* The hand-written integer formatting agrees with printf at the edges. */
static void test_fmt_integers(void **state)
{
	const int64_t iv[] = { 0, 7, 9, 10, 99, 100, -1, -10, 1234567890123LL, INT64_MAX, INT64_MIN };
	const uint64_t uv[] = { 0, 1, 10, 18446744073709551615ULL, 10000000000000000000ULL };
	char got[JW_NUM_MAX], want[32];

	(void)state;
	for (size_t i = 0; i < sizeof(iv) / sizeof(iv[0]); i++) {
		size_t n = jw_fmt_i64(got, iv[i]);

		snprintf(want, sizeof(want), "%" PRId64, iv[i]);
		assert_string_equal(got, want);
		assert_int_equal(n, strlen(want));
	}
	for (size_t i = 0; i < sizeof(uv) / sizeof(uv[0]); i++) {
		size_t n = jw_fmt_u64(got, uv[i]);

		snprintf(want, sizeof(want), "%" PRIu64, uv[i]);
		assert_string_equal(got, want);
		assert_int_equal(n, strlen(want));
	}
	/* digits go two at a time: each count of digits, odd and even, at
	 * both ends of its range, and either sign */
	for (uint64_t p = 1, k = 0; k < 20; k++, p *= 10) {
		const uint64_t around[] = { p - 1, p, p + 1, p * 5 + 3 };

		for (size_t j = 0; j < sizeof(around) / sizeof(around[0]); j++) {
			size_t n = jw_fmt_u64(got, around[j]);

			snprintf(want, sizeof(want), "%" PRIu64, around[j]);
			assert_string_equal(got, want);
			assert_int_equal(n, strlen(want));
			if (around[j] > (uint64_t)INT64_MAX)
				continue;
			n = jw_fmt_i64(got, -(int64_t)around[j]);
			snprintf(want, sizeof(want), "%" PRId64, -(int64_t)around[j]);
			assert_string_equal(got, want);
			assert_int_equal(n, strlen(want));
		}
	}
}

/* jw_raw copies pieces of every length the same, inline or not. */
static void test_raw_lengths(void **state)
{
	char src[80], buf[256];

	(void)state;
	for (size_t i = 0; i < sizeof(src); i++)
		src[i] = (char)('!' + i % 90);
	for (size_t n = 0; n <= sizeof(src); n++) {
		struct jw w;

		memset(buf, '#', sizeof(buf));
		jw_init(&w, buf, sizeof(buf));
		jw_raw(&w, "<", 1);
		jw_raw(&w, src, n);
		jw_raw(&w, ">", 1);
		assert_int_equal(w.len, n + 2);
		assert_int_equal(buf[0], '<');
		assert_memory_equal(buf + 1, src, n);
		assert_int_equal(buf[n + 1], '>');
		assert_int_equal(buf[n + 2], '#'); /* nothing written past the piece */
	}
}

/* jw_escape_ascii: the same bytes as jw_escape for ASCII text, -1 at once
 * for a byte above 0x7f wherever it is. */
static void test_escape_ascii_only(void **state)
{
	static const char *const plain[] = { "", "a", "abcdefgh", "abcdefghi", "/etc/\"x\"",
					      "tab\there\x01\x1f\x7f", "0123456789abcdef\\" };
	char a[256], b[256];

	(void)state;
	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
		struct jw w1, w2;

		jw_init(&w1, a, sizeof(a));
		jw_init(&w2, b, sizeof(b));
		jw_escape(&w1, plain[i], strlen(plain[i]));
		assert_int_equal(jw_escape_ascii(&w2, plain[i], strlen(plain[i])), 0);
		assert_int_equal(w1.len, w2.len);
		assert_memory_equal(a, b, w1.len);
	}
	for (size_t at = 0; at < 20; at++) {
		char s[21];
		struct jw w;

		memset(s, 'x', 20);
		s[20] = 0;
		s[at] = (char)0xc3; /* valid or not, the caller escapes it whole */
		jw_init(&w, a, sizeof(a));
		assert_int_equal(jw_escape_ascii(&w, s, 20), -1);
	}
}

static void test_escape_ascii(void **state)
{
	(void)state;
	assert_string_equal(ESC("hello world"), "hello world");
	assert_string_equal(ESC(""), "");
	assert_string_equal(ESC("/usr/bin/x ~!@#$%^&*()_+{}|:<>?`-=[];',./"),
			    "/usr/bin/x ~!@#$%^&*()_+{}|:<>?`-=[];',./");
}

static void test_escape_quotes_backslash(void **state)
{
	(void)state;
	assert_string_equal(ESC("a\"b"), "a\\\"b");
	assert_string_equal(ESC("a\\b"), "a\\\\b");
	assert_string_equal(ESC("\"\\\""), "\\\"\\\\\\\"");
	assert_string_equal(ESC("C:\\dir\\"), "C:\\\\dir\\\\");
}

static void test_escape_control(void **state)
{
	(void)state;
	assert_string_equal(ESC("a\nb"), "a\\nb");
	assert_string_equal(ESC("\t"), "\\t");
	assert_string_equal(ESC("\r\n"), "\\r\\n");
	assert_string_equal(ESC("\x01"), "\\u0001");
	assert_string_equal(ESC("\x08"), "\\u0008");
	assert_string_equal(ESC("\x0b\x0c"), "\\u000b\\u000c");
	assert_string_equal(ESC("\x1b[31m"), "\\u001b[31m");
	assert_string_equal(ESC("\x1f"), "\\u001f");
	assert_string_equal(ESC("\x7f"), "\\u007f");
	assert_string_equal(ESC("\0"), "\\u0000");
	assert_string_equal(ESC("a\0b"), "a\\u0000b");
	assert_string_equal(ESC(" "), " ");
}

static void test_escape_utf8_valid(void **state)
{
	(void)state;
	/* 2, 3 and 4 byte sequences and the boundaries of each */
	assert_string_equal(ESC("caf\xc3\xa9"), "caf\xc3\xa9");
	assert_string_equal(ESC("\xc2\x80"), "\xc2\x80");		/* U+0080 */
	assert_string_equal(ESC("\xdf\xbf"), "\xdf\xbf");		/* U+07FF */
	assert_string_equal(ESC("\xe0\xa0\x80"), "\xe0\xa0\x80");	/* U+0800 */
	assert_string_equal(ESC("\xe2\x82\xac"), "\xe2\x82\xac");	/* euro sign */
	assert_string_equal(ESC("\xed\x9f\xbf"), "\xed\x9f\xbf");	/* U+D7FF */
	assert_string_equal(ESC("\xee\x80\x80"), "\xee\x80\x80");	/* U+E000 */
	assert_string_equal(ESC("\xef\xbf\xbf"), "\xef\xbf\xbf");	/* U+FFFF */
	assert_string_equal(ESC("\xf0\x90\x80\x80"), "\xf0\x90\x80\x80"); /* U+10000 */
	assert_string_equal(ESC("\xf0\x9d\x84\x9e"), "\xf0\x9d\x84\x9e"); /* G clef */
	assert_string_equal(ESC("\xf4\x8f\xbf\xbf"), "\xf4\x8f\xbf\xbf"); /* U+10FFFF */
	assert_string_equal(ESC("\xe6\x97\xa5\xe6\x9c\xac\"x"), "\xe6\x97\xa5\xe6\x9c\xac\\\"x");
}

static void test_escape_utf8_invalid(void **state)
{
	(void)state;
	/* lone continuation bytes */
	assert_string_equal(ESC("\x80"), "\\u0080");
	assert_string_equal(ESC("a\xbf" "b"), "a\\u00bfb");
	assert_string_equal(ESC("\xc3\xa9\xa9"), "\xc3\xa9\\u00a9");
	/* overlong forms */
	assert_string_equal(ESC("\xc0\xaf"), "\\u00c0\\u00af");
	assert_string_equal(ESC("\xc1\xbf"), "\\u00c1\\u00bf");
	assert_string_equal(ESC("\xe0\x80\xaf"), "\\u00e0\\u0080\\u00af");
	assert_string_equal(ESC("\xe0\x9f\xbf"), "\\u00e0\\u009f\\u00bf");
	assert_string_equal(ESC("\xf0\x80\x80\xaf"), "\\u00f0\\u0080\\u0080\\u00af");
	assert_string_equal(ESC("\xf0\x8f\xbf\xbf"), "\\u00f0\\u008f\\u00bf\\u00bf");
	/* UTF-16 surrogates */
	assert_string_equal(ESC("\xed\xa0\x80"), "\\u00ed\\u00a0\\u0080");
	assert_string_equal(ESC("\xed\xbf\xbf"), "\\u00ed\\u00bf\\u00bf");
	/* truncated sequences, at the end and before other bytes */
	assert_string_equal(ESC("\xe2\x82"), "\\u00e2\\u0082");
	assert_string_equal(ESC("\xe2\x82" "A"), "\\u00e2\\u0082A");
	assert_string_equal(ESC("\xf0\x9d\x84"), "\\u00f0\\u009d\\u0084");
	assert_string_equal(ESC("\xc3"), "\\u00c3");
	assert_string_equal(ESC("\xc3 "), "\\u00c3 ");
	/* beyond U+10FFFF, and lead bytes that never occur */
	assert_string_equal(ESC("\xf4\x90\x80\x80"), "\\u00f4\\u0090\\u0080\\u0080");
	assert_string_equal(ESC("\xf5\x80\x80\x80"), "\\u00f5\\u0080\\u0080\\u0080");
	assert_string_equal(ESC("\xf8\x88\x80\x80\x80"),
			    "\\u00f8\\u0088\\u0080\\u0080\\u0080");
	assert_string_equal(ESC("\xfe\xff"), "\\u00fe\\u00ff");
	/* a valid sequence right after an invalid byte is kept */
	assert_string_equal(ESC("\xff\xc3\xa9"), "\\u00ff\xc3\xa9");
	/* a sequence cut by n: the rest of the buffer is not looked at */
	assert_string_equal(esc("\xc3\xa9", 1), "\\u00c3");
}

/* Undo the escaping: \" \\ \n \t \r and \u00XX back to bytes. */
static size_t unescape(const char *s, size_t n, unsigned char *out)
{
	size_t o = 0;

	for (size_t i = 0; i < n;) {
		if (s[i] != '\\') {
			out[o++] = (unsigned char)s[i++];
			continue;
		}
		switch (s[i + 1]) {
		case '"':
		case '\\':
			out[o++] = (unsigned char)s[i + 1];
			i += 2;
			break;
		case 'n':
			out[o++] = '\n';
			i += 2;
			break;
		case 't':
			out[o++] = '\t';
			i += 2;
			break;
		case 'r':
			out[o++] = '\r';
			i += 2;
			break;
		case 'u': {
			char hex[5] = { s[i + 2], s[i + 3], s[i + 4], s[i + 5], 0 };
			unsigned long v = strtoul(hex, NULL, 16);

			assert_true(v < 0x100);
			assert_int_equal(s[i + 2], '0');
			assert_int_equal(s[i + 3], '0');
			out[o++] = (unsigned char)v;
			i += 6;
			break;
		}
		default:
			fail_msg("unexpected escape \\%c", s[i + 1]);
		}
	}
	return o;
}

/* Random bytes: the output is a valid JSON string and gives the bytes back. */
static void test_escape_random_roundtrip(void **state)
{
	uint64_t seed = 77;
	static const unsigned char alphabet[] = { 0x00, 0x01, 0x1f, 0x20, '"', '\\', '\n', 'a',
						  0x7f, 0x80, 0xbf, 0xc0, 0xc2, 0xc3, 0xdf, 0xe0,
						  0xe2, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff, 0x9f,
						  0xa0, 0x8f, 0x90, 0xa9 };

	(void)state;
	for (int it = 0; it < 20000; it++) {
		unsigned char in[64], back[64];
		char line[64 * 6 + 8];
		size_t n = tu_rand(&seed) % sizeof(in);
		struct jw w;
		struct jc c;
		long len;

		for (size_t i = 0; i < n; i++)
			in[i] = tu_rand(&seed) % 3 ? alphabet[tu_rand(&seed) % sizeof(alphabet)] :
						     (unsigned char)tu_rand(&seed);
		jw_init(&w, line, sizeof(line));
		jw_strn(&w, NULL, (const char *)in, n);
		len = jw_finish(&w);
		assert_true(len >= 3);
		if (jc_parse(&c, line, (size_t)len - 1) != 0)
			fail_msg("iteration %d: invalid JSON string (%s)", it, c.err);
		assert_int_equal(unescape(line + 1, (size_t)len - 3, back), n);
		assert_memory_equal(back, in, n);
	}
}

static void test_values_and_nesting(void **state)
{
	char buf[512];
	struct jw w;
	struct jc c;
	long n;

	(void)state;
	jw_init(&w, buf, sizeof(buf));
	jw_obj_open(&w, NULL);
	jw_u64(&w, "a", 1);
	jw_obj_open(&w, "b");
	jw_str(&w, "c", "d");
	jw_obj_close(&w);
	jw_arr_open(&w, "e");
	jw_u64(&w, NULL, 1);
	jw_i64(&w, NULL, -2);
	jw_str(&w, NULL, "x");
	jw_obj_open(&w, NULL);
	jw_bool(&w, "t", 1);
	jw_obj_close(&w);
	jw_arr_open(&w, NULL);
	jw_arr_close(&w);
	jw_null(&w, NULL);
	jw_obj_open(&w, NULL);
	jw_obj_close(&w);
	jw_arr_close(&w);
	jw_bool(&w, "f", 0);
	jw_null(&w, "n");
	jw_str(&w, "s", NULL);
	jw_strn(&w, "z", "a\0b", 3);
	jw_obj_close(&w);
	n = jw_finish(&w);
	assert_string_equal(buf, "{\"a\":1,\"b\":{\"c\":\"d\"},"
				 "\"e\":[1,-2,\"x\",{\"t\":true},[],null,{}],"
				 "\"f\":false,\"n\":null,\"s\":null,\"z\":\"a\\u0000b\"}\n");
	assert_int_equal(n, strlen(buf));
	assert_int_equal(w.overflow, 0);
	jc_check_line(&c, buf, n);
}

static void test_numbers_and_keys(void **state)
{
	char buf[512];
	struct jw w;
	long n;

	(void)state;
	jw_init(&w, buf, sizeof(buf));
	jw_obj_open(&w, NULL);
	jw_u64(&w, "u0", 0);
	jw_u64(&w, "umax", UINT64_MAX);
	jw_i64(&w, "imin", INT64_MIN);
	jw_i64(&w, "imax", INT64_MAX);
	jw_str(&w, "k\"e\ny", "v");
	jw_obj_close(&w);
	n = jw_finish(&w);
	assert_string_equal(buf, "{\"u0\":0,\"umax\":18446744073709551615,"
				 "\"imin\":-9223372036854775808,\"imax\":9223372036854775807,"
				 "\"k\\\"e\\ny\":\"v\"}\n");
	assert_int_equal(n, strlen(buf));
}

static void test_empty_containers(void **state)
{
	char buf[64];
	struct jw w;

	(void)state;
	jw_init(&w, buf, sizeof(buf));
	jw_obj_open(&w, NULL);
	jw_obj_close(&w);
	assert_int_equal(jw_finish(&w), 3);
	assert_string_equal(buf, "{}\n");
	jw_init(&w, buf, sizeof(buf));
	jw_arr_open(&w, NULL);
	jw_arr_close(&w);
	assert_int_equal(jw_finish(&w), 3);
	assert_string_equal(buf, "[]\n");
	/* a raw piece does not take part in separators */
	jw_init(&w, buf, sizeof(buf));
	jw_raw(&w, "{", 1);
	jw_key(&w, "k");
	jw_raw(&w, "7}", 2);
	assert_int_equal(jw_finish(&w), 8);
	assert_string_equal(buf, "{\"k\":7}\n");
}

static void test_overflow(void **state)
{
	char buf[64];
	struct jw w;

	(void)state;
	/* "{}" + "\n" + NUL is 4 bytes: fits exactly, one less does not */
	memset(buf, 'G', sizeof(buf));
	jw_init(&w, buf, 4);
	jw_obj_open(&w, NULL);
	jw_obj_close(&w);
	assert_int_equal(w.overflow, 0);
	assert_int_equal(jw_finish(&w), 3);
	assert_memory_equal(buf, "{}\n", 4);
	assert_int_equal(buf[4], 'G');

	memset(buf, 'G', sizeof(buf));
	jw_init(&w, buf, 3);
	jw_obj_open(&w, NULL);
	jw_obj_close(&w);
	assert_int_equal(w.overflow, 1);
	assert_int_equal(jw_finish(&w), -1);
	for (int i = 3; i < 64; i++)
		assert_int_equal(buf[i], 'G');

	/* a long string: the flag sticks, nothing more is written */
	memset(buf, 'G', sizeof(buf));
	jw_init(&w, buf, 16);
	jw_obj_open(&w, NULL);
	jw_str(&w, "k", "0123456789abcdefghij");
	assert_int_equal(w.overflow, 1);
	{
		size_t at = w.len;

		jw_u64(&w, "x", 1);
		jw_obj_close(&w);
		assert_int_equal(w.len, at);
	}
	assert_true(w.len + 2 <= 16);
	assert_int_equal(jw_finish(&w), -1);
	for (int i = 16; i < 64; i++)
		assert_int_equal(buf[i], 'G');

	/* an escape sequence that does not fit */
	jw_init(&w, buf, 8);
	jw_escape(&w, "abc\x01", 4); /* 3 + 6 bytes > 8 - 2 */
	assert_int_equal(w.overflow, 1);
	assert_int_equal(jw_finish(&w), -1);
	jw_init(&w, buf, 8);
	jw_escape(&w, "ab\"", 3); /* 4 bytes + "\n\0" fits */
	assert_int_equal(w.overflow, 0);
	assert_int_equal(jw_finish(&w), 5);
	assert_string_equal(buf, "ab\\\"\n");
}

/* jw_finish checks the capacity itself: a writer that wrote nothing into a
 * buffer too small for "\n\0" (jw_init allows any cap) fails, untouched. */
static void test_finish_tiny_cap(void **state)
{
	char buf[8];
	struct jw w;

	(void)state;
	memset(buf, 'G', sizeof(buf));
	jw_init(&w, buf, 1);
	assert_int_equal(jw_finish(&w), -1);
	assert_int_equal(buf[1], 'G'); /* nothing written past the buffer */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fmt_integers),
		cmocka_unit_test(test_raw_lengths),
		cmocka_unit_test(test_escape_ascii_only),
		cmocka_unit_test(test_escape_ascii),
		cmocka_unit_test(test_escape_quotes_backslash),
		cmocka_unit_test(test_escape_control),
		cmocka_unit_test(test_escape_utf8_valid),
		cmocka_unit_test(test_escape_utf8_invalid),
		cmocka_unit_test(test_escape_random_roundtrip),
		cmocka_unit_test(test_values_and_nesting),
		cmocka_unit_test(test_numbers_and_keys),
		cmocka_unit_test(test_empty_containers),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_finish_tiny_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
