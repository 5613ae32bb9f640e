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

#define FAN_MARK_DONT_FOLLOW_BIT 0x04 /* <linux/fanotify.h> */
/* <linux/mount.h>: the mount calls' own link-following bits */
#define UMOUNT_NOFOLLOW_BIT 0x08
#define FSPICK_SYMLINK_NOFOLLOW_BIT 0x02
#define MOVE_MOUNT_F_SYMLINKS_BIT 0x01
#define MOVE_MOUNT_T_SYMLINKS_BIT 0x10
#define N AS_SPEC_NONE
#define C AS_SPEC_CWD
/* str0, dirfd0, str1, dirfd1, fd, aux: see struct as_sys_spec */
#define SPEC(s0, d0, s1, d1, f, x) { .str = { s0, s1 }, .dirfd = { d0, d1 }, .fd = f, .aux = x }
#define NOSPEC SPEC(N, N, N, N, N, N)
#define A(name, src, idx, fmt) { name, SRC_##src, idx, FMT_##fmt, 0 }
/* a register argument the kernel takes as an int or unsigned int, and as a
 * umode_t: the register's upper bits are not the act's (sctable_arg_value) */
#define A32(name, idx, fmt) { name, SRC_ARG, idx, FMT_##fmt, 4 }
/* how the target pid of ptrace and process_vm_* stands to the caller
 * (AS_PTK_*, read in the kernel: bpf/sys.bpf.c as_ptrace_kin) */
#define KIN_ARGS                                                      \
	A("is_descendant", EXTRA, AS_PTK_DESCENDANT, BOOL),           \
		A("shares_mm", EXTRA, AS_PTK_SHARES_MM, BOOL)
#define MODE(name, idx) { name, SRC_ARG, idx, FMT_OCT, 2 }
/* a string slot no longer than argument lenidx says (sc_arg.width) */
#define STRN(name, slot, lenidx) { name, SRC_STR, slot, FMT_STR, 1 + (lenidx) }
#define RES A("res", RES, 0, DEC)

/* syscalls a newer kernel has than this libc's headers know */
#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452
#endif
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
#ifndef SYS_setxattrat /* Linux 6.13 */
#define SYS_setxattrat 463
#endif
#ifndef SYS_removexattrat
#define SYS_removexattrat 466
#endif
#ifndef SYS_open_tree_attr /* Linux 6.15 */
#define SYS_open_tree_attr 467
#endif
#ifndef SYS_file_setattr /* Linux 6.17 */
#define SYS_file_setattr 469
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
	/* a socket duplicated (stdio onto a connection): a connect record, none for other files */
	[AS_SC_DUP] = { .nr = SYS_dup },
	[AS_SC_DUP2] = { .nr = NR_X86(33) },
	[AS_SC_DUP3] = { .nr = SYS_dup3 },
	/* a netlink send by any other call (bpf/net.bpf.c: tp_sock_send_length) */
	[AS_SC_WRITE] = { .nr = SYS_write, .via = VIA_SOCK_SEND },
	[AS_SC_WRITEV] = { .nr = SYS_writev, .via = VIA_SOCK_SEND },
	[AS_SC_PWRITEV2] = { .nr = SYS_pwritev2, .via = VIA_SOCK_SEND },
	[AS_SC_SENDFILE] = { .nr = SYS_sendfile, .via = VIA_SOCK_SEND },
	[AS_SC_SPLICE] = { .nr = SYS_splice, .via = VIA_SOCK_SEND },
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
	[AS_SC_RENAME] = { .nr = NR_X86(82), .spec = SPEC(0, C, 1, C, N, N), .fspath = FSP_SRC0_TGT1,
		.args = { RES, A("oldpath", PATH, 0, STR), A("newpath", PATH, 1, STR) } },
	[AS_SC_RENAMEAT] = { .nr = SYS_renameat, .spec = SPEC(1, 0, 3, 2, N, N), .fspath = FSP_SRC0_TGT1,
		.args = { RES, A("olddirfd", ARG, 0, FD), A("oldpath", PATH, 0, STR),
		  A("newdirfd", ARG, 2, FD), A("newpath", PATH, 1, STR) } },
	[AS_SC_RENAMEAT2] = { .nr = SYS_renameat2, .spec = SPEC(1, 0, 3, 2, N, N), .fspath = FSP_SRC0_TGT1,
		.args = { RES, A("olddirfd", ARG, 0, FD), A("oldpath", PATH, 0, STR),
		  A("newdirfd", ARG, 2, FD), A("newpath", PATH, 1, STR), A32("flags", 4, RENAME) } },
	/* link: Falco's source is the new name, its target the existing file */
	[AS_SC_LINK] = { .nr = NR_X86(86), .spec = SPEC(0, C, 1, C, N, N), .fspath = FSP_SRC1_TGT0,
		.args = { RES, A("oldpath", PATH, 0, STR), A("newpath", PATH, 1, STR) } },
	[AS_SC_LINKAT] = { .nr = SYS_linkat, .spec = SPEC(1, 0, 3, 2, N, N), .fspath = FSP_SRC1_TGT0, .follow = FOL_IF_FOLLOW, .follow_arg = 4,
		.args = { RES, A("olddir", ARG, 0, FD), A("oldpath", PATH, 0, STR), A("newdir", ARG, 2, FD),
		  A("newpath", PATH, 1, STR), A32("flags", 4, AT) } },
	/* symlink: the target is the link's content (evt.arg.target as given);
	 * fs.path.target, as Falco's, is it made absolute from the cwd */
	[AS_SC_SYMLINK] = { .nr = NR_X86(88), .spec = SPEC(0, C, 1, C, N, N), .fspath = FSP_SRC1_TGT0, .follow = FOL_NONE,
		.args = { RES, A("target", STR, 0, STR), A("linkpath", PATH, 1, STR) } },
	[AS_SC_SYMLINKAT] = { .nr = SYS_symlinkat, .spec = SPEC(0, C, 2, 1, N, N), .fspath = FSP_SRC1_TGT0, .follow = FOL_NONE,
		.args = { RES, A("target", STR, 0, STR), A("linkdirfd", ARG, 1, FD),
		  A("linkpath", PATH, 1, STR) } },
	[AS_SC_UNLINK] = { .nr = NR_X86(87), .spec = SPEC(0, C, N, N, N, N), .fspath = FSP_NAME0,
		.args = { RES, A("path", PATH, 0, STR) } },
	[AS_SC_UNLINKAT] = { .nr = SYS_unlinkat, .spec = SPEC(1, 0, N, N, N, N), .fspath = FSP_NAME0,
		.args = { RES, A("dirfd", ARG, 0, FD), A("name", PATH, 0, STR), A32("flags", 2, AT) } },
	[AS_SC_RMDIR] = { .nr = NR_X86(84), .spec = SPEC(0, C, N, N, N, N), .fspath = FSP_NAME0,
		.args = { RES, A("path", PATH, 0, STR) } },
	[AS_SC_MKDIR] = { .nr = NR_X86(83), .spec = SPEC(0, C, N, N, N, N), .fspath = FSP_NAME0,
		.args = { RES, A("path", PATH, 0, STR), MODE("mode", 1) } },
	[AS_SC_MKDIRAT] = { .nr = SYS_mkdirat, .spec = SPEC(1, 0, N, N, N, N), .fspath = FSP_NAME0,
		.args = { RES, A("dirfd", ARG, 0, FD), A("path", PATH, 0, STR), MODE("mode", 2) } },
	[AS_SC_MKNOD] = { .nr = NR_X86(133), .spec = SPEC(0, C, N, N, N, N), .fspath = FSP_NAME0,
		.args = { RES, A("path", PATH, 0, STR), MODE("mode", 1), A32("dev", 2, HEX) } },
	[AS_SC_MKNODAT] = { .nr = SYS_mknodat, .spec = SPEC(1, 0, N, N, N, N), .fspath = FSP_NAME0,
		.args = { RES, A("dirfd", ARG, 0, FD), A("path", PATH, 0, STR), MODE("mode", 2),
		  A32("dev", 3, HEX) } },
	[AS_SC_CHMOD] = { .nr = NR_X86(90), .spec = SPEC(0, C, N, N, N, N), .fspath = FSP_NAME0, .follow = FOL_YES,
		.args = { RES, A("filename", PATH, 0, STR), MODE("mode", 1) } },
	[AS_SC_FCHMOD] = { .nr = SYS_fchmod, .spec = SPEC(N, N, N, N, 0, N), .fspath = FSP_NAME0,
		.args = { RES, A("fd", ARG, 0, FD), MODE("mode", 1) } },
	[AS_SC_FCHMODAT] = { .nr = SYS_fchmodat, .spec = SPEC(1, 0, N, N, N, N), .fspath = FSP_NAME0, .follow = FOL_YES,
		.args = { RES, A("dirfd", ARG, 0, FD), A("filename", PATH, 0, STR), MODE("mode", 2) } },
	[AS_SC_FCHMODAT2] = { .nr = SYS_fchmodat2, .spec = SPEC(1, 0, N, N, N, N), .fspath = FSP_NAME0, .follow = FOL_UNLESS_NOFOLLOW, .follow_arg = 3,
		.args = { RES, A("dirfd", ARG, 0, FD), A("filename", PATH, 0, STR), MODE("mode", 2),
		  A32("flags", 3, AT) } },
	[AS_SC_CHOWN] = { .nr = NR_X86(92), .spec = SPEC(0, C, N, N, N, N), .fspath = FSP_NAME0, .follow = FOL_YES,
		.args = { RES, A("path", PATH, 0, STR), A("uid", ARG, 1, ID), A("gid", ARG, 2, ID) } },
	[AS_SC_FCHOWN] = { .nr = SYS_fchown, .spec = SPEC(N, N, N, N, 0, N), .fspath = FSP_NAME0,
		.args = { RES, A("fd", ARG, 0, FD), A("uid", ARG, 1, ID), A("gid", ARG, 2, ID) } },
	[AS_SC_LCHOWN] = { .nr = NR_X86(94), .spec = SPEC(0, C, N, N, N, N), .fspath = FSP_NAME0,
		.args = { RES, A("path", PATH, 0, STR), A("uid", ARG, 1, ID), A("gid", ARG, 2, ID) } },
	[AS_SC_FCHOWNAT] = { .nr = SYS_fchownat, .spec = SPEC(1, 0, N, N, N, N), .fspath = FSP_NAME0, .follow = FOL_UNLESS_NOFOLLOW, .follow_arg = 4,
		.args = { RES, A("dirfd", ARG, 0, FD), A("pathname", PATH, 0, STR), A("uid", ARG, 2, ID),
		  A("gid", ARG, 3, ID), A32("flags", 4, AT) } },
	[AS_SC_TRUNCATE] = { .nr = SYS_truncate, .spec = SPEC(0, C, N, N, N, N), .fspath = FSP_NAME0, .follow = FOL_YES,
		.args = { RES, A("path", PATH, 0, STR), A("length", ARG, 1, DEC) } },
	[AS_SC_FTRUNCATE] = { .nr = SYS_ftruncate, .spec = SPEC(N, N, N, N, 0, N), .fspath = FSP_NAME0,
		.args = { RES, A("fd", ARG, 0, FD), A("length", ARG, 1, DEC) } },
	[AS_SC_SETXATTR] = { .nr = SYS_setxattr, .spec = SPEC(0, C, 1, N, N, N), .fspath = FSP_NAME0, .follow = FOL_YES,
		.args = { RES, A("path", PATH, 0, STR), A("name", STR, 1, STR), A("size", ARG, 3, DEC),
		  A32("flags", 4, HEX) } },
	[AS_SC_LSETXATTR] = { .nr = SYS_lsetxattr, .spec = SPEC(0, C, 1, N, N, N), .fspath = FSP_NAME0,
		.args = { RES, A("path", PATH, 0, STR), A("name", STR, 1, STR), A("size", ARG, 3, DEC),
		  A32("flags", 4, HEX) } },
	[AS_SC_FSETXATTR] = { .nr = SYS_fsetxattr, .spec = SPEC(N, N, 1, N, 0, N), .fspath = FSP_NAME0,
		.args = { RES, A("fd", ARG, 0, FD), A("name", STR, 1, STR), A("size", ARG, 3, DEC),
		  A32("flags", 4, HEX) } },
	[AS_SC_REMOVEXATTR] = { .nr = SYS_removexattr, .spec = SPEC(0, C, 1, N, N, N), .fspath = FSP_NAME0, .follow = FOL_YES,
		.args = { RES, A("path", PATH, 0, STR), A("name", STR, 1, STR) } },
	[AS_SC_LREMOVEXATTR] = { .nr = SYS_lremovexattr, .spec = SPEC(0, C, 1, N, N, N), .fspath = FSP_NAME0,
		.args = { RES, A("path", PATH, 0, STR), A("name", STR, 1, STR) } },
	[AS_SC_FREMOVEXATTR] = { .nr = SYS_fremovexattr, .spec = SPEC(N, N, 1, N, 0, N), .fspath = FSP_NAME0,
		.args = { RES, A("fd", ARG, 0, FD), A("name", STR, 1, STR) } },
	/* (dirfd, path, at_flags, name, struct xattr_args *, size): AT_EMPTY_PATH
	 * with "" acts on dirfd itself, the empty string joined to it; size is
	 * the value's, from xattr_args */
	[AS_SC_SETXATTRAT] = { .nr = SYS_setxattrat, .spec = SPEC(1, 0, 3, N, N, N), .fspath = FSP_NAME0, .follow = FOL_UNLESS_NOFOLLOW, .follow_arg = 2,
		.args = { RES, A("dirfd", ARG, 0, FD), A("path", PATH, 0, STR), A("name", STR, 1, STR),
		  A("size", EXTRA, 0, DEC), A32("flags", 2, AT) } },
	[AS_SC_REMOVEXATTRAT] = { .nr = SYS_removexattrat, .spec = SPEC(1, 0, 3, N, N, N), .fspath = FSP_NAME0, .follow = FOL_UNLESS_NOFOLLOW, .follow_arg = 2,
		.args = { RES, A("dirfd", ARG, 0, FD), A("path", PATH, 0, STR), A("name", STR, 1, STR),
		  A32("flags", 2, AT) } },
	/* (dirfd, path, struct file_attr *, size, at_flags): the inode flags
	 * chattr sets (immutable, append-only, ...) */
	[AS_SC_FILE_SETATTR] = { .nr = SYS_file_setattr, .spec = SPEC(1, 0, N, N, N, N), .fspath = FSP_NAME0, .follow = FOL_UNLESS_NOFOLLOW, .follow_arg = 4,
		.args = { RES, A("dirfd", ARG, 0, FD), A("path", PATH, 0, STR), A("size", ARG, 3, DEC),
		  A32("flags", 4, AT) } },
	/* a NULL path works on the dirfd itself: the empty string joins to it */
	[AS_SC_UTIMENSAT] = { .nr = SYS_utimensat, .spec = SPEC(1, 0, N, N, N, N), .fspath = FSP_NAME0, .follow = FOL_UNLESS_NOFOLLOW, .follow_arg = 3,
		.args = { RES, A("dirfd", ARG, 0, FD), A("path", PATH, 0, STR), A32("flags", 3, AT) } },
	[AS_SC_UTIMES] = { .nr = NR_X86(235), .spec = SPEC(0, C, N, N, N, N), .fspath = FSP_NAME0, .follow = FOL_YES,
		.args = { RES, A("path", PATH, 0, STR) } },
	[AS_SC_UTIME] = { .nr = NR_X86(132), .spec = SPEC(0, C, N, N, N, N), .fspath = FSP_NAME0, .follow = FOL_YES,
		.args = { RES, A("path", PATH, 0, STR) } },
	[AS_SC_FUTIMESAT] = { .nr = NR_X86(261), .spec = SPEC(1, 0, N, N, N, N), .fspath = FSP_NAME0,
		.args = { RES, A("dirfd", ARG, 0, FD), A("path", PATH, 0, STR) } },

	/* ---- privilege, isolation, code, cwd (AS_EV_SYS) ---- */
	[AS_SC_UNSHARE] = { .nr = SYS_unshare, .spec = NOSPEC, .fspath = FSP_NONE,
 .args = { RES, A("flags", ARG, 0, CLONE) } },
	[AS_SC_SETNS] = { .nr = SYS_setns, .spec = SPEC(N, N, N, N, 0, N), .fspath = FSP_NONE,
		.args = { RES, A("fd", ARG, 0, FD), A32("nstype", 1, CLONE), A("ns", PATH, 0, STR) } },
	[AS_SC_PTRACE] = { .nr = SYS_ptrace, .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { RES, A("request", ARG, 0, PTRACE), A("pid", ARG, 1, INT), A("addr", ARG, 2, HEX),
		  A("data", ARG, 3, HEX), KIN_ARGS } },
	[AS_SC_MOUNT] = { .nr = SYS_mount, .spec = SPEC(0, N, 1, C, N, 2), .fspath = FSP_SRC0_TGT1,
		.follow = FOL_NONE, .follow1 = FOL_YES,
		.args = { RES, A("dev", STR, 0, STR), A("dir", PATH, 1, STR), A("type", AUX, 0, STR),
		  A("flags", ARG, 3, MOUNT) } },
	[AS_SC_UMOUNT2] = { .nr = SYS_umount2, .spec = SPEC(0, C, N, N, N, N), .fspath = FSP_NAME0,
		.follow = FOL_UNLESS_NOFOLLOW, .follow_arg = 1, .follow_bit = UMOUNT_NOFOLLOW_BIT,
		.args = { RES, A("name", PATH, 0, STR), A32("flags", 1, UMOUNT) }, .tp = "umount" },
	[AS_SC_FSOPEN] = { .nr = SYS_fsopen, .spec = SPEC(N, N, N, N, N, 0), .fspath = FSP_NONE,
		.args = { RES, A("fsname", AUX, 0, STR), A32("flags", 1, HEX) } },
	[AS_SC_FSMOUNT] = { .nr = SYS_fsmount, .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { RES, A("fs_fd", ARG, 0, FD), A32("flags", 1, HEX), A32("attr_flags", 2, HEX) } },
	[AS_SC_MOVE_MOUNT] = { .nr = SYS_move_mount, .spec = SPEC(1, 0, 3, 2, N, N), .fspath = FSP_SRC0_TGT1,
		.follow = FOL_IF_FOLLOW, .follow_arg = 4, .follow_bit = MOVE_MOUNT_F_SYMLINKS_BIT,
		.follow1 = FOL_IF_FOLLOW, .follow1_bit = MOVE_MOUNT_T_SYMLINKS_BIT,
		.args = { RES, A("from_dfd", ARG, 0, FD), A("from_pathname", PATH, 0, STR),
		  A("to_dfd", ARG, 2, FD), A("to_pathname", PATH, 1, STR), A32("flags", 4, HEX) } },
	[AS_SC_OPEN_TREE] = { .nr = SYS_open_tree, .spec = SPEC(1, 0, N, N, N, N), .fspath = FSP_NAME0,
		.follow = FOL_UNLESS_NOFOLLOW, .follow_arg = 2,
		.args = { RES, A("dfd", ARG, 0, FD), A("filename", PATH, 0, STR), A32("flags", 2, HEX) } },
	/* a mount's filesystem picked for reconfiguration, then its
	 * parameters set (fsconfig: the key, and the value when a string) */
	[AS_SC_FSPICK] = { .nr = SYS_fspick, .spec = SPEC(1, 0, N, N, N, N), .fspath = FSP_NAME0,
		.follow = FOL_UNLESS_NOFOLLOW, .follow_arg = 2, .follow_bit = FSPICK_SYMLINK_NOFOLLOW_BIT,
		.args = { RES, A("dfd", ARG, 0, FD), A("path", PATH, 0, STR), A32("flags", 2, HEX) } },
	[AS_SC_FSCONFIG] = { .nr = SYS_fsconfig, .spec = SPEC(3, N, 2, N, N, N), .fspath = FSP_NONE,
		.args = { RES, A("fd", ARG, 0, FD), A32("cmd", 1, DEC), A("key", STR, 1, STR),
		  A("value", STR, 0, STR), A32("aux", 4, INT) } },
	/* open_tree with the new mount's attributes (struct mount_attr) */
	[AS_SC_OPEN_TREE_ATTR] = { .nr = SYS_open_tree_attr, .spec = SPEC(1, 0, N, N, N, N), .fspath = FSP_NAME0,
		.follow = FOL_UNLESS_NOFOLLOW, .follow_arg = 2,
		.args = { RES, A("dfd", ARG, 0, FD), A("filename", PATH, 0, STR), A32("flags", 2, HEX),
		  A("size", ARG, 4, DEC) } },
	/* process accounting on: the kernel appends a record to path at every
	 * exit; a NULL path turns it off */
	[AS_SC_ACCT] = { .nr = SYS_acct, .spec = SPEC(0, C, N, N, N, N), .fspath = FSP_NAME0, .follow = FOL_YES,
		.args = { RES, A("path", PATH, 0, STR) } },
	[AS_SC_MOUNT_SETATTR] = { .nr = SYS_mount_setattr, .spec = SPEC(1, 0, N, N, N, N), .fspath = FSP_NAME0,
		.follow = FOL_UNLESS_NOFOLLOW, .follow_arg = 2,
		.args = { RES, A("dfd", ARG, 0, FD), A("path", PATH, 0, STR), A32("flags", 2, HEX) } },
	[AS_SC_PIVOT_ROOT] = { .nr = SYS_pivot_root, .spec = SPEC(0, C, 1, C, N, N), .fspath = FSP_SRC0_TGT1,
		.follow = FOL_YES, .follow1 = FOL_YES,
		.args = { RES, A("new_root", PATH, 0, STR), A("put_old", PATH, 1, STR) } },
	[AS_SC_CHROOT] = { .nr = SYS_chroot, .spec = SPEC(0, C, N, N, N, N), .fspath = FSP_NAME0, .follow = FOL_YES,
		.args = { RES, A("path", PATH, 0, STR) } },
	[AS_SC_INIT_MODULE] = { .nr = SYS_init_module, .spec = SPEC(N, N, 2, N, N, N), .fspath = FSP_NONE,
		.args = { RES, A("length", ARG, 1, DEC), A("uargs", STR, 1, STR) } },
	[AS_SC_FINIT_MODULE] = { .nr = SYS_finit_module, .spec = SPEC(N, N, 1, N, 0, N), .fspath = FSP_NAME0,
		.args = { RES, A("fd", ARG, 0, FD), A("uargs", STR, 1, STR), A32("flags", 2, HEX) } },
	[AS_SC_DELETE_MODULE] = { .nr = SYS_delete_module, .spec = SPEC(0, N, N, N, N, N), .fspath = FSP_NONE,
		.args = { RES, A("name", STR, 0, STR), A32("flags", 1, HEX) } },
	[AS_SC_KEXEC_LOAD] = { .nr = SYS_kexec_load, .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { RES, A("entry", ARG, 0, HEX), A("nr_segments", ARG, 1, DEC), A("flags", ARG, 3, HEX) } },
	[AS_SC_KEXEC_FILE_LOAD] = { .nr = SYS_kexec_file_load, .spec = SPEC(N, N, N, N, 0, N), .fspath = FSP_NAME0,
		.args = { RES, A("kernel_fd", ARG, 0, FD), A("initrd_fd", ARG, 1, FD),
		  A("flags", ARG, 4, HEX) } },
	/* Falco prints the command as a number; "type" (the map or program type) is ours */
	[AS_SC_BPF] = { .nr = SYS_bpf, .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { A("fd", RES, 0, DEC), A32("cmd", 0, DEC), A32("cmd_name", 0, BPF_CMD),
		  A("type", EXTRA, 0, DEC), RES } },
	[AS_SC_PERF_EVENT_OPEN] = { .nr = SYS_perf_event_open, .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { RES, A("pid", ARG, 1, INT), A("cpu", ARG, 2, INT), A("group_fd", ARG, 3, FD),
		  A("flags", ARG, 4, HEX), A("type", EXTRA, 0, DEC) } },
	[AS_SC_PRCTL] = { .nr = SYS_prctl, .spec = SPEC(N, N, N, N, N, 1), .fspath = FSP_NONE,
		.args = { RES, A32("option", 0, PRCTL), A("arg2_str", AUX, 0, STR),
		  A("arg2_int", ARG, 1, DEC) } },
	[AS_SC_MEMFD_CREATE] = { .nr = SYS_memfd_create, .spec = SPEC(0, N, N, N, N, N), .fspath = FSP_NONE,
		.args = { A("fd", RES, 0, DEC), A("name", STR, 0, STR), A32("flags", 1, MEMFD), RES } },
	[AS_SC_IO_URING_SETUP] = { .nr = SYS_io_uring_setup, .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { RES, A32("entries", 0, UDEC), A("flags", EXTRA, 0, URING_SETUP) } },
	[AS_SC_CHDIR] = { .nr = SYS_chdir, .spec = SPEC(0, C, N, N, N, N), .fspath = FSP_NONE, .follow = FOL_YES,
		.args = { RES, A("path", PATH, 0, STR) } },
	[AS_SC_FCHDIR] = { .nr = SYS_fchdir, .spec = SPEC(N, N, N, N, 0, N), .fspath = FSP_NONE,
		.args = { RES, A("fd", ARG, 0, FD), A("path", PATH, 0, STR) } },
	[AS_SC_SETSID] = { .nr = SYS_setsid, .spec = NOSPEC, .fspath = FSP_NONE,
 .args = { RES } },
	[AS_SC_PROCESS_VM_WRITEV] = { .nr = SYS_process_vm_writev, .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { RES, A("pid", ARG, 0, INT), KIN_ARGS } },
	[AS_SC_PROCESS_VM_READV] = { .nr = SYS_process_vm_readv, .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { RES, A("pid", ARG, 0, INT), KIN_ARGS } },
	[AS_SC_PIDFD_GETFD] = { .nr = SYS_pidfd_getfd, .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { A("fd", RES, 0, DEC), A("pid_fd", ARG, 0, FD), A("target_fd", ARG, 1, FD),
		  A32("flags", 2, HEX), RES } },
	[AS_SC_IOPL] = { .nr = NR_X86(172), .spec = NOSPEC, .fspath = FSP_NONE,
 .args = { RES, A32("level", 0, UDEC) } },
	[AS_SC_IOPERM] = { .nr = NR_X86(173), .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { RES, A("from", ARG, 0, HEX), A("num", ARG, 1, DEC), A32("turn_on", 2, DEC) } },
	/* The host's own state: its names, its clock, its power, its swap,
	 * its kernel log (syslog's type: SYSLOG_ACTION_*; its buffer is not
	 * read), a file-access monitor of the caller's own (fanotify: the
	 * marks it watches, with permission events able to hold every open
	 * of a file or a filesystem), and the kernel's key store (keyctl's
	 * operation, add_key's and request_key's key type and description).
	 * sethostname's name is the len bytes the kernel takes (up to a NUL
	 * among them). "host_ns" says whether the call acts on the host's
	 * namespace: a name set in a UTS namespace of the caller's own, and a
	 * reboot in a pid namespace of its own (which only ends that
	 * namespace's init), change nothing of the host. adjtimex's and
	 * clock_adjtime's "modes" is the struct timex's first field (0: the
	 * clock is only read) */
	[AS_SC_SETHOSTNAME] = { .nr = SYS_sethostname, .spec = SPEC(0, N, N, N, N, N), .fspath = FSP_NONE,
		.args = { RES, STRN("name", 0, 1), A32("len", 1, INT), A("host_ns", EXTRA, 0, BOOL) } },
	[AS_SC_SETDOMAINNAME] = { .nr = SYS_setdomainname, .spec = SPEC(0, N, N, N, N, N), .fspath = FSP_NONE,
		.args = { RES, STRN("name", 0, 1), A32("len", 1, INT), A("host_ns", EXTRA, 0, BOOL) } },
	[AS_SC_SETTIMEOFDAY] = { .nr = SYS_settimeofday, .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { RES, A("tv", ARG, 0, HEX), A("tz", ARG, 1, HEX) } },
	[AS_SC_CLOCK_SETTIME] = { .nr = SYS_clock_settime, .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { RES, A32("which_clock", 0, INT), A("tp", ARG, 1, HEX) } },
	[AS_SC_ADJTIMEX] = { .nr = SYS_adjtimex, .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { RES, A("modes", EXTRA, 0, HEX) } },
	[AS_SC_CLOCK_ADJTIME] = { .nr = SYS_clock_adjtime, .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { RES, A32("which_clock", 0, INT), A("modes", EXTRA, 0, HEX) } },
	[AS_SC_REBOOT] = { .nr = SYS_reboot, .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { RES, A32("magic1", 0, HEX32), A32("magic2", 1, HEX32), A32("cmd", 2, REBOOT),
		  A("host_ns", EXTRA, 0, BOOL) } },
	[AS_SC_SWAPON] = { .nr = SYS_swapon, .spec = SPEC(0, C, N, N, N, N), .fspath = FSP_NAME0, .follow = FOL_YES,
		.args = { RES, A("path", PATH, 0, STR), A32("swapflags", 1, HEX) } },
	[AS_SC_SWAPOFF] = { .nr = SYS_swapoff, .spec = SPEC(0, C, N, N, N, N), .fspath = FSP_NAME0, .follow = FOL_YES,
		.args = { RES, A("path", PATH, 0, STR) } },
	[AS_SC_SYSLOG] = { .nr = SYS_syslog, .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { RES, A32("type", 0, SYSLOG), A32("len", 2, INT) } },
	[AS_SC_FANOTIFY_INIT] = { .nr = SYS_fanotify_init, .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { A("fd", RES, 0, DEC), A32("flags", 0, HEX), A32("event_f_flags", 1, OPEN), RES } },
	/* the marked object: pathname under dirfd (NULL: dirfd itself) */
	[AS_SC_FANOTIFY_MARK] = { .nr = SYS_fanotify_mark, .spec = SPEC(4, 3, N, N, N, N), .fspath = FSP_NAME0,
		.follow = FOL_UNLESS_NOFOLLOW, .follow_arg = 1, .follow_bit = FAN_MARK_DONT_FOLLOW_BIT,
		.args = { RES, A32("fd", 0, FD), A32("flags", 1, HEX), A("mask", ARG, 2, HEX),
		  A32("dirfd", 3, FD), A("path", PATH, 0, STR) } },
	[AS_SC_KEYCTL] = { .nr = SYS_keyctl, .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { RES, A32("operation", 0, KEYCTL), A("arg2", ARG, 1, DEC), A("arg3", ARG, 2, DEC) } },
	[AS_SC_ADD_KEY] = { .nr = SYS_add_key, .spec = SPEC(0, N, 1, N, N, N), .fspath = FSP_NONE,
		.args = { RES, A("type", STR, 0, STR), A("description", STR, 1, STR),
		  A("plen", ARG, 3, DEC), A32("keyring", 4, INT) } },
	[AS_SC_REQUEST_KEY] = { .nr = SYS_request_key, .spec = SPEC(0, N, 1, N, N, N), .fspath = FSP_NONE,
		.args = { RES, A("type", STR, 0, STR), A("description", STR, 1, STR),
		  A32("dest_keyring", 3, INT) } },
	/* Falco's userfaultfd event: res, flags (O_CLOEXEC, O_NONBLOCK, UFFD_USER_MODE_ONLY);
	 * the flags print as a number here */
	[AS_SC_USERFAULTFD] = { .nr = SYS_userfaultfd, .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { RES, A32("flags", 0, HEX) } },
	/* Falco's ioctl event: res, fd, request, argument. Only the requests
	 * that push input into a terminal (TIOCSTI, TIOCLINUX) and those that
	 * set a file's inode flags (chattr), and FIOSETOWN and SIOCSPGRP (as
	 * fcntl's F_SETOWN; "owner" is the pid they pass), the network's
	 * socket requests and RTC_SET_TIME (the hardware clock), picked in the kernel by the raw
	 * sys_exit program (bpf/compat.bpf.c); fs.path.name is the terminal or file */
	[AS_SC_IOCTL] = { .nr = SYS_ioctl, .spec = SPEC(N, N, N, N, 0, N), .fspath = FSP_NAME0,
		.via = VIA_RAW,
		.args = { RES, A("fd", ARG, 0, FD), A("request", ARG, 1, HEX32),
		  A("argument", ARG, 2, HEX), A("path", PATH, 0, STR), A("owner", EXTRA, 0, INT) } },
	/* Falco's fcntl event: res, fd, cmd. Only F_SETOWN and F_SETOWN_EX,
	 * picked in the kernel by the raw sys_exit program: they name the
	 * process or group the kernel signals on the file's I/O, SIGIO or
	 * what F_SETSIG chose (SIGKILL too): a signal with no kill() call.
	 * "arg": F_SETOWN's pid (a group: negative); "owner_ex": F_SETOWN_EX's struct f_owner_ex
	 * (type F_OWNER_TID, F_OWNER_PID or F_OWNER_PGRP, then pid) */
	[AS_SC_FCNTL] = { .nr = SYS_fcntl, .spec = SPEC(N, N, N, N, 0, N), .fspath = FSP_NAME0,
		.via = VIA_RAW,
		.args = { RES, A32("fd", 0, FD), A32("cmd", 1, FCNTL_CMD), A32("arg", 2, INT),
		  A("owner_ex", EXTRA, 0, HEX), A("path", PATH, 0, STR) } },
	/* Falco's mmap, mprotect (and pkey_mprotect) events, only when they make
	 * the pages of a file with no link code (PROT_EXEC): a memfd, an
	 * O_TMPFILE, a deleted file. Picked by the raw sys_exit program;
	 * "path" is that file (mprotect's: the mapping's at addr), failed calls
	 * too (fs.path.name: successful ones). mmap's offset is left out */
	[AS_SC_MMAP] = { .nr = SYS_mmap, .spec = SPEC(N, N, N, N, 4, N), .fspath = FSP_NAME0,
		.via = VIA_RAW,
		.args = { RES, A("addr", ARG, 0, HEX), A("length", ARG, 1, DEC), A32("prot", 2, PROT),
		  A32("flags", 3, MMAP), A32("fd", 4, FD), A("path", PATH, 0, STR) } },
	[AS_SC_MPROTECT] = { .nr = SYS_mprotect, .spec = NOSPEC, .fspath = FSP_NAME0,
		.via = VIA_RAW,
		.args = { RES, A("addr", ARG, 0, HEX), A("length", ARG, 1, DEC), A32("prot", 2, PROT),
		  A("path", PATH, 0, STR) } },
	[AS_SC_PKEY_MPROTECT] = { .nr = SYS_pkey_mprotect, .spec = NOSPEC, .fspath = FSP_NAME0,
		.via = VIA_RAW,
		.args = { RES, A("addr", ARG, 0, HEX), A("length", ARG, 1, DEC), A32("prot", 2, PROT),
		  A32("pkey", 3, INT), A("path", PATH, 0, STR) } },
	/* Signals, and the pidfd a signal can later go through: a tree that
	 * stops or ends another process (agent-sentinel among them) does it
	 * here. Falco's kill and tkill events: pid or tid, sig; tgkill: pid,
	 * tid, sig; pidfd_open: fd, pid, flags. pidfd_send_signal's "pidfd" is
	 * also a /proc/<pid> directory: its file is "pidfd_file". */
	[AS_SC_KILL] = { .nr = SYS_kill, .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { RES, A32("pid", 0, INT), A32("sig", 1, SIGNAL) } },
	[AS_SC_TKILL] = { .nr = SYS_tkill, .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { RES, A32("tid", 0, INT), A32("sig", 1, SIGNAL) } },
	[AS_SC_TGKILL] = { .nr = SYS_tgkill, .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { RES, A32("pid", 0, INT), A32("tid", 1, INT), A32("sig", 2, SIGNAL) } },
	[AS_SC_RT_SIGQUEUEINFO] = { .nr = SYS_rt_sigqueueinfo, .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { RES, A32("pid", 0, INT), A32("sig", 1, SIGNAL) } },
	[AS_SC_RT_TGSIGQUEUEINFO] = { .nr = SYS_rt_tgsigqueueinfo, .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { RES, A32("pid", 0, INT), A32("tid", 1, INT), A32("sig", 2, SIGNAL) } },
	[AS_SC_PIDFD_OPEN] = { .nr = SYS_pidfd_open, .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { A("fd", RES, 0, DEC), A32("pid", 0, INT), A32("flags", 1, HEX), RES } },
	[AS_SC_PIDFD_SEND_SIGNAL] = { .nr = SYS_pidfd_send_signal, .spec = SPEC(N, N, N, N, 0, N), .fspath = FSP_NONE,
		.args = { RES, A32("pidfd", 0, FD), A32("sig", 1, SIGNAL), A32("flags", 3, HEX),
		  A("pidfd_file", PATH, 0, STR) } },
	/* Another process's limits and scheduling: what starves or ends it
	 * without a signal call (RLIMIT_CPU's SIGXCPU then SIGKILL, SCHED_IDLE,
	 * the idle I/O class). Falco's prlimit: pid, resource (its exit's new
	 * limits are read from user memory: "new_limit" is the pointer, 0 for
	 * a read); setpriority: which, who, prio. */
	[AS_SC_PRLIMIT64] = { .nr = SYS_prlimit64, .spec = NOSPEC, .fspath = FSP_NONE, .tp = "prlimit64",
		.args = { RES, A32("pid", 0, INT), A32("resource", 1, RLIMIT), A("new_limit", ARG, 2, HEX) } },
	[AS_SC_SETPRIORITY] = { .nr = SYS_setpriority, .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { RES, A32("which", 0, DEC), A32("who", 1, INT), A32("prio", 2, INT) } },
	[AS_SC_SCHED_SETSCHEDULER] = { .nr = SYS_sched_setscheduler, .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { RES, A32("pid", 0, INT), A32("policy", 1, DEC) } },
	[AS_SC_SCHED_SETATTR] = { .nr = SYS_sched_setattr, .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { RES, A32("pid", 0, INT), A32("flags", 2, HEX) } },
	[AS_SC_IOPRIO_SET] = { .nr = SYS_ioprio_set, .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { RES, A32("which", 0, DEC), A32("who", 1, INT), A32("ioprio", 2, HEX) } },
	/* its CPUs: pinned to one the agent keeps busy, it falls behind and the
	 * ring buffer drops what follows; cpusetsize, the mask's bytes */
	[AS_SC_SCHED_SETAFFINITY] = { .nr = SYS_sched_setaffinity, .spec = NOSPEC, .fspath = FSP_NONE,
		.args = { RES, A32("pid", 0, INT), A32("cpusetsize", 1, DEC), A("mask", ARG, 2, HEX) } },
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

int64_t sctable_arg_value(const struct sc_arg *a, uint64_t raw)
{
	int sign = a->fmt == FMT_DEC || a->fmt == FMT_INT || a->fmt == FMT_FD;

	switch (a->width) {
	case 4:
		return sign ? (int64_t)(int32_t)(uint32_t)raw : (int64_t)(uint32_t)raw;
	case 2:
		return sign ? (int64_t)(int16_t)(uint16_t)raw : (int64_t)(uint16_t)raw;
	default:
		return (int64_t)raw;
	}
}

int sctable_arg_known(const char *name)
{
	for (unsigned sc = 0; sc < AS_SC_MAX; sc++)
		if (sctable_arg(sc, name))
			return 1;
	return 0;
}
