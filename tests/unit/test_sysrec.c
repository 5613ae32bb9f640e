// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The generic record (struct as_sys: file changes, privilege and isolation
 * acts, io_uring requests): decoding its slots, rejecting bad ones, and the
 * syscall table's argument names and formats. */
#include "testutil.h"
#include <arpa/inet.h>
#include <fcntl.h>
#include <sys/socket.h>
#include "decode.h"
#include "sctable.h"

struct fx {
	struct event *ev;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	f->ev = tu_event_new();
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	free(f->ev);
	free(f);
	return 0;
}

/* slot pieces: s0, base0, s1, base1 */
static void *sysrec(struct as_sys *r, unsigned type, unsigned sc, struct piece s0, struct piece b0,
		    struct piece s1, struct piece b1, size_t *len)
{
	struct piece pcs[4] = { s0, b0, s1, b1 };

	tu_hdr(&r->hdr, type, sc, 42);
	r->len[0] = (uint16_t)s0.n;
	r->base_len[0] = (uint16_t)b0.n;
	r->len[1] = (uint16_t)s1.n;
	r->base_len[1] = (uint16_t)b1.n;
	return tu_rec(r, sizeof(*r), pcs, 4, len);
}

/* the same with slot 0's fd link path after its base (struct as_sys fdl_*) */
static void *sysrec_fdl(struct as_sys *r, unsigned sc, struct piece s0, struct piece b0,
			struct piece f0, int fd, size_t *len)
{
	struct piece pcs[3] = { s0, b0, f0 };

	tu_hdr(&r->hdr, AS_EV_FILE, sc, 42);
	r->len[0] = (uint16_t)s0.n;
	r->base_len[0] = (uint16_t)b0.n;
	r->fdl_len[0] = (uint16_t)f0.n;
	r->fdl_fd[0] = fd;
	return tu_rec(r, sizeof(*r), pcs, 3, len);
}

static void expect_bad(const void *rec, size_t len, struct event *ev, const char *want)
{
	char err[DECODE_ERR_MAX] = { 0 };

	assert_int_equal(decode_record(rec, len, ev, err), -EINVAL);
	assert_null(strchr(err, '\n'));
	if (!strstr(err, want))
		fail_msg("error \"%s\" does not mention \"%s\"", err, want);
}

#define SLOT1(f) ((f) << AS_SYF_SLOT_BITS)

static void test_rename_relative_and_absolute(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	struct as_sys r = { 0 };
	size_t len;
	void *rec;

	r.res = 0;
	r.pflags = AS_SYF_BASE_DIRFD | SLOT1(0);
	r.arg[0] = 3;
	r.arg[2] = (uint64_t)-100;
	rec = sysrec(&r, AS_EV_FILE, AS_SC_RENAMEAT, PC("sub/../f\0"), PC("work\0tmp\0"),
		     PC("/etc//cron.d/./x\0"), PC_NONE, &len);
	tu_decode_ok(rec, len, ev);
	assert_string_equal(ev->path.s, "/tmp/work/f");
	assert_string_equal(ev->path2.s, "/etc/cron.d/x");
	assert_string_equal(ev->str[0], "sub/../f");
	assert_string_equal(ev->str[1], "/etc//cron.d/./x");
	assert_int_equal(ev->str_len[1], 16);
	assert_int_equal(ev->has_sockaddr, 0);
	free(rec);
}

static void test_resolved_plain_and_cwd(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	struct as_sys r = { 0 };
	size_t len;
	void *rec;

	/* fsetxattr: the fd's file, and the attribute name as given */
	r.pflags = AS_SYF_RESOLVED | SLOT1(AS_SYF_PLAIN);
	rec = sysrec(&r, AS_EV_FILE, AS_SC_FSETXATTR, PC("passwd\0etc\0"), PC_NONE,
		     PC("security.capability\0"), PC_NONE, &len);
	tu_decode_ok(rec, len, ev);
	assert_string_equal(ev->path.s, "/etc/passwd");
	assert_null(ev->str[0]);
	assert_string_equal(ev->path2.s, "security.capability");
	free(rec);

	/* a relative path from the cwd "/" (empty component list) */
	memset(&r, 0, sizeof(r));
	r.pflags = AS_SYF_BASE_CWD;
	rec = sysrec(&r, AS_EV_SYS, AS_SC_CHDIR, PC("opt\0"), PC("\0"), PC_NONE, PC_NONE, &len);
	tu_decode_ok(rec, len, ev);
	assert_string_equal(ev->path.s, "/opt");
	free(rec);

	/* the kernel's walk of the root itself: no component at all */
	memset(&r, 0, sizeof(r));
	r.pflags = AS_SYF_BASE_CWD;
	rec = sysrec(&r, AS_EV_FILE, AS_SC_MKDIR, PC("etc/x\0"), PC_NONE, PC_NONE, PC_NONE, &len);
	tu_decode_ok(rec, len, ev);
	assert_string_equal(ev->path.s, "/etc/x");
	free(rec);
	memset(&r, 0, sizeof(r));
	r.pflags = AS_SYF_BASE_DIRFD;
	rec = sysrec(&r, AS_EV_FILE, AS_SC_UNLINKAT, PC("etc/x\0"), PC_NONE, PC_NONE, PC_NONE,
		     &len);
	tu_decode_ok(rec, len, ev);
	assert_string_equal(ev->path.s, "/etc/x");
	free(rec);

	/* past the task's root, no name: a pipe's or a socket's own file. The
	 * empty path of futimens on it has no path; a name from it stays
	 * relative, its walk flagged */
	memset(&r, 0, sizeof(r));
	r.pflags = AS_SYF_BASE_DIRFD | AS_PATH_DETACHED << AS_SYF_WALK_SHIFT;
	rec = sysrec(&r, AS_EV_FILE, AS_SC_UTIMENSAT, PC("\0"), PC_NONE, PC_NONE, PC_NONE, &len);
	tu_decode_ok(rec, len, ev);
	assert_int_equal(ev->path.len, 0);
	free(rec);
	rec = sysrec(&r, AS_EV_FILE, AS_SC_UTIMENSAT, PC("x\0"), PC_NONE, PC_NONE, PC_NONE, &len);
	tu_decode_ok(rec, len, ev);
	assert_string_equal(ev->path.s, "x");
	assert_true(ev->path.flags & EV_PATH_DETACHED);
	free(rec);

	/* the empty path of utimensat(dirfd, NULL, ...) is the dirfd itself */
	memset(&r, 0, sizeof(r));
	r.pflags = AS_SYF_BASE_DIRFD;
	rec = sysrec(&r, AS_EV_FILE, AS_SC_UTIMENSAT, PC("\0"), PC("hosts\0etc\0"), PC_NONE,
		     PC_NONE, &len);
	tu_decode_ok(rec, len, ev);
	assert_string_equal(ev->path.s, "/etc/hosts");
	free(rec);
}

static void test_uring_sockaddr(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	struct as_sys r = { 0 };
	unsigned char sa[AS_SYS_SOCKADDR_MAX] = { 0 };
	struct sockaddr_in *in = (struct sockaddr_in *)sa;
	size_t len;
	void *rec;

	in->sin_family = AF_INET;
	in->sin_port = htons(8443);
	inet_pton(AF_INET, "10.1.2.3", &in->sin_addr);
	r.arg[0] = 16; /* IORING_OP_CONNECT */
	r.pflags = SLOT1(AS_SYF_SOCKADDR);
	rec = sysrec(&r, AS_EV_URING, AS_SC_IO_URING_SUBMIT_REQ, PC_NONE, PC_NONE,
		     pc_mem((const char *)sa, sizeof(sa)), PC_NONE, &len);
	tu_decode_ok(rec, len, ev);
	assert_int_equal(ev->has_sockaddr, 1);
	assert_int_equal(ev->sockaddr.family, AF_INET);
	assert_int_equal(ev->sockaddr.dport, 8443);
	assert_memory_equal(ev->sockaddr.daddr, &in->sin_addr, 4);
	free(rec);

	/* an abstract unix address loses its leading NUL */
	memset(sa, 0, sizeof(sa));
	sa[0] = AF_UNIX;
	memcpy(sa + 3, "egress", 6);
	rec = sysrec(&r, AS_EV_URING, AS_SC_IO_URING_SUBMIT_REQ, PC_NONE, PC_NONE,
		     pc_mem((const char *)sa, 2 + 1 + 6), PC_NONE, &len);
	tu_decode_ok(rec, len, ev);
	assert_true(ev->sockaddr.cflags & AS_CF_ABSTRACT);
	assert_int_equal(ev->sockaddr.path_len, 6);
	assert_memory_equal(ev->sockaddr.path, "egress", 6);
	free(rec);
}

static void test_longest_paths_and_odd_bytes(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	struct as_sys r = { 0 };
	char *big = malloc(AS_PATH_MAX), odd[] = "/tmp/\x01\x1b[31m\xff\xfe-\xc3(\0";
	size_t len;
	void *rec;

	/* two 4096-byte paths (4095 bytes and the NUL), as the kernel caps them */
	big[0] = '/';
	memset(big + 1, 'a', AS_PATH_MAX - 2);
	big[AS_PATH_MAX - 1] = 0;
	r.pflags = AS_SYF_USER_TRUNC | SLOT1(AS_SYF_USER_TRUNC);
	rec = sysrec(&r, AS_EV_FILE, AS_SC_RENAME, pc_mem(big, AS_PATH_MAX), PC_NONE,
		     pc_mem(big, AS_PATH_MAX), PC_NONE, &len);
	tu_decode_ok(rec, len, ev);
	assert_int_equal(ev->path.len, AS_PATH_MAX - 1);
	assert_int_equal(ev->path2.len, AS_PATH_MAX - 1);
	assert_true(ev->path.flags & EV_PATH_TRUNC);
	free(rec);
	free(big);

	/* control bytes and invalid UTF-8 pass through as bytes */
	memset(&r, 0, sizeof(r));
	rec = sysrec(&r, AS_EV_FILE, AS_SC_UNLINK, pc_mem(odd, sizeof(odd) - 1), PC_NONE, PC_NONE,
		     PC_NONE, &len);
	tu_decode_ok(rec, len, ev);
	assert_int_equal(ev->path.len, strlen(odd));
	free(rec);
}

/* mmap/mprotect of a file with no link as code: slot 0 is its file, marked
 * as /proc marks it; a memfd's walk finds only its own name */
static void test_code_mapping(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	struct as_sys r = { 0 };
	char *big = malloc(AS_PATH_MAX);
	size_t len;
	void *rec;

	r.pflags = AS_SYF_RESOLVED | AS_PATH_DETACHED << AS_SYF_WALK_SHIFT | AS_SYF_NOLINK;
	r.arg[2] = 5;
	rec = sysrec(&r, AS_EV_SYS, AS_SC_MMAP, PC("memfd:payload\0"), PC_NONE, PC_NONE, PC_NONE,
		     &len);
	tu_decode_ok(rec, len, ev);
	assert_string_equal(ev->path.s, "/memfd:payload (deleted)");
	free(rec);

	memset(&r, 0, sizeof(r));
	r.pflags = AS_SYF_RESOLVED | AS_SYF_NOLINK;
	rec = sysrec(&r, AS_EV_SYS, AS_SC_MPROTECT, PC("#1234\0tmp\0"), PC_NONE, PC_NONE, PC_NONE,
		     &len);
	tu_decode_ok(rec, len, ev);
	assert_string_equal(ev->path.s, "/tmp/#1234 (deleted)");
	free(rec);

	/* the longest name the walk sends keeps its mark whole */
	memset(big, 'a', AS_PATH_MAX - 2);
	big[AS_PATH_MAX - 2] = 0;
	memset(&r, 0, sizeof(r));
	r.pflags = AS_SYF_RESOLVED | AS_SYF_NOLINK;
	rec = sysrec(&r, AS_EV_SYS, AS_SC_PKEY_MPROTECT, pc_mem(big, AS_PATH_MAX - 1), PC_NONE,
		     PC_NONE, PC_NONE, &len);
	tu_decode_ok(rec, len, ev);
	assert_int_equal(ev->path.len, AS_PATH_MAX - 1 + strlen(" (deleted)"));
	assert_string_equal(ev->path.s + AS_PATH_MAX - 1, " (deleted)");
	free(rec);
	free(big);

	/* the mark is slot 0's: a file with a name in slot 1 stays as it is */
	memset(&r, 0, sizeof(r));
	r.pflags = AS_SYF_NOLINK | SLOT1(AS_SYF_RESOLVED);
	rec = sysrec(&r, AS_EV_FILE, AS_SC_FSETXATTR, PC_NONE, PC_NONE, PC("passwd\0etc\0"),
		     PC_NONE, &len);
	tu_decode_ok(rec, len, ev);
	assert_string_equal(ev->path2.s, "/etc/passwd");
	free(rec);
}

/* A path through "fd/N": the file the kernel found behind descriptor N,
 * unless its walk was cut or ended outside the caller's root. */
static void test_fd_link_path(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	struct as_sys r = { 0 };
	size_t len;
	void *rec;

	rec = sysrec_fdl(&r, AS_SC_CHMOD, PC("/proc/self/fd/3\0"), PC_NONE, PC("shadow\0etc\0"), 3,
			 &len);
	tu_decode_ok(rec, len, ev);
	assert_string_equal(ev->path.s, "/proc/self/fd/3"); /* the string: pathres follows it */
	assert_non_null(ev->fdl[0]);
	assert_string_equal(ev->fdl[0], "/etc/shadow");
	assert_null(ev->fdl[1]);
	free(rec);

	/* relative from the cwd /proc/42/fd: the base comes first */
	r.pflags = AS_SYF_BASE_CWD;
	rec = sysrec_fdl(&r, AS_SC_CHMOD, PC("3\0"), PC("fd\0" "42\0proc\0"), PC("x\0tmp\0"), 3,
			 &len);
	tu_decode_ok(rec, len, ev);
	assert_string_equal(ev->path.s, "/proc/42/fd/3");
	assert_string_equal(ev->fdl[0], "/tmp/x");
	free(rec);

	/* a walk cut short: none */
	r.pflags = AS_PATH_TRUNC << AS_SYF_FDL_SHIFT;
	rec = sysrec_fdl(&r, AS_SC_CHMOD, PC("/dev/fd/3\0"), PC_NONE, PC("x\0"), 3, &len);
	tu_decode_ok(rec, len, ev);
	assert_null(ev->fdl[0]);
	free(rec);
	/* a pipe, a memfd: outside the root, its name kept as no file of the tree */
	r.pflags = AS_PATH_DETACHED << AS_SYF_FDL_SHIFT;
	rec = sysrec_fdl(&r, AS_SC_CHMOD, PC("/dev/fd/3\0"), PC_NONE, PC("memfd:x\0"), 3, &len);
	tu_decode_ok(rec, len, ev);
	assert_string_equal(ev->fdl[0], "/memfd:x");
	assert_int_equal(ev->fdl_pseudo[0], 1);
	free(rec);
	/* the next record has none again */
	r.pflags = 0;
	rec = sysrec_fdl(&r, AS_SC_CHMOD, PC("/proc/self/fd/3\0"), PC_NONE, PC("x\0"), 3, &len);
	tu_decode_ok(rec, len, ev);
	assert_non_null(ev->fdl[0]);
	assert_int_equal(ev->fdl_pseudo[0], 0);
	free(rec);
	r.fdl_len[0] = 0;
	rec = sysrec(&r, AS_EV_FILE, AS_SC_CHMOD, PC("/etc/x\0"), PC_NONE, PC_NONE, PC_NONE, &len);
	tu_decode_ok(rec, len, ev);
	assert_null(ev->fdl[0]);
	free(rec);
}

static void test_reject_bad_slots(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	struct as_sys r = { 0 };
	unsigned char sa[AS_SYS_SOCKADDR_MAX + 8] = { AF_INET };
	size_t len;
	unsigned char *rec;

	/* lengths that do not add up to the record, either way */
	rec = sysrec(&r, AS_EV_FILE, AS_SC_UNLINK, PC("/a\0"), PC_NONE, PC_NONE, PC_NONE, &len);
	((struct as_sys *)rec)->len[0] = 4;
	expect_bad(rec, len, ev, "do not match");
	((struct as_sys *)rec)->len[0] = 2;
	expect_bad(rec, len, ev, "do not match");
	/* truncated: shorter than the fixed part */
	((struct as_hdr *)rec)->size = sizeof(struct as_sys) - 1;
	expect_bad(rec, sizeof(struct as_sys) - 1, ev, "shorter than its fixed part");
	free(rec);

	/* a string without its NUL */
	rec = sysrec(&r, AS_EV_FILE, AS_SC_UNLINK, PC("/abc"), PC_NONE, PC_NONE, PC_NONE, &len);
	expect_bad(rec, len, ev, "not NUL-terminated");
	free(rec);

	/* aux without a NUL */
	memset(r.aux, 'x', sizeof(r.aux));
	rec = sysrec(&r, AS_EV_SYS, AS_SC_MOUNT, PC_NONE, PC_NONE, PC_NONE, PC_NONE, &len);
	expect_bad(rec, len, ev, "aux");
	free(rec);
	memset(r.aux, 0, sizeof(r.aux));

	/* a base directory with no path in front of it */
	rec = sysrec(&r, AS_EV_FILE, AS_SC_MKDIR, PC_NONE, PC("tmp\0"), PC_NONE, PC_NONE, &len);
	expect_bad(rec, len, ev, "base directory without a path");
	free(rec);

	/* an fd link path: with no path, on a plain string, of a negative
	 * descriptor, malformed, or longer than the record */
	rec = sysrec_fdl(&r, AS_SC_CHMOD, PC_NONE, PC_NONE, PC("x\0"), 3, &len);
	expect_bad(rec, len, ev, "fd link without a path");
	free(rec);
	r.pflags = AS_SYF_PLAIN;
	rec = sysrec_fdl(&r, AS_SC_CHMOD, PC("/dev/fd/3\0"), PC_NONE, PC("x\0"), 3, &len);
	expect_bad(rec, len, ev, "no path string");
	free(rec);
	r.pflags = 0;
	rec = sysrec_fdl(&r, AS_SC_CHMOD, PC("/dev/fd/3\0"), PC_NONE, PC("x\0"), -1, &len);
	expect_bad(rec, len, ev, "descriptor -1");
	free(rec);
	rec = sysrec_fdl(&r, AS_SC_CHMOD, PC("/dev/fd/3\0"), PC_NONE, PC("x"), 3, &len);
	expect_bad(rec, len, ev, "malformed fd link path");
	free(rec);
	rec = sysrec_fdl(&r, AS_SC_CHMOD, PC("/dev/fd/3\0"), PC_NONE, PC("x\0"), 3, &len);
	((struct as_sys *)rec)->fdl_len[0] = 3;
	expect_bad(rec, len, ev, "do not match");
	free(rec);
	memset(r.fdl_len, 0, sizeof(r.fdl_len));
	memset(r.fdl_fd, 0, sizeof(r.fdl_fd));

	/* a resolved slot that claims to be plain too, or to have a base */
	r.pflags = AS_SYF_RESOLVED | AS_SYF_PLAIN;
	rec = sysrec(&r, AS_EV_FILE, AS_SC_FCHMOD, PC("x\0"), PC_NONE, PC_NONE, PC_NONE, &len);
	expect_bad(rec, len, ev, "resolved path with other kinds");
	free(rec);
	r.pflags = AS_SYF_RESOLVED;
	rec = sysrec(&r, AS_EV_FILE, AS_SC_FCHMOD, PC("x\0"), PC("y\0"), PC_NONE, PC_NONE, &len);
	expect_bad(rec, len, ev, "resolved path with other kinds");
	free(rec);

	/* a plain string with a base; an oversized sockaddr */
	r.pflags = AS_SYF_PLAIN;
	rec = sysrec(&r, AS_EV_SYS, AS_SC_MEMFD_CREATE, PC("x\0"), PC("y\0"), PC_NONE, PC_NONE,
		     &len);
	expect_bad(rec, len, ev, "plain string with a base");
	free(rec);
	r.pflags = SLOT1(AS_SYF_SOCKADDR);
	rec = sysrec(&r, AS_EV_URING, AS_SC_IO_URING_SUBMIT_REQ, PC_NONE, PC_NONE,
		     pc_mem((const char *)sa, sizeof(sa)), PC_NONE, &len);
	expect_bad(rec, len, ev, "sockaddr");
	free(rec);

	/* a file change carrying a socket's syscall is refused at the header */
	memset(&r, 0, sizeof(r));
	rec = sysrec(&r, AS_EV_FILE, AS_SC_CONNECT, PC_NONE, PC_NONE, PC_NONE, PC_NONE, &len);
	expect_bad(rec, len, ev, "with syscall");
	free(rec);
}

static void test_table_names_and_formats(void **state)
{
	char buf[256];
	const struct sc_arg *a;

	(void)state;
	/* Falco's argument names (driver/event_table.c) */
	a = sctable_arg(AS_SC_RENAMEAT2, "newpath");
	assert_non_null(a);
	assert_int_equal(a->src, SRC_PATH);
	assert_int_equal(a->idx, 1);
	assert_non_null(sctable_arg(AS_SC_LINKAT, "olddir"));
	assert_non_null(sctable_arg(AS_SC_SYMLINKAT, "linkdirfd"));
	assert_non_null(sctable_arg(AS_SC_UNLINKAT, "name"));
	assert_null(sctable_arg(AS_SC_UNLINKAT, "path"));
	assert_true(sctable_arg_known("request"));
	assert_false(sctable_arg_known("no_such_argument"));
	/* every generic syscall has a number here and a spec the kernel reads */
	for (unsigned sc = AS_SC_NONE + 1; sc < AS_SC_MAX; sc++)
		if (sctable_generic(sc))
			assert_true(sctable_get(sc)->nr >= 0 &&
				    sctable_get(sc)->nr < AS_SYS_NR_MAX);
	/* formats, as Falco prints them */
	assert_string_equal(sctable_format(FMT_CLONE, 0x10020000, buf, sizeof(buf)),
			    "CLONE_NEWNS|CLONE_NEWUSER");
	assert_string_equal(sctable_format(FMT_CLONE, 0, buf, sizeof(buf)), "0");
	assert_string_equal(sctable_format(FMT_PTRACE, 16, buf, sizeof(buf)), "PTRACE_ATTACH");
	assert_string_equal(sctable_format(FMT_PTRACE, 99999, buf, sizeof(buf)), "99999");
	assert_string_equal(sctable_format(FMT_PRCTL, 15, buf, sizeof(buf)), "PR_SET_NAME");
	assert_string_equal(sctable_format(FMT_RENAME, 1, buf, sizeof(buf)), "RENAME_NOREPLACE");
	assert_string_equal(sctable_format(FMT_AT, 0x200, buf, sizeof(buf)), "AT_REMOVEDIR");
	assert_string_equal(sctable_format(FMT_MOUNT, 0xc0ed0000 | 4096 | 16384, buf, sizeof(buf)),
			    "BIND|REC");
	assert_string_equal(sctable_format(FMT_MSG, 0x20000000, buf, sizeof(buf)), "MSG_FASTOPEN");
	assert_string_equal(sctable_format(FMT_URING_OP, 18, buf, sizeof(buf)), "IORING_OP_OPENAT");
	assert_string_equal(sctable_format(FMT_URING_OP, 200, buf, sizeof(buf)), "200");
	assert_string_equal(sctable_format(FMT_KEYCTL, 11, buf, sizeof(buf)), "KEYCTL_READ");
	assert_string_equal(sctable_format(FMT_KEYCTL, 32, buf, sizeof(buf)), "KEYCTL_WATCH_KEY");
	assert_string_equal(sctable_format(FMT_KEYCTL, 33, buf, sizeof(buf)), "33");
	assert_string_equal(sctable_format(FMT_SYSLOG, 5, buf, sizeof(buf)), "SYSLOG_ACTION_CLEAR");
	assert_string_equal(sctable_format(FMT_SYSLOG, (uint64_t)-1, buf, sizeof(buf)),
			    "18446744073709551615");
	assert_string_equal(sctable_format(FMT_REBOOT, 0x4321FEDC, buf, sizeof(buf)),
			    "LINUX_REBOOT_CMD_POWER_OFF");
	assert_string_equal(sctable_format(FMT_REBOOT, 0, buf, sizeof(buf)),
			    "LINUX_REBOOT_CMD_CAD_OFF");
	assert_string_equal(sctable_format(FMT_REBOOT, 0x1234, buf, sizeof(buf)), "4660");
	assert_string_equal(sctable_format(FMT_BOOL, 1, buf, sizeof(buf)), "true");
	assert_string_equal(sctable_format(FMT_BOOL, 0, buf, sizeof(buf)), "false");
	{
		char tiny[4]; /* a name cut to the buffer, never past it */

		sctable_format(FMT_SYSLOG, 5, tiny, sizeof(tiny));
		assert_string_equal(tiny, "SYS");
	}
	assert_string_equal(sctable_format(FMT_URING_SETUP, 2, buf, sizeof(buf)),
			    "IORING_SETUP_SQPOLL");
	assert_string_equal(sctable_format(FMT_FAMILY, 17, buf, sizeof(buf)), "AF_PACKET");
	assert_string_equal(sctable_format(FMT_SOCKTYPE, 3 | 0x80000, buf, sizeof(buf)),
			    "SOCK_RAW");
	assert_string_equal(sctable_format(FMT_OCT, 0755, buf, sizeof(buf)), "0755");
	assert_string_equal(sctable_format(FMT_ID, 0xffffffffu, buf, sizeof(buf)), "-1");
	assert_string_equal(sctable_format(FMT_FD, (uint32_t)-100, buf, sizeof(buf)), "-100");
	/* open flags: the access mode, then the names in table order; a short
	 * buffer keeps what fits, as snprintf would */
	assert_string_equal(sctable_format(FMT_OPEN, 0, buf, sizeof(buf)), "O_RDONLY");
	assert_string_equal(sctable_format(FMT_OPEN, O_WRONLY | O_CREAT | O_TRUNC, buf, sizeof(buf)),
			    "O_WRONLY|O_CREAT|O_TRUNC");
	assert_string_equal(sctable_format(FMT_PROT, 5, buf, sizeof(buf)), "PROT_READ|PROT_EXEC");
	assert_string_equal(sctable_format(FMT_MMAP, 0x812, buf, sizeof(buf)),
			    "MAP_PRIVATE|MAP_FIXED|MAP_DENYWRITE");
	assert_string_equal(sctable_arg(AS_SC_MMAP, "prot")->name, "prot");
	assert_string_equal(sctable_arg(AS_SC_MPROTECT, "path")->name, "path");
	assert_string_equal(sctable_format(FMT_OPEN, O_RDWR | O_CLOEXEC | O_PATH, buf, sizeof(buf)),
			    "O_RDWR|O_CLOEXEC|O_PATH");
	assert_string_equal(sctable_format(FMT_OPEN, O_RDWR | O_TMPFILE, buf, sizeof(buf)),
			    "O_RDWR|O_DIRECTORY|O_TMPFILE");
	{
		char small[12];

		assert_string_equal(sctable_format(FMT_OPEN, O_WRONLY | O_CREAT, small,
						   sizeof(small)),
				    "O_WRONLY|O_");
		assert_string_equal(sctable_format(FMT_OPEN, O_RDWR, small, 5), "O_RD");
		assert_string_equal(sctable_format(FMT_OPEN, O_RDONLY | O_APPEND, small, 9),
				    "O_RDONLY");
	}
	/* an unnamed bit shows as a number next to the names */
	assert_string_equal(sctable_format(FMT_MEMFD, 1 | 0x100, buf, sizeof(buf)),
			    "MFD_CLOEXEC|0x100");
}

/* An argument is what the kernel takes from its register: an int option, a
 * umode_t mode, an unsigned int device, whatever the upper half holds; a
 * long keeps all of it. */
static void test_arg_widths(void **state)
{
	const uint64_t hi = 0xdead00000000ull;

	(void)state;
	assert_int_equal(sctable_arg_value(sctable_arg(AS_SC_PRCTL, "option"), hi | 15), 15);
	assert_int_equal(sctable_arg_value(sctable_arg(AS_SC_MKNOD, "mode"), hi | 0xffff0000u | 020600),
			 020600);
	assert_int_equal(sctable_arg_value(sctable_arg(AS_SC_MKNOD, "dev"), hi | 0x103), 0x103);
	assert_int_equal(sctable_arg_value(sctable_arg(AS_SC_SETNS, "nstype"), hi | 0x40000000),
			 0x40000000);
	/* a signed int: -1 stays -1 */
	assert_int_equal(sctable_arg_value(sctable_arg(AS_SC_BPF, "cmd"), hi | 0xffffffffu), -1);
	/* full registers: ptrace's request is a long, unshare's flags unsigned long */
	assert_int_equal(sctable_arg_value(sctable_arg(AS_SC_PTRACE, "request"), hi | 16),
			 (int64_t)(hi | 16));
	assert_int_equal(sctable_arg_value(sctable_arg(AS_SC_UNSHARE, "flags"), hi | 0x10000000),
			 (int64_t)(hi | 0x10000000));
	/* a string's length bound is one of the call's arguments */
	assert_int_equal(sctable_arg(AS_SC_SETHOSTNAME, "name")->width, 1 + 1);
	for (unsigned sc = AS_SC_NONE + 1; sc < AS_SC_MAX; sc++) {
		const struct sc_info *in = sctable_get(sc);

		for (unsigned i = 0; i < SCTABLE_ARGS_MAX && in->args[i].name; i++)
			if (in->args[i].src == SRC_STR)
				assert_true(in->args[i].width <= AS_SYS_ARGS);
	}
	/* every register argument of a mode format is a umode_t */
	for (unsigned sc = AS_SC_NONE + 1; sc < AS_SC_MAX; sc++) {
		const struct sc_info *in = sctable_get(sc);

		for (unsigned i = 0; i < SCTABLE_ARGS_MAX && in->args[i].name; i++)
			if (in->args[i].src == SRC_ARG && in->args[i].fmt == FMT_OCT &&
			    sc != AS_SC_IO_URING_SUBMIT_REQ)
				assert_int_equal(in->args[i].width, 2);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rename_relative_and_absolute, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resolved_plain_and_cwd, setup, teardown),
		cmocka_unit_test_setup_teardown(test_uring_sockaddr, setup, teardown),
		cmocka_unit_test_setup_teardown(test_longest_paths_and_odd_bytes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fd_link_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_code_mapping, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reject_bad_slots, setup, teardown),
		cmocka_unit_test(test_table_names_and_formats),
		cmocka_unit_test(test_arg_widths),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
