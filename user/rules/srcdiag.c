// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Load diagnostics: one line each, FILE:LINE:COL: error|warning: [kind 'name': ]text. */
#include <stdarg.h>
#include <stdio.h>
#include "rules.h"
#include "diag.h"

/* A name or a message may hold what the file wrote (a folded rule name
 * ends in a line break, a quoted value may decode to one): written with
 * control bytes as escapes, so that a diagnostic stays one line. */
static void put_line(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\n')
			fputs("\\n", f);
		else if (c == '\r')
			fputs("\\r", f);
		else if ((c < 0x20 && c != '\t') || c == 0x7f) /* a tab keeps the line */
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
}

/* a message as formatted, before its escapes: ENGINE_MSG_MAX with room for
 * the names and values it quotes */
#define SRCDIAG_LINE_MAX (4 * ENGINE_MSG_MAX)

void engine_diag(struct diag *d, const struct srcpos *p, int is_err, const char *kind,
		 const char *name, const char *fmt, ...)
{
	char msg[SRCDIAG_LINE_MAX];
	va_list ap;

	if (is_err)
		d->errors++;
	else
		d->warnings++;
	if (!d->f)
		return;
	diag_at(d->f, p && p->file ? p->file : "<rules>", p ? p->line : 0, p ? p->col : 0);
	fprintf(d->f, "%s: ", is_err ? "error" : "warning");
	if (kind) {
		fprintf(d->f, "%s '", kind);
		put_line(d->f, name ? name : "");
		fputs("': ", d->f);
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	put_line(d->f, msg);
	fputc('\n', d->f);
}
