// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* pathnorm: component lists, lexical normalisation, joining. */
#include "testutil.h"
#include "pathnorm.h"

#define GUARD 0x5a

/* out: cap bytes for the function, then 16 guard bytes that must stay intact. */
static void check_guard(const char *buf, size_t cap)
{
	for (size_t i = cap; i < cap + 16; i++)
		if ((unsigned char)buf[i] != GUARD)
			fail_msg("byte %zu written past cap %zu", i, cap);
}

static long fc(struct piece list, char *out, size_t cap)
{
	memset(out, GUARD, cap + 16);
	long n = pathnorm_from_components(list.p, list.n, out, cap);

	check_guard(out, cap);
	return n;
}

static void test_from_components_basic(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(fc(PC("c\0b\0a\0"), out, 32), 6);
	assert_string_equal(out, "/a/b/c");
	assert_int_equal(fc(PC("etc\0"), out, 32), 4);
	assert_string_equal(out, "/etc");
	assert_int_equal(fc(PC("passwd\0etc\0"), out, 32), 11);
	assert_string_equal(out, "/etc/passwd");
	/* names are taken as they are, spaces and dots included */
	assert_int_equal(fc(PC("my file.txt\0..x\0"), out, 32), 16);
	assert_string_equal(out, "/..x/my file.txt");
}

static void test_from_components_empty_is_root(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(fc(PC_NONE, out, 32), 1);
	assert_string_equal(out, "/");
	/* exactly enough room for "/" */
	assert_int_equal(fc(PC_NONE, out, 2), 1);
	assert_string_equal(out, "/");
	assert_int_equal(fc(PC_NONE, out, 1), -1);
	assert_int_equal(fc(PC_NONE, out, 0), -1);
}

static void test_from_components_malformed(void **state)
{
	char out[64];

	(void)state;
	/* last component without its NUL */
	assert_int_equal(fc(PC("c\0b"), out, 32), -1);
	assert_int_equal(fc(PC("abc"), out, 32), -1);
	/* a well-formed prefix does not make a malformed list acceptable */
	assert_int_equal(fc(PC("c\0b\0a"), out, 32), -1);
	/* list_len stops before the final NUL */
	assert_int_equal(pathnorm_from_components("a\0b\0", 3, out, sizeof(out)), -1);
}

static void test_from_components_overflow(void **state)
{
	char out[64];

	(void)state;
	/* "/a/b/c" is 6 bytes + NUL: 7 fits, 6 does not */
	assert_int_equal(fc(PC("c\0b\0a\0"), out, 7), 6);
	assert_string_equal(out, "/a/b/c");
	assert_int_equal(fc(PC("c\0b\0a\0"), out, 6), -1);
	assert_int_equal(fc(PC("c\0b\0a\0"), out, 2), -1);
	assert_int_equal(fc(PC("c\0b\0a\0"), out, 1), -1);
	assert_int_equal(fc(PC("longname\0"), out, 9), -1);
	assert_int_equal(fc(PC("longname\0"), out, 10), 9);
}

static void test_from_components_deep_and_long(void **state)
{
	/* 64 components (AS_PATH_MAX_DEPTH) of 63 bytes: 4096 bytes of path */
	size_t list_len = 64 * 64;
	char *list = malloc(list_len), *out = malloc(AS_PATH_MAX + 1 + 16), *want;
	long n;

	(void)state;
	for (int i = 0; i < 64; i++) {
		memset(list + i * 64, 'a' + i % 26, 63);
		list[i * 64 + 63] = 0;
	}
	n = fc(pc_mem(list, list_len), out, AS_PATH_MAX + 1);
	assert_int_equal(n, 4096);
	want = malloc(4097);
	for (int i = 0; i < 64; i++) {
		/* leaf first in the list: the last component is the first in the path */
		want[i * 64] = '/';
		memset(want + i * 64 + 1, 'a' + (63 - i) % 26, 63);
	}
	want[4096] = 0;
	assert_string_equal(out, want);
	/* one byte less room */
	assert_int_equal(fc(pc_mem(list, list_len), out, AS_PATH_MAX), -1);
	free(want);
	free(out);
	free(list);
}

/* The plain reading of a component list, one byte at a time: what the
 * word-at-a-time scan must agree with. */
static long ref_from_components(const char *list, size_t len, char *out, size_t cap)
{
	size_t start = 0;

	if (len == 0) {
		if (cap < 2)
			return -1;
		memcpy(out, "/", 2);
		return 1;
	}
	if (list[len - 1] != 0 || len + 1 > cap)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (list[i])
			continue;
		out[len - i - 1] = '/';
		memcpy(out + len - i, list + start, i - start);
		start = i + 1;
	}
	out[len] = 0;
	return (long)len;
}

static void test_from_components_word_edges(void **state)
{
	/* every list of up to 40 bytes whose components have lengths drawn
	 * from a pattern that puts NULs at each place in a word: empty
	 * components, names across word boundaries, a last word re-read */
	static const size_t lens[] = { 0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 23, 31, 33 };
	const size_t nl = sizeof(lens) / sizeof(lens[0]);
	char list[128], out[160], want[160];

	(void)state;
	for (size_t a = 0; a < nl; a++)
		for (size_t b = 0; b < nl; b++)
			for (size_t c = 0; c < 4; c++) {
				size_t n = 0, parts[3] = { lens[a], lens[b], lens[c] };

				for (size_t k = 0; k < 3; k++) {
					for (size_t j = 0; j < parts[k]; j++, n++)
						list[n] = (char)('a' + (n + k) % 26);
					list[n++] = 0;
				}
				for (size_t drop = 0; drop < 3; drop++) {
					/* lists of one, two and three components */
					size_t len = n;
					long got, ref;

					for (size_t k = 0; k < drop; k++)
						len -= parts[2 - k] + 1;
					ref = ref_from_components(list, len, want, sizeof(want));
					memset(out, GUARD, sizeof(out));
					got = pathnorm_from_components(list, len, out, len + 1);
					assert_int_equal(got, ref);
					assert_memory_equal(out, want, (size_t)ref + 1);
					assert_int_equal((unsigned char)out[len + 1], GUARD);
				}
			}
}

static void test_from_components_odd_bytes(void **state)
{
	/* bytes a zero test with borrows could take for NUL: 0x01 after a
	 * NUL, 0x80 and 0xff; a list whose last word has NULs on both sides of
	 * the bytes seen before */
	static const char lists[][24] = {
		"\x01\x01\x01\x01\x01\x01\x01\0\x01\0",
		"\x80\0\xff\0\x01\x80\0\x7f\0\x01\0",
		"a\0\0\0\0\0\0\0\0\0b\0",
		"\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0",
	};
	static const size_t lens[] = { 10, 11, 12, 16 };
	char out[64], want[64];

	(void)state;
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		long ref = ref_from_components(lists[i], lens[i], want, sizeof(want));

		assert_int_equal(fc(pc_mem(lists[i], lens[i]), out, lens[i] + 1), ref);
		assert_memory_equal(out, want, (size_t)ref + 1);
	}
}

static void test_from_components_too_many(void **state)
{
	/* more components than any kernel walk sends: refused */
	size_t len = 2 * (PATHNORM_MAX_COMPONENTS + 1);
	char *list = malloc(len), *out = malloc(len + 1);

	(void)state;
	for (size_t i = 0; i < len; i += 2) {
		list[i] = 'x';
		list[i + 1] = 0;
	}
	assert_int_equal(pathnorm_from_components(list, len, out, len + 1), -1);
	assert_int_equal(pathnorm_from_components(list, len - 2, out, len + 1), (long)len - 2);
	free(out);
	free(list);
}

struct norm_case {
	const char *in, *out;
};

static const struct norm_case norm_cases[] = {
	{ "/", "/" },
	{ "//", "/" },
	{ "///", "/" },
	{ "/a", "/a" },
	{ "//a//b//", "/a/b" },
	{ "/a/", "/a" },
	{ "/a/b/", "/a/b" },
	{ "/.", "/" },
	{ "/./", "/" },
	{ "/a/./b/.", "/a/b" },
	{ "/a/b/../c", "/a/c" },
	{ "/a/b/..", "/a" },
	{ "/a/b/../", "/a" },
	{ "/a/..", "/" },
	{ "/..", "/" },
	{ "/../..", "/" },
	{ "/../../x", "/x" },
	{ "/a/b/../../..", "/" },
	{ "/a/b/../../../c/d", "/c/d" },
	{ "/a/b/./../c/", "/a/c" },
	{ "/...", "/..." },
	{ "/a/..b/.c/c.", "/a/..b/.c/c." },
	{ "/usr/lib/../lib64/./libc.so.6", "/usr/lib64/libc.so.6" },
	{ "/home/u/../../etc//passwd", "/etc/passwd" },
	/* relative paths stay relative, a climb out keeps its ".." */
	{ "a", "a" },
	{ "a/b", "a/b" },
	{ "./a", "a" },
	{ "a/./b/", "a/b" },
	{ "a//b", "a/b" },
	{ "a/..", "." },
	{ "a/b/../..", "." },
	{ ".", "." },
	{ "./", "." },
	{ "./.", "." },
	{ "", "." },
	{ "..", ".." },
	{ "../", ".." },
	{ "./..", ".." },
	{ "../a", "../a" },
	{ "../..", "../.." },
	{ "../../a/b/../c", "../../a/c" },
	{ "a/../../b", "../b" },
	{ "x/../..", ".." },
	{ "../a/..", ".." },
	{ "..x/..", "." },
	{ "a/../..x", "..x" },
	{ "...", "..." },
};

static void test_normalize_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(norm_cases) / sizeof(norm_cases[0]); i++) {
		char buf[128];
		size_t n;

		snprintf(buf, sizeof(buf), "%s", norm_cases[i].in);
		n = pathnorm_normalize(buf);
		if (strcmp(buf, norm_cases[i].out) != 0)
			fail_msg("normalize(\"%s\") = \"%s\", want \"%s\"", norm_cases[i].in, buf,
				 norm_cases[i].out);
		assert_int_equal(n, strlen(norm_cases[i].out));
	}
}

/* Normalising is idempotent, and an absolute result never holds "//", "/./"
 * or "/../" nor ends in '/'. */
static void test_normalize_random_idempotent(void **state)
{
	static const char *const parts[] = { "a", "bc", ".", "..", "", "...", ".x" };
	uint64_t seed = 0x1234abcd;

	(void)state;
	for (int it = 0; it < 20000; it++) {
		char buf[256] = "", again[256];
		int absolute = (int)(tu_rand(&seed) & 1), k = (int)(tu_rand(&seed) % 10);
		size_t n;

		if (absolute)
			strcat(buf, "/");
		for (int j = 0; j < k; j++) {
			strcat(buf, parts[tu_rand(&seed) % 7]);
			if (j + 1 < k || (tu_rand(&seed) & 1))
				strcat(buf, "/");
		}
		absolute = buf[0] == '/'; /* an empty first part makes it absolute too */
		n = pathnorm_normalize(buf);
		assert_int_equal(n, strlen(buf));
		assert_true(n > 0);
		assert_int_equal(buf[0] == '/', absolute);
		memcpy(again, buf, sizeof(buf));
		assert_int_equal(pathnorm_normalize(again), n);
		assert_string_equal(again, buf);
		assert_null(strstr(buf, "//"));
		assert_null(strstr(buf, "/./"));
		if (n > 1)
			assert_true(buf[n - 1] != '/');
		if (absolute) {
			assert_null(strstr(buf, "/../"));
			assert_true(n < 3 || strcmp(buf + n - 3, "/..") != 0);
		}
	}
}

static long join(const char *base, const char *rel, char *out, size_t cap)
{
	long n;

	memset(out, GUARD, cap + 16);
	n = pathnorm_join(base, rel, out, cap);
	check_guard(out, cap);
	if (n >= 0)
		assert_int_equal(strlen(out), (size_t)n);
	return n;
}

static void test_join(void **state)
{
	char out[256];

	(void)state;
	assert_int_equal(join("/home/u", "f.txt", out, 128), 13);
	assert_string_equal(out, "/home/u/f.txt");
	join("/home/u", "../v/./f", out, 128);
	assert_string_equal(out, "/home/v/f");
	join("/home/u", "./", out, 128);
	assert_string_equal(out, "/home/u");
	join("/", "x", out, 128);
	assert_string_equal(out, "/x");
	join("/a", "..", out, 128);
	assert_string_equal(out, "/");
	join("/a/b", "../../../../etc", out, 128);
	assert_string_equal(out, "/etc");
	/* an empty user string resolves to the base itself */
	join("/a/b", "", out, 128);
	assert_string_equal(out, "/a/b");
}

static void test_join_absolute_ignores_base(void **state)
{
	char out[256];

	(void)state;
	assert_int_equal(join("/home/u", "/etc/passwd", out, 128), 11);
	assert_string_equal(out, "/etc/passwd");
	join("/home/u", "//etc/./ssh/../shadow", out, 128);
	assert_string_equal(out, "/etc/shadow");
	/* an absolute path fits on its own even when base + path would not */
	assert_int_equal(join("/very/long/base/directory", "/x", out, 3), 2);
	assert_string_equal(out, "/x");
}

static void test_join_null_base(void **state)
{
	char out[256];

	(void)state;
	assert_int_equal(join(NULL, "a/../b", out, 128), 1);
	assert_string_equal(out, "b");
	join(NULL, "../x", out, 128);
	assert_string_equal(out, "../x");
	join(NULL, "/x//y/", out, 128);
	assert_string_equal(out, "/x/y");
	join(NULL, "./", out, 128);
	assert_string_equal(out, ".");
}

static void test_join_too_long(void **state)
{
	char out[256];

	(void)state;
	/* "/base/dir" (9) + '/' + "file.name" (9) + NUL = 20 */
	assert_int_equal(join("/base/dir", "file.name", out, 20), 19);
	assert_string_equal(out, "/base/dir/file.name");
	assert_int_equal(join("/base/dir", "file.name", out, 19), -1);
	assert_int_equal(join("/base/dir", "file.name", out, 1), -1);
	/* absolute and NULL-base: the path and its NUL */
	assert_int_equal(join("/base", "/abcdefgh", out, 10), 9);
	assert_int_equal(join("/base", "/abcdefgh", out, 9), -1);
	assert_int_equal(join(NULL, "abcdefgh", out, 9), 8);
	assert_int_equal(join(NULL, "abcdefgh", out, 8), -1);
}

/*
 * Regression test, the bug since fixed: pathnorm_join(NULL, "", out, 1) checks rl + 1 <= cap (1 <= 1)
 * and copies "", then pathnorm_normalize turns the empty relative path into
 * "." and writes '.' and its NUL: two bytes into a one-byte buffer. The
 * contract is "-1 when it does not fit in cap". Not reachable from
 * decode_record (its buffer is 8 KiB), but an out-of-bounds write all the same.
 */
static void test_join_empty_relative_fits_cap(void **state)
{
	char out[32];

	(void)state;
	assert_int_equal(join(NULL, "", out, 1), -1);
	assert_int_equal(join(NULL, "", out, 2), 1);
	assert_string_equal(out, ".");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_from_components_basic),
		cmocka_unit_test(test_from_components_empty_is_root),
		cmocka_unit_test(test_from_components_malformed),
		cmocka_unit_test(test_from_components_overflow),
		cmocka_unit_test(test_from_components_deep_and_long),
		cmocka_unit_test(test_from_components_word_edges),
		cmocka_unit_test(test_from_components_odd_bytes),
		cmocka_unit_test(test_from_components_too_many),
		cmocka_unit_test(test_normalize_table),
		cmocka_unit_test(test_normalize_random_idempotent),
		cmocka_unit_test(test_join),
		cmocka_unit_test(test_join_absolute_ignores_base),
		cmocka_unit_test(test_join_null_base),
		cmocka_unit_test(test_join_too_long),
		cmocka_unit_test(test_join_empty_relative_fits_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
