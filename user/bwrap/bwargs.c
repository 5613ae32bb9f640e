// SPDX-License-Identifier: MIT
/*
 * The bubblewrap argv. The order is bubblewrap's order of operations: the
 * read-only system, the tmpfs, the workspace, then the egress socket (which
 * may lie under a tmpfs path), then the root made read-only, then settings,
 * then the command.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bwargs.h"
#include "bwlog.h"
#include "session.h"

/* Growth step of the argv array; a launch has about 60 entries. */
#define BWARGS_CHUNK 64
/* "http://127.0.0.1:65535" and its NUL, with room. */
#define BWARGS_PROXY_MAX 32
/* Hosts programs reach directly, not through HTTP(S)_PROXY: the sandbox's own loopback. */
#define BWARGS_NO_PROXY "localhost,127.0.0.1"
/* The proxy variables, in both spellings: curl reads only the lower-case http_proxy. */
static const char *const bwargs_proxy_vars[] = { "HTTPS_PROXY", "HTTP_PROXY", "https_proxy",
						 "http_proxy" };

/* What the dynamic loader takes from the environment: glibc's list of the
 * variables it ignores for a setuid program, and its tunables. bubblewrap
 * runs before the sandbox is armed, and the monitor trusts it there as it
 * trusts the launcher: it must not load what the caller names. The command
 * in the sandbox still gets them (--setenv). */
static const char *const bwargs_loader_vars[] = {
	"LD_PRELOAD",	  "LD_AUDIT",	     "LD_LIBRARY_PATH", "LD_DEBUG",	  "LD_DEBUG_OUTPUT",
	"LD_PROFILE",	  "LD_ORIGIN_PATH",  "LD_DYNAMIC_WEAK", "LD_HWCAP_MASK",  "LD_SHOW_AUXV",
	"GLIBC_TUNABLES", "GCONV_PATH",	     "MALLOC_TRACE",	"LOCPATH",	  "NLSPATH",
	"HOSTALIASES",	  "RESOLV_HOST_CONF", "LOCALDOMAIN",	"RES_OPTIONS",	  "NIS_PATH",
	"TZDIR",	  "GETCONF_DIR",
};

/* The seed's read-only system directories, then the merged-/usr links a shell needs. */
static const char *const bwargs_system[] = { "/usr", "/lib", "/lib64", "/etc" };
static const char *const bwargs_links[] = { "/bin", "/sbin" };

static int bwargs_push(struct bwargs *a, const char *s)
{
	if (a->n + 2 > a->cap) {
		size_t cap = a->cap + BWARGS_CHUNK;
		char **argv = realloc(a->argv, cap * sizeof(*argv));

		if (!argv)
			return -ENOMEM;
		a->argv = argv;
		a->cap = cap;
	}
	a->argv[a->n] = strdup(s);
	if (!a->argv[a->n])
		return -ENOMEM;
	a->argv[++a->n] = NULL;
	return 0;
}

/* Push a NULL-terminated list of strings. */
static int bwargs_pushv(struct bwargs *a, ...)
{
	const char *s;
	va_list ap;
	int err = 0;

	va_start(ap, a);
	while (!err && (s = va_arg(ap, const char *)))
		err = bwargs_push(a, s);
	va_end(ap);
	return err;
}

/*
 * A system path as the host has it: skipped when missing (a host without
 * /lib64), a symlink into /usr kept as a symlink (merged /usr), otherwise a
 * read-only bind (which follows any other symlink, as the seed's did).
 */
static int bwargs_system_path(struct bwargs *a, const char *path, bool bind_dirs)
{
	char target[PATH_MAX], real[PATH_MAX];
	struct stat st;
	ssize_t n;

	if (lstat(path, &st) < 0 || stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
		return 0;
	n = readlink(path, target, sizeof(target) - 1);
	if (n > 0 && realpath(path, real) && strncmp(real, "/usr/", 5) == 0) {
		target[n] = '\0';
		return bwargs_pushv(a, "--symlink", target, path, NULL);
	}
	return bind_dirs ? bwargs_pushv(a, "--ro-bind", path, path, NULL) : 0;
}

void bwargs_scrub_loader_env(void)
{
	for (size_t i = 0; i < sizeof(bwargs_loader_vars) / sizeof(bwargs_loader_vars[0]); i++)
		unsetenv(bwargs_loader_vars[i]);
}

int bwargs_build(struct bwargs *a, const struct bwargs_config *c)
{
	char proxy[BWARGS_PROXY_MAX], fd[16], life[16], port[8];
	int err;

	memset(a, 0, sizeof(*a));
	err = bwargs_push(a, c->bwrap);
	for (size_t i = 0; !err && i < sizeof(bwargs_system) / sizeof(bwargs_system[0]); i++)
		err = bwargs_system_path(a, bwargs_system[i], true);
	for (size_t i = 0; !err && i < sizeof(bwargs_links) / sizeof(bwargs_links[0]); i++)
		err = bwargs_system_path(a, bwargs_links[i], false);
	if (!err)
		err = bwargs_pushv(a, "--tmpfs", "/tmp", "--tmpfs", "/var/tmp", "--bind", c->workdir,
				   BWARGS_WORKSPACE, "--chdir", BWARGS_WORKSPACE, "--proc", "/proc",
				   "--dev", "/dev", "--unshare-uts", "--unshare-ipc",
				   "--unshare-pid", "--new-session", "--die-with-parent",
				   "--cap-drop", "ALL", "--unshare-net", NULL);
	snprintf(port, sizeof(port), "%u", c->relay_port);
	if (!err && c->network) {
		/* programs speak HTTP proxy over TCP: the relay on loopback carries it to the socket */
		snprintf(proxy, sizeof(proxy), "http://127.0.0.1:%u", c->relay_port);
		err = bwargs_pushv(a, "--bind", c->egress_sock, c->egress_sock, "--setenv",
				   "AGENT_EGRESS_SOCK", c->egress_sock, "--setenv", "NO_PROXY",
				   BWARGS_NO_PROXY, "--setenv", "no_proxy", BWARGS_NO_PROXY, NULL);
		for (size_t i = 0; !err && i < sizeof(bwargs_proxy_vars) / sizeof(bwargs_proxy_vars[0]);
		     i++)
			err = bwargs_pushv(a, "--setenv", bwargs_proxy_vars[i], proxy, NULL);
	}
	if (!err)
		err = bwargs_pushv(a, "--ro-bind", c->init, c->init, NULL);
	/* The root bubblewrap builds is a tmpfs: read-only once the mounts are in place. */
	if (!err)
		err = bwargs_pushv(a, "--remount-ro", "/", NULL);
	if (!err)
		err = bwargs_pushv(a, "--setenv", SESSION_ENV, c->session, NULL);
	for (size_t i = 0; !err && i < sizeof(bwargs_loader_vars) / sizeof(bwargs_loader_vars[0]);
	     i++) {
		const char *v = getenv(bwargs_loader_vars[i]);

		if (v)
			err = bwargs_pushv(a, "--setenv", bwargs_loader_vars[i], v, NULL);
	}
	if (!err && c->seccomp_fd >= 0) {
		snprintf(fd, sizeof(fd), "%d", c->seccomp_fd);
		err = bwargs_pushv(a, "--seccomp", fd, NULL);
	}
	if (!err)
		err = bwargs_pushv(a, "--", c->init, NULL);
	if (!err && c->lifeline_fd >= 0) {
		snprintf(life, sizeof(life), "%d", c->lifeline_fd);
		err = bwargs_pushv(a, "--lifeline", life, NULL);
	}
	if (!err && c->network)
		err = bwargs_pushv(a, "--relay", port, "--egress", c->egress_sock, NULL);
	if (!err && c->require_landlock)
		err = bwargs_push(a, "--require-landlock");
	if (!err && c->landlock_abi)
		err = bwargs_pushv(a, "--landlock-abi", c->landlock_abi, NULL);
	if (!err)
		err = bwargs_push(a, "--");
	for (size_t i = 0; !err && c->cmd[i]; i++)
		err = bwargs_push(a, c->cmd[i]);
	if (err) {
		bwlog_err("bubblewrap arguments: %s", strerror(-err));
		bwargs_free(a);
	}
	return err;
}

void bwargs_print(const struct bwargs *a, FILE *f)
{
	for (size_t i = 0; i < a->n; i++) {
		const char *s = a->argv[i];

		if (i)
			fputc(' ', f);
		if (*s && !s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				     "0123456789-_./=:+,@%")]) {
			fputs(s, f);
			continue;
		}
		fputc('\'', f);
		for (; *s; s++) {
			if (*s == '\'')
				fputs("'\\''", f);
			else
				fputc(*s, f);
		}
		fputc('\'', f);
	}
	fputc('\n', f);
}

void bwargs_free(struct bwargs *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->argv[i]);
	free(a->argv);
	memset(a, 0, sizeof(*a));
}
