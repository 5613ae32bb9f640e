/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * LD_LIBRARY_PATH, judged. The kernel's exec scan reports LD_PRELOAD and
 * LD_AUDIT as loader variables outright (AS_XF_LD_ENV), and carries the value
 * of LD_LIBRARY_PATH (AS_XF_LD_PATH) for this stage to judge, because a
 * search path is common on developer hosts (CUDA's /usr/local/cuda/lib64,
 * NVIDIA's container runtime) and harmless where only root could have put a
 * library in it. proc.is_ld_env stays true unless every entry is an
 * absolute path (no empty entry, which is the current directory, no "$"
 * token, no "..", no control byte) whose every directory on the way, after
 * links, and every subdirectory the loader searches under it
 * (glibc-hwcaps/..., the legacy tls/, haswell/, x86_64/ ...), is owned by
 * root and writable by no group or other user, judged in the process's own
 * root (/proc/PID/root, or its mount namespace's once it is gone:
 * user/pathres.c). Where a directory does not exist, the checked one above
 * it is what counts: only root could have made it. Only a process in our
 * user namespace, at its exec and when judged, is judged at all: in one of
 * its own a user's files may show as root's, and it may mount and chroot.
 *
 * Judged live only, once, when the exec's record arrives; a recording keeps
 * the verdict (AS_XF_LD_PATH_ROOT) for its replay, whose host is not the
 * recording's. Where no root of the process can be found it counts as set. A root process
 * may of course write such a directory itself; its write is then an event
 * of its own.
 */
#ifndef AS_LDPATH_H
#define AS_LDPATH_H

#include "event.h"
#include "pathres.h"

/* Links followed in one entry, as the kernel's MAXSYMLINKS */
#define LDPATH_LINKS_MAX 40
/* Values remembered with their verdict (a build's thousands of execs share
 * one or two), and for how long: a directory's owner and mode change rarely */
#define LDPATH_CACHE_MAX 8
#define LDPATH_CACHE_NS 1000000000ull

struct ldpath;

struct ldpath *ldpath_new(void);
void ldpath_free(struct ldpath *lp);

/* An exec or /proc record with LD_LIBRARY_PATH: clear AS_XF_LD_ENV from
 * ev->exec_flags when the value's directories pass (see above), looked at
 * in the root roots gives for the process. */
void ldpath_event(struct ldpath *lp, struct pathres *roots, struct event *ev);

/* The judgment itself in the tree rooted at rootfd (exposed for the unit
 * test): 1 when every entry of value passes, 0 when one does not. */
int ldpath_trusted(int rootfd, const char *value);

#endif /* AS_LDPATH_H */
