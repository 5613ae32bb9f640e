// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The walks behind every path we report: dentries and mounts up to the
 * task's root, and cgroup kernfs nodes up to the hierarchy's root. Each step
 * is a bpf_loop() callback, which the verifier checks once instead of once
 * per iteration: that keeps program load (and so start-up) fast.
 */
#include "sentinel.bpf.h"

/* A kernel pointer that travelled as a scalar (global functions take them
 * so), typed again for direct loads: the verifier makes each a fault-safe
 * load instruction, where BPF_CORE_READ is a helper call per field. Used in
 * this object only: bpftool 7.1's linker cannot merge one kfunc extern
 * declared in two objects. */
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym;
#define AS_KPTR(type, p) ((type *)bpf_rdonly_cast((void *)(p), bpf_core_type_id_kernel(type)))

struct as_walk {
	struct dentry *dentry;
	struct vfsmount *vfsmnt;
	struct mount *mnt;
	struct dentry *mnt_root; /* of vfsmnt: read once per mount, not per step */
	__u8 *buf; /* this CPU's scratch buffer */
	struct dentry *root_dentry;
	struct vfsmount *root_mnt;
	__u32 start;
	__u32 off;
	__u32 flags;
	__u32 _pad0;
	struct as_path_top top; /* where the names nearest the root start */
};


static long as_path_step(__u32 index, struct as_walk *w)
{
	/* locals, not w->...: BPF_CORE_READ(w->x, ...) would relocate against
	 * struct as_walk, which the kernel does not know */
	struct dentry *dentry = w->dentry, *mnt_root = w->mnt_root, *parent;
	struct vfsmount *vfsmnt = w->vfsmnt;
	struct mount *mnt = w->mnt;
	const unsigned char *name;
	__u32 used = w->off - w->start, room;
	__u8 *buf = w->buf;
	long n;

	if (!dentry) {
		w->flags = AS_PATH_DETACHED;
		return 1;
	}
	if (dentry == w->root_dentry && vfsmnt == w->root_mnt) {
		w->flags = 0;
		return 1;
	}
	if (!buf)
		return 1;
	parent = dentry->d_parent;
	name = dentry->d_name.name;
	if (dentry == mnt_root || dentry == parent) {
		struct mount *mnt_parent = mnt->mnt_parent;

		if (dentry != mnt_root || mnt_parent == mnt) {
			/* the namespace's top, or an unreachable dentry */
			w->flags = AS_PATH_DETACHED;
			return 1;
		}
		w->dentry = mnt->mnt_mountpoint;
		w->mnt = mnt_parent;
		w->vfsmnt = &mnt_parent->mnt;
		w->mnt_root = mnt_parent->mnt.mnt_root;
		return 0;
	}
	if (used + 2 > AS_PATH_MAX)
		return 1; /* flags stay AS_PATH_TRUNC */
	room = AS_PATH_MAX - used;
	if (room > AS_NAME_MAX)
		room = AS_NAME_MAX;
	AS_VERIFIER_MASK(room, 511); /* room <= AS_NAME_MAX already */
	n = bpf_probe_read_kernel_str(buf + (w->off & AS_SCRATCH_OFF_MASK), room, name);
	if (n <= 0)
		return 1;
	/* the name written last is the topmost so far: shift it in at [0] */
	w->top.off[3] = w->top.off[2];
	w->top.off[2] = w->top.off[1];
	w->top.off[1] = w->top.off[0];
	w->top.off[0] = w->off;
	w->top.n++;
	w->off += n;
	if (n == room && room < AS_NAME_MAX)
		return 1; /* name cut short: the path is partial */
	w->dentry = parent;
	return 0;
}

__noinline __u64 as_path_walk(__u32 start, __u64 dentry_p, __u64 vfsmnt_p, __u64 task_p,
			     struct as_path_top *top)
{
	struct task_struct *task = AS_KPTR(struct task_struct, task_p);
	__u64 mnt_p = vfsmnt_p - bpf_core_field_offset(struct mount, mnt);
	struct as_walk w = {
		.start = start,
		.off = start,
		.flags = AS_PATH_TRUNC, /* unless the walk reaches a root */
	};

	w.dentry = AS_KPTR(struct dentry, dentry_p);
	w.vfsmnt = AS_KPTR(struct vfsmount, vfsmnt_p);
	w.mnt = AS_KPTR(struct mount, mnt_p);
	w.mnt_root = w.vfsmnt->mnt_root;
	w.buf = as_scratch_buf();
	w.root_dentry = task->fs->root.dentry;
	w.root_mnt = task->fs->root.mnt;
	bpf_loop(AS_PATH_MAX_DEPTH, as_path_step, &w, 0);
	if (top)
		*top = w.top;
	return (__u64)w.flags << 32 | (w.off - w.start);
}

/*
 * Does the path whose walk left top start with one of the prefixes in mask
 * (cfg_open_filter)? The kernel renders "/" and the AS_OPEN_TOP_COMPS names
 * nearest the root, at most AS_OPEN_PREFIX_LEN - 1 bytes, exactly as
 * userspace joins them; the rest stays zero, so a prefix longer than what was
 * rendered never matches (the event is kept: the test errs on that side).
 */
__noinline int as_path_excluded(const struct as_path_top *top, __u32 mask)
{
	__u64 rw[2 * AS_OPEN_PREFIX_LEN / 8] = {};
	char *r = (char *)rw;
	__u32 pos = 0, n, i, j;
	__u8 *buf = as_scratch_buf();

	if (!top || !buf)
		return 0;
	n = top->n;
	if (n == 0)
		r[pos++] = '/'; /* the root itself */
	for (j = 0; j < AS_OPEN_TOP_COMPS && j < n; j++) {
		__u32 off = top->off[j & (AS_OPEN_TOP_COMPS - 1)];
		long got;

		if (pos >= AS_OPEN_PREFIX_LEN - 1)
			break;
		r[pos & (AS_OPEN_PREFIX_LEN - 1)] = '/';
		pos++;
		AS_VERIFIER_MASK(pos, 63);
		got = bpf_probe_read_kernel_str(r + pos, AS_OPEN_PREFIX_LEN - pos,
						buf + (off & AS_SCRATCH_OFF_MASK));
		if (got <= 1)
			break;
		pos += got - 1;
	}
	for (i = 0; i < AS_OPEN_PREFIX_MAX; i++) {
		__u32 plen = cfg_open_filter.plen[i];
		int same = 1;

		if (!(mask & (1u << i)) || !plen)
			continue;
		for (j = 0; j < AS_OPEN_PREFIX_LEN / 8; j++) {
			__u64 m = ~0ull;

			if (plen <= j * 8)
				break;
			if (plen < (j + 1) * 8)
				m = (1ull << ((plen - j * 8) * 8)) - 1;
			if ((rw[j] ^ cfg_open_filter.prefix[i][j]) & m) {
				same = 0;
				break;
			}
		}
		if (same)
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
