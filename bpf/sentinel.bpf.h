/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Kernel-only declarations shared by every agent-sentinel program: the maps
 * (declared once here, merged by the BPF static linker), the settings written
 * by the loader, and the helpers layered as
 *   read from the kernel (as_task_*, as_path_*)  ->  store into the record
 *   (as_hdr_fill, as_put_*)  ->  send (as_emit).
 */
#ifndef AS_SENTINEL_BPF_H
#define AS_SENTINEL_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_endian.h>
#include "events.h"
#include "syscalls.h"

/* Scratch space per CPU where a record is assembled before bpf_ringbuf_output.
 * Every write lands at (offset & AS_SCRATCH_OFF_MASK) and writes at most
* AS_PATH_MAX bytes (verifier-visible bound: 2 * AS_PATH_MAX - 1), so the
 * buffer holds mask + 2 * AS_PATH_MAX + AS_NAME_MAX. */
#define AS_SCRATCH_OFF_MASK 32767
#define AS_SCRATCH_SIZE (AS_SCRATCH_OFF_MASK + 1 + 2 * AS_PATH_MAX + AS_NAME_MAX)
#define AS_MAX_ARGV 64 /* argv pointers read for a failed exec */
#define AS_SESSIONS_MAX 65536 /* processes inside agent sessions at once */
/* The session id is searched for in the first AS_ENV_SCAN_MAX bytes of the
 * environment block: 2 MiB, what the exec limits give argv and envp together
 * under the default 8 MiB stack rlimit (a quarter of it, bprm_stack_limits),
 * and what the earlier scan's 512 reads of 4 KiB could reach at most. */
#define AS_ENV_SCAN_MAX (2u << 20)
/* The block is read a chunk at a time into the scratch buffer: the
 * AS_ENV_CHUNK string starts it tests (AS_ENV_CHUNK_FIRST in the first),
 * the byte before them (so a string start is seen at the chunk's first
 * byte) and the bytes a key at the last one needs; the next chunk begins
 * after the last start tested. The chunk sits in the buffer's masked part,
 * and the scan's loads go at most a group of words past it: both within
 * AS_SCRATCH_SIZE. */
#define AS_ENV_CHUNK (AS_SCRATCH_OFF_MASK + 1)
#define AS_ENV_CHUNK_FIRST 4096 /* the first chunk: most environments are smaller */
#define AS_ENV_DATA 8 /* offset of the chunk in the scratch buffer */
#define AS_ENV_GROUP 256 /* string starts tested per step: 32 words */
_Static_assert(AS_ENV_DATA + AS_ENV_CHUNK + 2 * AS_ENV_GROUP <= AS_SCRATCH_SIZE,
	       "the environment chunk and its slack fit the scratch buffer");
#define AS_AT_FDCWD -100
#define AS_S_IFMT 00170000 /* an inode's i_mode: its type bits */
#define AS_S_IFSOCK 0140000
#define AS_AF_UNIX 1
/* the calls that name the process a file's I/O signals go to: fcntl's
 * commands (F_SETOWN_EX passes a struct f_owner_ex: type, pid) and ioctl's
 * requests (an int pid); compat.bpf.c picks them, sys.bpf.c reads the pid */
#define AS_F_SETOWN 8
#define AS_F_SETOWN_EX 15
/* as_sys.extra when the value behind the argument could not be read */
#define AS_EXTRA_UNREAD (~0ULL)
#define AS_FIOSETOWN 0x8901
#define AS_SIOCSPGRP 0x8902
/* mmap, mprotect and pkey_mprotect that make a file's pages code: compat.bpf.c
 * picks them by PROT_EXEC, sys.bpf.c keeps those of a file with no link */
#define AS_PROT_READ 0x1
#define AS_PROT_EXEC 0x4
#define AS_MAP_ANONYMOUS 0x20
#define AS_READ_IMPLIES_EXEC 0x0400000 /* personality(2): PROT_READ is PROT_EXEC too */

/* Do pages mapped or protected with prot become code? PROT_EXEC, or
 * PROT_READ under the READ_IMPLIES_EXEC personality (mm/mmap.c, mprotect.c) */
static __always_inline int as_prot_code(__u64 prot)
{
	if (prot & AS_PROT_EXEC)
		return 1;
	return (prot & AS_PROT_READ) &&
	       (BPF_CORE_READ((struct task_struct *)bpf_get_current_task(), personality) &
		AS_READ_IMPLIES_EXEC);
}
#define AS_AF_INET 2
#define AS_AF_INET6 10
#define AS_AF_NETLINK 16
#define AS_S_IFIFO 0010000
#define AS_S_IFCHR 0020000
#define AS_S_IFBLK 0060000
#define AS_S_ISUID 0004000
#define AS_S_ISGID 0002000
#define AS_S_IXGRP 0000010
#define AS_PROC_SUPER_MAGIC 0x9fa0
/* character devices that read memory or storage raw: major 1's mem (1),
 * kmem (2) and port (4); SCSI generic (major 21, SG_IO reads any block) */
#define AS_MEM_MAJOR 1
#define AS_MEM_RAW_MINORS ((1u << 1) | (1u << 2) | (1u << 4))
#define AS_SCSI_GENERIC_MAJOR 21
#define AS_KDEV_MINOR_BITS 20 /* the kernel's dev_t: MINORBITS */

/* AS_OF_RAWDEV of an inode's mode and i_rdev (read by the caller for a
 * character device only) */
static __always_inline int as_rawdev(__u32 mode, __u32 rdev)
{
	__u32 major = rdev >> AS_KDEV_MINOR_BITS, minor = rdev & ((1u << AS_KDEV_MINOR_BITS) - 1);

	if ((mode & AS_S_IFMT) == AS_S_IFBLK)
		return 1;
	if ((mode & AS_S_IFMT) != AS_S_IFCHR)
		return 0;
	return major == AS_SCSI_GENERIC_MAJOR ||
	       (major == AS_MEM_MAJOR && minor < 32 && (AS_MEM_RAW_MINORS >> minor) & 1);
}

/* AS_OF_SETID's mode test: setuid, or setgid with group execute (setgid
 * alone marks mandatory locking, no privilege) */
static __always_inline int as_setid(__u32 mode)
{
	return (mode & AS_S_ISUID) || (mode & (AS_S_ISGID | AS_S_IXGRP)) == (AS_S_ISGID | AS_S_IXGRP);
}

/* Clamp v with a mask the compiler cannot drop, so the verifier sees the bound
 * even where clang already proved a tighter one and elided a plain '&'. */
#define AS_VERIFIER_MASK(v, mask) asm volatile("%0 &= " #mask : "+r"(v))

/*
 * ABI layouts read without CO-RE relocation: the record of the syscall exit
 * tracepoints (their tracefs format files) and UAPI structs. Each type
 * libbpf relocates costs a search of the kernel's BTF, ~1.3 ms of start-up.
 */
struct as_sys_enter_id { /* the start of every sys_enter record */
	__u64 common;
	long id;
};

struct as_sys_exit {
	__u64 common;
	long id;
	long ret;
};

struct as_open_how { /* linux/openat2.h */
	__u64 flags;
	__u64 mode;
	__u64 resolve;
};

struct as_sockaddr_in { /* linux/in.h, without the padding */
	__u16 family;
	__be16 port;
	__u8 addr[4];
};

struct as_sockaddr_in6 { /* linux/in6.h */
	__u16 family;
	__be16 port;
	__u32 flowinfo;
	__u8 addr[16];
	__u32 scope_id;
};

/* Where the open pre-filter's prefix test notes the names nearest the root
 * as it walks, to render them after. In map memory, not on the stack: there
 * the count would be an exact value to the verifier at every step, and each
 * value a state of its own (the walk's loop is a bounded one). */
struct as_path_top {
	__u64 name[AS_OPEN_TOP_COMPS]; /* ring: the name met k-th is at [k % COMPS] */
	__u64 dent[AS_OPEN_TOP_COMPS]; /* and its dentry (an inline name: typed loads) */
	__u32 len[AS_OPEN_TOP_COMPS]; /* and its length (d_name.len) */
	__u32 n; /* names met in all: the topmost is at [(n - 1) % COMPS] */
	/* the atoms some name matched (as_atom_match), the prefixes the path
	 * starts with (as_pfx_match): masks built up in map memory, where the
	 * verifier does not follow them (in a register, each combination of
	 * bits would be a state of its own) */
	__u32 atoms;
	__u32 pm;
	__u32 bytes; /* what as_path_walk would copy of the names met: len + 1 each */
};

/* Where the environment scan (bpf/proc.bpf.c, as_session_from_env) is. In
 * map memory like as_path_top: kept in the bpf_loop() context on the stack,
 * the positions it gives the buffer's loads made the verifier track its
 * fields as exact values and verify the callbacks again per value (10,000
 * to 40,000 instructions more than the whole rest of the exec program). */
struct as_envscan {
	__u64 start; /* env_start */
	__u64 base; /* user address of the chunk's first byte (and string start) */
	__u64 limit; /* the scan's end: env_end, at most AS_ENV_SCAN_MAX past start */
	__u64 value; /* user address of the session id; 0: none found yet */
	__u64 ldpath; /* user address of LD_LIBRARY_PATH's value; 0: none found yet */
	__u32 starts; /* string starts in the chunk tested: positions [0, starts) */
	__u32 word; /* position in the chunk of the word looked at byte by byte */
	__u32 ld; /* LD_PRELOAD or LD_AUDIT is set */
	__u32 partial; /* part of the block went unread */
};

/* How the compat program (bpf/compat.bpf.c) reads the arguments of the
 * 32-bit call it hands on (as_compat_args_load), and what it read. */
struct as_compat_ctx {
	__u64 args[6]; /* as_compat_args_load's result */
	__u64 sockargs; /* socketcall: user address of its u32 arguments; 0: registers */
	__u8 id16; /* as_compat_spec.id16 */
	__u8 nargs; /* as_compat_spec.nargs */
	__u8 split64; /* as_compat_spec.split64 */
	__u8 _pad0[5];
};

struct as_send_key {
	__u64 sk; /* struct sock * */
	__u32 tid;
	__u32 _pad0;
};

/* What a rule could tell two sends of one thread on one socket apart by. */
struct as_send_sig {
	__u64 cred; /* struct cred *: replaced on every change of ids or capabilities */
	__u64 mm; /* struct mm_struct *: a new one at each exec */
	__u64 pwd; /* struct dentry * of the current directory */
	__u64 cgroups; /* struct css_set *: another one when the task moves */
	__u64 parent; /* struct task_struct * of real_parent: reparenting */
	__s64 res; /* the result: the errno, or the bytes sent */
	char comm[AS_COMM_LEN];
	__u8 daddr[16];
	__u32 gen; /* cfg_filter_gen: names, rules (reloads) */
	__u32 flags; /* send flags (MSG_FASTOPEN ...) */
	__u16 family;
	__u16 dport; /* network order */
	__u16 sport; /* the socket's local port */
	__u16 call; /* enum as_syscall | AS_SC_COMPAT_BIT >> 8: evt.type, evt.is_compat */
	__u8 seccomp;
	__u8 _pad0[7];
};

/* A datagram's destination: as the kernel took it (the cgroup sendmsg
 * hooks, bpf/net.bpf.c) or as the caller's sockaddr holds it after the call. */
struct as_send_dest {
	__u8 addr[16]; /* IPv4: the first 4 bytes */
	__u16 family; /* the sockaddr's; 0: none read */
	__be16 port;
	__u32 _pad0;
};

/* The destinations the kernel sent one call's datagrams to, noted by the
 * cgroup sendmsg hooks while the call runs, taken by its exit (send_notes):
 * consecutive repeats once, the first AS_SEND_NOTES_MAX kept, the rest
 * counted in lost (a sendmmsg to more places than that). */
#define AS_SEND_NOTES_MAX 16
struct as_send_notes {
	__u64 cookie; /* the socket's (bpf_get_socket_cookie) */
	__s64 nr; /* the syscall the hook ran in */
	__u32 n; /* destinations in d[] */
	__u32 lost;
	struct as_send_dest d[AS_SEND_NOTES_MAX];
};

/* as_put_fdlink's byte scan for "fd/N" (walk.bpf.c), a bpf_loop()'s state */
struct as_fdl_scan {
	__u32 off; /* the string, in this CPU's scratch record */
	__u32 n; /* its bytes, the NUL not counted */
	__s32 fd; /* the result; -1: none */
	__u32 num; /* the component so far as a number, while it is digits */
	__u16 clen; /* bytes of the component so far */
	__u8 digits; /* every byte of it so far a digit */
	__u8 want; /* the component before (past "." ones) was "fd" */
	__u8 c0, c1; /* its first two bytes */
	__u8 _pad0[2];
};

struct as_scratch {
	__u8 buf[AS_SCRATCH_SIZE];
	struct as_path_top top;
	struct as_envscan env;
	struct as_compat_ctx compat;
	__u64 word[2]; /* typed loads' results, stored and read back as numbers */
	/* as_send_repeat's, kernel pointers as numbers: this send, and the
	 * last one made on this CPU */
	struct as_send_key send_key, send_last_key;
	struct as_send_sig send, send_last;
	/* as_send_dest's result, and whether the notes it came from lost any */
	struct as_send_dest send_dest;
	__u32 send_lost;
	__u32 _pad1;
	/* as_path_walk's offsets: in map memory, numbers the verifier does
	 * not follow, so its loop body is checked in a few passes instead of
	 * one per length the path so far could have */
	__u32 walk_start;
	__u32 walk_off;
	struct as_fdl_scan fdl;
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 16 * 1024 * 1024); /* resized by the loader */
} events SEC(".maps") __weak;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, AS_EV_MAX);
	__type(key, __u32);
	__type(value, __u64);
} drops SEC(".maps") __weak;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY); /* one entry per possible CPU, set by the loader */
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct as_scratch);
} scratch SEC(".maps") __weak;

/* Agent session of a process (tgid): set at exec from AGENT_SESSION_ID in
 * the new environment, inherited at fork, dropped at exit. */
struct as_session {
	char id[AS_SESSION_MAX];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	/* entries allocated as sessions appear: preallocating 65,536 cost
	 * 4.5 ms of start-up and ~7 MB of kernel memory */
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, AS_SESSIONS_MAX);
	__type(key, __u32);
	__type(value, struct as_session);
} sessions SEC(".maps") __weak;

/* Per thread, in task storage (no hashing, freed with the task, so bounded
 * by the live threads): its process's lineage and the thread's own state
 * (struct as_task, bpf/events.h), one allocation per thread, made at fork.
 * Per thread, not per process, so that every lookup is the current task's
 * (a load of task->group_leader through a trusted pointer would cost each
 * program a BTF search at load): a new thread gets a copy of the lineage
 * at creation, as a new process does. */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct as_task);
} tasks SEC(".maps") __weak;

/* Per thread: the destinations of the send in progress as the kernel took
 * them (struct as_send_notes), made by the first addressed UDP send of an
 * agent tree's thread. */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct as_send_notes);
} send_notes SEC(".maps") __weak;

/* The last verdict taken on each CPU: a thread's next event there (a loop
 * of opens, of sends) then costs two loads instead of a task-storage
 * lookup (~90 ns of the ~100 an event outside every agent tree costs). It
 * holds while the same thread (pointer and start time) has not exec'ed
 * since (self_exec_id) and the names are the same (gen): exactly what the
 * per-thread verdict in task_state is kept for (walk.bpf.c). */
struct as_vcache {
	__u64 task;
	__u64 start_ns;
	__u64 exec_id;
	__u32 gen;
	__u32 verdict;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct as_vcache);
} vcache SEC(".maps") __weak;

#define AS_VERDICT_MISS 0x100 /* as_vcache_get: not cached (verdicts fit a byte) */

/* Pre-filter derived from the rules (user/rules/kfilter.c): names the kernel
 * tests, and per process the first ancestor level whose name is one of them. */
#define AS_VERDICT_NONE 0xff /* no ancestor within cfg_filter_walk matches */
/* No ancestor within cfg_filter_walk matches, but a lineage entry does: its
 * exec-time name is in filter_names or its executable in filter_exes. A
 * type whose rules test the lineage has depth 0xff, which this passes. */
#define AS_VERDICT_LINEAGE 0xfe
#define AS_FILTER_EXES_MAX 128 /* pinned agent executables (agents.exe_paths), and earlier ones */

struct as_exe_key {
	__u64 ino;
	__u32 dev; /* new_encode_dev() form */
	__u32 _pad0;
};

/* The key maps hold twice their sets: a reload adds the new set before it
 * deletes the old one (user/loader.c, loader_set_filter). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 2 * AS_FILTER_EXES_MAX);
	__type(key, struct as_exe_key);
	__type(value, __u8);
} filter_exes SEC(".maps") __weak;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 2 * AS_FILTER_EXES_MAX);
	__type(key, struct as_pin_key);
	__type(value, __u8);
} filter_pins SEC(".maps") __weak;

/* Where an exec's pin key is put together (272 bytes: not the stack). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct as_pin_key);
} pin_key SEC(".maps") __weak;

struct as_comm_key {
	char comm[AS_COMM_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 2 * AS_FILTER_NAMES_MAX);
	__type(key, struct as_comm_key);
	__type(value, __u8);
} filter_names SEC(".maps") __weak;

/* Settings, written through skel->rodata between open and load. */
extern const volatile __u32 cfg_self_tgid; /* agent-sentinel itself: never traced */
extern const volatile __u64 cfg_wakeup_bytes; /* wake the consumer once this much is queued */
extern volatile __u32 as_ring_idle; /* the consumer sleeps long: wake it (proc.bpf.c) */
extern const volatile __u32 cfg_host_netns; /* the host's network namespace inode, 0 unknown */
extern const volatile __u32 cfg_send_fold; /* fold repeated sends (as_send_repeat) */
/* Pre-filter settings, in .bss so that a rules reload can rewrite them: per
 * event type 0 = keep every event; d + 1 = keep it only when the process or
 * one of its first d ancestors has a name in filter_names */
extern volatile __u8 cfg_filter_depth[AS_EV_MAX];
extern volatile __u8 cfg_filter_walk; /* deepest level any type needs */
extern volatile __u32 cfg_filter_gen; /* bumped when the names change: verdicts expire */
extern volatile __u32 cfg_filter_npins; /* entries in filter_pins */
extern volatile __u64 cfg_rename_ns; /* bpf_ktime_get_ns() of the last bump by a rename */
/* Which opens can match a rule (classes, path prefixes): in .data, every
 * class wanted until the loader says otherwise. */
extern volatile struct as_open_filter cfg_open_filter;

/* First ancestor level (0 = the process) whose name is in filter_names, up to
 * cfg_filter_walk; else AS_VERDICT_LINEAGE when an entry of lin (NULL: none)
 * matches; AS_VERDICT_NONE otherwise (walk.bpf.c, a global function). */
__u32 as_verdict_compute(__u64 task, struct as_lineage *lin);

/* How many generations up from a task its creator is looked for
 * (as_descends_from) */
#define AS_KIN_DEPTH 8

/* Whether t descends from the process tgid within AS_KIN_DEPTH generations
 * of creators (real_parent: reparenting to init ends the chain) */
static __always_inline int as_descends_from(struct task_struct *t, __u32 tgid)
{
	for (int i = 0; i < AS_KIN_DEPTH; i++) {
		__u32 tg;

		t = BPF_CORE_READ(t, real_parent);
		tg = t ? BPF_CORE_READ(t, tgid) : 0;
		if (tg == tgid)
			return 1;
		if (tg <= 1)
			break;
	}
	return 0;
}

/* The current thread's lineage, or NULL (a thread alive before we started
 * that the loader could not seed). */
static __always_inline struct as_lineage *as_lineage_cur(void)
{
	struct as_task *t = bpf_task_storage_get(&tasks, bpf_get_current_task_btf(), 0, 0);

	return t ? &t->lin : NULL;
}

/* This thread's state, created on first use (a thread alive before we
 * started: its lineage then has no entries); NULL only when the kernel
 * cannot allocate it (or the storage is busy on this CPU). */
static __always_inline struct as_task_state *as_task_state(int create)
{
	struct as_task *t = bpf_task_storage_get(&tasks, bpf_get_current_task_btf(), 0,
						 create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);

	return t ? &t->st : NULL;
}

/* An inode's device as /proc/PID/mountinfo names it (user/kdev.h): its
 * superblock's s_dev (major << 20 | minor) in st_dev's new_encode_dev() form. */
static __always_inline __u32 as_dev_encode(__u32 dev)
{
	__u32 major = dev >> 20, minor = dev & 0xfffff;

	return (minor & 0xff) | (major << 8) | ((minor & ~0xffu) << 12);
}

static __always_inline __u32 as_ino_dev(struct inode *ino)
{
	return as_dev_encode(BPF_CORE_READ(ino, i_sb, s_dev));
}

/* What an exec records (walk.bpf.c, typed reads): the kind of file the
 * program runs from (AS_XF_EXE_*), a task's program as a lineage entry
 * (start_ns, ino, dev), and the credentials as an exec begins. */
__u32 as_exe_kind(__u64 task, __u64 exe);
int as_lin_ident(__u64 task, struct as_lin_ent *le);
int as_cred_prev(struct as_task_state *st);
/* AS_XF_INTERP_NOLINK when the ELF interpreter the kernel mapped at the
 * current task's exec has no link left (sys.bpf.c) */
__u32 as_interp_nolink(void);

static __always_inline int as_skip_self(void)
{
	return (__u32)(bpf_get_current_pid_tgid() >> 32) == cfg_self_tgid;
}

/* Time for a renamed task's new name to be written after task_rename fired:
 * a copy of 16 bytes under the task lock, not preemptible (an interrupt or
 * a vCPU stolen for longer than this is the residue) */
#define AS_RENAME_SETTLE_NS 1000000ull

/* May a verdict just taken be cached? Not while a rename may be unwritten
 * (tp_task_rename): it could have read the old name under the new gen. */
static __always_inline int as_verdict_keepable(void)
{
	/* signed: a rename on another CPU may have stamped a later time than
	 * this CPU's clock read */
	return (__s64)(bpf_ktime_get_ns() - cfg_rename_ns) >= (__s64)AS_RENAME_SETTLE_NS;
}

/* The current thread's verdict under gen: cached per thread (st, when there
 * is one) until the thread execs or the names change. agent-sentinel's own
 * threads have none, so a type the pre-filter judges needs no second test
 * of who is calling (as_prefiltered). */
static __always_inline __u32 as_verdict_of(struct as_task_state *st, __u32 gen)
{
	__u8 v;

	if (st && st->verdict_gen == gen)
		return st->verdict;
	v = as_skip_self() ? AS_VERDICT_NONE :
			     as_verdict_compute(bpf_get_current_task(), as_lineage_cur());
	if (st && as_verdict_keepable()) {
		st->verdict = v;
		st->verdict_gen = gen;
	}
	return v;
}

/* This CPU's cached verdict for the current thread, or AS_VERDICT_MISS; and
 * caching one (walk.bpf.c: global functions, where typed reads are). */
__u32 as_vcache_get(__u32 gen);
int as_vcache_put(__u32 gen, __u32 verdict);

/* Does the current thread pass a pre-filter of depth d (cfg_filter_depth:
 * 0 keeps every event)? */
static __always_inline int as_depth_pass(__u8 d)
{
	__u32 gen = cfg_filter_gen, v;

	if (!d)
		return 1;
	v = as_vcache_get(gen);
	if (v == AS_VERDICT_MISS) {
		struct as_task_state *st = as_task_state(1);

		v = as_verdict_of(st, gen);
		/* no storage: judged afresh each time, as without the cache */
		if (st && st->verdict_gen == gen)
			as_vcache_put(gen, v);
	}
	return v < d;
}

/* Does an event of this type from the current thread pass the pre-filter? */
static __always_inline int as_filter_pass(__u32 type)
{
	if (type >= AS_EV_MAX)
		return 1;
	return as_depth_pass(cfg_filter_depth[type]);
}

/* A new program, maybe a new name: judge the thread afresh. */
static __always_inline void as_verdict_forget(void)
{
	struct as_task_state *st = as_task_state(0);

	if (st)
		st->verdict_gen = 0;
}

static __always_inline struct as_scratch *as_scratch(void)
{
	__u32 cpu = bpf_get_smp_processor_id();

	return bpf_map_lookup_elem(&scratch, &cpu);
}

static __always_inline __u8 *as_scratch_buf(void)
{
	struct as_scratch *s = as_scratch();

	return s ? s->buf : 0;
}

/* as_hdr_fill's sc argument may carry this: the call came through the
 * 32-bit ABI (AS_HF_COMPAT). */
#define AS_SC_COMPAT_BIT (1u << 16)

/*
 * The current syscall's arguments as the 32-bit ABI passes them, into this
 * CPU's scratch (compat.args): ebx, ecx, edx, esi, edi, ebp, each 32 bits
 * wide (zero-extended: pointers of a 32-bit process reach 4 GiB; userspace
 * prints int arguments as 32-bit ones). A socketcall's are u32s in user
 * memory; a 16-bit id (setuid16 and kin) of 0xffff is -1, as the kernel's
 * low2highuid makes it. A global function (walk.bpf.c): its branches per
 * argument would otherwise be states of their own in every caller.
 */
int as_compat_args_load(void);

static __always_inline void as_syscall_args_compat(__u64 args[AS_SYSCALL_ARGS])
{
	struct as_scratch *s;

	as_compat_args_load();
	s = as_scratch();
	if (!s) {
		__builtin_memset(args, 0, AS_SYSCALL_ARGS * sizeof(args[0]));
		return;
	}
	/* read back from map memory: numbers the verifier does not follow */
	for (int i = 0; i < AS_SYSCALL_ARGS; i++)
		args[i] = s->compat.args[i];
}

/* The arguments by the ABI the call came through (compat: a constant). */
static __always_inline void as_args(__u64 args[AS_SYSCALL_ARGS], int compat)
{
	if (compat)
		as_syscall_args_compat(args);
	else
		as_syscall_args(args);
}

/* Does this event pass the pre-filter, and is it not our own? A 32-bit
 * call (compat) was asked already, once, by the compat program. Our own
 * threads' verdict is none: only a type kept whole asks who is calling. */
static __always_inline int as_prefiltered(__u32 type, int compat)
{
	__u8 d;

	if (compat)
		return 1;
	if (type >= AS_EV_MAX)
		return !as_skip_self();
	/* read once: a rules reload writes the depths while we run */
	d = cfg_filter_depth[type];
	return d ? as_depth_pass(d) : !as_skip_self();
}

#define AS_PF_IO_WORKER 0x10 /* task->flags of io_uring's threads */

/* The pre-filter for an act io_uring's threads (SQPOLL, io-wq workers:
 * "iou-sqp-N", "iou-wrk-N", named by no rule) do for their ring's owner:
 * judged as the owner, the leader of its thread group (not cached: such
 * threads are few); any other thread as as_prefiltered judges it. */
static __always_inline int as_prefiltered_owner(__u32 type)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	__u8 d;

	if (type >= AS_EV_MAX || as_skip_self())
		return 0;
	d = cfg_filter_depth[type];
	if (!d)
		return 1;
	if (BPF_CORE_READ(task, flags) & AS_PF_IO_WORKER)
		return as_verdict_compute((__u64)BPF_CORE_READ(task, group_leader),
					  as_lineage_cur()) < d;
	return as_depth_pass(d);
}

/* ---- reading the task ------------------------------------------------- */

struct kernfs_node___old {
	struct kernfs_node *parent;
};

static __always_inline struct kernfs_node *as_kn_parent(struct kernfs_node *kn)
{
	if (bpf_core_field_exists(kn->__parent))
		return BPF_CORE_READ(kn, __parent);
	return BPF_CORE_READ((struct kernfs_node___old *)kn, parent);
}

/* ---- storing into the record ----------------------------------------- */

/* Fill the common header for the current task. A global function
 * (walk.bpf.c): the verifier checks the ancestor walk once, not in each of
 * the thirty-odd programs, which keeps start-up fast. */
int as_hdr_fill_task(struct as_hdr *h, __u32 type, __u32 sc);

static __always_inline void as_hdr_fill(struct as_hdr *h, struct task_struct *task, __u16 type,
					__u32 sc)
{
	(void)task; /* always the current one */
	as_hdr_fill_task(h, type, sc);
}

/*
 * Append the component list of (dentry, vfsmnt) as the task sees it: names
 * from the leaf up to the task's root (task->fs->root), crossing mounts, each
 * NUL-terminated, at offset start of this CPU's scratch buffer.
 * Returns the bytes written in the low 32 bits and AS_PATH_* flags in the
 * high ones.
 * A global function (walk.bpf.c), so the verifier checks the walk once, not
 * at every call site; kernel pointers travel as scalars for that reason.
 */

__u64 as_path_walk(__u32 start, __u64 dentry, __u64 vfsmnt, __u64 task);

/*
 * The open pre-filter's path test (walk.bpf.c): walks the path of file like
 * as_path_walk but copies no name: a name is read only when an atom can
 * match its length, and the names nearest the root are noted in the
 * scratch map's top. In plain bounded loops (at most AS_EXCL_DEPTH hops);
 * then renders only the components nearest the root that the longest
 * prefix needs. 1 when no term of class c passes the path (drop the open);
 * 0 when one does, or when the walk did not reach the root (the event is
 * kept: the test errs on that side).
 */
int as_file_dropped(__u32 c, __u64 file, __u64 task);

static __always_inline __u32 as_put_task_path(__u8 *buf, __u32 start, const struct path *path,
					      struct task_struct *task, __u32 *pflags)
{
	__u64 r = as_path_walk(start, (__u64)BPF_CORE_READ(path, dentry),
			       (__u64)BPF_CORE_READ(path, mnt), (__u64)task);

	(void)buf;
	*pflags = r >> 32;
	return (__u32)r;
}

/* A file on no mount the walk could follow (a memfd, an anonymous file):
 * its dentry's own name at off, as the kernel names it ("memfd:NAME");
 * returns the bytes written, NUL included, 0 for none. */
static __always_inline __u32 as_put_detached_name(__u8 *buf, __u32 off, struct file *f)
{
	long k = bpf_probe_read_kernel_str(buf + (off & AS_SCRATCH_OFF_MASK), AS_NAME_MAX,
					   BPF_CORE_READ(f, f_path.dentry, d_name.name));

	return k > 1 ? k : 0;
}

/* The file behind descriptor fd of task, or NULL (walk.bpf.c). */
__u64 as_task_file_p(__u64 task, __s64 fd);

static __always_inline struct file *as_task_file(struct task_struct *task, __s64 fd)
{
	return (struct file *)as_task_file_p((__u64)task, fd);
}

/* Append a NUL-terminated user string of at most max bytes; *trunc set when cut. */
static __always_inline __u32 as_put_user_str(__u8 *buf, __u32 off, const void *src, __u32 max,
					     int *trunc)
{
	long n;

	if (max > AS_PATH_MAX)
		max = AS_PATH_MAX;
	n = bpf_probe_read_user_str(buf + (off & AS_SCRATCH_OFF_MASK), max, src);

	if (n <= 0) {
		buf[off & AS_SCRATCH_OFF_MASK] = 0;
		return 1;
	}
	*trunc = (__u32)n == max;
	return n;
}

/* The base directory of slot i's relative path, at off of the generic
 * record r: the cwd (cwd set, or dfd AT_FDCWD) or the dirfd's file; its
 * kind and walk flags go into r->pflags. Returns the bytes written. */
static __always_inline __u32 as_put_slot_base(__u8 *buf, __u32 off, struct as_sys *r, __u32 i,
					      int cwd, int dfd, struct task_struct *task)
{
	__u32 shift = (i & 1) * AS_SYF_SLOT_BITS, base = 0, pf = 0;

	if (cwd || dfd == AS_AT_FDCWD) {
		struct fs_struct *fs = BPF_CORE_READ(task, fs);

		base = as_put_task_path(buf, off, &fs->pwd, task, &pf);
		r->pflags |= (AS_SYF_BASE_CWD | pf << AS_SYF_WALK_SHIFT) << shift;
	} else {
		struct file *dir = as_task_file(task, dfd);

		if (dir) {
			base = as_put_task_path(buf, off, &dir->f_path, task, &pf);
			r->pflags |= (AS_SYF_BASE_DIRFD | pf << AS_SYF_WALK_SHIFT) << shift;
		}
	}
	r->base_len[i & 1] = base;
	return base;
}

/* ---- a path through a descriptor's /proc link ----------------------- */

/*
 * The string of slot i (len bytes at off, NUL included) names the caller's
 * descriptor N when the kernel's walk went through a /proc fd directory:
 * "fd/N" in it, or N first from a base directory named fd (blen bytes at
 * off + len). The file behind N at the call's exit is what the walk
 * reached; a descriptor closed right after the call leaves userspace
 * nothing else to read it by. Its component list goes at off + len + blen
 * (struct as_sys fdl_*); returns the bytes written. Which directory "fd"
 * really was is userspace's to say (user/pathres.c): here only the
 * candidate. A global function in walk.bpf.c, checked once: where packs off
 * (bits 0-15), len (16-31), blen (32-47) and i (48).
 */
__u32 as_put_fdlink_p(__u64 where, __u64 task);

static __always_inline __u32 as_put_fdlink(__u32 off, __u32 len, __u32 blen, __u32 i,
					   struct task_struct *task)
{
	return as_put_fdlink_p((__u64)(off & 0xffff) | (__u64)(len & 0xffff) << 16 |
				       (__u64)(blen & 0xffff) << 32 | (__u64)(i & 1) << 48,
			       (__u64)task);
}

/* Append the cgroup v2 path of the task as a component list (walk.bpf.c);
 * returns bytes written, AS_PATH_* flags in the high 32 bits. */
__u64 as_cgroup_walk(__u32 start, __u64 task);

static __always_inline __u32 as_put_cgroup(__u8 *buf, __u32 start, struct task_struct *task,
					   __u32 *pflags)
{
	__u64 r = as_cgroup_walk(start, (__u64)task);

	(void)buf;
	*pflags = r >> 32;
	return (__u32)r;
}

/* ---- sending --------------------------------------------------------- */

static __always_inline void as_count_drop(__u32 type)
{
	__u64 *cnt = bpf_map_lookup_elem(&drops, &type);

	if (cnt)
		*cnt += 1;
}

/* Send size bytes of buf; a full ring buffer is counted per event type. The
 * consumer is woken only when cfg_wakeup_bytes are waiting (it also polls
 * with a short timeout), so a burst costs one wakeup, not one per event;
 * and by the first record after it found the ring idle and went to sleep
 * for longer (as_ring_idle), so an idle host costs no wakeups. */
static __always_inline void as_emit(__u8 *buf, __u32 size)
{
	struct as_hdr *h = (struct as_hdr *)buf;
	__u64 wake = BPF_RB_NO_WAKEUP;

	size &= AS_SCRATCH_OFF_MASK;
	if (size < sizeof(struct as_hdr))
		return;
	h->size = size;
	if (!cfg_wakeup_bytes || as_ring_idle ||
	    bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) >= cfg_wakeup_bytes)
		wake = BPF_RB_FORCE_WAKEUP;
	if (bpf_ringbuf_output(&events, buf, size, wake))
		as_count_drop(h->type);
	if (wake == BPF_RB_FORCE_WAKEUP && as_ring_idle)
		as_ring_idle = 0;
}

/* Start the record of a syscall exit that passed the pre-filter, its
 * arguments read: this CPU's scratch buffer with the header filled in.
 * Returns the buffer or NULL. */
static __always_inline __u8 *as_exit_hdr(__u32 type, __u32 sc, int compat)
{
	__u8 *buf = as_scratch_buf();

	if (!buf)
		return 0;
	as_hdr_fill((struct as_hdr *)buf, (struct task_struct *)bpf_get_current_task(), type,
		    sc | (compat ? AS_SC_COMPAT_BIT : 0));
	return buf;
}

/* The same, reading the arguments first. */
static __always_inline __u8 *as_exit_record(__u32 type, __u32 sc, __u64 args[AS_SYSCALL_ARGS],
					    int compat)
{
	if (!as_scratch_buf())
		return 0;
	as_args(args, compat);
	return as_exit_hdr(type, sc, compat);
}

/* The same, first telling the syscall (sc) and whether an event of this
 * type from this thread passes the pre-filter. */
static __always_inline __u8 *as_exit_begin(struct as_sys_exit *ctx, __u32 type, __u32 *sc,
					   __u64 args[AS_SYSCALL_ARGS], int compat)
{
	*sc = as_sc_of(ctx->id);
	if (*sc == AS_SC_NONE || !as_prefiltered(type, compat))
		return 0;
	return as_exit_record(type, *sc, args, compat);
}

/* Each family's exit body through the 32-bit ABI, on the call whose x86_64
 * number is id (the family's own file; called by bpf/compat.bpf.c). A
 * global function, so the compat program verifies each body once. */
#define AS_COMPAT_FN(name, handler)                                                        \
	__noinline int name(__s64 id, __s64 ret)                                           \
	{                                                                                  \
		struct as_sys_exit c = {};                                                 \
                                                                                           \
		c.id = id;                                                                 \
		c.ret = ret;                                                               \
		return handler(&c, 1);                                                     \
	}
/* Does this send, to the destination as_send_dest put in this CPU's
 * scratch, repeat the thread's last one on the socket (walk.bpf.c)? call:
 * the syscall, with AS_SC_COMPAT_BIT for the 32-bit ABI. */
int as_send_repeat(__u32 call, __s32 fd, __u32 flags, __s64 ret);
/* A send's destination (message j) into this CPU's scratch, from the
 * kernel's notes (1) or the caller's memory (0); and the notes taken
 * (walk.bpf.c). */
int as_send_dest(__u64 uaddr_p, __s32 fd, __u32 j);
int as_send_notes_done(void);
int as_compat_open(__s64 id, __s64 ret);
int as_compat_net(__s64 id, __s64 ret);
int as_compat_setid(__s64 id, __s64 ret);
int as_compat_capset(__s64 id, __s64 ret);
int as_raw_generic(__s64 id, __s64 ret, __u32 compat);

#endif /* AS_SENTINEL_BPF_H */
