// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Syscalls made through the 32-bit ABI: int $0x80 from any x86_64 process,
 * or any syscall of a 32-bit program. The syscalls:sys_exit_* tracepoints
 * never fire for them (the kernel's perf syscall events skip compat calls:
 * ARCH_TRACE_IGNORE_COMPAT_SYSCALLS), so without this program an agent
 * could open, connect or setuid unseen with one instruction. Falco's modern
 * probe reads them from the raw sys_exit tracepoint too.
 *
 * One program on raw sys_exit sees every syscall of the host; a native one
 * leaves after one load (thread_info.status). A compat one is looked up by
 * its i386 number in cfg_compat_spec (the loader's table, user/compat.c):
 * the x86_64 syscall it is and its family. That family's exit body
 * (as_compat_*, a global function beside the family's exit program) makes
 * the very record the native call makes, its arguments read the 32-bit way
 * and its header flagged AS_HF_COMPAT. One program for all the families,
 * not one each: the parts they share (pre-filter, header, path walks) are
 * verified once, which keeps start-up within its budget.
 *
 * Being on every syscall's exit, the same program also picks the few native
 * calls no per-syscall tracepoint could afford to watch, by an argument's
 * value: ioctl's terminal-input requests (as_tty_input), fcntl's F_SETOWN,
 * and mmap/mprotect/pkey_mprotect with PROT_EXEC (code from a file: how the
 * dynamic loader maps a library, and how code with no file name is mapped).
 */
#include "sentinel.bpf.h"

#if defined(__TARGET_ARCH_x86)

/* Per i386 number: the x86_64 call and its family (loader, before load). */
const volatile struct as_compat_spec cfg_compat_spec[AS_COMPAT_NR_MAX];
/* socketcall(call, args): per call (SYS_SOCKET = 1 ...), the same */
const volatile struct as_compat_spec cfg_compat_sockcall[AS_COMPAT_SOCKCALL_MAX];
/* Per x86_64 number: 1 when the rules want that syscall's exit (the loader
 * rewrites it with the tracepoints it attaches, at every rules load). */
volatile __u8 cfg_compat_on[AS_SYS_NR_MAX];

/* Typed loads as walk.bpf.c makes them (its settings, shared). */
extern const volatile __u8 cfg_typed_reads;
extern const volatile __u32 cfg_ktype_id[AS_KT_MAX];
static void *(*const as_compat_cast)(const void *obj, __u32 btf_id) =
	(void *)(AS_KFUNC_MARK + AS_KF_bpf_rdonly_cast);

static __always_inline __u32 as_thread_status(void)
{
	__u64 t = bpf_get_current_task();

	if (cfg_typed_reads)
		return ((struct task_struct *)as_compat_cast((void *)t, cfg_ktype_id[AS_KT_task_struct]))
			->thread_info.status;
	return BPF_CORE_READ((struct task_struct *)t, thread_info.status);
}

/* The saved user registers' syscall number, as the kernel takes it: an
 * int, whatever the register's upper half holds (a call made with rax =
 * 0xdead00000010 is ioctl). A typed load, as the native path runs on every
 * syscall of the host. */
static __always_inline long as_regs_nr(__u64 regs)
{
	if (cfg_typed_reads)
		return (int)((struct pt_regs *)as_compat_cast((void *)regs,
							   cfg_ktype_id[AS_KT_pt_regs]))
			->orig_ax;
	return (int)BPF_CORE_READ((struct pt_regs *)regs, orig_ax);
}

/* The ioctls traced (the host makes others all the time): the requests
 * that push input into a terminal, TIOCSTI (queues a byte as if typed: what
 * an agent's parent shell then runs, outside the agent's tree, once the
 * agent exits) and TIOCLINUX with the subcodes that set and paste a console
 * selection (the first byte of its argument; the others blank the screen or
 * ask the shift state); and those that set a file's inode flags, chattr's
 * immutable and append-only among them (FS_IOC_SETFLAGS, its 32-bit
 * spelling, FS_IOC_FSSETXATTR). The request is an unsigned int to the
 * kernel, whatever the register's upper half. */
#define AS_TIOCSTI 0x5412
#define AS_TIOCLINUX 0x541C
#define AS_TIOCL_SETSEL 2
#define AS_TIOCL_PASTESEL 3
#define AS_FS_IOC_SETFLAGS 0x40086602
#define AS_FS_IOC32_SETFLAGS 0x40046602
#define AS_FS_IOC_FSSETXATTR 0x401c5820
#define AS_NR_IOCTL 16
#define AS_NR_I386_IOCTL 54
/* fcntl's commands that name a process the kernel then signals on the
 * file's I/O (SIGIO, or whatever F_SETSIG chose: SIGKILL too); ioctl's
 * FIOSETOWN and SIOCSPGRP do the same (sentinel.bpf.h) */
#define AS_NR_FCNTL 72
#define AS_NR_I386_FCNTL 55
#define AS_NR_I386_FCNTL64 221
/* the calls that make pages executable: their files are looked at only when
 * the pages become code (PROT_EXEC) and come from a file (sys.bpf.c) */
#define AS_NR_MMAP 9
#define AS_NR_MPROTECT 10
#define AS_NR_PKEY_MPROTECT 329

static __always_inline int as_fcntl_watched(__u32 cmd)
{
	return cmd == AS_F_SETOWN || cmd == AS_F_SETOWN_EX;
}

static __always_inline int as_ioctl_watched(__u32 req, __u64 argp)
{
	__u8 sub = 0;

	if (req == AS_TIOCSTI || req == AS_FS_IOC_SETFLAGS || req == AS_FS_IOC32_SETFLAGS ||
	    req == AS_FS_IOC_FSSETXATTR || req == AS_FIOSETOWN || req == AS_SIOCSPGRP)
		return 1;
	/* the socket ioctls that change the network (ifconfig, route, arp,
	 * brctl): routes, an interface's address, flags, name, MTU, hardware
	 * address, ARP entries, bridges (include/uapi/linux/sockios.h) */
	switch (req) {
	case 0x890B: /* SIOCADDRT */
	case 0x890C: /* SIOCDELRT */
	case 0x8914: /* SIOCSIFFLAGS */
	case 0x8916: /* SIOCSIFADDR */
	case 0x8918: /* SIOCSIFDSTADDR */
	case 0x891A: /* SIOCSIFBRDADDR */
	case 0x891C: /* SIOCSIFNETMASK */
	case 0x8922: /* SIOCSIFMTU */
	case 0x8923: /* SIOCSIFNAME */
	case 0x8924: /* SIOCSIFHWADDR */
	case 0x8936: /* SIOCDIFADDR */
	case 0x8953: /* SIOCDARP */
	case 0x8955: /* SIOCSARP */
	case 0x89A0: /* SIOCBRADDBR */
	case 0x89A1: /* SIOCBRDELBR */
	case 0x89A2: /* SIOCBRADDIF */
	case 0x89A3: /* SIOCBRDELIF */
	case 0x4024700a: /* RTC_SET_TIME: the hardware clock (hwclock --set, --systohc) */
		return 1;
	default:
		break;
	}
	if (req != AS_TIOCLINUX)
		return 0;
	bpf_probe_read_user(&sub, sizeof(sub), (const void *)argp);
	return sub == AS_TIOCL_SETSEL || sub == AS_TIOCL_PASTESEL;
}

/* May the call numbered nr be one this program traces? A native call it
 * picks by an argument's value (ioctl, fcntl, the code mappers), when a
 * rule wants it; or the same number as an i386 call whose family a rule
 * wants (a socketcall: any). No read of the thread's status: most of the
 * host's calls are neither, and leave on one table load. */
static __always_inline int as_raw_maybe(long nr)
{
	struct as_compat_spec sp;

	if (nr < 0 || nr >= AS_COMPAT_NR_MAX)
		return 0;
	if ((nr == AS_NR_IOCTL || nr == AS_NR_FCNTL || nr == AS_NR_MMAP || nr == AS_NR_MPROTECT ||
	     nr == AS_NR_PKEY_MPROTECT) &&
	    cfg_compat_on[nr & (AS_SYS_NR_MAX - 1)])
		return 1;
	sp = cfg_compat_spec[nr & (AS_COMPAT_NR_MAX - 1)];
	if (sp.family == AS_CFAM_SOCKETCALL)
		return 1;
	return sp.family != AS_CFAM_NONE && sp.nr < AS_SYS_NR_MAX &&
	       cfg_compat_on[sp.nr & (AS_SYS_NR_MAX - 1)];
}

SEC("raw_tp/sys_exit")
int raw_sys_exit_compat(struct bpf_raw_tracepoint_args *ctx)
{
	struct pt_regs *regs = (struct pt_regs *)ctx->args[0];
	struct as_compat_spec sp;
	struct as_scratch *s;
	__u64 sockargs = 0;
	long nr = as_regs_nr(ctx->args[0]), ret = (long)ctx->args[1];

	/* the host's common calls leave here, on the number alone: neither a
	 * native call picked below, nor, read as an i386 number, a call whose
	 * family a rule wants (which needs the thread's status to tell) */
	if (!as_raw_maybe(nr))
		return 0;
	if (!(as_thread_status() & AS_TS_COMPAT)) {
		/* a native call: only the ioctl requests and fcntl commands
		 * above, when a rule wants them; every other syscall of the
		 * host ends here */
		unsigned long req = 0, argp = 0;

		if (!cfg_compat_on[AS_NR_IOCTL] && !cfg_compat_on[AS_NR_FCNTL] &&
		    !cfg_compat_on[AS_NR_MMAP] && !cfg_compat_on[AS_NR_MPROTECT] &&
		    !cfg_compat_on[AS_NR_PKEY_MPROTECT])
			return 0;
		if (nr == AS_NR_MMAP || nr == AS_NR_MPROTECT || nr == AS_NR_PKEY_MPROTECT) {
			/* code from a file: its prot, then (mmap) not anonymous */
			if (!cfg_compat_on[nr & (AS_SYS_NR_MAX - 1)])
				return 0;
			bpf_probe_read_kernel(&argp, sizeof(argp), &regs->dx);
			if (!as_prot_code((__u32)argp))
				return 0;
			if (nr == AS_NR_MMAP) {
				bpf_probe_read_kernel(&req, sizeof(req), &regs->r10);
				if (req & AS_MAP_ANONYMOUS)
					return 0;
			}
			as_raw_generic(nr, ret, 0); /* it keeps a file with no link */
			return 0;
		}
		if ((nr != AS_NR_IOCTL && nr != AS_NR_FCNTL) ||
		    !cfg_compat_on[nr == AS_NR_IOCTL ? AS_NR_IOCTL : AS_NR_FCNTL])
			return 0;
		bpf_probe_read_kernel(&req, sizeof(req), &regs->si);
		bpf_probe_read_kernel(&argp, sizeof(argp), &regs->dx);
		if (nr == AS_NR_IOCTL ? !as_ioctl_watched((__u32)req, argp) :
					!as_fcntl_watched((__u32)req))
			return 0;
		as_raw_generic(nr, ret, 0); /* it asks the pre-filter */
		return 0;
	}
	if (nr < 0 || nr >= AS_COMPAT_NR_MAX)
		return 0;
	sp = cfg_compat_spec[nr & (AS_COMPAT_NR_MAX - 1)];
	if (sp.family == AS_CFAM_SOCKETCALL) {
		unsigned long call = 0, argp = 0;

		bpf_probe_read_kernel(&call, sizeof(call), &regs->bx);
		bpf_probe_read_kernel(&argp, sizeof(argp), &regs->cx);
		call = (__u32)call;
		if (call >= AS_COMPAT_SOCKCALL_MAX)
			return 0;
		sp = cfg_compat_sockcall[call];
		sockargs = (__u32)argp;
		if (!sockargs)
			return 0;
	} else if (nr == AS_NR_I386_IOCTL) {
		unsigned long req = 0, argp = 0;

		bpf_probe_read_kernel(&req, sizeof(req), &regs->cx);
		bpf_probe_read_kernel(&argp, sizeof(argp), &regs->dx);
		if (!as_ioctl_watched((__u32)req, (__u32)argp))
			return 0;
	} else if (nr == AS_NR_I386_FCNTL || nr == AS_NR_I386_FCNTL64) {
		unsigned long cmd = 0;

		bpf_probe_read_kernel(&cmd, sizeof(cmd), &regs->cx);
		if (!as_fcntl_watched((__u32)cmd))
			return 0;
	}
	if (sp.family == AS_CFAM_NONE || sp.family >= AS_CFAM_SOCKETCALL ||
	    sp.nr >= AS_SYS_NR_MAX || !cfg_compat_on[sp.nr & (AS_SYS_NR_MAX - 1)])
		return 0;
	/* the pre-filter once here, not in each family's body (verified once) */
	if (!as_prefiltered(sp.type, 0))
		return 0;
	s = as_scratch();
	if (!s)
		return 0;
	s->compat.id16 = sp.id16;
	s->compat.nargs = sp.nargs;
	s->compat.split64 = sp.split64;
	s->compat.sockargs = sockargs;
	switch (sp.family) {
	case AS_CFAM_OPEN:
		as_compat_open(sp.nr, ret);
		break;
	case AS_CFAM_NET:
		as_compat_net(sp.nr, ret);
		break;
	case AS_CFAM_SETID:
		as_compat_setid(sp.nr, ret);
		break;
	case AS_CFAM_CAPSET:
		as_compat_capset(sp.nr, ret);
		break;
	case AS_CFAM_GENERIC:
		as_raw_generic(sp.nr, ret, 1);
		break;
	default:
		break;
	}
	return 0;
}

#endif /* __TARGET_ARCH_x86 */
