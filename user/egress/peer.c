// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* SO_PEERCRED, then one procscan record of the pid. */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "peer.h"
#include "procscan.h"

/* The v2 path of procscan's "ctrl=path ..." list (agent-sentinel's proc.cgroup), else the list. */
static void egress_peer_cgroup(const char *all, char *out, size_t cap)
{
	const char *u = strstr(all, "unified=");

	if (u && (u == all || u[-1] == ' ')) {
		size_t n = strcspn(u + 8, " ");

		snprintf(out, cap, "%.*s", (int)n, u + 8);
		return;
	}
	snprintf(out, cap, "%s", all);
}

void egress_peer_read(int fd, struct egress_peer *p)
{
	static char rec[PROCSCAN_REC_MAX];
	const struct as_exec *x = (const struct as_exec *)rec;
	struct ucred cred;
	socklen_t len = sizeof(cred);
	const char *s;

	memset(p, 0, sizeof(*p));
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 || cred.pid <= 0)
		return;
	p->pid = cred.pid;
	p->uid = cred.uid;
	if (procscan_one("/proc", (uint32_t)cred.pid, 0, rec, sizeof(rec)) < 0)
		return;
	snprintf(p->name, sizeof(p->name), "%.*s", (int)sizeof(p->name) - 1, x->hdr.comm);
	if (x->hdr.flags & AS_HF_SESSION)
		snprintf(p->session, sizeof(p->session), "%.*s", (int)sizeof(p->session) - 1,
			 x->hdr.session);
	/* the record's strings: filename, argv, exe, cwd, cgroups (procscan_one) */
	s = (const char *)(x + 1) + x->filename_len + x->args_len;
	snprintf(p->exe, sizeof(p->exe), "%.*s", (int)sizeof(p->exe) - 1, s);
	s += x->exe_len + x->cwd_len;
	egress_peer_cgroup(s, p->cgroup, sizeof(p->cgroup));
}
