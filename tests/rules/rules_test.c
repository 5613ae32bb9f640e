// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Data-driven rule engine tests. Events are built as kernel records in
 * memory and go through decode_record, proctable_apply and engine_process,
 * so the whole userspace pipeline runs without a kernel or root.
 *
 * *.test files hold cases:
 *   === name
 *   --- opts        (optional) "all" for rule_matching: all, "text" for --text,
 *                   "seq" for agent.seq, "nodiag" to leave diagnostics unchecked
 *   a section that is "@file:PATH" holds that file (PATH relative to --root)
 *   --- rules       YAML
 *   --- events      one event spec per line (see parse_event)
 *   --- expect      exact output lines
 *   --- diag        exact diagnostics (absent: none expected)
 *   --- rc          (optional) expected engine_load result: 0 or EINVAL
 *   --- dump        (optional) exact disassembly
 *   --- prefilter   (optional) "kept N dropped M": the derived kernel pre-filter
 *                   over the events (every case checks that no event that
 *                   alerted would have been dropped)
 *   an event key of note: junk=C sets every comm's bytes after its NUL to C;
 *   nolink=1 says an opened (or mapped) file has no link left (a memfd, a
 *   deleted file); interpnolink=1 that an exec's ELF interpreter has none;
 *   nltype=N (repeated: its messages) nlproto=P nlmore (messages unrecorded) give a netlink send's
 *   message types and netlink family,
 *   ownns=1 a socket in a network namespace not the host's; peerns=1 the unix
 *   server it reached in that same namespace (fd.is_peer_own_netns);
 *   a0..a5 are a generic (AS_EV_SYS) record's raw arguments
 * *.cond files hold a YAML prelude then triples:
 *   C: condition
 *   E: event spec
 *   R: 1 | 0 | error MESSAGE | warn MESSAGE (loads with that one warning)
 *      | 1 warn MESSAGE | 0 warn MESSAGE (loads with that one warning, and
 *      the condition gives 1 or 0 on the event)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include "engine.h"
#include "decode.h"
#include "names.h"
#include "proctable.h"

#define REC_MAX 16384 /* one built record */
#define SPEC_MAX 8192 /* one event line */

static int failures, cases;
static const char *agent_rules; /* --agent=PATH: what "@agent" in a rules section loads */
static const char *src_root; /* --root=DIR: what "@file:PATH" in a section is relative to */

struct buf {
	char *s;
	size_t len;
};

static void buf_add(struct buf *b, const char *s, size_t n)
{
	b->s = realloc(b->s, b->len + n + 1);
	if (!b->s)
		abort();
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

static void buf_free(struct buf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = 0;
}

/* ---- event specs ---- */

struct spec {
	char key[32];
	char val[SPEC_MAX];
};

/* Next key=value (value may be "quoted" with \" and \\ escapes). */
static const char *next_kv(const char *p, struct spec *kv)
{
	size_t k = 0, v = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p || *p == '\n')
		return NULL;
	while (*p && *p != '=' && *p != ' ' && k < sizeof(kv->key) - 1)
		kv->key[k++] = *p++;
	kv->key[k] = 0;
	if (*p == '=')
		p++;
	if (*p == '"') {
		p++;
		while (*p && *p != '"' && v < sizeof(kv->val) - 1) {
			if (*p == '\\' && p[1]) {
				p++;
				if (*p == 'n')
					kv->val[v++] = '\n';
				else if (*p == 'x' && p[1] && p[2]) {
					char h[3] = { p[1], p[2], 0 };

					kv->val[v++] = (char)strtol(h, NULL, 16);
					p += 2;
				} else
					kv->val[v++] = *p;
				p++;
				continue;
			}
			kv->val[v++] = *p++;
		}
		if (*p == '"')
			p++;
	} else {
		while (*p && *p != ' ' && *p != '\n' && v < sizeof(kv->val) - 1)
			kv->val[v++] = *p++;
	}
	kv->val[v] = 0;
	return p;
}

/* "/a/b/c" as the kernel sends it: "c\0b\0a\0" ("/" is empty) */
static size_t components(const char *path, char *out)
{
	size_t n = 0, end = strlen(path);

	while (end > 0) {
		size_t start = end;

		while (start > 0 && path[start - 1] != '/')
			start--;
		if (end > start) {
			memcpy(out + n, path + start, end - start);
			n += end - start;
			out[n++] = 0;
		}
		end = start ? start - 1 : 0;
	}
	return n;
}

static uint64_t open_flags(const char *s)
{
	static const struct {
		const char *n;
		uint64_t f;
	} t[] = { { "O_RDONLY", O_RDONLY }, { "O_WRONLY", O_WRONLY }, { "O_RDWR", O_RDWR },
		  { "O_CREAT", O_CREAT },   { "O_TRUNC", O_TRUNC },   { "O_APPEND", O_APPEND },
		  { "O_TMPFILE", O_TMPFILE }, { "O_DIRECTORY", O_DIRECTORY },
		  { "O_F_CREATED", AS_O_F_CREATED } };
	uint64_t f = 0;
	char tmp[256], *save, *tok;

	if (s[0] >= '0' && s[0] <= '9')
		return strtoull(s, NULL, 0);
	snprintf(tmp, sizeof(tmp), "%s", s);
	for (tok = strtok_r(tmp, "|", &save); tok; tok = strtok_r(NULL, "|", &save))
		for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
			if (!strcmp(tok, t[i].n))
				f |= t[i].f;
	return f;
}

/* Build one record from a spec line; returns its size or 0. */
static size_t build_record(const char *line, void *rec)
{
	struct as_hdr *h = rec;
	struct spec kv;
	unsigned type = AS_EV_EXEC, sc = AS_SC_EXECVE;
	char filename[4096] = "", args[4096] = "", exe[4096] = "", cwd[4096] = "",
	     cgroup[4096] = "", path[4096] = "", path1[4096] = "", upath[128] = "";
	size_t args_len = 0;
	int64_t res = 0;
	uint64_t flags = 0;
	uint32_t mode = 0, ids[3] = { AS_ID_UNSET, AS_ID_UNSET, AS_ID_UNSET };
	int family = AF_INET, proto = IPPROTO_TCP, fd = 3, local = 0, abstract = 0, passed = 0, nolink = 0, fifo = 0, nl = 0, ownns = 0,
	    peerns = 0;
	uint32_t ofl = 0; /* AS_OF_* an open's kernel said */
	uint32_t xfl = 0; /* AS_XF_* an exec's kernel said */
	uint16_t nltype[AS_NLMSG_SCAN] = { 0 }, nlproto = 0;
	int nlmore = 0;
	uint16_t dport = 0, sport = 0;
	uint8_t daddr[16] = { 0 }, saddr[16] = { 0 };
	uint64_t caps[3] = { 0 };
	uint64_t sysarg[AS_SYS_ARGS] = { 0 }, extra = 0;
	uint32_t child = 0, saved = AS_ID_UNSET;
	int has_saved = 0;
	int32_t status = 0;
	const char *p;
	char junk = 0;

	memset(rec, 0, REC_MAX);
	h->pid = h->tid = 100;
	h->ppid = 1;
	h->vpid = 100;
	h->sid = 100;
	h->loginuid = AS_ID_UNSET;
	h->ts = 1700000000123456789ull;
	strcpy(h->comm, "claude");
	/* sc first: it decides the type */
	for (p = line; (p = next_kv(p, &kv));)
		if (!strcmp(kv.key, "sc") && names_evt_type_parse(kv.val, &type, &sc)) {
			fprintf(stderr, "unknown sc '%s'\n", kv.val);
			return 0;
		}
	for (p = line; (p = next_kv(p, &kv));) {
		const char *k = kv.key, *v = kv.val;
		unsigned long long n = strtoull(v, NULL, 0);

		if (!strcmp(k, "sc"))
			continue;
		else if (!strcmp(k, "pid"))
			h->pid = (uint32_t)n, h->tid = h->tid == 100 ? (uint32_t)n : h->tid,
			h->vpid = h->vpid == 100 ? (uint32_t)n : h->vpid; /* the host's namespace */
		else if (!strcmp(k, "tid"))
			h->tid = (uint32_t)n;
		else if (!strcmp(k, "ppid"))
			h->ppid = (uint32_t)n;
		else if (!strcmp(k, "vpid"))
			h->vpid = (uint32_t)n;
		else if (!strcmp(k, "sid"))
			h->sid = (uint32_t)n;
		else if (!strcmp(k, "tty"))
			h->tty = (uint32_t)n;
		else if (!strcmp(k, "uid"))
			h->uid = h->euid = (uint32_t)n;
		else if (!strcmp(k, "euid"))
			h->euid = (uint32_t)n;
		else if (!strcmp(k, "gid"))
			h->gid = h->egid = (uint32_t)n;
		else if (!strcmp(k, "loginuid"))
			h->loginuid = (uint32_t)n;
		else if (!strcmp(k, "ts"))
			h->ts = n;
		else if (!strcmp(k, "seccomp")) /* the thread's seccomp mode: 2 a filter */
			h->seccomp = (uint8_t)n;
		else if (!strcmp(k, "nnp")) /* no_new_privs set */
			h->sflags |= AS_SF_NO_NEW_PRIVS;
		else if (!strcmp(k, "comm"))
			snprintf(h->comm, sizeof(h->comm), "%s", v);
		else if (!strcmp(k, "junk")) /* what follows each comm's NUL */
			junk = v[0];
		else if (!strcmp(k, "session")) {
			snprintf(h->session, sizeof(h->session), "%s", v);
			h->flags |= AS_HF_SESSION;
		} else if (!strcmp(k, "anc")) {
			char tmp[SPEC_MAX], *save, *tok;

			snprintf(tmp, sizeof(tmp), "%s", v);
			h->n_anc = 0;
			for (tok = strtok_r(tmp, ",", &save); tok && h->n_anc < AS_MAX_ANCESTORS;
			     tok = strtok_r(NULL, ",", &save)) {
				char *colon = strchr(tok, ':');

				if (colon)
					*colon++ = 0;
				snprintf(h->anc[h->n_anc].comm, AS_COMM_LEN, "%s", tok);
				h->anc[h->n_anc].pid = colon ? (uint32_t)atoi(colon) : 0;
				h->n_anc++;
			}
			if (h->n_anc)
				h->ppid = h->anc[0].pid;
		} else if (!strcmp(k, "res"))
			res = strtoll(v, NULL, 0);
		else if (!strcmp(k, "filename"))
			snprintf(filename, sizeof(filename), "%s", v);
		else if (!strcmp(k, "args")) { /* '|' separates argv */
			args_len = strlen(v) + 1;
			memcpy(args, v, args_len);
			for (size_t i = 0; i < args_len; i++)
				if (args[i] == '|')
					args[i] = 0;
		} else if (!strcmp(k, "exe"))
			snprintf(exe, sizeof(exe), "%s", v);
		else if (!strcmp(k, "cwd"))
			snprintf(cwd, sizeof(cwd), "%s", v);
		else if (!strcmp(k, "cgroup"))
			snprintf(cgroup, sizeof(cgroup), "%s", v);
		else if (!strcmp(k, "path"))
			snprintf(path, sizeof(path), "%s", v);
		else if (!strcmp(k, "path1")) /* a generic record's slot 1: a rename's new name */
			snprintf(path1, sizeof(path1), "%s", v);
		else if (!strcmp(k, "flags"))
			flags = open_flags(v);
		else if (!strcmp(k, "mode"))
			mode = (uint32_t)strtoul(v, NULL, 8);
		else if (!strcmp(k, "family"))
			family = !strcmp(v, "inet6") ? AF_INET6 : !strcmp(v, "unix") ? AF_UNIX :
				 v[0] >= '0' && v[0] <= '9' ? (int)n : AF_INET; /* or AF_* by number */
		else if (!strcmp(k, "proto"))
			proto = !strcmp(v, "udp") ? IPPROTO_UDP : IPPROTO_TCP;
		else if (!strcmp(k, "daddr"))
			inet_pton(family, v, daddr);
		else if (!strcmp(k, "saddr"))
			inet_pton(family, v, saddr), local = 1;
		else if (!strcmp(k, "dport"))
			dport = (uint16_t)n;
		else if (!strcmp(k, "sport"))
			sport = (uint16_t)n;
		else if (!strcmp(k, "upath"))
			snprintf(upath, sizeof(upath), "%s", v);
		else if (!strcmp(k, "abstract"))
			abstract = 1;
		else if (!strcmp(k, "nolink")) /* the opened file has no link left */
			nolink = 1;
		else if (!strcmp(k, "fifo")) /* the opened file is a pipe */
			fifo = 1;
		else if (!strcmp(k, "rawdev")) /* a disk or memory device */
			ofl |= AS_OF_RAWDEV;
		else if (!strcmp(k, "setid")) /* a setid file written or made */
			ofl |= AS_OF_SETID;
		else if (!strcmp(k, "tracee")) /* a /proc entry of the opener's tracee */
			ofl |= AS_OF_TRACEE;
		else if (!strcmp(k, "descendant")) /* a /proc entry of the writer's descendant */
			ofl |= AS_OF_DESCENDANT;
		else if (!strcmp(k, "ldenv")) /* an exec's environment sets LD_PRELOAD... */
			xfl |= AS_XF_LD_ENV;
		else if (!strcmp(k, "interpnolink")) /* an exec's ELF interpreter has no link */
			xfl |= AS_XF_INTERP_NOLINK;
		else if (!strcmp(k, "nltype") && nl < AS_NLMSG_SCAN) /* a netlink send's messages */
			nltype[nl++] = (uint16_t)n;
		else if (!strcmp(k, "nlproto"))
			nlproto = (uint16_t)n;
		else if (!strcmp(k, "nlmore")) /* messages the kernel did not record */
			nlmore = 1;
		else if (!strcmp(k, "ownns")) /* the socket's network namespace is not the host's */
			ownns = 1;
		else if (!strcmp(k, "peerns")) /* its unix server's is the same one */
			peerns = 1;
		else if (!strcmp(k, "compat")) /* made through the 32-bit ABI */
			h->flags |= n ? AS_HF_COMPAT : 0;
		else if (!strcmp(k, "passed")) /* the caller passed the address */
			passed = 1;
		else if (!strcmp(k, "fd"))
			fd = (int)n;
		else if (!strcmp(k, "id0") || !strcmp(k, "id1") || !strcmp(k, "id2"))
			ids[k[2] - '0'] = (uint32_t)n;
		else if (!strcmp(k, "eff"))
			caps[0] = n;
		else if (!strcmp(k, "capeff")) /* the header's: thread.cap_effective */
			h->cap_effective = n;
		else if (!strcmp(k, "child"))
			child = (uint32_t)n;
		else if (!strcmp(k, "saved")) { /* a setid call's saved id after it */
			saved = (uint32_t)n;
			has_saved = 1;
		} else if (!strcmp(k, "status"))
			status = (int32_t)n;
		else if (!strcmp(k, "extra")) /* a generic record's value behind an argument */
			extra = n;
		else if (k[0] == 'a' && k[1] >= '0' && k[1] < '0' + AS_SYS_ARGS && !k[2])
			sysarg[k[1] - '0'] = n; /* a generic record's raw arguments: a0..a5 */
		else {
			fprintf(stderr, "unknown event key '%s'\n", k);
			return 0;
		}
	}
	/* decode_record takes a comm with anything after its NUL; so must the engine */
	for (int i = -1; junk && i < (int)h->n_anc; i++) {
		char *comm = i < 0 ? h->comm : h->anc[i].comm;
		size_t n = strnlen(comm, AS_COMM_LEN);

		if (n + 1 < AS_COMM_LEN)
			memset(comm + n + 1, junk, AS_COMM_LEN - n - 1);
	}
	h->type = (uint16_t)type;
	h->syscall = (uint16_t)sc;
	switch (type) {
	case AS_EV_EXEC: {
		struct as_exec *x = rec;
		char *t = (char *)(x + 1);
		size_t n;

		x->res = res;
		x->pflags = xfl;
		n = strlen(filename) + 1;
		memcpy(t, filename, n);
		x->filename_len = (uint16_t)n;
		t += n;
		memcpy(t, args, args_len);
		x->args_len = (uint16_t)args_len;
		t += args_len;
		x->exe_len = (uint16_t)components(exe, t);
		t += x->exe_len;
		x->cwd_len = (uint16_t)components(cwd, t);
		t += x->cwd_len;
		x->cgroup_len = (uint16_t)components(cgroup, t);
		t += x->cgroup_len;
		h->size = (uint32_t)(t - (char *)rec);
		break;
	}
	case AS_EV_OPEN: {
		struct as_open *o = rec;
		size_t n = strlen(path) + 1;

		o->res = res;
		o->flags = flags;
		o->mode = mode;
		o->dirfd = -100;
		o->pflags = (nolink ? AS_OF_NOLINK : 0) | (fifo ? AS_OF_FIFO : 0) | ofl; /* an absolute user string, not resolved */
		memcpy(o + 1, path, n);
		o->path_len = (uint16_t)n;
		h->size = (uint32_t)(sizeof(*o) + n);
		break;
	}
	case AS_EV_CONNECT: {
		struct as_connect *c = rec;

		c->res = res;
		c->fd = fd;
		c->family = (uint16_t)family;
		c->proto = (uint16_t)(family == AF_UNIX ? 0 : proto);
		c->sock_type = proto == IPPROTO_UDP ? SOCK_DGRAM : SOCK_STREAM;
		c->dport = dport;
		c->sport = sport;
		memcpy(c->daddr, daddr, 16);
		memcpy(c->saddr, saddr, 16);
		c->cflags = (local ? AS_CF_LOCAL : 0) | (abstract ? AS_CF_ABSTRACT : 0) |
			    (passed ? AS_CF_ADDR : 0) | (nl || nlmore ? AS_CF_NLMSG : 0) |
			    (nlmore ? AS_CF_NLMSG_MORE : 0) | (ownns ? AS_CF_NETNS_OWN : 0) |
			    (peerns ? AS_CF_PEER_NETNS_OWN : 0);
		if (nl || nlmore) {
			c->proto = nlproto;
			c->dport = (uint16_t)nl;
			memcpy(c->daddr, nltype, sizeof(nltype));
		}
		/* as the kernel sends it: an abstract name after its NUL, which
		 * path_len leaves out */
		c->path_len = (uint16_t)strlen(upath);
		memcpy(c->path + (abstract ? 1 : 0), upath, strlen(upath));
		h->size = sizeof(*c);
		break;
	}
	case AS_EV_SETID: {
		struct as_setid *s = rec;

		s->res = res;
		memcpy(s->id, ids, sizeof(ids));
		/* the kernel's: by default the effective id after the call (the
		 * saved one follows it unless the call kept another) */
		s->saved = has_saved ? saved :
			   sc == AS_SC_SETUID || sc == AS_SC_SETREUID || sc == AS_SC_SETRESUID ? h->euid :
			   sc == AS_SC_SETGID || sc == AS_SC_SETREGID || sc == AS_SC_SETRESGID ? h->egid :
			   AS_ID_UNSET;
		h->size = sizeof(*s);
		break;
	}
	case AS_EV_CAPSET: {
		struct as_capset *c = rec;

		c->res = res;
		c->effective = caps[0];
		h->size = sizeof(*c);
		break;
	}
	case AS_EV_FORK: {
		struct as_fork *f = rec;

		f->child_pid = f->child_tid = child;
		h->size = sizeof(*f);
		break;
	}
	case AS_EV_FILE:
	case AS_EV_URING: /* a0 the opcode, a4 the user_data */
	case AS_EV_SYS: { /* the generic record; path= is slot 0 as the file behind an fd */
		struct as_sys *y = rec;

		y->res = res;
		memcpy(y->arg, sysarg, sizeof(sysarg));
		y->extra = extra;
		h->size = sizeof(*y);
		if (path[0]) {
			y->len[0] = (uint16_t)components(path, (char *)(y + 1));
			y->pflags = AS_SYF_RESOLVED | (nolink ? AS_SYF_NOLINK : 0);
			h->size += y->len[0];
		}
		if (path1[0]) {
			y->len[1] = (uint16_t)components(path1, (char *)(y + 1) + y->len[0]);
			y->pflags |= AS_SYF_RESOLVED << AS_SYF_SLOT_BITS;
			h->size += y->len[1];
		}
		break;
	}
	default: {
		((struct as_exit *)rec)->exit_code = status;
		h->size = sizeof(struct as_exit);
		break;
	}
	}
	return h->size;
}

/* ---- running ---- */

static struct event ev; /* large: one, reused */
static _Alignas(8) char rec[REC_MAX];

/*
 * Load rules, run events; output into out, diagnostics into diag, and into
 * pf what the kernel pre-filter derived from the rules would do with the
 * events ("kept N dropped M"). Every case also checks that the pre-filter is
 * conservative: an event that raised an alert must pass it.
 */
static int run(const char *yaml, const char *events, const struct engine_opts *o, struct buf *out,
	       struct buf *diag, struct buf *dump, struct buf *pf)
{
	struct engine_kfilter kf;
	unsigned kept = 0, dropped = 0;
	char *ob = NULL, *db = NULL, *pb = NULL;
	size_t ol = 0, dl = 0, pl = 0;
	FILE *of = open_memstream(&ob, &ol), *df = open_memstream(&db, &dl);
	FILE *pf_dump = open_memstream(&pb, &pl);
	struct engine *e = NULL;
	struct proctable *pt = proctable_new(1024);
	/* agent-sentinel as a replay knows it: pid and process group 777 */
	static const struct proctable_self self = { .pid = 777, .pgid = 777 };
	int rc = engine_load_buffer(&e, "test.yaml", yaml, strlen(yaml), o, df);
	uint64_t num = 0;

	if (pt)
		proctable_set_self(pt, &self);
	if (e) {
		const char *l = events;

		engine_dump(e, pf_dump);
		engine_kfilter(e, &kf);
		while (l && *l) {
			const char *nl = strchr(l, '\n');
			char line[SPEC_MAX];
			size_t n = nl ? (size_t)(nl - l) : strlen(l), len, before;
			char err[DECODE_ERR_MAX];

			snprintf(line, sizeof(line), "%.*s", (int)n, l);
			l = nl ? nl + 1 : NULL;
			if (!line[0] || line[0] == '#')
				continue;
			len = build_record(line, rec);
			if (!len) {
				fprintf(of, "BAD EVENT: %s\n", line);
				continue;
			}
			if (decode_record(rec, len, &ev, err)) {
				fprintf(of, "DECODE: %s\n", err);
				continue;
			}
			ev.num = ++num;
			proctable_apply(pt, &ev);
			fflush(of);
			before = ol;
			engine_process(e, &ev, pt, of);
			fflush(of);
			if (engine_kfilter_pass(&kf, &ev)) {
				kept++;
			} else {
				dropped++;
				if (getenv("RULES_TEST_SHOW_DROPS")) /* when a count changes: which */
					fprintf(stderr, "pre-filter dropped: %s\n", line);
				if (ol != before)
					fprintf(of, "PRE-FILTER DROPPED AN EVENT THAT ALERTED: %s\n", line);
			}
			proctable_retire(pt, &ev);
		}
	}
	engine_free(e);
	proctable_free(pt);
	fclose(of);
	fclose(df);
	fclose(pf_dump);
	buf_add(out, ob, ol);
	buf_add(diag, db, dl);
	if (dump)
		buf_add(dump, pb, pl);
	if (pf) {
		char line[64];

		snprintf(line, sizeof(line), "kept %u dropped %u\n", kept, dropped);
		buf_add(pf, line, strlen(line));
	}
	free(ob);
	free(db);
	free(pb);
	return rc;
}

static void check(const char *file, const char *name, const char *what, const char *want,
		  const char *got)
{
	if (!strcmp(want, got))
		return;
	failures++;
	fprintf(stderr, "FAIL %s: %s: %s\n--- want\n%s--- got\n%s---\n", file, name, what, want,
		got);
}

enum { S_OPTS, S_RULES, S_EVENTS, S_EXPECT, S_DIAG, S_RC, S_DUMP, S_PREFILTER, S_MAX };
static const char *const sec_names[S_MAX] = { "opts",	"rules", "events", "expect",
					      "diag",	"rc",	 "dump",   "prefilter" };

struct tcase {
	char name[256];
	struct buf sec[S_MAX];
	int has[S_MAX];
};

/* A section's text replaced by a file's bytes (a missing file: empty, so
 * the case fails on its expectations). */
static void include_file(struct buf *b, const char *path)
{
	FILE *f = fopen(path, "r");
	char chunk[4096];
	size_t n;

	if (!f)
		fprintf(stderr, "%s: cannot read\n", path);
	buf_free(b);
	buf_add(b, "", 0);
	while (f && (n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_add(b, chunk, n);
	if (f)
		fclose(f);
}

static void run_case(const char *file, struct tcase *t)
{
	struct engine_opts o = { .json = 1, .hostname = "testhost" };
	struct buf out = { 0 }, diag = { 0 }, dump = { 0 }, pf = { 0 };
	char want_rc[32], got_rc[32];
	int rc;

	if (!t->name[0])
		return;
	cases++;
	for (int i = 0; i < S_MAX; i++)
		if (!t->sec[i].s)
			buf_add(&t->sec[i], "", 0);
	if (!strncmp(t->sec[S_RULES].s, "@agent", 6) && agent_rules)
		include_file(&t->sec[S_RULES], agent_rules);
	for (int i = 0; i < S_MAX; i++) {
		char path[4096];

		if (strncmp(t->sec[i].s, "@file:", 6) || !src_root)
			continue;
		snprintf(path, sizeof(path), "%s/%.*s", src_root,
			 (int)strcspn(t->sec[i].s + 6, "\n"), t->sec[i].s + 6);
		include_file(&t->sec[i], path);
	}
	if (strstr(t->sec[S_OPTS].s, "all"))
		o.rule_matching_all = 1;
	if (strstr(t->sec[S_OPTS].s, "text"))
		o.json = 0;
	if (strstr(t->sec[S_OPTS].s, "seq"))
		o.seq = 1;
	if (strstr(t->sec[S_OPTS].s, "min=notice"))
		o.min_priority = ENGINE_PRIO_NOTICE;
	rc = run(t->sec[S_RULES].s, t->sec[S_EVENTS].s, &o, &out, &diag, &dump, &pf);
	check(file, t->name, "alerts", t->sec[S_EXPECT].s, out.s ? out.s : "");
	if (!strstr(t->sec[S_OPTS].s, "nodiag"))
		check(file, t->name, "diagnostics", t->sec[S_DIAG].s, diag.s ? diag.s : "");
	snprintf(want_rc, sizeof(want_rc), "%s", t->has[S_RC] ? t->sec[S_RC].s : "0\n");
	snprintf(got_rc, sizeof(got_rc), "%s\n", rc == -EINVAL ? "EINVAL" : rc ? "ERR" : "0");
	check(file, t->name, "load result", want_rc, got_rc);
	if (t->has[S_DUMP])
		check(file, t->name, "dump", t->sec[S_DUMP].s, dump.s ? dump.s : "");
	if (t->has[S_PREFILTER])
		check(file, t->name, "pre-filter", t->sec[S_PREFILTER].s, pf.s ? pf.s : "");
	buf_free(&out);
	buf_free(&pf);
	buf_free(&diag);
	buf_free(&dump);
}

static void free_case(struct tcase *t)
{
	for (int i = 0; i < S_MAX; i++)
		buf_free(&t->sec[i]);
	memset(t, 0, sizeof(*t));
}

static int run_test_file(const char *file)
{
	FILE *f = fopen(file, "r");
	char line[SPEC_MAX];
	struct tcase t = { 0 };
	int cur = -1;

	if (!f) {
		perror(file);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "=== ", 4)) {
			run_case(file, &t);
			free_case(&t);
			snprintf(t.name, sizeof(t.name), "%s", line + 4);
			t.name[strcspn(t.name, "\n")] = 0;
			cur = -1;
			continue;
		}
		if (!strncmp(line, "--- ", 4)) {
			cur = -1;
			for (int i = 0; i < S_MAX; i++)
				if (!strncmp(line + 4, sec_names[i], strlen(sec_names[i])))
					cur = i;
			if (cur >= 0) {
				t.has[cur] = 1;
				buf_add(&t.sec[cur], "", 0);
			}
			continue;
		}
		if (cur >= 0)
			buf_add(&t.sec[cur], line, strlen(line));
	}
	run_case(file, &t);
	free_case(&t);
	fclose(f);
	return 0;
}

/* The prelude's lists serve all triples, so most go unused in any one:
 * their warnings are not what a triple tests. */
static void drop_unused_list_warnings(struct buf *d)
{
	struct buf keep = { 0 };
	const char *l = d->s;

	buf_add(&keep, "", 0);
	while (l && *l) {
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) + 1 : strlen(l);

		if (!memmem(l, n, "list is not used by any", 23))
			buf_add(&keep, l, n);
		l += n;
	}
	buf_free(d);
	*d = keep;
}

/* *.cond: prelude YAML, then C:/E:/R: triples */
static int run_cond_file(const char *file)
{
	FILE *f = fopen(file, "r");
	char line[SPEC_MAX], cond[SPEC_MAX] = "", evt[SPEC_MAX] = "";
	struct buf prelude = { 0 };
	int in_prelude = 1, lineno = 0;

	if (!f) {
		perror(file);
		return -1;
	}
	buf_add(&prelude, "", 0);
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "C: ", 3)) {
			in_prelude = 0;
			snprintf(cond, sizeof(cond), "%s", line + 3);
		} else if (!strncmp(line, "E: ", 3)) {
			snprintf(evt, sizeof(evt), "%s", line + 3);
		} else if (!strncmp(line, "R: ", 3)) {
			struct engine_opts o = { .json = 1, .hostname = "h" };
			struct buf y = { 0 }, out = { 0 }, diag = { 0 };
			char name[64], want[SPEC_MAX], got[SPEC_MAX];
			const char *r = line + 3;
			int rc;

			cases++;
			buf_add(&y, prelude.s, prelude.len);
			buf_add(&y, "- rule: t\n  desc: t\n  output: o\n  priority: INFO\n"
				    "  warn_evttypes: false\n  condition: |-\n    ",
				strlen("- rule: t\n  desc: t\n  output: o\n  priority: INFO\n"
				       "  warn_evttypes: false\n  condition: |-\n    "));
			buf_add(&y, cond, strlen(cond));
			buf_add(&y, "\n", 1);
			rc = run(y.s, evt, &o, &out, &diag, NULL, NULL);
			drop_unused_list_warnings(&diag);
			snprintf(name, sizeof(name), "line %d", lineno);
			if (!strncmp(r, "error ", 6) || !strncmp(r, "warn ", 5)) {
				const char *m = diag.s ? strstr(diag.s, "rule 't': ") : NULL;
				int is_err = r[0] == 'e';

				snprintf(want, sizeof(want), "%s\n", r + (is_err ? 6 : 5));
				snprintf(got, sizeof(got), "%s", m ? m + 10 : (diag.s ? diag.s : ""));
				check(file, name, cond, want, got);
				if (is_err && rc != -EINVAL)
					check(file, name, "rc", "EINVAL", "0");
				if (!is_err && (rc || !strstr(diag.s, ": warning: ")))
					check(file, name, "rc", "0 and a warning", diag.s);
			} else {
				const char *w = strstr(r, " warn ");
				size_t n = 0;

				for (const char *p = out.s; p && *p; p++)
					n += *p == '\n';
				snprintf(want, sizeof(want), "%.*s", (int)(w ? (size_t)(w - r) : strlen(r)), r);
				snprintf(got, sizeof(got), "%zu", n);
				if (w) {
					const char *m = diag.s ? strstr(diag.s, "rule 't': ") : NULL;
					char wmsg[SPEC_MAX];

					snprintf(wmsg, sizeof(wmsg), "%s\n", w + 6);
					check(file, name, "warning", wmsg,
					      m && strstr(diag.s, ": warning: ") ? m + 10 : diag.s ? diag.s : "");
				} else if (diag.len) {
					snprintf(got, sizeof(got), "diag: %s", diag.s);
				}
				check(file, name, cond, want, got);
			}
			buf_free(&y);
			buf_free(&out);
			buf_free(&diag);
		} else if (in_prelude) {
			buf_add(&prelude, line, strlen(line));
			buf_add(&prelude, "\n", 1);
		}
	}
	buf_free(&prelude);
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	setenv("TZ", "UTC", 1);
	for (int i = 1; i < argc; i++) {
		size_t n = strlen(argv[i]);

		if (!strncmp(argv[i], "--agent=", 8)) {
			agent_rules = argv[i] + 8;
			continue;
		}
		if (!strncmp(argv[i], "--root=", 7)) {
			src_root = argv[i] + 7;
			continue;
		}
		if (n > 5 && !strcmp(argv[i] + n - 5, ".cond"))
			run_cond_file(argv[i]);
		else
			run_test_file(argv[i]);
	}
	fprintf(stderr, "%d cases, %d failures\n", cases, failures);
	return failures || !cases ? 1 : 0;
}
