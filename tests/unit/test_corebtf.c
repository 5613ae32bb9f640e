// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* corebtf: the trimmed copy of the running kernel's BTF that libbpf
 * relocates against (the same relocations either way are checked end to
 * end by tests/e2e/test_paths.py), and malformed BTF refused. */
#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <bpf/btf.h>
#include "testutil.h"
#include "corebtf.h"
#include "sentinel.skel.h"

struct kernel {
	void *raw;
	size_t size;
	struct btf *whole; /* libbpf's parse, the reference */
};

static int setup(void **state)
{
	static struct kernel k;
	struct stat st;
	int fd = open("/sys/kernel/btf/vmlinux", O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	k.size = (size_t)st.st_size;
	k.raw = malloc(k.size);
	assert_non_null(k.raw);
	for (size_t got = 0; got < k.size;) {
		ssize_t n = read(fd, (char *)k.raw + got, k.size - got);

		assert_true(n > 0);
		got += (size_t)n;
	}
	close(fd);
	k.whole = btf__new(k.raw, (uint32_t)k.size);
	assert_non_null(k.whole);
	*state = &k;
	return 0;
}

static int teardown(void **state)
{
	struct kernel *k = *state;

	btf__free(k->whole);
	free(k->raw);
	return 0;
}

/* Struct ids are the kernel's own: what the typed reads cast to. */
static void test_struct_ids_are_the_kernels(void **state)
{
	struct kernel *k = *state;
	struct corebtf_kernel kb;
	const char *names[] = { "task_struct", "file", "dentry", "kiocb", "mount", "vfsmount" };

	assert_int_equal(corebtf_open(&kb, k->raw, k->size), 0);
	assert_int_equal(kb.n, btf__type_cnt(k->whole));
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int want = btf__find_by_name_kind(k->whole, names[i], BTF_KIND_STRUCT);

		assert_true(want > 0);
		assert_int_equal(corebtf_struct_id(&kb, names[i]), (uint32_t)want);
	}
	assert_int_equal(corebtf_struct_id(&kb, "no_such_struct_here"), 0);
	corebtf_close(&kb);
}

/* One pass finds names of any kind, the first of each (name, kind). */
static void test_find_takes_names_of_any_kind_in_one_pass(void **state)
{
	struct kernel *k = *state;
	struct corebtf_kernel kb;
	struct corebtf_want w[] = {
		{ .name = "bpf_rdonly_cast", .kind = BTF_KIND_FUNC },
		{ .name = "task_struct", .kind = BTF_KIND_STRUCT },
		{ .name = "task_struct", .kind = BTF_KIND_FUNC }, /* no such function */
		{ .name = "pid_type", .kind = BTF_KIND_ENUM },
		{ .name = "btf_trace_sched_process_fork", .kind = BTF_KIND_TYPEDEF },
		{ .name = "task_struct", .kind = BTF_KIND_STRUCT }, /* asked twice */
		{ .name = "no_such_type_here", .kind = BTF_KIND_STRUCT },
	};

	assert_int_equal(corebtf_open(&kb, k->raw, k->size), 0);
	corebtf_find(&kb, w, sizeof(w) / sizeof(w[0]));
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		int want = btf__find_by_name_kind(k->whole, w[i].name, w[i].kind);

		assert_int_equal(w[i].id, want > 0 ? (uint32_t)want : 0);
	}
	assert_true(w[0].id > 0 && w[1].id > 0 && w[3].id > 0 && w[4].id > 0);
	assert_int_equal(w[5].id, w[1].id);
	corebtf_close(&kb);
}

/* The copy: a small valid BTF in which each root struct has the kernel's
 * layout, member for member, and every type id is in range. */
static void test_trimmed_copy_keeps_the_roots_layout(void **state)
{
	struct kernel *k = *state;
	struct corebtf_kernel kb;
	size_t elf_sz;
	const void *elf = sentinel_bpf__elf_bytes(&elf_sz);
	char path[32];
	struct btf *min;
	int fd;

	assert_int_equal(corebtf_open(&kb, k->raw, k->size), 0);
	fd = corebtf_make(&kb, elf, elf_sz, path, sizeof(path));
	assert_true(fd >= 0);
	min = btf__parse(path, NULL);
	assert_non_null(min);
	assert_true(btf__type_cnt(min) * 10 < btf__type_cnt(k->whole));
	for (uint32_t id = 1; id < btf__type_cnt(min); id++) {
		const struct btf_type *t = btf__type_by_id(min, id);

		assert_non_null(t);
		if (btf_is_ptr(t) || btf_is_typedef(t) || btf_is_mod(t))
			assert_true(t->type < btf__type_cnt(min));
	}
	const char *roots[] = { "task_struct", "file", "mm_struct", "fs_struct", "sock_common",
				"io_kiocb", "cred", "inode", "io_ring_ctx", "mount" };
	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		int a = btf__find_by_name_kind(k->whole, roots[i], BTF_KIND_STRUCT);
		int b = btf__find_by_name_kind(min, roots[i], BTF_KIND_STRUCT);
		const struct btf_type *ta, *tb;

		assert_true(a > 0);
		if (b <= 0)
			fail_msg("root %s missing from the trimmed BTF", roots[i]);
		ta = btf__type_by_id(k->whole, (uint32_t)a);
		tb = btf__type_by_id(min, (uint32_t)b);
		assert_int_equal(ta->size, tb->size);
		assert_int_equal(btf_vlen(ta), btf_vlen(tb));
		for (unsigned m = 0; m < btf_vlen(ta); m++) {
			assert_string_equal(btf__name_by_offset(k->whole, btf_members(ta)[m].name_off),
					    btf__name_by_offset(min, btf_members(tb)[m].name_off));
			assert_int_equal(btf_member_bit_offset(ta, m), btf_member_bit_offset(tb, m));
			assert_int_equal(btf__resolve_size(k->whole, btf_members(ta)[m].type),
					 btf__resolve_size(min, btf_members(tb)[m].type));
		}
	}
	btf__free(min);
	close(fd);
	corebtf_close(&kb);
}

/* A malformed image is refused as a whole, not read past its end. */
static void test_malformed_btf_refused(void **state)
{
	struct kernel *k = *state;
	struct corebtf_kernel kb;
	struct btf_header h;
	uint8_t *copy = malloc(k->size);

	assert_non_null(copy);
	memcpy(&h, k->raw, sizeof(h));
	assert_int_equal(corebtf_open(&kb, k->raw, sizeof(h) - 1), -EPROTO);
	assert_int_equal(corebtf_open(&kb, k->raw, k->size - 1), -EPROTO); /* strings cut */
	memcpy(copy, k->raw, k->size);
	copy[0] ^= 0xff; /* magic */
	assert_int_equal(corebtf_open(&kb, copy, k->size), -EPROTO);
	memcpy(copy, k->raw, k->size);
	/* the first type's kind set to one BTF does not define */
	struct btf_type *t = (struct btf_type *)(copy + h.hdr_len + h.type_off);
	t->info = (t->info & ~(0x1fu << 24)) | (31u << 24);
	assert_int_equal(corebtf_open(&kb, copy, k->size), -EPROTO);
	memcpy(copy, k->raw, k->size);
	memcpy(copy, k->raw, k->size);
	((struct btf_header *)copy)->type_off = 2; /* types are 4-byte words */
	assert_int_equal(corebtf_open(&kb, copy, k->size), -EPROTO);
	memcpy(copy, k->raw, k->size);
	/* a struct whose members run past the type section */
	((struct btf_header *)copy)->type_len = 20;
	assert_int_equal(corebtf_open(&kb, copy, k->size), -EPROTO);
	free(copy);
	/* an object that is not ELF: no copy, libbpf's own search then */
	assert_int_equal(corebtf_open(&kb, k->raw, k->size), 0);
	char path[32], junk[256] = "not an ELF object";
	assert_true(corebtf_make(&kb, junk, sizeof(junk), path, sizeof(path)) < 0);
	corebtf_close(&kb);
}

/* The section header of name in a copy of an ELF64 object, or NULL. */
static Elf64_Shdr *elf_section(uint8_t *elf, const char *name)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)elf;
	Elf64_Shdr *sh = (Elf64_Shdr *)(elf + eh->e_shoff);
	const char *names = (const char *)elf + sh[eh->e_shstrndx].sh_offset;

	for (unsigned i = 0; i < eh->e_shnum; i++)
		if (!strcmp(names + sh[i].sh_name, name))
			return &sh[i];
	return NULL;
}

static uint8_t *object_copy(size_t *sz)
{
	const void *elf = sentinel_bpf__elf_bytes(sz);
	uint8_t *copy = malloc(*sz);

	assert_non_null(copy);
	memcpy(copy, elf, *sz);
	return copy;
}

/* Objects the copy cannot serve are refused, never read past their end:
 * a .BTF.ext without bytes (NOBITS), a bad magic, a relocation whose
 * answer would differ against a renumbered copy (a kernel type id). */
static void test_objects_it_cannot_serve(void **state)
{
	struct kernel *k = *state;
	struct corebtf_kernel kb;
	char path[32];
	size_t sz;
	uint8_t *o;
	Elf64_Shdr *ext;
	uint32_t hdr_len, core_off;

	assert_int_equal(corebtf_open(&kb, k->raw, k->size), 0);
	o = object_copy(&sz);
	ext = elf_section(o, ".BTF.ext");
	assert_non_null(ext);
	ext->sh_type = SHT_NOBITS;
	assert_true(corebtf_make(&kb, o, sz, path, sizeof(path)) < 0);
	free(o);

	o = object_copy(&sz);
	ext = elf_section(o, ".BTF.ext");
	o[ext->sh_offset] ^= 0xff; /* .BTF.ext magic */
	assert_true(corebtf_make(&kb, o, sz, path, sizeof(path)) < 0);
	free(o);

	o = object_copy(&sz);
	ext = elf_section(o, ".BTF.ext");
	memcpy(&hdr_len, o + ext->sh_offset + 4, 4);
	memcpy(&core_off, o + ext->sh_offset + 24, 4);
	/* the first record of the first section: rec_size, sec_name_off, num,
	 * then insn_off, type_id, access_str_off, kind */
	uint32_t kind = 7; /* BPF_CORE_TYPE_ID_TARGET */
	memcpy(o + ext->sh_offset + hdr_len + core_off + 4 + 8 + 12, &kind, 4);
	assert_int_equal(corebtf_make(&kb, o, sz, path, sizeof(path)), -ENOTSUP);
	free(o);
	corebtf_close(&kb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_struct_ids_are_the_kernels),
		cmocka_unit_test(test_find_takes_names_of_any_kind_in_one_pass),
		cmocka_unit_test(test_trimmed_copy_keeps_the_roots_layout),
		cmocka_unit_test(test_malformed_btf_refused),
		cmocka_unit_test(test_objects_it_cannot_serve),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
