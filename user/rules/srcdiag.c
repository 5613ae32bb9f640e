// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Load diagnostics: one line each, FILE:LINE:COL: error|warning: [kind 'name': ]text. */
#include <stdarg.h>
#include <stdio.h>
#include "rules.h"
#include "diag.h"

void engine_diag(struct diag *d, const struct srcpos *p, int is_err, const char *kind,
		 const char *name, const char *fmt, ...)
{
	va_list ap;

	if (is_err)
		d->errors++;
	else
		d->warnings++;
	if (!d->f)
		return;
	diag_at(d->f, p && p->file ? p->file : "<rules>", p ? p->line : 0, p ? p->col : 0);
	fprintf(d->f, "%s: ", is_err ? "error" : "warning");
	if (kind)
		fprintf(d->f, "%s '%s': ", kind, name ? name : "");
	va_start(ap, fmt);
	vfprintf(d->f, fmt, ap);
	va_end(ap);
	fputc('\n', d->f);
}
