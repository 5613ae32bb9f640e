/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Helpers shared by the unit tests: records built in memory exactly as the
 * kernel (or procscan) lays them out, a seeded PRNG, temporary directories,
 * and a strict JSON line checker independent of user/json.c.
 * Everything is static inline so that a test file can use any subset.
 */
#ifndef AS_TESTUTIL_H
#define AS_TESTUTIL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "abi.h"
#include "decode.h"
#include "event.h"


/* ---- byte strings with embedded NULs ---------------------------------- */

/* A literal's bytes without the implicit trailing NUL: PC("c\0b\0") is 4 bytes. */
struct piece {
	const char *p;
	size_t n;
};
#define PC(lit) ((struct piece){ (lit), sizeof(lit) - 1 })
#define PC_NONE ((struct piece){ "", 0 })

static inline struct piece pc_mem(const char *p, size_t n)
{
	return (struct piece){ p, n };
}

/* A C string with its NUL, as a plain string field carries it. */
static inline struct piece pc_str(const char *s)
{
	return (struct piece){ s, strlen(s) + 1 };
}

/* ---- records ------------------------------------------------------------ */

#define TU_TS 1700000000123456789ull

static inline void tu_hdr(struct as_hdr *h, unsigned type, unsigned sc, uint32_t pid)
{
	memset(h, 0, sizeof(*h));
	h->type = (uint16_t)type;
	h->syscall = (uint16_t)sc;
	h->ts = TU_TS;
	h->cgroup_id = 4242;
	h->pid = h->tid = h->vpid = pid;
	h->ppid = 1;
	h->sid = pid;
	h->uid = h->euid = 1000;
	h->gid = h->egid = 1000;
	h->loginuid = AS_ID_UNSET;
	strcpy(h->comm, "tester");
}

/* fixed part (fixed bytes) + pieces, into an exactly sized heap block with
 * hdr.size set, so that ASan sees any read past the record. */
static inline void *tu_rec(const void *fixed, size_t fixed_len, const struct piece *pcs, int n,
			   size_t *len)
{
	size_t total = fixed_len;
	unsigned char *b, *p;

	for (int i = 0; i < n; i++)
		total += pcs[i].n;
	b = malloc(total);
	assert_non_null(b);
	memcpy(b, fixed, fixed_len);
	p = b + fixed_len;
	for (int i = 0; i < n; i++) {
		memcpy(p, pcs[i].p, pcs[i].n);
		p += pcs[i].n;
	}
	((struct as_hdr *)b)->size = (uint32_t)total;
	*len = total;
	return b;
}

/* x: header, res and pflags filled by the caller; the *_len fields are set
 * here. ldpath: LD_LIBRARY_PATH's value ending the record (AS_XF_LD_PATH is
 * the caller's to set). */
static inline void *tu_exec_ldpath(struct as_exec *x, struct piece filename, struct piece args,
				   struct piece exe, struct piece cwd, struct piece cgroup,
				   struct piece ldpath, size_t *len)
{
	struct piece pcs[6] = { filename, args, exe, cwd, cgroup, ldpath };

	x->filename_len = (uint16_t)filename.n;
	x->args_len = (uint16_t)args.n;
	x->exe_len = (uint16_t)exe.n;
	x->cwd_len = (uint16_t)cwd.n;
	x->cgroup_len = (uint16_t)cgroup.n;
	x->ldpath_len = (uint16_t)ldpath.n;
	return tu_rec(x, sizeof(*x), pcs, 6, len);
}

static inline void *tu_exec(struct as_exec *x, struct piece filename, struct piece args,
			    struct piece exe, struct piece cwd, struct piece cgroup, size_t *len)
{
	return tu_exec_ldpath(x, filename, args, exe, cwd, cgroup, PC_NONE, len);
}

static inline void *tu_open(struct as_open *o, struct piece path, struct piece base, size_t *len)
{
	struct piece pcs[2] = { path, base };

	o->path_len = (uint16_t)path.n;
	o->base_len = (uint16_t)base.n;
	return tu_rec(o, sizeof(*o), pcs, 2, len);
}

static inline void *tu_fixed(const void *fixed, size_t fixed_len, size_t *len)
{
	return tu_rec(fixed, fixed_len, NULL, 0, len);
}

/* A ready exec record for pid: execve of exe with args, cwd and cgroup as
 * component lists (leaf first). */
static inline void *tu_simple_exec(uint32_t pid, uint32_t ppid, int64_t res, struct piece args,
				   struct piece exe_list, struct piece cwd_list,
				   struct piece cg_list, size_t *len)
{
	struct as_exec x;

	memset(&x, 0, sizeof(x));
	tu_hdr(&x.hdr, AS_EV_EXEC, AS_SC_EXECVE, pid);
	x.hdr.ppid = ppid;
	x.res = res;
	return tu_exec(&x, PC("/bin/prog\0"), args, exe_list, cwd_list, cg_list, len);
}

static inline struct event *tu_event_new(void)
{
	struct event *ev = calloc(1, sizeof(*ev));

	assert_non_null(ev);
	return ev;
}

/* decode_record that must succeed. */
static inline void tu_decode_ok(const void *rec, size_t len, struct event *ev)
{
	char err[DECODE_ERR_MAX] = "";
	int rc = decode_record(rec, len, ev, err);

	if (rc != 0)
		fail_msg("decode_record failed (%d): %s", rc, err);
}

/* ---- PRNG (xorshift64*) -------------------------------------------------- */

static inline uint64_t tu_rand(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 2685821657736338717ull;
}

static inline void tu_rand_fill(uint64_t *s, void *buf, size_t n)
{
	unsigned char *b = buf;

	while (n >= 8) {
		uint64_t v = tu_rand(s);

		memcpy(b, &v, 8);
		b += 8;
		n -= 8;
	}
	if (n) {
		uint64_t v = tu_rand(s);

		memcpy(b, &v, n);
	}
}

/* ---- temporary directories --------------------------------------------- */

static inline void tu_mkdtemp(char *out, size_t cap, const char *tag)
{
	const char *t = getenv("TMPDIR");

	snprintf(out, cap, "%s/as-%s-XXXXXX", t && *t ? t : "/tmp", tag);
	assert_non_null(mkdtemp(out));
}

static inline int tu_rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static inline void tu_rmrf(const char *path)
{
	nftw(path, tu_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static inline void tu_write_file(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

/* ---- strict JSON checker ------------------------------------------------- */

struct jc_member {
	const char *k; /* raw key bytes between the quotes */
	size_t kl;
	const char *v; /* raw value text */
	size_t vl;
};

struct jc {
	const char *s;
	size_t n, i;
	int depth;
	char err[200];
	struct jc_member top[1024]; /* members of the top-level object */
	int ntop;
};

static inline int jc_fail(struct jc *c, const char *what)
{
	snprintf(c->err, sizeof(c->err), "%s at offset %zu", what, c->i);
	return -1;
}

static inline void jc_ws(struct jc *c)
{
	while (c->i < c->n && (c->s[c->i] == ' ' || c->s[c->i] == '\t' || c->s[c->i] == '\r' ||
			       c->s[c->i] == '\n'))
		c->i++;
}

/* Strict UTF-8 (RFC 3629 table): length of the sequence at s, 0 if invalid. */
static inline size_t jc_utf8(const unsigned char *s, size_t n)
{
	unsigned char a = s[0], lo = 0x80, hi = 0xbf;
	size_t len;

	if (a < 0x80)
		return 1;
	if (a >= 0xc2 && a <= 0xdf)
		len = 2;
	else if (a >= 0xe0 && a <= 0xef)
		len = 3;
	else if (a >= 0xf0 && a <= 0xf4)
		len = 4;
	else
		return 0;
	if (a == 0xe0)
		lo = 0xa0;
	else if (a == 0xed)
		hi = 0x9f;
	else if (a == 0xf0)
		lo = 0x90;
	else if (a == 0xf4)
		hi = 0x8f;
	if (len > n || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

static inline int jc_string(struct jc *c)
{
	if (c->i >= c->n || c->s[c->i] != '"')
		return jc_fail(c, "expected string");
	c->i++;
	for (;;) {
		unsigned char ch;

		if (c->i >= c->n)
			return jc_fail(c, "unterminated string");
		ch = (unsigned char)c->s[c->i];
		if (ch == '"') {
			c->i++;
			return 0;
		}
		if (ch < 0x20)
			return jc_fail(c, "raw control byte in string");
		if (ch == '\\') {
			if (c->i + 1 >= c->n)
				return jc_fail(c, "truncated escape");
			ch = (unsigned char)c->s[c->i + 1];
			if (ch == 'u') {
				if (c->i + 6 > c->n)
					return jc_fail(c, "truncated \\u escape");
				for (int k = 2; k < 6; k++) {
					char h = c->s[c->i + k];

					if (!((h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') ||
					      (h >= 'A' && h <= 'F')))
						return jc_fail(c, "bad \\u escape");
				}
				c->i += 6;
			} else if (ch && strchr("\"\\/bfnrt", ch)) {
				c->i += 2;
			} else {
				return jc_fail(c, "bad escape");
			}
			continue;
		}
		{
			size_t l = jc_utf8((const unsigned char *)c->s + c->i, c->n - c->i);

			if (!l)
				return jc_fail(c, "invalid UTF-8 in string");
			c->i += l;
		}
	}
}

static inline int jc_digits(struct jc *c)
{
	size_t st = c->i;

	while (c->i < c->n && c->s[c->i] >= '0' && c->s[c->i] <= '9')
		c->i++;
	return c->i > st ? 0 : jc_fail(c, "expected digit");
}

static inline int jc_number(struct jc *c)
{
	if (c->i < c->n && c->s[c->i] == '-')
		c->i++;
	if (c->i < c->n && c->s[c->i] == '0')
		c->i++;
	else if (jc_digits(c))
		return -1;
	if (c->i < c->n && c->s[c->i] == '.') {
		c->i++;
		if (jc_digits(c))
			return -1;
	}
	if (c->i < c->n && (c->s[c->i] == 'e' || c->s[c->i] == 'E')) {
		c->i++;
		if (c->i < c->n && (c->s[c->i] == '+' || c->s[c->i] == '-'))
			c->i++;
		if (jc_digits(c))
			return -1;
	}
	return 0;
}

static inline int jc_value(struct jc *c);

static inline int jc_object(struct jc *c)
{
	int top = c->depth == 1;

	c->i++; /* '{' */
	jc_ws(c);
	if (c->i < c->n && c->s[c->i] == '}') {
		c->i++;
		return 0;
	}
	for (;;) {
		size_t ks = c->i, vs;

		if (jc_string(c))
			return -1;
		if (top) {
			struct jc_member *m;

			for (int k = 0; k < c->ntop; k++)
				if (c->top[k].kl == c->i - ks - 2 &&
				    !memcmp(c->top[k].k, c->s + ks + 1, c->top[k].kl))
					return jc_fail(c, "duplicate key");
			if (c->ntop == (int)(sizeof(c->top) / sizeof(c->top[0])))
				return jc_fail(c, "too many keys");
			m = &c->top[c->ntop++];
			m->k = c->s + ks + 1;
			m->kl = c->i - ks - 2;
		}
		jc_ws(c);
		if (c->i >= c->n || c->s[c->i] != ':')
			return jc_fail(c, "expected ':'");
		c->i++;
		jc_ws(c);
		vs = c->i;
		if (jc_value(c))
			return -1;
		if (top) {
			c->top[c->ntop - 1].v = c->s + vs;
			c->top[c->ntop - 1].vl = c->i - vs;
		}
		jc_ws(c);
		if (c->i < c->n && c->s[c->i] == ',') {
			c->i++;
			jc_ws(c);
			continue;
		}
		if (c->i < c->n && c->s[c->i] == '}') {
			c->i++;
			return 0;
		}
		return jc_fail(c, "expected ',' or '}'");
	}
}

static inline int jc_array(struct jc *c)
{
	c->i++; /* '[' */
	jc_ws(c);
	if (c->i < c->n && c->s[c->i] == ']') {
		c->i++;
		return 0;
	}
	for (;;) {
		if (jc_value(c))
			return -1;
		jc_ws(c);
		if (c->i < c->n && c->s[c->i] == ',') {
			c->i++;
			jc_ws(c);
			continue;
		}
		if (c->i < c->n && c->s[c->i] == ']') {
			c->i++;
			return 0;
		}
		return jc_fail(c, "expected ',' or ']'");
	}
}

static inline int jc_lit(struct jc *c, const char *lit)
{
	size_t l = strlen(lit);

	if (c->n - c->i < l || memcmp(c->s + c->i, lit, l))
		return jc_fail(c, "bad literal");
	c->i += l;
	return 0;
}

static inline int jc_value(struct jc *c)
{
	int rc;

	if (c->i >= c->n)
		return jc_fail(c, "expected value");
	if (++c->depth > 64)
		return jc_fail(c, "nesting too deep");
	switch (c->s[c->i]) {
	case '{':
		rc = jc_object(c);
		break;
	case '[':
		rc = jc_array(c);
		break;
	case '"':
		rc = jc_string(c);
		break;
	case 't':
		rc = jc_lit(c, "true");
		break;
	case 'f':
		rc = jc_lit(c, "false");
		break;
	case 'n':
		rc = jc_lit(c, "null");
		break;
	default:
		rc = jc_number(c);
		break;
	}
	c->depth--;
	return rc;
}

/* Parse s[0..n) as one JSON value and nothing else. */
static inline int jc_parse(struct jc *c, const char *s, size_t n)
{
	memset(c, 0, sizeof(*c));
	c->s = s;
	c->n = n;
	jc_ws(c);
	if (jc_value(c))
		return -1;
	jc_ws(c);
	if (c->i != c->n)
		return jc_fail(c, "trailing bytes");
	return 0;
}

/* One JSON object per line: len bytes, NUL after, the only '\n' at the end. */
static inline void jc_check_line(struct jc *c, const char *buf, long len)
{
	assert_true(len > 0);
	assert_int_equal(strlen(buf), (size_t)len);
	assert_int_equal(buf[len - 1], '\n');
	assert_null(memchr(buf, '\n', (size_t)len - 1));
	if (jc_parse(c, buf, (size_t)len - 1) != 0)
		fail_msg("invalid JSON (%s): %s", c->err, buf);
	assert_int_equal(buf[0], '{');
}

static inline const struct jc_member *jc_get(const struct jc *c, const char *key)
{
	size_t kl = strlen(key);

	for (int i = 0; i < c->ntop; i++)
		if (c->top[i].kl == kl && !memcmp(c->top[i].k, key, kl))
			return &c->top[i];
	return NULL;
}

/* The raw JSON text of key's value must be exactly want (e.g. "\"x\"", "12", "null"). */
#define assert_json_field(c, key, want)                                                        \
	do {                                                                                   \
		const struct jc_member *m_ = jc_get((c), (key));                               \
		const char *w_ = (want);                                                       \
		if (!m_)                                                                       \
			fail_msg("missing key \"%s\"", (key));                                 \
		if (m_->vl != strlen(w_) || memcmp(m_->v, w_, m_->vl))                         \
			fail_msg("key \"%s\": got %.*s, want %s", (key), (int)m_->vl, m_->v,   \
				 w_);                                                          \
	} while (0)

#define assert_json_absent(c, key)                                                             \
	do {                                                                                   \
		if (jc_get((c), (key)))                                                        \
			fail_msg("unexpected key \"%s\"", (key));                              \
	} while (0)

#endif /* AS_TESTUTIL_H */
