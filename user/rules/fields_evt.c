// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* evt.arg.NAME and evt.arg[N]: the argument names each syscall's event
 * carries, and their values. Part of fields.c's translation unit (included
 * there, not compiled alone). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <linux/ioprio.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fields_int.h"
#include "trace.h"
#include "names.h"
#include "procscan.h"

static const char *const arg_names[] = {
	"name", "path", "filename", "flags", "mode", "fd", "dirfd", "res", "uid", "gid",
	"ruid", "euid", "suid", "rgid", "egid", "sgid", "tuple", "addr", "cap_effective",
	"cap_permitted", "cap_inheritable", "size", "backlog", "domain", "type", "proto",
	"pid", "version", "child_pid", "exe", "args", "dev", "ino", "status", "nlmsg_type",
	"nlmsg_flags", "nlmsg_change",
};

/*
 * The arguments each syscall's event carries, named and ordered as Falco's
 * event table names them (falcosecurity/libs driver/event_table.c: the exit
 * event's parameters, and the enter event's where only it has them): what
 * --trace shows of evt.arg.*. Every name is one fields_get_arg answers; the
 * others of arg_names are aliases rules may use.
 */
static const char *const evt_args[AS_SC_MAX][FIELDS_EVT_ARGS_MAX] = {
	[AS_SC_EXECVE] = { "res", "exe", "args", "filename" },
	[AS_SC_EXECVEAT] = { "res", "exe", "args", "filename" },
	[AS_SC_OPEN] = { "fd", "name", "flags", "mode", "dev", "ino" },
	[AS_SC_OPENAT] = { "fd", "dirfd", "name", "flags", "mode", "dev", "ino" },
	[AS_SC_OPENAT2] = { "fd", "dirfd", "name", "flags", "mode", "dev", "ino" },
	[AS_SC_CREAT] = { "fd", "name", "mode", "dev", "ino" },
	[AS_SC_CONNECT] = { "res", "tuple", "fd" },
	[AS_SC_SETUID] = { "res", "uid" },
	[AS_SC_SETGID] = { "res", "gid" },
	[AS_SC_SETREUID] = { "res", "ruid", "euid" },
	[AS_SC_SETREGID] = { "res", "rgid", "egid" },
	[AS_SC_SETRESUID] = { "res", "ruid", "euid", "suid" },
	[AS_SC_SETRESGID] = { "res", "rgid", "egid", "sgid" },
	[AS_SC_CAPSET] = { "res", "cap_inheritable", "cap_permitted", "cap_effective" },
	[AS_SC_CLONE] = { "res", "flags", "child_pid", "pid" },
	[AS_SC_CLONE3] = { "res", "flags", "child_pid", "pid" },
	[AS_SC_FORK] = { "res", "flags", "child_pid", "pid" },
	[AS_SC_VFORK] = { "res", "flags", "child_pid", "pid" },
	[AS_SC_PROCEXIT] = { "status" },
	[AS_SC_OPEN_BY_HANDLE_AT] = { "fd", "dirfd", "path", "flags" },
	[AS_SC_SETFSUID] = { "res", "uid" },
	[AS_SC_SETFSGID] = { "res", "gid" },
	[AS_SC_SETGROUPS] = { "res", "size" },
	[AS_SC_SENDTO] = { "res", "tuple", "fd", "flags", "nlmsg_type", "nlmsg_flags",
			   "nlmsg_change" },
	[AS_SC_SENDMSG] = { "res", "tuple", "fd", "flags", "nlmsg_type", "nlmsg_flags",
			    "nlmsg_change" },
	[AS_SC_SENDMMSG] = { "res", "tuple", "fd", "flags", "nlmsg_type", "nlmsg_flags",
			     "nlmsg_change" },
	[AS_SC_BIND] = { "res", "addr", "fd" },
	[AS_SC_LISTEN] = { "res", "fd", "backlog" },
	[AS_SC_ACCEPT] = { "res", "tuple", "fd" },
	[AS_SC_ACCEPT4] = { "res", "tuple", "fd", "flags" },
	[AS_SC_SOCKET] = { "res", "fd", "domain", "type", "proto", "flags" },
	[AS_SC_DUP] = { "res", "oldfd" },
	[AS_SC_DUP2] = { "res", "oldfd", "newfd" },
	[AS_SC_DUP3] = { "res", "oldfd", "newfd" },
	/* netlink sends only (the socket: fd, splice's fd_out) */
	[AS_SC_WRITE] = { "res", "fd", "nlmsg_type", "nlmsg_flags", "nlmsg_change" },
	[AS_SC_WRITEV] = { "res", "fd", "nlmsg_type", "nlmsg_flags", "nlmsg_change" },
	[AS_SC_PWRITEV2] = { "res", "fd", "nlmsg_type", "nlmsg_flags", "nlmsg_change" },
	[AS_SC_SENDFILE] = { "res", "fd", "nlmsg_type", "nlmsg_flags", "nlmsg_change" },
	[AS_SC_SPLICE] = { "res", "fd", "nlmsg_type", "nlmsg_flags", "nlmsg_change" },
};

/* Which of a netlink send's messages (struct as_connect, AS_CF_NLMSG) its
 * evt.arg.nlmsg_* show: the first that changes the kernel's state, else the
 * first. */
static size_t fields_nlmsg_pick(const struct as_connect *k)
{
	size_t n = k->dport < AS_NLMSG_SCAN ? k->dport : AS_NLMSG_SCAN;

	for (size_t i = 0; i < n; i++) {
		uint16_t t;

		memcpy(&t, &k->daddr[i * 2], sizeof(t));
		if (sctable_nlmsg_change(k->proto, t))
			return i;
	}
	return 0;
}

/* The syscalls of the generic record name theirs in the syscall table. */
const char *fields_evt_arg(unsigned sc, size_t i)
{
	if (sc >= AS_SC_MAX || i >= FIELDS_EVT_ARGS_MAX)
		return NULL;
	if (!evt_args[sc][0] && i < SCTABLE_ARGS_MAX)
		return sctable_get(sc)->args[i].name;
	return evt_args[sc][i];
}

/* evt.arg[N]: the call's Nth parameter in Falco's event table
 * (falcosecurity/libs driver/event_table.c): the enter event's order where
 * Falco's enter event carries the call's arguments (open, connect, socket,
 * the setid calls: Falco's rules index those, e.g. socket's evt.arg[0] is
 * the domain), else the exit event's, which the syscall table's rows follow
 * (rename: res, oldpath, newpath). Every event here is one exit event with
 * both; parameters agent-sentinel does not capture yield no value. */
#define ARGIDX_MAX SCTABLE_ARGS_MAX /* the longest row: sctable.h */
static const struct {
	unsigned sc;
	const char *names[ARGIDX_MAX];
} arg_order[] = {
	{ AS_SC_OPEN, { "name", "flags", "mode" } },
	{ AS_SC_OPENAT, { "dirfd", "name", "flags", "mode" } },
	{ AS_SC_OPENAT2, { "dirfd", "name", "flags", "mode" } },
	{ AS_SC_CREAT, { "name", "mode" } },
	{ AS_SC_CONNECT, { "fd", "addr" } },
	{ AS_SC_SOCKET, { "domain", "type", "proto" } },
	{ AS_SC_BIND, { "fd", "addr" } },
	{ AS_SC_LISTEN, { "fd", "backlog" } },
	{ AS_SC_SETUID, { "uid" } },
	{ AS_SC_SETGID, { "gid" } },
	{ AS_SC_SETRESUID, { "ruid", "euid", "suid" } },
	{ AS_SC_SETRESGID, { "rgid", "egid", "sgid" } },
	{ AS_SC_CAPSET, { "res", "cap_inheritable", "cap_permitted", "cap_effective" } },
};

/* "N" (decimal, no sign) -> N, else -1 */
static int arg_index(const char *arg)
{
	char *end;
	long n;

	if (!arg[0] || arg[0] < '0' || arg[0] > '9')
		return -1;
	n = strtol(arg, &end, 10);
	return *end || n >= ARGIDX_MAX ? -1 : (int)n;
}

/* The name of parameter N of syscall sc, or NULL. */
static const char *arg_name_at(unsigned sc, int n)
{
	for (size_t i = 0; i < sizeof(arg_order) / sizeof(arg_order[0]); i++)
		if (arg_order[i].sc == sc)
			return arg_order[i].names[n];
	return sctable_get(sc)->args[n].name;
}

int fields_arg_known(const char *arg)
{
	if (arg_index(arg) >= 0)
		return 1;
	for (size_t i = 0; i < sizeof(arg_names) / sizeof(arg_names[0]); i++)
		if (strcmp(arg_names[i], arg) == 0)
			return 1;
	return sctable_arg_known(arg);
}

int fields_lookup_dotted(const char *name, const char **arg)
{
	for (int i = 0; i < F_MAX; i++) {
		size_t n = strlen(fields_table[i].name);

		if ((fields_table[i].flags & FA_ARG) && !strncmp(name, fields_table[i].name, n) &&
		    name[n] == '.' && name[n + 1]) {
			*arg = name + n + 1;
			return i;
		}
	}
	return -1;
}

static int64_t setid_arg(const struct as_setid *s, int which)
{
	return s->id[which] == AS_ID_UNSET ? -1 : (int64_t)s->id[which];
}

/* user.suid / group.sgid: the saved id a setid call of that kind left
 * (the kernel sends the one of the call's kind, none for the others) */
static void fields_saved_id(const struct event *ev, int uid, struct fval *v)
{
	unsigned sc = ev->hdr->syscall;
	int of_uid = sc == AS_SC_SETUID || sc == AS_SC_SETREUID || sc == AS_SC_SETRESUID;
	int of_gid = sc == AS_SC_SETGID || sc == AS_SC_SETREGID || sc == AS_SC_SETRESGID;

	if (ev->hdr->type != AS_EV_SETID || ev->u.setid->saved == AS_ID_UNSET ||
	    !(uid ? of_uid : of_gid))
		return;
	set_num(v, ev->u.setid->saved);
}

/* Is process pid one agent-sentinel started, at most FIELDS_SELF_KIN_DEPTH
 * generations down (an output program: program_output's shell and what it
 * runs, whose stdin pipe carries the alerts)? By the process table's
 * parents, else (live: the kernel sends no exec of a process outside
 * every agent tree) by /proc's. */
#define FIELDS_SELF_KIN_DEPTH 4
static int fields_self_started(const struct proctable *pt, const struct proctable_self *me,
			       int32_t pid)
{
	const struct proc_entry *pe;
	uint32_t ppid;

	for (int i = 0; pid > 0 && i < FIELDS_SELF_KIN_DEPTH; i++) {
		pe = pt ? proctable_lookup(pt, (uint32_t)pid) : NULL;
		ppid = pe ? pe->ppid : me->live ? procscan_ppid("/proc", (uint32_t)pid) : 0;
		if (!ppid)
			return 0;
		if (ppid == me->pid)
			return 1;
		pid = (int32_t)ppid;
	}
	return 0;
}

/* Does the process name agent-sentinel's pid, a thread of it (tid), its
 * process group (pid < -1), or a process it started? Stopping its output
 * program holds back every alert, and whoever then reads that program's
 * pipe gets them. */
static int fields_names_self(const struct proctable *pt, const struct proctable_self *me,
			     int32_t pid, int32_t tid)
{
	char task[64];

	if (pid == (int32_t)me->pid || (pid < -1 && -(int64_t)pid == me->pgid))
		return 1;
	if (fields_self_started(pt, me, pid))
		return 1;
	if (tid <= 0 || !me->live)
		return 0;
	snprintf(task, sizeof(task), "/proc/%u/task/%d", me->pid, tid);
	return access(task, F_OK) == 0;
}

/* evt.is_sentinel_target (fields.h) */
static int fields_sentinel_target(const struct event *ev, const struct proctable *pt)
{
	const struct proctable_self *me = pt ? proctable_self(pt) : NULL;
	const struct as_hdr *h = ev->hdr;
	const struct as_sys *r = ev->u.sys;
	int32_t a0 = (int32_t)r->arg[0], a1 = (int32_t)r->arg[1];
	char own[32];

	/* another pid namespace's numbers name other processes */
	if (!me || !me->pid || h->vpid != h->pid)
		return 0;
	switch (h->syscall) {
	case AS_SC_KILL:
	case AS_SC_RT_SIGQUEUEINFO:
		/* -1: every process the caller may signal (kill_ok_by_cred) */
		if (a0 == -1)
			return h->uid == 0 || h->euid == 0 ||
			       !!(h->cap_effective & (1ull << CAP_KILL));
		/* a thread's id names its whole process (kill_pid_info) */
		return fields_names_self(pt, me, a0, a0 > 0 ? a0 : 0);
	case AS_SC_TKILL: /* a thread's signal stops or ends its whole process */
		return fields_names_self(pt, me, a0, a0);
	case AS_SC_TGKILL: /* the thread group's id: only ours names us */
	case AS_SC_RT_TGSIGQUEUEINFO:
		return a0 > 0 && fields_names_self(pt, me, a0, 0);
	case AS_SC_PIDFD_OPEN: /* a thread's id too (PIDFD_THREAD, or its process) */
	case AS_SC_PROCESS_VM_READV:
	case AS_SC_PROCESS_VM_WRITEV:
		return a0 > 0 && fields_names_self(pt, me, a0, a0);
	case AS_SC_PTRACE:
		return a1 > 0 && fields_names_self(pt, me, a1, a1);
	case AS_SC_PRLIMIT64: /* a new limit set (a read passes NULL) */
		return r->arg[2] && a0 > 0 && fields_names_self(pt, me, a0, a0); /* limits are the process's */
	case AS_SC_SCHED_SETSCHEDULER:
	case AS_SC_SCHED_SETATTR: /* a thread's scheduling: any of its threads */
	case AS_SC_SCHED_SETAFFINITY:
		return a0 > 0 && fields_names_self(pt, me, a0, a0);
	case AS_SC_SETPRIORITY:
	case AS_SC_IOPRIO_SET:
		/* which: a process (a thread's id names it) or a process
		 * group; "who" 0 is the caller's own */
		if (a1 <= 0)
			return 0;
		if (a0 == (h->syscall == AS_SC_SETPRIORITY ? PRIO_PGRP : IOPRIO_WHO_PGRP))
			return (uint32_t)a1 == me->pgid;
		return a0 == (h->syscall == AS_SC_SETPRIORITY ? PRIO_PROCESS : IOPRIO_WHO_PROCESS) &&
		       fields_names_self(pt, me, a1, a1);
	case AS_SC_FCNTL: /* the owner the kernel signals on the file's I/O */
		if (a1 == F_SETOWN) /* a process (a thread's id names it), or -group */
			return fields_names_self(pt, me, (int32_t)r->arg[2], (int32_t)r->arg[2]);
		if (a1 == F_SETOWN_EX) { /* struct f_owner_ex: type, pid */
			int32_t type = (int32_t)r->extra, pid = (int32_t)(r->extra >> 32);

			if (pid <= 0)
				return 0;
			if (type == F_OWNER_PGRP)
				return (uint32_t)pid == me->pgid;
			return (type == F_OWNER_PID || type == F_OWNER_TID) &&
			       fields_names_self(pt, me, pid, pid);
		}
		return 0;
	case AS_SC_IOCTL: /* FIOSETOWN, SIOCSPGRP: as F_SETOWN */
		if ((uint32_t)r->arg[1] != FIOSETOWN && (uint32_t)r->arg[1] != SIOCSPGRP)
			return 0;
		return fields_names_self(pt, me, (int32_t)r->extra, (int32_t)r->extra);
	case AS_SC_PIDFD_SEND_SIGNAL: { /* a /proc/N directory as the pidfd: N a thread of ours too */
		unsigned n = 0;
		int end = 0;

		if (!ev->path.s || ev->path.len >= sizeof(own))
			return 0;
		memcpy(own, ev->path.s, ev->path.len);
		own[ev->path.len] = 0;
		return sscanf(own, "/proc/%u%n", &n, &end) == 1 && !own[end] && n &&
		       fields_names_self(pt, me, (int32_t)n, (int32_t)n);
	}
	default:
		return 0;
	}
}

/* evt.arg.NAME of a syscall the syscall table describes (the generic
 * record, and the socket calls' extra arguments). */
static int extract_table_arg(const struct event *ev, const char *arg, struct fval *v, char *buf,
			     size_t cap)
{
	const struct sc_arg *a = sctable_arg(ev->hdr->syscall, arg);
	const struct as_sys *r = ev->u.sys;
	int generic = ev->hdr->type == AS_EV_FILE || ev->hdr->type == AS_EV_SYS ||
		      ev->hdr->type == AS_EV_URING;
	const struct event_path *p;
	int64_t n;

	if (!a)
		return 0;
	switch (a->src) {
	case SRC_RES:
		n = ev->res;
		if (a->fmt == FMT_DEC && !strcmp(a->name, "res")) {
			char tmp[16];

			snprintf(buf, cap, "%s", names_res(ev->res, tmp));
			set_cstr(v, buf);
			return 1;
		}
		break;
	case SRC_ARG:
		if (!generic || a->idx >= AS_SYS_ARGS)
			return 0;
		n = sctable_arg_value(a, r->arg[a->idx]);
		break;
	case SRC_EXTRA:
		if (!generic)
			return 0;
		/* a boolean is one bit of it (idx), a fact of the call */
		n = a->fmt == FMT_BOOL ? (int64_t)(r->extra >> a->idx & 1) : (int64_t)r->extra;
		break;
	case SRC_AUX:
		if (generic && r->aux[0])
			set_str(v, r->aux, strnlen(r->aux, sizeof(r->aux)));
		return 1;
	case SRC_PATH:
		p = a->idx ? &ev->path2 : &ev->path;
		if (generic && p->s && p->s[0])
			set_str(v, p->s, p->len);
		return 1;
	case SRC_STR:
		if (generic && a->idx < AS_SYS_SLOTS && ev->str[a->idx]) {
			size_t len = ev->str_len[a->idx];

			/* cut at the length the call passed (sc_arg.width) */
			if (a->width && a->width - 1 < AS_SYS_ARGS &&
			    (uint32_t)r->arg[a->width - 1] < len)
				len = (uint32_t)r->arg[a->width - 1];
			set_str(v, ev->str[a->idx], len);
		}
		return 1;
	default:
		return 0;
	}
	set_cstr(v, sctable_format(a->fmt, n, buf, cap));
	return 1;
}

static void fields_get_arg(struct evctx *c, const char *arg, struct fval *v, char *buf, size_t cap)
{
	const struct event *ev = c->ev;
	unsigned t = ev->hdr->type, sc = ev->hdr->syscall;
	int n = arg_index(arg);

	if (n >= 0) { /* evt.arg[N]: by position */
		arg = arg_name_at(sc, n);
		if (!arg)
			return;
	}
	if (strcmp(arg, "res") == 0) {
		if (t != AS_EV_EXIT && t != AS_EV_PROC) {
			snprintf(buf, cap, "%lld", (long long)event_res(ev));
			set_cstr(v, buf);
		}
		return;
	}
	switch (t) {
	case AS_EV_FILE:
	case AS_EV_SYS:
	case AS_EV_URING:
		extract_table_arg(ev, arg, v, buf, cap);
		break;
	case AS_EV_FORK:
		if (!strcmp(arg, "flags")) {
			uint64_t fl = ev->u.fork->clone_flags;

			/* clone's low byte is the exit signal (CSIGNAL), not a flag;
			 * clone3 passes the signal apart */
			if (sc != AS_SC_CLONE3)
				fl &= ~0xffull;
			set_cstr(v, sctable_format(FMT_CLONE, (int64_t)fl, buf, cap));
		} else if (!strcmp(arg, "pid") || !strcmp(arg, "res") || !strcmp(arg, "child_pid")) {
			/* the new thread's id: a process's pid, or the thread's */
			snprintf(buf, cap, "%u", ev->u.fork->child_tid);
			set_cstr(v, buf);
		}
		break;
	case AS_EV_OPEN:
		if (!strcmp(arg, "name") || !strcmp(arg, "path")) {
			set_str(v, ev->path.s, ev->path.len);
		} else if (!strcmp(arg, "flags")) {
			trace_open_flags(ev->u.open->flags, buf, cap);
			set_cstr(v, buf);
		} else if (!strcmp(arg, "mode")) {
			snprintf(buf, cap, "0%o", ev->u.open->mode);
			set_cstr(v, buf);
		} else if (!strcmp(arg, "fd")) {
			snprintf(buf, cap, "%lld", (long long)(ev->res < 0 ? -1 : ev->res));
			set_cstr(v, buf);
		} else if (!strcmp(arg, "dirfd")) {
			snprintf(buf, cap, "%d", ev->u.open->dirfd);
			set_cstr(v, buf);
		} else if (!strcmp(arg, "dev") && ev->res >= 0) { /* hex, as Falco shows it */
			snprintf(buf, cap, "%llx", (unsigned long long)ev->u.open->dev);
			set_cstr(v, buf);
		} else if (!strcmp(arg, "ino") && ev->res >= 0) {
			snprintf(buf, cap, "%llu", (unsigned long long)ev->u.open->ino);
			set_cstr(v, buf);
		}
		break;
	case AS_EV_EXEC:
		/* what was executed, or tried: argv[0], and argv[1..] space separated */
		if (!strcmp(arg, "filename") || !strcmp(arg, "name") || !strcmp(arg, "path")) {
			set_str(v, ev->filename.s, ev->filename.len);
		} else if (!strcmp(arg, "exe") && ev->args) {
			set_str(v, ev->args, strnlen(ev->args, ev->args_len));
		} else if (!strcmp(arg, "args") && ev->args) {
			size_t pos = 0;

			buf[0] = 0;
			fields_join_args(buf, cap, &pos, ev->args, ev->args_len, 0);
			set_str(v, buf, pos);
		}
		break;
	case AS_EV_EXIT:
		if (!strcmp(arg, "status")) {
			snprintf(buf, cap, "%d", ev->u.exit->exit_code);
			set_cstr(v, buf);
		}
		break;
	case AS_EV_CONNECT: {
		const struct as_connect *k = ev->u.conn;
		int dup = sc == AS_SC_DUP || sc == AS_SC_DUP2 || sc == AS_SC_DUP3;

		if (!strcmp(arg, "fd") || (dup && sc != AS_SC_DUP && !strcmp(arg, "newfd"))) {
			snprintf(buf, cap, "%d", k->fd);
			set_cstr(v, buf);
		} else if (dup && !strcmp(arg, "oldfd")) {
			snprintf(buf, cap, "%d", (int32_t)k->aux);
			set_cstr(v, buf);
		} else if (dup) {
			break;
		} else if (!strcmp(arg, "tuple") || !strcmp(arg, "addr")) {
			fields_fd_name_connect(k, buf, cap);
			set_cstr(v, buf);
		} else if (!strcmp(arg, "flags") && sc != AS_SC_CONNECT && sc != AS_SC_BIND &&
			   sc != AS_SC_LISTEN && sc != AS_SC_ACCEPT) {
			set_cstr(v, sctable_format(sc == AS_SC_SOCKET || sc == AS_SC_ACCEPT4 ? FMT_HEX :
									       FMT_MSG,
						   k->aux, buf, cap));
		} else if ((k->cflags & AS_CF_NLMSG) && !strncmp(arg, "nlmsg_", 6)) {
			/* a netlink send: its first message that changes the
			 * kernel's state, else its first (what it asks) */
			size_t i = fields_nlmsg_pick(k);
			uint16_t t, f;

			memcpy(&t, &k->daddr[i * 2], sizeof(t));
			memcpy(&f, &k->saddr[i * 2], sizeof(f));
			if (!k->dport && strcmp(arg, "nlmsg_change"))
				break; /* no message read (a header split across iovecs) */
			if (!strcmp(arg, "nlmsg_type"))
				set_cstr(v, sctable_format(FMT_NLMSG, (int64_t)((uint64_t)k->proto << 16 | t),
							   buf, cap));
			else if (!strcmp(arg, "nlmsg_flags"))
				set_cstr(v, sctable_format(FMT_HEX, f, buf, cap));
			else if (!strcmp(arg, "nlmsg_change")) /* or messages unread */
				set_cstr(v, sctable_nlmsg_change(k->proto, t) ||
						    (k->cflags & AS_CF_NLMSG_MORE) ?
					    "true" :
					    "false");
		} else if (!strcmp(arg, "backlog") && sc == AS_SC_LISTEN) {
			set_cstr(v, sctable_format(FMT_DEC, (int32_t)k->aux, buf, cap));
		} else if (sc == AS_SC_SOCKET && !strcmp(arg, "domain")) {
			set_cstr(v, sctable_format(FMT_FAMILY, k->family, buf, cap));
		} else if (sc == AS_SC_SOCKET && !strcmp(arg, "type")) {
			set_cstr(v, sctable_format(FMT_SOCKTYPE, k->sock_type, buf, cap));
		} else if (sc == AS_SC_SOCKET && !strcmp(arg, "proto")) {
			set_cstr(v, sctable_format(FMT_DEC, k->proto, buf, cap));
		}
		break;
	}
	case AS_EV_SETID: {
		const struct as_setid *s = ev->u.setid;
		int uid = sc == AS_SC_SETUID || sc == AS_SC_SETREUID || sc == AS_SC_SETRESUID ||
			  sc == AS_SC_SETFSUID;
		int which = -1;

		if ((uid && !strcmp(arg, "uid")) || (!uid && !strcmp(arg, "gid")) ||
		    (sc == AS_SC_SETGROUPS && !strcmp(arg, "size")))
			which = 0;
		else if (!strcmp(arg, uid ? "ruid" : "rgid"))
			which = 0;
		else if (!strcmp(arg, uid ? "euid" : "egid"))
			which = 1;
		else if (!strcmp(arg, uid ? "suid" : "sgid"))
			which = 2;
		if (which < 0)
			break;
		snprintf(buf, cap, "%lld", (long long)setid_arg(s, which));
		set_cstr(v, buf);
		break;
	}
	case AS_EV_CAPSET: {
		const struct as_capset *k = ev->u.capset;
		uint64_t x;

		if (!strcmp(arg, "cap_effective"))
			x = k->effective;
		else if (!strcmp(arg, "cap_permitted"))
			x = k->permitted;
		else if (!strcmp(arg, "cap_inheritable"))
			x = k->inheritable;
		else
			break;
		snprintf(buf, cap, "%llx", (unsigned long long)x);
		set_cstr(v, buf);
		break;
	}
	default:
		break;
	}
}

/* libsinsp's evt.is_open_exec: an open that may create the file (O_CREAT or
 * O_TMPFILE; creat is recorded with O_CREAT) asking for an execute bit */
static int is_open_exec(const struct event *ev)
{
	const struct as_open *o = ev->u.open;

	return (o->flags & (O_CREAT | (O_TMPFILE & ~O_DIRECTORY))) && (o->mode & (S_IXUSR | S_IXGRP | S_IXOTH));
}
