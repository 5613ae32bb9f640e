// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "kdev.h"

uint32_t kdev_encode(unsigned major, unsigned minor)
{
	return (minor & 0xffu) | (major << 8) | ((minor & ~0xffu) << 12);
}

static int kdev_cmp(const void *a, const void *b)
{
	const struct kdev_mount *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* id among the first n (sorted) mounts of km */
static const struct kdev_mount *kdev_find(const struct kdev_map *km, size_t n, uint64_t id)
{
	struct kdev_mount key = { .id = id };

	return n ? bsearch(&key, km->m, n, sizeof(key), kdev_cmp) : NULL;
}

static int kdev_add(struct kdev_map *km, uint64_t id, uint32_t dev)
{
	if (km->n == km->cap) {
		size_t cap = km->cap ? km->cap * 2 : 64;
		struct kdev_mount *m;

		if (cap > KDEV_MOUNTS_MAX)
			return -E2BIG;
		m = realloc(km->m, cap * sizeof(*m));
		if (!m)
			return -ENOMEM;
		km->m = m;
		km->cap = cap;
	}
	km->m[km->n++] = (struct kdev_mount){ .id = id, .dev = dev };
	return 0;
}

/* Learn every mount of one mountinfo file that km does not know yet. */
static void kdev_learn(struct kdev_map *km, int dirfd, const char *mountinfo)
{
	int fd = openat(dirfd, mountinfo, O_RDONLY | O_CLOEXEC);
	size_t known = km->n, keep;
	char *line = NULL;
	size_t cap = 0;
	FILE *f;

	if (fd < 0)
		return;
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return;
	}
	/* "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw" */
	while (getline(&line, &cap, f) > 0) {
		unsigned long long id;
		unsigned major, minor;

		if (sscanf(line, "%llu %*u %u:%u", &id, &major, &minor) != 3)
			continue;
		if (kdev_find(km, known, id))
			continue; /* known before this read */
		if (kdev_add(km, id, kdev_encode(major, minor)))
			break;
	}
	free(line);
	fclose(f);
	if (km->n == known)
		return;
	qsort(km->m, km->n, sizeof(*km->m), kdev_cmp);
	/* one namespace's mounts seen again through another's file: drop twins */
	for (size_t i = keep = 1; i < km->n; i++)
		if (km->m[i].id != km->m[keep - 1].id)
			km->m[keep++] = km->m[i];
	km->n = keep;
}

/* stat() where statx is missing or refused (ENOSYS, EPERM: a seccomp filter
 * older than statx): no mount id then. */
static int kdev_fstatat(int dirfd, const char *name, uint32_t *dev, uint64_t *ino)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, 0))
		return -errno;
	*ino = st.st_ino;
	*dev = (uint32_t)st.st_dev; /* glibc's dev_t: new_encode_dev() in its low half */
	return 0;
}

int kdev_stat(struct kdev_map *km, int dirfd, const char *name, const char *mountinfo,
	      const char *also, uint32_t *dev, uint64_t *ino)
{
	const char *learn[] = { mountinfo, also };
	const struct kdev_mount *m = NULL;
	struct statx stx;

	if (statx(dirfd, name, 0, STATX_INO | STATX_MNT_ID, &stx))
		return errno == ENOSYS || errno == EPERM ? kdev_fstatat(dirfd, name, dev, ino)
							 : -errno;
	*ino = stx.stx_ino;
	*dev = kdev_encode(stx.stx_dev_major, stx.stx_dev_minor);
	if (!(stx.stx_mask & STATX_MNT_ID))
		return 0;
	m = kdev_find(km, km->n, stx.stx_mnt_id);
	for (size_t i = 0; !m && i < sizeof(learn) / sizeof(learn[0]); i++)
		if (learn[i]) {
			kdev_learn(km, dirfd, learn[i]);
			m = kdev_find(km, km->n, stx.stx_mnt_id);
		}
	if (m)
		*dev = m->dev;
	return 0;
}

void kdev_map_fini(struct kdev_map *km)
{
	free(km->m);
	memset(km, 0, sizeof(*km));
}
