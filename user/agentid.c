// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "agentid.h"
#include "diag.h"

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
 * root), as stat() follows it. */
static void agentid_pin_dir(struct agentid_pin *p)
{
	const char *slash = strrchr(p->path, '/');
	char dir[PATH_MAX];
	struct stat st;

	p->dir_ino = 0;
	p->dir_dev = 0;
	if (!slash || (size_t)(slash - p->path) >= sizeof(dir))
		return;
	snprintf(dir, sizeof(dir), "%.*s", slash == p->path ? 1 : (int)(slash - p->path), p->path);
	if (stat(dir, &st) == 0) {
		p->dir_ino = st.st_ino;
		p->dir_dev = (uint32_t)st.st_dev;
	}
}

int agentid_set(char *const *names, size_t nnames, char *const *paths, size_t npaths)
{
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
		struct stat st;

		p->path = strdup(paths[i]);
		if (!p->path) {
			agentid_free();
			return -ENOMEM;
		}
		if (stat(paths[i], &st) == 0) {
			p->ino = st.st_ino;
			p->dev = (uint32_t)st.st_dev;
		} else {
			diag_warn("agents.exe_paths[%zu]: %s: %s (matched by path only)", i,
				  paths[i], strerror(errno));
		}
		agentid_pin_dir(p);
		agentid.npins++;
	}
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
