/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Command line of agent-egress. */
#ifndef AS_EGRESS_OPTS_H
#define AS_EGRESS_OPTS_H

#include <stdbool.h>
#include <stddef.h>

/* The seed launcher's socket, which agent-bwrap binds into the sandbox. */
#define EGRESS_SOCKET_DEFAULT "/run/agent-egress.sock"
/* --allow entries on one command line. */
#define EGRESS_CLI_ALLOW_MAX 256

/* Exit codes: sysexits(3)-like, one per kind of failure. */
enum egress_exit {
	EGRESS_EXIT_OK = 0,
	EGRESS_EXIT_RUNTIME = 1, /* socket, resolver, poll */
	EGRESS_EXIT_USAGE = 2, /* bad option, bad --allow entry, bad configuration file */
};

struct egress_opts {
	const char *socket_path;
	const char *config_path;
	char *allow[EGRESS_CLI_ALLOW_MAX];
	size_t n_allow;
	bool check; /* load the configuration, report, exit */
};

/* 0, 1 when --help was printed, -EINVAL (printed). */
int egress_opts_parse(struct egress_opts *o, int argc, char **argv);

#endif
