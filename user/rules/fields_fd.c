// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* fd.* of opens, io_uring requests and socket acts; fs.path.* of file
 * changes. Part of fields.c's translation unit (included there, not
 * compiled alone). */
#include <arpa/inet.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include "fields_int.h"
#include "names.h"
#include "dnsres.h"

static void fmt_ip(int family, const uint8_t *addr, char *buf, size_t cap)
{
	if (!inet_ntop(family == AF_INET6 ? AF_INET6 : AF_INET, addr, buf, (socklen_t)cap))
		snprintf(buf, cap, "?");
}

static int is_ip(const struct as_connect *k)
{
	return k->family == AF_INET || k->family == AF_INET6;
}

static void fields_fd_name_connect(const struct as_connect *k, char *buf, size_t cap)
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

unsigned engine_open_class(const struct event *ev)
{
	unsigned acc = (unsigned)ev->u.open->flags & O_ACCMODE, c = 0;

	if (ev->hdr->syscall == AS_SC_CREAT) { /* open(O_CREAT | O_WRONLY | O_TRUNC) */
		acc = O_WRONLY;
		c |= AS_OPEN_TRUNC;
	}
	if (acc == O_RDONLY || acc == O_RDWR)
		c |= AS_OPEN_READ;
	if (acc == O_WRONLY || acc == O_RDWR)
		c |= AS_OPEN_WRITE;
	if (ev->res >= 0)
		c |= AS_OPEN_OK;
	if (ev->u.open->flags & (O_TRUNC | AS_O_F_CREATED))
		c |= AS_OPEN_TRUNC;
	return c;
}

/* fd.procpid: N of a path /proc/N or /proc/N/..., N a pid (no sign, no
 * leading zero, at most PID_MAX_LIMIT); the process's own pid for
 * /proc/self and /proc/thread-self (the kernel's path walk resolves them,
 * but a path as passed, as Falco keeps it, may hold them); nothing for any
 * other path. */
#define FIELDS_PROC_PREFIX "/proc/"
#define FIELDS_PID_MAX 4194303 /* below PID_MAX_LIMIT (4194304) on 64-bit */

/* Does p (len bytes) start with the component c, then '/' or its end? */
static int fields_comp_is(const char *p, size_t len, const char *c)
{
	size_t n = strlen(c);

	return len >= n && !memcmp(p, c, n) && (len == n || p[n] == '/');
}

static void fields_procpid(const struct event *ev, const char *p, size_t len, struct fval *v)
{
	size_t pre = sizeof(FIELDS_PROC_PREFIX) - 1, i;
	int64_t n = 0;

	if (len <= pre || memcmp(p, FIELDS_PROC_PREFIX, pre))
		return;
	if (fields_comp_is(p + pre, len - pre, "self") ||
	    fields_comp_is(p + pre, len - pre, "thread-self")) {
		set_num(v, ev->hdr->pid);
		return;
	}
	if (p[pre] == '0')
		return;
	for (i = pre; i < len && p[i] != '/'; i++) {
		if (p[i] < '0' || p[i] > '9')
			return;
		n = n * 10 + (p[i] - '0');
		if (n > FIELDS_PID_MAX)
			return;
	}
	if (i > pre)
		set_num(v, n);
}

/* evt.is_sentinel_target of an open: an entry of agent-sentinel's own /proc
 * directory (its oom_score_adj, its mem), opened by a process of the host's
 * pid namespace, whose /proc numbers it as we do */
static int fields_sentinel_entry(const struct event *ev, const struct proctable *pt)
{
	const struct proctable_self *me = pt ? proctable_self(pt) : NULL;
	struct fval v = { 0 };

	if (!me || !me->pid || ev->hdr->vpid != ev->hdr->pid || !ev->path.s)
		return 0;
	fields_procpid(ev, ev->path.s, ev->path.len, &v);
	/* /proc/TID of one of our threads is our process's entry too */
	return v.present && fields_names_self(pt, me, (int32_t)v.n, (int32_t)v.n);
}

/* fd.* of an open, or of an io_uring request on a path as of one; pflags
 * the open's AS_OF_* (a request has none: its record's bytes there are the
 * request's). The path holds no NUL, so memrchr over its length is strrchr. */
static void fields_get_fd_path(const struct event *ev, uint32_t pflags, int f, struct fval *v,
			       char *buf, size_t cap)
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
	case F_FD_TYPECHAR: /* a pipe (named, or /dev/stdout onto one) is no file */
		if (pflags & AS_OF_FIFO)
			set_str(v, "p", 1);
		else
			set_str(v, "f", 1);
		break;
	case F_FD_TYPE:
		if (pflags & AS_OF_FIFO)
			set_str(v, "pipe", 4);
		else
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
	case F_FD_PROCPID:
		fields_procpid(ev, p, ev->path.len, v);
		break;
	case F_FD_IS_DELETED:
		set_bool(v, pflags & AS_OF_NOLINK);
		break;
	case F_FD_IS_FOREIGN_PIPE:
		set_bool(v, pflags & AS_OF_PIPE_FOREIGN);
		break;
	case F_FD_IS_RAWDEV:
		set_bool(v, pflags & AS_OF_RAWDEV);
		break;
	case F_FD_IS_SETID:
		set_bool(v, pflags & AS_OF_SETID);
		break;
	case F_FD_IS_TRACEE:
		set_bool(v, pflags & AS_OF_TRACEE);
		break;
	case F_FD_IS_DESCENDANT:
		set_bool(v, pflags & AS_OF_DESCENDANT);
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
	fields_get_fd_path(ev, 0, f, v, buf, cap);
}

/* fd.lip, fd.lport, fd.port, fd.net, fd.cnet ...: the address or port
 * field each stands for on this event. The local end is the client of a
 * connect or send, the server of an accepted socket (fd.rip's other end);
 * idx picks fd.port's and fd.net's end (0 the client, else the server). */
static int fd_accepted(const struct event *ev)
{
	const struct as_connect *k = ev->hdr->type == AS_EV_CONNECT ? ev->u.conn :
				     ev->has_sockaddr		 ? &ev->sockaddr :
								   NULL;
	unsigned sc = ev->hdr->syscall;

	/* listen and bind hold this end's address as the server's too */
	return k && ((k->cflags & AS_CF_PEER) || sc == AS_SC_LISTEN || sc == AS_SC_BIND);
}

static int fd_alias(const struct event *ev, int f, int32_t idx)
{
	switch (f) {
	case F_FD_LIP:
	case F_FD_LNET:
		return fd_accepted(ev) ? F_FD_SIP : F_FD_CIP;
	case F_FD_LPORT:
		return fd_accepted(ev) ? F_FD_SPORT : F_FD_CPORT;
	case F_FD_PORT:
		return idx == 0 ? F_FD_CPORT : F_FD_SPORT;
	case F_FD_IP:
		return idx == 0 ? F_FD_CIP : F_FD_SIP;
	case F_FD_NET:
		return idx == 0 ? F_FD_CIP : F_FD_SIP;
	case F_FD_CNET:
		return F_FD_CIP;
	case F_FD_SNET:
		return F_FD_SIP;
	case F_FD_RNET:
		return F_FD_RIP;
	default:
		return f;
	}
}

static void fields_get_fd(struct evctx *c, int f, struct fval *v, char *buf, size_t cap)
{
	const struct event *ev = c->ev;

	if (ev->hdr->type == AS_EV_OPEN) {
		fields_get_fd_path(ev, ev->u.open->pflags, f, v, buf, cap);
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
		fields_fd_name_connect(k, buf, cap);
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
	case F_FD_SIP_NAME:
	case F_FD_CIP_NAME:
	case F_FD_RIP_NAME: {
		/* the address fd.sip, fd.cip or fd.rip shows, by its name */
		const uint8_t *addr = f == F_FD_CIP_NAME ? (local ? k->saddr : NULL) :
				      f == F_FD_RIP_NAME && (k->cflags & AS_CF_PEER) ? k->saddr :
										    k->daddr;
		const char *name = ip && addr ? dnsres_name_of(k->family, addr) : NULL;

		if (name)
			set_cstr(v, name);
		break;
	}
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
	case F_FD_NETNS:
		if (k->netns)
			set_num(v, k->netns);
		break;
	case F_FD_IS_HOST_NETNS:
		set_bool(v, !(k->cflags & AS_CF_NETNS_OWN));
		break;
	case F_FD_IS_PEER_OWN_NETNS:
		set_bool(v, !!(k->cflags & AS_CF_PEER_NETNS_OWN));
		break;
	default:
		break;
	}
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

static void fields_get_fspath(const struct event *ev, int f, struct fval *v)
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
