// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The open family: open, creat (x86_64), openat, openat2, open_by_handle_at. */
#include "sentinel.bpf.h"

#define AS_O_CREAT 0100
#define AS_O_RDONLY 00
#define AS_O_WRONLY 01
#define AS_O_RDWR 02
#define AS_O_ACCMODE 03
#define AS_O_TRUNC 01000
#define AS_FMODE_CREATED (1u << 20) /* linux/fs.h: f_mode of a file an open created */

/* The class bits an open's flags decide (evt.is_open_read/_write). */
static __always_inline __u32 as_open_mode(__u32 sc, __u64 flags)
{
	__u32 acc = sc == AS_SC_CREAT ? AS_O_WRONLY : (__u32)flags & AS_O_ACCMODE;

	if (acc == AS_O_RDWR)
		return AS_OPEN_READ | AS_OPEN_WRITE;
	if (acc == AS_O_WRONLY)
		return AS_OPEN_WRITE;
	return acc == AS_O_RDONLY ? AS_OPEN_READ : 0;
}

/* Is an open of class c | AS_OPEN_TRUNC judged exactly as one of class c
 * (c without it)? Then whether an O_CREAT open made its file (f_mode, a
 * helper read) need not be known to judge it, only to report it. */
static __always_inline int as_trunc_same(__u32 c)
{
	__u32 t = c | AS_OPEN_TRUNC, cl = cfg_open_filter.classes, te = cfg_open_filter.test;
	__u32 si = cfg_open_filter.single;

	c &= AS_OPEN_CLASSES - 1;
	t &= AS_OPEN_CLASSES - 1;
	if (((cl >> c) ^ (cl >> t)) & 1)
		return 0;
	if (!((cl >> c) & 1))
		return 1; /* neither is wanted */
	if (((te >> c) ^ (te >> t)) & 1)
		return 0;
	if (!((te >> c) & 1))
		return 1; /* both kept whole */
	/* one term each, without names: its prefixes are the whole test */
	return (si >> c) & (si >> t) & 1 && !cfg_open_filter.needs[c] &&
	       !cfg_open_filter.needs[t] && cfg_open_filter.excls[c] == cfg_open_filter.excls[t];
}

/* How many of the caller's descriptors an open of an anonymous pipe
 * through a path looks through for its own hold on that pipe */
#define AS_PIPE_SCAN_MAX 1024

struct as_pipe_scan {
	__u64 task;
	__u64 ino;
	__s64 skip; /* the descriptor the open made */
	__u64 n; /* the table's size */
	int held;
	__u32 _pad0;
};

static long as_pipe_scan_step(__u32 i, void *ctx)
{
	struct as_pipe_scan *c = ctx;
	struct file *g;

	if (i >= c->n)
		return 1;
	if ((__s64)i == c->skip)
		return 0;
	g = (struct file *)as_task_file_p(c->task, i);
	if (g && (__u64)BPF_CORE_READ(g, f_inode) == c->ino) {
		c->held = 1;
		return 1;
	}
	return 0;
}

/* Does the caller hold the pipe of inode ino (either end) by another
 * descriptor than fd? /dev/stdout, /dev/fd/63 of >(...), /proc/self/fd/N:
 * yes. /proc/PID/fd/0 of a process that reads commands from a pipe: no.
 * Only an anonymous pipe opened by a path pays for the look. */
static __always_inline int as_pipe_held(struct task_struct *task, struct inode *ino, long fd)
{
	struct as_pipe_scan c = { .task = (__u64)task, .ino = (__u64)ino, .skip = fd,
				  .n = BPF_CORE_READ(task, files, fdt, max_fds) };

	bpf_loop(AS_PIPE_SCAN_MAX, as_pipe_scan_step, &c, 0);
	return c.held || c.n > AS_PIPE_SCAN_MAX; /* past the look: not said */
}

/* The opener's relation to the process whose /proc/PID entry ino is (the
 * entry's task: its pid's PIDTYPE_PID task): AS_OF_TRACEE when the opener
 * traces it (a debugger reads and writes its debuggee's mem; that it
 * attached is the ptrace event's to tell); AS_OF_DESCENDANT, for an open
 * that writes (write: nonzero), when the opener is among its
 * AS_KIN_DEPTH nearest creators (as_descends_from). */
static __always_inline __u32 as_proc_kin(struct task_struct *task, struct inode *ino, int write)
{
	struct proc_inode *pi = (void *)ino - bpf_core_field_offset(struct proc_inode, vfs_inode);
	struct pid *pid = BPF_CORE_READ(pi, pid);
	struct task_struct *t;
	struct hlist_node *first;
	__u32 me, fl = 0;

	if (!pid)
		return 0; /* not a process's entry: /proc/sys, /proc/meminfo */
	first = BPF_CORE_READ(pid, tasks[0].first); /* PIDTYPE_PID */
	if (!first)
		return 0; /* the process is gone */
	t = (void *)first - bpf_core_field_offset(struct task_struct, pid_links);
	me = BPF_CORE_READ(task, tgid);
	if (BPF_CORE_READ(t, ptrace) && BPF_CORE_READ(t, parent, tgid) == me)
		fl |= AS_OF_TRACEE;
	if (!write || BPF_CORE_READ(t, tgid) == me)
		return fl;
	return as_descends_from(t, me) ? fl | AS_OF_DESCENDANT : fl;
}

/*
 * One record per open attempt. A successful open reports the opened file's
 * own path (dentry and mount walk, as the process sees it), and when a rule
 * reads fd.nameraw (cfg_open_filter.raw) the string as passed after it, a
 * second copy that costs an open nothing otherwise. A failed one has
 * no file: it reports the string the caller passed, plus the component list
 * of the directory a relative path starts from (cwd or dirfd), which
 * userspace joins and normalises.
 */
static __always_inline int as_open_exit(struct as_sys_exit *ctx, int compat)
{
	__u32 sc = as_sc_of(ctx->id), off, pf = 0, class, mode, imode;
	struct task_struct *task;
	__u64 args[AS_SYSCALL_ARGS], flags;
	struct file *f = 0;
	long ret = ctx->ret;
	const char *upath;
	struct as_open *o;
	int trunc = 0, tested, created;
	__s32 dirfd;
	__u8 *buf;

	if ((sc != AS_SC_OPENAT && sc != AS_SC_OPEN && sc != AS_SC_OPENAT2 && sc != AS_SC_CREAT &&
	     sc != AS_SC_OPEN_BY_HANDLE_AT) ||
	    !as_prefiltered(AS_EV_OPEN, compat))
		return 0; /* an open outside any agent tree ends here */
	as_args(args, compat);
	switch (sc) {
	case AS_SC_OPEN:
		upath = (const char *)args[0];
		dirfd = AS_AT_FDCWD;
		flags = args[1];
		mode = args[2];
		break;
	case AS_SC_CREAT:
		upath = (const char *)args[0];
		dirfd = AS_AT_FDCWD;
		flags = AS_O_CREAT | AS_O_WRONLY | AS_O_TRUNC;
		mode = args[1];
		break;
	case AS_SC_OPENAT2: {
		struct as_open_how how = {};

		upath = (const char *)args[1];
		dirfd = args[0];
		bpf_probe_read_user(&how, sizeof(how), (void *)args[2]);
		flags = how.flags;
		mode = how.mode;
		break;
	}
	case AS_SC_OPEN_BY_HANDLE_AT:
		/* (mount_fd, handle, flags): no path but the opened file's */
		upath = 0;
		dirfd = args[0];
		flags = args[2];
		mode = 0;
		break;
	default:
		upath = (const char *)args[1];
		dirfd = args[0];
		flags = args[2];
		mode = args[3];
		break;
	}
	flags &= ~AS_O_F_CREATED; /* openat2's caller may set any bit: EINVAL */
	task = (struct task_struct *)bpf_get_current_task();
	if (ret >= 0)
		f = as_task_file(task, ret);
	/* an open that made the file (O_CREAT, the file was not there) changed
	 * the filesystem whatever its access mode: O_RDONLY|O_CREAT too */
	class = as_open_mode(sc, flags) | (ret >= 0 ? AS_OPEN_OK : 0) |
		(flags & AS_O_TRUNC ? AS_OPEN_TRUNC : 0);
	created = f && (flags & AS_O_CREAT);
	if (created && !(flags & AS_O_TRUNC) && !as_trunc_same(class)) {
		created = 0; /* known now */
		if (BPF_CORE_READ(f, f_mode) & AS_FMODE_CREATED) {
			flags |= AS_O_F_CREATED;
			class |= AS_OPEN_TRUNC;
		}
	}
	/* the rules' classes and path tests (user/rules/kfopen.c) are the
	 * native path opens' (a rule may watch 32-bit opens, or handle opens,
	 * alone): a 32-bit open or an open_by_handle_at, rare, always reaches
	 * userspace */
	tested = !compat && sc != AS_SC_OPEN_BY_HANDLE_AT;
	if (tested && !(cfg_open_filter.classes & (1u << class)))
		return 0;
	/* the path's names first, without copying them: when no rule can
	 * match the path, nothing else is read or written */
	if (f && tested && (cfg_open_filter.test & (1u << class)) &&
	    as_file_dropped(class, (__u64)f, (__u64)task))
		return 0;
	/* kept: whether it made its file, if that is still to be read */
	if (created && (BPF_CORE_READ(f, f_mode) & AS_FMODE_CREATED))
		flags |= AS_O_F_CREATED;
	buf = as_scratch_buf();
	if (!buf)
		return 0;
	o = (struct as_open *)buf;
	o->res = ret;
	o->dev = 0;
	o->ino = 0;
	o->pflags = 0;
	o->base_len = 0;
	o->dirfd = dirfd;
	o->flags = flags;
	o->mode = mode;
	off = sizeof(*o);

	if (f) {
		struct super_block *sb;
		struct inode *ino;

		o->path_len = as_put_task_path(buf, off, &f->f_path, task, &pf);
		ino = BPF_CORE_READ(f, f_inode);
		o->pflags = AS_OF_RESOLVED | pf << AS_OF_PATH_SHIFT;
		imode = BPF_CORE_READ(ino, i_mode);
		if ((imode & AS_S_IFMT) == AS_S_IFIFO) {
			o->pflags |= AS_OF_FIFO;
			if ((pf & AS_PATH_DETACHED) && upath && !as_pipe_held(task, ino, ret))
				o->pflags |= AS_OF_PIPE_FOREIGN;
		} else if (!BPF_CORE_READ(ino, __i_nlink)) {
			o->pflags |= AS_OF_NOLINK;
			if (!o->path_len && (pf & AS_PATH_DETACHED))
				o->path_len = as_put_detached_name(buf, off, f);
		}
		if (as_rawdev(imode, (imode & AS_S_IFMT) == AS_S_IFCHR ? BPF_CORE_READ(ino, i_rdev) : 0))
			o->pflags |= AS_OF_RAWDEV;
		if ((class & (AS_OPEN_WRITE | AS_OPEN_TRUNC)) && as_setid(imode))
			o->pflags |= AS_OF_SETID;
		/* the superblock once: its device, and whether it is /proc */
		sb = BPF_CORE_READ(ino, i_sb);
		if (BPF_CORE_READ(sb, s_magic) == AS_PROC_SUPER_MAGIC)
			o->pflags |= as_proc_kin(task, ino, class & (AS_OPEN_WRITE | AS_OPEN_TRUNC));
		o->dev = as_dev_encode(BPF_CORE_READ(sb, s_dev));
		o->ino = BPF_CORE_READ(ino, i_ino);
		as_hdr_fill(&o->hdr, task, AS_EV_OPEN, sc | (compat ? AS_SC_COMPAT_BIT : 0));
		if (cfg_open_filter.raw && upath) {
			__u32 rlen = as_put_user_str(buf, off + o->path_len, upath, AS_PATH_MAX, &trunc);

			o->pflags |= AS_OF_RAW;
			as_emit(buf, off + o->path_len + rlen);
			return 0;
		}
		as_emit(buf, off + o->path_len);
		return 0;
	}

	as_hdr_fill(&o->hdr, task, AS_EV_OPEN, sc | (compat ? AS_SC_COMPAT_BIT : 0));
	if (!upath) { /* a failed open_by_handle_at: no name at all */
		buf[off & AS_SCRATCH_OFF_MASK] = 0;
		o->path_len = 1;
		as_emit(buf, off + 1);
		return 0;
	}
	o->path_len = as_put_user_str(buf, off, upath, AS_PATH_MAX, &trunc);
	if (trunc)
		o->pflags |= AS_OF_USER_TRUNC;
	if (buf[off & AS_SCRATCH_OFF_MASK] != '/') {
		__u32 boff = off + o->path_len;

		if (o->dirfd == AS_AT_FDCWD) {
			struct fs_struct *fs = BPF_CORE_READ(task, fs);

			o->base_len = as_put_task_path(buf, boff, &fs->pwd, task, &pf);
			o->pflags |= AS_OF_BASE_CWD | pf << AS_OF_BASE_SHIFT;
		} else {
			struct file *dir = as_task_file(task, o->dirfd);

			if (dir) {
				o->base_len = as_put_task_path(buf, boff, &dir->f_path, task, &pf);
				o->pflags |= AS_OF_BASE_DIRFD | pf << AS_OF_BASE_SHIFT;
			}
		}
	}
	as_emit(buf, off + o->path_len + o->base_len);
	return 0;
}

/* Also attached to sys_exit_open, sys_exit_creat, sys_exit_openat2 and
 * sys_exit_open_by_handle_at
 * (user/attach.c): ctx->id says which, and one verified copy instead of
 * four saves ~25 ms of start-up. */
SEC("tracepoint/syscalls/sys_exit_openat")
int tp_sys_exit_openat(struct as_sys_exit *ctx)
{
	return as_open_exit(ctx, 0);
}

/* The open family through the 32-bit ABI (bpf/compat.bpf.c) */
AS_COMPAT_FN(as_compat_open, as_open_exit)
