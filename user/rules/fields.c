// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The field table, and extracting one field of one event. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include "rules.h"
#include "trace.h"
#include "names.h"
#include "usercache.h"
#include "clock.h"
#include "sctable.h"
#include "container.h"
#include "agentid.h"
#include "lineage.h"

#define FIELD_ROW(id, n, t, f, d) [F_##id] = { .name = n, .type = t, .flags = f, .doc = d },
const struct field_info fields_table[F_MAX] = { FIELD_LIST(FIELD_ROW) };
#undef FIELD_ROW

int fields_lookup(const char *name)
{
	for (int i = 0; i < F_MAX; i++)
		if (strcmp(fields_table[i].name, name) == 0)
			return i;
	return -1;
}

/*
 * Falco fields (falcosecurity/libs, syscall source) we do not implement. A
 * rule that needs one is skipped with a warning, as Falco's
 * skip-if-unknown-filter does; any other unknown name is an error.
 */
static const char *const falco_fields[] = {
	"evt.cpu", "evt.args", "evt.info", "evt.buffer", "evt.buflen", "evt.latency",
	"evt.latency.s", "evt.latency.ns", "evt.latency.human", "evt.deltatime",
	"evt.deltatime.s", "evt.deltatime.ns", "evt.outputtime", "evt.datetime",
	"evt.datetime.s", "evt.time.s", "evt.rawtime.s", "evt.rawtime.ns", "evt.reltime",
	"evt.reltime.s", "evt.reltime.ns", "evt.category", "evt.is_io", "evt.is_io_read",
	"evt.is_io_write", "evt.io_dir", "evt.is_wait", "evt.wait_latency", "evt.is_syslog",
	"evt.count", "evt.count.error", "evt.count.error.file", "evt.count.error.net",
	"evt.count.error.memory", "evt.count.error.other", "evt.count.exit", "evt.around",
	"evt.abspath", "evt.abspath.src", "evt.abspath.dst", "evt.is_open_exec",
	"evt.is_open_create", "evt.hostname", "evt.pluginname", "evt.plugininfo", "evt.source",
	"evt.is_async", "evt.asynctype", "evt.rawarg", "evt.param", "evt.arg",
	"proc.exeline", "proc.pexe", "proc.aexe", "proc.pexepath", "proc.aexepath",
	"proc.pcmdline", "proc.acmdline", "proc.cmdnargs", "proc.cmdlenargs", "proc.env",
	"proc.aenv", "proc.loginshellid", "proc.duration", "proc.ppid.duration", "proc.pid.ts",
	"proc.ppid.ts", "proc.is_exe_writable", "proc.is_exe_upper_layer",
	"proc.is_exe_from_memfd", "proc.is_sid_leader", "proc.is_vpgid_leader", "proc.exe_ino",
	"proc.exe_ino.ctime", "proc.exe_ino.mtime", "proc.exe_ino.ctime_duration_proc_start",
	"proc.exe_ino.ctime_duration_pidns_start", "proc.pidns_init_start_ts", "proc.sname",
	"proc.vpgid", "proc.vpgid.name", "proc.vpgid.exe", "proc.vpgid.exepath", "proc.pgid",
	"proc.pgid.name", "proc.pgid.exe", "proc.pgid.exepath", "proc.sid.exe",
	"proc.sid.exepath", "proc.sid.name", "proc.fdopencount", "proc.fdlimit", "proc.fdusage",
	"proc.vmsize", "proc.vmrss", "proc.vmswap", "proc.pfmajor", "proc.pfminor",
	"proc.nthreads", "proc.nchilds", "proc.is_container_healthcheck",
	"proc.is_container_liveness_probe", "proc.is_container_readiness_probe", "proc.pvpid",
	"proc.stdin.type", "proc.stdout.type", "proc.stderr.type", "proc.stdin.name",
	"proc.stdout.name", "proc.stderr.name", "proc.ttyname", "proc.exe_ino",
	"thread.ismain", "thread.vtid", "thread.exectime", "thread.totexectime",
	"thread.cgroup", "thread.cap_permitted", "thread.cap_inheritable",
	"thread.cap_effective", "thread.vmsize", "thread.vmrss", "thread.vmsize",
	"user.homedir", "user.shell", "user.loginname", "fd.ip", "fd.lip", "fd.port",
	"fd.lport", "fd.is_server", "fd.uid", "fd.containername", "fd.containerdirectory",
	"fd.proto", "fd.cproto", "fd.sproto", "fd.lproto", "fd.rproto", "fd.net", "fd.cnet",
	"fd.snet", "fd.lnet", "fd.rnet", "fd.connected", "fd.name_changed", "fd.cip.name",
	"fd.sip.name", "fd.lip.name", "fd.rip.name", "fd.dev", "fd.dev.major", "fd.dev.minor",
	"fd.ino", "fd.nameraw", "fd.types", "fs.path.name", "fs.path.nameraw",
	"fs.path.source", "fs.path.sourceraw", "fs.path.target", "fs.path.targetraw",
	"container.image.id", "container.mount",
	"container.mount.source", "container.mount.dest", "container.mount.mode",
	"container.mount.rdwr", "container.mount.propagation", "container.healthcheck",
	"container.liveness_probe", "container.readiness_probe", "container.start_ts",
	"container.duration", "container.ip", "container.cni.json", "container.host_pid",
	"container.host_network", "container.host_ipc", "container.info",
	/* more of libs 0.25's syscall fields (filterchecks), Falco 0.44 */
	"evt.type.is", "syscall.type", "evt.buflen.in", "evt.buflen.out", "evt.buflen.file",
	"evt.buflen.file.in", "evt.buflen.file.out", "evt.buflen.net", "evt.buflen.net.in",
	"evt.buflen.net.out", "proc.aargs", "proc.is_pgid_leader", "proc.is_exe_lower_layer",
	"proc.fdopenlimit", "thread.cpu", "thread.cpu.user", "thread.cpu.system",
	"thread.nametid", "thread.pfmajor", "thread.pfminor", "thread.vmsize.b",
	"thread.vmrss.b", "fd.is_upper_layer", "fd.is_lower_layer",
};

/* Whole field classes of Falco (plugins, k8s metadata) we have none of. */
static const char *const falco_classes[] = {
	"k8s.", "k8smeta.", "ka.", "jevt.", "span.", "evtin.", "syslog.", "mesos.",
	"marathon.", "fdlist.", "fs.",
};

int fields_falco_known(const char *name)
{
	for (size_t i = 0; i < sizeof(falco_fields) / sizeof(falco_fields[0]); i++)
		if (strcmp(falco_fields[i], name) == 0)
			return 1;
	for (size_t i = 0; i < sizeof(falco_classes) / sizeof(falco_classes[0]); i++)
		if (strncmp(falco_classes[i], name, strlen(falco_classes[i])) == 0)
			return 1;
	if (strncmp(name, "evt.arg.", 8) == 0 || strncmp(name, "evt.rawarg.", 11) == 0)
		return 1;
	return 0;
}

static const char *const arg_names[] = {
	"name", "path", "filename", "flags", "mode", "fd", "dirfd", "res", "uid", "gid",
	"ruid", "euid", "suid", "rgid", "egid", "sgid", "tuple", "addr", "cap_effective",
	"cap_permitted", "cap_inheritable", "size", "backlog", "domain", "type", "proto",
	"pid", "version", "child_pid", "exe", "args", "dev", "ino", "status",
};

/*
 * The arguments each syscall's event carries, named and ordered as Falco's
 * event table names them (falcosecurity/libs driver/event_table.c: the exit
 * event's parameters, and the enter event's where only it has them): what
 * --trace shows of evt.arg.*. Every name is one extract_arg answers; the
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
	[AS_SC_SENDTO] = { "res", "tuple", "fd", "flags" },
	[AS_SC_SENDMSG] = { "res", "tuple", "fd", "flags" },
	[AS_SC_SENDMMSG] = { "res", "tuple", "fd", "flags" },
	[AS_SC_BIND] = { "res", "addr", "fd" },
	[AS_SC_LISTEN] = { "res", "fd", "backlog" },
	[AS_SC_ACCEPT] = { "res", "tuple", "fd" },
	[AS_SC_ACCEPT4] = { "res", "tuple", "fd", "flags" },
	[AS_SC_SOCKET] = { "res", "fd", "domain", "type", "proto", "flags" },
	[AS_SC_DUP] = { "res", "oldfd" },
	[AS_SC_DUP2] = { "res", "oldfd", "newfd" },
	[AS_SC_DUP3] = { "res", "oldfd", "newfd" },
};

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

const char *fields_type_name(int type)
{
	switch (type) {
	case T_NUM:
		return "number";
	case T_BOOL:
		return "bool";
	default:
		return "string";
	}
}

/* ---- extraction ---- */

static const struct proc_entry *entry(struct evctx *c)
{
	if (!c->pe_done) {
		c->pe_done = 1;
		c->pe = c->pt ? proctable_lookup(c->pt, c->ev->hdr->pid) : NULL;
	}
	return c->pe;
}

/* The event describes its process: a successful exec, or a /proc snapshot.
 * A failed exec leaves the caller as it was (Falco updates nothing then):
 * what it tried is in evt.arg.*. */
static int has_exec_strings(const struct event *ev)
{
	return (ev->hdr->type == AS_EV_EXEC || ev->hdr->type == AS_EV_PROC) && ev->res >= 0;
}

/* The syscall's result; a clone's is the child's thread id, as Falco's
 * clone exit has it in the parent. */
static int64_t event_res(const struct event *ev)
{
	return ev->hdr->type == AS_EV_FORK ? (int64_t)ev->u.fork->child_tid : ev->res;
}

static void set_str(struct fval *v, const char *s, size_t len)
{
	v->present = 1;
	v->type = T_STR;
	v->s = s;
	v->len = len;
}

static void set_cstr(struct fval *v, const char *s)
{
	if (s)
		set_str(v, s, strlen(s));
}

static void set_num(struct fval *v, int64_t n)
{
	v->present = 1;
	v->type = T_NUM;
	v->n = n;
}

static void set_bool(struct fval *v, int b)
{
	v->present = 1;
	v->type = T_BOOL;
	v->n = !!b;
}

/* strnlen(comm, AS_COMM_LEN), a word at a time where the layout allows:
 * comms are the most compared strings (proc.name, proc.aname[N]). */
static size_t comm_len(const char *comm)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (AS_COMM_LEN == 2 * sizeof(uint64_t)) {
		const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;

		for (size_t i = 0; i < 2; i++) {
			uint64_t w, zero;

			memcpy(&w, comm + i * sizeof(w), sizeof(w));
			/* the lowest set bit marks the first NUL byte exactly */
			zero = (w - ones) & ~w & highs;
			if (zero)
				return i * sizeof(w) + (size_t)__builtin_ctzll(zero) / 8;
		}
		return AS_COMM_LEN;
	}
#endif
	return strnlen(comm, AS_COMM_LEN);
}

static void set_comm(struct fval *v, const char *comm)
{
	set_str(v, comm, comm_len(comm));
}

/* argv of the process: from the event when it carries it, else the table. */
static const char *proc_args(struct evctx *c, uint32_t *len)
{
	const struct proc_entry *pe;

	if (has_exec_strings(c->ev) && c->ev->args) {
		*len = c->ev->args_len;
		return c->ev->args;
	}
	pe = entry(c);
	if (pe && pe->args) {
		*len = pe->args_len;
		return pe->args;
	}
	return NULL;
}

static const char *proc_str(struct evctx *c, const struct event_path *evp, size_t pe_off)
{
	const struct proc_entry *pe;
	const char *s;

	if (has_exec_strings(c->ev) && evp->s && evp->s[0])
		return evp->s;
	pe = entry(c);
	if (!pe)
		return NULL;
	s = *(char *const *)((const char *)pe + pe_off);
	return s && s[0] ? s : NULL;
}

/* Append argv[1..] to buf at *pos, space separated; the args end at the first
 * empty tail. */
static void join_args(char *buf, size_t cap, size_t *pos, const char *a, uint32_t len, int lead)
{
	size_t i = 0;

	/* skip argv[0] */
	while (i < len && a[i])
		i++;
	i++;
	while (i < len) {
		size_t n = strnlen(a + i, len - i);

		if (lead || *pos > 0) {
			if (*pos + 1 < cap)
				buf[(*pos)++] = ' ';
		}
		lead = 0;
		if (*pos + n >= cap)
			n = cap - *pos - 1;
		memcpy(buf + *pos, a + i, n);
		*pos += n;
		i += strnlen(a + i, len - i) + 1;
	}
	buf[*pos] = 0;
}

static void fmt_ip(int family, const uint8_t *addr, char *buf, size_t cap)
{
	if (!inet_ntop(family == AF_INET6 ? AF_INET6 : AF_INET, addr, buf, (socklen_t)cap))
		snprintf(buf, cap, "?");
}

static int is_ip(const struct as_connect *k)
{
	return k->family == AF_INET || k->family == AF_INET6;
}

static void fd_name_connect(const struct as_connect *k, char *buf, size_t cap)
{
	char sip[INET6_ADDRSTRLEN], cip[INET6_ADDRSTRLEN];
	static const uint8_t zero[16];

	if (is_ip(k)) {
		fmt_ip(k->family, k->daddr, sip, sizeof(sip));
		fmt_ip(k->family, (k->cflags & AS_CF_LOCAL) ? k->saddr : zero, cip, sizeof(cip));
		snprintf(buf, cap, "%s:%u->%s:%u", cip, (k->cflags & AS_CF_LOCAL) ? k->sport : 0,
			 sip, k->dport);
	} else if (k->family == AF_UNIX) {
		/* an abstract name follows a NUL (path_len leaves it out): '@' in its
		 * place, as ss(8) and Falco show it */
		size_t skip = (k->cflags & AS_CF_ABSTRACT) ? 1 : 0;
		size_t n = k->path_len < AS_UNIX_PATH_MAX - skip ? k->path_len : AS_UNIX_PATH_MAX - skip;

		n = strnlen(k->path + skip, n);
		snprintf(buf, cap, "%s%.*s", skip ? "@" : "", (int)n, k->path + skip);
	} else {
		buf[0] = 0;
	}
}

static int64_t setid_arg(const struct as_setid *s, int which)
{
	return s->id[which] == AS_ID_UNSET ? -1 : (int64_t)s->id[which];
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
		n = (int64_t)r->arg[a->idx];
		break;
	case SRC_EXTRA:
		if (!generic)
			return 0;
		n = (int64_t)r->extra;
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
		if (generic && a->idx < AS_SYS_SLOTS && ev->str[a->idx])
			set_str(v, ev->str[a->idx], ev->str_len[a->idx]);
		return 1;
	default:
		return 0;
	}
	set_cstr(v, sctable_format(a->fmt, n, buf, cap));
	return 1;
}

static void extract_arg(struct evctx *c, const char *arg, struct fval *v, char *buf, size_t cap)
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
			snprintf(buf, cap, "%u", ev->u.fork->child_pid);
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
			join_args(buf, cap, &pos, ev->args, ev->args_len, 0);
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
			fd_name_connect(k, buf, cap);
			set_cstr(v, buf);
		} else if (!strcmp(arg, "flags") && sc != AS_SC_CONNECT && sc != AS_SC_BIND &&
			   sc != AS_SC_LISTEN && sc != AS_SC_ACCEPT) {
			set_cstr(v, sctable_format(sc == AS_SC_SOCKET || sc == AS_SC_ACCEPT4 ? FMT_HEX :
									       FMT_MSG,
						   k->aux, buf, cap));
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

static void extract_cgroup(struct evctx *c, struct fval *v, char *buf, size_t cap)
{
	const struct proc_entry *pe = entry(c);
	const char *v2 = proc_str(c, &c->ev->cgroup, offsetof(struct proc_entry, cgroup));
	const char *all = pe ? pe->cgroups : NULL;
	size_t n1 = 0;

	if (!v2)
		return;
	/* entry->cgroups is "v1... unified=<v2>": the v1 part, if any, goes after */
	if (all && all[0] && strncmp(all, "unified=", 8) != 0) {
		const char *u = strstr(all, " unified=");

		n1 = u ? (size_t)(u - all) : strlen(all);
	}
	if (n1)
		snprintf(buf, cap, "%s %.*s", v2, (int)n1, all);
	else
		snprintf(buf, cap, "%s", v2);
	set_cstr(v, buf);
}

/* container.* and k8s.*: the process's container id and type from the
 * process table, the rest from the container cache (absent until resolved;
 * on the host, container.name is "host" as in Falco, the others absent). */
static void extract_container(struct evctx *c, int f, const char *arg, struct fval *v, char *buf,
			      size_t cap)
{
	const struct proc_entry *pe = entry(c);
	const struct cmeta *m;
	int host;

	if (!pe || !pe->container_id[0])
		return;
	host = pe->container_type == CGPATH_HOST;
	if (f == F_CONTAINER_TYPE) {
		set_cstr(v, host ? "host" : container_type_name(pe->container_id, pe->container_type));
		return;
	}
	if (f == F_CONTAINER_FULL_ID) {
		set_cstr(v, host ? "host" : container_full_id(pe->container_id));
		return;
	}
	if (host) {
		if (f == F_CONTAINER_NAME)
			set_cstr(v, "host");
		return;
	}
	m = container_meta(pe->container_id);
	if (!m)
		return;
	switch (f) {
	case F_CONTAINER_NAME:
		set_cstr(v, m->name);
		break;
	case F_CONTAINER_IMAGE:
		set_cstr(v, m->image);
		break;
	case F_CONTAINER_IMAGE_REPOSITORY:
		set_cstr(v, m->image_repository);
		break;
	case F_CONTAINER_IMAGE_TAG:
		set_cstr(v, m->image_tag);
		break;
	case F_CONTAINER_IMAGE_DIGEST:
		set_cstr(v, m->image_digest);
		break;
	case F_CONTAINER_PRIVILEGED:
		if (m->privileged >= 0)
			set_bool(v, m->privileged);
		break;
	case F_CONTAINER_MOUNTS:
		set_cstr(v, m->mounts);
		break;
	case F_CONTAINER_LABELS:
		set_cstr(v, m->labels_text);
		break;
	case F_CONTAINER_LABEL:
		set_cstr(v, arg ? cmeta_label_get(m, 0, arg) : NULL);
		break;
	case F_K8S_POD_NAME:
		set_cstr(v, m->pod_name);
		break;
	case F_K8S_NS_NAME:
		set_cstr(v, m->pod_namespace);
		break;
	case F_K8S_POD_UID:
		set_cstr(v, m->pod_uid);
		break;
	case F_K8S_POD_SANDBOX_ID:
		if (m->sandbox_id) {
			snprintf(buf, cap, "%.12s", m->sandbox_id);
			set_cstr(v, buf);
		}
		break;
	case F_K8S_POD_FULL_SANDBOX_ID:
		set_cstr(v, m->sandbox_id);
		break;
	case F_K8S_POD_LABELS:
		set_cstr(v, m->pod_labels_text);
		break;
	case F_K8S_POD_LABEL:
		set_cstr(v, arg ? cmeta_label_get(m, 1, arg) : NULL);
		break;
	default:
		break;
	}
}

unsigned engine_open_class(const struct event *ev)
{
	unsigned acc = (unsigned)ev->u.open->flags & O_ACCMODE, c = 0;

	if (ev->hdr->syscall == AS_SC_CREAT)
		acc = O_WRONLY;
	if (acc == O_RDONLY || acc == O_RDWR)
		c |= AS_OPEN_READ;
	if (acc == O_WRONLY || acc == O_RDWR)
		c |= AS_OPEN_WRITE;
	if (ev->res >= 0)
		c |= AS_OPEN_OK;
	return c;
}

/* fd.* of an open; the path holds no NUL, so memrchr over its length is
 * strrchr. */
static void extract_fd_open(const struct event *ev, int f, struct fval *v, char *buf, size_t cap)
{
	const char *p = ev->path.s, *slash;

	switch (f) {
	case F_FD_NAMERAW: /* the string as passed, when the record carries it */
		if (ev->str[0]) {
			set_str(v, ev->str[0], ev->str_len[0]);
			break;
		}
		/* fall through */
	case F_FD_NAME:
		set_str(v, p, ev->path.len);
		break;
	case F_FD_NUM:
		set_num(v, ev->res < 0 ? -1 : ev->res);
		break;
	case F_FD_CONNECTED:
	case F_FD_NAME_CHANGED:
		set_bool(v, 0);
		break;
	case F_FD_TYPECHAR: /* as fields_fixed says */
		set_str(v, "f", 1);
		break;
	case F_FD_TYPE:
		set_str(v, "file", 4);
		break;
	case F_FD_DIRECTORY:
		slash = memrchr(p, '/', ev->path.len);
		if (!slash)
			break;
		if (slash == p)
			snprintf(buf, cap, "/");
		else
			snprintf(buf, cap, "%.*s", (int)(slash - p), p);
		set_cstr(v, buf);
		break;
	case F_FD_FILENAME:
		slash = memrchr(p, '/', ev->path.len);
		if (slash)
			set_str(v, slash + 1, ev->path.len - (size_t)(slash + 1 - p));
		break;
	default:
		break;
	}
}

/* fd.* of an io_uring request on a file: its path as an open's; fd.num the
 * SQE's fd (-1 for an open, whose fd is not known at submission) */
static void extract_fd_uring(const struct event *ev, int f, struct fval *v, char *buf, size_t cap)
{
	uint64_t op = ev->u.sys->arg[0];

	if (f == F_FD_NUM) {
		set_num(v, op == 18 || op == 28 /* OPENAT, OPENAT2 */ ? -1 :
						     (int32_t)ev->u.sys->arg[1]);
		return;
	}
	extract_fd_open(ev, f, v, buf, cap);
}

static void extract_fd(struct evctx *c, int f, struct fval *v, char *buf, size_t cap)
{
	const struct event *ev = c->ev;

	if (ev->hdr->type == AS_EV_OPEN) {
		extract_fd_open(ev, f, v, buf, cap);
		return;
	}
	/* an io_uring request on a file: fd.* as for an open of it */
	if (ev->hdr->type == AS_EV_URING && !ev->has_sockaddr) {
		if (ev->path.s[0])
			extract_fd_uring(ev, f, v, buf, cap);
		return;
	}
	/* a socket act, or an io_uring request with an address */
	if (ev->hdr->type != AS_EV_CONNECT && !ev->has_sockaddr)
		return;
	const struct as_connect *k = ev->hdr->type == AS_EV_CONNECT ? ev->u.conn : &ev->sockaddr;
	int ip = is_ip(k), local = !!(k->cflags & AS_CF_LOCAL);

	/* socket(2) has made no address yet: only its kind */
	if (ev->hdr->syscall == AS_SC_SOCKET && f != F_FD_TYPECHAR && f != F_FD_TYPE &&
	    f != F_FD_L4PROTO && f != F_FD_SOCKFAMILY && f != F_FD_NUM)
		return;

	switch (f) {
	case F_FD_NAME:
	case F_FD_NAMERAW:
		fd_name_connect(k, buf, cap);
		set_cstr(v, buf);
		break;
	case F_FD_NUM:
		set_num(v, ev->hdr->type == AS_EV_CONNECT ? k->fd : (int32_t)ev->u.sys->arg[1]);
		break;
	case F_FD_NAME_CHANGED:
		set_bool(v, !!(k->cflags & AS_CF_ADDR));
		break;
	case F_FD_CONNECTED: {
		unsigned sc = ev->hdr->syscall;

		set_bool(v, ev->hdr->type == AS_EV_CONNECT && ev->res >= 0 &&
				    (sc == AS_SC_CONNECT || sc == AS_SC_ACCEPT || sc == AS_SC_ACCEPT4));
		break;
	}
	case F_FD_TYPECHAR:
		if (k->family == AF_INET)
			set_cstr(v, "4");
		else if (k->family == AF_INET6)
			set_cstr(v, "6");
		else if (k->family == AF_UNIX)
			set_cstr(v, "u");
		break;
	case F_FD_TYPE:
		if (k->family == AF_INET)
			set_cstr(v, "ipv4");
		else if (k->family == AF_INET6)
			set_cstr(v, "ipv6");
		else if (k->family == AF_UNIX)
			set_cstr(v, "unix");
		break;
	case F_FD_RIP:
	case F_FD_RPORT:
		/* an accepted socket's remote end is its client */
		if (ip && (k->cflags & AS_CF_PEER)) {
			if (f == F_FD_RIP) {
				fmt_ip(k->family, k->saddr, buf, cap);
				set_cstr(v, buf);
			} else {
				set_num(v, k->sport);
			}
			break;
		}
		/* fall through */
	case F_FD_SIP:
	case F_FD_SPORT:
		if (ip && f != F_FD_SPORT && f != F_FD_RPORT) {
			fmt_ip(k->family, k->daddr, buf, cap);
			set_cstr(v, buf);
		} else if (ip) {
			set_num(v, k->dport);
		}
		break;
	case F_FD_CIP:
		if (ip && local) {
			fmt_ip(k->family, k->saddr, buf, cap);
			set_cstr(v, buf);
		}
		break;
	case F_FD_CPORT:
		if (ip && local)
			set_num(v, k->sport);
		break;
	case F_FD_L4PROTO:
		set_cstr(v, names_l4proto(k->family, k->proto, k->sock_type));
		break;
	case F_FD_SOCKFAMILY:
		set_cstr(v, names_sockfamily(k->family));
		break;
	default:
		break;
	}
}

int fields_fixed(int f, unsigned sc, struct fval *v)
{
	unsigned type = names_syscall_type(sc);

	*v = (struct fval){ .type = fields_table[f].type };
	switch (f) {
	case F_EVT_TYPE:
		set_cstr(v, names_evt_type(type, sc));
		return 1;
	case F_EVT_DIR:
		set_cstr(v, "<");
		return 1;
	case F_FD_TYPECHAR:
		if (type != AS_EV_OPEN)
			return 0;
		set_str(v, "f", 1);
		return 1;
	case F_FD_TYPE:
		if (type != AS_EV_OPEN)
			return 0;
		set_str(v, "file", 4);
		return 1;
	default:
		return 0;
	}
}

static int has_res(const struct event *ev)
{
	unsigned t = ev->hdr->type;

	return t != AS_EV_EXIT && t != AS_EV_PROC;
}

/* capabilities, as Falco prints a set: CAP_* names separated by spaces */
static const char *const cap_list[] = {
	"CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_DAC_READ_SEARCH", "CAP_FOWNER", "CAP_FSETID",
	"CAP_KILL", "CAP_SETGID", "CAP_SETUID", "CAP_SETPCAP", "CAP_LINUX_IMMUTABLE",
	"CAP_NET_BIND_SERVICE", "CAP_NET_BROADCAST", "CAP_NET_ADMIN", "CAP_NET_RAW",
	"CAP_IPC_LOCK", "CAP_IPC_OWNER", "CAP_SYS_MODULE", "CAP_SYS_RAWIO", "CAP_SYS_CHROOT",
	"CAP_SYS_PTRACE", "CAP_SYS_PACCT", "CAP_SYS_ADMIN", "CAP_SYS_BOOT", "CAP_SYS_NICE",
	"CAP_SYS_RESOURCE", "CAP_SYS_TIME", "CAP_SYS_TTY_CONFIG", "CAP_MKNOD", "CAP_LEASE",
	"CAP_AUDIT_WRITE", "CAP_AUDIT_CONTROL", "CAP_SETFCAP", "CAP_MAC_OVERRIDE",
	"CAP_MAC_ADMIN", "CAP_SYSLOG", "CAP_WAKE_ALARM", "CAP_BLOCK_SUSPEND", "CAP_AUDIT_READ",
	"CAP_PERFMON", "CAP_BPF", "CAP_CHECKPOINT_RESTORE",
};

static const char *cap_names(uint64_t set, char *buf, size_t cap)
{
	size_t pos = 0, n = sizeof(cap_list) / sizeof(cap_list[0]);

	buf[0] = 0;
	for (size_t i = 0; i < 64 && pos + 1 < cap; i++) {
		if (!(set & (1ull << i)))
			continue;
		if (i < n)
			pos += (size_t)snprintf(buf + pos, cap - pos, "%s%s", pos ? " " : "", cap_list[i]);
		else
			pos += (size_t)snprintf(buf + pos, cap - pos, "%sCAP_%zu", pos ? " " : "", i);
	}
	return buf;
}

/* Which slot fs.path.name / source / target of ev is (-1: none), as
 * Falco's fspath fields: on success only. */
static int fspath_slot(const struct event *ev, int f)
{
	unsigned kind = FSP_NONE, t = ev->hdr->type;
	int which = (f == F_FS_PATH_NAME || f == F_FS_PATH_NAMERAW)	   ? 0 :
		    (f == F_FS_PATH_SOURCE || f == F_FS_PATH_SOURCERAW) ? 1 :
									    2;

	if (ev->res < 0)
		return -1;
	if (t == AS_EV_OPEN)
		return which == 0 ? 0 : -1;
	if (t == AS_EV_URING) {
		uint64_t op = ev->u.sys->arg[0];

		kind = op == 35 /* RENAMEAT */ ? FSP_SRC0_TGT1 :
		       op == 38 || op == 39 /* SYMLINKAT, LINKAT */ ? FSP_SRC1_TGT0 :
		       ev->path.s[0] ? FSP_NAME0 : FSP_NONE;
	} else if (t == AS_EV_FILE || t == AS_EV_SYS) {
		kind = sctable_get(ev->hdr->syscall)->fspath;
	}
	switch (kind) {
	case FSP_NAME0:
		return which == 0 ? 0 : -1;
	case FSP_SRC0_TGT1:
		return which == 1 ? 0 : which == 2 ? 1 : -1;
	case FSP_SRC1_TGT0:
		return which == 1 ? 1 : which == 2 ? 0 : -1;
	default:
		return -1;
	}
}

static void extract_fspath(const struct event *ev, int f, struct fval *v)
{
	int raw = f == F_FS_PATH_NAMERAW || f == F_FS_PATH_SOURCERAW || f == F_FS_PATH_TARGETRAW;
	int slot = fspath_slot(ev, f);
	const struct event_path *p;

	if (slot < 0)
		return;
	if (raw && ev->str[slot]) { /* an open: when a rule reads it (bpf/file.bpf.c) */
		set_str(v, ev->str[slot], ev->str_len[slot]);
		return;
	}
	p = slot ? &ev->path2 : &ev->path;
	if (p->s && p->s[0])
		set_str(v, p->s, p->len);
}

/* proc.pexe, proc.pexepath, proc.pcmdline: the parent's table entry */
static void extract_parent(struct evctx *c, int f, struct fval *v, char *buf, size_t cap)
{
	const struct proc_entry *pp = c->pt ? proctable_lookup(c->pt, c->ev->hdr->ppid) : NULL;
	size_t pos;

	if (!pp)
		return;
	switch (f) {
	case F_PROC_PEXE:
		if (pp->args && pp->args_len)
			set_str(v, pp->args, strnlen(pp->args, pp->args_len));
		break;
	case F_PROC_PEXEPATH:
		if (pp->exe && pp->exe[0])
			set_cstr(v, pp->exe);
		break;
	default:
		pos = strnlen(pp->comm, AS_COMM_LEN);
		memcpy(buf, pp->comm, pos);
		buf[pos] = 0;
		if (pp->args)
			join_args(buf, cap, &pos, pp->args, pp->args_len, 1);
		set_str(v, buf, pos);
		break;
	}
}

/* proc.is_exe_*: the exec's own flags, else what the table kept from it */
static void extract_exe_kind(struct evctx *c, int f, struct fval *v)
{
	const struct proc_entry *pe;
	uint32_t fl;

	if (c->ev->hdr->type == AS_EV_EXEC) {
		fl = c->ev->u.exec->pflags;
	} else {
		pe = entry(c);
		if (!pe)
			return;
		fl = pe->exe_flags;
	}
	set_bool(v, !!(fl & (f == F_PROC_IS_EXE_FROM_MEMFD  ? AS_XF_EXE_MEMFD :
			     f == F_PROC_IS_EXE_WRITABLE    ? AS_XF_EXE_WRITABLE :
			     f == F_PROC_IS_EXE_UPPER_LAYER ? AS_XF_EXE_UPPER :
							      AS_XF_EXE_DELETED)));
}

/* The credentials an exec had before and whether it gained any. */
static void extract_exec_prev(const struct event *ev, int f, struct fval *v, char *buf, size_t cap)
{
	const struct as_exec *x = ev->u.exec;
	const struct as_hdr *h = ev->hdr;

	if (h->type != AS_EV_EXEC || ev->res < 0 || !(x->pflags & AS_XF_PREV))
		return;
	switch (f) {
	case F_PROC_EXEC_PRIV_RAISED:
		set_bool(v, x->prev_euid != h->euid || x->prev_egid != h->egid ||
				    (h->cap_permitted & ~x->prev_cap_permitted) != 0);
		break;
	case F_PROC_EXEC_PREV_UID:
		set_num(v, x->prev_uid);
		break;
	case F_PROC_EXEC_PREV_EUID:
		set_num(v, x->prev_euid);
		break;
	case F_PROC_EXEC_PREV_EGID:
		set_num(v, x->prev_egid);
		break;
	default:
		set_cstr(v, cap_names(x->prev_cap_permitted, buf, cap));
		break;
	}
}

/* ---- lineage ---- */

/* The process's lineage: an exec's or snapshot's own, else the table's. */
static const struct as_lineage *lineage_of(struct evctx *c)
{
	const struct proc_entry *pe;

	if (has_exec_strings(c->ev) && c->ev->res >= 0 && c->ev->u.exec->lin.n)
		return &c->ev->u.exec->lin;
	pe = entry(c);
	return pe && pe->lin && pe->lin->n ? pe->lin : NULL;
}

/* Entry i's executable path: what an exec of that identity said, or the
 * process's own for its own exec. */
static const char *lineage_exe(struct evctx *c, const struct as_lineage *l, int i)
{
	const char *p = c->pt ? proctable_exe_path(c->pt, l->e[i].dev, l->e[i].ino) : NULL;

	if (!p && i == 0 && !(l->forked & 1))
		p = proc_str(c, &c->ev->exe, offsetof(struct proc_entry, exe));
	return p;
}

/* Index of the nearest agent in the lineage, or -1. */
static int lineage_agent(struct evctx *c, const struct as_lineage *l)
{
	for (int i = 0; i < l->n && i < AS_LINEAGE_MAX; i++)
		if (agentid_is_agent(&l->e[i], lineage_exe(c, l, i)))
			return i;
	return -1;
}

int fields_any_range(struct evctx *c, int f, int *first)
{
	const struct as_lineage *l;

	if (f != F_PROC_LINEAGE_NAME && f != F_PROC_LINEAGE_PID && f != F_PROC_LINEAGE_EXEPATH) {
		*first = 1; /* proc.aname, proc.apid: from the parent up */
		return c->ev->hdr->n_anc < AS_MAX_ANCESTORS ? c->ev->hdr->n_anc : AS_MAX_ANCESTORS;
	}
	*first = 0;
	l = lineage_of(c);
	return l ? (l->n < AS_LINEAGE_MAX ? l->n : AS_LINEAGE_MAX) - 1 : -1;
}

/* /agent-sandbox/<session> as whole components of the cgroup path */
static int in_sandbox_cgroup(const char *cg, const char *sess)
{
	static const char dir[] = "/agent-sandbox/";
	size_t ls = strlen(sess);

	for (const char *p = cg ? strstr(cg, dir) : NULL; p; p = strstr(p + 1, dir)) {
		const char *q = p + sizeof(dir) - 1;

		if (!strncmp(q, sess, ls) && (q[ls] == 0 || q[ls] == '/'))
			return 1;
	}
	return 0;
}

static void extract_lineage(struct evctx *c, int f, int32_t idx, struct fval *v, char *buf,
			    size_t cap)
{
	const struct as_lineage *l = lineage_of(c);
	const struct as_hdr *h = c->ev->hdr;
	const char *s;
	int i;

	if (f == F_AGENT_SANDBOXED) {
		const struct proc_entry *pe;
		const char *sess = h->session;

		if (!sess[0] && (pe = entry(c)))
			sess = pe->session;
		if (sess[0])
			set_bool(v, h->seccomp != 0 &&
					    in_sandbox_cgroup(proc_str(c, &c->ev->cgroup,
								       offsetof(struct proc_entry, cgroup)),
							      sess));
		return;
	}
	if (!l)
		return;
	switch (f) {
	case F_PROC_LINEAGE_LEN:
		set_num(v, l->n);
		return;
	case F_PROC_LINEAGE_TRUNCATED:
		set_bool(v, !!(l->flags & AS_LIN_TRUNC));
		return;
	case F_PROC_IS_REPARENTED:
		i = lineage_creator(l, h->pid);
		if (i >= 0)
			set_bool(v, l->e[i].pid != h->ppid);
		return;
	case F_AGENT_ANCESTOR_NAME:
	case F_AGENT_ANCESTOR_PID:
	case F_AGENT_ANCESTOR_EXEPATH:
		i = lineage_agent(c, l);
		if (i < 0)
			return;
		if (f == F_AGENT_ANCESTOR_NAME)
			set_comm(v, l->e[i].comm);
		else if (f == F_AGENT_ANCESTOR_PID)
			set_num(v, l->e[i].pid);
		else
			set_cstr(v, lineage_exe(c, l, i));
		return;
	default:
		break;
	}
	if (idx < 0) { /* in an output: every entry, [0] first */
		size_t pos = 0;

		buf[0] = 0;
		for (i = 0; i < l->n && i < AS_LINEAGE_MAX && pos + 32 < cap; i++) {
			if (f == F_PROC_LINEAGE_NAME)
				pos += (size_t)snprintf(buf + pos, cap - pos, "%s%.*s", i ? " " : "",
							AS_COMM_LEN, l->e[i].comm);
			else if (f == F_PROC_LINEAGE_PID)
				pos += (size_t)snprintf(buf + pos, cap - pos, "%s%u", i ? " " : "",
							l->e[i].pid);
			else
				pos += (size_t)snprintf(buf + pos, cap - pos, "%s%s", i ? " " : "",
							(s = lineage_exe(c, l, i)) ? s : "?");
		}
		set_str(v, buf, pos);
		v->type = T_STR;
		return;
	}
	if (idx >= l->n || idx >= AS_LINEAGE_MAX)
		return;
	if (f == F_PROC_LINEAGE_NAME)
		set_comm(v, l->e[idx].comm);
	else if (f == F_PROC_LINEAGE_PID)
		set_num(v, l->e[idx].pid);
	else
		set_cstr(v, lineage_exe(c, l, idx));
}

/* Ancestor idx: 0 is the process itself, 1 its parent. */
static int ancestor(const struct as_hdr *h, int32_t idx, const char **comm, uint32_t *pid)
{
	if (idx == 0) {
		*comm = h->comm;
		*pid = h->pid;
		return 1;
	}
	if (idx < 0 || idx - 1 >= h->n_anc || idx - 1 >= AS_MAX_ANCESTORS)
		return 0;
	*comm = h->anc[idx - 1].comm;
	*pid = h->anc[idx - 1].pid;
	return 1;
}

/* Every field; out of line so that the fields fields_extract takes first
 * do not pay for this frame. */
static __attribute__((noinline)) void extract_any(struct evctx *c, int f, int32_t idx,
						  const char *arg, struct fval *v, char *buf,
						  size_t cap)
{
	const struct event *ev = c->ev;
	const struct as_hdr *h = ev->hdr;
	const struct proc_entry *pe;
	const char *s;
	uint32_t len, pid;
	size_t pos;
	struct tm tm;
	time_t secs;

	memset(v, 0, sizeof(*v));
	v->type = fields_table[f].type;
	switch (f) {
	case F_EVT_TYPE:
		set_cstr(v, names_evt_type(h->type, h->syscall));
		break;
	case F_EVT_DIR:
		set_cstr(v, "<");
		break;
	case F_EVT_TIME:
	case F_EVT_RAWTIME:
		set_num(v, (int64_t)ev->ts);
		break;
	case F_EVT_TIME_ISO:
		secs = (time_t)(ev->ts / 1000000000ull);
		gmtime_r(&secs, &tm);
		pos = strftime(buf, cap, "%Y-%m-%dT%H:%M:%S", &tm);
		snprintf(buf + pos, cap - pos, ".%09lluZ",
			 (unsigned long long)(ev->ts % 1000000000ull));
		set_cstr(v, buf);
		break;
	case F_EVT_NUM:
		set_num(v, (int64_t)ev->num);
		break;
	case F_EVT_RES:
		if (has_res(ev)) {
			char tmp[16];

			snprintf(buf, cap, "%s", names_res(event_res(ev), tmp));
			set_cstr(v, buf);
		}
		break;
	case F_EVT_RAWRES:
		if (has_res(ev))
			set_num(v, event_res(ev));
		break;
	case F_EVT_FAILED:
		if (has_res(ev))
			set_bool(v, event_res(ev) < 0);
		break;
	case F_EVT_IS_OPEN_READ:
	case F_EVT_IS_OPEN_WRITE:
		if (h->type == AS_EV_OPEN)
			set_bool(v, !!(engine_open_class(ev) &
				       (f == F_EVT_IS_OPEN_READ ? AS_OPEN_READ : AS_OPEN_WRITE)));
		break;
	case F_EVT_ARG:
		extract_arg(c, arg, v, buf, cap);
		break;
	case F_PROC_NAME:
		set_comm(v, h->comm);
		break;
	case F_PROC_PID:
		set_num(v, h->pid);
		break;
	case F_PROC_TID:
	case F_THREAD_TID:
		set_num(v, h->tid);
		break;
	case F_PROC_PPID:
		set_num(v, h->ppid);
		break;
	case F_PROC_PNAME:
		if (h->n_anc > 0)
			set_comm(v, h->anc[0].comm);
		break;
	case F_PROC_EXE:
		s = proc_args(c, &len);
		if (s && len)
			set_str(v, s, strnlen(s, len));
		break;
	case F_PROC_EXEPATH:
		set_cstr(v, proc_str(c, &ev->exe, offsetof(struct proc_entry, exe)));
		break;
	case F_PROC_CMDLINE:
		pos = strnlen(h->comm, AS_COMM_LEN);
		memcpy(buf, h->comm, pos);
		buf[pos] = 0;
		s = proc_args(c, &len);
		if (s)
			join_args(buf, cap, &pos, s, len, 1);
		set_str(v, buf, pos);
		break;
	case F_PROC_ARGS:
		s = proc_args(c, &len);
		if (s) {
			pos = 0;
			buf[0] = 0;
			join_args(buf, cap, &pos, s, len, 0);
			set_str(v, buf, pos);
		}
		break;
	case F_PROC_CWD:
		set_cstr(v, proc_str(c, &ev->cwd, offsetof(struct proc_entry, cwd)));
		break;
	case F_PROC_ANAME:
	case F_PROC_APID:
		if (idx < 0) { /* in an output: every ancestor, parent first */
			pos = 0;
			buf[0] = 0;
			for (int i = 1; ancestor(h, i, &s, &pid) && pos + 32 < cap; i++) {
				if (f == F_PROC_ANAME)
					pos += (size_t)snprintf(buf + pos, cap - pos, "%s%.*s",
								pos ? " " : "", AS_COMM_LEN, s);
				else
					pos += (size_t)snprintf(buf + pos, cap - pos, "%s%u",
								pos ? " " : "", pid);
			}
			if (pos)
				set_str(v, buf, pos);
			v->type = T_STR;
			break;
		}
		if (!ancestor(h, idx, &s, &pid))
			break;
		if (f == F_PROC_ANAME)
			set_comm(v, s);
		else
			set_num(v, pid);
		break;
	case F_PROC_SID:
		set_num(v, h->sid);
		break;
	case F_PROC_VPID:
		set_num(v, h->vpid);
		break;
	case F_PROC_TTY:
		set_num(v, h->tty);
		break;
	case F_PROC_CGROUP:
		extract_cgroup(c, v, buf, cap);
		break;
	case F_THREAD_CGROUPS:
		pe = entry(c);
		if (pe && pe->cgroups && pe->cgroups[0])
			set_cstr(v, pe->cgroups);
		break;
	case F_CONTAINER_ID:
		pe = entry(c);
		if (pe && pe->container_id[0])
			set_cstr(v, pe->container_id);
		break;
	case F_CONTAINER_FULL_ID:
	case F_CONTAINER_TYPE:
	case F_CONTAINER_NAME:
	case F_CONTAINER_IMAGE:
	case F_CONTAINER_IMAGE_REPOSITORY:
	case F_CONTAINER_IMAGE_TAG:
	case F_CONTAINER_IMAGE_DIGEST:
	case F_CONTAINER_PRIVILEGED:
	case F_CONTAINER_MOUNTS:
	case F_CONTAINER_LABELS:
	case F_CONTAINER_LABEL:
	case F_K8S_POD_NAME:
	case F_K8S_NS_NAME:
	case F_K8S_POD_UID:
	case F_K8S_POD_SANDBOX_ID:
	case F_K8S_POD_FULL_SANDBOX_ID:
	case F_K8S_POD_LABELS:
	case F_K8S_POD_LABEL:
		extract_container(c, f, arg, v, buf, cap);
		break;
	case F_USER_UID:
		set_num(v, h->euid);
		break;
	case F_USER_NAME:
		set_cstr(v, usercache_user(h->euid));
		break;
	case F_USER_RUID:
		set_num(v, h->uid);
		break;
	case F_GROUP_RGID:
		set_num(v, h->gid);
		break;
	case F_USER_LOGINUID:
		set_num(v, h->loginuid == AS_ID_UNSET ? -1 : (int64_t)h->loginuid);
		break;
	case F_GROUP_GID:
		set_num(v, h->egid);
		break;
	case F_GROUP_NAME:
		set_cstr(v, usercache_group(h->egid));
		break;
	case F_AGENT_SESSION:
		len = (uint32_t)strnlen(h->session, AS_SESSION_MAX);
		if (len) {
			set_str(v, h->session, len);
		} else {
			pe = entry(c);
			if (pe && pe->session[0])
				set_str(v, pe->session, strnlen(pe->session, AS_SESSION_MAX));
		}
		break;
	case F_FS_PATH_NAME:
	case F_FS_PATH_NAMERAW:
	case F_FS_PATH_SOURCE:
	case F_FS_PATH_SOURCERAW:
	case F_FS_PATH_TARGET:
	case F_FS_PATH_TARGETRAW:
		extract_fspath(ev, f, v);
		break;
	case F_THREAD_CAP_EFFECTIVE:
		set_cstr(v, cap_names(h->cap_effective, buf, cap));
		break;
	case F_THREAD_CAP_PERMITTED:
		set_cstr(v, cap_names(h->cap_permitted, buf, cap));
		break;
	case F_THREAD_CAP_INHERITABLE:
		set_cstr(v, cap_names(h->cap_inheritable, buf, cap));
		break;
	case F_PROC_PEXE:
	case F_PROC_PEXEPATH:
	case F_PROC_PCMDLINE:
		extract_parent(c, f, v, buf, cap);
		break;
	case F_PROC_DURATION:
		if (h->start_ns) {
			uint64_t start = (h->flags & AS_HF_WALL_START) ? h->start_ns :
									  clock_boot_to_wall(h->start_ns);

			set_num(v, ev->ts > start ? (int64_t)(ev->ts - start) : 0);
		}
		break;
	case F_PROC_IS_EXE_FROM_MEMFD:
	case F_PROC_IS_EXE_WRITABLE:
	case F_PROC_IS_EXE_UPPER_LAYER:
	case F_PROC_IS_EXE_DELETED:
		extract_exe_kind(c, f, v);
		break;
	case F_PROC_EXEC_PRIV_RAISED:
	case F_PROC_EXEC_PREV_UID:
	case F_PROC_EXEC_PREV_EUID:
	case F_PROC_EXEC_PREV_EGID:
	case F_PROC_EXEC_PREV_CAP_PERMITTED:
		extract_exec_prev(ev, f, v, buf, cap);
		break;
	case F_THREAD_SECCOMP:
		set_num(v, h->seccomp);
		break;
	case F_THREAD_NO_NEW_PRIVS:
		set_bool(v, !!(h->sflags & AS_SF_NO_NEW_PRIVS));
		break;
	case F_PROC_LINEAGE_NAME:
	case F_PROC_LINEAGE_PID:
	case F_PROC_LINEAGE_EXEPATH:
	case F_PROC_LINEAGE_LEN:
	case F_PROC_LINEAGE_TRUNCATED:
	case F_AGENT_ANCESTOR_NAME:
	case F_AGENT_ANCESTOR_PID:
	case F_AGENT_ANCESTOR_EXEPATH:
	case F_PROC_IS_REPARENTED:
	case F_AGENT_SANDBOXED:
		extract_lineage(c, f, idx, v, buf, cap);
		break;
	default:
		extract_fd(c, f, v, buf, cap);
		break;
	}
}

int fields_direct_ok(int f)
{
	return f == F_PROC_NAME || f == F_PROC_PNAME || f == F_PROC_ANAME ||
	       f == F_EVT_IS_OPEN_READ || f == F_EVT_IS_OPEN_WRITE || f == F_FD_NAME ||
	       f == F_FD_NUM || f == F_FD_FILENAME;
}

int fields_direct(const struct event *ev, int f, int32_t idx, struct fval *v)
{
	const struct as_hdr *h = ev->hdr;
	const char *comm;
	uint32_t pid;

	/* as extract_any does; for what conditions test on most events */
	switch (f) {
	case F_PROC_NAME:
		*v = (struct fval){ .type = T_STR };
		set_comm(v, h->comm);
		return 1;
	case F_PROC_PNAME:
		idx = 1;
		/* fall through */
	case F_PROC_ANAME:
		if (idx < 0)
			return 0;
		*v = (struct fval){ .type = T_STR };
		if (ancestor(h, idx, &comm, &pid))
			set_comm(v, comm);
		return 1;
	case F_EVT_IS_OPEN_READ:
	case F_EVT_IS_OPEN_WRITE:
		*v = (struct fval){ .type = T_BOOL };
		if (h->type == AS_EV_OPEN)
			set_bool(v, !!(engine_open_class(ev) &
				       (f == F_EVT_IS_OPEN_READ ? AS_OPEN_READ : AS_OPEN_WRITE)));
		return 1;
	case F_FD_NAME:
		if (h->type != AS_EV_OPEN)
			return 0;
		*v = (struct fval){ .type = T_STR };
		set_str(v, ev->path.s, ev->path.len);
		return 1;
	case F_FD_NUM:
		if (h->type != AS_EV_OPEN)
			return 0;
		*v = (struct fval){ .type = T_NUM };
		set_num(v, ev->res < 0 ? -1 : ev->res);
		return 1;
	case F_FD_FILENAME:
		if (h->type != AS_EV_OPEN)
			return 0;
		*v = (struct fval){ .type = T_STR };
		extract_fd_open(ev, f, v, NULL, 0);
		return 1;
	default:
		return 0;
	}
}

void fields_extract(struct evctx *c, int f, int32_t idx, const char *arg, struct fval *v,
		    char *buf, size_t cap)
{
	if (!fields_direct(c->ev, f, idx, v))
		extract_any(c, f, idx, arg, v, buf, cap);
}
