// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Every syscall of the generic record (struct as_sys): file changes
 * (rename, link, unlink, mkdir, chmod, chown, truncate, xattrs, times) and
 * acts on privilege, isolation, code and the cwd (unshare, setns, mount,
 * ptrace, modules, bpf, prctl, memfd_create, io_uring_setup, chdir, ...).
 * One program serves them all: the loader writes, per syscall number, which
 * arguments are paths, strings or fds (cfg_sys_spec, from user/sctable.c),
 * and attaches this program to each sys_exit_* tracepoint of the table.
 * Paths are sent as the caller passed them plus, for a relative one, the
 * component list of the directory it starts from (its dirfd's or the cwd),
 * so userspace rebuilds the absolute path as the process sees it; an fd
 * argument's path is its file's component list.
 */
#include "sentinel.bpf.h"

const volatile struct as_sys_spec cfg_sys_spec[AS_SYS_NR_MAX];

#define AS_PR_SET_NAME 15
/* The kernel's initial UTS namespace has this inode number (PROC_UTS_INIT_INO
 * of include/linux/proc_ns.h, fixed since Linux 3.8): the host's names */
#define AS_UTS_INIT_INO 0xEFFFFFFEu

/* Slot i's user string (with its base directory when it is a relative
 * path, and the file behind an fd it names, as_put_fdlink) at off of this
 * CPU's scratch record; returns the bytes written. A
 * global function, so the verifier checks it once, not once per slot:
 * arguments travel as numbers (args as the user registers hold them). */
__noinline __u32 as_put_slot(__u64 where, __u64 uptr, __u64 dfd, __u64 task_p)
{
	/* where: off (bits 0-15), slot (16), str (24-31), dirfd (32-39): BPF
	 * functions take five arguments at most */
	__u32 off = where & 0xffff, i = (where >> 16) & 1, str = (where >> 24) & 0xff;
	__u32 dirfd = (where >> 32) & 0xff;
	struct task_struct *task = (struct task_struct *)task_p;
	__u32 shift = (i & 1) * AS_SYF_SLOT_BITS, n, base;
	__u8 *buf = as_scratch_buf();
	struct as_sys *r = (struct as_sys *)buf;
	int trunc = 0;

	if (!buf || str >= AS_SYSCALL_ARGS)
		return 0;
	/* NULL is no path where no dirfd could stand for it (acct(NULL) turns
	 * accounting off); utimensat's NULL names its dirfd, joined below */
	if (!uptr && dirfd == AS_SPEC_CWD)
		return 0;
	n = as_put_user_str(buf, off, (const void *)uptr, AS_PATH_MAX, &trunc);
	r->len[i & 1] = n;
	if (trunc)
		r->pflags |= AS_SYF_USER_TRUNC << shift;
	if (dirfd == AS_SPEC_NONE) {
		r->pflags |= AS_SYF_PLAIN << shift;
		return n;
	}
	if (buf[off & AS_SCRATCH_OFF_MASK] != '/')
		base = as_put_slot_base(buf, off + n, r, i,
					dirfd == AS_SPEC_CWD || dirfd >= AS_SYSCALL_ARGS, (int)dfd,
					task);
	else
		base = 0;
	return n + base + as_put_fdlink(off, n, base, i, task);
}

/* as_put_slot for slot i of the spec, its argument values picked here */
static __always_inline __u32 as_put_spec_slot(__u32 off, __u32 i, __u8 str, __u8 dirfd,
					      const __u64 *args, struct task_struct *task)
{
	if (str >= AS_SYSCALL_ARGS)
		return 0;
	return as_put_slot((__u64)(off & 0xffff) | (__u64)i << 16 | (__u64)str << 24 |
				   (__u64)dirfd << 32,
			   args[str], dirfd < AS_SYSCALL_ARGS ? args[dirfd] : (__u64)(__s64)AS_AT_FDCWD,
			   (__u64)task);
}

/* t's thread id in the pid namespace at level (what a caller there passes
 * as its pid); 0 when t is not seen there */
static __always_inline int as_tid_at(struct task_struct *t, __u32 level)
{
	struct pid *p = BPF_CORE_READ(t, thread_pid);
	int nr = 0;

	if (!p || BPF_CORE_READ(p, level) < level)
		return 0;
	bpf_core_read(&nr, sizeof(nr), &p->numbers[level & 31].nr);
	return nr;
}

/* The task among head's first AS_PTK_SCAN entries (each the list_head at
 * off in its task) whose thread id at level is nr */
static __always_inline struct task_struct *as_list_find(struct list_head *head, __u32 off,
							__u32 level, int nr)
{
	struct list_head *n = BPF_CORE_READ(head, next);

	for (int i = 0; i < AS_PTK_SCAN && n && n != head; i++) {
		struct task_struct *t = (void *)n - off;

		if (as_tid_at(t, level) == nr)
			return t;
		n = BPF_CORE_READ(n, next);
	}
	return 0;
}

#define AS_SUID_DUMP_USER 1 /* mm->flags' dumpable bits: an ordinary process */
#define AS_MMF_DUMPABLE_MASK 3

/* Whether t holds nothing the caller (me) lacks: its real, effective and
 * saved ids are the caller's real ones, its permitted capabilities are
 * among the caller's, in the same user namespace, and it is dumpable. It
 * is the test the kernel passes without CAP_SYS_PTRACE (__ptrace_may_access
 * with real credentials); a setuid program's child, or ssh-agent (which
 * makes itself undumpable to guard its keys), fails it. */
static __always_inline int as_creds_within(struct task_struct *t, struct task_struct *me)
{
	const struct cred *tc = BPF_CORE_READ(t, real_cred), *mc = BPF_CORE_READ(me, cred);
	struct mm_struct *mm = BPF_CORE_READ(t, mm);
	__u32 uid = BPF_CORE_READ(mc, uid.val), gid = BPF_CORE_READ(mc, gid.val);
	__u64 tcap = 0, mcap = 0, mmf = 0;

	if (!tc || !mc || !mm || BPF_CORE_READ(tc, user_ns) != BPF_CORE_READ(mc, user_ns))
		return 0;
	if (BPF_CORE_READ(tc, uid.val) != uid || BPF_CORE_READ(tc, euid.val) != uid ||
	    BPF_CORE_READ(tc, suid.val) != uid || BPF_CORE_READ(tc, gid.val) != gid ||
	    BPF_CORE_READ(tc, egid.val) != gid || BPF_CORE_READ(tc, sgid.val) != gid)
		return 0;
	/* kernel_cap_t is a u64 since 6.3, two u32s before: 8 bytes either way */
	bpf_core_read(&tcap, sizeof(tcap), &tc->cap_permitted);
	bpf_core_read(&mcap, sizeof(mcap), &mc->cap_permitted);
	/* mm->flags: an unsigned long, a one-word bitmap since 6.18 */
	bpf_core_read(&mmf, sizeof(mmf), &mm->flags);
	return !(tcap & ~mcap) && (mmf & AS_MMF_DUMPABLE_MASK) == AS_SUID_DUMP_USER;
}

/*
 * A ptrace's target (process_vm_readv's, process_vm_writev's: the kernel
 * asks the same of them) as the caller stands to it (AS_PTK_* bits): its own
 * descendant holding nothing it lacks (a debugger's or strace's program;
 * Yama's ptrace_scope 1 allows exactly these), or a process sharing its
 * memory (LeakSanitizer's tracer is a CLONE_VM clone that attaches to the
 * threads of the program that made it). Neither lets the caller do what
 * it could not already. Found by the thread id the caller passed, among
 * its tracees (a request on an attached target; an attach that worked),
 * its children (an attach to one, worked or refused) and its creator's
 * threads when it shares their memory (a global function: verified once).
 *
 * This runs at the call's exit: a pid the call named may by then be
 * another process's. An attach that worked left its target on the
 * tracee list, the one place looked first, and any other ptrace request
 * needs a tracee; but process_vm_readv and process_vm_writev reach any
 * process, and one kept waiting (its own buffer on a userfaultfd) could
 * see its target exit and a child of the caller take the pid. For them
 * (tracees_only) only the tracees count: strace reading its tracee's
 * strings, the case that matters.
 */
__noinline __u64 as_ptrace_kin(__s64 nr, __u32 tracees_only)
{
	struct task_struct *me = (struct task_struct *)bpf_get_current_task(), *t, *rp;
	__u32 level = BPF_CORE_READ(me, thread_pid, level);
	struct mm_struct *mm = BPF_CORE_READ(me, mm);
	__u64 fl = 0;

	if (nr <= 0 || nr > 0x7fffffff || !mm)
		return 0;
	t = as_list_find(&me->ptraced, bpf_core_field_offset(struct task_struct, ptrace_entry),
			 level, (int)nr);
	if (!t && !tracees_only)
		t = as_list_find(&me->children, bpf_core_field_offset(struct task_struct, sibling),
				 level, (int)nr);
	rp = BPF_CORE_READ(me, real_parent);
	if (!t && !tracees_only && rp && BPF_CORE_READ(rp, mm) == mm &&
	    bpf_core_field_exists(struct signal_struct, thread_head)) {
		struct signal_struct *sig = BPF_CORE_READ(rp, signal);

		if (sig)
			t = as_list_find(&sig->thread_head,
					 bpf_core_field_offset(struct task_struct, thread_node), level,
					 (int)nr);
	}
	if (!t)
		return 0;
	if (BPF_CORE_READ(t, mm) == mm)
		fl |= 1u << AS_PTK_SHARES_MM;
	if (as_descends_from(t, BPF_CORE_READ(me, tgid)) && as_creds_within(t, me))
		fl |= 1u << AS_PTK_DESCENDANT;
	return fl;
}

/* A value behind an argument that says what the call does. */
static __always_inline __u64 as_sys_extra(__u32 sc, const __u64 *args)
{
	__u32 v = 0;

	switch (sc) {
	case AS_SC_FCNTL: /* F_SETOWN_EX's struct f_owner_ex: type, pid (F_SETOWN's is args[2]) */
		if ((__u32)args[1] == AS_F_SETOWN_EX) {
			__u64 ex = 0;

			bpf_probe_read_user(&ex, sizeof(ex), (const void *)args[2]);
			return ex;
		}
		break;
	case AS_SC_IOCTL: /* FIOSETOWN, SIOCSPGRP: an int, the pid (a group: negative) */
		if ((__u32)args[1] == AS_FIOSETOWN || (__u32)args[1] == AS_SIOCSPGRP)
			bpf_probe_read_user(&v, sizeof(v), (const void *)args[2]);
		break;
	case AS_SC_IO_URING_SETUP: /* struct io_uring_params: sq_entries, cq_entries, flags */
		bpf_probe_read_user(&v, sizeof(v), (const void *)(args[1] + 8));
		break;
	case AS_SC_SETXATTRAT: /* struct xattr_args: value (u64), size, flags */
		bpf_probe_read_user(&v, sizeof(v), (const void *)(args[4] + 8));
		break;
	case AS_SC_ADJTIMEX: /* struct timex: modes first (0: a read of the clock's state) */
	case AS_SC_CLOCK_ADJTIME:
		/* a struct the caller took away (munmap, MADV_DONTNEED) is no read */
		if (bpf_probe_read_user(&v, sizeof(v), (const void *)args[sc == AS_SC_ADJTIMEX ? 0 : 1]))
			return AS_EXTRA_UNREAD;
		break;
	case AS_SC_SETHOSTNAME: /* 1: the name is the host's (its initial UTS namespace) */
	case AS_SC_SETDOMAINNAME:
		return BPF_CORE_READ((struct task_struct *)bpf_get_current_task(), nsproxy, uts_ns,
				     ns.inum) == AS_UTS_INIT_INO;
	case AS_SC_REBOOT:
		/* 1: the caller is in the host's pid namespace; in another,
		 * reboot only ends that namespace's init (reboot_pid_ns) */
		return BPF_CORE_READ((struct task_struct *)bpf_get_current_task(), thread_pid,
				     level) == 0;
	case AS_SC_PTRACE:
		return as_ptrace_kin((__s64)(int)args[1], 0);
	case AS_SC_PROCESS_VM_READV:
	case AS_SC_PROCESS_VM_WRITEV:
		return as_ptrace_kin((__s64)(int)args[0], 1);
	case AS_SC_BPF: /* union bpf_attr: map_type or prog_type first */
	case AS_SC_PERF_EVENT_OPEN: /* struct perf_event_attr: type first */
		bpf_probe_read_user(&v, sizeof(v), (const void *)args[sc == AS_SC_BPF ? 1 : 0]);
		break;
	default:
		break;
	}
	return v;
}

/* bpf_find_vma's callback: the file of the mapping at the address */
static long as_vma_file(struct task_struct *task, struct vm_area_struct *vma, void *ctx)
{
	*(__u64 *)ctx = (__u64)vma->vm_file;
	return 0;
}

#define AS_AT_NULL 0
#define AS_AT_ENTRY 9 /* <linux/auxvec.h>: the program's own entry */
#define AS_AT_BASE 7 /* where the interpreter was loaded (0: fixed-address or none) */
#define AS_AUXV_PAIRS 28 /* mm->saved_auxv's pairs read at most (x86_64 has 28) */

/* The file mapped at addr in task (*f: 0 for anonymous memory): 0, or
 * bpf_find_vma's error: -ENOENT when nothing is mapped there, -EBUSY when
 * the mm's lock was taken (a reader of /proc/PID/maps) and nothing is known */
static __always_inline long as_file_at(struct task_struct *task, __u64 addr, struct file **f)
{
	__u64 vf = 0;
	long err = bpf_find_vma(task, addr, as_vma_file, &vf, 0);

	*f = (struct file *)vf;
	return err;
}

#define AS_ENOENT 2

/*
 * The ELF interpreter of the program an exec just loaded (PT_INTERP: the
 * kernel opens and maps it itself, so neither an open nor an mmap is an
 * event of it): AS_XF_INTERP_NOLINK when its file has no link left. A
 * program linked with --dynamic-linker=/proc/self/fd/N runs a memfd's code
 * that way, with a named file as its executable. The interpreter is found
 * where it was loaded (the auxiliary vector's AT_BASE, for a
 * position-independent one) and where the new image starts running (the
 * exec set the user ip to its entry: a fixed-address one, whose AT_BASE is
 * 0, and an i386 process's, whose auxv words are 32-bit). An entry the
 * interpreter's headers point elsewhere (into the program's own mapping,
 * or memory with no file) while it is not the program's own AT_ENTRY is
 * flagged too: no loader does that, and it hides the interpreter from the
 * ip. Called from sched_process_exec, in the new image (a global function:
 * verified once).
 */
__noinline __u32 as_interp_nolink(void)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(task);
	struct mm_struct *mm = task->mm;
	__u64 pair[2], base = 0, entry = 0, ip;
	const unsigned long *auxv;
	struct inode *exe;
	struct file *f = 0;
	__u32 pairs;
	long err;

	if (!mm || !regs)
		return 0;
	auxv = (const unsigned long *)__builtin_preserve_access_index(&mm->saved_auxv);
	pairs = bpf_core_field_size(mm->saved_auxv) / sizeof(pair);
	for (__u32 i = 0; i < AS_AUXV_PAIRS && i < pairs; i++) {
		if (bpf_probe_read_kernel(pair, sizeof(pair), auxv + 2 * i) || pair[0] == AS_AT_NULL)
			break;
		if (pair[0] == AS_AT_BASE)
			base = pair[1];
		else if (pair[0] == AS_AT_ENTRY)
			entry = pair[1];
	}
	exe = BPF_CORE_READ(mm, exe_file, f_inode);
	if (base && !as_file_at(task, base, &f) && f && BPF_CORE_READ(f, f_inode) != exe &&
	    !BPF_CORE_READ(f, f_inode, __i_nlink))
		return AS_XF_INTERP_NOLINK;
	ip = PT_REGS_IP_CORE(regs);
	err = as_file_at(task, ip, &f);
	if (err && err != -AS_ENOENT)
		return 0; /* not known: no alert on a lock another held */
	if (f && BPF_CORE_READ(f, f_inode) != exe)
		return BPF_CORE_READ(f, f_inode, __i_nlink) ? 0 : AS_XF_INTERP_NOLINK;
	/* in the program's own mapping, or in none: only at its own entry */
	return entry && ip != entry ? AS_XF_INTERP_NOLINK : 0;
}

/*
 * mmap, mprotect, pkey_mprotect: the file whose pages the call makes code
 * (PROT_EXEC, or PROT_READ under the READ_IMPLIES_EXEC personality),
 * kept only when it has no link left: a memfd, an O_TMPFILE, a deleted
 * file. That is code no path names: a library preloaded from
 * /proc/self/fd/N, a program a copy of the loader maps from a descriptor,
 * a payload mapped straight from memory. Every other mapping of code (each
 * library a loader maps) and anonymous code (a JIT's) makes no event: there
 * is no file, or the file has a name whose open is the event.
 */
static __always_inline struct file *as_code_file(__u32 sc, const __u64 *args)
{
	struct file *f;
	__u64 vf = 0;

	if (!as_prot_code((__u32)args[2]))
		return 0;
	if (sc == AS_SC_MMAP) {
		if ((__u32)args[3] & AS_MAP_ANONYMOUS)
			return 0;
		f = as_task_file((struct task_struct *)bpf_get_current_task(), (int)args[4]);
	} else {
		bpf_find_vma(bpf_get_current_task_btf(), args[0], as_vma_file, &vf, 0);
		f = (struct file *)vf;
	}
	if (!f || BPF_CORE_READ(f, f_inode, __i_nlink))
		return 0;
	return f;
}

static __always_inline int as_generic_exit(struct as_sys_exit *ctx, int compat)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	__u64 args[AS_SYSCALL_ARGS];
	long nr = ctx->id;
	struct file *code = 0;
	struct as_sys_spec sp;
	struct as_sys *r;
	__u32 off;
	__u8 *buf;

	if (nr < 0 || nr >= AS_SYS_NR_MAX)
		return 0;
	sp = cfg_sys_spec[nr & (AS_SYS_NR_MAX - 1)];
	if (sp.sc == AS_SC_NONE || !as_prefiltered(sp.type, compat))
		return 0;
	as_args(args, compat);
	if (sp.sc == AS_SC_MMAP || sp.sc == AS_SC_MPROTECT || sp.sc == AS_SC_PKEY_MPROTECT) {
		code = as_code_file(sp.sc, args);
		if (!code)
			return 0;
	}
	buf = as_scratch_buf();
	if (!buf)
		return 0;
	r = (struct as_sys *)buf;
	as_hdr_fill(&r->hdr, task, sp.type, sp.sc | (compat ? AS_SC_COMPAT_BIT : 0));
	__builtin_memset(&r->res, 0, sizeof(*r) - sizeof(r->hdr));
	r->mntns = BPF_CORE_READ(task, nsproxy, mnt_ns, ns.inum);
	r->res = ctx->ret;
	for (int i = 0; i < AS_SYS_ARGS; i++)
		r->arg[i] = args[i];
	r->extra = as_sys_extra(sp.sc, args);
	off = sizeof(*r);

	if (sp.sc == AS_SC_CHDIR && ctx->ret == 0) {
		/* the new cwd itself: a relative argument would be joined to
		 * the cwd it already moved to */
		struct fs_struct *fs = BPF_CORE_READ(task, fs);
		__u32 pf = 0;

		r->len[0] = as_put_task_path(buf, off, &fs->pwd, task, &pf);
		r->pflags |= AS_SYF_RESOLVED | pf << AS_SYF_WALK_SHIFT;
		off += r->len[0];
	} else if (sp.fd < AS_SYSCALL_ARGS || code) {
		/* mprotect's file is its mapping's (no fd argument) */
		struct file *f = code;

		if (sp.fd < AS_SYSCALL_ARGS)
			f = as_task_file(task, (int)args[sp.fd]);
		if (f) {
			__u32 pf = 0;

			r->len[0] = as_put_task_path(buf, off, &f->f_path, task, &pf);
			r->pflags |= AS_SYF_RESOLVED | pf << AS_SYF_WALK_SHIFT;
			if (code) {
				if (!r->len[0] && (pf & AS_PATH_DETACHED))
					r->len[0] = as_put_detached_name(buf, off, f);
				r->pflags |= AS_SYF_NOLINK;
			}
			off += r->len[0];
		}
	} else {
		off += as_put_spec_slot(off, 0, sp.str[0], sp.dirfd[0], args, task);
	}
	off += as_put_spec_slot(off, 1, sp.str[1], sp.dirfd[1], args, task);

	/* prctl's option is an int: the register's upper half is not looked at */
	if (sp.aux < AS_SYSCALL_ARGS && (sp.sc != AS_SC_PRCTL || (int)args[0] == AS_PR_SET_NAME))
		bpf_probe_read_user_str(r->aux, sizeof(r->aux), (const void *)args[sp.aux]);
	as_emit(buf, off);
	return 0;
}

/* Attached to sys_exit_NAME of every generic syscall (user/attach.c). */
SEC("tracepoint/syscalls/sys_exit_rename")
int tp_sys_exit_generic(struct as_sys_exit *ctx)
{
	return as_generic_exit(ctx, 0);
}

/* The generic syscalls for the raw sys_exit program (bpf/compat.bpf.c): a
 * 32-bit call (compat), or a native one it picks by an argument's value
 * (ioctl's terminal input), whose pre-filter its body asks. */
__noinline int as_raw_generic(__s64 id, __s64 ret, __u32 compat)
{
	struct as_sys_exit c = {};

	c.id = id;
	c.ret = ret;
	return as_generic_exit(&c, compat);
}
