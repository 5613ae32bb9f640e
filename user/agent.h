/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The running agent: configuration (file, -o, command line), rule engine,
 * outputs, metrics, the kernel (or a replay), and what signals ask for:
 * SIGINT/SIGTERM stop, SIGHUP reloads rules and configuration atomically,
 * SIGUSR1 reopens file outputs. main.c parses options and calls in here.
 */
#ifndef AS_AGENT_H
#define AS_AGENT_H

#include "config.h"
#include "opts.h"

/* The effective configuration: defaults, the file (-c, or the default path
 * when it exists), every -o, then command-line flags. check_safety: refuse
 * a config or rules file others could change. 0 or -errno (reported). */
int agent_config(const struct opts *o, struct config *cfg, int check_safety);
/* -V, --dry-run, -L, --list-fields: answer and return an exit code; -1
 * when the options ask for a run. */
int agent_one_shot(const struct opts *o);
/* Run until stopped (live) or to the end of a recording (--replay); returns
 * the process exit code. */
int agent_run(const struct opts *o);

#endif /* AS_AGENT_H */
