// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * as-ia32: the syscall driver of test_compat.py. Each operation makes exactly
 * one syscall through the 32-bit i386 ABI (int $0x80 from this 64-bit
 * process: the i386 numbers of <asm/unistd_32.h>, the arguments in ebx, ecx,
 * edx, esi, edi, ebp, the result in eax, sign-extended from 32 bits) and
 * prints its result on stdout, last: a number, or -errno. Set-up (opening a
 * dirfd, a socket, a private mount namespace, reading the capability sets) is
 * made with ordinary native calls; lines other than the result are
 * "NAME VALUE" (e.g. "dirfd 3", "sockfd 3"), as as-acts prints them.
 *
 * The kernel reads every pointer of an int $0x80 call as 32 bits: strings,
 * sockaddrs, arrays and the compat structures (msghdr, iovec, socketcall's
 * argument array) are copied into a MAP_32BIT mapping first.
 *
 * Numbers are parsed with strtoul base 0 (0755 octal, 0x10000000 hex); the
 * 16-bit id calls take the low 16 bits (0xffff is -1, as the kernel's
 * low2highuid reads it).
 *
 *   files:   open PATH FLAGS MODE | creat PATH MODE | openat DIR REL FLAGS MODE
 *            rename OLD NEW | renameat2 DIR OLDREL NEWREL FLAGS | unlink PATH
 *            unlinkat DIR REL FLAGS | mkdir PATH MODE | rmdir PATH | chmod PATH MODE
 *            chmod-loop PATH MODE N [GAP_US] (N chmods, GAP_US microseconds apart,
 *            spun, not slept; the result: how many failed)
 *            chmod-until PATH MODE STOPFILE GAP_US (chmods as chmod-loop until
 *            STOPFILE exists; prints "CALLS FAILED", as-acts' twin)
 *            chmod-paced PATH MODE STOPFILE GAP_US (the same, the gaps slept)
 *            chown16 PATH U G | chown32 PATH U G | symlink TARGET LINK | link OLD NEW
 *            truncate PATH LEN | chdir DIR
 *   credentials: setuid16 U | setuid32 U | setresuid16 R E S | setresuid32 R E S
 *            setfsuid32 U | setgroups32 G (one group) | capset-same (capget
 *            natively, then capset of the same sets)
 *   network: connect IP PORT (TCP) | socketcall-connect IP PORT (TCP)
 *            sendto IP PORT | socketcall-sendto IP PORT | sendmsg IP PORT (UDP,
 *            as-acts' payload "as-acts\n") | bind IP PORT (UDP)
 *            socket DOMAIN TYPE PROTO
 *            netlink-writev (in a network namespace of its own: writev of an
 *            RTM_GETLINK of lo, then an RTM_NEWADDR of 10.7.7.1/24 on it, on an
 *            rtnetlink socket; as-acts' netns-newaddr writev)
 *   isolation and other: unshare FLAGS | prctl-setname NAME | memfd_create NAME FLAGS
 *            mmap2-memfd | mprotect-memfd (a page of a memfd "as-code", made
 *            natively, mapped as code by mmap2 or by mprotect of a native
 *            MAP_32BIT read-only mapping; an address prints 0)
 *            tiocsti CHAR (ioctl(0, TIOCSTI) on stdin's terminal) | clone FLAGS | fork
 *            mount-tmpfs DIR (source "none", flags 0, in a private mount namespace)
 *            umount2 DIR FLAGS (of a tmpfs mounted natively as as-acts does, in a
 *            private mount namespace)
 *   probe:   exit 0 if this kernel takes int $0x80; else one line saying so, exit 77
 *            (a kernel with ia32 emulation off, or a hypervisor without it, such as
 *            PVM: the vector is not a user gate and the call is a general
 *            protection fault, SIGSEGV)
 */
#include <stdio.h>
#include <stdlib.h>

#if !defined(__x86_64__)

int main(void)
{
	fprintf(stderr, "as-ia32: x86_64 only\n");
	return 77;
}

#else /* __x86_64__ */

#include <arpa/inet.h>
#include <asm/unistd_32.h> /* __NR_*: the i386 numbers (no <sys/syscall.h>: its are x86_64's) */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "actsout.h"

#define PAYLOAD "as-acts\n" /* as-acts' datagram: the same act, the same result */
#define LOW_SIZE 65536	    /* the below-4-GiB arena: a few paths and structures */
#define SYS32_CONNECT 3	    /* linux/net.h: socketcall's calls */
#define SYS32_SENDTO 11
#define PR_SET_NAME_NR 15   /* linux/prctl.h */
#define TIOCSTI_NR 0x5412   /* asm-generic/ioctls.h: the same on i386 */
#define PAGE_BYTES 4096	    /* the page mmap2-memfd and mprotect-memfd make code */

/* glibc exports capget (GLIBC_2.2.5) but no header declares it */
extern int capget(cap_user_header_t header, cap_user_data_t data);

static char *low;
static size_t low_used;


/* one syscall through int $0x80; ebp is swapped in and out around it, so
 * neither the frame pointer nor the stack (the red zone) is touched. The
 * swap register is early-clobbered: without it, GCC may give it the register
 * of an input holding the same value (edx = 0 and ebp = 0: one register). */
static long sys32(unsigned nr, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4, uint32_t a5,
		  uint32_t a6)
{
	unsigned long ax = nr, bp = a6;

	__asm__ volatile("xchg %%rbp, %[bp]\n\t"
			 "int $0x80\n\t"
			 "xchg %%rbp, %[bp]"
			 : "+a"(ax), [bp] "+&r"(bp)
			 : "b"((unsigned long)a1), "c"((unsigned long)a2), "d"((unsigned long)a3),
			   "S"((unsigned long)a4), "D"((unsigned long)a5)
			 : "memory", "cc", "r8", "r9", "r10", "r11");
	return (long)(int32_t)(uint32_t)ax;
}

static long sys32_1(unsigned nr, uint32_t a1)
{
	return sys32(nr, a1, 0, 0, 0, 0, 0);
}

static long sys32_2(unsigned nr, uint32_t a1, uint32_t a2)
{
	return sys32(nr, a1, a2, 0, 0, 0, 0);
}

static long sys32_3(unsigned nr, uint32_t a1, uint32_t a2, uint32_t a3)
{
	return sys32(nr, a1, a2, a3, 0, 0, 0);
}

/* acts_until's call: ARGS = {path, mode} */
static long chmod32(const void *args)
{
	const uint32_t *a = args;

	return sys32_2(__NR_chmod, a[0], a[1]);
}

/* LEN bytes of the arena, zeroed; its address as the kernel reads it */
static uint32_t low_alloc(size_t len, void **p)
{
	size_t at = (low_used + 7) & ~(size_t)7;

	if (at + len > LOW_SIZE) {
		fprintf(stderr, "as-ia32: arena full\n");
		exit(2);
	}
	low_used = at + len;
	memset(low + at, 0, len);
	*p = low + at;
	return (uint32_t)(uintptr_t)(low + at);
}

static uint32_t low_copy(const void *src, size_t len)
{
	void *p;
	uint32_t a = low_alloc(len, &p);

	memcpy(p, src, len);
	return a;
}

/* busy-wait us microseconds: a sleep's timer slack (50 us) is too coarse */
static uint32_t low_str(const char *s)
{
	return low_copy(s, strlen(s) + 1);
}

static uint32_t low_sin4(const char *ip, const char *port)
{
	struct sockaddr_in sin;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)atoi(port));
	inet_pton(AF_INET, ip, &sin.sin_addr);
	return low_copy(&sin, sizeof(sin));
}

static int opendir_fd(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY);

	if (fd >= 0)
		note("dirfd", fd);
	return fd;
}

static int socket_fd(int type)
{
	int fd = socket(AF_INET, type, 0);

	if (fd >= 0)
		note("sockfd", fd);
	return fd;
}

/* a private mount namespace, so nothing this process mounts reaches the host */
static int private_mounts(void)
{
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return -errno;
	return 0;
}

static uint16_t id16(const char *s)
{
	return (uint16_t)num(s);
}

static int file_op(int argc, char **argv)
{
	const char *op = argv[0];
	int fd;

	if (!strcmp(op, "open") && argc == 4)
		return report(sys32_3(__NR_open, low_str(argv[1]), (uint32_t)num(argv[2]),
				      (uint32_t)num(argv[3])));
	if (!strcmp(op, "creat") && argc == 3)
		return report(sys32_2(__NR_creat, low_str(argv[1]), (uint32_t)num(argv[2])));
	if (!strcmp(op, "openat") && argc == 5) {
		if ((fd = opendir_fd(argv[1])) < 0)
			return report(-errno);
		return report(sys32(__NR_openat, (uint32_t)fd, low_str(argv[2]),
				    (uint32_t)num(argv[3]), (uint32_t)num(argv[4]), 0, 0));
	}
	if (!strcmp(op, "rename") && argc == 3)
		return report(sys32_2(__NR_rename, low_str(argv[1]), low_str(argv[2])));
	if (!strcmp(op, "renameat2") && argc == 5) {
		if ((fd = opendir_fd(argv[1])) < 0)
			return report(-errno);
		return report(sys32(__NR_renameat2, (uint32_t)fd, low_str(argv[2]), (uint32_t)fd,
				    low_str(argv[3]), (uint32_t)num(argv[4]), 0));
	}
	if (!strcmp(op, "unlink") && argc == 2)
		return report(sys32_1(__NR_unlink, low_str(argv[1])));
	if (!strcmp(op, "unlinkat") && argc == 4) {
		if ((fd = opendir_fd(argv[1])) < 0)
			return report(-errno);
		return report(sys32_3(__NR_unlinkat, (uint32_t)fd, low_str(argv[2]),
				      (uint32_t)num(argv[3])));
	}
	if (!strcmp(op, "mkdir") && argc == 3)
		return report(sys32_2(__NR_mkdir, low_str(argv[1]), (uint32_t)num(argv[2])));
	if (!strcmp(op, "rmdir") && argc == 2)
		return report(sys32_1(__NR_rmdir, low_str(argv[1])));
	if (!strcmp(op, "chmod") && argc == 3)
		return report(sys32_2(__NR_chmod, low_str(argv[1]), (uint32_t)num(argv[2])));
	if (!strcmp(op, "chmod-loop") && (argc == 4 || argc == 5)) {
		uint32_t path = low_str(argv[1]), mode = (uint32_t)num(argv[2]);
		unsigned long n = num(argv[3]), gap = argc == 5 ? num(argv[4]) : 0, failed = 0;

		while (n--) {
			failed += sys32_2(__NR_chmod, path, mode) != 0;
			spin_us(gap);
		}
		return report((long)failed);
	}
	if (!strcmp(op, "chmod-until") && argc == 5) {
		uint32_t args[2] = {low_str(argv[1]), (uint32_t)num(argv[2])};

		return acts_until(argv[3], num(argv[4]), chmod32, args);
	}
	if (!strcmp(op, "chmod-paced") && argc == 5) {
		uint32_t args[2] = {low_str(argv[1]), (uint32_t)num(argv[2])};

		return acts_until_paced(argv[3], num(argv[4]), 1, chmod32, args);
	}
	if (!strcmp(op, "chown16") && argc == 4) /* i386's chown: 16-bit ids */
		return report(sys32_3(__NR_chown, low_str(argv[1]), id16(argv[2]), id16(argv[3])));
	if (!strcmp(op, "chown32") && argc == 4)
		return report(sys32_3(__NR_chown32, low_str(argv[1]), (uint32_t)num(argv[2]),
				      (uint32_t)num(argv[3])));
	if (!strcmp(op, "symlink") && argc == 3)
		return report(sys32_2(__NR_symlink, low_str(argv[1]), low_str(argv[2])));
	if (!strcmp(op, "link") && argc == 3)
		return report(sys32_2(__NR_link, low_str(argv[1]), low_str(argv[2])));
	if (!strcmp(op, "truncate") && argc == 3) /* compat_off_t: 32 bits */
		return report(sys32_2(__NR_truncate, low_str(argv[1]), (uint32_t)num(argv[2])));
	if (!strcmp(op, "chdir") && argc == 2)
		return report(sys32_1(__NR_chdir, low_str(argv[1])));
	return -1;
}

static int cred_op(int argc, char **argv)
{
	const char *op = argv[0];

	if (!strcmp(op, "setuid16") && argc == 2)
		return report(sys32_1(__NR_setuid, id16(argv[1])));
	if (!strcmp(op, "setuid32") && argc == 2)
		return report(sys32_1(__NR_setuid32, (uint32_t)num(argv[1])));
	if (!strcmp(op, "setresuid16") && argc == 4)
		return report(sys32_3(__NR_setresuid, id16(argv[1]), id16(argv[2]), id16(argv[3])));
	if (!strcmp(op, "setresuid32") && argc == 4)
		return report(sys32_3(__NR_setresuid32, (uint32_t)num(argv[1]),
				      (uint32_t)num(argv[2]), (uint32_t)num(argv[3])));
	if (!strcmp(op, "setfsuid32") && argc == 2)
		return report(sys32_1(__NR_setfsuid32, (uint32_t)num(argv[1])));
	if (!strcmp(op, "setgroups32") && argc == 2) {
		uint32_t g = (uint32_t)num(argv[1]);

		return report(sys32_2(__NR_setgroups32, 1, low_copy(&g, sizeof(g))));
	}
	if (!strcmp(op, "capset-same") && argc == 1) {
		struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
		struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

		memset(d, 0, sizeof(d));
		if (capget(&h, d))
			return report(-errno);
		return report(sys32_2(__NR_capset, low_copy(&h, sizeof(h)), low_copy(d, sizeof(d))));
	}
	return -1;
}

/* netlink-writev: the messages as as-acts' netns-newaddr writev sends them */
static long netlink_writev32(void)
{
	struct {
		struct nlmsghdr n;
		struct ifinfomsg i;
	} get = { { sizeof(get), RTM_GETLINK, NLM_F_REQUEST, 0, 0 }, { 0 } };
	struct {
		struct nlmsghdr n;
		struct ifaddrmsg a;
		struct rtattr rta;
		unsigned char addr[4];
	} add = { { sizeof(add), RTM_NEWADDR,
		    NLM_F_REQUEST | NLM_F_CREATE | NLM_F_REPLACE | NLM_F_ACK, 0, 0 },
		  { AF_INET, 24, 0, 0, 0 }, { RTA_LENGTH(4), IFA_LOCAL }, { 10, 7, 7, 1 } };
	uint32_t iov[4];
	int fd;

	if (unshare(CLONE_NEWNET))
		return -errno;
	if ((fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE)) < 0)
		return -errno;
	get.i.ifi_index = (int)if_nametoindex("lo");
	add.a.ifa_index = (unsigned)get.i.ifi_index;
	/* compat_iovec: base, len */
	iov[0] = low_copy(&get, sizeof(get));
	iov[1] = sizeof(get);
	iov[2] = low_copy(&add, sizeof(add));
	iov[3] = sizeof(add);
	return sys32_3(__NR_writev, (uint32_t)fd, low_copy(iov, sizeof(iov)), 2);
}

static int net_op(int argc, char **argv)
{
	const char *op = argv[0];
	int fd;

	if (!strcmp(op, "netlink-writev") && argc == 1)
		return report(netlink_writev32());
	if (!strcmp(op, "socket") && argc == 4)
		return report(sys32_3(__NR_socket, (uint32_t)num(argv[1]), (uint32_t)num(argv[2]),
				      (uint32_t)num(argv[3])));
	if (argc != 3)
		return -1;
	if (!strcmp(op, "connect") || !strcmp(op, "socketcall-connect")) {
		uint32_t sin = low_sin4(argv[1], argv[2]);

		if ((fd = socket_fd(SOCK_STREAM)) < 0)
			return report(-errno);
		if (!strcmp(op, "connect"))
			return report(sys32_3(__NR_connect, (uint32_t)fd, sin,
					      sizeof(struct sockaddr_in)));
		uint32_t args[3] = { (uint32_t)fd, sin, sizeof(struct sockaddr_in) };

		return report(sys32_2(__NR_socketcall, SYS32_CONNECT, low_copy(args, sizeof(args))));
	}
	if (!strcmp(op, "sendto") || !strcmp(op, "socketcall-sendto") || !strcmp(op, "sendmsg")) {
		uint32_t sin = low_sin4(argv[1], argv[2]);
		uint32_t data = low_copy(PAYLOAD, sizeof(PAYLOAD) - 1);
		uint32_t len = sizeof(PAYLOAD) - 1;

		if ((fd = socket_fd(SOCK_DGRAM)) < 0)
			return report(-errno);
		if (!strcmp(op, "sendto"))
			return report(sys32(__NR_sendto, (uint32_t)fd, data, len, 0, sin,
					    sizeof(struct sockaddr_in)));
		if (!strcmp(op, "socketcall-sendto")) {
			uint32_t args[6] = { (uint32_t)fd, data, len, 0, sin,
					     sizeof(struct sockaddr_in) };

			return report(sys32_2(__NR_socketcall, SYS32_SENDTO,
					      low_copy(args, sizeof(args))));
		}
		/* compat_iovec { base, len }, compat_msghdr { name, namelen, iov,
		 * iovlen, control, controllen, flags }: all 32 bits */
		uint32_t iov[2] = { data, len };
		uint32_t msg[7] = { sin, sizeof(struct sockaddr_in), 0, 1, 0, 0, 0 };

		msg[2] = low_copy(iov, sizeof(iov));
		return report(sys32_3(__NR_sendmsg, (uint32_t)fd, low_copy(msg, sizeof(msg)), 0));
	}
	if (!strcmp(op, "bind")) {
		uint32_t sin = low_sin4(argv[1], argv[2]);

		if ((fd = socket_fd(SOCK_DGRAM)) < 0)
			return report(-errno);
		return report(sys32_3(__NR_bind, (uint32_t)fd, sin, sizeof(struct sockaddr_in)));
	}
	return -1;
}

/* getpid through int $0x80 in a child: a refused vector kills it with SIGSEGV */
static int probe(void)
{
	int status;
	pid_t pid = fork();

	if (pid < 0) {
		perror("as-ia32: fork");
		return 2;
	}
	if (!pid)
		_exit(sys32_1(__NR_getpid, 0) > 0 ? 0 : 1);
	if (waitpid(pid, &status, 0) < 0) {
		perror("as-ia32: waitpid");
		return 2;
	}
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	fprintf(stderr, "as-ia32: this kernel refuses 32-bit syscalls (int $0x80 %s)\n",
		WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "returned an error");
	return 77;
}

/* one page of a memfd named "as-code" (as-acts' map-code memfd), made natively */
static int memfd_code_page(void)
{
	int fd = memfd_create("as-code", 0);

	if (fd < 0 || ftruncate(fd, PAGE_BYTES))
		return -errno;
	return fd;
}

static int other_op(int argc, char **argv)
{
	const char *op = argv[0];
	int r;

	if (!strcmp(op, "unshare") && argc == 2)
		return report(sys32_1(__NR_unshare, (uint32_t)num(argv[1])));
	if (!strcmp(op, "tiocsti") && argc == 2) /* CHAR queued on stdin's terminal */
		return report(sys32_3(__NR_ioctl, 0, TIOCSTI_NR, low_str(argv[1])));
	if (!strcmp(op, "prctl-setname") && argc == 2)
		return report(sys32(__NR_prctl, PR_SET_NAME_NR, low_str(argv[1]), 0, 0, 0, 0));
	if (!strcmp(op, "memfd_create") && argc == 3)
		return report(sys32_2(__NR_memfd_create, low_str(argv[1]), (uint32_t)num(argv[2])));
	if (!strcmp(op, "mmap2-memfd") && argc == 1) { /* a page of memfd "as-code" made code */
		int fd = memfd_code_page();
		long m;

		if (fd < 0)
			return report(fd);
		m = sys32(__NR_mmap2, 0, PAGE_BYTES, PROT_READ | PROT_EXEC, MAP_PRIVATE, (uint32_t)fd, 0);
		return report(m < 0 && m >= -4095 ? m : 0); /* an address prints 0 */
	}
	if (!strcmp(op, "mprotect-memfd") && argc == 1) { /* the same, mapped first without exec */
		int fd = memfd_code_page();
		void *p;

		if (fd < 0)
			return report(fd);
		p = mmap(NULL, PAGE_BYTES, PROT_READ, MAP_PRIVATE | MAP_32BIT, fd, 0);
		if (p == MAP_FAILED)
			return report(-errno);
		return report(sys32_3(__NR_mprotect, (uint32_t)(uintptr_t)p, PAGE_BYTES,
				      PROT_READ | PROT_EXEC));
	}
	if (!strcmp(op, "mount-tmpfs") && argc == 2) {
		if ((r = private_mounts()))
			return report(r);
		return report(sys32(__NR_mount, low_str("none"), low_str(argv[1]), low_str("tmpfs"),
				    0, 0, 0));
	}
	/* i386's clone: flags first (CLONE_BACKWARDS), no new stack: the child
	 * returns from int $0x80 like a fork's and leaves at once */
	if ((!strcmp(op, "clone") && argc == 2) || (!strcmp(op, "fork") && argc == 1)) {
		long child = !strcmp(op, "fork") ? sys32(__NR_fork, 0, 0, 0, 0, 0, 0)
						 : sys32_2(__NR_clone, (uint32_t)num(argv[1]) | SIGCHLD, 0);

		if (child == 0)
			_exit(0);
		r = report(child);
		if (child > 0)
			waitpid((pid_t)child, NULL, 0);
		return r;
	}
	if (!strcmp(op, "umount2") && argc == 3) {
		r = private_mounts();
		if (r || mount("as-acts", argv[1], "tmpfs", 0, "size=1m"))
			return report(r ? r : -errno);
		return report(sys32_2(__NR_umount2, low_str(argv[1]), (uint32_t)num(argv[2])));
	}
	return -1;
}

int main(int argc, char **argv)
{
	int r;

	if (argc < 2) {
		fprintf(stderr, "usage: as-ia32 OP ARGS...\n");
		return 2;
	}
	low = mmap(NULL, LOW_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT,
		   -1, 0);
	if (low == MAP_FAILED || (uintptr_t)low + LOW_SIZE > UINT32_MAX) {
		fprintf(stderr, "as-ia32: no memory below 4 GiB\n");
		return 2;
	}
	argc--;
	argv++;
	if (!strcmp(argv[0], "probe") && argc == 1)
		return probe();
	if ((r = file_op(argc, argv)) >= 0 || (r = cred_op(argc, argv)) >= 0 ||
	    (r = net_op(argc, argv)) >= 0 || (r = other_op(argc, argv)) >= 0)
		return r;
	fprintf(stderr, "as-ia32: unknown operation or arguments: %s\n", argv[0]);
	return 2;
}

#endif /* __x86_64__ */
