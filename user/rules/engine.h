/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The rule engine: loads Falco-format rules files (lists, macros, rules,
 * exceptions, append/override), compiles every condition once, and on each
 * event evaluates the rules indexed under its type, writing one alert line
 * (Falco's JSON, or the human line) per match.
 */
#ifndef AS_ENGINE_H
#define AS_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "event.h"
#include "proctable.h"

/* Falco's priorities, most severe first; 0 means "no minimum". */
enum engine_priority {
	ENGINE_PRIO_NONE = 0,
	ENGINE_PRIO_EMERGENCY,
	ENGINE_PRIO_ALERT,
	ENGINE_PRIO_CRITICAL,
	ENGINE_PRIO_ERROR,
	ENGINE_PRIO_WARNING,
	ENGINE_PRIO_NOTICE,
	ENGINE_PRIO_INFORMATIONAL,
	ENGINE_PRIO_DEBUG,
	ENGINE_PRIO_MAX,
};

struct engine;

/* Where alerts go when set: line is one complete alert without its newline,
 * prio an enum engine_priority, rule the rule's name. */
typedef void (*engine_emit_fn)(void *ctx, const char *line, size_t len, int prio,
			       const char *rule);

struct engine_opts {
	int rule_matching_all; /* 0 = first (Falco default), 1 = all */
	int min_priority; /* enum engine_priority: rules less severe are dropped at load; 0 = keep all */
	int json; /* 1 = JSON lines (default), 0 = --text human line */
	const char *hostname; /* NULL = $FALCO_HOSTNAME or gethostname() */
	int seq; /* number alerts: output_fields."agent.seq" 1, 2, ... (a gap = a loss) */
	engine_emit_fn emit; /* NULL: engine_process writes to its FILE */
	void *emit_ctx;
};

/* Parse a priority name (case-insensitive, "info" accepted); -1 if unknown. */
int engine_priority_parse(const char *name);
const char *engine_priority_name(int prio);
/* Every priority name, most severe first, in lower case and separated by
 * ", " as the configuration's errors list them; buf as snprintf. */
void engine_priority_list(char *buf, size_t cap);

/*
 * Load every file (a directory loads its .yaml/.yml files in name order).
 * Every error and warning is one line "FILE:LINE:COL: error|warning: ..." on
 * diag. Returns 0; -EINVAL when some item had an error (*out is then still
 * set to an engine holding every rule that did compile: free it); -ENOMEM
 * (*out NULL).
 */
int engine_load(struct engine **out, const char *const *paths, size_t npaths,
		const struct engine_opts *o, FILE *diag);
/* The same from one in-memory buffer, named name in diagnostics. */
int engine_load_buffer(struct engine **out, const char *name, const char *buf, size_t len,
		       const struct engine_opts *o, FILE *diag);
/* One rule from the command line (--trace FILTER, -p FORMAT): condition cond,
 * output output, named name; diagnostics say cond_file:1:COL or
 * output_file:1:COL. Returns as engine_load. */
int engine_load_rule(struct engine **out, const char *name, const char *cond_file,
		     const char *cond, const char *output_file, const char *output,
		     const struct engine_opts *o, FILE *diag);
void engine_free(struct engine *e);
/* Some enabled rule may match events of this (type, syscall). */
int engine_wants(const struct engine *e, unsigned type, unsigned syscall);
/* Evaluate ev; write one line per alert to out; returns the number of alerts.
 * Allocates nothing. pt may be NULL. */
int engine_process(struct engine *e, const struct event *ev, const struct proctable *pt,
		   FILE *out);
int engine_list_rules(const struct engine *e, FILE *out, int json);
int engine_list_fields(FILE *out, const char *format);
uint64_t engine_alert_count(const struct engine *e);
/* The hostname alerts carry ($FALCO_HOSTNAME or the host's name). */
const char *engine_hostname(const struct engine *e);
/* Carry alert numbering (agent.seq) over from an engine being replaced. */
void engine_continue_seq(struct engine *e, const struct engine *from);
size_t engine_rule_count(const struct engine *e);
/*
 * The kernel pre-filter the loaded rules allow (kfilter.c): per event type,
 * ENGINE_KF_ANY (keep every event), ENGINE_KF_NOTHING (no rule can match),
 * or a depth D: an event can only match when the name of the process or of
 * one of its first D ancestors is in names[]. Conservative by construction.
 */
#define ENGINE_KF_NAMES_MAX AS_FILTER_NAMES_MAX /* bpf/events.h: names the kernel tests */
#define ENGINE_KF_ANY 0xff
#define ENGINE_KF_NOTHING 0xfe
/* any lineage entry (or an ancestor) named: proc.lineage.name, agent.ancestor.* */
#define ENGINE_KF_LINEAGE 0xfd

/* Opens (kfopen.c): which classes (bit per AS_OPEN_OK | _READ | _WRITE |
 * _TRUNC combination) some rule can match, and per class the terms of which one
 * holds when one does: path prefixes fd.name does not start with, and path
 * names (atoms) of which it has one. */
#define ENGINE_KF_PREFIX_MAX AS_OPEN_PREFIX_MAX
#define ENGINE_KF_ATOM_MAX AS_OPEN_ATOM_MAX
#define ENGINE_KF_TERMS AS_OPEN_TERMS

struct engine_kfterm {
	uint16_t excl; /* bit i: fd.name does not start with prefix[i] */
	uint16_t _pad0;
	uint32_t need; /* bit j: fd.name has atom[j]; none: no name needed */
};

struct engine_kfopen {
	uint16_t classes;
	uint8_t nprefix;
	uint8_t natom;
	uint8_t raw; /* some rule reads fd.nameraw: opens carry the string as passed */
	/* some rule can match an open the filter does not test: a 32-bit one
	 * or an open_by_handle_at (the open type stays attached for them) */
	uint8_t untested;
	uint8_t _pad0[3];
	uint8_t nterm[AS_OPEN_CLASSES];
	struct engine_kfterm term[AS_OPEN_CLASSES][ENGINE_KF_TERMS];
	char prefix[ENGINE_KF_PREFIX_MAX][AS_OPEN_PREFIX_LEN];
	char atom[ENGINE_KF_ATOM_MAX][AS_OPEN_ATOM_LEN];
	uint8_t akind[ENGINE_KF_ATOM_MAX]; /* AS_ATOM_* */
};

struct engine_kfilter {
	uint8_t depth[AS_EV_MAX];
	/* the deepest live ancestor level any type's rules test by name (the
	 * kernel's verdict walks this far up, then the lineage) */
	uint8_t walk;
	char names[ENGINE_KF_NAMES_MAX][AS_COMM_LEN];
	size_t nnames;
	struct engine_kfopen open;
};

int engine_kfilter(const struct engine *e, struct engine_kfilter *out);
/* a becomes the filter that keeps what a or b keeps (the rules' and the
 * --trace filter's), as if b's rules had been loaded with a's. */
void engine_kfilter_union(struct engine_kfilter *a, const struct engine_kfilter *b);
/* The filter that keeps everything (--trace, --no-prefilter). */
void engine_kfilter_all(struct engine_kfilter *out);
/* The same test in userspace, on a decoded event (replay, tests). */
int engine_kfilter_pass(const struct engine_kfilter *kf, const struct event *ev);
/* The class of an open event (AS_OPEN_* bits), as fields.c reads it. */
unsigned engine_open_class(const struct event *ev);

/* Disassemble every compiled rule (what --dump prints). */
int engine_dump(const struct engine *e, FILE *out);

#endif /* AS_ENGINE_H */
