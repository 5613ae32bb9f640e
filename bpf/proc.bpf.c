// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Process lifecycle: exec (and failed execve/execveat), fork, exit. */
#include "sentinel.bpf.h"

const volatile __u32 cfg_self_tgid = 0;
const volatile __u64 cfg_wakeup_bytes = 0;
const volatile __u32 cfg_host_netns = 0;
/* .bss, not rodata: a rules reload rewrites them while the programs run */
volatile __u8 cfg_filter_depth[AS_EV_MAX];
volatile __u8 cfg_filter_walk;
volatile __u32 cfg_filter_gen = 1;
volatile __u64 cfg_rename_ns;
/* 1: the consumer found the ring empty for a while and sleeps long; the
 * next record wakes it (as_emit), and clears this */
volatile __u32 as_ring_idle;
volatile __u32 cfg_filter_npins;
volatile struct as_open_filter cfg_open_filter = { .classes = 0xffff };

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* exe, cwd and cgroup of the current task: the tail every exec record shares. */
static __always_inline __u32 as_put_exec_tail(__u8 *buf, __u32 off, struct as_exec *e,
					      struct task_struct *task)
{
	struct file *exe = BPF_CORE_READ(task, mm, exe_file);
	struct fs_struct *fs = BPF_CORE_READ(task, fs);
	__u32 pf = 0;

	e->exe_len = 0;
	if (exe) {
		e->pflags |= as_exe_kind((__u64)task, (__u64)exe);
		e->exe_len = as_put_task_path(buf, off, &exe->f_path, task, &pf);
		e->pflags |= pf << AS_XF_EXE_SHIFT;
		off += e->exe_len;
	}
	e->cwd_len = as_put_task_path(buf, off, &fs->pwd, task, &pf);
	e->pflags |= pf << AS_XF_CWD_SHIFT;
	off += e->cwd_len;
	e->cgroup_len = as_put_cgroup(buf, off, task, &pf);
	e->pflags |= pf << AS_XF_CGROUP_SHIFT;
	off += e->cgroup_len;
	return off;
}

#define AS_SESSION_KEY "AGENT_SESSION_ID="
#define AS_SESSION_KEY_LEN (sizeof(AS_SESSION_KEY) - 1)
/* The dynamic loader's variables that put code into any program it starts:
 * LD_PRELOAD= and LD_AUDIT= (libraries loaded first), LD_LIBRARY_PATH= (the
 * directories searched before the system's). Shortest: "LD_AUDIT=". */
#define AS_LD_KEY_MIN (sizeof("LD_AUDIT=") - 1)
/* a match needs its key and its value's first byte (an empty value is
 * none): the longest key's bytes past a string start are read for every
 * start, the shortest's must lie in the block for a start to be tested */
#define AS_ENV_NEED (AS_SESSION_KEY_LEN + 1)
#define AS_ENV_NEED_MIN (AS_LD_KEY_MIN + 1)
/* steps (groups of string starts) that cover AS_ENV_SCAN_MAX bytes */
#define AS_ENV_STEPS (AS_ENV_SCAN_MAX / AS_ENV_GROUP)
_Static_assert(AS_ENV_CHUNK % AS_ENV_GROUP == 0 && AS_ENV_CHUNK_FIRST % AS_ENV_GROUP == 0,
	       "a chunk holds whole groups of string starts");

/* Eight bytes as the word a little-endian load gives: the key is compared as
 * two words and one byte. */
#define AS_LE8(a, b, c, d, e, f, g, h)                                                             \
	((__u64)(a) | (__u64)(b) << 8 | (__u64)(c) << 16 | (__u64)(d) << 24 | (__u64)(e) << 32 |   \
	 (__u64)(f) << 40 | (__u64)(g) << 48 | (__u64)(h) << 56)
#define AS_KEY_W0 AS_LE8('A', 'G', 'E', 'N', 'T', '_', 'S', 'E')
#define AS_KEY_W1 AS_LE8('S', 'S', 'I', 'O', 'N', '_', 'I', 'D')
#define AS_KEY_LAST '=' /* AS_SESSION_KEY[16] */
#define AS_LD_PRELOAD_W0 AS_LE8('L', 'D', '_', 'P', 'R', 'E', 'L', 'O') /* then "AD=" */
#define AS_LD_AUDIT_W0 AS_LE8('L', 'D', '_', 'A', 'U', 'D', 'I', 'T') /* then "=" */
#define AS_LD_LIBRARY_W0 AS_LE8('L', 'D', '_', 'L', 'I', 'B', 'R', 'A')
#define AS_LD_LIBRARY_W1 AS_LE8('R', 'Y', '_', 'P', 'A', 'T', 'H', '=')
#define AS_BYTES_1 0x0101010101010101ull
#define AS_BYTES_A (AS_BYTES_1 * 'A')
#define AS_BYTES_L (AS_BYTES_1 * 'L')
#define AS_BYTES_D (AS_BYTES_1 * 'D')
#define AS_BYTES_HIGH (AS_BYTES_1 * 0x80)
/* The high bit of every zero byte of x is set (and maybe that of a 0x01 byte
 * above a zero one): word-at-a-time string scanning, as strlen does it. A
 * superset of the zero bytes is enough: every hit is then checked byte by
 * byte. Applied to (the word one byte before) | (the word ^ 'A'...), a zero
 * byte is a string start holding 'A'. */
#define AS_ZERO_BYTES(x) (((x) - AS_BYTES_1) & ~(x))
_Static_assert(AS_SESSION_KEY_LEN == 17, "the key is two words and one byte");

/*
 * The session id from the environment block [env_start, env_end), as exec
 * left it: a run of NUL-terminated strings, and whether the loader's
 * variables are among them. The block is read a chunk at a time (one
 * bpf_probe_read_user each, instead of one read per string: ~140 ns per
 * string), and each chunk is tested AS_ENV_GROUP bytes per step, a word at
 * a time, for a string start (a byte after a NUL) holding 'A' (the session
 * key's first byte) or "LD", which few strings start with; only a group
 * with one is looked at closely. Two bpf_loop() levels (groups, reading the
 * next chunk where one ends; bytes of a word with a hit) keep the
 * verifier's work small; the scan's state is in the scratch map (struct
 * as_envscan).
 */
/* The string starts holding 'A' or "LD" in the 8 bytes at p: 0x80 in their
 * bytes (and maybe in others: each is checked). */
static __always_inline __u64 as_env_starts(const __u8 *p)
{
	/* unaligned loads: fine on the architectures we build for (x86) */
	__u64 w = *(const __u64 *)p, before = *(const __u64 *)(p - 1);
	__u64 next = *(const __u64 *)(p + 1);

	return (AS_ZERO_BYTES(before | (w ^ AS_BYTES_A)) |
		AS_ZERO_BYTES(before | (w ^ AS_BYTES_L) | (next ^ AS_BYTES_D))) &
	       AS_BYTES_HIGH;
}

/* Does the string at p start "AGENT_SESSION_ID=" and a value? */
static __always_inline int as_env_is_key(const __u8 *p)
{
	return !p[-1] && *(const __u64 *)p == AS_KEY_W0 && *(const __u64 *)(p + 8) == AS_KEY_W1 &&
	       p[16] == AS_KEY_LAST && p[17];
}

/* Does the string at p set one of the loader's variables (a value)?
 * AS_ENV_LD: LD_PRELOAD or LD_AUDIT; AS_ENV_LDPATH: LD_LIBRARY_PATH, whose
 * value starts AS_LD_LIBRARY_KEY_LEN bytes in. */
#define AS_ENV_LD 1
#define AS_ENV_LDPATH 2
#define AS_LD_LIBRARY_KEY_LEN (sizeof("LD_LIBRARY_PATH=") - 1)
static __always_inline int as_env_is_ld(const __u8 *p)
{
	__u64 w = *(const __u64 *)p;

	if (p[-1])
		return 0;
	if (w == AS_LD_PRELOAD_W0)
		return p[8] == 'A' && p[9] == 'D' && p[10] == '=' && p[11] ? AS_ENV_LD : 0;
	if (w == AS_LD_AUDIT_W0)
		return p[8] == '=' && p[9] ? AS_ENV_LD : 0;
	return w == AS_LD_LIBRARY_W0 && *(const __u64 *)(p + 8) == AS_LD_LIBRARY_W1 && p[16]
		       ? AS_ENV_LDPATH
		       : 0;
}

/* Byte index of the word at env.word: does a key start there? */
static long as_env_byte(__u32 index, void *ctx)
{
	struct as_scratch *sc = as_scratch();
	struct as_envscan *s;
	const __u8 *p;
	__u32 pos;

	if (!sc)
		return 1;
	s = &sc->env;
	pos = s->word + index;
	if (pos >= s->starts)
		return 1;
	AS_VERIFIER_MASK(pos, 32767); /* pos < AS_ENV_CHUNK already */
	p = sc->buf + AS_ENV_DATA + pos;
	if (!s->value && as_env_is_key(p)) {
		s->value = s->base + pos + AS_SESSION_KEY_LEN;
	} else {
		/* glibc's loader takes the last LD_LIBRARY_PATH, getenv() the
		 * first: a second one counts as set, whatever its value */
		int ld = as_env_is_ld(p);

		if (ld == AS_ENV_LD || (ld == AS_ENV_LDPATH && s->ldpath))
			s->ld = 1;
		else if (ld == AS_ENV_LDPATH)
			s->ldpath = s->base + pos + AS_LD_LIBRARY_KEY_LEN;
	}
	return 0;
}

/* The chunk whose string starts begin at env.base: read it, the byte before
 * it and what the longest key at its last start needs (zeros past the
 * block's end). Nonzero at the end of the block, or where it cannot be read
 * (env.partial). */
static __always_inline int as_env_read(struct as_scratch *sc)
{
	struct as_envscan *s = &sc->env;
	__u64 len = s->limit > s->base ? s->limit - s->base : 0;
	/* a first chunk as small as most environments: the read costs its size */
	__u64 most = s->base > s->start ? AS_ENV_CHUNK : AS_ENV_CHUNK_FIRST;
	__u32 tail;

	if (len < AS_ENV_NEED_MIN)
		return 1;
	if (len > most + AS_ENV_NEED - 1)
		len = most + AS_ENV_NEED - 1;
	s->starts = len - AS_ENV_NEED_MIN + 1 < most ? len - AS_ENV_NEED_MIN + 1 : most;
	/* the byte before the block is in the stack's mapping too (argv's
	 * strings, or the pointers below them) */
	if (bpf_probe_read_user(sc->buf + AS_ENV_DATA - 1, len + 1, (void *)(s->base - 1))) {
		s->partial = 1;
		return 1;
	}
	if (s->base == s->start)
		sc->buf[AS_ENV_DATA - 1] = 0; /* the block's first byte starts a string */
	/* a start near the block's end reads a longer key's bytes past it */
	tail = len;
	AS_VERIFIER_MASK(tail, 32767);
	__builtin_memset(sc->buf + AS_ENV_DATA + tail, 0, AS_ENV_NEED);
	return 0;
}

/* One step: the AS_ENV_GROUP string starts at index * AS_ENV_GROUP in the
 * block (in the next chunk, read first, where this one is done), their
 * words tested for 'A' after a NUL at once; only a group with one is looked
 * at word by word, and only a word with one byte by byte. */
static long as_env_step(__u32 index, void *ctx)
{
	struct as_scratch *sc = as_scratch();
	struct as_envscan *s;
	const __u8 *p;
	__u64 at, hit = 0;
	__u32 off;
	int i;

	if (!sc)
		return 1;
	s = &sc->env;
	at = s->start + (__u64)index * AS_ENV_GROUP;
	if (at >= s->base + s->starts) {
		s->base = at; /* chunks hold whole groups of starts: at is where one ended */
		if (as_env_read(sc))
			return 1;
	}
	off = at - s->base;
	AS_VERIFIER_MASK(off, 32767); /* off < AS_ENV_CHUNK already */
	p = sc->buf + AS_ENV_DATA + off;
#pragma unroll 8
	for (i = 0; i < AS_ENV_GROUP; i += 8)
		hit |= as_env_starts(p + i);
	if (!hit)
		return 0;
	/* the words with one, tested again in line (a bpf_loop() over the
	 * group's 32 words cost ~20 ns a call: ~700 ns for each string that
	 * starts with 'A', of which agents' environments have several) */
#pragma unroll
	for (i = 0; i < AS_ENV_GROUP; i += 8) {
		if (!as_env_starts(p + i))
			continue;
		s->word = off + i;
		bpf_loop(8, as_env_byte, 0, 0);
		if (s->value && s->ld)
			return 1; /* nothing left to find */
	}
	return 0;
}

/* AGENT_SESSION_ID in the new program's environment makes it (and, through
 * fork, its descendants) part of that agent session; without it a process
 * keeps the session it inherited. The first string that starts with the
 * key and has a non-empty value counts, if the key and the value's first
 * byte lie in the environment's first AS_ENV_SCAN_MAX bytes; the value is
 * cut to AS_SESSION_MAX - 1 bytes. Returns AS_XF_LD_ENV when LD_PRELOAD or
 * LD_AUDIT is set, or when part of the block went unread (an environment
 * past the scan's reach could hide them); *ldpath is the user address of
 * LD_LIBRARY_PATH's value, 0 when it is not set. */
static __always_inline __u32 as_session_from_env(struct task_struct *task, __u64 *ldpath)
{
	struct as_scratch *sc = as_scratch();
	struct as_session sess = {};
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	struct as_envscan *s;
	__u32 ld;
	__u64 end;

	if (!sc)
		return 0;
	s = &sc->env;
	s->start = s->base = BPF_CORE_READ(task, mm, env_start);
	s->starts = 0; /* no chunk read yet */
	s->word = 0;
	s->value = 0;
	s->ldpath = 0;
	s->ld = 0;
	s->partial = 0;
	end = BPF_CORE_READ(task, mm, env_end);
	if (end - s->start > AS_ENV_SCAN_MAX) {
		s->limit = s->start + AS_ENV_SCAN_MAX;
		s->partial = 1;
	} else {
		s->limit = end;
	}
	bpf_loop(AS_ENV_STEPS, as_env_step, 0, 0);
	ld = s->ld || s->partial ? AS_XF_LD_ENV : 0;
	*ldpath = s->ldpath;
	if (!s->value)
		return ld;
	/* up to the string's NUL: exec ends every one, the last at env_end */
	bpf_probe_read_user_str(sess.id, sizeof(sess.id), (void *)s->value);
	bpf_map_update_elem(&sessions, &tgid, &sess, BPF_ANY);
	return ld;
}

/* ---- lineage (struct as_lineage, bpf/events.h) ------------------------ */

/* Make room for a new entry in front: dst = src shifted by one (dst may be
 * src: inplace). Full: the oldest entry that is not named gives way (the
 * oldest of all when every one is). Destination slots are walked from the
 * oldest down, each index a constant, so the verifier sees every access
 * bounded. The caller fills e[0] and its bits. */
static __always_inline void as_lin_shift(struct as_lineage *dst, const struct as_lineage *src,
					 int inplace)
{
	__u32 n = src->n, drop = n, low;
	int full = n >= AS_LINEAGE_MAX;

	if (full) {
		drop = AS_LINEAGE_MAX - 1;
#pragma unroll
		for (int i = AS_LINEAGE_MAX - 1; i >= 0; i--)
			if (!(src->named & (1u << i))) {
				drop = i;
				break;
			}
	}
#pragma unroll
	for (int j = AS_LINEAGE_MAX - 1; j >= 1; j--) {
		if ((__u32)j > drop) {
			if (!inplace && full)
				dst->e[j] = src->e[j]; /* older than the one dropped: stays */
		} else {
			dst->e[j] = src->e[j - 1];
		}
	}
	low = (2u << drop) - 1; /* bits 0..drop move up by one */
	dst->forked = (src->forked & ~low) | ((src->forked << 1) & low);
	dst->named = (src->named & ~low) | ((src->named << 1) & low);
	dst->flags = src->flags | (full ? AS_LIN_TRUNC : 0);
	dst->n = full ? AS_LINEAGE_MAX : n + 1;
}

/* Is the task's executable at a pinned path (filter_pins: its directory
 * and name), whatever inode it has now? */
static __always_inline int as_lin_pinned(struct task_struct *task)
{
	struct dentry *d = BPF_CORE_READ(task, mm, exe_file, f_path.dentry);
	struct inode *dir = BPF_CORE_READ(d, d_parent, d_inode);
	struct as_pin_key *k;
	__u32 zero = 0;

	if (!cfg_filter_npins || !d || !dir)
		return 0;
	k = bpf_map_lookup_elem(&pin_key, &zero);
	if (!k)
		return 0;
	__builtin_memset(k, 0, sizeof(*k));
	k->dir_ino = BPF_CORE_READ(dir, i_ino);
	k->dir_dev = as_ino_dev(dir);
	if (bpf_probe_read_kernel_str(k->name, sizeof(k->name), BPF_CORE_READ(d, d_name.name)) <= 0)
		return 0;
	return bpf_map_lookup_elem(&filter_pins, k) != NULL;
}

/* Is entry le, the task's new program, one the pre-filter tests (a name in
 * filter_names, an executable in filter_exes or at a pinned path)? */
static __always_inline int as_lin_named(struct as_lin_ent *le, struct task_struct *task)
{
	struct as_exe_key ek = { .ino = le->ino, .dev = le->dev };
	struct as_comm_key key;

	__builtin_memcpy(key.comm, le->comm, AS_COMM_LEN);
	return bpf_map_lookup_elem(&filter_names, &key) ||
	       (ek.ino && bpf_map_lookup_elem(&filter_exes, &ek)) || as_lin_pinned(task);
}

/* At exec: the new program's identity goes in front; a forked entry there
 * (the image the process had from its creator) is replaced by it. */
static __always_inline void as_lin_exec(struct task_struct *task)
{
	struct as_task *t = bpf_task_storage_get(&tasks, bpf_get_current_task_btf(), 0,
						 BPF_LOCAL_STORAGE_GET_F_CREATE);
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	struct as_lineage *l;

	if (!t)
		return;
	l = &t->lin;
	if (!l->n)
		l->flags |= AS_LIN_NONE | AS_LIN_TRUNC; /* alive before us, not seeded */
	if (!l->n || !(l->forked & 1) || l->e[0].pid != tgid)
		as_lin_shift(l, l, 1);
	l->forked &= ~1u;
	l->e[0].pid = tgid;
	bpf_get_current_comm(l->e[0].comm, sizeof(l->e[0].comm));
	as_lin_ident((__u64)task, &l->e[0]);
	if (as_lin_named(&l->e[0], task))
		l->named |= 1;
	else
		l->named &= ~1u;
}

/* At fork: a new thread gets its process's lineage; a new process its
 * creator's with itself in front, forked, running its creator's image. */
static __always_inline void as_lin_fork(struct task_struct *parent, struct task_struct *child,
					__u32 is_thread)
{
	struct as_task *pt = bpf_task_storage_get(&tasks, parent, 0, 0);
	struct as_task *ct = bpf_task_storage_get(&tasks, child, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	struct as_lineage *pl = pt ? &pt->lin : NULL, *cl;

	if (!ct)
		return;
	cl = &ct->lin; /* and its state zeroed: no verdict, no exec in progress */
	if (is_thread) {
		if (pl)
			*cl = *pl;
		return;
	}
	if (pl && pl->n) {
		as_lin_shift(cl, pl, 0);
		cl->e[0] = pl->e[0];
		cl->named |= (cl->named >> 1) & 1; /* the same image as its creator's */
	} else {
		/* a creator alive before us that the loader could not seed */
		cl->n = 1;
		cl->forked = 0;
		cl->named = 0;
		cl->flags = AS_LIN_NONE | AS_LIN_TRUNC;
		bpf_probe_read_kernel(cl->e[0].comm, AS_COMM_LEN, &parent->group_leader->comm);
		/* (the tracepoint's parent is current: as a scalar, as global functions take it) */
		as_lin_ident(bpf_get_current_task(), &cl->e[0]); /* start_ns: the child's, below */
	}
	cl->forked |= 1;
	cl->e[0].pid = BPF_CORE_READ(child, tgid);
	cl->e[0].start_ns = BPF_CORE_READ(child, start_time);
}

/* Which exec is in progress, for sched_process_exec: after a successful
 * execveat the saved registers say execve (orig_ax is 59 by then on x86),
 * so the syscall is noted on the way in. Also attached to
 * sys_enter_execveat (user/attach.c). */
SEC("tracepoint/syscalls/sys_enter_execve")
int tp_sys_enter_execve(struct as_sys_enter_id *ctx)
{
	struct as_task_state *st;

	if (as_skip_self())
		return 0;
	st = as_task_state(1);
	if (st) {
		st->exec_sc = (__u8)as_sc_of(ctx->id);
		as_cred_prev(st); /* what a setuid bit or file capabilities would change */
	}
	return 0;
}


SEC("tracepoint/sched/sched_process_exec")
int tp_sched_process_exec(struct trace_event_raw_sched_process_exec *ctx)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	__u32 sc, off;
	struct mm_struct *mm;
	struct as_exec *e;
	__u64 arg_start, len, ldpath = 0;
	__u32 ld;
	__u8 *buf;
	long n;

	if (as_skip_self())
		return 0;
	buf = as_scratch_buf();
	if (!buf)
		return 0;
	/* the task that called exec (its task storage stays with it) */
	struct as_task_state *st = as_task_state(0);

	sc = st && st->exec_sc == AS_SC_EXECVEAT ? AS_SC_EXECVEAT : AS_SC_EXECVE;
	/* the lineage first: the verdict below reads it */
	as_lin_exec(task);
	/* a new program, maybe a new name: judge the process afresh */
	as_verdict_forget();
	if (!as_filter_pass(AS_EV_EXEC)) {
		if (st)
			st->exec_sc = AS_SC_NONE;
		return 0;
	}
	/* uses the scratch buffer: before the record */
	ld = as_session_from_env(task, &ldpath);
	e = (struct as_exec *)buf;
	as_hdr_fill(&e->hdr, task, AS_EV_EXEC, sc);
	e->res = 0;
	e->pflags = ld;
	e->ldpath_len = 0;
	e->mntns = BPF_CORE_READ(task, nsproxy, mnt_ns, ns.inum);
	e->userns = BPF_CORE_READ(task, cred, user_ns, ns.inum);
	e->prev_uid = e->prev_gid = e->prev_euid = e->prev_egid = 0;
	e->prev_cap_permitted = e->prev_cap_effective = 0;
	if (st && st->exec_sc != AS_SC_NONE) {
		e->prev_uid = st->prev_uid;
		e->prev_gid = st->prev_gid;
		e->prev_euid = st->prev_euid;
		e->prev_egid = st->prev_egid;
		e->prev_cap_permitted = st->prev_cap_permitted;
		e->prev_cap_effective = st->prev_cap_effective;
		e->pflags |= AS_XF_PREV;
	}
	if (st)
		st->exec_sc = AS_SC_NONE;
	{
		struct as_lineage *l = as_lineage_cur();

		if (l) {
			e->lin = *l;
		} else {
			__builtin_memset(&e->lin, 0, sizeof(e->lin));
			e->lin.flags = AS_LIN_NONE;
		}
	}
	off = sizeof(*e);

	n = bpf_probe_read_kernel_str(buf + off, AS_FILENAME_MAX,
				      (void *)ctx + (ctx->__data_loc_filename & 0xffff));
	if (n <= 0) {
		buf[off] = 0;
		n = 1;
	}
	if (n == AS_FILENAME_MAX)
		e->pflags |= AS_XF_FILENAME_TRUNC;
	e->filename_len = n;
	off += n;

	mm = BPF_CORE_READ(task, mm);
	arg_start = BPF_CORE_READ(mm, arg_start);
	len = BPF_CORE_READ(mm, arg_end) - arg_start;
	if (len > AS_ARGS_MAX) {
		len = AS_ARGS_MAX;
		e->pflags |= AS_XF_ARGS_TRUNC;
	}
	if (bpf_probe_read_user(buf + (off & AS_SCRATCH_OFF_MASK), len, (void *)arg_start))
		len = 0;
	e->args_len = len;
	off += len;

	off = as_put_exec_tail(buf, off, e, task);
	e->pflags |= as_interp_nolink();
	if (ldpath) {
		/* the loader's search path, for userspace to judge its directories;
		 * one cut short hides where it ends: counted as set */
		int trunc = 0;

		e->ldpath_len = as_put_user_str(buf, off, (const void *)ldpath, AS_LDPATH_MAX, &trunc);
		e->pflags |= AS_XF_LD_PATH | (trunc ? AS_XF_LD_ENV : 0);
		off += e->ldpath_len;
	}
	as_emit(buf, off);
	return 0;
}

struct as_argv {
	const char *const *argv;
	__u32 start; /* scratch offset of argv[0] */
	__u32 len; /* bytes stored so far */
	__u32 n; /* arguments stored */
	__u32 trunc;
};

/* Store argv[index] of the caller; a bpf_loop() step. */
static long as_argv_step(__u32 index, struct as_argv *av)
{
	const char *const *argv = av->argv;
	const char *arg = 0;
	__u32 room = AS_ARGS_MAX - av->len;
	__u8 *buf;
	long n;

	if (bpf_probe_read_user(&arg, sizeof(arg), argv + index) || !arg)
		return 1;
	if (room < 2 || room > AS_ARGS_MAX) {
		av->trunc = 1;
		return 1;
	}
	buf = as_scratch_buf();
	if (!buf)
		return 1;
	AS_VERIFIER_MASK(room, 8191); /* room <= AS_ARGS_MAX already */
	n = bpf_probe_read_user_str(buf + ((av->start + av->len) & AS_SCRATCH_OFF_MASK), room, arg);
	if (n <= 0)
		return 1;
	av->len += n;
	av->n++;
	if ((__u32)n == room) {
		av->trunc = 1;
		return 1;
	}
	return 0;
}

/* A failed execve/execveat: the new program never ran, so this is the only
 * trace of the attempt. Filename and argv come from the caller's memory. */
static __always_inline int as_exec_failed(struct as_sys_exit *ctx)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	__u64 args[AS_SYSCALL_ARGS];
	const char *const *argv;
	struct as_exec *e;
	struct as_argv av = {};
	const char *fname;
	long ret = ctx->ret;
	__u32 off, args_len = 0, sc;
	int trunc = 0;
	__u8 *buf;

	/* a failed exec leaves the caller's registers as they were */
	if (ret >= 0)
		return 0;
	{
		struct as_task_state *st = as_task_state(0);

		if (st) /* no exec in progress any more (tp_task_rename) */
			st->exec_sc = AS_SC_NONE;
	}
	buf = as_exit_begin(ctx, AS_EV_EXEC, &sc, args, 0);
	if (!buf)
		return 0;
	e = (struct as_exec *)buf;
	__builtin_memset(&e->res, 0, sizeof(*e) - sizeof(e->hdr));
	e->res = ret;
	off = sizeof(*e);
	if (sc == AS_SC_EXECVEAT) {
		fname = (const char *)args[1];
		argv = (const char *const *)args[2];
	} else {
		fname = (const char *)args[0];
		argv = (const char *const *)args[1];
	}
	e->filename_len = as_put_user_str(buf, off, fname, AS_FILENAME_MAX, &trunc);
	if (trunc)
		e->pflags |= AS_XF_FILENAME_TRUNC;
	off += e->filename_len;

	av.argv = argv;
	av.start = off;
	bpf_loop(AS_MAX_ARGV, as_argv_step, &av, 0);
	args_len = av.len;
	if (av.trunc || av.n == AS_MAX_ARGV)
		e->pflags |= AS_XF_ARGS_TRUNC;
	e->args_len = args_len;
	off += args_len;

	off = as_put_exec_tail(buf, off, e, task);
	as_emit(buf, off);
	return 0;
}

/* Also attached to sys_exit_execveat (user/attach.c): ctx->id tells them apart. */
SEC("tracepoint/syscalls/sys_exit_execve")
int tp_sys_exit_execve(struct as_sys_exit *ctx)
{
	return as_exec_failed(ctx);
}

/*
 * A live name changed: prctl(PR_SET_NAME), a write to /proc/PID/comm, or an
 * exec. Rules test live names (proc.name, proc.pname, proc.aname), and every
 * cached verdict was taken on the names of its time: a name the pre-filter
 * tests appearing anywhere expires them all (a renamed agent's own events,
 * and those of its children alive already, must reach the rules). Except
 * at an exec of a process without children: its own verdict is taken
 * afresh at sched_process_exec, and no other process has it among its
 * ancestors yet. A name going away needs nothing: old verdicts only keep
 * more. The tracepoint fires before the new name is written: a verdict taken
 * meanwhile on another CPU still reads the old one, so none taken within
 * AS_RENAME_SETTLE_NS of a rename is kept (as_verdict_keepable).
 */
SEC("tp_btf/task_rename")
int BPF_PROG(tp_task_rename, struct task_struct *task, const char *comm)
{
	struct as_comm_key key = {};
	struct as_task *t;
	__u64 kids, head;

	bpf_probe_read_kernel_str(key.comm, sizeof(key.comm), comm);
	if (!bpf_map_lookup_elem(&filter_names, &key))
		return 0;
	if (BPF_CORE_READ(task, pid) == (__u32)bpf_get_current_pid_tgid()) {
		t = bpf_task_storage_get(&tasks, task, 0, 0);
		kids = (__u64)BPF_CORE_READ(task, children.next);
		head = (__u64)task + bpf_core_field_offset(struct task_struct, children);
		if (t && t->st.exec_sc != AS_SC_NONE && kids == head)
			return 0; /* an exec, no children */
	}
	/* before the bump: a verdict taken under the new generation sees it
	 * (the atomic add orders the two) */
	cfg_rename_ns = bpf_ktime_get_ns();
	__sync_fetch_and_add((__u32 *)&cfg_filter_gen, 1);
	if (!cfg_filter_gen) /* 0 means no verdict */
		cfg_filter_gen = 1;
	return 0;
}

#define AS_SIGCHLD 17
#define AS_CLONE_VM 0x100
#define AS_CLONE_VFORK 0x4000
#define AS_CLONE_NEWTIME 0x80 /* clone3 only */
#define AS_CLONE_INTO_CGROUP 0x200000000ull /* clone3 only */
/* CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET */
#define AS_CLONE_NEW_ANY 0x7e020000ull

/* The namespaces a clone made, as CLONE_NEW* bits: where the child's
 * differ from its parent's. clone3's flags are in the caller's memory,
 * which another thread may rewrite (or unmap) once the kernel has its copy:
 * these bits come from what the kernel did, the others from that memory. */
static __always_inline __u64 as_clone_new_ns(struct task_struct *parent,
					     struct task_struct *child)
{
	struct nsproxy *pn = BPF_CORE_READ(parent, nsproxy), *cn = BPF_CORE_READ(child, nsproxy);
	__u64 f = 0;

	if (BPF_CORE_READ(parent, cred, user_ns) != BPF_CORE_READ(child, cred, user_ns))
		f |= 0x10000000; /* CLONE_NEWUSER */
	if (!pn || !cn)
		return f;
	if (BPF_CORE_READ(pn, mnt_ns) != BPF_CORE_READ(cn, mnt_ns))
		f |= 0x00020000; /* CLONE_NEWNS */
	if (BPF_CORE_READ(pn, cgroup_ns) != BPF_CORE_READ(cn, cgroup_ns))
		f |= 0x02000000; /* CLONE_NEWCGROUP */
	if (BPF_CORE_READ(pn, uts_ns) != BPF_CORE_READ(cn, uts_ns))
		f |= 0x04000000; /* CLONE_NEWUTS */
	if (BPF_CORE_READ(pn, ipc_ns) != BPF_CORE_READ(cn, ipc_ns))
		f |= 0x08000000; /* CLONE_NEWIPC */
	if (BPF_CORE_READ(pn, pid_ns_for_children) != BPF_CORE_READ(cn, pid_ns_for_children))
		f |= 0x20000000; /* CLONE_NEWPID */
	if (BPF_CORE_READ(pn, net_ns) != BPF_CORE_READ(cn, net_ns))
		f |= 0x40000000; /* CLONE_NEWNET */
	if (bpf_core_field_exists(pn->time_ns_for_children) &&
	    BPF_CORE_READ(pn, time_ns_for_children) != BPF_CORE_READ(cn, time_ns_for_children))
		f |= AS_CLONE_NEWTIME;
	return f;
}

/* CLONE_INTO_CGROUP as the kernel did it: the child starts in another cgroup
 * (v2) than its parent's, which only that flag does (a process made to
 * pass for one of the agent sandbox's cgroup, or to leave its limits). */
static __always_inline __u64 as_clone_into_cgroup(struct task_struct *parent,
						  struct task_struct *child)
{
	return BPF_CORE_READ(parent, cgroups, dfl_cgrp) != BPF_CORE_READ(child, cgroups, dfl_cgrp) ?
		       AS_CLONE_INTO_CGROUP :
		       0;
}

/* tp_btf gives the child task as a trusted pointer, which the classic
 * tracepoint does not: we need it to tell a new process from a new thread,
 * and to give the child its lineage in task storage. */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(rtp_sched_process_fork, struct task_struct *parent, struct task_struct *child)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct as_fork *f;
	__u32 pid, tgid;
	__u8 *buf;

	if (as_skip_self())
		return 0;
	pid = BPF_CORE_READ(child, pid);
	tgid = BPF_CORE_READ(child, tgid);
	as_lin_fork(parent, child, pid != tgid);
	if (pid == tgid) {
		__u32 ptgid = bpf_get_current_pid_tgid() >> 32;
		struct as_session *sess = bpf_map_lookup_elem(&sessions, &ptgid);

		if (sess)
			bpf_map_update_elem(&sessions, &tgid, sess, BPF_ANY);
	}
	if (!as_filter_pass(AS_EV_FORK))
		return 0;
	buf = as_scratch_buf();
	if (!buf)
		return 0;
	f = (struct as_fork *)buf;
	{
		/* the parent is inside its clone/clone3/fork/vfork: which one,
		 * and its flags, are in the registers saved at entry */
		struct pt_regs *regs = as_user_regs();
		long nr = AS_REGS_SYSCALL_NR(regs);
		/* (arm64 has no fork or vfork: their numbers are -1 there) */
		__u32 sc = nr == AS_NR_CLONE				? AS_SC_CLONE :
			   nr == AS_NR_CLONE3				? AS_SC_CLONE3 :
			   AS_NR_FORK >= 0 && nr == AS_NR_FORK		? AS_SC_FORK :
			   AS_NR_VFORK >= 0 && nr == AS_NR_VFORK	? AS_SC_VFORK :
									  AS_SC_NONE;
		__u64 flags = 0, arg0 = PT_REGS_PARM1_SYSCALL(regs);
		__u32 abi = 0; /* AS_SC_COMPAT_BIT for a 32-bit call */

#if defined(__TARGET_ARCH_x86)
		/* through the 32-bit ABI: i386's numbers, its first argument
		 * in ebx (clone's flags come first there too) */
		if (BPF_CORE_READ(task, thread_info.status) & AS_TS_COMPAT) {
			sc = nr == AS_NR_I386_CLONE ? AS_SC_CLONE : nr == AS_NR_I386_CLONE3 ? AS_SC_CLONE3 :
			     nr == AS_NR_I386_FORK ? AS_SC_FORK : nr == AS_NR_I386_VFORK ? AS_SC_VFORK :
										AS_SC_NONE;
			arg0 = (__u32)regs->bx;
			abi = AS_SC_COMPAT_BIT;
		}
#endif
		switch (sc) {
		case AS_SC_CLONE3:
			bpf_probe_read_user(&flags, sizeof(flags), (const void *)arg0);
			flags = (flags & ~(AS_CLONE_NEW_ANY | AS_CLONE_NEWTIME | AS_CLONE_INTO_CGROUP)) |
				as_clone_new_ns(parent, child);
			if (pid == tgid)
				flags |= as_clone_into_cgroup(parent, child);
			break;
		case AS_SC_FORK:
			flags = AS_SIGCHLD;
			break;
		case AS_SC_VFORK:
			flags = AS_CLONE_VM | AS_CLONE_VFORK | AS_SIGCHLD;
			break;
		case AS_SC_CLONE:
			/* the kernel takes clone's lower 32 bits (lower_32_bits()) */
			flags = (__u32)arg0;
			break;
		default: /* a kernel thread's, or an io_uring worker's */
			sc = AS_SC_CLONE;
			break;
		}
		/* a thread is an event only when it made a namespace: the kernel
		 * lets CLONE_THREAD take every CLONE_NEW* but user and pid, and
		 * the thread runs in them while its process does not (legacy
		 * clone's low byte is the exit signal, not CLONE_NEWTIME) */
		if (pid != tgid &&
		    !(flags & (AS_CLONE_NEW_ANY | (sc == AS_SC_CLONE3 ? AS_CLONE_NEWTIME : 0))))
			return 0;
		as_hdr_fill(&f->hdr, task, AS_EV_FORK, sc | abi);
		f->clone_flags = flags;
	}
	f->child_pid = tgid;
	f->child_tid = pid;
	f->child_start_ns = BPF_CORE_READ(child, start_time);
	as_emit(buf, sizeof(*f));
	return 0;
}

SEC("tracepoint/sched/sched_process_exit")
int tp_sched_process_exit(void *ctx)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct as_exit *x;
	__u8 *buf;

	if (as_skip_self())
		return 0;
	/* Only the last thread of the process: signal->live drops to zero
	 * before the tracepoint fires. */
	if (BPF_CORE_READ(task, signal, live.counter) != 0)
		return 0;
	if (!as_filter_pass(AS_EV_EXIT))
		return 0; /* (task storage goes with the task) */
	buf = as_scratch_buf();
	if (!buf)
		return 0;
	x = (struct as_exit *)buf;
	as_hdr_fill(&x->hdr, task, AS_EV_EXIT, AS_SC_PROCEXIT);
	x->exit_code = BPF_CORE_READ(task, exit_code);
	x->_pad0 = 0;
	as_emit(buf, sizeof(*x));
	{
		__u32 tgid = x->hdr.pid;

		bpf_map_delete_elem(&sessions, &tgid);
	}
	return 0;
}
