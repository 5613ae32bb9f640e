// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The benchmark's floor: an empty program on every tracepoint agent-sentinel
 * attaches (the sections of the bpf/ sources), so the cost measured with it loaded
 * is the price of having a BPF program there at all, nothing else.
 * Keep the list in step with the SEC() lines of bpf/proc, file, net, cred
 * and the extra tracepoints of user/attach.c.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

#define FLOOR_TP(cat, name)                                                    \
	SEC("tracepoint/" #cat "/" #name)                                      \
	int floor_##name(void *ctx)                                            \
	{                                                                      \
		return 0;                                                      \
	}

#define FLOOR_SYSCALL(name)                                                    \
	FLOOR_TP(syscalls, sys_enter_##name)                                   \
	FLOOR_TP(syscalls, sys_exit_##name)

/* file.bpf.c: the exits only (the arguments are read from the saved registers) */
FLOOR_TP(syscalls, sys_exit_open)
FLOOR_TP(syscalls, sys_exit_creat)
FLOOR_TP(syscalls, sys_exit_openat)
FLOOR_TP(syscalls, sys_exit_openat2)
/* net.bpf.c */
FLOOR_SYSCALL(connect)
/* cred.bpf.c (capset: enter and exit too) */
FLOOR_SYSCALL(setuid)
FLOOR_SYSCALL(setgid)
FLOOR_SYSCALL(setreuid)
FLOOR_SYSCALL(setregid)
FLOOR_SYSCALL(setresuid)
FLOOR_SYSCALL(setresgid)
FLOOR_SYSCALL(capset)
/* proc.bpf.c */
FLOOR_SYSCALL(execve)
FLOOR_SYSCALL(execveat)
FLOOR_TP(sched, sched_process_exec)
FLOOR_TP(sched, sched_process_exit)

SEC("raw_tp/sched_process_fork")
int floor_sched_process_fork(void *ctx)
{
	return 0;
}
