// SPDX-License-Identifier: MIT
/* The Landlock ruleset: probe the ABI, handle what it knows, allow the few paths. */
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bwlog.h"
#include "landlock.h"

/* Newer than the build host's headers (Debian 12's stop at ABI 2/3). Values from
 * the kernel's include/uapi/linux/landlock.h. */
#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule 445
#define __NR_landlock_restrict_self 446
#endif
#define LL_FS_REFER (1ull << 13) /* ABI 2 */
#define LL_FS_TRUNCATE (1ull << 14) /* ABI 3 */
#define LL_FS_IOCTL_DEV (1ull << 15) /* ABI 5 */
#define LL_NET_BIND_TCP (1ull << 0) /* ABI 4 */
#define LL_NET_CONNECT_TCP (1ull << 1)
#define LL_SCOPE_ABSTRACT_UNIX (1ull << 0) /* ABI 6 */
#define LL_SCOPE_SIGNAL (1ull << 1)
#define LL_RULE_PATH_BENEATH 1
#define LL_RULE_NET_PORT 2
#define LL_CREATE_VERSION (1u << 0)

/* The ABI 6 ruleset attribute; an older kernel takes a prefix of it. */
struct ll_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net; /* ABI 4 */
	uint64_t scoped; /* ABI 6 */
};

struct ll_path_beneath {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

struct ll_net_port {
	uint64_t allowed_access;
	uint64_t port;
};

/* ABI 1's rights on files and directories. */
#define LL_FS_V1 ((1ull << 13) - 1)
#define LL_FS_READ                                                                            \
	(LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)
/* The rights a non-directory can carry. */
#define LL_FS_FILE                                                                            \
	(LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE |                         \
	 LANDLOCK_ACCESS_FS_READ_FILE | LL_FS_TRUNCATE | LL_FS_IOCTL_DEV)
#define LL_FS_DEVICE                                                                          \
	(LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE | LL_FS_TRUNCATE |      \
	 LL_FS_IOCTL_DEV)

/* Where the agent may write: the workspace and the scratch space. */
static const char *const landlock_rw_dirs[] = { "/workspace", "/tmp", "/var/tmp", "/dev/shm" };
/* The device nodes of bubblewrap's --dev (and its pts). */
static const char *const landlock_devices[] = { "/dev/null", "/dev/zero",   "/dev/full",
						"/dev/random", "/dev/urandom", "/dev/tty",
						"/dev/ptmx", "/dev/pts" };

static int landlock_probe_errno; /* why the probe failed (ENOSYS, EOPNOTSUPP, EPERM) */

int landlock_abi(void)
{
	long v = syscall(__NR_landlock_create_ruleset, NULL, 0, LL_CREATE_VERSION);

	landlock_probe_errno = v < 0 ? errno : 0;
	return v < 0 ? 0 : (int)v;
}

static uint64_t landlock_fs_handled(int abi)
{
	uint64_t fs = LL_FS_V1;

	if (abi >= 2)
		fs |= LL_FS_REFER;
	if (abi >= 3)
		fs |= LL_FS_TRUNCATE;
	if (abi >= 5)
		fs |= LL_FS_IOCTL_DEV;
	return fs;
}

/* Allow access under path (skipped when the path is absent). */
static int landlock_path(int rs, const char *path, uint64_t access, uint64_t handled)
{
	struct ll_path_beneath pb = { .allowed_access = access & handled };
	int err = 0;

	pb.parent_fd = open(path, O_PATH | O_CLOEXEC);
	if (pb.parent_fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (syscall(__NR_landlock_add_rule, rs, LL_RULE_PATH_BENEATH, &pb, 0) < 0)
		err = -errno;
	close(pb.parent_fd);
	if (err)
		bwlog_err("landlock: rule for %s: %s", path, strerror(-err));
	return err;
}

static int landlock_rules(int rs, const struct landlock_policy *p, int abi, uint64_t fs)
{
	int err = landlock_path(rs, "/", LL_FS_READ, fs);

	for (size_t i = 0; !err && i < sizeof(landlock_rw_dirs) / sizeof(landlock_rw_dirs[0]); i++)
		err = landlock_path(rs, landlock_rw_dirs[i], fs, fs);
	for (size_t i = 0; !err && i < sizeof(landlock_devices) / sizeof(landlock_devices[0]); i++)
		err = landlock_path(rs, landlock_devices[i],
				    LL_FS_DEVICE | (strcmp(landlock_devices[i], "/dev/pts")
							    ? 0
							    : LANDLOCK_ACCESS_FS_READ_DIR),
				    fs & (LL_FS_FILE | LANDLOCK_ACCESS_FS_READ_DIR));
	if (!err && abi >= 4 && p->relay_port) {
		struct ll_net_port np = { .allowed_access = LL_NET_CONNECT_TCP,
					  .port = p->relay_port };

		if (syscall(__NR_landlock_add_rule, rs, LL_RULE_NET_PORT, &np, 0) < 0) {
			err = -errno;
			bwlog_err("landlock: rule for TCP port %u: %s", p->relay_port,
				  strerror(errno));
		}
	}
	return err;
}

/* The one line about what an older ABI cannot do; -EOPNOTSUPP when that is fatal. */
static int landlock_report(const struct landlock_policy *p, int abi, int kernel_abi)
{
	if (abi >= LANDLOCK_ABI_FULL)
		return 0;
	if (!abi)
		bwlog_err("%sLandlock unavailable (%s): no second wall behind bubblewrap and "
			  "seccomp",
			  p->require ? "--require-landlock: " : "",
			  kernel_abi ? "limited to ABI 0 by AGENT_BWRAP_LANDLOCK_ABI"
				     : strerror(landlock_probe_errno));
	else
		bwlog_err("%sLandlock ABI %d: filesystem rules applied; not available: %s%s",
			  p->require ? "--require-landlock: " : "", abi,
			  abi < 4 ? "TCP port rules (ABI 4), " : "", "scoping (ABI 6)");
	return p->require ? -EOPNOTSUPP : 0;
}

int landlock_apply(const struct landlock_policy *p)
{
	int kernel_abi = landlock_abi(), abi = kernel_abi, rs, err;
	struct ll_ruleset_attr attr = { 0 };
	size_t attr_size = sizeof(attr.handled_access_fs);

	if (p->abi_max >= 0 && abi > p->abi_max)
		abi = p->abi_max;
	err = landlock_report(p, abi, kernel_abi);
	if (err || !abi)
		return err;
	attr.handled_access_fs = landlock_fs_handled(abi);
	if (abi >= 4) {
		attr.handled_access_net = LL_NET_BIND_TCP | LL_NET_CONNECT_TCP;
		attr_size = offsetof(struct ll_ruleset_attr, scoped);
	}
	if (abi >= 6) {
		attr.scoped = LL_SCOPE_ABSTRACT_UNIX | LL_SCOPE_SIGNAL;
		attr_size = sizeof(attr);
	}
	rs = (int)syscall(__NR_landlock_create_ruleset, &attr, attr_size, 0);
	if (rs < 0) {
		err = -errno;
		bwlog_err("landlock: create ruleset: %s", strerror(errno));
		return err;
	}
	err = landlock_rules(rs, p, abi, attr.handled_access_fs);
	if (!err && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		err = -errno;
	if (!err && syscall(__NR_landlock_restrict_self, rs, 0) < 0) {
		err = -errno;
		bwlog_err("landlock: restrict: %s", strerror(errno));
	}
	close(rs);
	return err;
}
