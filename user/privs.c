// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "diag.h"
#include "privs.h"

#define PRIVS_CAP_BPF 39 /* CAP_BPF and CAP_PERFMON (38) arrived in Linux 5.8 */
#define PRIVS_CAP_PERFMON 38
#define PRIVS_CAP_MAX 64 /* capability numbers we consider */

static int privs_last_cap(void)
{
	FILE *f = fopen("/proc/sys/kernel/cap_last_cap", "r");
	int last = CAP_LAST_CAP;

	if (f) {
		if (fscanf(f, "%d", &last) != 1)
			last = CAP_LAST_CAP;
		fclose(f);
	}
	return last < PRIVS_CAP_MAX ? last : PRIVS_CAP_MAX - 1;
}

static int privs_get(struct __user_cap_data_struct d[2])
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };

	return syscall(SYS_capget, &h, d) ? -errno : 0;
}

uint64_t privs_effective(void)
{
	struct __user_cap_data_struct d[2] = { 0 };

	if (privs_get(d))
		return 0;
	return d[0].effective | (uint64_t)d[1].effective << 32;
}

int privs_can_trace(void)
{
	uint64_t eff = privs_effective();

	return (eff & (1ull << CAP_SYS_ADMIN)) ||
	       ((eff & (1ull << PRIVS_CAP_BPF)) && (eff & (1ull << PRIVS_CAP_PERFMON)));
}

int privs_drop(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { 0 };
	int last = privs_last_cap();
	uint64_t keep;

	if (last >= PRIVS_CAP_BPF)
		keep = 1ull << PRIVS_CAP_BPF | 1ull << PRIVS_CAP_PERFMON;
	else
		keep = 1ull << CAP_SYS_ADMIN;
	keep |= 1ull << CAP_SYS_PTRACE | 1ull << CAP_DAC_READ_SEARCH;
	/* the bounding set first: that needs CAP_SETPCAP, which goes next */
	for (int c = 0; c <= last; c++)
		if (!(keep & (1ull << c)) && prctl(PR_CAPBSET_DROP, c, 0, 0, 0) && errno != EINVAL) {
			int err = -errno;

			diag_warn("cannot drop capability %d from the bounding set: %s", c,
				  strerror(-err));
			return err;
		}
	if (privs_get(d))
		return -errno;
	for (int i = 0; i < 2; i++) {
		uint32_t k = (uint32_t)(keep >> (32 * i));

		d[i].effective &= k;
		d[i].permitted &= k;
		d[i].inheritable = 0;
	}
	if (syscall(SYS_capset, &h, d)) {
		int err = -errno;

		diag_warn("cannot drop capabilities: %s", strerror(-err));
		return err;
	}
	return 0;
}
