/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Diagnostics: one line each, on stderr, prefixed "agent-sentinel: ". stdout is JSON only. */
#ifndef AS_DIAG_H
#define AS_DIAG_H

#include <stddef.h>
#include <stdio.h>

__attribute__((format(printf, 1, 2))) void diag_err(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void diag_warn(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void diag_info(const char *fmt, ...);
extern int diag_verbose;

/* Where a problem in a file is: "FILE:LINE:COL: ", the one format of the
 * configuration's, the rules' and agent-egress's messages about their
 * files. diag_at writes it to f, diag_fmt_at into buf (as snprintf). The
 * message follows on the same line. */
void diag_at(FILE *f, const char *file, size_t line, size_t col);
int diag_fmt_at(char *buf, size_t cap, const char *file, size_t line, size_t col);

#endif /* AS_DIAG_H */
