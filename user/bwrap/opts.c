// SPDX-License-Identifier: MIT
/* Command line and environment: agent-bwrap [OPTIONS] [WORK_DIR] [-- CMD [ARGS...]] */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bwlog.h"
#include "opts.h"
#include "relay.h"

static const char opts_usage[] =
	"usage: agent-bwrap [OPTIONS] [WORK_DIR] [-- COMMAND [ARGS...]]\n"
	"Run COMMAND (default " OPTS_AGENT_CMD_DEFAULT ") in a bubblewrap sandbox with WORK_DIR\n"
	"(default: the current directory) at /workspace.\n"
	"\n"
	"  --memory-max SIZE  memory limit of the session cgroup (bytes, K/M/G/T suffix)\n"
	"  --pids-max N       task limit of the session cgroup\n"
	"  --relay-port PORT  the sandbox's HTTP(S)_PROXY is http://127.0.0.1:PORT (default 3128)\n"
	"  --require-landlock fail when the kernel's Landlock cannot apply every restriction\n"
	"  --dry-run          check everything, print the bubblewrap command line, run nothing\n"
	"  -h, --help         this text\n"
	"\n"
	"Environment: EGRESS_SOCK (default " OPTS_EGRESS_SOCK_DEFAULT "), USE_NETWORK (0: no network),\n"
	"SECCOMP_FILE (default " OPTS_SECCOMP_FILE_DEFAULT "),\n"
	"AGENT_SESSION_ID, BWRAP (default " OPTS_BWRAP_DEFAULT "), AGENT_BWRAP_SYSLOG_SOCKET (default " OPTS_SYSLOG_SOCKET_DEFAULT "),\n"
	"AGENT_BWRAP_INIT (default: beside agent-bwrap, else " OPTS_INIT_DEFAULT "),\n"
	"AGENT_BWRAP_LANDLOCK_ABI (use at most this Landlock ABI).\n";

static const char *opts_env(const char *name, const char *def)
{
	const char *v = getenv(name);

	return v && *v ? v : def;
}

/* "512M" -> bytes; binary suffixes as memory.max and ulimit use them. */
static int opts_parse_size(const char *s, long long *out)
{
	static const char suffixes[] = "KMGT";
	unsigned long long v;
	const char *p;
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -EINVAL;
	if (*end) {
		p = strchr(suffixes, *end);
		if (!p || !*p || end[1])
			return -EINVAL;
		for (long i = 0; i <= p - suffixes; i++) {
			if (v > (unsigned long long)LLONG_MAX / 1024)
				return -ERANGE;
			v *= 1024;
		}
	}
	if (v == 0 || v > (unsigned long long)LLONG_MAX)
		return -ERANGE;
	*out = (long long)v;
	return 0;
}

int opts_parse(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "memory-max", required_argument, NULL, 'm' },
		{ "pids-max", required_argument, NULL, 'p' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "relay-port", required_argument, NULL, 'P' },
		{ "require-landlock", no_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static char *default_cmd[] = { OPTS_AGENT_CMD_DEFAULT, NULL };
	long long port;
	int c, err;

	memset(o, 0, sizeof(*o));
	o->memory_max = OPTS_LIMIT_NONE;
	o->pids_max = OPTS_LIMIT_NONE;
	o->egress_sock = opts_env("EGRESS_SOCK", OPTS_EGRESS_SOCK_DEFAULT);
	o->seccomp_file = opts_env("SECCOMP_FILE", OPTS_SECCOMP_FILE_DEFAULT);
	o->syslog_socket = opts_env("AGENT_BWRAP_SYSLOG_SOCKET", OPTS_SYSLOG_SOCKET_DEFAULT);
	o->bwrap = opts_env("BWRAP", OPTS_BWRAP_DEFAULT);
	o->network = strcmp(opts_env("USE_NETWORK", "1"), "0") != 0;
	o->cmd = default_cmd;
	o->relay_port = RELAY_PORT_DEFAULT;
	o->landlock_abi = opts_env("AGENT_BWRAP_LANDLOCK_ABI", NULL); /* "" is unset, as above */
	if (o->landlock_abi && (strlen(o->landlock_abi) > 2 ||
				strspn(o->landlock_abi, "0123456789") != strlen(o->landlock_abi))) {
		bwlog_err("AGENT_BWRAP_LANDLOCK_ABI=%s: not a Landlock ABI number (0-99)",
			  o->landlock_abi);
		return -EINVAL;
	}

	opterr = 0;
	/* '+': stop at WORK_DIR so that nothing after it is taken for ours. */
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			err = opts_parse_size(optarg, &o->memory_max);
			if (err) {
				bwlog_err("--memory-max %s: not a size in bytes (K/M/G/T suffix allowed)",
					  optarg);
				return -EINVAL;
			}
			break;
		case 'p':
			err = opts_parse_size(optarg, &o->pids_max);
			if (err || strpbrk(optarg, "KMGT")) {
				bwlog_err("--pids-max %s: not a positive number of tasks", optarg);
				return -EINVAL;
			}
			break;
		case 'n':
			o->dry_run = true;
			break;
		case 'P':
			err = opts_parse_size(optarg, &port);
			if (err || strpbrk(optarg, "KMGT") || port > 65535) {
				bwlog_err("--relay-port %s: not a TCP port (1-65535)", optarg);
				return -EINVAL;
			}
			o->relay_port = (unsigned)port;
			break;
		case 'L':
			o->require_landlock = true;
			break;
		case 'h':
			fputs(opts_usage, stdout);
			return 1;
		default:
			bwlog_err("unknown or incomplete option %s (see --help)", argv[optind - 1]);
			return -EINVAL;
		}
	}
	if (optind < argc && strcmp(argv[optind - 1], "--") == 0) {
		/* "agent-bwrap -- CMD": getopt already took the "--". */
		o->cmd = &argv[optind];
		o->workdir = ".";
		return 0;
	}
	o->workdir = ".";
	if (optind < argc && strcmp(argv[optind], "--") != 0)
		o->workdir = argv[optind++];
	if (optind < argc) {
		if (strcmp(argv[optind], "--") != 0) {
			bwlog_err("unexpected argument %s: put the command after -- (see --help)",
				  argv[optind]);
			return -EINVAL;
		}
		optind++;
		if (optind == argc) {
			bwlog_err("no command after --");
			return -EINVAL;
		}
		o->cmd = &argv[optind];
	}
	return 0;
}

int opts_check_workspace(struct opts *o)
{
	struct stat st;

	if (stat(o->workdir, &st) < 0) {
		int err = -errno;

		bwlog_err("workspace dir does not exist: %s", o->workdir);
		return err == -ENOTDIR ? -ENOENT : err;
	}
	if (!S_ISDIR(st.st_mode)) {
		bwlog_err("workspace is not a directory: %s", o->workdir);
		return -ENOTDIR;
	}
	if (!realpath(o->workdir, o->workdir_abs)) {
		int err = -errno;

		bwlog_err("workspace %s: cannot resolve path: %s", o->workdir, strerror(-err));
		return err;
	}
	return 0;
}

int opts_check_egress(const struct opts *o)
{
	struct stat st;

	if (!o->network)
		return 0;
	if (stat(o->egress_sock, &st) < 0 || !S_ISSOCK(st.st_mode)) {
		/* The seed's two lines, word for word. */
		bwlog_err("egress socket missing: %s", o->egress_sock);
		fputs("Start the egress proxy or run with USE_NETWORK=0 for offline tasks.\n", stderr);
		return -ENOENT;
	}
	return 0;
}

static int opts_check_exec(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EACCES;
	if (access(path, X_OK) < 0)
		return -errno;
	return 0;
}

int opts_find_init(struct opts *o)
{
	const char *env = getenv("AGENT_BWRAP_INIT");
	char self[PATH_MAX], *slash;
	ssize_t n;
	int err;

	if (env && *env) {
		err = opts_check_exec(env);
		if (!err && !realpath(env, o->init_path))
			err = -errno;
		goto out;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash && (size_t)(slash - self) + sizeof("/" OPTS_INIT_NAME) <= sizeof(self)) {
			strcpy(slash + 1, OPTS_INIT_NAME);
			if (opts_check_exec(self) == 0) {
				strcpy(o->init_path, self);
				return 0;
			}
		}
	}
	err = opts_check_exec(OPTS_INIT_DEFAULT);
	if (!err)
		snprintf(o->init_path, sizeof(o->init_path), "%s", OPTS_INIT_DEFAULT);
	env = OPTS_INIT_DEFAULT;
out:
	if (err)
		bwlog_err("agent-bwrap-init not found: %s (%s); set AGENT_BWRAP_INIT", env,
			  strerror(-err));
	return err;
}

int opts_find_bwrap(struct opts *o)
{
	const char *path, *p, *colon;
	int err = -ENOENT;
	size_t n;

	if (strchr(o->bwrap, '/')) {
		err = opts_check_exec(o->bwrap);
		if (!err && snprintf(o->bwrap_path, sizeof(o->bwrap_path), "%s", o->bwrap) >=
				    (int)sizeof(o->bwrap_path))
			err = -ENAMETOOLONG;
		goto out;
	}
	path = opts_env("PATH", "/usr/local/bin:/usr/bin:/bin");
	for (p = path; p; p = colon ? colon + 1 : NULL) {
		colon = strchr(p, ':');
		n = colon ? (size_t)(colon - p) : strlen(p);
		if (snprintf(o->bwrap_path, sizeof(o->bwrap_path), "%.*s/%s", n ? (int)n : 1,
			     n ? p : ".", o->bwrap) >= (int)sizeof(o->bwrap_path))
			continue;
		err = opts_check_exec(o->bwrap_path);
		if (!err)
			return 0;
	}
	err = -ENOENT;
out:
	if (err)
		bwlog_err("bubblewrap not found: %s (%s); install bubblewrap or set BWRAP", o->bwrap,
			  strerror(-err));
	return err;
}
