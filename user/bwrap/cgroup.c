// SPDX-License-Identifier: MIT
/*
 * Session cgroup placement. The hierarchies come from /proc/self/mountinfo and
 * the launcher's own place in them from /proc/self/cgroup; the session cgroup
 * is nested under that place, so it stays inside whatever unit or delegation
 * the launcher runs in.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bwlog.h"
#include "cgroup.h"

#define CGROUP_MOUNTINFO "/proc/self/mountinfo"
#define CGROUP_SELF "/proc/self/cgroup"
/* A mountinfo or /proc/self/cgroup line; paths in them are at most PATH_MAX. */
#define CGROUP_LINE_MAX (3 * PATH_MAX)
/* rmdir of a cgroup whose last task is still being reaped: 100 x 10 ms. */
#define CGROUP_RMDIR_TRIES 100
#define CGROUP_RMDIR_WAIT_NS 10000000L
/* Longest number we write into a control file. */
#define CGROUP_VALUE_MAX 32

struct cgroup_hier {
	char mnt[PATH_MAX]; /* mount point */
	char self[PATH_MAX]; /* our cgroup, relative to the mount */
	bool found;
};

static int cgroup_write(const char *dir, const char *file, const char *value)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd, err = 0;

	if (snprintf(path, sizeof(path), "%s/%s", dir, file) >= (int)sizeof(path)) {
		bwlog_err("cgroup %s/%s: path too long", dir, file);
		return -ENAMETOOLONG;
	}
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		bwlog_err("cgroup %s: cannot open for writing: %s", path, strerror(errno));
		return err;
	}
	n = write(fd, value, strlen(value));
	if (n != (ssize_t)strlen(value)) {
		err = n < 0 ? -errno : -EIO;
		bwlog_err("cgroup %s: writing \"%s\" failed: %s", path, value, strerror(-err));
	}
	close(fd);
	return err;
}

/* Does the space-separated list in dir/file name word? */
static bool cgroup_lists(const char *dir, const char *file, const char *word)
{
	char path[PATH_MAX], buf[CGROUP_LINE_MAX];
	bool found = false;
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/%s", dir, file) >= (int)sizeof(path))
		return false;
	f = fopen(path, "re");
	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f))
		for (char *save, *t = strtok_r(buf, " \n", &save); t && !found;
		     t = strtok_r(NULL, " \n", &save))
			found = strcmp(t, word) == 0;
	fclose(f);
	return found;
}

/*
 * Find the hierarchy: v2 when v1opt is NULL, else the v1 one whose super
 * options contain v1opt ("memory", "pids", "name=systemd").
 */
static int cgroup_find(const char *v1opt, struct cgroup_hier *h)
{
	char line[CGROUP_LINE_MAX], root[PATH_MAX], mnt[PATH_MAX], fstype[64], super[512];
	char want[PATH_MAX];
	FILE *f;

	memset(h, 0, sizeof(*h));
	f = fopen(CGROUP_MOUNTINFO, "re");
	if (!f) {
		int err = -errno;

		bwlog_err("cgroup: cannot read %s: %s", CGROUP_MOUNTINFO, strerror(errno));
		return err;
	}
	while (!h->found && fgets(line, sizeof(line), f)) {
		char *sep = strstr(line, " - ");
		bool match = false;

		if (!sep || sscanf(line, "%*s %*s %*s %4095s %4095s", root, mnt) != 2 ||
		    sscanf(sep + 3, "%63s %*s %511s", fstype, super) != 2)
			continue;
		if (!v1opt) {
			match = strcmp(fstype, "cgroup2") == 0;
		} else if (strcmp(fstype, "cgroup") == 0) {
			for (char *save, *t = strtok_r(super, ",", &save); t && !match;
			     t = strtok_r(NULL, ",", &save))
				match = strcmp(t, v1opt) == 0;
		}
		if (match) {
			snprintf(h->mnt, sizeof(h->mnt), "%s", mnt);
			snprintf(h->self, sizeof(h->self), "%s", root); /* rewritten below */
			h->found = true;
		}
	}
	fclose(f);
	if (!h->found)
		return 0;

	/* Our cgroup in it: "0::/path" for v2, "N:ctrl,ctrl:/path" for v1. */
	snprintf(root, sizeof(root), "%s", h->self);
	snprintf(h->self, sizeof(h->self), "/");
	f = fopen(CGROUP_SELF, "re");
	if (!f) {
		int err = -errno;

		bwlog_err("cgroup: cannot read %s: %s", CGROUP_SELF, strerror(errno));
		return err;
	}
	while (fgets(line, sizeof(line), f)) {
		char *ctrls = strchr(line, ':'), *path;
		bool match = false;

		if (!ctrls || !(path = strchr(ctrls + 1, ':')))
			continue;
		*path++ = '\0';
		*ctrls++ = '\0';
		path[strcspn(path, "\n")] = '\0';
		if (!v1opt) {
			match = strcmp(line, "0") == 0 && *ctrls == '\0';
		} else {
			for (char *save, *t = strtok_r(ctrls, ",", &save); t && !match;
			     t = strtok_r(NULL, ",", &save))
				match = strcmp(t, v1opt) == 0;
		}
		if (!match)
			continue;
		/* A mount of a sub-tree (containers) shows paths below its root. */
		snprintf(want, sizeof(want), "%s", path);
		if (strcmp(root, "/") != 0 && strncmp(want, root, strlen(root)) == 0)
			memmove(want, want + strlen(root), strlen(want + strlen(root)) + 1);
		snprintf(h->self, sizeof(h->self), "%s", *want ? want : "/");
		break;
	}
	fclose(f);
	return 0;
}

static int cgroup_mkdir(const char *path, bool *created)
{
	*created = false;
	if (mkdir(path, 0755) == 0) {
		*created = true;
		return 0;
	}
	if (errno == EEXIST)
		return 0;
	bwlog_err("cgroup %s: cannot create: %s", path, strerror(errno));
	return -errno;
}

/* mnt/self/agent-sandbox and mnt/self/agent-sandbox/session. */
static int cgroup_make(struct cgroup *cg, const struct cgroup_hier *h, const char *session,
		       char parent[PATH_MAX], struct cgroup_dir **out)
{
	struct cgroup_dir *d;
	bool created;
	int err;

	for (size_t i = 0; i < cg->n; i++) {
		if (strncmp(cg->dirs[i].path, h->mnt, strlen(h->mnt)) == 0 &&
		    cg->dirs[i].path[strlen(h->mnt)] == '/') {
			*out = &cg->dirs[i]; /* co-mounted controllers: one directory */
			snprintf(parent, PATH_MAX, "%.*s", (int)(strrchr(cg->dirs[i].path, '/') -
							      cg->dirs[i].path), cg->dirs[i].path);
			return 0;
		}
	}
	if (cg->n == CGROUP_PLACES_MAX)
		return -ENOSPC;
	d = &cg->dirs[cg->n];
	if (snprintf(parent, PATH_MAX, "%s%s%s" CGROUP_SANDBOX_DIR, h->mnt,
		     strcmp(h->self, "/") ? h->self : "", "/") >= PATH_MAX ||
	    snprintf(d->path, sizeof(d->path), "%s/%s", parent, session) >= (int)sizeof(d->path)) {
		bwlog_err("cgroup %s%s: path too long", h->mnt, h->self);
		return -ENAMETOOLONG;
	}
	err = cgroup_mkdir(parent, &created);
	if (!err)
		err = cgroup_mkdir(d->path, &d->created);
	if (err)
		return err;
	cg->n++;
	*out = d;
	return 0;
}

/* The launcher's own cgroup directory in hierarchy h. */
static int cgroup_self_dir(const struct cgroup_hier *h, char out[PATH_MAX])
{
	size_t m = strlen(h->mnt), n = strcmp(h->self, "/") ? strlen(h->self) : 0;

	if (m + n + 1 > PATH_MAX) {
		bwlog_err("cgroup %s%s: path too long", h->mnt, h->self);
		return -ENAMETOOLONG;
	}
	memcpy(out, h->mnt, m);
	memcpy(out + m, h->self, n);
	out[m + n] = '\0';
	return 0;
}

/* Enable a v2 controller for agent-sandbox/<session>: in our cgroup and in agent-sandbox. */
static int cgroup_v2_enable(const struct cgroup_hier *h, const char *parent, const char *ctrl)
{
	char self[PATH_MAX], plus[CGROUP_VALUE_MAX];
	int err = 0;

	err = cgroup_self_dir(h, self);
	if (err)
		return err;
	snprintf(plus, sizeof(plus), "+%s", ctrl);
	if (!cgroup_lists(self, "cgroup.subtree_control", ctrl)) {
		err = cgroup_write(self, "cgroup.subtree_control", plus);
		if (err == -EBUSY)
			bwlog_err("cgroup %s has processes of its own, so it cannot delegate %s "
				  "(cgroup v2 no-internal-process rule); run agent-bwrap from a "
				  "cgroup without siblings' processes, or without the limit",
				  self, ctrl);
	}
	if (!err && !cgroup_lists(parent, "cgroup.subtree_control", ctrl))
		err = cgroup_write(parent, "cgroup.subtree_control", plus);
	return err;
}

static int cgroup_limit(struct cgroup *cg, const struct cgroup_hier *v2, const char *session,
			const char *ctrl, const char *v2file, const char *v1file, long long value)
{
	struct cgroup_hier v1;
	struct cgroup_dir *d;
	char parent[PATH_MAX], self[PATH_MAX], buf[CGROUP_VALUE_MAX];
	int err;

	snprintf(buf, sizeof(buf), "%lld", value);
	if (v2->found) {
		err = cgroup_self_dir(v2, self);
		if (err)
			return err;
		if (cgroup_lists(self, "cgroup.controllers", ctrl)) {
			err = cgroup_make(cg, v2, session, parent, &d);
			if (!err)
				err = cgroup_v2_enable(v2, parent, ctrl);
			return err ? err : cgroup_write(d->path, v2file, buf);
		}
	}
	err = cgroup_find(ctrl, &v1);
	if (err)
		return err;
	if (!v1.found) {
		bwlog_err("cgroup: no %s controller in cgroup v2 nor a v1 %s hierarchy; "
			  "cannot apply the %s limit", ctrl, ctrl, ctrl);
		return -EOPNOTSUPP;
	}
	err = cgroup_make(cg, &v1, session, parent, &d);
	return err ? err : cgroup_write(d->path, v1file, buf);
}

int cgroup_prepare(struct cgroup *cg, const char *session, const struct cgroup_limits *lim)
{
	struct cgroup_hier v2, place;
	struct cgroup_dir *d;
	char parent[PATH_MAX];
	int err;

	memset(cg, 0, sizeof(*cg));
	err = cgroup_find(NULL, &v2);
	if (err)
		return err;
	if (v2.found) {
		place = v2;
	} else {
		err = cgroup_find("name=systemd", &place);
		if (err)
			return err;
	}
	if (!place.found) {
		bwlog_err("cgroup: neither a cgroup v2 nor a v1 name=systemd hierarchy is mounted");
		return -ENOENT;
	}
	err = cgroup_make(cg, &place, session, parent, &d);
	if (!err && lim->memory_max >= 0)
		err = cgroup_limit(cg, &v2, session, "memory", "memory.max",
				   "memory.limit_in_bytes", lim->memory_max);
	if (!err && lim->pids_max >= 0)
		err = cgroup_limit(cg, &v2, session, "pids", "pids.max", "pids.max",
				   lim->pids_max);
	if (err)
		cgroup_release(cg);
	return err;
}

int cgroup_attach(const struct cgroup *cg, pid_t pid)
{
	char buf[CGROUP_VALUE_MAX];
	int err = 0;

	snprintf(buf, sizeof(buf), "%d", (int)pid);
	for (size_t i = 0; !err && i < cg->n; i++)
		err = cgroup_write(cg->dirs[i].path, "cgroup.procs", buf);
	return err;
}

void cgroup_release(struct cgroup *cg)
{
	const struct timespec wait = { .tv_sec = 0, .tv_nsec = CGROUP_RMDIR_WAIT_NS };

	for (size_t i = cg->n; i-- > 0;) {
		struct cgroup_dir *d = &cg->dirs[i];
		int tries = 0;

		if (!d->created)
			continue;
		while (rmdir(d->path) < 0) {
			if (errno == ENOENT)
				break;
			if (errno != EBUSY || ++tries == CGROUP_RMDIR_TRIES) {
				bwlog_err("cgroup %s: cannot remove: %s", d->path, strerror(errno));
				break;
			}
			nanosleep(&wait, NULL);
		}
		d->created = false;
	}
	cg->n = 0;
}
