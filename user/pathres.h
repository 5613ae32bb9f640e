/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Symlinks on the way to the path of a file change or of a privilege call
 * (fanotify_mark, swapon, acct, mount; chroot and pivot_root are walked in
 * the root they leave by the kernel, so not here). The kernel's generic record
 * carries a path as the caller passed it plus the directory it starts from
 * (walked in the kernel, so free of links); the syscall itself followed any
 * symlink among the caller's components, and no tracepoint shows where it
 * arrived. A mkdir of /tmp/link/x, where /tmp/link points at /etc, made
 * /etc/x: read lexically the path says /tmp and walks past every rule that
 * excludes /tmp. This stage walks the caller's components again in the
 * process's own root (/proc/PID/root, or the root of its mount namespace
 * when the process has already gone), reading each component as a link the
 * way the kernel's path walk would, and puts the result in the event's path.
 * The string as passed stays in fs.path.*raw and evt.arg.*.
 *
 * Only live records are walked (the links of a replayed recording's host are
 * not those of the recording), and only what the syscall itself followed: the
 * last component only where the syscall follows it (chmod, truncate, ...; not
 * rename, unlink, mkdir, lchown). The walk happens after the act, so a link
 * removed in between leaves the lexical path; the race is the price of having
 * no VFS hook (fentry/LSM do not load on the target kernels).
 */
#ifndef AS_PATHRES_H
#define AS_PATHRES_H

#include <stddef.h>
#include <stdint.h>
#include "event.h"

/* Links followed in one path, as the kernel's MAXSYMLINKS (include/linux/namei.h) */
#define PATHRES_LINKS_MAX 40
/* Mount namespaces whose root is kept open for processes already gone */
#define PATHRES_NS_MAX 32
/* Processes whose root is kept open: a build's renames and unlinks come in
 * runs from a few processes, and opening /proc/PID/root costs more than the
 * walk itself */
#define PATHRES_ROOTS_MAX 16
/* "/proc/4294967295/fd/": a process's fd directory, as the walk writes it */
#define PATHRES_FD_DIR_MAX 24

struct pathres;

struct pathres *pathres_new(void);
void pathres_free(struct pathres *r);

/* Walk the event's path slots (generic and io_uring records) again with
 * their links followed; ev->path / ev->path2 point at the result when it
 * differs. Returns the number of slots changed. A chroot or pivot_root
 * drops the process's kept root. */
int pathres_event(struct pathres *r, struct event *ev);

/* The root the process sees: its own while it lives (kept open for the
 * next of its records), else that of its mount namespace mntns (ours, or
 * one an ancestor in it showed us; 0: none known). Owned by r; -1 when
 * there is none. */
int pathres_root(struct pathres *r, const struct as_hdr *h, uint32_t mntns);
/* The inode number of a namespace link (/proc/PID/ns/mnt, ...): the
 * namespace's id as the kernel's records carry it; 0 when it cannot be read. */
uint32_t pathres_ns_of(const char *link);

/* The road through a descriptor's link without a walk (a replay, or a
 * walk that could not be made): a slot whose path, as decoded, starts with
 * the caller's own link to the descriptor the kernel read (/proc/self/fd/N,
 * /proc/thread-self/fd/N, /proc/VPID/fd/N, /proc/VPID/task/TID/fd/N or
 * /dev/fd/N, N the record's fdl_fd) gets the kernel's path in its place.
 * Returns the number of slots changed. */
int pathres_fdl(struct event *ev);

/* The walk itself, in the tree rooted at rootfd (exposed for the unit
 * test): base is an absolute path free of links (or NULL: "/"), rel the
 * caller's string, follow_last whether the syscall follows a link in the
 * last component. out gets the absolute, normalised result. Returns its
 * length, or -1 when it does not fit, a link loops, or a link cannot be
 * read where it stands (a magic /proc link of another mount namespace). */
long pathres_walk(int rootfd, const char *base, const char *rel, int follow_last, char *out,
		  size_t cap);

#endif /* AS_PATHRES_H */
