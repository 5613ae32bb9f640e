// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* ldpath: LD_LIBRARY_PATH judged in a real tree under a temporary directory
 * used as the process's root (owners and modes set for real: run as root),
 * and the stage's verdict on decoded exec records of this very process. */
#include <fcntl.h>
#include <sys/stat.h>
#include "testutil.h"
#include "ldpath.h"

#define NOBODY 65534
#define STAFF 50

struct tree {
	char dir[64];
	int root;
};

static void mk(const struct tree *t, const char *rel, mode_t mode, uid_t uid, gid_t gid)
{
	char p[128];

	snprintf(p, sizeof(p), "%s/%s", t->dir, rel);
	assert_int_equal(mkdir(p, mode), 0);
	assert_int_equal(chown(p, uid, gid), 0);
	assert_int_equal(chmod(p, mode), 0); /* past the umask */
}

static void ln(const struct tree *t, const char *target, const char *rel)
{
	char p[128];

	snprintf(p, sizeof(p), "%s/%s", t->dir, rel);
	assert_int_equal(symlink(target, p), 0);
}

static int setup(void **state)
{
	static struct tree t;
	char p[128];

	if (geteuid() != 0)
		fail_msg("needs root: the tree's directories belong to root and to nobody");
	tu_mkdtemp(t.dir, sizeof(t.dir), "ldpath");
	assert_int_equal(chmod(t.dir, 0755), 0);
	mk(&t, "usr", 0755, 0, 0);
	mk(&t, "usr/lib", 0755, 0, 0);
	mk(&t, "usr/local", 0755, 0, 0);
	mk(&t, "usr/local/cuda", 0755, 0, 0);
	mk(&t, "usr/local/cuda/lib64", 0755, 0, 0);
	mk(&t, "tmp", 01777, 0, 0);
	mk(&t, "tmp/x", 0755, 0, 0);
	mk(&t, "home", 0755, 0, 0);
	mk(&t, "home/u", 0755, NOBODY, NOBODY);
	mk(&t, "home/u/lib", 0755, 0, 0);
	mk(&t, "staff", 02775, 0, STAFF);
	mk(&t, "wheel", 0775, 0, 0);
	mk(&t, "opt", 0755, 0, 0);
	mk(&t, "opt/mine", 0755, NOBODY, 0);
	/* root's library directories with what the loader searches beneath */
	mk(&t, "hw", 0755, 0, 0);
	mk(&t, "hw/glibc-hwcaps", 0755, 0, 0);
	mk(&t, "hw/glibc-hwcaps/x86-64-v3", 0755, 0, 0);
	mk(&t, "hwbad", 0755, 0, 0);
	mk(&t, "hwbad/glibc-hwcaps", 0755, 0, 0);
	mk(&t, "hwbad/glibc-hwcaps/x86-64-v3", 0777, 0, 0);
	mk(&t, "legacy", 0755, 0, 0);
	mk(&t, "legacy/tls", 0755, 0, 0);
	mk(&t, "legacy/tls/x86_64", 0755, NOBODY, 0);
	snprintf(p, sizeof(p), "%s/usr/lib/libc.so.6", t.dir);
	tu_write_file(p, "elf", 3);
	ln(&t, "usr/lib", "lib"); /* merged /usr: /lib -> usr/lib */
	ln(&t, "lib", "usr/lib64"); /* relative, within usr */
	ln(&t, "/usr/lib", "tmp/sys"); /* a link in a directory anyone writes */
	ln(&t, "/home/u", "usr/ulib"); /* root's link to a user's directory */
	ln(&t, "/tmp/x", "usr/up"); /* root's link into anyone's /tmp */
	ln(&t, "../lib", "usr/uplib");
	ln(&t, "/usr/loop", "usr/loop");
	t.root = open(t.dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(t.root >= 0);
	*state = &t;
	return 0;
}

static int teardown(void **state)
{
	struct tree *t = *state;

	close(t->root);
	tu_rmrf(t->dir);
	return 0;
}

static void test_root_only_directories(void **state)
{
	int root = ((struct tree *)*state)->root;

	assert_int_equal(ldpath_trusted(root, "/usr/lib"), 1);
	assert_int_equal(ldpath_trusted(root, "/usr/local/cuda/lib64"), 1);
	assert_int_equal(ldpath_trusted(root, "/usr/local/cuda/lib64:/usr/lib"), 1);
	assert_int_equal(ldpath_trusted(root, "/usr/local/cuda/lib64;/usr/lib"), 1);
	assert_int_equal(ldpath_trusted(root, "/usr//lib/./"), 1);
	/* no group write, not even group root's (OpenShift's users are in it) */
	assert_int_equal(ldpath_trusted(root, "/wheel"), 0);
	assert_int_equal(ldpath_trusted(root, "/staff"), 0);
	/* anyone's /tmp, a directory of root's below one, a user's directory */
	assert_int_equal(ldpath_trusted(root, "/tmp"), 0);
	assert_int_equal(ldpath_trusted(root, "/tmp/x"), 0);
	assert_int_equal(ldpath_trusted(root, "/home/u"), 0);
	assert_int_equal(ldpath_trusted(root, "/home/u/lib"), 0);
	assert_int_equal(ldpath_trusted(root, "/opt/mine"), 0);
	/* one bad entry anywhere spoils the value */
	assert_int_equal(ldpath_trusted(root, "/usr/lib:/tmp/x"), 0);
	assert_int_equal(ldpath_trusted(root, "/tmp/x:/usr/lib"), 0);
}

static void test_entries_the_loader_reads_elsewhere(void **state)
{
	int root = ((struct tree *)*state)->root;

	/* an empty entry is the current directory */
	assert_int_equal(ldpath_trusted(root, "/usr/lib:"), 0);
	assert_int_equal(ldpath_trusted(root, ":/usr/lib"), 0);
	assert_int_equal(ldpath_trusted(root, "/usr/lib::/usr/lib"), 0);
	assert_int_equal(ldpath_trusted(root, ""), 0);
	/* relative to the current directory, tokens the loader expands */
	assert_int_equal(ldpath_trusted(root, "usr/lib"), 0);
	assert_int_equal(ldpath_trusted(root, "./lib"), 0);
	assert_int_equal(ldpath_trusted(root, "$ORIGIN/../lib"), 0);
	assert_int_equal(ldpath_trusted(root, "/usr/${LIB}"), 0);
	assert_int_equal(ldpath_trusted(root, "/usr/lib/../lib"), 0);
	/* musl's loader splits at a newline too; no control byte passes */
	assert_int_equal(ldpath_trusted(root, "/usr/lib\n/tmp/x"), 0);
	assert_int_equal(ldpath_trusted(root, "/usr/lib\t"), 0);
}

static void test_subdirectories_the_loader_searches(void **state)
{
	int root = ((struct tree *)*state)->root;

	assert_int_equal(ldpath_trusted(root, "/hw"), 1);
	assert_int_equal(ldpath_trusted(root, "/hwbad"), 0); /* glibc-hwcaps/x86-64-v3 */
	assert_int_equal(ldpath_trusted(root, "/legacy"), 0); /* tls/x86_64, nobody's */
	assert_int_equal(ldpath_trusted(root, "/usr/lib:/hwbad"), 0);
}

static void test_missing_entries_and_files(void **state)
{
	int root = ((struct tree *)*state)->root;

	/* nothing there, in a directory only root writes */
	assert_int_equal(ldpath_trusted(root, "/usr/lib/nothere"), 1);
	assert_int_equal(ldpath_trusted(root, "/nothere/at/all"), 1);
	/* ... but in anyone's directory someone could have made it */
	assert_int_equal(ldpath_trusted(root, "/tmp/nothere"), 0);
	/* a file: nothing is found under it */
	assert_int_equal(ldpath_trusted(root, "/usr/lib/libc.so.6"), 1);
	assert_int_equal(ldpath_trusted(root, "/usr/lib/libc.so.6/x"), 1);
}

static void test_links(void **state)
{
	int root = ((struct tree *)*state)->root;

	assert_int_equal(ldpath_trusted(root, "/lib"), 1);
	assert_int_equal(ldpath_trusted(root, "/usr/lib64"), 1);
	assert_int_equal(ldpath_trusted(root, "/lib/nothere"), 1);
	/* the link itself stands where anyone could have swapped it */
	assert_int_equal(ldpath_trusted(root, "/tmp/sys"), 0);
	/* root's links to what is not root's */
	assert_int_equal(ldpath_trusted(root, "/usr/ulib"), 0);
	assert_int_equal(ldpath_trusted(root, "/usr/ulib/lib"), 0);
	assert_int_equal(ldpath_trusted(root, "/usr/up"), 0);
	assert_int_equal(ldpath_trusted(root, "/usr/uplib"), 0); /* ".." in a link: counted */
	assert_int_equal(ldpath_trusted(root, "/usr/loop"), 0);
}

static void test_a_root_anyone_writes(void **state)
{
	struct tree *t = *state;

	assert_int_equal(chmod(t->dir, 0777), 0);
	assert_int_equal(ldpath_trusted(t->root, "/usr/lib"), 0);
	assert_int_equal(chmod(t->dir, 0755), 0);
	assert_int_equal(ldpath_trusted(t->root, "/usr/lib"), 1);
}

/* A decoded exec record of pid in mount namespace mntns and user
 * namespace userns with LD_LIBRARY_PATH=value and pflags, judged. */
static uint32_t judged_in(struct ldpath *lp, uint32_t pid, uint32_t mntns, uint32_t userns,
			  const char *value, uint32_t pflags)
{
	struct pathres *roots = pathres_new();
	struct event *ev = tu_event_new();
	struct as_exec x;
	uint32_t out;
	size_t len;
	void *rec;

	memset(&x, 0, sizeof(x));
	tu_hdr(&x.hdr, AS_EV_EXEC, AS_SC_EXECVE, pid);
	x.pflags = pflags | AS_XF_LD_PATH;
	x.mntns = mntns;
	x.userns = userns;
	rec = tu_exec_ldpath(&x, PC("/bin/ps\0"), PC("ps\0"), PC("ps\0bin\0"), PC("\0"), PC("\0"),
			     pc_str(value), &len);
	tu_decode_ok(rec, len, ev);
	assert_string_equal(ev->ldpath, value);
	assert_true(ev->exec_flags & AS_XF_LD_ENV); /* until judged */
	ldpath_event(lp, roots, ev);
	out = ev->exec_flags;
	free(rec);
	free(ev);
	pathres_free(roots);
	return out;
}

static uint32_t ns_of(const char *link)
{
	struct stat st;

	assert_int_equal(stat(link, &st), 0);
	return (uint32_t)st.st_ino;
}

/* judged_in our own user namespace */
static uint32_t judged(struct ldpath *lp, uint32_t pid, uint32_t mntns, const char *value,
		       uint32_t pflags)
{
	return judged_in(lp, pid, mntns, ns_of("/proc/self/ns/user"), value, pflags);
}

static void test_event_verdicts(void **state)
{
	struct ldpath *lp = ldpath_new(), *fresh;
	uint32_t me = (uint32_t)getpid(), gone = 0x7ffffff0;
	uint32_t ns = ns_of("/proc/self/ns/mnt"), uns = ns_of("/proc/self/ns/user");
	const char *sys = "/usr/lib/x86_64-linux-gnu";

	(void)state;
	assert_non_null(lp);
	/* this process's root is the host's: Debian's own library directory */
	assert_false(judged(lp, me, ns, sys, 0) & AS_XF_LD_ENV);
	assert_false(judged(lp, me, ns, sys, 0) & AS_XF_LD_ENV); /* cached */
	assert_true(judged(lp, me, ns, "/tmp", 0) & AS_XF_LD_ENV);
	assert_true(judged(lp, me, ns, "/usr/lib/x86_64-linux-gnu:", 0) & AS_XF_LD_ENV);
	/* LD_PRELOAD beside it (or a value cut short) decided it already */
	assert_true(judged(lp, me, ns, sys, AS_XF_LD_ENV) & AS_XF_LD_ENV);
	/* a user namespace of its own at exec: not judged, whatever is cached */
	assert_true(judged_in(lp, me, ns, uns + 1, sys, 0) & AS_XF_LD_ENV);
	/* a snapshot's record (no namespaces) of a live process: asked of it */
	assert_false(judged_in(lp, me, 0, 0, sys, 0) & AS_XF_LD_ENV);
	/* a process gone: judged (nothing cached) in its mount namespace's
	 * root, ours here ... */
	fresh = ldpath_new();
	assert_false(judged(fresh, gone, ns, sys, 0) & AS_XF_LD_ENV);
	ldpath_free(fresh);
	fresh = ldpath_new();
	assert_true(judged(fresh, gone, ns, "/tmp", 0) & AS_XF_LD_ENV);
	ldpath_free(fresh);
	/* ... and where that is unknown (another namespace, or a snapshot's
	 * record, which has none), counted as set */
	assert_true(judged(lp, gone, ns + 1, sys, 0) & AS_XF_LD_ENV);
	assert_true(judged_in(lp, gone, 0, 0, sys, 0) & AS_XF_LD_ENV);
	/* no stage (a replay): the variable counts as set */
	assert_true(judged(NULL, me, ns, sys, 0) & AS_XF_LD_ENV);
	ldpath_free(lp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_root_only_directories),
		cmocka_unit_test(test_entries_the_loader_reads_elsewhere),
		cmocka_unit_test(test_missing_entries_and_files),
		cmocka_unit_test(test_subdirectories_the_loader_searches),
		cmocka_unit_test(test_links),
		cmocka_unit_test(test_a_root_anyone_writes),
		cmocka_unit_test(test_event_verdicts),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
