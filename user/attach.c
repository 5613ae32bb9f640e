// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "abi.h"
#include "attach.h"
#include "diag.h"
#include "names.h"
#include "sctable.h"

/*
 * The program that serves the syscall exits of each event type. It serves
 * sys_exit_NAME of every row of the syscall table of its type (the records
 * start alike and the program learns the syscall from ctx->id), so one
 * verified copy serves all: verifying the open exit takes 8-11 ms, the exec
 * exit 10 ms, here.
 */
static const struct {
	unsigned type;
	const char *prog;
	const char *prefix; /* of the tracepoint name */
} attach_family[] = {
	{ AS_EV_OPEN, "tp_sys_exit_openat", "sys_exit_" },
	{ AS_EV_EXEC, "tp_sys_exit_execve", "sys_exit_" },
	{ AS_EV_EXEC, "tp_sys_enter_execve", "sys_enter_" },
	{ AS_EV_CONNECT, "tp_sys_exit_connect", "sys_exit_" },
	{ AS_EV_SETID, "tp_sys_exit_setuid", "sys_exit_" },
	{ AS_EV_CAPSET, "tp_sys_exit_capset", "sys_exit_" },
	{ AS_EV_FILE, "tp_sys_exit_generic", "sys_exit_" },
	{ AS_EV_SYS, "tp_sys_exit_generic", "sys_exit_" },
};

/* The event type a program feeds, from its name, for the tracepoints that
 * are not a syscall's (sched_*, io_uring). */
static unsigned attach_event_type(const char *name)
{
	static const struct {
		const char *part;
		unsigned type;
	} map[] = {
		{ "exec", AS_EV_EXEC },
		{ "fork", AS_EV_FORK },
		{ "process_exit", AS_EV_EXIT },
		{ "io_uring", AS_EV_URING },
		{ "sendmsg", AS_EV_CONNECT }, /* the cgroup sendmsg hooks */
		{ "sock_send", AS_EV_CONNECT }, /* the netlink sends of other calls */
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strstr(name, map[i].part))
			return map[i].type;
	return AS_EV_NONE;
}

/* The syscall of a syscalls/sys_{enter,exit}_NAME tracepoint, else AS_SC_NONE. */
static unsigned attach_tp_syscall(const char *cat, const char *name, unsigned *type)
{
	unsigned t, sc;

	if (strcmp(cat, "syscalls"))
		return AS_SC_NONE;
	if (!strncmp(name, "sys_exit_", 9))
		name += 9;
	else if (!strncmp(name, "sys_enter_", 10))
		name += 10;
	if (names_evt_type_parse(name, &t, &sc)) {
		/* a tracepoint named otherwise than its syscall (umount2's) */
		for (sc = AS_SC_NONE + 1; sc < AS_SC_MAX; sc++)
			if (sctable_get(sc)->tp && !strcmp(sctable_get(sc)->tp, name)) {
				*type = names_syscall_type(sc);
				return sc;
			}
		return AS_SC_NONE;
	}
	*type = t;
	return sc;
}

/* The tracefs category of a tracepoint: its own, or for a raw or BTF one
 * (cat "") the category its name's prefix belongs to. */
static const char *attach_tp_cat(const char *cat, const char *name)
{
	static const struct {
		const char *prefix, *cat;
	} cats[] = {
		{ "sys_", "raw_syscalls" }, /* sys_enter, sys_exit */
		{ "sched_", "sched" },
		{ "task_", "task" }, /* task_rename */
	};

	if (cat[0])
		return cat;
	for (size_t i = 0; i < sizeof(cats) / sizeof(cats[0]); i++)
		if (!strncmp(name, cats[i].prefix, strlen(cats[i].prefix)))
			return cats[i].cat;
	return "sched";
}

/* The cgroup v2 hierarchy's root as this process sees it (the first
 * cgroup2 mount of "/"), opened into s; 0 when there is none. */
static int attach_cgroup2_open(struct attach_set *s)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL, root[256], dir[256];
	size_t cap = 0;

	if (!f)
		return 0;
	/* "36 25 0:30 / /sys/fs/cgroup/unified rw,nosuid - cgroup2 cgroup2 rw" */
	while (s->cgroup_fd < 0 && getline(&line, &cap, f) > 0) {
		const char *sep = strstr(line, " - ");

		if (!sep || strncmp(sep + 3, "cgroup2 ", 8) ||
		    sscanf(line, "%*u %*u %*u:%*u %255s %255s", root, dir) != 2 || strcmp(root, "/"))
			continue;
		s->cgroup_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (s->cgroup_fd >= 0)
			snprintf(s->cgroup_dir, sizeof(s->cgroup_dir), "%s", dir);
	}
	free(line);
	fclose(f);
	return s->cgroup_fd >= 0;
}

static int attach_tp_exists(const char *tracefs, const char *cat, const char *name)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "%s/events/%s/%s", tracefs, attach_tp_cat(cat, name), name);
	return stat(path, &st) == 0;
}

/* Add one tracepoint of prog, if this kernel has it; 1 when added. */
static int attach_add(struct attach_set *s, struct bpf_program *prog, const char *cat,
		      const char *name, const char *tracefs, int verbose)
{
	struct attach_link *a;

	if (!strcmp(cat, ATTACH_CGROUP_CAT)) {
		if (s->cgroup_fd < 0 && !attach_cgroup2_open(s)) {
			if (verbose)
				diag_info("no cgroup v2 mount: %s/%s switched off (a datagram's "
					  "destination is then the caller's sockaddr at the exit)",
					  cat, name);
			s->skipped++;
			return 0;
		}
	} else if (!attach_tp_exists(tracefs, cat, name)) {
		/* e.g. no open/creat on arm64: not fatal, only that source is off */
		if (verbose)
			diag_info("tracepoint %s/%s not in this kernel: switched off",
				  attach_tp_cat(cat, name), name);
		s->skipped++;
		return 0;
	}
	if (s->n == ATTACH_MAX_LINKS) {
		diag_err("more than %d tracepoints to attach: raise ATTACH_MAX_LINKS",
			 ATTACH_MAX_LINKS);
		return -E2BIG;
	}
	a = &s->links[s->n++];
	a->prog = prog;
	snprintf(a->cat, sizeof(a->cat), "%s", cat);
	snprintf(a->name, sizeof(a->name), "%s", name);
	a->type = attach_event_type(bpf_program__name(prog));
	a->sc = attach_tp_syscall(cat, name, &a->type);
	a->link = NULL;
	return 1;
}

/* "tracepoint/CAT/NAME", "raw_tp/NAME" or "tp_btf/NAME" into cat ("" for
 * raw and BTF ones: the program's type tells those apart) and name. */
static int attach_parse_sec(const char *sec, char *cat, char *name)
{
	const char *slash;

	if (strncmp(sec, "tp_btf/", 7) == 0) {
		cat[0] = '\0';
		snprintf(name, ATTACH_TP_MAX, "%s", sec + 7);
		return 0;
	}
	if (strncmp(sec, ATTACH_CGROUP_CAT "/", sizeof(ATTACH_CGROUP_CAT)) == 0) {
		snprintf(cat, ATTACH_CAT_MAX, "%s", ATTACH_CGROUP_CAT);
		snprintf(name, ATTACH_TP_MAX, "%s", sec + sizeof(ATTACH_CGROUP_CAT));
		return 0;
	}
	if (strncmp(sec, "raw_tp/", 7) == 0) {
		cat[0] = '\0';
		snprintf(name, ATTACH_TP_MAX, "%s", sec + 7);
		return 0;
	}
	if (strncmp(sec, "tracepoint/", 11) != 0 || !(slash = strchr(sec + 11, '/')) ||
	    (size_t)(slash - (sec + 11)) >= ATTACH_CAT_MAX) {
		diag_err("BPF program section %s: not tracepoint/CAT/NAME, raw_tp/NAME, tp_btf/NAME "
			 "or cgroup/NAME",
			 sec);
		return -EINVAL;
	}
	snprintf(cat, ATTACH_CAT_MAX, "%.*s", (int)(slash - (sec + 11)), sec + 11);
	snprintf(name, ATTACH_TP_MAX, "%s", slash + 1);
	return 0;
}

int attach_plan(struct attach_set *s, struct bpf_object *obj, const char *tracefs, int verbose)
{
	struct bpf_program *prog;
	char cat[ATTACH_CAT_MAX], name[ATTACH_TP_MAX];
	int err, added;

	memset(s, 0, sizeof(*s));
	s->cgroup_fd = -1;
	bpf_object__for_each_program(prog, obj) {
		if (!strcmp(bpf_program__section_name(prog), ATTACH_RUN_SEC))
			continue; /* run by the loader, attached nowhere */
		err = attach_parse_sec(bpf_program__section_name(prog), cat, name);
		if (err)
			return err;
		added = attach_add(s, prog, cat, name, tracefs, verbose);
		if (added < 0)
			return added;
		for (size_t f = 0; f < sizeof(attach_family) / sizeof(attach_family[0]); f++) {
			if (strcmp(attach_family[f].prog, bpf_program__name(prog)))
				continue;
			for (unsigned sc = AS_SC_NONE + 1; sc < AS_SC_MAX; sc++) {
				char tp[ATTACH_TP_MAX];

				if (names_syscall_type(sc) != attach_family[f].type ||
				    sctable_get(sc)->nr < 0 || sctable_get(sc)->via != VIA_TP)
					continue;
				snprintf(tp, sizeof(tp), "%s%s", attach_family[f].prefix,
					 sctable_get(sc)->tp ? sctable_get(sc)->tp :
							       names_evt_type(attach_family[f].type, sc));
				if (!strcmp(tp, name)) /* its SEC() already */
					continue;
				/* the enter program serves exec only */
				if (!strcmp(attach_family[f].prefix, "sys_enter_") &&
				    sc != AS_SC_EXECVE && sc != AS_SC_EXECVEAT)
					continue;
				err = attach_add(s, prog, "syscalls", tp, tracefs, verbose);
				if (err < 0)
					return err;
				added += err;
			}
		}
		if (!added)
			bpf_program__set_autoload(prog, false); /* nothing for it to serve */
	}
	return 0;
}

/* What a link is, as a section name starts: CAT, raw_tp or tp_btf. */
static const char *attach_kind(const struct attach_link *a)
{
	if (a->cat[0])
		return a->cat;
	return bpf_program__type(a->prog) == BPF_PROG_TYPE_TRACING ? "tp_btf" : "raw_tp";
}

/* Is a syscall the program of kind via serves wanted? */
static int attach_wants_via(const struct scset *want_sc, unsigned via)
{
	for (unsigned sc = AS_SC_NONE + 1; sc < AS_SC_MAX; sc++)
		if (sctable_get(sc)->via == via && scset_has(want_sc, sc))
			return 1;
	return 0;
}

int attach_apply(struct attach_set *s, uint32_t want_types, const struct scset *want_sc)
{
	s->attached = s->unwanted = 0;
	for (uint32_t i = 0; i < s->n; i++) {
		struct attach_link *a = &s->links[i];
		int want = a->type == AS_EV_NONE || (want_types & (1u << a->type));

		/* a syscall's own tracepoint: only when that syscall is wanted;
		 * the sendmsg hooks serve the sends' exits */
		if (want && a->sc != AS_SC_NONE && want_sc)
			want = scset_has(want_sc, a->sc);
		else if (want && !strcmp(a->cat, ATTACH_CGROUP_CAT) && want_sc)
			want = scset_has(want_sc, AS_SC_SENDTO) || scset_has(want_sc, AS_SC_SENDMSG) ||
			       scset_has(want_sc, AS_SC_SENDMMSG);
		else if (want && !strcmp(a->name, ATTACH_SOCK_SEND_TP) && want_sc)
			want = attach_wants_via(want_sc, VIA_SOCK_SEND);
		if (!want) {
			bpf_link__destroy(a->link); /* NULL-safe */
			a->link = NULL;
			s->unwanted++;
			continue;
		}
		if (!a->link) {
			if (!strcmp(a->cat, ATTACH_CGROUP_CAT))
				a->link = bpf_program__attach_cgroup(a->prog, s->cgroup_fd);
			else if (a->cat[0])
				a->link = bpf_program__attach_tracepoint(a->prog, a->cat, a->name);
			else if (bpf_program__type(a->prog) == BPF_PROG_TYPE_TRACING)
				a->link = bpf_program__attach_trace(a->prog); /* tp_btf */
			else
				a->link = bpf_program__attach_raw_tracepoint(a->prog, a->name);
			if (!a->link) {
				int err = -errno;

				diag_err("cannot attach %s to %s/%s: %s", bpf_program__name(a->prog),
					 attach_kind(a), a->name, strerror(-err));
				return err;
			}
		}
		s->attached++;
	}
	return 0;
}

void attach_describe(const struct attach_set *s, FILE *out)
{
	fputs("agent-sentinel: attached:", out);
	for (uint32_t i = 0; i < s->n; i++)
		if (s->links[i].link)
			fprintf(out, " %s/%s%s%s", attach_kind(&s->links[i]), s->links[i].name,
				strcmp(s->links[i].cat, ATTACH_CGROUP_CAT) ? "" : ":",
				strcmp(s->links[i].cat, ATTACH_CGROUP_CAT) ? "" : s->cgroup_dir);
	fputc('\n', out);
}

static void *attach_detach_one(void *link)
{
	bpf_link__destroy(link);
	return NULL;
}

/* Detaching a syscall tracepoint waits for an RCU grace period (~70 ms
 * here); one thread per link lets those waits overlap instead of adding up. */
void attach_detach_all(struct attach_set *s)
{
	pthread_t tids[ATTACH_MAX_LINKS];
	int started[ATTACH_MAX_LINKS] = { 0 };

	for (uint32_t i = 0; i < s->n; i++) {
		struct bpf_link *link = s->links[i].link;

		if (!link)
			continue;
		started[i] = pthread_create(&tids[i], NULL, attach_detach_one, link) == 0;
		if (!started[i])
			bpf_link__destroy(link);
		s->links[i].link = NULL;
	}
	for (uint32_t i = 0; i < s->n; i++)
		if (started[i])
			pthread_join(tids[i], NULL);
	if (s->cgroup_dir[0] && s->cgroup_fd >= 0) /* opened by attach_plan */
		close(s->cgroup_fd);
	s->cgroup_fd = -1;
	s->cgroup_dir[0] = '\0';
}
