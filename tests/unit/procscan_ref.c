// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The reference for tests/unit/test_procscan.c: user/procscan.c as it was
 * before the scan remembered entries and lineages (every process reads its
 * own stat twice and every ancestor's stat and exe again). Kept only here,
 * unchanged but for the names, so that the seeded records can be compared
 * byte for byte with what the slow, obvious way gives.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "clock.h"
#include "abi.h"
#include "agentid.h"
#include "lineage.h"
#include "procscan.h"
#include "procscan_ref.h"

#define PROCSCAN_ENVIRON_MAX (128 * 1024) /* bytes of /proc/PID/environ searched */

static ssize_t read_file(const char *proc_root, uint32_t pid, const char *name, char *buf,
			 size_t cap)
{
	char path[128];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%u/%s", proc_root, pid, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, cap);
	if (n < 0)
		n = -errno;
	close(fd);
	return n;
}

/* readlink of /proc/PID/{exe,cwd} into dst as a NUL-terminated string; "" when unreadable. */
static size_t read_link(const char *proc_root, uint32_t pid, const char *name, char *dst,
			size_t cap)
{
	char path[128];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%u/%s", proc_root, pid, name);
	n = readlink(path, dst, cap - 1);
	if (n < 0)
		n = 0;
	dst[n] = 0;
	return (size_t)n + 1;
}

static void parse_status_ids(const char *status, const char *key, uint32_t *r, uint32_t *e)
{
	const char *p = strstr(status, key);
	unsigned a, b;

	if (p && sscanf(p + strlen(key), "%u %u", &a, &b) == 2) {
		*r = a;
		*e = b;
	}
}

/* AGENT_SESSION_ID from /proc/PID/environ into h->session (AS_HF_SESSION). */
static void read_session(const char *proc_root, uint32_t pid, struct as_hdr *h)
{
	static const char key[] = "AGENT_SESSION_ID=";
	static char env[PROCSCAN_ENVIRON_MAX];
	ssize_t n = read_file(proc_root, pid, "environ", env, sizeof(env) - 1);

	if (n <= 0)
		return;
	env[n] = 0;
	for (char *p = env; p < env + n; p += strlen(p) + 1) {
		if (strncmp(p, key, sizeof(key) - 1) == 0 && p[sizeof(key) - 1]) {
			snprintf(h->session, sizeof(h->session), "%s", p + sizeof(key) - 1);
			h->flags |= AS_HF_SESSION;
			return;
		}
	}
}

/* /proc/PID/cgroup lines "ID:CONTROLLERS:PATH" to "name=path ..." in out
 * (cap bytes); the v2 line "0::PATH" becomes "unified=PATH". Returns the length. */
static size_t procscan_cgroups(char *file, char *out, size_t cap)
{
	size_t len = 0;

	out[0] = 0;
	for (char *line = strtok(file, "\n"); line; line = strtok(NULL, "\n")) {
		char *ctrl = strchr(line, ':'), *cpath;
		int w;

		if (!ctrl)
			continue;
		ctrl++;
		cpath = strchr(ctrl, ':');
		if (!cpath)
			continue;
		*cpath++ = 0;
		if (!*ctrl)
			ctrl = "unified";
		else if (strncmp(ctrl, "name=", 5) == 0)
			ctrl += 5;
		w = snprintf(out + len, cap - len, "%s%s=%s", len ? " " : "", ctrl, cpath);
		if (w < 0 || (size_t)w >= cap - len) {
			out[len] = 0;
			break;
		}
		len += (size_t)w;
	}
	return len;
}

#define PROCSCAN_CHAIN_MAX 1024 /* real_parent hops followed before giving up */

/* One /proc process as a lineage entry; its parent's pid in *ppid (0: none). */
static int procscan_entry(const char *proc_root, uint32_t pid, struct as_lin_ent *le, uint32_t *ppid)
{
	char sbuf[1024], path[128], *comm_end, *comm;
	unsigned long long start = 0;
	struct stat st;
	ssize_t n = read_file(proc_root, pid, "stat", sbuf, sizeof(sbuf) - 1);
	int pp = 0;

	if (n <= 0)
		return -ENOENT;
	sbuf[n] = 0;
	comm_end = strrchr(sbuf, ')');
	comm = strchr(sbuf, '(');
	/* fields 3 (state), 4 (ppid) ... 22 (starttime, clock ticks after boot) */
	if (!comm_end || !comm ||
	    sscanf(comm_end + 1,
		   " %*c %d %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %llu",
		   &pp, &start) != 2)
		return -EINVAL;
	*comm_end = 0;
	memset(le, 0, sizeof(*le));
	/* the name now: /proc cannot tell the one the kernel gave at exec */
	snprintf(le->comm, sizeof(le->comm), "%s", comm + 1);
	le->pid = pid;
	le->start_ns = start * (1000000000ull / (unsigned long long)sysconf(_SC_CLK_TCK));
	snprintf(path, sizeof(path), "%s/%u/exe", proc_root, pid);
	if (stat(path, &st) == 0) {
		le->dev = (uint32_t)st.st_dev;
		le->ino = st.st_ino;
	}
	*ppid = pp > 0 ? (uint32_t)pp : 0;
	return 0;
}

/* What /proc can tell of a lineage: the real_parent chain as it is now, one
 * entry per process (renames before start and reparenting are invisible),
 * pushed from the oldest as the kernel would have pushed them; the agents
 * (user/agentid.h) count as named, so they stay when the chain is longer
 * than AS_LINEAGE_MAX. */
void ref_procscan_lineage(const char *proc_root, uint32_t pid, struct as_lineage *l)
{
	static struct as_lin_ent chain[PROCSCAN_CHAIN_MAX];
	uint32_t n = 0, next;

	memset(l, 0, sizeof(*l));
	for (uint32_t p = pid; p && n < PROCSCAN_CHAIN_MAX; p = next, n++)
		if (procscan_entry(proc_root, p, &chain[n], &next))
			break;
	while (n--) {
		lineage_shift(l, l);
		l->e[0] = chain[n];
		l->forked &= (uint16_t)~1u;
		if (agentid_is_agent(&chain[n], NULL))
			l->named |= 1;
		else
			l->named &= (uint16_t)~1u;
	}
	l->flags |= AS_LIN_PROC;
}

long ref_procscan_one(const char *proc_root, uint32_t pid, uint64_t ts, void *buf, size_t cap)
{
	struct as_exec *x = buf;
	struct as_hdr *h = &x->hdr;
	char stat[1024], status[4096], cg[AS_CGROUP_MAX * 4];
	char *p = (char *)(x + 1), *comm_end;
	ssize_t n;
	int ppid = 0;

	if (cap < PROCSCAN_REC_MAX)
		return -ENOSPC;
	memset(x, 0, sizeof(*x));
	n = read_file(proc_root, pid, "stat", stat, sizeof(stat) - 1);
	if (n <= 0)
		return n < 0 ? n : -ENOENT;
	stat[n] = 0;
	/* "pid (comm) state ppid ..." where comm may hold spaces and parens */
	comm_end = strrchr(stat, ')');
	if (!comm_end || !strchr(stat, '(') || sscanf(comm_end + 1, " %*c %d", &ppid) != 1)
		return -EINVAL;
	{
		/* field 22, starttime: clock ticks since boot (boot time, as the
		 * kernel's start_boottime that live events carry) */
		unsigned long long start = 0;
		long hz = sysconf(_SC_CLK_TCK);

		if (sscanf(comm_end + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d "
				     "%*d %*d %*d %*d %llu", &start) == 1 && hz > 0)
			h->start_ns = start * (1000000000ull / (unsigned long long)hz);
	}
	*comm_end = 0;
	snprintf(h->comm, sizeof(h->comm), "%s", strchr(stat, '(') + 1);
	n = read_file(proc_root, pid, "status", status, sizeof(status) - 1);
	status[n > 0 ? n : 0] = 0;
	h->uid = h->euid = h->gid = h->egid = h->loginuid = AS_ID_UNSET;
	parse_status_ids(status, "Uid:", &h->uid, &h->euid);
	parse_status_ids(status, "Gid:", &h->gid, &h->egid);
	n = read_file(proc_root, pid, "loginuid", stat, sizeof(stat) - 1);
	if (n > 0) {
		stat[n] = 0;
		h->loginuid = (uint32_t)strtoul(stat, NULL, 10);
	}

	h->type = AS_EV_PROC;
	h->syscall = AS_SC_NONE;
	h->ts = ts;
	h->pid = h->tid = h->vpid = pid;
	h->ppid = (uint32_t)ppid;
	read_session(proc_root, pid, h);
	ref_procscan_lineage(proc_root, pid, &x->lin);

	x->filename_len = 1;
	*p++ = 0;
	n = read_file(proc_root, pid, "cmdline", p, AS_ARGS_MAX);
	if (n < 0)
		n = 0;
	if (n == AS_ARGS_MAX)
		x->pflags |= AS_XF_ARGS_TRUNC;
	x->args_len = (uint16_t)n;
	p += n;
	x->pflags |= AS_XF_PLAIN;
	x->exe_len = (uint16_t)read_link(proc_root, pid, "exe", p, AS_PATH_MAX);
	p += x->exe_len;
	x->cwd_len = (uint16_t)read_link(proc_root, pid, "cwd", p, AS_PATH_MAX);
	p += x->cwd_len;

	/* every hierarchy as Falco's thread.cgroups: "cpu=/ memory=/x unified=/y" */
	n = read_file(proc_root, pid, "cgroup", cg, sizeof(cg) - 1);
	cg[n > 0 ? n : 0] = 0;
	x->cgroup_len = (uint16_t)(procscan_cgroups(cg, p, AS_CGROUP_MAX) + 1);
	p += x->cgroup_len;
	h->size = (uint32_t)(p - (char *)buf);
	return h->size;
}

int ref_procscan_all(const char *proc_root, procscan_cb cb, void *ctx)
{
	static char rec[PROCSCAN_REC_MAX];
	DIR *d = opendir(proc_root);
	struct dirent *de;
	uint64_t now = clock_wall_now();
	int count = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char *end;
		unsigned long pid = strtoul(de->d_name, &end, 10);
		long len;

		if (!isdigit((unsigned char)de->d_name[0]) || *end || pid == 0 || pid > UINT32_MAX)
			continue;
		len = ref_procscan_one(proc_root, (uint32_t)pid, now, rec, sizeof(rec));
		if (len < 0)
			continue; /* exited meanwhile */
		if (cb(rec, (size_t)len, ctx) == 0)
			count++;
	}
	closedir(d);
	return count;
}
