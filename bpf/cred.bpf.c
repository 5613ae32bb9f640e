// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Credential changes: the setuid family and capset, with requested values and result. */
#include "sentinel.bpf.h"

#define AS_SETID_ENTER(name, sc, nargs, type)                                                 \
	SEC("tracepoint/syscalls/sys_enter_" #name)                               \
	int tp_sys_enter_##name(struct as_sys_enter *ctx)             \
	{                                                                          \
		return as_inflight_save(ctx, (sc), (nargs), (type));                           \
	}

AS_SETID_ENTER(setuid, AS_SC_SETUID, 1, AS_EV_SETID)
AS_SETID_ENTER(setgid, AS_SC_SETGID, 1, AS_EV_SETID)
AS_SETID_ENTER(setreuid, AS_SC_SETREUID, 2, AS_EV_SETID)
AS_SETID_ENTER(setregid, AS_SC_SETREGID, 2, AS_EV_SETID)
AS_SETID_ENTER(setresuid, AS_SC_SETRESUID, 3, AS_EV_SETID)
AS_SETID_ENTER(setresgid, AS_SC_SETRESGID, 3, AS_EV_SETID)
AS_SETID_ENTER(capset, AS_SC_CAPSET, 2, AS_EV_CAPSET)

static __always_inline int as_setid_exit(long ret)
{
	struct as_inflight in;
	struct as_setid *s;
	__u32 nargs;
	__u8 *buf;

	buf = as_exit_begin(&in, AS_EV_SETID);
	if (!buf)
		return 0;
	s = (struct as_setid *)buf;
	s->res = ret;
	nargs = (in.sc == AS_SC_SETUID || in.sc == AS_SC_SETGID) ? 1 :
		(in.sc == AS_SC_SETREUID || in.sc == AS_SC_SETREGID) ? 2 : 3;
	s->id[0] = in.args[0];
	s->id[1] = nargs > 1 ? (__u32)in.args[1] : AS_ID_UNSET;
	s->id[2] = nargs > 2 ? (__u32)in.args[2] : AS_ID_UNSET;
	s->_pad0 = 0;
	as_emit(buf, sizeof(*s));
	return 0;
}

/* Also attached to the exits of setgid, setreuid, setregid, setresuid and
 * setresgid (user/attach.c): in.sc tells them apart. */
SEC("tracepoint/syscalls/sys_exit_setuid")
int tp_sys_exit_setuid(struct as_sys_exit *ctx)
{
	return as_setid_exit(ctx->ret);
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

SEC("tracepoint/syscalls/sys_exit_capset")
int tp_sys_exit_capset(struct as_sys_exit *ctx)
{
	long ret = ctx->ret;
	struct as_cap_data data[2] = {};
	struct as_cap_header hd = {};
	struct as_inflight in;
	struct as_capset *c;
	__u8 *buf;

	buf = as_exit_begin(&in, AS_EV_CAPSET);
	if (!buf)
		return 0;
	c = (struct as_capset *)buf;
	c->res = ret;
	bpf_probe_read_user(&hd, sizeof(hd), (void *)in.args[0]);
	/* version 1 carries one 32-bit set, versions 2 and 3 two */
	if (hd.version == 0x19980330)
		bpf_probe_read_user(data, sizeof(data[0]), (void *)in.args[1]);
	else
		bpf_probe_read_user(data, sizeof(data), (void *)in.args[1]);
	c->version = hd.version;
	c->target_pid = hd.pid;
	c->effective = data[0].effective | (__u64)data[1].effective << 32;
	c->permitted = data[0].permitted | (__u64)data[1].permitted << 32;
	c->inheritable = data[0].inheritable | (__u64)data[1].inheritable << 32;
	as_emit(buf, sizeof(*c));
	return 0;
}
