// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The decision line: internal_format_source (user/internal.c) in Falco's format. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "alert.h"
#include "clock.h"
#include "engine.h"
#include "internal.h"

/* Longest hostname (HOST_NAME_MAX) plus the NUL. */
#define EGRESS_HOSTNAME_MAX 65
/* The human "output" text of a decision, before internal_format adds the time. */
#define EGRESS_MESSAGE_MAX 768

static char egress_hostname[EGRESS_HOSTNAME_MAX];

void egress_alert_init(void)
{
	if (gethostname(egress_hostname, sizeof(egress_hostname) - 1) < 0)
		snprintf(egress_hostname, sizeof(egress_hostname), "localhost");
}

/* The line for d into line (cap bytes), with exe as proc.exe. Its length, or -1. */
static long egress_alert_format(const struct egress_decision *d, const char *exe,
				const char *msg, char *line, size_t cap)
{
	const struct egress_peer *p = d->peer;
	/* output_fields in Falco's (sorted) key order */
	const struct internal_field f[] = {
		{ "agent.session", p->session, 0 },
		{ "egress.address", d->address, 0 },
		{ "egress.bytes_in", NULL, d->bytes_in },
		{ "egress.bytes_out", NULL, d->bytes_out },
		{ "egress.duration_ms", NULL, d->duration_ms },
		{ "egress.error", d->error, 0 },
		{ "egress.host", d->host, 0 },
		{ "egress.port", NULL, d->port },
		{ "egress.reason", d->reason, 0 },
		{ "proc.cgroup", p->cgroup, 0 },
		{ "proc.exe", exe, 0 },
		{ "proc.name", p->name, 0 },
		{ "proc.pid", NULL, (uint64_t)p->pid },
		{ "user.uid", NULL, (uint64_t)p->uid },
	};

	return internal_format_source(line, cap, 1, EGRESS_SOURCE, egress_hostname,
				      clock_wall_now(), d->prio,
				      d->allowed ? EGRESS_RULE_ALLOWED : EGRESS_RULE_DENIED, msg, f,
				      sizeof(f) / sizeof(f[0]));
}

void egress_alert_emit(const struct egress_decision *d)
{
	const struct egress_peer *p = d->peer;
	char msg[EGRESS_MESSAGE_MAX], line[INTERNAL_LINE_MAX + 1];
	long len;

	snprintf(msg, sizeof(msg),
		 "Egress %s (host=%s port=%u address=%s reason=%s%s%s session=%s pid=%d name=%s)",
		 d->allowed ? "allowed" : "denied", d->host, d->port, d->address, d->reason,
		 *d->error ? " error=" : "", d->error, p->session, (int)p->pid, p->name);
	len = egress_alert_format(d, p->exe, msg, line, sizeof(line) - 1);
	if (len < 0) /* an executable path of thousands of bytes: the line without it */
		len = egress_alert_format(d, "", msg, line, sizeof(line) - 1);
	if (len < 0)
		return;
	line[len++] = '\n';
	fwrite(line, 1, (size_t)len, stdout);
	fflush(stdout);
}
