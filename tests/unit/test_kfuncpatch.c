// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* kfuncpatch: the marked helper calls of the real object become kfunc calls
 * (or "r0 = r1"), nothing else changes, libbpf opens the result, and
 * malformed objects are refused. That the kernel verifies and runs the calls
 * is what every kernel test checks. */
#include <gelf.h>
#include <libelf.h>
#include <linux/bpf.h>
#include <bpf/libbpf.h>
#include "testutil.h"
#include "kfuncpatch.h"
#include "sentinel.skel.h"

#define KFID 4242u /* a kfunc id to write: the test does not load */

/* Offsets of the marked calls, found by a byte search of the whole file
 * (independent of the section walk under test). */
static size_t marked_calls(const unsigned char *b, size_t sz, size_t *at, size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; i + sizeof(struct bpf_insn) <= sz; i += sizeof(uint32_t)) {
		struct bpf_insn in;

		memcpy(&in, b + i, sizeof(in));
		if (in.code == (BPF_JMP | BPF_CALL) && !in.src_reg && !in.dst_reg && !in.off &&
		    in.imm >= AS_KFUNC_MARK && in.imm < AS_KFUNC_MARK + AS_KF_MAX) {
			if (n < cap)
				at[n] = i;
			n++;
		}
	}
	return n;
}

static void test_marked_calls_become_kfunc_calls(void **state)
{
	size_t sz, at[256], n;
	const unsigned char *elf = sentinel_bpf__elf_bytes(&sz);
	uint32_t ids[AS_KF_MAX];
	unsigned count;
	unsigned char *p;

	(void)state;
	for (unsigned i = 0; i < AS_KF_MAX; i++)
		ids[i] = KFID + i;
	n = marked_calls(elf, sz, at, 256);
	assert_true(n > 0 && n <= 256);
	p = kfuncpatch_elf(elf, sz, ids, &count);
	assert_non_null(p);
	assert_int_equal(count, n);
	assert_int_equal(marked_calls(p, sz, NULL, 0), 0);
	for (size_t i = 0, j = 0; i < sz; i++) {
		if (j < n && i == at[j]) {
			struct bpf_insn a, b;

			memcpy(&a, elf + i, sizeof(a));
			memcpy(&b, p + i, sizeof(b));
			assert_int_equal(b.code, BPF_JMP | BPF_CALL);
			assert_int_equal(b.src_reg, BPF_PSEUDO_KFUNC_CALL);
			assert_int_equal(b.dst_reg, 0);
			assert_int_equal(b.off, 0);
			assert_int_equal((uint32_t)b.imm, KFID + (uint32_t)(a.imm - AS_KFUNC_MARK));
			i += sizeof(struct bpf_insn) - 1;
			j++;
			continue;
		}
		assert_int_equal(p[i], elf[i]); /* every other byte as it was */
	}
	free(p);
}

static void test_missing_kfunc_becomes_a_move(void **state)
{
	size_t sz, at[256], n;
	const unsigned char *elf = sentinel_bpf__elf_bytes(&sz);
	static const uint32_t none[AS_KF_MAX];
	unsigned count;
	unsigned char *p;

	(void)state;
	n = marked_calls(elf, sz, at, 256);
	p = kfuncpatch_elf(elf, sz, none, &count);
	assert_non_null(p);
	assert_int_equal(count, n);
	for (size_t j = 0; j < n; j++) {
		struct bpf_insn b;

		memcpy(&b, p + at[j], sizeof(b));
		assert_int_equal(b.code, BPF_ALU64 | BPF_MOV | BPF_X);
		assert_int_equal(b.dst_reg, BPF_REG_0);
		assert_int_equal(b.src_reg, BPF_REG_1);
		assert_int_equal(b.imm, 0);
	}
	free(p);
}

/* libbpf takes the patched object: the calls are not relocations, and it
 * sees the same programs. (The calls are in global functions, which libbpf
 * appends to the programs only when it loads them.) */
static void test_libbpf_opens_the_patched_object(void **state)
{
	size_t sz;
	const void *elf = sentinel_bpf__elf_bytes(&sz);
	uint32_t ids[AS_KF_MAX];
	unsigned count, progs[2] = { 0, 0 };
	struct bpf_object *obj[2];
	struct bpf_program *prog;
	void *p;

	(void)state;
	for (unsigned i = 0; i < AS_KF_MAX; i++)
		ids[i] = KFID + i;
	p = kfuncpatch_elf(elf, sz, ids, &count);
	assert_non_null(p);
	obj[0] = bpf_object__open_mem(elf, sz, NULL);
	obj[1] = bpf_object__open_mem(p, sz, NULL);
	for (int i = 0; i < 2; i++) {
		assert_non_null(obj[i]);
		bpf_object__for_each_program(prog, obj[i])
			progs[i]++;
		bpf_object__close(obj[i]);
	}
	assert_true(progs[0] > 0);
	assert_int_equal(progs[1], progs[0]);
	free(p);
}

/* The offset of the section header of the first executable section. */
static size_t first_text_shdr(const unsigned char *b)
{
	Elf64_Ehdr eh;

	memcpy(&eh, b, sizeof(eh));
	for (unsigned i = 1; i < eh.e_shnum; i++) {
		size_t off = eh.e_shoff + (size_t)i * eh.e_shentsize;
		Elf64_Shdr sh;

		memcpy(&sh, b + off, sizeof(sh));
		if (sh.sh_type == SHT_PROGBITS && (sh.sh_flags & SHF_EXECINSTR))
			return off;
	}
	fail_msg("no executable section");
	return 0;
}

static void test_malformed_objects_refused(void **state)
{
	size_t sz, at[256];
	const unsigned char *elf = sentinel_bpf__elf_bytes(&sz);
	static const uint32_t none[AS_KF_MAX];
	unsigned count;
	unsigned char *bad = malloc(sz);
	Elf64_Shdr sh;
	size_t sho;
	struct bpf_insn in;

	(void)state;
	assert_non_null(bad);
	/* not an ELF object */
	memset(bad, 0x5a, sz);
	errno = 0;
	assert_null(kfuncpatch_elf(bad, sz, none, &count));
	assert_int_equal(errno, EPROTO);
	assert_null(kfuncpatch_elf(elf, 16, none, &count)); /* cut short */
	assert_int_equal(errno, EPROTO);
	/* a section past the end of the file */
	memcpy(bad, elf, sz);
	sho = first_text_shdr(bad);
	memcpy(&sh, bad + sho, sizeof(sh));
	sh.sh_offset = sz - 8;
	sh.sh_size = 64;
	memcpy(bad + sho, &sh, sizeof(sh));
	assert_null(kfuncpatch_elf(bad, sz, none, &count));
	assert_int_equal(errno, EPROTO);
	/* a section not aligned as instructions are, or not whole ones */
	for (int k = 0; k < 2; k++) {
		memcpy(bad, elf, sz);
		memcpy(&sh, bad + sho, sizeof(sh));
		if (k == 0)
			sh.sh_offset += 2;
		else
			sh.sh_size -= 4;
		memcpy(bad + sho, &sh, sizeof(sh));
		assert_null(kfuncpatch_elf(bad, sz, none, &count));
		assert_int_equal(errno, EPROTO);
	}
	/* not a 64-bit object, not a BPF one, not little-endian */
	for (int k = 0; k < 3; k++) {
		Elf64_Ehdr eh;

		memcpy(bad, elf, sz);
		memcpy(&eh, bad, sizeof(eh));
		if (k == 0)
			eh.e_ident[EI_CLASS] = ELFCLASS32;
		else if (k == 1)
			eh.e_machine = EM_X86_64;
		else
			eh.e_ident[EI_DATA] = ELFDATA2MSB;
		memcpy(bad, &eh, sizeof(eh));
		assert_null(kfuncpatch_elf(bad, sz, none, &count));
		assert_int_equal(errno, EPROTO);
	}
	/* a marker that names no kfunc */
	memcpy(bad, elf, sz);
	assert_true(marked_calls(bad, sz, at, 256) > 0);
	memcpy(&in, bad + at[0], sizeof(in));
	in.imm = AS_KFUNC_MARK + AS_KF_MAX;
	memcpy(bad + at[0], &in, sizeof(in));
	assert_null(kfuncpatch_elf(bad, sz, none, &count));
	assert_int_equal(errno, EPROTO);
	/* an id past the markers' span is no marker: left for the verifier */
	in.imm = AS_KFUNC_MARK + AS_KFUNC_MARK_SPAN;
	memcpy(bad + at[0], &in, sizeof(in));
	{
		size_t n = marked_calls(elf, sz, NULL, 0);
		unsigned char *p = kfuncpatch_elf(bad, sz, none, &count);

		assert_non_null(p);
		assert_int_equal(count, n - 1);
		assert_memory_equal(p + at[0], bad + at[0], sizeof(in));
		free(p);
	}
	free(bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_marked_calls_become_kfunc_calls),
		cmocka_unit_test(test_missing_kfunc_becomes_a_move),
		cmocka_unit_test(test_libbpf_opens_the_patched_object),
		cmocka_unit_test(test_malformed_objects_refused),
	};

	libbpf_set_print(NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
