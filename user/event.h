/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The decoded event: one validated ring-buffer (or replayed) record plus the
 * strings rebuilt from it. One instance is allocated at start and reused for
 * every event, so decoding allocates nothing.
 */
#ifndef AS_EVENT_H
#define AS_EVENT_H

#include <stdint.h>
#include <stddef.h>
#include "abi.h"

/* event_path.flags */
#define EV_PATH_TRUNC 1u /* the kernel walk or the user string was cut */
#define EV_PATH_DETACHED 2u /* outside the task's root (walk ended elsewhere) */
#define EV_PATH_LINKED 4u /* reached through a symlink: not the string as passed (user/pathres.c) */
#define EV_PATH_UNRESOLVED 8u /* a link on the way could not be followed to its end (user/pathres.c) */

struct event_path {
	char *s; /* NUL-terminated; "" when absent */
	uint32_t len;
	uint32_t flags; /* EV_PATH_* */
};

struct event {
	uint64_t num; /* evt.num: position in this stream, from 1 */
	uint64_t ts; /* wall-clock ns (hdr->ts after decoding) */
	const struct as_hdr *hdr; /* the record itself, valid while the event is processed */
	union {
		const struct as_exec *exec;
		const struct as_open *open;
		const struct as_connect *conn;
		const struct as_setid *setid;
		const struct as_capset *capset;
		const struct as_fork *fork;
		const struct as_exit *exit;
		const struct as_sys *sys; /* AS_EV_FILE, AS_EV_SYS, AS_EV_URING */
		const void *raw;
	} u;
	int64_t res; /* syscall result (fd, 0, -errno); 0 for fork/exit/proc */

	/* exec and proc: */
	struct event_path filename; /* as passed to execve */
	const char *args; /* argv, NUL-separated, args_len bytes (argv[0] first) */
	uint32_t args_len;
	int args_trunc;
	struct event_path exe; /* absolute path of the executable */
	struct event_path cwd;
	struct event_path cgroup; /* cgroup v2 path, "/" for the root */
	const char *cgroups; /* proc snapshot only: every hierarchy, "name=path ..."; else NULL */
	/* the record's AS_XF_* with AS_XF_LD_ENV also set for an LD_LIBRARY_PATH
	 * until user/ldpath.c finds that only root could have put a library in
	 * its directories */
	uint32_t exec_flags;
	const char *ldpath; /* LD_LIBRARY_PATH's value (AS_XF_LD_PATH), else NULL */

	/* open: the absolute, normalised path as the process sees it; the
	 * generic record: slot 0's (a plain string as it is) */
	struct event_path path;
	/* the generic record: slot 1's path, and each slot's string as passed
	 * (NULL when the slot is not a string) */
	struct event_path path2;
	const char *str[AS_SYS_SLOTS];
	uint32_t str_len[AS_SYS_SLOTS];
	/* the generic record: the file behind the caller's descriptor N that
	 * slot i's path names through "fd/N" (struct as_sys fdl_*), absolute;
	 * NULL when none, or when its walk was cut; fdl_pseudo[i]: the walk
	 * ended outside the root (a pipe, a socket, a memfd: no file of the
	 * tree; fdl[i] is then the kernel's name for it, "/" when it has none) */
	const char *fdl[AS_SYS_SLOTS];
	uint8_t fdl_pseudo[AS_SYS_SLOTS];
	/* an io_uring connect, bind or send's address, as a connect record has
	 * it (has_sockaddr), so that fd.* read it alike */
	int has_sockaddr;
	struct as_connect sockaddr;

	/* storage behind the strings above */
	char filename_buf[AS_FILENAME_MAX + 1];
	char exe_buf[AS_PATH_MAX + 1];
	char cwd_buf[AS_PATH_MAX + 1];
	char cgroup_buf[AS_CGROUP_MAX + 1];
	char path_buf[2 * AS_PATH_MAX + 2]; /* base + '/' + user path, before normalising */
	char path2_buf[2 * AS_PATH_MAX + 2];
	char fdl_buf[AS_SYS_SLOTS][AS_PATH_MAX + 1];
};

#endif /* AS_EVENT_H */
