/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The syscalls we trace, by number, and their arguments as a sys_exit
 * program sees them: still in the user registers saved at entry (no traced
 * syscall changes them; Falco's modern probe reads them there too). So no
 * program runs at sys_enter: one tracepoint dispatch per call instead of two,
 * and one exit program serves every syscall of a family (ctx->id says which).
 * The one exception is exec: see tp_sys_enter_execve.
 */
#ifndef AS_SYSCALLS_H
#define AS_SYSCALLS_H

#if defined(__TARGET_ARCH_x86)
#define AS_NR_OPEN 2
#define AS_NR_CONNECT 42
#define AS_NR_EXECVE 59
#define AS_NR_CREAT 85
#define AS_NR_SETUID 105
#define AS_NR_SETGID 106
#define AS_NR_SETREUID 113
#define AS_NR_SETREGID 114
#define AS_NR_SETRESUID 117
#define AS_NR_SETRESGID 119
#define AS_NR_CAPSET 126
#define AS_NR_OPENAT 257
#define AS_NR_EXECVEAT 322
#define AS_NR_OPENAT2 437
#define AS_NR_OPEN_BY_HANDLE_AT 304
#define AS_NR_CLONE 56
#define AS_NR_FORK 57
#define AS_NR_VFORK 58
#define AS_NR_CLONE3 435
#define AS_NR_SETFSUID 122
#define AS_NR_SETFSGID 123
#define AS_NR_SETGROUPS 116
#define AS_NR_SOCKET 41
#define AS_NR_ACCEPT 43
#define AS_NR_SENDTO 44
#define AS_NR_SENDMSG 46
#define AS_NR_BIND 49
#define AS_NR_LISTEN 50
#define AS_NR_ACCEPT4 288
#define AS_NR_SENDMMSG 307
#define AS_NR_DUP 32
#define AS_NR_DUP2 33
#define AS_NR_DUP3 292
#elif defined(__TARGET_ARCH_arm64)
#define AS_NR_OPEN -1 /* none: openat only */
#define AS_NR_CREAT -1
#define AS_NR_CONNECT 203
#define AS_NR_EXECVE 221
#define AS_NR_SETUID 146
#define AS_NR_SETGID 144
#define AS_NR_SETREUID 145
#define AS_NR_SETREGID 143
#define AS_NR_SETRESUID 147
#define AS_NR_SETRESGID 149
#define AS_NR_CAPSET 91
#define AS_NR_OPENAT 56
#define AS_NR_EXECVEAT 281
#define AS_NR_OPENAT2 437
#define AS_NR_OPEN_BY_HANDLE_AT 265
#define AS_NR_CLONE 220
#define AS_NR_FORK -1 /* none: clone only */
#define AS_NR_VFORK -1
#define AS_NR_CLONE3 435
#define AS_NR_SETFSUID 151
#define AS_NR_SETFSGID 152
#define AS_NR_SETGROUPS 159
#define AS_NR_SOCKET 198
#define AS_NR_ACCEPT 202
#define AS_NR_SENDTO 206
#define AS_NR_SENDMSG 211
#define AS_NR_BIND 200
#define AS_NR_LISTEN 201
#define AS_NR_ACCEPT4 242
#define AS_NR_SENDMMSG 269
#define AS_NR_DUP 23
#define AS_NR_DUP2 -1 /* none: dup3 only */
#define AS_NR_DUP3 24
#else
#error "syscall numbers and registers for this architecture"
#endif

#define AS_SYSCALL_ARGS 6 /* the most a syscall takes */

#if defined(__TARGET_ARCH_x86)
/* The 32-bit ABI (bpf/compat.bpf.c): thread_info.status while in one of its
 * calls, and the i386 numbers of the fork family, which sched_process_fork
 * reads itself (user/compat.c has the rest, from asm/unistd_32.h). */
#define AS_TS_COMPAT 0x0002
#define AS_NR_I386_FORK 2
#define AS_NR_I386_CLONE 120
#define AS_NR_I386_VFORK 190
#define AS_NR_I386_CLONE3 435
#endif

/* enum as_syscall of a syscall number; AS_SC_NONE for one we do not trace */
static __always_inline __u32 as_sc_of(long nr)
{
	switch (nr) {
	case AS_NR_OPENAT: return AS_SC_OPENAT;
	case AS_NR_OPEN: return AS_SC_OPEN;
	case AS_NR_OPENAT2: return AS_SC_OPENAT2;
	case AS_NR_CREAT: return AS_SC_CREAT;
	case AS_NR_CONNECT: return AS_SC_CONNECT;
	case AS_NR_EXECVE: return AS_SC_EXECVE;
	case AS_NR_EXECVEAT: return AS_SC_EXECVEAT;
	case AS_NR_SETUID: return AS_SC_SETUID;
	case AS_NR_SETGID: return AS_SC_SETGID;
	case AS_NR_SETREUID: return AS_SC_SETREUID;
	case AS_NR_SETREGID: return AS_SC_SETREGID;
	case AS_NR_SETRESUID: return AS_SC_SETRESUID;
	case AS_NR_SETRESGID: return AS_SC_SETRESGID;
	case AS_NR_CAPSET: return AS_SC_CAPSET;
	case AS_NR_OPEN_BY_HANDLE_AT: return AS_SC_OPEN_BY_HANDLE_AT;
	case AS_NR_CLONE: return AS_SC_CLONE;
	case AS_NR_FORK: return AS_SC_FORK;
	case AS_NR_VFORK: return AS_SC_VFORK;
	case AS_NR_CLONE3: return AS_SC_CLONE3;
	case AS_NR_SETFSUID: return AS_SC_SETFSUID;
	case AS_NR_SETFSGID: return AS_SC_SETFSGID;
	case AS_NR_SETGROUPS: return AS_SC_SETGROUPS;
	case AS_NR_SOCKET: return AS_SC_SOCKET;
	case AS_NR_ACCEPT: return AS_SC_ACCEPT;
	case AS_NR_SENDTO: return AS_SC_SENDTO;
	case AS_NR_SENDMSG: return AS_SC_SENDMSG;
	case AS_NR_BIND: return AS_SC_BIND;
	case AS_NR_LISTEN: return AS_SC_LISTEN;
	case AS_NR_ACCEPT4: return AS_SC_ACCEPT4;
	case AS_NR_SENDMMSG: return AS_SC_SENDMMSG;
	case AS_NR_DUP: return AS_SC_DUP;
	case AS_NR_DUP2: return AS_SC_DUP2;
	case AS_NR_DUP3: return AS_SC_DUP3;
	default: return AS_SC_NONE;
	}
}

/* libbpf 1.1 has no PT_REGS_PARM6_SYSCALL */
#if defined(__TARGET_ARCH_x86)
#define AS_REGS_PARM6_SYSCALL(regs) ((regs)->r9)
#define AS_REGS_SYSCALL_NR(regs) ((long)(regs)->orig_ax)
#else
#define AS_REGS_PARM6_SYSCALL(regs) ((regs)->regs[5])
#define AS_REGS_SYSCALL_NR(regs) ((long)(regs)->syscallno)
#endif

static __always_inline struct pt_regs *as_user_regs(void)
{
	return (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());
}

/* The current syscall's first AS_SYSCALL_ARGS arguments (direct loads
 * through the BTF pointer the helper returns). */
static __always_inline void as_syscall_args(__u64 args[AS_SYSCALL_ARGS])
{
	struct pt_regs *regs = as_user_regs();

	args[0] = PT_REGS_PARM1_SYSCALL(regs);
	args[1] = PT_REGS_PARM2_SYSCALL(regs);
	args[2] = PT_REGS_PARM3_SYSCALL(regs);
	args[3] = PT_REGS_PARM4_SYSCALL(regs);
	args[4] = PT_REGS_PARM5_SYSCALL(regs);
	args[5] = AS_REGS_PARM6_SYSCALL(regs);
}

#endif /* AS_SYSCALLS_H */
