// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "diag.h"
#include "abi.h"
#include "loader.h"
#include "names.h"
#include "sctable.h"
#include "attach.h"
#include "clock.h"
#include "privs.h"
#include "sentinel.skel.h"

#define LOADER_TRACEFS "/sys/kernel/tracing"
#define LOADER_DEBUGFS_TRACING "/sys/kernel/debug/tracing"
#define LOADER_BTF "/sys/kernel/btf/vmlinux"
#define LOADER_LOCKDOWN "/sys/kernel/security/lockdown"

static int loader_verbose;

static int loader_libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (!loader_verbose || level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

/* tracefs holds the tracepoint ids libbpf attaches by; mount it when absent. */
static const char *tracefs_dir(void)
{
	const char *probe = getenv("AGENT_SENTINEL_TRACEFS");
	struct stat st;

	/* where to look tracepoints up; libbpf still attaches through the real one */
	if (probe && *probe)
		return probe;
	if (stat(LOADER_TRACEFS "/events", &st) == 0 || errno == EACCES)
		return LOADER_TRACEFS; /* there; whether we may read it shows at attach */
	if (stat(LOADER_DEBUGFS_TRACING "/events", &st) == 0)
		return LOADER_DEBUGFS_TRACING;
	if (mount("tracefs", LOADER_TRACEFS, "tracefs", 0, NULL) == 0)
		return LOADER_TRACEFS;
	return NULL;
}

static int preflight(void)
{
	char buf[256] = "";
	FILE *f;

	if (!privs_can_trace()) {
		diag_err("not privileged enough to load BPF programs: run as root, or with "
			 "CAP_BPF, CAP_PERFMON and CAP_SYS_RESOURCE");
		return -EPERM;
	}
	if (access(LOADER_BTF, R_OK) != 0) {
		diag_err("kernel has no BTF (%s missing): agent-sentinel needs a kernel built "
			 "with CONFIG_DEBUG_INFO_BTF=y",
			 LOADER_BTF);
		return -ENOTSUP;
	}
	f = fopen(LOADER_LOCKDOWN, "r");
	if (f) {
		if (fgets(buf, sizeof(buf), f) && strstr(buf, "[confidentiality]")) {
			fclose(f);
			diag_err("kernel lockdown is in confidentiality mode: it forbids the BPF "
				 "tracing agent-sentinel needs");
			return -EPERM;
		}
		fclose(f);
	}
	return 0;
}

#define LOADER_VMLINUX_BTF "/sys/kernel/btf/vmlinux"
#define LOADER_TYPED_KFUNC "bpf_rdonly_cast" /* Linux 6.2 */
#define LOADER_COMPAT_ENV "AGENT_SENTINEL_COMPAT_READS"

/* Does the kernel's BTF name the kfunc the typed reads need? A search of its
 * string table (a few ms), not a parse: libbpf parses it again anyway. */
static int loader_kernel_has_typed_reads(void)
{
	static const char needle[] = "\0" LOADER_TYPED_KFUNC "\0";
	const char *env = getenv(LOADER_COMPAT_ENV);
	struct stat st;
	void *m;
	int fd, found = 0;

	if (env && env[0] && strcmp(env, "0"))
		return 0; /* asked for helper reads (the tests cover both ways) */
	fd = open(LOADER_VMLINUX_BTF, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) == 0 && st.st_size > 0) {
		m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m != MAP_FAILED) {
			found = memmem(m, (size_t)st.st_size, needle, sizeof(needle) - 1) != NULL;
			munmap(m, (size_t)st.st_size);
		} else {
			/* where sysfs BTF cannot be mapped (older kernels): read it all
			 * (a sysfs read may stop short of the size asked for) */
			char *b = malloc((size_t)st.st_size);
			size_t got = 0;
			ssize_t n = 1;

			while (b && got < (size_t)st.st_size && n > 0) {
				n = read(fd, b + got, (size_t)st.st_size - got);
				if (n > 0)
					got += (size_t)n;
			}
			found = got && memmem(b, got, needle, sizeof(needle) - 1) != NULL;
			free(b);
		}
	}
	close(fd);
	return found;
}

static void explain_load_error(int err)
{
	if (err == -EPERM || err == -EACCES)
		diag_err("permission denied loading BPF programs: run as root, or with "
			 "CAP_BPF, CAP_PERFMON and CAP_SYS_RESOURCE (rerun with -v for the "
			 "verifier's log)");
	else
		diag_err("cannot load BPF programs: %s (rerun with -v for libbpf's log)",
			 strerror(-err));
}

/* Every program is loaded; which tracepoints are attached follows the rules
 * and can change on a reload without loading anything again. */
/* What the generic exit program reads of each syscall (user/sctable.c). */
static void loader_set_sys_spec(struct loader *l)
{
	for (unsigned sc = AS_SC_NONE + 1; sc < AS_SC_MAX; sc++) {
		const struct sc_info *si = sctable_get(sc);
		struct as_sys_spec sp = si->spec;

		if (!sctable_generic(sc) || si->nr >= AS_SYS_NR_MAX)
			continue;
		sp.sc = (uint8_t)sc;
		sp.type = (uint8_t)names_syscall_type(sc);
		l->skel->rodata->cfg_sys_spec[si->nr] = sp;
	}
}

int loader_start(struct loader *l, const struct loader_opts *o)
{
	const char *tracefs;
	uint64_t t0, t1, t2;
	int err, ncpu;

	memset(l, 0, sizeof(*l));
	loader_verbose = o->verbose;
	libbpf_set_print(loader_libbpf_print);
	err = preflight();
	if (err)
		return err;
	tracefs = tracefs_dir();
	if (!tracefs) {
		diag_err("tracefs is not mounted at %s and cannot be mounted there (%s): "
			 "mount -t tracefs tracefs %s",
			 LOADER_TRACEFS, strerror(errno), LOADER_TRACEFS);
		return -ENOENT;
	}

	t0 = clock_mono_now();
	l->skel = sentinel_bpf__open();
	if (!l->skel) {
		err = -errno;
		diag_err("cannot open the BPF object: %s", strerror(-err));
		return err;
	}
	ncpu = libbpf_num_possible_cpus();
	if (ncpu <= 0) {
		diag_err("cannot count possible CPUs: %s", strerror(-ncpu));
		err = ncpu;
		goto fail;
	}
	bpf_map__set_max_entries(l->skel->maps.scratch, (uint32_t)ncpu);
	err = bpf_map__set_max_entries(l->skel->maps.events, o->ringbuf_bytes);
	if (err) {
		diag_err("ring buffer size %u rejected: %s", o->ringbuf_bytes, strerror(-err));
		goto fail;
	}
	l->skel->rodata->cfg_self_tgid = (uint32_t)getpid();
	l->skel->rodata->cfg_typed_reads = (uint8_t)loader_kernel_has_typed_reads();
	if (o->verbose)
		diag_info("kernel memory read %s", l->skel->rodata->cfg_typed_reads ?
				  "through typed pointers (" LOADER_TYPED_KFUNC ")" :
				  "through helper calls (no " LOADER_TYPED_KFUNC ", or " LOADER_COMPAT_ENV ")");
	l->skel->rodata->cfg_wakeup_bytes = o->wakeup_bytes;
	loader_set_sys_spec(l);

	err = attach_plan(&l->at, l->skel->obj, tracefs, o->verbose);
	if (err)
		goto fail;

	t1 = clock_mono_now();
	err = sentinel_bpf__load(l->skel);
	if (err) {
		explain_load_error(err);
		goto fail;
	}
	t2 = clock_mono_now();
	err = loader_retarget(l, o);
	if (err)
		goto fail;
	l->open_ns = t1 - t0;
	l->load_ns = t2 - t1;
	l->attach_ns = clock_mono_now() - t2;
	return 0;
fail:
	attach_detach_all(&l->at);
	sentinel_bpf__destroy(l->skel);
	l->skel = NULL;
	return err;
}

/* Programs read cfg_open_filter while it changes: open every class first,
 * then write the prefixes and exclusions, then narrow the classes. */
static void loader_set_open_filter(struct loader *l, const struct loader_opts *o)
{
	volatile struct as_open_filter *f = &l->skel->data->cfg_open_filter;

	f->classes = 0xff;
	f->raw = 1;
	for (unsigned c = 0; c < AS_OPEN_CLASSES; c++)
		f->excl[c] = 0;
	if (!o->open_filtered)
		return;
	f->raw = o->open_filter.raw;
	for (unsigned i = 0; i < AS_OPEN_PREFIX_MAX; i++) {
		f->plen[i] = o->open_filter.plen[i];
		for (unsigned w = 0; w < AS_OPEN_PREFIX_LEN / 8; w++)
			f->prefix[i][w] = o->open_filter.prefix[i][w];
	}
	f->plen_max = 0;
	f->nprefix = 0;
	for (unsigned i = 0; i < AS_OPEN_PREFIX_MAX; i++) {
		if (f->plen[i] > f->plen_max)
			f->plen_max = f->plen[i];
		if (f->plen[i])
			f->nprefix = (uint8_t)(i + 1);
	}
	for (unsigned c = 0; c < AS_OPEN_CLASSES; c++)
		f->excl[c] = o->open_filter.excl[c];
	f->classes = o->open_filter.classes;
}

static int loader_set_filter(struct loader *l, const struct loader_opts *o)
{
	int names = bpf_map__fd(l->skel->maps.filter_names);
	char key[AS_COMM_LEN];
	uint8_t walk = 0;

	/* keep every event while the names change, then narrow */
	for (unsigned t = 0; t < AS_EV_MAX; t++)
		l->skel->bss->cfg_filter_depth[t] = 0;
	while (bpf_map_get_next_key(names, NULL, key) == 0)
		bpf_map_delete_elem(names, key);
	for (size_t i = 0; i < o->filter_nnames && i < LOADER_FILTER_NAMES_MAX; i++) {
		uint8_t one = 1;

		if (bpf_map_update_elem(names, o->filter_names[i], &one, BPF_ANY)) {
			int err = -errno;

			diag_err("cannot fill the pre-filter's name map: %s", strerror(-err));
			return err;
		}
	}
	{
		int exes = bpf_map__fd(l->skel->maps.filter_exes);
		struct as_exe_key { uint64_t ino; uint32_t dev, pad; } k;

		while (bpf_map_get_next_key(exes, NULL, &k) == 0)
			bpf_map_delete_elem(exes, &k);
		for (size_t i = 0; i < o->filter_nexes && i < LOADER_FILTER_EXES_MAX; i++) {
			uint8_t one = 1;

			k = (struct as_exe_key){ o->filter_exes[i].ino, o->filter_exes[i].dev, 0 };
			if (bpf_map_update_elem(exes, &k, &one, BPF_ANY)) {
				int err = -errno;

				diag_err("cannot fill the pre-filter's executable map: %s",
					 strerror(-err));
				return err;
			}
		}
	}
	/* cached verdicts were taken against the old names (0 means none) */
	if (++l->skel->data->cfg_filter_gen == 0)
		l->skel->data->cfg_filter_gen = 1;
	for (unsigned t = 0; t < AS_EV_MAX; t++)
		if (o->filter_depth[t] && o->filter_depth[t] != LOADER_DEPTH_LINEAGE &&
		    o->filter_depth[t] - 1 > walk)
			walk = o->filter_depth[t] - 1;
	l->skel->bss->cfg_filter_walk = walk;
	for (unsigned t = 0; t < AS_EV_MAX; t++)
		l->skel->bss->cfg_filter_depth[t] = o->filter_depth[t];
	loader_set_open_filter(l, o);
	return 0;
}

int loader_retarget(struct loader *l, const struct loader_opts *o)
{
	int err = loader_set_filter(l, o);

	return err ? err : attach_apply(&l->at, o->want_types, &o->want_sc);
}

void loader_stop(struct loader *l)
{
	if (!l->skel)
		return;
	attach_detach_all(&l->at);
	sentinel_bpf__destroy(l->skel);
	l->skel = NULL;
}

int loader_ringbuf_fd(const struct loader *l)
{
	return bpf_map__fd(l->skel->maps.events);
}

int loader_read_drops(const struct loader *l, uint64_t *drops, unsigned n)
{
	int ncpu = libbpf_num_possible_cpus();
	uint64_t *vals;

	if (ncpu <= 0)
		return ncpu;
	vals = calloc((size_t)ncpu, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	for (unsigned t = 0; t < n && t < AS_EV_MAX; t++) {
		drops[t] = 0;
		if (bpf_map_lookup_elem(bpf_map__fd(l->skel->maps.drops), &t, vals) != 0)
			continue;
		for (int c = 0; c < ncpu; c++)
			drops[t] += vals[c];
	}
	free(vals);
	return 0;
}

int loader_seed_session(const struct loader *l, uint32_t pid, const char *session)
{
	char id[AS_SESSION_MAX] = { 0 };

	snprintf(id, sizeof(id), "%s", session);
	/* BPF_NOEXIST: an exec seen meanwhile knows better than our snapshot */
	if (bpf_map_update_elem(bpf_map__fd(l->skel->maps.sessions), &pid, id, BPF_NOEXIST) &&
	    errno != EEXIST)
		return -errno;
	return 0;
}

#define LOADER_PIDFD_THREAD 0x80 /* PIDFD_THREAD (O_EXCL), Linux 6.9: a pidfd of one thread */

/* Task storage is keyed by a pidfd from userspace. */
static void loader_seed_task(int map, uint32_t tid, unsigned flags, const struct as_lineage *lin)
{
	int fd = (int)syscall(SYS_pidfd_open, (pid_t)tid, flags);

	if (fd < 0)
		return; /* exited meanwhile, or no thread pidfds on this kernel */
	/* BPF_NOEXIST: a fork or exec seen meanwhile knows better */
	bpf_map_update_elem(map, &fd, lin, BPF_NOEXIST);
	close(fd);
}

int loader_seed_lineage(const struct loader *l, uint32_t pid, const struct as_lineage *lin)
{
	int map = bpf_map__fd(l->skel->maps.lineage);
	char path[64];
	struct dirent *de;
	DIR *d;

	loader_seed_task(map, pid, 0, lin);
	/* every other thread has storage of its own (bpf/sentinel.bpf.h) */
	snprintf(path, sizeof(path), "/proc/%u/task", pid);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		unsigned long tid = strtoul(de->d_name, NULL, 10);

		if (tid && tid != pid)
			loader_seed_task(map, (uint32_t)tid, LOADER_PIDFD_THREAD, lin);
	}
	closedir(d);
	return 0;
}
