// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* proc.lineage.*, agent.ancestor.*, agent.sandboxed, proc.is_reparented.
 * Part of fields.c's translation unit (included there, not compiled alone). */
#include <stdio.h>
#include <string.h>
#include "fields_int.h"
#include "agentid.h"
#include "lineage.h"

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
		p = fields_proc_str(c, &c->ev->exe, offsetof(struct proc_entry, exe));
	return p;
}

/* Index of the nearest agent in the lineage, or -1. */
static int lineage_agent(struct evctx *c, const struct as_lineage *l)
{
	/* the executable paths only matter when agents are pinned by path */
	int need_exe = agentid_pinned();

	const struct proc_entry *pe;

	if (c->agent_done)
		return c->agent_idx; /* once per event, however many fields ask */
	c->agent_done = 1;
	c->agent_idx = -1;
	if (!need_exe) {
		/* by name: the process's own lineage was looked at when it was set */
		pe = entry(c);
		if (pe && pe->lin == l && pe->lin_agent_gen == agentid_generation())
			c->agent_idx = pe->lin_agent;
		else
			c->agent_idx = agentid_nearest_by_name(l);
		return c->agent_idx;
	}
	for (int i = 0; i < l->n && i < AS_LINEAGE_MAX; i++) {
		if (agentid_is_agent(&l->e[i], need_exe ? lineage_exe(c, l, i) : NULL)) {
			c->agent_idx = i;
			break;
		}
	}
	return c->agent_idx;
}

int fields_any_range(struct evctx *c, int f, int *first)
{
	const struct as_lineage *l;

	if (fields_table[f].flags & FA_BOTH) {
		*first = 0; /* the client's, then the server's */
		return 1;
	}
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

static void fields_get_lineage(struct evctx *c, int f, int32_t idx, struct fval *v, char *buf,
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
					    in_sandbox_cgroup(fields_proc_str(c, &c->ev->cgroup,
									      offsetof(struct proc_entry,
										       cgroup)),
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
