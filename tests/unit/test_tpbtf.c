// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* tpbtf: libbpf takes the object's tp_btf programs for raw_tp ones (which
 * need no kernel BTF) once the handler is in use, whether the ids are to
 * come from the index or from libbpf's parse, and using it again and again
 * is safe (libbpf 1.1.2 corrupts its heap when its last handler is
 * unregistered and another registered: ASan catches a regression here).
 * That the kernel loads and runs the program is what the kernel tests
 * check. */
#include <bpf/libbpf.h>
#include "testutil.h"
#include "tpbtf.h"
#include "sentinel.skel.h"

/* The type libbpf gives the fork program at open. */
static enum bpf_prog_type fork_prog_type(void)
{
	size_t sz;
	const void *elf = sentinel_bpf__elf_bytes(&sz);
	struct bpf_object *obj = bpf_object__open_mem(elf, sz, NULL);
	struct bpf_program *p;
	enum bpf_prog_type t;

	assert_non_null(obj);
	p = bpf_object__find_program_by_name(obj, "rtp_sched_process_fork");
	assert_non_null(p);
	assert_string_equal(bpf_program__section_name(p), "tp_btf/sched_process_fork");
	t = bpf_program__type(p);
	bpf_object__close(obj);
	return t;
}

static void test_tp_btf_programs_open_as_raw_tp(void **state)
{
	struct corebtf_kernel none = { 0 };

	(void)state;
	/* without the handler, libbpf's own: a tracing program */
	assert_int_equal(fork_prog_type(), BPF_PROG_TYPE_TRACING);
	for (int i = 0; i < 50; i++) {
		assert_int_equal(tpbtf_use(i % 2 ? &none : NULL), 0);
		assert_int_equal(fork_prog_type(), BPF_PROG_TYPE_RAW_TRACEPOINT);
		assert_int_equal(tpbtf_indexed(), 0); /* nothing loaded */
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tp_btf_programs_open_as_raw_tp),
	};

	libbpf_set_print(NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
