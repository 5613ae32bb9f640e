// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* agent-sentinel: options in, then a one-shot answer or a run (agent.c). */
#include "agent.h"
#include "opts.h"

int main(int argc, char **argv)
{
	struct opts o;
	int rc;

	rc = opts_parse(&o, argc, argv);
	if (rc)
		return rc > 0 ? 0 : 2;
	rc = agent_one_shot(&o);
	if (rc >= 0)
		return rc;
	return agent_run(&o);
}
