// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* record: --record files written and read back, and every way a file can be bad. */
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "testutil.h"
#include "record.h"

struct fx {
	char dir[256];
	char path[300];
	struct replayer *p; /* heap: ASan sees reads and writes past buf[] */
	struct event *ev;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	tu_mkdtemp(f->dir, sizeof(f->dir), "record");
	snprintf(f->path, sizeof(f->path), "%s/rec.asrec", f->dir);
	f->p = calloc(1, sizeof(*f->p));
	f->ev = calloc(1, sizeof(*f->ev));
	*state = f;
	return f->p && f->ev ? 0 : -1;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	if (f->p->f)
		replayer_close(f->p);
	tu_rmrf(f->dir);
	free(f->p);
	free(f->ev);
	free(f);
	return 0;
}

static size_t pad8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

static void write_hdr(const char *path, const char *magic, uint32_t fmt, uint32_t abi,
		      const void *tail, size_t tail_len)
{
	struct record_file_hdr h;
	unsigned char *b = malloc(sizeof(h) + tail_len + 1);

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, magic, sizeof(h.magic));
	h.format_version = fmt;
	h.abi_version = abi;
	h.start_ns = 99;
	memcpy(b, &h, sizeof(h));
	if (tail_len)
		memcpy(b + sizeof(h), tail, tail_len);
	tu_write_file(path, b, sizeof(h) + tail_len);
	free(b);
}

static void test_roundtrip(void **state)
{
	struct fx *f = *state;
	struct recorder r;
	struct as_fork fk;
	struct as_open o;
	void *recs[3];
	size_t lens[3];
	struct stat st;
	unsigned char *file;
	size_t off;
	FILE *fp;

	/* an exec of 508 bytes, a fork of 448 (aligned), an open of 482 */
	recs[0] = tu_simple_exec(10, 1, 0, PC("ls\0"), PC("ls\0bin\0"), PC_NONE, PC_NONE,
				 &lens[0]);
	memset(&fk, 0, sizeof(fk));
	tu_hdr(&fk.hdr, AS_EV_FORK, AS_SC_CLONE, 10);
	fk.child_pid = 11;
	recs[1] = tu_fixed(&fk, sizeof(fk), &lens[1]);
	memset(&o, 0, sizeof(o));
	tu_hdr(&o.hdr, AS_EV_OPEN, AS_SC_OPENAT, 11);
	o.pflags = AS_OF_RESOLVED;
	recs[2] = tu_open(&o, PC("x\0"), PC_NONE, &lens[2]);
	assert_int_equal(lens[0], sizeof(struct as_exec) + 10 + 3 + 7);
	assert_true(lens[0] % 8 != 0);
	assert_int_equal(lens[1] % 8, 0);
	assert_true(lens[2] % 8 != 0);

	assert_int_equal(recorder_open(&r, f->path, 123456789), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(recorder_write(&r, recs[i], lens[i]), 0);
	assert_int_equal(r.records, 3);
	assert_int_equal(recorder_close(&r), 0);
	assert_null(r.f);
	assert_int_equal(recorder_close(&r), 0); /* closing twice is harmless */

	/* the file: 32-byte header, records padded with zeros to 8 */
	assert_int_equal(stat(f->path, &st), 0);
	assert_int_equal((size_t)st.st_size, 32 + pad8(lens[0]) + pad8(lens[1]) + pad8(lens[2]));
	file = malloc((size_t)st.st_size);
	fp = fopen(f->path, "rb");
	assert_int_equal(fread(file, 1, (size_t)st.st_size, fp), (size_t)st.st_size);
	fclose(fp);
	assert_memory_equal(file, "ASREC\0\0\0", 8);
	{
		struct record_file_hdr h;

		memcpy(&h, file, sizeof(h));
		assert_int_equal(h.format_version, RECORD_FORMAT_VERSION);
		assert_int_equal(h.abi_version, AS_ABI_VERSION);
		assert_int_equal(h.start_ns, 123456789);
		assert_int_equal(h.self_pid, (uint32_t)getpid());
		assert_int_equal(h.self_pgid, (uint32_t)getpgrp());
	}
	off = 32;
	for (int i = 0; i < 3; i++) {
		assert_memory_equal(file + off, recs[i], lens[i]);
		for (size_t k = lens[i]; k < pad8(lens[i]); k++)
			assert_int_equal(file[off + k], 0);
		off += pad8(lens[i]);
	}
	free(file);

	/* read back identical, decodable, offsets advancing by padded sizes */
	assert_int_equal(replayer_open(f->p, f->path), 0);
	assert_int_equal(f->p->start_ns, 123456789);
	assert_int_equal(f->p->offset, 32);
	off = 32;
	for (int i = 0; i < 3; i++) {
		long n = replayer_next(f->p);

		assert_int_equal(n, (long)lens[i]);
		assert_memory_equal(f->p->rec, recs[i], lens[i]);
		off += pad8(lens[i]);
		assert_int_equal(f->p->offset, off);
		tu_decode_ok(f->p->rec, (size_t)n, f->ev);
	}
	assert_int_equal(replayer_next(f->p), 0);
	assert_int_equal(replayer_next(f->p), 0);
	replayer_close(f->p);
	assert_null(f->p->f);
	replayer_close(f->p); /* twice is harmless */
	for (int i = 0; i < 3; i++)
		free(recs[i]);
}

static void test_empty_recording(void **state)
{
	struct fx *f = *state;
	struct recorder r;

	assert_int_equal(recorder_open(&r, f->path, 5), 0);
	assert_int_equal(recorder_close(&r), 0);
	assert_int_equal(replayer_open(f->p, f->path), 0);
	assert_int_equal(f->p->start_ns, 5);
	assert_int_equal(replayer_next(f->p), 0);
	replayer_close(f->p);
}

static void test_largest_record(void **state)
{
	struct fx *f = *state;
	struct recorder r;
	/* RECORD_MAX - 3 bytes: padding takes it to exactly RECORD_MAX */
	size_t sizes[2] = { RECORD_MAX, RECORD_MAX - 3 };

	for (int i = 0; i < 2; i++) {
		unsigned char *big = malloc(sizes[i]);
		uint64_t seed = 5;

		tu_rand_fill(&seed, big, sizes[i]);
		((struct as_hdr *)big)->size = (uint32_t)sizes[i];
		assert_int_equal(recorder_open(&r, f->path, 1), 0);
		assert_int_equal(recorder_write(&r, big, sizes[i]), 0);
		assert_int_equal(recorder_write(&r, big, sizes[i]), 0);
		assert_int_equal(recorder_close(&r), 0);
		assert_int_equal(replayer_open(f->p, f->path), 0);
		assert_int_equal(replayer_next(f->p), (long)sizes[i]);
		assert_memory_equal(f->p->rec, big, sizes[i]);
		assert_int_equal(replayer_next(f->p), (long)sizes[i]);
		assert_memory_equal(f->p->rec, big, sizes[i]);
		assert_int_equal(replayer_next(f->p), 0);
		replayer_close(f->p);
		free(big);
	}
}

static void test_bad_magic(void **state)
{
	struct fx *f = *state;

	write_hdr(f->path, "ASREX\0\0\0", RECORD_FORMAT_VERSION, AS_ABI_VERSION, NULL, 0);
	assert_int_equal(replayer_open(f->p, f->path), -EINVAL);
	assert_null(f->p->f);
	write_hdr(f->path, "asrec\0\0\0", RECORD_FORMAT_VERSION, AS_ABI_VERSION, NULL, 0);
	assert_int_equal(replayer_open(f->p, f->path), -EINVAL);
	/* shorter than the header, and empty */
	tu_write_file(f->path, "ASREC\0\0\0\1\0", 10);
	assert_int_equal(replayer_open(f->p, f->path), -EINVAL);
	tu_write_file(f->path, "", 0);
	assert_int_equal(replayer_open(f->p, f->path), -EINVAL);
	assert_null(f->p->f);
}

static void test_bad_versions(void **state)
{
	struct fx *f = *state;

	write_hdr(f->path, RECORD_MAGIC, RECORD_FORMAT_VERSION + 1, AS_ABI_VERSION, NULL, 0);
	assert_int_equal(replayer_open(f->p, f->path), -EINVAL);
	assert_null(f->p->f);
	write_hdr(f->path, RECORD_MAGIC, 0, AS_ABI_VERSION, NULL, 0);
	assert_int_equal(replayer_open(f->p, f->path), -EINVAL);
	write_hdr(f->path, RECORD_MAGIC, RECORD_FORMAT_VERSION, AS_ABI_VERSION + 1, NULL, 0);
	assert_int_equal(replayer_open(f->p, f->path), -EINVAL);
	assert_null(f->p->f);
	write_hdr(f->path, RECORD_MAGIC, RECORD_FORMAT_VERSION, 0, NULL, 0);
	assert_int_equal(replayer_open(f->p, f->path), -EINVAL);
	/* a recording of the previous ABI (before the generic record) */
	write_hdr(f->path, RECORD_MAGIC, RECORD_FORMAT_VERSION, AS_ABI_VERSION - 1, NULL, 0);
	assert_int_equal(replayer_open(f->p, f->path), -EINVAL);
	assert_null(f->p->f);
	/* and the right ones open */
	write_hdr(f->path, RECORD_MAGIC, RECORD_FORMAT_VERSION, AS_ABI_VERSION, NULL, 0);
	assert_int_equal(replayer_open(f->p, f->path), 0);
	assert_int_equal(f->p->start_ns, 99);
	replayer_close(f->p);
}

static void test_missing_file(void **state)
{
	struct fx *f = *state;
	char path[400];
	struct recorder r;

	snprintf(path, sizeof(path), "%s/nope", f->dir);
	assert_int_equal(replayer_open(f->p, path), -ENOENT);
	assert_null(f->p->f);
	snprintf(path, sizeof(path), "%s/no/such/dir/x", f->dir);
	assert_int_equal(recorder_open(&r, path, 0), -ENOENT);
	assert_null(r.f);
	assert_int_equal(recorder_write(&r, "x", 1), -EIO);
	assert_int_equal(recorder_close(&r), 0);
}

/* A valid record, then tail (a broken one) after it. */
static void write_with_tail(struct fx *f, const void *tail, size_t tail_len, void **first,
			    size_t *first_len)
{
	size_t flen;
	unsigned char *b;
	void *rec = tu_simple_exec(10, 1, 0, PC("ls\0"), PC("ls\0"), PC_NONE, PC_NONE, &flen);

	b = calloc(1, pad8(flen) + tail_len);
	memcpy(b, rec, flen);
	memcpy(b + pad8(flen), tail, tail_len);
	write_hdr(f->path, RECORD_MAGIC, RECORD_FORMAT_VERSION, AS_ABI_VERSION, b,
		  pad8(flen) + tail_len);
	free(b);
	*first = rec;
	*first_len = flen;
}

static void expect_bad_second(struct fx *f, const void *tail, size_t tail_len)
{
	void *first;
	size_t flen;

	write_with_tail(f, tail, tail_len, &first, &flen);
	assert_int_equal(replayer_open(f->p, f->path), 0);
	assert_int_equal(replayer_next(f->p), (long)flen);
	assert_memory_equal(f->p->rec, first, flen);
	assert_int_equal(replayer_next(f->p), -EINVAL);
	replayer_close(f->p);
	free(first);
}

static void test_truncated(void **state)
{
	struct fx *f = *state;
	unsigned char tail[600];
	uint32_t size;

	/* a size field cut short */
	size = sizeof(struct as_hdr) + 8; /* the smallest valid size, 8-aligned */
	memcpy(tail, &size, 4);
	expect_bad_second(f, tail, 1);
	expect_bad_second(f, tail, 3);
	/* a record cut short: size announced, 200 present */
	memset(tail, 0, sizeof(tail));
	memcpy(tail, &size, 4);
	expect_bad_second(f, tail, 200);
	expect_bad_second(f, tail, size - 1);
	/* exactly complete (without padding: size is aligned) */
	{
		void *first;
		size_t flen;

		write_with_tail(f, tail, size, &first, &flen);
		assert_int_equal(replayer_open(f->p, f->path), 0);
		assert_int_equal(replayer_next(f->p), (long)flen);
		assert_int_equal(replayer_next(f->p), (long)size);
		assert_int_equal(replayer_next(f->p), 0);
		replayer_close(f->p);
		free(first);
	}
}

static void test_oversized_and_undersized(void **state)
{
	struct fx *f = *state;
	unsigned char tail[1024];
	static const uint32_t bad[] = { RECORD_MAX + 1, RECORD_MAX + 8, 0x7fffffff, 0xffffffff,
					sizeof(struct as_hdr) - 1, 8, 4, 0 };

	memset(tail, 0, sizeof(tail));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memcpy(tail, &bad[i], 4);
		expect_bad_second(f, tail, sizeof(tail));
	}
}

/* Writes that fail: reported once, every later write and the close fail too. */
static void test_write_failure(void **state)
{
	struct recorder r;
	unsigned char *big;

	(void)state;
	if (access("/dev/full", W_OK) != 0)
		skip();
	assert_int_equal(recorder_open(&r, "/dev/full", 0), 0); /* buffered: not yet */
	big = calloc(1, 256 * 1024);
	((struct as_hdr *)big)->size = 256 * 1024;
	assert_int_equal(recorder_write(&r, big, 256 * 1024), -EIO);
	assert_int_equal(r.failed, 1);
	assert_int_equal(recorder_write(&r, big, 8), -EIO);
	assert_int_equal(r.records, 0);
	assert_int_equal(recorder_close(&r), -EIO);
	free(big);
}


/* Replay through a pipe (not mappable: read with stdio) of a file's first
 * keep bytes; returns the replayer_next results, ended by the first <= 0. */
static int replay_piped(struct fx *f, size_t keep, long *got, int max)
{
	int fds[2], n = 0, status;
	char dev[64];
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		FILE *in = fopen(f->path, "rb");
		char b[4096];
		size_t r;

		close(fds[0]);
		while (in && keep && (r = fread(b, 1, keep < sizeof(b) ? keep : sizeof(b), in)) > 0) {
			if (write(fds[1], b, r) != (ssize_t)r)
				_exit(1);
			keep -= r;
		}
		_exit(0);
	}
	close(fds[1]);
	snprintf(dev, sizeof(dev), "/dev/fd/%d", fds[0]);
	assert_int_equal(replayer_open(f->p, dev), 0);
	assert_null(f->p->map);
	while (n < max && (got[n] = replayer_next(f->p)) > 0)
		n++;
	n++;
	replayer_close(f->p);
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return n;
}

static void test_pipe_replay(void **state)
{
	struct fx *f = *state;
	struct recorder r;
	struct as_fork fk;
	long got[4];
	int n;

	memset(&fk, 0, sizeof(fk));
	tu_hdr(&fk.hdr, AS_EV_FORK, AS_SC_CLONE, 10);
	fk.child_pid = 11;
	fk.hdr.size = sizeof(fk);
	assert_int_equal(recorder_open(&r, f->path, 5), 0);
	recorder_write(&r, &fk, sizeof(fk));
	recorder_write(&r, &fk, sizeof(fk));
	assert_int_equal(recorder_close(&r), 0);

	/* the mapped path and the stdio path read the same records */
	assert_int_equal(replayer_open(f->p, f->path), 0);
	assert_non_null(f->p->map);
	replayer_close(f->p);
	n = replay_piped(f, 32 + 2 * sizeof(fk), got, 4);
	assert_int_equal(n, 3);
	assert_int_equal(got[0], (long)sizeof(fk));
	assert_int_equal(got[1], (long)sizeof(fk));
	assert_int_equal(got[2], 0);
	/* cut inside the second record: an error, after the first */
	n = replay_piped(f, 32 + sizeof(fk) + 100, got, 4);
	assert_int_equal(n, 2);
	assert_int_equal(got[0], (long)sizeof(fk));
	assert_int_equal(got[1], -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_roundtrip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pipe_replay, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty_recording, setup, teardown),
		cmocka_unit_test_setup_teardown(test_largest_record, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_magic, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_versions, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_truncated, setup, teardown),
		cmocka_unit_test_setup_teardown(test_oversized_and_undersized, setup, teardown),
		cmocka_unit_test(test_write_failure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
