// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Load rules files: diagnostics on stderr, rule list then "N rules" on stdout.
 * Exit 0 clean, 1 load errors (the engine still holds what compiled). */
#include <errno.h>
#include <stdio.h>
#include "engine.h"

int main(int argc, char **argv)
{
	struct engine_opts o = { .json = 1, .hostname = "h" };
	struct engine *e = NULL;
	int rc = engine_load(&e, (const char *const *)argv + 1, (size_t)argc - 1, &o, stderr);

	if (!e)
		return 2;
	engine_list_rules(e, stdout, 0);
	printf("%zu rules\n", engine_rule_count(e));
	engine_free(e);
	return rc == -EINVAL ? 1 : rc ? 2 : 0;
}
