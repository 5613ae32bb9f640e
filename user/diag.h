/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Diagnostics: one line each, on stderr, prefixed "agent-sentinel: ". stdout is JSON only. */
#ifndef AS_DIAG_H
#define AS_DIAG_H

__attribute__((format(printf, 1, 2))) void diag_err(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void diag_warn(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void diag_info(const char *fmt, ...);
extern int diag_verbose;

#endif /* AS_DIAG_H */
