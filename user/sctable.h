/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The syscall table: for every syscall agent-sentinel traces, its number on
 * this architecture, which of its arguments the kernel's generic exit
 * program reads (struct as_sys_spec, for AS_EV_FILE and AS_EV_SYS), and its
 * arguments as Falco's event table names them (evt.arg.NAME), each with
 * where its value is in the record and how it prints. The loader writes the
 * specs into the kernel and attaches sys_exit_NAME of each row; the field
 * extractors and --trace print the arguments from it. A new syscall is one
 * row here and one in AS_SYSCALL_LIST (bpf/events.h).
 */
#ifndef AS_SCTABLE_H
#define AS_SCTABLE_H

#include <stddef.h>
#include <stdint.h>
#include "abi.h"

#define SCTABLE_ARGS_MAX 7 /* named arguments of one syscall (Falco's have up to 7 here) */

/* where an argument's value is */
enum sc_src {
	SRC_NONE,
	SRC_ARG, /* as_sys.arg[idx] (generic record), or the syscall's raw argument idx */
	SRC_PATH, /* slot idx: the absolute, normalised path */
	SRC_STR, /* slot idx: the string as passed */
	SRC_AUX, /* as_sys.aux */
	SRC_EXTRA, /* as_sys.extra; FMT_BOOL: its bit idx */
	SRC_RES, /* the result */
};

/* how it prints */
enum sc_fmt {
	FMT_DEC, /* signed decimal */
	FMT_UDEC, /* unsigned decimal (uids print -1 as 4294967295? no: see FMT_ID) */
	FMT_ID, /* a uid/gid: -1 (unchanged) prints -1 */
	FMT_FD, /* a file descriptor: signed 32 bits; AT_FDCWD prints -100 */
	FMT_INT, /* an int argument (a pid, a cpu): signed 32 bits */
	FMT_HEX,
	FMT_HEX32, /* the low 32 bits in hex: an unsigned int the kernel takes from a long register (ioctl's cmd) */
	FMT_OCT, /* a mode */
	FMT_STR,
	FMT_CLONE, /* CLONE_* names joined by '|' */
	FMT_OPEN, /* O_* names */
	FMT_RENAME, /* RENAME_* */
	FMT_AT, /* AT_* of unlinkat, linkat, fchownat, ... */
	FMT_MOUNT, /* mount(2) flags, without MS_ as Falco prints them */
	FMT_UMOUNT,
	FMT_PTRACE, /* a PTRACE_* request */
	FMT_PRCTL, /* a PR_* option */
	FMT_FAMILY, /* AF_* */
	FMT_SOCKTYPE, /* SOCK_* */
	FMT_MEMFD, /* MFD_* */
	FMT_PROT, /* PROT_* of mmap and mprotect */
	FMT_MMAP, /* MAP_* of mmap */
	FMT_URING_SETUP, /* IORING_SETUP_* */
	FMT_URING_OP, /* IORING_OP_* */
	FMT_MSG, /* MSG_* send flags */
	FMT_BPF_CMD, /* BPF_* command */
	FMT_RLIMIT, /* RLIMIT_* */
	FMT_SIGNAL, /* a signal: SIGKILL, SIGSTOP, ...; 0 and real-time ones as numbers */
	FMT_FCNTL_CMD, /* an F_* command of fcntl */
	FMT_REBOOT, /* a LINUX_REBOOT_CMD_* of reboot */
	FMT_SYSLOG, /* a SYSLOG_ACTION_* of syslog */
	FMT_KEYCTL, /* a KEYCTL_* operation */
	FMT_BOOL, /* true or false: nonzero or 0 */
	FMT_NLMSG, /* a netlink message type: (netlink family << 16) | nlmsg_type, named
		    * for rtnetlink (RTM_*) and nfnetlink's batches */
};

struct sc_arg {
	const char *name;
	uint8_t src; /* enum sc_src */
	uint8_t idx;
	uint8_t fmt; /* enum sc_fmt */
	/* SRC_ARG: the bytes of the register the kernel takes (4: an int or
	 * unsigned int, 2: a umode_t); 0: all of it. SRC_STR: 1 + the index
	 * of the argument that bounds the string's length (sethostname's len:
	 * the kernel copies that many bytes, NUL or not); 0: up to its NUL */
	uint8_t width;
};

/* what fs.path.* take from an event (Falco's sinsp_filtercheck_fspath) */
enum sc_fspath {
	FSP_NONE,
	FSP_NAME0, /* fs.path.name is slot 0 */
	FSP_SRC0_TGT1, /* source slot 0, target slot 1 (rename) */
	FSP_SRC1_TGT0, /* source slot 1, target slot 0 (link: the new name is the source) */
};

/* whether the syscall follows a symlink in a slot's last component
 * (user/pathres.c); every other component is always followed. Slot 1's
 * (follow1) is FOL_NO but for the mount calls': mount's and pivot_root's
 * target always, move_mount's with MOVE_MOUNT_T_SYMLINKS */
enum sc_follow {
	FOL_NO, /* rename, unlink, mkdir, lchown, l*xattr, ...; symlink's content is no walk at all */
	FOL_YES, /* chmod, chown, truncate, setxattr, utimes, ... */
	FOL_UNLESS_NOFOLLOW, /* unless AT_SYMLINK_NOFOLLOW in argument follow_arg */
	FOL_IF_FOLLOW, /* only with AT_SYMLINK_FOLLOW in argument follow_arg (linkat) */
	FOL_NONE, /* slot 0 is not resolved: symlink's target string (no walk), mount's source
		   (a device name or a bind's path, sent as written); slot 0 only */
};

/* which program makes a syscall's events */
enum sc_via {
	VIA_TP, /* its own sys_exit_NAME tracepoint (and the raw sys_exit program's 32-bit calls) */
	/* the raw sys_exit program alone (bpf/compat.bpf.c), for a few values
	 * of one argument: a call the host makes all the time gets no
	 * tracepoint of its own (ioctl: TIOCSTI and TIOCLINUX only) */
	VIA_RAW,
	/* sock:sock_send_length alone (bpf/net.bpf.c): only its netlink sends
	 * by a task that may change the network (write(2) of every other file
	 * makes no event) */
	VIA_SOCK_SEND,
};

struct sc_info {
	int nr; /* this architecture's syscall number; -1: none here */
	struct as_sys_spec spec; /* generic record only: what the kernel reads */
	uint8_t fspath; /* enum sc_fspath */
	uint8_t follow; /* enum sc_follow */
	uint8_t follow_arg; /* the flags argument of FOL_UNLESS_NOFOLLOW / FOL_IF_FOLLOW */
	uint8_t follow1; /* enum sc_follow of slot 1, with follow_arg's bit follow1_bit */
	uint8_t via; /* enum sc_via: the program that makes its events */
	struct sc_arg args[SCTABLE_ARGS_MAX];
	const char *tp; /* the tracepoint's name when it is not sys_exit_<name> */
	/* the bit of follow_arg that FOL_UNLESS_NOFOLLOW / FOL_IF_FOLLOW test;
	 * 0: AT_SYMLINK_NOFOLLOW / AT_SYMLINK_FOLLOW (fanotify_mark's is
	 * FAN_MARK_DONT_FOLLOW) */
	uint32_t follow_bit;
	uint32_t follow1_bit;
};

/* The row of syscall sc (enum as_syscall); never NULL for sc < AS_SC_MAX. */
const struct sc_info *sctable_get(unsigned sc);
/* Argument `name` of syscall sc, or NULL. */
const struct sc_arg *sctable_arg(unsigned sc, const char *name);
/* Argument a's value from its raw register as the kernel takes it: cut to
 * a->width bytes, sign-extended when its format is a signed one. A call
 * with a register's upper half set acts as without it, and its event
 * says what the kernel did. */
int64_t sctable_arg_value(const struct sc_arg *a, uint64_t raw);
/* Is `name` an argument of any syscall? */
int sctable_arg_known(const char *name);
/* The name of bit set or value v in format fmt into buf (names joined by
 * '|', the number when nothing is known); returns buf. */
const char *sctable_format(unsigned fmt, int64_t v, char *buf, size_t cap);
/* Whether a netlink message of this type, sent to the kernel on a socket of
 * this netlink family, asks it to change something (a link, an address, a
 * route, a firewall rule, an IPsec policy, a conntrack entry): 1, else 0
 * (reads, batch markers, families not known here). */
int sctable_nlmsg_change(unsigned family, unsigned type);
/* Does the generic exit program serve sc (AS_EV_FILE, AS_EV_SYS)? */
int sctable_generic(unsigned sc);

#endif /* AS_SCTABLE_H */
