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
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/btf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "tpbtf.h"

#define TPBTF_SEC "tp_btf/"
#define TPBTF_TYPEDEF_PREFIX "btf_trace_" /* the kernel's DEFINE_EVENT typedefs */
#define TPBTF_NAME_MAX 128 /* "btf_trace_" and a tracepoint name (<= 64 in tracefs) */

static int tpbtf_prepare(struct bpf_program *prog, struct bpf_prog_load_opts *opts, long cookie)
{
	const struct corebtf_kernel *k = (const struct corebtf_kernel *)cookie;
	const char *sec = bpf_program__section_name(prog);
	char name[TPBTF_NAME_MAX];
	struct corebtf_want w = { .name = name, .kind = BTF_KIND_TYPEDEF };
	int n, err;

	n = snprintf(name, sizeof(name), TPBTF_TYPEDEF_PREFIX "%s", sec + strlen(TPBTF_SEC));
	if (n < 0 || (size_t)n >= sizeof(name))
		return -ENAMETOOLONG;
	corebtf_find(k, &w, 1);
	if (!w.id)
		return -ESRCH; /* no such tracepoint in this kernel */
	err = bpf_program__set_type(prog, BPF_PROG_TYPE_TRACING);
	if (!err)
		err = bpf_program__set_expected_attach_type(prog, BPF_TRACE_RAW_TP);
	if (err)
		return err;
	opts->expected_attach_type = BPF_TRACE_RAW_TP;
	opts->attach_btf_id = w.id;
	opts->attach_btf_obj_fd = 0; /* vmlinux */
	return 0;
}

int tpbtf_register(const struct corebtf_kernel *k)
{
	LIBBPF_OPTS(libbpf_prog_handler_opts, ho, .cookie = (long)k,
		    .prog_prepare_load_fn = tpbtf_prepare);
	int h;

	if (!k->n)
		return -ENOENT;
	h = libbpf_register_prog_handler(TPBTF_SEC, BPF_PROG_TYPE_RAW_TRACEPOINT, 0, &ho);
	return h < 0 ? h : h + 1; /* 0 stays "none" for callers' zeroed state */
}

void tpbtf_unregister(int handle)
{
	if (handle > 0)
		libbpf_unregister_prog_handler(handle - 1);
}
