// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "diag.h"
#include "loader.h"
#include "opts.h"
#include "proctable.h"

#define OPTS_VERSION "0.1.0"
#define OPTS_RINGBUF_MIN 4096u /* one page */
#define OPTS_RINGBUF_MAX (1u << 30) /* 1 GiB */

enum {
	OPT_TRACE = 256,
	OPT_RECORD,
	OPT_REPLAY,
	OPT_DRY_RUN,
	OPT_LIST_FIELDS,
	OPT_FORMAT,
	OPT_TEXT,
	OPT_RINGBUF,
	OPT_WAKEUP,
	OPT_MAX_PROCS,
	OPT_VERSION,
	OPT_NO_PREFILTER,
	OPT_DUMP,
};

static const struct option long_opts[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "rules", required_argument, NULL, 'r' },
	{ "validate", required_argument, NULL, 'V' },
	{ "list-rules", no_argument, NULL, 'L' },
	{ "list-fields", no_argument, NULL, OPT_LIST_FIELDS },
	{ "list", no_argument, NULL, OPT_LIST_FIELDS },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "text", no_argument, NULL, OPT_TEXT },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "dump", no_argument, NULL, OPT_DUMP },
	{ "trace", no_argument, NULL, OPT_TRACE },
	{ "print", required_argument, NULL, 'p' },
	{ "record", required_argument, NULL, OPT_RECORD },
	{ "replay", required_argument, NULL, OPT_REPLAY },
	{ "ringbuf-size", required_argument, NULL, OPT_RINGBUF },
	{ "wakeup-bytes", required_argument, NULL, OPT_WAKEUP },
	{ "max-procs", required_argument, NULL, OPT_MAX_PROCS },
	{ "no-prefilter", no_argument, NULL, OPT_NO_PREFILTER },
	{ "unbuffered", no_argument, NULL, 'U' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static void opts_usage(FILE *f)
{
	fprintf(f,
		"Usage: agent-sentinel [OPTIONS] [--trace [FILTER]]\n"
		"Runtime monitor for hosts that run AI coding agents: eBPF events, Falco-style\n"
		"rules, Falco-compatible JSON alerts on stdout.\n\n"
		"  -c, --config FILE       configuration (default " CONFIG_DEFAULT_PATH "\n"
		"                          when it exists)\n"
		"  -r, --rules PATH        rules file or directory (repeatable; replaces\n"
		"                          rules_files of the configuration)\n"
		"  -V, --validate PATH     check rules files, list every problem, exit\n"
		"      --dry-run           load everything, then exit\n"
		"      --dump              print the compiled rules (their jump code), then exit\n"
		"  -L, --list-rules        print the loaded rules (--format text|json)\n"
		"      --list-fields       document every field (--format text|json|markdown)\n"
		"      --text              human alert lines instead of JSON\n"
		"  -o KEY=VALUE            set a configuration key (Falco's dotted names)\n"
		"      --trace [FILTER]    print every event as one JSON object per line; with\n"
		"                          FILTER (the rules' condition language, e.g.\n"
		"                          'evt.type = connect and proc.aname = claude') only\n"
		"                          the events it matches, filtered in the kernel too\n"
		"  -p, --print FORMAT      with --trace: print FORMAT per event instead\n"
		"                          ('%%evt.time %%proc.name %%fd.name', as rule outputs)\n"
		"      --record FILE       also write the decoded event stream to FILE\n"
		"      --replay FILE       read events from FILE instead of the kernel (no root)\n"
		"  -M SECONDS              stop after SECONDS\n"
		"  -U, --unbuffered        flush stdout after every line\n"
		"      --ringbuf-size N    ringbuf.size_bytes: BPF ring buffer bytes (power of\n"
		"                          two, K/M suffix; default 4M)\n"
		"      --wakeup-bytes N    ringbuf.wakeup_bytes: wake the consumer every N\n"
		"                          queued bytes (0: every event; default 256K)\n"
		"      --max-procs N       proctable.max_entries (default %u)\n"
		"      --no-prefilter      keep every event in the kernel (and in --replay);\n"
		"                          by default events no rule can match are dropped there\n"
		"  -v, --verbose           pass libbpf's messages through\n"
		"  -h, --help, --version\n",
		PROCTABLE_MAX_ENTRIES);
}

/* A size flag: config's parser (K/M/G suffixes), -1 when it is not one. */
static long long parse_size(const char *s)
{
	uint64_t v;

	if (config_parse_size(s, &v) || v > (1ull << 40))
		return -1;
	return (long long)v;
}

static int push(const char **arr, size_t *n, size_t max, const char *v, const char *what)
{
	if (*n >= max) {
		diag_err("too many %s options (at most %zu)", what, max);
		return -EINVAL;
	}
	arr[(*n)++] = v;
	return 0;
}

/* The trace filter from the words after the options, joined with spaces
 * (as sysdig takes its filter). */
static int opts_join(struct opts *o, char **words, int n)
{
	size_t len = 0;

	if (n == 1) {
		o->trace_filter = words[0];
		return 0;
	}
	for (int i = 0; i < n; i++) {
		size_t l = strlen(words[i]);

		if (len + l + 2 > sizeof(o->filter_buf)) {
			diag_err("--trace filter longer than %u bytes: put it in a rules file",
				 (unsigned)sizeof(o->filter_buf) - 1);
			return -EINVAL;
		}
		if (i)
			o->filter_buf[len++] = ' ';
		memcpy(o->filter_buf + len, words[i], l);
		len += l;
	}
	o->filter_buf[len] = 0;
	o->trace_filter = o->filter_buf;
	return 0;
}

int opts_parse(struct opts *o, int argc, char **argv)
{
	long long v;
	char *end;
	int c;

	memset(o, 0, sizeof(*o));
	o->wakeup_bytes = OPTS_UNSET;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":c:r:V:Lo:M:Up:vh", long_opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			o->config = optarg;
			break;
		case 'r':
			if (push(o->rules, &o->n_rules, OPTS_MAX_RULES, optarg, "--rules"))
				return -EINVAL;
			break;
		case 'V':
			if (push(o->validate, &o->n_validate, OPTS_MAX_RULES, optarg, "--validate"))
				return -EINVAL;
			break;
		case 'o':
			if (!strchr(optarg, '=')) {
				diag_err("-o %s: expected KEY=VALUE", optarg);
				return -EINVAL;
			}
			if (push(o->overrides, &o->n_overrides, OPTS_MAX_OVERRIDES, optarg, "-o"))
				return -EINVAL;
			break;
		case 'L':
			o->list_rules = 1;
			break;
		case 'M':
			errno = 0;
			o->duration = strtod(optarg, &end);
			if (errno || end == optarg || *end || o->duration < 0) {
				diag_err("-M %s: expected a number of seconds", optarg);
				return -EINVAL;
			}
			break;
		case 'U':
			o->unbuffered = 1;
			break;
		case 'p':
			o->trace_format = optarg;
			break;
		case 'v':
			o->verbose = 1;
			break;
		case 'h':
			opts_usage(stdout);
			return 1;
		case OPT_VERSION:
			printf("agent-sentinel %s\n", OPTS_VERSION);
			return 1;
		case OPT_TRACE:
			o->trace = 1;
			break;
		case OPT_NO_PREFILTER:
			o->no_prefilter = 1;
			break;
		case OPT_RECORD:
			o->record = optarg;
			break;
		case OPT_REPLAY:
			o->replay = optarg;
			break;
		case OPT_DRY_RUN:
			o->dry_run = 1;
			break;
		case OPT_DUMP:
			o->dump = 1;
			break;
		case OPT_LIST_FIELDS:
			o->list_fields = 1;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "text") && strcmp(optarg, "json") &&
			    strcmp(optarg, "markdown")) {
				diag_err("--format %s: expected text, json or markdown", optarg);
				return -EINVAL;
			}
			o->format = optarg;
			break;
		case OPT_TEXT:
			o->text = 1;
			break;
		case OPT_RINGBUF:
			v = parse_size(optarg);
			if (v < OPTS_RINGBUF_MIN || v > OPTS_RINGBUF_MAX || (v & (v - 1))) {
				diag_err("--ringbuf-size %s: expected a power of two from 4K to 1G",
					 optarg);
				return -EINVAL;
			}
			o->ringbuf_bytes = (uint32_t)v;
			break;
		case OPT_WAKEUP:
			v = parse_size(optarg);
			if (v < 0) {
				diag_err("--wakeup-bytes %s: expected a byte count", optarg);
				return -EINVAL;
			}
			o->wakeup_bytes = (uint64_t)v;
			break;
		case OPT_MAX_PROCS:
			v = parse_size(optarg);
			if (v < 1 || v > PROCTABLE_MAX_ENTRIES) {
				diag_err("--max-procs %s: expected 1 to %u", optarg,
					 PROCTABLE_MAX_ENTRIES);
				return -EINVAL;
			}
			o->max_procs = (uint32_t)v;
			break;
		case ':':
			diag_err("option %s needs a value (see --help)", argv[optind - 1]);
			return -EINVAL;
		default:
			diag_err("unknown option %s (see --help)", argv[optind - 1]);
			return -EINVAL;
		}
	}
	if (optind < argc && !o->trace) {
		diag_err("unexpected argument '%s' (see --help)", argv[optind]);
		return -EINVAL;
	}
	if (optind < argc && opts_join(o, argv + optind, argc - optind))
		return -EINVAL;
	if (o->trace_format && !o->trace) {
		diag_err("-p FORMAT prints traced events: it needs --trace");
		return -EINVAL;
	}
	if (o->record && o->replay) {
		diag_err("--record and --replay exclude each other");
		return -EINVAL;
	}
	return 0;
}
