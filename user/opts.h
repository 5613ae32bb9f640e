/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Command line of agent-sentinel (Falco's flags where Falco has them). */
#ifndef AS_OPTS_H
#define AS_OPTS_H

#include <stddef.h>
#include <stdint.h>

#define OPTS_MAX_RULES 64 /* -r/--rules and -V/--validate paths */
#define OPTS_MAX_OVERRIDES 64 /* -o key=value */
#define OPTS_UNSET UINT64_MAX
/* --trace FILTER given as several words, joined; a longer filter belongs in a
 * rules file (Falco's longest rule condition is ~4 KiB) */
#define OPTS_FILTER_MAX (64 * 1024)

struct opts {
	const char *rules[OPTS_MAX_RULES];
	size_t n_rules;
	const char *validate[OPTS_MAX_RULES];
	size_t n_validate;
	const char *overrides[OPTS_MAX_OVERRIDES];
	size_t n_overrides;
	const char *config; /* -c FILE; NULL: the default path when it exists */
	const char *record; /* --record FILE */
	const char *replay; /* --replay FILE */
	const char *format; /* --format text|json|markdown */
	int trace;
	const char *trace_filter; /* --trace FILTER: the words after the options; NULL: none */
	const char *trace_format; /* -p FORMAT: print this per event instead of the JSON */
	char filter_buf[OPTS_FILTER_MAX]; /* trace_filter when it was several words */
	int dry_run;
	int list_rules;
	int list_fields;
	int dump; /* --dump: the compiled rules, disassembled */
	int text; /* --text: human alert lines instead of JSON */
	int unbuffered; /* -U */
	int verbose;
	int no_prefilter; /* keep every event in the kernel (and in a replay) */
	/* command-line forms of config keys; 0 (wakeup: OPTS_UNSET) = not given */
	uint32_t ringbuf_bytes;
	uint64_t wakeup_bytes;
	uint32_t max_procs;
	double duration; /* -M seconds, 0 = until signalled */
};

/* Parse argv; on a bad option prints one line on stderr and returns -EINVAL;
 * returns 1 when --help/--version was handled (exit 0). */
int opts_parse(struct opts *o, int argc, char **argv);

#endif /* AS_OPTS_H */
