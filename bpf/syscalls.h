/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The syscalls we trace (their numbers come from the loader: as_sc_of; the
 * fork family's are here, for sched_process_fork) and their arguments as a
 * sys_exit program sees them: still in the user registers saved at entry
 * (no traced syscall changes them; Falco's modern probe reads them there
 * too). So no
 * program runs at sys_enter: one tracepoint dispatch per call instead of two,
 * and one exit program serves every syscall of a family (ctx->id says which).
 * The one exception is exec: see tp_sys_enter_execve.
 */
#ifndef AS_SYSCALLS_H
#define AS_SYSCALLS_H

#if defined(__TARGET_ARCH_x86)
#define AS_NR_CLONE 56
#define AS_NR_FORK 57
#define AS_NR_VFORK 58
#define AS_NR_CLONE3 435
#elif defined(__TARGET_ARCH_arm64)
#define AS_NR_CLONE 220
#define AS_NR_FORK -1 /* none: clone only */
#define AS_NR_VFORK -1
#define AS_NR_CLONE3 435
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

/* enum as_syscall of each syscall number, AS_SC_NONE for one we do not
 * trace: written by the loader from its syscall table (user/sctable.c), the
 * one place the numbers are kept (bpf/walk.bpf.c defines it). A load, not a
 * switch: the switch made each number a path of its own for the verifier,
 * through the pre-filter and the argument reads of every exit program. */
extern const volatile __u8 cfg_sc_by_nr[AS_SYS_NR_MAX];

static __always_inline __u32 as_sc_of(long nr)
{
	if (nr < 0 || nr >= AS_SYS_NR_MAX)
		return AS_SC_NONE;
	return cfg_sc_by_nr[nr & (AS_SYS_NR_MAX - 1)];
}

/* libbpf 1.1 has no PT_REGS_PARM6_SYSCALL */
#if defined(__TARGET_ARCH_x86)
#define AS_REGS_PARM6_SYSCALL(regs) ((regs)->r9)
/* an int, as the kernel dispatches it: the register's upper half is ignored */
#define AS_REGS_SYSCALL_NR(regs) ((long)(int)(regs)->orig_ax)
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
