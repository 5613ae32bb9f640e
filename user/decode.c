// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include "decode.h"
#include "names.h"
#include "pathnorm.h"

static const size_t fixed_sizes[AS_EV_MAX] = {
	[AS_EV_EXEC] = sizeof(struct as_exec),	     [AS_EV_FORK] = sizeof(struct as_fork),
	[AS_EV_EXIT] = sizeof(struct as_exit),	     [AS_EV_OPEN] = sizeof(struct as_open),
	[AS_EV_CONNECT] = sizeof(struct as_connect), [AS_EV_SETID] = sizeof(struct as_setid),
	[AS_EV_CAPSET] = sizeof(struct as_capset),   [AS_EV_PROC] = sizeof(struct as_exec),
	[AS_EV_FILE] = sizeof(struct as_sys),	     [AS_EV_SYS] = sizeof(struct as_sys),
	[AS_EV_URING] = sizeof(struct as_sys),
};

size_t decode_fixed_size(unsigned type)
{
	return type < AS_EV_MAX ? fixed_sizes[type] : 0;
}

#define DECODE_FAIL(...)                                          \
	do {                                                      \
		snprintf(err, DECODE_ERR_MAX, __VA_ARGS__);       \
		return -EINVAL;                                   \
	} while (0)

static void path_clear(struct event_path *p, char *buf)
{
	buf[0] = 0;
	p->s = buf;
	p->len = 0;
	p->flags = 0;
}

static uint32_t path_flags(uint32_t kernel_bits)
{
	return ((kernel_bits & AS_PATH_TRUNC) ? EV_PATH_TRUNC : 0) |
	       ((kernel_bits & AS_PATH_DETACHED) ? EV_PATH_DETACHED : 0);
}

/* A plain string of len bytes that must end in its first NUL. */
static int plain_ok(const char *s, size_t len)
{
	return len == 0 || memchr(s, 0, len) == s + len - 1;
}

static int put_components(struct event_path *p, char *buf, size_t cap, const char *list,
			  size_t len, uint32_t kbits)
{
	long n = pathnorm_from_components(list, len, buf, cap);

	if (n < 0)
		return -1;
	p->s = buf;
	p->len = (uint32_t)n;
	p->flags = path_flags(kbits);
	return 0;
}

static int put_plain(struct event_path *p, char *buf, size_t cap, const char *s, size_t len)
{
	if (!plain_ok(s, len) || len > cap)
		return -1;
	if (len)
		memcpy(buf, s, len);
	else
		buf[0] = 0;
	p->s = buf;
	p->len = len ? (uint32_t)len - 1 : 0;
	p->flags = 0;
	return 0;
}

static int decode_exec(const struct as_exec *x, size_t len, struct event *ev,
		       char err[DECODE_ERR_MAX])
{
	const char *p = (const char *)(x + 1);
	size_t var = (size_t)x->filename_len + x->args_len + x->exe_len + x->cwd_len +
		     x->cgroup_len + x->ldpath_len;
	int plain = (x->pflags & AS_XF_PLAIN) != 0;

	if (sizeof(*x) + var != len)
		DECODE_FAIL("exec record: string lengths %zu do not match record size %zu", var,
			    len - sizeof(*x));
	/* the loader's search path ends the record */
	ev->ldpath = NULL;
	ev->exec_flags = x->pflags;
	if (!(x->pflags & AS_XF_LD_PATH) != !x->ldpath_len ||
	    !plain_ok((const char *)x + len - x->ldpath_len, x->ldpath_len))
		DECODE_FAIL("exec record: LD_LIBRARY_PATH flag and value (%u bytes) disagree or "
			    "the value is not NUL-terminated",
			    x->ldpath_len);
	if (x->ldpath_len) {
		ev->ldpath = (const char *)x + len - x->ldpath_len;
		/* until user/ldpath.c judges it, or a recording says it was */
		if (!(x->pflags & AS_XF_LD_PATH_ROOT))
			ev->exec_flags |= AS_XF_LD_ENV;
	}
	if (put_plain(&ev->filename, ev->filename_buf, sizeof(ev->filename_buf), p,
		      x->filename_len))
		DECODE_FAIL("exec record: filename not NUL-terminated");
	if (x->pflags & AS_XF_FILENAME_TRUNC)
		ev->filename.flags |= EV_PATH_TRUNC;
	p += x->filename_len;
	ev->args = p;
	ev->args_len = x->args_len;
	ev->args_trunc = (x->pflags & AS_XF_ARGS_TRUNC) != 0;
	p += x->args_len;
	if (plain) {
		const char *all = p + x->exe_len + x->cwd_len, *u;

		if (put_plain(&ev->exe, ev->exe_buf, sizeof(ev->exe_buf), p, x->exe_len) ||
		    put_plain(&ev->cwd, ev->cwd_buf, sizeof(ev->cwd_buf), p + x->exe_len,
			      x->cwd_len) ||
		    !plain_ok(all, x->cgroup_len) || x->cgroup_len == 0)
			DECODE_FAIL("proc record: exe, cwd or cgroups not NUL-terminated");
		/* a snapshot carries every hierarchy; the v2 path is the unified= one */
		ev->cgroups = all;
		u = strstr(all, "unified=");
		if (u && (u == all || u[-1] == ' '))
			snprintf(ev->cgroup_buf, sizeof(ev->cgroup_buf), "%.*s",
				 (int)strcspn(u + 8, " "), u + 8);
		else
			snprintf(ev->cgroup_buf, sizeof(ev->cgroup_buf), "/");
		ev->cgroup.len = (uint32_t)strlen(ev->cgroup_buf);
		return 0;
	}
	if (x->exe_len == 0 && x->hdr.type == AS_EV_EXEC) {
		path_clear(&ev->exe, ev->exe_buf); /* a kernel thread has no exe */
	} else if (put_components(&ev->exe, ev->exe_buf, sizeof(ev->exe_buf), p, x->exe_len,
				  x->pflags >> AS_XF_EXE_SHIFT)) {
		DECODE_FAIL("exec record: malformed exe path");
	}
	p += x->exe_len;
	if (put_components(&ev->cwd, ev->cwd_buf, sizeof(ev->cwd_buf), p, x->cwd_len,
			   x->pflags >> AS_XF_CWD_SHIFT))
		DECODE_FAIL("exec record: malformed cwd path");
	p += x->cwd_len;
	if (put_components(&ev->cgroup, ev->cgroup_buf, sizeof(ev->cgroup_buf), p, x->cgroup_len,
			   x->pflags >> AS_XF_CGROUP_SHIFT))
		DECODE_FAIL("exec record: malformed cgroup path");
	return 0;
}

/* After the path of an opened file with no link, as /proc shows it. */
#define DECODE_NOLINK " (deleted)"

/* A file with no link left: /proc's way to say so ("/memfd:NAME (deleted)") */
static void mark_nolink(struct event_path *p, char *buf, size_t cap)
{
	if (p->len + sizeof(DECODE_NOLINK) <= cap) {
		memcpy(buf + p->len, DECODE_NOLINK, sizeof(DECODE_NOLINK));
		p->len += sizeof(DECODE_NOLINK) - 1;
	}
}

/* What decode_base answers for a base that is a nameless file. */
static const char decode_nameless[] = "";

/* The directory a relative path starts from: the kernel's component list
 * of it (blen bytes at comp, rendered into scratch) when has_base says it
 * walked one; NULL when it walked none. A walk that reached no name at all
 * ended at the task's root, "/", or, past that root, at a nameless file
 * (a pipe, a socket): decode_nameless. Returns -1 for a malformed list. */
static int decode_base(int has_base, const char *comp, size_t blen, uint32_t walk, char *scratch,
		       size_t cap, const char **bdir)
{
	*bdir = NULL;
	if (blen) {
		if (pathnorm_from_components(comp, blen, scratch, cap) < 0)
			return -1;
		*bdir = scratch;
	} else if (has_base) {
		*bdir = (walk & AS_PATH_DETACHED) ? decode_nameless : "/";
	}
	return 0;
}

static int decode_open(const struct as_open *o, size_t len, struct event *ev,
		       char err[DECODE_ERR_MAX])
{
	const char *p = (const char *)(o + 1);
	char *base = ev->cwd_buf; /* the base directory is scratch here */
	size_t raw = 0; /* bytes of the string as passed after a resolved path */
	const char *bdir;
	long n;

	ev->str[0] = NULL; /* fd.nameraw: the string as passed, when the record has it */
	ev->str_len[0] = 0;
	if (o->pflags & AS_OF_RAW) {
		if (!(o->pflags & AS_OF_RESOLVED) || len < sizeof(*o) + o->path_len + o->base_len)
			DECODE_FAIL("open record: string as passed without a resolved path");
		raw = len - sizeof(*o) - o->path_len - o->base_len;
	}
	if (sizeof(*o) + o->path_len + o->base_len + raw != len)
		DECODE_FAIL("open record: path lengths do not match record size");
	if (o->pflags & AS_OF_RESOLVED) {
		if (o->base_len)
			DECODE_FAIL("open record: resolved path with a base directory");
		if (put_components(&ev->path, ev->path_buf, sizeof(ev->path_buf), p, o->path_len,
				   o->pflags >> AS_OF_PATH_SHIFT))
			DECODE_FAIL("open record: malformed resolved path");
		if ((o->pflags & AS_OF_FIFO) && (ev->path.flags & EV_PATH_DETACHED) && !o->path_len) {
			/* an anonymous pipe (pipefs) has no path: the kernel's name
			 * for it, as /proc/PID/fd shows it */
			int k = snprintf(ev->path_buf, sizeof(ev->path_buf), "pipe:[%llu]",
					 (unsigned long long)o->ino);

			ev->path.s = ev->path_buf;
			ev->path.len = (uint32_t)k;
		} else if (o->pflags & AS_OF_NOLINK) {
			mark_nolink(&ev->path, ev->path_buf, sizeof(ev->path_buf));
		}
		if (raw) {
			if (!plain_ok(p + o->path_len, raw))
				DECODE_FAIL("open record: string as passed not NUL-terminated");
			ev->str[0] = p + o->path_len;
			ev->str_len[0] = (uint32_t)(raw - 1);
		}
		return 0;
	}
	if (!plain_ok(p, o->path_len) || o->path_len == 0)
		DECODE_FAIL("open record: path not NUL-terminated");
	ev->str[0] = p;
	ev->str_len[0] = (uint32_t)(o->path_len - 1);
	if (decode_base(!!(o->pflags & (AS_OF_BASE_CWD | AS_OF_BASE_DIRFD)), p + o->path_len,
			o->base_len, o->pflags >> AS_OF_BASE_SHIFT, base, sizeof(ev->cwd_buf), &bdir))
		DECODE_FAIL("open record: malformed base directory");
	n = pathnorm_join(bdir == decode_nameless ? NULL : bdir, p, ev->path_buf,
			  sizeof(ev->path_buf));
	if (n < 0)
		DECODE_FAIL("open record: path too long");
	ev->cwd_buf[0] = 0;
	ev->path.s = ev->path_buf;
	ev->path.len = (uint32_t)n;
	ev->path.flags = ((o->pflags & AS_OF_USER_TRUNC) ? EV_PATH_TRUNC : 0) |
			 path_flags(o->pflags >> AS_OF_BASE_SHIFT);
	return 0;
}

static int nul_within(const char *s, size_t n);

/* An io_uring request's sockaddr (slot bytes) as a connect record has it. */
static void sockaddr_to_connect(const unsigned char *sa, size_t len, struct as_connect *c)
{
	uint16_t family;

	memset(c, 0, sizeof(*c));
	if (len < sizeof(family))
		return;
	memcpy(&family, sa, sizeof(family));
	c->family = family;
	c->cflags = AS_CF_ADDR;
	if (family == AF_INET && len >= 8) {
		c->dport = (uint16_t)(sa[2] << 8 | sa[3]);
		memcpy(c->daddr, sa + 4, 4);
	} else if (family == AF_INET6 && len >= 24) {
		c->dport = (uint16_t)(sa[2] << 8 | sa[3]);
		memcpy(c->daddr, sa + 8, 16);
	} else if (family == AF_UNIX) {
		size_t n = len - sizeof(family);

		if (n > AS_UNIX_PATH_MAX)
			n = AS_UNIX_PATH_MAX;
		memcpy(c->path, sa + sizeof(family), n);
		if (n && c->path[0] == 0) {
			c->cflags |= AS_CF_ABSTRACT;
			memmove(c->path, c->path + 1, n - 1);
			c->path[n - 1] = 0;
			n--;
		}
		c->path_len = (uint16_t)strnlen(c->path, n);
	}
}

/* Slot i of a generic record: p points at its bytes, then its base's. */
static int decode_slot(const struct as_sys *r, unsigned i, const char *p, struct event *ev,
		       struct event_path *out, char *buf, size_t cap, char err[DECODE_ERR_MAX])
{
	uint32_t fl = (r->pflags >> (i * AS_SYF_SLOT_BITS)) & ((1u << AS_SYF_SLOT_BITS) - 1);
	uint32_t walk = fl >> AS_SYF_WALK_SHIFT;
	size_t len = r->len[i], blen = r->base_len[i], flen = r->fdl_len[i];
	uint32_t fwalk = (r->pflags >> (AS_SYF_FDL_SHIFT + i * AS_SYF_FDL_BITS)) &
			 ((1u << AS_SYF_FDL_BITS) - 1);
	char *base = ev->cwd_buf; /* scratch, as for an open */
	const char *bdir;
	long n;

	if (!len) {
		if (blen)
			DECODE_FAIL("slot %u: a base directory without a path", i);
		if (flen)
			DECODE_FAIL("slot %u: an fd link without a path", i);
		return 0; /* no such argument, or an fd that was not open */
	}
	if (flen) {
		if (fl & (AS_SYF_RESOLVED | AS_SYF_PLAIN | AS_SYF_SOCKADDR))
			DECODE_FAIL("slot %u: an fd link on a slot that is no path string", i);
		if (r->fdl_fd[i] < 0)
			DECODE_FAIL("slot %u: an fd link of descriptor %d", i, r->fdl_fd[i]);
		if (pathnorm_from_components(p + len + blen, flen, ev->fdl_buf[i],
					     sizeof(ev->fdl_buf[i])) < 0)
			DECODE_FAIL("slot %u: malformed fd link path", i);
		if (!(fwalk & AS_PATH_TRUNC)) {
			ev->fdl[i] = ev->fdl_buf[i];
			ev->fdl_pseudo[i] = !!(fwalk & AS_PATH_DETACHED);
		}
	}
	if (fl & AS_SYF_RESOLVED) {
		if (blen || (fl & (AS_SYF_PLAIN | AS_SYF_SOCKADDR)))
			DECODE_FAIL("slot %u: a resolved path with other kinds", i);
		if (put_components(out, buf, cap, p, len, walk))
			DECODE_FAIL("slot %u: malformed resolved path", i);
		if (i == 0 && (r->pflags & AS_SYF_NOLINK))
			mark_nolink(out, buf, cap);
		return 0;
	}
	if (fl & AS_SYF_SOCKADDR) {
		if (blen || len > AS_SYS_SOCKADDR_MAX)
			DECODE_FAIL("slot %u: a %zu-byte sockaddr", i, len);
		sockaddr_to_connect((const unsigned char *)p, len, &ev->sockaddr);
		/* an io_uring request's socket: protocol and type in arg[3] */
		ev->sockaddr.proto = (uint16_t)(r->arg[3] & 0xffff);
		ev->sockaddr.sock_type = (uint16_t)(r->arg[3] >> 16);
		ev->has_sockaddr = 1;
		return 0;
	}
	if (!plain_ok(p, len))
		DECODE_FAIL("slot %u: string not NUL-terminated", i);
	ev->str[i] = p;
	ev->str_len[i] = (uint32_t)len - 1;
	if (fl & AS_SYF_PLAIN) {
		if (blen)
			DECODE_FAIL("slot %u: a plain string with a base directory", i);
		if (put_plain(out, buf, cap, p, len))
			DECODE_FAIL("slot %u: string too long", i);
		if (fl & AS_SYF_USER_TRUNC)
			out->flags |= EV_PATH_TRUNC;
		return 0;
	}
	if (decode_base(!!(fl & (AS_SYF_BASE_CWD | AS_SYF_BASE_DIRFD)), p + len, blen, walk, base,
			sizeof(ev->cwd_buf), &bdir))
		DECODE_FAIL("slot %u: malformed base directory", i);
	if (bdir == decode_nameless && len == 1) /* the empty path: that file itself */
		return 0;
	n = pathnorm_join(bdir == decode_nameless ? NULL : bdir, p, buf, cap);
	ev->cwd_buf[0] = 0;
	if (n < 0)
		DECODE_FAIL("slot %u: path too long", i);
	out->s = buf;
	out->len = (uint32_t)n;
	out->flags = ((fl & AS_SYF_USER_TRUNC) ? EV_PATH_TRUNC : 0) |
		     ((fl & (AS_SYF_BASE_CWD | AS_SYF_BASE_DIRFD)) ? path_flags(walk) : 0);
	return 0;
}

static int decode_sys(const struct as_sys *r, size_t len, struct event *ev,
		      char err[DECODE_ERR_MAX])
{
	const char *p = (const char *)(r + 1);
	size_t var = (size_t)r->len[0] + r->base_len[0] + r->fdl_len[0] + r->len[1] +
		     r->base_len[1] + r->fdl_len[1];

	if (sizeof(*r) + var != len)
		DECODE_FAIL("generic record: slot lengths %zu do not match record size %zu", var,
			    len - sizeof(*r));
	if (!nul_within(r->aux, sizeof(r->aux)))
		DECODE_FAIL("generic record: aux string not NUL-terminated");
	if (decode_slot(r, 0, p, ev, &ev->path, ev->path_buf, sizeof(ev->path_buf), err))
		return -EINVAL;
	p += r->len[0] + r->base_len[0] + r->fdl_len[0];
	return decode_slot(r, 1, p, ev, &ev->path2, ev->path2_buf, sizeof(ev->path2_buf), err) ?
		       -EINVAL : 0;
}

/* Every fixed char array we print must hold its NUL within bounds. */
/* The kernel pads every comm with NULs (set_task_comm) and clears the
 * header's session before filling it: the last byte says it at once; memchr
 * only for what is not padded (a hand-made or older recording). */
static int nul_within(const char *s, size_t n)
{
	return s[n - 1] == 0 || memchr(s, 0, n) != NULL;
}

static int hdr_strings_ok(const struct as_hdr *h)
{
	/* every comm's last byte, ORed without a loop (its own test cost as
	 * much as the byte); a search only when one is set. n_anc is at most
	 * AS_MAX_ANCESTORS here. */
	unsigned char last = (unsigned char)h->comm[AS_COMM_LEN - 1];
	unsigned i;

#define DECODE_ANC_LAST(k) (last |= (unsigned char)h->anc[k].comm[AS_COMM_LEN - 1])
	_Static_assert(AS_MAX_ANCESTORS == 12, "one case per ancestor below");
	switch (h->n_anc) {
	case 12: DECODE_ANC_LAST(11); /* fall through */
	case 11: DECODE_ANC_LAST(10); /* fall through */
	case 10: DECODE_ANC_LAST(9); /* fall through */
	case 9: DECODE_ANC_LAST(8); /* fall through */
	case 8: DECODE_ANC_LAST(7); /* fall through */
	case 7: DECODE_ANC_LAST(6); /* fall through */
	case 6: DECODE_ANC_LAST(5); /* fall through */
	case 5: DECODE_ANC_LAST(4); /* fall through */
	case 4: DECODE_ANC_LAST(3); /* fall through */
	case 3: DECODE_ANC_LAST(2); /* fall through */
	case 2: DECODE_ANC_LAST(1); /* fall through */
	case 1: DECODE_ANC_LAST(0); /* fall through */
	default: break;
	}
#undef DECODE_ANC_LAST
	if (last) {
		if (!nul_within(h->comm, sizeof(h->comm)))
			return 0;
		for (i = 0; i < h->n_anc; i++)
			if (!nul_within(h->anc[i].comm, sizeof(h->anc[i].comm)))
				return 0;
	}
	return nul_within(h->session, sizeof(h->session));
}

int decode_record(const void *rec, size_t len, struct event *ev, char err[DECODE_ERR_MAX])
{
	const struct as_hdr *h = rec;
	size_t fixed;

	if (len < sizeof(*h))
		DECODE_FAIL("record of %zu bytes is shorter than a header (%zu)", len, sizeof(*h));
	if (h->size != len)
		DECODE_FAIL("record header says %u bytes, got %zu", h->size, len);
	fixed = decode_fixed_size(h->type);
	if (!fixed)
		DECODE_FAIL("unknown record type %u", h->type);
	if (len < fixed)
		DECODE_FAIL("record type %u of %zu bytes is shorter than its fixed part (%zu)",
			    h->type, len, fixed);
	/* names_evt_type would say "unknown": a syscall not of this type */
	if (h->type != AS_EV_PROC &&
	    (h->syscall == AS_SC_NONE || names_syscall_type(h->syscall) != h->type))
		DECODE_FAIL("record type %u with syscall %u", h->type, h->syscall);
	if (h->n_anc > AS_MAX_ANCESTORS)
		DECODE_FAIL("record with %u ancestors (at most %u)", h->n_anc, AS_MAX_ANCESTORS);
	if (!hdr_strings_ok(h))
		DECODE_FAIL("record with an unterminated comm or session");

	ev->hdr = h;
	ev->u.raw = rec;
	ev->ts = h->ts;
	ev->res = 0;
	ev->args = "";
	ev->args_len = 0;
	ev->args_trunc = 0;
	ev->cgroups = NULL;
	path_clear(&ev->filename, ev->filename_buf);
	path_clear(&ev->exe, ev->exe_buf);
	path_clear(&ev->cwd, ev->cwd_buf);
	path_clear(&ev->cgroup, ev->cgroup_buf);
	path_clear(&ev->path, ev->path_buf);
	path_clear(&ev->path2, ev->path2_buf);
	ev->str[0] = ev->str[1] = NULL;
	ev->str_len[0] = ev->str_len[1] = 0;
	ev->fdl[0] = ev->fdl[1] = NULL;
	ev->fdl_pseudo[0] = ev->fdl_pseudo[1] = 0;
	ev->has_sockaddr = 0;

	switch (h->type) {
	case AS_EV_EXEC:
	case AS_EV_PROC:
		ev->res = ev->u.exec->res;
		return decode_exec(ev->u.exec, len, ev, err);
	case AS_EV_OPEN:
		ev->res = ev->u.open->res;
		return decode_open(ev->u.open, len, ev, err);
	case AS_EV_CONNECT:
		if (len != fixed)
			DECODE_FAIL("connect record of %zu bytes, expected %zu", len, fixed);
		/* an abstract name follows the leading NUL: one byte less of room */
		if (ev->u.conn->path_len >
		    AS_UNIX_PATH_MAX - ((ev->u.conn->cflags & AS_CF_ABSTRACT) ? 1 : 0))
			DECODE_FAIL("connect record with a %u-byte unix path",
				    ev->u.conn->path_len);
		ev->res = ev->u.conn->res;
		return 0;
	case AS_EV_SETID:
		ev->res = ev->u.setid->res;
		break;
	case AS_EV_CAPSET:
		ev->res = ev->u.capset->res;
		break;
	case AS_EV_FILE:
	case AS_EV_SYS:
	case AS_EV_URING:
		ev->res = ev->u.sys->res;
		return decode_sys(ev->u.sys, len, ev, err);
	default:
		break;
	}
	if (len != fixed)
		DECODE_FAIL("record type %u of %zu bytes, expected %zu", h->type, len, fixed);
	return 0;
}
