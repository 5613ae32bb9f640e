// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* procscan: AS_EV_PROC records built from a fake /proc tree. */
#include <sys/inotify.h>
#include <sys/stat.h>
#include "testutil.h"
#include "procscan.h"
#include "procscan_ref.h"
#include "proctable.h"

#define REC_CAP (64 * 1024)

struct fx {
	char root[256];
	void *buf; /* REC_CAP bytes */
	struct event *ev;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	tu_mkdtemp(f->root, sizeof(f->root), "proc");
	f->buf = calloc(1, REC_CAP);
	f->ev = calloc(1, sizeof(*f->ev));
	*state = f;
	return f->buf && f->ev ? 0 : -1;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	tu_rmrf(f->root);
	free(f->buf);
	free(f->ev);
	free(f);
	return 0;
}

/* A file of the fake process; data NULL: the file does not exist. */
static void put(struct fx *f, uint32_t pid, const char *name, const void *data, size_t n)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%u", f->root, pid);
	mkdir(path, 0755);
	if (!data)
		return;
	snprintf(path, sizeof(path), "%s/%u/%s", f->root, pid, name);
	tu_write_file(path, data, n);
}

#define PUT(f, pid, name, lit) put((f), (pid), (name), (lit), sizeof(lit) - 1)

static void put_link(struct fx *f, uint32_t pid, const char *name, const char *target)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%u", f->root, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%u/%s", f->root, pid, name);
	assert_int_equal(symlink(target, path), 0);
}

static const char status_text[] = "Name:\tpython3\n"
				  "Umask:\t0022\n"
				  "State:\tS (sleeping)\n"
				  "Tgid:\t4321\n"
				  "Ngid:\t0\n"
				  "Pid:\t4321\n"
				  "PPid:\t77\n"
				  "TracerPid:\t0\n"
				  "Uid:\t1000\t1001\t1002\t1003\n"
				  "Gid:\t2000\t2001\t2002\t2003\n"
				  "FDSize:\t64\n"
				  "Groups:\t4 24 27\n"
				  "NStgid:\t4321\n";

/* A complete fake process. */
static void full_proc(struct fx *f, uint32_t pid)
{
	char stat[256];

	snprintf(stat, sizeof(stat),
		 "%u (my (odd) comm) S 77 4321 4321 34817 4321 4194560 100 0 0 0 1 2 0 0 20 0 1 "
		 "0 12345 1000000 100 18446744073709551615\n",
		 pid);
	put(f, pid, "stat", stat, strlen(stat));
	put(f, pid, "status", status_text, sizeof(status_text) - 1);
	PUT(f, pid, "cmdline", "python3\0-m\0http.server\0");
	PUT(f, pid, "cgroup", "3:cpu:/\n2:memory:/x\n1:name=systemd:/init.scope\n0::/y\n");
	PUT(f, pid, "environ", "PATH=/bin\0XAGENT_SESSION_ID=no\0AGENT_SESSION_IDX=no\0"
			       "AGENT_SESSION_ID=sess-42\0HOME=/root\0");
	PUT(f, pid, "loginuid", "1000");
	put_link(f, pid, "exe", "/usr/bin/python3.11");
	put_link(f, pid, "cwd", "/home/dev/project");
}

static long scan(struct fx *f, uint32_t pid)
{
	long n;

	memset(f->buf, 0xee, REC_CAP);
	n = procscan_one(f->root, pid, 5555, f->buf, REC_CAP);
	if (n > 0) {
		assert_int_equal(((struct as_hdr *)f->buf)->size, (uint32_t)n);
		tu_decode_ok(f->buf, (size_t)n, f->ev);
	}
	return n;
}

static void test_full_process(void **state)
{
	struct fx *f = *state;
	const struct as_hdr *h;
	struct event *ev = f->ev;
	long n;

	full_proc(f, 4321);
	n = scan(f, 4321);
	assert_true(n > 0);
	h = ev->hdr;
	assert_ptr_equal(h, f->buf);
	assert_int_equal(h->type, AS_EV_PROC);
	assert_int_equal(h->syscall, AS_SC_NONE);
	assert_int_equal(h->ts, 5555);
	assert_int_equal(ev->ts, 5555);
	assert_int_equal(h->pid, 4321);
	assert_int_equal(h->tid, 4321);
	assert_int_equal(h->vpid, 4321);
	assert_int_equal(h->ppid, 77);
	assert_string_equal(h->comm, "my (odd) comm");
	assert_int_equal(h->uid, 1000);
	assert_int_equal(h->euid, 1001);
	assert_int_equal(h->gid, 2000);
	assert_int_equal(h->egid, 2001);
	assert_int_equal(h->loginuid, 1000);
	assert_int_equal(h->n_anc, 0);
	assert_true(h->flags & AS_HF_SESSION);
	assert_string_equal(h->session, "sess-42");
	assert_true(ev->u.exec->pflags & AS_XF_PLAIN);
	assert_false(ev->u.exec->pflags & AS_XF_ARGS_TRUNC);
	assert_int_equal(ev->res, 0);
	assert_string_equal(ev->filename.s, "");
	assert_int_equal(ev->args_len, 23);
	assert_memory_equal(ev->args, "python3\0-m\0http.server\0", 23);
	assert_string_equal(ev->exe.s, "/usr/bin/python3.11");
	assert_string_equal(ev->cwd.s, "/home/dev/project");
	assert_string_equal(ev->cgroups, "cpu=/ memory=/x systemd=/init.scope unified=/y");
	assert_string_equal(ev->cgroup.s, "/y"); /* the v2 path, as exec events carry it */
	assert_int_equal((size_t)n, sizeof(struct as_exec) + 1 + 23 + 20 + 18 + 47);
}

/* The brief's example, exactly. */
static void test_cgroups_text(void **state)
{
	struct fx *f = *state;

	full_proc(f, 10);
	PUT(f, 10, "cgroup", "12:cpu:/\n5:memory:/x\n0::/y\n");
	assert_true(scan(f, 10) > 0);
	assert_string_equal(f->ev->cgroups, "cpu=/ memory=/x unified=/y");

	/* a pure v2 host, a path with ':' and spaces, a name= hierarchy, no final newline */
	full_proc(f, 11);
	PUT(f, 11, "cgroup", "0::/user.slice/a:b c.scope");
	assert_true(scan(f, 11) > 0);
	assert_string_equal(f->ev->cgroups, "unified=/user.slice/a:b c.scope");
	full_proc(f, 12);
	PUT(f, 12, "cgroup", "1:name=systemd:/\n2:cpu,cpuacct:/docker/abc\n");
	assert_true(scan(f, 12) > 0);
	assert_string_equal(f->ev->cgroups, "systemd=/ cpu,cpuacct=/docker/abc");
	assert_string_equal(f->ev->cgroup.s, "/"); /* no v2 line: the root */
	/* an unreadable cgroup file */
	full_proc(f, 13);
	{
		char p[512];

		snprintf(p, sizeof(p), "%s/13/cgroup", f->root);
		unlink(p);
	}
	assert_true(scan(f, 13) > 0);
	assert_string_equal(f->ev->cgroups, "");
}

static void test_comm_variants(void **state)
{
	struct fx *f = *state;

	full_proc(f, 20);
	PUT(f, 20, "stat", "20 (a) b (c) R 5 20 20 0 -1\n");
	assert_true(scan(f, 20) > 0);
	assert_string_equal(f->ev->hdr->comm, "a) b (c");
	assert_int_equal(f->ev->hdr->ppid, 5);

	full_proc(f, 21);
	PUT(f, 21, "stat", "21 (tmux: server) S 1 21 21 0 -1\n");
	assert_true(scan(f, 21) > 0);
	assert_string_equal(f->ev->hdr->comm, "tmux: server");
	assert_int_equal(f->ev->hdr->ppid, 1);

	full_proc(f, 22);
	PUT(f, 22, "stat", "22 () S 9 22 22 0 -1\n");
	assert_true(scan(f, 22) > 0);
	assert_string_equal(f->ev->hdr->comm, "");
	assert_int_equal(f->ev->hdr->ppid, 9);

	/* longer than a kernel comm: cut to 15 bytes, still terminated */
	full_proc(f, 23);
	PUT(f, 23, "stat", "23 (0123456789abcdefghij) S 9 22 22 0 -1\n");
	assert_true(scan(f, 23) > 0);
	assert_string_equal(f->ev->hdr->comm, "0123456789abcde");

	/* no parenthesis, no ppid: not a stat line */
	full_proc(f, 24);
	PUT(f, 24, "stat", "24 nocomm S 1\n");
	assert_int_equal(scan(f, 24), -EINVAL);
	full_proc(f, 25);
	PUT(f, 25, "stat", "25 (x)\n");
	assert_int_equal(scan(f, 25), -EINVAL);
}

static void test_session_variants(void **state)
{
	struct fx *f = *state;
	char env[200];

	/* no environ file */
	full_proc(f, 30);
	{
		char p[512];

		snprintf(p, sizeof(p), "%s/30/environ", f->root);
		unlink(p);
	}
	assert_true(scan(f, 30) > 0);
	assert_false(f->ev->hdr->flags & AS_HF_SESSION);
	assert_string_equal(f->ev->hdr->session, "");

	/* environ without the variable, with it first, with it last and unterminated */
	full_proc(f, 31);
	PUT(f, 31, "environ", "A=1\0B=2\0");
	assert_true(scan(f, 31) > 0);
	assert_false(f->ev->hdr->flags & AS_HF_SESSION);
	full_proc(f, 32);
	PUT(f, 32, "environ", "AGENT_SESSION_ID=first\0A=1\0");
	assert_true(scan(f, 32) > 0);
	assert_string_equal(f->ev->hdr->session, "first");
	full_proc(f, 33);
	PUT(f, 33, "environ", "A=1\0AGENT_SESSION_ID=last");
	assert_true(scan(f, 33) > 0);
	assert_true(f->ev->hdr->flags & AS_HF_SESSION);
	assert_string_equal(f->ev->hdr->session, "last");

	/* longer than AS_SESSION_MAX - 1: cut, terminated */
	full_proc(f, 34);
	memset(env, 'z', sizeof(env));
	memcpy(env, "AGENT_SESSION_ID=", 17);
	env[17 + 100] = 0;
	put(f, 34, "environ", env, 17 + 101);
	assert_true(scan(f, 34) > 0);
	assert_int_equal(strlen(f->ev->hdr->session), AS_SESSION_MAX - 1);
}

/* The loader's variables, as the exec scan reads them: LD_PRELOAD and
 * LD_AUDIT set AS_XF_LD_ENV; LD_LIBRARY_PATH's value ends the record
 * (AS_XF_LD_PATH), and a second one, or one longer than the kernel
 * carries, sets AS_XF_LD_ENV too; an empty value is none. */
static void test_loader_variables(void **state)
{
	struct fx *f = *state;
	static char env[AS_LDPATH_MAX + 64];
	const struct as_exec *x;

	full_proc(f, 40);
	PUT(f, 40, "environ", "A=1\0LD_LIBRARY_PATH=/usr/local/cuda/lib64\0B=2\0");
	assert_true(scan(f, 40) > 0);
	x = f->ev->u.exec;
	assert_int_equal(x->pflags & (AS_XF_LD_PATH | AS_XF_LD_ENV), AS_XF_LD_PATH);
	assert_string_equal(f->ev->ldpath, "/usr/local/cuda/lib64");
	assert_int_equal(f->ev->exec_flags & AS_XF_LD_ENV, AS_XF_LD_ENV); /* until judged */
	assert_string_equal(f->ev->cwd.s, "/home/dev/project"); /* the strings before it intact */

	full_proc(f, 41);
	PUT(f, 41, "environ", "LD_LIBRARY_PATH=/usr/lib\0LD_LIBRARY_PATH=/tmp\0");
	assert_true(scan(f, 41) > 0);
	x = f->ev->u.exec;
	assert_int_equal(x->pflags & (AS_XF_LD_PATH | AS_XF_LD_ENV), AS_XF_LD_PATH | AS_XF_LD_ENV);

	full_proc(f, 42);
	PUT(f, 42, "environ", "LD_PRELOAD=/x.so\0LD_LIBRARY_PATH=\0");
	assert_true(scan(f, 42) > 0);
	x = f->ev->u.exec;
	assert_int_equal(x->pflags & (AS_XF_LD_PATH | AS_XF_LD_ENV), AS_XF_LD_ENV);
	assert_null(f->ev->ldpath);

	full_proc(f, 43);
	memset(env, '/', sizeof(env));
	memcpy(env, "LD_LIBRARY_PATH=", 16);
	env[sizeof(env) - 1] = 0;
	put(f, 43, "environ", env, sizeof(env));
	assert_true(scan(f, 43) > 0);
	x = f->ev->u.exec;
	assert_int_equal(x->pflags & (AS_XF_LD_PATH | AS_XF_LD_ENV), AS_XF_LD_PATH | AS_XF_LD_ENV);
	assert_int_equal(strlen(f->ev->ldpath), AS_LDPATH_MAX - 1);
}

static void test_minimal_process(void **state)
{
	struct fx *f = *state;
	struct event *ev = f->ev;

	/* only stat: a kernel thread, or a process we may not inspect */
	PUT(f, 2, "stat", "2 (kthreadd) S 0 0 0 0 -1\n");
	assert_true(scan(f, 2) > 0);
	assert_string_equal(ev->hdr->comm, "kthreadd");
	assert_int_equal(ev->hdr->ppid, 0);
	assert_int_equal(ev->hdr->uid, AS_ID_UNSET);
	assert_int_equal(ev->hdr->euid, AS_ID_UNSET);
	assert_int_equal(ev->hdr->gid, AS_ID_UNSET);
	assert_int_equal(ev->hdr->egid, AS_ID_UNSET);
	assert_int_equal(ev->hdr->loginuid, AS_ID_UNSET);
	assert_int_equal(ev->hdr->flags, 0);
	assert_int_equal(ev->args_len, 0);
	assert_string_equal(ev->exe.s, "");
	assert_string_equal(ev->cwd.s, "");
	assert_string_equal(ev->cgroups, "");
}

static void test_long_cmdline(void **state)
{
	struct fx *f = *state;
	char *cmd = malloc(AS_ARGS_MAX + 100);

	memset(cmd, 'a', AS_ARGS_MAX + 100);
	for (int i = 50; i < AS_ARGS_MAX + 100; i += 50)
		cmd[i] = 0;
	full_proc(f, 40);
	put(f, 40, "cmdline", cmd, AS_ARGS_MAX + 100);
	assert_true(scan(f, 40) > 0);
	assert_int_equal(f->ev->args_len, AS_ARGS_MAX);
	assert_true(f->ev->u.exec->pflags & AS_XF_ARGS_TRUNC);
	assert_memory_equal(f->ev->args, cmd, AS_ARGS_MAX);
	free(cmd);
}

static void test_errors(void **state)
{
	struct fx *f = *state;

	/* a pid that does not exist, one whose stat is empty */
	assert_true(procscan_one(f->root, 999999, 1, f->buf, REC_CAP) < 0);
	assert_int_equal(procscan_one(f->root, 999999, 1, f->buf, REC_CAP), -ENOENT);
	PUT(f, 50, "stat", "");
	assert_int_equal(procscan_one(f->root, 50, 1, f->buf, REC_CAP), -ENOENT);
	/* a buffer too small for the largest record */
	full_proc(f, 51);
	assert_int_equal(procscan_one(f->root, 51, 1, f->buf, 1024), -ENOSPC);
	/* a missing proc root */
	assert_true(procscan_one("/nonexistent-proc-root", 1, 1, f->buf, REC_CAP) < 0);
}

static void test_into_proctable(void **state)
{
	struct fx *f = *state;
	struct proctable *pt = proctable_new(16);
	const struct proc_entry *e;

	full_proc(f, 4321);
	assert_true(scan(f, 4321) > 0);
	assert_int_equal(proctable_apply(pt, f->ev), 0);
	e = proctable_lookup(pt, 4321);
	assert_non_null(e);
	assert_string_equal(e->comm, "my (odd) comm");
	assert_int_equal(e->ppid, 77);
	assert_string_equal(e->exe, "/usr/bin/python3.11");
	assert_string_equal(e->cwd, "/home/dev/project");
	assert_string_equal(e->cgroup, "/y");
	assert_string_equal(e->cgroups, "cpu=/ memory=/x systemd=/init.scope unified=/y");
	assert_string_equal(e->session, "sess-42");
	assert_string_equal(e->container_id, "host");
	assert_int_equal(e->start_ts, 5555);
	proctable_free(pt);
}

struct all_ctx {
	int calls;
	uint32_t pids[8];
	struct event *ev;
	int refuse_pid;
};

static int all_cb(const void *rec, size_t len, void *ctx)
{
	struct all_ctx *c = ctx;
	const struct as_hdr *h = rec;

	tu_decode_ok(rec, len, c->ev);
	assert_int_equal(h->type, AS_EV_PROC);
	if (c->calls < 8)
		c->pids[c->calls] = h->pid;
	c->calls++;
	return (int)h->pid == c->refuse_pid ? -1 : 0;
}

static void test_scan_all(void **state)
{
	struct fx *f = *state;
	struct all_ctx c = { .ev = f->ev, .refuse_pid = 30 };
	char p[512];

	full_proc(f, 10);
	full_proc(f, 20);
	full_proc(f, 30);
	/* not processes: names that are not pids, pid 0, a directory without stat */
	snprintf(p, sizeof(p), "%s/self", f->root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/0", f->root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/30x", f->root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/40", f->root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/4294967296", f->root);
	mkdir(p, 0755);
	/* callbacks for 10, 20, 30; the refused one is not counted */
	assert_int_equal(procscan_all(f->root, all_cb, &c), 2);
	assert_int_equal(c.calls, 3);
	assert_int_equal(procscan_all("/nonexistent-proc-root", all_cb, &c), -ENOENT);
}


/* ---- the seed against the reference (tests/unit/procscan_ref.c) ---------------- */

#define TREE_DEEP_FIRST 1000 /* pids of the deep chain: 1000 (parent 1), 1001, ... */
#define TREE_DEEP_LEN 1100 /* longer than PROCSCAN_CHAIN_MAX (1024) hops */
#define TREE_OLD_FIRST 5000 /* a second one, 5000 (parent 1) ...: its oldest 16 named */
#define TREE_PIDS_MAX 4096

/* One fake process: stat line with comm, ppid, flags (field 9), starttime. */
static void tree_stat(struct fx *f, uint32_t pid, const char *comm, uint32_t ppid,
		      unsigned flags, unsigned long long start)
{
	char stat[256];

	snprintf(stat, sizeof(stat),
		 "%u (%s) S %u %u %u 0 -1 %u 100 0 0 0 1 2 0 0 20 0 1 0 %llu 1000000 100 "
		 "18446744073709551615\n",
		 pid, comm, ppid, pid, pid, flags, start);
	put(f, pid, "stat", stat, strlen(stat));
}

/* An executable the fake exe links point at (its dev and ino go into lineages). */
static void tree_bin(struct fx *f, const char *name, char *out, size_t cap)
{
	snprintf(out, cap, "%s/%s", f->root, name);
	tu_write_file(out, "x", 1);
}

/* A user process as procfs shows one. */
static void tree_user(struct fx *f, uint32_t pid, const char *comm, uint32_t ppid,
		      const char *exe, const char *session)
{
	char env[128];
	int n;

	tree_stat(f, pid, comm, ppid, 0x400100, 1000 + pid);
	put(f, pid, "status", status_text, sizeof(status_text) - 1);
	PUT(f, pid, "cmdline", "prog\0--flag\0");
	PUT(f, pid, "cgroup", "1:name=systemd:/user.slice\n0::/user.slice/x.scope\n");
	n = snprintf(env, sizeof(env), "HOME=/root%cAGENT_SESSION_ID=%s%c", 0,
		     session ? session : "", 0);
	put(f, pid, "environ", env, session ? (size_t)n : 10);
	PUT(f, pid, "loginuid", "1000");
	if (exe)
		put_link(f, pid, "exe", exe);
	put_link(f, pid, "cwd", "/home/dev");
}

/* A kernel thread as procfs shows one: PF_KTHREAD in the flags, no mm
 * (environ and cmdline empty, no exe), loginuid unset, root's ids. */
static void tree_kthread(struct fx *f, uint32_t pid, const char *comm, uint32_t ppid)
{
	static const char kstatus[] = "Name:\tk\nUid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\n";

	tree_stat(f, pid, comm, ppid, 0x208040, 5 + pid);
	put(f, pid, "status", kstatus, sizeof(kstatus) - 1);
	PUT(f, pid, "cmdline", "");
	PUT(f, pid, "environ", "");
	PUT(f, pid, "loginuid", "4294967295");
	PUT(f, pid, "cgroup", "1:name=systemd:/\n0::/\n");
	put_link(f, pid, "cwd", "/");
}

/*
 * The tree: init and kthreadd with kernel threads; an agent's tree with
 * comms holding spaces and parens; a child whose parent vanished, one whose
 * parent's stat is not a stat line; ppid cycles (three processes, and one its
 * own parent); a parent with a larger pid than its child; optionally the
 * 1100-deep chain with an agent every 100 levels.
 */
static void tree_build(struct fx *f, int deep)
{
	char sh[300], node[300], claude[300];

	tree_bin(f, "sh", sh, sizeof(sh));
	tree_bin(f, "node", node, sizeof(node));
	tree_bin(f, "claude", claude, sizeof(claude));
	tree_user(f, 1, "systemd", 0, sh, NULL);
	tree_kthread(f, 2, "kthreadd", 0);
	tree_kthread(f, 3, "kworker/0:0-events", 2);
	tree_kthread(f, 4, "rcu_gp", 2);
	tree_user(f, 100, "bash", 1, sh, NULL);
	tree_user(f, 101, "claude", 100, claude, "sess-1");
	tree_user(f, 102, "node", 101, node, "sess-1");
	tree_user(f, 103, "my (odd) comm", 102, sh, "sess-1");
	tree_user(f, 104, "a) b (c", 103, sh, "sess-1");
	tree_user(f, 105, "tmux: server", 104, NULL, NULL);
	tree_user(f, 106, "x)", 105, sh, NULL);
	tree_user(f, 200, "orphan", 199, sh, NULL); /* 199 vanished */
	tree_user(f, 210, "child", 209, sh, NULL);
	PUT(f, 209, "stat", "209 nocomm S 1\n"); /* not a stat line */
	tree_user(f, 300, "c0", 301, sh, NULL);
	tree_user(f, 301, "claude", 302, claude, NULL);
	tree_user(f, 302, "c2", 300, sh, NULL);
	tree_user(f, 310, "self", 310, sh, NULL);
	tree_user(f, 400, "young", 450, node, NULL); /* the parent's pid is larger */
	tree_user(f, 450, "claude", 1, claude, NULL);
	tree_user(f, 451, "sub", 400, sh, NULL);
	if (!deep)
		return;
	for (uint32_t i = 0; i < TREE_DEEP_LEN; i++) {
		uint32_t pid = TREE_DEEP_FIRST + i;

		tree_stat(f, pid, i % 100 == 0 ? "node" : "sh", i ? pid - 1 : 1, 0x400100, pid);
		put_link(f, pid, "exe", i % 100 == 0 ? node : sh);
		/* where a walk is cut decides how many of the 16 named stay */
		pid = TREE_OLD_FIRST + i;
		tree_stat(f, pid, i < 16 ? "claude" : "sh", i ? pid - 1 : 1, 0x400100, pid);
	}
}

struct tree_seen {
	int n;
	uint32_t pid[TREE_PIDS_MAX];
	void *rec[TREE_PIDS_MAX];
	size_t len[TREE_PIDS_MAX];
};

static int tree_cb(const void *rec, size_t len, void *ctx)
{
	struct tree_seen *t = ctx;

	assert_true(t->n < TREE_PIDS_MAX);
	t->pid[t->n] = ((const struct as_hdr *)rec)->pid;
	t->rec[t->n] = malloc(len);
	assert_non_null(t->rec[t->n]);
	memcpy(t->rec[t->n], rec, len);
	t->len[t->n++] = len;
	return 0;
}

static void tree_free(struct tree_seen *t)
{
	for (int i = 0; i < t->n; i++)
		free(t->rec[i]);
	free(t);
}

static const void *tree_find(const struct tree_seen *t, uint32_t pid, size_t *len)
{
	for (int i = 0; i < t->n; i++)
		if (t->pid[i] == pid) {
			*len = t->len[i];
			return t->rec[i];
		}
	fail_msg("pid %u was not seeded", pid);
	return NULL;
}

/* pid's seeded record is the reference's, byte for byte. */
static void tree_same(struct fx *f, const struct tree_seen *t, uint32_t pid)
{
	size_t len;
	const struct as_hdr *h = tree_find(t, pid, &len);
	long n = ref_procscan_one(f->root, pid, h->ts, f->buf, REC_CAP);

	if (n != (long)len || memcmp(f->buf, h, len) != 0)
		fail_msg("pid %u: the seeded record (%zu bytes) differs from the reference's (%ld)",
			 pid, len, n);
	/* and so is the record procscan_one builds alone, without the scan's cache */
	n = procscan_one(f->root, pid, h->ts, f->buf, REC_CAP);
	if (n != (long)len || memcmp(f->buf, h, len) != 0)
		fail_msg("pid %u: procscan_one's record differs from the seed's", pid);
}

static struct tree_seen *tree_scan(struct fx *f, uint32_t max_known, int expect)
{
	struct tree_seen *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	assert_int_equal(procscan_all_max(f->root, tree_cb, t, max_known), expect);
	assert_int_equal(t->n, expect);
	return t;
}

#define TREE_SHALLOW_N 20 /* processes tree_build makes without the deep chain (209 fails) */

/* Every cache size: none, a few entries (full early), the whole tree. */
static void test_seed_matches_reference(void **state)
{
	static const uint32_t sizes[] = { 0, 1, 2, 5, 13, 32768 };
	struct fx *f = *state;

	tree_build(f, 0);
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		struct tree_seen *t = tree_scan(f, sizes[s], TREE_SHALLOW_N);

		for (int i = 0; i < t->n; i++)
			tree_same(f, t, t->pid[i]);
		tree_free(t);
	}
}

static const struct as_lineage *tree_lin(const struct tree_seen *t, uint32_t pid)
{
	size_t len;

	return &((const struct as_exec *)tree_find(t, pid, &len))->lin;
}

/* What the lineages must be, written out (not only "as the reference"). */
static void test_seed_lineages(void **state)
{
	struct fx *f = *state;
	struct tree_seen *t;
	const struct as_lineage *l;
	const struct as_exec *x;
	size_t len;

	tree_build(f, 0);
	t = tree_scan(f, 32768, TREE_SHALLOW_N);
	/* 104: itself, 103, 102, 101 (claude, named), 100, 1 */
	l = tree_lin(t, 104);
	assert_int_equal(l->n, 6);
	assert_int_equal(l->flags, AS_LIN_PROC);
	assert_int_equal(l->e[0].pid, 104);
	assert_string_equal(l->e[0].comm, "a) b (c");
	assert_string_equal(l->e[1].comm, "my (odd) comm");
	assert_int_equal(l->e[3].pid, 101);
	assert_int_equal(l->e[5].pid, 1);
	assert_int_equal(l->named, 1u << 3 | 1u << 2); /* claude and node */
	assert_int_equal(l->e[0].start_ns, (1000 + 104) * 10000000ull);
	assert_true(l->e[0].ino != 0);
	assert_int_equal(l->forked, 0);
	/* 105 has no exe: no dev, no ino */
	l = tree_lin(t, 105);
	assert_int_equal(l->e[0].ino, 0);
	assert_int_equal(l->e[0].dev, 0);
	/* the vanished parent, the parent that is not a stat line: the process alone */
	l = tree_lin(t, 200);
	assert_int_equal(l->n, 1);
	assert_int_equal(l->e[0].pid, 200);
	l = tree_lin(t, 210);
	assert_int_equal(l->n, 1);
	/* a cycle: 300, 301, 302, 300, ... 1024 hops; 301 is a claude, named, so
	 * its copies stay and the others give way: 300 and then only 301s */
	l = tree_lin(t, 300);
	assert_int_equal(l->n, AS_LINEAGE_MAX);
	assert_int_equal(l->flags, AS_LIN_PROC | AS_LIN_TRUNC);
	assert_int_equal(l->e[0].pid, 300);
	for (int i = 1; i < AS_LINEAGE_MAX; i++)
		assert_int_equal(l->e[i].pid, 301);
	assert_int_equal(l->named, 0xfffe);
	l = tree_lin(t, 302); /* 300, pushed before it, gave way to it */
	assert_int_equal(l->e[0].pid, 302);
	assert_int_equal(l->e[1].pid, 301);
	assert_int_equal(l->named, 0xfffe);
	l = tree_lin(t, 310);
	assert_int_equal(l->n, AS_LINEAGE_MAX);
	assert_int_equal(l->flags, AS_LIN_PROC | AS_LIN_TRUNC);
	assert_int_equal(l->e[AS_LINEAGE_MAX - 1].pid, 310);
	assert_int_equal(l->named, 0);
	/* the child listed before its parent */
	l = tree_lin(t, 451);
	assert_int_equal(l->n, 4);
	assert_int_equal(l->e[1].pid, 400);
	assert_int_equal(l->e[2].pid, 450);
	assert_int_equal(l->e[3].pid, 1);
	/* a kernel thread: no exe, no command line, loginuid unset */
	x = tree_find(t, 3, &len);
	assert_int_equal(x->lin.n, 2);
	assert_int_equal(x->lin.e[1].pid, 2);
	assert_int_equal(x->lin.e[0].ino, 0);
	assert_int_equal(x->hdr.loginuid, AS_ID_UNSET);
	assert_int_equal(x->hdr.uid, 0);
	assert_int_equal(x->args_len, 0);
	assert_int_equal(x->exe_len, 1);
	assert_false(x->hdr.flags & AS_HF_SESSION);
	tree_free(t);
}

/* The deep chain: walks cut at PROCSCAN_CHAIN_MAX entries as the reference cuts them. */
static void test_seed_deep_chain(void **state)
{
	static const uint32_t at[] = { 0, 1, 2, 14, 15, 16, 17, 99, 100, 101, 500, 1021, 1022,
				       1023, 1024, 1025, 1099 };
	struct fx *f = *state;
	struct tree_seen *t;
	const struct as_lineage *l;

	tree_build(f, 1);
	t = tree_scan(f, 32768, TREE_SHALLOW_N + 2 * TREE_DEEP_LEN);
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++)
		tree_same(f, t, TREE_DEEP_FIRST + at[i]);
	for (uint32_t i = 1016; i < 1044; i++)
		tree_same(f, t, TREE_OLD_FIRST + i);
	for (uint32_t i = 1090; i < TREE_DEEP_LEN; i++)
		tree_same(f, t, TREE_OLD_FIRST + i);
	/* the nodes (1000, 1100, ... 2000, named) stay at the old end, the
	 * newest five or six processes in front. 1000 + 1022: 1024 entries down to
	 * init, the whole chain; + 1023: cut before init; + 1024: before 1000 too */
	l = tree_lin(t, TREE_DEEP_FIRST + 1022);
	assert_int_equal(l->n, AS_LINEAGE_MAX);
	assert_int_equal(l->flags, AS_LIN_PROC | AS_LIN_TRUNC);
	assert_int_equal(l->e[0].pid, TREE_DEEP_FIRST + 1022);
	assert_int_equal(l->e[4].pid, TREE_DEEP_FIRST + 1018);
	assert_int_equal(l->e[5].pid, TREE_DEEP_FIRST + 1000);
	assert_int_equal(l->e[AS_LINEAGE_MAX - 1].pid, TREE_DEEP_FIRST);
	assert_int_equal(l->named, 0xffe0);
	l = tree_lin(t, TREE_DEEP_FIRST + 1023);
	assert_int_equal(l->e[AS_LINEAGE_MAX - 1].pid, TREE_DEEP_FIRST);
	l = tree_lin(t, TREE_DEEP_FIRST + 1024);
	assert_int_equal(l->e[AS_LINEAGE_MAX - 1].pid, TREE_DEEP_FIRST + 100);
	assert_int_equal(l->e[6].pid, TREE_DEEP_FIRST + 1000);
	assert_int_equal(l->e[5].pid, TREE_DEEP_FIRST + 1019);
	assert_int_equal(l->named, 0xffc0);
	/* 1000 + 21: 23 entries down to init, nothing cut but the oldest unnamed */
	l = tree_lin(t, TREE_DEEP_FIRST + 21);
	assert_int_equal(l->e[AS_LINEAGE_MAX - 1].pid, TREE_DEEP_FIRST);
	assert_int_equal(l->e[AS_LINEAGE_MAX - 2].pid, TREE_DEEP_FIRST + 7);
	tree_free(t);
}

/* Each stat is opened at most twice in a scan (its own record, and once as an
 * ancestor when a descendant came first), however deep the tree. */
static void test_seed_reads_once(void **state)
{
	static const uint32_t watch[] = { 1, 100, 101, 102, 103, 104, 450 };
	struct fx *f = *state;
	int in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC), wd[7], opens[7] = { 0 }, ref_root = 0;
	char buf[64 * 1024], p[512];
	struct tree_seen *t;
	ssize_t n;

	assert_true(in >= 0);
	tree_build(f, 0);
	for (int i = 0; i < 7; i++) {
		snprintf(p, sizeof(p), "%s/%u/stat", f->root, watch[i]);
		wd[i] = inotify_add_watch(in, p, IN_OPEN);
		assert_true(wd[i] >= 0);
	}
	t = tree_scan(f, 32768, TREE_SHALLOW_N);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		for (char *e = buf; e < buf + n; e += sizeof(struct inotify_event) +
						      ((struct inotify_event *)e)->len)
			for (int i = 0; i < 7; i++)
				opens[i] += ((struct inotify_event *)e)->wd == wd[i];
	for (int i = 0; i < 7; i++)
		if (opens[i] < 1 || opens[i] > 2)
			fail_msg("%u/stat opened %d times in one scan", watch[i], opens[i]);
	tree_free(t);
	/* the test can fail: the reference reads init's stat once per descendant */
	t = calloc(1, sizeof(*t));
	assert_non_null(t);
	assert_int_equal(ref_procscan_all(f->root, tree_cb, t), TREE_SHALLOW_N);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		for (char *e = buf; e < buf + n; e += sizeof(struct inotify_event) +
						      ((struct inotify_event *)e)->len)
			ref_root += ((struct inotify_event *)e)->wd == wd[0];
	if (ref_root <= 2) /* 10 descendants, events in a row merged */
		fail_msg("the reference opened 1/stat only %d times", ref_root);
	tree_free(t);
	close(in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_full_process, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgroups_text, setup, teardown),
		cmocka_unit_test_setup_teardown(test_comm_variants, setup, teardown),
		cmocka_unit_test_setup_teardown(test_session_variants, setup, teardown),
		cmocka_unit_test_setup_teardown(test_loader_variables, setup, teardown),
		cmocka_unit_test_setup_teardown(test_minimal_process, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_cmdline, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_into_proctable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_scan_all, setup, teardown),
		cmocka_unit_test_setup_teardown(test_seed_matches_reference, setup, teardown),
		cmocka_unit_test_setup_teardown(test_seed_lineages, setup, teardown),
		cmocka_unit_test_setup_teardown(test_seed_deep_chain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_seed_reads_once, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
