// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * agent-egress: the egress proxy of sandboxed agents. Only wiring: options,
 * configuration, the loop. Each stage is its own file.
 */
#include <stdio.h>

#include "alert.h"
#include "clock.h"
#include "config.h"
#include "elog.h"
#include "loop.h"
#include "opts.h"

int main(int argc, char **argv)
{
	struct egress_proxy p = { 0 };
	struct egress_opts o;
	int err;

	err = egress_opts_parse(&o, argc, argv);
	if (err)
		return err > 0 ? EGRESS_EXIT_OK : EGRESS_EXIT_USAGE;
	if (egress_config_load(&p.cfg, o.config_path, o.allow, o.n_allow))
		return EGRESS_EXIT_USAGE;
	if (o.check) {
		elog("%s: ok, %zu allow entries", o.config_path ? o.config_path : "command line",
		     p.cfg.allow.n);
		egress_config_free(&p.cfg);
		return EGRESS_EXIT_OK;
	}
	if (!p.cfg.allow.n)
		elog("no allow entries: every request is refused");
	p.socket_path = o.socket_path;
	p.config_path = o.config_path;
	p.cli_allow = o.allow;
	p.n_cli = o.n_allow;
	egress_alert_init();
	err = egress_loop_init(&p);
	if (!err) {
		elog("listening on %s, %zu allow entries", p.socket_path, p.cfg.allow.n);
		err = egress_loop_run(&p);
	}
	egress_loop_fini(&p);
	return err ? EGRESS_EXIT_RUNTIME : EGRESS_EXIT_OK;
}
