// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include "json.h"
#include "names.h"
#include "trace.h"
#include "container/cgpath.h"
#include "usercache.h"

static const struct {
	uint64_t bit;
	const char *name;
} open_flag_names[] = {
	{ O_CREAT, "O_CREAT" },	      { O_EXCL, "O_EXCL" },	    { O_NOCTTY, "O_NOCTTY" },
	{ O_TRUNC, "O_TRUNC" },	      { O_APPEND, "O_APPEND" },	    { O_NONBLOCK, "O_NONBLOCK" },
	{ O_DSYNC, "O_DSYNC" },	      { O_DIRECT, "O_DIRECT" },	    { O_DIRECTORY, "O_DIRECTORY" },
	{ O_NOFOLLOW, "O_NOFOLLOW" }, { O_NOATIME, "O_NOATIME" },   { O_CLOEXEC, "O_CLOEXEC" },
	{ O_PATH, "O_PATH" },
};

void trace_open_flags(uint64_t flags, char *buf, size_t cap)
{
	size_t len;

	snprintf(buf, cap, "%s",
		 (flags & O_ACCMODE) == O_WRONLY ? "O_WRONLY" :
		 (flags & O_ACCMODE) == O_RDWR	 ? "O_RDWR" :
						   "O_RDONLY");
	for (size_t i = 0; i < sizeof(open_flag_names) / sizeof(open_flag_names[0]); i++) {
		if (!(flags & open_flag_names[i].bit))
			continue;
		len = strlen(buf);
		snprintf(buf + len, cap - len, "|%s", open_flag_names[i].name);
	}
}

/* proc.cmdline as Falco: name, then the arguments after argv[0], space-joined. */
static void put_cmdline(struct jw *w, const char *comm, const char *args, uint32_t len)
{
	const char *a0end = memchr(args, 0, len);

	jw_key(w, "proc.cmdline");
	jw_raw(w, "\"", 1);
	jw_escape(w, comm, strlen(comm));
	if (a0end) {
		const char *p = a0end + 1, *end = args + len;

		while (p < end) {
			const char *nul = memchr(p, 0, (size_t)(end - p));
			size_t l = nul ? (size_t)(nul - p) : (size_t)(end - p);

			jw_raw(w, " ", 1);
			jw_escape(w, p, l);
			p += l + 1;
		}
	}
	jw_raw(w, "\"", 1);
	jw_arr_open(w, "proc.args");
	if (a0end) {
		const char *p = a0end + 1, *end = args + len;

		while (p < end) {
			const char *nul = memchr(p, 0, (size_t)(end - p));
			size_t l = nul ? (size_t)(nul - p) : (size_t)(end - p);

			jw_strn(w, NULL, p, l);
			p += l + 1;
		}
	}
	jw_arr_close(w);
	jw_strn(w, "proc.exe", args, a0end ? (size_t)(a0end - args) : len);
}

static void put_process(struct jw *w, const struct event *ev, const struct proctable *pt)
{
	const struct as_hdr *h = ev->hdr;
	const struct proc_entry *pe = pt ? proctable_lookup(pt, h->pid) : NULL;
	int exec_like = h->type == AS_EV_EXEC || h->type == AS_EV_PROC;
	char key[32];

	jw_u64(w, "proc.pid", h->pid);
	jw_u64(w, "proc.tid", h->tid);
	jw_u64(w, "proc.ppid", h->ppid);
	jw_u64(w, "proc.vpid", h->vpid);
	jw_u64(w, "proc.sid", h->sid);
	jw_u64(w, "proc.tty", h->tty);
	jw_str(w, "proc.name", h->comm);
	if (h->n_anc)
		jw_str(w, "proc.pname", h->anc[0].comm);
	else
		jw_null(w, "proc.pname");
	for (unsigned i = 0; i < h->n_anc; i++) {
		snprintf(key, sizeof(key), "proc.aname[%u]", i + 1);
		jw_str(w, key, h->anc[i].comm);
		snprintf(key, sizeof(key), "proc.apid[%u]", i + 1);
		jw_u64(w, key, h->anc[i].pid);
	}
	jw_bool(w, "proc.aname.truncated", (h->flags & AS_HF_ANC_TRUNC) != 0);
	if (exec_like && ev->res == 0) {
		jw_str(w, "proc.exepath", ev->exe.s);
		put_cmdline(w, h->comm, ev->args, ev->args_len);
		jw_str(w, "proc.cwd", ev->cwd.s);
	} else if (pe && pe->exe) {
		jw_str(w, "proc.exepath", pe->exe);
		put_cmdline(w, pe->comm, pe->args, pe->args_len);
		jw_str(w, "proc.cwd", pe->cwd);
	} else {
		jw_null(w, "proc.exepath");
		jw_null(w, "proc.cmdline");
		jw_null(w, "proc.cwd");
	}
	jw_u64(w, "proc.cgroupid", h->cgroup_id);
	if (exec_like && ev->res == 0)
		jw_str(w, "proc.cgroup", ev->cgroup.s);
	else
		jw_str(w, "proc.cgroup", pe && pe->cgroup ? pe->cgroup : NULL);
	jw_str(w, "thread.cgroups", pe && pe->cgroups ? pe->cgroups : NULL);
	jw_str(w, "container.id", pe ? pe->container_id : NULL);
	jw_str(w, "container.type",
	       pe && pe->container_id[0] ? cgpath_type_name(pe->container_type) : NULL);
	if (h->flags & AS_HF_SESSION)
		jw_str(w, "agent.session", h->session);
	else
		jw_str(w, "agent.session", pe && pe->session[0] ? pe->session : NULL);
	jw_u64(w, "user.uid", h->euid);
	jw_str(w, "user.name", usercache_user(h->euid));
	jw_u64(w, "user.ruid", h->uid);
	jw_u64(w, "user.loginuid", h->loginuid);
	jw_u64(w, "group.gid", h->egid);
	jw_str(w, "group.name", usercache_group(h->egid));
	jw_u64(w, "group.rgid", h->gid);
}

static void put_path(struct jw *w, const char *key, const struct event_path *p)
{
	jw_str(w, key, p->s);
	if (p->flags & EV_PATH_TRUNC) {
		char k[64];

		snprintf(k, sizeof(k), "%s.truncated", key);
		jw_bool(w, k, 1);
	}
}

static void put_exec(struct jw *w, const struct event *ev)
{
	const struct as_exec *x = ev->u.exec;

	put_path(w, "evt.arg.filename", &ev->filename);
	jw_bool(w, "evt.arg.args.truncated", (x->pflags & AS_XF_ARGS_TRUNC) != 0);
	if (ev->res < 0) { /* the attempted command line, not the caller's */
		jw_arr_open(w, "evt.arg.argv");
		for (const char *p = ev->args, *end = ev->args + ev->args_len; p < end;) {
			const char *nul = memchr(p, 0, (size_t)(end - p));
			size_t l = nul ? (size_t)(nul - p) : (size_t)(end - p);

			jw_strn(w, NULL, p, l);
			p += l + 1;
		}
		jw_arr_close(w);
	}
	if (ev->exe.flags & EV_PATH_TRUNC)
		jw_bool(w, "proc.exepath.truncated", 1);
}

static void put_open(struct jw *w, const struct event *ev)
{
	const struct as_open *o = ev->u.open;
	const char *slash = strrchr(ev->path.s, '/');
	uint64_t acc = o->flags & O_ACCMODE;
	char flags[256];

	put_path(w, "fd.name", &ev->path);
	jw_i64(w, "fd.num", o->res >= 0 ? o->res : -1);
	jw_str(w, "fd.typechar", "f");
	jw_str(w, "fd.type", "file");
	if (slash) {
		jw_strn(w, "fd.directory", ev->path.s, slash == ev->path.s ? 1 : (size_t)(slash - ev->path.s));
		jw_str(w, "fd.filename", slash + 1);
	}
	trace_open_flags(o->flags, flags, sizeof(flags));
	jw_str(w, "evt.arg.flags", flags);
	jw_u64(w, "evt.rawarg.flags", o->flags);
	jw_u64(w, "evt.arg.mode", o->mode);
	if (o->hdr.syscall == AS_SC_OPENAT || o->hdr.syscall == AS_SC_OPENAT2)
		jw_i64(w, "evt.arg.dirfd", o->dirfd);
	jw_bool(w, "evt.is_open_read", acc == O_RDONLY || acc == O_RDWR);
	jw_bool(w, "evt.is_open_write", acc == O_WRONLY || acc == O_RDWR);
	if (o->res >= 0) {
		jw_u64(w, "fd.ino", o->ino);
		jw_u64(w, "fd.dev", o->dev);
	}
}

static void put_connect(struct jw *w, const struct event *ev)
{
	const struct as_connect *c = ev->u.conn;
	char dst[INET6_ADDRSTRLEN] = "", src[INET6_ADDRSTRLEN] = "";
	char name[2 * INET6_ADDRSTRLEN + 32];
	const char *s;
	int v6 = c->family == AF_INET6;

	jw_i64(w, "fd.num", c->fd);
	jw_u64(w, "evt.arg.family", c->family);
	s = names_sockfamily(c->family);
	jw_str(w, "fd.sockfamily", s);
	jw_str(w, "fd.l4proto", names_l4proto(c->family, c->proto, c->sock_type));
	if (c->family == AF_INET || v6) {
		inet_ntop(c->family, c->daddr, dst, sizeof(dst));
		inet_ntop(c->family, c->saddr, src, sizeof(src));
		jw_str(w, "fd.typechar", v6 ? "6" : "4");
		jw_str(w, "fd.type", v6 ? "ipv6" : "ipv4");
		jw_str(w, "fd.sip", dst);
		jw_u64(w, "fd.sport", c->dport);
		jw_str(w, "fd.rip", dst);
		jw_u64(w, "fd.rport", c->dport);
		if (c->cflags & AS_CF_LOCAL) {
			jw_str(w, "fd.cip", src);
			jw_u64(w, "fd.cport", c->sport);
			snprintf(name, sizeof(name), v6 ? "[%s]:%u->[%s]:%u" : "%s:%u->%s:%u", src,
				 c->sport, dst, c->dport);
		} else {
			snprintf(name, sizeof(name), v6 ? "[%s]:%u" : "%s:%u", dst, c->dport);
		}
		jw_str(w, "fd.name", name);
	} else if (c->family == AF_UNIX) {
		jw_str(w, "fd.typechar", "u");
		jw_str(w, "fd.type", "unix");
		jw_key(w, "fd.name");
		/* abstract sockets print with a leading '@', as ss(8) and Falco do */
		jw_raw(w, (c->cflags & AS_CF_ABSTRACT) ? "\"@" : "\"", (c->cflags & AS_CF_ABSTRACT) ? 2 : 1);
		jw_escape(w, c->path + ((c->cflags & AS_CF_ABSTRACT) ? 1 : 0),
			  strnlen(c->path + ((c->cflags & AS_CF_ABSTRACT) ? 1 : 0), c->path_len));
		jw_raw(w, "\"", 1);
		jw_bool(w, "fd.unix.abstract", (c->cflags & AS_CF_ABSTRACT) != 0);
	}
}

static void put_setid(struct jw *w, const struct event *ev)
{
	static const char *const arg_names[AS_SC_MAX][3] = {
		[AS_SC_SETUID] = { "uid" },	       [AS_SC_SETGID] = { "gid" },
		[AS_SC_SETREUID] = { "ruid", "euid" }, [AS_SC_SETREGID] = { "rgid", "egid" },
		[AS_SC_SETRESUID] = { "ruid", "euid", "suid" },
		[AS_SC_SETRESGID] = { "rgid", "egid", "sgid" },
	};
	const struct as_setid *s = ev->u.setid;
	char key[32];

	for (int i = 0; i < 3; i++) {
		const char *n = arg_names[s->hdr.syscall][i];

		if (!n)
			break;
		snprintf(key, sizeof(key), "evt.arg.%s", n);
		/* -1 means "unchanged" to the kernel; print it as -1 */
		if (s->id[i] == AS_ID_UNSET)
			jw_i64(w, key, -1);
		else
			jw_u64(w, key, s->id[i]);
	}
}

static void put_capset(struct jw *w, const struct event *ev)
{
	const struct as_capset *c = ev->u.capset;

	jw_u64(w, "evt.arg.cap_effective", c->effective);
	jw_u64(w, "evt.arg.cap_permitted", c->permitted);
	jw_u64(w, "evt.arg.cap_inheritable", c->inheritable);
	jw_u64(w, "evt.arg.pid", c->target_pid);
	jw_u64(w, "evt.arg.version", c->version);
}

long trace_format(const struct event *ev, const struct proctable *pt, char *buf, size_t cap)
{
	const struct as_hdr *h = ev->hdr;
	struct jw w;
	char rb[16];

	jw_init(&w, buf, cap);
	jw_obj_open(&w, NULL);
	jw_u64(&w, "evt.num", ev->num);
	jw_u64(&w, "evt.time", ev->ts);
	jw_str(&w, "evt.type", names_evt_type(h->type, h->syscall));
	if (h->type != AS_EV_FORK && h->type != AS_EV_EXIT && h->type != AS_EV_PROC) {
		jw_str(&w, "evt.res", names_res(ev->res, rb));
		jw_i64(&w, "evt.rawres", ev->res);
	}
	put_process(&w, ev, pt);
	switch (h->type) {
	case AS_EV_EXEC:
	case AS_EV_PROC:
		put_exec(&w, ev);
		break;
	case AS_EV_OPEN:
		put_open(&w, ev);
		break;
	case AS_EV_CONNECT:
		put_connect(&w, ev);
		break;
	case AS_EV_SETID:
		put_setid(&w, ev);
		break;
	case AS_EV_CAPSET:
		put_capset(&w, ev);
		break;
	case AS_EV_FORK:
		jw_u64(&w, "evt.arg.child_pid", ev->u.fork->child_pid);
		break;
	case AS_EV_EXIT:
		jw_i64(&w, "evt.arg.status", ev->u.exit->exit_code);
		break;
	default:
		break;
	}
	jw_obj_close(&w);
	return jw_finish(&w);
}

int trace_write(const struct event *ev, const struct proctable *pt, FILE *out)
{
	static char line[TRACE_LINE_MAX];
	long n = trace_format(ev, pt, line, sizeof(line));

	if (n < 0)
		return -E2BIG;
	if (fwrite(line, 1, (size_t)n, out) != (size_t)n)
		return -EIO;
	return 0;
}
