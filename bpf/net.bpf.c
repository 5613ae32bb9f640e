// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* connect(): destination from the caller's sockaddr, local side from the socket. */
#include "sentinel.bpf.h"

#define AS_AF_UNIX 1
#define AS_AF_INET 2
#define AS_AF_INET6 10
#define AS_S_IFMT 00170000
#define AS_S_IFSOCK 0140000

/* The socket behind fd, or NULL when fd is not a socket. */
static __always_inline struct socket *as_task_socket(struct task_struct *task, __s32 fd)
{
	struct file *f = as_task_file(task, fd);
	__u16 mode;

	if (!f)
		return 0;
	mode = BPF_CORE_READ(f, f_inode, i_mode);
	if ((mode & AS_S_IFMT) != AS_S_IFSOCK)
		return 0;
	return BPF_CORE_READ(f, private_data);
}

static __always_inline void as_put_local(struct as_connect *c, struct socket *sock)
{
	struct sock *sk = BPF_CORE_READ(sock, sk);

	if (!sk)
		return;
	c->proto = BPF_CORE_READ(sk, sk_protocol);
	c->sport = BPF_CORE_READ(sk, __sk_common.skc_num);
	/* explicit sizes: BPF_CORE_READ_INTO would copy sizeof(*c->saddr), one byte */
	if (c->family == AS_AF_INET)
		bpf_core_read(c->saddr, 4, &sk->__sk_common.skc_rcv_saddr);
	else if (c->family == AS_AF_INET6)
		bpf_core_read(c->saddr, 16, &sk->__sk_common.skc_v6_rcv_saddr);
	if (c->sport) /* a refused connect has no local side left */
		c->cflags |= AS_CF_LOCAL;
}

SEC("tracepoint/syscalls/sys_exit_connect")
int tp_sys_exit_connect(struct as_sys_exit *ctx)
{
	long ret = ctx->ret;
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	__u64 args[AS_SYSCALL_ARGS];
	const void *uaddr;
	struct as_connect *c;
	struct socket *sock;
	__u32 addrlen;
	__u16 family = 0;
	__u32 sc;
	__u8 *buf;

	buf = as_exit_begin(ctx, AS_EV_CONNECT, &sc, args);
	if (!buf)
		return 0;
	c = (struct as_connect *)buf;
	__builtin_memset(&c->res, 0, sizeof(*c) - sizeof(c->hdr));
	c->res = ret;
	c->fd = args[0];
	uaddr = (const void *)args[1];
	addrlen = args[2];
	bpf_probe_read_user(&family, sizeof(family), uaddr);
	c->family = family;

	if (family == AS_AF_INET) {
		struct as_sockaddr_in sin = {};

		bpf_probe_read_user(&sin, sizeof(sin), uaddr);
		c->dport = bpf_ntohs(sin.port);
		__builtin_memcpy(c->daddr, sin.addr, 4);
	} else if (family == AS_AF_INET6) {
		struct as_sockaddr_in6 sin6 = {};

		bpf_probe_read_user(&sin6, sizeof(sin6), uaddr);
		c->dport = bpf_ntohs(sin6.port);
		__builtin_memcpy(c->daddr, sin6.addr, 16);
	} else if (family == AS_AF_UNIX && addrlen > sizeof(family)) {
		__u32 n = addrlen - sizeof(family);

		if (n > AS_UNIX_PATH_MAX)
			n = AS_UNIX_PATH_MAX;
		AS_VERIFIER_MASK(n, 127); /* n <= AS_UNIX_PATH_MAX already */
		if (n > AS_UNIX_PATH_MAX)
			n = AS_UNIX_PATH_MAX;
		bpf_probe_read_user(c->path, n, uaddr + sizeof(family));
		if (c->path[0] == 0) { /* abstract: name is every byte after the NUL */
			c->cflags |= AS_CF_ABSTRACT;
			c->path_len = n - 1;
		} else {
			c->path_len = n;
		}
	}

	sock = as_task_socket(task, c->fd);
	if (sock) {
		c->sock_type = BPF_CORE_READ(sock, type);
		as_put_local(c, sock);
	}
	as_emit(buf, sizeof(*c));
	return 0;
}
