// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "agentid.h"
#include "diag.h"
#include "kdev.h"

/* where a pin's mount is learnt: pins are paths in our own namespace */
#define AGENTID_MOUNTINFO "/proc/self/mountinfo"

static const char *const agentid_default[] = AGENTID_DEFAULT_NAMES;

static struct {
	char names[AGENTID_MAX][AS_COMM_LEN];
	size_t nnames;
	struct agentid_pin pins[AGENTID_MAX];
	size_t npins;
	/* files pinned paths led to before (oldest first): still agents */
	struct agentid_pin seen[AGENTID_SEEN_MAX];
	size_t nseen;
	int configured; /* agentid_set ran: else the default names */
	uint64_t sig; /* agentid_pins_now() when the pins were resolved */
} agentid;

/* bumped whenever the agent set changes; 0 is never a generation */
static uint32_t agentid_gen = 1;

void agentid_free(void)
{
	if (++agentid_gen == 0)
		agentid_gen = 1;
	for (size_t i = 0; i < agentid.npins; i++) {
		free(agentid.pins[i].path);
		free(agentid.pins[i].real);
	}
	for (size_t i = 0; i < agentid.nseen; i++) {
		free(agentid.seen[i].path);
		free(agentid.seen[i].real);
	}
	memset(&agentid, 0, sizeof(agentid));
}

static int agentid_streq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The same file: the same inode, reached the same way */
static int agentid_same(const struct agentid_pin *a, const struct agentid_pin *b)
{
	return a->ino == b->ino && a->dev == b->dev && agentid_streq(a->real, b->real);
}

/* A file old (a pin of the set being replaced, or a file one led to before)
 * stays an agent when its path is pinned still and leads elsewhere now: an
 * agent that updated itself (a new version, the link moved to it) runs on
 * as the old file, and so do its children. Takes old's strings or frees
 * them; the oldest is forgotten when AGENTID_SEEN_MAX are kept. */
static void agentid_keep_seen(struct agentid_pin *old)
{
	int keep = 0;

	for (size_t i = 0; i < agentid.npins && old->ino; i++)
		if (!strcmp(agentid.pins[i].path, old->path))
			keep = !agentid_same(&agentid.pins[i], old);
	for (size_t i = 0; i < agentid.nseen && keep; i++)
		keep = !agentid_same(&agentid.seen[i], old);
	if (!keep) {
		free(old->path);
		free(old->real);
		return;
	}
	if (agentid.nseen == AGENTID_SEEN_MAX) {
		diag_warn("agents.exe_paths: %s: more than %d earlier files kept; the oldest "
			  "(%s) is no agent any more", old->path, AGENTID_SEEN_MAX,
			  agentid.seen[0].real ? agentid.seen[0].real : agentid.seen[0].path);
		free(agentid.seen[0].path);
		free(agentid.seen[0].real);
		memmove(agentid.seen, agentid.seen + 1, --agentid.nseen * sizeof(agentid.seen[0]));
	}
	agentid.seen[agentid.nseen++] = *old;
}

/* The directory of path (up to the last '/'; "/" for a file at the root)
 * into dir; -1 when path has no '/' or is too long. */
static int agentid_dirname(const char *path, char *dir, size_t cap)
{
	const char *slash = strrchr(path, '/');

	if (!slash || (size_t)(slash - path) >= cap)
		return -1;
	snprintf(dir, cap, "%.*s", slash == path ? 1 : (int)(slash - path), path);
	return 0;
}

/* Where a pinned path leads (realpath), NULL when to itself or nowhere.
 * A path through /proc (/proc/PID/root/..., another mount namespace's
 * file) is left as it is: realpath would read its magic links as text. */
static char *agentid_realpath(const char *path)
{
	char *real = strncmp(path, "/proc/", 6) ? realpath(path, NULL) : NULL;

	if (real && !strcmp(real, path)) {
		free(real);
		real = NULL;
	}
	return real;
}

/* The directory of path with the device the kernel sees (kdev.h), into p. */
static void agentid_pin_dir(struct kdev_map *km, const char *path, struct agentid_pin *p)
{
	char dir[PATH_MAX];

	p->dir_ino = 0;
	p->dir_dev = 0;
	if (agentid_dirname(path, dir, sizeof(dir)))
		return;
	if (kdev_stat(km, AT_FDCWD, dir, AGENTID_MOUNTINFO, NULL, &p->dir_dev, &p->dir_ino)) {
		p->dir_ino = 0;
		p->dir_dev = 0;
	}
}

/* Where path leads now, into p (all but p->path): through its links (the
 * kernel's events name the file itself: a pin of ~/.local/bin/claude, a link
 * to versions/2.0.1, is that file and its directory), its inode and its
 * directory's. 0, or a negative errno when the file is not there (its
 * directory is still taken). */
static int agentid_resolve(struct kdev_map *km, const char *path, struct agentid_pin *p)
{
	char *real = agentid_realpath(path);
	int err;

	p->real = real;
	err = kdev_stat(km, AT_FDCWD, real ? real : path, AGENTID_MOUNTINFO, NULL, &p->dev, &p->ino);
	if (err) {
		p->dev = 0;
		p->ino = 0;
	}
	agentid_pin_dir(km, real ? real : path, p);
	return err;
}

#define AGENTID_HASH_BASIS 0xcbf29ce484222325ull

static uint64_t agentid_hash(uint64_t h, const void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ ((const unsigned char *)p)[i]) * 0x100000001b3ull;
	return h;
}

/* FNV-1a of where path leads now, by statx alone (no mountinfo read: this
 * runs every second): where its links lead, the file's and its directory's
 * inode and mount. */
static uint64_t agentid_path_hash(uint64_t h, const char *path)
{
	char *real = agentid_realpath(path), dir[PATH_MAX];
	const char *at = real ? real : path;
	struct statx f = { 0 }, d = { 0 };
	uint64_t v[4];

	if (statx(AT_FDCWD, at, 0, STATX_INO | STATX_MNT_ID, &f))
		memset(&f, 0, sizeof(f));
	if (agentid_dirname(at, dir, sizeof(dir)) ||
	    statx(AT_FDCWD, dir, 0, STATX_INO | STATX_MNT_ID, &d))
		memset(&d, 0, sizeof(d));
	v[0] = f.stx_ino;
	v[1] = f.stx_mnt_id;
	v[2] = d.stx_ino;
	v[3] = d.stx_mnt_id;
	h = agentid_hash(h, at, strlen(at) + 1);
	free(real);
	return agentid_hash(h, v, sizeof(v));
}

uint64_t agentid_pins_sig(void)
{
	return agentid.sig;
}

uint64_t agentid_pins_now(void)
{
	uint64_t h = AGENTID_HASH_BASIS;

	for (size_t i = 0; i < agentid.npins; i++)
		h = agentid_path_hash(h, agentid.pins[i].path);
	return h;
}

int agentid_set(char *const *names, size_t nnames, char *const *paths, size_t npaths)
{
	struct kdev_map km = { 0 }; /* this configuration's: mounts change */
	static struct agentid_pin old_pins[AGENTID_MAX], old_seen[AGENTID_SEEN_MAX];
	size_t nold_pins, nold_seen;
	int err = 0;

	if (nnames > AGENTID_MAX || npaths > AGENTID_MAX) {
		diag_err("agents: at most %d names and %d exe_paths", AGENTID_MAX, AGENTID_MAX);
		return -E2BIG;
	}
	for (size_t i = 0; i < npaths; i++)
		if (paths[i][0] != '/') {
			diag_err("agents.exe_paths[%zu]: %s: not an absolute path", i, paths[i]);
			return -EINVAL;
		}
	/* the set replaced: its files may stay agents (agentid_keep_seen) */
	memcpy(old_seen, agentid.seen, agentid.nseen * sizeof(old_seen[0]));
	memcpy(old_pins, agentid.pins, agentid.npins * sizeof(old_pins[0]));
	nold_seen = agentid.nseen;
	nold_pins = agentid.npins;
	agentid.nseen = agentid.npins = 0;
	agentid_free();
	agentid.configured = 1;
	for (size_t i = 0; i < nnames; i++)
		if (strlen(names[i]) < AS_COMM_LEN)
			memcpy(agentid.names[agentid.nnames++], names[i], strlen(names[i]) + 1);
	/* before the pins resolve: a change in between shows at the next check */
	agentid.sig = AGENTID_HASH_BASIS;
	for (size_t i = 0; i < npaths; i++)
		agentid.sig = agentid_path_hash(agentid.sig, paths[i]);
	for (size_t i = 0; i < npaths; i++) {
		struct agentid_pin *p = &agentid.pins[agentid.npins];

		p->path = strdup(paths[i]);
		if (!p->path) {
			err = -ENOMEM;
			break;
		}
		err = agentid_resolve(&km, paths[i], p);
		if (err)
			diag_warn("agents.exe_paths[%zu]: %s: %s (matched by path only)", i,
				  paths[i], strerror(-err));
		err = 0;
		agentid.npins++;
	}
	kdev_map_fini(&km);
	for (size_t i = 0; i < nold_seen; i++)
		agentid_keep_seen(&old_seen[i]);
	for (size_t i = 0; i < nold_pins; i++)
		agentid_keep_seen(&old_pins[i]);
	if (err)
		agentid_free();
	return err;
}

/* Called for every lineage entry of every event a rule tests for an agent
 * tree: the first byte settles almost every entry without a call. */
static int agentid_name_is(const char *comm)
{
	if (!agentid.configured) {
		for (size_t i = 0; i < sizeof(agentid_default) / sizeof(agentid_default[0]); i++)
			if (comm[0] == agentid_default[i][0] &&
			    !strncmp(comm, agentid_default[i], AS_COMM_LEN))
				return 1;
		return 0;
	}
	for (size_t i = 0; i < agentid.nnames; i++)
		if (comm[0] == agentid.names[i][0] && !strncmp(comm, agentid.names[i], AS_COMM_LEN))
			return 1;
	return 0;
}

int agentid_pinned(void)
{
	return agentid.npins != 0;
}

/* Is e (exe: its path or NULL) the pinned file p: its inode, or its path? */
static int agentid_pin_is(const struct agentid_pin *p, const struct as_lin_ent *e,
			  const char *exe)
{
	if (p->ino && e->ino == p->ino && e->dev == p->dev)
		return 1;
	return exe && (!strcmp(exe, p->path) || agentid_streq(exe, p->real));
}

/* Is e the earlier file p: its inode, and where it was when e's path is
 * known (once deleted, its inode number may be another file's by now). */
static int agentid_seen_is(const struct agentid_pin *p, const struct as_lin_ent *e,
			   const char *exe)
{
	const char *was = p->real ? p->real : p->path;
	size_t n = strlen(was);

	/* /proc says " (deleted)" after the name of a file since removed */
	return e->ino == p->ino && e->dev == p->dev &&
	       (!exe || (!strncmp(exe, was, n) && (!exe[n] || !strcmp(exe + n, " (deleted)"))));
}

int agentid_is_agent(const struct as_lin_ent *e, const char *exe)
{
	if (!agentid.npins)
		return agentid_name_is(e->comm);
	for (size_t i = 0; i < agentid.npins; i++)
		if (agentid_pin_is(&agentid.pins[i], e, exe))
			return 1;
	for (size_t i = 0; i < agentid.nseen; i++)
		if (agentid_seen_is(&agentid.seen[i], e, exe))
			return 1;
	return 0;
}

uint32_t agentid_generation(void)
{
	return agentid_gen;
}

int agentid_nearest_by_name(const struct as_lineage *l)
{
	for (int i = 0; i < l->n && i < AS_LINEAGE_MAX; i++)
		if (agentid_name_is(l->e[i].comm))
			return i;
	return -1;
}

const struct agentid_pin *agentid_pins(size_t *n)
{
	*n = agentid.npins;
	return agentid.npins ? agentid.pins : NULL;
}

const struct agentid_pin *agentid_seen(size_t *n)
{
	*n = agentid.nseen;
	return agentid.nseen ? agentid.seen : NULL;
}

size_t agentid_filter_names(char (*out)[AS_COMM_LEN], size_t max)
{
	size_t n = 0;

	if (agentid.npins) {
		for (size_t i = 0; i < agentid.npins && n < max; i++) {
			const char *b = strrchr(agentid.pins[i].path, '/');

			b = b ? b + 1 : agentid.pins[i].path;
			memset(out[n], 0, AS_COMM_LEN);
			strncpy(out[n++], b, AS_COMM_LEN - 1);
		}
		return n;
	}
	if (!agentid.configured) {
		for (size_t i = 0; i < sizeof(agentid_default) / sizeof(agentid_default[0]) && n < max; i++) {
			memset(out[n], 0, AS_COMM_LEN);
			strncpy(out[n++], agentid_default[i], AS_COMM_LEN - 1);
		}
		return n;
	}
	for (size_t i = 0; i < agentid.nnames && n < max; i++)
		memcpy(out[n++], agentid.names[i], AS_COMM_LEN);
	return n;
}
