// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* proc.* strings from the event or the process table (argv, exe, cwd,
 * cgroup), the parent's, capabilities, the exec's previous credentials.
 * Part of fields.c's translation unit (included there, not compiled alone). */
#include <stdio.h>
#include <string.h>
#include "fields_int.h"

/* argv of the process: from the event when it carries it, else the table. */
static const char *fields_proc_args(struct evctx *c, uint32_t *len)
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

static const char *fields_proc_str(struct evctx *c, const struct event_path *evp, size_t pe_off)
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
static void fields_join_args(char *buf, size_t cap, size_t *pos, const char *a, uint32_t len,
			     int lead)
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

static void fields_get_cgroup(struct evctx *c, struct fval *v, char *buf, size_t cap)
{
	const struct proc_entry *pe = entry(c);
	const char *v2 = fields_proc_str(c, &c->ev->cgroup, offsetof(struct proc_entry, cgroup));
	const char *all = pe ? pe->cgroups : NULL;
	size_t n1 = 0, n2, pos;

	if (!v2)
		return;
	/* entry->cgroups is "v1... unified=<v2>": the v1 part, if any, goes after */
	if (all && all[0] && strncmp(all, "unified=", 8) != 0) {
		const char *u = strstr(all, " unified=");

		n1 = u ? (size_t)(u - all) : strlen(all);
	}
	/* "<v2> <v1 part>" cut to cap as snprintf would: copies, as this runs
	 * for every alert that shows the cgroup and v1 lists are long */
	n2 = strlen(v2);
	if (n2 > cap - 1)
		n2 = cap - 1;
	memcpy(buf, v2, n2);
	pos = n2;
	if (n1 && pos < cap - 1) {
		buf[pos++] = ' ';
		if (n1 > cap - 1 - pos)
			n1 = cap - 1 - pos;
		memcpy(buf + pos, all, n1);
		pos += n1;
	}
	buf[pos] = 0;
	set_str(v, buf, pos);
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

static const char *fields_cap_names(uint64_t set, char *buf, size_t cap)
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

/* proc.pexe, proc.pexepath, proc.pcmdline: the parent's table entry */
static void fields_get_parent(struct evctx *c, int f, struct fval *v, char *buf, size_t cap)
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
			fields_join_args(buf, cap, &pos, pp->args, pp->args_len, 1);
		set_str(v, buf, pos);
		break;
	}
}

/* An ancestor's argv[0] from its table entry (pid 0: none) */
static void set_exe_of(struct evctx *c, uint32_t pid, struct fval *v)
{
	const struct proc_entry *pe = c->pt && pid ? proctable_lookup(c->pt, pid) : NULL;

	if (pe && pe->args && pe->args_len)
		set_str(v, pe->args, strnlen(pe->args, pe->args_len));
}

/* proc.aexe[N]: [0] the process's argv[0] (proc.exe), [1] the parent's
 * (proc.pexe), ...; with no index in an output, every ancestor's from the
 * parent up, space separated, as proc.aname prints */
static void fields_get_aexe(struct evctx *c, int32_t idx, struct fval *v, char *buf, size_t cap)
{
	const struct as_hdr *h = c->ev->hdr;
	int n = h->n_anc < AS_MAX_ANCESTORS ? h->n_anc : AS_MAX_ANCESTORS;
	const char *s;
	uint32_t len;
	size_t pos = 0;
	struct fval a;

	if (idx == 0) {
		s = fields_proc_args(c, &len);
		if (s && len)
			set_str(v, s, strnlen(s, len));
		return;
	}
	if (idx > 0) {
		if (idx - 1 < n)
			set_exe_of(c, h->anc[idx - 1].pid, v);
		return;
	}
	buf[0] = 0;
	for (int i = 0; i < n; i++) {
		a = (struct fval){ .type = T_STR };
		set_exe_of(c, h->anc[i].pid, &a);
		if (!a.present)
			continue;
		if (pos + a.len + 2 > cap)
			break;
		pos += (size_t)snprintf(buf + pos, cap - pos, "%s%.*s", pos ? " " : "", (int)a.len, a.s);
	}
	if (pos)
		set_str(v, buf, pos);
}

/* proc.is_exe_*, proc.is_interp_nolink, proc.is_ld_env: the exec's own flags, else what the table kept from it */
static void fields_get_exe_kind(struct evctx *c, int f, struct fval *v)
{
	const struct proc_entry *pe;
	uint32_t fl;

	if (c->ev->hdr->type == AS_EV_EXEC || c->ev->hdr->type == AS_EV_PROC) {
		fl = c->ev->exec_flags;
	} else {
		pe = entry(c);
		if (!pe)
			return;
		fl = pe->exe_flags;
	}
	set_bool(v, !!(fl & (f == F_PROC_IS_EXE_FROM_MEMFD  ? AS_XF_EXE_MEMFD :
			     f == F_PROC_IS_EXE_WRITABLE    ? AS_XF_EXE_WRITABLE :
			     f == F_PROC_IS_EXE_UPPER_LAYER ? AS_XF_EXE_UPPER :
			     f == F_PROC_IS_LD_ENV	    ? AS_XF_LD_ENV :
			     f == F_PROC_IS_INTERP_NOLINK   ? AS_XF_INTERP_NOLINK :
							      AS_XF_EXE_DELETED)));
}

/* The credentials an exec had before and whether it gained any. */
static void fields_get_exec_prev(const struct event *ev, int f, struct fval *v, char *buf,
				 size_t cap)
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
		set_cstr(v, fields_cap_names(x->prev_cap_permitted, buf, cap));
		break;
	}
}
