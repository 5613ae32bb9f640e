/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The device number the kernel's programs see for a file: its superblock's
 * s_dev, the "major:minor" that /proc/PID/mountinfo prints for the file's
 * mount. stat()'s st_dev is another number on overlayfs (a pseudo device per
 * lower layer) and btrfs (one per subvolume): a pinned binary or a seeded
 * lineage entry taken from stat() would never match the exec events of such
 * a file. Containers run from overlayfs, so this is the common case on nodes.
 */
#ifndef AS_KDEV_H
#define AS_KDEV_H

#include <stddef.h>
#include <stdint.h>

/* Mounts remembered by one map: a node with more is read without the rest. */
#define KDEV_MOUNTS_MAX 65536

struct kdev_mount {
	uint64_t id; /* mountinfo's first column: statx's stx_mnt_id */
	uint32_t dev; /* its superblock's s_dev, new_encode_dev() form */
	uint32_t pad;
};

/* What one caller learnt of the mounts. Mount ids are reused after an
 * unmount, so a map lives for one scan or one configuration, no longer. */
struct kdev_map {
	struct kdev_mount *m; /* sorted by id */
	size_t n, cap;
};

/* new_encode_dev(): how the kernel programs and stat() report a device */
uint32_t kdev_encode(unsigned major, unsigned minor);
/* The (dev, ino) of what name names, relative to dirfd, following links.
 * Where to learn a mount km does not know: mountinfo, then also (a process
 * chrooted or pivoted into a sandbox lists only the mounts under its root),
 * both relative to dirfd, either NULL. Without the mount (a
 * kernel before 5.8, a mount gone meanwhile, statx refused by a seccomp
 * filter) dev is stat()'s. 0, or a negative errno when name cannot be
 * stat'ed. */
int kdev_stat(struct kdev_map *km, int dirfd, const char *name, const char *mountinfo,
	      const char *also, uint32_t *dev, uint64_t *ino);
void kdev_map_fini(struct kdev_map *km);

#endif /* AS_KDEV_H */
