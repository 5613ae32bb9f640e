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
#else
#error "syscall numbers and registers for this architecture"
#endif

#define AS_SYSCALL_ARGS 5 /* the most any traced syscall takes (execveat) */

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
	default: return AS_SC_NONE;
	}
}

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
}

#endif /* AS_SYSCALLS_H */
