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
	int configured; /* agentid_set ran: else the default names */
} agentid;

/* bumped whenever the agent set changes; 0 is never a generation */
static uint32_t agentid_gen = 1;

void agentid_free(void)
{
	if (++agentid_gen == 0)
		agentid_gen = 1;
	for (size_t i = 0; i < agentid.npins; i++)
		free(agentid.pins[i].path);
	memset(&agentid, 0, sizeof(agentid));
}

/* The pin's directory (its path up to the last '/'; "/" for a file at the
 * root), as stat() follows it, with the device the kernel sees (kdev.h). */
static void agentid_pin_dir(struct kdev_map *km, struct agentid_pin *p)
{
	const char *slash = strrchr(p->path, '/');
	char dir[PATH_MAX];

	p->dir_ino = 0;
	p->dir_dev = 0;
	if (!slash || (size_t)(slash - p->path) >= sizeof(dir))
		return;
	snprintf(dir, sizeof(dir), "%.*s", slash == p->path ? 1 : (int)(slash - p->path), p->path);
	if (kdev_stat(km, AT_FDCWD, dir, AGENTID_MOUNTINFO, &p->dir_dev, &p->dir_ino)) {
		p->dir_ino = 0;
		p->dir_dev = 0;
	}
}

int agentid_set(char *const *names, size_t nnames, char *const *paths, size_t npaths)
{
	struct kdev_map km = { 0 }; /* this configuration's: mounts change */
	int err;

	if (nnames > AGENTID_MAX || npaths > AGENTID_MAX) {
		diag_err("agents: at most %d names and %d exe_paths", AGENTID_MAX, AGENTID_MAX);
		return -E2BIG;
	}
	for (size_t i = 0; i < npaths; i++)
		if (paths[i][0] != '/') {
			diag_err("agents.exe_paths[%zu]: %s: not an absolute path", i, paths[i]);
			return -EINVAL;
		}
	agentid_free();
	agentid.configured = 1;
	for (size_t i = 0; i < nnames; i++)
		if (strlen(names[i]) < AS_COMM_LEN)
			memcpy(agentid.names[agentid.nnames++], names[i], strlen(names[i]) + 1);
	for (size_t i = 0; i < npaths; i++) {
		struct agentid_pin *p = &agentid.pins[agentid.npins];

		p->path = strdup(paths[i]);
		if (!p->path) {
			kdev_map_fini(&km);
			agentid_free();
			return -ENOMEM;
		}
		err = kdev_stat(&km, AT_FDCWD, paths[i], AGENTID_MOUNTINFO, &p->dev, &p->ino);
		if (err) {
			p->dev = 0;
			p->ino = 0;
			diag_warn("agents.exe_paths[%zu]: %s: %s (matched by path only)", i,
				  paths[i], strerror(-err));
		}
		agentid_pin_dir(&km, p);
		agentid.npins++;
	}
	kdev_map_fini(&km);
	return 0;
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

int agentid_is_agent(const struct as_lin_ent *e, const char *exe)
{
	if (!agentid.npins)
		return agentid_name_is(e->comm);
	for (size_t i = 0; i < agentid.npins; i++) {
		const struct agentid_pin *p = &agentid.pins[i];

		if (p->ino && e->ino == p->ino && e->dev == p->dev)
			return 1;
		if (exe && !strcmp(exe, p->path))
			return 1;
	}
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
