// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "engine.h"
#include "internal.h"
#include "json.h"

long internal_format(char *buf, size_t cap, int json, const char *hostname, uint64_t ts_ns,
		     int prio, const char *rule, const char *message,
		     const struct internal_field *fields, size_t nfields)
{
	return internal_format_source(buf, cap, json, "internal", hostname, ts_ns, prio, rule,
				      message, fields, nfields);
}

long internal_format_source(char *buf, size_t cap, int json, const char *source,
			    const char *hostname, uint64_t ts_ns, int prio, const char *rule,
			    const char *message, const struct internal_field *fields,
			    size_t nfields)
{
	time_t secs = (time_t)(ts_ns / 1000000000ull);
	unsigned long nsec = (unsigned long)(ts_ns % 1000000000ull);
	char tod[32], iso[48], out[1024];
	struct tm local, utc;
	struct jw w;
	long len;

	localtime_r(&secs, &local);
	gmtime_r(&secs, &utc);
	strftime(tod, sizeof(tod), "%H:%M:%S", &local);
	strftime(iso, sizeof(iso), "%Y-%m-%dT%H:%M:%S", &utc);
	snprintf(out, sizeof(out), "%s.%09lu: %s %s", tod, nsec, engine_priority_name(prio),
		 message);
	if (!json) {
		len = snprintf(buf, cap, "%s", out);
		return len < 0 || (size_t)len >= cap ? -1 : len;
	}
	snprintf(iso + strlen(iso), sizeof(iso) - strlen(iso), ".%09luZ", nsec);
	jw_init(&w, buf, cap);
	jw_obj_open(&w, NULL);
	jw_str(&w, "hostname", hostname);
	jw_str(&w, "output", out);
	jw_obj_open(&w, "output_fields");
	for (size_t i = 0; i < nfields; i++) {
		if (fields[i].s)
			jw_str(&w, fields[i].key, fields[i].s);
		else
			jw_u64(&w, fields[i].key, fields[i].n);
	}
	jw_obj_close(&w);
	jw_str(&w, "priority", engine_priority_name(prio));
	jw_str(&w, "rule", rule);
	jw_str(&w, "source", source);
	jw_arr_open(&w, "tags");
	jw_str(&w, NULL, "agent-sentinel");
	jw_arr_close(&w);
	jw_str(&w, "time", iso);
	jw_obj_close(&w);
	len = jw_finish(&w);
	if (len < 0)
		return -1;
	buf[--len] = 0; /* callers add their own newline */
	return len;
}
