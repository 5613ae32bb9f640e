// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The benchmark's floor: an empty program on every tracepoint agent-sentinel
 * attaches, so the cost measured with it loaded is the price of having a BPF
 * program there at all, nothing else. Which tracepoints is agent-sentinel's
 * own word (its -v line "attached: ..."), passed on as-floor's command line:
 * one empty program per kind, attached to each.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* attached by as-floor to every tracepoint it is given */
SEC("tracepoint/syscalls/sys_exit_openat")
int floor_tp(void *ctx)
{
	return 0;
}

SEC("raw_tp/sched_process_fork")
int floor_raw_tp(void *ctx)
{
	return 0;
}

/* a BTF tracepoint's target is fixed at load: one program for each of
 * agent-sentinel's */
SEC("tp_btf/sched_process_fork")
int floor_tp_btf(void *ctx)
{
	return 0;
}

SEC("tp_btf/task_rename")
int floor_tp_btf_rename(void *ctx)
{
	return 0;
}

/* agent-sentinel's cgroup sendmsg hooks: 1 lets every send through */
SEC("cgroup/sendmsg4")
int floor_cg_sendmsg4(void *ctx)
{
	return 1;
}

SEC("cgroup/sendmsg6")
int floor_cg_sendmsg6(void *ctx)
{
	return 1;
}
