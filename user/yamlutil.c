// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stddef.h>
#include <strings.h>
#include "yamlutil.h"

int yamlutil_bool(const char *s, int *out)
{
	static const char *const t[] = { "true", "yes", "on", "y" };
	static const char *const f[] = { "false", "no", "off", "n" };

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (!strcasecmp(s, t[i])) {
			*out = 1;
			return 0;
		}
		if (!strcasecmp(s, f[i])) {
			*out = 0;
			return 0;
		}
	}
	return -EINVAL;
}
