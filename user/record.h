/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * --record / --replay file format (version 1), little-endian, host layout:
 *   header (32 bytes): magic "ASREC\0\0\0", u32 format version (1),
 *                      u32 ABI version (AS_ABI_VERSION of bpf/events.h),
 *                      u64 wall-clock ns when recording started,
 *                      u32 pid and u32 process group of the recording
 *                      agent-sentinel (0 in recordings made before them)
 *   records: each an events.h record exactly as decoded (hdr.size bytes, with
 *            hdr.ts already converted to wall-clock ns), padded with zeros
 *            to a multiple of 8 bytes.
 * The /proc snapshot taken at start is recorded first (AS_EV_PROC records),
 * so a replay rebuilds the same process table.
 */
#ifndef AS_RECORD_H
#define AS_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define RECORD_MAGIC "ASREC\0\0\0"
#define RECORD_FORMAT_VERSION 1
#define RECORD_ALIGN 8
#define RECORD_MAX (64 * 1024) /* no record the kernel sends is larger */
#define RECORD_IO_BUF (1 << 20) /* stdio buffer of a recording, each way */

struct record_file_hdr {
	char magic[8];
	uint32_t format_version;
	uint32_t abi_version;
	uint64_t start_ns;
	uint32_t self_pid; /* the monitor that recorded: what a signal to it names */
	uint32_t self_pgid;
};

struct recorder {
	FILE *f;
	const char *path;
	uint64_t records;
	int failed; /* a write failed: already reported once */
};

int recorder_open(struct recorder *r, const char *path, uint64_t start_ns);
int recorder_write(struct recorder *r, const void *rec, size_t len);
int recorder_close(struct recorder *r);

struct replayer {
	FILE *f;
	const char *path;
	uint64_t offset;
	uint64_t start_ns;
	uint32_t self_pid, self_pgid; /* of the recording run (record_file_hdr) */
	const uint8_t *map; /* the whole file, when it could be mapped */
	uint64_t map_len;
	const uint8_t *rec; /* the record replayer_next returned: in map, or buf */
	uint8_t buf[RECORD_MAX];
};

/* Open and check the header; errors are one line on stderr naming the file. */
int replayer_open(struct replayer *p, const char *path);
/* Next record at p->rec: returns its length, 0 at a clean end, or -errno
 * (with the reason and offset on stderr) for a truncated or oversized one. */
long replayer_next(struct replayer *p);
void replayer_close(struct replayer *p);

#endif /* AS_RECORD_H */
