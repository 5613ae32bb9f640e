// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* LD_LIBRARY_PATH, judged: see ldpath.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "clock.h"
#include "ldpath.h"

/* an entry plus every link's text spliced in front of what is left */
#define LDPATH_TODO_MAX (2 * AS_PATH_MAX + 2)
/* the loader's separators (glibc's fillin_rpath takes both) */
#define LDPATH_SEPARATORS ":;"

struct ldpath_seen {
	uint64_t at; /* clock_mono_now() of the verdict; 0: free */
	dev_t root_dev; /* the root it was judged in */
	ino_t root_ino;
	int ok;
	char value[AS_LDPATH_MAX];
};

struct ldpath {
	unsigned next; /* round-robin eviction */
	struct ldpath_seen seen[LDPATH_CACHE_MAX];
	char todo[LDPATH_TODO_MAX];
	char link[AS_PATH_MAX + 1];
};

struct ldpath *ldpath_new(void)
{
	return calloc(1, sizeof(struct ldpath));
}

void ldpath_free(struct ldpath *lp)
{
	free(lp);
}

/* A directory only root can put a file in: root's, writable by no other
 * user (group write only for group root). */
static int ldpath_root_only(const struct stat *st)
{
	return S_ISDIR(st->st_mode) && st->st_uid == 0 && !(st->st_mode & S_IWOTH) &&
	       (!(st->st_mode & S_IWGRP) || st->st_gid == 0);
}

static int ldpath_fd_root_only(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && ldpath_root_only(&st);
}

/* One entry (len bytes at entry): its components walked from rootfd, each
 * directory on the way checked, each link's text spliced in front of what
 * is left and walked the same way (from the root when absolute). todo and
 * link are the caller's buffers. */
static int ldpath_entry_ok(int rootfd, const char *entry, size_t len, char *todo, char *link)
{
	char comp[NAME_MAX + 1];
	const char *p = todo;
	int cur, links = 0, ok = 0;

	if (!len || entry[0] != '/' || memchr(entry, '$', len) || len >= AS_PATH_MAX)
		return 0; /* the current directory, a relative one, a token the loader expands */
	memcpy(todo, entry, len);
	todo[len] = 0;
	cur = fcntl(rootfd, F_DUPFD_CLOEXEC, 0);
	if (cur < 0 || !ldpath_fd_root_only(cur))
		goto out;
	for (;;) {
		struct stat st;
		size_t n, rest;
		ssize_t k;
		int next;

		while (*p == '/')
			p++;
		if (!*p) {
			ok = 1;
			break;
		}
		n = strcspn(p, "/");
		if (n > NAME_MAX)
			break;
		memcpy(comp, p, n);
		comp[n] = 0;
		p += n;
		if (!strcmp(comp, "."))
			continue;
		if (!strcmp(comp, ".."))
			break; /* above a process's root lies ours: not followed */
		if (fstatat(cur, comp, &st, AT_SYMLINK_NOFOLLOW)) {
			/* nothing there, in a directory only root writes: nothing
			 * anyone else could have put there */
			ok = errno == ENOENT || errno == ENOTDIR;
			break;
		}
		if (S_ISLNK(st.st_mode)) {
			k = readlinkat(cur, comp, link, AS_PATH_MAX);
			rest = strlen(p);
			if (k <= 0 || ++links > LDPATH_LINKS_MAX ||
			    (size_t)k + 1 + rest + 1 > LDPATH_TODO_MAX)
				break;
			memmove(todo + k + 1, p, rest + 1);
			memcpy(todo, link, (size_t)k);
			todo[k] = '/';
			p = todo;
			if (link[0] == '/') {
				close(cur);
				cur = fcntl(rootfd, F_DUPFD_CLOEXEC, 0);
				if (cur < 0)
					break;
			}
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			ok = 1; /* a file: the loader finds no library under it */
			break;
		}
		next = openat(cur, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0)
			break;
		close(cur);
		cur = next;
		if (!ldpath_fd_root_only(cur))
			break;
	}
out:
	if (cur >= 0)
		close(cur);
	return ok;
}

static int ldpath_judge(struct ldpath *lp, int rootfd, const char *value)
{
	const char *p = value;

	for (;;) {
		size_t n = strcspn(p, LDPATH_SEPARATORS);

		if (!ldpath_entry_ok(rootfd, p, n, lp->todo, lp->link))
			return 0;
		if (!p[n])
			return 1;
		p += n + 1;
	}
}

int ldpath_trusted(int rootfd, const char *value)
{
	struct ldpath *lp = ldpath_new();
	int ok;

	if (!lp)
		return 0;
	ok = ldpath_judge(lp, rootfd, value);
	ldpath_free(lp);
	return ok;
}

void ldpath_event(struct ldpath *lp, struct pathres *roots, struct event *ev)
{
	struct ldpath_seen *s;
	struct stat root;
	uint64_t now;
	int fd;

	/* LD_PRELOAD, LD_AUDIT or a cut value already decided it */
	if (!lp || !roots || (ev->hdr->type != AS_EV_EXEC && ev->hdr->type != AS_EV_PROC) ||
	    !ev->ldpath || !(ev->exec_flags & AS_XF_LD_ENV) || (ev->u.exec->pflags & AS_XF_LD_ENV) ||
	    strlen(ev->ldpath) >= sizeof(s->value))
		return;
	fd = pathres_root(roots, ev->hdr, ev->u.exec->mntns);
	if (fd < 0 || fstat(fd, &root))
		return; /* no view of its directories as it saw them */
	now = clock_mono_now();
	for (unsigned i = 0; i < LDPATH_CACHE_MAX; i++) {
		s = &lp->seen[i];
		if (s->at && now - s->at < LDPATH_CACHE_NS && s->root_dev == root.st_dev &&
		    s->root_ino == root.st_ino && !strcmp(s->value, ev->ldpath)) {
			if (s->ok)
				ev->exec_flags &= ~AS_XF_LD_ENV;
			return;
		}
	}
	s = &lp->seen[lp->next++ % LDPATH_CACHE_MAX];
	s->ok = ldpath_judge(lp, fd, ev->ldpath);
	s->at = now;
	s->root_dev = root.st_dev;
	s->root_ino = root.st_ino;
	snprintf(s->value, sizeof(s->value), "%s", ev->ldpath);
	if (s->ok)
		ev->exec_flags &= ~AS_XF_LD_ENV;
}
