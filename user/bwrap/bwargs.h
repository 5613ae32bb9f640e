/* SPDX-License-Identifier: MIT */
/* The bubblewrap command line: the seed launcher's flags plus seccomp and session. */
#ifndef AGENT_BWRAP_BWARGS_H
#define AGENT_BWRAP_BWARGS_H

#include <stdbool.h>
#include <stdio.h>

#define BWARGS_WORKSPACE "/workspace"

struct bwargs {
	char **argv; /* NULL-terminated, strings owned */
	size_t n, cap;
};

struct bwargs_config {
	const char *bwrap; /* path of the binary, argv[0] */
	const char *workdir; /* host directory bound at /workspace */
	bool network; /* bind the egress socket in (the network is always unshared) */
	const char *egress_sock;
	const char *session;
	int seccomp_fd; /* < 0: none */
	int lifeline_fd; /* the lifeline's read end for the init (lifeline.h); < 0: none */
	const char *init; /* agent-bwrap-init, bound in at its own path, runs cmd */
	unsigned relay_port; /* the relay's 127.0.0.1 port (network on) */
	bool require_landlock;
	const char *landlock_abi; /* NULL, or the ABI to use at most */
	char *const *cmd; /* NULL-terminated */
};

/* 0 or -ENOMEM (printed). The dynamic loader's variables of this process's
 * environment become --setenv for the command. */
int bwargs_build(struct bwargs *a, const struct bwargs_config *c);
/* Take the dynamic loader's variables out of this process's environment, so
 * that bubblewrap, run with it, loads nothing they name (after bwargs_build). */
void bwargs_scrub_loader_env(void);
/* One line, shell-quoted. */
void bwargs_print(const struct bwargs *a, FILE *f);
void bwargs_free(struct bwargs *a);

#endif
