// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Every read that walks kernel pointers, as global functions the verifier
 * checks once per program: the record header (the task's ids, credentials
 * and ancestry), the pre-filter's ancestor verdict, a task's file table,
 * dentries and mounts up to the task's root, and cgroup kernfs nodes. Each
 * walk step is a bpf_loop() callback, checked once instead of once per
 * iteration: that keeps program load (and so start-up) fast.
 *
 * Loads go through untrusted typed pointers (AS_KPTR): each is a fault-safe
 * load instruction, where BPF_CORE_READ is a helper call per field. Not the
 * trusted bpf_get_current_task_btf(): every load from a trusted pointer
 * makes the verifier search the kernel's BTF by name, some 40 ms a program.
 */
#include "sentinel.bpf.h"

/*
 * A kernel pointer as a scalar (global functions take them so), typed for
 * direct loads when the kernel has bpf_rdonly_cast (Linux 6.2); before that,
 * and when the loader is told to (cfg_typed_reads = 0), every field is a
 * helper read as BPF_CORE_READ does it. The setting is read-only data, so
 * the verifier sees a constant and checks only the path taken: where the
 * kfunc is missing, the instruction the loader put in its place is never run.
 * The call is a marked helper call that the loader rewrites (AS_KFUNC_LIST,
 * bpf/events.h).
 */
static void *(*const as_rdonly_cast)(const void *obj, __u32 btf_id) =
	(void *)(AS_KFUNC_MARK + AS_KF_bpf_rdonly_cast);
const volatile __u8 cfg_typed_reads = 0;
const volatile __u8 cfg_sc_by_nr[AS_SYS_NR_MAX]; /* bpf/syscalls.h */
/* The kernel's BTF id of each struct of AS_KTYPE_LIST, set by the loader. */
const volatile __u32 cfg_ktype_id[AS_KT_MAX] = {};

#define AS_KPTR(name, p)                                                                   \
	(cfg_typed_reads ? (struct name *)as_rdonly_cast((void *)(p), cfg_ktype_id[AS_KT_##name]) \
			 : (struct name *)(p))
/* p->field, through whichever kind of pointer AS_KPTR gave */
#define AS_RD(p, field) (cfg_typed_reads ? (p)->field : BPF_CORE_READ(p, field))
/* p->a->b (BPF_CORE_READ cannot nest) */
#define AS_RD2(p, a, b) (cfg_typed_reads ? (p)->a->b : BPF_CORE_READ(p, a, b))


/* ---- the record header ----------------------------------------------- */

/* Eight bytes at p, inside a struct reached through AS_KPTR. */
static __always_inline __u64 as_rd_u64(const void *p)
{
	__u64 v = 0;

	if (cfg_typed_reads)
		return *(const __u64 *)p;
	bpf_probe_read_kernel(&v, sizeof(v), p);
	return v;
}

/* Each reads through a task pointer from AS_KPTR. */
static __always_inline __u32 as_task_vpid(struct task_struct *task)
{
	struct pid *p = AS_RD2(task, group_leader, thread_pid);
	unsigned int level = AS_RD(p, level);
	int nr = 0;

	if (level == 0) /* the initial pid namespace: a typed load */
		return AS_RD(p, numbers[0].nr);
	/* a variable index into a typed pointer is refused: a helper read */
	bpf_core_read(&nr, sizeof(nr), &p->numbers[level & 31].nr);
	return nr;
}

static __always_inline __u32 as_task_sid(struct task_struct *task)
{
	/* a CO-RE constant: the verifier knows the index, so the load is typed */
	int sid_type = bpf_core_enum_value(enum pid_type, PIDTYPE_SID) & 3;
	struct signal_struct *sig = AS_RD(task, signal);
	struct pid *p = AS_RD(sig, pids[sid_type]);

	return p ? AS_RD(p, numbers[0].nr) : 0;
}

static __always_inline __u32 as_task_tty(struct task_struct *task)
{
	struct tty_struct *tty = AS_RD2(task, signal, tty);
	struct tty_driver *drv;
	__u32 major, minor;

	if (!tty)
		return 0;
	drv = AS_RD(tty, driver);
	major = AS_RD(drv, major);
	minor = AS_RD(drv, minor_start) + AS_RD(tty, index);
	/* new_encode_dev(), the tty_nr of /proc/PID/stat */
	return (minor & 0xff) | (major << 8) | ((minor & ~0xffu) << 12);
}

/* Ancestor i's pid and comm into h; 0 when the chain ends at i. */
static __always_inline int as_anc_put(struct as_hdr *h, __u32 i, struct task_struct *p)
{
	__u32 pid = AS_RD(p, tgid);

	if (!pid)
		return 0;
	h->anc[i].pid = pid;
	/* comm is NUL-terminated within its 16 bytes (set_task_comm) */
	if (cfg_typed_reads) {
		*(__u64 *)&h->anc[i].comm[0] = *(__u64 *)&p->comm[0];
		*(__u64 *)&h->anc[i].comm[8] = *(__u64 *)&p->comm[8];
	} else {
		bpf_probe_read_kernel(h->anc[i].comm, AS_COMM_LEN, &p->comm);
	}
	h->n_anc = i + 1;
	return pid != 1;
}

__noinline int as_hdr_fill_task(struct as_hdr *h, __u32 type, __u32 sc)
{
	struct task_struct *task = AS_KPTR(task_struct, bpf_get_current_task());
	const struct cred *cred;
	__u64 id = bpf_get_current_pid_tgid();

	if (!h)
		return 0;
	/* the scratch buffer holds what earlier events left (an exec's
	 * environment among them): no stale byte may ride along in the unused
	 * ends of session, comm or the ancestor slots */
	__builtin_memset(h, 0, sizeof(*h));
	h->type = type;
	h->syscall = sc & 0xffff;
	h->ts = bpf_ktime_get_boot_ns();
	h->cgroup_id = bpf_get_current_cgroup_id();
	h->pid = id >> 32;
	h->tid = (__u32)id;
	h->vpid = as_task_vpid(task);
	h->sid = as_task_sid(task);
	h->tty = as_task_tty(task);
	cred = AS_RD(task, cred);
	h->uid = AS_RD(cred, uid.val);
	h->gid = AS_RD(cred, gid.val);
	h->euid = AS_RD(cred, euid.val);
	h->egid = AS_RD(cred, egid.val);
	h->loginuid = AS_ID_UNSET;
	if (bpf_core_field_exists(task->loginuid))
		h->loginuid = AS_RD(task, loginuid.val);
	h->flags = sc & AS_SC_COMPAT_BIT ? AS_HF_COMPAT : 0;
	/* capabilities: kernel_cap_t is one u64 since 6.3, two u32 before:
	 * the same eight bytes either way */
	h->cap_effective = as_rd_u64(&cred->cap_effective);
	h->cap_permitted = as_rd_u64(&cred->cap_permitted);
	h->cap_inheritable = as_rd_u64(&cred->cap_inheritable);
	/* the sandbox as the kernel enforces it on this thread */
	h->seccomp = AS_RD(task, seccomp.mode);
	if (AS_RD(task, atomic_flags) & 1) /* PFA_NO_NEW_PRIVS is bit 0 */
		h->sflags |= AS_SF_NO_NEW_PRIVS;
	h->start_ns = AS_RD2(task, group_leader, start_boottime);
	bpf_get_current_comm(h->comm, sizeof(h->comm));
	{
		__u32 tgid = h->pid;
		struct as_session *sess = bpf_map_lookup_elem(&sessions, &tgid);

		if (sess) {
			__builtin_memcpy(h->session, sess->id, sizeof(h->session));
			h->flags |= AS_HF_SESSION;
		}
	}

	/* Ancestry, captured now so it is right for processes that started
	 * before us and never goes stale: each hop is the parent process
	 * (group leader of real_parent), as Falco's proc.aname. A bounded
	 * loop, not a bpf_loop() callback: a call and a return per hop cost
	 * more than the hop's loads. */
	{
		struct task_struct *p = AS_RD2(task, real_parent, group_leader);
		__u32 i;

		h->n_anc = 0;
		for (i = 0; i < AS_MAX_ANCESTORS; i++) {
			if (!as_anc_put(h, i, p))
				break;
			p = AS_RD2(p, real_parent, group_leader);
			if (i == AS_MAX_ANCESTORS - 1 && AS_RD(p, tgid))
				h->flags |= AS_HF_ANC_TRUNC;
		}
	}
	h->ppid = h->n_anc ? h->anc[0].pid : 0;
	return 0;
}

/* ---- the pre-filter's verdict -------------------------------------- */

struct as_vwalk {
	struct task_struct *task;
	__u32 verdict;
	__u32 _pad0;
};

static long as_verdict_step(__u32 index, struct as_vwalk *w)
{
	struct task_struct *task = w->task;
	struct as_comm_key key = {};

	if (index > cfg_filter_walk || !task)
		return 1;
	bpf_probe_read_kernel_str(key.comm, sizeof(key.comm), &task->comm);
	if (bpf_map_lookup_elem(&filter_names, &key)) {
		w->verdict = index;
		return 1;
	}
	if (index && BPF_CORE_READ(task, tgid) == 1)
		return 1; /* init: no ancestors above */
	w->task = BPF_CORE_READ(task, real_parent, group_leader);
	return 0;
}

struct as_lwalk {
	struct as_lineage *lin;
	__u32 hit;
	__u32 _pad0;
};

/* Lineage entry i: its exec-time name in filter_names, or its executable
 * among the pinned agents' (filter_exes). */
static long as_lineage_step(__u32 i, struct as_lwalk *w)
{
	struct as_lineage *lin = w->lin;
	struct as_exe_key ek = {};
	struct as_comm_key key;
	__u64 idx = i;

	asm volatile("" : "+r"(idx));
	if (!lin || idx >= AS_LINEAGE_MAX || idx >= lin->n)
		return 1;
	__builtin_memcpy(key.comm, lin->e[idx].comm, AS_COMM_LEN);
	ek.ino = lin->e[idx].ino;
	ek.dev = lin->e[idx].dev;
	if (bpf_map_lookup_elem(&filter_names, &key) || (ek.ino && bpf_map_lookup_elem(&filter_exes, &ek))) {
		w->hit = 1;
		return 1;
	}
	return 0;
}

/* Level 0 is the current thread's own comm (proc.name); above it the group
 * leaders of the real_parent chain, as in as_hdr_fill_task. Then the
 * lineage, which reparenting, renames and depth do not change. */
__noinline __u32 as_verdict_compute(__u64 task_p, struct as_lineage *lin)
{
	struct as_vwalk w = { .task = (struct task_struct *)task_p, .verdict = AS_VERDICT_NONE };
	struct as_lwalk lw = { .lin = lin };

	bpf_loop(AS_MAX_ANCESTORS + 1, as_verdict_step, &w, 0);
	if (w.verdict != AS_VERDICT_NONE || !lin)
		return w.verdict;
	bpf_loop(AS_LINEAGE_MAX, as_lineage_step, &lw, 0);
	return lw.hit ? AS_VERDICT_LINEAGE : AS_VERDICT_NONE;
}

/* ---- the per-CPU verdict cache (sentinel.bpf.h: struct as_vcache) ---- */

__noinline __u32 as_vcache_get(__u32 gen)
{
	__u32 zero = 0;
	struct as_vcache *c = bpf_map_lookup_elem(&vcache, &zero);
	__u64 t = bpf_get_current_task();
	struct task_struct *task;

	if (!c || c->task != t || c->gen != gen)
		return AS_VERDICT_MISS;
	task = AS_KPTR(task_struct, t);
	if (AS_RD(task, self_exec_id) != c->exec_id || AS_RD(task, start_time) != c->start_ns)
		return AS_VERDICT_MISS;
	return c->verdict;
}

__noinline int as_vcache_put(__u32 gen, __u32 verdict)
{
	__u32 zero = 0;
	struct as_vcache *c = bpf_map_lookup_elem(&vcache, &zero);
	__u64 t = bpf_get_current_task();
	struct task_struct *task = AS_KPTR(task_struct, t);

	if (!c)
		return 0;
	c->task = t;
	c->start_ns = AS_RD(task, start_time);
	c->exec_id = AS_RD(task, self_exec_id);
	c->gen = gen;
	c->verdict = verdict;
	return 0;
}

/* ---- a task's file table ------------------------------------------------ */

__noinline __u64 as_task_file_p(__u64 task_p, __s64 fd)
{
	struct task_struct *task = AS_KPTR(task_struct, task_p);
	struct fdtable *fdt = AS_RD2(task, files, fdt);
	struct file *f = 0;

	if (fd < 0 || (__u64)fd >= AS_RD(fdt, max_fds))
		return 0;
	{
		struct file **fds = AS_RD(fdt, fd);
		struct as_scratch *s = as_scratch();

		/* fds[fd] is one load through a typed pointer (a struct whose
		 * first member is a struct file pointer) where a helper read
		 * costs ~40 ns; a global function returns numbers only, so the
		 * pointer goes through map memory (privileged programs may
		 * store pointers there) and comes back as one */
		if (cfg_typed_reads && s && bpf_core_field_offset(struct kiocb, ki_filp) == 0) {
			__u64 at = (__u64)(fds + fd);
			struct kiocb *slot;

			asm volatile("" : "+r"(at)); /* cast the sum, not fds */
			slot = AS_KPTR(kiocb, at);
			*(volatile __u64 *)&s->word[0] = (__u64)slot->ki_filp;
			return *(volatile __u64 *)&s->word[0];
		}
		bpf_probe_read_kernel(&f, sizeof(f), fds + fd);
	}
	return (__u64)f;
}

/* ---- dentries and mounts ---------------------------------------------- */

struct as_walk {
	struct dentry *dentry;
	struct vfsmount *vfsmnt;
	struct mount *mnt;
	struct dentry *mnt_root; /* of vfsmnt: read once per mount, not per step */
	struct as_scratch *s; /* this CPU's: the buffer, walk_start and walk_off */
	struct dentry *root_dentry;
	struct vfsmount *root_mnt;
	__u32 flags;
	__u32 _pad0;
};

static long as_path_step(__u32 index, struct as_walk *w)
{
	/* locals, not w->...: BPF_CORE_READ(w->x, ...) would relocate against
	 * struct as_walk, which the kernel does not know */
	struct dentry *dentry = w->dentry, *mnt_root = w->mnt_root, *parent;
	struct vfsmount *vfsmnt = w->vfsmnt;
	struct mount *mnt = w->mnt;
	const unsigned char *name;
	struct as_scratch *s = w->s;
	__u32 off, used, room;
	long n;

	if (!dentry) {
		w->flags = AS_PATH_DETACHED;
		return 1;
	}
	if (dentry == w->root_dentry && vfsmnt == w->root_mnt) {
		w->flags = 0;
		return 1;
	}
	if (!s)
		return 1;
	off = *(volatile __u32 *)&s->walk_off;
	used = off - *(volatile __u32 *)&s->walk_start;
	parent = AS_RD(dentry, d_parent);
	name = AS_RD(dentry, d_name.name);
	if (dentry == mnt_root || dentry == parent) {
		struct mount *mnt_parent = AS_RD(mnt, mnt_parent);

		if (dentry != mnt_root || mnt_parent == mnt) {
			/* the namespace's top, or an unreachable dentry */
			w->flags = AS_PATH_DETACHED;
			return 1;
		}
		w->dentry = AS_RD(mnt, mnt_mountpoint);
		w->mnt = mnt_parent;
		w->vfsmnt = &mnt_parent->mnt;
		w->mnt_root = AS_RD(mnt_parent, mnt.mnt_root);
		return 0;
	}
	if (used + 2 > AS_PATH_MAX)
		return 1; /* flags stay AS_PATH_TRUNC */
	room = AS_PATH_MAX - used;
	if (room > AS_NAME_MAX)
		room = AS_NAME_MAX;
	AS_VERIFIER_MASK(room, 511); /* room <= AS_NAME_MAX already */
	n = bpf_probe_read_kernel_str(s->buf + (off & AS_SCRATCH_OFF_MASK), room, name);
	if (n <= 0)
		return 1;
	*(volatile __u32 *)&s->walk_off = off + n;
	if (n == room && room < AS_NAME_MAX)
		return 1; /* name cut short: the path is partial */
	w->dentry = parent;
	return 0;
}

__noinline __u64 as_path_walk(__u32 start, __u64 dentry_p, __u64 vfsmnt_p, __u64 task_p)
{
	struct as_scratch *s = as_scratch();
	struct task_struct *task = AS_KPTR(task_struct, task_p);
	__u64 mnt_p = vfsmnt_p - bpf_core_field_offset(struct mount, mnt);
	struct as_walk w = {
		.flags = AS_PATH_TRUNC, /* unless the walk reaches a root */
	};

	w.dentry = AS_KPTR(dentry, dentry_p);
	w.vfsmnt = AS_KPTR(vfsmount, vfsmnt_p);
	w.mnt = AS_KPTR(mount, mnt_p);
	{
		struct vfsmount *vfsmnt = w.vfsmnt;

		w.mnt_root = AS_RD(vfsmnt, mnt_root);
	}
	if (!s)
		return (__u64)AS_PATH_TRUNC << 32;
	w.s = s;
	s->walk_start = start;
	s->walk_off = start;
	w.root_dentry = AS_RD2(task, fs, root.dentry);
	w.root_mnt = AS_RD2(task, fs, root.mnt);
	bpf_loop(AS_PATH_MAX_DEPTH, as_path_step, &w, 0);
	return (__u64)w.flags << 32 | (*(volatile __u32 *)&s->walk_off - start);
}

/* ---- the open pre-filter's prefix test --------------------------------- */

/*
 * The test runs on every open an agent tree makes, so it is written as
 * plain bounded loops in one function: no bpf_loop() callback, no global
 * function call per step (each costs a call and a return, and returns are
 * thunked on this class of CPU). The verifier checks the loops once, in the
 * one program that calls this function.
 */
#define AS_EXCL_DEPTH 32 /* hops the test walks; a deeper path is kept, not tested */

/* The path rendered so far, zero-padded; twice the rendered length, as the
 * verifier bounds a name's offset and length apart. */
struct as_rendered {
	__u64 w[2 * AS_OPEN_PREFIX_LEN / 8];
};

/* Does the rendered path start with a prefix in mask? A global function: the
 * verifier checks the prefix loop once, not at each component. Each prefix
 * is eight masked word compares, no branch on its length (pmask). */
__noinline int as_pfx_match(__u32 mask, const struct as_rendered *rd)
{
	__u32 i, j, np = cfg_open_filter.nprefix;

	if (!rd)
		return 0;
	for (i = 0; i < AS_OPEN_PREFIX_MAX; i++) {
		__u64 diff = 0;

		if (i >= np)
			break;
		if (!(mask & (1u << i)) || !cfg_open_filter.plen[i])
			continue;
#pragma unroll
		for (j = 0; j < AS_OPEN_PREFIX_LEN / 8; j++)
			diff |= (rd->w[j] ^ cfg_open_filter.prefix[i][j]) & cfg_open_filter.pmask[i][j];
		if (!diff)
			return 1;
	}
	return 0;
}

/*
 * Walk from the file up to the task's root as as_path_walk does, copying no
 * name but noting the AS_OPEN_TOP_COMPS names nearest the root; then render
 * "/" and those names exactly as userspace joins them, testing the prefixes
 * after each: "/tmp" decides a path under /tmp before its next name is
 * read. What is not rendered stays zero, so a prefix longer than what is
 * rendered so far does not match yet.
 */
__noinline int as_file_excluded(__u32 mask, __u64 file_p, __u64 task_p)
{
	struct file *f = AS_KPTR(file, file_p);
	struct task_struct *task = AS_KPTR(task_struct, task_p);
	struct dentry *d, *mnt_root, *root_d, *parent;
	struct as_scratch *s = as_scratch();
	__u32 i, n, pos = 0, need = cfg_open_filter.plen_max;
	struct vfsmount *root_m;
	struct as_rendered rd = {};
	char *r = (char *)rd.w;
	struct mount *mnt;

	if (!s)
		return 0;
	d = AS_RD(f, f_path.dentry);
	/* struct mount around the vfsmount: the difference as a number, then
	 * typed; from here on the vfsmount is always &mnt->mnt, one type for
	 * the verifier whichever mount the walk is in */
	*(volatile __u64 *)&s->word[0] = (__u64)AS_RD(f, f_path.mnt);
	mnt = AS_KPTR(mount, *(volatile __u64 *)&s->word[0] -
				     bpf_core_field_offset(struct mount, mnt));
	mnt_root = AS_RD(mnt, mnt.mnt_root);
	root_d = AS_RD2(task, fs, root.dentry);
	root_m = AS_RD2(task, fs, root.mnt);
	/* the count of names met lives in map memory, a number the verifier
	 * does not follow: otherwise each count at each step is a state of
	 * its own */
	s->top.n = 0;
	for (i = 0; i < AS_EXCL_DEPTH; i++) {
		if (!d)
			return 0;
		if (d == root_d && (void *)&mnt->mnt == (void *)root_m)
			goto reached;
		parent = AS_RD(d, d_parent);
		if (d == mnt_root || d == parent) {
			struct mount *mp = AS_RD(mnt, mnt_parent);

			if (d != mnt_root || mp == mnt)
				return 0; /* the namespace's top, or unreachable: keep */
			d = AS_RD(mnt, mnt_mountpoint);
			mnt = mp;
			mnt_root = AS_RD(mp, mnt.mnt_root);
			continue;
		}
		/* the name met last is the topmost so far */
		n = *(volatile __u32 *)&s->top.n;
		s->top.name[n & (AS_OPEN_TOP_COMPS - 1)] = (__u64)AS_RD(d, d_name.name);
		s->top.len[n & (AS_OPEN_TOP_COMPS - 1)] = AS_RD(d, d_name.len);
		*(volatile __u32 *)&s->top.n = n + 1;
		d = parent;
	}
	return 0; /* not reached the root: keep the event */
reached:
	n = *(volatile __u32 *)&s->top.n;
	if (n == 0) {
		r[0] = '/'; /* the root itself */
		return as_pfx_match(mask, &rd);
	}
	for (i = 0; i < AS_OPEN_TOP_COMPS; i++) {
		__u32 k = (n - 1 - i) & (AS_OPEN_TOP_COMPS - 1), len;

		if (i >= n || pos >= AS_OPEN_PREFIX_LEN - 1 || pos > need)
			break;
		len = s->top.len[k];
		r[pos & (AS_OPEN_PREFIX_LEN - 1)] = '/';
		pos++;
		/* a plain read of the name's known length: the _str helper
		 * copies byte by byte */
		if (len > AS_OPEN_PREFIX_LEN - 1 - pos)
			len = AS_OPEN_PREFIX_LEN - 1 - pos;
		AS_VERIFIER_MASK(pos, 63);
		AS_VERIFIER_MASK(len, 63);
		if (!len || bpf_probe_read_kernel(r + pos, len, (const void *)s->top.name[k]))
			break;
		pos += len;
		if (as_pfx_match(mask, &rd))
			return 1;
	}
	return 0;
}

struct as_cgwalk {
	struct kernfs_node *kn;
	__u32 start;
	__u32 off;
	__u32 flags;
	__u32 _pad0;
};

static long as_cgroup_step(__u32 index, struct as_cgwalk *w)
{
	struct kernfs_node *kn = w->kn, *parent;
	__u8 *buf;
	long n;

	if (!kn) {
		w->flags = 0;
		return 1;
	}
	parent = as_kn_parent(kn);
	if (!parent) { /* the root cgroup: its name is not part of the path */
		w->flags = 0;
		return 1;
	}
	if (w->off - w->start > AS_CGROUP_MAX - AS_NAME_MAX)
		return 1;
	buf = as_scratch_buf();
	if (!buf)
		return 1;
	n = bpf_probe_read_kernel_str(buf + (w->off & AS_SCRATCH_OFF_MASK), AS_NAME_MAX,
				      BPF_CORE_READ(kn, name));
	if (n <= 0)
		return 1;
	w->off += n;
	w->kn = parent;
	return 0;
}

__noinline __u64 as_cgroup_walk(__u32 start, __u64 task_p)
{
	struct task_struct *task = (struct task_struct *)task_p;
	struct as_cgwalk w = { .start = start, .off = start, .flags = AS_PATH_TRUNC };

	w.kn = BPF_CORE_READ(task, cgroups, dfl_cgrp, kn);
	bpf_loop(AS_CGROUP_MAX_DEPTH, as_cgroup_step, &w, 0);
	return (__u64)w.flags << 32 | (w.off - w.start);
}

/* ---- the 32-bit ABI's arguments (sentinel.bpf.h) ----------------------- */

__noinline int as_compat_args_load(void)
{
	struct as_scratch *s = as_scratch();
	__u32 a[AS_SYSCALL_ARGS] = {};
	__u32 i, n;

	if (!s)
		return 0;
#if defined(__TARGET_ARCH_x86)
	{
		struct pt_regs *regs = as_user_regs();

		a[0] = regs->bx;
		a[1] = regs->cx;
		a[2] = regs->dx;
		a[3] = regs->si;
		a[4] = regs->di;
		a[5] = regs->bp;
	}
#endif
	n = s->compat.nargs;
	if (n > AS_SYSCALL_ARGS)
		n = AS_SYSCALL_ARGS;
	if (s->compat.sockargs) {
		__builtin_memset(a, 0, sizeof(a));
		if (n)
			bpf_probe_read_user(a, (n * 4) & 31, (const void *)s->compat.sockargs);
	}
	for (i = 0; i < AS_SYSCALL_ARGS; i++) {
		__u64 v = a[i];

		if (n && i >= n)
			v = 0; /* not an argument of this call */
		else if (s->compat.id16 & (1u << i))
			v = (__u16)v == 0xffff ? 0xffffffffu : (__u16)v;
		s->compat.args[i] = v;
	}
	return 0;
}
