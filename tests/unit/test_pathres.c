// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* pathres: a path walked again with its symlinks followed, in a real tree
 * under a temporary directory used as the walker's root. */
#include <fcntl.h>
#include <sys/stat.h>
#include "testutil.h"
#include "pathres.h"

struct tree {
	char dir[64];
	int root;
};

static int nftw_rm(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st, (void)flag, (void)f;
	return remove(p);
}

static int setup(void **state)
{
	static struct tree t;
	char p[128];

	snprintf(t.dir, sizeof(t.dir), "/tmp/as-pathres-XXXXXX");
	assert_non_null(mkdtemp(t.dir));
	/* /etc, /tmp/w, /tmp/etc-link -> /etc, /tmp/rel -> ../etc,
	 * /tmp/loop -> /tmp/loop, /tmp/w/file-link -> /etc/passwd,
	 * /tmp/chain -> etc-link, /tmp/dangling -> /nowhere */
	const char *dirs[] = { "etc", "tmp", "tmp/w", "var", "var/lib" };
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", t.dir, dirs[i]);
		assert_int_equal(mkdir(p, 0755), 0);
	}
	snprintf(p, sizeof(p), "%s/etc/passwd", t.dir);
	close(open(p, O_CREAT | O_WRONLY, 0644));
	const char *links[][2] = {
		{ "/etc", "tmp/etc-link" },	      { "../etc", "tmp/rel" },
		{ "/tmp/loop", "tmp/loop" },	      { "/etc/passwd", "tmp/w/file-link" },
		{ "etc-link", "tmp/chain" },	      { "/nowhere", "tmp/dangling" },
		{ "/tmp/etc-link/../var", "tmp/dotdot" },
	};
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", t.dir, links[i][1]);
		assert_int_equal(symlink(links[i][0], p), 0);
	}
	t.root = open(t.dir, O_PATH | O_DIRECTORY);
	assert_true(t.root >= 0);
	*state = &t;
	return 0;
}

static int teardown(void **state)
{
	struct tree *t = *state;

	close(t->root);
	nftw(t->dir, nftw_rm, 8, FTW_DEPTH | FTW_PHYS);
	return 0;
}

static const char *walk(void **state, const char *base, const char *rel, int follow)
{
	static char out[256];
	struct tree *t = *state;
	long n = pathres_walk(t->root, base, rel, follow, out, sizeof(out));

	if (n < 0)
		return NULL;
	assert_int_equal((size_t)n, strlen(out));
	return out;
}

static void test_no_links(void **state)
{
	assert_string_equal(walk(state, NULL, "/tmp/w/x", 0), "/tmp/w/x");
	assert_string_equal(walk(state, "/tmp", "w/./x", 0), "/tmp/w/x");
	assert_string_equal(walk(state, "/tmp", "../etc/x", 0), "/etc/x");
	assert_string_equal(walk(state, NULL, "/../../tmp//w/", 0), "/tmp/w");
	/* what does not exist stays as written */
	assert_string_equal(walk(state, NULL, "/no/such/dir/x", 1), "/no/such/dir/x");
}

static void test_directory_links(void **state)
{
	assert_string_equal(walk(state, NULL, "/tmp/etc-link/x", 0), "/etc/x");
	assert_string_equal(walk(state, "/tmp", "etc-link/x", 0), "/etc/x");
	assert_string_equal(walk(state, NULL, "/tmp/rel/x", 0), "/etc/x");
	assert_string_equal(walk(state, NULL, "/tmp/chain/x", 0), "/etc/x");
	/* ".." after a link leaves the link's target, not the link's directory */
	assert_string_equal(walk(state, NULL, "/tmp/etc-link/../var/lib", 0), "/var/lib");
	assert_string_equal(walk(state, NULL, "/tmp/dotdot/lib/x", 0), "/var/lib/x");
	assert_string_equal(walk(state, NULL, "/tmp/dangling/x", 0), "/nowhere/x");
}

static void test_last_component(void **state)
{
	/* rename or unlink of the link itself: the link, not its target */
	assert_string_equal(walk(state, NULL, "/tmp/w/file-link", 0), "/tmp/w/file-link");
	assert_string_equal(walk(state, NULL, "/tmp/etc-link", 0), "/tmp/etc-link");
	/* chmod, truncate: through it */
	assert_string_equal(walk(state, NULL, "/tmp/w/file-link", 1), "/etc/passwd");
	assert_string_equal(walk(state, "/tmp/w", "file-link", 1), "/etc/passwd");
	/* a trailing slash follows it whatever the syscall */
	assert_string_equal(walk(state, NULL, "/tmp/etc-link/", 0), "/etc");
}

static void test_loops_and_limits(void **state)
{
	struct tree *t = *state;
	char small[8], big[5000];

	assert_null(walk(state, NULL, "/tmp/loop/x", 0));
	assert_int_equal(pathres_walk(t->root, NULL, "/tmp/etc-link/passwd", 0, small, sizeof(small)), -1);
	/* a string longer than the kernel takes is refused, not cut */
	memset(big, 'a', sizeof(big) - 1);
	big[0] = '/';
	big[sizeof(big) - 1] = 0;
	assert_null(walk(state, NULL, big, 0));
	/* a base that is not absolute is refused */
	assert_null(walk(state, "tmp", "x", 0));
}

static void test_proc_self(void **state)
{
	static char want[64];

	/* "self" is the walker, not whoever reads the link */
	(void)state;
	snprintf(want, sizeof(want), "/proc/%d/x", getpid());
	char out[256];
	int root = open("/", O_PATH | O_DIRECTORY);
	long n = pathres_walk(root, NULL, "/proc/self/x", 0, out, sizeof(out));
	close(root);
	assert_true(n > 0);
	assert_string_equal(out, want);
}

/* Its own root's link is "/" in its view: followed even with no root to
 * read links from (the process gone), the rest of the path lexical. */
static void test_own_root_without_a_root(void **state)
{
	char out[256], in[64];
	long n;

	(void)state;
	n = pathres_walk(-1, NULL, "/proc/self/root/etc/../var/x", 0, out, sizeof(out));
	assert_true(n > 0);
	assert_string_equal(out, "/var/x");
	snprintf(in, sizeof(in), "/proc/%d/root/y", getpid());
	n = pathres_walk(-1, NULL, in, 0, out, sizeof(out));
	assert_string_equal(out, "/y");
	/* another process's root, or its own cwd, stays as it is */
	n = pathres_walk(-1, NULL, "/proc/1/root/z", 0, out, sizeof(out));
	assert_string_equal(out, "/proc/1/root/z");
}

/* A descriptor's link names what the descriptor holds when it is read, not
 * what it held at the call: never read, open or closed, the kernel's own
 * reading at the call being the only one trusted (pathres_resolve). */
static void test_descriptor_links_stay(void **state)
{
	char out[256], in[64], want[64];
	int fd = open("/etc/passwd", O_RDONLY | O_CLOEXEC);
	int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC); /* the real /proc */

	(void)state;
	assert_true(fd >= 0 && root >= 0);
	snprintf(want, sizeof(want), "/proc/%d/fd/%d", getpid(), fd);
	assert_true(pathres_walk(root, NULL, want, 1, out, sizeof(out)) > 0);
	assert_string_equal(out, want);
	snprintf(in, sizeof(in), "/proc/self/fd/%d", fd);
	assert_true(pathres_walk(root, NULL, in, 1, out, sizeof(out)) > 0);
	assert_string_equal(out, want);
	snprintf(in, sizeof(in), "/proc/thread-self/fd/%d", fd);
	snprintf(want, sizeof(want), "/proc/%d/task/%d/fd/%d", getpid(), (int)gettid(), fd);
	assert_true(pathres_walk(root, NULL, in, 1, out, sizeof(out)) > 0);
	assert_string_equal(out, want);
	close(fd);
	/* the directory of descriptors is no link: walked through */
	snprintf(want, sizeof(want), "/proc/%d/fd/0", getpid());
	assert_true(pathres_walk(root, NULL, "/proc/self/fd/./0", 1, out, sizeof(out)) > 0);
	assert_string_equal(out, want);
	close(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_links),
		cmocka_unit_test(test_own_root_without_a_root),
		cmocka_unit_test(test_directory_links),
		cmocka_unit_test(test_last_component),
		cmocka_unit_test(test_loops_and_limits),
		cmocka_unit_test(test_proc_self),
		cmocka_unit_test(test_descriptor_links_stay),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
