// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * io_uring requests: every SQE a traced process submits is an event, since
 * a request opens, writes, renames or connects with no syscall of its own.
 * io_uring:io_uring_submit_req fires after the request's prep() ran, so the
 * operation's own struct (struct io_open, io_rename, ... at the start of
 * struct io_kiocb, as io_kiocb_to_cmd() puts it) holds its paths (kernel
 * copies, struct filename) and its address (the kernel copy in the request's
 * async_data, struct io_async_msghdr). Those are decoded into the generic
 * record's slots exactly as the matching syscall's; any other request is an
 * event with its opcode, its fd and, when the fd is a plain one, its file's
 * path. A request submitted by an SQPOLL thread is the ring owner's: that
 * thread is in the owner's thread group and shares its files and cwd.
 */
#include "sentinel.bpf.h"


/* The opcodes whose SQE fd names a file they act on (io_uring/opdef.c's
 * needs_file); NOP, SOCKET, OPENAT, TIMEOUT, ... take none. */
#define AS_OP_BIT(op) (1ull << (op))
#define AS_URING_FD_OPS                                                                    \
	(AS_OP_BIT(IORING_OP_READV) | AS_OP_BIT(IORING_OP_WRITEV) | AS_OP_BIT(IORING_OP_FSYNC) | \
	 AS_OP_BIT(IORING_OP_READ_FIXED) | AS_OP_BIT(IORING_OP_WRITE_FIXED) |                    \
	 AS_OP_BIT(IORING_OP_POLL_ADD) | AS_OP_BIT(IORING_OP_SYNC_FILE_RANGE) |                  \
	 AS_OP_BIT(IORING_OP_SENDMSG) | AS_OP_BIT(IORING_OP_RECVMSG) |                           \
	 AS_OP_BIT(IORING_OP_ACCEPT) | AS_OP_BIT(IORING_OP_CONNECT) |                            \
	 AS_OP_BIT(IORING_OP_FALLOCATE) | AS_OP_BIT(IORING_OP_READ) | AS_OP_BIT(IORING_OP_WRITE) | \
	 AS_OP_BIT(IORING_OP_FADVISE) | AS_OP_BIT(IORING_OP_SEND) | AS_OP_BIT(IORING_OP_RECV) |  \
	 AS_OP_BIT(IORING_OP_EPOLL_CTL) | AS_OP_BIT(IORING_OP_SPLICE) | AS_OP_BIT(IORING_OP_TEE) | \
	 AS_OP_BIT(IORING_OP_SHUTDOWN) | AS_OP_BIT(IORING_OP_FSETXATTR) |                        \
	 AS_OP_BIT(IORING_OP_FGETXATTR) | AS_OP_BIT(IORING_OP_URING_CMD) |                       \
	 AS_OP_BIT(IORING_OP_SEND_ZC) | AS_OP_BIT(IORING_OP_SENDMSG_ZC) |                        \
	 AS_OP_BIT(IORING_OP_READ_MULTISHOT) | AS_OP_BIT(IORING_OP_FTRUNCATE) |                  \
	 AS_OP_BIT(IORING_OP_BIND) | AS_OP_BIT(IORING_OP_LISTEN) | AS_OP_BIT(IORING_OP_RECV_ZC) | \
	 AS_OP_BIT(IORING_OP_EPOLL_WAIT) | AS_OP_BIT(IORING_OP_READV_FIXED) |                    \
	 AS_OP_BIT(IORING_OP_WRITEV_FIXED))

/* A kernel string (a struct filename's name) into slot i at off of this
 * CPU's scratch record, with the base directory of dfd when relative;
 * returns the bytes written. A global function (checked once, not per
 * opcode): where packs off (bits 0-15), the slot (16) and is_path (17). */
__noinline __u32 as_put_kpath(__u64 where, __u64 fn_p, __s64 dfd, __u64 task_p)
{
	__u32 off = where & 0xffff, i = (where >> 16) & 1, is_path = (where >> 17) & 1;
	__u32 shift = i * AS_SYF_SLOT_BITS, base;
	struct task_struct *task = (struct task_struct *)task_p;
	struct filename *fn = (struct filename *)fn_p;
	__u8 *buf = as_scratch_buf();
	struct as_sys *r = (struct as_sys *)buf;
	long n;

	if (!buf)
		return 0;
	n = bpf_probe_read_kernel_str(buf + (off & AS_SCRATCH_OFF_MASK), AS_PATH_MAX,
				      BPF_CORE_READ(fn, name));
	if (n <= 0) {
		buf[off & AS_SCRATCH_OFF_MASK] = 0;
		n = 1;
	}
	if (n == AS_PATH_MAX)
		r->pflags |= AS_SYF_USER_TRUNC << shift;
	r->len[i] = n;
	if (!is_path) {
		r->pflags |= AS_SYF_PLAIN << shift;
		return n;
	}
	base = buf[off & AS_SCRATCH_OFF_MASK] == '/' ? 0 :
						      as_put_slot_base(buf, off + n, r, i, 0, dfd, task);
	return n + base + as_put_fdlink(off, n, base, i, task);
}

#define AS_KPATH(off, slot, is_path) ((__u64)((off) & 0xffff) | (__u64)(slot) << 16 | (__u64)(is_path) << 17)

/* Registered file idx of the request's ring (io_slot_file(): the node's
 * file_ptr without its two flag bits), or NULL. */
static __always_inline struct file *as_uring_fixed_file(struct io_kiocb *req, int idx)
{
	struct io_rsrc_node **nodes = BPF_CORE_READ(req, ctx, file_table.data.nodes);
	struct io_rsrc_node *node = 0;

	if (!nodes || (unsigned int)idx >= BPF_CORE_READ(req, ctx, file_table.data.nr))
		return 0;
	bpf_probe_read_kernel(&node, sizeof(node), nodes + idx);
	if (!node)
		return 0;
	return (struct file *)(BPF_CORE_READ(node, file_ptr) & ~3ul);
}

/* Where the kernel copied a connect's or bind's address: an
 * io_async_msghdr's addr since Linux 6.10; a bare sockaddr_storage as the
 * request's async data on kernels with io_uring/net's 2026 stable change
 * (6.18.y here: the msghdr's addr reads as zeros there). Their first 8 bytes
 * tell them apart: an io_async_msghdr starts with its iovec pointer, NULL or
 * a kernel address (8-aligned, the upper 17 bits set); a sockaddr starts
 * with its family, and no family a connect or bind takes is a multiple of 8
 * but AF_NETLINK, whose next 6 bytes would have to spell a kernel address. */
static __always_inline const void *as_uring_kaddr(struct io_async_msghdr *io)
{
	__u64 head = 0;

	bpf_probe_read_kernel(&head, sizeof(head), io);
	if (!head || (!(head & 7) && (head >> 47) == 0x1ffff))
		return &io->addr;
	return io;
}

/* The sockaddr the kernel copied for a connect, bind or addressed send,
 * into slot 1; 0 when there is none. */
static __always_inline __u32 as_put_uring_addr(__u8 *buf, __u32 off, struct as_sys *r,
					       struct io_kiocb *req, __u8 op)
{
	struct io_async_msghdr *io = BPF_CORE_READ(req, async_data);
	const void *sa;
	__u32 len = AS_SYS_SOCKADDR_MAX;

	if (!io && op != IORING_OP_CONNECT)
		return 0;
	if (op == IORING_OP_CONNECT && io) {
		/* the kernel's copy: since Linux 6.10 the request's preparation
		 * makes it, before this tracepoint; what the caller's memory
		 * holds now may differ */
		sa = as_uring_kaddr(io);
	} else if (op == IORING_OP_CONNECT) {
		/* before 6.10 the copy is made at issue, after this tracepoint:
		 * the caller's address (an SQPOLL thread shares the owner's mm) */
		struct io_connect *conn = (void *)&req->cmd;
		__u32 alen = BPF_CORE_READ(conn, addr_len);

		if (alen > AS_SYS_SOCKADDR_MAX)
			alen = AS_SYS_SOCKADDR_MAX;
		AS_VERIFIER_MASK(alen, 255);
		if (alen < 2 || alen > AS_SYS_SOCKADDR_MAX ||
		    bpf_probe_read_user(buf + (off & AS_SCRATCH_OFF_MASK), alen,
					BPF_CORE_READ(conn, addr)))
			return 0;
		r->len[1] = alen;
		r->pflags |= AS_SYF_SOCKADDR << AS_SYF_SLOT_BITS;
		return alen;
	} else if (op == IORING_OP_BIND) {
		sa = as_uring_kaddr(io);
	} else {
		sa = BPF_CORE_READ(io, msg.msg_name);
		if (!sa)
			return 0; /* a send on a connected socket */
	}
	if (bpf_probe_read_kernel(buf + (off & AS_SCRATCH_OFF_MASK), len, sa))
		return 0;
	r->len[1] = len;
	r->pflags |= AS_SYF_SOCKADDR << AS_SYF_SLOT_BITS;
	return len;
}

SEC("tracepoint/io_uring/io_uring_submit_req")
int tp_io_uring_submit_req(struct trace_event_raw_io_uring_submit_req *ctx)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct io_kiocb *req = ctx->req;
	void *cmd = &req->cmd; /* io_kiocb_to_cmd() */
	struct as_sys *r;
	__u32 off, sq_thread = ctx->sq_thread;
	__u8 op = ctx->opcode;
	__u8 *buf;
	int fd;

	if (!as_prefiltered_owner(AS_EV_URING))
		return 0;
	buf = as_scratch_buf();
	if (!buf)
		return 0;
	r = (struct as_sys *)buf;
	as_hdr_fill(&r->hdr, task, AS_EV_URING, AS_SC_IO_URING_SUBMIT_REQ);
	__builtin_memset(&r->res, 0, sizeof(*r) - sizeof(r->hdr));
	r->mntns = BPF_CORE_READ(task, nsproxy, mnt_ns, ns.inum);
	/* an SQPOLL thread acts for its ring's owner: name the owner */
	if (BPF_CORE_READ(task, flags) & AS_PF_IO_WORKER)
		BPF_CORE_READ_STR_INTO(&r->hdr.comm, task, group_leader, comm);
	fd = BPF_CORE_READ(req, cqe.fd);
	r->arg[0] = op;
	r->arg[1] = (__u64)(__s64)fd;
	r->arg[4] = ctx->user_data;
	r->arg[5] = sq_thread;
	off = sizeof(*r);

	switch (op) {
	case IORING_OP_OPENAT:
	case IORING_OP_OPENAT2: {
		struct io_open *o = cmd;

		r->arg[1] = (__u64)(__s64)BPF_CORE_READ(o, dfd);
		r->arg[2] = BPF_CORE_READ(o, how.flags);
		r->arg[3] = BPF_CORE_READ(o, how.mode);
		off += as_put_kpath(AS_KPATH(off, 0, 1), (__u64)BPF_CORE_READ(o, filename),
				    BPF_CORE_READ(o, dfd), (__u64)task);
		break;
	}
	case IORING_OP_RENAMEAT: {
		struct io_rename *o = cmd;

		r->arg[1] = (__u64)(__s64)BPF_CORE_READ(o, old_dfd); /* a path request's fd */
		r->arg[2] = BPF_CORE_READ(o, flags);
		off += as_put_kpath(AS_KPATH(off, 0, 1), (__u64)BPF_CORE_READ(o, oldpath),
				    BPF_CORE_READ(o, old_dfd), (__u64)task);
		off += as_put_kpath(AS_KPATH(off, 1, 1), (__u64)BPF_CORE_READ(o, newpath),
				    BPF_CORE_READ(o, new_dfd), (__u64)task);
		break;
	}
	case IORING_OP_LINKAT:
	case IORING_OP_SYMLINKAT: {
		struct io_link *o = cmd;

		r->arg[1] = (__u64)(__s64)BPF_CORE_READ(o, new_dfd);
		r->arg[2] = BPF_CORE_READ(o, flags);
		/* symlinkat: oldpath is the link's content; as a path it is
		 * the cwd's, as Falco's fs.path.target has it */
		off += as_put_kpath(AS_KPATH(off, 0, 1), (__u64)BPF_CORE_READ(o, oldpath),
				    op == IORING_OP_LINKAT ? BPF_CORE_READ(o, old_dfd) : AS_AT_FDCWD, (__u64)task);
		off += as_put_kpath(AS_KPATH(off, 1, 1), (__u64)BPF_CORE_READ(o, newpath),
				    BPF_CORE_READ(o, new_dfd), (__u64)task);
		break;
	}
	case IORING_OP_UNLINKAT: {
		struct io_unlink *o = cmd;

		r->arg[1] = (__u64)(__s64)BPF_CORE_READ(o, dfd);
		r->arg[2] = BPF_CORE_READ(o, flags);
		off += as_put_kpath(AS_KPATH(off, 0, 1), (__u64)BPF_CORE_READ(o, filename),
				    BPF_CORE_READ(o, dfd), (__u64)task);
		break;
	}
	case IORING_OP_MKDIRAT: {
		struct io_mkdir *o = cmd;

		r->arg[1] = (__u64)(__s64)BPF_CORE_READ(o, dfd);
		r->arg[3] = BPF_CORE_READ(o, mode);
		off += as_put_kpath(AS_KPATH(off, 0, 1), (__u64)BPF_CORE_READ(o, filename),
				    BPF_CORE_READ(o, dfd), (__u64)task);
		break;
	}
	case IORING_OP_CONNECT:
	case IORING_OP_BIND:
	case IORING_OP_SEND:
	case IORING_OP_SENDMSG:
	case IORING_OP_SEND_ZC:
	case IORING_OP_SENDMSG_ZC:
		if (op != IORING_OP_CONNECT && op != IORING_OP_BIND)
			r->arg[2] = BPF_CORE_READ((struct io_sr_msg *)cmd, msg_flags);
		off += as_put_uring_addr(buf, off, r, req, op);
		/* the socket's protocol and type in arg[3], for fd.l4proto */
		if (fd >= 0 && !(BPF_CORE_READ(req, flags) & REQ_F_FIXED_FILE)) {
			struct file *f = as_task_file(task, fd);
			struct socket *sock = f ? BPF_CORE_READ(f, private_data) : 0;
			struct sock *sk = sock ? BPF_CORE_READ(sock, sk) : 0;

			if (sk && (BPF_CORE_READ(f, f_inode, i_mode) & 00170000) == 0140000)
				r->arg[3] = BPF_CORE_READ(sk, sk_protocol) |
					    (__u64)BPF_CORE_READ(sock, type) << 16;
		}
		break;
	default:
		/* any request on an fd: its file (a registered one from the
		 * ring's file table) */
		if (fd >= 0 && op < 64 && (AS_URING_FD_OPS & AS_OP_BIT(op))) {
			struct file *f = (BPF_CORE_READ(req, flags) & REQ_F_FIXED_FILE) ?
						 as_uring_fixed_file(req, fd) :
						 as_task_file(task, fd);

			if (f) {
				__u32 pf = 0;

				r->len[0] = as_put_task_path(buf, off, &f->f_path, task, &pf);
				r->pflags |= AS_SYF_RESOLVED | pf << AS_SYF_WALK_SHIFT;
				off += r->len[0];
			}
		}
		break;
	}
	as_emit(buf, off);
	return 0;
}
