// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Symlinks on the way to a file change's path: see pathres.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "pathnorm.h"
#include "pathres.h"
#include "sctable.h"

/* the walk's pending components: the caller's string plus every link's
 * text spliced in front of what is left */
#define PATHRES_TODO_MAX (2 * AS_PATH_MAX + 2)
#define PATHRES_OUT_MAX (2 * AS_PATH_MAX + 2)

struct pathres_ns {
	uint32_t mntns; /* 0: free */
	int rootfd;
};

/* a process's own root, by pid, start time and mount namespace (a reused
 * pid, or a process that changed namespace, is another key) */
struct pathres_proc {
	uint32_t pid; /* 0: free */
	uint32_t mntns;
	uint64_t start_ns;
	int rootfd;
};

struct pathres {
	uint32_t self_mntns; /* ours: its root is "/" */
	int self_root;
	unsigned next_ns, next_proc; /* round-robin eviction */
	struct pathres_ns ns[PATHRES_NS_MAX];
	struct pathres_proc procs[PATHRES_ROOTS_MAX];
	char base[AS_PATH_MAX + 1];
	char out[AS_SYS_SLOTS][PATHRES_OUT_MAX];
};

uint32_t pathres_ns_of(const char *link)
{
	struct stat st;

	return stat(link, &st) == 0 ? (uint32_t)st.st_ino : 0;
}

struct pathres *pathres_new(void)
{
	struct pathres *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->self_mntns = pathres_ns_of("/proc/self/ns/mnt");
	r->self_root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	return r;
}

void pathres_free(struct pathres *r)
{
	if (!r)
		return;
	for (unsigned i = 0; i < PATHRES_NS_MAX; i++)
		if (r->ns[i].mntns)
			close(r->ns[i].rootfd);
	for (unsigned i = 0; i < PATHRES_ROOTS_MAX; i++)
		if (r->procs[i].pid)
			close(r->procs[i].rootfd);
	if (r->self_root >= 0)
		close(r->self_root);
	free(r);
}

/* Drop out's last component ("/a/b" -> "/a", "/a" -> "/"). */
static size_t pathres_pop(char *out, size_t len)
{
	while (len > 1 && out[len - 1] != '/')
		len--;
	if (len > 1)
		len--;
	out[len] = 0;
	return len;
}

/* A link under /proc: "self" and "thread-self" name the reader, not the
 * walker; the per-process links (cwd, root, exe, fd/N) print the reader's
 * view of the path. */
enum { PR_PLAIN, PR_SELF, PR_MAGIC };
static int pathres_proc_kind(const char *out)
{
	if (strncmp(out, "/proc/", 6))
		return PR_PLAIN;
	if (!strcmp(out + 6, "self") || !strcmp(out + 6, "thread-self"))
		return PR_SELF;
	return PR_MAGIC;
}

/* Is out "/proc/VPID/root", the walker's own root? */
static int pathres_own_root(const char *out, uint32_t vpid)
{
	char own[32];

	snprintf(own, sizeof(own), "/proc/%u/root", vpid);
	return !strcmp(out, own);
}

struct pathres_who {
	uint32_t vpid; /* the process as its own pid namespace numbers it */
	uint32_t tid; /* the thread (ours: only read when not foreign) */
	int foreign; /* another mount namespace or root than ours */
	/* the file the kernel found behind its descriptor fdl_fd when the
	 * call returned (struct as_sys fdl_*), absolute; NULL: none */
	const char *fdl;
	int32_t fdl_fd;
	int fdl_pseudo; /* fdl is no file of the tree: a pipe's, a memfd's name */
};

/* After /proc/self/fd/N (or another spelling of the caller's own link
 * to descriptor fd) at the start of path: what follows ("" or "/..."), or
 * NULL when path does not start so. */
static const char *pathres_fd_prefix(const char *path, uint32_t vpid, int32_t fd)
{
	static const char *const selfs[] = { "/proc/self/fd/", "/proc/thread-self/fd/",
					     "/dev/fd/" };
	static const char *const stds[] = { "/dev/stdin", "/dev/stdout", "/dev/stderr" };
	unsigned pid, tid;
	int n = -1, end = 0;
	long got;
	char *e;

	if (fd >= 0 && fd < 3 && !strcmp(path, stds[fd]))
		return path + strlen(path);
	for (size_t i = 0; i < sizeof(selfs) / sizeof(selfs[0]) && n < 0; i++)
		if (!strncmp(path, selfs[i], strlen(selfs[i])))
			n = (int)strlen(selfs[i]);
	if (n < 0 && sscanf(path, "/proc/%u/fd/%n", &pid, &end) == 1 && end && pid == vpid)
		n = end;
	if (n < 0 && (end = 0, sscanf(path, "/proc/%u/task/%u/fd/%n", &pid, &tid, &end)) == 2 &&
	    end && pid == vpid)
		n = end;
	if (n < 0 || path[n] < '0' || path[n] > '9' || (path[n] == '0' && path[n + 1] >= '0' &&
							 path[n + 1] <= '9'))
		return NULL;
	got = strtol(path + n, &e, 10);
	if (got != fd || (*e && *e != '/'))
		return NULL;
	return e;
}

/* Is out the walker's own link to the descriptor the kernel read
 * (/proc/VPID/fd/N or /proc/VPID/task/TID/fd/N: threads share the table)? */
static int pathres_own_fd(const char *out, const struct pathres_who *who)
{
	const char *rest = pathres_fd_prefix(out, who->vpid, who->fdl_fd);

	return rest && !*rest;
}

/* Is out a descriptor's link of some process (/proc/P/fd/N or
 * /proc/P/task/T/fd/N)? What it names now is not what it named at the call:
 * the descriptor may be closed or re-pointed at a harmless file since, by a
 * process that wants its act to read as that file. Only the kernel's own
 * reading at the call (struct pathres_who fdl) is followed. */
static int pathres_fd_link(const char *out)
{
	unsigned p, t, n;
	int end = 0;

	if (sscanf(out, "/proc/%u/fd/%u%n", &p, &n, &end) == 2 && end && !out[end])
		return 1;
	end = 0;
	return sscanf(out, "/proc/%u/task/%u/fd/%u%n", &p, &t, &n, &end) == 3 && end && !out[end];
}

static long pathres_walk_as(int rootfd, const char *base, const char *rel, int follow_last,
			    const struct pathres_who *who, char *out, size_t cap)
{
	char todo[PATHRES_TODO_MAX], link[AS_PATH_MAX + 1];
	size_t olen, pos = 0, tlen;
	int links = 0;

	if (rel[0] == '/' || !base || !base[0]) {
		out[0] = '/', out[1] = 0, olen = 1;
	} else {
		olen = strlen(base);
		if (olen + 1 > cap || base[0] != '/')
			return -1;
		memcpy(out, base, olen + 1);
	}
	tlen = strlen(rel);
	if (tlen + 1 > sizeof(todo))
		return -1;
	memcpy(todo, rel, tlen + 1);

	while (todo[pos]) {
		size_t clen, next, rest;
		ssize_t n;
		int kind;

		while (todo[pos] == '/')
			pos++;
		if (!todo[pos])
			break;
		for (clen = 0; todo[pos + clen] && todo[pos + clen] != '/'; clen++)
			;
		next = pos + clen;
		for (rest = next; todo[rest] == '/'; rest++)
			;
		if (clen == 1 && todo[pos] == '.') {
			pos = next;
			continue;
		}
		if (clen == 2 && todo[pos] == '.' && todo[pos + 1] == '.') {
			olen = pathres_pop(out, olen);
			pos = next;
			continue;
		}
		if (olen + 1 + clen + 1 > cap)
			return -1;
		if (olen > 1)
			out[olen++] = '/';
		memcpy(out + olen, todo + pos, clen);
		olen += clen;
		out[olen] = 0;
		pos = next;
		/* a trailing '/' makes the kernel follow the last component too */
		if (!todo[rest] && !follow_last && todo[next] != '/')
			break;
		kind = pathres_proc_kind(out);
		if (kind == PR_SELF) {
			/* thread-self: its tid in its namespace is unknown; a path
			 * through its fd/N, though, leads where the kernel said
			 * (the leader's number stands in: the walk ends there) */
			if (who->foreign && out[6] == 't' && !who->fdl)
				return -1;
			n = out[6] != 't' ? snprintf(link, sizeof(link), "%u", who->vpid) :
			    who->foreign  ? snprintf(link, sizeof(link), "%u/task/%u", who->vpid,
						     who->vpid) :
					    snprintf(link, sizeof(link), "%u/task/%u", who->vpid, who->tid);
		} else if (kind == PR_MAGIC && pathres_own_root(out, who->vpid)) {
			/* its own root is the one we walk from, whatever our view */
			link[0] = '/';
			n = 1;
		} else if (kind == PR_MAGIC && who->fdl && pathres_own_fd(out, who)) {
			/* the kernel read the descriptor when the call returned, in
			 * the caller's view: it may be closed, or foreign, by now. A
			 * pipe, a socket, a memfd: its name relative to the fd
			 * directory, as readlink's "pipe:[N]" would be */
			n = snprintf(link, sizeof(link), "%s",
				     who->fdl_pseudo ? who->fdl + (who->fdl[0] == '/') : who->fdl);
			if (who->fdl_pseudo && !n) {
				olen = pathres_pop(out, olen); /* no name: the fd directory */
				continue;
			}
		} else if (kind == PR_MAGIC && pathres_fd_link(out)) {
			continue; /* the link stays the path, lexical from here on */
		} else {
			/* no root to read from: no syscall that can only fail */
			n = rootfd < 0 ? -1 : readlinkat(rootfd, out + 1, link, sizeof(link) - 1);
			if (n < 0)
				continue; /* not a link, or not there: lexical from here on */
			if (kind == PR_MAGIC && who->foreign)
				return -1; /* printed in our view, not the walker's */
		}
		if (++links > PATHRES_LINKS_MAX || (size_t)n >= sizeof(link))
			return -1;
		link[n] = 0;
		/* the link's text goes in front of what is left */
		tlen = strlen(todo + pos);
		if ((size_t)n + 1 + tlen + 1 > sizeof(todo))
			return -1;
		memmove(todo + n + 1, todo + pos, tlen + 1);
		memcpy(todo, link, (size_t)n);
		todo[n] = '/';
		pos = 0;
		if (link[0] == '/')
			out[0] = '/', out[1] = 0, olen = 1;
		else
			olen = pathres_pop(out, olen); /* relative to the link's directory */
	}
	return (long)olen;
}

long pathres_walk(int rootfd, const char *base, const char *rel, int follow_last, char *out,
		  size_t cap)
{
	struct pathres_who who = { .vpid = (uint32_t)getpid(), .tid = (uint32_t)gettid(),
				   .foreign = 0, .fdl = NULL, .fdl_fd = -1, .fdl_pseudo = 0 };

	return pathres_walk_as(rootfd, base, rel, follow_last, &who, out, cap);
}

static int pathres_cache(struct pathres *r, uint32_t mntns, int fd)
{
	struct pathres_ns *e = &r->ns[r->next_ns++ % PATHRES_NS_MAX];

	if (e->mntns)
		close(e->rootfd);
	e->mntns = mntns;
	e->rootfd = fd;
	return fd;
}

static struct pathres_proc *pathres_proc_find(struct pathres *r, const struct as_hdr *h,
					      uint32_t mntns)
{
	for (unsigned i = 0; i < PATHRES_ROOTS_MAX; i++) {
		struct pathres_proc *p = &r->procs[i];

		if (p->pid == h->pid && p->start_ns == h->start_ns && p->mntns == mntns)
			return p;
	}
	return NULL;
}

static int pathres_proc_keep(struct pathres *r, const struct as_hdr *h, uint32_t mntns, int fd)
{
	struct pathres_proc *p = &r->procs[r->next_proc++ % PATHRES_ROOTS_MAX];

	if (p->pid)
		close(p->rootfd);
	*p = (struct pathres_proc){ h->pid, mntns, h->start_ns, fd };
	return fd;
}

/* A chroot moves the process's root, a pivot_root that of every process
 * of its mount namespace: forget the roots kept. */
static void pathres_root_moved(struct pathres *r, const struct event *ev)
{
	int every = ev->hdr->syscall == AS_SC_PIVOT_ROOT;
	uint32_t mntns = ev->u.sys->mntns;

	for (unsigned i = 0; i < PATHRES_ROOTS_MAX; i++) {
		struct pathres_proc *p = &r->procs[i];

		if (p->pid && (p->pid == ev->hdr->pid || (every && p->mntns == mntns))) {
			close(p->rootfd);
			p->pid = 0;
		}
	}
	for (unsigned i = 0; every && i < PATHRES_NS_MAX; i++) {
		if (r->ns[i].mntns == mntns) {
			close(r->ns[i].rootfd);
			r->ns[i].mntns = 0;
		}
	}
}

int pathres_root(struct pathres *r, const struct as_hdr *h, uint32_t mntns)
{
	struct pathres_proc *p = pathres_proc_find(r, h, mntns);
	char link[48];
	int fd;

	if (p)
		return p->rootfd;
	snprintf(link, sizeof(link), "/proc/%u/root", h->pid);
	fd = open(link, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0)
		return pathres_proc_keep(r, h, mntns, fd);
	if (!mntns)
		return -1; /* no namespace known: nothing to fall back on */
	if (mntns == r->self_mntns)
		return r->self_root;
	for (unsigned i = 0; i < PATHRES_NS_MAX; i++)
		if (r->ns[i].mntns == mntns)
			return r->ns[i].rootfd;
	for (unsigned i = 0; i < h->n_anc && i < AS_MAX_ANCESTORS; i++) {
		snprintf(link, sizeof(link), "/proc/%u/ns/mnt", h->anc[i].pid);
		if (pathres_ns_of(link) != mntns)
			continue;
		snprintf(link, sizeof(link), "/proc/%u/root", h->anc[i].pid);
		fd = open(link, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0)
			return pathres_cache(r, mntns, fd);
	}
	return -1;
}

/* Does the syscall follow a link in slot i's last component? -1: slot i
 * is not walked at all. */
static int pathres_follows(const struct event *ev, unsigned i)
{
	const struct as_sys *s = ev->u.sys;

	if (ev->hdr->type == AS_EV_URING) {
		uint64_t op = s->arg[0];

		if (op == 38 /* IORING_OP_SYMLINKAT */ && i == 0)
			return -1;
		/* IORING_OP_OPENAT, IORING_OP_OPENAT2: unless O_NOFOLLOW */
		return i == 0 && (op == 18 || op == 28) && !(s->arg[2] & O_NOFOLLOW);
	}
	const struct sc_info *sc = sctable_get(ev->hdr->syscall);
	uint64_t flags = sc->follow_arg < AS_SYS_ARGS ? s->arg[sc->follow_arg] : 0;
	unsigned how = i ? sc->follow1 : sc->follow;
	uint32_t bit = i ? sc->follow1_bit : sc->follow_bit;

	switch (how) {
	case FOL_NONE:
		return -1;
	case FOL_YES:
		return 1;
	case FOL_UNLESS_NOFOLLOW:
		return !(flags & (bit ? bit : AT_SYMLINK_NOFOLLOW));
	case FOL_IF_FOLLOW:
		return !!(flags & (bit ? bit : AT_SYMLINK_FOLLOW));
	default:
		return 0;
	}
}

/* Could a link lie on rel's way? The base is walked in the kernel: none
 * there. A lone last component the syscall does not follow has none. */
static int pathres_may_link(const char *rel, int follow)
{
	const char *p = rel;

	if (follow)
		return 1;
	while (*p == '/')
		p++;
	for (; *p; p++)
		if (*p == '/' && p[1])
			return 1;
	return 0;
}

int pathres_fdl(struct event *ev)
{
	int changed = 0;

	if (ev->hdr->type != AS_EV_FILE && ev->hdr->type != AS_EV_URING &&
	    ev->hdr->type != AS_EV_SYS)
		return 0;
	for (unsigned i = 0; i < AS_SYS_SLOTS; i++) {
		struct event_path *ep = i ? &ev->path2 : &ev->path;
		char *buf = i ? ev->path2_buf : ev->path_buf;
		size_t cap = i ? sizeof(ev->path2_buf) : sizeof(ev->path_buf), flen, rlen;
		char head[PATHRES_FD_DIR_MAX + AS_PATH_MAX + 2];
		const char *rest;

		if (!ev->fdl[i] || ep->s != buf ||
		    !(rest = pathres_fd_prefix(ep->s, ev->hdr->vpid, ev->u.sys->fdl_fd[i])))
			continue;
		if (ev->fdl_pseudo[i]) { /* as the walk: its name in the fd directory */
			const char *name = ev->fdl[i] + (ev->fdl[i][0] == '/');

			snprintf(head, sizeof(head), "/proc/%u/fd%s%s", ev->hdr->vpid,
				 name[0] ? "/" : "", name);
		} else {
			snprintf(head, sizeof(head), "%s", ev->fdl[i]);
		}
		flen = strlen(head);
		if (flen == 1 && rest[0]) /* the root: "/" and "/x" make "/x" */
			flen = 0;
		rlen = strlen(rest);
		if (flen + rlen + 1 > cap)
			continue;
		memmove(buf + flen, rest, rlen + 1);
		memcpy(buf, head, flen);
		ep->len = (uint32_t)(flen + rlen);
		ep->flags |= EV_PATH_LINKED;
		changed++;
	}
	return changed;
}

int pathres_event(struct pathres *r, struct event *ev)
{
	const struct as_sys *s;
	const char *p;
	int rootfd = -1, changed = 0, tried = 0;
	struct pathres_who who;

	if (!r)
		return 0;
	if (ev->hdr->type == AS_EV_SYS && ev->res == 0 &&
	    (ev->hdr->syscall == AS_SC_CHROOT || ev->hdr->syscall == AS_SC_PIVOT_ROOT)) {
		pathres_root_moved(r, ev);
		/* the kernel walked its paths in the old root; /proc/PID/root
		 * is the new one now, where the agent could plant other links */
		return 0;
	}
	if (ev->hdr->type != AS_EV_FILE && ev->hdr->type != AS_EV_URING &&
	    ev->hdr->type != AS_EV_SYS)
		return 0;
	s = ev->u.sys;
	if (!s->mntns)
		return 0; /* a recording made before the field existed */
	p = (const char *)(s + 1);
	for (unsigned i = 0; i < AS_SYS_SLOTS; i++) {
		uint32_t fl = (s->pflags >> (i * AS_SYF_SLOT_BITS)) & ((1u << AS_SYF_SLOT_BITS) - 1);
		const char *base_list = p + s->len[i];
		size_t blen = s->base_len[i];
		struct event_path *ep = i ? &ev->path2 : &ev->path;
		int follow = pathres_follows(ev, i);
		long n;

		p += s->len[i] + s->base_len[i] + s->fdl_len[i];
		if (!s->len[i] || !ev->str[i] || follow < 0 ||
		    (fl & (AS_SYF_RESOLVED | AS_SYF_PLAIN | AS_SYF_SOCKADDR | AS_SYF_USER_TRUNC)) ||
		    !pathres_may_link(ev->str[i], follow))
			continue;
		if (!tried) {
			tried = 1;
			rootfd = pathres_root(r, ev->hdr, s->mntns);
			who.vpid = ev->hdr->vpid;
			who.tid = ev->hdr->tid;
			who.foreign = s->mntns != r->self_mntns;
		}
		/* no root (the process is gone, its namespace unknown): lexical,
		 * but for its own root's link, which is "/" in its view */
		who.fdl = ev->fdl[i];
		who.fdl_fd = s->fdl_fd[i];
		who.fdl_pseudo = ev->fdl_pseudo[i];
		r->base[0] = 0;
		if (ev->str[i][0] != '/' &&
		    (!blen || pathnorm_from_components(base_list, blen, r->base, sizeof(r->base)) < 0))
			continue; /* a relative path with no directory to start from */
		n = pathres_walk_as(rootfd, r->base, ev->str[i], follow, &who, r->out[i],
				    sizeof(r->out[i]));
		if (n < 0) {
			/* more links, or longer link text, than a walk takes (the
			 * kernel has no limit on the text spliced in), or a magic
			 * link of another view: the path stays the string passed,
			 * and whatever it names is unknown */
			ep->flags |= EV_PATH_UNRESOLVED;
			changed++;
			continue;
		}
		if ((size_t)n == ep->len && !memcmp(ep->s, r->out[i], (size_t)n))
			continue;
		ep->s = r->out[i];
		ep->len = (uint32_t)n;
		ep->flags |= EV_PATH_LINKED;
		changed++;
	}
	return changed;
}
