// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* agent-egress [--socket PATH] [--config FILE] [--allow HOST[:PORT]]... [--check] */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "elog.h"
#include "opts.h"

static const char egress_usage[] =
	"Usage: agent-egress [OPTIONS]\n"
	"HTTP proxy for sandboxed agents on a unix socket: CONNECT host:port and\n"
	"absolute-URI plain HTTP, to allowlisted hosts only. One Falco JSON line\n"
	"per decision on stdout. SIGHUP reloads the configuration.\n\n"
	"  --socket PATH        listen here (default " EGRESS_SOCKET_DEFAULT ")\n"
	"  --config FILE        YAML: allow list and limits (see agent-egress(8))\n"
	"  --allow ENTRY        allow HOST[:PORT], *.SUFFIX[:PORT] or ADDR[/PREFIX][:PORT]\n"
	"                       (repeatable; port 443 when omitted)\n"
	"  --check              load the configuration, report errors, exit\n"
	"  -h, --help           this text\n";

int egress_opts_parse(struct egress_opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "config", required_argument, NULL, 'c' },
		{ "allow", required_argument, NULL, 'a' },
		{ "check", no_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->socket_path = EGRESS_SOCKET_DEFAULT;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			o->socket_path = optarg;
			break;
		case 'c':
			o->config_path = optarg;
			break;
		case 'a':
			if (o->n_allow == EGRESS_CLI_ALLOW_MAX) {
				elog("--allow: more than %d entries (use --config)",
				     EGRESS_CLI_ALLOW_MAX);
				return -EINVAL;
			}
			o->allow[o->n_allow++] = optarg;
			break;
		case 'k':
			o->check = true;
			break;
		case 'h':
			fputs(egress_usage, stdout);
			return 1;
		default:
			elog("unknown or incomplete option %s (see --help)", argv[optind - 1]);
			return -EINVAL;
		}
	}
	if (optind < argc) {
		elog("unexpected argument %s (see --help)", argv[optind]);
		return -EINVAL;
	}
	return 0;
}
