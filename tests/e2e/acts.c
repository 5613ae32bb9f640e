// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * as-acts: the syscall driver of test_events.py. Each operation performs
 * exactly one act (file change, socket act, privilege or namespace change,
 * code load, cwd change, io_uring request) with a raw syscall or one io_uring
 * request, and prints its result on stdout: a number, or -errno. Set-up calls
 * an operation needs (opening a dirfd, a socket, a ring) are other syscalls
 * than the one the test asserts on; lines other than the result are
 * "NAME VALUE" (e.g. "dirfd 3", "child 1234").
 *
 * Numbers (modes, flags, ids) are parsed with strtoul base 0: 0755 is octal,
 * 0x10000000 hex. syscall() takes its arguments as varargs: an argument the
 * kernel reads as a long (flags of process_vm_writev, mount, clone; ptrace's
 * request and pid) is passed as one, or its upper half is whatever the
 * register held (seen at -O0).
 *
 *   files:   rename OLD NEW | renameat DIR OLDREL NEWREL | renameat2 DIR OLDREL NEWREL FLAGS
 *            renameat-moved DIR MOVEDTO OLDREL NEWREL (a dirfd of DIR, DIR renamed, renameat)
 *            link OLD NEW | linkat DIR OLDREL NEWREL FLAGS | symlink TARGET LINK
 *            symlinkat TARGET DIR LINKREL | unlink PATH | unlinkat DIR REL FLAGS | rmdir PATH
 *            mkdir PATH MODE | mkdirat DIR REL MODE | chdir-mkdir DIR REL MODE
 *            chdir-fork-mkdir DIR REL MODE (the mkdir in a child) | chdir-moved-mkdir DIR
 *            MOVEDTO REL MODE (the cwd renamed before the mkdir)
 *            mknod PATH MODE (a fifo) | mknodat DIR REL MODE (a fifo)
 *            mknod-chr PATH MAJOR MINOR (a character device) | bind-unix PATH (a socket file)
 *            mknod-chr-hi PATH MAJOR MINOR (the same, the mode register's upper half set)
 *            chmod PATH MODE | fchmod PATH MODE | fchmodat DIR REL MODE
 *            chdir-chmod DIR REL MODE (chmod of REL from the cwd DIR)
 *            chmod-until PATH MODE STOPFILE GAP_US (chmods GAP_US apart, spun, until
 *            STOPFILE exists; prints "CALLS FAILED")
 *            chmod-paced PATH MODE STOPFILE GAP_US (the same, the gaps slept: the CPU
 *            left to others)
 *            fchmodat2 DIR REL MODE FLAGS
 *            chown PATH U G | fchown PATH U G | lchown PATH U G | fchownat DIR REL U G FLAGS
 *            truncate PATH LEN | ftruncate PATH LEN | setxattr PATH NAME VALUE
 *            utimensat DIR REL | open_by_handle_at PATH | open-trunc PATH
 *            open-write PATH (O_WRONLY, no creation; nothing is written)
 *            open-rdwr PATH (O_RDWR: a FIFO's open that waits for no reader)
 *            open-read PATH (O_RDONLY; nothing is read)
 *            open-creat-ro PATH (O_RDONLY|O_CREAT: makes the file if missing)
 *            open-creat PATH MODE (O_WRONLY|O_CREAT with MODE)
 *            mknod-mode PATH MODE (MODE's type bits as given: 0104755 a setuid file)
 *            lsetxattr PATH NAME VALUE | fsetxattr PATH NAME VALUE | removexattr PATH NAME
 *            utimes PATH | open_tree PATH [FLAGS]
 *            setxattrat DIR REL NAME VALUE FLAGS | removexattrat DIR REL NAME FLAGS (Linux 6.13;
 *            FLAGS: AT_* as a number, 0x1000 is AT_EMPTY_PATH)
 *   network: sendto-udp IP PORT | sendto-connected IP PORT (connect, then no address)
 *            sendto-udp6 IP6 PORT | sendmsg-udp IP PORT | sendmsg-connected IP PORT
 *            sendmmsg-udp IP PORT (two messages) | sendto-big IP PORT (EMSGSIZE)
 *            sendmmsg-2dst IP PORT1 PORT2 [N] (N messages, default 2: the last to
 *            PORT2, the others to PORT1) | sendto-unix PATH
 *            unix-connect PATH [dgram] (a stream, or datagram, connect to a server
 *            at PATH) | unix-self PATH [dgram] (a server of its own at PATH, "@NAME"
 *            abstract, and a connect to it; the path unlinked after)
 *            send-series IP PORT1 PORT2 (on one socket: 5 sendto to PORT1, 1 to PORT2,
 *            1 to PORT1, 2 sendmsg, 2 sendto with MSG_DONTWAIT, 1 of 4 bytes,
 *            2 as "as-acts-2" (prctl), 2 from a child; prints the count of sends made)
 *            sendto-fastopen IP PORT | bind4 IP PORT | listen4 IP PORT | accept4
 *            connect6 IP6 PORT (TCP, from an IPv6 socket)
 *            connect-rewritten IP PORT DECOYPORT | connect-rewritten-unix PATH DECOY
 *            (a connect that waits: a listener of its own at IP:PORT or PATH with a
 *            full queue; a second thread rewrites the caller's sockaddr to the decoy
 *            100 ms in, then accepts, and the connect goes through to the first)
 *            sendto-raced IP N | sendmsg-raced IP N | sendmmsg-raced IP N (two UDP
 *            receivers of its own at IP; N datagrams of 1..N bytes to the first, one
 *            call each, or one sendmmsg of N messages, while a second thread flips
 *            the caller's sockaddr between the two ports; prints "BYTES PORT" for
 *            each datagram received, by the port that got it)
 *            socket DOMAIN TYPE [PROTO]
 *   privilege and isolation: setfsuid U | setfsgid G | setgroups G[,G...]
 *            unshare FLAGS | setns PATH NSTYPE (after unshare(NSTYPE)) | ptrace-attach
 *            ptrace-traceme (PTRACE_TRACEME: the parent, python or a shell, becomes the tracer)
 *            ptrace-attach-undumpable (the child made itself undumpable first, as ssh-agent does)
 *            ptrace-shared-mm (LeakSanitizer's shape: a CLONE_VM clone attaches to us; "tracer N")
 *            ptrace-pid PID (PTRACE_ATTACH) | finit_module PATH | delete_module NAME
 *            traced-mem PID (a child PTRACE_ATTACHed, its /proc mem opened O_RDWR,
 *            then PID's, not traced; one result line each)
 *            fsopen FSNAME | iopl LEVEL | ioperm FROM NUM ON | userfaultfd FLAGS | perf_event_open (own task
 *            clock) | pidfd_getfd (own fd 1 through a pidfd) | process_vm_writev (a child)
 *            | process_vm_writev-traced (the child PTRACE_ATTACHed first)
 *            mount-tmpfs DIR | newmount-tmpfs DIR [FLAGS] (fsopen ... move_mount, FLAGS added to
 *            its MOVE_MOUNT_F_EMPTY_PATH) | umount2 DIR FLAGS
 *            fspick-remount DIR (a tmpfs there resized: fspick, fsconfig) | open-tree-attr DIR
 *            (a read-only detached clone) | file-setattr PATH | chattr-same PATH (the inode
 *            flags set as they were, by the syscall and by chattr's ioctl) | acct PATH
 *            netns-ifup (lo up by SIOCSIFFLAGS, in a network namespace of its own)
 *            netns-newaddr-send (an address on lo by RTM_NEWADDR, send() without an
 *            address, in a network namespace of its own)
 *            chroot DIR | bpf-prog-load-fail
 *            prctl-setname NAME | prctl-setname-hi NAME (the option's upper half set) | as-user UID OP ARGS... | exec PATH [ARGS...]
 *            | netns-newaddr split|iov2|pad|long|mmsg|write|writev|pwritev2|sendfile|splice|uring
 *            | audit-set-nothing [send|write|splice]
 *            | descendant-oom DEPTH
 *            | exec-env PATH [VAR=VALUE | pad:N]... [-- ARGS...] (PATH run with
 *              exactly that environment; pad:N is N bytes of filler strings, the
 *              stack limit raised for them)
 *            kill PID SIG | tkill TID SIG | tgkill PID TID SIG | sigqueue PID SIG
 *            (rt_sigqueueinfo) | pidfd-signal PID SIG (pidfd_open, then
 *            pidfd_send_signal through it) | procdir-signal PID SIG (the same
 *            through an open /proc/PID directory) | same-sched PID (PID's
 *            RLIMIT_NOFILE, nice value, scheduling policy, CPUs and I/O
 *            priority set to what they are: prlimit, setpriority,
 *            sched_setscheduler, sched_setaffinity, ioprio_set; one result
 *            line each) | set-owner PID (a socket's I/O
 *            signals owned by PID: fcntl F_SETOWN, F_SETOWN_EX, ioctl FIOSETOWN;
 *            no O_ASYNC, nothing sent; one result line each) | sigio PID (the
 *            same by F_SETOWN, then O_ASYNC and a byte in: the kernel sends PID SIGIO)
 *            setresuid R E S | keep-root UID OP ARGS... (setresuid(UID, UID, 0): root's id
 *            kept as the saved one, then OP)
 *            tiocsti CHAR (ioctl(0, TIOCSTI): CHAR queued on stdin's terminal as if typed)
 *            tiocsti-hi CHAR (the same with the request register's upper half set)
 *            tiocsti-nr-hi CHAR (the same with the syscall number's upper half set:
 *                the kernel takes the number as an int)
 *            tcgets (ioctl(0, TCGETS): a terminal ioctl that is no act)
 *            confined OP ARGS... (no_new_privs and an allow-all seccomp filter, then OP)
 *            via-fd PATH SPELLING OP ARGS... (PATH opened O_PATH as N; OP with each "{}"
 *            in its ARGS spelled SPELLING N, e.g. /proc/self/fd/N; then N closed)
 *            lchmod PATH MODE (glibc's fchmodat with AT_SYMLINK_NOFOLLOW: through
 *            /proc/self/fd/N of an O_PATH descriptor before Linux 6.6's fchmodat2)
 *            thread OP ARGS... (OP in a second thread; prints "tid N" first)
 *            after-ms N OP ARGS... (sleep N ms, then OP) | then-ms N OP ARGS... (OP, then N ms
 *            more alive: a mount namespace of OP's own outlives the monitor's walk)
 *            own-mntns DIR OP ARGS... (a mount namespace of its own, cwd DIR, then OP:
 *            a monitor in another namespace cannot read its /proc links as it does)
 *            clone FLAGS | clone3 FLAGS | vfork (a child that exits at once)
 *            clone3-into-cgroup DIR (the same, CLONE_INTO_CGROUP: started in DIR's cgroup)
 *            clone-nr-hi FLAGS (clone with the syscall number's upper half set)
 *            clone-thread FLAGS (a CLONE_THREAD thread with FLAGS too: CLONE_NEWUTS, ...)
 *            clone3-flipped N (N clone3 calls while a second thread flips their
 *            flags between CLONE_NEWUTS and 0; prints "child PID NEWUTS" for
 *            each, NEWUTS 1 when the child did get a UTS namespace of its own)
 *   code:    memfd-exec NAME (memfd_create(NAME, MFD_CLOEXEC), /bin/true's bytes, execveat)
 *            interp-fd NAME LOADER PROGRAM (a memfd NAME of LOADER's bytes as descriptor 9,
 *            then PROGRAM, as-interp-fd, whose ELF interpreter is /proc/self/fd/9)
 *            memfd-loader NAME LOADER [DIR] (the same memfd, not CLOEXEC, run as
 *            LOADER DIR/N, DIR /proc/self/fd/ unless given: the loader maps it)
 *            map-code SRC HOW (SRC memfd | tmpfile:DIR | unlinked:PATH | named:PATH,
 *            its first page made code: HOW mmap | mprotect | pkey_mprotect | read
 *            (no PROT_EXEC) | read-implies-exec (PROT_READ under personality
 *            READ_IMPLIES_EXEC) | denied (a write-only descriptor: EACCES) | anon (an
 *            anonymous PROT_EXEC mapping, SRC unused))
 *            preload-tmpfile DIR LIB PROG (LIB in an O_TMPFILE of DIR, run PROG with
 *            LD_PRELOAD=/proc/self/fd/N)
 *            exec-deleted PATH (open PATH, unlink it, execveat the fd)
 *            overlay-exec LOWER UPPER WORK MERGED FILE (overlayfs in a private mount
 *            namespace, then exec MERGED/FILE)
 *   the host's state (each harmless: a bad argument, a value set as it was,
 *            or its own namespace): host-sethostname NAME [LEN] (in a UTS namespace of
 *            its own; LEN bytes of NAME) | host-sethostname-same (the host's name set as
 *            it is, in the host's namespace) | host-reboot-pidns (reboot's magic numbers
 *            and CAD_OFF from the init of a pid namespace of its own: EINVAL, child's pid
 *            noted) | host-settimeofday-null (settimeofday(NULL, NULL): nothing set)
 *            host-clock-settime CLOCK (the clock's own time) | host-adjtimex MODES |
 *            host-clock-adjtime CLOCK MODES (a struct timex of zeros but MODES: ADJ_TICK
 *            with tick 0 is EINVAL, 0 and ADJ_OFFSET_SS_READ only read) |
 *            host-adjtimex-same [ro] (the clock's status flags set as they were: ADJ_STATUS;
 *            ro: from a read-only page, EFAULT after the clock was set) |
 *            host-reboot-bad (a bad second magic: EINVAL) | host-swapon PATH |
 *            host-swapoff PATH | host-syslog TYPE (SYSLOG_ACTION_CONSOLE_LEVEL: the
 *            level /proc/sys/kernel/printk shows) | host-fanotify DIR [FLAGS] (a group of its own,
 *            DIR's opens marked with FAN_MARK_ADD|FLAGS, then closed) | host-keys (add_key of a "user" key to
 *            the process keyring, keyctl READ of it, request_key of one that is not
 *            there; one result line each) | host-rtc-set PATH (ioctl RTC_SET_TIME on PATH
 *            opened read-only, a time of zeros: ENOTTY on anything but a clock)
 *   cwd:     chdir DIR | fchdir DIR | setsid (in a child)
 *   io_uring: uring-openat-write PATH | uring-openat-read PATH | uring-renameat OLD NEW [FLAGS]
 *            uring-unlinkat PATH
 *            uring-mkdirat PATH MODE | uring-symlinkat TARGET LINK | uring-linkat OLD NEW
 *            uring-connect IP PORT | uring-sendmsg-udp IP PORT | uring-sqpoll-openat PATH
 *            uring-nop | uring-nops N (N requests, one at a time) | uring-socket
 *            uring-ftruncate PATH LEN | uring-bind IP PORT
 *            uring-listen IP PORT | uring-openat2 PATH | uring-write-fixed PATH (a
 *            registered file)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <liburing.h>
#include <linux/bpf.h>
#include <linux/mount.h>
#include <linux/openat2.h>
#include <linux/perf_event.h>
#include <linux/filter.h>
#include <linux/fs.h>
#include <net/if.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/timex.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include "actsout.h"

extern char **environ;

#define PAYLOAD "as-acts\n"
#define GROUPS_MAX 16		/* setgroups list for a test: a handful is plenty */
#define HANDLE_BYTES_MAX 128	/* MAX_HANDLE_SZ in linux/exportfs.h */
#define MMSG_MAX 64 /* sendmmsg-2dst's most messages */
#define SYS_OPEN_TREE_ATTR 467 /* Linux 6.15, newer than this libc's headers */
#define SYS_FILE_GETATTR 468 /* Linux 6.17 */
#define SYS_FILE_SETATTR 469
#define COPY_CHUNK 65536	/* read/write chunk for memfd-exec's copy of /bin/true */
#define ACTS_INTERP_FD 9	/* as-interp-fd's interpreter: /proc/self/fd/9 */
#define RING_ENTRIES 4		/* one request at a time, plus room */
#define UDP_TOO_BIG 70000	/* over IPv4's 65,507-byte UDP payload: EMSGSIZE */
#define FDARGS_MAX 16		/* via-fd: an OP's arguments */
#define FDARG_LEN 512		/* via-fd: one argument with its descriptor spelled in */
/* io_uring opcodes newer than liburing 2.3's header (enum io_uring_op, Linux 6.18) */
#define IORING_OP_FTRUNCATE_NR 55
#define IORING_OP_BIND_NR 56
#define IORING_OP_LISTEN_NR 57
#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452	/* Linux 6.6; newer than this libc's headers */
#endif

static long res(long r)
{
	return r < 0 ? -errno : r;
}

#define EXEC_ENV_PAD_STR (100 * 1000) /* one filler string: under MAX_ARG_STRLEN */
#define EXEC_ENV_MAX 256 /* variables and filler strings */

/* exec PATH with exactly the strings of env before a "--" for its
 * environment, those after it its arguments; "pad:N" stands for N bytes of
 * filler strings (the stack's soft limit raised to its hard one first: the
 * kernel lets argv and envp take a quarter of it) */
static int exec_env(const char *path, char **env, int n)
{
	static char *envp[EXEC_ENV_MAX + 1];
	static char *args[EXEC_ENV_MAX + 2];
	struct rlimit rl;
	int k = 0, a = 0;

	args[a++] = (char *)path;
	for (int i = 0; i < n; i++) {
		if (!strcmp(env[i], "--")) {
			for (i++; i < n && a < EXEC_ENV_MAX + 1; i++)
				args[a++] = env[i];
			break;
		}
		long pad = strncmp(env[i], "pad:", 4) ? -1 : strtol(env[i] + 4, NULL, 0);

		for (; pad > 0 && k < EXEC_ENV_MAX; pad -= EXEC_ENV_PAD_STR) {
			size_t len = pad < EXEC_ENV_PAD_STR ? (size_t)pad : EXEC_ENV_PAD_STR;
			char *s = malloc(len);

			if (!s || len < 3)
				return report(-EINVAL);
			memset(s, 'x', len - 1);
			memcpy(s, "P=", 2);
			s[len - 1] = 0; /* len bytes with the NUL */
			envp[k++] = s;
		}
		if (pad < 0 && k < EXEC_ENV_MAX)
			envp[k++] = env[i];
	}
	envp[k] = NULL;
	if (!getrlimit(RLIMIT_STACK, &rl)) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_STACK, &rl);
	}
	fflush(stdout);
	args[a] = NULL;
	execve(path, args, envp);
	return report(-errno);
}


#define NL_PAD_GETS 8 /* netns-newaddr pad: read messages before the change */
#define NL_LONG_GET 5000 /* netns-newaddr long: a read message's length */

/* rtnetlink RTM_NEWADDR for 10.7.7.1/24 on lo (in the namespace's own lo) */
struct nl_newaddr {
	struct nlmsghdr n;
	struct ifaddrmsg a;
	struct rtattr rta;
	unsigned char addr[4];
};

static void nl_newaddr_fill(struct nl_newaddr *r)
{
	memset(r, 0, sizeof(*r));
	r->n.nlmsg_len = sizeof(*r);
	r->n.nlmsg_type = RTM_NEWADDR;
	r->n.nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE | NLM_F_REPLACE | NLM_F_ACK;
	r->a.ifa_family = AF_INET;
	r->a.ifa_prefixlen = 24;
	r->a.ifa_index = if_nametoindex("lo");
	r->rta.rta_type = IFA_LOCAL;
	r->rta.rta_len = RTA_LENGTH(4);
	inet_pton(AF_INET, "10.7.7.1", r->addr);
}

/* an RTM_GETLINK of lo (no dump) of len bytes at m: what reads */
static void nl_getlink_fill(void *m, size_t len)
{
	struct nlmsghdr *n = m;
	struct ifinfomsg *i = NLMSG_DATA(n);

	memset(m, 0, len);
	n->nlmsg_len = (uint32_t)len;
	n->nlmsg_type = RTM_GETLINK;
	n->nlmsg_flags = NLM_F_REQUEST;
	i->ifi_family = AF_UNSPEC;
	i->ifi_index = (int)if_nametoindex("lo");
}

/*
 * In a network namespace of its own, the address change of netns-newaddr-send
 * hidden as the kernel still takes it: HOW is
 *   split  the header split across two iovecs of a sendmsg
 *   iov2   a read in the first iovec, the change in the second
 *   pad    NL_PAD_GETS reads, then the change, in one buffer
 *   long   a read NL_LONG_GET bytes long (padding after its header), then the change
 *   mmsg   sendmmsg: a read, then the change, as two messages
 *   write  write(2) of the change, no send call at all
 *   writev   writev(2): a read in the first iovec, the change in the second
 *   pwritev2 the same by pwritev2(2) at the current offset (-1)
 *   sendfile the change copied from a memfd by sendfile(2)
 *   splice   the change spliced from a pipe
 *   uring    the change sent by an io_uring SEND request
 */
static long netns_newaddr(const char *how)
{
	static unsigned char buf[NL_LONG_GET + sizeof(struct nl_newaddr)];
	struct nl_newaddr req;
	size_t get = NLMSG_SPACE(sizeof(struct ifinfomsg));
	struct msghdr mh = { 0 };
	struct iovec iov[2];
	int fd;

	if (unshare(CLONE_NEWNET))
		return -errno;
	if ((fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE)) < 0)
		return -errno;
	nl_newaddr_fill(&req);
	mh.msg_iov = iov;
	mh.msg_iovlen = 2;
	if (!strcmp(how, "split")) {
		iov[0] = (struct iovec){ &req, 6 };
		iov[1] = (struct iovec){ (char *)&req + 6, sizeof(req) - 6 };
		return res(sendmsg(fd, &mh, 0));
	}
	if (!strcmp(how, "iov2")) {
		nl_getlink_fill(buf, get);
		iov[0] = (struct iovec){ buf, get };
		iov[1] = (struct iovec){ &req, sizeof(req) };
		return res(sendmsg(fd, &mh, 0));
	}
	if (!strcmp(how, "pad") || !strcmp(how, "long")) {
		size_t n = !strcmp(how, "pad") ? NL_PAD_GETS : 1, len = n == 1 ? NL_LONG_GET : get;

		for (size_t i = 0; i < n; i++)
			nl_getlink_fill(buf + i * len, len);
		memcpy(buf + n * len, &req, sizeof(req));
		return res(send(fd, buf, n * len + sizeof(req), 0));
	}
	if (!strcmp(how, "mmsg")) {
		struct mmsghdr mm[2];

		nl_getlink_fill(buf, get);
		memset(mm, 0, sizeof(mm));
		iov[0] = (struct iovec){ buf, get };
		iov[1] = (struct iovec){ &req, sizeof(req) };
		mm[0].msg_hdr.msg_iov = &iov[0];
		mm[0].msg_hdr.msg_iovlen = 1;
		mm[1].msg_hdr.msg_iov = &iov[1];
		mm[1].msg_hdr.msg_iovlen = 1;
		return res(sendmmsg(fd, mm, 2, 0));
	}
	if (!strcmp(how, "write"))
		return res(write(fd, &req, sizeof(req)));
	if (!strcmp(how, "writev") || !strcmp(how, "pwritev2")) {
		nl_getlink_fill(buf, get);
		iov[0] = (struct iovec){ buf, get };
		iov[1] = (struct iovec){ &req, sizeof(req) };
		return res(how[0] == 'w' ? writev(fd, iov, 2) : pwritev2(fd, iov, 2, -1, 0));
	}
	if (!strcmp(how, "sendfile")) {
		int m = memfd_create("nlmsg", MFD_CLOEXEC);
		off_t off = 0;

		if (m < 0 || write(m, &req, sizeof(req)) != (ssize_t)sizeof(req))
			return -errno;
		return res(sendfile(fd, m, &off, sizeof(req)));
	}
	if (!strcmp(how, "splice")) {
		int p[2];

		if (pipe(p) || write(p[1], &req, sizeof(req)) != (ssize_t)sizeof(req))
			return -errno;
		return res(splice(p[0], NULL, fd, NULL, sizeof(req), 0));
	}
	if (!strcmp(how, "uring")) {
		struct io_uring ring;
		struct io_uring_cqe *cqe;
		long r;

		if ((r = io_uring_queue_init(4, &ring, 0)) < 0)
			return r;
		io_uring_prep_send(io_uring_get_sqe(&ring), fd, &req, sizeof(req), 0);
		r = io_uring_submit(&ring);
		if (r >= 0)
			r = io_uring_wait_cqe(&ring, &cqe);
		if (r >= 0)
			r = cqe->res;
		io_uring_queue_exit(&ring);
		return r;
	}
	return -EINVAL;
}

/* An AUDIT_SET that changes nothing (an empty mask), as auditctl sends its
 * settings: the kernel's audit is asked, and stays as it was. HOW: send
 * (as auditctl), write (write(2) on the socket), splice (from a pipe). */
static long audit_set_nothing(const char *how)
{
	struct {
		struct nlmsghdr n;
		uint32_t status[10]; /* struct audit_status: mask first, 0 */
	} req;
	int fd = socket(AF_NETLINK, SOCK_RAW, 9 /* NETLINK_AUDIT */);

	if (fd < 0)
		return -errno;
	memset(&req, 0, sizeof(req));
	req.n.nlmsg_len = sizeof(req);
	req.n.nlmsg_type = 1001; /* AUDIT_SET */
	req.n.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	if (!strcmp(how, "write"))
		return res(write(fd, &req, sizeof(req)));
	if (!strcmp(how, "splice")) {
		int p[2];

		if (pipe(p) || write(p[1], &req, sizeof(req)) != (ssize_t)sizeof(req))
			return -errno;
		return res(splice(p[0], NULL, fd, NULL, sizeof(req), 0));
	}
	return res(send(fd, &req, sizeof(req), 0));
}

/* Linux 6.13's *xattrat calls: the same number on x86_64 and arm64 */
#define ACTS_NR_SETXATTRAT 463
#define ACTS_NR_REMOVEXATTRAT 466

/* clone3-flipped: the second thread, flipping the flags until told to stop */
struct flip_op {
	struct clone_args *ca;
	volatile int stop;
};

static void *flip_main(void *arg)
{
	struct flip_op *f = arg;
	volatile __u64 *flags = &f->ca->flags;

	while (!f->stop)
		*flags ^= CLONE_NEWUTS;
	return NULL;
}

static int clone3_flipped(int n)
{
	struct clone_args ca = { .flags = 0, .exit_signal = SIGCHLD };
	struct flip_op f = { &ca, 0 };
	struct stat own;
	pthread_t th;

	if (stat("/proc/self/ns/uts", &own))
		return report(-errno);
	if (pthread_create(&th, NULL, flip_main, &f))
		return report(-EAGAIN);
	for (int i = 0; i < n; i++) {
		long child = syscall(SYS_clone3, &ca, sizeof(ca));
		struct stat ns;
		int status = 0;

		if (child == 0) /* 1: a UTS namespace of its own */
			_exit(stat("/proc/self/ns/uts", &ns) ? 2 : ns.st_ino != own.st_ino);
		if (child < 0 || waitpid((pid_t)child, &status, 0) != child)
			continue;
		printf("child %ld %d\n", child, WEXITSTATUS(status));
	}
	f.stop = 1;
	pthread_join(th, NULL);
	return report(0);
}

static int opendir_fd(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY);

	if (fd >= 0)
		note("dirfd", fd);
	return fd;
}

static void sin4(struct sockaddr_in *sin, const char *ip, const char *port)
{
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_port = htons((uint16_t)atoi(port));
	inet_pton(AF_INET, ip, &sin->sin_addr);
}

/* ---- io_uring: one request, its completion's result ---- */

static int uring_one(struct io_uring *ring)
{
	struct io_uring_cqe *cqe;
	int r = io_uring_submit(ring);

	if (r < 0)
		return r;
	r = io_uring_wait_cqe(ring, &cqe);
	if (r < 0)
		return r;
	r = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return r;
}

static int uring_init(struct io_uring *ring, unsigned flags)
{
	struct io_uring_params p = { .flags = flags, .sq_thread_idle = 1000 };
	int r = io_uring_queue_init_params(RING_ENTRIES, ring, &p);

	if (r < 0)
		report(r);
	return r;
}

static int uring_op(int argc, char **argv)
{
	const char *op = argv[0];
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct sockaddr_in sin;
	int sqpoll = !strcmp(op, "uring-sqpoll-openat");
	int r;

	if (uring_init(&ring, sqpoll ? IORING_SETUP_SQPOLL : 0) < 0)
		return 0;
	sqe = io_uring_get_sqe(&ring);
	if ((!strcmp(op, "uring-openat-write") || sqpoll) && argc == 2) {
		static const char data[] = PAYLOAD;

		io_uring_prep_openat(sqe, AT_FDCWD, argv[1], O_WRONLY | O_CREAT, 0644);
		r = uring_one(&ring);
		report(r);
		if (r < 0 || sqpoll)
			return 0;
		sqe = io_uring_get_sqe(&ring);
		io_uring_prep_write(sqe, r, data, sizeof(data) - 1, 0);
		return report(uring_one(&ring));
	}
	if (!strcmp(op, "uring-openat-read") && argc == 2) {
		io_uring_prep_openat(sqe, AT_FDCWD, argv[1], O_RDONLY, 0);
		return report(uring_one(&ring));
	}
	if (!strcmp(op, "uring-openat2") && argc == 2) {
		struct open_how how = { .flags = O_WRONLY | O_CREAT, .mode = 0600 };

		io_uring_prep_openat2(sqe, AT_FDCWD, argv[1], &how);
		return report(uring_one(&ring));
	}
	if (!strcmp(op, "uring-write-fixed") && argc == 2) {
		static const char data[] = PAYLOAD;
		int fd = open(argv[1], O_WRONLY);

		if (fd < 0)
			return report(-errno);
		note("fd", fd);
		/* slot 0 of the ring's file table: the request's fd field is 0, not fd */
		r = io_uring_register_files(&ring, &fd, 1);
		if (r < 0)
			return report(r);
		io_uring_prep_write(sqe, 0, data, sizeof(data) - 1, 0);
		sqe->flags |= IOSQE_FIXED_FILE;
		return report(uring_one(&ring));
	}
	if (!strcmp(op, "uring-renameat") && (argc == 3 || argc == 4)) {
		/* FLAGS: renameat2's (RENAME_EXCHANGE is 2) */
		io_uring_prep_renameat(sqe, AT_FDCWD, argv[1], AT_FDCWD, argv[2],
				       argc == 4 ? (unsigned)num(argv[3]) : 0);
		return report(uring_one(&ring));
	}
	if (!strcmp(op, "uring-unlinkat") && argc == 2) {
		io_uring_prep_unlinkat(sqe, AT_FDCWD, argv[1], 0);
		return report(uring_one(&ring));
	}
	if (!strcmp(op, "uring-mkdirat") && argc == 3) {
		io_uring_prep_mkdirat(sqe, AT_FDCWD, argv[1], (mode_t)num(argv[2]));
		return report(uring_one(&ring));
	}
	if (!strcmp(op, "uring-symlinkat") && argc == 3) {
		io_uring_prep_symlinkat(sqe, argv[1], AT_FDCWD, argv[2]);
		return report(uring_one(&ring));
	}
	if (!strcmp(op, "uring-linkat") && argc == 3) {
		io_uring_prep_linkat(sqe, AT_FDCWD, argv[1], AT_FDCWD, argv[2], 0);
		return report(uring_one(&ring));
	}
	if (!strcmp(op, "uring-connect") && argc == 3) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);

		if (fd < 0)
			return report(-errno);
		note("sockfd", fd);
		sin4(&sin, argv[1], argv[2]);
		io_uring_prep_connect(sqe, fd, (struct sockaddr *)&sin, sizeof(sin));
		return report(uring_one(&ring));
	}
	if (!strcmp(op, "uring-sendmsg-udp") && argc == 3) {
		static char data[] = PAYLOAD;
		struct iovec iov = { .iov_base = data, .iov_len = sizeof(data) - 1 };
		struct msghdr msg = { .msg_name = &sin, .msg_namelen = sizeof(sin),
				      .msg_iov = &iov, .msg_iovlen = 1 };
		int fd = socket(AF_INET, SOCK_DGRAM, 0);

		if (fd < 0)
			return report(-errno);
		note("sockfd", fd);
		sin4(&sin, argv[1], argv[2]);
		io_uring_prep_sendmsg(sqe, fd, &msg, 0);
		return report(uring_one(&ring));
	}
	if (!strcmp(op, "uring-nops") && argc == 2) {
		int n = atoi(argv[1]);

		for (int i = 0; i < n; i++) {
			if (i) /* the first one's SQE was taken above */
				sqe = io_uring_get_sqe(&ring);
			io_uring_prep_nop(sqe);
			if ((r = uring_one(&ring)) < 0)
				return report(r);
		}
		return report(n);
	}
	if (!strcmp(op, "uring-nop") && argc == 1) {
		io_uring_prep_nop(sqe);
		return report(uring_one(&ring));
	}
	if (!strcmp(op, "uring-socket") && argc == 1) {
		io_uring_prep_socket(sqe, AF_INET, SOCK_DGRAM, 0, 0);
		return report(uring_one(&ring));
	}
	if (!strcmp(op, "uring-ftruncate") && argc == 3) {
		int fd = open(argv[1], O_WRONLY);

		if (fd < 0)
			return report(-errno);
		note("fd", fd);
		/* liburing 2.3 has no prep for it (Linux 6.9): the length is the offset */
		io_uring_prep_rw(IORING_OP_FTRUNCATE_NR, sqe, fd, NULL, 0, (__u64)num(argv[2]));
		return report(uring_one(&ring));
	}
	if ((!strcmp(op, "uring-bind") || !strcmp(op, "uring-listen")) && argc == 3) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);
		int listening = !strcmp(op, "uring-listen");

		if (fd < 0)
			return report(-errno);
		note("sockfd", fd);
		sin4(&sin, argv[1], argv[2]);
		if (listening && bind(fd, (struct sockaddr *)&sin, sizeof(sin)))
			return report(-errno);
		/* Linux 6.11, newer than liburing 2.3: bind's address in addr, its
		 * length in addr2; listen's backlog in len */
		if (listening) {
			io_uring_prep_rw(IORING_OP_LISTEN_NR, sqe, fd, NULL, 7, 0);
		} else {
			io_uring_prep_rw(IORING_OP_BIND_NR, sqe, fd, &sin, 0, 0);
			sqe->addr2 = sizeof(sin);
		}
		return report(uring_one(&ring));
	}
	fprintf(stderr, "as-acts: unknown io_uring operation or arguments: %s\n", op);
	return 2;
}

/* ---- network ---- */

static int net_op(int argc, char **argv)
{
	const char *op = argv[0];
	static char data[] = PAYLOAD;
	struct sockaddr_in sin;
	int fd;

	if (!strcmp(op, "socket") && (argc == 3 || argc == 4))
		return report(res(syscall(SYS_socket, (int)num(argv[1]), (int)num(argv[2]),
					  argc == 4 ? (int)num(argv[3]) : 0)));
	if (!strcmp(op, "accept4") && argc == 1) {
		socklen_t len = sizeof(sin);
		pid_t child;
		long r;

		sin4(&sin, "127.0.0.1", "0");
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0 || bind(fd, (struct sockaddr *)&sin, sizeof(sin)) ||
		    listen(fd, 1) || getsockname(fd, (struct sockaddr *)&sin, &len))
			return report(-errno);
		note("port", ntohs(sin.sin_port));
		child = fork();
		if (child == 0) {
			int c = socket(AF_INET, SOCK_STREAM, 0);
			struct sockaddr_in me;
			socklen_t ml = sizeof(me);

			if (c < 0 || connect(c, (struct sockaddr *)&sin, sizeof(sin)) ||
			    getsockname(c, (struct sockaddr *)&me, &ml))
				_exit(1);
			note("peer", ntohs(me.sin_port));
			_exit(0);
		}
		if (child < 0)
			return report(-errno);
		waitpid(child, NULL, 0); /* the peer line comes first */
		r = res(syscall(SYS_accept4, fd, NULL, NULL, SOCK_CLOEXEC));
		return report(r);
	}
	if (!strcmp(op, "sendto-unix") && argc == 2) {
		struct sockaddr_un sun = { .sun_family = AF_UNIX };

		snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", argv[1]);
		fd = socket(AF_UNIX, SOCK_DGRAM, 0);
		if (fd < 0)
			return report(-errno);
		return report(res(syscall(SYS_sendto, fd, data, sizeof(data) - 1, 0, &sun,
					  sizeof(sun))));
	}
	if ((!strcmp(op, "unix-connect") || !strcmp(op, "unix-self")) &&
	    (argc == 2 || (argc == 3 && !strcmp(argv[2], "dgram")))) {
		int type = (argc == 3 ? SOCK_DGRAM : SOCK_STREAM) | SOCK_CLOEXEC;
		struct sockaddr_un sun = { .sun_family = AF_UNIX };
		socklen_t len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) +
					    strnlen(argv[1], sizeof(sun.sun_path) - 1));
		int srv = -1;
		long r;

		snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", argv[1]);
		if (sun.sun_path[0] == '@')
			sun.sun_path[0] = 0; /* the abstract namespace: the name's bytes, no NUL */
		else
			len++;
		if (!strcmp(op, "unix-self")) {
			srv = socket(AF_UNIX, type, 0);
			if (srv < 0 || bind(srv, (struct sockaddr *)&sun, len) ||
			    (argc == 2 && listen(srv, 1)))
				return report(-errno);
		}
		fd = socket(AF_UNIX, type, 0);
		if (fd < 0)
			return report(-errno);
		r = res(syscall(SYS_connect, fd, &sun, len));
		if (srv >= 0 && sun.sun_path[0])
			unlink(sun.sun_path);
		return report(r);
	}
	if (!strcmp(op, "send-series") && argc == 4) {
		struct sockaddr_in a, b;
		struct iovec iov = { .iov_base = data, .iov_len = sizeof(data) - 1 };
		struct msghdr msg = { .msg_name = &a, .msg_namelen = sizeof(a),
				      .msg_iov = &iov, .msg_iovlen = 1 };
		long sent = 0;
		int status;
		pid_t kid;

#define AS_SEND(to, flags)                                                                 \
	(sent += syscall(SYS_sendto, fd, data, sizeof(data) - 1, flags, to, sizeof(*to)) > 0)
		sin4(&a, argv[1], argv[2]);
		sin4(&b, argv[1], argv[3]);
		fd = socket(AF_INET, SOCK_DGRAM, 0);
		if (fd < 0)
			return report(-errno);
		for (int i = 0; i < 5; i++)
			AS_SEND(&a, 0);
		AS_SEND(&b, 0);
		AS_SEND(&a, 0);
		for (int i = 0; i < 2; i++)
			sent += syscall(SYS_sendmsg, fd, &msg, 0) > 0;
		for (int i = 0; i < 2; i++)
			AS_SEND(&a, MSG_DONTWAIT);
		sent += syscall(SYS_sendto, fd, data, 4, MSG_DONTWAIT, &a, sizeof(a)) > 0;
		prctl(PR_SET_NAME, "as-acts-2", 0, 0, 0);
		for (int i = 0; i < 2; i++)
			AS_SEND(&a, MSG_DONTWAIT);
		kid = fork();
		if (kid == 0) {
			for (int i = 0; i < 2; i++)
				AS_SEND(&a, MSG_DONTWAIT);
			_exit(0);
		}
		if (kid < 0 || waitpid(kid, &status, 0) != kid)
			return report(-errno);
#undef AS_SEND
		return report(sent + 2);
	}
	if (!strcmp(op, "sendmmsg-2dst") && (argc == 4 || argc == 5)) {
		struct iovec iov = { .iov_base = data, .iov_len = sizeof(data) - 1 };
		struct sockaddr_in dst[2];
		struct mmsghdr m[MMSG_MAX];
		int n = argc == 5 ? atoi(argv[4]) : 2;

		if (n < 2 || n > MMSG_MAX) {
			fprintf(stderr, "as-acts: sendmmsg-2dst takes 2 to %d messages\n", MMSG_MAX);
			return 2;
		}
		memset(m, 0, sizeof(m));
		sin4(&dst[0], argv[1], argv[2]);
		sin4(&dst[1], argv[1], argv[3]);
		for (int i = 0; i < n; i++) { /* the last message to the second port */
			m[i].msg_hdr.msg_name = &dst[i == n - 1];
			m[i].msg_hdr.msg_namelen = sizeof(dst[0]);
			m[i].msg_hdr.msg_iov = &iov;
			m[i].msg_hdr.msg_iovlen = 1;
		}
		fd = socket(AF_INET, SOCK_DGRAM, 0);
		if (fd < 0)
			return report(-errno);
		return report(res(syscall(SYS_sendmmsg, fd, m, n, 0)));
	}
	if (argc != 3) {
		fprintf(stderr, "as-acts: %s needs IP PORT\n", op);
		return 2;
	}
	if (!strcmp(op, "sendto-udp6")) {
		struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6,
					     .sin6_port = htons((uint16_t)atoi(argv[2])) };

		inet_pton(AF_INET6, argv[1], &sin6.sin6_addr);
		fd = socket(AF_INET6, SOCK_DGRAM, 0);
		if (fd < 0)
			return report(-errno);
		return report(res(syscall(SYS_sendto, fd, data, sizeof(data) - 1, 0, &sin6,
					  sizeof(sin6))));
	}
	sin4(&sin, argv[1], argv[2]);
	if (!strcmp(op, "sendto-udp") || !strcmp(op, "sendto-connected")) {
		int connected = !strcmp(op, "sendto-connected");

		fd = socket(AF_INET, SOCK_DGRAM, 0);
		if (fd < 0 || (connected && connect(fd, (struct sockaddr *)&sin, sizeof(sin))))
			return report(-errno);
		return report(res(syscall(SYS_sendto, fd, data, sizeof(data) - 1, 0,
					  connected ? NULL : &sin, connected ? 0 : sizeof(sin))));
	}
	if (!strcmp(op, "sendto-big")) {
		static char big[UDP_TOO_BIG];

		fd = socket(AF_INET, SOCK_DGRAM, 0);
		if (fd < 0)
			return report(-errno);
		return report(res(syscall(SYS_sendto, fd, big, sizeof(big), 0, &sin, sizeof(sin))));
	}
	if (!strcmp(op, "sendmsg-udp") || !strcmp(op, "sendmsg-connected")) {
		int connected = !strcmp(op, "sendmsg-connected");
		struct iovec iov = { .iov_base = data, .iov_len = sizeof(data) - 1 };
		struct msghdr msg = { .msg_name = connected ? NULL : &sin,
				      .msg_namelen = connected ? 0 : sizeof(sin),
				      .msg_iov = &iov, .msg_iovlen = 1 };

		fd = socket(AF_INET, SOCK_DGRAM, 0);
		if (fd < 0 || (connected && connect(fd, (struct sockaddr *)&sin, sizeof(sin))))
			return report(-errno);
		return report(res(syscall(SYS_sendmsg, fd, &msg, 0)));
	}
	if (!strcmp(op, "sendmmsg-udp")) {
		struct iovec iov = { .iov_base = data, .iov_len = sizeof(data) - 1 };
		struct mmsghdr m[2];

		memset(m, 0, sizeof(m));
		for (int i = 0; i < 2; i++) {
			m[i].msg_hdr.msg_name = &sin;
			m[i].msg_hdr.msg_namelen = sizeof(sin);
			m[i].msg_hdr.msg_iov = &iov;
			m[i].msg_hdr.msg_iovlen = 1;
		}
		fd = socket(AF_INET, SOCK_DGRAM, 0);
		if (fd < 0)
			return report(-errno);
		return report(res(syscall(SYS_sendmmsg, fd, m, 2, 0)));
	}
	if (!strcmp(op, "sendto-fastopen")) {
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0)
			return report(-errno);
		return report(res(syscall(SYS_sendto, fd, data, sizeof(data) - 1, MSG_FASTOPEN,
					  &sin, sizeof(sin))));
	}
	if (!strcmp(op, "bind4") || !strcmp(op, "listen4")) {
		int listening = !strcmp(op, "listen4");
		int one = 1;

		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)))
			return report(-errno);
		if (!listening)
			return report(res(syscall(SYS_bind, fd, &sin, sizeof(sin))));
		if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)))
			return report(-errno);
		return report(res(syscall(SYS_listen, fd, 7)));
	}
	fprintf(stderr, "as-acts: unknown network operation: %s\n", op);
	return 2;
}

/* ---- privilege, isolation, code ---- */

/* a private mount namespace, so nothing this process mounts reaches the host */
static int private_mounts(void)
{
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return -errno;
	return 0;
}

/* A memfd holding /bin/true's bytes, or a negative errno (reported). */
/* A memfd named name holding the bytes of the file at path (its
 * descriptor; each step's result reported) */
static int memfd_copy(const char *name, unsigned flags, const char *path)
{
	static char buf[COPY_CHUNK];
	int src = open(path, O_RDONLY);
	int mfd;
	ssize_t n;

	if (src < 0) {
		mfd = -errno;
		report(mfd);
		return mfd;
	}
	mfd = (int)res(syscall(SYS_memfd_create, name, flags));
	report(mfd);
	while (mfd >= 0 && (n = read(src, buf, sizeof(buf))) > 0) {
		ssize_t w = write(mfd, buf, (size_t)n);

		if (w != n) { /* a short write: the copy is not whole */
			int e = w < 0 ? -errno : -EIO;

			close(mfd);
			mfd = e;
			report(mfd);
		}
	}
	close(src);
	return mfd;
}

static int memfd_true(const char *name, unsigned flags)
{
	return memfd_copy(name, flags, "/bin/true");
}

/* PROGRAM (as-interp-fd: linked with --dynamic-linker=/proc/self/fd/9)
 * executed with a memfd holding LOADER's bytes as descriptor 9: the kernel
 * maps the memfd as the program's interpreter and runs it, no mmap call */
static int interp_fd(const char *name, const char *loader, const char *program)
{
	int mfd = memfd_copy(name, 0, loader);

	if (mfd < 0)
		return 0;
	if (mfd != ACTS_INTERP_FD && dup2(mfd, ACTS_INTERP_FD) < 0)
		return report(-errno);
	execl(program, program, (char *)NULL);
	return report(-errno);
}

static int memfd_exec(const char *name)
{
	char *args[] = { "as-memfd-true", NULL };
	int mfd = memfd_true(name, MFD_CLOEXEC);

	if (mfd < 0)
		return 0;
	syscall(SYS_execveat, mfd, "", args, environ, AT_EMPTY_PATH);
	return report(-errno);
}

/* The dynamic loader run as a program on the memfd's descriptor, named as
 * DIR + its number (/proc/self/fd/, /dev/fd/, ...): the kernel execs the
 * loader, which maps the memfd's code itself. */
static int memfd_loader(const char *name, const char *loader, const char *dir)
{
	char path[4096];
	int mfd = memfd_true(name, 0); /* kept open across the exec */

	if (mfd < 0)
		return 0;
	snprintf(path, sizeof(path), "%s%d", dir, mfd);
	execl(loader, loader, path, (char *)NULL);
	return report(-errno);
}

/* A file holding /bin/true's bytes from SRC: "memfd" (memfd_create), an
 * O_TMPFILE in directory D ("tmpfile:D"), a file created then unlinked
 * ("unlinked:PATH"), or a file left in place ("named:PATH"). */
static int code_file(const char *src)
{
	int fd;

	if (!strcmp(src, "memfd"))
		return memfd_true("as-code", 0);
	if (!strncmp(src, "tmpfile:", 8))
		fd = open(src + 8, O_TMPFILE | O_RDWR, 0700);
	else if (!strncmp(src, "unlinked:", 9) || !strncmp(src, "named:", 6))
		fd = open(strchr(src, ':') + 1, O_CREAT | O_TRUNC | O_RDWR, 0700);
	else
		return report(-EINVAL), -EINVAL;
	if (fd < 0)
		return report(-errno), -1;
	if (write(fd, "\177ELF", 4) != 4 || ftruncate(fd, 4096))
		return report(-errno), -1;
	if (!strncmp(src, "unlinked:", 9) && unlink(src + 9))
		return report(-errno), -1;
	return fd;
}

/* map-code SRC HOW: SRC's first page made code: mmap with PROT_EXEC,
 * "mprotect"/"pkey_mprotect" of a PROT_READ mapping, "read" (no PROT_EXEC),
 * "denied" (mmap of a write-only descriptor of it: EACCES; prints "fd N"),
 * "read-implies-exec" (PROT_READ alone, under that personality: code);
 * "anon": an anonymous PROT_EXEC mapping (a JIT's), SRC unused. Prints the
 * result of the call that made it code. */
static int map_code(const char *src, const char *how)
{
	int fd = strcmp(how, "anon") ? code_file(src) : -1;
	int prot = PROT_READ | PROT_EXEC, flags = MAP_PRIVATE;
	void *p;

	if (strcmp(how, "anon") && fd < 0)
		return 0;
	if (!strcmp(how, "denied")) { /* a descriptor without read: EACCES */
		char self[64];

		snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
		fd = open(self, O_WRONLY);
		if (fd < 0)
			return report(-errno);
		printf("fd %d\n", fd);
	}
	if (!strcmp(how, "anon"))
		flags |= MAP_ANONYMOUS;
	if (!strcmp(how, "read") || !strcmp(how, "mprotect") || !strcmp(how, "pkey_mprotect") ||
	    !strcmp(how, "read-implies-exec"))
		prot = PROT_READ;
	if (!strcmp(how, "read-implies-exec") && personality(READ_IMPLIES_EXEC) == -1)
		return report(-errno);
	p = mmap(NULL, 4096, prot, flags, fd, 0);
	if (p == MAP_FAILED)
		return report(-errno);
	if (!strcmp(how, "mprotect"))
		return report(res(mprotect(p, 4096, PROT_READ | PROT_EXEC)));
	if (!strcmp(how, "pkey_mprotect"))
		return report(res(syscall(SYS_pkey_mprotect, p, 4096, PROT_READ | PROT_EXEC, -1)));
	return report(0);
}

/* preload-tmpfile DIR LIB PROG: LIB copied into an O_TMPFILE in DIR, given
 * to PROG as LD_PRELOAD=/proc/self/fd/N: the loader maps a library that no
 * path names, in a program that is no loader */
static int preload_tmpfile(const char *dir, const char *lib, const char *prog)
{
	static char buf[COPY_CHUNK];
	char env[64];
	int src = open(lib, O_RDONLY), fd = open(dir, O_TMPFILE | O_RDWR, 0700);
	ssize_t n;

	if (src < 0 || fd < 0)
		return report(-errno);
	while ((n = read(src, buf, sizeof(buf))) > 0)
		if (write(fd, buf, (size_t)n) != n)
			return report(-EIO);
	close(src);
	snprintf(env, sizeof(env), "/proc/self/fd/%d", fd);
	if (setenv("LD_PRELOAD", env, 1))
		return report(-errno);
	execl(prog, prog, (char *)NULL);
	return report(-errno);
}

/* write into a forked child's copy of a buffer; the child checks it arrived */
static int process_vm_write(int traced)
{
	static char target[sizeof(PAYLOAD)];
	static char data[] = PAYLOAD;
	struct iovec local = { .iov_base = data, .iov_len = sizeof(data) - 1 };
	struct iovec remote = { .iov_base = target, .iov_len = sizeof(data) - 1 };
	int ready[2], done[2];
	pid_t child;
	char c = 0;
	int status = 0;
	long r;

	if (pipe(ready) || pipe(done))
		return report(-errno);
	child = fork();
	if (child == 0) {
		if (write(ready[1], "r", 1) != 1 || read(done[0], &c, 1) != 1)
			_exit(2);
		_exit(memcmp(target, PAYLOAD, sizeof(PAYLOAD) - 1) ? 1 : 0);
	}
	if (child < 0 || read(ready[0], &c, 1) != 1)
		return report(-errno);
	note("child", child);
	/* traced: as strace writes into its tracee (attached, stopped, let go) */
	if (traced && (ptrace(PTRACE_ATTACH, child, NULL, NULL) || waitpid(child, NULL, __WALL) < 0))
		return report(-errno);
	r = res(syscall(SYS_process_vm_writev, (long)child, &local, 1UL, &remote, 1UL, 0UL));
	report(r);
	if (traced)
		ptrace(PTRACE_DETACH, child, NULL, NULL);
	if (write(done[1], "d", 1) != 1)
		return report(-errno);
	waitpid(child, &status, 0);
	note("arrived", WIFEXITED(status) && WEXITSTATUS(status) == 0);
	return 0;
}

/* A child that waits forever (undumpable: having made itself so first,
 * as ssh-agent does), PTRACE_ATTACHed ("child N" printed); the attach's
 * result, 0 when it stopped and is traced */
static long traced_child_as(pid_t *child, int undumpable)
{
	int ready[2];
	char c = 0;
	long r;

	if (pipe(ready))
		return -errno;
	*child = fork();
	if (*child == 0) {
		if ((undumpable && prctl(PR_SET_DUMPABLE, 0L, 0L, 0L, 0L)) ||
		    write(ready[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	if (*child < 0 || read(ready[0], &c, 1) != 1)
		return -errno;
	close(ready[0]);
	close(ready[1]);
	note("child", *child);
	r = res(syscall(SYS_ptrace, (long)PTRACE_ATTACH, (long)*child, NULL, NULL));
	if (r == 0)
		waitpid(*child, NULL, __WALL);
	return r;
}

static long traced_child(pid_t *child)
{
	return traced_child_as(child, 0);
}

static void traced_child_end(pid_t child, long attached)
{
	if (attached == 0)
		ptrace(PTRACE_DETACH, child, NULL, NULL);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
}

/* After a clone: the child (0) ends at once; the parent reports the call's
 * result and reaps it */
static int child_reported(long child)
{
	if (child == 0)
		_exit(0);
	report(res(child));
	if (child > 0)
		waitpid((pid_t)child, NULL, 0);
	return 0;
}

/* descendant-oom DEPTH: a line of DEPTH descendants (child, grandchild,
 * ...), the last one's /proc oom_score_adj opened for writing; its pid
 * noted as "descendant" */
static int descendant_oom(int depth)
{
	int link[2];
	pid_t child, last = 0;
	char path[64];
	long r;

	if (depth < 1 || pipe(link))
		return report(-EINVAL);
	child = fork();
	if (child == 0) { /* each one starts the next; the last reports and waits */
		prctl(PR_SET_PDEATHSIG, SIGKILL); /* each one ends with its parent */
		for (int d = 1; d < depth; d++) {
			if (fork() > 0) { /* until the one after it ends */
				wait(NULL);
				_exit(0);
			}
			prctl(PR_SET_PDEATHSIG, SIGKILL);
		}
		last = getpid();
		if (write(link[1], &last, sizeof(last)) != (ssize_t)sizeof(last))
			_exit(1);
		for (;;)
			pause();
	}
	if (child < 0 || read(link[0], &last, sizeof(last)) != (ssize_t)sizeof(last))
		return report(-ECHILD);
	note("descendant", last);
	snprintf(path, sizeof(path), "/proc/%d/oom_score_adj", (int)last);
	r = res(open(path, O_WRONLY | O_CLOEXEC));
	kill(last, SIGKILL); /* each one before it then ends, reaped by its own */
	waitpid(child, NULL, 0);
	return report(r);
}

/* traced-mem PID: a traced child's /proc mem opened for reading and
 * writing, then PID's, which it does not trace */
static int traced_mem(const char *other)
{
	char path[64];
	pid_t child;
	long r = traced_child(&child);

	if (child < 0)
		return report(r);
	if (r == 0) {
		snprintf(path, sizeof(path), "/proc/%d/mem", (int)child);
		report(res(syscall(SYS_openat, AT_FDCWD, path, O_RDWR, 0)));
		snprintf(path, sizeof(path), "/proc/%s/mem", other);
		report(res(syscall(SYS_openat, AT_FDCWD, path, O_RDWR, 0)));
	} else {
		report(r);
	}
	traced_child_end(child, r);
	return 0;
}

static int ptrace_attach(int undumpable)
{
	pid_t child;
	long r = traced_child_as(&child, undumpable);

	report(r);
	if (child > 0)
		traced_child_end(child, r);
	return 0;
}

/* ptrace-shared-mm: LeakSanitizer's shape. A CLONE_VM clone (no thread of
 * ours: its own process, sharing our memory) PTRACE_ATTACHes us, waits
 * for us to stop and detaches; we report its attach's result. */
static pid_t shm_tracee;
static volatile long shm_attach = 1;

static int shm_tracer(void *arg)
{
	long r = syscall(SYS_ptrace, (long)PTRACE_ATTACH, (long)shm_tracee, NULL, NULL);

	(void)arg;
	if (r == 0) {
		waitpid(shm_tracee, NULL, __WALL);
		syscall(SYS_ptrace, (long)PTRACE_DETACH, (long)shm_tracee, NULL, NULL);
	}
	shm_attach = r == 0 ? 0 : -errno;
	syscall(SYS_exit, 0);
	return 0;
}

static int ptrace_shared_mm(void)
{
	static char stack[1 << 16] __attribute__((aligned(16)));
	pid_t tracer;

	shm_tracee = getpid();
	tracer = clone(shm_tracer, stack + sizeof(stack), CLONE_VM | CLONE_FS | CLONE_FILES | SIGCHLD,
		       NULL);
	if (tracer < 0)
		return report(-errno);
	note("tracer", tracer);
	waitpid(tracer, NULL, __WALL);
	return report(shm_attach);
}

/* clone-thread: a raw CLONE_THREAD thread that exits at once */
static volatile int clone_thread_done;

static int clone_thread_main(void *arg)
{
	(void)arg;
	clone_thread_done = 1;
	syscall(SYS_exit, 0); /* this thread only */
	return 0;
}

static int clone_thread(unsigned long flags)
{
	static char stack[1 << 16] __attribute__((aligned(16)));
	int tid = clone(clone_thread_main, stack + sizeof(stack),
			(int)(CLONE_VM | CLONE_SIGHAND | CLONE_THREAD | CLONE_FILES | flags), NULL);

	if (tid < 0)
		return report(-errno);
	while (!clone_thread_done)
		usleep(1000);
	return report(tid);
}

static int priv_op(int argc, char **argv)
{
	const char *op = argv[0];

	if (!strcmp(op, "kill") && argc == 3)
		return report(res(syscall(SYS_kill, (pid_t)num(argv[1]), (int)num(argv[2]))));
	if (!strcmp(op, "tkill") && argc == 3)
		return report(res(syscall(SYS_tkill, (pid_t)num(argv[1]), (int)num(argv[2]))));
	if (!strcmp(op, "tgkill") && argc == 4)
		return report(res(syscall(SYS_tgkill, (pid_t)num(argv[1]), (pid_t)num(argv[2]),
					  (int)num(argv[3]))));
	if (!strcmp(op, "sigqueue") && argc == 3) {
		siginfo_t si;

		memset(&si, 0, sizeof(si));
		si.si_signo = (int)num(argv[2]);
		si.si_code = SI_QUEUE; /* negative: what a process may send another */
		si.si_pid = getpid();
		si.si_uid = getuid();
		return report(res(syscall(SYS_rt_sigqueueinfo, (pid_t)num(argv[1]), si.si_signo, &si)));
	}
	if ((!strcmp(op, "pidfd-signal") || !strcmp(op, "procdir-signal")) && argc == 3) {
		char dir[32];
		int fd;

		snprintf(dir, sizeof(dir), "/proc/%ld", (long)num(argv[1]));
		fd = op[0] == 'p' && op[1] == 'i' ? (int)syscall(SYS_pidfd_open, (pid_t)num(argv[1]), 0) :
						    open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return report(-errno);
		note("pidfd", fd);
		return report(res(syscall(SYS_pidfd_send_signal, fd, (int)num(argv[2]), NULL, 0)));
	}
	if (!strcmp(op, "set-owner") && argc == 2) {
		/* a socket's I/O signal owner made PID by fcntl F_SETOWN,
		 * F_SETOWN_EX (F_OWNER_PID) and ioctl FIOSETOWN (sockets' own):
		 * no O_ASYNC, so nothing is ever sent; one result line each */
		struct f_owner_ex ex = { F_OWNER_PID, (pid_t)num(argv[1]) };
		int p[2], pid = (int)num(argv[1]);

		if (socketpair(AF_UNIX, SOCK_STREAM, 0, p))
			return report(-errno);
		report(res(syscall(SYS_fcntl, p[0], F_SETOWN, (long)pid)));
		report(res(syscall(SYS_fcntl, p[0], F_SETOWN_EX, &ex)));
		return report(res(syscall(SYS_ioctl, p[0], FIOSETOWN, &pid)));
	}
	if (!strcmp(op, "sigio") && argc == 2) {
		/* PID made the owner of a socket's I/O signals, O_ASYNC set, then
		 * a byte written to the other end: the kernel sends PID SIGIO */
		int p[2];

		if (socketpair(AF_UNIX, SOCK_STREAM, 0, p) ||
		    fcntl(p[0], F_SETOWN, (int)num(argv[1])) ||
		    fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_ASYNC))
			return report(-errno);
		return report(res(write(p[1], "x", 1)));
	}
	if (!strcmp(op, "same-sched") && argc == 2) {
		pid_t pid = (pid_t)num(argv[1]);
		struct sched_param sp = { 0 };
		struct rlimit lim;
		cpu_set_t cpus;
		long prio;
		int policy;

		if (prlimit(pid, RLIMIT_NOFILE, NULL, &lim))
			return report(-errno);
		report(res(prlimit(pid, RLIMIT_NOFILE, &lim, NULL)));
		errno = 0;
		prio = getpriority(PRIO_PROCESS, (id_t)pid);
		if (errno)
			return report(-errno);
		report(res(setpriority(PRIO_PROCESS, (id_t)pid, (int)prio)));
		policy = sched_getscheduler(pid);
		if (policy < 0 || sched_getparam(pid, &sp))
			return report(-errno);
		report(res(sched_setscheduler(pid, policy, &sp)));
		if (sched_getaffinity(pid, sizeof(cpus), &cpus))
			return report(-errno);
		report(res(sched_setaffinity(pid, sizeof(cpus), &cpus)));
		prio = syscall(SYS_ioprio_get, 1 /* IOPRIO_WHO_PROCESS */, pid);
		if (prio < 0)
			return report(-errno);
		return report(res(syscall(SYS_ioprio_set, 1, pid, prio)));
	}
	if (!strcmp(op, "setresuid") && argc == 4)
		return report(res(syscall(SYS_setresuid, (uid_t)num(argv[1]), (uid_t)num(argv[2]),
					  (uid_t)num(argv[3]))));
	if (!strcmp(op, "setfsuid") && argc == 2)
		return report(res(syscall(SYS_setfsuid, (uid_t)num(argv[1]))));
	if (!strcmp(op, "setfsgid") && argc == 2)
		return report(res(syscall(SYS_setfsgid, (gid_t)num(argv[1]))));
	if (!strcmp(op, "setgroups") && argc == 2) {
		gid_t g[GROUPS_MAX];
		size_t n = 0;
		char *s = argv[1];

		while (*s && n < GROUPS_MAX) {
			g[n++] = (gid_t)strtoul(s, &s, 0);
			if (*s == ',')
				s++;
		}
		return report(res(syscall(SYS_setgroups, n, g)));
	}
	if (!strcmp(op, "unshare") && argc == 2)
		return report(res(syscall(SYS_unshare, (int)num(argv[1]))));
	if (!strcmp(op, "setns") && argc == 3) {
		int type = (int)num(argv[2]);
		int fd = open(argv[1], O_RDONLY); /* the namespace we start in */

		if (fd < 0)
			return report(-errno);
		note("nsfd", fd);
		if (unshare(type))
			return report(-errno);
		return report(res(syscall(SYS_setns, fd, type)));
	}
	if (!strcmp(op, "ptrace-attach") && argc == 1)
		return ptrace_attach(0);
	if (!strcmp(op, "ptrace-attach-undumpable") && argc == 1)
		return ptrace_attach(1);
	if (!strcmp(op, "ptrace-shared-mm") && argc == 1)
		return ptrace_shared_mm();
	if (!strcmp(op, "traced-mem") && argc == 2)
		return traced_mem(argv[1]);
	if (!strcmp(op, "ptrace-traceme") && argc == 1) /* a debugger-shy program's first act */
		return report(res(syscall(SYS_ptrace, (long)PTRACE_TRACEME, 0L, NULL, NULL)));
	if (!strcmp(op, "mount-tmpfs") && argc == 2) {
		int r = private_mounts();

		if (r)
			return report(r);
		return report(res(syscall(SYS_mount, "as-acts", argv[1], "tmpfs", (unsigned long)MS_NOSUID,
					  "size=1m")));
	}
	if (!strcmp(op, "newmount-tmpfs") && (argc == 2 || argc == 3)) {
		/* the new mount API: fsopen, fsconfig, fsmount, move_mount onto DIR */
		int r = private_mounts(), fs, mnt;

		if (r)
			return report(r);
		if ((fs = (int)syscall(SYS_fsopen, "tmpfs", FSOPEN_CLOEXEC)) < 0 ||
		    syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) ||
		    (mnt = (int)syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC, 0)) < 0)
			return report(-errno);
		note("mntfd", mnt);
		return report(res(syscall(SYS_move_mount, mnt, "", AT_FDCWD, argv[1],
					  MOVE_MOUNT_F_EMPTY_PATH |
						  (argc == 3 ? (unsigned)num(argv[2]) : 0))));
	}
	if (!strcmp(op, "umount2") && argc == 3) {
		int r = private_mounts();

		if (r || mount("as-acts", argv[1], "tmpfs", 0, "size=1m"))
			return report(r ? r : -errno);
		return report(res(syscall(SYS_umount2, argv[1], (int)num(argv[2]))));
	}
	if (!strcmp(op, "fspick-remount") && argc == 2) {
		/* a tmpfs on DIR in a private mount namespace, then its options
		 * changed through the new mount API: fspick, fsconfig */
		int r = private_mounts(), fs;

		if (r || mount("as-acts", argv[1], "tmpfs", 0, "size=1m"))
			return report(r ? r : -errno);
		if ((fs = (int)res(syscall(SYS_fspick, AT_FDCWD, argv[1], FSPICK_CLOEXEC))) < 0)
			return report(fs);
		note("fsfd", fs);
		if (syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "size", "2m", 0))
			return report(-errno);
		return report(res(syscall(SYS_fsconfig, fs, FSCONFIG_CMD_RECONFIGURE, NULL, NULL, 0)));
	}
	if (!strcmp(op, "open-tree-attr") && argc == 2) {
		/* a read-only clone of DIR's mount, detached (Linux 6.15) */
		struct mount_attr attr = { .attr_set = MOUNT_ATTR_RDONLY };
		int r = private_mounts();

		if (r)
			return report(r);
		return report(res(syscall(SYS_OPEN_TREE_ATTR, AT_FDCWD, argv[1],
					  OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC, &attr, sizeof(attr))));
	}
	if (!strcmp(op, "file-setattr") && argc == 2) {
		/* PATH's inode flags read and set again as they were (Linux 6.17) */
		struct { uint64_t xflags; uint32_t extsize, nextents, projid, cowextsize; } fa = { 0 };

		if (syscall(SYS_FILE_GETATTR, AT_FDCWD, argv[1], &fa, sizeof(fa), 0))
			return report(-errno);
		return report(res(syscall(SYS_FILE_SETATTR, AT_FDCWD, argv[1], &fa, sizeof(fa), 0)));
	}
	if (!strcmp(op, "chattr-same") && argc == 2) {
		/* chattr's way: FS_IOC_GETFLAGS, then FS_IOC_SETFLAGS with the same */
		int fd = open(argv[1], O_RDONLY | O_NONBLOCK), flags = 0;

		if (fd < 0 || ioctl(fd, FS_IOC_GETFLAGS, &flags))
			return report(-errno);
		note("fd", fd);
		return report(res(ioctl(fd, FS_IOC_SETFLAGS, &flags)));
	}
	if (!strcmp(op, "netns-ifup") && argc == 1) {
		/* in a network namespace of its own: lo brought up with the
		 * socket ioctl ifconfig uses (SIOCSIFFLAGS) */
		struct ifreq ifr;
		int fd;

		if (unshare(CLONE_NEWNET))
			return report(-errno);
		if ((fd = socket(AF_INET, SOCK_DGRAM, 0)) < 0)
			return report(-errno);
		memset(&ifr, 0, sizeof(ifr));
		snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
		if (ioctl(fd, SIOCGIFFLAGS, &ifr))
			return report(-errno);
		ifr.ifr_flags |= IFF_UP;
		return report(res(ioctl(fd, SIOCSIFFLAGS, &ifr)));
	}
	if (!strcmp(op, "netns-newaddr-send") && argc == 1) {
		/* in a network namespace of its own: 10.7.7.1/24 on lo by an
		 * rtnetlink RTM_NEWADDR sent with send(), no address given */
		struct {
			struct nlmsghdr n;
			struct ifaddrmsg a;
			struct rtattr rta;
			unsigned char addr[4];
		} req;
		int fd;

		if (unshare(CLONE_NEWNET))
			return report(-errno);
		if ((fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE)) < 0)
			return report(-errno);
		memset(&req, 0, sizeof(req));
		req.n.nlmsg_len = sizeof(req);
		req.n.nlmsg_type = RTM_NEWADDR;
		req.n.nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE | NLM_F_EXCL | NLM_F_ACK;
		req.a.ifa_family = AF_INET;
		req.a.ifa_prefixlen = 24;
		req.a.ifa_index = if_nametoindex("lo");
		req.rta.rta_type = IFA_LOCAL;
		req.rta.rta_len = RTA_LENGTH(4);
		inet_pton(AF_INET, "10.7.7.1", req.addr);
		return report(res(send(fd, &req, sizeof(req), 0)));
	}
	if (!strcmp(op, "netns-newaddr") && argc == 2)
		return report(netns_newaddr(argv[1]));
	if (!strcmp(op, "audit-set-nothing") && argc <= 2)
		return report(audit_set_nothing(argc == 2 ? argv[1] : "send"));
	if (!strcmp(op, "acct") && argc == 2) {
		/* process accounting into PATH, then off again */
		long r = res(syscall(SYS_acct, argv[1]));

		if (r == 0)
			syscall(SYS_acct, NULL);
		return report(r);
	}
	if (!strcmp(op, "fsopen") && argc == 2)
		return report(res(syscall(SYS_fsopen, argv[1], FSOPEN_CLOEXEC)));
	if (!strcmp(op, "iopl") && argc == 2)
		return report(res(syscall(SYS_iopl, atoi(argv[1]))));
	if (!strcmp(op, "ioperm") && argc == 4)
		return report(res(syscall(SYS_ioperm, num(argv[1]), num(argv[2]), atoi(argv[3]))));
	if (!strcmp(op, "userfaultfd") && argc == 2)
		return report(res(syscall(SYS_userfaultfd, (int)num(argv[1]))));
	if (!strcmp(op, "perf_event_open") && argc == 1) {
		struct perf_event_attr pa;

		memset(&pa, 0, sizeof(pa));
		pa.type = PERF_TYPE_SOFTWARE;
		pa.size = sizeof(pa);
		pa.config = PERF_COUNT_SW_TASK_CLOCK;
		pa.exclude_kernel = 1; /* what perf_event_paranoid 2 lets anyone do */
		pa.exclude_hv = 1;
		return report(res(syscall(SYS_perf_event_open, &pa, 0, -1, -1, PERF_FLAG_FD_CLOEXEC)));
	}
	if (!strcmp(op, "pidfd_getfd") && argc == 1) {
		int pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);

		if (pidfd < 0)
			return report(-errno);
		note("pidfd", pidfd);
		return report(res(syscall(SYS_pidfd_getfd, pidfd, 1, 0)));
	}
	if (!strcmp(op, "process_vm_writev") && argc == 1)
		return process_vm_write(0);
	if (!strcmp(op, "process_vm_writev-traced") && argc == 1)
		return process_vm_write(1);
	if (!strcmp(op, "ptrace-pid") && argc == 2)
		return report(res(syscall(SYS_ptrace, (long)PTRACE_ATTACH, (long)atoi(argv[1]), NULL, NULL)));
	if (!strcmp(op, "finit_module") && argc == 2) {
		int fd = open(argv[1], O_RDONLY);

		if (fd < 0)
			return report(-errno);
		note("fd", fd);
		return report(res(syscall(SYS_finit_module, fd, "", 0)));
	}
	if (!strcmp(op, "delete_module") && argc == 2)
		return report(res(syscall(SYS_delete_module, argv[1], O_NONBLOCK)));
	if (!strcmp(op, "chroot") && argc == 2)
		return report(res(syscall(SYS_chroot, argv[1])));
	if (!strcmp(op, "bpf-prog-load-fail") && argc == 1) {
		union bpf_attr attr;

		memset(&attr, 0, sizeof(attr));
		attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER; /* no instructions: EINVAL */
		return report(res(syscall(SYS_bpf, BPF_PROG_LOAD, &attr, sizeof(attr))));
	}
	if (!strcmp(op, "prctl-setname") && argc == 2)
		return report(res(syscall(SYS_prctl, PR_SET_NAME, argv[1], 0UL, 0UL, 0UL)));
	if (!strcmp(op, "tiocsti") && argc == 2)
		return report(res(syscall(SYS_ioctl, 0, (unsigned long)TIOCSTI, argv[1])));
	if (!strcmp(op, "tiocsti-hi") && argc == 2) /* the request's upper half set: ignored by the kernel */
		return report(res(syscall(SYS_ioctl, 0, 0xffffffff00000000UL | TIOCSTI, argv[1])));
	if (!strcmp(op, "tiocsti-nr-hi") && argc == 2)
		return report(res(syscall(0xdead00000000L | SYS_ioctl, 0, (unsigned long)TIOCSTI,
					  argv[1])));
	if (!strcmp(op, "tcgets") && argc == 1) {
		struct termios t;

		return report(res(syscall(SYS_ioctl, 0, (unsigned long)TCGETS, &t)));
	}
	if (!strcmp(op, "interp-fd") && argc == 4)
		return interp_fd(argv[1], argv[2], argv[3]);
	if (!strcmp(op, "memfd-exec") && argc == 2)
		return memfd_exec(argv[1]);
	if (!strcmp(op, "map-code") && argc == 3)
		return map_code(argv[1], argv[2]);
	if (!strcmp(op, "preload-tmpfile") && argc == 4)
		return preload_tmpfile(argv[1], argv[2], argv[3]);
	if (!strcmp(op, "memfd-loader") && (argc == 3 || argc == 4))
		return memfd_loader(argv[1], argv[2], argc == 4 ? argv[3] : "/proc/self/fd/");
	if (!strcmp(op, "overlay-exec") && argc == 6) {
		/* in a private mount namespace: overlay LOWER+UPPER on MERGED, exec FILE */
		char opts[3 * 4096 + 64], exe[4096 + 256];
		char *args[] = { "as-overlay", NULL };
		int r = private_mounts();

		if (r)
			return report(r);
		snprintf(opts, sizeof(opts), "lowerdir=%s,upperdir=%s,workdir=%s", argv[1], argv[2],
			 argv[3]);
		if (mount("overlay", argv[4], "overlay", 0, opts))
			return report(-errno);
		snprintf(exe, sizeof(exe), "%s/%s", argv[4], argv[5]);
		fflush(stdout);
		execv(exe, args);
		return report(-errno);
	}
	if (!strcmp(op, "exec-deleted") && argc == 2) {
		/* run a file that has no name left: open it, unlink it, exec the fd */
		char *args[] = { "as-deleted", NULL };
		int fd = open(argv[1], O_RDONLY | O_CLOEXEC);

		if (fd < 0 || unlink(argv[1]))
			return report(-errno);
		fflush(stdout);
		syscall(SYS_execveat, fd, "", args, environ, AT_EMPTY_PATH);
		return report(-errno);
	}
	if (!strcmp(op, "exec") && argc >= 2) {
		fflush(stdout);
		execv(argv[1], argv + 1);
		return report(-errno);
	}
	if (!strcmp(op, "exec-env") && argc >= 2)
		return exec_env(argv[1], argv + 2, argc - 2);
	if ((!strcmp(op, "clone") || !strcmp(op, "clone3") || !strcmp(op, "clone-nr-hi")) &&
	    argc == 2) {
		struct clone_args ca = { .flags = num(argv[1]), .exit_signal = SIGCHLD };
		/* clone-nr-hi: the number's upper half set, which the kernel ignores */
		long nr = !strcmp(op, "clone-nr-hi") ? 0xdead00000000L | SYS_clone : SYS_clone;
		long child = strcmp(op, "clone3")
			? syscall(nr, (unsigned long)num(argv[1]) | SIGCHLD, NULL, NULL, NULL, 0UL)
			: syscall(SYS_clone3, &ca, sizeof(ca));

		return child_reported(child);
	}
	if (!strcmp(op, "clone3-into-cgroup") && argc == 2) { /* a child started in DIR's cgroup */
		int cg = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		struct clone_args ca = { .flags = CLONE_INTO_CGROUP, .exit_signal = SIGCHLD };

		if (cg < 0)
			return report(-errno);
		ca.cgroup = (unsigned)cg;
		return child_reported(syscall(SYS_clone3, &ca, sizeof(ca)));
	}
	if (!strcmp(op, "clone3-flipped") && argc == 2)
		return clone3_flipped(atoi(argv[1]));
	if (!strcmp(op, "clone-thread") && argc == 2)
		return clone_thread((unsigned long)num(argv[1]));
	if (!strcmp(op, "vfork") && argc == 1) {
		pid_t child = vfork();

		if (child == 0)
			_exit(0);
		report(res(child));
		if (child > 0)
			waitpid(child, NULL, 0);
		return 0;
	}
	if (!strcmp(op, "chdir") && argc == 2)
		return report(res(syscall(SYS_chdir, argv[1])));
	if (!strcmp(op, "fchdir") && argc == 2) {
		int fd = opendir_fd(argv[1]);

		if (fd < 0)
			return report(-errno);
		return report(res(syscall(SYS_fchdir, fd)));
	}
	if (!strcmp(op, "setsid") && argc == 1) {
		pid_t child = fork();

		if (child == 0) {
			note("child", getpid());
			report(res(syscall(SYS_setsid)));
			_exit(0);
		}
		if (child < 0)
			return report(-errno);
		waitpid(child, NULL, 0);
		return 0;
	}
	fprintf(stderr, "as-acts: unknown operation or arguments: %s\n", op);
	return 2;
}

/* ---- the host's state ---- */

#define ACTS_SYSLOG_CONSOLE_LEVEL 8
#define ACTS_KEY_SPEC_PROCESS_KEYRING (-2)
#define ACTS_KEYCTL_READ 11
#define ACTS_FAN_MARK_ADD 0x1
#define ACTS_FAN_OPEN 0x20
#define ACTS_RTC_SET_TIME 0x4024700a /* _IOW('p', 0x0a, struct rtc_time) */
#define ACTS_RTC_TIME_INTS 9 /* struct rtc_time: nine ints */
#define ACTS_REBOOT_MAGIC1 0xfee1dead /* <linux/reboot.h> */
#define ACTS_REBOOT_MAGIC2 672274793
#define ACTS_REBOOT_CMD_CAD_OFF 0
#define ACTS_HOST_NAME_MAX 64 /* __NEW_UTS_LEN */

static int host_op(int argc, char **argv)
{
	const char *op = argv[0];

	if (!strcmp(op, "host-sethostname") && (argc == 2 || argc == 3)) {
		size_t len = argc == 3 ? (size_t)num(argv[2]) : strlen(argv[1]);

		if (unshare(CLONE_NEWUTS))
			return report(-errno);
		return report(res(syscall(SYS_sethostname, argv[1], len)));
	}
	if (!strcmp(op, "host-sethostname-same") && argc == 1) {
		/* the host's own name set as it is: a real set, nothing changed */
		char name[ACTS_HOST_NAME_MAX + 1] = { 0 };

		if (gethostname(name, sizeof(name) - 1))
			return report(-errno);
		return report(res(syscall(SYS_sethostname, name, strlen(name))));
	}
	if (!strcmp(op, "host-reboot-pidns") && argc == 1) {
		/* the real magic numbers and LINUX_REBOOT_CMD_CAD_OFF from the
		 * init of a pid namespace of its own: reboot_pid_ns refuses
		 * every command but restart, halt and power-off (EINVAL) */
		pid_t child;
		int status = 0;

		if (unshare(CLONE_NEWPID))
			return report(-errno);
		child = fork();
		if (child == 0) {
			if (getpid() != 1) /* never the host's Ctrl-Alt-Del */
				_exit(report(-ESRCH));
			report(res(syscall(SYS_reboot, ACTS_REBOOT_MAGIC1, ACTS_REBOOT_MAGIC2,
					   ACTS_REBOOT_CMD_CAD_OFF, NULL)));
			_exit(0);
		}
		if (child < 0)
			return report(-errno);
		note("child", child);
		waitpid(child, &status, 0);
		return 0;
	}
	if (!strcmp(op, "host-settimeofday-null") && argc == 1)
		return report(res(syscall(SYS_settimeofday, NULL, NULL)));
	if (!strcmp(op, "host-clock-settime") && argc == 2) {
		struct timespec ts = { 0 };

		clock_gettime((clockid_t)num(argv[1]), &ts);
		return report(res(syscall(SYS_clock_settime, (clockid_t)num(argv[1]), &ts)));
	}
	if ((!strcmp(op, "host-adjtimex") && argc == 2) ||
	    (!strcmp(op, "host-clock-adjtime") && argc == 3)) {
		struct timex tx = { .modes = (unsigned)num(argv[argc - 1]) }; /* tick, all else 0 */

		if (argc == 2)
			return report(res(syscall(SYS_adjtimex, &tx)));
		return report(res(syscall(SYS_clock_adjtime, (clockid_t)num(argv[1]), &tx)));
	}
	if (!strcmp(op, "host-adjtimex-same") && (argc == 1 || (argc == 2 && !strcmp(argv[1], "ro")))) {
		/* the clock's status flags read, then set as they were; "ro":
		 * from a read-only page, which the kernel sets the clock from
		 * and then fails to copy the result back into (EFAULT) */
		struct timex tx = { .modes = 0 }, *p = &tx;

		if (adjtimex(&tx) < 0)
			return report(-errno);
		tx.modes = ADJ_STATUS;
		if (argc == 2) {
			p = mmap(NULL, sizeof(tx), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				 -1, 0);
			if (p == MAP_FAILED)
				return report(-errno);
			*p = tx;
			if (mprotect(p, sizeof(tx), PROT_READ))
				return report(-errno);
		}
		return report(res(syscall(SYS_adjtimex, p)));
	}
	if (!strcmp(op, "host-reboot-bad") && argc == 1)
		return report(res(syscall(SYS_reboot, ACTS_REBOOT_MAGIC1, 0, 0, NULL)));
	if (!strcmp(op, "host-swapon") && argc == 2)
		return report(res(syscall(SYS_swapon, argv[1], 0)));
	if (!strcmp(op, "host-swapoff") && argc == 2)
		return report(res(syscall(SYS_swapoff, argv[1])));
	if (!strcmp(op, "host-syslog") && argc == 2) {
		int type = (int)num(argv[1]), level = 0;
		FILE *f;

		if (type == ACTS_SYSLOG_CONSOLE_LEVEL) {
			if (!(f = fopen("/proc/sys/kernel/printk", "r")))
				return report(-errno);
			if (fscanf(f, "%d", &level) != 1)
				level = -1;
			fclose(f);
			note("level", level);
		}
		return report(res(syscall(SYS_syslog, type, NULL, level)));
	}
	if (!strcmp(op, "host-fanotify") && (argc == 2 || argc == 3)) {
		int fd = (int)res(syscall(SYS_fanotify_init, 0, O_RDONLY | O_CLOEXEC));
		unsigned flags = ACTS_FAN_MARK_ADD | (argc == 3 ? (unsigned)num(argv[2]) : 0);

		if (fd < 0)
			return report(fd);
		note("fd", fd);
		return report(res(syscall(SYS_fanotify_mark, fd, flags, ACTS_FAN_OPEN, AT_FDCWD,
					  argv[1])));
	}
	if (!strcmp(op, "host-rtc-set") && argc == 2) {
		int tm[ACTS_RTC_TIME_INTS] = { 0 }; /* struct rtc_time */
		int fd = open(argv[1], O_RDONLY);

		if (fd < 0)
			return report(-errno);
		note("fd", fd);
		return report(res(ioctl(fd, ACTS_RTC_SET_TIME, tm)));
	}
	if (!strcmp(op, "host-keys") && argc == 1) {
		char buf[64];
		long key = res(syscall(SYS_add_key, "user", "as-acts-key", "secret", 6,
				       ACTS_KEY_SPEC_PROCESS_KEYRING));

		note("key", key);
		note("read", res(syscall(SYS_keyctl, ACTS_KEYCTL_READ, key, buf, sizeof(buf))));
		return report(res(syscall(SYS_request_key, "user", "as-acts-none", NULL, 0)));
	}
	return -1;
}

/* ---- file changes ---- */

struct chmod_args {
	const char *path;
	mode_t mode;
};

/* acts_until's call */
static long chmod_native(const void *arg)
{
	const struct chmod_args *a = arg;

	return syscall(SYS_chmod, a->path, a->mode);
}

static int file_op(int argc, char **argv)
{
	const char *op = argv[0];
	int fd;

	if (!strcmp(op, "rename") && argc == 3)
		return report(res(syscall(SYS_rename, argv[1], argv[2])));
	if ((!strcmp(op, "renameat") && argc == 4) || (!strcmp(op, "renameat2") && argc == 5)) {
		if ((fd = opendir_fd(argv[1])) < 0)
			return report(-errno);
		if (argc == 4)
			return report(res(syscall(SYS_renameat, fd, argv[2], fd, argv[3])));
		return report(res(syscall(SYS_renameat2, fd, argv[2], fd, argv[3],
					  (unsigned)num(argv[4]))));
	}
	if (!strcmp(op, "renameat-moved") && argc == 5) {
		/* the dirfd's directory moves before the renameat: the kernel's path of
		 * the dirfd, not the one it was opened by, is where the names are */
		if ((fd = opendir_fd(argv[1])) < 0 || rename(argv[1], argv[2]))
			return report(-errno);
		return report(res(syscall(SYS_renameat, fd, argv[3], fd, argv[4])));
	}
	if (!strcmp(op, "link") && argc == 3)
		return report(res(syscall(SYS_link, argv[1], argv[2])));
	if (!strcmp(op, "linkat") && argc == 5) {
		if ((fd = opendir_fd(argv[1])) < 0)
			return report(-errno);
		return report(res(syscall(SYS_linkat, fd, argv[2], fd, argv[3], (int)num(argv[4]))));
	}
	if (!strcmp(op, "symlink") && argc == 3)
		return report(res(syscall(SYS_symlink, argv[1], argv[2])));
	if (!strcmp(op, "symlinkat") && argc == 4) {
		if ((fd = opendir_fd(argv[2])) < 0)
			return report(-errno);
		return report(res(syscall(SYS_symlinkat, argv[1], fd, argv[3])));
	}
	if (!strcmp(op, "unlink") && argc == 2)
		return report(res(syscall(SYS_unlink, argv[1])));
	if (!strcmp(op, "unlinkat") && argc == 4) {
		if ((fd = opendir_fd(argv[1])) < 0)
			return report(-errno);
		return report(res(syscall(SYS_unlinkat, fd, argv[2], (int)num(argv[3]))));
	}
	if (!strcmp(op, "rmdir") && argc == 2)
		return report(res(syscall(SYS_rmdir, argv[1])));
	if (!strcmp(op, "mkdir") && argc == 3)
		return report(res(syscall(SYS_mkdir, argv[1], (mode_t)num(argv[2]))));
	if (!strcmp(op, "mkdirat") && argc == 4) {
		if ((fd = opendir_fd(argv[1])) < 0)
			return report(-errno);
		return report(res(syscall(SYS_mkdirat, fd, argv[2], (mode_t)num(argv[3]))));
	}
	if (!strcmp(op, "chdir-chmod") && argc == 4) {
		if (chdir(argv[1]))
			return report(-errno);
		return report(res(syscall(SYS_chmod, argv[2], (mode_t)num(argv[3]))));
	}
	if (!strcmp(op, "chdir-mkdir") && argc == 4) {
		if (chdir(argv[1]))
			return report(-errno);
		return report(res(syscall(SYS_mkdir, argv[2], (mode_t)num(argv[3]))));
	}
	if (!strcmp(op, "chdir-fork-mkdir") && argc == 4) {
		/* the child inherits the cwd changed after exec */
		pid_t child;

		if (chdir(argv[1]))
			return report(-errno);
		child = fork();
		if (child == 0) {
			note("child", getpid());
			report(res(syscall(SYS_mkdir, argv[2], (mode_t)num(argv[3]))));
			_exit(0);
		}
		if (child < 0)
			return report(-errno);
		waitpid(child, NULL, 0);
		return 0;
	}
	if (!strcmp(op, "chdir-moved-mkdir") && argc == 5) {
		/* the cwd's directory is renamed away under the process */
		if (chdir(argv[1]) || rename(argv[1], argv[2]))
			return report(-errno);
		return report(res(syscall(SYS_mkdir, argv[3], (mode_t)num(argv[4]))));
	}
	if (!strcmp(op, "mknod") && argc == 3)
		return report(res(syscall(SYS_mknod, argv[1], S_IFIFO | (mode_t)num(argv[2]), 0)));
	if (!strcmp(op, "mknod-mode") && argc == 3) /* MODE with its type bits as given */
		return report(res(syscall(SYS_mknod, argv[1], (mode_t)num(argv[2]), 0)));
	if (!strcmp(op, "bind-unix") && argc == 2) { /* a unix socket bound at PATH: a file */
		struct sockaddr_un sun = { .sun_family = AF_UNIX };

		snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", argv[1]);
		if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) < 0)
			return report(-errno);
		return report(res(syscall(SYS_bind, fd, &sun, sizeof(sun))));
	}
	if (!strcmp(op, "mknod-chr") && argc == 4) /* PATH MAJOR MINOR, mode 0600 */
		return report(res(syscall(SYS_mknod, argv[1], S_IFCHR | 0600,
					  makedev((unsigned)num(argv[2]), (unsigned)num(argv[3])))));
	if (!strcmp(op, "mknod-chr-hi") && argc == 4) /* the mode's register upper half set */
		return report(res(syscall(SYS_mknod, argv[1], 0xdead00000000L | S_IFCHR | 0600,
					  makedev((unsigned)num(argv[2]), (unsigned)num(argv[3])))));
	if (!strcmp(op, "prctl-setname-hi") && argc == 2) /* the option's upper half set */
		return report(res(syscall(SYS_prctl, 0xdead00000000L | PR_SET_NAME, argv[1], 0UL, 0UL,
					  0UL)));
	if (!strcmp(op, "mknodat") && argc == 4) {
		if ((fd = opendir_fd(argv[1])) < 0)
			return report(-errno);
		return report(res(syscall(SYS_mknodat, fd, argv[2], S_IFIFO | (mode_t)num(argv[3]), 0)));
	}
	if (!strcmp(op, "chmod") && argc == 3)
		return report(res(syscall(SYS_chmod, argv[1], (mode_t)num(argv[2]))));
	if (!strcmp(op, "chmod-until") && argc == 5) {
		struct chmod_args a = {argv[1], (mode_t)num(argv[2])};

		return acts_until(argv[3], num(argv[4]), chmod_native, &a);
	}
	if (!strcmp(op, "chmod-paced") && argc == 5) {
		struct chmod_args a = {argv[1], (mode_t)num(argv[2])};

		return acts_until_paced(argv[3], num(argv[4]), 1, chmod_native, &a);
	}
	if (!strcmp(op, "fchmod") && argc == 3) {
		if ((fd = open(argv[1], O_RDONLY)) < 0)
			return report(-errno);
		note("fd", fd);
		return report(res(syscall(SYS_fchmod, fd, (mode_t)num(argv[2]))));
	}
	if (!strcmp(op, "fchmodat") && argc == 4) {
		if ((fd = opendir_fd(argv[1])) < 0)
			return report(-errno);
		return report(res(syscall(SYS_fchmodat, fd, argv[2], (mode_t)num(argv[3]))));
	}
	if (!strcmp(op, "fchmodat2") && argc == 5) {
		if ((fd = opendir_fd(argv[1])) < 0)
			return report(-errno);
		return report(res(syscall(SYS_fchmodat2, fd, argv[2], (mode_t)num(argv[3]),
					  (int)num(argv[4]))));
	}
	if ((!strcmp(op, "chown") || !strcmp(op, "lchown")) && argc == 4)
		return report(res(syscall(op[0] == 'l' ? SYS_lchown : SYS_chown, argv[1],
					  (uid_t)num(argv[2]), (gid_t)num(argv[3]))));
	if (!strcmp(op, "fchown") && argc == 4) {
		if ((fd = open(argv[1], O_RDONLY)) < 0)
			return report(-errno);
		note("fd", fd);
		return report(res(syscall(SYS_fchown, fd, (uid_t)num(argv[2]), (gid_t)num(argv[3]))));
	}
	if (!strcmp(op, "fchownat") && argc == 6) {
		if ((fd = opendir_fd(argv[1])) < 0)
			return report(-errno);
		return report(res(syscall(SYS_fchownat, fd, argv[2], (uid_t)num(argv[3]),
					  (gid_t)num(argv[4]), (int)num(argv[5]))));
	}
	if (!strcmp(op, "truncate") && argc == 3)
		return report(res(syscall(SYS_truncate, argv[1], (off_t)num(argv[2]))));
	if (!strcmp(op, "ftruncate") && argc == 3) {
		if ((fd = open(argv[1], O_WRONLY)) < 0)
			return report(-errno);
		note("fd", fd);
		return report(res(syscall(SYS_ftruncate, fd, (off_t)num(argv[2]))));
	}
	if (!strcmp(op, "setxattr") && argc == 4)
		return report(res(syscall(SYS_setxattr, argv[1], argv[2], argv[3], strlen(argv[3]), 0)));
	if ((!strcmp(op, "lsetxattr") || !strcmp(op, "fsetxattr")) && argc == 4) {
		if (op[0] == 'l')
			return report(res(syscall(SYS_lsetxattr, argv[1], argv[2], argv[3],
						  strlen(argv[3]), 0)));
		if ((fd = open(argv[1], O_RDONLY)) < 0)
			return report(-errno);
		note("fd", fd);
		return report(res(syscall(SYS_fsetxattr, fd, argv[2], argv[3], strlen(argv[3]), 0)));
	}
	if (!strcmp(op, "removexattr") && argc == 3)
		return report(res(syscall(SYS_removexattr, argv[1], argv[2])));
	if (!strcmp(op, "setxattrat") && argc == 6) {
		/* struct xattr_args (linux/xattr.h, newer than Debian 12's headers) */
		struct {
			uint64_t value;
			uint32_t size;
			uint32_t flags;
		} xa = { (uintptr_t)argv[4], (uint32_t)strlen(argv[4]), 0 };

		if ((fd = opendir_fd(argv[1])) < 0)
			return report(-errno);
		return report(res(syscall(ACTS_NR_SETXATTRAT, fd, argv[2], (unsigned)num(argv[5]),
					  argv[3], &xa, sizeof(xa))));
	}
	if (!strcmp(op, "removexattrat") && argc == 5) {
		if ((fd = opendir_fd(argv[1])) < 0)
			return report(-errno);
		return report(res(syscall(ACTS_NR_REMOVEXATTRAT, fd, argv[2], (unsigned)num(argv[4]),
					  argv[3])));
	}
	if (!strcmp(op, "utimes") && argc == 2)
		return report(res(syscall(SYS_utimes, argv[1], NULL)));
	if (!strcmp(op, "open_tree") && (argc == 2 || argc == 3))
		return report(res(syscall(SYS_open_tree, AT_FDCWD, argv[1],
					  OPEN_TREE_CLOEXEC | (argc == 3 ? (unsigned)num(argv[2]) : 0))));
	if (!strcmp(op, "utimensat") && argc == 3) {
		if ((fd = opendir_fd(argv[1])) < 0)
			return report(-errno);
		return report(res(syscall(SYS_utimensat, fd, argv[2], NULL, 0)));
	}
	if (!strcmp(op, "open_by_handle_at") && argc == 2) {
		union {
			struct file_handle fh;
			char bytes[sizeof(struct file_handle) + HANDLE_BYTES_MAX];
		} h;
		char dir[4096];
		const char *slash = strrchr(argv[1], '/');
		int mount_id;

		if (!slash || (size_t)(slash - argv[1]) >= sizeof(dir))
			return 2;
		memcpy(dir, argv[1], (size_t)(slash - argv[1]));
		dir[slash - argv[1]] = 0;
		h.fh.handle_bytes = HANDLE_BYTES_MAX;
		if (name_to_handle_at(AT_FDCWD, argv[1], &h.fh, &mount_id, 0))
			return report(-errno);
		if ((fd = opendir_fd(dir[0] ? dir : "/")) < 0)
			return report(-errno);
		return report(res(syscall(SYS_open_by_handle_at, fd, &h.fh, O_RDONLY)));
	}
	if (!strcmp(op, "open-trunc") && argc == 2)
		return report(res(syscall(SYS_openat, AT_FDCWD, argv[1], O_RDONLY | O_TRUNC, 0)));
	if (!strcmp(op, "descendant-oom") && argc == 2)
		return descendant_oom(atoi(argv[1]));
	if (!strcmp(op, "open-write") && argc == 2) /* opened for writing, nothing written */
		return report(res(syscall(SYS_openat, AT_FDCWD, argv[1], O_WRONLY, 0)));
	if (!strcmp(op, "open-rdwr") && argc == 2) /* a FIFO's open that waits for no reader */
		return report(res(syscall(SYS_openat, AT_FDCWD, argv[1], O_RDWR, 0)));
	if (!strcmp(op, "open-read") && argc == 2)
		return report(res(syscall(SYS_openat, AT_FDCWD, argv[1], O_RDONLY, 0)));
	if (!strcmp(op, "open-creat-ro") && argc == 2) /* read-only, made if missing */
		return report(res(syscall(SYS_openat, AT_FDCWD, argv[1], O_RDONLY | O_CREAT, 0644)));
	if (!strcmp(op, "open-creat") && argc == 3) /* written, made if missing, with MODE */
		return report(res(syscall(SYS_openat, AT_FDCWD, argv[1], O_WRONLY | O_CREAT,
					  (mode_t)num(argv[2]))));
	return -1;
}

struct thread_op {
	int argc;
	char **argv;
	int ret;
};

/* connect-rewritten: the second thread of a connect that waits */
struct rewrite_op {
	void *addr; /* the caller's sockaddr */
	const void *decoy;
	size_t len;
	int listener;
};

static void *rewrite_main(void *arg)
{
	struct rewrite_op *w = arg;
	struct timespec ts = { 0, 100 * 1000000L };

	nanosleep(&ts, NULL); /* the connect has its copy and waits */
	memcpy(w->addr, w->decoy, w->len);
	close(accept(w->listener, NULL, NULL)); /* room in the queue: it goes through */
	return NULL;
}

/* A listener at sa (backlog 0) whose queue one connection fills, then a
 * connect to it that waits while a second thread rewrites sa to decoy. */
static int connect_rewritten(int family, struct sockaddr *sa, const void *decoy, socklen_t len)
{
	struct rewrite_op w = { sa, decoy, len, socket(family, SOCK_STREAM, 0) };
	int first = socket(family, SOCK_STREAM, 0), fd = socket(family, SOCK_STREAM, 0);
	pthread_t th;
	long r;

	if (w.listener < 0 || first < 0 || fd < 0 || bind(w.listener, sa, len) ||
	    listen(w.listener, 0) || connect(first, sa, len))
		return report(-errno);
	if (pthread_create(&th, NULL, rewrite_main, &w))
		return report(-EAGAIN);
	r = res(syscall(SYS_connect, fd, sa, len));
	pthread_join(th, NULL);
	return report(r);
}

/* sendto-raced and kin: the second thread, flipping the destination's port */
#define RACED_MAX 200 /* the most datagrams */
struct port_flip {
	struct sockaddr_in *sa;
	uint16_t port[2]; /* network order */
	volatile unsigned flips;
	volatile int stop;
};

static void *port_flip_main(void *arg)
{
	struct port_flip *f = arg;
	volatile uint16_t *port = &f->sa->sin_port;

	for (unsigned k = 1; !f->stop; k ^= 1) {
		*port = f->port[k]; /* each for a few hundred ns: a send takes ~2 us */
		for (volatile int spin = 0; spin < 100; spin++)
			;
		f->flips++;
	}
	return NULL;
}

static int send_raced(const char *op, const char *ip, int n)
{
	static char data[RACED_MAX];
	struct mmsghdr mm[RACED_MAX];
	struct iovec iov[RACED_MAX];
	struct sockaddr_in sa[2], dst;
	struct port_flip flip = { .sa = &dst };
	int rx[2], tx = socket(AF_INET, SOCK_DGRAM, 0), big = 4 << 20, sent = 0;
	pthread_t th;

	if (n < 1 || n > RACED_MAX || tx < 0)
		return report(-EINVAL);
	for (int k = 0; k < 2; k++) {
		socklen_t len = sizeof(sa[k]);

		sin4(&sa[k], ip, "0");
		rx[k] = socket(AF_INET, SOCK_DGRAM, 0);
		if (rx[k] < 0 || bind(rx[k], (struct sockaddr *)&sa[k], sizeof(sa[k])) ||
		    getsockname(rx[k], (struct sockaddr *)&sa[k], &len))
			return report(-errno);
		setsockopt(rx[k], SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof(big));
		flip.port[k] = sa[k].sin_port;
	}
	dst = sa[0];
	for (int i = 0; i < n; i++) {
		iov[i] = (struct iovec){ data, (size_t)i + 1 };
		mm[i] = (struct mmsghdr){ .msg_hdr = { .msg_name = &dst, .msg_namelen = sizeof(dst),
						       .msg_iov = &iov[i], .msg_iovlen = 1 } };
	}
	if (pthread_create(&th, NULL, port_flip_main, &flip))
		return report(-EAGAIN);
	if (sysconf(_SC_NPROCESSORS_ONLN) > 1) { /* the two at once, not by turns */
		cpu_set_t one;

		CPU_ZERO(&one);
		CPU_SET(1, &one);
		pthread_setaffinity_np(th, sizeof(one), &one);
		CPU_ZERO(&one);
		CPU_SET(0, &one);
		sched_setaffinity(0, sizeof(one), &one);
	}
	while (flip.flips < 2)
		sched_yield();
	if (!strcmp(op, "sendmmsg-raced"))
		sent = (int)syscall(SYS_sendmmsg, tx, mm, n, 0);
	for (int i = 0; strcmp(op, "sendmmsg-raced") && i < n; i++) {
		unsigned f0 = flip.flips;

		sent += (!strcmp(op, "sendto-raced") ?
				 syscall(SYS_sendto, tx, data, i + 1, 0, &dst, sizeof(dst)) :
				 syscall(SYS_sendmsg, tx, &mm[i].msg_hdr, 0)) == i + 1;
		while (flip.flips == f0) /* the flipper runs between sends too */
			sched_yield();
	}
	flip.stop = 1;
	pthread_join(th, NULL);
	for (int k = 0; k < 2; k++) {
		ssize_t got;

		while ((got = recv(rx[k], data, sizeof(data), MSG_DONTWAIT)) > 0)
			printf("%zd %u\n", got, ntohs(sa[k].sin_port));
	}
	return report(sent);
}

static int net_race_op(int argc, char **argv)
{
	if (strstr(argv[0], "-raced") && argc == 3)
		return send_raced(argv[0], argv[1], atoi(argv[2]));
	if (!strcmp(argv[0], "connect-rewritten") && argc == 4) {
		struct sockaddr_in sin, decoy;

		sin4(&sin, argv[1], argv[2]);
		sin4(&decoy, argv[1], argv[3]);
		return connect_rewritten(AF_INET, (struct sockaddr *)&sin, &decoy, sizeof(sin));
	}
	if (!strcmp(argv[0], "connect6") && argc == 3) {
		struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6,
					     .sin6_port = htons((uint16_t)atoi(argv[2])) };
		int fd = socket(AF_INET6, SOCK_STREAM, 0);

		if (fd < 0 || inet_pton(AF_INET6, argv[1], &sin6.sin6_addr) != 1)
			return report(-EINVAL);
		return report(res(syscall(SYS_connect, fd, &sin6, sizeof(sin6))));
	}
	if (!strcmp(argv[0], "connect-rewritten-unix") && argc == 3) {
		struct sockaddr_un sun = { .sun_family = AF_UNIX }, decoy = { .sun_family = AF_UNIX };

		snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", argv[1]);
		snprintf(decoy.sun_path, sizeof(decoy.sun_path), "%s", argv[2]);
		unlink(argv[1]);
		return connect_rewritten(AF_UNIX, (struct sockaddr *)&sun, &decoy, sizeof(sun));
	}
	fprintf(stderr, "as-acts: %s: wrong arguments\n", argv[0]);
	return 2;
}

static int run(int argc, char **argv);

static void *thread_main(void *arg)
{
	struct thread_op *t = arg;

	printf("tid %ld\n", (long)syscall(SYS_gettid));
	t->ret = run(t->argc, t->argv);
	return NULL;
}

static int run(int argc, char **argv)
{
	const char *op = argv[0];
	int r;

	if (!strcmp(op, "as-user") && argc >= 3) {
		uid_t u = (uid_t)atoi(argv[1]);

		if (setgroups(0, NULL) || setgid(u) || setuid(u))
			return report(-errno);
		return run(argc - 2, argv + 2);
	}
	if (!strcmp(op, "keep-root") && argc >= 3) {
		uid_t u = (uid_t)atoi(argv[1]);

		if (setresuid(u, u, 0))
			return report(-errno);
		return run(argc - 2, argv + 2);
	}
	if ((!strcmp(op, "after-ms") || !strcmp(op, "then-ms")) && argc >= 3) {
		/* OP once N ms have passed since this process started, or OP and
		 * then N ms more alive (its mount namespace with it) */
		struct timespec ts = { .tv_sec = atol(argv[1]) / 1000,
				       .tv_nsec = atol(argv[1]) % 1000 * 1000000L };

		if (op[0] == 't') {
			r = run(argc - 2, argv + 2);
			nanosleep(&ts, NULL);
			return r;
		}
		nanosleep(&ts, NULL);
		return run(argc - 2, argv + 2);
	}
	if (!strcmp(op, "own-mntns") && argc >= 3) {
		if (unshare(CLONE_NEWNS) || chdir(argv[1]))
			return report(-errno);
		return run(argc - 2, argv + 2);
	}
	if (!strcmp(op, "thread") && argc >= 2) {
		/* OP in a second thread of this process */
		struct thread_op t = { argc - 1, argv + 1, 0 };
		pthread_t th;

		if (pthread_create(&th, NULL, thread_main, &t))
			return report(-EAGAIN);
		pthread_join(th, NULL);
		return t.ret;
	}
	if (!strcmp(op, "via-fd") && argc >= 4 && argc - 3 < FDARGS_MAX) {
		/* PATH opened O_PATH as descriptor N; OP with "{}" in its
		 * arguments spelled SPELLING N (SPELLING/N/...), then N closed at
		 * once: the monitor's walk after the call finds no such link */
		char *args[FDARGS_MAX], spelled[FDARGS_MAX][FDARG_LEN];
		int n = open(argv[1], O_PATH | O_CLOEXEC), k;

		if (n < 0)
			return report(-errno);
		for (k = 0; k < argc - 3; k++) {
			const char *a = argv[3 + k], *at = strstr(a, "{}");

			args[k] = argv[3 + k];
			if (!at)
				continue;
			snprintf(spelled[k], FDARG_LEN, "%.*s%s%d%s", (int)(at - a), a, argv[2], n,
				 at + 2);
			args[k] = spelled[k];
		}
		args[k] = NULL;
		r = run(argc - 3, args);
		close(n);
		return r;
	}
	if (!strcmp(op, "lchmod") && argc == 3) {
		/* glibc's fchmodat(AT_SYMLINK_NOFOLLOW): before Linux 6.6's
		 * fchmodat2 it opens O_PATH|O_NOFOLLOW, chmods /proc/self/fd/N
		 * and closes N */
		return report(res(fchmodat(AT_FDCWD, argv[1], (mode_t)num(argv[2]),
					   AT_SYMLINK_NOFOLLOW)));
	}
	if (!strcmp(op, "confined") && argc >= 2) {
		/* no_new_privs and an allow-everything seccomp filter, then OP */
		struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
		struct sock_fprog prog = { .len = 1, .filter = &allow };

		if (prctl(PR_SET_NO_NEW_PRIVS, 1UL, 0UL, 0UL, 0UL) ||
		    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog))
			return report(-errno);
		return run(argc - 1, argv + 1);
	}
	if (!strncmp(op, "uring-", 6))
		return uring_op(argc, argv);
	if (!strncmp(op, "connect", 7) || strstr(op, "-raced"))
		return net_race_op(argc, argv);
	if (!strncmp(op, "send", 4) || !strcmp(op, "bind4") || !strcmp(op, "listen4") ||
	    !strcmp(op, "accept4") || !strcmp(op, "socket") || !strncmp(op, "unix-", 5))
		return net_op(argc, argv);
	if (!strncmp(op, "host-", 5) && (r = host_op(argc, argv)) >= 0)
		return r;
	r = file_op(argc, argv);
	return r >= 0 ? r : priv_op(argc, argv);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: as-acts OP ARGS...\n");
		return 2;
	}
	return run(argc - 1, argv + 1);
}
