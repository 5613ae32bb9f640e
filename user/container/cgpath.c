// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Container id and type from cgroup paths; the layouts are listed in cgpath.h. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "cgpath.h"

#define CGPATH_NAME_MAX 256 /* one path component: NAME_MAX of a cgroupfs directory */

static const char *const cgpath_names[CGPATH_NTYPES] = {
#define CGPATH_NAME(id, name) [id] = name,
	CGPATH_TYPES(CGPATH_NAME)
#undef CGPATH_NAME
};

const char *cgpath_type_name(enum cgpath_type t)
{
	return (unsigned)t < CGPATH_NTYPES ? cgpath_names[t] : "host";
}

/* Runtime prefixes of a systemd scope (or podman's cgroupfs directory). */
static const struct {
	const char *prefix;
	enum cgpath_type type;
} cgpath_prefixes[] = {
	{ "docker-", CGPATH_DOCKER },
	{ "cri-containerd-", CGPATH_CONTAINERD },
	{ "containerd-", CGPATH_CONTAINERD },
	{ "crio-", CGPATH_CRIO },
	{ "libpod-", CGPATH_PODMAN },
};

static int hex_run(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && isxdigit((unsigned char)s[i]))
		i++;
	return (int)i;
}

/* A component that is exactly a runtime's scope: PREFIX<id>[.scope]. */
static enum cgpath_type scope_id(const char *c, size_t n, const char **id)
{
	for (size_t i = 0; i < sizeof(cgpath_prefixes) / sizeof(cgpath_prefixes[0]); i++) {
		size_t pl = strlen(cgpath_prefixes[i].prefix), rest;

		if (n < pl + CGPATH_ID_LEN || strncmp(c, cgpath_prefixes[i].prefix, pl) != 0)
			continue;
		if (hex_run(c + pl, n - pl) != CGPATH_ID_LEN)
			continue; /* crio-conmon-<id>, libpod-conmon-<id>: the monitors */
		rest = n - pl - CGPATH_ID_LEN;
		if (rest && !(rest == 6 && !strncmp(c + pl + CGPATH_ID_LEN, ".scope", 6)))
			continue;
		*id = c + pl;
		return cgpath_prefixes[i].type;
	}
	return CGPATH_HOST;
}

/* conmon, the monitor cri-o and podman run next to each container, in its own cgroup */
static int is_monitor(const char *c, size_t n)
{
	return (n > 12 && !strncmp(c, "crio-conmon-", 12)) ||
	       (n > 14 && !strncmp(c, "libpod-conmon-", 14));
}

/* A 64-hex run bounded by non-hex characters inside a component. */
static const char *bare_id(const char *c, size_t n)
{
	for (size_t i = 0; i < n;) {
		int run = hex_run(c + i, n - i);

		if (run == CGPATH_ID_LEN && (i == 0 || !isxdigit((unsigned char)c[i - 1])))
			return c + i;
		i += run ? (size_t)run : 1;
	}
	return NULL;
}

/* What a bare id's parents say about the runtime that made it. */
static enum cgpath_type bare_type(const char *path, const char *comp)
{
	const char *p = comp - 1, *parent;
	size_t pn;

	if (p <= path)
		return CGPATH_RUNC;
	parent = p;
	while (parent > path && parent[-1] != '/')
		parent--;
	pn = (size_t)(p - parent);
	if (pn == 6 && !strncmp(parent, "docker", 6))
		return CGPATH_DOCKER;
	if (pn == 13 && !strncmp(parent, "libpod_parent", 13))
		return CGPATH_PODMAN;
	if (pn > 3 && !strncmp(parent, "pod", 3) && memmem(path, (size_t)(parent - path), "/kubepods", 9))
		return CGPATH_CRI;
	return CGPATH_RUNC;
}

/* The innermost container of one path (n bytes): the last component that names one. */
static enum cgpath_type parse_path(const char *path, size_t n, struct cgpath_id *out)
{
	enum cgpath_type found = CGPATH_HOST;
	const char *end = path + n;

	for (const char *c = path; c < end;) {
		const char *slash = memchr(c, '/', (size_t)(end - c)), *id = NULL;
		size_t cn = (size_t)((slash ? slash : end) - c);
		enum cgpath_type t;

		if (cn && cn < CGPATH_NAME_MAX && !is_monitor(c, cn)) {
			t = scope_id(c, cn, &id);
			if (t == CGPATH_HOST && (id = bare_id(c, cn)))
				t = bare_type(path, c);
			if (t != CGPATH_HOST) {
				memcpy(out->id, id, CGPATH_ID_LEN);
				out->id[CGPATH_ID_LEN] = 0;
				found = t;
			}
		}
		c += cn + 1;
	}
	return found;
}

enum cgpath_type cgpath_parse(const char *cgroups, struct cgpath_id *out)
{
	const char *u;
	enum cgpath_type t;

	out->type = CGPATH_HOST;
	out->id[0] = 0;
	if (!cgroups || !*cgroups)
		return CGPATH_HOST;
	/* the unified hierarchy first: on a hybrid host it is the one the
	 * kernel reported at the last exec, the v1 paths may be the parent's */
	u = strstr(cgroups, "unified=");
	if (u && (u == cgroups || u[-1] == ' ')) {
		const char *p = u + 8, *e = strchr(p, ' ');

		t = parse_path(p, e ? (size_t)(e - p) : strlen(p), out);
		if (t != CGPATH_HOST)
			return out->type = t;
	}
	for (const char *h = cgroups; *h;) {
		const char *e = strchr(h, ' '), *eq;
		size_t hn = e ? (size_t)(e - h) : strlen(h);

		eq = memchr(h, '=', hn);
		if (h != u) {
			const char *p = eq ? eq + 1 : h;

			t = parse_path(p, hn - (size_t)(p - h), out);
			if (t != CGPATH_HOST)
				return out->type = t;
		}
		h += hn;
		while (*h == ' ')
			h++;
	}
	out->id[0] = 0;
	return CGPATH_HOST;
}
