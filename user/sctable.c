// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The syscall table (see sctable.h): one row per traced syscall. */
/* The rows below give their fields by position and leave the rare last one
 * (tp) out; clang's -Wextra flags every such row, gcc's does not. */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wmissing-field-initializers"
#endif
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include "names.h"
#include "sctable.h"

#define N AS_SPEC_NONE
#define C AS_SPEC_CWD
/* str0, dirfd0, str1, dirfd1, fd, aux: see struct as_sys_spec */
#define SPEC(s0, d0, s1, d1, f, x) { .str = { s0, s1 }, .dirfd = { d0, d1 }, .fd = f, .aux = x }
#define NOSPEC SPEC(N, N, N, N, N, N)
#define A(name, src, idx, fmt) { name, SRC_##src, idx, FMT_##fmt, 0 }
#define RES A("res", RES, 0, DEC)

/* syscalls a newer kernel has than this libc's headers know */
#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452
#endif
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif

#if defined(__x86_64__)
#define NR_X86(x) x
#else
#define NR_X86(x) -1 /* the legacy calls (rename, mkdir, ...) exist on x86_64 only */
#endif

static const struct sc_info table[AS_SC_MAX] = {
	/* ---- families with records of their own (fields.c reads them) ---- */
	[AS_SC_EXECVE] = { .nr = SYS_execve },
	[AS_SC_EXECVEAT] = { .nr = SYS_execveat },
	[AS_SC_OPEN] = { .nr = NR_X86(2) },
	[AS_SC_OPENAT] = { .nr = SYS_openat },
	[AS_SC_OPENAT2] = { .nr = 437 },
	[AS_SC_CREAT] = { .nr = NR_X86(85) },
	[AS_SC_OPEN_BY_HANDLE_AT] = { .nr = SYS_open_by_handle_at },
	[AS_SC_CONNECT] = { .nr = SYS_connect },
	[AS_SC_SENDTO] = { .nr = SYS_sendto },
	[AS_SC_SENDMSG] = { .nr = SYS_sendmsg },
	[AS_SC_SENDMMSG] = { .nr = SYS_sendmmsg },
	[AS_SC_BIND] = { .nr = SYS_bind },
	[AS_SC_LISTEN] = { .nr = SYS_listen },
	[AS_SC_ACCEPT] = { .nr = NR_X86(43) },
	[AS_SC_ACCEPT4] = { .nr = SYS_accept4 },
	[AS_SC_SOCKET] = { .nr = SYS_socket },
	[AS_SC_SETUID] = { .nr = SYS_setuid },
	[AS_SC_SETGID] = { .nr = SYS_setgid },
	[AS_SC_SETREUID] = { .nr = SYS_setreuid },
	[AS_SC_SETREGID] = { .nr = SYS_setregid },
	[AS_SC_SETRESUID] = { .nr = SYS_setresuid },
	[AS_SC_SETRESGID] = { .nr = SYS_setresgid },
	[AS_SC_SETFSUID] = { .nr = SYS_setfsuid },
	[AS_SC_SETFSGID] = { .nr = SYS_setfsgid },
	[AS_SC_SETGROUPS] = { .nr = SYS_setgroups },
	[AS_SC_CAPSET] = { .nr = SYS_capset },
	/* process creation is seen at sched_process_fork: no exit program */
	[AS_SC_CLONE] = { .nr = -1 },
	[AS_SC_CLONE3] = { .nr = -1 },
	[AS_SC_FORK] = { .nr = -1 },
	[AS_SC_VFORK] = { .nr = -1 },
	[AS_SC_PROCEXIT] = { .nr = -1 },
	[AS_SC_IO_URING_SUBMIT_REQ] = { .nr = -1,
		.args = { A("opcode", ARG, 0, URING_OP), A("fd", ARG, 1, FD), A("flags", ARG, 2, HEX),
			  A("mode", ARG, 3, OCT), A("user_data", ARG, 4, HEX),
			  A("sq_thread", ARG, 5, DEC), A("path", PATH, 0, STR) } },

	/* ---- file changes (AS_EV_FILE, the generic record) ---- */
	[AS_SC_RENAME] = { NR_X86(82), SPEC(0, C, 1, C, N, N), FSP_SRC0_TGT1,
		{ RES, A("oldpath", PATH, 0, STR), A("newpath", PATH, 1, STR) } },
	[AS_SC_RENAMEAT] = { SYS_renameat, SPEC(1, 0, 3, 2, N, N), FSP_SRC0_TGT1,
		{ RES, A("olddirfd", ARG, 0, FD), A("oldpath", PATH, 0, STR),
		  A("newdirfd", ARG, 2, FD), A("newpath", PATH, 1, STR) } },
	[AS_SC_RENAMEAT2] = { SYS_renameat2, SPEC(1, 0, 3, 2, N, N), FSP_SRC0_TGT1,
		{ RES, A("olddirfd", ARG, 0, FD), A("oldpath", PATH, 0, STR),
		  A("newdirfd", ARG, 2, FD), A("newpath", PATH, 1, STR), A("flags", ARG, 4, RENAME) } },
	/* link: Falco's source is the new name, its target the existing file */
	[AS_SC_LINK] = { NR_X86(86), SPEC(0, C, 1, C, N, N), FSP_SRC1_TGT0,
		{ RES, A("oldpath", PATH, 0, STR), A("newpath", PATH, 1, STR) } },
	[AS_SC_LINKAT] = { SYS_linkat, SPEC(1, 0, 3, 2, N, N), FSP_SRC1_TGT0,
		{ RES, A("olddir", ARG, 0, FD), A("oldpath", PATH, 0, STR), A("newdir", ARG, 2, FD),
		  A("newpath", PATH, 1, STR), A("flags", ARG, 4, AT) } },
	/* symlink: the target is the link's content, stored as given */
	[AS_SC_SYMLINK] = { NR_X86(88), SPEC(0, N, 1, C, N, N), FSP_SRC1_TGT0,
		{ RES, A("target", STR, 0, STR), A("linkpath", PATH, 1, STR) } },
	[AS_SC_SYMLINKAT] = { SYS_symlinkat, SPEC(0, N, 2, 1, N, N), FSP_SRC1_TGT0,
		{ RES, A("target", STR, 0, STR), A("linkdirfd", ARG, 1, FD),
		  A("linkpath", PATH, 1, STR) } },
	[AS_SC_UNLINK] = { NR_X86(87), SPEC(0, C, N, N, N, N), FSP_NAME0,
		{ RES, A("path", PATH, 0, STR) } },
	[AS_SC_UNLINKAT] = { SYS_unlinkat, SPEC(1, 0, N, N, N, N), FSP_NAME0,
		{ RES, A("dirfd", ARG, 0, FD), A("name", PATH, 0, STR), A("flags", ARG, 2, AT) } },
	[AS_SC_RMDIR] = { NR_X86(84), SPEC(0, C, N, N, N, N), FSP_NAME0,
		{ RES, A("path", PATH, 0, STR) } },
	[AS_SC_MKDIR] = { NR_X86(83), SPEC(0, C, N, N, N, N), FSP_NAME0,
		{ RES, A("path", PATH, 0, STR), A("mode", ARG, 1, OCT) } },
	[AS_SC_MKDIRAT] = { SYS_mkdirat, SPEC(1, 0, N, N, N, N), FSP_NAME0,
		{ RES, A("dirfd", ARG, 0, FD), A("path", PATH, 0, STR), A("mode", ARG, 2, OCT) } },
	[AS_SC_MKNOD] = { NR_X86(133), SPEC(0, C, N, N, N, N), FSP_NAME0,
		{ RES, A("path", PATH, 0, STR), A("mode", ARG, 1, OCT), A("dev", ARG, 2, HEX) } },
	[AS_SC_MKNODAT] = { SYS_mknodat, SPEC(1, 0, N, N, N, N), FSP_NAME0,
		{ RES, A("dirfd", ARG, 0, FD), A("path", PATH, 0, STR), A("mode", ARG, 2, OCT),
		  A("dev", ARG, 3, HEX) } },
	[AS_SC_CHMOD] = { NR_X86(90), SPEC(0, C, N, N, N, N), FSP_NAME0,
		{ RES, A("filename", PATH, 0, STR), A("mode", ARG, 1, OCT) } },
	[AS_SC_FCHMOD] = { SYS_fchmod, SPEC(N, N, N, N, 0, N), FSP_NAME0,
		{ RES, A("fd", ARG, 0, FD), A("mode", ARG, 1, OCT) } },
	[AS_SC_FCHMODAT] = { SYS_fchmodat, SPEC(1, 0, N, N, N, N), FSP_NAME0,
		{ RES, A("dirfd", ARG, 0, FD), A("filename", PATH, 0, STR), A("mode", ARG, 2, OCT) } },
	[AS_SC_FCHMODAT2] = { SYS_fchmodat2, SPEC(1, 0, N, N, N, N), FSP_NAME0,
		{ RES, A("dirfd", ARG, 0, FD), A("filename", PATH, 0, STR), A("mode", ARG, 2, OCT),
		  A("flags", ARG, 3, AT) } },
	[AS_SC_CHOWN] = { NR_X86(92), SPEC(0, C, N, N, N, N), FSP_NAME0,
		{ RES, A("path", PATH, 0, STR), A("uid", ARG, 1, ID), A("gid", ARG, 2, ID) } },
	[AS_SC_FCHOWN] = { SYS_fchown, SPEC(N, N, N, N, 0, N), FSP_NAME0,
		{ RES, A("fd", ARG, 0, FD), A("uid", ARG, 1, ID), A("gid", ARG, 2, ID) } },
	[AS_SC_LCHOWN] = { NR_X86(94), SPEC(0, C, N, N, N, N), FSP_NAME0,
		{ RES, A("path", PATH, 0, STR), A("uid", ARG, 1, ID), A("gid", ARG, 2, ID) } },
	[AS_SC_FCHOWNAT] = { SYS_fchownat, SPEC(1, 0, N, N, N, N), FSP_NAME0,
		{ RES, A("dirfd", ARG, 0, FD), A("pathname", PATH, 0, STR), A("uid", ARG, 2, ID),
		  A("gid", ARG, 3, ID), A("flags", ARG, 4, AT) } },
	[AS_SC_TRUNCATE] = { SYS_truncate, SPEC(0, C, N, N, N, N), FSP_NAME0,
		{ RES, A("path", PATH, 0, STR), A("length", ARG, 1, DEC) } },
	[AS_SC_FTRUNCATE] = { SYS_ftruncate, SPEC(N, N, N, N, 0, N), FSP_NAME0,
		{ RES, A("fd", ARG, 0, FD), A("length", ARG, 1, DEC) } },
	[AS_SC_SETXATTR] = { SYS_setxattr, SPEC(0, C, 1, N, N, N), FSP_NAME0,
		{ RES, A("path", PATH, 0, STR), A("name", STR, 1, STR), A("size", ARG, 3, DEC),
		  A("flags", ARG, 4, HEX) } },
	[AS_SC_LSETXATTR] = { SYS_lsetxattr, SPEC(0, C, 1, N, N, N), FSP_NAME0,
		{ RES, A("path", PATH, 0, STR), A("name", STR, 1, STR), A("size", ARG, 3, DEC),
		  A("flags", ARG, 4, HEX) } },
	[AS_SC_FSETXATTR] = { SYS_fsetxattr, SPEC(N, N, 1, N, 0, N), FSP_NAME0,
		{ RES, A("fd", ARG, 0, FD), A("name", STR, 1, STR), A("size", ARG, 3, DEC),
		  A("flags", ARG, 4, HEX) } },
	[AS_SC_REMOVEXATTR] = { SYS_removexattr, SPEC(0, C, 1, N, N, N), FSP_NAME0,
		{ RES, A("path", PATH, 0, STR), A("name", STR, 1, STR) } },
	[AS_SC_LREMOVEXATTR] = { SYS_lremovexattr, SPEC(0, C, 1, N, N, N), FSP_NAME0,
		{ RES, A("path", PATH, 0, STR), A("name", STR, 1, STR) } },
	[AS_SC_FREMOVEXATTR] = { SYS_fremovexattr, SPEC(N, N, 1, N, 0, N), FSP_NAME0,
		{ RES, A("fd", ARG, 0, FD), A("name", STR, 1, STR) } },
	/* a NULL path works on the dirfd itself: the empty string joins to it */
	[AS_SC_UTIMENSAT] = { SYS_utimensat, SPEC(1, 0, N, N, N, N), FSP_NAME0,
		{ RES, A("dirfd", ARG, 0, FD), A("path", PATH, 0, STR), A("flags", ARG, 3, AT) } },
	[AS_SC_UTIMES] = { NR_X86(235), SPEC(0, C, N, N, N, N), FSP_NAME0,
		{ RES, A("path", PATH, 0, STR) } },
	[AS_SC_UTIME] = { NR_X86(132), SPEC(0, C, N, N, N, N), FSP_NAME0,
		{ RES, A("path", PATH, 0, STR) } },
	[AS_SC_FUTIMESAT] = { NR_X86(261), SPEC(1, 0, N, N, N, N), FSP_NAME0,
		{ RES, A("dirfd", ARG, 0, FD), A("path", PATH, 0, STR) } },

	/* ---- privilege, isolation, code, cwd (AS_EV_SYS) ---- */
	[AS_SC_UNSHARE] = { SYS_unshare, NOSPEC, FSP_NONE, { RES, A("flags", ARG, 0, CLONE) } },
	[AS_SC_SETNS] = { SYS_setns, SPEC(N, N, N, N, 0, N), FSP_NONE,
		{ RES, A("fd", ARG, 0, FD), A("nstype", ARG, 1, CLONE), A("ns", PATH, 0, STR) } },
	[AS_SC_PTRACE] = { SYS_ptrace, NOSPEC, FSP_NONE,
		{ RES, A("request", ARG, 0, PTRACE), A("pid", ARG, 1, DEC), A("addr", ARG, 2, HEX),
		  A("data", ARG, 3, HEX) } },
	[AS_SC_MOUNT] = { SYS_mount, SPEC(0, N, 1, C, N, 2), FSP_SRC0_TGT1,
		{ RES, A("dev", STR, 0, STR), A("dir", PATH, 1, STR), A("type", AUX, 0, STR),
		  A("flags", ARG, 3, MOUNT) } },
	[AS_SC_UMOUNT2] = { SYS_umount2, SPEC(0, C, N, N, N, N), FSP_NAME0,
		{ RES, A("name", PATH, 0, STR), A("flags", ARG, 1, UMOUNT) }, .tp = "umount" },
	[AS_SC_FSOPEN] = { SYS_fsopen, SPEC(N, N, N, N, N, 0), FSP_NONE,
		{ RES, A("fsname", AUX, 0, STR), A("flags", ARG, 1, HEX) } },
	[AS_SC_FSMOUNT] = { SYS_fsmount, NOSPEC, FSP_NONE,
		{ RES, A("fs_fd", ARG, 0, FD), A("flags", ARG, 1, HEX), A("attr_flags", ARG, 2, HEX) } },
	[AS_SC_MOVE_MOUNT] = { SYS_move_mount, SPEC(1, 0, 3, 2, N, N), FSP_SRC0_TGT1,
		{ RES, A("from_dfd", ARG, 0, FD), A("from_pathname", PATH, 0, STR),
		  A("to_dfd", ARG, 2, FD), A("to_pathname", PATH, 1, STR), A("flags", ARG, 4, HEX) } },
	[AS_SC_OPEN_TREE] = { SYS_open_tree, SPEC(1, 0, N, N, N, N), FSP_NAME0,
		{ RES, A("dfd", ARG, 0, FD), A("filename", PATH, 0, STR), A("flags", ARG, 2, HEX) } },
	[AS_SC_MOUNT_SETATTR] = { SYS_mount_setattr, SPEC(1, 0, N, N, N, N), FSP_NAME0,
		{ RES, A("dfd", ARG, 0, FD), A("path", PATH, 0, STR), A("flags", ARG, 2, HEX) } },
	[AS_SC_PIVOT_ROOT] = { SYS_pivot_root, SPEC(0, C, 1, C, N, N), FSP_SRC0_TGT1,
		{ RES, A("new_root", PATH, 0, STR), A("put_old", PATH, 1, STR) } },
	[AS_SC_CHROOT] = { SYS_chroot, SPEC(0, C, N, N, N, N), FSP_NAME0,
		{ RES, A("path", PATH, 0, STR) } },
	[AS_SC_INIT_MODULE] = { SYS_init_module, SPEC(N, N, 2, N, N, N), FSP_NONE,
		{ RES, A("length", ARG, 1, DEC), A("uargs", STR, 1, STR) } },
	[AS_SC_FINIT_MODULE] = { SYS_finit_module, SPEC(N, N, 1, N, 0, N), FSP_NAME0,
		{ RES, A("fd", ARG, 0, FD), A("uargs", STR, 1, STR), A("flags", ARG, 2, HEX) } },
	[AS_SC_DELETE_MODULE] = { SYS_delete_module, SPEC(0, N, N, N, N, N), FSP_NONE,
		{ RES, A("name", STR, 0, STR), A("flags", ARG, 1, HEX) } },
	[AS_SC_KEXEC_LOAD] = { SYS_kexec_load, NOSPEC, FSP_NONE,
		{ RES, A("entry", ARG, 0, HEX), A("nr_segments", ARG, 1, DEC), A("flags", ARG, 3, HEX) } },
	[AS_SC_KEXEC_FILE_LOAD] = { SYS_kexec_file_load, SPEC(N, N, N, N, 0, N), FSP_NAME0,
		{ RES, A("kernel_fd", ARG, 0, FD), A("initrd_fd", ARG, 1, FD),
		  A("flags", ARG, 4, HEX) } },
	/* Falco prints the command as a number; "type" (the map or program type) is ours */
	[AS_SC_BPF] = { SYS_bpf, NOSPEC, FSP_NONE,
		{ A("fd", RES, 0, DEC), A("cmd", ARG, 0, DEC), A("cmd_name", ARG, 0, BPF_CMD),
		  A("type", EXTRA, 0, DEC), RES } },
	[AS_SC_PERF_EVENT_OPEN] = { SYS_perf_event_open, NOSPEC, FSP_NONE,
		{ RES, A("pid", ARG, 1, DEC), A("cpu", ARG, 2, DEC), A("group_fd", ARG, 3, FD),
		  A("flags", ARG, 4, HEX), A("type", EXTRA, 0, DEC) } },
	[AS_SC_PRCTL] = { SYS_prctl, SPEC(N, N, N, N, N, 1), FSP_NONE,
		{ RES, A("option", ARG, 0, PRCTL), A("arg2_str", AUX, 0, STR),
		  A("arg2_int", ARG, 1, DEC) } },
	[AS_SC_MEMFD_CREATE] = { SYS_memfd_create, SPEC(0, N, N, N, N, N), FSP_NONE,
		{ A("fd", RES, 0, DEC), A("name", STR, 0, STR), A("flags", ARG, 1, MEMFD), RES } },
	[AS_SC_IO_URING_SETUP] = { SYS_io_uring_setup, NOSPEC, FSP_NONE,
		{ RES, A("entries", ARG, 0, DEC), A("flags", EXTRA, 0, URING_SETUP) } },
	[AS_SC_CHDIR] = { SYS_chdir, SPEC(0, C, N, N, N, N), FSP_NONE,
		{ RES, A("path", PATH, 0, STR) } },
	[AS_SC_FCHDIR] = { SYS_fchdir, SPEC(N, N, N, N, 0, N), FSP_NONE,
		{ RES, A("fd", ARG, 0, FD), A("path", PATH, 0, STR) } },
	[AS_SC_SETSID] = { SYS_setsid, NOSPEC, FSP_NONE, { RES } },
	[AS_SC_PROCESS_VM_WRITEV] = { SYS_process_vm_writev, NOSPEC, FSP_NONE,
		{ RES, A("pid", ARG, 0, DEC) } },
	[AS_SC_PROCESS_VM_READV] = { SYS_process_vm_readv, NOSPEC, FSP_NONE,
		{ RES, A("pid", ARG, 0, DEC) } },
	[AS_SC_PIDFD_GETFD] = { SYS_pidfd_getfd, NOSPEC, FSP_NONE,
		{ A("fd", RES, 0, DEC), A("pid_fd", ARG, 0, FD), A("target_fd", ARG, 1, FD),
		  A("flags", ARG, 2, HEX), RES } },
	[AS_SC_IOPL] = { NR_X86(172), NOSPEC, FSP_NONE, { RES, A("level", ARG, 0, DEC) } },
	[AS_SC_IOPERM] = { NR_X86(173), NOSPEC, FSP_NONE,
		{ RES, A("from", ARG, 0, HEX), A("num", ARG, 1, DEC), A("turn_on", ARG, 2, DEC) } },
};

const struct sc_info *sctable_get(unsigned sc)
{
	static const struct sc_info none = { .nr = -1 };

	return sc < AS_SC_MAX ? &table[sc] : &none;
}

int sctable_generic(unsigned sc)
{
	unsigned t = names_syscall_type(sc);

	return (t == AS_EV_FILE || t == AS_EV_SYS) && sctable_get(sc)->nr >= 0;
}

const struct sc_arg *sctable_arg(unsigned sc, const char *name)
{
	const struct sc_info *s = sctable_get(sc);

	for (size_t i = 0; i < SCTABLE_ARGS_MAX && s->args[i].name; i++)
		if (strcmp(s->args[i].name, name) == 0)
			return &s->args[i];
	return NULL;
}

int sctable_arg_known(const char *name)
{
	for (unsigned sc = 0; sc < AS_SC_MAX; sc++)
		if (sctable_arg(sc, name))
			return 1;
	return 0;
}
