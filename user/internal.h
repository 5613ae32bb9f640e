/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * agent-sentinel's own alerts, in the same Falco JSON stream as the rules'
 * (source "internal"): lost events (kernel ring buffer full, an output queue
 * full), a previous run that stopped uncleanly (user/lastrun.h) and periodic
 * metrics, so a SIEM sees coverage gaps where it looks.
 */
#ifndef AS_INTERNAL_H
#define AS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#define INTERNAL_RULE_DROP "agent-sentinel internal: event drop"
#define INTERNAL_RULE_METRICS "agent-sentinel internal: metrics"
#define INTERNAL_RULE_UNCLEAN "agent-sentinel internal: unclean stop"
#define INTERNAL_LINE_MAX 8192 /* one internal alert line */

struct internal_field {
	const char *key;
	const char *s; /* string value, or NULL for the number n */
	uint64_t n;
};

/* Format one alert (no newline) into buf; returns its length, or -1 when
 * it does not fit. prio is an enum engine_priority; json 0 gives the text line. */
long internal_format(char *buf, size_t cap, int json, const char *hostname, uint64_t ts_ns,
		     int prio, const char *rule, const char *message,
		     const struct internal_field *fields, size_t nfields);
/* The same with another Falco "source" (agent-egress's decisions). */
long internal_format_source(char *buf, size_t cap, int json, const char *source,
			    const char *hostname, uint64_t ts_ns, int prio, const char *rule,
			    const char *message, const struct internal_field *fields,
			    size_t nfields);

#endif /* AS_INTERNAL_H */
