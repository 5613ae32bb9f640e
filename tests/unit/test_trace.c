// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* trace: one JSON line per decoded event: the field table's fields the event
 * carries, through the rules' extractors, keys named as Falco's fields. */
#include <arpa/inet.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sys/socket.h>
#include "testutil.h"
#include "names.h"
#include "proctable.h"
#include "trace.h"
#include "usercache.h"
#include "engine.h"
#include "fields.h"

struct fx {
	struct event *ev;
	char *line; /* TRACE_LINE_MAX */
	struct jc jc;
	void *rec;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	f->ev = calloc(1, sizeof(*f->ev));
	f->line = malloc(TRACE_LINE_MAX);
	*state = f;
	return f->ev && f->line ? 0 : -1;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	free(f->rec);
	free(f->ev);
	free(f->line);
	free(f);
	return 0;
}

/* Every key of a line is a field of the table (what --list-fields lists and
 * rules can name): FIELD, FIELD[N] of an indexed one, or evt.arg.NAME. */
static void assert_keys_are_fields(const struct jc *c)
{
	for (int i = 0; i < c->ntop; i++) {
		char key[128], *br;
		int f;

		assert_true(c->top[i].kl < sizeof(key));
		memcpy(key, c->top[i].k, c->top[i].kl);
		key[c->top[i].kl] = 0;
		br = strchr(key, '[');
		if (br) {
			*br = 0;
			f = fields_lookup(key);
			assert_true(f >= 0);
			assert_true(fields_table[f].flags & FA_IDX);
		} else if (!strncmp(key, "evt.arg.", 8)) {
			assert_true(fields_arg_known(key + 8));
		} else if (fields_lookup(key) < 0) {
			fail_msg("key %s is no field of the table", key);
		}
	}
}

/* Decode rec (taking ownership), format it, check the line is one valid JSON object.
 * len by pointer: the builder in the same call sets it. */
static void fmt(struct fx *f, void *rec, const size_t *lenp, const struct proctable *pt)
{
	size_t len = *lenp;
	long n;

	free(f->rec);
	f->rec = rec;
	tu_decode_ok(rec, len, f->ev);
	f->ev->num = 7;
	n = trace_format(f->ev, pt, f->line, TRACE_LINE_MAX);
	jc_check_line(&f->jc, f->line, n);
	assert_keys_are_fields(&f->jc);
}

static void user_json(char *out, size_t cap, uint32_t uid, int group)
{
	const char *name = NULL;

	if (group) {
		struct group *g = getgrgid(uid);

		name = g ? g->gr_name : NULL;
	} else {
		struct passwd *p = getpwuid(uid);

		name = p ? p->pw_name : NULL;
	}
	if (name)
		snprintf(out, cap, "\"%s\"", name);
	else
		snprintf(out, cap, "null");
}

static void test_exec(void **state)
{
	struct fx *f = *state;
	struct jc *c = &f->jc;
	struct as_exec x;
	size_t len;
	char want[128];
	void *rec;

	memset(&x, 0, sizeof(x));
	tu_hdr(&x.hdr, AS_EV_EXEC, AS_SC_EXECVE, 321);
	strcpy(x.hdr.comm, "ls");
	x.hdr.ppid = 42;
	x.hdr.uid = 1000;
	x.hdr.euid = 0;
	x.hdr.gid = 1000;
	x.hdr.egid = 0;
	x.hdr.loginuid = 1000;
	x.hdr.tty = 34817;
	x.hdr.n_anc = 2;
	x.hdr.anc[0].pid = 42;
	strcpy(x.hdr.anc[0].comm, "bash");
	x.hdr.anc[1].pid = 1;
	strcpy(x.hdr.anc[1].comm, "systemd");
	rec = tu_exec(&x, PC("/usr/bin/ls\0"), PC("ls\0-la\0/tmp\0"), PC("ls\0bin\0usr\0"),
		      PC("u\0home\0"), PC("app.scope\0user.slice\0"), &len);
	fmt(f, rec, &len, NULL);
	assert_json_field(c, "evt.num", "7");
	assert_json_field(c, "evt.time", "1700000000123456789");
	assert_json_field(c, "evt.type", "\"execve\"");
	assert_json_field(c, "evt.res", "\"SUCCESS\"");
	assert_json_field(c, "evt.rawres", "0");
	assert_json_field(c, "proc.pid", "321");
	assert_json_field(c, "proc.tid", "321");
	assert_json_field(c, "proc.ppid", "42");
	assert_json_field(c, "proc.tty", "34817");
	assert_json_field(c, "proc.name", "\"ls\"");
	assert_json_field(c, "proc.pname", "\"bash\"");
	assert_json_field(c, "proc.aname[1]", "\"bash\"");
	assert_json_field(c, "proc.apid[1]", "42");
	assert_json_field(c, "proc.aname[2]", "\"systemd\"");
	assert_json_field(c, "proc.apid[2]", "1");
	assert_json_absent(c, "proc.aname[3]");
	assert_json_absent(c, "proc.aname[0]");
	assert_json_absent(c, "proc.aname"); /* indexed only: each ancestor its own key */
	assert_json_field(c, "proc.exepath", "\"/usr/bin/ls\"");
	assert_json_field(c, "proc.cmdline", "\"ls -la /tmp\"");
	assert_json_field(c, "proc.args", "\"-la /tmp\"");
	assert_json_field(c, "proc.exe", "\"ls\"");
	assert_json_field(c, "proc.cwd", "\"/home/u\"");
	assert_json_field(c, "proc.cgroup", "\"/user.slice/app.scope\"");
	assert_json_absent(c, "thread.cgroups");
	assert_json_absent(c, "container.id");
	assert_json_absent(c, "agent.session");
	assert_json_field(c, "evt.dir", "\"<\"");
	assert_json_field(c, "evt.failed", "false");
	assert_json_field(c, "evt.arg.res", "\"0\"");
	assert_json_field(c, "evt.arg.filename", "\"/usr/bin/ls\"");
	assert_json_field(c, "evt.arg.exe", "\"ls\"");
	assert_json_field(c, "evt.arg.args", "\"-la /tmp\"");
	assert_json_absent(c, "evt.arg.name"); /* an alias rules may use; not Falco's */
	assert_json_field(c, "user.uid", "0");
	assert_json_field(c, "user.loginuid", "1000");
	assert_json_field(c, "group.gid", "0");
	user_json(want, sizeof(want), 0, 0);
	assert_json_field(c, "user.name", want);
	user_json(want, sizeof(want), 0, 1);
	assert_json_field(c, "group.name", want);
}

static void test_exec_failed_and_truncated(void **state)
{
	struct fx *f = *state;
	struct jc *c = &f->jc;
	struct proctable *pt = proctable_new(16);
	struct as_exec x;
	size_t len;
	void *rec;

	/* the caller is known to the table: its own command line shows */
	rec = tu_simple_exec(50, 1, 0, PC("sh\0-c\0x\0"), PC("dash\0bin\0"), PC("tmp\0"),
			     PC("s\0"), &len);
	tu_decode_ok(rec, len, f->ev);
	assert_int_equal(proctable_apply(pt, f->ev), 0);
	free(rec);

	memset(&x, 0, sizeof(x));
	tu_hdr(&x.hdr, AS_EV_EXEC, AS_SC_EXECVEAT, 50);
	x.res = -ENOENT;
	x.pflags = AS_XF_ARGS_TRUNC | AS_XF_FILENAME_TRUNC | (AS_PATH_TRUNC << AS_XF_EXE_SHIFT);
	rec = tu_exec(&x, PC("./bad\0"), PC("bad\0x\"y\0"), PC("dash\0bin\0"), PC("tmp\0"),
		      PC("s\0"), &len);
	fmt(f, rec, &len, pt);
	assert_json_field(c, "evt.type", "\"execveat\"");
	assert_json_field(c, "evt.res", "\"ENOENT\"");
	assert_json_field(c, "evt.rawres", "-2");
	assert_json_field(c, "evt.failed", "true");
	assert_json_field(c, "evt.arg.res", "\"-2\"");
	assert_json_field(c, "evt.arg.filename", "\"./bad\"");
	/* what it tried is in the arguments; the process is still the caller */
	assert_json_field(c, "evt.arg.exe", "\"bad\"");
	assert_json_field(c, "evt.arg.args", "\"x\\\"y\"");
	assert_json_field(c, "proc.exepath", "\"/bin/dash\"");
	assert_json_field(c, "proc.cmdline", "\"tester -c x\"");
	assert_json_field(c, "proc.exe", "\"sh\"");
	assert_json_field(c, "proc.args", "\"-c x\"");
	assert_json_field(c, "proc.cwd", "\"/tmp\"");
	assert_json_field(c, "proc.cgroup", "\"/s\"");
	assert_json_field(c, "thread.cgroups", "\"unified=/s\"");
	assert_json_field(c, "container.id", "\"host\"");
	assert_json_field(c, "container.type", "\"host\"");

	/* without the table nothing is known about the caller */
	fmt(f, tu_exec(&x, PC("./bad\0"), PC("bad\0"), PC("dash\0bin\0"), PC("tmp\0"), PC("s\0"),
		       &len),
	    &len, NULL);
	assert_json_absent(c, "proc.exepath");
	assert_json_field(c, "proc.cmdline", "\"tester\""); /* the name from the record */
	assert_json_absent(c, "proc.args");
	assert_json_absent(c, "proc.cwd");
	assert_json_absent(c, "proc.cgroup");
	assert_json_absent(c, "container.id");
	assert_json_field(c, "evt.arg.exe", "\"bad\"");
	proctable_free(pt);
}

static void base_open(struct as_open *o, unsigned sc, int64_t res, uint64_t flags)
{
	memset(o, 0, sizeof(*o));
	tu_hdr(&o->hdr, AS_EV_OPEN, sc, 700);
	o->res = res;
	o->flags = flags;
	o->mode = 0644;
	o->dirfd = -100;
	o->dev = 0x803;
	o->ino = 9876;
	o->pflags = AS_OF_RESOLVED;
}

static void test_open(void **state)
{
	struct fx *f = *state;
	struct jc *c = &f->jc;
	struct as_open o;
	size_t len;

	base_open(&o, AS_SC_OPENAT, 3, O_WRONLY | O_CREAT | O_TRUNC);
	fmt(f, tu_open(&o, PC("x.txt\0tmp\0"), PC_NONE, &len), &len, NULL);
	assert_json_field(c, "evt.type", "\"openat\"");
	assert_json_field(c, "evt.res", "\"SUCCESS\"");
	assert_json_field(c, "evt.rawres", "3");
	assert_json_field(c, "fd.name", "\"/tmp/x.txt\"");
	assert_json_field(c, "fd.num", "3");
	assert_json_field(c, "fd.typechar", "\"f\"");
	assert_json_field(c, "fd.type", "\"file\"");
	assert_json_field(c, "fd.directory", "\"/tmp\"");
	assert_json_field(c, "fd.filename", "\"x.txt\"");
	assert_json_field(c, "evt.arg.flags", "\"O_WRONLY|O_CREAT|O_TRUNC\"");
	assert_json_field(c, "evt.arg.mode", "\"0644\"");
	assert_json_field(c, "evt.arg.dirfd", "\"-100\"");
	assert_json_field(c, "evt.arg.fd", "\"3\"");
	assert_json_field(c, "evt.arg.name", "\"/tmp/x.txt\"");
	assert_json_absent(c, "evt.arg.path"); /* an alias of name */
	assert_json_absent(c, "evt.arg.res"); /* an open's result is its fd argument */
	assert_json_field(c, "evt.is_open_read", "false");
	assert_json_field(c, "evt.is_open_write", "true");
	assert_json_field(c, "evt.arg.ino", "\"9876\"");
	assert_json_field(c, "evt.arg.dev", "\"803\"");

	/* failed, plain open: no fd, no dirfd, no inode */
	base_open(&o, AS_SC_OPEN, -EACCES, O_RDONLY);
	o.pflags = AS_OF_USER_TRUNC;
	fmt(f, tu_open(&o, PC("/etc/shadow\0"), PC_NONE, &len), &len, NULL);
	assert_json_field(c, "evt.type", "\"open\"");
	assert_json_field(c, "evt.res", "\"EACCES\"");
	assert_json_field(c, "evt.rawres", "-13");
	assert_json_field(c, "fd.num", "-1");
	assert_json_field(c, "fd.name", "\"/etc/shadow\"");
	assert_json_field(c, "evt.arg.flags", "\"O_RDONLY\"");
	assert_json_field(c, "evt.arg.fd", "\"-1\"");
	assert_json_field(c, "evt.is_open_read", "true");
	assert_json_field(c, "evt.is_open_write", "false");
	assert_json_absent(c, "evt.arg.dirfd");
	assert_json_absent(c, "evt.arg.ino");
	assert_json_absent(c, "evt.arg.dev");

	/* the root directory; creat; openat2 with O_RDWR */
	base_open(&o, AS_SC_OPENAT2, 4, O_RDWR | O_DIRECTORY);
	fmt(f, tu_open(&o, PC_NONE, PC_NONE, &len), &len, NULL);
	assert_json_field(c, "evt.type", "\"openat2\"");
	assert_json_field(c, "fd.name", "\"/\"");
	assert_json_field(c, "fd.directory", "\"/\"");
	assert_json_field(c, "fd.filename", "\"\"");
	assert_json_field(c, "evt.arg.dirfd", "\"-100\"");
	assert_json_field(c, "evt.is_open_read", "true");
	assert_json_field(c, "evt.is_open_write", "true");
	base_open(&o, AS_SC_CREAT, 5, O_WRONLY | O_CREAT | O_TRUNC);
	fmt(f, tu_open(&o, PC("f\0"), PC_NONE, &len), &len, NULL);
	assert_json_field(c, "evt.type", "\"creat\"");
	assert_json_field(c, "fd.directory", "\"/\"");
	assert_json_field(c, "fd.filename", "\"f\"");
	assert_json_absent(c, "evt.arg.dirfd");
	assert_json_absent(c, "evt.arg.flags"); /* creat has none */

	/* a relative path joined with its dirfd base */
	base_open(&o, AS_SC_OPENAT, 6, O_RDONLY | O_CLOEXEC);
	o.dirfd = 9;
	o.pflags = AS_OF_BASE_DIRFD;
	fmt(f, tu_open(&o, PC("../b/c\0"), PC("a\0srv\0"), &len), &len, NULL);
	assert_json_field(c, "fd.name", "\"/srv/b/c\"");
	assert_json_field(c, "evt.arg.dirfd", "\"9\"");
	assert_json_field(c, "evt.arg.flags", "\"O_RDONLY|O_CLOEXEC\"");
}

static void base_connect(struct as_connect *k, int64_t res, unsigned family)
{
	memset(k, 0, sizeof(*k));
	tu_hdr(&k->hdr, AS_EV_CONNECT, AS_SC_CONNECT, 800);
	k->res = res;
	k->fd = 5;
	k->family = (uint16_t)family;
}

static void test_connect(void **state)
{
	struct fx *f = *state;
	struct jc *c = &f->jc;
	struct as_connect k;
	size_t len;

	base_connect(&k, 0, AF_INET);
	k.proto = IPPROTO_TCP;
	k.sock_type = SOCK_STREAM;
	k.dport = 443;
	k.sport = 50000;
	k.cflags = AS_CF_LOCAL;
	inet_pton(AF_INET, "93.184.216.34", k.daddr);
	inet_pton(AF_INET, "10.0.0.2", k.saddr);
	fmt(f, tu_fixed(&k, sizeof(k), &len), &len, NULL);
	assert_json_field(c, "evt.type", "\"connect\"");
	assert_json_field(c, "evt.res", "\"SUCCESS\"");
	assert_json_field(c, "fd.num", "5");
	assert_json_field(c, "evt.arg.fd", "\"5\"");
	assert_json_field(c, "fd.sockfamily", "\"ip\"");
	assert_json_field(c, "fd.l4proto", "\"tcp\"");
	assert_json_field(c, "fd.typechar", "\"4\"");
	assert_json_field(c, "fd.type", "\"ipv4\"");
	assert_json_field(c, "fd.sip", "\"93.184.216.34\"");
	assert_json_field(c, "fd.sport", "443");
	assert_json_field(c, "fd.rip", "\"93.184.216.34\"");
	assert_json_field(c, "fd.rport", "443");
	assert_json_field(c, "fd.cip", "\"10.0.0.2\"");
	assert_json_field(c, "fd.cport", "50000");
	assert_json_field(c, "fd.name", "\"10.0.0.2:50000->93.184.216.34:443\"");
	assert_json_field(c, "evt.arg.tuple", "\"10.0.0.2:50000->93.184.216.34:443\"");
	/* no namespace read (an old recording's padding): the host's, fd.netns absent */
	assert_json_field(c, "fd.is_host_netns", "true");
	assert_json_absent(c, "fd.netns");
	k.netns = 4026531833u;
	fmt(f, tu_fixed(&k, sizeof(k), &len), &len, NULL);
	assert_json_field(c, "fd.netns", "4026531833");
	assert_json_field(c, "fd.is_host_netns", "true");
	/* the kernel saw another namespace than the host's: a sandbox's own */
	k.netns = 4026532174u;
	k.cflags |= AS_CF_NETNS_OWN;
	fmt(f, tu_fixed(&k, sizeof(k), &len), &len, NULL);
	assert_json_field(c, "fd.netns", "4026532174");
	assert_json_field(c, "fd.is_host_netns", "false");

	base_connect(&k, -ECONNREFUSED, AF_INET6);
	k.proto = IPPROTO_UDP;
	k.dport = 53;
	inet_pton(AF_INET6, "2001:db8::1", k.daddr);
	k.hdr.loginuid = AS_ID_UNSET;
	fmt(f, tu_fixed(&k, sizeof(k), &len), &len, NULL);
	assert_json_field(c, "user.loginuid", "-1"); /* as rules see it, and Falco */
	assert_json_field(c, "evt.res", "\"ECONNREFUSED\"");
	assert_json_field(c, "evt.rawres", "-111");
	assert_json_field(c, "fd.typechar", "\"6\"");
	assert_json_field(c, "fd.type", "\"ipv6\"");
	assert_json_field(c, "fd.l4proto", "\"udp\"");
	/* as Falco writes an IPv6 tuple (no brackets); no local address: zeros */
	assert_json_field(c, "fd.name", "\":::0->2001:db8::1:53\"");
	assert_json_absent(c, "fd.cip");
	assert_json_field(c, "fd.sip", "\"2001:db8::1\"");

	base_connect(&k, 0, AF_UNIX);
	k.sock_type = SOCK_STREAM;
	memcpy(k.path, "/run/docker.sock", 16);
	k.path_len = 16;
	fmt(f, tu_fixed(&k, sizeof(k), &len), &len, NULL);
	assert_json_field(c, "fd.sockfamily", "\"unix\"");
	assert_json_absent(c, "fd.l4proto");
	assert_json_field(c, "fd.typechar", "\"u\"");
	assert_json_field(c, "fd.type", "\"unix\"");
	assert_json_field(c, "fd.name", "\"/run/docker.sock\"");

	base_connect(&k, 0, AF_UNIX);
	memcpy(k.path, "\0dbus-x\"1", 9);
	k.path_len = 8;
	k.cflags = AS_CF_ABSTRACT;
	fmt(f, tu_fixed(&k, sizeof(k), &len), &len, NULL);
	assert_json_field(c, "fd.name", "\"@dbus-x\\\"1\"");

	/* an unknown family: no address fields */
	base_connect(&k, -EAFNOSUPPORT, AF_NETLINK);
	fmt(f, tu_fixed(&k, sizeof(k), &len), &len, NULL);
	assert_json_field(c, "evt.res", "\"EAFNOSUPPORT\"");
	assert_json_absent(c, "fd.sockfamily");
	assert_json_field(c, "fd.name", "\"\"");
}

static void test_setid_capset(void **state)
{
	struct fx *f = *state;
	struct jc *c = &f->jc;
	struct as_setid s;
	struct as_capset cp;
	size_t len;

	memset(&s, 0, sizeof(s));
	tu_hdr(&s.hdr, AS_EV_SETID, AS_SC_SETRESUID, 9);
	s.id[0] = 0;
	s.id[1] = AS_ID_UNSET;
	s.id[2] = 1000;
	fmt(f, tu_fixed(&s, sizeof(s), &len), &len, NULL);
	assert_json_field(c, "evt.type", "\"setresuid\"");
	assert_json_field(c, "evt.arg.ruid", "\"0\"");
	assert_json_field(c, "evt.arg.euid", "\"-1\"");
	assert_json_field(c, "evt.arg.suid", "\"1000\"");

	tu_hdr(&s.hdr, AS_EV_SETID, AS_SC_SETUID, 9);
	s.res = -EPERM;
	fmt(f, tu_fixed(&s, sizeof(s), &len), &len, NULL);
	assert_json_field(c, "evt.type", "\"setuid\"");
	assert_json_field(c, "evt.res", "\"EPERM\"");
	assert_json_field(c, "evt.arg.uid", "\"0\"");
	assert_json_absent(c, "evt.arg.euid");

	tu_hdr(&s.hdr, AS_EV_SETID, AS_SC_SETREGID, 9);
	s.res = 0;
	s.id[0] = 5;
	s.id[1] = 6;
	fmt(f, tu_fixed(&s, sizeof(s), &len), &len, NULL);
	assert_json_field(c, "evt.type", "\"setregid\"");
	assert_json_field(c, "evt.arg.rgid", "\"5\"");
	assert_json_field(c, "evt.arg.egid", "\"6\"");
	assert_json_absent(c, "evt.arg.sgid");

	memset(&cp, 0, sizeof(cp));
	tu_hdr(&cp.hdr, AS_EV_CAPSET, AS_SC_CAPSET, 9);
	cp.effective = 0x3fffffffffull;
	cp.permitted = 1;
	cp.inheritable = 0;
	cp.version = 0x20080522;
	fmt(f, tu_fixed(&cp, sizeof(cp), &len), &len, NULL);
	assert_json_field(c, "evt.type", "\"capset\"");
	assert_json_field(c, "evt.arg.cap_effective", "\"3fffffffff\"");
	assert_json_field(c, "evt.arg.cap_permitted", "\"1\"");
	assert_json_field(c, "evt.arg.cap_inheritable", "\"0\"");
	assert_json_absent(c, "evt.arg.version"); /* not an argument of Falco's capset */
}

static void test_fork_exit_proc(void **state)
{
	struct fx *f = *state;
	struct jc *c = &f->jc;
	struct proctable *pt = proctable_new(16);
	struct as_fork fk;
	struct as_exit ex;
	struct as_exec x;
	size_t len;
	void *rec;

	/* a parent known with a session and a container */
	rec = tu_simple_exec(60, 1, 0, PC("agent\0--x\0"), PC("agent\0"), PC("w\0"),
			     PC("docker-0123456789abcdef0123456789abcdef"
				"0123456789abcdef0123456789abcdef.scope\0"),
			     &len);
	((struct as_hdr *)rec)->flags |= AS_HF_SESSION;
	strcpy(((struct as_hdr *)rec)->session, "S-1");
	tu_decode_ok(rec, len, f->ev);
	assert_int_equal(proctable_apply(pt, f->ev), 0);
	free(rec);

	memset(&fk, 0, sizeof(fk));
	tu_hdr(&fk.hdr, AS_EV_FORK, AS_SC_CLONE, 60);
	fk.child_pid = 61;
	fk.child_tid = 61;
	fmt(f, tu_fixed(&fk, sizeof(fk), &len), &len, pt);
	/* as Falco's clone exit in the parent: the result is the child */
	assert_json_field(c, "evt.type", "\"clone\"");
	assert_json_field(c, "evt.res", "\"SUCCESS\"");
	assert_json_field(c, "evt.rawres", "61");
	assert_json_field(c, "evt.arg.res", "\"61\"");
	assert_json_field(c, "proc.exepath", "\"/agent\"");
	assert_json_field(c, "proc.cmdline", "\"tester --x\"");
	assert_json_field(c, "proc.args", "\"--x\"");
	assert_json_field(c, "proc.cwd", "\"/w\"");
	assert_json_field(c, "container.id", "\"0123456789ab\"");
	assert_json_field(c, "container.type", "\"docker\""); /* the fork copied it */
	assert_json_field(c, "agent.session", "\"S-1\"");
	assert_json_absent(c, "proc.pname");

	memset(&ex, 0, sizeof(ex));
	tu_hdr(&ex.hdr, AS_EV_EXIT, AS_SC_PROCEXIT, 60);
	ex.exit_code = 9;
	fmt(f, tu_fixed(&ex, sizeof(ex), &len), &len, pt);
	assert_json_field(c, "evt.type", "\"procexit\"");
	assert_json_absent(c, "evt.res");
	assert_json_field(c, "evt.arg.status", "\"9\"");
	assert_json_field(c, "agent.session", "\"S-1\"");

	memset(&x, 0, sizeof(x));
	tu_hdr(&x.hdr, AS_EV_PROC, AS_SC_NONE, 70);
	x.pflags = AS_XF_PLAIN;
	fmt(f, tu_exec(&x, PC("\0"), PC("init\0splash\0"), PC("/sbin/init\0"), PC("/\0"),
		       PC("unified=/init.scope\0"), &len),
	    &len, NULL);
	assert_json_field(c, "evt.type", "\"procinfo\"");
	assert_json_absent(c, "evt.res");
	assert_json_field(c, "proc.exepath", "\"/sbin/init\"");
	assert_json_field(c, "proc.cmdline", "\"tester splash\"");
	assert_json_field(c, "proc.exe", "\"init\"");
	proctable_free(pt);
}

/*
 * Regression test, the bug since fixed: since procscan puts every hierarchy into an AS_EV_PROC
 * record's cgroup string ("cpu=/ memory=/x unified=/y", see procscan.c and
 * apply_exec), event.cgroup is no longer the "cgroup v2 path" event.h
 * promises for proc records, and put_process() prints it as proc.cgroup
 * unchanged. So --trace shows proc.cgroup = "cpu=/ unified=/init.scope" for
 * the startup snapshot but "/init.scope" for every exec and for the same
 * process's later events (the table stores the unified= part). The rules
 * engine's extract_cgroup (user/rules/fields.c, via proc_str) reads the same
 * string for procinfo events.
 */
static void test_proc_cgroup_is_v2_path(void **state)
{
	struct fx *f = *state;
	struct jc *c = &f->jc;
	struct proctable *pt;
	struct as_exec x;
	size_t len;
	void *rec;

	pt = proctable_new(16);
	memset(&x, 0, sizeof(x));
	tu_hdr(&x.hdr, AS_EV_PROC, AS_SC_NONE, 70);
	x.pflags = AS_XF_PLAIN;
	rec = tu_exec(&x, PC("\0"), PC("init\0"), PC("/sbin/init\0"), PC("/\0"),
		      PC("cpu=/ unified=/init.scope\0"), &len);
	tu_decode_ok(rec, len, f->ev);
	assert_int_equal(proctable_apply(pt, f->ev), 0);
	assert_string_equal(proctable_lookup(pt, 70)->cgroup, "/init.scope");
	fmt(f, rec, &len, pt);
	assert_json_field(c, "thread.cgroups", "\"cpu=/ unified=/init.scope\"");
	/* as the rules see it: the v2 path, then the v1 hierarchies */
	assert_json_field(c, "proc.cgroup", "\"/init.scope cpu=/\"");
	proctable_free(pt);
}

static void test_ancestors_full(void **state)
{
	struct fx *f = *state;
	struct jc *c = &f->jc;
	struct as_exit ex;
	size_t len;
	char key[32], want[32];

	memset(&ex, 0, sizeof(ex));
	tu_hdr(&ex.hdr, AS_EV_EXIT, AS_SC_PROCEXIT, 99);
	ex.hdr.n_anc = AS_MAX_ANCESTORS;
	ex.hdr.flags = AS_HF_ANC_TRUNC;
	for (int i = 0; i < AS_MAX_ANCESTORS; i++) {
		ex.hdr.anc[i].pid = 1000u + (uint32_t)i;
		snprintf(ex.hdr.anc[i].comm, AS_COMM_LEN, "a%d\"\x01", i);
	}
	fmt(f, tu_fixed(&ex, sizeof(ex), &len), &len, NULL);
	for (int i = 0; i < AS_MAX_ANCESTORS; i++) {
		snprintf(key, sizeof(key), "proc.aname[%d]", i + 1);
		snprintf(want, sizeof(want), "\"a%d\\\"\\u0001\"", i);
		assert_json_field(c, key, want);
		snprintf(key, sizeof(key), "proc.apid[%d]", i + 1);
		snprintf(want, sizeof(want), "%d", 1000 + i);
		assert_json_field(c, key, want);
	}
	assert_json_absent(c, "proc.aname[13]");
	assert_json_field(c, "proc.pname", "\"a0\\\"\\u0001\"");
}

static void test_hostile_strings(void **state)
{
	struct fx *f = *state;
	struct jc *c = &f->jc;
	struct as_exec x;
	size_t len;

	memset(&x, 0, sizeof(x));
	tu_hdr(&x.hdr, AS_EV_EXEC, AS_SC_EXECVE, 5);
	strcpy(x.hdr.comm, "a\"b\\c\n\x7f\xff");
	strcpy(x.hdr.session, "s\x01\xc3");
	x.hdr.flags = AS_HF_SESSION;
	/* argv with an empty argument, a newline, invalid UTF-8, no final NUL */
	fmt(f, tu_exec(&x, PC("/x\"\0"), PC("p\0\0l\ni\0\xe2\x82"), PC("\xff\0"),
		       PC("d\"ir\0"), PC("\xed\xa0\x80\0"), &len),
	    &len, NULL);
	assert_json_field(c, "proc.name", "\"a\\\"b\\\\c\\n\\u007f\\u00ff\"");
	assert_json_field(c, "agent.session", "\"s\\u0001\\u00c3\"");
	assert_json_field(c, "proc.args", "\"l\\ni \\u00e2\\u0082\"");
	assert_json_field(c, "proc.cmdline",
			  "\"a\\\"b\\\\c\\n\\u007f\\u00ff  l\\ni \\u00e2\\u0082\"");
	assert_json_field(c, "proc.exe", "\"p\"");
	assert_json_field(c, "proc.exepath", "\"/\\u00ff\"");
	assert_json_field(c, "proc.cwd", "\"/d\\\"ir\"");
	assert_json_field(c, "proc.cgroup", "\"/\\u00ed\\u00a0\\u0080\"");
	assert_json_field(c, "evt.arg.filename", "\"/x\\\"\"");

	/* no argv at all */
	fmt(f, tu_exec(&x, PC("/x\0"), PC_NONE, PC("x\0"), PC_NONE, PC_NONE, &len), &len, NULL);
	assert_json_field(c, "proc.args", "\"\"");
	assert_json_absent(c, "proc.exe");
}

static void test_small_buffer_and_write(void **state)
{
	struct fx *f = *state;
	size_t len;
	long n;
	FILE *tmp;
	char *back;

	fmt(f, tu_simple_exec(5, 1, 0, PC("a\0"), PC("a\0"), PC_NONE, PC_NONE, &len), &len, NULL);
	n = (long)strlen(f->line);
	/* exactly enough room, and one byte less */
	assert_int_equal(trace_format(f->ev, NULL, f->line, (size_t)n + 1), n);
	assert_int_equal(trace_format(f->ev, NULL, f->line, (size_t)n), -1);
	assert_int_equal(trace_format(f->ev, NULL, f->line, 16), -1);

	tmp = tmpfile();
	assert_non_null(tmp);
	assert_int_equal(trace_write(f->ev, NULL, tmp), 0);
	assert_int_equal(trace_write(f->ev, NULL, tmp), 0);
	assert_int_equal(ftell(tmp), 2 * n);
	rewind(tmp);
	back = calloc(1, (size_t)n + 1);
	assert_int_equal(fread(back, 1, (size_t)n, tmp), (size_t)n);
	assert_int_equal(trace_format(f->ev, NULL, f->line, TRACE_LINE_MAX), n);
	assert_string_equal(back, f->line);
	free(back);
	fclose(tmp);
}

/* The longest strings the kernel can send, all escaped 6-fold, fit TRACE_LINE_MAX. */
static void test_worst_case_line(void **state)
{
	struct fx *f = *state;
	struct as_exec x;
	char *args = malloc(AS_ARGS_MAX), *fn = malloc(AS_FILENAME_MAX), *exe = malloc(4096);
	size_t len;

	memset(args, 0x01, AS_ARGS_MAX); /* every byte escaped as \u0001 */
	for (int i = 0; i < AS_ARGS_MAX; i += 2)
		args[i] = 0;		 /* and as many arguments as possible */
	memset(fn, 0x01, AS_FILENAME_MAX);
	fn[AS_FILENAME_MAX - 1] = 0;
	for (int i = 0; i < 64; i++) {
		memset(exe + i * 64, 0xff, 63);
		exe[i * 64 + 63] = 0;
	}
	memset(&x, 0, sizeof(x));
	tu_hdr(&x.hdr, AS_EV_EXEC, AS_SC_EXECVE, 5);
	memset(x.hdr.comm, 0x01, AS_COMM_LEN - 1);
	x.hdr.n_anc = AS_MAX_ANCESTORS;
	for (int i = 0; i < AS_MAX_ANCESTORS; i++)
		memset(x.hdr.anc[i].comm, 0xff, AS_COMM_LEN - 1);
	memset(x.hdr.session, 0x01, AS_SESSION_MAX - 1);
	x.hdr.flags = AS_HF_SESSION;
	/* a successful exec shows argv three times (proc.exe and proc.args,
	 * proc.cmdline, evt.arg.exe and evt.arg.args); a failed one once */
	for (int i = 0; i < 2; i++) {
		x.res = i ? -ENOENT : 0;
		fmt(f, tu_exec(&x, pc_mem(fn, AS_FILENAME_MAX), pc_mem(args, AS_ARGS_MAX),
			       pc_mem(exe, 4096), pc_mem(exe, 4096), pc_mem(exe, 1024), &len),
		    &len, NULL);
	}
	free(args);
	free(fn);
	free(exe);
}

static void test_open_flags(void **state)
{
	char buf[512];

	(void)state;
	trace_open_flags(0, buf, sizeof(buf));
	assert_string_equal(buf, "O_RDONLY");
	trace_open_flags(O_WRONLY, buf, sizeof(buf));
	assert_string_equal(buf, "O_WRONLY");
	trace_open_flags(O_RDWR, buf, sizeof(buf));
	assert_string_equal(buf, "O_RDWR");
	trace_open_flags(O_WRONLY | O_CREAT | O_TRUNC, buf, sizeof(buf));
	assert_string_equal(buf, "O_WRONLY|O_CREAT|O_TRUNC");
	trace_open_flags(O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, buf, sizeof(buf));
	assert_string_equal(buf, "O_WRONLY|O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC");
	trace_open_flags(O_RDWR | O_APPEND | O_NONBLOCK | O_NOCTTY, buf, sizeof(buf));
	assert_string_equal(buf, "O_RDWR|O_NOCTTY|O_APPEND|O_NONBLOCK");
	trace_open_flags(O_PATH | O_DIRECTORY, buf, sizeof(buf));
	assert_string_equal(buf, "O_RDONLY|O_DIRECTORY|O_PATH");
	trace_open_flags(O_RDONLY | O_DIRECT | O_NOATIME | O_DSYNC, buf, sizeof(buf));
	assert_string_equal(buf, "O_RDONLY|O_DSYNC|O_DIRECT|O_NOATIME");
	trace_open_flags(~(uint64_t)0, buf, sizeof(buf));
	assert_string_equal(buf, "O_RDONLY|O_CREAT|O_EXCL|O_NOCTTY|O_TRUNC|O_APPEND|O_NONBLOCK|"
				 "O_DSYNC|O_DIRECT|O_DIRECTORY|O_NOFOLLOW|O_NOATIME|O_CLOEXEC|"
				 "O_PATH|O_TMPFILE|O_F_CREATED");
	/* the kernel's mark of an open that made the file (Falco's name) */
	trace_open_flags(O_RDONLY | O_CREAT | AS_O_F_CREATED, buf, sizeof(buf));
	assert_string_equal(buf, "O_RDONLY|O_CREAT|O_F_CREATED");
	/* a short buffer is cut, never overrun */
	memset(buf, 'G', sizeof(buf));
	trace_open_flags(O_WRONLY | O_CREAT, buf, 10);
	assert_string_equal(buf, "O_WRONLY|");
	for (int i = 10; i < 64; i++)
		assert_int_equal(buf[i], 'G');
	memset(buf, 'G', sizeof(buf));
	trace_open_flags(O_RDWR | O_CREAT | O_TRUNC, buf, 4);
	assert_string_equal(buf, "O_R");
	assert_int_equal(buf[4], 'G');
}

static void test_names(void **state)
{
	char b[16];

	(void)state;
	assert_string_equal(names_res(0, b), "SUCCESS");
	assert_string_equal(names_res(12345, b), "SUCCESS");
	assert_string_equal(names_res(-ENOENT, b), "ENOENT");
	assert_string_equal(names_res(-EPERM, b), "EPERM");
	assert_string_equal(names_res(-EPROTONOSUPPORT, b), "EPROTONOSUPPORT");
	assert_string_equal(names_res(-4095, b), "E4095");
	assert_string_equal(names_res(-1000000000, b), "E999999");
	assert_string_equal(names_res(-((int64_t)1 << 40), b), "E999999");
}

/*
 * Regression test, the bug since fixed: names_res() computes `int64_t e = -res`, which is undefined
 * for res == INT64_MIN. A record's res is not validated by decode_record, so
 * a corrupted ring-buffer record or a hand-made --replay file reaches it via
 * trace_format. With -fsanitize=undefined the process aborts ("negation of
 * -9223372036854775808 cannot be represented in type 'long int'"); at -O0 the
 * wrapped e passes the `e < table size` check, indexes errno_names[] with a
 * negative value and printed "E0"; at -O2 the compiler happened to fold the
 * comparisons onto res and printed "E999999". Fix idea: test res against
 * -(int64_t)table_size / -999999 before negating, or negate in uint64_t.
 */
static void test_res_int64_min(void **state)
{
	struct fx *f = *state;
	struct as_open o;
	char b[16];
	size_t len;

	assert_string_equal(names_res(INT64_MIN, b), "E999999");
	base_open(&o, AS_SC_OPENAT, INT64_MIN, 0);
	fmt(f, tu_open(&o, PC("x\0"), PC_NONE, &len), &len, NULL);
	assert_json_field(&f->jc, "evt.res", "\"E999999\"");
	assert_json_field(&f->jc, "evt.rawres", "-9223372036854775808");
}

/* What one trace_filter_load call printed on its diagnostics stream. */
static int filter_load(struct trace_filter **t, const char *filter, const char *format,
		       char *diag, size_t cap)
{
	FILE *d = tmpfile();
	size_t n;
	int err;

	assert_non_null(d);
	err = trace_filter_load(t, filter, format, d);
	rewind(d);
	n = fread(diag, 1, cap - 1, d);
	diag[n] = 0;
	fclose(d);
	return err;
}

/* sethostname's name is the len bytes the kernel took (a shorter len cuts
 * it, a longer one or a negative one does not); host_ns is the record's
 * extra as true or false. */
static void test_name_len_and_host_ns(void **state)
{
	static const struct {
		uint64_t len, extra;
		const char *name, *host_ns;
	} cases[] = {
		{ 3, 1, "\"abc\"", "\"true\"" },
		{ 64, 0, "\"abcdefgh\"", "\"false\"" },
		{ 0xdead0000ffffffffull, 1, "\"abcdefgh\"", "\"true\"" },
		{ 0, 0, "\"\"", "\"false\"" },
	};
	struct fx *f = *state;
	struct piece none = PC_NONE, name = PC("abcdefgh\0");
	struct piece pcs[4] = { name, none, none, none };
	struct as_sys r;
	size_t len;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&r, 0, sizeof(r));
		tu_hdr(&r.hdr, AS_EV_SYS, AS_SC_SETHOSTNAME, 42);
		r.pflags = AS_SYF_PLAIN;
		r.len[0] = (uint16_t)name.n;
		r.arg[1] = cases[i].len;
		r.extra = cases[i].extra;
		fmt(f, tu_rec(&r, sizeof(r), pcs, 4, &len), &len, NULL);
		assert_json_field(&f->jc, "evt.arg.name", cases[i].name);
		assert_json_field(&f->jc, "evt.arg.host_ns", cases[i].host_ns);
	}
}

/* The --trace filter is a rule's condition: the rule compiler's answers, on
 * the events the rules see; -p prints the rule's output text. */
static void test_filter_and_format(void **state)
{
	struct fx *f = *state;
	struct trace_filter *t = NULL;
	struct as_open o;
	struct as_connect k;
	char diag[1024], *out = NULL;
	size_t len, outlen;
	FILE *m;

	/* nothing asked: no object, every event passes, the JSON line is written */
	assert_int_equal(filter_load(&t, NULL, NULL, diag, sizeof(diag)), 0);
	assert_null(t);
	assert_null(trace_filter_engine(t));
	base_open(&o, AS_SC_OPENAT, 3, O_WRONLY);
	fmt(f, tu_open(&o, PC("x.txt\0tmp\0"), PC_NONE, &len), &len, NULL);
	assert_int_equal(trace_filter_match(t, f->ev, NULL), 1);

	assert_int_equal(filter_load(&t, "evt.type = openat and fd.name startswith /tmp/ and "
					 "proc.aname[1] in (bash, claude)",
				     "%evt.type %proc.name %fd.name %user.loginuid [%evt.latency]",
				     diag, sizeof(diag)),
			 0);
	/* an unknown output field prints <NA>, as in a rule's output: a warning */
	assert_non_null(strstr(diag, "-p:1:1: warning: rule '--trace': output field "
				     "'evt.latency' is not supported"));
	assert_non_null(t);
	assert_non_null(trace_filter_engine(t));
	assert_int_equal(engine_rule_count(trace_filter_engine(t)), 1);
	o.hdr.n_anc = 1;
	strcpy(o.hdr.anc[0].comm, "claude");
	o.hdr.loginuid = AS_ID_UNSET;
	fmt(f, tu_open(&o, PC("x.txt\0tmp\0"), PC_NONE, &len), &len, NULL);
	assert_int_equal(trace_filter_match(t, f->ev, NULL), 1);
	m = open_memstream(&out, &outlen);
	assert_non_null(m);
	assert_int_equal(trace_filter_write(t, f->ev, NULL, m), 0);
	fclose(m);
	assert_string_equal(out, "openat tester /tmp/x.txt -1 [<NA>]\n");
	free(out);
	/* outside /tmp, another parent, another event type: not traced */
	fmt(f, tu_open(&o, PC("x.txt\0etc\0"), PC_NONE, &len), &len, NULL);
	assert_int_equal(trace_filter_match(t, f->ev, NULL), 0);
	strcpy(o.hdr.anc[0].comm, "sh");
	fmt(f, tu_open(&o, PC("x.txt\0tmp\0"), PC_NONE, &len), &len, NULL);
	assert_int_equal(trace_filter_match(t, f->ev, NULL), 0);
	memset(&k, 0, sizeof(k));
	tu_hdr(&k.hdr, AS_EV_CONNECT, AS_SC_CONNECT, 800);
	k.hdr.n_anc = 1;
	strcpy(k.hdr.anc[0].comm, "claude");
	fmt(f, tu_fixed(&k, sizeof(k), &len), &len, NULL);
	assert_int_equal(trace_filter_match(t, f->ev, NULL), 0);
	trace_filter_free(t);

	/* a format alone prints every event; control bytes stay on one line */
	assert_int_equal(filter_load(&t, NULL, "%fd.name|", diag, sizeof(diag)), 0);
	assert_string_equal(diag, "");
	assert_null(trace_filter_engine(t)); /* no filter: nothing for the pre-filter */
	fmt(f, tu_open(&o, PC("a\nb\0tmp\0"), PC_NONE, &len), &len, NULL);
	assert_int_equal(trace_filter_match(t, f->ev, NULL), 1);
	m = open_memstream(&out, &outlen);
	assert_int_equal(trace_filter_write(t, f->ev, NULL, m), 0);
	fclose(m);
	assert_string_equal(out, "/tmp/a\\x0ab|\n");
	free(out);
	trace_filter_free(t);
}

/* A bad filter: one line with its column; no object. */
static void test_filter_errors(void **state)
{
	static const struct {
		const char *filter, *format, *diag;
	} cases[] = {
		{ "proc.name = claude and proc.nme = x", NULL,
		  "--trace:1:24: error: rule '--trace': unknown field 'proc.nme'\n" },
		{ "evt.type = openat and", NULL,
		  "--trace:1:22: error: rule '--trace': expected a field name, found end of "
		  "condition\n" },
		{ "extra", NULL,
		  "--trace:1:1: error: rule '--trace': Undefined macro 'extra' used in filter.\n" },
		{ "proc.name = x and fd.num contains 1", NULL,
		  "--trace:1:19: error: rule '--trace': operator 'contains' cannot be used on "
		  "field 'fd.num' (number)\n" },
		/* what a rules file would skip with a warning leaves nothing to trace */
		{ "proc.name = x and evt.latency > 1", NULL,
		  "--trace:1:19: error: rule '--trace': field 'evt.latency' is not supported by "
		  "agent-sentinel\n" },
		{ "evt.type = read", NULL,
		  "--trace:1:1: error: rule '--trace': needs event types agent-sentinel does not "
		  "capture\n" },
		{ "proc.name = x", "%proc.name[", NULL },
	};
	char diag[1024];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct trace_filter *t = (struct trace_filter *)1;

		assert_int_equal(filter_load(&t, cases[i].filter, cases[i].format, diag,
					     sizeof(diag)),
				 -EINVAL);
		assert_null(t);
		if (cases[i].diag) {
			assert_string_equal(diag, cases[i].diag);
		} else { /* the format's problem, named */
			assert_non_null(strstr(diag, "-p:1:1: error: rule '--trace': unterminated '['"));
			assert_ptr_equal(strchr(diag, '\n'), diag + strlen(diag) - 1); /* one line */
		}
	}
}

/* An alert's output_fields (one JSON object), kept by the engine's emit hook. */
static char alert_line[1 << 20];

static void keep_alert(void *ctx, const char *line, size_t len, int prio, const char *rule)
{
	(void)ctx;
	(void)prio;
	(void)rule;
	assert_true(len < sizeof(alert_line));
	memcpy(alert_line, line, len);
	alert_line[len] = 0;
}

/*
 * --trace and alerts cannot disagree: a rule whose output names every field
 * of the table gets, for the same event, exactly the values --trace prints
 * (byte for byte as JSON), and null where --trace leaves the field out.
 */
static void test_trace_agrees_with_alerts(void **state)
{
	struct fx *f = *state;
	struct engine_opts eo = { .json = 1, .emit = keep_alert };
	struct engine *e = NULL;
	struct jc alert, of;
	char *rules = malloc(64 * 1024);
	size_t pos, len;
	struct as_connect k;
	struct as_open o;
	struct as_exec x;
	struct as_fork fk;
	void *recs[5];
	size_t lens[5];

	pos = (size_t)snprintf(rules, 64 * 1024,
			       "- rule: all\n  desc: d\n  priority: INFO\n"
			       "  condition: evt.num > 0\n  output: >-\n    x");
	for (int i = 0; i < F_MAX; i++) {
		const struct field_info *fi = &fields_table[i];

		if (fi->flags & FA_ARG)
			continue;
		pos += (size_t)snprintf(rules + pos, 64 * 1024 - pos, " %%%s%s", fi->name,
					(fi->flags & FA_IDX) ? "[1]" : "");
	}
	/* and every argument any syscall has */
	for (unsigned sc = 0; sc < AS_SC_MAX; sc++)
		for (size_t i = 0; fields_evt_arg(sc, i); i++)
			pos += (size_t)snprintf(rules + pos, 64 * 1024 - pos, " %%evt.arg.%s",
						fields_evt_arg(sc, i));
	pos += (size_t)snprintf(rules + pos, 64 * 1024 - pos, "\n");
	assert_int_equal(engine_load_buffer(&e, "all.yaml", rules, pos, &eo, stderr), 0);
	free(rules);

	memset(&k, 0, sizeof(k)); /* IPv6, no local address, loginuid unset */
	tu_hdr(&k.hdr, AS_EV_CONNECT, AS_SC_CONNECT, 800);
	k.hdr.loginuid = AS_ID_UNSET;
	k.hdr.n_anc = 1;
	strcpy(k.hdr.anc[0].comm, "claude");
	k.family = AF_INET6;
	k.fd = 4;
	k.res = -ECONNREFUSED;
	k.dport = 443;
	inet_pton(AF_INET6, "2001:db8::1", k.daddr);
	recs[0] = tu_fixed(&k, sizeof(k), &lens[0]);
	base_open(&o, AS_SC_OPENAT, -ENOENT, O_RDWR | O_CREAT);
	recs[1] = tu_open(&o, PC("x\0tmp\0"), PC_NONE, &lens[1]);
	memset(&x, 0, sizeof(x));
	tu_hdr(&x.hdr, AS_EV_EXEC, AS_SC_EXECVE, 321);
	x.hdr.flags = AS_HF_SESSION;
	strcpy(x.hdr.session, "S");
	recs[2] = tu_exec(&x, PC("/bin/ls\0"), PC("ls\0-l\0"), PC("ls\0bin\0"), PC("t\0"),
			  PC("s\0"), &lens[2]);
	memset(&fk, 0, sizeof(fk));
	tu_hdr(&fk.hdr, AS_EV_FORK, AS_SC_CLONE, 60);
	fk.child_pid = fk.child_tid = 61;
	recs[3] = tu_fixed(&fk, sizeof(fk), &lens[3]);
	base_connect(&k, 0, AF_UNIX);
	memcpy(k.path, "\0abs", 4);
	k.path_len = 3;
	k.cflags = AS_CF_ABSTRACT;
	recs[4] = tu_fixed(&k, sizeof(k), &lens[4]);
	for (int r = 0; r < 5; r++) {
		const struct jc_member *m;
		int nfields = 0;

		len = lens[r];
		fmt(f, recs[r], &len, NULL); /* f->jc: the trace line */
		alert_line[0] = 0;
		assert_int_equal(engine_process(e, f->ev, NULL, NULL), 1);
		assert_int_equal(jc_parse(&alert, alert_line, strlen(alert_line)), 0);
		m = jc_get(&alert, "output_fields");
		assert_non_null(m);
		assert_int_equal(jc_parse(&of, m->v, m->vl), 0);
		for (int i = 0; i < of.ntop; i++) {
			char key[128];
			const struct jc_member *t;

			memcpy(key, of.top[i].k, of.top[i].kl);
			key[of.top[i].kl] = 0;
			if (!strcmp(key, "agent.seq"))
				continue; /* the engine's own numbering */
			if (!strncmp(key, "evt.arg.", 8)) { /* --trace shows Falco's names */
				const char *a;
				size_t j = 0;

				while ((a = fields_evt_arg(f->ev->hdr->syscall, j)) && strcmp(a, key + 8))
					j++;
				if (!a)
					continue; /* another syscall's, or an alias rules may use */
			}
			t = jc_get(&f->jc, key);
			if (!t) { /* --trace leaves out what the event lacks */
				if (of.top[i].vl != 4 || memcmp(of.top[i].v, "null", 4))
					fail_msg("%s: alert %.*s, not in --trace", key,
						 (int)of.top[i].vl, of.top[i].v);
				continue;
			}
			nfields++;
			if (t->vl != of.top[i].vl || memcmp(t->v, of.top[i].v, t->vl))
				fail_msg("%s: --trace %.*s, alert %.*s", key, (int)t->vl, t->v,
					 (int)of.top[i].vl, of.top[i].v);
		}
		assert_true(nfields > 10);
	}
	assert_json_field(&f->jc, "fd.name", "\"@abs\"");
	engine_free(e);
}

/* The kernel keeps what the rules or the --trace filter need. */
static void test_kfilter_union(void **state)
{
	struct trace_filter *t;
	struct engine_kfilter a, b;
	char diag[256];

	(void)state;
	assert_int_equal(filter_load(&t, "evt.type = connect and proc.pname = node", NULL, diag,
				     sizeof(diag)),
			 0);
	engine_kfilter(trace_filter_engine(t), &b);
	assert_int_equal(b.depth[AS_EV_CONNECT], 1);
	assert_int_equal(b.depth[AS_EV_OPEN], ENGINE_KF_NOTHING);
	assert_int_equal(b.nnames, 1);
	trace_filter_free(t);
	memset(&a, 0, sizeof(a));
	for (unsigned i = 0; i < AS_EV_MAX; i++)
		a.depth[i] = ENGINE_KF_NOTHING;
	a.depth[AS_EV_CONNECT] = 0;
	a.depth[AS_EV_SETID] = ENGINE_KF_ANY;
	a.depth[AS_EV_EXEC] = 2;
	strcpy(a.names[a.nnames++], "claude");
	strcpy(a.names[a.nnames++], "node");
	engine_kfilter_union(&a, &b);
	assert_int_equal(a.depth[AS_EV_CONNECT], 1); /* the deeper of the two */
	assert_int_equal(a.depth[AS_EV_SETID], ENGINE_KF_ANY);
	assert_int_equal(a.depth[AS_EV_EXEC], 2);
	assert_int_equal(a.depth[AS_EV_OPEN], ENGINE_KF_NOTHING);
	assert_int_equal(a.nnames, 2); /* node once */
	/* more names than the kernel tests: those types keep everything */
	a.nnames = ENGINE_KF_NAMES_MAX;
	for (unsigned i = 2; i < ENGINE_KF_NAMES_MAX; i++)
		snprintf(a.names[i], AS_COMM_LEN, "n%u", i);
	strcpy(b.names[0], "other");
	engine_kfilter_union(&a, &b);
	assert_int_equal(a.depth[AS_EV_CONNECT], ENGINE_KF_ANY);
	assert_int_equal(a.depth[AS_EV_EXEC], ENGINE_KF_ANY);
	assert_int_equal(a.depth[AS_EV_OPEN], ENGINE_KF_NOTHING);
}

/* Random well-formed records of every type: always one valid JSON line. */
static void test_fuzz_format(void **state)
{
	struct fx *f = *state;
	struct proctable *pt = proctable_new(64);
	uint64_t seed = 99;
	static const unsigned scs[] = { AS_SC_EXECVE,	 AS_SC_EXECVEAT, AS_SC_OPEN,
					AS_SC_OPENAT,	 AS_SC_OPENAT2,	 AS_SC_CREAT,
					AS_SC_CONNECT,	 AS_SC_SETUID,	 AS_SC_SETGID,
					AS_SC_SETREUID,	 AS_SC_SETREGID, AS_SC_SETRESUID,
					AS_SC_SETRESGID, AS_SC_CAPSET,	 AS_SC_CLONE,
					AS_SC_PROCEXIT,	 AS_SC_NONE };
	static const unsigned types[] = { AS_EV_EXEC,  AS_EV_EXEC,  AS_EV_OPEN,	  AS_EV_OPEN,
					  AS_EV_OPEN,  AS_EV_OPEN,  AS_EV_CONNECT, AS_EV_SETID,
					  AS_EV_SETID, AS_EV_SETID, AS_EV_SETID,   AS_EV_SETID,
					  AS_EV_SETID, AS_EV_CAPSET, AS_EV_FORK,   AS_EV_EXIT,
					  AS_EV_PROC };

	for (int it = 0; it < 20000; it++) {
		int k = (int)(tu_rand(&seed) % (sizeof(scs) / sizeof(scs[0])));
		unsigned type = types[k];
		size_t fixed = decode_fixed_size(type), len;
		unsigned char *b;
		struct as_hdr *h;
		char s1[40], s2[40];
		size_t l1 = tu_rand(&seed) % 39, l2 = tu_rand(&seed) % 39;
		long n;

		/* two random strings: NUL-free, terminated */
		tu_rand_fill(&seed, s1, sizeof(s1));
		tu_rand_fill(&seed, s2, sizeof(s2));
		for (size_t i = 0; i < sizeof(s1); i++) {
			if (!s1[i])
				s1[i] = '/';
			if (!s2[i])
				s2[i] = '.';
		}
		s1[l1] = 0;
		s2[l2] = 0;
		len = fixed + ((type == AS_EV_EXEC || type == AS_EV_PROC) ? 7 * 40 :
			       type == AS_EV_OPEN				? 80 :
										  0);
		b = calloc(1, len);
		tu_rand_fill(&seed, b, fixed);
		h = (struct as_hdr *)b;
		h->type = (uint16_t)type;
		h->syscall = (uint16_t)scs[k];
		h->n_anc = (uint8_t)(tu_rand(&seed) % (AS_MAX_ANCESTORS + 1));
		h->comm[tu_rand(&seed) % AS_COMM_LEN] = 0;
		h->session[tu_rand(&seed) % AS_SESSION_MAX] = 0;
		for (int i = 0; i < AS_MAX_ANCESTORS; i++)
			h->anc[i].comm[tu_rand(&seed) % AS_COMM_LEN] = 0;
		h->pid = (uint32_t)(tu_rand(&seed) % 128); /* hits the table sometimes */
		/* few distinct ids: every new one is an NSS lookup in usercache */
		h->uid = h->euid = (uint32_t)(tu_rand(&seed) % 4) * 1000;
		h->gid = h->egid = (uint32_t)(tu_rand(&seed) % 4) * 1000;
		if (type == AS_EV_EXEC || type == AS_EV_PROC) {
			struct as_exec *x = (struct as_exec *)b;
			char *p = (char *)(x + 1);

			x->res = tu_rand(&seed) % 2 ? 0 : -(int64_t)(tu_rand(&seed) % 200);
			x->pflags &= 0xffffu | (type == AS_EV_PROC ? AS_XF_PLAIN : 0);
			if (type == AS_EV_PROC)
				x->pflags |= AS_XF_PLAIN;
			x->filename_len = (uint16_t)(l1 + 1);
			memcpy(p, s1, l1 + 1);
			p += l1 + 1;
			x->args_len = (uint16_t)(l1 + 1 + l2);
			memcpy(p, s1, l1 + 1);
			memcpy(p + l1 + 1, s2, l2); /* argv may end without a NUL */
			p += l1 + 1 + l2;
			/* exe, cwd, cgroup: one component / plain string each */
			for (int j = 0; j < 3; j++) {
				const char *s = j == 1 ? s2 : s1;
				size_t l = j == 1 ? l2 : l1;

				memcpy(p, s, l + 1);
				p += l + 1;
			}
			x->exe_len = (uint16_t)(l1 + 1);
			x->cwd_len = (uint16_t)(l2 + 1);
			x->cgroup_len = (uint16_t)(l1 + 1);
			/* and sometimes the loader's search path */
			x->ldpath_len = 0;
			if (tu_rand(&seed) % 2) {
				memcpy(p, s2, l2 + 1);
				p += l2 + 1;
				x->ldpath_len = (uint16_t)(l2 + 1);
				x->pflags |= AS_XF_LD_PATH;
			}
			len = (size_t)(p - (char *)b);
			if (type == AS_EV_PROC) {
				/* plain strings must not hold '\0' inside: they do not */
			}
		} else if (type == AS_EV_OPEN) {
			struct as_open *o = (struct as_open *)b;
			char *p = (char *)(o + 1);

			o->res = (int64_t)(tu_rand(&seed) % 400) - 200;
			o->pflags = (uint32_t)(tu_rand(&seed) % 3 == 0 ? AS_OF_RESOLVED : 0) |
				    ((uint32_t)tu_rand(&seed) & 0x770) | AS_OF_USER_TRUNC;
			s1[0] = s1[0] && (tu_rand(&seed) & 1) ? '/' : s1[0];
			if (!l1) {
				s1[0] = 'f';
				s1[1] = 0;
				l1 = 1;
			}
			memcpy(p, s1, l1 + 1);
			o->path_len = (uint16_t)(l1 + 1);
			if (!(o->pflags & AS_OF_RESOLVED) && tu_rand(&seed) % 2) {
				memcpy(p + l1 + 1, s2, l2 + 1);
				o->base_len = (uint16_t)(l2 + 1);
			} else {
				o->base_len = 0;
			}
			len = fixed + o->path_len + o->base_len;
		} else if (type == AS_EV_CONNECT) {
			struct as_connect *cn = (struct as_connect *)b;
			static const uint16_t fam[] = { AF_INET, AF_INET6, AF_UNIX, AF_NETLINK };

			cn->family = fam[tu_rand(&seed) % 4];
			cn->path_len = (uint16_t)(tu_rand(&seed) % (AS_UNIX_PATH_MAX + 1));
			/* an abstract name is at most 107 bytes after its leading NUL */
			if ((cn->cflags & AS_CF_ABSTRACT) && cn->path_len > AS_UNIX_PATH_MAX - 1)
				cn->path_len = AS_UNIX_PATH_MAX - 1;
			cn->res = (int64_t)(tu_rand(&seed) % 300) - 150;
		} else if (type == AS_EV_SETID) {
			((struct as_setid *)b)->res = -(int64_t)(tu_rand(&seed) % 2);
		} else if (type == AS_EV_CAPSET) {
			((struct as_capset *)b)->res = -(int64_t)(tu_rand(&seed) % 2);
		}
		h->size = (uint32_t)len;
		tu_decode_ok(b, len, f->ev);
		f->ev->num = (uint64_t)it;
		if (proctable_apply(pt, f->ev) == -ENOSPC)
			assert_int_equal(proctable_count(pt), 64);
		n = trace_format(f->ev, pt, f->line, TRACE_LINE_MAX);
		jc_check_line(&f->jc, f->line, n);
		assert_keys_are_fields(&f->jc);
		proctable_retire(pt, f->ev);
		free(b);
	}
	proctable_free(pt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_exec, setup, teardown),
		cmocka_unit_test_setup_teardown(test_exec_failed_and_truncated, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open, setup, teardown),
		cmocka_unit_test_setup_teardown(test_connect, setup, teardown),
		cmocka_unit_test_setup_teardown(test_setid_capset, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fork_exit_proc, setup, teardown),
		cmocka_unit_test_setup_teardown(test_proc_cgroup_is_v2_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ancestors_full, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hostile_strings, setup, teardown),
		cmocka_unit_test_setup_teardown(test_small_buffer_and_write, setup, teardown),
		cmocka_unit_test_setup_teardown(test_worst_case_line, setup, teardown),
		cmocka_unit_test(test_open_flags),
		cmocka_unit_test(test_names),
		cmocka_unit_test_setup_teardown(test_res_int64_min, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fuzz_format, setup, teardown),
		cmocka_unit_test_setup_teardown(test_filter_and_format, setup, teardown),
		cmocka_unit_test_setup_teardown(test_name_len_and_host_ns, setup, teardown),
		cmocka_unit_test(test_filter_errors),
		cmocka_unit_test(test_kfilter_union),
		cmocka_unit_test_setup_teardown(test_trace_agrees_with_alerts, setup, teardown),
	};

	usercache_reset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
