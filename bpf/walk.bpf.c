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

/* ---- what an exec records of the program and its caller (proc.bpf.c) --- */

#define AS_S_IWUSR 00200
#define AS_S_IWGRP 00020
#define AS_S_IWOTH 00002
#define AS_CAP_DAC_OVERRIDE 1
#define AS_TMPFS_MAGIC 0x01021994
#define AS_HUGETLBFS_MAGIC 0x958458f6
#define AS_OVERLAYFS_MAGIC 0x794c7630

/* What kind of file the new program runs from: AS_XF_EXE_* bits. A global
 * function: its branches would otherwise be states of their own through the
 * rest of both exec programs (~5,000 instructions verified more in each). */
__noinline __u32 as_exe_kind(__u64 task_p, __u64 exe_p)
{
	struct task_struct *task = AS_KPTR(task_struct, task_p);
	struct file *exe = AS_KPTR(file, exe_p);
	struct inode *ino = AS_RD(exe, f_inode);
	const struct cred *cred = AS_RD(task, cred);
	unsigned long magic = AS_RD2(ino, i_sb, s_magic);
	__u32 nlink = AS_RD(ino, __i_nlink);
	__u16 mode = AS_RD(ino, i_mode);
	__u64 cap_eff = as_rd_u64(&cred->cap_effective);
	__u32 kind = 0;

	/* memfd_create names its file "memfd:NAME" on the kernel's internal
	 * shmem (or hugetlbfs) mount, with no link anywhere; the name is read
	 * only there */
	if (!nlink) {
		struct dentry *d = AS_RD(exe, f_path.dentry);
		char name[8] = {};

		kind |= AS_XF_EXE_DELETED;
		if (magic == AS_TMPFS_MAGIC || magic == AS_HUGETLBFS_MAGIC) {
			bpf_probe_read_kernel(name, 6, AS_RD(d, d_name.name));
			if (name[0] == 'm' && name[1] == 'e' && name[2] == 'm' && name[3] == 'f' &&
			    name[4] == 'd' && name[5] == ':')
				kind = AS_XF_EXE_MEMFD;
		}
	}
	/* writable by the process's user, as the permission check would say */
	if (AS_RD(ino, i_uid.val) == AS_RD(cred, fsuid.val) ? (mode & AS_S_IWUSR) :
	    AS_RD(ino, i_gid.val) == AS_RD(cred, fsgid.val) ? (mode & AS_S_IWGRP) :
							     (mode & AS_S_IWOTH))
		kind |= AS_XF_EXE_WRITABLE;
	else if (cap_eff & (1ull << AS_CAP_DAC_OVERRIDE))
		kind |= AS_XF_EXE_WRITABLE;
	/* overlayfs: an inode with an upper dentry lives in the upper layer */
	if (magic == AS_OVERLAYFS_MAGIC && bpf_core_type_exists(struct ovl_inode)) {
		/* (helper reads, as before: a pointer back from a member) */
		struct ovl_inode *oi = (void *)BPF_CORE_READ((struct file *)exe_p, f_inode) -
				       bpf_core_field_offset(struct ovl_inode, vfs_inode);

		if (BPF_CORE_READ(oi, __upperdentry))
			kind |= AS_XF_EXE_UPPER;
	}
	return kind;
}

/* The program task runs, as a lineage entry: its start time (its group
 * leader's), and its executable's inode and device as stat() gives them
 * (0 without one: a kernel thread). */
__noinline int as_lin_ident(__u64 task_p, struct as_lin_ent *le)
{
	struct task_struct *task = AS_KPTR(task_struct, task_p);
	struct mm_struct *mm;
	struct file *exe;
	struct inode *ino;

	if (!le)
		return 0;
	le->start_ns = AS_RD2(task, group_leader, start_time);
	le->ino = 0;
	le->dev = 0;
	mm = AS_RD(task, mm);
	exe = mm ? AS_RD(mm, exe_file) : 0;
	ino = exe ? AS_RD(exe, f_inode) : 0;
	if (!ino)
		return 0;
	le->ino = AS_RD(ino, i_ino);
	le->dev = as_dev_encode(AS_RD2(ino, i_sb, s_dev));
	return 0;
}

/* The current task's ids and capabilities as an exec begins: what a setuid
 * bit or file capabilities would change. */
__noinline int as_cred_prev(struct as_task_state *st)
{
	struct task_struct *task = AS_KPTR(task_struct, bpf_get_current_task());
	const struct cred *cred = AS_RD(task, cred);

	if (!st)
		return 0;
	st->prev_uid = AS_RD(cred, uid.val);
	st->prev_gid = AS_RD(cred, gid.val);
	st->prev_euid = AS_RD(cred, euid.val);
	st->prev_egid = AS_RD(cred, egid.val);
	st->prev_cap_permitted = as_rd_u64(&cred->cap_permitted);
	st->prev_cap_effective = as_rd_u64(&cred->cap_effective);
	return 0;
}

/* ---- the pre-filter's verdict -------------------------------------- */

struct as_vwalk {
	struct task_struct *task; /* through AS_KPTR */
	__u32 verdict;
	__u32 _pad0;
};

/* Level index of the ancestry: its comm in filter_names? The hops are
 * typed loads (as helper reads they cost ~100 ns a level, and the first
 * event after each exec asks); a bpf_loop() step, which the verifier
 * checks once. */
static long as_verdict_step(__u32 index, struct as_vwalk *w)
{
	struct task_struct *task = w->task;
	struct as_comm_key key = {};

	if (index > cfg_filter_walk || !task)
		return 1;
	/* a string read: bytes past the NUL are not the name's on kernels
	 * whose set_task_comm does not pad (strlcpy) */
	bpf_probe_read_kernel_str(key.comm, sizeof(key.comm), &task->comm);
	if (bpf_map_lookup_elem(&filter_names, &key)) {
		w->verdict = index;
		return 1;
	}
	if (index && AS_RD(task, tgid) == 1)
		return 1; /* init: no ancestors above */
	w->task = AS_RD2(task, real_parent, group_leader);
	return 0;
}

struct as_lwalk {
	struct as_lineage *lin;
	__u32 hit;
	__u32 _pad0;
};

/* Lineage entry i: named when it was added (its name, its executable's
 * inode or place among the pins': as_lin_named), or its exec-time name in
 * filter_names or its executable in filter_exes now. */
static long as_lineage_step(__u32 i, struct as_lwalk *w)
{
	struct as_lineage *lin = w->lin;
	struct as_exe_key ek = {};
	struct as_comm_key key;
	__u64 idx = i;

	asm volatile("" : "+r"(idx));
	if (!lin || idx >= AS_LINEAGE_MAX || idx >= lin->n)
		return 1;
	if ((lin->named >> idx) & 1) {
		w->hit = 1;
		return 1;
	}
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
	struct as_vwalk w = { .task = AS_KPTR(task_struct, task_p), .verdict = AS_VERDICT_NONE };
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

/* ---- a path through a descriptor's /proc link (as_put_fdlink) ---------- */

#define AS_FDL_WORDS_MAX 256 /* bytes the word test reads; a longer path is scanned byte by byte */
#define AS_FDL_DIGITS_MAX 9 /* digits of an fd number: below INT_MAX */
#define AS_FDL_WORD 7 /* bytes a word step moves: 8 read, so a pair across two is seen */
/* some byte of v is 0 (exact: no false positives) */
#define AS_HASZERO(v) (((v) - 0x0101010101010101ull) & ~(v) & 0x8080808080808080ull)

/* Might "fd" occur in the string (a false lead, as just past its NUL,
 * costs the byte scan, nothing else)? Eight bytes a step, unrolled, over
 * the first AS_FDL_WORDS_MAX bytes; a longer string: maybe. Most paths
 * have no "fd", and a bpf_loop() step per byte would cost them ~10 ns a
 * byte. */
static __always_inline int as_fdl_maybe(const __u8 *buf, __u32 off, __u32 n)
{
	if (n > AS_FDL_WORDS_MAX)
		return 1;
#pragma unroll
	for (int k = 0; k < AS_FDL_WORDS_MAX / AS_FDL_WORD + 1; k++) {
		__u64 w, x;

		if ((__u32)k * AS_FDL_WORD >= n)
			break;
		w = *(const __u64 *)(buf + ((off + k * AS_FDL_WORD) & AS_SCRATCH_OFF_MASK));
		/* byte j of x is 0 when byte j is 'f' and byte j + 1 is 'd' */
		x = (w ^ 0x6666666666666666ull) | ((w >> 8) ^ 0x6464646464646464ull);
		if (AS_HASZERO(x))
			return 1;
	}
	return 0;
}

/* A last component stdin, stdout or stderr (/dev's links to
 * /proc/self/fd/0, 1, 2): that descriptor; else -1. The string's last
 * eight bytes, read as one word. */
static __always_inline __s32 as_fdl_std(const __u8 *buf, __u32 off, __u32 n)
{
	__u64 w;

	if (n < 8)
		return -1;
	w = *(const __u64 *)(buf + ((off + n - 8) & AS_SCRATCH_OFF_MASK));
	/* little-endian: the string's last byte is the word's highest */
	if ((w >> 16) == 0x6e696474732full) /* "/stdin" */
		return 0;
	if ((w >> 8) == 0x74756f6474732full) /* "/stdout" */
		return 1;
	if ((w >> 8) == 0x7272656474732full) /* "/stderr" */
		return 2;
	return -1;
}

/* A step of the byte scan, its state in map memory (struct as_fdl_scan):
 * numbers the verifier does not follow, so the callback is checked in a
 * few passes, not once per value the component so far could have. */
static long as_fdl_step(__u32 k, void *ctx)
{
	struct as_scratch *sc = as_scratch();
	struct as_fdl_scan *s;
	__u8 c;

	if (!sc)
		return 1;
	s = &sc->fdl;
	if (k > s->n)
		return 1;
	c = k < s->n ? sc->buf[(s->off + k) & AS_SCRATCH_OFF_MASK] : '/';
	if (c != '/') {
		if (s->clen == 0)
			s->c0 = c;
		else if (s->clen == 1)
			s->c1 = c;
		s->digits &= c >= '0' && c <= '9';
		if (s->clen < AS_FDL_DIGITS_MAX)
			s->num = s->num * 10 + (__u32)(c - '0');
		s->clen++;
		return 0;
	}
	if (s->clen) { /* a component ended; "." ones change nothing */
		/* the kernel's name_to_int() takes no leading zero */
		/* the last one: a directory really named fd earlier in the
		 * path is no decoy for the link the walk went through after */
		if (s->want && s->digits && s->clen <= AS_FDL_DIGITS_MAX &&
		    (s->c0 != '0' || s->clen == 1))
			s->fd = (__s32)s->num;
		if (s->clen != 1 || s->c0 != '.')
			s->want = s->clen == 2 && s->c0 == 'f' && s->c1 == 'd';
	}
	s->clen = 0;
	s->num = 0;
	s->digits = 1;
	return 0;
}

__noinline __u32 as_put_fdlink_p(__u64 where, __u64 task_p)
{
	__u32 off = where & 0xffff, len = (where >> 16) & 0xffff, blen = (where >> 32) & 0xffff;
	__u32 i = (where >> 48) & 1, b = off + len, n = len ? len - 1 : 0, pf = 0, out;
	struct task_struct *task = (struct task_struct *)task_p;
	struct as_scratch *sc = as_scratch();
	struct as_fdl_scan *s;
	struct as_sys *r;
	struct file *f;
	__u8 *buf, want;
	__s32 fd;

	if (!sc)
		return 0;
	buf = sc->buf;
	r = (struct as_sys *)buf;
	/* relative from a directory named fd: its leaf comes first in the list */
	want = blen >= 3 && buf[b & AS_SCRATCH_OFF_MASK] == 'f' &&
	       buf[(b + 1) & AS_SCRATCH_OFF_MASK] == 'd' && buf[(b + 2) & AS_SCRATCH_OFF_MASK] == 0;
	fd = as_fdl_std(buf, off, n);
	if (fd < 0 && (want || as_fdl_maybe(buf, off, n))) {
		s = &sc->fdl;
		*s = (struct as_fdl_scan){ .off = off, .n = n, .fd = -1, .digits = 1, .want = want };
		bpf_loop((n < AS_PATH_MAX ? n : AS_PATH_MAX) + 1, as_fdl_step, 0, 0);
		fd = s->fd;
	}
	if (fd < 0)
		return 0;
	f = as_task_file(task, fd);
	if (!f)
		return 0;
	out = as_put_task_path(buf, b + blen, &f->f_path, task, &pf);
	if (!out) { /* the root, or a pipe's nameless dentry: one empty name, "/" */
		buf[(b + blen) & AS_SCRATCH_OFF_MASK] = 0;
		out = 1;
	}
	r->fdl_len[i] = out;
	r->fdl_fd[i] = fd;
	r->pflags |= (pf & ((1u << AS_SYF_FDL_BITS) - 1)) << (AS_SYF_FDL_SHIFT + i * AS_SYF_FDL_BITS);
	return out;
}

/* ---- sends folded ---------------------------------------------------- */

/*
 * A socket's sends folded: a send that repeats the last one this thread made
 * on the socket (the same destination and result, from the same program,
 * credentials, name, directory, cgroup, parent and seccomp mode, under the
 * same rules) is the same act again, not an event of its own. A UDP flow
 * is then one event, not one per datagram; sendmmsg's messages fold the
 * same way within one call (as_mmsg_step). Off with the pre-filter
 * (--no-prefilter, --trace without a filter keep every send).
 */
const volatile __u32 cfg_send_fold = 0;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} send_folds SEC(".maps");

/* The struct sock of the task's fd, or NULL when fd is no socket. */
static __always_inline struct sock *as_fd_sk(__u64 task_p, __s32 fd, struct as_scratch *s)
{
	struct file *f = AS_KPTR(file, as_task_file_p(task_p, fd));
	struct socket *sock;

	if (!f || (AS_RD2(f, f_inode, i_mode) & AS_S_IFMT) != AS_S_IFSOCK)
		return 0;
	*(volatile __u64 *)&s->word[0] = (__u64)AS_RD(f, private_data);
	sock = AS_KPTR(socket, *(volatile __u64 *)&s->word[0]);
	return sock ? AS_RD(sock, sk) : 0;
}

/*
 * The destination of a send's message j on fd, into this CPU's scratch
 * (send_dest): the kernel's own copy where a sendmsg hook noted one for
 * this socket in this call (1: send_lost then says whether the notes
 * overflowed), else the caller's sockaddr at uaddr_p as it is now (0; only
 * the family when it is no IP address, family 0 when it cannot be read).
 * A thread of the caller may rewrite its sockaddr once the kernel took its
 * copy; the notes are that copy.
 */
__noinline int as_send_dest(__u64 uaddr_p, __s32 fd, __u32 j)
{
	struct as_scratch *s = as_scratch();
	struct as_sockaddr_in6 sin6 = {};
	struct as_send_notes *n;
	struct as_send_dest *d;
	struct sock *sk;

	if (!s)
		return -1;
	d = &s->send_dest;
	n = bpf_task_storage_get(&send_notes, bpf_get_current_task_btf(), 0, 0);
	if (n && j < n->n && j < AS_SEND_NOTES_MAX &&
	    n->nr == AS_REGS_SYSCALL_NR(as_user_regs()) &&
	    (sk = as_fd_sk(bpf_get_current_task(), fd, s)) &&
	    n->cookie == AS_RD(sk, __sk_common.skc_cookie.counter)) {
		AS_VERIFIER_MASK(j, 15); /* j < AS_SEND_NOTES_MAX already */
		*d = n->d[j];
		s->send_lost = n->lost;
		return 1;
	}
	__builtin_memset(d, 0, sizeof(*d));
	if (!uaddr_p)
		return 0;
	/* the IPv6 form's bytes in one read (each user read costs ~200 ns
	 * here); where they cross the end of a mapping, the IPv4 form's */
	if (bpf_probe_read_user(&sin6, sizeof(sin6), (const void *)uaddr_p) &&
	    (bpf_probe_read_user(&sin6, sizeof(struct as_sockaddr_in), (const void *)uaddr_p) ||
	     sin6.family != AS_AF_INET))
		bpf_probe_read_user(&sin6.family, sizeof(sin6.family), (const void *)uaddr_p);
	d->family = sin6.family;
	d->port = sin6.port;
	if (sin6.family == AS_AF_INET) /* sockaddr_in's address is where flowinfo is */
		__builtin_memcpy(d->addr, &sin6.flowinfo, 4);
	else if (sin6.family == AS_AF_INET6)
		__builtin_memcpy(d->addr, sin6.addr, 16);
	else
		d->port = 0;
	return 0;
}

/* The notes of the send that just ended were taken: the next call's start
 * afresh (the hooks also start afresh on another socket or syscall). */
__noinline int as_send_notes_done(void)
{
	struct as_send_notes *n = bpf_task_storage_get(&send_notes, bpf_get_current_task_btf(), 0, 0);

	if (n) {
		n->n = 0;
		n->lost = 0;
	}
	return 0;
}

/* Does this send (call: the syscall and ABI; fd; its destination, which
 * as_send_dest put in this CPU's scratch; its flags, the result ret)
 * repeat the thread's last one on the socket? 1: it does, and is counted;
 * 0: an event, remembered as the last. IPv4 and IPv6 sends only. Typed
 * loads (AS_KPTR): a helper read each would cost more than the event it
 * saves. */
__noinline int as_send_repeat(__u32 call, __s32 fd, __u32 flags, __s64 ret)
{
	__u64 task_p = bpf_get_current_task(), diff = 0, *cnt;
	struct task_struct *task = AS_KPTR(task_struct, task_p);
	struct as_scratch *s = as_scratch();
	struct as_send_sig *cur, *last;
	struct sock *sk;
	__u32 zero = 0;

	if (!cfg_send_fold || fd < 0 || !s)
		return 0;
	if (s->send_dest.family != AS_AF_INET && s->send_dest.family != AS_AF_INET6)
		return 0;
	/* in map memory: the kernel pointers stored there come back as the
	 * numbers compared and hashed */
	cur = &s->send;
	__builtin_memset(cur, 0, sizeof(*cur));
	__builtin_memcpy(cur->daddr, s->send_dest.addr, 16);
	cur->family = s->send_dest.family;
	cur->dport = s->send_dest.port;
	sk = as_fd_sk(task_p, fd, s);
	if (!sk)
		return 0;
	s->send_key.sk = (__u64)sk;
	s->send_key.tid = AS_RD(task, pid);
	s->send_key._pad0 = 0;
	cur->sport = AS_RD(sk, __sk_common.skc_num);
	cur->cred = (__u64)AS_RD(task, cred);
	cur->mm = (__u64)AS_RD(task, mm);
	cur->pwd = (__u64)AS_RD2(task, fs, pwd.dentry);
	cur->cgroups = (__u64)AS_RD(task, cgroups);
	cur->parent = (__u64)AS_RD(task, real_parent);
	cur->seccomp = AS_RD(task, seccomp.mode);
	cur->res = ret; /* bytes sent too: a rule may weigh them (evt.rawres) */
	cur->flags = flags;
	cur->call = (__u16)((call & 0xff) | (call & AS_SC_COMPAT_BIT) >> 8);
	cur->gen = cfg_filter_gen;
	if (cfg_typed_reads) { /* two loads, not a helper call */
		*(__u64 *)&cur->comm[0] = *(__u64 *)&task->comm[0];
		*(__u64 *)&cur->comm[8] = *(__u64 *)&task->comm[8];
	} else {
		bpf_probe_read_kernel(cur->comm, AS_COMM_LEN, &task->comm);
	}
	last = &s->send_last;
	{
		const volatile __u64 *a = (const __u64 *)last, *b = (const __u64 *)cur;

#pragma unroll
		for (int i = 0; i < (int)(sizeof(*cur) / 8); i++)
			diff |= a[i] ^ b[i];
	}
	if (!diff && s->send_last_key.sk == s->send_key.sk &&
	    s->send_last_key.tid == s->send_key.tid) {
		cnt = bpf_map_lookup_elem(&send_folds, &zero);
		if (cnt)
			*cnt += 1;
		return 1;
	}
	__builtin_memcpy(last, cur, sizeof(*cur));
	s->send_last_key = s->send_key;
	return 0;
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

/* ---- the open pre-filter's path test ------------------------------------ */

/*
 * The test runs on every open an agent tree makes, so the walk is a plain
 * bounded loop: no bpf_loop() callback and no global function call per
 * step but where a name must be read (each costs a call and a return, and
 * returns are thunked on this class of CPU). What it leads to, the atom
 * test and the verdict, are functions the verifier checks once each.
 */
#define AS_EXCL_DEPTH 32 /* hops the test walks; a deeper path is kept, not tested */

/* The path rendered so far, zero-padded; twice the rendered length, as the
 * verifier bounds a name's offset and length apart. */
struct as_rendered {
	__u64 w[2 * AS_OPEN_PREFIX_LEN / 8];
};

/* Do the first bytes of w equal v where m covers (words of n bytes in all,
 * n a constant)? No branch on how many bytes m covers: the prefix and the
 * atom tests, each masked by the loader (pmask, amask). */
static __always_inline int as_masked_eq(const __u64 *w, const volatile __u64 *v,
					const volatile __u64 *m, const __u32 n)
{
	__u64 diff = 0;
	__u32 j;

#pragma unroll
	for (j = 0; j < n / 8; j++)
		diff |= (w[j] ^ v[j]) & m[j];
	return !diff;
}

/* Which prefixes in mask does the rendered path start with? Into the
 * scratch map's top.pm, where the verifier does not follow the mask. A
 * global function: the verifier checks the prefix loop once, not at each
 * component. */
__noinline int as_pfx_match(__u32 mask, const struct as_rendered *rd)
{
	struct as_scratch *s = as_scratch();
	__u32 i, np = cfg_open_filter.nprefix;

	if (!rd || !s)
		return 0;
	s->top.pm = 0;
	for (i = 0; i < AS_OPEN_PREFIX_MAX; i++) {
		if (i >= np)
			break;
		if (!(mask & (1u << i)) || !cfg_open_filter.plen[i])
			continue;
		if (as_masked_eq(rd->w, cfg_open_filter.prefix[i], cfg_open_filter.pmask[i],
				 AS_OPEN_PREFIX_LEN))
			s->top.pm |= 1u << i;
	}
	return 0;
}

/* The index of the one bit set in low: the bits below it counted (SWAR
 * popcount, no branch and no table) */
static __always_inline __u32 as_bit_index(__u32 low)
{
	__u32 x = low - 1;

	x -= (x >> 1) & 0x55555555u;
	x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
	x = (x + (x >> 4)) & 0x0f0f0f0fu;
	return (x * 0x01010101u) >> 24;
}

/* Is the name of len bytes at name_p the one kept in dentry d (at dent_p)
 * itself, d_shortname, which typed word loads can read? Not before 6.14
 * (no d_shortname), without typed reads, or for a longer name. */
static __always_inline int as_name_is_short(struct dentry *d, __u64 dent_p, __u64 name_p,
					    __u32 len)
{
	return cfg_typed_reads && bpf_core_field_exists(d->d_shortname) &&
	       name_p == dent_p + bpf_core_field_offset(struct dentry, d_shortname) &&
	       len <= sizeof(d->d_shortname) - 1;
}

/* The first bytes of a name kept in its dentry (d_shortname: shorter than
 * 40 bytes, as most are) into w, zero-padded, by typed word loads: a helper
 * read costs ~70 ns. 0 where the name is elsewhere, or the kernel has no
 * d_shortname (before 6.14) or no typed reads: the caller reads it. */
static __always_inline int as_name_inline(__u64 w[AS_OPEN_ATOM_LEN / 8], __u32 len, __u64 dent_p,
					  __u64 name_p)
{
	struct dentry *d = AS_KPTR(dentry, dent_p);
	__u32 j;

	if (!as_name_is_short(d, dent_p, name_p, len))
		return 0;
#pragma unroll
	for (j = 0; j < AS_OPEN_ATOM_LEN / 8; j++) {
		if (j * 8 >= len)
			break;
		w[j] = d->d_shortname.words[j];
		if (len - j * 8 < 8) /* the bytes past the name: none of its */
			w[j] &= (1ull << ((len - j * 8) * 8)) - 1;
	}
	return 1;
}

/* Which of the atoms in cand does one name of the path (len bytes at
 * name_p, in dentry dent_p) match? Added to the scratch map's top.atoms.
 * The caller picked cand by the name's length and place (alen_atoms,
 * abase), so most names are never read, and a name read is compared with
 * those atoms only, each by four masked words: a loop over cand's bits, not
 * over every atom. */
__noinline int as_atom_match(__u32 cand, __u64 name_p, __u32 len, __u64 dent_p)
{
	__u64 w[AS_OPEN_ATOM_LEN / 8] = {};
	struct as_scratch *s = as_scratch();
	__u32 n = len, hit = 0, k;

	if (!s)
		return 0;
	if (!n || n > AS_OPEN_ATOM_LEN)
		n = AS_OPEN_ATOM_LEN;
	n -= 1; /* 0..31 in the register the call gets: 1..32 bytes */
	AS_VERIFIER_MASK(n, 31);
	/* a name that cannot be read (or of no length: a failed read of
	 * d_name) might be any: as if it matched every atom asked, so the
	 * open is kept, never dropped for what the test could not see */
	if (!len || (!as_name_inline(w, len, dent_p, name_p) &&
		     bpf_probe_read_kernel(w, n + 1, (const void *)name_p))) {
		s->top.atoms |= cand;
		return 0;
	}
	for (k = 0; k < AS_OPEN_ATOM_MAX; k++) {
		__u32 low = cand & -cand, i;

		if (!low)
			break;
		i = as_bit_index(low) & (AS_OPEN_ATOM_MAX - 1);
		cand &= cand - 1;
		if (as_masked_eq(w, cfg_open_filter.atom[i], cfg_open_filter.amask[i],
				 AS_OPEN_ATOM_LEN))
			hit |= low;
	}
	s->top.atoms |= hit;
	return 0;
}

/* Of class c's terms in live (bit t: term t), those a path starting with
 * the prefixes in pm can still pass. A global function, as the two below:
 * the verifier sees an unknown mask, not each combination of terms. */
__noinline __u32 as_terms_left(__u32 c, __u32 live, __u32 pm)
{
	__u32 t, out = 0;

	c &= AS_OPEN_CLASSES - 1;
	for (t = 0; t < AS_OPEN_TERMS; t++)
		if ((live & (1u << t)) && !(cfg_open_filter.term[c][t].excl & pm))
			out |= 1u << t;
	return out;
}

/* Class c's terms whose names the path has (am: the atoms it matched); with
 * AS_TERMS_KEEP when one of them excludes no prefix: the open is kept. */
#define AS_TERMS_KEEP (1u << 31)
__noinline __u32 as_terms_live(__u32 c, __u32 am)
{
	__u32 t, nt, out = 0;

	c &= AS_OPEN_CLASSES - 1;
	nt = cfg_open_filter.nterm[c];
	for (t = 0; t < AS_OPEN_TERMS; t++) {
		__u32 need = cfg_open_filter.term[c][t].need;

		if (t >= nt)
			break;
		if (need && !(need & am))
			continue;
		out |= 1u << t;
		if (!cfg_open_filter.term[c][t].excl)
			out |= AS_TERMS_KEEP;
	}
	return out;
}

/* The prefixes class c's terms in live exclude. */
__noinline __u32 as_terms_union(__u32 c, __u32 live)
{
	__u32 t, out = 0;

	c &= AS_OPEN_CLASSES - 1;
	for (t = 0; t < AS_OPEN_TERMS; t++)
		if (live & (1u << t))
			out |= cfg_open_filter.term[c][t].excl;
	return out;
}

/* Are all of class c's terms in live dead, the rendered path starting with
 * one of each's prefixes? One term: its prefixes are excl. */
static __always_inline int as_terms_dead(struct as_scratch *s, struct as_rendered *rd, __u32 c,
					 __u32 single, __u32 live, __u32 excl)
{
	as_pfx_match(excl, rd);
	if (single)
		return !!(*(volatile __u32 *)&s->top.pm & excl);
	return !as_terms_left(c, live, *(volatile __u32 *)&s->top.pm);
}

/* A name kept in its dentry (d_shortname: shorter than 40 bytes, as most
 * are) rendered at pos by typed word loads: a helper read costs ~70 ns.
 * 0 where the name is elsewhere, or the kernel has no d_shortname (before
 * 6.14) or no typed reads: the caller reads it. */
static __always_inline int as_render_inline(struct as_rendered *rd, __u32 pos, __u32 len,
					    __u64 dent_p, __u64 name_p)
{
	struct dentry *d = AS_KPTR(dentry, dent_p);
	__u32 sh = (pos & 7) * 8, wi = pos >> 3, j;

	if (!as_name_is_short(d, dent_p, name_p, len))
		return 0;
#pragma unroll
	for (j = 0; j < sizeof(d->d_shortname) / 8; j++) {
		__u64 v;

		if (j * 8 >= len)
			break;
		v = d->d_shortname.words[j];
		if (len - j * 8 < 8) /* the bytes past the name: none of its */
			v &= (1ull << ((len - j * 8) * 8)) - 1;
		/* pos + len < 64: words 0..7 of the 16, no wrap */
		rd->w[(wi + j) & 15] |= v << sh;
		if (sh)
			rd->w[(wi + j + 1) & 15] |= v >> (64 - sh);
	}
	return 1;
}

/*
 * The verdict on a path walked to the root (as_file_dropped): which of class
 * c's terms have their names (the atoms the walk matched), then the
 * prefixes, rendering "/" and the names nearest the root exactly as
 * userspace joins them, testing after each: "/tmp/" decides a path under
 * /tmp before its next name is read. What is not rendered stays zero, so a
 * prefix longer than what is rendered so far does not match yet. A global
 * function of its own: the verifier checks it once, not once for each
 * step of the walk it can follow. 1: drop the open.
 */
__noinline int as_file_judge(__u32 c)
{
	struct as_scratch *s = as_scratch();
	__u32 i, n, pos = 0, need = cfg_open_filter.plen_max, live, excl, single;
	struct as_rendered rd = {};
	char *r = (char *)rd.w;

	if (!s)
		return 0;
	/* a path as_path_walk would cut short: the rules see only part of
	 * it, which no verdict on the whole may speak for */
	if (*(volatile __u32 *)&s->top.bytes + 2 > AS_PATH_MAX)
		return 0;
	c &= AS_OPEN_CLASSES - 1;
	single = (cfg_open_filter.single >> c) & 1;
	/* terms without names, the common case (then one term), need no
	 * call: every term is live, none keeps all (or the walk would not
	 * have run), and the loader's masks are theirs */
	live = (1u << (cfg_open_filter.nterm[c] & (AS_OPEN_TERMS * 2 - 1))) - 1;
	excl = cfg_open_filter.excls[c];
	if (cfg_open_filter.needs[c]) {
		live = as_terms_live(c, *(volatile __u32 *)&s->top.atoms);
		if (live & AS_TERMS_KEEP)
			return 0; /* a term with its names and no prefix to test */
		if (!live)
			return 1;
		excl = as_terms_union(c, live);
	}
	n = *(volatile __u32 *)&s->top.n;
	if (n == 0) {
		r[0] = '/'; /* the root itself */
		return as_terms_dead(s, &rd, c, single, live, excl);
	}
	r[0] = '/';
	pos = 1;
	for (i = 0; i < AS_OPEN_TOP_COMPS; i++) {
		__u32 k = (n - 1 - i) & (AS_OPEN_TOP_COMPS - 1), len, full;

		if (i >= n || pos >= AS_OPEN_PREFIX_LEN - 1 || pos > need)
			break;
		full = len = s->top.len[k];
		/* a plain read of the name's known length: the _str helper
		 * copies byte by byte */
		if (len > AS_OPEN_PREFIX_LEN - 1 - pos)
			len = AS_OPEN_PREFIX_LEN - 1 - pos;
		AS_VERIFIER_MASK(pos, 63);
		AS_VERIFIER_MASK(len, 63);
		if (!len)
			break;
		if (!as_render_inline(&rd, pos, len, s->top.dent[k], s->top.name[k]) &&
		    bpf_probe_read_kernel(r + pos, len, (const void *)s->top.name[k]))
			break;
		pos += len;
		/* the '/' after a whole name that is not the last is rendered
		 * with it: "/tmp/" decides a path under /tmp with no second
		 * name read and no second test */
		if (len == full && i + 1 < n && pos < AS_OPEN_PREFIX_LEN - 1) {
			r[pos & (AS_OPEN_PREFIX_LEN - 1)] = '/';
			pos++;
		}
		if (as_terms_dead(s, &rd, c, single, live, excl))
			return 1;
	}
	return 0;
}

/*
 * Does no rule's term let the open of file (class c) through? Walk from
 * the file up to the task's root as as_path_walk does, copying no name:
 * each name whose length an atom can match is tested against the atoms,
 * and the AS_OPEN_TOP_COMPS names nearest the root are noted; then judge
 * (as_file_judge). 1: drop the open; 0: keep it (also when the walk did not
 * reach the root: the test errs on that side).
 */
__noinline int as_file_dropped(__u32 c, __u64 file_p, __u64 task_p)
{
	struct file *f = AS_KPTR(file, file_p);
	struct task_struct *task = AS_KPTR(task_struct, task_p);
	struct dentry *d, *mnt_root, *root_d, *parent;
	struct as_scratch *s = as_scratch();
	struct vfsmount *root_m;
	struct inode *ino;
	struct mount *mnt;
	__u32 i, n, needs, notbase, cand, mode;

	if (!s)
		return 0;
	/* the atoms class c's terms ask for (none: no name is read) */
	needs = cfg_open_filter.needs[c & (AS_OPEN_CLASSES - 1)];
	notbase = ~cfg_open_filter.abase;
	d = AS_RD(f, f_path.dentry);
	ino = AS_RD(d, d_inode);
	/* a file with no link (a deleted one, an O_TMPFILE, a memfd) has no
	 * path a prefix can speak for: kept, for the rules to judge
	 * (fd.is_deleted, AS_OF_NOLINK) */
	if (!AS_RD(ino, __i_nlink))
		return 0;
	/* nor has a device that reads a disk or memory raw (every file on it,
	 * whatever its name: fd.is_rawdev), nor a setid file written or made
	 * (fd.is_setid): kept wherever they are */
	mode = AS_RD(ino, i_mode);
	if (as_rawdev(mode, (mode & AS_S_IFMT) == AS_S_IFCHR ? AS_RD(ino, i_rdev) : 0) ||
	    ((c & (AS_OPEN_WRITE | AS_OPEN_TRUNC)) && as_setid(mode)))
		return 0;
	/* struct mount around the vfsmount: the difference as a number, then
	 * typed; from here on the vfsmount is always &mnt->mnt, one type for
	 * the verifier whichever mount the walk is in */
	*(volatile __u64 *)&s->word[0] = (__u64)AS_RD(f, f_path.mnt);
	mnt = AS_KPTR(mount, *(volatile __u64 *)&s->word[0] -
				     bpf_core_field_offset(struct mount, mnt));
	mnt_root = AS_RD(mnt, mnt.mnt_root);
	root_d = AS_RD2(task, fs, root.dentry);
	root_m = AS_RD2(task, fs, root.mnt);
	/* the count of names met and the atoms matched live in map memory,
	 * numbers the verifier does not follow: otherwise each count at each
	 * step is a state of its own (the walk's loop is a bounded one) */
	s->top.n = 0;
	s->top.atoms = 0;
	s->top.bytes = 0;
	for (i = 0; i < AS_EXCL_DEPTH; i++) {
		__u32 len, l;

		if (!d)
			return 0;
		if (d == root_d && (void *)&mnt->mnt == (void *)root_m)
			return as_file_judge(c);
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
		/* the name met last is the topmost so far; the first is fd.filename */
		n = *(volatile __u32 *)&s->top.n;
		len = AS_RD(d, d_name.len);
		s->top.name[n & (AS_OPEN_TOP_COMPS - 1)] = (__u64)AS_RD(d, d_name.name);
		s->top.dent[n & (AS_OPEN_TOP_COMPS - 1)] = (__u64)d;
		s->top.len[n & (AS_OPEN_TOP_COMPS - 1)] = len;
		*(volatile __u32 *)&s->top.n = n + 1;
		*(volatile __u32 *)&s->top.bytes += len + 1;
		/* the atoms that can match a name of its length (the last
		 * bucket: that long or longer; a name of no length is one the
		 * walk could not read, tested to be kept), the last-name ones
		 * only for the first name met (n == 0): picked without a
		 * branch, each would be a state of the walk's */
		l = (len | ((((__u64)AS_OPEN_ALEN_BUCKETS - 1 - len) >> 63) * (AS_OPEN_ALEN_BUCKETS - 1))) &
		    (AS_OPEN_ALEN_BUCKETS - 1);
		cand = needs & cfg_open_filter.alen_atoms[l] &
		       (notbase | -(__u32)((((__u64)n - 1) >> 63) & 1));
		if (cand)
			/* the name and its dentry as numbers, read back from
			 * map memory: a typed pointer cannot be passed to a
			 * global function */
			as_atom_match(cand,
				      *(volatile __u64 *)&s->top.name[n & (AS_OPEN_TOP_COMPS - 1)],
				      len,
				      *(volatile __u64 *)&s->top.dent[n & (AS_OPEN_TOP_COMPS - 1)]);
		d = parent;
	}
	return 0; /* not reached the root: keep the event */
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
	/* a 64-bit argument in two registers: joined, the rest moved up (at
	 * constant offsets: the verifier takes no variable one into a) */
	n = s->compat.split64;
	if (!n || n >= AS_SYSCALL_ARGS)
		return 0;
	for (i = 1; i < AS_SYSCALL_ARGS; i++) {
		if (i == n)
			s->compat.args[i - 1] |= s->compat.args[i] << 32;
		if (i >= n)
			s->compat.args[i] = i + 1 < AS_SYSCALL_ARGS ? s->compat.args[i + 1] : 0;
	}
	return 0;
}
