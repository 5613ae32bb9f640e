// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Falco's priorities, in one place: names, parsing (the rules' priority key
 * and the configuration's minimum, config.c), printing. */
#include <ctype.h>
#include <stdio.h>
#include <strings.h>
#include "engine.h"

static const char *const prio_names[ENGINE_PRIO_MAX] = {
	[ENGINE_PRIO_EMERGENCY] = "Emergency", [ENGINE_PRIO_ALERT] = "Alert",
	[ENGINE_PRIO_CRITICAL] = "Critical",   [ENGINE_PRIO_ERROR] = "Error",
	[ENGINE_PRIO_WARNING] = "Warning",     [ENGINE_PRIO_NOTICE] = "Notice",
	[ENGINE_PRIO_INFORMATIONAL] = "Informational", [ENGINE_PRIO_DEBUG] = "Debug",
};

int engine_priority_parse(const char *name)
{
	if (!strcasecmp(name, "info"))
		return ENGINE_PRIO_INFORMATIONAL;
	for (int i = ENGINE_PRIO_EMERGENCY; i < ENGINE_PRIO_MAX; i++)
		if (!strcasecmp(name, prio_names[i]))
			return i;
	return -1;
}

void engine_priority_list(char *buf, size_t cap)
{
	size_t o = 0;

	if (!cap)
		return;
	buf[0] = 0;
	for (int i = ENGINE_PRIO_EMERGENCY; i < ENGINE_PRIO_MAX && o < cap; i++)
		o += (size_t)snprintf(buf + o, cap - o, "%s%s", o ? ", " : "", prio_names[i]);
	for (size_t i = 0; i < o && i < cap; i++)
		buf[i] = (char)tolower((unsigned char)buf[i]);
}

const char *engine_priority_name(int prio)
{
	return prio > ENGINE_PRIO_NONE && prio < ENGINE_PRIO_MAX ? prio_names[prio] : "Debug";
}
