// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <malloc.h>
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
#include <linux/membarrier.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <bpf/btf.h>
#include "diag.h"
#include "abi.h"
#include "loader.h"
#include "names.h"
#include "sctable.h"
#include "attach.h"
#include "compat.h"
#include "parload.h"
#include "vstats.h"
#include "corebtf.h"
#include "kfuncpatch.h"
#include "tpbtf.h"
#include "ringwarm.h"
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
/* Set to 1: CO-RE against the kernel's whole BTF, not the trimmed copy. */
#define LOADER_FULL_BTF_ENV "AGENT_SENTINEL_FULL_BTF"
#define LOADER_FD_PATH_MAX 32 /* "/proc/self/fd/" and an int */
#define LOADER_COMPAT_PROG "raw_sys_exit_compat" /* bpf/compat.bpf.c: the 32-bit ABI's dispatcher */
#define LOADER_QUIESCE_FALLBACK_MS 20 /* no membarrier: a reload waits this long instead */

/* The kernel's BTF, mapped (or read where sysfs BTF cannot be mapped, on
 * older kernels): for the kfunc test and the CO-RE copy, not parsed here. */
struct loader_vmlinux {
	void *data;
	size_t size;
	int mapped;
};

static int loader_vmlinux_open(struct loader_vmlinux *v)
{
	struct stat st;
	int fd;

	memset(v, 0, sizeof(*v));
	fd = open(LOADER_VMLINUX_BTF, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || st.st_size <= 0) {
		close(fd);
		return -ENOENT;
	}
	v->data = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (v->data != MAP_FAILED) {
		v->size = (size_t)st.st_size;
		v->mapped = 1;
	} else {
		char *b = malloc((size_t)st.st_size);
		ssize_t n = 1;

		/* a sysfs read may stop short of the size asked for */
		while (b && v->size < (size_t)st.st_size && n > 0) {
			n = read(fd, b + v->size, (size_t)st.st_size - v->size);
			if (n > 0)
				v->size += (size_t)n;
		}
		v->data = b;
	}
	close(fd);
	return v->data && v->size ? 0 : -EIO;
}

static void loader_vmlinux_close(struct loader_vmlinux *v)
{
	if (v->mapped)
		munmap(v->data, v->size);
	else
		free(v->data);
	memset(v, 0, sizeof(*v));
}

/* What a start-up attempt shares: the kernel's BTF and the object's bytes
 * (patched: the kfunc calls made). */
struct loader_kernel {
	struct loader_vmlinux vml;
	struct corebtf_kernel kbtf;
	const void *elf;
	size_t elf_sz;
	void *patched; /* elf, once patched */
	uint32_t ktype_id[AS_KT_MAX];
	uint32_t kfunc_id[AS_KF_MAX];
	int typed; /* typed reads: the kfunc and every ktype_id found */
	const char *tracefs;
};

/* sentinel_bpf__open_opts(), but from elf (the patched copy), not from the
 * skeleton's own bytes. */
static struct sentinel_bpf *loader_open_skel(const void *elf, size_t elf_sz,
					     const struct bpf_object_open_opts *oo)
{
	struct sentinel_bpf *s = calloc(1, sizeof(*s));
	int err;

	if (!s) {
		errno = ENOMEM;
		return NULL;
	}
	err = sentinel_bpf__create_skeleton(s);
	if (!err) {
		s->skeleton->data = (void *)elf;
		s->skeleton->data_sz = elf_sz;
		err = bpf_object__open_skeleton(s->skeleton, oo);
	}
	if (err) {
		sentinel_bpf__destroy(s);
		errno = -err;
		return NULL;
	}
	return s;
}

/* Open the skeleton with the CO-RE copy of the kernel's BTF where one can
 * be made (user/corebtf.c; *btf_fd is then its fd, to close after loading). */
static struct sentinel_bpf *loader_open(const struct corebtf_kernel *k, const void *elf,
					size_t elf_sz, char *btf_path, size_t path_sz,
					int *btf_fd, int verbose)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo);

	*btf_fd = -1;
	btf_path[0] = '\0';
	if (k->n) {
		*btf_fd = corebtf_make(k, elf, elf_sz, btf_path, path_sz);
		if (*btf_fd < 0) {
			if (verbose)
				diag_info("CO-RE against the kernel's whole BTF: no trimmed copy (%s)",
					  strerror(-*btf_fd));
			btf_path[0] = '\0';
		} else {
			oo.btf_custom_path = btf_path;
		}
	}
	return loader_open_skel(elf, elf_sz, &oo);
}

/* The typed reads need the kfunc and the kernel's id of each struct they
 * cast to; without any of them, or when told not to (the tests cover both
 * ways), every read is a helper call. Fills k's ids; 1 for typed reads. */
static int loader_find_typed_reads(struct loader_kernel *k)
{
	static const char *const names[] = {
#define LOADER_KT_NAME(name) #name,
		AS_KTYPE_LIST(LOADER_KT_NAME)
#undef LOADER_KT_NAME
	};
	struct corebtf_want w[AS_KT_MAX + AS_KF_MAX];
	const char *env = getenv(LOADER_COMPAT_ENV);
	struct btf *whole = NULL;
	int ok = 1;

	if (env && env[0] && strcmp(env, "0"))
		return 0;
	for (unsigned i = 0; i < AS_KT_MAX + AS_KF_MAX; i++) {
		w[i].name = i < AS_KT_MAX ? names[i] : kfuncpatch_name(i - AS_KT_MAX);
		w[i].kind = i < AS_KT_MAX ? BTF_KIND_STRUCT : BTF_KIND_FUNC;
		w[i].id = 0;
	}
	if (k->kbtf.n) {
		corebtf_find(&k->kbtf, w, AS_KT_MAX + AS_KF_MAX);
	} else if ((whole = btf__load_vmlinux_btf())) {
		/* a BTF corebtf cannot index (a new kind): libbpf's parse */
		for (unsigned i = 0; i < AS_KT_MAX + AS_KF_MAX; i++) {
			int id = btf__find_by_name_kind(whole, w[i].name, w[i].kind);

			w[i].id = id > 0 ? (uint32_t)id : 0;
		}
		btf__free(whole);
	}
	for (unsigned i = 0; i < AS_KT_MAX + AS_KF_MAX; i++) {
		ok &= w[i].id > 0;
		if (i < AS_KT_MAX)
			k->ktype_id[i] = w[i].id;
		else
			k->kfunc_id[i - AS_KT_MAX] = w[i].id;
	}
	return ok;
}

/* k->elf: the object with its kfunc calls made (user/kfuncpatch.c). */
static int loader_patch_kfuncs(struct loader_kernel *k, int verbose)
{
	static const uint32_t none[AS_KF_MAX];
	unsigned count;

	k->typed = loader_find_typed_reads(k);
	k->patched = kfuncpatch_elf(k->elf, k->elf_sz, k->typed ? k->kfunc_id : none, &count);
	if (!k->patched) {
		int err = errno;

		diag_err("cannot prepare the BPF object's kfunc calls: %s",
			 err == EPROTO ? "the embedded BPF object is malformed" : strerror(err));
		return -err;
	}
	k->elf = k->patched;
	if (verbose)
		diag_info("kernel memory read %s; %u kfunc calls %s", k->typed ?
			  "through typed pointers (" LOADER_TYPED_KFUNC ")" :
			  "through helper calls (no " LOADER_TYPED_KFUNC ", or " LOADER_COMPAT_ENV ")",
			  count, k->typed ? "made" : "left out");
	return 0;
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
/* Each syscall's number (bpf/syscalls.h: as_sc_of) and what the generic
 * exit program reads of it (user/sctable.c). */
static void loader_set_sys_spec(struct loader *l)
{
	for (unsigned sc = AS_SC_NONE + 1; sc < AS_SC_MAX; sc++) {
		const struct sc_info *si = sctable_get(sc);
		struct as_sys_spec sp = si->spec;

		if (si->nr < 0 || si->nr >= AS_SYS_NR_MAX)
			continue;
		l->skel->rodata->cfg_sc_by_nr[si->nr] = (uint8_t)sc;
		if (!sctable_generic(sc))
			continue;
		sp.sc = (uint8_t)sc;
		sp.type = (uint8_t)names_syscall_type(sc);
		l->skel->rodata->cfg_sys_spec[si->nr] = sp;
	}
}

/* The 32-bit ABI's tables (bpf/compat.bpf.c), by i386 number. */
static void loader_set_compat_spec(struct loader *l)
{
#if defined(__x86_64__)
	compat_fill(l->skel->rodata->cfg_compat_spec, l->skel->rodata->cfg_compat_sockcall);
#else
	(void)l;
#endif
}

/* Which x86_64 calls the raw sys_exit program hands on: those whose own
 * exit tracepoint is attached now, so a 32-bit call is traced exactly when
 * the native one is, and those it alone serves (sctable's VIA_RAW) that a
 * rule wants. */
static void loader_set_compat_on(struct loader *l, const struct loader_opts *o)
{
#if defined(__x86_64__)
	volatile uint8_t *on = l->skel->bss->cfg_compat_on;
	uint8_t want[AS_SYS_NR_MAX] = { 0 };

	for (uint32_t i = 0; i < l->at.n; i++) {
		const struct attach_link *a = &l->at.links[i];
		int nr = a->sc != AS_SC_NONE ? sctable_get(a->sc)->nr : -1;

		if (a->link && nr >= 0 && nr < AS_SYS_NR_MAX)
			want[nr] = 1;
	}
	for (unsigned sc = AS_SC_NONE + 1; sc < AS_SC_MAX; sc++) {
		const struct sc_info *si = sctable_get(sc);

		if (si->via == VIA_RAW && si->nr >= 0 && si->nr < AS_SYS_NR_MAX &&
		    (o->want_types & (1u << names_syscall_type(sc))) && scset_has(&o->want_sc, sc))
			want[si->nr] = 1;
	}
	/* each entry written once, to its new value: a call both rule sets
	 * want is never off for a moment (the raw program reads these on
	 * every 32-bit call) */
	for (unsigned i = 0; i < AS_SYS_NR_MAX; i++)
		on[i] = want[i];
#else
	(void)l;
	(void)o;
#endif
}

/* Verification time of each program, in 0.1 ms, as measured on Linux 6.18
 * (AGENT_SENTINEL_VERIFIER_STATS=1 agent-sentinel -v, the median of three): the two
 * loading threads get about the same. A program not listed, or a kernel
 * that verifies differently, only balances worse. */
static const struct parload_hint loader_verify_cost[] = {
	{ "raw_sys_exit_compat", 355 },	  { "tp_sched_process_exec", 341 },
	{ "tp_sys_exit_openat", 190 },	  { "tp_sys_exit_connect", 172 },
	{ "rtp_sched_process_fork", 134 }, { "tp_sock_send_length", 92 },
	{ "tp_sys_exit_generic", 69 },	  { "tp_io_uring_submit_req", 68 },
	{ "tp_sys_exit_execve", 43 },	  { "tp_sys_exit_setuid", 19 },
	{ "tp_sched_process_exit", 17 },  { "tp_sys_exit_capset", 17 },
	{ "cg_sendmsg4", 10 },		  { "cg_sendmsg6", 8 },
	{ "tp_sys_enter_execve", 3 },	  { NULL, 0 },
};

static int loader_load_skel(void *skel)
{
	return sentinel_bpf__load(skel);
}

static void loader_unload(struct loader *l)
{
	attach_detach_all(&l->at);
	parload_close(&l->pl);
	sentinel_bpf__destroy(l->skel);
	l->skel = NULL;
}

/* The host's network namespace inode: init's (pid 1 of our pid namespace:
 * the host's, run by systemd or in a hostPID pod), else our own; 0 when
 * neither can be read (every socket is then taken to be on the host's). */
static uint32_t loader_host_netns(int verbose)
{
	static const char *const paths[] = { "/proc/1/ns/net", "/proc/self/ns/net" };
	struct stat st;

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		if (stat(paths[i], &st))
			continue;
		if (verbose)
			diag_info("host network namespace: net:[%llu] (%s)",
				  (unsigned long long)st.st_ino, paths[i]);
		return (uint32_t)st.st_ino;
	}
	diag_warn("cannot read /proc/1/ns/net or /proc/self/ns/net: %s; every socket counts "
		  "as the host's (fd.is_host_netns)", strerror(errno));
	return 0;
}

/* Open, configure and load the object: with own, CO-RE against the trimmed
 * BTF and tp_btf ids from the loader's index of the kernel's BTF; without,
 * as libbpf would, from its parse of the whole BTF. 0, -EAGAIN (own failed:
 * try without), or -errno, said already. */
static int loader_load(struct loader *l, const struct loader_opts *o, struct loader_kernel *k,
		       int own)
{
	char btf_path[LOADER_FD_PATH_MAX];
	int btf_fd = -1, err, ncpu;
	struct corebtf_kernel none = { 0 };

	err = tpbtf_use(own ? &k->kbtf : NULL);
	if (err && o->verbose)
		diag_info("tp_btf programs loaded by libbpf alone: %s", strerror(-err));
	l->skel = loader_open(own ? &k->kbtf : &none, k->elf, k->elf_sz, btf_path,
			      sizeof(btf_path), &btf_fd, o->verbose);
	if (!l->skel) {
		err = -errno;
		diag_err("cannot open the BPF object: %s", strerror(-err));
		goto out;
	}
	ncpu = libbpf_num_possible_cpus();
	if (ncpu <= 0) {
		diag_err("cannot count possible CPUs: %s", strerror(-ncpu));
		err = ncpu;
		goto out;
	}
	bpf_map__set_max_entries(l->skel->maps.scratch, (uint32_t)ncpu);
	err = bpf_map__set_max_entries(l->skel->maps.events, o->ringbuf_bytes);
	if (err) {
		diag_err("ring buffer size %u rejected: %s", o->ringbuf_bytes, strerror(-err));
		goto out;
	}
	l->skel->rodata->cfg_self_tgid = (uint32_t)getpid();
	l->skel->rodata->cfg_host_netns = loader_host_netns(o->verbose);
	l->skel->rodata->cfg_typed_reads = (uint8_t)k->typed;
	for (unsigned i = 0; i < AS_KT_MAX; i++)
		l->skel->rodata->cfg_ktype_id[i] = k->ktype_id[i];
	l->skel->rodata->cfg_wakeup_bytes = o->wakeup_bytes;
	l->skel->rodata->cfg_send_fold = (uint32_t)o->send_fold;
	loader_set_sys_spec(l);
	loader_set_compat_spec(l);

	err = attach_plan(&l->at, l->skel->obj, k->tracefs, o->verbose);
	if (err)
		goto out;
	if (libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_SYSCALL, NULL) != 1) {
		bpf_program__set_autoload(l->skel->progs.as_ring_warm, false);
		if (o->verbose)
			diag_info("the ring buffer is not warmed up: this kernel runs no BPF "
				  "syscall programs (Linux 5.14)");
	}
	{
		struct bpf_program *raw = bpf_object__find_program_by_name(l->skel->obj,
									   LOADER_COMPAT_PROG);

		if (o->verbose && (!raw || !bpf_program__autoload(raw)))
			diag_info("syscalls through the 32-bit ABI and ioctl's terminal input: not "
				  "traced (%s)", raw ? "no raw_syscalls/sys_exit" : "x86_64 only");
	}
	if (vstats_wanted()) {
		/* one thread: each program's figures are its own */
		err = vstats_arm(l->skel->obj);
		if (!err)
			err = loader_load_skel(l->skel);
		if (!err)
			vstats_report(l->skel->obj);
		else if (err == -ENOSPC)
			diag_err("%s: a program's verifier log did not fit its buffer", VSTATS_ENV);
		vstats_free();
	} else {
		err = parload_load(&l->pl, l->skel->obj, k->elf, k->elf_sz,
				   btf_fd >= 0 ? btf_path : NULL, loader_verify_cost,
				   loader_load_skel, l->skel, o->verbose);
	}
	if (err && own) {
		/* perhaps a bug of user/corebtf.c (a wrong offset comes back from
		 * the verifier as EACCES too): say so, then do it libbpf's way */
		diag_warn("loading with the loader's own index of the kernel's BTF (the trimmed "
			  "copy for CO-RE, the tp_btf ids) failed (%s): loading libbpf's way, "
			  "from the whole BTF", strerror(-err));
		err = -EAGAIN;
		goto out;
	}
	if (err) {
		explain_load_error(err);
		goto out;
	}
	if (o->verbose && own)
		diag_info("%u tp_btf attach ids from the loader's index", tpbtf_indexed());
	for (uint32_t i = 0; i < l->at.n; i++)
		l->at.links[i].prog = parload_program(&l->pl, l->at.links[i].prog);
out:
	if (btf_fd >= 0)
		close(btf_fd); /* read by libbpf at load: no longer needed */
	if (err)
		loader_unload(l);
	return err;
}

/* Before attach: every page of the ring written once (user/ringwarm.h). A
 * failure costs only speed: said, and the start goes on. */
static void loader_warm_ring(struct loader *l, const struct loader_opts *o)
{
	struct bpf_program *p = parload_program(&l->pl, l->skel->progs.as_ring_warm);
	int fd = p ? bpf_program__fd(p) : -1;

	if (fd < 0)
		return;
	if (!ringwarm_run(fd, bpf_map__fd(l->skel->maps.events), o->ringbuf_bytes, &l->warm) &&
	    o->verbose)
		diag_info("ring buffer: %u pages written once in %.1f ms (%u records, %u runs)",
			  l->warm.pages, (double)l->warm.ns / 1e6, l->warm.records, l->warm.rounds);
}

int loader_start(struct loader *l, const struct loader_opts *o)
{
	struct loader_kernel k = { 0 };
	uint64_t t0, t1, t2;
	int err;

	memset(l, 0, sizeof(*l));
	loader_verbose = o->verbose;
	libbpf_set_print(loader_libbpf_print);
	err = preflight();
	if (err)
		return err;
	k.tracefs = tracefs_dir();
	if (!k.tracefs) {
		diag_err("tracefs is not mounted at %s and cannot be mounted there (%s): "
			 "mount -t tracefs tracefs %s",
			 LOADER_TRACEFS, strerror(errno), LOADER_TRACEFS);
		return -ENOENT;
	}

	t0 = clock_mono_now();
	k.elf = sentinel_bpf__elf_bytes(&k.elf_sz);
	/* no BTF, or a malformed one: libbpf says so when it needs it */
	if (!loader_vmlinux_open(&k.vml))
		corebtf_open(&k.kbtf, k.vml.data, k.vml.size);
	err = loader_patch_kfuncs(&k, o->verbose);
	t1 = clock_mono_now();
	if (!err) {
		const char *env = getenv(LOADER_FULL_BTF_ENV);

		err = loader_load(l, o, &k, !(env && !strcmp(env, "1")));
	}
	if (err == -EAGAIN)
		err = loader_load(l, o, &k, 0);
	free(k.patched);
	corebtf_close(&k.kbtf);
	loader_vmlinux_close(&k.vml);
	/* the two threads' parses of the kernel's BTF are freed by now, but
	 * glibc keeps their heap: give it back (~0.5 MB of RSS) */
	malloc_trim(0);
	if (err)
		return err;
	loader_warm_ring(l, o);
	t2 = clock_mono_now();
	err = loader_retarget(l, o);
	if (err) {
		loader_unload(l);
		return err;
	}
	l->open_ns = t1 - t0;
	l->load_ns = t2 - t1 - l->warm.ns;
	l->attach_ns = clock_mono_now() - t2;
	return 0;
}

/* The bytes of word w (little-endian: byte 0 lowest) that a prefix of plen
 * bytes covers. */
static uint64_t loader_prefix_mask(unsigned plen, unsigned w)
{
	unsigned bytes = plen <= w * 8 ? 0 : plen - w * 8;

	return bytes >= 8 ? ~0ull : (1ull << (bytes * 8)) - 1;
}

/* Can atom j match a name of l bytes (AS_OPEN_ALEN_BUCKETS - 1: that many
 * or more)? A length of 0 is a name the kernel could not read: tested, so
 * that its open is kept. */
static int loader_atom_fits(const struct as_open_filter *o, unsigned j, unsigned l)
{
	if (!l)
		return 1;
	if (o->akind[j] & AS_ATOM_PREFIX)
		return l >= o->alen[j] || l == AS_OPEN_ALEN_BUCKETS - 1;
	return l == o->alen[j];
}

/* Every open of a process the type pre-filter keeps is kept: every open
 * class, no path test. What running programs see while the open filter's
 * tables change (loader_set_filter). */
static void loader_open_wide(struct loader *l)
{
	volatile struct as_open_filter *f = &l->skel->data->cfg_open_filter;

	f->classes = 0xffff;
	f->raw = 1;
	f->test = 0;
}

/*
 * Wait until no program still runs on what it read before loader_open_wide:
 * one that read the open filter's test bit may otherwise go on to read
 * prefixes and atoms while they are rewritten, and drop its event on a
 * mixed table. Every program runs inside an RCU read-side
 * section (trace_call_bpf, bpf_trace_run*), and membarrier's
 * MEMBARRIER_CMD_GLOBAL is synchronize_rcu(). Only when programs are
 * attached (a reload): at start-up nothing runs yet.
 */
static void loader_quiesce(const struct loader *l)
{
	static int said;

	if (!l->at.attached)
		return;
	if (!syscall(__NR_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0))
		return;
	if (!said++)
		diag_warn("membarrier(MEMBARRIER_CMD_GLOBAL): %s: a reload waits %d ms "
			  "instead for running programs to finish",
			  strerror(errno), LOADER_QUIESCE_FALLBACK_MS);
	nanosleep(&(struct timespec){ .tv_nsec = LOADER_QUIESCE_FALLBACK_MS * 1000000L }, NULL);
}

/* The open filter's tables and terms, written while loader_open_wide's
 * state holds; then the test starts (only for the classes none of whose
 * terms keeps every path) and the classes narrow. */
static void loader_set_open_filter(struct loader *l, const struct loader_opts *o)
{
	volatile struct as_open_filter *f = &l->skel->data->cfg_open_filter;
	const struct as_open_filter *n = &o->open_filter;
	uint16_t test = 0, single = 0;

	if (!o->open_filtered)
		return;
	f->raw = n->raw;
	for (unsigned i = 0; i < AS_OPEN_PREFIX_MAX; i++) {
		f->plen[i] = n->plen[i];
		for (unsigned w = 0; w < AS_OPEN_PREFIX_LEN / 8; w++) {
			f->prefix[i][w] = n->prefix[i][w];
			f->pmask[i][w] = loader_prefix_mask(f->plen[i], w);
		}
	}
	f->plen_max = 0;
	f->nprefix = 0;
	for (unsigned i = 0; i < AS_OPEN_PREFIX_MAX; i++) {
		if (f->plen[i] > f->plen_max)
			f->plen_max = f->plen[i];
		if (f->plen[i])
			f->nprefix = (uint8_t)(i + 1);
	}
	f->abase = 0;
	for (unsigned l = 0; l < AS_OPEN_ALEN_BUCKETS; l++)
		f->alen_atoms[l] = 0;
	for (unsigned j = 0; j < AS_OPEN_ATOM_MAX; j++) {
		f->alen[j] = j < n->natom ? n->alen[j] : 0;
		f->akind[j] = j < n->natom ? n->akind[j] : 0;
		for (unsigned w = 0; w < AS_OPEN_ATOM_LEN / 8; w++) {
			f->atom[j][w] = j < n->natom ? n->atom[j][w] : 0;
			f->amask[j][w] = loader_prefix_mask(f->alen[j], w);
		}
		if (j >= n->natom)
			continue;
		if (n->akind[j] & AS_ATOM_BASE)
			f->abase |= 1u << j;
		for (unsigned l = 0; l < AS_OPEN_ALEN_BUCKETS; l++)
			if (loader_atom_fits(n, j, l))
				f->alen_atoms[l] |= 1u << j;
	}
	f->natom = n->natom;
	for (unsigned c = 0; c < AS_OPEN_CLASSES; c++) {
		unsigned nt = n->nterm[c] < AS_OPEN_TERMS ? n->nterm[c] : AS_OPEN_TERMS;
		uint32_t needs = 0;
		uint16_t excls = 0;
		int keeps_all = !nt;

		for (unsigned t = 0; t < AS_OPEN_TERMS; t++) { /* unused ones zeroed */
			f->term[c][t].excl = t < nt ? n->term[c][t].excl : 0;
			f->term[c][t].need = t < nt ? n->term[c][t].need : 0;
			needs |= f->term[c][t].need;
			excls |= f->term[c][t].excl;
			keeps_all |= t < nt && !n->term[c][t].excl && !n->term[c][t].need;
		}
		f->nterm[c] = (uint8_t)nt;
		f->needs[c] = needs;
		f->excls[c] = excls;
		if (!keeps_all)
			test |= (uint16_t)(1u << c);
		if (nt == 1)
			single |= (uint16_t)(1u << c);
	}
	f->single = single;
	f->test = test;
	f->classes = n->classes;
}

void loader_expire_verdicts(struct loader *l)
{
	/* 0 means none: a verdict never taken */
	if (++l->skel->data->cfg_filter_gen == 0)
		l->skel->data->cfg_filter_gen = 1;
}

struct loader_exe_key {
	uint64_t ino;
	uint32_t dev, pad;
};

/* One of the pre-filter's key maps and the keys it is to hold. */
struct loader_keyset {
	const char *what;
	int map;
	const void *keys;
	size_t n, ksize, stride;
};

enum { LOADER_KS_EXES, LOADER_KS_PINS, LOADER_KS_NAMES, LOADER_KEYSETS };

/* The key sets of o: names, and the pinned executables (into ek). */
static void loader_keysets(const struct loader *l, const struct loader_opts *o,
			   struct loader_exe_key ek[LOADER_FILTER_EXES_MAX],
			   struct loader_keyset ks[LOADER_KEYSETS])
{
	size_t nexes = o->filter_nexes < LOADER_FILTER_EXES_MAX ? o->filter_nexes
								 : LOADER_FILTER_EXES_MAX;

	for (size_t i = 0; i < nexes; i++)
		ek[i] = (struct loader_exe_key){ o->filter_exes[i].ino, o->filter_exes[i].dev, 0 };
	ks[LOADER_KS_EXES] = (struct loader_keyset){ "executable", bpf_map__fd(l->skel->maps.filter_exes),
						     ek, nexes, sizeof(ek[0]), sizeof(ek[0]) };
	ks[LOADER_KS_PINS] = (struct loader_keyset){
		"pinned-path", bpf_map__fd(l->skel->maps.filter_pins), o->filter_pins,
		o->filter_npins < LOADER_FILTER_EXES_MAX ? o->filter_npins : LOADER_FILTER_EXES_MAX,
		sizeof(o->filter_pins[0]), sizeof(o->filter_pins[0])
	};
	ks[LOADER_KS_NAMES] = (struct loader_keyset){
		"name", bpf_map__fd(l->skel->maps.filter_names), o->filter_names,
		o->filter_nnames < LOADER_FILTER_NAMES_MAX ? o->filter_nnames : LOADER_FILTER_NAMES_MAX,
		AS_COMM_LEN, AS_COMM_LEN
	};
}

/* Add the keys of k to its map, keeping those it holds (the maps have room
 * for an old and a new set together). */
static int loader_keys_add(const struct loader_keyset *k)
{
	uint8_t one = 1;

	for (size_t i = 0; i < k->n; i++)
		if (bpf_map_update_elem(k->map, (const char *)k->keys + i * k->stride, &one, BPF_ANY)) {
			int err = -errno;

			diag_err("cannot fill the pre-filter's %s map: %s", k->what, strerror(-err));
			return err;
		}
	return 0;
}

/* Delete from k's map every key that is not one of k's. */
static void loader_keys_prune(const struct loader_keyset *k)
{
	uint8_t cur[sizeof(struct as_pin_key)], next[sizeof(struct as_pin_key)];
	int more = bpf_map_get_next_key(k->map, NULL, cur) == 0;

	while (more) {
		int keep = 0;

		more = bpf_map_get_next_key(k->map, cur, next) == 0;
		for (size_t i = 0; i < k->n && !keep; i++)
			keep = !memcmp((const char *)k->keys + i * k->stride, cur, k->ksize);
		if (!keep)
			bpf_map_delete_elem(k->map, cur);
		memcpy(cur, next, k->ksize);
	}
}

/* The pinned executables alone (agents.exe_paths changed): the new ones
 * added first and the stale ones deleted after, so a program running
 * meanwhile sees every key of one set or the other. */
int loader_set_pins(struct loader *l, const struct loader_opts *o)
{
	struct loader_exe_key ek[LOADER_FILTER_EXES_MAX];
	struct loader_keyset ks[LOADER_KEYSETS];
	int err;

	loader_keysets(l, o, ek, ks);
	for (unsigned k = LOADER_KS_EXES; k <= LOADER_KS_PINS; k++) {
		err = loader_keys_add(&ks[k]);
		if (err)
			return err;
		loader_keys_prune(&ks[k]);
	}
	l->skel->bss->cfg_filter_npins = (uint32_t)ks[LOADER_KS_PINS].n;
	loader_expire_verdicts(l); /* taken against the old pins */
	return 0;
}

/* The wider of two type pre-filter depths (0 keeps every event). */
static uint8_t loader_depth_wider(uint8_t a, uint8_t b)
{
	return !a || !b ? 0 : a > b ? a : b;
}

/*
 * New pre-filter settings while programs run, without losing an event
 * either the old or the new settings keep, and without opening the filter
 * to the whole host (a reload on a busy host would flood the ring): first
 * the union of both (the wider depth and walk per type, both key sets, the
 * open filter's test off), verdicts expired; once no program runs on the
 * old open filter, its tables are rewritten and the stale keys deleted,
 * verdicts expire again, and depths, walk and open classes narrow to the
 * new ones. A program stores a verdict under the generation it read first,
 * so one judged on the union expires with it.
 */
static int loader_set_filter(struct loader *l, const struct loader_opts *o)
{
	volatile struct sentinel_bpf__bss *bss = l->skel->bss;
	struct loader_exe_key ek[LOADER_FILTER_EXES_MAX];
	struct loader_keyset ks[LOADER_KEYSETS];
	uint8_t walk = o->filter_walk < AS_MAX_ANCESTORS ? o->filter_walk : AS_MAX_ANCESTORS;
	int err;

	loader_keysets(l, o, ek, ks);
	if (walk > bss->cfg_filter_walk)
		bss->cfg_filter_walk = walk;
	for (unsigned t = 0; t < AS_EV_MAX; t++)
		bss->cfg_filter_depth[t] = loader_depth_wider(bss->cfg_filter_depth[t],
							      o->filter_depth[t]);
	loader_open_wide(l);
	for (unsigned k = 0; k < LOADER_KEYSETS; k++) {
		err = loader_keys_add(&ks[k]);
		if (err)
			return err;
	}
	if (ks[LOADER_KS_PINS].n > bss->cfg_filter_npins)
		bss->cfg_filter_npins = (uint32_t)ks[LOADER_KS_PINS].n;
	loader_expire_verdicts(l); /* judged again on both key sets */
	loader_quiesce(l);
	loader_set_open_filter(l, o);
	for (unsigned k = 0; k < LOADER_KEYSETS; k++)
		loader_keys_prune(&ks[k]);
	bss->cfg_filter_npins = (uint32_t)ks[LOADER_KS_PINS].n;
	loader_expire_verdicts(l); /* judged on the new key sets alone */
	bss->cfg_filter_walk = walk;
	for (unsigned t = 0; t < AS_EV_MAX; t++)
		bss->cfg_filter_depth[t] = o->filter_depth[t];
	return 0;
}

int loader_retarget(struct loader *l, const struct loader_opts *o)
{
	int err = loader_set_filter(l, o);

	if (!err)
		err = attach_apply(&l->at, o->want_types, &o->want_sc);
	if (!err)
		loader_set_compat_on(l, o);
	return err;
}

void loader_stop(struct loader *l)
{
	if (l->skel)
		loader_unload(l);
}

volatile uint32_t *loader_ring_idle(struct loader *l)
{
	return &l->skel->bss->as_ring_idle;
}

int loader_ringbuf_fd(const struct loader *l)
{
	return bpf_map__fd(l->skel->maps.events);
}

/* The sum over the CPUs of a per-CPU u64 map's entry key (vals: ncpu). */
static uint64_t loader_percpu_sum(int fd, uint32_t key, int ncpu, uint64_t *vals)
{
	uint64_t sum = 0;

	if (bpf_map_lookup_elem(fd, &key, vals) != 0)
		return 0;
	for (int c = 0; c < ncpu; c++)
		sum += vals[c];
	return sum;
}

int loader_read_drops(const struct loader *l, uint64_t *drops, unsigned n, uint64_t *folds)
{
	int ncpu = libbpf_num_possible_cpus();
	uint64_t *vals;

	if (ncpu <= 0)
		return ncpu;
	vals = calloc((size_t)ncpu, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	for (unsigned t = 0; t < n && t < AS_EV_MAX; t++)
		drops[t] = loader_percpu_sum(bpf_map__fd(l->skel->maps.drops), t, ncpu, vals);
	*folds = loader_percpu_sum(bpf_map__fd(l->skel->maps.send_folds), 0, ncpu, vals);
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
	struct as_task t = { .lin = *lin }, cur;

	if (fd < 0)
		return; /* exited meanwhile, or no thread pidfds on this kernel */
	/* BPF_NOEXIST: a fork or exec seen meanwhile knows better. A thread
	 * that only had an event since (its state made, its lineage still
	 * empty) gets the lineage, and its verdict goes with the old state */
	if (bpf_map_update_elem(map, &fd, &t, BPF_NOEXIST) && errno == EEXIST &&
	    !bpf_map_lookup_elem(map, &fd, &cur) && !cur.lin.n) {
		t.st = cur.st; /* an exec in progress keeps its credentials snapshot */
		t.st.verdict_gen = 0; /* taken without the lineage */
		bpf_map_update_elem(map, &fd, &t, BPF_EXIST);
	}
	close(fd);
}

int loader_seed_lineage(const struct loader *l, uint32_t pid, const struct as_lineage *lin)
{
	int map = bpf_map__fd(l->skel->maps.tasks);
	char path[64];
	struct dirent *de;
	struct stat st;
	DIR *d;

	loader_seed_task(map, pid, 0, lin);
	/* every other thread has storage of its own (bpf/sentinel.bpf.h); the
	 * task directory's link count is 2 + its threads (proc_task_getattr),
	 * so one stat spares a listing for each single-threaded process */
	snprintf(path, sizeof(path), "/proc/%u/task", pid);
	if (stat(path, &st) == 0 && st.st_nlink <= 3)
		return 0;
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
