// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The i386 syscall table of the calls we trace. The per-syscall tracepoints
 * do not fire for a 32-bit call (x86's ARCH_TRACE_IGNORE_COMPAT_SYSCALLS),
 * so bpf/compat.bpf.c takes them from raw sys_exit and needs, per i386
 * number, the x86_64 call it is: one row each here. Where i386 has a 16-bit
 * id variant (setuid, chown, ...) and a 32-bit one (setuid32, chown32), both
 * are rows of the same call; the 16-bit one marks its id arguments (id16),
 * whose 0xffff is -1 as the kernel's low2highuid makes it. socketcall(2)
 * multiplexes the socket calls: its rows are by call number, with the count
 * of u32 arguments behind its pointer.
 *
 * Not served: execve/execveat (a successful exec is sched_process_exec's
 * event whatever the ABI; a failed 32-bit one is not seen) and the fork
 * family (sched_process_fork reads the flags the 32-bit way itself).
 */
#include <string.h>
#include "compat.h"
#include "names.h"
#include "sctable.h"

#if defined(__x86_64__)
#include <asm/unistd_32.h>
/* newer than the headers of Debian 12 (Linux 6.1) */
#ifndef __NR_fchmodat2
#define __NR_fchmodat2 452
#endif
#ifndef __NR_setxattrat /* Linux 6.13 */
#define __NR_setxattrat 463
#endif
#ifndef __NR_removexattrat
#define __NR_removexattrat 466
#endif
#ifndef __NR_open_tree_attr /* Linux 6.15 */
#define __NR_open_tree_attr 467
#endif
#ifndef __NR_file_setattr /* Linux 6.17 */
#define __NR_file_setattr 469
#endif

struct compat_row {
	uint16_t nr; /* i386 */
	uint8_t sc; /* enum as_syscall */
	uint8_t id16; /* bit i: argument i is a 16-bit id */
	uint8_t nargs; /* arguments the call takes (the rest read as 0); 0: all six */
	uint8_t split64; /* as_compat_spec.split64 */
};

#define ROW(name, id) { __NR_##name, AS_SC_##id, 0, 0, 0 }
#define ROW16(name, id, mask) { __NR_##name, AS_SC_##id, mask, 0, 0 }
#define ROWN(name, id, n) { __NR_##name, AS_SC_##id, 0, n, 0 }
/* socketcall's call n: its u32 arguments */
#define SOCKROW(n, sc, nargs) { n, sc, 0, nargs, 0 }
/* argument i a 64-bit value in two registers */
#define ROW64(name, id, i) { __NR_##name, AS_SC_##id, 0, 0, (i) + 1 }

static const struct compat_row compat_rows[] = {
	/* the open family */
	ROW(open, OPEN), ROW(creat, CREAT), ROW(openat, OPENAT), ROW(openat2, OPENAT2),
	ROW(open_by_handle_at, OPEN_BY_HANDLE_AT),
	/* sockets: the direct calls of Linux 4.3 and later */
	ROW(socket, SOCKET), ROW(bind, BIND), ROW(connect, CONNECT), ROW(listen, LISTEN),
	ROW(accept4, ACCEPT4), ROW(sendto, SENDTO), ROW(sendmsg, SENDMSG),
	ROW(sendmmsg, SENDMMSG), ROW(dup, DUP), ROW(dup2, DUP2), ROW(dup3, DUP3),
	/* credentials: 16-bit ids and 32-bit ones */
	ROW16(setuid, SETUID, 0x1), ROW(setuid32, SETUID),
	ROW16(setgid, SETGID, 0x1), ROW(setgid32, SETGID),
	ROW16(setreuid, SETREUID, 0x3), ROW(setreuid32, SETREUID),
	ROW16(setregid, SETREGID, 0x3), ROW(setregid32, SETREGID),
	ROW16(setresuid, SETRESUID, 0x7), ROW(setresuid32, SETRESUID),
	ROW16(setresgid, SETRESGID, 0x7), ROW(setresgid32, SETRESGID),
	ROW16(setfsuid, SETFSUID, 0x1), ROW(setfsuid32, SETFSUID),
	ROW16(setfsgid, SETFSGID, 0x1), ROW(setfsgid32, SETFSGID),
	ROW(setgroups, SETGROUPS), ROW(setgroups32, SETGROUPS), ROW(capset, CAPSET),
	/* file changes */
	ROW(rename, RENAME), ROW(renameat, RENAMEAT), ROW(renameat2, RENAMEAT2),
	ROW(link, LINK), ROW(linkat, LINKAT), ROW(symlink, SYMLINK), ROW(symlinkat, SYMLINKAT),
	ROW(unlink, UNLINK), ROW(unlinkat, UNLINKAT), ROW(rmdir, RMDIR), ROW(mkdir, MKDIR),
	ROW(mkdirat, MKDIRAT), ROW(mknod, MKNOD), ROW(mknodat, MKNODAT), ROW(chmod, CHMOD),
	ROW(fchmod, FCHMOD), ROW(fchmodat, FCHMODAT), ROW(fchmodat2, FCHMODAT2),
	ROW16(chown, CHOWN, 0x6), ROW(chown32, CHOWN), ROW16(lchown, LCHOWN, 0x6),
	ROW(lchown32, LCHOWN), ROW16(fchown, FCHOWN, 0x6), ROW(fchown32, FCHOWN),
	ROW(fchownat, FCHOWNAT),
	/* truncate64's length is two registers */
	ROW(truncate, TRUNCATE), ROW64(truncate64, TRUNCATE, 1), ROW(ftruncate, FTRUNCATE),
	ROW64(ftruncate64, FTRUNCATE, 1),
	ROW(setxattr, SETXATTR), ROW(lsetxattr, LSETXATTR), ROW(fsetxattr, FSETXATTR),
	ROW(removexattr, REMOVEXATTR), ROW(lremovexattr, LREMOVEXATTR),
	ROW(fremovexattr, FREMOVEXATTR), ROW(setxattrat, SETXATTRAT),
	ROW(removexattrat, REMOVEXATTRAT), ROW(file_setattr, FILE_SETATTR),
	ROW(utimensat, UTIMENSAT), ROW(utimensat_time64, UTIMENSAT), ROW(utimes, UTIMES),
	ROW(utime, UTIME), ROW(futimesat, FUTIMESAT),
	/* privilege, isolation, code, the cwd */
	ROW(unshare, UNSHARE), ROW(setns, SETNS), ROW(ptrace, PTRACE), ROW(mount, MOUNT),
	ROW(umount2, UMOUNT2), ROWN(umount, UMOUNT2, 1), /* oldumount(name): no flags */
	ROW(fsopen, FSOPEN), ROW(fsmount, FSMOUNT), ROW(move_mount, MOVE_MOUNT),
	ROW(open_tree, OPEN_TREE), ROW(mount_setattr, MOUNT_SETATTR), ROW(fspick, FSPICK),
	ROW(fsconfig, FSCONFIG), ROW(open_tree_attr, OPEN_TREE_ATTR), ROW(acct, ACCT),
	ROW(pivot_root, PIVOT_ROOT), ROW(chroot, CHROOT), ROW(init_module, INIT_MODULE),
	ROW(finit_module, FINIT_MODULE), ROW(delete_module, DELETE_MODULE),
	ROW(kexec_load, KEXEC_LOAD), ROW(bpf, BPF), ROW(perf_event_open, PERF_EVENT_OPEN),
	ROW(prctl, PRCTL), ROW(memfd_create, MEMFD_CREATE), ROW(io_uring_setup, IO_URING_SETUP),
	ROW(chdir, CHDIR), ROW(fchdir, FCHDIR), ROW(setsid, SETSID),
	ROW(process_vm_writev, PROCESS_VM_WRITEV), ROW(process_vm_readv, PROCESS_VM_READV),
	ROW(pidfd_getfd, PIDFD_GETFD), ROW(iopl, IOPL), ROW(ioperm, IOPERM),
	/* signals */
	ROW(kill, KILL), ROW(tkill, TKILL), ROW(tgkill, TGKILL),
	ROW(rt_sigqueueinfo, RT_SIGQUEUEINFO), ROW(rt_tgsigqueueinfo, RT_TGSIGQUEUEINFO),
	ROW(pidfd_open, PIDFD_OPEN), ROW(pidfd_send_signal, PIDFD_SEND_SIGNAL),
	ROW(prlimit64, PRLIMIT64), ROW(setpriority, SETPRIORITY),
	ROW(sched_setscheduler, SCHED_SETSCHEDULER), ROW(sched_setattr, SCHED_SETATTR),
	ROW(ioprio_set, IOPRIO_SET), ROW(sched_setaffinity, SCHED_SETAFFINITY),
	/* the host's state */
	ROW64(fanotify_mark, FANOTIFY_MARK, 2), ROW(sethostname, SETHOSTNAME), ROW(setdomainname, SETDOMAINNAME),
	ROW(settimeofday, SETTIMEOFDAY), ROWN(stime, SETTIMEOFDAY, 1), /* stime(&t): tv is t */
	ROW(clock_settime, CLOCK_SETTIME),
	ROW(clock_settime64, CLOCK_SETTIME), ROW(adjtimex, ADJTIMEX),
	ROW(clock_adjtime, CLOCK_ADJTIME), ROW(clock_adjtime64, CLOCK_ADJTIME),
	ROW(reboot, REBOOT), ROW(swapon, SWAPON), ROW(swapoff, SWAPOFF), ROW(syslog, SYSLOG),
	ROW(fanotify_init, FANOTIFY_INIT), ROW(keyctl, KEYCTL), ROW(add_key, ADD_KEY),
	ROW(request_key, REQUEST_KEY),
	ROW(userfaultfd, USERFAULTFD), ROW(ioctl, IOCTL), /* terminal input only: compat.bpf.c */
	ROW(fcntl, FCNTL), ROW(fcntl64, FCNTL), /* F_SETOWN, F_SETOWN_EX only: compat.bpf.c */
	/* code from a file with no link only (sys.bpf.c). i386's old mmap
	 * (90) passes its arguments in memory: not read */
	ROW(mmap2, MMAP), ROW(mprotect, MPROTECT), ROW(pkey_mprotect, PKEY_MPROTECT),
};

/* socketcall(call, args): call numbers of linux/net.h, u32 arguments of
 * net/socket.c's nargs[] */
static const struct compat_row compat_sockcall[] = {
	SOCKROW(1, AS_SC_SOCKET, 3), SOCKROW(2, AS_SC_BIND, 3), SOCKROW(3, AS_SC_CONNECT, 3),
	SOCKROW(4, AS_SC_LISTEN, 2), SOCKROW(5, AS_SC_ACCEPT, 3), SOCKROW(11, AS_SC_SENDTO, 6),
	SOCKROW(16, AS_SC_SENDMSG, 3), SOCKROW(18, AS_SC_ACCEPT4, 4), SOCKROW(20, AS_SC_SENDMMSG, 4),
};

#define COMPAT_NROWS(t) (sizeof(t) / sizeof((t)[0]))

static int compat_spec_of(const struct compat_row *r, struct as_compat_spec *out)
{
	const struct sc_info *si = sctable_get(r->sc);
	unsigned fam = compat_family(r->sc);

	if (fam == AS_CFAM_NONE || si->nr < 0 || si->nr >= AS_SYS_NR_MAX)
		return 0;
	memset(out, 0, sizeof(*out));
	out->nr = (uint16_t)si->nr;
	out->family = (uint8_t)fam;
	out->id16 = r->id16;
	out->nargs = r->nargs;
	out->split64 = r->split64;
	out->type = (uint8_t)names_syscall_type(r->sc);
	return 1;
}

unsigned compat_fill(struct as_compat_spec spec[AS_COMPAT_NR_MAX],
		     struct as_compat_spec sock[AS_COMPAT_SOCKCALL_MAX])
{
	unsigned n = 0;

	memset(spec, 0, sizeof(*spec) * AS_COMPAT_NR_MAX);
	memset(sock, 0, sizeof(*sock) * AS_COMPAT_SOCKCALL_MAX);
	for (size_t i = 0; i < COMPAT_NROWS(compat_rows); i++)
		if (compat_rows[i].nr < AS_COMPAT_NR_MAX)
			n += compat_spec_of(&compat_rows[i], &spec[compat_rows[i].nr]);
	spec[__NR_socketcall].family = AS_CFAM_SOCKETCALL;
	for (size_t i = 0; i < COMPAT_NROWS(compat_sockcall); i++)
		if (compat_sockcall[i].nr < AS_COMPAT_SOCKCALL_MAX)
			n += compat_spec_of(&compat_sockcall[i], &sock[compat_sockcall[i].nr]);
	return n;
}

int compat_i386_nr(unsigned sc)
{
	for (size_t i = 0; i < COMPAT_NROWS(compat_rows); i++)
		if (compat_rows[i].sc == sc)
			return compat_rows[i].nr;
	return -1;
}
#else /* no 32-bit ABI traced on this architecture */
unsigned compat_fill(struct as_compat_spec spec[AS_COMPAT_NR_MAX],
		     struct as_compat_spec sock[AS_COMPAT_SOCKCALL_MAX])
{
	memset(spec, 0, sizeof(*spec) * AS_COMPAT_NR_MAX);
	memset(sock, 0, sizeof(*sock) * AS_COMPAT_SOCKCALL_MAX);
	return 0;
}

int compat_i386_nr(unsigned sc)
{
	(void)sc;
	return -1;
}
#endif

unsigned compat_family(unsigned sc)
{
	/* the netlink sends of other calls: the send's own tracepoint reads
	 * a 32-bit caller's arguments itself (bpf/net.bpf.c) */
	if (sctable_get(sc)->via == VIA_SOCK_SEND)
		return AS_CFAM_NONE;
	switch (names_syscall_type(sc)) {
	case AS_EV_OPEN:
		return AS_CFAM_OPEN;
	case AS_EV_CONNECT:
		return AS_CFAM_NET;
	case AS_EV_SETID:
		return AS_CFAM_SETID;
	case AS_EV_CAPSET:
		return AS_CFAM_CAPSET;
	case AS_EV_FILE:
	case AS_EV_SYS:
		return sctable_generic(sc) ? AS_CFAM_GENERIC : AS_CFAM_NONE;
	default:
		return AS_CFAM_NONE;
	}
}
