// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Syscall argument values by name, as Falco prints them (falcosecurity/libs
 * driver/flags_table.c): flag sets as their names joined by '|' in table
 * order, enumerations as their one name; the number when nothing matches.
 */
#include <fcntl.h>
#include <linux/reboot.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "sctable.h"
#include "trace.h"

struct flagname {
	uint64_t v;
	const char *name;
};

#define FN(v, n) { v, n }
#define NFLAGS(t) (sizeof(t) / sizeof(t[0]))

static const struct flagname clone_flags[] = {
	FN(0x00000400, "CLONE_FILES"),	  FN(0x00000200, "CLONE_FS"),
	FN(0x80000000, "CLONE_IO"),	  FN(0x08000000, "CLONE_NEWIPC"),
	FN(0x40000000, "CLONE_NEWNET"),	  FN(0x00020000, "CLONE_NEWNS"),
	FN(0x20000000, "CLONE_NEWPID"),	  FN(0x04000000, "CLONE_NEWUTS"),
	FN(0x00008000, "CLONE_PARENT"),	  FN(0x00100000, "CLONE_PARENT_SETTID"),
	FN(0x00002000, "CLONE_PTRACE"),	  FN(0x00000800, "CLONE_SIGHAND"),
	FN(0x00040000, "CLONE_SYSVSEM"),  FN(0x00010000, "CLONE_THREAD"),
	FN(0x00800000, "CLONE_UNTRACED"), FN(0x00000100, "CLONE_VM"),
	FN(0x10000000, "CLONE_NEWUSER"),  FN(0x00200000, "CLONE_CHILD_CLEARTID"),
	FN(0x01000000, "CLONE_CHILD_SETTID"), FN(0x00080000, "CLONE_SETTLS"),
	FN(0x00004000, "CLONE_VFORK"),	  FN(0x02000000, "CLONE_NEWCGROUP"),
	/* not in Falco's table: */
	FN(0x00000080, "CLONE_NEWTIME"),  FN(0x00001000, "CLONE_PIDFD"),
	FN(0x200000000, "CLONE_INTO_CGROUP"),
};

static const struct flagname rename_flags[] = {
	FN(1, "RENAME_NOREPLACE"), FN(2, "RENAME_EXCHANGE"), FN(4, "RENAME_WHITEOUT"),
};

static const struct flagname at_flags[] = {
	FN(0x100, "AT_SYMLINK_NOFOLLOW"), FN(0x200, "AT_REMOVEDIR"), FN(0x400, "AT_SYMLINK_FOLLOW"),
	FN(0x800, "AT_NO_AUTOMOUNT"),	  FN(0x1000, "AT_EMPTY_PATH"),
};

static const struct flagname mount_flags[] = {
	FN(1, "RDONLY"),	  FN(2, "NOSUID"),	   FN(4, "NODEV"),
	FN(8, "NOEXEC"),	  FN(16, "SYNCHRONOUS"),   FN(32, "REMOUNT"),
	FN(64, "MANDLOCK"),	  FN(128, "DIRSYNC"),	   FN(1024, "NOATIME"),
	FN(2048, "NODIRATIME"),	  FN(4096, "BIND"),	   FN(8192, "MOVE"),
	FN(16384, "REC"),	  FN(32768, "SILENT"),	   FN(1 << 16, "POSIXACL"),
	FN(1 << 17, "UNBINDABLE"), FN(1 << 18, "PRIVATE"), FN(1 << 19, "SLAVE"),
	FN(1 << 20, "SHARED"),	  FN(1 << 21, "RELATIME"), FN(1 << 22, "KERNMOUNT"),
	FN(1 << 23, "I_VERSION"), FN(1 << 24, "STRICTATIME"), FN(1 << 25, "LAZYTIME"),
};

static const struct flagname umount_flags[] = {
	FN(1, "FORCE"), FN(2, "DETACH"), FN(4, "EXPIRE"), FN(8, "NOFOLLOW"),
};

static const struct flagname memfd_flags[] = {
	FN(1, "MFD_CLOEXEC"), FN(2, "MFD_ALLOW_SEALING"), FN(4, "MFD_HUGETLB"),
	FN(8, "MFD_NOEXEC_SEAL"), FN(16, "MFD_EXEC"),
};

static const struct flagname prot_flags[] = {
	FN(1, "PROT_READ"), FN(2, "PROT_WRITE"), FN(4, "PROT_EXEC"), FN(8, "PROT_SEM"),
	FN(0x01000000, "PROT_GROWSDOWN"), FN(0x02000000, "PROT_GROWSUP"),
};

static const struct flagname mmap_flags[] = {
	FN(0x01, "MAP_SHARED"),	     FN(0x02, "MAP_PRIVATE"),	  FN(0x10, "MAP_FIXED"),
	FN(0x20, "MAP_ANONYMOUS"),   FN(0x40, "MAP_32BIT"),	  FN(0x100, "MAP_GROWSDOWN"),
	FN(0x800, "MAP_DENYWRITE"),  FN(0x1000, "MAP_EXECUTABLE"), FN(0x2000, "MAP_LOCKED"),
	FN(0x4000, "MAP_NORESERVE"), FN(0x8000, "MAP_POPULATE"),  FN(0x10000, "MAP_NONBLOCK"),
	FN(0x20000, "MAP_STACK"),    FN(0x40000, "MAP_HUGETLB"),  FN(0x80000, "MAP_SYNC"),
	FN(0x100000, "MAP_FIXED_NOREPLACE"),
};

static const struct flagname uring_setup_flags[] = {
	FN(1, "IORING_SETUP_IOPOLL"),	 FN(2, "IORING_SETUP_SQPOLL"),
	FN(4, "IORING_SETUP_SQ_AFF"),	 FN(8, "IORING_SETUP_CQSIZE"),
	FN(16, "IORING_SETUP_CLAMP"),	 FN(32, "IORING_SETUP_ATTACH_WQ"),
	FN(64, "IORING_SETUP_R_DISABLED"), FN(128, "IORING_SETUP_SUBMIT_ALL"),
	FN(256, "IORING_SETUP_COOP_TASKRUN"), FN(512, "IORING_SETUP_TASKRUN_FLAG"),
	FN(1024, "IORING_SETUP_SQE128"), FN(2048, "IORING_SETUP_CQE32"),
	FN(4096, "IORING_SETUP_SINGLE_ISSUER"), FN(8192, "IORING_SETUP_DEFER_TASKRUN"),
	FN(16384, "IORING_SETUP_NO_MMAP"), FN(32768, "IORING_SETUP_REGISTERED_FD_ONLY"),
	FN(65536, "IORING_SETUP_NO_SQARRAY"),
};

static const struct flagname msg_flags[] = {
	FN(1, "MSG_OOB"),	 FN(4, "MSG_DONTROUTE"), FN(0x40, "MSG_DONTWAIT"),
	FN(0x80, "MSG_EOR"),	 FN(0x800, "MSG_CONFIRM"), FN(0x4000, "MSG_NOSIGNAL"),
	FN(0x8000, "MSG_MORE"),	 FN(0x4000000, "MSG_ZEROCOPY"), FN(0x20000000, "MSG_FASTOPEN"),
};

/* enumerations: exactly one value */
static const struct flagname ptrace_requests[] = {
	FN(0, "PTRACE_TRACEME"),     FN(1, "PTRACE_PEEKTEXT"),	  FN(2, "PTRACE_PEEKDATA"),
	FN(3, "PTRACE_PEEKUSR"),     FN(4, "PTRACE_POKETEXT"),	  FN(5, "PTRACE_POKEDATA"),
	FN(6, "PTRACE_POKEUSR"),     FN(7, "PTRACE_CONT"),	  FN(8, "PTRACE_KILL"),
	FN(9, "PTRACE_SINGLESTEP"),  FN(12, "PTRACE_GETREGS"),	  FN(13, "PTRACE_SETREGS"),
	FN(14, "PTRACE_GETFPREGS"),  FN(15, "PTRACE_SETFPREGS"),  FN(16, "PTRACE_ATTACH"),
	FN(17, "PTRACE_DETACH"),     FN(18, "PTRACE_GETFPXREGS"), FN(19, "PTRACE_SETFPXREGS"),
	FN(24, "PTRACE_SYSCALL"),    FN(0x4200, "PTRACE_SETOPTIONS"),
	FN(0x4201, "PTRACE_GETEVENTMSG"), FN(0x4202, "PTRACE_GETSIGINFO"),
	FN(0x4203, "PTRACE_SETSIGINFO"), FN(0x4204, "PTRACE_GETREGSET"),
	FN(0x4205, "PTRACE_SETREGSET"), FN(0x4206, "PTRACE_SEIZE"),
	FN(0x4207, "PTRACE_INTERRUPT"), FN(0x4208, "PTRACE_LISTEN"),
	FN(0x4209, "PTRACE_PEEKSIGINFO"), FN(0x420a, "PTRACE_GETSIGMASK"),
	FN(0x420b, "PTRACE_SETSIGMASK"),
};

static const struct flagname prctl_options[] = {
	FN(1, "PR_SET_PDEATHSIG"),   FN(3, "PR_GET_DUMPABLE"),	FN(4, "PR_SET_DUMPABLE"),
	FN(7, "PR_GET_KEEPCAPS"),    FN(8, "PR_SET_KEEPCAPS"),	FN(15, "PR_SET_NAME"),
	FN(16, "PR_GET_NAME"),	     FN(21, "PR_GET_SECCOMP"),	FN(22, "PR_SET_SECCOMP"),
	FN(23, "PR_CAPBSET_READ"),   FN(24, "PR_CAPBSET_DROP"),	FN(27, "PR_GET_SECUREBITS"),
	FN(28, "PR_SET_SECUREBITS"), FN(33, "PR_MCE_KILL"),	FN(35, "PR_SET_MM"),
	FN(36, "PR_SET_CHILD_SUBREAPER"), FN(37, "PR_GET_CHILD_SUBREAPER"),
	FN(38, "PR_SET_NO_NEW_PRIVS"), FN(39, "PR_GET_NO_NEW_PRIVS"),
	FN(40, "PR_GET_TID_ADDRESS"), FN(41, "PR_SET_THP_DISABLE"), FN(42, "PR_GET_THP_DISABLE"),
	FN(47, "PR_CAP_AMBIENT"),    FN(0x59616d61, "PR_SET_PTRACER"),
};

static const struct flagname families[] = {
	FN(0, "AF_UNSPEC"),   FN(1, "AF_UNIX"),	     FN(2, "AF_INET"),	    FN(3, "AF_AX25"),
	FN(4, "AF_IPX"),      FN(5, "AF_APPLETALK"), FN(6, "AF_NETROM"),    FN(7, "AF_BRIDGE"),
	FN(8, "AF_ATMPVC"),   FN(9, "AF_X25"),	     FN(10, "AF_INET6"),    FN(11, "AF_ROSE"),
	FN(12, "AF_DECnet"),  FN(13, "AF_NETBEUI"),  FN(14, "AF_SECURITY"), FN(15, "AF_KEY"),
	FN(16, "AF_NETLINK"), FN(17, "AF_PACKET"),   FN(18, "AF_ASH"),	    FN(19, "AF_ECONET"),
	FN(20, "AF_ATMSVC"),  FN(21, "AF_RDS"),	     FN(22, "AF_SNA"),	    FN(23, "AF_IRDA"),
	FN(24, "AF_PPPOX"),   FN(25, "AF_WANPIPE"),  FN(26, "AF_LLC"),	    FN(27, "AF_IB"),
	FN(28, "AF_MPLS"),    FN(29, "AF_CAN"),	     FN(30, "AF_TIPC"),	    FN(31, "AF_BLUETOOTH"),
	FN(32, "AF_IUCV"),    FN(33, "AF_RXRPC"),    FN(34, "AF_ISDN"),	    FN(35, "AF_PHONET"),
	FN(36, "AF_IEEE802154"), FN(37, "AF_CAIF"),  FN(38, "AF_ALG"),	    FN(39, "AF_NFC"),
	FN(40, "AF_VSOCK"),   FN(41, "AF_KCM"),	     FN(42, "AF_QIPCRTR"),  FN(43, "AF_SMC"),
	FN(44, "AF_XDP"),     FN(45, "AF_MCTP"),
};

static const struct flagname socktypes[] = {
	FN(1, "SOCK_STREAM"), FN(2, "SOCK_DGRAM"), FN(3, "SOCK_RAW"), FN(4, "SOCK_RDM"),
	FN(5, "SOCK_SEQPACKET"), FN(6, "SOCK_DCCP"), FN(10, "SOCK_PACKET"),
};

static const struct flagname bpf_cmds[] = {
	FN(0, "BPF_MAP_CREATE"),      FN(1, "BPF_MAP_LOOKUP_ELEM"), FN(2, "BPF_MAP_UPDATE_ELEM"),
	FN(3, "BPF_MAP_DELETE_ELEM"), FN(4, "BPF_MAP_GET_NEXT_KEY"), FN(5, "BPF_PROG_LOAD"),
	FN(6, "BPF_OBJ_PIN"),	      FN(7, "BPF_OBJ_GET"),	    FN(8, "BPF_PROG_ATTACH"),
	FN(9, "BPF_PROG_DETACH"),     FN(10, "BPF_PROG_TEST_RUN"),  FN(11, "BPF_PROG_GET_NEXT_ID"),
	FN(12, "BPF_MAP_GET_NEXT_ID"), FN(13, "BPF_PROG_GET_FD_BY_ID"),
	FN(14, "BPF_MAP_GET_FD_BY_ID"), FN(15, "BPF_OBJ_GET_INFO_BY_FD"),
	FN(16, "BPF_PROG_QUERY"),     FN(17, "BPF_RAW_TRACEPOINT_OPEN"), FN(18, "BPF_BTF_LOAD"),
	FN(19, "BPF_BTF_GET_FD_BY_ID"), FN(20, "BPF_TASK_FD_QUERY"),
	FN(28, "BPF_LINK_CREATE"),    FN(29, "BPF_LINK_UPDATE"),
};

/* Netlink message types by (netlink family << 16) | nlmsg_type: rtnetlink's
 * (NETLINK_ROUTE, 0: include/uapi/linux/rtnetlink.h; a GET's type is 2 mod 4
 * and reads, the others change the host's network) and nfnetlink's batch
 * markers (NETLINK_NETFILTER, 12: every nftables change is a batch). */
#define NLMSG(fam, type) (((uint64_t)(fam) << 16) | (type))
static const struct flagname nlmsg_types[] = {
	FN(NLMSG(0, 16), "RTM_NEWLINK"),    FN(NLMSG(0, 17), "RTM_DELLINK"),
	FN(NLMSG(0, 18), "RTM_GETLINK"),    FN(NLMSG(0, 19), "RTM_SETLINK"),
	FN(NLMSG(0, 20), "RTM_NEWADDR"),    FN(NLMSG(0, 21), "RTM_DELADDR"),
	FN(NLMSG(0, 22), "RTM_GETADDR"),    FN(NLMSG(0, 24), "RTM_NEWROUTE"),
	FN(NLMSG(0, 25), "RTM_DELROUTE"),   FN(NLMSG(0, 26), "RTM_GETROUTE"),
	FN(NLMSG(0, 28), "RTM_NEWNEIGH"),   FN(NLMSG(0, 29), "RTM_DELNEIGH"),
	FN(NLMSG(0, 30), "RTM_GETNEIGH"),   FN(NLMSG(0, 32), "RTM_NEWRULE"),
	FN(NLMSG(0, 33), "RTM_DELRULE"),    FN(NLMSG(0, 34), "RTM_GETRULE"),
	FN(NLMSG(0, 36), "RTM_NEWQDISC"),   FN(NLMSG(0, 37), "RTM_DELQDISC"),
	FN(NLMSG(0, 38), "RTM_GETQDISC"),   FN(NLMSG(0, 40), "RTM_NEWTCLASS"),
	FN(NLMSG(0, 41), "RTM_DELTCLASS"),  FN(NLMSG(0, 42), "RTM_GETTCLASS"),
	FN(NLMSG(0, 44), "RTM_NEWTFILTER"), FN(NLMSG(0, 45), "RTM_DELTFILTER"),
	FN(NLMSG(0, 46), "RTM_GETTFILTER"), FN(NLMSG(0, 68), "RTM_NEWNSID"),
	FN(NLMSG(0, 69), "RTM_DELNSID"),    FN(NLMSG(0, 70), "RTM_GETNSID"),
	FN(NLMSG(0, 104), "RTM_NEWNEXTHOP"), FN(NLMSG(0, 105), "RTM_DELNEXTHOP"),
	FN(NLMSG(0, 106), "RTM_GETNEXTHOP"),
	FN(NLMSG(12, 0x10), "NFNL_MSG_BATCH_BEGIN"), FN(NLMSG(12, 0x11), "NFNL_MSG_BATCH_END"),
	/* nftables (NFNL_SUBSYS_NFTABLES 10 << 8 | NFT_MSG_*) */
	FN(NLMSG(12, 0xa00), "NFT_MSG_NEWTABLE"),  FN(NLMSG(12, 0xa01), "NFT_MSG_GETTABLE"),
	FN(NLMSG(12, 0xa02), "NFT_MSG_DELTABLE"),  FN(NLMSG(12, 0xa03), "NFT_MSG_NEWCHAIN"),
	FN(NLMSG(12, 0xa04), "NFT_MSG_GETCHAIN"),  FN(NLMSG(12, 0xa05), "NFT_MSG_DELCHAIN"),
	FN(NLMSG(12, 0xa06), "NFT_MSG_NEWRULE"),   FN(NLMSG(12, 0xa07), "NFT_MSG_GETRULE"),
	FN(NLMSG(12, 0xa08), "NFT_MSG_DELRULE"),   FN(NLMSG(12, 0xa09), "NFT_MSG_NEWSET"),
	FN(NLMSG(12, 0xa0a), "NFT_MSG_GETSET"),	   FN(NLMSG(12, 0xa0b), "NFT_MSG_DELSET"),
	FN(NLMSG(12, 0xa0c), "NFT_MSG_NEWSETELEM"), FN(NLMSG(12, 0xa0d), "NFT_MSG_GETSETELEM"),
	FN(NLMSG(12, 0xa0e), "NFT_MSG_DELSETELEM"), FN(NLMSG(12, 0xa10), "NFT_MSG_GETGEN"),
	FN(NLMSG(12, 0xa12), "NFT_MSG_NEWOBJ"),	   FN(NLMSG(12, 0xa13), "NFT_MSG_GETOBJ"),
	FN(NLMSG(12, 0xa14), "NFT_MSG_DELOBJ"),	   FN(NLMSG(12, 0xa16), "NFT_MSG_NEWFLOWTABLE"),
	FN(NLMSG(12, 0xa17), "NFT_MSG_GETFLOWTABLE"), FN(NLMSG(12, 0xa18), "NFT_MSG_DELFLOWTABLE"),
	FN(NLMSG(12, 0xa1a), "NFT_MSG_DESTROYTABLE"), FN(NLMSG(12, 0xa1b), "NFT_MSG_DESTROYCHAIN"),
	FN(NLMSG(12, 0xa1c), "NFT_MSG_DESTROYRULE"), FN(NLMSG(12, 0xa1d), "NFT_MSG_DESTROYSET"),
	FN(NLMSG(12, 0xa1e), "NFT_MSG_DESTROYSETELEM"), FN(NLMSG(12, 0xa1f), "NFT_MSG_DESTROYOBJ"),
	FN(NLMSG(12, 0xa20), "NFT_MSG_DESTROYFLOWTABLE"),
	/* xfrm (NETLINK_XFRM, 6): IPsec states and policies */
	FN(NLMSG(6, 0x10), "XFRM_MSG_NEWSA"),	   FN(NLMSG(6, 0x11), "XFRM_MSG_DELSA"),
	FN(NLMSG(6, 0x12), "XFRM_MSG_GETSA"),	   FN(NLMSG(6, 0x13), "XFRM_MSG_NEWPOLICY"),
	FN(NLMSG(6, 0x14), "XFRM_MSG_DELPOLICY"),  FN(NLMSG(6, 0x15), "XFRM_MSG_GETPOLICY"),
	FN(NLMSG(6, 0x19), "XFRM_MSG_UPDPOLICY"),  FN(NLMSG(6, 0x1a), "XFRM_MSG_UPDSA"),
	FN(NLMSG(6, 0x1c), "XFRM_MSG_FLUSHSA"),	   FN(NLMSG(6, 0x1d), "XFRM_MSG_FLUSHPOLICY"),
	/* audit (NETLINK_AUDIT, 9: include/uapi/linux/audit.h): its settings
	 * (enabled, failure mode, the daemon's pid, rate and backlog limits),
	 * its rules, tty auditing */
	FN(NLMSG(9, 1000), "AUDIT_GET"),	   FN(NLMSG(9, 1001), "AUDIT_SET"),
	FN(NLMSG(9, 1003), "AUDIT_ADD"),	   FN(NLMSG(9, 1004), "AUDIT_DEL"),
	FN(NLMSG(9, 1005), "AUDIT_USER"),	   FN(NLMSG(9, 1010), "AUDIT_SIGNAL_INFO"),
	FN(NLMSG(9, 1011), "AUDIT_ADD_RULE"),	   FN(NLMSG(9, 1012), "AUDIT_DEL_RULE"),
	FN(NLMSG(9, 1013), "AUDIT_LIST_RULES"),   FN(NLMSG(9, 1014), "AUDIT_TRIM"),
	FN(NLMSG(9, 1015), "AUDIT_MAKE_EQUIV"),   FN(NLMSG(9, 1016), "AUDIT_TTY_GET"),
	FN(NLMSG(9, 1017), "AUDIT_TTY_SET"),	   FN(NLMSG(9, 1018), "AUDIT_SET_FEATURE"),
	FN(NLMSG(9, 1019), "AUDIT_GET_FEATURE"),
};

/* The audit messages that change its state (NETLINK_AUDIT): the SETs, the
 * old and new rule calls, a tree trimmed, a watch made equivalent. */
static const uint16_t audit_changes[] = { 1001, 1003, 1004, 1011, 1012, 1014, 1015, 1017, 1018 };

/* The GETs of nftables (NFNL_SUBSYS_NFTABLES 10 << 8 | NFT_MSG_*, Linux
 * 6.18): they read; every other message of the subsystem changes. */
static const uint8_t nft_reads[] = { 1, 4, 7, 10, 13, 16, 17, 19, 21, 23, 25, 33 };

#define NETLINK_ROUTE_FAM 0
#define NETLINK_XFRM_FAM 6
#define NETLINK_AUDIT_FAM 9
#define NETLINK_NETFILTER_FAM 12
#define NFNL_SUBSYS_CTNETLINK 1
#define NFNL_SUBSYS_CTNETLINK_EXP 2
#define NFNL_SUBSYS_NFTABLES 10

int sctable_nlmsg_change(unsigned family, unsigned type)
{
	unsigned subsys = type >> 8, msg = type & 0xff;

	switch (family) {
	case NETLINK_ROUTE_FAM: /* RTM_NEW*, RTM_DEL*, RTM_SET*: a GET is 2 mod 4 */
		return type >= 16 && (type & 3) != 2;
	case NETLINK_XFRM_FAM: /* XFRM_MSG_*: its GETs */
		return type >= 0x10 && type != 0x12 && type != 0x15 && type != 0x1f &&
		       type != 0x23 && type != 0x25 && type != 0x28;
	case NETLINK_AUDIT_FAM:
		for (size_t i = 0; i < sizeof(audit_changes) / sizeof(audit_changes[0]); i++)
			if (type == audit_changes[i])
				return 1;
		return 0;
	case NETLINK_NETFILTER_FAM:
		if (subsys == NFNL_SUBSYS_NFTABLES) {
			for (size_t i = 0; i < sizeof(nft_reads); i++)
				if (msg == nft_reads[i])
					return 0;
			return 1;
		}
		/* conntrack entries and expectations: NEW 0, DELETE 2 */
		return (subsys == NFNL_SUBSYS_CTNETLINK || subsys == NFNL_SUBSYS_CTNETLINK_EXP) &&
		       (msg == 0 || msg == 2);
	default:
		return 0;
	}
}

/* io_uring's opcodes (enum io_uring_op, Linux 6.18), by number */
static const char *const uring_ops[] = {
	"NOP", "READV", "WRITEV", "FSYNC", "READ_FIXED", "WRITE_FIXED", "POLL_ADD", "POLL_REMOVE",
	"SYNC_FILE_RANGE", "SENDMSG", "RECVMSG", "TIMEOUT", "TIMEOUT_REMOVE", "ACCEPT",
	"ASYNC_CANCEL", "LINK_TIMEOUT", "CONNECT", "FALLOCATE", "OPENAT", "CLOSE", "FILES_UPDATE",
	"STATX", "READ", "WRITE", "FADVISE", "MADVISE", "SEND", "RECV", "OPENAT2", "EPOLL_CTL",
	"SPLICE", "PROVIDE_BUFFERS", "REMOVE_BUFFERS", "TEE", "SHUTDOWN", "RENAMEAT", "UNLINKAT",
	"MKDIRAT", "SYMLINKAT", "LINKAT", "MSG_RING", "FSETXATTR", "SETXATTR", "FGETXATTR",
	"GETXATTR", "SOCKET", "URING_CMD", "SEND_ZC", "SENDMSG_ZC", "READ_MULTISHOT", "WAITID",
	"FUTEX_WAIT", "FUTEX_WAKE", "FUTEX_WAITV", "FIXED_FD_INSTALL", "FTRUNCATE", "BIND",
	"LISTEN", "RECV_ZC", "EPOLL_WAIT", "READV_FIXED", "WRITEV_FIXED", "PIPE",
};

static const char *flags_join(const struct flagname *t, size_t n, uint64_t v, char *buf,
			      size_t cap)
{
	size_t pos = 0;

	buf[0] = 0;
	for (size_t i = 0; i < n && pos + 1 < cap; i++) {
		if (!(v & t[i].v))
			continue;
		pos += (size_t)snprintf(buf + pos, cap - pos, "%s%s", pos ? "|" : "", t[i].name);
		v &= ~t[i].v;
	}
	if (v && pos + 1 < cap) /* bits we have no name for */
		snprintf(buf + pos, cap - pos, "%s0x%" PRIx64, pos ? "|" : "", v);
	else if (!pos)
		snprintf(buf, cap, "0");
	return buf;
}

static const char *enum_name(const struct flagname *t, size_t n, uint64_t v, char *buf,
			     size_t cap)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].v == v)
			return t[i].name;
	snprintf(buf, cap, "%" PRIu64, v);
	return buf;
}

static const struct flagname rlimits[] = {
	FN(0, "RLIMIT_CPU"),	     FN(1, "RLIMIT_FSIZE"),	FN(2, "RLIMIT_DATA"),
	FN(3, "RLIMIT_STACK"),	     FN(4, "RLIMIT_CORE"),	FN(5, "RLIMIT_RSS"),
	FN(6, "RLIMIT_NPROC"),	     FN(7, "RLIMIT_NOFILE"),	FN(8, "RLIMIT_MEMLOCK"),
	FN(9, "RLIMIT_AS"),	     FN(10, "RLIMIT_LOCKS"),	FN(11, "RLIMIT_SIGPENDING"),
	FN(12, "RLIMIT_MSGQUEUE"),   FN(13, "RLIMIT_NICE"),	FN(14, "RLIMIT_RTPRIO"),
	FN(15, "RLIMIT_RTTIME"),
};

/* fcntl's commands, as Falco's fcntl_cmds name them (those traced, and
 * their neighbours) */
static const struct flagname fcntl_cmds[] = {
	FN(F_DUPFD, "F_DUPFD"),	    FN(F_GETFD, "F_GETFD"),	FN(F_SETFD, "F_SETFD"),
	FN(F_GETFL, "F_GETFL"),	    FN(F_SETFL, "F_SETFL"),	FN(F_GETLK, "F_GETLK"),
	FN(F_SETLK, "F_SETLK"),	    FN(F_SETLKW, "F_SETLKW"),	FN(F_SETOWN, "F_SETOWN"),
	FN(F_GETOWN, "F_GETOWN"),   FN(F_SETSIG, "F_SETSIG"),	FN(F_GETSIG, "F_GETSIG"),
	FN(F_SETOWN_EX, "F_SETOWN_EX"), FN(F_GETOWN_EX, "F_GETOWN_EX"),
};

#define RB(n) FN(LINUX_REBOOT_CMD_##n, "LINUX_REBOOT_CMD_" #n)
static const struct flagname reboot_cmds[] = {
	RB(RESTART), RB(HALT), RB(CAD_ON), RB(CAD_OFF), RB(POWER_OFF), RB(RESTART2),
	RB(SW_SUSPEND), RB(KEXEC),
};

/* syslog(2)'s types (include/linux/syslog.h), in order from 0 */
static const char *const syslog_actions[] = {
	"CLOSE", "OPEN", "READ", "READ_ALL", "READ_CLEAR", "CLEAR",
	"CONSOLE_OFF", "CONSOLE_ON", "CONSOLE_LEVEL", "SIZE_UNREAD", "SIZE_BUFFER",
};

/* keyctl(2)'s operations (linux/keyctl.h), in order from 0 */
static const char *const keyctl_ops[] = {
	"GET_KEYRING_ID", "JOIN_SESSION_KEYRING", "UPDATE", "REVOKE", "CHOWN", "SETPERM",
	"DESCRIBE", "CLEAR", "LINK", "UNLINK", "SEARCH", "READ", "INSTANTIATE", "NEGATE",
	"SET_REQKEY_KEYRING", "SET_TIMEOUT", "ASSUME_AUTHORITY", "GET_SECURITY",
	"SESSION_TO_PARENT", "REJECT", "INSTANTIATE_IOV", "INVALIDATE", "GET_PERSISTENT",
	"DH_COMPUTE", "PKEY_QUERY", "PKEY_ENCRYPT", "PKEY_DECRYPT", "PKEY_SIGN", "PKEY_VERIFY",
	"RESTRICT_KEYRING", "MOVE", "CAPABILITIES", "WATCH_KEY",
};

/* PREFIX and the name at u of an enumeration numbered from 0; the number
 * when past its end */
static const char *seq_name(const char *prefix, const char *const *names, size_t n, uint64_t u,
			    char *buf, size_t cap)
{
	if (u < n)
		snprintf(buf, cap, "%s%s", prefix, names[u]);
	else
		snprintf(buf, cap, "%" PRIu64, u);
	return buf;
}

/* open(2) flags, as Falco shows them: the access mode, then the others */
static const struct {
	uint64_t bit;
	const char *name;
} open_flag_names[] = {
	{ O_CREAT, "O_CREAT" },	      { O_EXCL, "O_EXCL" },	    { O_NOCTTY, "O_NOCTTY" },
	{ O_TRUNC, "O_TRUNC" },	      { O_APPEND, "O_APPEND" },	    { O_NONBLOCK, "O_NONBLOCK" },
	{ O_DSYNC, "O_DSYNC" },	      { O_DIRECT, "O_DIRECT" },	    { O_DIRECTORY, "O_DIRECTORY" },
	{ O_NOFOLLOW, "O_NOFOLLOW" }, { O_NOATIME, "O_NOATIME" },   { O_CLOEXEC, "O_CLOEXEC" },
	{ O_PATH, "O_PATH" },
	{ O_TMPFILE & ~O_DIRECTORY, "O_TMPFILE" }, /* with O_DIRECTORY, as Falco shows it */
	{ AS_O_F_CREATED, "O_F_CREATED" }, /* the open made the file */
};

/* Append n bytes of s at *len, as snprintf(buf + *len, cap - *len, "%s")
 * would: cut to what fits, NUL-terminated. */
static void flags_append(char *buf, size_t cap, size_t *len, const char *s, size_t n)
{
	if (n > cap - 1 - *len)
		n = cap - 1 - *len;
	memcpy(buf + *len, s, n);
	*len += n;
	buf[*len] = 0;
}

/* Every open's evt.arg.flags goes through here when a rule tests it (the
 * flags of most opens are tested): copies, not a snprintf per name, which
 * was a tenth of a replay's instructions. */
void trace_open_flags(uint64_t flags, char *buf, size_t cap)
{
	const char *mode = (flags & O_ACCMODE) == O_WRONLY ? "O_WRONLY" :
			   (flags & O_ACCMODE) == O_RDWR   ? "O_RDWR" :
							     "O_RDONLY";
	size_t len = 0;

	if (!cap)
		return;
	flags_append(buf, cap, &len, mode, strlen(mode));
	for (size_t i = 0; i < sizeof(open_flag_names) / sizeof(open_flag_names[0]); i++) {
		if (!(flags & open_flag_names[i].bit))
			continue;
		flags_append(buf, cap, &len, "|", 1);
		flags_append(buf, cap, &len, open_flag_names[i].name,
			     strlen(open_flag_names[i].name));
	}
}

const char *sctable_format(unsigned fmt, int64_t v, char *buf, size_t cap)
{
	uint64_t u = (uint64_t)v;

	switch (fmt) {
	case FMT_UDEC:
		snprintf(buf, cap, "%" PRIu64, u);
		return buf;
	case FMT_ID:
		snprintf(buf, cap, "%" PRId64, (uint32_t)u == 0xffffffffu ? -1 : (int64_t)(uint32_t)u);
		return buf;
	case FMT_FD:
	case FMT_INT:
		snprintf(buf, cap, "%d", (int)(int32_t)u);
		return buf;
	case FMT_HEX:
		snprintf(buf, cap, "0x%" PRIx64, u);
		return buf;
	case FMT_HEX32:
		snprintf(buf, cap, "0x%" PRIx32, (uint32_t)u);
		return buf;
	case FMT_OCT:
		snprintf(buf, cap, "0%" PRIo64, u);
		return buf;
	case FMT_CLONE:
		return flags_join(clone_flags, NFLAGS(clone_flags), u, buf, cap);
	case FMT_OPEN:
		trace_open_flags(u, buf, cap);
		return buf;
	case FMT_RENAME:
		return flags_join(rename_flags, NFLAGS(rename_flags), u, buf, cap);
	case FMT_AT:
		return flags_join(at_flags, NFLAGS(at_flags), u, buf, cap);
	case FMT_MOUNT:
		/* MS_MGC_VAL in the top half is a legacy magic, not a flag */
		if ((u & 0xffff0000u) == 0xc0ed0000u)
			u &= 0xffff;
		return flags_join(mount_flags, NFLAGS(mount_flags), u & 0xffffffffu, buf, cap);
	case FMT_UMOUNT:
		return flags_join(umount_flags, NFLAGS(umount_flags), u, buf, cap);
	case FMT_MEMFD:
		return flags_join(memfd_flags, NFLAGS(memfd_flags), u, buf, cap);
	case FMT_PROT:
		return flags_join(prot_flags, NFLAGS(prot_flags), u, buf, cap);
	case FMT_MMAP:
		return flags_join(mmap_flags, NFLAGS(mmap_flags), u, buf, cap);
	case FMT_URING_SETUP:
		return flags_join(uring_setup_flags, NFLAGS(uring_setup_flags), u, buf, cap);
	case FMT_MSG:
		return flags_join(msg_flags, NFLAGS(msg_flags), u, buf, cap);
	case FMT_PTRACE:
		return enum_name(ptrace_requests, NFLAGS(ptrace_requests), u, buf, cap);
	case FMT_PRCTL:
		return enum_name(prctl_options, NFLAGS(prctl_options), u, buf, cap);
	case FMT_FAMILY:
		return enum_name(families, NFLAGS(families), u, buf, cap);
	case FMT_SOCKTYPE:
		return enum_name(socktypes, NFLAGS(socktypes), u & 0xf, buf, cap);
	case FMT_BPF_CMD:
		return enum_name(bpf_cmds, NFLAGS(bpf_cmds), u, buf, cap);
	case FMT_FCNTL_CMD:
		return enum_name(fcntl_cmds, NFLAGS(fcntl_cmds), u, buf, cap);
	case FMT_RLIMIT:
		return enum_name(rlimits, NFLAGS(rlimits), u, buf, cap);
	case FMT_REBOOT:
		return enum_name(reboot_cmds, NFLAGS(reboot_cmds), u, buf, cap);
	case FMT_SYSLOG:
		return seq_name("SYSLOG_ACTION_", syslog_actions, NFLAGS(syslog_actions), u, buf, cap);
	case FMT_KEYCTL:
		return seq_name("KEYCTL_", keyctl_ops, NFLAGS(keyctl_ops), u, buf, cap);
	case FMT_SIGNAL: {
		const char *abbrev = u > 0 && u < 64 ? sigabbrev_np((int)u) : NULL;

		if (abbrev)
			snprintf(buf, cap, "SIG%s", abbrev);
		else
			snprintf(buf, cap, "%" PRId64, v);
		return buf;
	}
	case FMT_NLMSG:
		for (size_t i = 0; i < NFLAGS(nlmsg_types); i++)
			if (nlmsg_types[i].v == u)
				return nlmsg_types[i].name;
		snprintf(buf, cap, "%" PRIu64, u & 0xffff); /* the type alone */
		return buf;
	case FMT_BOOL:
		return u ? "true" : "false";
	case FMT_URING_OP:
		return seq_name("IORING_OP_", uring_ops, NFLAGS(uring_ops), u, buf, cap);
	case FMT_DEC:
	default:
		snprintf(buf, cap, "%" PRId64, v);
		return buf;
	}
}
