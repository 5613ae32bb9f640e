/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Attach: which tracepoints each program serves, and attaching or detaching
 * them as the rules want. A program may serve several tracepoints (the open
 * exits, the exec exits, the setid exits): it is then verified once, not
 * once per syscall, which is most of the start-up time.
 */
#ifndef AS_ATTACH_H
#define AS_ATTACH_H

#include <stdint.h>
#include <stdio.h>
#include "scset.h"

struct bpf_object;
struct bpf_program;
struct bpf_link;

#define ATTACH_MAX_LINKS 160 /* tracepoints served (the syscall table's rows), with room to grow */
#define ATTACH_CAT_MAX 16
#define ATTACH_TP_MAX 48
/* The section of programs the loader runs itself (BPF_PROG_RUN), never attached */
#define ATTACH_RUN_SEC "syscall"

struct attach_link {
	struct bpf_program *prog;
	char cat[ATTACH_CAT_MAX]; /* tracepoint category; "" for a raw tracepoint */
	char name[ATTACH_TP_MAX];
	unsigned type; /* enum as_event_type it feeds; AS_EV_NONE: needed always */
	unsigned sc; /* enum as_syscall of a syscall tracepoint, else AS_SC_NONE */
	struct bpf_link *link; /* NULL while detached */
};

#define ATTACH_CGROUP_CAT "cgroup" /* a cgroup program's "category" */
#define ATTACH_SOCK_SEND_TP "sock_send_length" /* the netlink sends of other calls (bpf/net.bpf.c) */

struct attach_set {
	struct attach_link links[ATTACH_MAX_LINKS];
	uint32_t n;
	uint32_t attached; /* tracepoints attached now */
	uint32_t skipped; /* tracepoints this kernel lacks */
	uint32_t unwanted; /* tracepoints no rule needs now */
	/* the cgroup v2 root the cgroup programs attach to (its mount as
	 * this process sees it), open while any may be attached; -1: none */
	int cgroup_fd;
	char cgroup_dir[256];
};

/* Before load: list every tracepoint of every program of obj, leave out
 * those tracefs (the directory with events/) lacks, and switch off programs
 * left with none. A cgroup program (section cgroup/NAME) is to attach to
 * the cgroup v2 root, left out where none is mounted. Returns 0 or -errno
 * after saying why. */
int attach_plan(struct attach_set *s, struct bpf_object *obj, const char *tracefs, int verbose);
/* After load: attach the tracepoints feeding a type in want_types (bit per
 * enum as_event_type) and, for a syscall's own tracepoint, whose syscall is
 * in want_sc (NULL: every one of a wanted type); detach the others.
 * Returns 0 or -errno. */
int attach_apply(struct attach_set *s, uint32_t want_types, const struct scset *want_sc);
void attach_detach_all(struct attach_set *s);
/* One line "agent-sentinel: attached: CAT/NAME ..." (raw_tp/NAME for a raw
 * tracepoint, cgroup/NAME:DIR for a cgroup program attached at DIR): what
 * the benchmark's floor attaches too. */
void attach_describe(const struct attach_set *s, FILE *out);

#endif /* AS_ATTACH_H */
