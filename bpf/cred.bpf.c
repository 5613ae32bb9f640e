// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Credential changes: the setuid family and capset, with requested values and
 * result; the arguments from the registers saved at entry (syscalls.h). */
#include "sentinel.bpf.h"

static __always_inline int as_setid_exit(struct as_sys_exit *ctx, int compat)
{
	__u64 args[AS_SYSCALL_ARGS];
	const struct cred *cred;
	struct as_setid *s;
	__u32 nargs, sc;
	__u8 *buf;

	buf = as_exit_begin(ctx, AS_EV_SETID, &sc, args, compat);
	if (!buf)
		return 0;
	s = (struct as_setid *)buf;
	s->res = ctx->ret;
	nargs = (sc == AS_SC_SETUID || sc == AS_SC_SETGID || sc == AS_SC_SETFSUID ||
		 sc == AS_SC_SETFSGID) ? 1 :
		sc == AS_SC_SETGROUPS ? 1 : /* setgroups: id[0] is the size of the list */
		(sc == AS_SC_SETREUID || sc == AS_SC_SETREGID) ? 2 : 3;
	s->id[0] = args[0];
	s->id[1] = nargs > 1 ? (__u32)args[1] : AS_ID_UNSET;
	s->id[2] = nargs > 2 ? (__u32)args[2] : AS_ID_UNSET;
	cred = BPF_CORE_READ((struct task_struct *)bpf_get_current_task(), cred);
	s->saved = sc == AS_SC_SETUID || sc == AS_SC_SETREUID || sc == AS_SC_SETRESUID ?
			   BPF_CORE_READ(cred, suid.val) :
		   sc == AS_SC_SETGID || sc == AS_SC_SETREGID || sc == AS_SC_SETRESGID ?
			   BPF_CORE_READ(cred, sgid.val) :
			   AS_ID_UNSET;
	as_emit(buf, sizeof(*s));
	return 0;
}

/* Also attached to the exits of setgid, setreuid, setregid, setresuid,
 * setresgid, setfsuid, setfsgid and setgroups (user/attach.c): ctx->id
 * tells them apart. setfsuid and setfsgid return the previous id, never
 * an error: a rule sees the request in id[0] and compares. */
SEC("tracepoint/syscalls/sys_exit_setuid")
int tp_sys_exit_setuid(struct as_sys_exit *ctx)
{
	return as_setid_exit(ctx, 0);
}

/* struct __user_cap_header_struct / __user_cap_data_struct (linux/capability.h) */
struct as_cap_header {
	__u32 version;
	int pid;
};

struct as_cap_data {
	__u32 effective;
	__u32 permitted;
	__u32 inheritable;
};

static __always_inline int as_capset_exit(struct as_sys_exit *ctx, int compat)
{
	long ret = ctx->ret;
	struct as_cap_data data[2] = {};
	struct as_cap_header hd = {};
	__u64 args[AS_SYSCALL_ARGS];
	struct as_capset *c;
	__u32 sc;
	__u8 *buf;

	buf = as_exit_begin(ctx, AS_EV_CAPSET, &sc, args, compat);
	if (!buf)
		return 0;
	c = (struct as_capset *)buf;
	c->res = ret;
	bpf_probe_read_user(&hd, sizeof(hd), (void *)args[0]);
	/* version 1 carries one 32-bit set, versions 2 and 3 two */
	if (hd.version == 0x19980330)
		bpf_probe_read_user(data, sizeof(data[0]), (void *)args[1]);
	else
		bpf_probe_read_user(data, sizeof(data), (void *)args[1]);
	c->version = hd.version;
	c->target_pid = hd.pid;
	c->effective = data[0].effective | (__u64)data[1].effective << 32;
	c->permitted = data[0].permitted | (__u64)data[1].permitted << 32;
	c->inheritable = data[0].inheritable | (__u64)data[1].inheritable << 32;
	as_emit(buf, sizeof(*c));
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_capset")
int tp_sys_exit_capset(struct as_sys_exit *ctx)
{
	return as_capset_exit(ctx, 0);
}

/* The setuid family through the 32-bit ABI (bpf/compat.bpf.c) */
AS_COMPAT_FN(as_compat_setid, as_setid_exit)

/* capset through the 32-bit ABI (bpf/compat.bpf.c) */
AS_COMPAT_FN(as_compat_capset, as_capset_exit)
