// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* proctable: exec/fork/exit bookkeeping, hashing, bounds, cgroups and containers. */
#include "testutil.h"
#include "agentid.h"
#include "proctable.h"

#define HEX64 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

static struct event *g_ev;

static int setup(void **state)
{
	(void)state;
	g_ev = calloc(1, sizeof(*g_ev));
	return g_ev ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(g_ev);
	return 0;
}

/* Decode rec and hand it to proctable_apply; the record is freed afterwards. */
static int apply_rec(struct proctable *pt, void *rec, size_t len)
{
	int rc;

	tu_decode_ok(rec, len, g_ev);
	rc = proctable_apply(pt, g_ev);
	proctable_retire(pt, g_ev);
	free(rec);
	return rc;
}

struct exec_args {
	uint32_t pid, ppid;
	int64_t res;
	const char *comm;
	struct piece args, exe, cwd, cg; /* component lists leaf first (plain for proc) */
	const char *session; /* NULL: no AS_HF_SESSION */
	unsigned type;
	uint64_t cgroup_id;
};

static int do_exec(struct proctable *pt, const struct exec_args *a)
{
	struct as_exec x;
	size_t len;
	void *rec;

	memset(&x, 0, sizeof(x));
	tu_hdr(&x.hdr, a->type ? a->type : AS_EV_EXEC,
	       a->type == AS_EV_PROC ? AS_SC_NONE : AS_SC_EXECVE, a->pid);
	x.hdr.ppid = a->ppid;
	x.hdr.cgroup_id = a->cgroup_id ? a->cgroup_id : 4242;
	if (a->comm)
		snprintf(x.hdr.comm, sizeof(x.hdr.comm), "%s", a->comm);
	if (a->session) {
		snprintf(x.hdr.session, sizeof(x.hdr.session), "%s", a->session);
		x.hdr.flags |= AS_HF_SESSION;
	}
	x.res = a->res;
	if (a->type == AS_EV_PROC)
		x.pflags = AS_XF_PLAIN;
	rec = tu_exec(&x, a->type == AS_EV_PROC ? PC("\0") : PC("/f\0"), a->args, a->exe, a->cwd,
		      a->cg, &len);
	return apply_rec(pt, rec, len);
}

static int do_fork(struct proctable *pt, uint32_t parent, uint32_t child, const char *session)
{
	struct as_fork f;
	size_t len;
	void *rec;

	memset(&f, 0, sizeof(f));
	tu_hdr(&f.hdr, AS_EV_FORK, AS_SC_CLONE, parent);
	strcpy(f.hdr.comm, "forker");
	if (session) {
		snprintf(f.hdr.session, sizeof(f.hdr.session), "%s", session);
		f.hdr.flags |= AS_HF_SESSION;
	}
	f.hdr.ts = TU_TS + 1000;
	f.child_pid = f.child_tid = child;
	rec = tu_fixed(&f, sizeof(f), &len);
	return apply_rec(pt, rec, len);
}

static void do_exit(struct proctable *pt, uint32_t pid)
{
	struct as_exit e;
	size_t len;
	void *rec;

	memset(&e, 0, sizeof(e));
	tu_hdr(&e.hdr, AS_EV_EXIT, AS_SC_PROCEXIT, pid);
	rec = tu_fixed(&e, sizeof(e), &len);
	assert_int_equal(apply_rec(pt, rec, len), 0);
}

static void test_exec_inserts(void **state)
{
	struct proctable *pt = proctable_new(64);
	const struct proc_entry *e;
	struct exec_args a = {
		.pid = 200,
		.ppid = 100,
		.comm = "python3",
		.args = PC("python3\0x.py\0--v\0"),
		.exe = PC("python3\0bin\0usr\0"),
		.cwd = PC("srv\0"),
		.cg = PC("s.scope\0user.slice\0"),
		.cgroup_id = 777,
	};

	(void)state;
	assert_non_null(pt);
	assert_null(proctable_lookup(pt, 200));
	assert_int_equal(do_exec(pt, &a), 0);
	assert_int_equal(proctable_count(pt), 1);
	e = proctable_lookup(pt, 200);
	assert_non_null(e);
	assert_int_equal(e->pid, 200);
	assert_int_equal(e->ppid, 100);
	assert_int_equal(e->cgroup_id, 777);
	assert_int_equal(e->start_ts, TU_TS);
	assert_string_equal(e->comm, "python3");
	assert_string_equal(e->exe, "/usr/bin/python3");
	assert_int_equal(e->args_len, 17);
	assert_memory_equal(e->args, "python3\0x.py\0--v\0", 17);
	assert_int_equal(e->args[17], 0); /* terminated past args_len */
	assert_string_equal(e->cwd, "/srv");
	assert_string_equal(e->cgroup, "/user.slice/s.scope");
	assert_string_equal(e->cgroups, "unified=/user.slice/s.scope");
	assert_string_equal(e->container_id, "host");
	assert_string_equal(e->session, "");
	assert_null(proctable_lookup(pt, 100));
	assert_null(proctable_lookup(pt, 0));

	/* a second exec replaces every string */
	a.comm = "node";
	a.args = PC("node\0");
	a.exe = PC("node\0bin\0");
	a.cwd = PC_NONE;
	a.cg = PC_NONE;
	assert_int_equal(do_exec(pt, &a), 0);
	assert_int_equal(proctable_count(pt), 1);
	e = proctable_lookup(pt, 200);
	assert_string_equal(e->comm, "node");
	assert_string_equal(e->exe, "/bin/node");
	assert_int_equal(e->args_len, 5);
	assert_string_equal(e->cwd, "/");
	assert_string_equal(e->cgroup, "/");
	assert_string_equal(e->cgroups, "unified=/");
	proctable_free(pt);
}

static void test_failed_exec_changes_nothing(void **state)
{
	struct proctable *pt = proctable_new(64);
	const struct proc_entry *e;
	struct exec_args a = {
		.pid = 300, .ppid = 1, .comm = "sh", .args = PC("sh\0"),
		.exe = PC("sh\0bin\0"), .cwd = PC("tmp\0"), .cg = PC("a\0"),
	};

	(void)state;
	assert_int_equal(do_exec(pt, &a), 0);
	a.res = -EACCES;
	a.comm = "evil";
	a.args = PC("evil\0");
	a.exe = PC("evil\0tmp\0");
	a.session = "s-new";
	assert_int_equal(do_exec(pt, &a), 0);
	e = proctable_lookup(pt, 300);
	assert_string_equal(e->comm, "sh");
	assert_string_equal(e->exe, "/bin/sh");
	assert_memory_equal(e->args, "sh\0", 3);
	assert_string_equal(e->cgroup, "/a");
	assert_string_equal(e->session, "");
	/* a failed exec of an unknown pid inserts nothing */
	a.pid = 301;
	assert_int_equal(do_exec(pt, &a), 0);
	assert_null(proctable_lookup(pt, 301));
	assert_int_equal(proctable_count(pt), 1);
	proctable_free(pt);
}

static void test_fork_copies_parent(void **state)
{
	struct proctable *pt = proctable_new(64);
	const struct proc_entry *p, *c;
	struct exec_args a = {
		.pid = 400,
		.ppid = 1,
		.comm = "agent",
		.args = PC("agent\0--run\0"),
		.exe = PC("agent\0bin\0opt\0"),
		.cwd = PC("work\0"),
		.cg = PC("docker-" HEX64 ".scope\0system.slice\0"),
		.session = "sess-1",
		.cgroup_id = 99,
	};

	(void)state;
	assert_int_equal(do_exec(pt, &a), 0);
	assert_int_equal(do_fork(pt, 400, 401, NULL), 0);
	assert_int_equal(proctable_count(pt), 2);
	p = proctable_lookup(pt, 400);
	c = proctable_lookup(pt, 401);
	assert_non_null(p);
	assert_non_null(c);
	assert_int_equal(c->pid, 401);
	assert_int_equal(c->ppid, 400);
	assert_int_equal(c->cgroup_id, 99);
	assert_int_equal(c->start_ts, TU_TS + 1000);
	assert_string_equal(c->comm, "agent");
	assert_string_equal(c->exe, "/opt/bin/agent");
	assert_int_equal(c->args_len, 12);
	assert_memory_equal(c->args, "agent\0--run\0", 12);
	assert_string_equal(c->cwd, "/work");
	assert_string_equal(c->cgroup, "/system.slice/docker-" HEX64 ".scope");
	assert_string_equal(c->cgroups, p->cgroups);
	assert_string_equal(c->container_id, "0123456789ab");
	assert_string_equal(p->container_id, "0123456789ab");
	assert_string_equal(c->session, "sess-1");
	/* the child owns its own copy */
	assert_ptr_not_equal(c->exe, p->exe);
	assert_ptr_not_equal(c->cgroups, p->cgroups);

	/* the parent exits: the child keeps everything (ASan checks the memory) */
	do_exit(pt, 400);
	assert_null(proctable_lookup(pt, 400));
	c = proctable_lookup(pt, 401);
	assert_non_null(c);
	assert_string_equal(c->exe, "/opt/bin/agent");
	assert_string_equal(c->cgroups, "unified=/system.slice/docker-" HEX64 ".scope");
	/* a grandchild of the exited parent's child */
	assert_int_equal(do_fork(pt, 401, 402, NULL), 0);
	assert_string_equal(proctable_lookup(pt, 402)->session, "sess-1");
	assert_int_equal(proctable_lookup(pt, 402)->ppid, 401);
	do_exit(pt, 401);
	do_exit(pt, 402);
	assert_int_equal(proctable_count(pt), 0);
	proctable_free(pt);
}

/* The nearest agent of a lineage is worked out when the table sets it, and
 * is stale (fields_lineage.c looks again) once the agent set changes or
 * agents are pinned by executable. */
static void test_lineage_agent(void **state)
{
	struct proctable *pt = proctable_new(64);
	const struct proc_entry *e, *c;
	char name[] = "bash", path[] = "/nonexistent/claude";
	char *names[] = { name }, *paths[] = { path };
	struct as_exec x;
	size_t len;
	void *rec;
	uint32_t gen;

	(void)state;
	agentid_free(); /* the default names */
	memset(&x, 0, sizeof(x));
	tu_hdr(&x.hdr, AS_EV_EXEC, AS_SC_EXECVE, 500);
	strcpy(x.hdr.comm, "bash");
	x.lin.n = 3;
	strcpy(x.lin.e[0].comm, "bash");
	strcpy(x.lin.e[1].comm, "zsh");
	strcpy(x.lin.e[2].comm, "claude");
	rec = tu_exec(&x, PC("/f\0"), PC("bash\0"), PC("bash\0bin\0"), PC("\0"), PC("\0"), &len);
	assert_int_equal(apply_rec(pt, rec, len), 0);
	e = proctable_lookup(pt, 500);
	assert_non_null(e);
	assert_non_null(e->lin);
	assert_int_equal(e->lin_agent, 2);
	assert_int_equal(e->lin_agent_gen, agentid_generation());
	assert_int_equal(agentid_nearest_by_name(e->lin), 2);
	/* a fork's derived lineage gets its own answer */
	assert_int_equal(do_fork(pt, 500, 501, NULL), 0);
	c = proctable_lookup(pt, 501);
	assert_non_null(c);
	assert_int_equal(c->lin_agent_gen, agentid_generation());
	assert_int_equal(c->lin_agent, agentid_nearest_by_name(c->lin));
	assert_true(c->lin_agent >= 0);
	/* a new agent set: what the table worked out is stale */
	gen = agentid_generation();
	assert_int_equal(agentid_set(names, 1, NULL, 0), 0);
	assert_int_not_equal(agentid_generation(), gen);
	assert_int_not_equal(e->lin_agent_gen, agentid_generation());
	assert_int_equal(agentid_nearest_by_name(e->lin), 0);
	/* pinned by executable: nothing is worked out by name */
	assert_int_equal(agentid_set(NULL, 0, paths, 1), 0);
	assert_int_equal(do_fork(pt, 500, 502, NULL), 0);
	assert_int_equal(proctable_lookup(pt, 502)->lin_agent_gen, 0);
	agentid_free();
	proctable_free(pt);
}

static void test_fork_of_unknown_parent(void **state)
{
	struct proctable *pt = proctable_new(64);
	const struct proc_entry *c;

	(void)state;
	assert_int_equal(do_fork(pt, 500, 501, "sess-h"), 0);
	c = proctable_lookup(pt, 501);
	assert_non_null(c);
	assert_null(proctable_lookup(pt, 500));
	assert_int_equal(c->ppid, 500);
	assert_string_equal(c->comm, "forker"); /* from the event header */
	assert_string_equal(c->session, "sess-h");
	assert_null(c->exe); /* nothing known: trace prints null */
	assert_int_equal(proctable_count(pt), 1);
	proctable_free(pt);
}

static void test_session_inherited_on_exec(void **state)
{
	struct proctable *pt = proctable_new(64);
	struct exec_args a = {
		.pid = 600, .ppid = 1, .comm = "claude", .args = PC("claude\0"),
		.exe = PC("claude\0"), .cwd = PC_NONE, .cg = PC_NONE, .session = "S-600",
	};

	(void)state;
	assert_int_equal(do_exec(pt, &a), 0);
	/* a child seen only at its exec (fork missed) inherits the parent's session */
	a.pid = 601;
	a.ppid = 600;
	a.session = NULL;
	a.comm = "git";
	assert_int_equal(do_exec(pt, &a), 0);
	assert_string_equal(proctable_lookup(pt, 601)->session, "S-600");
	/* an exec with its own session id takes it */
	a.pid = 602;
	a.session = "S-602";
	assert_int_equal(do_exec(pt, &a), 0);
	assert_string_equal(proctable_lookup(pt, 602)->session, "S-602");
	/* re-exec without session flag keeps the session it has */
	a.session = NULL;
	a.ppid = 1;
	assert_int_equal(do_exec(pt, &a), 0);
	assert_string_equal(proctable_lookup(pt, 602)->session, "S-602");
	/* no session anywhere */
	a.pid = 603;
	a.ppid = 999;
	assert_int_equal(do_exec(pt, &a), 0);
	assert_string_equal(proctable_lookup(pt, 603)->session, "");
	proctable_free(pt);
}

/* proctable_applies / proctable_retires name exactly the types that change
 * the table: an event of any other type, applied and retired, leaves it as
 * it was (the pipeline skips those calls). */
static void test_which_types_change_the_table(void **state)
{
	struct proctable *pt = proctable_new(64);
	struct exec_args a = {
		.pid = 900, .ppid = 1, .args = PC("x\0"), .exe = PC("x\0"),
		.cwd = PC_NONE, .cg = PC_NONE,
	};
	struct as_open o;
	struct as_connect cn;
	struct as_setid si;
	struct as_capset cp;
	size_t len;
	void *rec;

	(void)state;
	assert_true(proctable_applies(AS_EV_EXEC));
	assert_true(proctable_applies(AS_EV_PROC));
	assert_true(proctable_applies(AS_EV_FORK));
	assert_true(proctable_applies(AS_EV_SYS)); /* chdir, fchdir */
	assert_true(proctable_retires(AS_EV_EXIT));
	for (unsigned t = 0; t < AS_EV_MAX; t++) {
		if (t != AS_EV_EXEC && t != AS_EV_PROC && t != AS_EV_FORK && t != AS_EV_SYS)
			assert_false(proctable_applies(t));
		if (t != AS_EV_EXIT)
			assert_false(proctable_retires(t));
	}
	assert_int_equal(do_exec(pt, &a), 0);
	memset(&o, 0, sizeof(o));
	tu_hdr(&o.hdr, AS_EV_OPEN, AS_SC_OPENAT, 900);
	o.pflags = AS_OF_RESOLVED;
	rec = tu_open(&o, PC("f\0"), PC_NONE, &len);
	assert_int_equal(apply_rec(pt, rec, len), 0);
	memset(&cn, 0, sizeof(cn));
	tu_hdr(&cn.hdr, AS_EV_CONNECT, AS_SC_CONNECT, 900);
	rec = tu_fixed(&cn, sizeof(cn), &len);
	assert_int_equal(apply_rec(pt, rec, len), 0);
	memset(&si, 0, sizeof(si));
	tu_hdr(&si.hdr, AS_EV_SETID, AS_SC_SETUID, 900);
	rec = tu_fixed(&si, sizeof(si), &len);
	assert_int_equal(apply_rec(pt, rec, len), 0);
	memset(&cp, 0, sizeof(cp));
	tu_hdr(&cp.hdr, AS_EV_CAPSET, AS_SC_CAPSET, 900);
	rec = tu_fixed(&cp, sizeof(cp), &len);
	assert_int_equal(apply_rec(pt, rec, len), 0);
	assert_int_equal(proctable_count(pt), 1);
	assert_non_null(proctable_lookup(pt, 900));
	proctable_free(pt);
}

static void test_exit_frees(void **state)
{
	struct proctable *pt = proctable_new(64);
	struct exec_args a = {
		.pid = 700, .ppid = 1, .args = PC("x\0"), .exe = PC("x\0"),
		.cwd = PC_NONE, .cg = PC_NONE,
	};
	struct as_exit ex;
	struct as_fork fk;
	size_t len;
	void *rec;

	(void)state;
	assert_int_equal(do_exec(pt, &a), 0);
	/* retire ignores everything but exit */
	memset(&fk, 0, sizeof(fk));
	tu_hdr(&fk.hdr, AS_EV_FORK, AS_SC_CLONE, 700);
	fk.child_pid = 800;
	rec = tu_fixed(&fk, sizeof(fk), &len);
	tu_decode_ok(rec, len, g_ev);
	proctable_retire(pt, g_ev);
	assert_non_null(proctable_lookup(pt, 700));
	free(rec);
	/* apply ignores exit: the entry lives while its exit event is evaluated */
	memset(&ex, 0, sizeof(ex));
	tu_hdr(&ex.hdr, AS_EV_EXIT, AS_SC_PROCEXIT, 700);
	rec = tu_fixed(&ex, sizeof(ex), &len);
	tu_decode_ok(rec, len, g_ev);
	assert_int_equal(proctable_apply(pt, g_ev), 0);
	assert_non_null(proctable_lookup(pt, 700));
	proctable_retire(pt, g_ev);
	assert_null(proctable_lookup(pt, 700));
	assert_int_equal(proctable_count(pt), 0);
	/* exit of an unknown pid, twice */
	proctable_retire(pt, g_ev);
	do_exit(pt, 12345);
	assert_int_equal(proctable_count(pt), 0);
	free(rec);
	proctable_free(pt);
}

/* A model of the table: present[pid] and the generation each entry holds. */
#define CHURN_PIDS 200

static void churn(uint32_t max_entries, const uint32_t *pids, int npids, int iters, uint64_t seed)
{
	struct proctable *pt = proctable_new(max_entries);
	uint32_t gen[CHURN_PIDS] = { 0 };
	int present[CHURN_PIDS] = { 0 };
	uint32_t count = 0;
	uint64_t refused = 0;

	assert_true(npids <= CHURN_PIDS);
	for (int it = 0; it < iters; it++) {
		int k = (int)(tu_rand(&seed) % (uint64_t)npids);
		uint32_t pid = pids[k];

		if (tu_rand(&seed) % 2) {
			/* exec: ppid carries a generation number we can check later */
			struct exec_args a = {
				.pid = pid, .ppid = 1000000 + (uint32_t)it, .args = PC("a\0"),
				.exe = PC("e\0"), .cwd = PC_NONE, .cg = PC_NONE,
			};
			int rc = do_exec(pt, &a);

			if (!present[k] && count == max_entries) {
				assert_int_equal(rc, -ENOSPC);
				refused++;
			} else {
				assert_int_equal(rc, 0);
				if (!present[k])
					count++;
				present[k] = 1;
				gen[k] = 1000000 + (uint32_t)it;
			}
		} else {
			do_exit(pt, pid);
			if (present[k])
				count--;
			present[k] = 0;
		}
		assert_int_equal(proctable_count(pt), count);
		assert_int_equal(proctable_untracked(pt), refused);
		/* every remaining entry findable with its data, no removed one */
		for (int j = 0; j < npids; j++) {
			const struct proc_entry *e = proctable_lookup(pt, pids[j]);

			if (present[j]) {
				if (!e)
					fail_msg("iteration %d: pid %u lost", it, pids[j]);
				assert_int_equal(e->pid, pids[j]);
				assert_int_equal(e->ppid, gen[j]);
				assert_string_equal(e->exe, "/e");
			} else if (e) {
				fail_msg("iteration %d: pid %u still found", it, pids[j]);
			}
		}
	}
	proctable_free(pt);
}

static void test_churn_small_table(void **state)
{
	uint32_t pids[64];

	(void)state;
	/* 8 entries in 16 slots, 64 candidate pids: heavy collisions, wrap-around,
	 * a full table */
	for (int i = 0; i < 64; i++)
		pids[i] = (uint32_t)i + 1;
	churn(8, pids, 64, 20000, 1);
}

static void test_churn_colliding_pids(void **state)
{
	uint32_t pids[CHURN_PIDS];

	(void)state;
	/* pid * odd constant mod 2^k only depends on pid mod 2^k: pids 128 apart
	 * share a home slot in any table of at most 128 slots */
	for (int i = 0; i < 100; i++)
		pids[i] = 7 + 128u * (uint32_t)i;
	/* and a second cluster right behind it */
	for (int i = 0; i < 100; i++)
		pids[100 + i] = 8 + 128u * (uint32_t)i;
	churn(64, pids, CHURN_PIDS, 20000, 2);
	/* large pids too */
	for (int i = 0; i < CHURN_PIDS; i++)
		pids[i] = 4194304u - 1 - 256u * (uint32_t)i;
	churn(100, pids, CHURN_PIDS, 10000, 3);
}

/* The table starts small and doubles when half full: entries survive every
 * rehash, removals and re-inserts keep working across sizes. */
#define GROW_PIDS 3000

static void test_grows_and_keeps_entries(void **state)
{
	struct proctable *pt = proctable_new(10000);

	(void)state;
	for (uint32_t i = 0; i < GROW_PIDS; i++) {
		struct exec_args a = {
			.pid = 100 + 7 * i, .ppid = i, .args = PC("a\0"),
			.exe = PC("e\0"), .cwd = PC_NONE, .cg = PC_NONE,
		};

		assert_int_equal(do_exec(pt, &a), 0);
	}
	assert_int_equal(proctable_count(pt), GROW_PIDS);
	for (uint32_t i = 0; i < GROW_PIDS; i++) {
		const struct proc_entry *e = proctable_lookup(pt, 100 + 7 * i);

		if (!e || e->ppid != i)
			fail_msg("pid %u lost or wrong after growing", 100 + 7 * i);
		assert_string_equal(e->exe, "/e");
	}
	for (uint32_t i = 0; i < GROW_PIDS; i += 2)
		do_exit(pt, 100 + 7 * i);
	assert_int_equal(proctable_count(pt), GROW_PIDS / 2);
	for (uint32_t i = 0; i < GROW_PIDS; i++)
		assert_true(!proctable_lookup(pt, 100 + 7 * i) == !(i % 2));
	assert_int_equal(proctable_untracked(pt), 0);
	proctable_free(pt);
}

static void test_max_entries_bound(void **state)
{
	struct proctable *pt = proctable_new(4);
	struct exec_args a = {
		.ppid = 1, .args = PC("a\0"), .exe = PC("e\0"), .cwd = PC_NONE, .cg = PC_NONE,
	};

	(void)state;
	for (uint32_t pid = 10; pid < 14; pid++) {
		a.pid = pid;
		assert_int_equal(do_exec(pt, &a), 0);
	}
	assert_int_equal(proctable_count(pt), 4);
	assert_int_equal(proctable_untracked(pt), 0);
	a.pid = 14;
	assert_int_equal(do_exec(pt, &a), -ENOSPC);
	assert_null(proctable_lookup(pt, 14));
	assert_int_equal(proctable_untracked(pt), 1);
	/* proc snapshots and forks are refused the same way */
	a.pid = 15;
	a.type = AS_EV_PROC;
	a.exe = PC("/e\0");
	a.cwd = PC("/\0");
	a.cg = PC("unified=/\0");
	assert_int_equal(do_exec(pt, &a), -ENOSPC);
	assert_int_equal(do_fork(pt, 10, 16, NULL), -ENOSPC);
	assert_null(proctable_lookup(pt, 16));
	assert_int_equal(proctable_untracked(pt), 3);
	assert_int_equal(proctable_count(pt), 4);
	/* a known pid is still updated */
	a.pid = 12;
	assert_int_equal(do_exec(pt, &a), 0);
	assert_int_equal(proctable_untracked(pt), 3);
	/* room again after an exit */
	do_exit(pt, 10);
	assert_int_equal(do_fork(pt, 11, 16, NULL), 0);
	assert_non_null(proctable_lookup(pt, 16));
	assert_int_equal(proctable_count(pt), 4);
	proctable_free(pt);

	/* 0 means the default bound; free(NULL) is harmless */
	pt = proctable_new(0);
	assert_non_null(pt);
	a.pid = 1;
	assert_int_equal(do_exec(pt, &a), 0);
	assert_int_equal(proctable_count(pt), 1);
	proctable_free(pt);
	proctable_free(NULL);
}

struct cid_case {
	const char *in, *out;
};

static void test_container_id(void **state)
{
	static const struct cid_case cases[] = {
		{ "unified=/docker/" HEX64, "0123456789ab" },
		{ "cpu=/docker/" HEX64 " unified=/", "0123456789ab" },
		{ "unified=/system.slice/docker-" HEX64 ".scope", "0123456789ab" },
		{ "unified=/kubepods/besteffort/pod0b1c2d3e-aaaa-bbbb-cccc-0123456789ab/"
		  "cri-containerd-" HEX64 ".scope",
		  "0123456789ab" },
		{ "unified=/kubepods.slice/kubepods-burstable.slice/"
		  "kubepods-burstable-pod0b1c2d3e_aaaa_bbbb_cccc_0123456789ab.slice/crio-" HEX64
		  ".scope",
		  "0123456789ab" },
		{ "unified=/machine.slice/libpod-fedcba9876543210fedcba9876543210fedcba9876543210"
		  "fedcba9876543210.scope",
		  "fedcba987654" },
		/* 63 and 65 hex digits are no id */
		{ "unified=/docker/"
		  "123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
		  "host" },
		{ "unified=/docker/" HEX64 "a", "host" },
		{ "unified=/docker/a" HEX64 "/x", "host" },
		{ "unified=/user.slice/user-1000.slice/session-2.scope", "host" },
		{ "unified=/", "host" },
		{ "", "host" },
	};
	char out[PROCTABLE_CONTAINER_ID_LEN + 1];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(out, 'Z', sizeof(out));
		proctable_container_id(cases[i].in, out);
		if (strcmp(out, cases[i].out) != 0)
			fail_msg("container id of \"%s\": \"%s\", want \"%s\"", cases[i].in, out,
				 cases[i].out);
	}
	proctable_container_id(NULL, out);
	assert_string_equal(out, "host");
	/* 64 hex digits at the very start and at the very end */
	proctable_container_id(HEX64, out);
	assert_string_equal(out, "0123456789ab");
	proctable_container_id("x" HEX64, out);
	assert_string_equal(out, "0123456789ab");
}

static void test_cgroups_v1_across_exec(void **state)
{
	struct proctable *pt = proctable_new(64);
	const struct proc_entry *e;
	struct exec_args snap = {
		.type = AS_EV_PROC, .pid = 900, .ppid = 1, .comm = "sshd",
		.args = PC("sshd\0-D\0"), .exe = PC("/usr/sbin/sshd\0"), .cwd = PC("/\0"),
		.cg = PC("cpu=/ memory=/x unified=/y\0"), .session = "S9",
	};
	struct exec_args a = {
		.pid = 900, .ppid = 1, .comm = "bash", .args = PC("bash\0"),
		.exe = PC("bash\0bin\0"), .cwd = PC("root\0"), .cg = PC("z\0"),
	};

	(void)state;
	assert_int_equal(do_exec(pt, &snap), 0);
	e = proctable_lookup(pt, 900);
	assert_string_equal(e->cgroup, "/y");
	assert_string_equal(e->cgroups, "cpu=/ memory=/x unified=/y");
	assert_string_equal(e->exe, "/usr/sbin/sshd");
	assert_string_equal(e->cwd, "/");
	assert_string_equal(e->session, "S9");
	assert_string_equal(e->comm, "sshd");
	assert_int_equal(e->args_len, 8);

	/* exec: v1 kept, the unified= part follows the event */
	assert_int_equal(do_exec(pt, &a), 0);
	e = proctable_lookup(pt, 900);
	assert_string_equal(e->cgroup, "/z");
	assert_string_equal(e->cgroups, "cpu=/ memory=/x unified=/z");
	assert_string_equal(e->exe, "/bin/bash");
	assert_string_equal(e->session, "S9");

	/* fork copies, then the child's exec moves its v2 path only */
	assert_int_equal(do_fork(pt, 900, 901, NULL), 0);
	assert_string_equal(proctable_lookup(pt, 901)->cgroups, "cpu=/ memory=/x unified=/z");
	a.pid = 901;
	a.ppid = 900;
	a.cg = PC("w\0z\0");
	assert_int_equal(do_exec(pt, &a), 0);
	assert_string_equal(proctable_lookup(pt, 901)->cgroups, "cpu=/ memory=/x unified=/z/w");
	assert_string_equal(proctable_lookup(pt, 901)->cgroup, "/z/w");

	/* a process first seen at exec takes its parent's v1 hierarchies */
	a.pid = 902;
	a.ppid = 900;
	a.cg = PC("q\0");
	assert_int_equal(do_exec(pt, &a), 0);
	assert_string_equal(proctable_lookup(pt, 902)->cgroups, "cpu=/ memory=/x unified=/q");
	/* ... and with no known parent only the unified one */
	a.pid = 903;
	a.ppid = 4000;
	assert_int_equal(do_exec(pt, &a), 0);
	assert_string_equal(proctable_lookup(pt, 903)->cgroups, "unified=/q");
	proctable_free(pt);
}

static void test_cgroups_v1_only_and_container(void **state)
{
	struct proctable *pt = proctable_new(64);
	const struct proc_entry *e;
	struct exec_args snap = {
		.type = AS_EV_PROC, .pid = 50, .ppid = 1, .args = PC_NONE,
		.exe = PC("\0"), .cwd = PC("\0"), .cg = PC("cpu=/docker/" HEX64 " memory=/b\0"),
	};
	struct exec_args a = {
		.pid = 50, .ppid = 1, .args = PC("x\0"), .exe = PC("x\0"), .cwd = PC_NONE,
		.cg = PC_NONE,
	};

	(void)state;
	/* a v1-only host: no unified= line, the v2 path defaults to "/" */
	assert_int_equal(do_exec(pt, &snap), 0);
	e = proctable_lookup(pt, 50);
	assert_string_equal(e->cgroup, "/");
	assert_string_equal(e->cgroups, "cpu=/docker/" HEX64 " memory=/b");
	assert_string_equal(e->container_id, "0123456789ab");
	assert_string_equal(e->exe, "");
	/* the container id survives an exec whose v2 path says nothing */
	assert_int_equal(do_exec(pt, &a), 0);
	e = proctable_lookup(pt, 50);
	assert_string_equal(e->cgroups, "cpu=/docker/" HEX64 " memory=/b unified=/");
	assert_string_equal(e->container_id, "0123456789ab");

	/* an empty cgroups text (unreadable /proc/PID/cgroup) */
	snap.pid = 51;
	snap.cg = PC("\0");
	assert_int_equal(do_exec(pt, &snap), 0);
	e = proctable_lookup(pt, 51);
	assert_string_equal(e->cgroup, "/");
	assert_string_equal(e->cgroups, "");
	assert_string_equal(e->container_id, "host");
	/* snapshots replace the whole cgroups text, v1 included */
	snap.pid = 50;
	snap.cg = PC("unified=/k\0");
	assert_int_equal(do_exec(pt, &snap), 0);
	e = proctable_lookup(pt, 50);
	assert_string_equal(e->cgroups, "unified=/k");
	assert_string_equal(e->cgroup, "/k");
	assert_string_equal(e->container_id, "host");
	proctable_free(pt);
}

/* The container hook: what enters and leaves which container. */
struct hook_log {
	char text[1024];
};

static void hook(void *ctx, const char *short_id, const char *full_id, unsigned type, int delta)
{
	struct hook_log *l = ctx;
	size_t n = strlen(l->text);

	snprintf(l->text + n, sizeof(l->text) - n, "%s%c%s/%u%s;", delta > 0 ? "+" : "-",
		 full_id ? 'F' : '_', short_id, type, "");
}

static void test_container_hook(void **state)
{
	struct proctable *pt = proctable_new(64);
	struct hook_log log = { "" };
	struct exec_args a = {
		.pid = 70, .ppid = 1, .args = PC("sh\0"), .exe = PC("sh\0bin\0"), .cwd = PC_NONE,
		.cg = PC("docker-" HEX64 ".scope\0system.slice\0"),
	};
	struct exec_args host = a;

	(void)state;
	host.cg = PC("user.slice\0");
	proctable_on_container(pt, hook, &log);
	assert_int_equal(do_exec(pt, &a), 0); /* enters: +1 with the full id (type 1, docker) */
	assert_int_equal(do_exec(pt, &a), 0); /* execs again in it: nothing */
	assert_int_equal(do_fork(pt, 70, 71, NULL), 0); /* its child: +1, no full id */
	do_exit(pt, 70);
	assert_string_equal(log.text, "+F0123456789ab/1;+_0123456789ab/1;-_0123456789ab/1;");
	log.text[0] = 0;
	host.pid = 71;
	assert_int_equal(do_exec(pt, &host), 0); /* leaves for the host: -1 */
	assert_int_equal(do_fork(pt, 71, 72, NULL), 0); /* host children: nothing */
	do_exit(pt, 72);
	do_exit(pt, 71);
	assert_string_equal(log.text, "-_0123456789ab/1;");
	/* proctable_free says nothing */
	log.text[0] = 0;
	assert_int_equal(do_exec(pt, &a), 0);
	proctable_free(pt);
	assert_string_equal(log.text, "+F0123456789ab/1;");
}

static void test_proc_snapshot_record(void **state)
{
	struct proctable *pt = proctable_new(64);
	const struct proc_entry *e;
	struct exec_args snap = {
		.type = AS_EV_PROC, .pid = 1234, .ppid = 1, .comm = "containerd-shim",
		.args = PC("containerd-shim\0-namespace\0moby\0"),
		.exe = PC("/usr/bin/containerd-shim-runc-v2\0"), .cwd = PC("/run\0"),
		.cg = PC("unified=/system.slice/containerd.service\0"), .session = "abc",
		.cgroup_id = 31,
	};

	(void)state;
	assert_int_equal(do_exec(pt, &snap), 0);
	e = proctable_lookup(pt, 1234);
	assert_non_null(e);
	assert_string_equal(e->comm, "containerd-shim");
	assert_int_equal(e->ppid, 1);
	assert_int_equal(e->cgroup_id, 31);
	assert_int_equal(e->start_ts, TU_TS);
	assert_int_equal(e->args_len, 32);
	assert_memory_equal(e->args, "containerd-shim\0-namespace\0moby\0", 32);
	assert_string_equal(e->exe, "/usr/bin/containerd-shim-runc-v2");
	assert_string_equal(e->cwd, "/run");
	assert_string_equal(e->cgroup, "/system.slice/containerd.service");
	assert_string_equal(e->cgroups, "unified=/system.slice/containerd.service");
	assert_string_equal(e->container_id, "host");
	assert_string_equal(e->session, "abc");
	/* a unified= part that is not last */
	snap.pid = 1235;
	snap.cg = PC("unified=/a/b cpu=/c\0");
	assert_int_equal(do_exec(pt, &snap), 0);
	assert_string_equal(proctable_lookup(pt, 1235)->cgroup, "/a/b");
	proctable_free(pt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exec_inserts),
		cmocka_unit_test(test_failed_exec_changes_nothing),
		cmocka_unit_test(test_fork_copies_parent),
		cmocka_unit_test(test_fork_of_unknown_parent),
		cmocka_unit_test(test_lineage_agent),
		cmocka_unit_test(test_session_inherited_on_exec),
		cmocka_unit_test(test_exit_frees),
		cmocka_unit_test(test_which_types_change_the_table),
		cmocka_unit_test(test_churn_small_table),
		cmocka_unit_test(test_churn_colliding_pids),
		cmocka_unit_test(test_grows_and_keeps_entries),
		cmocka_unit_test(test_max_entries_bound),
		cmocka_unit_test(test_container_id),
		cmocka_unit_test(test_cgroups_v1_across_exec),
		cmocka_unit_test(test_cgroups_v1_only_and_container),
		cmocka_unit_test(test_container_hook),
		cmocka_unit_test(test_proc_snapshot_record),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
