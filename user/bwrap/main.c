// SPDX-License-Identifier: MIT
/*
 * agent-bwrap: start an AI coding agent inside bubblewrap, with the seed
 * launcher's sandbox plus seccomp, a session cgroup, a session id and
 * stderr to syslog. Only wiring: each stage is its own file.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bwargs.h"
#include "bwlog.h"
#include "cgroup.h"
#include "exitcode.h"
#include "launch.h"
#include "opts.h"
#include "seccompjson.h"
#include "session.h"
#include "syslogtee.h"

static int main_seccomp_exit(int err)
{
	switch (err) {
	case -ENOENT:
		return EXITCODE_SECCOMP_MISSING;
	case -EBADMSG:
		return EXITCODE_SECCOMP_MALFORMED;
	case -EOPNOTSUPP:
		return EXITCODE_SECCOMP_UNSUPPORTED;
	default:
		return EXITCODE_INTERNAL;
	}
}

static void main_close_pair(const int fds[2])
{
	for (int i = 0; i < 2; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/* Create the cgroup, start bubblewrap in it, tee its stderr, wait. Returns an exit code. */
/* lifeline: the pipe's two ends; the write end moves to the launch. */
static int main_run(const struct opts *o, const struct bwargs *args, const char *session,
		    int seccomp_fd, int lifeline[2])
{
	const int keep[] = { seccomp_fd, lifeline[0] };
	struct cgroup_limits lim = { .memory_max = o->memory_max, .pids_max = o->pids_max };
	struct syslogtee tee;
	struct launch l;
	struct cgroup cg;
	int err, code;

	if (cgroup_prepare(&cg, session, &lim))
		return EXITCODE_CGROUP;
	err = launch_start(&l, args->argv, keep, sizeof(keep) / sizeof(keep[0]), lifeline[1]);
	lifeline[1] = -1;
	if (err) {
		cgroup_release(&cg);
		return EXITCODE_INTERNAL;
	}
	if (cgroup_attach(&cg, l.pid)) {
		launch_abort(&l);
		cgroup_release(&cg);
		return EXITCODE_CGROUP;
	}
	err = launch_go(&l);
	if (err) {
		cgroup_release(&cg);
		return err == -ENOENT || err == -EACCES ? EXITCODE_BWRAP_MISSING
							: EXITCODE_INTERNAL;
	}
	launch_forward_signals(&l);
	syslogtee_open(&tee, o->syslog_socket);
	syslogtee_pump(&tee, l.stderr_fd);
	code = launch_wait(&l);
	syslogtee_close(&tee);
	cgroup_release(&cg);
	return code;
}

int main(int argc, char **argv)
{
	char session[SESSION_ID_MAX + 1];
	struct bwargs args;
	struct opts o;
	int err, seccomp_fd = -1, code, lifeline[2] = { -1, -1 };

	signal(SIGPIPE, SIG_IGN); /* a closed stderr must not kill the tee */
	err = opts_parse(&o, argc, argv);
	if (err)
		return err > 0 ? EXITCODE_OK : EXITCODE_USAGE;
	err = opts_check_workspace(&o);
	if (err)
		return err == -ENOTDIR ? EXITCODE_WORKSPACE_NOT_DIR : EXITCODE_WORKSPACE_MISSING;
	if (opts_check_egress(&o))
		return EXITCODE_EGRESS;
	if (opts_find_bwrap(&o))
		return EXITCODE_BWRAP_MISSING;
	if (opts_find_init(&o))
		return EXITCODE_INIT_MISSING;
	err = seccompjson_compile(o.seccomp_file, &seccomp_fd);
	if (err)
		return main_seccomp_exit(err);
	if (session_init(session)) {
		close(seccomp_fd);
		return EXITCODE_USAGE;
	}
	/* the write end stays here, close-on-exec, until agent-bwrap exits (lifeline.h) */
	if (!o.dry_run && pipe2(lifeline, O_CLOEXEC) < 0) {
		bwlog_err("lifeline pipe: %s", strerror(errno));
		close(seccomp_fd);
		return EXITCODE_INTERNAL;
	}
	struct bwargs_config cfg = {
		.bwrap = o.bwrap_path,
		.workdir = o.workdir_abs,
		.network = o.network,
		.egress_sock = o.egress_sock,
		.session = session,
		.seccomp_fd = seccomp_fd,
		.lifeline_fd = lifeline[0],
		.init = o.init_path,
		.relay_port = o.relay_port,
		.require_landlock = o.require_landlock,
		.landlock_abi = o.landlock_abi,
		.cmd = o.cmd,
	};
	if (bwargs_build(&args, &cfg)) {
		close(seccomp_fd);
		main_close_pair(lifeline);
		return EXITCODE_INTERNAL;
	}
	bwargs_scrub_loader_env();
	if (o.dry_run) {
		bwargs_print(&args, stdout);
		code = EXITCODE_OK;
	} else {
		session_announce(session);
		code = main_run(&o, &args, session, seccomp_fd, lifeline);
	}
	bwargs_free(&args);
	if (seccomp_fd >= 0)
		close(seccomp_fd);
	main_close_pair(lifeline);
	return code;
}
