// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lineage.h"
#include "agentid.h"
#include "proctable.h"
#include "container/cgpath.h"

#define PROCTABLE_CGROUPS_MAX 8192 /* every hierarchy of one process, as text */
/* Slots to start with; the table doubles when half full. Sized for the
 * largest table up front, hashed pids touched a new page of it each: after
 * 1,000 short-lived processes 4 MB more were resident, and pid churn would
 * have made all of it (~20 MB) resident in time. */
#define PROCTABLE_INITIAL_SLOTS 1024u

struct pt_exe {
	uint64_t ino;
	uint32_t dev;
	uint32_t _pad0;
	char *path;
};

/* Freed lineages kept for reuse: a fork and an exit each would otherwise
 * cost a malloc and a free of 648 bytes. */
#define PROCTABLE_LIN_SPARE 1024

struct pt_spare {
	struct pt_spare *next;
};

struct proctable {
	struct pt_exe exes[PROCTABLE_EXE_CACHE]; /* by identity hash; a collision replaces */
	struct pt_spare *spare; /* lineage blocks to reuse */
	uint32_t nspare;
	struct proc_entry *slots;
	uint32_t mask; /* slots - 1, a power of two minus one */
	uint32_t max_slots; /* the most it grows to: load factor at most one half */
	uint32_t count;
	uint32_t max_entries;
	uint64_t untracked;
	proctable_container_fn on_container;
	void *on_container_ctx;
	struct proctable_self self;
};

static int in_container(const struct proc_entry *e)
{
	return e->container_id[0] && e->container_type != CGPATH_HOST;
}

static uint32_t pt_hash(uint32_t pid)
{
	return pid * 2654435761u;
}

static uint32_t pt_exe_slot(uint32_t dev, uint64_t ino)
{
	return (uint32_t)((ino * 0x9e3779b97f4a7c15ull) >> 40 ^ dev) % PROCTABLE_EXE_CACHE;
}

static void pt_exe_note(struct proctable *pt, uint32_t dev, uint64_t ino, const char *path)
{
	struct pt_exe *x;
	char *dup;

	if (!ino || !path || !path[0])
		return;
	x = &pt->exes[pt_exe_slot(dev, ino)];
	if (x->path && x->ino == ino && x->dev == dev && !strcmp(x->path, path))
		return;
	dup = strdup(path);
	if (!dup)
		return;
	free(x->path);
	x->path = dup;
	x->ino = ino;
	x->dev = dev;
}

const char *proctable_exe_path(const struct proctable *pt, uint32_t dev, uint64_t ino)
{
	const struct pt_exe *x = &pt->exes[pt_exe_slot(dev, ino)];

	return ino && x->path && x->ino == ino && x->dev == dev ? x->path : NULL;
}

_Static_assert(sizeof(struct as_lineage) >= sizeof(struct pt_spare), "a spare fits a lineage");

static int entry_set_lineage(struct proctable *pt, struct proc_entry *e,
			     const struct as_lineage *l)
{
	if (!e->lin && pt->spare) {
		e->lin = (struct as_lineage *)(void *)pt->spare;
		pt->spare = pt->spare->next;
		pt->nspare--;
	}
	if (!e->lin) {
		e->lin = malloc(sizeof(*e->lin));
		if (!e->lin)
			return -ENOMEM;
	}
	if (e->lin != l)
		memcpy(e->lin, l, sizeof(*l));
	e->lin_agent_gen = 0;
	if (!agentid_pinned()) {
		e->lin_agent = (int16_t)agentid_nearest_by_name(e->lin);
		e->lin_agent_gen = agentid_generation();
	}
	return 0;
}

static void entry_clear_strings(struct proc_entry *e)
{
	free(e->exe); /* one block holds every string; exe points at its start */
	e->exe = e->args = e->cwd = e->cgroup = e->cgroups = NULL;
	e->args_len = 0;
}

struct proctable *proctable_new(uint32_t max_entries)
{
	struct proctable *pt = calloc(1, sizeof(*pt));
	uint32_t n = 16;

	if (!pt)
		return NULL;
	if (max_entries == 0 || max_entries > PROCTABLE_MAX_ENTRIES)
		max_entries = PROCTABLE_MAX_ENTRIES;
	while (n < max_entries * 2)
		n <<= 1; /* load factor at most one half */
	pt->max_slots = n;
	if (n > PROCTABLE_INITIAL_SLOTS)
		n = PROCTABLE_INITIAL_SLOTS;
	pt->slots = calloc(n, sizeof(*pt->slots));
	if (!pt->slots) {
		free(pt);
		return NULL;
	}
	pt->mask = n - 1;
	pt->max_entries = max_entries;
	return pt;
}

void proctable_free(struct proctable *pt)
{
	if (!pt)
		return;
	for (uint32_t i = 0; i <= pt->mask; i++)
		if (pt->slots[i].used) {
			entry_clear_strings(&pt->slots[i]);
			free(pt->slots[i].lin);
		}
	for (uint32_t i = 0; i < PROCTABLE_EXE_CACHE; i++)
		free(pt->exes[i].path);
	while (pt->spare) {
		struct pt_spare *next = pt->spare->next;

		free(pt->spare);
		pt->spare = next;
	}
	free(pt->slots);
	free(pt);
}

static struct proc_entry *pt_find(const struct proctable *pt, uint32_t pid)
{
	for (uint32_t i = pt_hash(pid) & pt->mask;; i = (i + 1) & pt->mask) {
		struct proc_entry *e = &pt->slots[i];

		if (!e->used)
			return NULL;
		if (e->pid == pid)
			return e;
	}
}

const struct proc_entry *proctable_lookup(const struct proctable *pt, uint32_t pid)
{
	return pt_find(pt, pid);
}

/* Twice the slots, every entry rehashed into them; -ENOMEM leaves the table
 * as it was. Entry pointers taken before are stale after it. */
static int pt_grow(struct proctable *pt)
{
	uint32_t n = 2 * (pt->mask + 1), nmask = n - 1;
	struct proc_entry *s;

	if (n > pt->max_slots)
		return -ENOSPC;
	s = calloc(n, sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (uint32_t i = 0; i <= pt->mask; i++) {
		uint32_t j;

		if (!pt->slots[i].used)
			continue;
		for (j = pt_hash(pt->slots[i].pid) & nmask; s[j].used; j = (j + 1) & nmask)
			;
		s[j] = pt->slots[i];
	}
	free(pt->slots);
	pt->slots = s;
	pt->mask = nmask;
	return 0;
}

static struct proc_entry *pt_insert(struct proctable *pt, uint32_t pid)
{
	struct proc_entry *e = pt_find(pt, pid);

	if (e)
		return e;
	if (pt->count >= pt->max_entries) {
		pt->untracked++;
		return NULL;
	}
	/* keep at most half the slots used; past that only if growing failed,
	 * and never the last free slot (the probes below end at one) */
	if (2 * (pt->count + 1) > pt->mask + 1 && pt_grow(pt) && pt->count + 2 > pt->mask + 1) {
		pt->untracked++;
		return NULL;
	}
	for (uint32_t i = pt_hash(pid) & pt->mask;; i = (i + 1) & pt->mask) {
		e = &pt->slots[i];
		if (!e->used) {
			memset(e, 0, sizeof(*e));
			e->used = 1;
			e->pid = pid;
			pt->count++;
			return e;
		}
	}
}

/* Linear probing with backward-shift deletion: no tombstones, so lookups
 * stay short however much the table churns. */
static void pt_remove(struct proctable *pt, struct proc_entry *e)
{
	uint32_t i = (uint32_t)(e - pt->slots), j = i;

	if (in_container(e) && pt->on_container)
		pt->on_container(pt->on_container_ctx, e->container_id, NULL, e->container_type, -1);
	entry_clear_strings(e);
	if (e->lin && pt->nspare < PROCTABLE_LIN_SPARE) {
		struct pt_spare *sp = (struct pt_spare *)(void *)e->lin;

		sp->next = pt->spare;
		pt->spare = sp;
		pt->nspare++;
	} else {
		free(e->lin);
	}
	e->lin = NULL;
	for (;;) {
		uint32_t home;

		j = (j + 1) & pt->mask;
		if (!pt->slots[j].used)
			break;
		home = pt_hash(pt->slots[j].pid) & pt->mask;
		/* move j back to i unless its home lies cyclically in (i, j] */
		if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
			continue;
		pt->slots[i] = pt->slots[j];
		i = j;
	}
	memset(&pt->slots[i], 0, sizeof(pt->slots[i]));
	pt->count--;
}

void proctable_container_id(const char *cgroups, char out[PROCTABLE_CONTAINER_ID_LEN + 1])
{
	struct cgpath_id cid;

	if (cgpath_parse(cgroups, &cid) == CGPATH_HOST) {
		strcpy(out, "host");
		return;
	}
	memcpy(out, cid.id, PROCTABLE_CONTAINER_ID_LEN);
	out[PROCTABLE_CONTAINER_ID_LEN] = 0;
}

void proctable_on_container(struct proctable *pt, proctable_container_fn fn, void *ctx)
{
	pt->on_container = fn;
	pt->on_container_ctx = ctx;
}

/* Give e the container (short id, type), telling the hook what changed. */
static void entry_set_container(struct proctable *pt, struct proc_entry *e, const char *short_id,
				const char *full_id, unsigned type)
{
	if (in_container(e) && type != CGPATH_HOST && !strcmp(e->container_id, short_id))
		return;
	if (in_container(e) && pt->on_container)
		pt->on_container(pt->on_container_ctx, e->container_id, NULL, e->container_type, -1);
	snprintf(e->container_id, sizeof(e->container_id), "%s", short_id);
	e->container_type = (uint8_t)type;
	if (in_container(e) && pt->on_container)
		pt->on_container(pt->on_container_ctx, e->container_id, full_id, type, +1);
}

static void entry_parse_container(struct proctable *pt, struct proc_entry *e, const char *cgroups)
{
	struct cgpath_id cid;
	char short_id[PROCTABLE_CONTAINER_ID_LEN + 1];

	if (cgpath_parse(cgroups, &cid) == CGPATH_HOST) {
		entry_set_container(pt, e, "host", NULL, CGPATH_HOST);
		return;
	}
	memcpy(short_id, cid.id, PROCTABLE_CONTAINER_ID_LEN);
	short_id[PROCTABLE_CONTAINER_ID_LEN] = 0;
	entry_set_container(pt, e, short_id, cid.id, cid.type);
}

/* The v1 hierarchies of an entry: its cgroups string up to "unified=". */
static size_t v1_part(const struct proc_entry *e)
{
	const char *u;
	size_t n;

	if (!e || !e->cgroups)
		return 0;
	u = strstr(e->cgroups, "unified=");
	n = u ? (size_t)(u - e->cgroups) : strlen(e->cgroups);
	while (n && e->cgroups[n - 1] == ' ')
		n--;
	return n;
}

/* Replace e's strings with one block: exe, args, cwd, cgroup, cgroups. */
static int entry_set_strings(struct proc_entry *e, const char *exe, const char *args,
			     uint32_t args_len, const char *cwd, const char *cgroup,
			     const char *cgroups)
{
	size_t le = strlen(exe) + 1, lw = strlen(cwd) + 1, lc = strlen(cgroup) + 1;
	size_t lv = strlen(cgroups) + 1;
	char *b = malloc(le + args_len + 1 + lw + lc + lv);

	if (!b)
		return -ENOMEM;
	memcpy(b, exe, le);
	memcpy(b + le, args, args_len);
	b[le + args_len] = 0;
	memcpy(b + le + args_len + 1, cwd, lw);
	memcpy(b + le + args_len + 1 + lw, cgroup, lc);
	memcpy(b + le + args_len + 1 + lw + lc, cgroups, lv);
	entry_clear_strings(e);
	e->exe = b;
	e->args = b + le;
	e->args_len = args_len;
	e->cwd = b + le + args_len + 1;
	e->cgroup = e->cwd + lw;
	e->cgroups = e->cgroup + lc;
	return 0;
}

static void entry_header(struct proc_entry *e, const struct as_hdr *h)
{
	e->ppid = h->ppid;
	e->cgroup_id = h->cgroup_id;
	memcpy(e->comm, h->comm, sizeof(e->comm));
	e->comm[sizeof(e->comm) - 1] = 0;
	if (h->flags & AS_HF_SESSION)
		memcpy(e->session, h->session, sizeof(e->session));
}

/*
 * cgroups: a /proc snapshot carries every hierarchy (v1 ones as read from
 * /proc/PID/cgroup); an exec keeps the v1 hierarchies the process had (or its
 * parent's) and takes the v2 path the kernel captured. Nothing here reads
 * /proc, so a replay rebuilds exactly the table the live run had.
 */
static int apply_exec(struct proctable *pt, const struct event *ev)
{
	const struct as_hdr *h = ev->hdr;
	struct proc_entry *e, *from;
	char all[PROCTABLE_CGROUPS_MAX], v2[AS_CGROUP_MAX + 1];
	size_t v1;
	int err;

	if (h->type == AS_EV_EXEC && ev->res < 0)
		return 0; /* a failed exec changes nothing */
	e = pt_insert(pt, h->pid);
	if (!e)
		return -ENOSPC;
	from = e->cgroups ? e : pt_find(pt, h->ppid);
	if (h->type == AS_EV_PROC) {
		/* procscan sent every hierarchy; the decoder found the v2 path */
		snprintf(all, sizeof(all), "%s", ev->cgroups ? ev->cgroups : "");
		snprintf(v2, sizeof(v2), "%s", ev->cgroup.s);
	} else {
		snprintf(v2, sizeof(v2), "%s", ev->cgroup.s);
		v1 = v1_part(from);
		if (v1)
			snprintf(all, sizeof(all), "%.*s unified=%s", (int)v1, from->cgroups, v2);
		else
			snprintf(all, sizeof(all), "unified=%s", v2);
	}
	if (!(h->flags & AS_HF_SESSION) && !e->session[0] && (from = pt_find(pt, h->ppid)))
		memcpy(e->session, from->session, sizeof(e->session));
	entry_header(e, h);
	e->start_ts = ev->ts;
	e->exe_flags = h->type == AS_EV_EXEC || h->type == AS_EV_PROC ?
			       ev->exec_flags & PROCTABLE_EXE_FLAGS :
			       0;
	err = entry_set_strings(e, ev->exe.s, ev->args, ev->args_len, ev->cwd.s, v2, all);
	if (err)
		return err;
	{
		const struct as_lineage *l = &ev->u.exec->lin;

		if (l->n)
			pt_exe_note(pt, l->e[0].dev, l->e[0].ino, ev->exe.s);
		err = entry_set_lineage(pt, e, l);
		if (err)
			return err;
	}
	entry_parse_container(pt, e, all);
	return 0;
}

static int apply_fork(struct proctable *pt, const struct event *ev)
{
	const struct as_fork *f = ev->u.fork;
	struct proc_entry *parent, *child;
	struct proc_entry copy;

	struct as_lineage lin;
	static const struct as_lineage none;
	int err;

	/* a thread (the kernel reports one that made a namespace): no new
	 * process, its process is the caller's */
	if (f->child_pid == ev->hdr->pid)
		return 0;
	child = pt_insert(pt, f->child_pid);
	if (!child)
		return -ENOSPC;
	/* insertion may not move entries, but look the parent up afterwards anyway */
	parent = pt_find(pt, ev->hdr->pid);
	lineage_fork(&lin, parent && parent != child && parent->lin ? parent->lin : &none,
		     f->child_pid, f->child_start_ns);
	if (!parent || !parent->lin) { /* what the header tells of the creator */
		memcpy(lin.e[0].comm, ev->hdr->comm, AS_COMM_LEN);
	}
	err = entry_set_lineage(pt, child, &lin);
	if (err)
		return err;
	if (!parent || parent == child) {
		entry_header(child, ev->hdr);
		child->ppid = ev->hdr->pid;
		return 0;
	}
	copy = *parent;
	memcpy(child->comm, copy.comm, sizeof(child->comm));
	memcpy(child->session, copy.session, sizeof(child->session));
	entry_set_container(pt, child, copy.container_id, NULL, copy.container_type);
	child->ppid = ev->hdr->pid;
	child->cgroup_id = copy.cgroup_id;
	child->start_ts = ev->ts;
	child->exe_flags = copy.exe_flags;
	if (copy.exe)
		return entry_set_strings(child, copy.exe, copy.args, copy.args_len, copy.cwd,
					 copy.cgroup, copy.cgroups);
	return 0;
}

/* chdir/fchdir: proc.cwd follows the process, not only its exec */
static int apply_cwd(struct proctable *pt, const struct event *ev)
{
	struct proc_entry *e;
	unsigned sc = ev->hdr->syscall;

	if ((sc != AS_SC_CHDIR && sc != AS_SC_FCHDIR) || ev->res != 0 || !ev->path.s[0])
		return 0;
	e = pt_find(pt, ev->hdr->pid);
	if (!e || !e->exe)
		return 0;
	return entry_set_strings(e, e->exe, e->args, e->args_len, ev->path.s, e->cgroup,
				 e->cgroups);
}

int proctable_apply(struct proctable *pt, const struct event *ev)
{
	switch (ev->hdr->type) {
	case AS_EV_SYS:
		return apply_cwd(pt, ev);
	case AS_EV_EXEC:
	case AS_EV_PROC:
		return apply_exec(pt, ev);
	case AS_EV_FORK:
		return apply_fork(pt, ev);
	default:
		return 0;
	}
}

void proctable_retire(struct proctable *pt, const struct event *ev)
{
	struct proc_entry *e;

	if (ev->hdr->type != AS_EV_EXIT)
		return;
	e = pt_find(pt, ev->hdr->pid);
	if (e)
		pt_remove(pt, e);
}

uint32_t proctable_count(const struct proctable *pt)
{
	return pt->count;
}

void proctable_set_self(struct proctable *pt, const struct proctable_self *self)
{
	pt->self = *self;
}

const struct proctable_self *proctable_self(const struct proctable *pt)
{
	return &pt->self;
}

uint64_t proctable_untracked(const struct proctable *pt)
{
	return pt->untracked;
}
