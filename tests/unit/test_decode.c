// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* decode: records built exactly as the kernel writes them, valid and malformed. */
#include <sys/socket.h>
#include "testutil.h"
#include "names.h"

struct fx {
	struct event *ev;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->ev = calloc(1, sizeof(*f->ev));
	*state = f;
	return f->ev ? 0 : -1;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	free(f->ev);
	free(f);
	return 0;
}

/* decode_record must reject rec with -EINVAL and an err holding want. */
static void expect_einval(const void *rec, size_t len, struct event *ev, const char *want)
{
	char err[DECODE_ERR_MAX];
	int rc;

	memset(err, 0, sizeof(err));
	rc = decode_record(rec, len, ev, err);
	if (rc != -EINVAL)
		fail_msg("decode_record returned %d, want -EINVAL (%s)", rc, want);
	assert_true(err[0] != 0);
	assert_null(strchr(err, '\n'));
	if (!strstr(err, want))
		fail_msg("error \"%s\" does not mention \"%s\"", err, want);
}

static void base_exec(struct as_exec *x, unsigned type, unsigned sc)
{
	memset(x, 0, sizeof(*x));
	tu_hdr(&x->hdr, type, sc, 321);
}

/* ---- valid records ---------------------------------------------------- */

static void test_exec_valid(void **state)
{
	struct fx *f = *state;
	struct event *ev = f->ev;
	static const char args[] = "ls\0-la\0/tmp\0";
	struct as_exec x;
	size_t len;
	void *rec;

	base_exec(&x, AS_EV_EXEC, AS_SC_EXECVE);
	x.hdr.ppid = 42;
	x.hdr.n_anc = 2;
	x.hdr.anc[0].pid = 42;
	strcpy(x.hdr.anc[0].comm, "bash");
	x.hdr.anc[1].pid = 1;
	strcpy(x.hdr.anc[1].comm, "systemd");
	rec = tu_exec(&x, PC("/usr/bin/ls\0"), pc_mem(args, sizeof(args) - 1),
		      PC("ls\0bin\0usr\0"), PC("u\0home\0"), PC("app.scope\0user.slice\0"), &len);
	assert_int_equal(len, sizeof(struct as_exec) + 12 + 12 + 11 + 7 + 21);
	tu_decode_ok(rec, len, ev);
	assert_ptr_equal(ev->hdr, rec);
	assert_ptr_equal(ev->u.raw, rec);
	assert_int_equal(ev->ts, TU_TS);
	assert_int_equal(ev->res, 0);
	assert_string_equal(ev->filename.s, "/usr/bin/ls");
	assert_int_equal(ev->filename.len, 11);
	assert_int_equal(ev->filename.flags, 0);
	assert_int_equal(ev->args_len, 12);
	assert_memory_equal(ev->args, args, 12);
	assert_int_equal(ev->args_trunc, 0);
	assert_string_equal(ev->exe.s, "/usr/bin/ls");
	assert_int_equal(ev->exe.len, 11);
	assert_int_equal(ev->exe.flags, 0);
	assert_string_equal(ev->cwd.s, "/home/u");
	assert_int_equal(ev->cwd.len, 7);
	assert_string_equal(ev->cgroup.s, "/user.slice/app.scope");
	assert_int_equal(ev->cgroup.len, 21);
	assert_string_equal(ev->path.s, "");
	free(rec);
}

static void test_exec_flags_and_root_paths(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	struct as_exec x;
	size_t len;
	void *rec;

	base_exec(&x, AS_EV_EXEC, AS_SC_EXECVEAT);
	x.pflags = AS_XF_ARGS_TRUNC | AS_XF_FILENAME_TRUNC | (AS_PATH_TRUNC << AS_XF_EXE_SHIFT) |
		   (AS_PATH_DETACHED << AS_XF_CWD_SHIFT) |
		   ((AS_PATH_TRUNC | AS_PATH_DETACHED) << AS_XF_CGROUP_SHIFT);
	/* cwd and cgroup as empty lists: both "/" */
	rec = tu_exec(&x, PC("prog\0"), PC("prog\0"), PC("prog\0"), PC_NONE, PC_NONE, &len);
	tu_decode_ok(rec, len, ev);
	assert_string_equal(ev->filename.s, "prog");
	assert_int_equal(ev->filename.flags, EV_PATH_TRUNC);
	assert_int_equal(ev->args_trunc, 1);
	assert_string_equal(ev->exe.s, "/prog");
	assert_int_equal(ev->exe.flags, EV_PATH_TRUNC);
	assert_string_equal(ev->cwd.s, "/");
	assert_int_equal(ev->cwd.len, 1);
	assert_int_equal(ev->cwd.flags, EV_PATH_DETACHED);
	assert_string_equal(ev->cgroup.s, "/");
	assert_int_equal(ev->cgroup.flags, EV_PATH_TRUNC | EV_PATH_DETACHED);
	free(rec);
}

static void test_exec_no_exe_and_failed(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	struct as_exec x;
	size_t len;
	void *rec;

	/* a kernel thread has no exe: an empty exe list is "" (not "/") */
	base_exec(&x, AS_EV_EXEC, AS_SC_EXECVE);
	rec = tu_exec(&x, PC("/x\0"), PC_NONE, PC_NONE, PC("tmp\0"), PC_NONE, &len);
	tu_decode_ok(rec, len, ev);
	assert_string_equal(ev->exe.s, "");
	assert_int_equal(ev->exe.len, 0);
	assert_int_equal(ev->args_len, 0);
	assert_string_equal(ev->cwd.s, "/tmp");
	free(rec);

	/* a failed execve carries its -errno and the attempted command */
	base_exec(&x, AS_EV_EXEC, AS_SC_EXECVE);
	x.res = -ENOENT;
	rec = tu_exec(&x, PC("./nope\0"), PC("./nope\0a\0"), PC("bash\0bin\0"), PC("tmp\0"),
		      PC_NONE, &len);
	tu_decode_ok(rec, len, ev);
	assert_int_equal(ev->res, -ENOENT);
	assert_string_equal(ev->filename.s, "./nope");
	assert_string_equal(ev->exe.s, "/bin/bash");
	free(rec);
}

/* LD_LIBRARY_PATH's value ends exec and proc records, flagged; the flag and
 * the value agree and the value is one NUL-terminated string, or the record
 * is refused. Until judged (user/ldpath.c) it counts as a loader variable. */
static void test_exec_ldpath(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	struct as_exec x;
	size_t len;
	void *rec;

	base_exec(&x, AS_EV_EXEC, AS_SC_EXECVE);
	x.pflags = AS_XF_LD_PATH;
	rec = tu_exec_ldpath(&x, PC("/x\0"), PC("x\0"), PC("x\0"), PC_NONE, PC_NONE,
			     PC("/usr/local/cuda/lib64:/opt/lib\0"), &len);
	tu_decode_ok(rec, len, ev);
	assert_string_equal(ev->ldpath, "/usr/local/cuda/lib64:/opt/lib");
	assert_int_equal(ev->exec_flags, AS_XF_LD_PATH | AS_XF_LD_ENV);
	assert_int_equal(x.pflags, AS_XF_LD_PATH); /* the record itself is left alone */
	free(rec);
	/* a recording's record judged live: root's directories only */
	x.pflags = AS_XF_LD_PATH | AS_XF_LD_PATH_ROOT;
	rec = tu_exec_ldpath(&x, PC("/x\0"), PC("x\0"), PC("x\0"), PC_NONE, PC_NONE,
			     PC("/usr/local/cuda/lib64\0"), &len);
	tu_decode_ok(rec, len, ev);
	assert_int_equal(ev->exec_flags, AS_XF_LD_PATH | AS_XF_LD_PATH_ROOT);
	free(rec);
	/* a snapshot's plain strings, then the value */
	base_exec(&x, AS_EV_PROC, AS_SC_NONE);
	x.pflags = AS_XF_PLAIN | AS_XF_LD_PATH;
	rec = tu_exec_ldpath(&x, PC("\0"), PC("x\0"), PC("/x\0"), PC("/\0"), PC("unified=/\0"),
			     PC("/lib\0"), &len);
	tu_decode_ok(rec, len, ev);
	assert_string_equal(ev->ldpath, "/lib");
	assert_string_equal(ev->cgroup.s, "/");
	free(rec);
	/* none: no value, the record's flags as they are */
	base_exec(&x, AS_EV_EXEC, AS_SC_EXECVE);
	x.pflags = AS_XF_EXE_WRITABLE;
	rec = tu_exec(&x, PC("/x\0"), PC("x\0"), PC("x\0"), PC_NONE, PC_NONE, &len);
	tu_decode_ok(rec, len, ev);
	assert_null(ev->ldpath);
	assert_int_equal(ev->exec_flags, AS_XF_EXE_WRITABLE);
	free(rec);

	static const struct {
		uint32_t pflags;
		struct piece value;
	} bad[] = {
		{ AS_XF_LD_PATH, PC_NONE }, /* flagged, no value */
		{ 0, PC("/lib\0") }, /* a value, not flagged */
		{ AS_XF_LD_PATH, PC("/lib") }, /* no NUL */
		{ AS_XF_LD_PATH, PC("/lib\0/tmp\0") }, /* two strings */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		base_exec(&x, AS_EV_EXEC, AS_SC_EXECVE);
		x.pflags = bad[i].pflags;
		rec = tu_exec_ldpath(&x, PC("/x\0"), PC("x\0"), PC("x\0"), PC_NONE, PC_NONE,
				     bad[i].value, &len);
		expect_einval(rec, len, ev, "LD_LIBRARY_PATH");
		free(rec);
	}
	/* a length past the record */
	base_exec(&x, AS_EV_EXEC, AS_SC_EXECVE);
	x.pflags = AS_XF_LD_PATH;
	rec = tu_exec_ldpath(&x, PC("/x\0"), PC("x\0"), PC("x\0"), PC_NONE, PC_NONE,
			     PC("/lib\0"), &len);
	((struct as_exec *)rec)->ldpath_len = 0xffff;
	expect_einval(rec, len, ev, "do not match record size");
	free(rec);
}

static void test_proc_plain_valid(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	struct as_exec x;
	size_t len;
	void *rec;

	base_exec(&x, AS_EV_PROC, AS_SC_NONE);
	x.pflags = AS_XF_PLAIN;
	rec = tu_exec(&x, PC("\0"), PC("bash\0-l\0"), PC("/usr/bin/bash\0"), PC("/root\0"),
		      PC("cpu=/ memory=/x unified=/y\0"), &len);
	tu_decode_ok(rec, len, ev);
	assert_string_equal(ev->filename.s, "");
	assert_int_equal(ev->args_len, 8);
	assert_string_equal(ev->exe.s, "/usr/bin/bash");
	assert_int_equal(ev->exe.len, 13);
	assert_string_equal(ev->cwd.s, "/root");
	/* every hierarchy in ev->cgroups, the v2 path (unified=) in ev->cgroup */
	assert_string_equal(ev->cgroups, "cpu=/ memory=/x unified=/y");
	assert_string_equal(ev->cgroup.s, "/y");
	assert_int_equal(ev->cgroup.len, 2);
	free(rec);

	/* unreadable links: empty strings (len 1) or absent (len 0) */
	base_exec(&x, AS_EV_PROC, AS_SC_NONE);
	x.pflags = AS_XF_PLAIN;
	rec = tu_exec(&x, PC("\0"), PC_NONE, PC("\0"), PC_NONE, PC("\0"), &len);
	tu_decode_ok(rec, len, ev);
	assert_string_equal(ev->exe.s, "");
	assert_string_equal(ev->cwd.s, "");
	assert_string_equal(ev->cgroups, "");
	assert_string_equal(ev->cgroup.s, "/"); /* no unified= entry: the root */
	free(rec);

	/* plain strings must end in their first NUL */
	base_exec(&x, AS_EV_PROC, AS_SC_NONE);
	x.pflags = AS_XF_PLAIN;
	rec = tu_exec(&x, PC("\0"), PC_NONE, PC("/bin/sh"), PC("/\0"), PC("\0"), &len);
	expect_einval(rec, len, ev, "not NUL-terminated");
	free(rec);
	rec = tu_exec(&x, PC("\0"), PC_NONE, PC("/bin\0sh\0"), PC("/\0"), PC("\0"), &len);
	expect_einval(rec, len, ev, "not NUL-terminated");
	free(rec);
	rec = tu_exec(&x, PC("\0"), PC_NONE, PC("/bin/sh\0"), PC("/\0"), PC("unified=/"), &len);
	expect_einval(rec, len, ev, "not NUL-terminated");
	free(rec);
}

static void base_open(struct as_open *o, unsigned sc)
{
	memset(o, 0, sizeof(*o));
	tu_hdr(&o->hdr, AS_EV_OPEN, sc, 555);
	o->res = 3;
	o->dirfd = -100;
	o->dev = 0x801;
	o->ino = 1234;
}

static void test_open_resolved(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	struct as_open o;
	size_t len;
	void *rec;

	base_open(&o, AS_SC_OPENAT);
	o.pflags = AS_OF_RESOLVED | (AS_PATH_TRUNC << AS_OF_PATH_SHIFT);
	rec = tu_open(&o, PC("passwd\0etc\0"), PC_NONE, &len);
	tu_decode_ok(rec, len, ev);
	assert_int_equal(ev->res, 3);
	assert_string_equal(ev->path.s, "/etc/passwd");
	assert_int_equal(ev->path.len, 11);
	assert_int_equal(ev->path.flags, EV_PATH_TRUNC);
	assert_string_equal(ev->exe.s, "");
	assert_string_equal(ev->cwd.s, "");
	free(rec);

	/* the root directory itself */
	base_open(&o, AS_SC_OPEN);
	o.pflags = AS_OF_RESOLVED;
	rec = tu_open(&o, PC_NONE, PC_NONE, &len);
	tu_decode_ok(rec, len, ev);
	assert_string_equal(ev->path.s, "/");
	assert_int_equal(ev->path.flags, 0);
	free(rec);
}

/* An open of a pipe: an anonymous one (no path: the walk ends detached
 * with no name) is named as the kernel names it; a named FIFO keeps its
 * path; a detached walk of anything else keeps what it has. */
static void test_open_pipe(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	struct as_open o;
	size_t len;
	void *rec;

	base_open(&o, AS_SC_OPENAT);
	o.pflags = AS_OF_RESOLVED | AS_OF_FIFO | (AS_PATH_DETACHED << AS_OF_PATH_SHIFT);
	o.ino = 4026532;
	rec = tu_open(&o, PC_NONE, PC_NONE, &len);
	tu_decode_ok(rec, len, ev);
	assert_string_equal(ev->path.s, "pipe:[4026532]");
	assert_int_equal(ev->path.len, 14);
	assert_int_equal(ev->path.flags, EV_PATH_DETACHED);
	free(rec);

	base_open(&o, AS_SC_OPENAT);
	o.pflags = AS_OF_RESOLVED | AS_OF_FIFO;
	rec = tu_open(&o, PC("fifo\0run\0"), PC_NONE, &len);
	tu_decode_ok(rec, len, ev);
	assert_string_equal(ev->path.s, "/run/fifo");
	free(rec);

	base_open(&o, AS_SC_OPENAT);
	o.pflags = AS_OF_RESOLVED | (AS_PATH_DETACHED << AS_OF_PATH_SHIFT);
	rec = tu_open(&o, PC_NONE, PC_NONE, &len);
	tu_decode_ok(rec, len, ev);
	assert_string_equal(ev->path.s, "/");
	free(rec);
}

/* A resolved open that carries the string as passed (a rule reads
 * fd.nameraw): the path, then the string up to the record's end. */
static void test_open_resolved_with_string_as_passed(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	struct piece pcs[2] = { PC("passwd\0etc\0"), PC("../../etc/passwd\0") };
	struct as_open o, *r;
	size_t len;

	base_open(&o, AS_SC_OPENAT);
	o.pflags = AS_OF_RESOLVED | AS_OF_RAW;
	o.path_len = (uint16_t)pcs[0].n;
	r = tu_rec(&o, sizeof(o), pcs, 2, &len);
	tu_decode_ok(r, len, ev);
	assert_string_equal(ev->path.s, "/etc/passwd");
	assert_string_equal(ev->str[0], "../../etc/passwd");
	assert_int_equal(ev->str_len[0], 16);
	/* without the flag the same bytes are a record of the wrong size */
	r->pflags = AS_OF_RESOLVED;
	expect_einval(r, len, ev, "path lengths do not match");
	/* the string must end at the record's end */
	r->pflags = AS_OF_RESOLVED | AS_OF_RAW;
	((char *)r)[len - 1] = 'x';
	expect_einval(r, len, ev, "string as passed not NUL-terminated");
	/* only after a resolved path */
	r->pflags = AS_OF_RAW;
	expect_einval(r, len, ev, "string as passed without a resolved path");
	free(r);

	/* a failed open's string is the one as passed, before it is joined */
	base_open(&o, AS_SC_OPENAT);
	o.res = -ENOENT;
	r = tu_open(&o, PC("/etc/../etc/nope\0"), PC_NONE, &len);
	tu_decode_ok(r, len, ev);
	assert_string_equal(ev->path.s, "/etc/nope");
	assert_string_equal(ev->str[0], "/etc/../etc/nope");
	free(r);
	/* a resolved open without the flag has none */
	base_open(&o, AS_SC_OPENAT);
	o.pflags = AS_OF_RESOLVED;
	r = tu_open(&o, PC("passwd\0etc\0"), PC_NONE, &len);
	tu_decode_ok(r, len, ev);
	assert_null(ev->str[0]);
	free(r);
}

static void test_open_unresolved_absolute(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	struct as_open o;
	size_t len;
	void *rec;

	base_open(&o, AS_SC_OPEN);
	o.res = -ENOENT;
	o.pflags = AS_OF_USER_TRUNC;
	rec = tu_open(&o, PC("/etc//./ssh/../passwd\0"), PC_NONE, &len);
	tu_decode_ok(rec, len, ev);
	assert_int_equal(ev->res, -ENOENT);
	assert_string_equal(ev->path.s, "/etc/passwd");
	assert_int_equal(ev->path.len, 11);
	assert_int_equal(ev->path.flags, EV_PATH_TRUNC);
	free(rec);
}

static void test_open_relative_cwd_base(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	struct as_open o;
	size_t len;
	void *rec;

	base_open(&o, AS_SC_OPENAT);
	o.res = -EACCES;
	o.pflags = AS_OF_BASE_CWD | (AS_PATH_DETACHED << AS_OF_BASE_SHIFT);
	rec = tu_open(&o, PC("../etc/./hosts\0"), PC("u\0home\0"), &len);
	tu_decode_ok(rec, len, ev);
	assert_string_equal(ev->path.s, "/home/etc/hosts");
	assert_int_equal(ev->path.len, 15);
	assert_int_equal(ev->path.flags, EV_PATH_DETACHED);
	/* the cwd buffer was only scratch for the base */
	assert_string_equal(ev->cwd.s, "");
	free(rec);

	/* climbing above the root stops at "/" */
	base_open(&o, AS_SC_CREAT);
	o.pflags = AS_OF_BASE_CWD;
	rec = tu_open(&o, PC("../../../../x\0"), PC("b\0a\0"), &len);
	tu_decode_ok(rec, len, ev);
	assert_string_equal(ev->path.s, "/x");
	free(rec);

	/* cwd is "/" (empty list): still absolute */
	base_open(&o, AS_SC_OPEN);
	o.pflags = AS_OF_BASE_CWD;
	rec = tu_open(&o, PC("f\0"), PC("\0"), &len);
	tu_decode_ok(rec, len, ev);
	assert_string_equal(ev->path.s, "/f");
	free(rec);
}

static void test_open_relative_dirfd_base(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	struct as_open o;
	size_t len;
	void *rec;

	base_open(&o, AS_SC_OPENAT2);
	o.dirfd = 7;
	o.pflags = AS_OF_BASE_DIRFD | AS_OF_USER_TRUNC;
	rec = tu_open(&o, PC("sub//f.txt/\0"), PC("d\0var\0"), &len);
	tu_decode_ok(rec, len, ev);
	assert_string_equal(ev->path.s, "/var/d/sub/f.txt");
	assert_int_equal(ev->path.flags, EV_PATH_TRUNC);
	free(rec);
}

static void test_fixed_types_valid(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	size_t len;
	void *rec;
	struct as_connect c;
	struct as_setid s;
	struct as_capset cp;
	struct as_fork fk;
	struct as_exit ex;

	memset(&c, 0, sizeof(c));
	tu_hdr(&c.hdr, AS_EV_CONNECT, AS_SC_CONNECT, 10);
	c.res = -ECONNREFUSED;
	c.family = AF_UNIX;
	c.path_len = AS_UNIX_PATH_MAX; /* a full sun_path is still valid */
	memset(c.path, 'p', sizeof(c.path));
	rec = tu_fixed(&c, sizeof(c), &len);
	tu_decode_ok(rec, len, ev);
	assert_int_equal(ev->res, -ECONNREFUSED);
	assert_ptr_equal(ev->u.conn, rec);
	free(rec);

	memset(&s, 0, sizeof(s));
	tu_hdr(&s.hdr, AS_EV_SETID, AS_SC_SETRESUID, 11);
	s.res = -EPERM;
	s.id[0] = 0;
	s.id[1] = AS_ID_UNSET;
	s.id[2] = 0;
	rec = tu_fixed(&s, sizeof(s), &len);
	tu_decode_ok(rec, len, ev);
	assert_int_equal(ev->res, -EPERM);
	free(rec);

	memset(&cp, 0, sizeof(cp));
	tu_hdr(&cp.hdr, AS_EV_CAPSET, AS_SC_CAPSET, 12);
	cp.res = 0;
	cp.effective = 0x1ff;
	rec = tu_fixed(&cp, sizeof(cp), &len);
	tu_decode_ok(rec, len, ev);
	assert_int_equal(ev->res, 0);
	free(rec);

	memset(&fk, 0, sizeof(fk));
	tu_hdr(&fk.hdr, AS_EV_FORK, AS_SC_CLONE, 13);
	fk.child_pid = 14;
	rec = tu_fixed(&fk, sizeof(fk), &len);
	tu_decode_ok(rec, len, ev);
	assert_int_equal(ev->res, 0);
	assert_int_equal(ev->u.fork->child_pid, 14);
	free(rec);

	memset(&ex, 0, sizeof(ex));
	tu_hdr(&ex.hdr, AS_EV_EXIT, AS_SC_PROCEXIT, 13);
	ex.exit_code = 256;
	rec = tu_fixed(&ex, sizeof(ex), &len);
	tu_decode_ok(rec, len, ev);
	assert_int_equal(ev->res, 0);
	assert_int_equal(ev->u.exit->exit_code, 256);
	free(rec);
}

/* Every syscall of every type decodes, with Falco's evt.type name. */
static void test_every_type_syscall_pair(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	static const struct {
		unsigned type, sc;
		const char *name;
	} pairs[] = {
		{ AS_EV_SETID, AS_SC_SETUID, "setuid" },
		{ AS_EV_SETID, AS_SC_SETGID, "setgid" },
		{ AS_EV_SETID, AS_SC_SETREUID, "setreuid" },
		{ AS_EV_SETID, AS_SC_SETREGID, "setregid" },
		{ AS_EV_SETID, AS_SC_SETRESUID, "setresuid" },
		{ AS_EV_SETID, AS_SC_SETRESGID, "setresgid" },
		{ AS_EV_CAPSET, AS_SC_CAPSET, "capset" },
		{ AS_EV_FORK, AS_SC_CLONE, "clone" },
		{ AS_EV_EXIT, AS_SC_PROCEXIT, "procexit" },
		{ AS_EV_CONNECT, AS_SC_CONNECT, "connect" },
	};
	unsigned char buf[sizeof(struct as_connect)] __attribute__((aligned(8)));

	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		size_t fixed = decode_fixed_size(pairs[i].type), len;
		void *rec;

		memset(buf, 0, sizeof(buf));
		tu_hdr((struct as_hdr *)buf, pairs[i].type, pairs[i].sc, 77);
		rec = tu_fixed(buf, fixed, &len);
		tu_decode_ok(rec, len, ev);
		assert_string_equal(names_evt_type(pairs[i].type, pairs[i].sc), pairs[i].name);
		free(rec);
	}
	assert_string_equal(names_evt_type(AS_EV_EXEC, AS_SC_EXECVE), "execve");
	assert_string_equal(names_evt_type(AS_EV_EXEC, AS_SC_EXECVEAT), "execveat");
	assert_string_equal(names_evt_type(AS_EV_OPEN, AS_SC_OPEN), "open");
	assert_string_equal(names_evt_type(AS_EV_OPEN, AS_SC_OPENAT), "openat");
	assert_string_equal(names_evt_type(AS_EV_OPEN, AS_SC_OPENAT2), "openat2");
	assert_string_equal(names_evt_type(AS_EV_OPEN, AS_SC_CREAT), "creat");
	assert_string_equal(names_evt_type(AS_EV_PROC, AS_SC_NONE), "procinfo");
}

static void test_fixed_sizes(void **state)
{
	(void)state;
	assert_int_equal(decode_fixed_size(AS_EV_NONE), 0);
	assert_int_equal(decode_fixed_size(AS_EV_EXEC), sizeof(struct as_exec));
	assert_int_equal(decode_fixed_size(AS_EV_FORK), sizeof(struct as_fork));
	assert_int_equal(decode_fixed_size(AS_EV_EXIT), sizeof(struct as_exit));
	assert_int_equal(decode_fixed_size(AS_EV_OPEN), sizeof(struct as_open));
	assert_int_equal(decode_fixed_size(AS_EV_CONNECT), sizeof(struct as_connect));
	assert_int_equal(decode_fixed_size(AS_EV_SETID), sizeof(struct as_setid));
	assert_int_equal(decode_fixed_size(AS_EV_CAPSET), sizeof(struct as_capset));
	assert_int_equal(decode_fixed_size(AS_EV_PROC), sizeof(struct as_exec));
	assert_int_equal(decode_fixed_size(AS_EV_MAX), 0);
	assert_int_equal(decode_fixed_size(0xffff), 0);
	assert_int_equal(decode_fixed_size(~0u), 0);
}

/* The event is reused: a fork decoded after an exec shows none of its strings. */
static void test_event_reuse_clears(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	struct as_fork fk;
	size_t len, flen;
	void *rec, *frec;

	rec = tu_simple_exec(5, 1, 0, PC("a\0b\0"), PC("a\0"), PC("d\0"), PC("c\0"), &len);
	tu_decode_ok(rec, len, ev);
	assert_string_equal(ev->exe.s, "/a");
	memset(&fk, 0, sizeof(fk));
	tu_hdr(&fk.hdr, AS_EV_FORK, AS_SC_CLONE, 5);
	fk.child_pid = 6;
	frec = tu_fixed(&fk, sizeof(fk), &flen);
	tu_decode_ok(frec, flen, ev);
	assert_string_equal(ev->filename.s, "");
	assert_string_equal(ev->exe.s, "");
	assert_string_equal(ev->cwd.s, "");
	assert_string_equal(ev->cgroup.s, "");
	assert_string_equal(ev->path.s, "");
	assert_int_equal(ev->args_len, 0);
	assert_int_equal(ev->exe.len + ev->cwd.len + ev->cgroup.len + ev->path.len, 0);
	free(frec);
	free(rec);
}

static void test_path_length_limits(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	char *list = malloc(64 * 65);
	struct as_exec x;
	size_t len;
	void *rec;

	/* 64 components of 63 bytes: exactly AS_PATH_MAX bytes of exe path */
	for (int i = 0; i < 64; i++) {
		memset(list + i * 64, 'q', 63);
		list[i * 64 + 63] = 0;
	}
	base_exec(&x, AS_EV_EXEC, AS_SC_EXECVE);
	rec = tu_exec(&x, PC("/q\0"), PC_NONE, pc_mem(list, 64 * 64), PC_NONE, PC_NONE, &len);
	tu_decode_ok(rec, len, ev);
	assert_int_equal(ev->exe.len, AS_PATH_MAX);
	assert_int_equal(strlen(ev->exe.s), AS_PATH_MAX);
	free(rec);
	/* one byte more does not fit the event */
	list[64 * 64] = 'q';
	list[64 * 64 + 1] = 0;
	base_exec(&x, AS_EV_EXEC, AS_SC_EXECVE);
	rec = tu_exec(&x, PC("/q\0"), PC_NONE, pc_mem(list, 64 * 64 + 2), PC_NONE, PC_NONE, &len);
	expect_einval(rec, len, ev, "exe");
	free(rec);
	/* a cgroup path longer than AS_CGROUP_MAX */
	base_exec(&x, AS_EV_EXEC, AS_SC_EXECVE);
	rec = tu_exec(&x, PC("/q\0"), PC_NONE, PC("q\0"), PC_NONE, pc_mem(list, 17 * 64), &len);
	expect_einval(rec, len, ev, "cgroup");
	free(rec);
	free(list);
}

/* ---- malformed records -------------------------------------------------- */

static void test_reject_short_and_size(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	struct as_fork fk;
	unsigned char *b;
	size_t len;

	memset(&fk, 0, sizeof(fk));
	tu_hdr(&fk.hdr, AS_EV_FORK, AS_SC_CLONE, 5);
	b = tu_fixed(&fk, sizeof(fk), &len);
	expect_einval(b, 0, ev, "shorter than a header");
	expect_einval(b, 1, ev, "shorter than a header");
	expect_einval(b, sizeof(struct as_hdr) - 1, ev, "shorter than a header");
	/* hdr.size disagrees with the length received */
	((struct as_hdr *)b)->size = (uint32_t)len + 8;
	expect_einval(b, len, ev, "header says");
	((struct as_hdr *)b)->size = (uint32_t)len - 8;
	expect_einval(b, len, ev, "header says");
	((struct as_hdr *)b)->size = 0;
	expect_einval(b, len, ev, "header says");
	/* a header-only fork: shorter than its fixed part */
	((struct as_hdr *)b)->size = sizeof(struct as_hdr);
	expect_einval(b, sizeof(struct as_hdr), ev, "shorter than its fixed part");
	free(b);
}

static void test_reject_unknown_type(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	static const unsigned types[] = { AS_EV_NONE, AS_EV_MAX, 100, 0xffff };
	struct as_exit ex;
	size_t len;
	void *rec;

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		memset(&ex, 0, sizeof(ex));
		tu_hdr(&ex.hdr, types[i], AS_SC_PROCEXIT, 5);
		rec = tu_fixed(&ex, sizeof(ex), &len);
		expect_einval(rec, len, ev, "unknown record type");
		free(rec);
	}
}

static void test_reject_type_syscall_mismatch(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	static const struct {
		unsigned type, sc;
	} bad[] = {
		{ AS_EV_EXEC, AS_SC_OPENAT },	{ AS_EV_EXEC, AS_SC_NONE },
		{ AS_EV_OPEN, AS_SC_NONE },	{ AS_EV_OPEN, AS_SC_EXECVE },
		{ AS_EV_FORK, AS_SC_PROCEXIT }, { AS_EV_EXIT, AS_SC_CLONE },
		{ AS_EV_SETID, AS_SC_CAPSET },	{ AS_EV_CAPSET, AS_SC_SETUID },
		{ AS_EV_CONNECT, AS_SC_MAX },	{ AS_EV_SETID, 0xffff },
	};
	/* room for the largest fixed part: the exec record's, lineage and all */
	unsigned char buf[sizeof(struct as_exec) > sizeof(struct as_connect) ?
				  sizeof(struct as_exec) : sizeof(struct as_connect)]
		__attribute__((aligned(8)));

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t len;
		void *rec;

		memset(buf, 0, sizeof(buf));
		tu_hdr((struct as_hdr *)buf, bad[i].type, bad[i].sc, 5);
		rec = tu_fixed(buf, decode_fixed_size(bad[i].type), &len);
		expect_einval(rec, len, ev, "with syscall");
		free(rec);
	}
}

static void test_reject_ancestors_and_strings(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	struct as_exit ex;
	struct as_exit *r;
	size_t len;

	memset(&ex, 0, sizeof(ex));
	tu_hdr(&ex.hdr, AS_EV_EXIT, AS_SC_PROCEXIT, 5);
	for (int i = 0; i < AS_MAX_ANCESTORS; i++)
		snprintf(ex.hdr.anc[i].comm, AS_COMM_LEN, "anc%d", i);
	r = tu_fixed(&ex, sizeof(ex), &len);

	r->hdr.n_anc = AS_MAX_ANCESTORS;
	tu_decode_ok(r, len, ev);
	r->hdr.n_anc = AS_MAX_ANCESTORS + 1;
	expect_einval(r, len, ev, "ancestors");
	r->hdr.n_anc = 255;
	expect_einval(r, len, ev, "ancestors");

	/* comm filling all 16 bytes */
	r->hdr.n_anc = 0;
	memset(r->hdr.comm, 'A', AS_COMM_LEN);
	expect_einval(r, len, ev, "unterminated comm or session");
	strcpy(r->hdr.comm, "ok");
	tu_decode_ok(r, len, ev);

	/* session filling all 64 bytes */
	memset(r->hdr.session, 'S', AS_SESSION_MAX);
	expect_einval(r, len, ev, "unterminated comm or session");
	r->hdr.session[AS_SESSION_MAX - 1] = 0;
	tu_decode_ok(r, len, ev);

	/* an ancestor's comm counts while it is within n_anc */
	memset(r->hdr.anc[3].comm, 'C', AS_COMM_LEN);
	r->hdr.n_anc = 3;
	tu_decode_ok(r, len, ev);
	r->hdr.n_anc = 4;
	expect_einval(r, len, ev, "unterminated");
	free(r);
}

/* The header's strings at every place: each ancestor count with one comm
 * unterminated at each position (refused within n_anc, ignored past it),
 * a comm not padded after its NUL (taken), and the session's one NUL at
 * each of its 64 places (taken) or nowhere (refused). */
static void test_header_strings_every_place(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	struct as_exit ex;
	struct as_exit *r;
	size_t len;

	memset(&ex, 0, sizeof(ex));
	tu_hdr(&ex.hdr, AS_EV_EXIT, AS_SC_PROCEXIT, 5);
	r = tu_fixed(&ex, sizeof(ex), &len);
	for (unsigned n = 0; n <= AS_MAX_ANCESTORS; n++) {
		r->hdr.n_anc = (uint8_t)n;
		for (unsigned bad = 0; bad < AS_MAX_ANCESTORS; bad++) {
			for (unsigned k = 0; k < AS_MAX_ANCESTORS; k++)
				snprintf(r->hdr.anc[k].comm, AS_COMM_LEN, "p%u", k);
			memset(r->hdr.anc[bad].comm, 'x', AS_COMM_LEN);
			if (bad < n)
				expect_einval(r, len, ev, "unterminated comm or session");
			else
				tu_decode_ok(r, len, ev);
			/* a NUL in the middle, bytes after it: a comm still */
			r->hdr.anc[bad].comm[5] = 0;
			tu_decode_ok(r, len, ev);
		}
	}
	memset(r->hdr.comm, 'c', AS_COMM_LEN);
	r->hdr.comm[AS_COMM_LEN - 2] = 0;
	tu_decode_ok(r, len, ev);
	for (unsigned at = 0; at < AS_SESSION_MAX; at++) {
		memset(r->hdr.session, 's', AS_SESSION_MAX);
		r->hdr.session[at] = 0;
		tu_decode_ok(r, len, ev);
	}
	memset(r->hdr.session, 's', AS_SESSION_MAX);
	expect_einval(r, len, ev, "unterminated comm or session");
	free(r);
}

static void test_reject_exec_lengths(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	struct as_exec *r;
	size_t len;

	r = tu_simple_exec(5, 1, 0, PC("a\0"), PC("a\0"), PC("d\0"), PC("c\0"), &len);
	tu_decode_ok(r, len, ev);
	r->filename_len++;
	expect_einval(r, len, ev, "do not match record size");
	r->filename_len -= 2;
	expect_einval(r, len, ev, "do not match record size");
	r->filename_len++;
	r->args_len += 1000;
	expect_einval(r, len, ev, "do not match record size");
	r->args_len -= 1000;
	r->cgroup_len = 0xffff;
	expect_einval(r, len, ev, "do not match record size");
	free(r);

	/* an exec without any string is well-formed; header-only is not */
	{
		struct as_exec x;

		base_exec(&x, AS_EV_EXEC, AS_SC_EXECVE);
		r = tu_exec(&x, PC_NONE, PC_NONE, PC_NONE, PC_NONE, PC_NONE, &len);
	}
	assert_int_equal(len, sizeof(struct as_exec));
	tu_decode_ok(r, len, ev);
	assert_string_equal(ev->filename.s, "");
	assert_string_equal(ev->exe.s, "");
	assert_string_equal(ev->cwd.s, "/");
	r->hdr.size = sizeof(struct as_hdr);
	expect_einval(r, sizeof(struct as_hdr), ev, "shorter than its fixed part");
	free(r);
}

static void test_reject_exec_strings(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	struct as_exec x;
	size_t len;
	void *rec;

	/* filename without its NUL */
	base_exec(&x, AS_EV_EXEC, AS_SC_EXECVE);
	rec = tu_exec(&x, PC("/bin/ls"), PC_NONE, PC("ls\0"), PC_NONE, PC_NONE, &len);
	expect_einval(rec, len, ev, "filename not NUL-terminated");
	free(rec);
	/* a NUL before the end of the filename */
	rec = tu_exec(&x, PC("/bin\0ls\0"), PC_NONE, PC("ls\0"), PC_NONE, PC_NONE, &len);
	expect_einval(rec, len, ev, "filename not NUL-terminated");
	free(rec);
	/* malformed component lists, one per path */
	rec = tu_exec(&x, PC("/x\0"), PC_NONE, PC("ls\0bin"), PC_NONE, PC_NONE, &len);
	expect_einval(rec, len, ev, "malformed exe path");
	free(rec);
	rec = tu_exec(&x, PC("/x\0"), PC_NONE, PC("ls\0"), PC("tmp"), PC_NONE, &len);
	expect_einval(rec, len, ev, "malformed cwd path");
	free(rec);
	rec = tu_exec(&x, PC("/x\0"), PC_NONE, PC("ls\0"), PC("tmp\0"), PC("a\0b"), &len);
	expect_einval(rec, len, ev, "malformed cgroup path");
	free(rec);
	/* a filename larger than the event can hold */
	{
		char *big = malloc(AS_FILENAME_MAX + 2);

		memset(big, 'f', AS_FILENAME_MAX + 1);
		big[AS_FILENAME_MAX + 1] = 0;
		rec = tu_exec(&x, pc_mem(big, AS_FILENAME_MAX + 2), PC_NONE, PC("ls\0"), PC_NONE,
			      PC_NONE, &len);
		expect_einval(rec, len, ev, "filename");
		free(rec);
		big[AS_FILENAME_MAX] = 0; /* exactly AS_FILENAME_MAX bytes with the NUL */
		rec = tu_exec(&x, pc_mem(big, AS_FILENAME_MAX + 1), PC_NONE, PC("ls\0"), PC_NONE,
			      PC_NONE, &len);
		tu_decode_ok(rec, len, ev);
		assert_int_equal(ev->filename.len, AS_FILENAME_MAX);
		free(rec);
		free(big);
	}
}

static void test_reject_open(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	struct as_open o, *r;
	size_t len;

	base_open(&o, AS_SC_OPENAT);
	o.pflags = AS_OF_BASE_CWD;
	r = tu_open(&o, PC("f\0"), PC("d\0"), &len);
	tu_decode_ok(r, len, ev);
	r->path_len++;
	expect_einval(r, len, ev, "path lengths do not match");
	r->path_len -= 2;
	expect_einval(r, len, ev, "path lengths do not match");
	free(r);

	/* unresolved path without NUL, with an early NUL, empty */
	r = tu_open(&o, PC("f"), PC("d\0"), &len);
	expect_einval(r, len, ev, "not NUL-terminated");
	free(r);
	r = tu_open(&o, PC("f\0g\0"), PC_NONE, &len);
	expect_einval(r, len, ev, "not NUL-terminated");
	free(r);
	r = tu_open(&o, PC_NONE, PC_NONE, &len);
	expect_einval(r, len, ev, "not NUL-terminated");
	free(r);

	/* malformed base list */
	r = tu_open(&o, PC("f\0"), PC("d\0e"), &len);
	expect_einval(r, len, ev, "malformed base directory");
	free(r);

	/* resolved: no base allowed, list must be well-formed */
	o.pflags = AS_OF_RESOLVED;
	r = tu_open(&o, PC("f\0"), PC("d\0"), &len);
	expect_einval(r, len, ev, "resolved path with a base");
	free(r);
	r = tu_open(&o, PC("f\0etc"), PC_NONE, &len);
	expect_einval(r, len, ev, "malformed resolved path");
	free(r);

	/* base + user path longer than the event's path buffer */
	{
		size_t n = sizeof(ev->path_buf);
		char *big = malloc(n);

		memset(big, 'p', n - 1);
		big[n - 1] = 0;
		o.pflags = AS_OF_BASE_CWD;
		r = tu_open(&o, pc_mem(big, n), PC("d\0"), &len);
		expect_einval(r, len, ev, "too long");
		free(r);
		free(big);
	}

	/* shorter than the fixed part */
	r = tu_open(&o, PC("f\0"), PC_NONE, &len);
	r->hdr.size = sizeof(struct as_open) - 8;
	expect_einval(r, sizeof(struct as_open) - 8, ev, "shorter than its fixed part");
	free(r);
}

static void test_reject_connect(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	struct as_connect c;
	unsigned char *b;
	size_t len;

	memset(&c, 0, sizeof(c));
	tu_hdr(&c.hdr, AS_EV_CONNECT, AS_SC_CONNECT, 10);
	c.family = AF_UNIX;
	c.path_len = AS_UNIX_PATH_MAX + 1;
	b = tu_fixed(&c, sizeof(c), &len);
	expect_einval(b, len, ev, "unix path");
	((struct as_connect *)b)->path_len = 0xffff;
	expect_einval(b, len, ev, "unix path");
	free(b);

	/* trailing bytes after a connect record */
	c.path_len = 4;
	b = malloc(sizeof(c) + 8);
	memcpy(b, &c, sizeof(c));
	memset(b + sizeof(c), 0, 8);
	((struct as_hdr *)b)->size = sizeof(c) + 8;
	expect_einval(b, sizeof(c) + 8, ev, "connect record of");
	free(b);
}

static void test_reject_trailing_bytes(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	static const struct {
		unsigned type, sc;
	} types[] = {
		{ AS_EV_SETID, AS_SC_SETUID },
		{ AS_EV_CAPSET, AS_SC_CAPSET },
		{ AS_EV_FORK, AS_SC_CLONE },
		{ AS_EV_EXIT, AS_SC_PROCEXIT },
	};

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		size_t fixed = decode_fixed_size(types[i].type);
		unsigned char *b = calloc(1, fixed + 8);

		tu_hdr((struct as_hdr *)b, types[i].type, types[i].sc, 5);
		((struct as_hdr *)b)->size = (uint32_t)fixed;
		tu_decode_ok(b, fixed, ev);
		((struct as_hdr *)b)->size = (uint32_t)fixed + 8;
		expect_einval(b, fixed + 8, ev, "expected");
		((struct as_hdr *)b)->size = (uint32_t)fixed + 1;
		expect_einval(b, fixed + 1, ev, "expected");
		free(b);
	}
}

/* ---- fuzz --------------------------------------------------------------- */

static const unsigned sc_of_type[AS_EV_MAX][6] = {
	[AS_EV_EXEC] = { AS_SC_EXECVE, AS_SC_EXECVEAT },
	[AS_EV_FORK] = { AS_SC_CLONE },
	[AS_EV_EXIT] = { AS_SC_PROCEXIT },
	[AS_EV_OPEN] = { AS_SC_OPEN, AS_SC_OPENAT, AS_SC_OPENAT2, AS_SC_CREAT },
	[AS_EV_CONNECT] = { AS_SC_CONNECT },
	[AS_EV_SETID] = { AS_SC_SETUID, AS_SC_SETGID, AS_SC_SETREUID, AS_SC_SETREGID,
			  AS_SC_SETRESUID, AS_SC_SETRESGID },
	[AS_EV_CAPSET] = { AS_SC_CAPSET },
	[AS_EV_PROC] = { AS_SC_NONE },
	[AS_EV_FILE] = { AS_SC_RENAME, AS_SC_UNLINKAT, AS_SC_FCHMOD, AS_SC_SYMLINK },
	[AS_EV_SYS] = { AS_SC_UNSHARE, AS_SC_MOUNT, AS_SC_CHDIR, AS_SC_PRCTL },
	[AS_EV_URING] = { AS_SC_IO_URING_SUBMIT_REQ },
};

/* Split total into n random lengths, each <= 0xffff when possible. */
static void split(uint64_t *seed, size_t total, uint16_t *out, int n)
{
	size_t left = total;

	for (int i = 0; i < n - 1; i++) {
		size_t v = left ? tu_rand(seed) % (left + 1) : 0;

		if (v > 0xffff)
			v = 0xffff;
		out[i] = (uint16_t)v;
		left -= v;
	}
	out[n - 1] = (uint16_t)(left > 0xffff ? 0xffff : left);
}

/* Sprinkle NULs so that strings and component lists are sometimes well-formed. */
static void sprinkle_nuls(uint64_t *seed, unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (tu_rand(seed) % 6 == 0)
			p[i] = 0;
		else if (p[i] == 0)
			p[i] = 'x';
	if (n && tu_rand(seed) % 4)
		p[n - 1] = 0;
}

static void check_path(const struct event_path *p)
{
	assert_non_null(p->s);
	assert_int_equal(strlen(p->s), p->len);
	assert_int_equal(p->flags & ~(EV_PATH_TRUNC | EV_PATH_DETACHED), 0);
}

static void test_fuzz_random_records(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	unsigned ok = 0, ok_type[AS_EV_MAX] = { 0 };

	for (int it = 0; it < 100000; it++) {
		uint64_t r = tu_rand(&seed) % 100;
		unsigned type = 1 + (unsigned)(tu_rand(&seed) % (AS_EV_MAX - 1));
		size_t fixed = decode_fixed_size(type), len;
		int structured = r >= 15;
		unsigned char *b;
		char err[DECODE_ERR_MAX];
		int rc;

		if (r < 3) /* pure noise, any length */
			len = tu_rand(&seed) % sizeof(struct as_hdr);
		else if (r < 15)
			len = sizeof(struct as_hdr) + tu_rand(&seed) % 12000;
		else if (type == AS_EV_EXEC || type == AS_EV_PROC || type == AS_EV_OPEN ||
			 type == AS_EV_FILE || type == AS_EV_SYS || type == AS_EV_URING)
			len = fixed + tu_rand(&seed) % (tu_rand(&seed) % 10 ? 700 : 12000);
		else /* fixed-size types: mostly exact, sometimes a little off */
			len = fixed + (tu_rand(&seed) % 5 ? 0 : tu_rand(&seed) % 24) -
			      (tu_rand(&seed) % 5 ? 0 : tu_rand(&seed) % 24);
		b = malloc(len ? len : 1);
		tu_rand_fill(&seed, b, len);
		if (structured && len >= sizeof(struct as_hdr)) {
			/* mostly plausible headers, so that decoding gets past the checks */
			struct as_hdr *h = (struct as_hdr *)b;
			unsigned nsc = 0;

			while (nsc < 6 && (sc_of_type[type][nsc] || (type == AS_EV_PROC && !nsc)))
				nsc++;
			if (tu_rand(&seed) % 20)
				h->size = (uint32_t)len;
			if (tu_rand(&seed) % 20) {
				h->type = (uint16_t)type;
				h->syscall = (uint16_t)sc_of_type[type][tu_rand(&seed) % nsc];
			}
			if (tu_rand(&seed) % 20) {
				h->n_anc = (uint8_t)(tu_rand(&seed) % (AS_MAX_ANCESTORS + 2));
				h->comm[tu_rand(&seed) % AS_COMM_LEN] = 0;
				h->session[tu_rand(&seed) % AS_SESSION_MAX] = 0;
				for (int i = 0; i < AS_MAX_ANCESTORS; i++)
					h->anc[i].comm[tu_rand(&seed) % AS_COMM_LEN] = 0;
			}
			if ((type == AS_EV_EXEC || type == AS_EV_PROC) && len >= fixed &&
			    tu_rand(&seed) % 8) {
				struct as_exec *x = (struct as_exec *)b;
				uint16_t l[6];

				split(&seed, len - fixed, l, 6);
				x->filename_len = l[0];
				x->args_len = l[1];
				x->exe_len = l[2];
				x->cwd_len = l[3];
				x->cgroup_len = l[4];
				x->ldpath_len = l[5];
				x->pflags = (uint32_t)tu_rand(&seed);
				sprinkle_nuls(&seed, b + fixed, len - fixed);
				/* the search path: flagged as it is there, and a plain string */
				if (tu_rand(&seed) % 4)
					x->pflags = (x->pflags & ~AS_XF_LD_PATH) |
						    (l[5] ? AS_XF_LD_PATH : 0);
				if (l[5] && tu_rand(&seed) % 4) {
					memset(b + len - l[5], 'l', l[5]);
					b[len - 1] = 0;
				}
				/* plain strings: a single NUL, at the end */
				if (l[0]) {
					memset(b + fixed, 'f', l[0]);
					b[fixed + l[0] - 1] = 0;
				}
				if ((x->pflags & AS_XF_PLAIN) && tu_rand(&seed) % 4) {
					size_t off = fixed + l[0] + l[1];

					for (int k = 2; k < 5; k++) {
						if (l[k]) {
							memset(b + off, 'p', l[k]);
							b[off + l[k] - 1] = 0;
						}
						off += l[k];
					}
				}
			} else if (type == AS_EV_OPEN && len >= fixed && tu_rand(&seed) % 8) {
				struct as_open *o = (struct as_open *)b;
				uint16_t l[2];

				split(&seed, len - fixed, l, 2);
				o->path_len = l[0];
				o->base_len = l[1];
				o->pflags = (uint32_t)tu_rand(&seed) & 0xfff;
				if (tu_rand(&seed) & 1)
					o->pflags &= ~AS_OF_RESOLVED;
				if (tu_rand(&seed) & 1)
					o->base_len = 0, o->path_len = (uint16_t)(len - fixed);
				sprinkle_nuls(&seed, b + fixed, len - fixed);
				if (o->path_len && tu_rand(&seed) % 3) {
					memset(b + fixed, 'a', o->path_len);
					for (size_t k = 0; k < o->path_len;
					     k += 1 + tu_rand(&seed) % 4)
						b[fixed + k] = "/./"[tu_rand(&seed) % 3];
					b[fixed + o->path_len - 1] = 0;
				}
			} else if ((type == AS_EV_FILE || type == AS_EV_SYS || type == AS_EV_URING) &&
				   len >= fixed && tu_rand(&seed) % 8) {
				struct as_sys *r = (struct as_sys *)b;
				uint16_t l[4];
				size_t off = fixed;

				split(&seed, len - fixed, l, 4);
				for (int k = 0; k < 2; k++) {
					r->len[k] = l[2 * k];
					r->base_len[k] = l[2 * k + 1];
					r->fdl_len[k] = 0;
				}
				r->pflags = (uint32_t)tu_rand(&seed) & 0xffff;
				int plain = tu_rand(&seed) & 1;

				if (plain) { /* plain strings: the simplest valid kind */
					r->pflags = AS_SYF_PLAIN | AS_SYF_PLAIN << AS_SYF_SLOT_BITS;
					for (int k = 0; k < 2; k++) {
						r->len[k] = (uint16_t)(l[2 * k] + l[2 * k + 1]);
						r->base_len[k] = 0;
					}
				}
				r->aux[tu_rand(&seed) % AS_SYS_AUX_LEN] = 0;
				sprinkle_nuls(&seed, b + fixed, len - fixed);
				/* mostly plain user strings, so that joins and bases run */
				for (int k = 0; k < 2; k++) {
					if (r->len[k] && (plain || tu_rand(&seed) % 3)) {
						memset(b + off, 'u', r->len[k]);
						b[off + r->len[k] - 1] = 0;
					}
					off += r->len[k] + r->base_len[k];
				}
			} else if (type == AS_EV_CONNECT && len >= fixed) {
				((struct as_connect *)b)->path_len =
					(uint16_t)(tu_rand(&seed) % (AS_UNIX_PATH_MAX + 8));
			}
		}
		memset(err, 0, sizeof(err));
		rc = decode_record(b, len, ev, err);
		if (rc == 0) {
			const struct as_hdr *h = (const struct as_hdr *)b;

			ok++;
			ok_type[h->type]++;
			assert_ptr_equal(ev->hdr, b);
			assert_int_equal(h->size, len);
			assert_true(h->n_anc <= AS_MAX_ANCESTORS);
			check_path(&ev->filename);
			check_path(&ev->exe);
			check_path(&ev->cwd);
			check_path(&ev->cgroup);
			check_path(&ev->path);
			check_path(&ev->path2);
			if (h->type == AS_EV_OPEN)
				assert_true(ev->path.len > 0);
		} else {
			if (rc != -EINVAL)
				fail_msg("iteration %d: decode_record returned %d", it, rc);
			assert_true(err[0] != 0);
			assert_null(strchr(err, '\n'));
		}
		free(b);
	}
	/* the generator reaches the deep checks: every type decodes sometimes */
	print_message("fuzz: %u of 100000 records decoded (exec %u open %u proc %u)\n", ok,
		      ok_type[AS_EV_EXEC], ok_type[AS_EV_OPEN], ok_type[AS_EV_PROC]);
	assert_true(ok > 5000);
	for (unsigned t = 1; t < AS_EV_MAX; t++)
		if (ok_type[t] < 50)
			fail_msg("type %u decoded only %u times", t, ok_type[t]);
}

/* Bit flips and length tweaks on valid records. */
static void test_fuzz_mutations(void **state)
{
	struct event *ev = ((struct fx *)*state)->ev;
	uint64_t seed = 42;
	struct as_exec x;
	struct as_open o;
	size_t lens[2];
	void *recs[2];

	base_exec(&x, AS_EV_EXEC, AS_SC_EXECVE);
	recs[0] = tu_exec(&x, PC("/usr/bin/ls\0"), PC("ls\0-l\0"), PC("ls\0bin\0usr\0"),
			  PC("u\0home\0"), PC("s.scope\0"), &lens[0]);
	base_open(&o, AS_SC_OPENAT);
	o.pflags = AS_OF_BASE_DIRFD;
	recs[1] = tu_open(&o, PC("../a/./b\0"), PC("d\0var\0"), &lens[1]);
	for (int it = 0; it < 50000; it++) {
		int w = (int)(tu_rand(&seed) & 1);
		size_t len = lens[w];
		unsigned char *b;
		char err[DECODE_ERR_MAX];
		int rc;

		if (tu_rand(&seed) % 4 == 0) /* cut or extend */
			len = len - 8 + tu_rand(&seed) % 16;
		b = calloc(1, len);
		memcpy(b, recs[w], len < lens[w] ? len : lens[w]);
		for (int k = 0, n = 1 + (int)(tu_rand(&seed) % 4); k < n; k++) {
			size_t pos = tu_rand(&seed) % len;

			/* favour the variable part and the length fields */
			if (tu_rand(&seed) & 1)
				pos = sizeof(struct as_hdr) +
				      tu_rand(&seed) % (len - sizeof(struct as_hdr));
			b[pos] ^= (unsigned char)(1u << (tu_rand(&seed) % 8));
		}
		if (tu_rand(&seed) % 2)
			((struct as_hdr *)b)->size = (uint32_t)len;
		rc = decode_record(b, len, ev, err);
		assert_true(rc == 0 || rc == -EINVAL);
		if (rc == 0) {
			check_path(&ev->exe);
			check_path(&ev->path);
		}
		free(b);
	}
	free(recs[0]);
	free(recs[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_exec_valid, setup, teardown),
		cmocka_unit_test_setup_teardown(test_exec_flags_and_root_paths, setup, teardown),
		cmocka_unit_test_setup_teardown(test_exec_no_exe_and_failed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_exec_ldpath, setup, teardown),
		cmocka_unit_test_setup_teardown(test_proc_plain_valid, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_resolved, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_pipe, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_resolved_with_string_as_passed, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_open_unresolved_absolute, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_relative_cwd_base, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_relative_dirfd_base, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fixed_types_valid, setup, teardown),
		cmocka_unit_test_setup_teardown(test_every_type_syscall_pair, setup, teardown),
		cmocka_unit_test(test_fixed_sizes),
		cmocka_unit_test_setup_teardown(test_event_reuse_clears, setup, teardown),
		cmocka_unit_test_setup_teardown(test_path_length_limits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reject_short_and_size, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reject_unknown_type, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reject_type_syscall_mismatch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reject_ancestors_and_strings, setup, teardown),
		cmocka_unit_test_setup_teardown(test_header_strings_every_place, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reject_exec_lengths, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reject_exec_strings, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reject_open, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reject_connect, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reject_trailing_bytes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fuzz_random_records, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fuzz_mutations, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
