// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "diag.h"
#include "abi.h"
#include "record.h"

_Static_assert(sizeof(struct record_file_hdr) == 32, "record header layout");

int recorder_open(struct recorder *r, const char *path, uint64_t start_ns)
{
	struct record_file_hdr h = { .format_version = RECORD_FORMAT_VERSION,
				     .abi_version = AS_ABI_VERSION,
				     .start_ns = start_ns,
				     .self_pid = (uint32_t)getpid(),
				     .self_pgid = (uint32_t)getpgrp() };

	memset(r, 0, sizeof(*r));
	memcpy(h.magic, RECORD_MAGIC, sizeof(h.magic));
	r->path = path;
	r->f = fopen(path, "wbe");
	if (!r->f) {
		int err = errno;

		diag_err("cannot create record file %s: %s", path, strerror(err));
		return -err;
	}
	setvbuf(r->f, NULL, _IOFBF, RECORD_IO_BUF);
	if (fwrite(&h, sizeof(h), 1, r->f) != 1) {
		diag_err("cannot write record file %s: %s", path, strerror(errno));
		fclose(r->f);
		r->f = NULL;
		return -EIO;
	}
	return 0;
}

int recorder_write(struct recorder *r, const void *rec, size_t len)
{
	static const uint8_t zeros[RECORD_ALIGN];
	size_t pad = (RECORD_ALIGN - len % RECORD_ALIGN) % RECORD_ALIGN;

	if (!r->f || r->failed)
		return -EIO;
	if (fwrite(rec, 1, len, r->f) != len || fwrite(zeros, 1, pad, r->f) != pad) {
		r->failed = 1;
		diag_err("cannot write record file %s: %s (recording stopped)", r->path,
			 strerror(errno));
		return -EIO;
	}
	r->records++;
	return 0;
}

int recorder_close(struct recorder *r)
{
	int err = 0;

	if (!r->f)
		return 0;
	if (fclose(r->f) != 0 && !r->failed) {
		diag_err("cannot write record file %s: %s", r->path, strerror(errno));
		err = -EIO;
	}
	r->f = NULL;
	return r->failed ? -EIO : err;
}

/* Up to this size a recording is mapped with all its pages at once: one
 * call instead of a page fault per 64 KiB took ~10 % off a replay of 196 MB.
 * Larger files are faulted in as they are read, not held in memory whole. */
#define REPLAYER_POPULATE_MAX (1ull << 30)

/* A regular file is read in place from a read-only mapping: no copy of
 * every byte through read(), which was a sixth of a replay's time. */
static void replayer_map(struct replayer *p)
{
	struct stat st;
	void *m;
	int flags = MAP_PRIVATE;

	if (fstat(fileno(p->f), &st) || !S_ISREG(st.st_mode) || st.st_size <= (off_t)p->offset)
		return;
	if ((unsigned long long)st.st_size <= REPLAYER_POPULATE_MAX)
		flags |= MAP_POPULATE;
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, flags, fileno(p->f), 0);
	if (m == MAP_FAILED)
		return; /* stdio reads it */
	madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
	p->map = m;
	p->map_len = (uint64_t)st.st_size;
}

/* The next record of a mapped file, or why there is none. */
__attribute__((noinline)) static long replayer_next_mapped(struct replayer *p)
{
	uint64_t left = p->map_len - p->offset;
	uint32_t size;
	size_t pad;

	if (left == 0)
		return 0;
	if (left < sizeof(size)) {
		diag_err("%s: truncated record at offset %llu", p->path,
			 (unsigned long long)p->offset);
		return -EINVAL;
	}
	memcpy(&size, p->map + p->offset, sizeof(size));
	if (size < sizeof(struct as_hdr) || size > RECORD_MAX) {
		diag_err("%s: record of %u bytes at offset %llu (must be %zu..%d)", p->path, size,
			 (unsigned long long)p->offset, sizeof(struct as_hdr), RECORD_MAX);
		return -EINVAL;
	}
	if (left < size) {
		diag_err("%s: truncated record at offset %llu (%llu of %u bytes)", p->path,
			 (unsigned long long)p->offset, (unsigned long long)left, size);
		return -EINVAL;
	}
	pad = (RECORD_ALIGN - size % RECORD_ALIGN) % RECORD_ALIGN;
	p->rec = p->map + p->offset;
	p->offset += size + (left - size < pad ? left - size : pad);
	return size;
}

int replayer_open(struct replayer *p, const char *path)
{
	struct record_file_hdr h;

	p->path = path;
	p->offset = 0;
	p->map = NULL;
	p->map_len = 0;
	p->rec = p->buf;
	p->f = fopen(path, "rbe");
	if (!p->f) {
		int err = errno;

		diag_err("%s: cannot open: %s", path, strerror(err));
		return -err;
	}
	/* records are ~0.5 KiB: stdio's 4 KiB default is a read() per 8 */
	setvbuf(p->f, NULL, _IOFBF, RECORD_IO_BUF);
	if (fread(&h, sizeof(h), 1, p->f) != 1 || memcmp(h.magic, RECORD_MAGIC, sizeof(h.magic))) {
		diag_err("%s: not an agent-sentinel recording (bad magic)", path);
		goto bad;
	}
	if (h.format_version != RECORD_FORMAT_VERSION) {
		diag_err("%s: recording format version %u, this build reads %u", path,
			 h.format_version, RECORD_FORMAT_VERSION);
		goto bad;
	}
	if (h.abi_version != AS_ABI_VERSION) {
		diag_err("%s: recorded with event ABI %u, which this build (event ABI %u) cannot "
			 "read: record it again with this build", path, h.abi_version, AS_ABI_VERSION);
		goto bad;
	}
	p->start_ns = h.start_ns;
	p->self_pid = h.self_pid;
	p->self_pgid = h.self_pgid;
	p->offset = sizeof(h);
	replayer_map(p);
	return 0;
bad:
	fclose(p->f);
	p->f = NULL;
	return -EINVAL;
}

/* A record through stdio: a file that could not be mapped. */
__attribute__((noinline)) static long replayer_next_read(struct replayer *p)
{
	uint32_t size;
	size_t pad, got;

	got = fread(&size, 1, sizeof(size), p->f);
	if (got == 0 && feof(p->f))
		return 0;
	if (got != sizeof(size)) {
		diag_err("%s: truncated record at offset %llu", p->path,
			 (unsigned long long)p->offset);
		return -EINVAL;
	}
	if (size < sizeof(struct as_hdr) || size > RECORD_MAX) {
		diag_err("%s: record of %u bytes at offset %llu (must be %zu..%d)", p->path, size,
			 (unsigned long long)p->offset, sizeof(struct as_hdr), RECORD_MAX);
		return -EINVAL;
	}
	memcpy(p->buf, &size, sizeof(size));
	pad = (RECORD_ALIGN - size % RECORD_ALIGN) % RECORD_ALIGN;
	got = fread(p->buf + sizeof(size), 1, size - sizeof(size) + pad, p->f);
	if (got < size - sizeof(size)) {
		diag_err("%s: truncated record at offset %llu (%zu of %u bytes)", p->path,
			 (unsigned long long)p->offset, got + sizeof(size), size);
		return -EINVAL;
	}
	p->offset += size + pad;
	return size;
}

long replayer_next(struct replayer *p)
{
	uint64_t left;
	uint32_t size;

	if (!p->map)
		return replayer_next_read(p);
	/* the usual record, whole and of a size that can be, is taken here in
	 * place with no stack frame; the end, or anything wrong, goes to
	 * replayer_next_mapped, which says why */
	left = p->map_len - p->offset;
	if (left >= sizeof(size)) {
		memcpy(&size, p->map + p->offset, sizeof(size));
		if (size >= sizeof(struct as_hdr) && size <= RECORD_MAX && size <= left) {
			size_t pad = (RECORD_ALIGN - size % RECORD_ALIGN) % RECORD_ALIGN;

			p->rec = p->map + p->offset;
			p->offset += size + (left - size < pad ? left - size : pad);
			return size;
		}
	}
	return replayer_next_mapped(p);
}

void replayer_close(struct replayer *p)
{
	if (p->map)
		munmap((void *)p->map, p->map_len);
	p->map = NULL;
	if (p->f)
		fclose(p->f);
	p->f = NULL;
}
