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

#define AS_PF_IO_WORKER 0x10 /* task->flags of io_uring's threads */

/* A kernel string (a struct filename's name) into slot i at off, with the
 * base directory of dfd when relative; returns the bytes written. */
static __always_inline __u32 as_put_kpath(__u8 *buf, __u32 off, struct as_sys *r, __u32 i,
					  struct filename *fn, int dfd, int is_path,
					  struct task_struct *task)
{
	__u32 shift = i * AS_SYF_SLOT_BITS, base = 0, pf = 0;
	long n;

	n = bpf_probe_read_kernel_str(buf + (off & AS_SCRATCH_OFF_MASK), AS_PATH_MAX,
				      BPF_CORE_READ(fn, name));
	if (n <= 0) {
		buf[off & AS_SCRATCH_OFF_MASK] = 0;
		n = 1;
	}
	if (n == AS_PATH_MAX)
		r->pflags |= AS_SYF_USER_TRUNC << shift;
	r->len[i & 1] = n;
	if (!is_path) {
		r->pflags |= AS_SYF_PLAIN << shift;
		return n;
	}
	if (buf[off & AS_SCRATCH_OFF_MASK] == '/')
		return n;
	if (dfd == AS_AT_FDCWD) {
		struct fs_struct *fs = BPF_CORE_READ(task, fs);

		base = as_put_task_path(buf, off + n, &fs->pwd, task, &pf);
		r->pflags |= (AS_SYF_BASE_CWD | pf << AS_SYF_WALK_SHIFT) << shift;
	} else {
		struct file *dir = as_task_file(task, dfd);

		if (dir) {
			base = as_put_task_path(buf, off + n, &dir->f_path, task, &pf);
			r->pflags |= (AS_SYF_BASE_DIRFD | pf << AS_SYF_WALK_SHIFT) << shift;
		}
	}
	r->base_len[i & 1] = base;
	return n + base;
}

/* The sockaddr the kernel copied for a connect, bind or addressed send,
 * into slot 1; 0 when there is none. */
static __always_inline __u32 as_put_uring_addr(__u8 *buf, __u32 off, struct as_sys *r,
					       struct io_kiocb *req, __u8 op)
{
	struct io_async_msghdr *io = BPF_CORE_READ(req, async_data);
	const void *sa;
	__u32 len = AS_SYS_SOCKADDR_MAX;

	if (!io)
		return 0;
	if (op == IORING_OP_CONNECT || op == IORING_OP_BIND) {
		sa = &io->addr;
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

	if (as_skip_self() || !as_filter_pass(AS_EV_URING))
		return 0;
	buf = as_scratch_buf();
	if (!buf)
		return 0;
	r = (struct as_sys *)buf;
	as_hdr_fill(&r->hdr, task, AS_EV_URING, AS_SC_IO_URING_SUBMIT_REQ);
	__builtin_memset(&r->res, 0, sizeof(*r) - sizeof(r->hdr));
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
		off += as_put_kpath(buf, off, r, 0, BPF_CORE_READ(o, filename),
				    BPF_CORE_READ(o, dfd), 1, task);
		break;
	}
	case IORING_OP_RENAMEAT: {
		struct io_rename *o = cmd;

		r->arg[2] = BPF_CORE_READ(o, flags);
		off += as_put_kpath(buf, off, r, 0, BPF_CORE_READ(o, oldpath),
				    BPF_CORE_READ(o, old_dfd), 1, task);
		off += as_put_kpath(buf, off, r, 1, BPF_CORE_READ(o, newpath),
				    BPF_CORE_READ(o, new_dfd), 1, task);
		break;
	}
	case IORING_OP_LINKAT:
	case IORING_OP_SYMLINKAT: {
		struct io_link *o = cmd;

		r->arg[2] = BPF_CORE_READ(o, flags);
		/* symlinkat: oldpath is the link's content, not a path here */
		off += as_put_kpath(buf, off, r, 0, BPF_CORE_READ(o, oldpath),
				    BPF_CORE_READ(o, old_dfd), op == IORING_OP_LINKAT, task);
		off += as_put_kpath(buf, off, r, 1, BPF_CORE_READ(o, newpath),
				    BPF_CORE_READ(o, new_dfd), 1, task);
		break;
	}
	case IORING_OP_UNLINKAT: {
		struct io_unlink *o = cmd;

		r->arg[2] = BPF_CORE_READ(o, flags);
		off += as_put_kpath(buf, off, r, 0, BPF_CORE_READ(o, filename),
				    BPF_CORE_READ(o, dfd), 1, task);
		break;
	}
	case IORING_OP_MKDIRAT: {
		struct io_mkdir *o = cmd;

		r->arg[3] = BPF_CORE_READ(o, mode);
		off += as_put_kpath(buf, off, r, 0, BPF_CORE_READ(o, filename),
				    BPF_CORE_READ(o, dfd), 1, task);
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
		/* fall through: the socket's own path is not worth a slot */
		break;
	default:
		/* any request on a plain fd (not a registered file): its file */
		if (fd >= 0 && !(BPF_CORE_READ(req, flags) & REQ_F_FIXED_FILE)) {
			struct file *f = as_task_file(task, fd);

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
