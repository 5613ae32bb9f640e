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
#define AS_ABI_VERSION 7

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
#define AS_LDPATH_MAX 1024 /* LD_LIBRARY_PATH value carried, bytes incl. NUL */
#define AS_LINEAGE_MAX 16 /* exec-time identities a lineage keeps (issue 11: "say 16") */
/* names the kernel pre-filter tests (a hash map of comms, bpf/sentinel.bpf.h):
 * the rules' derivation (user/rules/kfilter.c) keeps at most this many, more
 * means no filter; the loader fills the map with them */
#define AS_FILTER_NAMES_MAX 64

enum as_event_type {
	AS_EV_NONE = 0,
	AS_EV_EXEC = 1, /* sched_process_exec, or a failed execve/execveat */
	AS_EV_FORK = 2, /* sched_process_fork of a new process (not a thread) */
	AS_EV_EXIT = 3, /* sched_process_exit of the last thread of a process */
	AS_EV_OPEN = 4, /* open, openat, openat2, creat, open_by_handle_at */
	AS_EV_CONNECT = 5, /* socket acts: connect, sendto/sendmsg with an address, bind, ... */
	AS_EV_SETID = 6, /* setuid, setgid, setreuid, setregid, setresuid, setresgid, setfs*, setgroups */
	AS_EV_CAPSET = 7,
	AS_EV_PROC = 8, /* userspace only: a /proc snapshot of a process alive at start */
	AS_EV_FILE = 9, /* file changes: rename, link, unlink, mkdir, chmod, chown, truncate, ... */
	AS_EV_SYS = 10, /* privilege, isolation, code and cwd: unshare, mount, ptrace, bpf, ... */
	AS_EV_URING = 11, /* an io_uring request (io_uring:io_uring_submit_req) */
	AS_EV_MAX = 12,
};

/*
 * The syscall behind an event; names match Falco's evt.type. X(ID, name,
 * event type): the enum here, the name and type tables in userspace
 * (user/names.c). New rows go at the end: a value is part of the recording
 * format.
 */
#define AS_SYSCALL_LIST(X)                          \
	X(NONE, "none", AS_EV_NONE)                 \
	X(EXECVE, "execve", AS_EV_EXEC)             \
	X(EXECVEAT, "execveat", AS_EV_EXEC)         \
	X(OPEN, "open", AS_EV_OPEN)                 \
	X(OPENAT, "openat", AS_EV_OPEN)             \
	X(OPENAT2, "openat2", AS_EV_OPEN)           \
	X(CREAT, "creat", AS_EV_OPEN)               \
	X(CONNECT, "connect", AS_EV_CONNECT)        \
	X(SETUID, "setuid", AS_EV_SETID)            \
	X(SETGID, "setgid", AS_EV_SETID)            \
	X(SETREUID, "setreuid", AS_EV_SETID)        \
	X(SETREGID, "setregid", AS_EV_SETID)        \
	X(SETRESUID, "setresuid", AS_EV_SETID)      \
	X(SETRESGID, "setresgid", AS_EV_SETID)      \
	X(CAPSET, "capset", AS_EV_CAPSET)           \
	X(CLONE, "clone", AS_EV_FORK)               \
	X(PROCEXIT, "procexit", AS_EV_EXIT)         \
	X(OPEN_BY_HANDLE_AT, "open_by_handle_at", AS_EV_OPEN) \
	X(CLONE3, "clone3", AS_EV_FORK)             \
	X(FORK, "fork", AS_EV_FORK)                 \
	X(VFORK, "vfork", AS_EV_FORK)               \
	X(SETFSUID, "setfsuid", AS_EV_SETID)        \
	X(SETFSGID, "setfsgid", AS_EV_SETID)        \
	X(SETGROUPS, "setgroups", AS_EV_SETID)      \
	X(SENDTO, "sendto", AS_EV_CONNECT)          \
	X(SENDMSG, "sendmsg", AS_EV_CONNECT)        \
	X(SENDMMSG, "sendmmsg", AS_EV_CONNECT)      \
	X(BIND, "bind", AS_EV_CONNECT)              \
	X(LISTEN, "listen", AS_EV_CONNECT)          \
	X(ACCEPT, "accept", AS_EV_CONNECT)          \
	X(ACCEPT4, "accept4", AS_EV_CONNECT)        \
	X(SOCKET, "socket", AS_EV_CONNECT)          \
	X(RENAME, "rename", AS_EV_FILE)             \
	X(RENAMEAT, "renameat", AS_EV_FILE)         \
	X(RENAMEAT2, "renameat2", AS_EV_FILE)       \
	X(LINK, "link", AS_EV_FILE)                 \
	X(LINKAT, "linkat", AS_EV_FILE)             \
	X(SYMLINK, "symlink", AS_EV_FILE)           \
	X(SYMLINKAT, "symlinkat", AS_EV_FILE)       \
	X(UNLINK, "unlink", AS_EV_FILE)             \
	X(UNLINKAT, "unlinkat", AS_EV_FILE)         \
	X(RMDIR, "rmdir", AS_EV_FILE)               \
	X(MKDIR, "mkdir", AS_EV_FILE)               \
	X(MKDIRAT, "mkdirat", AS_EV_FILE)           \
	X(MKNOD, "mknod", AS_EV_FILE)               \
	X(MKNODAT, "mknodat", AS_EV_FILE)           \
	X(CHMOD, "chmod", AS_EV_FILE)               \
	X(FCHMOD, "fchmod", AS_EV_FILE)             \
	X(FCHMODAT, "fchmodat", AS_EV_FILE)         \
	X(FCHMODAT2, "fchmodat2", AS_EV_FILE)       \
	X(CHOWN, "chown", AS_EV_FILE)               \
	X(FCHOWN, "fchown", AS_EV_FILE)             \
	X(LCHOWN, "lchown", AS_EV_FILE)             \
	X(FCHOWNAT, "fchownat", AS_EV_FILE)         \
	X(TRUNCATE, "truncate", AS_EV_FILE)         \
	X(FTRUNCATE, "ftruncate", AS_EV_FILE)       \
	X(SETXATTR, "setxattr", AS_EV_FILE)         \
	X(LSETXATTR, "lsetxattr", AS_EV_FILE)       \
	X(FSETXATTR, "fsetxattr", AS_EV_FILE)       \
	X(REMOVEXATTR, "removexattr", AS_EV_FILE)   \
	X(LREMOVEXATTR, "lremovexattr", AS_EV_FILE) \
	X(FREMOVEXATTR, "fremovexattr", AS_EV_FILE) \
	X(UTIMENSAT, "utimensat", AS_EV_FILE)       \
	X(UTIMES, "utimes", AS_EV_FILE)             \
	X(UTIME, "utime", AS_EV_FILE)               \
	X(FUTIMESAT, "futimesat", AS_EV_FILE)       \
	X(UNSHARE, "unshare", AS_EV_SYS)            \
	X(SETNS, "setns", AS_EV_SYS)                \
	X(PTRACE, "ptrace", AS_EV_SYS)              \
	X(MOUNT, "mount", AS_EV_SYS)                \
	X(UMOUNT2, "umount2", AS_EV_SYS)            \
	X(FSOPEN, "fsopen", AS_EV_SYS)              \
	X(FSMOUNT, "fsmount", AS_EV_SYS)            \
	X(MOVE_MOUNT, "move_mount", AS_EV_SYS)      \
	X(OPEN_TREE, "open_tree", AS_EV_SYS)        \
	X(MOUNT_SETATTR, "mount_setattr", AS_EV_SYS) \
	X(PIVOT_ROOT, "pivot_root", AS_EV_SYS)      \
	X(CHROOT, "chroot", AS_EV_SYS)              \
	X(INIT_MODULE, "init_module", AS_EV_SYS)    \
	X(FINIT_MODULE, "finit_module", AS_EV_SYS)  \
	X(DELETE_MODULE, "delete_module", AS_EV_SYS) \
	X(KEXEC_LOAD, "kexec_load", AS_EV_SYS)      \
	X(KEXEC_FILE_LOAD, "kexec_file_load", AS_EV_SYS) \
	X(BPF, "bpf", AS_EV_SYS)                    \
	X(PERF_EVENT_OPEN, "perf_event_open", AS_EV_SYS) \
	X(PRCTL, "prctl", AS_EV_SYS)                \
	X(MEMFD_CREATE, "memfd_create", AS_EV_SYS)  \
	X(IO_URING_SETUP, "io_uring_setup", AS_EV_SYS) \
	X(CHDIR, "chdir", AS_EV_SYS)                \
	X(FCHDIR, "fchdir", AS_EV_SYS)              \
	X(SETSID, "setsid", AS_EV_SYS)              \
	X(PROCESS_VM_WRITEV, "process_vm_writev", AS_EV_SYS) \
	X(PROCESS_VM_READV, "process_vm_readv", AS_EV_SYS) \
	X(PIDFD_GETFD, "pidfd_getfd", AS_EV_SYS)    \
	X(IOPL, "iopl", AS_EV_SYS)                  \
	X(IOPERM, "ioperm", AS_EV_SYS)              \
	X(IO_URING_SUBMIT_REQ, "io_uring_submit_req", AS_EV_URING) \
	X(DUP, "dup", AS_EV_CONNECT)                \
	X(DUP2, "dup2", AS_EV_CONNECT)              \
	X(DUP3, "dup3", AS_EV_CONNECT)              \
	X(USERFAULTFD, "userfaultfd", AS_EV_SYS)   \
	X(IOCTL, "ioctl", AS_EV_SYS)                \
	X(SETXATTRAT, "setxattrat", AS_EV_FILE)     \
	X(REMOVEXATTRAT, "removexattrat", AS_EV_FILE) \
	X(FSPICK, "fspick", AS_EV_SYS)              \
	X(FSCONFIG, "fsconfig", AS_EV_SYS)          \
	X(OPEN_TREE_ATTR, "open_tree_attr", AS_EV_SYS) \
	X(ACCT, "acct", AS_EV_SYS)                  \
	X(FILE_SETATTR, "file_setattr", AS_EV_FILE) \
	X(KILL, "kill", AS_EV_SYS)                  \
	X(TKILL, "tkill", AS_EV_SYS)                \
	X(TGKILL, "tgkill", AS_EV_SYS)              \
	X(RT_SIGQUEUEINFO, "rt_sigqueueinfo", AS_EV_SYS) \
	X(RT_TGSIGQUEUEINFO, "rt_tgsigqueueinfo", AS_EV_SYS) \
	X(PIDFD_OPEN, "pidfd_open", AS_EV_SYS)      \
	X(PIDFD_SEND_SIGNAL, "pidfd_send_signal", AS_EV_SYS) \
	X(PRLIMIT64, "prlimit", AS_EV_SYS)          \
	X(SETPRIORITY, "setpriority", AS_EV_SYS)    \
	X(SCHED_SETSCHEDULER, "sched_setscheduler", AS_EV_SYS) \
	X(SCHED_SETATTR, "sched_setattr", AS_EV_SYS) \
	X(IOPRIO_SET, "ioprio_set", AS_EV_SYS)       \
	X(FCNTL, "fcntl", AS_EV_SYS)                \
	X(MMAP, "mmap", AS_EV_SYS)                  \
	X(MPROTECT, "mprotect", AS_EV_SYS)          \
	X(PKEY_MPROTECT, "pkey_mprotect", AS_EV_SYS) \
	X(WRITE, "write", AS_EV_CONNECT)            \
	X(WRITEV, "writev", AS_EV_CONNECT)          \
	X(PWRITEV2, "pwritev2", AS_EV_CONNECT)      \
	X(SENDFILE, "sendfile", AS_EV_CONNECT)      \
	X(SPLICE, "splice", AS_EV_CONNECT)          \
	X(SETHOSTNAME, "sethostname", AS_EV_SYS)    \
	X(SETDOMAINNAME, "setdomainname", AS_EV_SYS) \
	X(SETTIMEOFDAY, "settimeofday", AS_EV_SYS)  \
	X(CLOCK_SETTIME, "clock_settime", AS_EV_SYS) \
	X(ADJTIMEX, "adjtimex", AS_EV_SYS)          \
	X(CLOCK_ADJTIME, "clock_adjtime", AS_EV_SYS) \
	X(REBOOT, "reboot", AS_EV_SYS)              \
	X(SWAPON, "swapon", AS_EV_SYS)              \
	X(SWAPOFF, "swapoff", AS_EV_SYS)            \
	X(SYSLOG, "syslog", AS_EV_SYS)              \
	X(FANOTIFY_INIT, "fanotify_init", AS_EV_SYS) \
	X(FANOTIFY_MARK, "fanotify_mark", AS_EV_SYS) \
	X(KEYCTL, "keyctl", AS_EV_SYS)              \
	X(ADD_KEY, "add_key", AS_EV_SYS)            \
	X(REQUEST_KEY, "request_key", AS_EV_SYS)    \
	X(SCHED_SETAFFINITY, "sched_setaffinity", AS_EV_SYS)

/* The kernel structs the programs read through typed pointers
 * (bpf_rdonly_cast). Their ids in the running kernel's BTF are given by the
 * loader in cfg_ktype_id[], not by CO-RE relocations, so libbpf can relocate
 * against a trimmed, renumbered copy of that BTF (user/corebtf.c). */
#define AS_KTYPE_LIST(X) \
	X(task_struct) X(file) X(dentry) X(kiocb) X(mount) X(vfsmount) X(pt_regs) X(socket)
#define AS_KT_ENUM_ROW(name) AS_KT_##name,
enum as_ktype { AS_KTYPE_LIST(AS_KT_ENUM_ROW) AS_KT_MAX };

/* The kernel functions (kfuncs) the programs call. Each is called through a
 * helper-call instruction with the marker AS_KFUNC_MARK + its index as the
 * helper id, which the loader rewrites before libbpf opens the object
 * (user/kfuncpatch.c): into the call of the kfunc by its id in the kernel's
 * BTF, or, where the kernel lacks it, into "r0 = r1" on a path the
 * programs' read-only settings keep from running: so each kfunc here must
 * be one whose result may stand for its first argument (a cast), and be
 * called only where cfg_typed_reads is set. An extern __ksym would
 * make libbpf parse the kernel's whole BTF in each loading thread (~25 ms)
 * only to find that id. */
#define AS_KFUNC_LIST(X) X(bpf_rdonly_cast) /* Linux 6.2 */
#define AS_KFUNC_MARK 0x7a5e0000 /* no helper has such an id */
#define AS_KFUNC_MARK_SPAN 0x100 /* ids from AS_KFUNC_MARK kept for markers */
#define AS_KF_ENUM_ROW(name) AS_KF_##name,
enum as_kfunc { AS_KFUNC_LIST(AS_KF_ENUM_ROW) AS_KF_MAX };

#define AS_SC_ENUM_ROW(id, name, type) AS_SC_##id,
enum as_syscall { AS_SYSCALL_LIST(AS_SC_ENUM_ROW) AS_SC_MAX };
#undef AS_SC_ENUM_ROW
_Static_assert(AS_SC_MAX <= 256, "cfg_sc_by_nr holds an enum as_syscall in a byte");

/* as_hdr.flags */
#define AS_HF_ANC_TRUNC (1u << 0) /* more ancestors than AS_MAX_ANCESTORS */
#define AS_HF_SESSION (1u << 1) /* session[] holds an agent session id */
#define AS_HF_WALL_START (1u << 2) /* start_ns is wall-clock ns (a recording), not boot time */
#define AS_HF_COMPAT (1u << 3) /* made through the 32-bit ABI (int $0x80, a 32-bit program):
				* its arguments were 32 bits wide */

/* as_hdr.sflags: the sandbox state of the task */
#define AS_SF_NO_NEW_PRIVS (1u << 0) /* prctl(PR_SET_NO_NEW_PRIVS) is set */

struct as_ancestor {
	__u32 pid;
	char comm[AS_COMM_LEN];
};

/*
 * Lineage: the chain of exec-time identities of a process's creators, which
 * reparenting (setsid, a parent's exit), prctl(PR_SET_NAME) renames and depth
 * do not change. Kept per thread in task storage (bpf/sentinel.bpf.h), newest
 * first:
 *  - fork (a process or a thread): the child gets its creator's chain with
 *    itself in front, an entry marked forked (bit 0 of forked) that carries
 *    the image it runs, its creator's;
 *  - exec: a forked entry in front is replaced by the new program's
 *    identity; otherwise (an exec after an exec) the new identity is pushed,
 *    so "claude" exec'ing "bash" keeps claude in the chain;
 *  - full (AS_LINEAGE_MAX): the oldest entry that is not named gives way
 *    (named: its name or executable was one the pre-filter tests when it
 *    was added, so an agent high above a deep tree stays), AS_LIN_TRUNC.
 * comm is the name the kernel gave at exec (the filename's last component),
 * dev/ino the executable's inode (userspace maps them to a path), start_ns
 * the process's start (CLOCK_MONOTONIC ns, task->start_time).
 */
#define AS_LIN_TRUNC (1u << 0) /* entries were dropped: the chain is partial */
#define AS_LIN_PROC (1u << 1) /* seeded from /proc at start: older history unknown */
#define AS_LIN_NONE (1u << 2) /* no lineage was found for the process */

struct as_lin_ent {
	__u32 pid; /* tgid of the process that exec'd (or was forked with) it */
	__u32 dev; /* of the executable, new_encode_dev() form; 0 unknown */
	__u64 ino;
	__u64 start_ns;
	char comm[AS_COMM_LEN];
};

struct as_lineage {
	__u8 n; /* valid entries in e[] */
	__u8 flags; /* AS_LIN_* */
	__u16 forked; /* bit i: e[i] is a fork's copy of its creator's image */
	__u16 named; /* bit i: e[i] was in filter_names/filter_exes when added */
	__u16 _pad0;
	struct as_lin_ent e[AS_LINEAGE_MAX]; /* [0] the process itself */
};

/* A pinned agent executable by where it is (the loader's filter_pins): its
 * directory's inode and its name there. The kernel tests the executable
 * at exec against these, so a pinned binary replaced by a new file (an
 * update: a new inode) is still the agent. */
#define AS_PIN_NAME_MAX 256 /* a name's bytes, NUL included (NAME_MAX + 1) */
struct as_pin_key {
	__u64 dir_ino;
	__u32 dir_dev; /* new_encode_dev() form, as st_dev */
	__u32 _pad0;
	char name[AS_PIN_NAME_MAX]; /* zero-padded */
};

/* A thread's own state, beside its lineage (struct as_task): the cached
 * pre-filter verdict and the exec in progress. Zero: nothing known. */
struct as_task_state {
	__u32 verdict_gen; /* cfg_filter_gen the verdict was taken under; 0: none */
	__u8 verdict; /* first ancestor level named in filter_names, or AS_VERDICT_NONE */
	__u8 exec_sc; /* enum as_syscall of the exec in progress (sys_enter_execve*) */
	__u8 _pad0[2];
	/* the credentials as the exec in progress began (sys_enter_execve*) */
	__u32 prev_uid, prev_gid, prev_euid, prev_egid;
	__u64 prev_cap_permitted, prev_cap_effective;
};

/* What task storage keeps per thread (bpf/sentinel.bpf.h: tasks); the
 * loader writes lin, st zeroed, for threads alive at start. */
struct as_task {
	struct as_lineage lin;
	struct as_task_state st;
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
	__u8 seccomp; /* task->seccomp.mode: 0 off, 1 strict, 2 filter */
	__u8 sflags; /* AS_SF_* */
	__u8 _pad0[5];
	__u64 cap_effective; /* of the task's credentials */
	__u64 cap_permitted;
	__u64 cap_inheritable;
	__u64 start_ns; /* CLOCK_BOOTTIME ns at which the process (group leader) started */
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
#define AS_XF_EXE_MEMFD (1u << 17) /* the executable is a memfd (memfd_create) */
#define AS_XF_EXE_DELETED (1u << 18) /* the executable has no link left on disk */
#define AS_XF_EXE_WRITABLE (1u << 19) /* its mode lets the process's user write it */
#define AS_XF_EXE_UPPER (1u << 20) /* on an overlayfs upper layer (written in the container) */
#define AS_XF_PREV (1u << 21) /* prev_* hold the credentials before the exec */
/* the environment sets LD_PRELOAD or LD_AUDIT, or was too large to read
 * whole, or sets LD_LIBRARY_PATH twice or longer than AS_LDPATH_MAX - 1:
 * the loader may run code that is not the program's */
#define AS_XF_LD_ENV (1u << 22)
/* the environment sets LD_LIBRARY_PATH: its value (ldpath_len bytes with
 * the NUL) ends the record. Whether its directories could hold a library
 * that is not the system's is userspace's to judge (user/ldpath.c) */
#define AS_XF_LD_PATH (1u << 23)
/* never the kernel's: set in a recording on a record whose LD_LIBRARY_PATH
 * was judged live to name only root's directories, so that its replay
 * (which cannot look at them) gives the same verdict */
#define AS_XF_LD_PATH_ROOT (1u << 24)
/* the ELF interpreter the kernel mapped (PT_INTERP) has no link left: a
 * memfd, an O_TMPFILE or a deleted file (ABI 7) */
#define AS_XF_INTERP_NOLINK (1u << 25)

struct as_exec {
	struct as_hdr hdr;
	__s64 res; /* 0, or -errno of a failed execve/execveat */
	__u32 pflags; /* AS_XF_* */
	__u16 filename_len; /* bytes incl. NUL */
	__u16 args_len; /* bytes, NUL-separated argv */
	__u16 exe_len; /* component list of mm->exe_file */
	__u16 cwd_len; /* component list of fs->pwd */
	__u16 cgroup_len; /* component list of the cgroup v2 path */
	__u16 ldpath_len; /* LD_LIBRARY_PATH's value incl. NUL (AS_XF_LD_PATH), else 0 */
	/* the credentials before a successful exec (AS_XF_PREV): a setuid or
	 * setgid bit, or file capabilities, change them on the way */
	__u32 prev_uid;
	__u32 prev_gid;
	__u32 prev_euid;
	__u32 prev_egid;
	__u64 prev_cap_permitted;
	__u64 prev_cap_effective;
	/* inode numbers of the task's mount and user namespaces (0: a
	 * snapshot's): where userspace looks at the directories of
	 * LD_LIBRARY_PATH once the process is gone, and whether an owner
	 * there is root at all (in a user namespace of its own a user's files
	 * may show as root's, and it may mount and chroot) */
	__u32 mntns;
	__u32 userns;
	/* the process's lineage after the exec (AS_EV_PROC: from /proc). Only
	 * exec and proc records carry it: the rest of a process's events find
	 * it in userspace's process table (fork derives the child's there, as
	 * the kernel does), so no other record pays for it */
	struct as_lineage lin;
	/* followed by filename, args, exe, cwd, cgroup, ldpath */
};

/* as_open.pflags */
#define AS_OF_RESOLVED (1u << 0) /* path is the opened file's component list */
#define AS_OF_BASE_CWD (1u << 1) /* base is the cwd component list */
#define AS_OF_BASE_DIRFD (1u << 2) /* base is the dirfd's component list */
#define AS_OF_USER_TRUNC (1u << 3) /* user string longer than AS_PATH_MAX */
#define AS_OF_RAW (1u << 12) /* a resolved path, then the string as passed (to the record's end) */
/* The opened file is a pipe (S_IFIFO): a named one, or an anonymous one
 * reached through /dev/stdout, /proc/self/fd/N, >(...): the latter has no
 * path, only the kernel's name "pipe:[INODE]" (fd.typechar p) */
#define AS_OF_FIFO (1u << 13)
/* The opened file has no link (nlink 0): a memfd, a deleted file, an
 * O_TMPFILE; /proc shows its path with " (deleted)". A nameless one (a
 * memfd, past the task's root) carries its dentry name ("memfd:NAME") as
 * its one component. (The mapping of such a file as code is an event of
 * its own: mmap, mprotect, AS_SYF_NOLINK.) */
#define AS_OF_NOLINK (1u << 14)
/* An anonymous pipe reached through a path (a /proc/PID/fd/N link) that
 * none of the caller's other descriptors holds (either end): another
 * process's pipe, its stdin a writer can feed commands to */
#define AS_OF_PIPE_FOREIGN (1u << 15)
/* The opened file is a device that reads storage or memory raw, past every
 * path and permission of the files on it: a block device, or /dev/mem,
 * /dev/kmem, /dev/port, a SCSI generic /dev/sg* (as_rawdev) */
#define AS_OF_RAWDEV (1u << 16)
/* An open that writes, truncates or made its file, whose mode has the setuid
 * bit, or the setgid bit with group execute (as_setid) */
#define AS_OF_SETID (1u << 17)
/* An entry of /proc/PID (mem, environ, ...) of a process the opener traces
 * (ptrace: the entry's task's tracer is one of the opener's threads) */
#define AS_OF_TRACEE (1u << 18)
/* An entry of /proc/PID opened for writing, of a process that descends from
 * the opener (its child, grandchild, ...: as_proc_kin) */
#define AS_OF_DESCENDANT (1u << 19)
#define AS_OF_PATH_SHIFT 4 /* AS_PATH_* of the resolved path << shift */
#define AS_OF_BASE_SHIFT 8 /* AS_PATH_* of the base << shift */

/* In as_open.flags, above every open flag (an int; openat2 refuses more):
 * the open created the file (FMODE_CREATED), Falco's O_F_CREATED. */
#define AS_O_F_CREATED (1ull << 32)

struct as_open {
	struct as_hdr hdr;
	__s64 res; /* fd, or -errno */
	__u64 flags; /* open flags (openat2: how.flags), and AS_O_F_CREATED */
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
 * below, as evt.is_open_read / evt.is_open_write / fd.num >= 0 and
 * evt.arg.flags contains O_TRUNC see it. Per
 * class: does any rule want it at all, and if so, terms of which one must
 * hold (user/rules/kfopen.c derives them): each term names path prefixes
 * fd.name cannot start with and path names ("atoms") of which fd.name must
 * have one, for some rule to match.
 */
#define AS_OPEN_OK 1u /* fd >= 0 */
#define AS_OPEN_READ 2u /* O_RDONLY or O_RDWR */
#define AS_OPEN_WRITE 4u /* O_WRONLY or O_RDWR, and creat */
/* O_TRUNC, or the open created the file: evt.arg.flags contains O_TRUNC
 * or O_F_CREATED (creat: always) */
#define AS_OPEN_TRUNC 8u
#define AS_OPEN_CLASSES 16
#define AS_OPEN_TERMS 4 /* per class: an open passes when one of its terms does */
#define AS_OPEN_PREFIX_MAX 16 /* prefixes the kernel tests */
#define AS_OPEN_PREFIX_LEN 64 /* bytes of a prefix, NUL included */
#define AS_OPEN_TOP_COMPS 4 /* path components, from the root, the kernel renders */
#define AS_OPEN_ATOM_MAX 32 /* path names the kernel tests: the bits of a term's need */
#define AS_OPEN_ALEN_BUCKETS 64 /* name lengths told apart by alen_atoms (the last: longer) */
#define AS_OPEN_ATOM_LEN 32 /* bytes of an atom, NUL included */

/* as_open_filter.akind[]: which of the path's names an atom is tested on,
 * and how */
#define AS_ATOM_PREFIX 1u /* the name starts with the atom (else: is the atom) */
#define AS_ATOM_BASE 2u /* the last name only, fd.filename (else: any name) */

struct as_open_term {
	__u16 excl; /* bit i: fd.name does not start with prefix i */
	__u16 _pad0;
	__u32 need; /* bit j: fd.name has atom j; none set: no name needed */
};

struct as_open_filter {
	__u16 classes; /* bit c: some rule can match an open of class c */
	/* set by the loader from the terms: bit c, class c's terms need the
	 * path; bit c, class c has one term */
	__u16 test;
	__u16 single;
	__u16 _pad0;
	__u8 plen_max; /* the longest plen[]: how much of a path the test renders */
	__u8 nprefix; /* prefixes 0..nprefix-1 are in use */
	__u8 natom; /* atoms 0..natom-1 are in use */
	__u8 raw; /* a rule reads fd.nameraw: a successful open also carries the string as passed */
	__u8 nterm[AS_OPEN_CLASSES]; /* class c: terms 0..nterm[c]-1 */
	struct as_open_term term[AS_OPEN_CLASSES][AS_OPEN_TERMS];
	/* class c: the atoms and the prefixes of all its terms (set by the
	 * loader: the kernel's common case, one term, needs no loop) */
	__u32 needs[AS_OPEN_CLASSES];
	__u16 excls[AS_OPEN_CLASSES];
	__u8 plen[AS_OPEN_PREFIX_MAX]; /* bytes of prefix i, without the NUL */
	__u8 alen[AS_OPEN_ATOM_MAX]; /* bytes of atom j, without the NUL */
	__u8 akind[AS_OPEN_ATOM_MAX]; /* AS_ATOM_* */
	__u8 _pad1[4];
	/* atoms of the last name only (AS_ATOM_BASE), set by the loader */
	__u32 abase;
	__u32 _pad2;
	/* per name length l (63: 63 or longer; 0: the kernel could not read
	 * the length, the name is tested so that it is kept): the atoms that
	 * can match a name of l bytes, set by the loader, so that the kernel
	 * reads no name that cannot match and compares only these */
	__u32 alen_atoms[AS_OPEN_ALEN_BUCKETS];
	__u64 prefix[AS_OPEN_PREFIX_MAX][AS_OPEN_PREFIX_LEN / 8]; /* zero-padded */
	/* the bytes of each word that plen[i] covers, set by the loader: the
	 * kernel's test compares words without a branch on the length */
	__u64 pmask[AS_OPEN_PREFIX_MAX][AS_OPEN_PREFIX_LEN / 8];
	__u64 atom[AS_OPEN_ATOM_MAX][AS_OPEN_ATOM_LEN / 8]; /* zero-padded */
	__u64 amask[AS_OPEN_ATOM_MAX][AS_OPEN_ATOM_LEN / 8]; /* as pmask, for alen[j] */
};

/* as_connect.cflags */
#define AS_CF_ABSTRACT (1u << 0) /* unix socket in the abstract namespace */
#define AS_CF_LOCAL (1u << 1) /* saddr/sport read from the socket */
#define AS_CF_PEER (1u << 2) /* daddr/dport read from the socket's peer (accept) */
#define AS_CF_ADDR (1u << 3) /* daddr/dport/path from an address the caller passed */
/* The socket's network namespace (netns) is not the host's (cfg_host_netns):
 * a sandbox's own (bubblewrap --unshare-net), a pod's. Unset when either
 * was not known: a record without it is taken to be on the host's. */
#define AS_CF_NETNS_OWN (1u << 4)
/* A send to a netlink socket: daddr holds the types of its first messages
 * (u16s, AS_NLMSG_SCAN at most), saddr their flags, dport their count;
 * proto is the netlink family (NETLINK_ROUTE 0, NETLINK_XFRM 6,
 * NETLINK_NETFILTER 12, ...). What ip, iptables and nft ask the kernel to
 * change is said there. */
#define AS_CF_NLMSG (1u << 5)
#define AS_NLMSG_SCAN 8 /* 16 bytes of daddr: eight u16 types */
/* The send holds messages the record does not: more than AS_NLMSG_SCAN, or
 * past what the kernel could read (a header split across iovecs, more
 * iovecs or messages than it walks). Any of them may change the kernel's
 * state. */
#define AS_CF_NLMSG_MORE (1u << 6)
/* The server a unix socket reached (a datagram peer's socket, a stream
 * server's listening process) is in the caller's socket's own network
 * namespace, and that one is not the host's (AS_CF_NETNS_OWN): a server a
 * process of the same sandbox runs (bubblewrap --unshare-net). A server of
 * the host's services is in the host's namespace wherever its path is. A
 * stream server whose listening process has exited is judged by its pid
 * namespace instead: the caller's own, and not the initial one. */
#define AS_CF_PEER_NETNS_OWN (1u << 7)

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
	__u32 aux; /* listen: backlog; send*: flags (MSG_FASTOPEN...); accept4, socket: flags */
	__u8 daddr[16]; /* IPv4 in the first 4 bytes */
	__u8 saddr[16];
	char path[AS_UNIX_PATH_MAX];
	__u32 netns; /* inode of the socket's network namespace (/proc/PID/ns/net), 0: not read */
};

#define AS_ID_UNSET 0xffffffffu

struct as_setid {
	struct as_hdr hdr;
	__s64 res;
	__u32 id[3]; /* requested (r, e, s) ids; setuid/setgid use id[0]; -1 = unchanged */
	__u32 saved; /* the task's saved id after the call: suid (uid calls), sgid
		      * (gid calls); AS_ID_UNSET for setfsuid, setfsgid, setgroups */
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
	__u64 clone_flags; /* clone(2)/clone3(2) flags; fork: SIGCHLD; vfork: CLONE_VM|CLONE_VFORK|SIGCHLD */
	__u64 child_start_ns; /* the child's task->start_time: its lineage entry's */
};

/*
 * Every other traced syscall (AS_EV_FILE, AS_EV_SYS) and every io_uring
 * request (AS_EV_URING) is one generic record: the raw arguments, and up to
 * AS_SYS_SLOTS strings read behind them. A slot holds a path argument as the
 * caller passed it (plus, when relative, the component list of the
 * directory it starts from: cwd or the dirfd's), the component list of the
 * file behind an fd argument, a plain string (a module's parameters, an
 * xattr name), or a sockaddr's bytes (an io_uring connect or send). Which
 * argument feeds which slot is the syscall table's (user/sctable.c), which
 * the loader writes into the kernel.
 *
 * An io_uring request's arguments: arg[0] the opcode, arg[1] the fd, arg[2]
 * the operation's flags (open flags, rename/unlink/link flags, send flags),
 * arg[3] its mode, arg[4] the request's user_data, arg[5] 1 when an SQPOLL
 * thread submitted it; slot 0 and 1 as for the matching syscall.
 */
#define AS_SYS_SLOTS 2
#define AS_SYS_ARGS 6 /* syscalls take at most six */
#define AS_SYS_AUX_LEN 16 /* a short string argument: a filesystem type, a PR_SET_NAME name */
#define AS_SYS_SOCKADDR_MAX 128 /* sizeof(struct __kernel_sockaddr_storage) */

/* as_sys.pflags, for slot i shifted left by i * AS_SYF_SLOT_BITS */
#define AS_SYF_RESOLVED 1u /* the component list of the file behind an fd */
#define AS_SYF_BASE_CWD 2u /* a relative path; base is the cwd's component list */
#define AS_SYF_BASE_DIRFD 4u /* a relative path; base is the dirfd's component list */
#define AS_SYF_USER_TRUNC 8u /* the string was longer than AS_PATH_MAX */
#define AS_SYF_PLAIN 16u /* a string that is not a path */
#define AS_SYF_SOCKADDR 32u /* a sockaddr's bytes, len of them */
#define AS_SYF_WALK_SHIFT 6 /* AS_PATH_* of the resolved path or the base */
#define AS_SYF_SLOT_BITS 8
/* AS_PATH_* of slot i's fd link path, at bit AS_SYF_FDL_SHIFT + i * 2 */
#define AS_SYF_FDL_SHIFT 16
#define AS_SYF_FDL_BITS 2
/* slot 0 is a file with no link left: the code an mmap or mprotect mapped */
#define AS_SYF_NOLINK (1u << 20)

/* as_sys.extra of a ptrace, process_vm_readv or process_vm_writev: how
 * the target (its pid argument) stands to the caller, at the call's exit.
 * The target is looked for among the calling thread's tracees and
 * children and, for a caller sharing its creator's memory, its creator's
 * threads (AS_PTK_SCAN of each; process_vm_*: its tracees only, see
 * as_ptrace_kin); one found nowhere has no bit set. */
#define AS_PTK_DESCENDANT 0 /* bit: descends from the caller and holds nothing
			     * the caller lacks (ids, capabilities, dumpable) */
#define AS_PTK_SHARES_MM 1 /* bit: shares the caller's memory */
#define AS_PTK_SCAN 16

struct as_sys {
	struct as_hdr hdr;
	__s64 res;
	__u64 arg[AS_SYS_ARGS]; /* as passed */
	/* read behind an argument (io_uring_setup's flags, bpf's and
	 * perf_event_open's attr type, timex's modes), or a fact of the call
	 * (sethostname's, setdomainname's and reboot's: 1 when it acts on the
	 * host's namespace, ABI 7) */
	__u64 extra;
	__u32 pflags; /* AS_SYF_* per slot */
	__u16 len[AS_SYS_SLOTS]; /* bytes of slot i: NUL included for strings */
	__u16 base_len[AS_SYS_SLOTS]; /* component list of slot i's base directory */
	__u32 mntns; /* inode number of the task's mount namespace: where userspace
		      * looks for symlinks on the way to a path (user/pathres.c) */
	char aux[AS_SYS_AUX_LEN]; /* NUL-terminated; "" when none */
	/* A path slot with a component "fd" and a number N after it (or a
	 * relative one starting with N from a directory named fd): the
	 * component list of the file behind the caller's descriptor N at the
	 * call, which the call reached when that fd directory was /proc's (a
	 * descriptor closed right after leaves nothing else to read it by;
	 * user/pathres.c decides). 0 bytes: none. */
	__u16 fdl_len[AS_SYS_SLOTS];
	__s32 fdl_fd[AS_SYS_SLOTS]; /* that N */
	__u32 _pad0;
	/* followed by slot 0, its base, its fd link path, then slot 1's three */
};

/*
 * Which arguments of syscall number nr the generic exit program reads (a
 * setting the loader writes, indexed by syscall number). AS_SPEC_NONE: none.
 */
#define AS_SPEC_NONE 0xff
#define AS_SPEC_CWD 0xfe /* dirfd[i]: the path is relative to the cwd */
#define AS_SYS_NR_MAX 512 /* syscall numbers the table covers (x86_64 has ~470) */

struct as_sys_spec {
	__u8 sc; /* enum as_syscall; AS_SC_NONE: not ours */
	__u8 type; /* AS_EV_FILE or AS_EV_SYS */
	__u8 str[AS_SYS_SLOTS]; /* arg index of a user string for slot i */
	__u8 dirfd[AS_SYS_SLOTS]; /* arg index of its dirfd, AS_SPEC_CWD, or NONE: not a path */
	__u8 fd; /* arg index of an fd whose file's path is slot 0 (fchmod, fchdir, finit_module) */
	__u8 aux; /* arg index of a short user string copied into aux */
};

/*
 * Syscalls made through the 32-bit ABI (bpf/compat.bpf.c). The per-syscall
 * tracepoints never fire for them, so one raw sys_exit program takes every
 * compat syscall, looks its number up here (a setting the loader writes,
 * indexed by the i386 number) and hands it, as the x86_64 syscall it is, to
 * the exit body of its family.
 */
#define AS_COMPAT_NR_MAX 512 /* i386 syscall numbers the table covers (~470) */
#define AS_COMPAT_SOCKCALL_MAX 21 /* socketcall()'s calls, SYS_SOCKET (1) .. SYS_SENDMMSG (20) */

enum as_compat_family { /* which exit body the compat program calls */
	AS_CFAM_NONE = 0, /* not traced */
	AS_CFAM_OPEN,
	AS_CFAM_NET,
	AS_CFAM_SETID,
	AS_CFAM_CAPSET,
	AS_CFAM_GENERIC,
	AS_CFAM_SOCKETCALL, /* socketcall(call, args): the call says which of the above */
	AS_CFAM_MAX
};

struct as_compat_spec {
	__u16 nr; /* the x86_64 syscall number of the same call */
	__u8 family; /* enum as_compat_family */
	__u8 id16; /* bit i: argument i is a 16-bit id (setuid16 and kin): 0xffff is -1 */
	__u8 nargs; /* arguments the call takes (the rest read as 0; socketcall: the u32s
		     * behind its pointer); 0: all six */
	__u8 type; /* enum as_event_type of its events: what the pre-filter asks */
	/* 1 + the argument i386 passes as two registers (low, high) where
	 * x86_64 takes one 64-bit value, the arguments after it one register
	 * later (fanotify_mark's mask, truncate64's length); 0: none */
	__u8 split64;
	__u8 _pad0;
};

struct as_exit {
	struct as_hdr hdr;
	__s32 exit_code; /* wait status as in task->exit_code */
	__u32 _pad0;
};

/* The ring's warm-up at start-up (bpf/ring.bpf.c, user/ringwarm.c): records
 * reserved and discarded until every 4 KiB page of the ring had a record's
 * header written in it. A record with its 8-byte header takes AS_WARM_STEP
 * bytes, a little less than a page (a page-sized one never fits a one-page
 * ring: the kernel keeps a record below the ring's size), so consecutive
 * headers are never a page apart. */
#define AS_WARM_HDR 8 /* BPF_RINGBUF_HDR_SZ */
#define AS_WARM_PAGE 4096
#define AS_WARM_STEP (AS_WARM_PAGE - AS_WARM_HDR)
#define AS_WARM_REC (AS_WARM_STEP - AS_WARM_HDR)

struct as_warm_ctx {
	__u32 records; /* to reserve */
	__u32 done; /* reserved and discarded (the ring was full at the first not) */
};

_Static_assert(sizeof(struct as_ancestor) == 20, "as_ancestor layout");
_Static_assert(sizeof(struct as_hdr) == 432, "as_hdr layout");
_Static_assert(sizeof(struct as_lin_ent) == 40, "as_lin_ent layout");
_Static_assert(sizeof(struct as_lineage) == 648, "as_lineage layout");
_Static_assert(sizeof(struct as_exec) == 1144, "as_exec layout");
_Static_assert(sizeof(struct as_open) == 480, "as_open layout");
_Static_assert(sizeof(struct as_connect) == 608, "as_connect layout");
_Static_assert(sizeof(struct as_open_filter) == 5080, "as_open_filter layout");
_Static_assert(sizeof(struct as_setid) == 456, "as_setid layout");
_Static_assert(sizeof(struct as_capset) == 472, "as_capset layout");
_Static_assert(sizeof(struct as_fork) == 456, "as_fork layout");
_Static_assert(sizeof(struct as_exit) == 440, "as_exit layout");
_Static_assert(sizeof(struct as_sys) == 544, "as_sys layout");
_Static_assert(sizeof(struct as_sys_spec) == 8, "as_sys_spec layout");
_Static_assert(sizeof(struct as_compat_spec) == 8, "as_compat_spec layout");
_Static_assert(sizeof(struct as_warm_ctx) == 8, "as_warm_ctx layout");

#endif /* AS_EVENTS_H */
