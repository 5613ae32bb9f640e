// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Socket acts. connect, sendto/sendmsg/sendmmsg with a destination and bind:
 * the address from the caller's sockaddr, the local side from the socket.
 * listen, accept/accept4 and socket: everything from the socket (accept: the
 * new one, whose peer is the remote end) or the arguments. dup, dup2, dup3
 * of a socket: the new fd and the socket's two ends (this end as the client,
 * as a connect has it); duplicating any other file sends nothing.
 */
#include "sentinel.bpf.h"

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

#define AS_CAP_NET_ADMIN 12
#define AS_CAP_AUDIT_CONTROL 30 /* the audit netlink socket's changes */

/* The current task holds CAP_NET_ADMIN (or CAP_AUDIT_CONTROL, audit's
 * rules and settings): its netlink sends may change the network. */
static __always_inline int as_may_admin_net(void)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	const struct cred *cred = BPF_CORE_READ(task, cred);
	__u64 caps = 0; /* kernel_cap_t: one u64 since 6.3, two u32s before */

	bpf_probe_read_kernel(&caps, sizeof(caps), &cred->cap_effective);
	return !!(caps & (1ull << AS_CAP_NET_ADMIN | 1ull << AS_CAP_AUDIT_CONTROL));
}

/* fd is a netlink socket and the current task may change the network
 * (as_may_admin_net): a send on it without an address may still change
 * the network. Asked only of sends without one, and the capability first:
 * most tasks lack it. */
static __always_inline int as_netlink_admin(__s32 fd)
{
	struct socket *sock;

	if (!as_may_admin_net())
		return 0;
	sock = as_task_socket((struct task_struct *)bpf_get_current_task(), fd);
	return sock && BPF_CORE_READ(sock, sk, __sk_common.skc_family) == AS_AF_NETLINK;
}

static __always_inline void as_put_local(struct as_connect *c, struct sock *sk)
{
	if (!sk)
		return;
	if (!c->family)
		c->family = BPF_CORE_READ(sk, __sk_common.skc_family);
	c->proto = BPF_CORE_READ(sk, sk_protocol);
	c->sport = BPF_CORE_READ(sk, __sk_common.skc_num);
	/* explicit sizes: BPF_CORE_READ_INTO would copy sizeof(*c->saddr), one byte */
	if (c->family == AS_AF_INET)
		bpf_core_read(c->saddr, 4, &sk->__sk_common.skc_rcv_saddr);
	else if (c->family == AS_AF_INET6)
		bpf_core_read(c->saddr, 16, &sk->__sk_common.skc_v6_rcv_saddr);
	if (c->sport) /* a refused connect has no local side left */
		c->cflags |= AS_CF_LOCAL;
	c->netns = BPF_CORE_READ(sk, __sk_common.skc_net.net, ns.inum);
	if (c->netns && cfg_host_netns && c->netns != cfg_host_netns)
		c->cflags |= AS_CF_NETNS_OWN;
}

/* The remote end of a connected socket (an accepted one). */
static __always_inline void as_put_peer(struct as_connect *c, struct socket *sock)
{
	struct sock *sk = BPF_CORE_READ(sock, sk);

	if (!sk)
		return;
	c->dport = bpf_ntohs(BPF_CORE_READ(sk, __sk_common.skc_dport));
	if (c->family == AS_AF_INET)
		bpf_core_read(c->daddr, 4, &sk->__sk_common.skc_daddr);
	else if (c->family == AS_AF_INET6)
		bpf_core_read(c->daddr, 16, &sk->__sk_common.skc_v6_daddr);
	c->cflags |= AS_CF_PEER;
}

#define AS_SOCK_STREAM 1
#define AS_EINPROGRESS 115

/* A connected socket's remote end as a connect's destination (not as an
 * accepted socket's peer); none when it has no remote end. */
static __always_inline void as_put_remote(struct as_connect *c, struct socket *sock)
{
	if (BPF_CORE_READ(sock, sk, __sk_common.skc_dport)) {
		as_put_peer(c, sock);
		c->cflags &= ~AS_CF_PEER;
	}
}

#define AS_SOCK_DGRAM 2
#define AS_PIDTYPE_TGID 1
#define AS_PID_NS_LEVEL_MAX 32 /* the kernel's MAX_PID_NS_LEVEL */
#define AS_PROC_PID_INIT_INO 0xEFFFFFFCu /* the initial pid namespace's inode */

/* The inode of the pid namespace a struct pid's process was made in (its
 * deepest), 0 when not read */
static __always_inline __u32 as_pid_ns_inum(struct pid *pid)
{
	struct pid_namespace *ns = 0;
	__u32 level = BPF_CORE_READ(pid, level);

	if (level > AS_PID_NS_LEVEL_MAX ||
	    bpf_core_read(&ns, sizeof(ns), &pid->numbers[level & (AS_PID_NS_LEVEL_MAX * 2 - 1)].ns))
		return 0;
	return BPF_CORE_READ(ns, ns.inum);
}

/* Is the server a connected unix socket reached the sandbox's own? A
 * datagram socket's peer is that server's socket: in the caller's network
 * namespace. A stream (or seqpacket) socket's peer is the embryo the
 * connect made for the server to accept, in the caller's namespace whatever
 * the server's: there the server is the process that called listen, whose
 * pid the connect copied (SO_PEERCRED): in the caller's network namespace
 * while it runs, and once it has exited (a daemon's parent: ssh-agent,
 * dbus-daemon --fork) made in the caller's pid namespace (the sandbox's,
 * bubblewrap --unshare-pid), which the socket's reference keeps. */
static __always_inline int as_unix_server_own(struct sock *sk, struct sock *peer,
					      const struct as_connect *c)
{
	struct task_struct *cur = (struct task_struct *)bpf_get_current_task();
	struct hlist_node *first = 0;
	struct task_struct *t = 0;
	struct pid *pid;
	__u32 netns, pidns;

	if (c->sock_type == AS_SOCK_DGRAM)
		return BPF_CORE_READ(peer, __sk_common.skc_net.net, ns.inum) == c->netns;
	pid = BPF_CORE_READ(sk, sk_peer_pid);
	if (!pid)
		return 0;
	if (!bpf_core_read(&first, sizeof(first), &pid->tasks[AS_PIDTYPE_TGID].first) && first) {
		t = (struct task_struct *)((char *)first - bpf_core_field_offset(t->pid_links) -
					   AS_PIDTYPE_TGID * sizeof(struct hlist_node));
		netns = BPF_CORE_READ(t, nsproxy, net_ns, ns.inum);
		if (netns)
			return netns == c->netns;
	}
	/* not the host's pid namespace: its daemons' servers would pass */
	pidns = as_pid_ns_inum(BPF_CORE_READ(cur, thread_pid));
	return pidns && pidns != AS_PROC_PID_INIT_INO && as_pid_ns_inum(pid) == pidns;
}

/* The destination a call reached, as the kernel holds it on the socket:
 * a connect that succeeded (or is in progress), a stream socket's send.
 * The caller's sockaddr, read at the exit, is what its memory says after
 * the call; another thread may have rewritten it once the kernel had its
 * copy (a blocking connect gives it a round trip to do so). Calls that
 * reached none (a refused connect, an unconnected datagram's send) keep
 * the caller's: as_put_sock asks this only of those that did. */
static __always_inline void as_put_dest(struct as_connect *c, struct socket *sock)
{
	struct sock *sk = BPF_CORE_READ(sock, sk);
	struct unix_address *ua;
	struct sock *peer;
	__s32 n;

	if (!sk)
		return;
	if (c->family == AS_AF_INET || c->family == AS_AF_INET6) {
		as_put_remote(c, sock);
		return;
	}
	if (c->family != AS_AF_UNIX)
		return;
	peer = BPF_CORE_READ((struct unix_sock *)sk, peer);
	if (peer && (c->cflags & AS_CF_NETNS_OWN) && as_unix_server_own(sk, peer, c))
		c->cflags |= AS_CF_PEER_NETNS_OWN;
	ua = peer ? BPF_CORE_READ((struct unix_sock *)peer, addr) : 0;
	if (!ua)
		return; /* an unnamed peer (socketpair): no path */
	n = BPF_CORE_READ(ua, len) - (__s32)sizeof(__u16);
	if (n <= 0)
		return;
	if (n > AS_UNIX_PATH_MAX)
		n = AS_UNIX_PATH_MAX;
	AS_VERIFIER_MASK(n, 127);
	if (n > AS_UNIX_PATH_MAX)
		n = AS_UNIX_PATH_MAX;
	bpf_probe_read_kernel(c->path, n, (const char *)ua + bpf_core_field_offset(ua->name) +
						  sizeof(__u16));
	if (c->path[0] == 0) {
		c->cflags |= AS_CF_ABSTRACT;
		c->path_len = n - 1;
	} else {
		c->path_len = n;
	}
}

/* a ::ffff:a.b.c.d address */
static __always_inline int as_v4mapped(const __u8 *a)
{
	return !*(__u64 *)&a[0] && *(__u32 *)&a[8] == bpf_htonl(0xffff);
}

/* An IPv6 socket's ends both IPv4-mapped (an IPv6 socket talking IPv4):
 * an IPv4 pair, as Falco has it (fd.type ipv4, fd.sip 127.0.0.1) */
static __always_inline void as_unmap_v4(struct as_connect *c)
{
	if (c->family != AS_AF_INET6 || !(c->cflags & AS_CF_LOCAL) || !as_v4mapped(c->daddr) ||
	    !as_v4mapped(c->saddr))
		return;
	c->family = AS_AF_INET;
	__builtin_memcpy(c->daddr, &c->daddr[12], 4);
	__builtin_memcpy(c->saddr, &c->saddr[12], 4);
	__builtin_memset(&c->daddr[4], 0, 12);
	__builtin_memset(&c->saddr[4], 0, 12);
}

/* daddr/dport <-> saddr/sport */
static __always_inline void as_swap_ends(struct as_connect *c)
{
	__u8 t[16];
	__u16 p = c->dport;

	__builtin_memcpy(t, c->daddr, 16);
	__builtin_memcpy(c->daddr, c->saddr, 16);
	__builtin_memcpy(c->saddr, t, 16);
	c->dport = c->sport;
	c->sport = p;
}

/* What as_put_sock reports of a socket besides its type and this end. */
enum as_sock_how {
	AS_SOCK_LOCAL, /* this end only (connect, bind, sends) */
	AS_SOCK_ACCEPTED, /* the client (the peer) first, the server (this end) second */
	AS_SOCK_LISTENING, /* the server: its own address as the destination */
	AS_SOCK_DUP, /* this end, and a connected one's remote end as the destination */
	AS_SOCK_REACHED, /* this end, and the destination from the socket (as_put_dest) */
	AS_SOCK_SENT, /* as AS_SOCK_REACHED for a stream socket, else AS_SOCK_LOCAL */
};

/* The socket behind fd of the current task into this CPU's record (an
 * as_connect): its type and the ends how asks for; 0 when fd is no socket.
 * A global function: its branches on family and kind would otherwise be
 * states of their own through the rest of every caller (connect's program
 * and the 32-bit one), each a few thousand instructions verified. */
__noinline int as_put_sock(__s32 fd, __u32 how)
{
	struct as_connect *c = (struct as_connect *)as_scratch_buf();
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct socket *sock;

	if (!c || fd < 0)
		return 0;
	sock = as_task_socket(task, fd);
	if (!sock)
		return 0;
	c->sock_type = BPF_CORE_READ(sock, type);
	/* a stream socket sends to its peer, whatever address came with the
	 * data (TCP Fast Open: the one it took) */
	if (how == AS_SOCK_SENT)
		how = c->sock_type == AS_SOCK_STREAM ? AS_SOCK_REACHED : AS_SOCK_LOCAL;
	if (how == AS_SOCK_REACHED) { /* the family too: the socket's, not the caller's */
		c->family = 0;
		c->dport = 0;
		c->path_len = 0;
		c->cflags &= ~AS_CF_ABSTRACT;
		__builtin_memset(c->daddr, 0, sizeof(c->daddr));
		__builtin_memset(c->path, 0, sizeof(c->path));
	}
	as_put_local(c, BPF_CORE_READ(sock, sk));
	switch (how) {
	case AS_SOCK_ACCEPTED:
		/* an accepted socket's tuple, as Falco's */
		as_put_peer(c, sock);
		as_swap_ends(c);
		break;
	case AS_SOCK_LISTENING:
		as_swap_ends(c);
		c->cflags &= ~AS_CF_LOCAL;
		break;
	case AS_SOCK_REACHED:
		as_put_dest(c, sock);
		break;
	case AS_SOCK_DUP:
		as_put_remote(c, sock);
		break;
	default:
		break;
	}
	as_unmap_v4(c);
	return 1;
}

/* The caller's sockaddr of addrlen bytes at uaddr into this CPU's record (an
 * as_connect). A global function: verified once per program, not at each of
 * its call sites (connect, bind, sendto, sendmsg and each sendmmsg message). */
__noinline int as_put_addr(__u64 uaddr_p, __u32 addrlen)
{
	struct as_connect *c = (struct as_connect *)as_scratch_buf();
	const void *uaddr = (const void *)uaddr_p;
	struct as_sockaddr_in6 sin6 = {};
	__u16 family = 0;

	if (!c)
		return 0;
	/* the IPv6 form's bytes in one read (each user read costs ~200 ns
	 * here); where they cross the end of a mapping, the family alone */
	if (bpf_probe_read_user(&sin6, sizeof(sin6), uaddr) &&
	    bpf_probe_read_user(&sin6, sizeof(struct as_sockaddr_in), uaddr))
		bpf_probe_read_user(&sin6.family, sizeof(sin6.family), uaddr);
	family = sin6.family;
	c->family = family;
	c->cflags |= AS_CF_ADDR;
	if (family == AS_AF_INET) { /* sockaddr_in's address is where flowinfo is */
		c->dport = bpf_ntohs(sin6.port);
		__builtin_memcpy(c->daddr, &sin6.flowinfo, 4);
	} else if (family == AS_AF_INET6) {
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
	return 0;
}

/* A send's destination into this CPU's record (an as_connect): the one
 * as_send_dest put in scratch when it is an IP address, else (a unix
 * socket's path) the caller's sockaddr of addrlen bytes at uaddr. */
static __always_inline void as_put_send_dest(struct as_connect *c, __u64 uaddr, __u32 addrlen)
{
	struct as_scratch *s = as_scratch();
	const struct as_send_dest *d = s ? &s->send_dest : 0;

	if (!d || (d->family != AS_AF_INET && d->family != AS_AF_INET6)) {
		if (uaddr)
			as_put_addr(uaddr, addrlen);
		return;
	}
	c->family = d->family;
	c->cflags |= AS_CF_ADDR;
	c->dport = bpf_ntohs(d->port);
	__builtin_memcpy(c->daddr, d->addr, 16);
}

/* struct user_msghdr's head (linux/socket.h) */
struct as_msghdr {
	__u64 name;
	__s32 namelen;
};

struct as_compat_msghdr { /* struct compat_msghdr's first two fields */
	__u32 name;
	__s32 namelen;
};

/* The destination of the msghdr at uaddr: name (NULL: none) and namelen;
 * non-zero when it cannot be read. */
static __always_inline long as_read_msghdr(struct as_msghdr *m, __u64 uaddr, int compat)
{
	if (compat) {
		struct as_compat_msghdr cm = {};
		long err = bpf_probe_read_user(&cm, sizeof(cm), (const void *)uaddr);

		m->name = cm.name;
		m->namelen = cm.namelen;
		return err;
	}
	return bpf_probe_read_user(m, sizeof(*m), (const void *)uaddr);
}

/* The netlink message headers of a send to a netlink socket (AS_CF_NLMSG):
 * its messages walked as the kernel's netlink_rcv_skb takes them, through
 * the buffer (sendto's) or each iovec of a msghdr in turn, their types in
 * daddr and their flags in saddr (u16s: the first AS_NLMSG_SCAN - 1 and the
 * latest), their count in dport; AS_CF_NLMSG_MORE when some went unrecorded
 * or unread. A buffer may carry
 * several (an nftables batch, or a read and then a change): userspace says
 * which of them change the kernel's state (user/scflags.c). */
#define AS_NLMSG_HDRLEN 16
#define AS_NL_IOV_MAX 16 /* iovecs of a sendmsg walked */
#define AS_NLMSG_WALK 64 /* messages walked */

struct as_nl_walk {
	__u64 vec; /* the caller's iovec array (0: the one buffer in base, len) */
	__u64 n_iov; /* its length */
	__u64 base; /* the iovec being walked */
	__u64 len;
	__u64 off; /* the next message's offset in it */
	__u32 cur; /* its index */
	__u32 compat; /* struct compat_iovec: two u32s */
	__u32 n; /* messages walked */
	__u32 more; /* AS_CF_NLMSG_MORE */
};

/* iovec cur of the walk into base and len; nonzero when there is none */
static __always_inline int as_nl_iov(struct as_nl_walk *w)
{
	if (w->cur >= w->n_iov || w->cur >= AS_NL_IOV_MAX)
		return 1;
	if (w->compat) {
		__u32 ci[2] = {};

		if (bpf_probe_read_user(ci, sizeof(ci), (const void *)(w->vec + w->cur * 8)))
			return 1;
		w->base = ci[0];
		w->len = ci[1];
	} else {
		__u64 iov[2] = {};

		if (bpf_probe_read_user(iov, sizeof(iov), (const void *)(w->vec + w->cur * 16)))
			return 1;
		w->base = iov[0];
		w->len = iov[1];
	}
	return 0;
}

/* One step of the walk: the next message's header, recorded while there is
 * room; or, where the iovec is used up, the next iovec (a step of its own:
 * the verifier then checks one path per step). */
static long as_nl_step(__u32 i, struct as_nl_walk *w)
{
	struct as_connect *c = (struct as_connect *)as_scratch_buf();
	struct { __u32 len; __u16 type, flags; } nh; /* the header's first 8 bytes */
	__u32 slot;

	if (!c)
		return 1;
	if (w->off >= w->len) {
		w->off -= w->len;
		w->cur++;
		if (!w->vec || as_nl_iov(w)) {
			/* iovecs past those walked may hold data */
			if (w->vec && w->cur < w->n_iov)
				w->more = AS_CF_NLMSG_MORE;
			return 1;
		}
		return 0;
	}
	if (w->off + sizeof(nh) > w->len) {
		/* the head of a header split across iovecs (the kernel joins
		 * them); at the end of the last, the rest of no message */
		if (w->vec && w->cur + 1 < w->n_iov)
			w->more = AS_CF_NLMSG_MORE;
		return 1;
	}
	if (bpf_probe_read_user(&nh, sizeof(nh), (const void *)(w->base + w->off))) {
		w->more = AS_CF_NLMSG_MORE;
		return 1;
	}
	/* past the room: the last slot holds the latest message (padding
	 * before a change does not push it out) */
	slot = w->n < AS_NLMSG_SCAN ? w->n : AS_NLMSG_SCAN - 1;
	if (w->n >= AS_NLMSG_SCAN)
		w->more = AS_CF_NLMSG_MORE;
	__builtin_memcpy(&c->daddr[(slot * 2) & 15], &nh.type, 2);
	__builtin_memcpy(&c->saddr[(slot * 2) & 15], &nh.flags, 2);
	w->n++;
	if (nh.len < AS_NLMSG_HDRLEN)
		return 1; /* the kernel takes no message after one this short */
	w->off += ((__u64)nh.len + 3) & ~3ull;
	return 0;
}

/* The messages of the buffer data of len bytes, or of the n_iov iovecs at
 * vec, into this CPU's record. A global function: checked once. */
__noinline int as_put_nlmsg(__u64 data, __u64 len, __u64 vec, __u64 n_iov, int compat)
{
	struct as_connect *c = (struct as_connect *)as_scratch_buf();
	struct as_nl_walk w = { .base = data, .len = len, .n_iov = 1, .compat = compat };

	if (!c)
		return 0;
	if (vec || n_iov) {
		w.vec = vec;
		w.n_iov = n_iov;
		if (!w.vec || as_nl_iov(&w))
			return 0;
	}
	if (!w.base && !w.vec)
		return 0;
	/* a step per message, and one per iovec moved on to; all of them
	 * taken: maybe more, not walked */
	if (bpf_loop(AS_NLMSG_WALK + AS_NL_IOV_MAX, as_nl_step, &w, 0) ==
	    AS_NLMSG_WALK + AS_NL_IOV_MAX)
		w.more = AS_CF_NLMSG_MORE;
	c->dport = w.n < AS_NLMSG_SCAN ? w.n : AS_NLMSG_SCAN;
	if (w.n || w.more)
		c->cflags |= AS_CF_NLMSG | w.more;
	return 0;
}

/* The messages of the iovecs of the msghdr at msg (as_put_nlmsg). */
static __always_inline void as_put_nlmsg_msg(__u64 msg, int compat)
{
	if (compat) {
		__u32 v[2] = {}; /* msg_iov, msg_iovlen */

		bpf_probe_read_user(v, sizeof(v), (const void *)(msg + 8));
		as_put_nlmsg(0, 0, v[0], v[1], compat);
	} else {
		__u64 v[2] = {};

		bpf_probe_read_user(v, sizeof(v), (const void *)(msg + 16));
		as_put_nlmsg(0, 0, v[0], v[1], compat);
	}
}

/* sendmmsg messages whose destinations are events: every message a call
 * sent (at most UIO_MAXIOV, the kernel's own limit on vlen); of a call that
 * sent none, the first AS_MMSG_TRIED_MAX it was given */
#define AS_MMSG_MAX 1024
#define AS_MMSG_TRIED_MAX 16
#define AS_MMSGHDR_SIZE 64 /* struct mmsghdr: a user_msghdr and msg_len, padded */
#define AS_COMPAT_MMSGHDR_SIZE 32 /* struct compat_mmsghdr: seven u32s and msg_len */

struct as_mmsg_walk {
	__u64 vec; /* the caller's struct mmsghdr array */
	__u64 n; /* its length (vlen) */
	__s64 ret; /* the call's result */
	__u8 prev[16]; /* the last destination sent: a repeat is not an event again */
	__u16 prev_family;
	__u16 prev_port;
	__u16 prev_path_len;
	__u16 compat; /* the 32-bit ABI's layout */
	__s32 fd;
	__u32 flags;
};

/* The destination in this CPU's scratch (send_dest; for one that is no IP
 * address, the caller's sockaddr at name) as this CPU's record, sent
 * unless it repeats the one before (i: the message or note). */
/* The record of a sendmmsg's previous message cleared for the next one: the
 * socket's own side stays */
static __always_inline void as_mmsg_clear(struct as_connect *c)
{
	c->family = 0;
	c->dport = 0;
	c->path_len = 0;
	c->cflags &= AS_CF_LOCAL | AS_CF_NETNS_OWN; /* the socket's */
	__builtin_memset(c->daddr, 0, sizeof(c->daddr));
	__builtin_memset(c->path, 0, sizeof(c->path));
}

static long as_mmsg_put(struct as_mmsg_walk *w, __u32 i, __u64 name, __u32 namelen)
{
	struct as_connect *c = (struct as_connect *)as_scratch_buf();

	if (!c)
		return 1;
	as_mmsg_clear(c);
	as_put_send_dest(c, name, namelen);
	if (as_send_repeat(AS_SC_SENDMMSG | (w->compat ? AS_SC_COMPAT_BIT : 0), w->fd,
			   w->flags, w->ret))
		return 0;
	if (i && c->family == w->prev_family && c->dport == w->prev_port &&
	    c->path_len == w->prev_path_len &&
	    *(__u64 *)&c->daddr[0] == *(__u64 *)&w->prev[0] &&
	    *(__u64 *)&c->daddr[8] == *(__u64 *)&w->prev[8])
		return 0;
	w->prev_family = c->family;
	w->prev_port = c->dport;
	w->prev_path_len = c->path_len;
	__builtin_memcpy(w->prev, c->daddr, 16);
	as_emit((__u8 *)c, sizeof(*c));
	return 0;
}

/* Message i of a sendmmsg: its destination into this CPU's record, sent
 * unless it repeats the one before. */
static long as_mmsg_step(__u32 i, struct as_mmsg_walk *w)
{
	struct as_connect *c = (struct as_connect *)as_scratch_buf();
	struct as_msghdr m = {};

	if (!c || i >= w->n)
		return 1;
	if (as_read_msghdr(&m, w->vec + (__u64)i * (w->compat ? AS_COMPAT_MMSGHDR_SIZE : AS_MMSGHDR_SIZE),
			   w->compat))
		return 1;
	if (!m.name)
		return 0; /* data on the connected destination */
	/* past the kernel's notes: the caller's memory (as_send_dest's j) */
	as_send_dest(m.name, w->fd, AS_SEND_NOTES_MAX);
	return as_mmsg_put(w, i, m.name, m.namelen);
}

/* Noted destination j of a sendmmsg: the kernel's copies first, then (were
 * there more places than notes) the caller's messages as they are now. */
static long as_mmsg_noted_step(__u32 j, struct as_mmsg_walk *w)
{
	if (as_send_dest(0, w->fd, j) != 1)
		return 1;
	return as_mmsg_put(w, j, 0, 0);
}

/* Message i of a sendmmsg on a netlink socket of a task that may change the
 * network: an event of its own with its messages (and its destination,
 * where it names one); the last one walked says when the call sent more. */
#define AS_NL_MMSG_MAX 16
static long as_mmsg_nl_step(__u32 i, struct as_mmsg_walk *w)
{
	struct as_connect *c = (struct as_connect *)as_scratch_buf();
	__u64 hdr = w->vec + (__u64)i * (w->compat ? AS_COMPAT_MMSGHDR_SIZE : AS_MMSGHDR_SIZE);
	struct as_msghdr m = {};

	if (!c || i >= w->n || as_read_msghdr(&m, hdr, w->compat))
		return 1;
	as_mmsg_clear(c);
	c->family = AS_AF_NETLINK;
	/* a netlink socket's own side leaves saddr empty: the flags of the
	 * previous message's headers were there */
	__builtin_memset(c->saddr, 0, sizeof(c->saddr));
	if (m.name)
		as_put_addr(m.name, m.namelen);
	as_put_nlmsg_msg(hdr, w->compat);
	if (i + 1 == AS_NL_MMSG_MAX && w->ret > AS_NL_MMSG_MAX)
		c->cflags |= AS_CF_NLMSG_MORE;
	if (m.name || (c->cflags & AS_CF_NLMSG))
		as_emit((__u8 *)c, sizeof(*c));
	return 0;
}

#define AS_EAGAIN 11
#define AS_EINTR 4

static __always_inline int as_sock_exit(struct as_sys_exit *ctx, int compat)
{
	__u64 args[AS_SYSCALL_ARGS];
	long ret = ctx->ret;
	struct as_msghdr m = {};
	struct as_connect *c;
	__u32 sc = as_sc_of(ctx->id);
	int noted = 0; /* the destination is the kernel's note: take the notes at the end */
	__s32 sockfd;
	__u8 *buf;

	/* outside every agent tree: done before the caller's registers are read */
	if (sc == AS_SC_NONE || !as_prefiltered(AS_EV_CONNECT, compat))
		return 0;
	/* then: a non-blocking accept finding no one is no act, and a send
	 * without a destination is data on a connected socket (its connect
	 * was the event) */
	if ((sc == AS_SC_ACCEPT || sc == AS_SC_ACCEPT4) && (ret == -AS_EAGAIN || ret == -AS_EINTR))
		return 0;
	as_args(args, compat); /* once: each read of the registers is two helper calls */
	if (sc == AS_SC_SENDTO && !args[4] && !as_netlink_admin((__s32)args[0]))
		return 0; /* as sendmsg's below */
	if ((sc == AS_SC_SENDMSG || sc == AS_SC_SENDMMSG) && !args[1])
		return 0;
	if (sc == AS_SC_SENDMSG) { /* read once: each user read is ~200 ns */
		as_read_msghdr(&m, args[1], compat);
		/* a connected socket's data: its connect was the event; but a
		 * netlink socket needs no connect, and a task that may change
		 * the network (CAP_NET_ADMIN) says what it asks only there */
		if (!m.name && !as_netlink_admin((__s32)args[0]))
			return 0;
	}
	/* a send's destination: the kernel's copy where a sendmsg hook noted
	 * it (a datagram's), else the caller's sockaddr now */
	if ((sc == AS_SC_SENDTO && args[4]) || (sc == AS_SC_SENDMSG && m.name))
		noted = as_send_dest(sc == AS_SC_SENDTO ? args[4] : m.name, args[0], 0) == 1;
	else if (sc == AS_SC_SENDMMSG)
		noted = as_send_dest(0, args[0], 0) == 1;
	/* a send repeating the thread's last on the socket: no record at all */
	if (cfg_send_fold && ((sc == AS_SC_SENDTO && args[4]) || (sc == AS_SC_SENDMSG && m.name)) &&
	    as_send_repeat(sc | (compat ? AS_SC_COMPAT_BIT : 0), args[0],
			   sc == AS_SC_SENDTO ? args[3] : args[2], ret)) {
		if (noted)
			as_send_notes_done();
		return 0;
	}
	buf = as_exit_hdr(AS_EV_CONNECT, sc, compat); /* filtered above */
	if (!buf) {
		if (noted)
			as_send_notes_done();
		return 0;
	}
	c = (struct as_connect *)buf;
	__builtin_memset(&c->res, 0, sizeof(*c) - sizeof(c->hdr));
	c->res = ret;
	sockfd = args[0];
	switch (sc) {
	case AS_SC_CONNECT:
	case AS_SC_BIND:
		as_put_addr(args[1], args[2]);
		break;
	case AS_SC_SENDTO:
		c->aux = args[3];
		if (args[4])
			as_put_send_dest(c, args[4], args[5]);
		break;
	case AS_SC_SENDMSG:
		c->aux = args[2];
		if (m.name)
			as_put_send_dest(c, m.name, m.namelen);
		break;
	case AS_SC_SENDMMSG: /* one event per addressed message: below */
		c->aux = args[3];
		break;
	case AS_SC_LISTEN:
		c->aux = args[1];
		break;
	case AS_SC_ACCEPT:
	case AS_SC_ACCEPT4:
		c->aux = sc == AS_SC_ACCEPT4 ? args[3] : 0;
		sockfd = ret; /* the new socket: its peer is the remote end */
		break;
	case AS_SC_DUP:
	case AS_SC_DUP2:
	case AS_SC_DUP3:
		if (!as_put_sock((__s32)args[0], AS_SOCK_DUP))
			return 0;
		c->aux = args[0]; /* the old fd */
		c->fd = ret >= 0 ? ret : -1;
		as_emit(buf, sizeof(*c));
		return 0;
	case AS_SC_SOCKET:
		/* a socket made: its family and type as the kernel made them
		 * (__sock_create() turns AF_INET SOCK_PACKET into a packet
		 * socket), read from it; a failed call's as passed */
		if (ret < 0 || !as_put_sock(ret, AS_SOCK_LOCAL)) {
			c->family = args[0];
			c->sock_type = args[1] & 0xf; /* SOCK_TYPE_MASK */
		}
		c->proto = args[2]; /* as passed, as Falco's: 0 is the default */
		c->aux = args[1] & ~0xfu; /* SOCK_NONBLOCK, SOCK_CLOEXEC */
		c->fd = ret;
		as_emit(buf, sizeof(*c));
		return 0;
	default:
		return 0;
	}
	c->fd = sockfd;
	if (sc == AS_SC_SENDMMSG) {
		/* the messages of a sendmmsg may each go elsewhere: every
		 * destination it sent to is an event */
		struct as_mmsg_walk w = { .vec = args[1], .n = args[2], .compat = compat,
					  .ret = ret, .fd = sockfd, .flags = args[3] };

		as_put_sock(sockfd, AS_SOCK_LOCAL);
		if (c->family == AS_AF_NETLINK && as_netlink_admin(sockfd)) {
			/* (a netlink send is no datagram: no notes) */
			bpf_loop(ret > 0 ? (ret < AS_NL_MMSG_MAX ? ret : AS_NL_MMSG_MAX) : 1,
				 as_mmsg_nl_step, &w, 0);
			return 0;
		}
		if (noted) {
			struct as_scratch *s = as_scratch();

			bpf_loop(AS_SEND_NOTES_MAX, as_mmsg_noted_step, &w, 0);
			as_send_notes_done();
			if (!s || !s->send_lost)
				return 0;
		}
		bpf_loop(ret > 0 ? (ret < AS_MMSG_MAX ? ret : AS_MMSG_MAX) : AS_MMSG_TRIED_MAX,
			 as_mmsg_step, &w, 0);
		return 0;
	}
	as_put_sock(sockfd, sc == AS_SC_ACCEPT || sc == AS_SC_ACCEPT4		? AS_SOCK_ACCEPTED :
			    sc == AS_SC_LISTEN					? AS_SOCK_LISTENING :
			    sc == AS_SC_CONNECT && (!ret || ret == -AS_EINPROGRESS)	? AS_SOCK_REACHED :
			    (sc == AS_SC_SENDTO || sc == AS_SC_SENDMSG) && ret >= 0	? AS_SOCK_SENT :
											  AS_SOCK_LOCAL);
	if (c->family == AS_AF_NETLINK && sc == AS_SC_SENDTO)
		as_put_nlmsg(args[1], args[2], 0, 0, compat);
	else if (c->family == AS_AF_NETLINK && sc == AS_SC_SENDMSG)
		as_put_nlmsg_msg(args[1], compat);
	as_emit(buf, sizeof(*c));
	if (noted)
		as_send_notes_done();
	return 0;
}

/*
 * The kernel's own copy of a datagram's destination. A UDP send's address
 * is copied into the kernel as the call begins; a second thread of the
 * caller may then rewrite its sockaddr, and the exit would read a decoy.
 * These run inside the send (udp_sendmsg, udpv6_sendmsg, each message of a
 * sendmmsg, io_uring's too), on the kernel's copy, for every socket of the
 * cgroup v2 tree they are attached to (its root: user/attach.c), and note
 * an agent tree's destinations for the exit (as_send_dest). They change
 * nothing: 1 lets every send through.
 */
static __always_inline void as_send_note(struct bpf_sock_addr *ctx, int v6)
{
	struct as_send_dest d = {};
	struct as_send_notes *n;
	__u64 cookie;
	long nr;
	__u32 i;

	if (!as_prefiltered(AS_EV_CONNECT, 0))
		return;
	n = bpf_task_storage_get(&send_notes, bpf_get_current_task_btf(), 0,
				 BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!n)
		return;
	cookie = bpf_get_socket_cookie(ctx);
	nr = AS_REGS_SYSCALL_NR(as_user_regs());
	if (n->cookie != cookie || n->nr != nr) { /* another call's: start afresh */
		n->cookie = cookie;
		n->nr = nr;
		n->n = 0;
		n->lost = 0;
	}
	d.port = (__be16)ctx->user_port;
	if (v6) {
		d.family = AS_AF_INET6;
		*(__u32 *)&d.addr[0] = ctx->user_ip6[0];
		*(__u32 *)&d.addr[4] = ctx->user_ip6[1];
		*(__u32 *)&d.addr[8] = ctx->user_ip6[2];
		*(__u32 *)&d.addr[12] = ctx->user_ip6[3];
	} else { /* an IPv6 socket's IPv4-mapped one too: the kernel sends IPv4 */
		d.family = AS_AF_INET;
		*(__u32 *)&d.addr[0] = ctx->user_ip4;
	}
	i = n->n;
	if (i && i <= AS_SEND_NOTES_MAX) {
		const struct as_send_dest *p = &n->d[(i - 1) & (AS_SEND_NOTES_MAX - 1)];

		if (p->family == d.family && p->port == d.port &&
		    *(__u64 *)&p->addr[0] == *(__u64 *)&d.addr[0] &&
		    *(__u64 *)&p->addr[8] == *(__u64 *)&d.addr[8])
			return; /* the same place again */
	}
	if (i >= AS_SEND_NOTES_MAX) {
		n->lost++;
		return;
	}
	n->d[i & (AS_SEND_NOTES_MAX - 1)] = d;
	n->n = i + 1;
}

SEC("cgroup/sendmsg4")
int cg_sendmsg4(struct bpf_sock_addr *ctx)
{
	as_send_note(ctx, 0);
	return 1;
}

SEC("cgroup/sendmsg6")
int cg_sendmsg6(struct bpf_sock_addr *ctx)
{
	as_send_note(ctx, 1);
	return 1;
}

/*
 * A netlink send made by any other call than sendto, sendmsg and sendmmsg
 * (whose exits make their events): write, writev or pwritev2 on the
 * socket, sendfile or splice into it, an io_uring request (SEND, SENDMSG,
 * WRITE, inline or by io_uring's threads), an AIO write. The kernel takes
 * each as a sendmsg (sock_sendmsg); this tracepoint fires inside every one,
 * after the send, in the sender's context. Sends of other families leave at
 * the first test; a netlink one is kept from a task that may change the
 * network, as the send calls' are. Its messages are read where the call's
 * own arguments hold them (write, writev, pwritev2: still in the caller's
 * memory); elsewhere (a file's or a pipe's pages, an io_uring request) they
 * are unread: the record says so (AS_CF_NLMSG_MORE), and a change is
 * assumed.
 */
struct as_sock_send_ctx { /* sock:sock_send_length's format */
	__u64 common;
	void *sk;
	__u16 family;
	__u16 protocol;
	__s32 ret;
	__s32 flags;
};

#if defined(__TARGET_ARCH_x86)
/* the i386 numbers of the calls named here (asm/unistd_32.h) */
#define AS_NR_I386_WRITE 4
#define AS_NR_I386_SOCKETCALL 102
#define AS_NR_I386_WRITEV 146
#define AS_NR_I386_SENDFILE 187
#define AS_NR_I386_SENDFILE64 239
#define AS_NR_I386_SPLICE 313
#define AS_NR_I386_SENDMMSG 345
#define AS_NR_I386_SENDTO 369
#define AS_NR_I386_SENDMSG 370
#define AS_NR_I386_PWRITEV2 378

static __always_inline __u32 as_send_call_i386(long nr)
{
	switch (nr) {
	case AS_NR_I386_WRITE:
		return AS_SC_WRITE;
	case AS_NR_I386_WRITEV:
		return AS_SC_WRITEV;
	case AS_NR_I386_PWRITEV2:
		return AS_SC_PWRITEV2;
	case AS_NR_I386_SENDFILE:
	case AS_NR_I386_SENDFILE64:
		return AS_SC_SENDFILE;
	case AS_NR_I386_SPLICE:
		return AS_SC_SPLICE;
	case AS_NR_I386_SOCKETCALL:
	case AS_NR_I386_SENDTO:
	case AS_NR_I386_SENDMSG:
	case AS_NR_I386_SENDMMSG:
		return AS_SC_SENDTO; /* the 32-bit exit's event */
	default:
		return AS_SC_NONE;
	}
}
#endif

/* The call a netlink send came through (AS_SC_NONE: none of the named
 * ones), its arguments into args (compat: through the 32-bit ABI). */
static __always_inline __u32 as_send_call(__u64 args[AS_SYSCALL_ARGS], int *compat)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct pt_regs *regs;
	long nr;

	if (task->flags & AS_PF_IO_WORKER)
		return AS_SC_NONE; /* an io_uring request run by its threads */
	regs = as_user_regs();
	nr = AS_REGS_SYSCALL_NR(regs);
#if defined(__TARGET_ARCH_x86)
	if (task->thread_info.status & AS_TS_COMPAT) {
		*compat = 1;
		args[0] = (__u32)regs->bx;
		args[1] = (__u32)regs->cx;
		args[2] = (__u32)regs->dx;
		args[3] = (__u32)regs->si;
		args[4] = (__u32)regs->di;
		args[5] = (__u32)regs->bp;
		return as_send_call_i386(nr);
	}
#endif
	as_syscall_args(args);
	return as_sc_of(nr);
}

SEC("tracepoint/sock/sock_send_length")
int tp_sock_send_length(struct as_sock_send_ctx *ctx)
{
	struct sock *sk = ctx->sk; /* read apart: not a CO-RE access */
	__u64 args[AS_SYSCALL_ARGS] = {};
	struct as_connect *c;
	int compat = 0;
	__u32 sc;
	__u8 *buf;

	if (ctx->family != AS_AF_NETLINK || !as_may_admin_net())
		return 0;
	sc = as_send_call(args, &compat);
	if (sc == AS_SC_SENDTO || sc == AS_SC_SENDMSG || sc == AS_SC_SENDMMSG)
		return 0; /* their exits' */
	if (sc != AS_SC_WRITE && sc != AS_SC_WRITEV && sc != AS_SC_PWRITEV2 &&
	    sc != AS_SC_SENDFILE && sc != AS_SC_SPLICE)
		sc = AS_SC_NONE;
	if (!as_prefiltered_owner(AS_EV_CONNECT))
		return 0;
	/* a call of none of the named ones: the kernel's sendmsg on the socket */
	buf = as_exit_hdr(AS_EV_CONNECT, sc != AS_SC_NONE ? sc : AS_SC_SENDMSG, compat);
	if (!buf)
		return 0;
	c = (struct as_connect *)buf;
	__builtin_memset(&c->res, 0, sizeof(*c) - sizeof(c->hdr));
	c->res = ctx->ret;
	c->fd = sc == AS_SC_NONE ? -1 : sc == AS_SC_SPLICE ? (__s32)args[2] : (__s32)args[0];
	c->family = AS_AF_NETLINK;
	c->sock_type = BPF_CORE_READ(sk, sk_type);
	as_put_local(c, sk);
	if (sc == AS_SC_WRITE)
		as_put_nlmsg(args[1], args[2], 0, 0, compat);
	else if (sc == AS_SC_WRITEV || sc == AS_SC_PWRITEV2)
		as_put_nlmsg(0, 0, args[1], args[2], compat);
	else /* a file's or a pipe's pages, an io_uring request: not read */
		c->cflags |= AS_CF_NLMSG | AS_CF_NLMSG_MORE;
	as_emit(buf, sizeof(*c));
	return 0;
}

/* Also attached to the exits of sendto, sendmsg, sendmmsg, bind, listen,
 * accept, accept4, socket, dup, dup2 and dup3 (user/attach.c): ctx->id tells
 * them apart. */
SEC("tracepoint/syscalls/sys_exit_connect")
int tp_sys_exit_connect(struct as_sys_exit *ctx)
{
	return as_sock_exit(ctx, 0);
}


/* Socket acts (socketcall()'s among them) through the 32-bit ABI (bpf/compat.bpf.c) */
AS_COMPAT_FN(as_compat_net, as_sock_exit)
