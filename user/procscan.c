// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "clock.h"
#include "abi.h"
#include "agentid.h"
#include "kdev.h"
#include "lineage.h"
#include "procscan.h"

#define PROCSCAN_ENVIRON_MAX (128 * 1024) /* bytes of /proc/PID/environ searched */

/* Paths are opened relative to the proc root (rootfd) as "PID/NAME": no
 * walk from / per file, and two syscalls per process fewer than opening
 * each /proc/PID first. */
static void procscan_name(char *path, size_t cap, uint32_t pid, const char *name)
{
	snprintf(path, cap, "%u/%s", pid, name);
}

/* One read of PID/NAME: procfs files are built whole on the first read. */
static ssize_t procscan_read(int rootfd, uint32_t pid, const char *name, char *buf, size_t cap)
{
	char path[32];
	ssize_t n;
	int fd;

	procscan_name(path, sizeof(path), pid, name);
	fd = openat(rootfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, cap);
	if (n < 0)
		n = -errno;
	close(fd);
	return n;
}

/* readlink of PID/{exe,cwd} into dst as a NUL-terminated string; "" when unreadable. */
static size_t procscan_link(int rootfd, uint32_t pid, const char *name, char *dst, size_t cap)
{
	char path[32];
	ssize_t n;

	procscan_name(path, sizeof(path), pid, name);
	n = readlinkat(rootfd, path, dst, cap - 1);

	if (n < 0)
		n = 0;
	dst[n] = 0;
	return (size_t)n + 1;
}

/* Nanoseconds per clock tick of /proc/PID/stat; sysconf once per process
 * (0 when sysconf cannot tell). */
static unsigned long long procscan_tick_ns(void)
{
	static unsigned long long ns;

	if (!ns) {
		long hz = sysconf(_SC_CLK_TCK);

		ns = hz > 0 ? 1000000000ull / (unsigned long long)hz : 0;
	}
	return ns;
}

static void parse_status_ids(const char *status, const char *key, uint32_t *r, uint32_t *e)
{
	const char *p = strstr(status, key);
	unsigned a, b;

	if (p && sscanf(p + strlen(key), "%u %u", &a, &b) == 2) {
		*r = a;
		*e = b;
	}
}

/* The environment of a process alive at start, /proc/PID/environ: its
 * AGENT_SESSION_ID into h->session (AS_HF_SESSION), AS_XF_LD_ENV into
 * *xflags when it sets LD_PRELOAD or LD_AUDIT, as the exec scan reads it
 * (bpf/proc.bpf.c), or is too large to read whole, or sets LD_LIBRARY_PATH
 * twice, and LD_LIBRARY_PATH's value into *ldpath (valid until the next call; NULL:
 * none). Only the n bytes read are searched (the buffer is not touched
 * beyond). */
static void read_env(int rootfd, uint32_t pid, struct as_hdr *h, uint32_t *xflags,
		     const char **ldpath)
{
	static const char key[] = "AGENT_SESSION_ID=", ldpath_key[] = "LD_LIBRARY_PATH=";
	static const char *const ld_keys[] = { "LD_PRELOAD=", "LD_AUDIT=" };
	static char env[PROCSCAN_ENVIRON_MAX];
	ssize_t n = procscan_read(rootfd, pid, "environ", env, sizeof(env) - 1);

	*ldpath = NULL;
	if (n <= 0)
		return;
	if ((size_t)n == sizeof(env) - 1)
		*xflags |= AS_XF_LD_ENV;
	env[n] = 0;
	for (char *p = env; p < env + n; p += strlen(p) + 1) {
		if (!(h->flags & AS_HF_SESSION) && strncmp(p, key, sizeof(key) - 1) == 0 &&
		    p[sizeof(key) - 1]) {
			snprintf(h->session, sizeof(h->session), "%s", p + sizeof(key) - 1);
			h->flags |= AS_HF_SESSION;
		}
		/* a second one counts as set (glibc's loader takes the last) */
		if (strncmp(p, ldpath_key, sizeof(ldpath_key) - 1) == 0 &&
		    p[sizeof(ldpath_key) - 1]) {
			if (*ldpath)
				*xflags |= AS_XF_LD_ENV;
			*ldpath = p + sizeof(ldpath_key) - 1;
		}
		for (size_t i = 0; i < sizeof(ld_keys) / sizeof(ld_keys[0]); i++)
			if (strncmp(p, ld_keys[i], strlen(ld_keys[i])) == 0 && p[strlen(ld_keys[i])])
				*xflags |= AS_XF_LD_ENV;
	}
}

/* LD_LIBRARY_PATH's value at p, as the exec record carries it: cut to
 * AS_LDPATH_MAX - 1 bytes, and one cut counts as set. Returns its bytes. */
static size_t put_ldpath(struct as_exec *x, char *p, const char *ldpath)
{
	size_t n = strlen(ldpath);

	if (n >= AS_LDPATH_MAX - 1) { /* the kernel's cut: a full buffer */
		n = AS_LDPATH_MAX - 1;
		x->pflags |= AS_XF_LD_ENV;
	}
	memcpy(p, ldpath, n);
	p[n] = 0;
	x->pflags |= AS_XF_LD_PATH;
	x->ldpath_len = (uint16_t)(n + 1);
	return n + 1;
}

/* /proc/PID/cgroup lines "ID:CONTROLLERS:PATH" to "name=path ..." in out
 * (cap bytes); the v2 line "0::PATH" becomes "unified=PATH". Returns the length. */
static size_t procscan_cgroups(char *file, char *out, size_t cap)
{
	size_t len = 0;

	out[0] = 0;
	for (char *line = strtok(file, "\n"); line; line = strtok(NULL, "\n")) {
		char *ctrl = strchr(line, ':'), *cpath;
		int w;

		if (!ctrl)
			continue;
		ctrl++;
		cpath = strchr(ctrl, ':');
		if (!cpath)
			continue;
		*cpath++ = 0;
		if (!*ctrl)
			ctrl = "unified";
		else if (strncmp(ctrl, "name=", 5) == 0)
			ctrl += 5;
		w = snprintf(out + len, cap - len, "%s%s=%s", len ? " " : "", ctrl, cpath);
		if (w < 0 || (size_t)w >= cap - len) {
			out[len] = 0;
			break;
		}
		len += (size_t)w;
	}
	return len;
}

#define PROCSCAN_CHAIN_MAX 1024 /* real_parent hops followed before giving up */
#define PROCSCAN_PF_KTHREAD 0x00200000u /* PF_KTHREAD, include/linux/sched.h */

/*
 * Is the process whose stat line continues at after_comm (after the comm's
 * ')') a kernel thread? Field 9 is task->flags. A kernel thread has no mm and
 * never writes its own loginuid, so what procfs would give is known without
 * asking: environ and cmdline read empty (environ_read, proc_pid_cmdline_read:
 * no mm), exe is ENOENT (get_task_exe_file refuses PF_KTHREAD), loginuid is
 * unset (proc_loginuid_write only lets a task set its own). Most of a host's
 * processes are kernel threads (60 of 80 on the development VM): those reads
 * are skipped.
 */
static int procscan_kthread(const char *after_comm)
{
	unsigned flags;

	return sscanf(after_comm, " %*c %*d %*d %*d %*d %*d %u", &flags) == 1 &&
	       (flags & PROCSCAN_PF_KTHREAD);
}

/* A stat line's ppid (field 4: 0 for none) and starttime (field 22, clock
 * ticks after boot); the comm's closing ')' (the comm may hold anything,
 * ')' too), or NULL when the line does not parse. */
static char *procscan_stat_parse(char *sbuf, uint32_t *ppid, unsigned long long *start)
{
	char *comm_end = strrchr(sbuf, ')');
	int pp = 0;

	/* fields 3 (state), 4 (ppid) ... 22 (starttime) */
	if (!comm_end || !strchr(sbuf, '(') ||
	    sscanf(comm_end + 1,
		   " %*c %d %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %llu",
		   &pp, start) != 2)
		return NULL;
	*ppid = pp > 0 ? (uint32_t)pp : 0;
	return comm_end;
}

/* One /proc process as a lineage entry, from its stat line (sbuf, NUL-terminated,
 * cut here at the comm's ')') and its exe (dev, ino); its parent's pid in *ppid (0: none). */
static int procscan_entry_parse(int rootfd, struct kdev_map *km, char *sbuf, uint32_t pid,
				struct as_lin_ent *le, uint32_t *ppid)
{
	char *comm = strchr(sbuf, '('), *comm_end, exe[32], mi[32];
	unsigned long long start = 0;
	uint64_t ino;
	uint32_t dev;

	comm_end = procscan_stat_parse(sbuf, ppid, &start);
	if (!comm_end)
		return -EINVAL;
	*comm_end = 0;
	memset(le, 0, sizeof(*le));
	/* the name now: /proc cannot tell the one the kernel gave at exec */
	snprintf(le->comm, sizeof(le->comm), "%s", comm + 1);
	le->pid = pid;
	le->start_ns = start * procscan_tick_ns();
	procscan_name(exe, sizeof(exe), pid, "exe");
	/* the exe's mount is in the process's namespace, maybe not ours; or
	 * outside its root (a sandbox's), then maybe in ours (ids are global) */
	procscan_name(mi, sizeof(mi), pid, "mountinfo");
	if (!procscan_kthread(comm_end + 1) &&
	    kdev_stat(km, rootfd, exe, mi, "self/mountinfo", &dev, &ino) == 0) {
		le->dev = dev;
		le->ino = ino;
	}
	return 0;
}

uint32_t procscan_ppid(const char *proc_root, uint32_t pid)
{
	unsigned long long start;
	char sbuf[1024];
	uint32_t ppid;
	ssize_t n;
	int rootfd = open(proc_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (rootfd < 0)
		return 0;
	n = procscan_read(rootfd, pid, "stat", sbuf, sizeof(sbuf) - 1);
	close(rootfd);
	if (n <= 0)
		return 0;
	sbuf[n] = 0;
	return procscan_stat_parse(sbuf, &ppid, &start) ? ppid : 0;
}

/* An ancestor's entry, read through the proc root (rootfd). */
static int procscan_entry(int rootfd, struct kdev_map *km, uint32_t pid, struct as_lin_ent *le,
			  uint32_t *ppid)
{
	char sbuf[1024];
	ssize_t n = procscan_read(rootfd, pid, "stat", sbuf, sizeof(sbuf) - 1);

	if (n <= 0)
		return -ENOENT;
	sbuf[n] = 0;
	return procscan_entry_parse(rootfd, km, sbuf, pid, le, ppid);
}

/*
 * What one scan has read: each process's entry (or why it has none), read
 * once however many descendants walk through it, and the lineage its own
 * walk gives once worked out. lineage(pid) is push(lineage(ppid), pid's
 * entry) exactly when ppid's walk ended by itself (no parent, or a parent
 * that cannot be read) within PROCSCAN_CHAIN_MAX - 1 entries; a walk that hits
 * the limit (a ppid cycle, a deeper chain) is never remembered and is walked
 * entry by entry, from remembered entries. A pid not remembered (the cache
 * full) is read as without a cache.
 */
#define PROCSCAN_CACHE_MAX 32768 /* processes remembered: the kernel's default pid_max */
#define PROCSCAN_CACHE_FIRST 128 /* entries allocated first (90 KiB, a host's usual
				  * count fits), doubled as needed; twice as many hash slots */

struct procscan_known {
	uint32_t pid;
	uint32_t ppid;
	int32_t err; /* 0, or why the entry could not be read (negative errno) */
	uint16_t depth; /* entries in this pid's own walk once lin is worked out; 0 not yet */
	uint16_t _pad0;
	struct as_lin_ent ent;
	struct as_lineage lin; /* the walk's lineage, without AS_LIN_PROC */
};
_Static_assert(PROCSCAN_CHAIN_MAX <= UINT16_MAX, "procscan_known.depth holds a walk's length");
_Static_assert(sizeof(struct procscan_known) ==
		       16 + sizeof(struct as_lin_ent) + sizeof(struct as_lineage),
	       "procscan_known layout");

struct procscan_cache {
	uint32_t *slot; /* mask + 1 (a power of two >= 2 * cap): index into known + 1, 0 empty */
	struct procscan_known *known;
	uint32_t n, cap, max, mask;
};

static void procscan_cache_init(struct procscan_cache *c, uint32_t max)
{
	memset(c, 0, sizeof(*c));
	c->max = max < PROCSCAN_CACHE_MAX ? max : PROCSCAN_CACHE_MAX;
}

static void procscan_cache_fini(struct procscan_cache *c)
{
	free(c->slot);
	free(c->known);
	memset(c, 0, sizeof(*c));
}

/* The slot for pid: its entry's, or the empty one where it would go. */
static uint32_t *procscan_cache_slot(struct procscan_cache *c, uint32_t pid)
{
	uint32_t i = (pid * 2654435761u) & c->mask; /* Knuth's multiplicative hash */

	while (c->slot[i] && c->known[c->slot[i] - 1].pid != pid)
		i = (i + 1) & c->mask;
	return &c->slot[i];
}

/* Room for twice the entries (up to max), the hash rebuilt; -ENOMEM. */
static int procscan_cache_grow(struct procscan_cache *c)
{
	uint32_t cap = c->cap ? 2 * c->cap : PROCSCAN_CACHE_FIRST, nslots = 1;
	struct procscan_known *k;
	uint32_t *slot;

	if (cap > c->max)
		cap = c->max;
	while (nslots < 2 * cap)
		nslots *= 2;
	k = realloc(c->known, cap * sizeof(*k));
	if (!k)
		return -ENOMEM;
	c->known = k;
	slot = calloc(nslots, sizeof(*slot));
	if (!slot)
		return -ENOMEM;
	free(c->slot);
	c->slot = slot;
	c->mask = nslots - 1;
	c->cap = cap;
	for (uint32_t i = 0; i < c->n; i++)
		*procscan_cache_slot(c, c->known[i].pid) = i + 1;
	return 0;
}

/* pid's remembered entry, or NULL. */
static struct procscan_known *procscan_cache_find(struct procscan_cache *c, uint32_t pid)
{
	uint32_t *s = c && c->slot ? procscan_cache_slot(c, pid) : NULL;

	return s && *s ? &c->known[*s - 1] : NULL;
}

/* Remember pid's entry (err: why there is none); NULL when the cache is full. */
static struct procscan_known *procscan_cache_add(struct procscan_cache *c, uint32_t pid, int err,
						 const struct as_lin_ent *le, uint32_t ppid)
{
	struct procscan_known *k;
	uint32_t *s;

	if (!c || c->n >= c->max || (c->n == c->cap && procscan_cache_grow(c)))
		return NULL; /* full, or no memory: read as without a cache */
	s = procscan_cache_slot(c, pid);
	k = &c->known[c->n];
	memset(k, 0, sizeof(*k));
	k->pid = pid;
	k->err = err;
	if (!err) {
		k->ent = *le;
		k->ppid = ppid;
	}
	*s = ++c->n;
	return k;
}

/* pid's entry, remembered or read (and then remembered); *at: its index in
 * c->known, -1 when not remembered. */
static int procscan_lookup(struct procscan_cache *c, int rootfd, struct kdev_map *km,
			   uint32_t pid, struct as_lin_ent *le, uint32_t *ppid, int32_t *at)
{
	struct procscan_known *k = procscan_cache_find(c, pid);
	int err;

	if (!k) {
		uint32_t pp = 0;

		err = procscan_entry(rootfd, km, pid, le, &pp);
		*ppid = pp;
		k = procscan_cache_add(c, pid, err, le, pp);
		*at = k ? (int32_t)(k - c->known) : -1;
		return err;
	}
	*at = (int32_t)(k - c->known);
	if (!k->err) {
		*le = k->ent;
		*ppid = k->ppid;
	}
	return k->err;
}

/* Push e in front of l, as the kernel pushes an exec. */
static void procscan_push(struct as_lineage *l, const struct as_lin_ent *e)
{
	lineage_shift(l, l);
	l->e[0] = *e;
	l->forked &= (uint16_t)~1u;
	if (agentid_is_agent(e, NULL))
		l->named |= 1;
	else
		l->named &= (uint16_t)~1u;
}

/* What /proc can tell of a lineage: the real_parent chain as it is now, one
 * entry per process (renames before start and reparenting are invisible),
 * pushed from the oldest as the kernel would have pushed them; the agents
 * (user/agentid.h) count as named, so they stay when the chain is longer
 * than AS_LINEAGE_MAX. own: pid's entry when already parsed (own_err its
 * result), else NULL. c: the scan's cache, or NULL. */
static void procscan_walk(struct procscan_cache *c, int rootfd, struct kdev_map *km, uint32_t pid,
			  const struct as_lin_ent *own, int own_err, uint32_t own_ppid,
			  struct as_lineage *l)
{
	static struct as_lin_ent chain[PROCSCAN_CHAIN_MAX];
	static int32_t at[PROCSCAN_CHAIN_MAX];
	const struct procscan_known *base = NULL;
	uint32_t n = 0, next = 0, depth;
	int ended = 0, use_memo = c != NULL;

	for (uint32_t p = pid;; p = next, n++) {
		int err;

		if (!p) {
			ended = 1;
			break;
		}
		if (n == PROCSCAN_CHAIN_MAX)
			break;
		if (n == 0 && own) {
			err = own_err;
			if (!err) {
				chain[0] = *own;
				next = own_ppid;
			}
			at[0] = -1;
		} else {
			err = procscan_lookup(c, rootfd, km, p, &chain[n], &next, &at[n]);
		}
		if (err) {
			ended = 1;
			break;
		}
		if (use_memo && at[n] >= 0 && c->known[at[n]].depth) {
			if (n + c->known[at[n]].depth <= PROCSCAN_CHAIN_MAX) {
				base = &c->known[at[n]];
				break;
			}
			use_memo = 0; /* this walk is cut before that one ends: entry by entry */
		}
	}
	if (base) {
		*l = base->lin;
		depth = base->depth;
		ended = 1;
	} else {
		memset(l, 0, sizeof(*l));
		depth = 0;
	}
	while (n--) {
		procscan_push(l, &chain[n]);
		depth++;
		if (ended && at[n] >= 0) {
			c->known[at[n]].lin = *l;
			c->known[at[n]].depth = (uint16_t)depth;
		}
	}
	l->flags |= AS_LIN_PROC;
}

void procscan_lineage(const char *proc_root, uint32_t pid, struct as_lineage *l)
{
	int rootfd = open(proc_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct kdev_map km = { 0 };

	procscan_walk(NULL, rootfd, &km, pid, NULL, 0, 0, l);
	kdev_map_fini(&km);
	if (rootfd >= 0)
		close(rootfd);
}

/* The record for pid, read through the proc root rootfd; c: the scan's cache
 * or NULL; km: the mounts it has learnt. */
static long procscan_build(struct procscan_cache *c, int rootfd, struct kdev_map *km,
			   uint32_t pid, uint64_t ts, void *buf)
{
	struct as_exec *x = buf;
	struct as_hdr *h = &x->hdr;
	char stat[1024], status[4096], cg[AS_CGROUP_MAX * 4];
	char *p = (char *)(x + 1), *comm_end;
	const struct procscan_known *k;
	struct as_lin_ent own;
	const char *ldpath = NULL;
	uint32_t own_ppid = 0;
	int own_err = 0, own_known, kthread;
	ssize_t n;
	int ppid = 0;

	memset(x, 0, sizeof(*x));
	n = procscan_read(rootfd, pid, "stat", stat, sizeof(stat) - 1);
	if (n <= 0)
		return n < 0 ? n : -ENOENT;
	stat[n] = 0;
	/* "pid (comm) state ppid ..." where comm may hold spaces and parens */
	comm_end = strrchr(stat, ')');
	if (!comm_end || !strchr(stat, '(') || sscanf(comm_end + 1, " %*c %d", &ppid) != 1)
		return -EINVAL;
	kthread = procscan_kthread(comm_end + 1);
	if (!procscan_cache_find(c, pid)) {
		/* the lineage's first entry from the same stat line, parsed its own way */
		char sbuf[sizeof(stat)];

		memcpy(sbuf, stat, (size_t)n + 1);
		own_err = procscan_entry_parse(rootfd, km, sbuf, pid, &own, &own_ppid);
		own_known = procscan_cache_add(c, pid, own_err, &own, own_ppid) != NULL;
	} else {
		own_known = 1;
	}
	{
		/* field 22, starttime: clock ticks since boot (boot time, as the
		 * kernel's start_boottime that live events carry) */
		unsigned long long start = 0;

		if (sscanf(comm_end + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d "
				     "%*d %*d %*d %*d %llu", &start) == 1)
			h->start_ns = start * procscan_tick_ns();
	}
	*comm_end = 0;
	snprintf(h->comm, sizeof(h->comm), "%s", strchr(stat, '(') + 1);
	n = procscan_read(rootfd, pid, "status", status, sizeof(status) - 1);
	status[n > 0 ? n : 0] = 0;
	h->uid = h->euid = h->gid = h->egid = h->loginuid = AS_ID_UNSET;
	parse_status_ids(status, "Uid:", &h->uid, &h->euid);
	parse_status_ids(status, "Gid:", &h->gid, &h->egid);
	n = kthread ? 0 : procscan_read(rootfd, pid, "loginuid", stat, sizeof(stat) - 1);
	if (n > 0) {
		stat[n] = 0;
		h->loginuid = (uint32_t)strtoul(stat, NULL, 10);
	}

	h->type = AS_EV_PROC;
	h->syscall = AS_SC_NONE;
	h->ts = ts;
	h->pid = h->tid = h->vpid = pid;
	h->ppid = (uint32_t)ppid;
	if (!kthread)
		read_env(rootfd, pid, h, &x->pflags, &ldpath);
	k = procscan_cache_find(c, pid);
	if (k && k->depth) { /* worked out in a descendant's walk */
		x->lin = k->lin;
		x->lin.flags |= AS_LIN_PROC;
	} else if (own_known) { /* the walk starts from the cache */
		procscan_walk(c, rootfd, km, pid, NULL, 0, 0, &x->lin);
	} else {
		procscan_walk(c, rootfd, km, pid, &own, own_err, own_ppid, &x->lin);
	}

	x->filename_len = 1;
	*p++ = 0;
	n = kthread ? 0 : procscan_read(rootfd, pid, "cmdline", p, AS_ARGS_MAX);
	if (n < 0)
		n = 0;
	if (n == AS_ARGS_MAX)
		x->pflags |= AS_XF_ARGS_TRUNC;
	x->args_len = (uint16_t)n;
	p += n;
	x->pflags |= AS_XF_PLAIN;
	if (kthread) {
		*p = 0;
		x->exe_len = 1;
	} else {
		x->exe_len = (uint16_t)procscan_link(rootfd, pid, "exe", p, AS_PATH_MAX);
	}
	p += x->exe_len;
	x->cwd_len = (uint16_t)procscan_link(rootfd, pid, "cwd", p, AS_PATH_MAX);
	p += x->cwd_len;

	/* every hierarchy as Falco's thread.cgroups: "cpu=/ memory=/x unified=/y" */
	n = procscan_read(rootfd, pid, "cgroup", cg, sizeof(cg) - 1);
	cg[n > 0 ? n : 0] = 0;
	x->cgroup_len = (uint16_t)(procscan_cgroups(cg, p, AS_CGROUP_MAX) + 1);
	p += x->cgroup_len;
	if (ldpath)
		p += put_ldpath(x, p, ldpath);
	h->size = (uint32_t)(p - (char *)buf);
	return h->size;
}

long procscan_one(const char *proc_root, uint32_t pid, uint64_t ts, void *buf, size_t cap)
{
	struct kdev_map km = { 0 };
	int rootfd;
	long ret;

	if (cap < PROCSCAN_REC_MAX)
		return -ENOSPC;
	rootfd = open(proc_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return -errno;
	ret = procscan_build(NULL, rootfd, &km, pid, ts, buf);
	kdev_map_fini(&km);
	close(rootfd);
	return ret;
}

int procscan_all_max(const char *proc_root, procscan_cb cb, void *ctx, uint32_t max_known)
{
	static char rec[PROCSCAN_REC_MAX];
	struct procscan_cache cache, *c = &cache; /* this scan's; freed at its end */
	struct kdev_map km = { 0 }; /* the same */
	uint64_t now = clock_wall_now();
	struct dirent *de;
	int count = 0;
	DIR *d;

	d = opendir(proc_root);
	if (!d)
		return -errno;
	procscan_cache_init(c, max_known);
	while ((de = readdir(d))) {
		char *end;
		unsigned long pid = strtoul(de->d_name, &end, 10);
		long len;

		if (!isdigit((unsigned char)de->d_name[0]) || *end || pid == 0 || pid > UINT32_MAX)
			continue;
		len = procscan_build(c, dirfd(d), &km, (uint32_t)pid, now, rec);
		if (len < 0)
			continue; /* exited meanwhile */
		if (cb(rec, (size_t)len, ctx) == 0)
			count++;
	}
	closedir(d);
	procscan_cache_fini(c);
	kdev_map_fini(&km);
	return count;
}

int procscan_all(const char *proc_root, procscan_cb cb, void *ctx)
{
	return procscan_all_max(proc_root, cb, ctx, PROCSCAN_CACHE_MAX);
}
