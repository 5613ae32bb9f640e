// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The field table, and extracting one field of one event: the dispatch over
 * fields (fields_direct, extract_any) here, each field class's extractors in
 * its own file: fields_evt.c (evt.arg.*), fields_proc.c (proc.*, thread.*),
 * fields_fd.c (fd.*, fs.path.*), fields_container.c (container.*, k8s.*) and
 * fields_lineage.c (proc.lineage.*, agent.*). Adding a field is one row in
 * fields.h's FIELD_LIST and one case in extract_any or its class's extractor.
 *
 * Those files are parts of this translation unit, included below, not
 * compiled alone: extract_any is the hot path of evaluation and inlines the
 * static extractors as it did when they were one file (compiled apart, the
 * calls cost about 1% more instructions per replayed event). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#define AS_FIELDS_TU 1
#include "fields_int.h"
#include "names.h"
#include "usercache.h"
#include "clock.h"

#include "fields_evt.c"
#include "fields_proc.c"
#include "fields_fd.c"
#include "fields_container.c"
#include "fields_lineage.c"

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
	default: /* fd.typechar of an open: f, or p for a pipe (fields_fd.c) */
		return 0;
	}
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
	case F_EVT_IS_OPEN_EXEC:
		if (h->type == AS_EV_OPEN)
			set_bool(v, is_open_exec(ev));
		break;
	case F_EVT_IS_COMPAT:
		set_bool(v, !!(h->flags & AS_HF_COMPAT));
		break;
	case F_EVT_IS_SENTINEL_TARGET:
		if (h->type == AS_EV_SYS)
			set_bool(v, fields_sentinel_target(ev, c->pt));
		else if (h->type == AS_EV_OPEN)
			set_bool(v, fields_sentinel_entry(ev, c->pt));
		break;
	case F_EVT_ARG:
		fields_get_arg(c, arg, v, buf, cap);
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
		s = fields_proc_args(c, &len);
		if (s && len)
			set_str(v, s, strnlen(s, len));
		break;
	case F_PROC_EXEPATH:
		set_cstr(v, fields_proc_str(c, &ev->exe, offsetof(struct proc_entry, exe)));
		break;
	case F_PROC_CMDLINE:
		pos = strnlen(h->comm, AS_COMM_LEN);
		memcpy(buf, h->comm, pos);
		buf[pos] = 0;
		s = fields_proc_args(c, &len);
		if (s)
			fields_join_args(buf, cap, &pos, s, len, 1);
		set_str(v, buf, pos);
		break;
	case F_PROC_ARGS:
		s = fields_proc_args(c, &len);
		if (s) {
			pos = 0;
			buf[0] = 0;
			fields_join_args(buf, cap, &pos, s, len, 0);
			set_str(v, buf, pos);
		}
		break;
	case F_PROC_CWD:
		set_cstr(v, fields_proc_str(c, &ev->cwd, offsetof(struct proc_entry, cwd)));
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
		fields_get_cgroup(c, v, buf, cap);
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
	case F_CONTAINER_MOUNT_DEST:
	case F_CONTAINER_LABELS:
	case F_CONTAINER_LABEL:
	case F_K8S_POD_NAME:
	case F_K8S_NS_NAME:
	case F_K8S_POD_UID:
	case F_K8S_POD_SANDBOX_ID:
	case F_K8S_POD_FULL_SANDBOX_ID:
	case F_K8S_POD_LABELS:
	case F_K8S_POD_LABEL:
		fields_get_container(c, f, arg, v, buf, cap);
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
	case F_USER_SUID:
	case F_GROUP_SGID:
		fields_saved_id(ev, f == F_USER_SUID, v);
		break;
	case F_USER_LOGINUID:
		set_num(v, h->loginuid == AS_ID_UNSET ? -1 : (int64_t)h->loginuid);
		break;
	case F_USER_LOGINNAME:
		if (h->loginuid != AS_ID_UNSET)
			set_cstr(v, usercache_user(h->loginuid));
		break;
	case F_PROC_SNAME:
		if (h->sid == h->pid) {
			set_comm(v, h->comm);
		} else if (c->pt && h->sid) {
			pe = proctable_lookup(c->pt, h->sid);
			if (pe)
				set_comm(v, pe->comm);
		}
		break;
	case F_PROC_AEXEPATH:
		if (idx == 0) {
			set_cstr(v, fields_proc_str(c, &ev->exe, offsetof(struct proc_entry, exe)));
		} else if (c->pt && ancestor(h, idx, &s, &pid) && pid) {
			pe = proctable_lookup(c->pt, pid);
			if (pe && pe->exe && pe->exe[0])
				set_cstr(v, pe->exe);
		}
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
		fields_get_fspath(ev, f, v);
		break;
	case F_FS_PATH_IS_UNRESOLVED:
		if (h->type == AS_EV_FILE || h->type == AS_EV_URING)
			set_bool(v, !!((ev->path.flags | ev->path2.flags) & EV_PATH_UNRESOLVED));
		break;
	case F_THREAD_CAP_EFFECTIVE:
		set_cstr(v, fields_cap_names(h->cap_effective, buf, cap));
		break;
	case F_THREAD_CAP_PERMITTED:
		set_cstr(v, fields_cap_names(h->cap_permitted, buf, cap));
		break;
	case F_THREAD_CAP_INHERITABLE:
		set_cstr(v, fields_cap_names(h->cap_inheritable, buf, cap));
		break;
	case F_PROC_PEXE:
	case F_PROC_PEXEPATH:
	case F_PROC_PCMDLINE:
		fields_get_parent(c, f, v, buf, cap);
		break;
	case F_PROC_AEXE:
		fields_get_aexe(c, idx, v, buf, cap);
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
	case F_PROC_IS_INTERP_NOLINK:
	case F_PROC_IS_LD_ENV:
		fields_get_exe_kind(c, f, v);
		break;
	case F_PROC_EXEC_PRIV_RAISED:
	case F_PROC_EXEC_PREV_UID:
	case F_PROC_EXEC_PREV_EUID:
	case F_PROC_EXEC_PREV_EGID:
	case F_PROC_EXEC_PREV_CAP_PERMITTED:
		fields_get_exec_prev(ev, f, v, buf, cap);
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
		fields_get_lineage(c, f, idx, v, buf, cap);
		break;
	default:
		fields_get_fd(c, fd_alias(ev, f, idx), v, buf, cap);
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
		fields_get_fd_path(ev, ev->u.open->pflags, f, v, NULL, 0);
		return 1;
	default:
		return 0;
	}
}

void fields_extract(struct evctx *c, int f, int32_t idx, const char *arg, struct fval *v, char *buf,
		    size_t cap)
{
	if (!fields_direct(c->ev, f, idx, v))
		extract_any(c, f, idx, arg, v, buf, cap);
}
