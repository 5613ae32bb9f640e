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
	dev_t root_dev; /* the root it was judged in, of that mount namespace */
	ino_t root_ino;
	uint32_t mntns;
	int ok;
	char value[AS_LDPATH_MAX];
};

struct ldpath {
	uint32_t self_userns; /* ours: the initial one, where root is root */
	unsigned next; /* round-robin eviction */
	struct ldpath_seen seen[LDPATH_CACHE_MAX];
	char todo[LDPATH_TODO_MAX];
	char link[AS_PATH_MAX + 1];
};

/* The subdirectories glibc's loader also searches under every entry, on
 * x86_64: glibc-hwcaps (2.33 and later), and before 2.37 the legacy ones,
 * "tls", then a platform, then a hardware capability, each optional. A walk
 * checks every directory on its way, so the deepest of each chain is
 * listed, and each shorter one whose middle may be missing. */
static const char *const ldpath_subdirs[] = {
	"glibc-hwcaps/x86-64-v2", "glibc-hwcaps/x86-64-v3", "glibc-hwcaps/x86-64-v4",
	"tls/haswell/x86_64",	  "tls/haswell/avx512_1",   "tls/xeon_phi/x86_64",
	"tls/xeon_phi/avx512_1",  "tls/x86_64",		    "tls/avx512_1",
	"haswell/x86_64",	  "haswell/avx512_1",	    "xeon_phi/x86_64",
	"xeon_phi/avx512_1",	  "x86_64",		    "avx512_1",
};

struct ldpath *ldpath_new(void)
{
	struct ldpath *lp = calloc(1, sizeof(struct ldpath));

	if (lp)
		lp->self_userns = pathres_ns_of("/proc/self/ns/user");
	return lp;
}

void ldpath_free(struct ldpath *lp)
{
	free(lp);
}

/* A directory only root can put a file in: root's, writable by no group
 * or other user (not even group root, which OpenShift gives every user;
 * a POSIX ACL's mask shows in the group bits). */
static int ldpath_root_only(const struct stat *st)
{
	return S_ISDIR(st->st_mode) && st->st_uid == 0 && !(st->st_mode & (S_IWGRP | S_IWOTH));
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
			if (k <= 0 || k >= AS_PATH_MAX || ++links > LDPATH_LINKS_MAX ||
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

/* An entry and the subdirectories the loader searches under it. */
static int ldpath_entry_all_ok(struct ldpath *lp, int rootfd, const char *entry, size_t len)
{
	char sub[AS_PATH_MAX];

	if (!ldpath_entry_ok(rootfd, entry, len, lp->todo, lp->link))
		return 0;
	for (size_t i = 0; i < sizeof(ldpath_subdirs) / sizeof(ldpath_subdirs[0]); i++) {
		int n = snprintf(sub, sizeof(sub), "%.*s/%s", (int)len, entry, ldpath_subdirs[i]);

		if (n < 0 || (size_t)n >= sizeof(sub) ||
		    !ldpath_entry_ok(rootfd, sub, (size_t)n, lp->todo, lp->link))
			return 0;
	}
	return 1;
}

static int ldpath_judge(struct ldpath *lp, int rootfd, const char *value)
{
	const char *p = value;

	/* musl's loader also splits at a newline: no control byte passes */
	for (const unsigned char *c = (const unsigned char *)value; *c; c++)
		if (*c < 0x20 || *c == 0x7f)
			return 0;
	for (;;) {
		size_t n = strcspn(p, LDPATH_SEPARATORS);

		if (!ldpath_entry_all_ok(lp, rootfd, p, n))
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

/* Is the process, as its exec left it and as it is now, in our user
 * namespace, where an owner root is root? A snapshot's record has none
 * (0): only the process itself answers. */
static int ldpath_own_userns(const struct ldpath *lp, const struct event *ev)
{
	char link[48];
	uint32_t now;

	if (!lp->self_userns || (ev->u.exec->userns && ev->u.exec->userns != lp->self_userns))
		return 0;
	snprintf(link, sizeof(link), "/proc/%u/ns/user", ev->hdr->pid);
	now = pathres_ns_of(link);
	/* gone: its namespace at exec is what there is (one it entered after
	 * could only have changed its own root, which is gone with it) */
	return now ? now == lp->self_userns : ev->u.exec->userns != 0;
}

void ldpath_event(struct ldpath *lp, struct pathres *roots, struct event *ev)
{
	struct ldpath_seen *s;
	struct stat root;
	uint32_t mntns;
	uint64_t now;
	int fd;

	/* LD_PRELOAD, LD_AUDIT or a cut value already decided it */
	if (!lp || !roots || (ev->hdr->type != AS_EV_EXEC && ev->hdr->type != AS_EV_PROC) ||
	    !ev->ldpath || !(ev->exec_flags & AS_XF_LD_ENV) || (ev->u.exec->pflags & AS_XF_LD_ENV) ||
	    strlen(ev->ldpath) >= sizeof(s->value) || !ldpath_own_userns(lp, ev))
		return;
	mntns = ev->u.exec->mntns;
	fd = pathres_root(roots, ev->hdr, mntns);
	if (fd < 0 || fstat(fd, &root))
		return; /* no view of its directories as it saw them */
	now = clock_mono_now();
	for (unsigned i = 0; i < LDPATH_CACHE_MAX; i++) {
		s = &lp->seen[i];
		if (s->at && now - s->at < LDPATH_CACHE_NS && s->root_dev == root.st_dev &&
		    s->root_ino == root.st_ino && s->mntns == mntns && !strcmp(s->value, ev->ldpath)) {
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
	s->mntns = mntns;
	snprintf(s->value, sizeof(s->value), "%s", ev->ldpath);
	if (s->ok)
		ev->exec_flags &= ~AS_XF_LD_ENV;
}
