// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The 32-bit ABI's table (user/compat.c): which i386 call is which x86_64
 * one, and that every traced call the compat program can serve has its
 * i386 row, so a syscall added to the table cannot be forgotten there. */
#include "testutil.h"
#include "compat.h"
#include "names.h"
#include "sctable.h"

#if defined(__x86_64__)

static struct as_compat_spec spec[AS_COMPAT_NR_MAX], sock[AS_COMPAT_SOCKCALL_MAX];

static int setup(void **state)
{
	(void)state;
	return compat_fill(spec, sock) == 0;
}

/* the x86_64 number of sc */
static unsigned nr64(unsigned sc)
{
	return (unsigned)sctable_get(sc)->nr;
}

static void expect(const struct as_compat_spec *s, unsigned sc, unsigned fam, unsigned id16,
		   unsigned nargs)
{
	assert_int_equal(s->nr, nr64(sc));
	assert_int_equal(s->family, fam);
	assert_int_equal(s->id16, id16);
	assert_int_equal(s->nargs, nargs);
	assert_int_equal(s->type, names_syscall_type(sc));
}

/* i386 numbers from the kernel's arch/x86/entry/syscalls/syscall_32.tbl,
 * written out here rather than taken from the header the table uses */
static void test_rows(void **state)
{
	(void)state;
	expect(&spec[5], AS_SC_OPEN, AS_CFAM_OPEN, 0, 0);
	expect(&spec[8], AS_SC_CREAT, AS_CFAM_OPEN, 0, 0);
	expect(&spec[295], AS_SC_OPENAT, AS_CFAM_OPEN, 0, 0);
	expect(&spec[362], AS_SC_CONNECT, AS_CFAM_NET, 0, 0);
	expect(&spec[369], AS_SC_SENDTO, AS_CFAM_NET, 0, 0);
	expect(&spec[370], AS_SC_SENDMSG, AS_CFAM_NET, 0, 0);
	/* setuid16 and setuid32 are setuid; only the first has 16-bit ids */
	expect(&spec[23], AS_SC_SETUID, AS_CFAM_SETID, 0x1, 0);
	expect(&spec[213], AS_SC_SETUID, AS_CFAM_SETID, 0, 0);
	expect(&spec[164], AS_SC_SETRESUID, AS_CFAM_SETID, 0x7, 0);
	expect(&spec[208], AS_SC_SETRESUID, AS_CFAM_SETID, 0, 0);
	expect(&spec[185], AS_SC_CAPSET, AS_CFAM_CAPSET, 0, 0);
	/* chown16(path, uid, gid): the ids are arguments 1 and 2 */
	expect(&spec[182], AS_SC_CHOWN, AS_CFAM_GENERIC, 0x6, 0);
	expect(&spec[212], AS_SC_CHOWN, AS_CFAM_GENERIC, 0, 0);
	expect(&spec[95], AS_SC_FCHOWN, AS_CFAM_GENERIC, 0x6, 0);
	expect(&spec[38], AS_SC_RENAME, AS_CFAM_GENERIC, 0, 0);
	expect(&spec[310], AS_SC_UNSHARE, AS_CFAM_GENERIC, 0, 0);
	/* oldumount(name) is umount2 with no flags argument */
	expect(&spec[22], AS_SC_UMOUNT2, AS_CFAM_GENERIC, 0, 1);
	expect(&spec[52], AS_SC_UMOUNT2, AS_CFAM_GENERIC, 0, 0);
	expect(&spec[452], AS_SC_FCHMODAT2, AS_CFAM_GENERIC, 0, 0);
	/* a 64-bit argument in two registers: truncate64's length (1),
	 * fanotify_mark's mask (2); the others one register later */
	expect(&spec[193], AS_SC_TRUNCATE, AS_CFAM_GENERIC, 0, 0);
	assert_int_equal(spec[193].split64, 2);
	expect(&spec[194], AS_SC_FTRUNCATE, AS_CFAM_GENERIC, 0, 0);
	assert_int_equal(spec[194].split64, 2);
	expect(&spec[339], AS_SC_FANOTIFY_MARK, AS_CFAM_GENERIC, 0, 0);
	assert_int_equal(spec[339].split64, 3);
	assert_int_equal(spec[92].split64, 0); /* truncate: one register */
	/* the host's state: clock_settime and its time64 twin are one call */
	expect(&spec[264], AS_SC_CLOCK_SETTIME, AS_CFAM_GENERIC, 0, 0);
	expect(&spec[404], AS_SC_CLOCK_SETTIME, AS_CFAM_GENERIC, 0, 0);
	expect(&spec[88], AS_SC_REBOOT, AS_CFAM_GENERIC, 0, 0);
	expect(&spec[25], AS_SC_SETTIMEOFDAY, AS_CFAM_GENERIC, 0, 1); /* stime */
	expect(&spec[103], AS_SC_SYSLOG, AS_CFAM_GENERIC, 0, 0);
	expect(&spec[288], AS_SC_KEYCTL, AS_CFAM_GENERIC, 0, 0);
	/* not the compat program's: exec (sched_process_exec), the fork
	 * family (sched_process_fork), and what is not traced at all */
	for (unsigned nr = 0; nr < AS_COMPAT_NR_MAX; nr++)
		if (nr == 11 || nr == 358 || nr == 2 || nr == 120 || nr == 190 || nr == 435 ||
		    nr == 3 || nr == 4 || nr == 20 || nr == 6)
			assert_int_equal(spec[nr].family, AS_CFAM_NONE);
	/* socketcall: its calls by number, with their u32 argument counts */
	assert_int_equal(spec[102].family, AS_CFAM_SOCKETCALL);
	expect(&sock[1], AS_SC_SOCKET, AS_CFAM_NET, 0, 3);
	expect(&sock[3], AS_SC_CONNECT, AS_CFAM_NET, 0, 3);
	expect(&sock[5], AS_SC_ACCEPT, AS_CFAM_NET, 0, 3);
	expect(&sock[11], AS_SC_SENDTO, AS_CFAM_NET, 0, 6);
	expect(&sock[16], AS_SC_SENDMSG, AS_CFAM_NET, 0, 3);
	expect(&sock[20], AS_SC_SENDMMSG, AS_CFAM_NET, 0, 4);
	for (unsigned c = 0; c < AS_COMPAT_SOCKCALL_MAX; c++)
		if (c == 0 || c == 6 || c == 7 || c == 9 || c == 12 || c == 13 || c == 17)
			assert_int_equal(sock[c].family, AS_CFAM_NONE);
}

/* Every row points at a call the table traces, under its family, and the
 * spec the compat program reads agrees with the generic program's. */
static void test_every_row_is_consistent(void **state)
{
	unsigned n = 0;

	(void)state;
	for (unsigned i = 0; i < AS_COMPAT_NR_MAX; i++) {
		const struct as_compat_spec *s = &spec[i];
		unsigned sc;

		if (s->family == AS_CFAM_NONE || s->family == AS_CFAM_SOCKETCALL)
			continue;
		n++;
		for (sc = AS_SC_NONE + 1; sc < AS_SC_MAX; sc++)
			if (sctable_get(sc)->nr == s->nr)
				break;
		assert_true(sc < AS_SC_MAX);
		assert_int_equal(s->family, compat_family(sc));
		assert_int_equal(s->type, names_syscall_type(sc));
		assert_true(s->nargs <= 6); /* the most a syscall takes */
		assert_true(s->split64 < 6); /* 1 + an argument that has one after it */
		/* id16 and nargs count registers before the split moves them */
		assert_true(!s->split64 || (!s->id16 && !s->nargs));
		assert_int_equal(s->id16 & ~0x3fu, 0);
	}
	assert_true(n > 90);
}

/* Coverage: each syscall the compat program serves has an i386 row, but
 * those i386 lacks (kexec_file_load) and those reached through socketcall
 * only (accept). */
static void test_every_served_call_has_a_row(void **state)
{
	(void)state;
	for (unsigned sc = AS_SC_NONE + 1; sc < AS_SC_MAX; sc++) {
		if (compat_family(sc) == AS_CFAM_NONE || sctable_get(sc)->nr < 0)
			continue;
		if (sc == AS_SC_KEXEC_FILE_LOAD || sc == AS_SC_ACCEPT)
			continue;
		if (compat_i386_nr((unsigned)sc) < 0)
			fail_msg("%s is traced but has no i386 row in user/compat.c",
				 names_evt_type(names_syscall_type(sc), sc));
	}
	assert_int_equal(compat_i386_nr(AS_SC_KEXEC_FILE_LOAD), -1);
	assert_int_equal(compat_family(AS_SC_EXECVE), AS_CFAM_NONE);
	assert_int_equal(compat_family(AS_SC_CLONE), AS_CFAM_NONE);
	assert_int_equal(compat_family(AS_SC_IO_URING_SUBMIT_REQ), AS_CFAM_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_every_row_is_consistent),
		cmocka_unit_test(test_every_served_call_has_a_row),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}

#else

int main(void)
{
	struct as_compat_spec spec[AS_COMPAT_NR_MAX], sock[AS_COMPAT_SOCKCALL_MAX];

	/* no 32-bit ABI is traced on this architecture: an empty table */
	return compat_fill(spec, sock) == 0 ? 0 : 1;
}

#endif
