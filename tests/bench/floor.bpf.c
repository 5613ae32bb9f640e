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

/* the syscall exits: the arguments are read from the saved registers */
/* file.bpf.c */
FLOOR_TP(syscalls, sys_exit_open)
FLOOR_TP(syscalls, sys_exit_creat)
FLOOR_TP(syscalls, sys_exit_openat)
FLOOR_TP(syscalls, sys_exit_openat2)
/* net.bpf.c */
FLOOR_TP(syscalls, sys_exit_connect)
/* cred.bpf.c */
FLOOR_TP(syscalls, sys_exit_setuid)
FLOOR_TP(syscalls, sys_exit_setgid)
FLOOR_TP(syscalls, sys_exit_setreuid)
FLOOR_TP(syscalls, sys_exit_setregid)
FLOOR_TP(syscalls, sys_exit_setresuid)
FLOOR_TP(syscalls, sys_exit_setresgid)
FLOOR_TP(syscalls, sys_exit_capset)
/* proc.bpf.c (exec: enter too) */
FLOOR_TP(syscalls, sys_enter_execve)
FLOOR_TP(syscalls, sys_enter_execveat)
FLOOR_TP(syscalls, sys_exit_execve)
FLOOR_TP(syscalls, sys_exit_execveat)
FLOOR_TP(sched, sched_process_exec)
FLOOR_TP(sched, sched_process_exit)

SEC("raw_tp/sched_process_fork")
int floor_sched_process_fork(void *ctx)
{
	return 0;
}
