/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The kernel/userspace ABI of agent-sentinel: every record the BPF programs
 * put into the ring buffer starts with struct as_hdr and continues with the
 * payload of its type. Fixed-width fields only, explicit padding, sizes
 * pinned by _Static_assert. No includes: the BPF side gets __u32 and friends
 * from vmlinux.h, userspace from <linux/types.h>.
 *
 * Variable-length data (paths, argv) follows the fixed part of a record, in
 * the order the payload's *_len fields are declared. Paths walked in the
 * kernel are sent as "component lists": the dentry names from the leaf up to
 * the task's root, each NUL-terminated (an empty list is "/"); userspace
 * reverses and joins them. Plain strings (user-supplied paths, argv) are
 * sent as they are, argv NUL-separated.
 */
#ifndef AS_EVENTS_H
#define AS_EVENTS_H

/* Bumped whenever a struct below changes layout; recorded files carry it. */
#define AS_ABI_VERSION 1

#define AS_COMM_LEN 16 /* TASK_COMM_LEN in the kernel */
#define AS_MAX_ANCESTORS 12 /* real_parent hops captured per event (>= 8 asked) */
#define AS_PATH_MAX 4096 /* PATH_MAX: longest path we carry, truncation flagged */
#define AS_PATH_MAX_DEPTH 64 /* dentry/mount hops per path walk before truncating */
#define AS_NAME_MAX 256 /* NAME_MAX + NUL: one dentry name */
#define AS_ARGS_MAX 4096 /* bytes of argv per exec, truncation flagged */
#define AS_FILENAME_MAX 4096 /* exec filename as given */
#define AS_CGROUP_MAX 1024 /* cgroup v2 path components */
#define AS_CGROUP_MAX_DEPTH 16 /* cgroup hierarchy hops walked */
#define AS_UNIX_PATH_MAX 108 /* sizeof(sockaddr_un.sun_path) */
#define AS_SESSION_MAX 64 /* AGENT_SESSION_ID value, bytes incl. NUL */
/* names the kernel pre-filter tests (a hash map of comms, bpf/sentinel.bpf.h):
 * the rules' derivation (user/rules/kfilter.c) keeps at most this many, more
 * means no filter; the loader fills the map with them */
#define AS_FILTER_NAMES_MAX 64

enum as_event_type {
	AS_EV_NONE = 0,
	AS_EV_EXEC = 1, /* sched_process_exec, or a failed execve/execveat */
	AS_EV_FORK = 2, /* sched_process_fork of a new process (not a thread) */
	AS_EV_EXIT = 3, /* sched_process_exit of the last thread of a process */
	AS_EV_OPEN = 4, /* open, openat, openat2, creat */
	AS_EV_CONNECT = 5,
	AS_EV_SETID = 6, /* setuid, setgid, setreuid, setregid, setresuid, setresgid */
	AS_EV_CAPSET = 7,
	AS_EV_PROC = 8, /* userspace only: a /proc snapshot of a process alive at start */
	AS_EV_MAX = 9,
};

/* The syscall behind an event; names match Falco's evt.type. */
enum as_syscall {
	AS_SC_NONE = 0,
	AS_SC_EXECVE,
	AS_SC_EXECVEAT,
	AS_SC_OPEN,
	AS_SC_OPENAT,
	AS_SC_OPENAT2,
	AS_SC_CREAT,
	AS_SC_CONNECT,
	AS_SC_SETUID,
	AS_SC_SETGID,
	AS_SC_SETREUID,
	AS_SC_SETREGID,
	AS_SC_SETRESUID,
	AS_SC_SETRESGID,
	AS_SC_CAPSET,
	AS_SC_CLONE, /* process creation (sched_process_fork) */
	AS_SC_PROCEXIT,
	AS_SC_MAX,
};

/* as_hdr.flags */
#define AS_HF_ANC_TRUNC (1u << 0) /* more ancestors than AS_MAX_ANCESTORS */
#define AS_HF_SESSION (1u << 1) /* session[] holds an agent session id */

struct as_ancestor {
	__u32 pid;
	char comm[AS_COMM_LEN];
};

struct as_hdr {
	__u32 size; /* bytes in the whole record, header included */
	__u16 type; /* enum as_event_type */
	__u16 syscall; /* enum as_syscall */
	__u64 ts; /* kernel: CLOCK_BOOTTIME ns; after decoding: wall-clock ns */
	__u64 cgroup_id; /* cgroup v2 id of the task */
	__u32 pid; /* tgid */
	__u32 tid;
	__u32 ppid; /* tgid of real_parent */
	__u32 vpid; /* tgid as seen in the task's own pid namespace */
	__u32 sid; /* session id (setsid), global pid number */
	__u32 tty; /* controlling tty as (major << 20 | minor), 0 if none */
	__u32 uid;
	__u32 gid;
	__u32 euid;
	__u32 egid;
	__u32 loginuid; /* audit login uid, 4294967295 when unset */
	__u32 flags; /* AS_HF_* */
	__u8 n_anc; /* valid entries in anc[] */
	__u8 _pad0[7];
	char comm[AS_COMM_LEN];
	struct as_ancestor anc[AS_MAX_ANCESTORS]; /* [0] is the parent */
	char session[AS_SESSION_MAX]; /* agent session id, NUL-terminated */
};

/* Path-carrying flags (per path: shift by AS_PF_SHIFT_*) */
#define AS_PATH_TRUNC 1u /* walk stopped at a limit: path is partial */
#define AS_PATH_DETACHED 2u /* walk ended outside the task's root */

/* as_exec.pflags */
#define AS_XF_ARGS_TRUNC (1u << 0)
#define AS_XF_FILENAME_TRUNC (1u << 1)
#define AS_XF_EXE_SHIFT 4 /* AS_PATH_* << shift */
#define AS_XF_CWD_SHIFT 8
#define AS_XF_CGROUP_SHIFT 12
#define AS_XF_PLAIN (1u << 16) /* exe/cwd/cgroup are plain strings (AS_EV_PROC) */

struct as_exec {
	struct as_hdr hdr;
	__s64 res; /* 0, or -errno of a failed execve/execveat */
	__u32 pflags; /* AS_XF_* */
	__u16 filename_len; /* bytes incl. NUL */
	__u16 args_len; /* bytes, NUL-separated argv */
	__u16 exe_len; /* component list of mm->exe_file */
	__u16 cwd_len; /* component list of fs->pwd */
	__u16 cgroup_len; /* component list of the cgroup v2 path */
	__u16 _pad0;
	/* followed by filename, args, exe, cwd, cgroup */
};

/* as_open.pflags */
#define AS_OF_RESOLVED (1u << 0) /* path is the opened file's component list */
#define AS_OF_BASE_CWD (1u << 1) /* base is the cwd component list */
#define AS_OF_BASE_DIRFD (1u << 2) /* base is the dirfd's component list */
#define AS_OF_USER_TRUNC (1u << 3) /* user string longer than AS_PATH_MAX */
#define AS_OF_PATH_SHIFT 4 /* AS_PATH_* of the resolved path << shift */
#define AS_OF_BASE_SHIFT 8 /* AS_PATH_* of the base << shift */

struct as_open {
	struct as_hdr hdr;
	__s64 res; /* fd, or -errno */
	__u64 flags; /* open flags (openat2: how.flags) */
	__u64 dev; /* of the opened inode, new_encode_dev() form, 0 on failure */
	__u64 ino;
	__u32 mode;
	__s32 dirfd;
	__u32 pflags; /* AS_OF_* */
	__u16 path_len; /* resolved component list, or the user string */
	__u16 base_len; /* component list of cwd/dirfd for an unresolved relative path */
	/* followed by path, base */
};

/*
 * The open pre-filter (settings, not records): an open's class is the bits
 * below, as evt.is_open_read / evt.is_open_write / fd.num >= 0 see it. Per
 * class: does any rule want it at all, and which path prefixes fd.name
 * cannot start with for any rule to match (user/rules/kfopen.c derives it).
 */
#define AS_OPEN_OK 1u /* fd >= 0 */
#define AS_OPEN_READ 2u /* O_RDONLY or O_RDWR */
#define AS_OPEN_WRITE 4u /* O_WRONLY or O_RDWR, and creat */
#define AS_OPEN_CLASSES 8
#define AS_OPEN_PREFIX_MAX 16 /* prefixes the kernel tests */
#define AS_OPEN_PREFIX_LEN 64 /* bytes of a prefix, NUL included */
#define AS_OPEN_TOP_COMPS 4 /* path components, from the root, the kernel renders */

struct as_open_filter {
	__u8 classes; /* bit c: some rule can match an open of class c */
	__u8 plen_max; /* the longest plen[]: how much of a path the test renders */
	__u16 excl[AS_OPEN_CLASSES]; /* class c: bit i, fd.name never starts with prefix i */
	__u8 plen[AS_OPEN_PREFIX_MAX]; /* bytes of prefix i, without the NUL */
	__u8 nprefix; /* prefixes 0..nprefix-1 are in use */
	__u8 _pad1[5];
	__u64 prefix[AS_OPEN_PREFIX_MAX][AS_OPEN_PREFIX_LEN / 8]; /* zero-padded */
};

/* as_connect.cflags */
#define AS_CF_ABSTRACT (1u << 0) /* unix socket in the abstract namespace */
#define AS_CF_LOCAL (1u << 1) /* saddr/sport read from the socket */

struct as_connect {
	struct as_hdr hdr;
	__s64 res;
	__s32 fd;
	__u16 family; /* AF_INET, AF_INET6, AF_UNIX, ... */
	__u16 proto; /* IPPROTO_TCP/UDP from the socket, 0 unknown */
	__u16 dport; /* host byte order */
	__u16 sport;
	__u16 path_len; /* bytes of path[] used (abstract: without the leading NUL) */
	__u16 sock_type; /* SOCK_STREAM, SOCK_DGRAM, ... */
	__u32 cflags; /* AS_CF_* */
	__u32 _pad0;
	__u8 daddr[16]; /* IPv4 in the first 4 bytes */
	__u8 saddr[16];
	char path[AS_UNIX_PATH_MAX];
	__u8 _pad1[4];
};

#define AS_ID_UNSET 0xffffffffu

struct as_setid {
	struct as_hdr hdr;
	__s64 res;
	__u32 id[3]; /* requested (r, e, s) ids; setuid/setgid use id[0]; -1 = unchanged */
	__u32 _pad0;
};

struct as_capset {
	struct as_hdr hdr;
	__s64 res;
	__u64 effective;
	__u64 permitted;
	__u64 inheritable;
	__u32 target_pid; /* header.pid of the capset call, 0 = self */
	__u32 version; /* _LINUX_CAPABILITY_VERSION_* */
};

struct as_fork {
	struct as_hdr hdr; /* the parent */
	__u32 child_pid;
	__u32 child_tid;
	__u64 clone_flags; /* 0 when not known */
};

struct as_exit {
	struct as_hdr hdr;
	__s32 exit_code; /* wait status as in task->exit_code */
	__u32 _pad0;
};

_Static_assert(sizeof(struct as_ancestor) == 20, "as_ancestor layout");
_Static_assert(sizeof(struct as_hdr) == 400, "as_hdr layout");
_Static_assert(sizeof(struct as_exec) == 424, "as_exec layout");
_Static_assert(sizeof(struct as_open) == 448, "as_open layout");
_Static_assert(sizeof(struct as_connect) == 576, "as_connect layout");
_Static_assert(sizeof(struct as_open_filter) == 1064, "as_open_filter layout");
_Static_assert(sizeof(struct as_setid) == 424, "as_setid layout");
_Static_assert(sizeof(struct as_capset) == 440, "as_capset layout");
_Static_assert(sizeof(struct as_fork) == 416, "as_fork layout");
_Static_assert(sizeof(struct as_exit) == 408, "as_exit layout");

#endif /* AS_EVENTS_H */
