// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
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

/* The directory of path (up to the last '/'; "/" for a file at the root),
 * with the device the kernel sees (kdev.h), into p. */
static void agentid_pin_dir(struct kdev_map *km, const char *path, struct agentid_pin *p)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];

	p->dir_ino = 0;
	p->dir_dev = 0;
	if (!slash || (size_t)(slash - path) >= sizeof(dir))
		return;
	snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	if (kdev_stat(km, AT_FDCWD, dir, AGENTID_MOUNTINFO, &p->dir_dev, &p->dir_ino)) {
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
	char *real = realpath(path, NULL);
	int err;

	if (real && !strcmp(real, path)) {
		free(real);
		real = NULL;
	}
	p->real = real;
	err = kdev_stat(km, AT_FDCWD, real ? real : path, AGENTID_MOUNTINFO, &p->dev, &p->ino);
	if (err) {
		p->dev = 0;
		p->ino = 0;
	}
	agentid_pin_dir(km, real ? real : path, p);
	return err;
}

/* FNV-1a over a pin as resolved: what the kernel's maps were given */
static uint64_t agentid_pin_hash(uint64_t h, const char *path, const struct agentid_pin *p)
{
	const uint64_t v[] = { p->ino, p->dev, p->dir_ino, p->dir_dev };
	const unsigned char *b = (const unsigned char *)v;
	const char *at = p->real ? p->real : path;

	for (size_t i = 0; at[i]; i++)
		h = (h ^ (unsigned char)at[i]) * 0x100000001b3ull;
	for (size_t i = 0; i < sizeof(v); i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

#define AGENTID_HASH_BASIS 0xcbf29ce484222325ull

uint64_t agentid_pins_sig(void)
{
	uint64_t h = AGENTID_HASH_BASIS;

	for (size_t i = 0; i < agentid.npins; i++)
		h = agentid_pin_hash(h, agentid.pins[i].path, &agentid.pins[i]);
	return h;
}

uint64_t agentid_pins_now(void)
{
	struct kdev_map km = { 0 };
	uint64_t h = AGENTID_HASH_BASIS;

	for (size_t i = 0; i < agentid.npins; i++) {
		struct agentid_pin now = { 0 };

		agentid_resolve(&km, agentid.pins[i].path, &now);
		h = agentid_pin_hash(h, agentid.pins[i].path, &now);
		free(now.real);
	}
	kdev_map_fini(&km);
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

/* Is e (exe: its path or NULL) the file p? by_path: or at p's path */
static int agentid_pin_is(const struct agentid_pin *p, const struct as_lin_ent *e,
			  const char *exe, int by_path)
{
	if (p->ino && e->ino == p->ino && e->dev == p->dev)
		return 1;
	return exe && ((by_path && !strcmp(exe, p->path)) || agentid_streq(exe, p->real));
}

int agentid_is_agent(const struct as_lin_ent *e, const char *exe)
{
	if (!agentid.npins)
		return agentid_name_is(e->comm);
	for (size_t i = 0; i < agentid.npins; i++)
		if (agentid_pin_is(&agentid.pins[i], e, exe, 1))
			return 1;
	/* an earlier file: by what it was, not by a path that leads elsewhere now */
	for (size_t i = 0; i < agentid.nseen; i++)
		if (agentid_pin_is(&agentid.seen[i], e, exe, 0))
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
