// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* procscan: AS_EV_PROC records built from a fake /proc tree. */
#include <sys/stat.h>
#include "testutil.h"
#include "procscan.h"
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_full_process, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgroups_text, setup, teardown),
		cmocka_unit_test_setup_teardown(test_comm_variants, setup, teardown),
		cmocka_unit_test_setup_teardown(test_session_variants, setup, teardown),
		cmocka_unit_test_setup_teardown(test_minimal_process, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_cmdline, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_into_proctable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_scan_all, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
