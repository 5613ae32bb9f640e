// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* kdev: a file's device as the kernel's programs see it, learnt from a
 * mountinfo file written here beside a real file, so the mount id is real
 * and the device it maps to is one no filesystem has. */
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "testutil.h"
#include "kdev.h"

struct dir {
	char path[64];
	int fd;
	uint64_t mnt_id; /* of the directory's mount */
	uint32_t st_dev; /* stat()'s, encoded */
};

static int setup(void **state)
{
	static struct dir d;
	struct statx stx;

	snprintf(d.path, sizeof(d.path), "/tmp/as-kdev-XXXXXX");
	assert_non_null(mkdtemp(d.path));
	d.fd = open(d.path, O_PATH | O_DIRECTORY);
	assert_true(d.fd >= 0);
	close(openat(d.fd, "file", O_CREAT | O_WRONLY, 0644));
	assert_int_equal(statx(d.fd, "file", 0, STATX_INO | STATX_MNT_ID, &stx), 0);
	assert_true(stx.stx_mask & STATX_MNT_ID);
	d.mnt_id = stx.stx_mnt_id;
	d.st_dev = kdev_encode(stx.stx_dev_major, stx.stx_dev_minor);
	*state = &d;
	return 0;
}

static int teardown(void **state)
{
	struct dir *d = *state;

	unlinkat(d->fd, "file", 0);
	unlinkat(d->fd, "mountinfo", 0);
	unlinkat(d->fd, "other", 0);
	unlinkat(d->fd, "also", 0);
	close(d->fd);
	rmdir(d->path);
	return 0;
}

static void put(struct dir *d, const char *name, const char *text)
{
	int fd = openat(d->fd, name, O_CREAT | O_TRUNC | O_WRONLY, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static void test_encode(void **state)
{
	(void)state;
	/* new_encode_dev(): the low 32 bits of glibc's makedev() */
	const unsigned dev[][2] = { { 0, 0 }, { 8, 1 }, { 0, 41 }, { 259, 3 }, { 0, 256 },
				    { 4095, 0xfffff }, { 253, 1048575 } };
	for (size_t i = 0; i < sizeof(dev) / sizeof(dev[0]); i++)
		assert_int_equal(kdev_encode(dev[i][0], dev[i][1]),
				 (uint32_t)makedev(dev[i][0], dev[i][1]));
}

static void test_from_mountinfo(void **state)
{
	struct dir *d = *state;
	struct kdev_map km = { 0 };
	char text[512];
	uint64_t ino;
	uint32_t dev;

	/* malformed lines around the one that counts are skipped */
	snprintf(text, sizeof(text),
		 "garbage\n"
		 "%llu\n"
		 "1 0 7:7 / / rw - ext4 /dev/x rw\n"
		 "%llu 1 291:1110 / %s rw,relatime - tmpfs none rw\n"
		 "x y 1:2\n",
		 (unsigned long long)d->mnt_id, (unsigned long long)d->mnt_id, d->path);
	put(d, "mountinfo", text);
	assert_int_equal(kdev_stat(&km, d->fd, "file", "mountinfo", NULL, &dev, &ino), 0);
	assert_int_equal(dev, kdev_encode(291, 1110));
	assert_true(ino != 0);
	assert_int_equal(km.n, 2);
	/* known now: the file is not read again (gone, the answer stays) */
	unlinkat(d->fd, "mountinfo", 0);
	dev = 0;
	assert_int_equal(kdev_stat(&km, d->fd, "file", "mountinfo", NULL, &dev, &ino), 0);
	assert_int_equal(dev, kdev_encode(291, 1110));
	kdev_map_fini(&km);
	assert_int_equal(km.n, 0);
}

static void test_fallbacks(void **state)
{
	struct dir *d = *state;
	struct kdev_map km = { 0 };
	char text[512];
	uint64_t ino;
	uint32_t dev;

	/* no mountinfo, or one without the mount: stat()'s device */
	assert_int_equal(kdev_stat(&km, d->fd, "file", "nowhere", NULL, &dev, &ino), 0);
	assert_int_equal(dev, d->st_dev);
	assert_int_equal(kdev_stat(&km, d->fd, "file", NULL, NULL, &dev, &ino), 0);
	assert_int_equal(dev, d->st_dev);
	put(d, "other", "999999999 1 5:5 / /x rw - tmpfs none rw\n");
	assert_int_equal(kdev_stat(&km, d->fd, "file", "other", NULL, &dev, &ino), 0);
	assert_int_equal(dev, d->st_dev);
	/* not in the first file, in the second: learnt from it */
	put(d, "mountinfo", "");
	snprintf(text, sizeof(text), "%llu 1 8:9 / %s rw - tmpfs none rw\n",
		 (unsigned long long)d->mnt_id, d->path);
	put(d, "also", text);
	assert_int_equal(kdev_stat(&km, d->fd, "file", "mountinfo", "also", &dev, &ino), 0);
	assert_int_equal(dev, kdev_encode(8, 9));
	/* a file that is not there: its errno */
	assert_int_equal(kdev_stat(&km, d->fd, "missing", "other", NULL, &dev, &ino), -ENOENT);
	kdev_map_fini(&km);
}

static void test_twins_and_order(void **state)
{
	struct dir *d = *state;
	struct kdev_map km = { 0 };
	char text[8192]; /* 100 lines of 43 bytes */
	size_t off = 0;
	uint64_t ino;
	uint32_t dev;

	/* two namespaces' files listing the same mounts, out of order: each
	 * mount once, sorted, the first file's answer kept */
	for (int i = 200; i > 100; i--)
		off += (size_t)snprintf(text + off, sizeof(text) - off,
					"%d 1 0:%d / /m%d rw - tmpfs none rw\n", 1000000 + i, i, i);
	put(d, "mountinfo", text);
	put(d, "other", "1000150 1 9:9 / /m rw - tmpfs none rw\n"
			"1000301 1 0:301 / /n rw - tmpfs none rw\n");
	assert_int_equal(kdev_stat(&km, d->fd, "file", "mountinfo", NULL, &dev, &ino), 0);
	assert_int_equal(km.n, 100);
	assert_int_equal(kdev_stat(&km, d->fd, "file", "other", NULL, &dev, &ino), 0);
	assert_int_equal(km.n, 101);
	for (size_t i = 1; i < km.n; i++)
		assert_true(km.m[i - 1].id < km.m[i].id);
	for (size_t i = 0; i < km.n; i++)
		if (km.m[i].id == 1000150)
			assert_int_equal(km.m[i].dev, kdev_encode(0, 150));
	kdev_map_fini(&km);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encode),
		cmocka_unit_test(test_from_mountinfo),
		cmocka_unit_test(test_fallbacks),
		cmocka_unit_test(test_twins_and_order),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
