// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A tp_btf program (BPF_PROG_TYPE_TRACING attached to a raw tracepoint,
 * with BTF-typed, trusted arguments) is loaded with the id of the
 * tracepoint's "btf_trace_NAME" typedef in the kernel's BTF. libbpf finds
 * it by parsing the whole BTF first (16-18 ms for Linux 6.18), even when
 * CO-RE relocates against a custom BTF. Here a custom section handler for
 * "tp_btf/" (libbpf looks at custom handlers before its own) declares the
 * programs raw_tp ones, which need no kernel BTF, and just before each is
 * loaded turns it into the tp_btf program it is, with the id from the
 * loader's index (user/corebtf.c).
 *
 * The handler is registered once and never unregistered: libbpf 1.1.2
 * frees its handler table when the last one goes and reallocs the freed
 * pointer at the next registration (fixed upstream in 8a0260dbf655), and
 * the programs keep pointers to the handler.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <linux/btf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "diag.h"
#include "tpbtf.h"

#define TPBTF_SEC "tp_btf/"
#define TPBTF_TYPEDEF_PREFIX "btf_trace_" /* the kernel's DEFINE_EVENT typedefs */
#define TPBTF_NAME_MAX 128 /* "btf_trace_" and a tracepoint name (<= 64 in tracefs) */

static _Atomic(const struct corebtf_kernel *) tpbtf_kernel;
static atomic_uint tpbtf_count;
static pthread_once_t tpbtf_once = PTHREAD_ONCE_INIT;
static int tpbtf_handle;

/* The typedef's id: from the index, else from libbpf's parse (what libbpf
 * itself would do). 0 if there is none. */
static uint32_t tpbtf_find(const char *name)
{
	const struct corebtf_kernel *k = atomic_load(&tpbtf_kernel);
	struct corebtf_want w = { .name = name, .kind = BTF_KIND_TYPEDEF };
	struct btf *whole;
	int id;

	if (k) {
		corebtf_find(k, &w, 1);
		if (w.id)
			atomic_fetch_add(&tpbtf_count, 1);
		return w.id;
	}
	whole = btf__load_vmlinux_btf();
	if (!whole)
		return 0;
	id = btf__find_by_name_kind(whole, name, BTF_KIND_TYPEDEF);
	btf__free(whole);
	return id > 0 ? (uint32_t)id : 0;
}

static int tpbtf_prepare(struct bpf_program *prog, struct bpf_prog_load_opts *opts, long cookie)
{
	const char *sec = bpf_program__section_name(prog);
	char name[TPBTF_NAME_MAX];
	uint32_t id;
	int n, err;

	(void)cookie;
	n = snprintf(name, sizeof(name), TPBTF_TYPEDEF_PREFIX "%s", sec + strlen(TPBTF_SEC));
	if (n < 0 || (size_t)n >= sizeof(name)) {
		diag_warn("BPF program section %s: tracepoint name too long", sec);
		return -ENAMETOOLONG;
	}
	id = tpbtf_find(name);
	if (!id) {
		diag_warn("BPF program section %s: no %s in the kernel's BTF", sec, name);
		return -ESRCH;
	}
	err = bpf_program__set_type(prog, BPF_PROG_TYPE_TRACING);
	if (!err)
		err = bpf_program__set_expected_attach_type(prog, BPF_TRACE_RAW_TP);
	if (err)
		return err;
	opts->expected_attach_type = BPF_TRACE_RAW_TP;
	opts->attach_btf_id = id;
	opts->attach_btf_obj_fd = 0; /* vmlinux */
	return 0;
}

static void tpbtf_register(void)
{
	LIBBPF_OPTS(libbpf_prog_handler_opts, ho, .prog_prepare_load_fn = tpbtf_prepare);

	tpbtf_handle = libbpf_register_prog_handler(TPBTF_SEC, BPF_PROG_TYPE_RAW_TRACEPOINT, 0,
						    &ho);
}

int tpbtf_use(const struct corebtf_kernel *k)
{
	pthread_once(&tpbtf_once, tpbtf_register);
	atomic_store(&tpbtf_kernel, k && k->n ? k : NULL);
	atomic_store(&tpbtf_count, 0);
	return tpbtf_handle < 0 ? tpbtf_handle : 0;
}

unsigned tpbtf_indexed(void)
{
	return atomic_load(&tpbtf_count);
}
