/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Between corebtf.c (the trimmed kernel BTF) and corebtf_roots.c (the
 * object's root type names). */
#ifndef AS_COREBTF_INT_H
#define AS_COREBTF_INT_H

#include <stddef.h>
#include <stdint.h>

struct btf;

/* Distinct root names (the object has ~60); more: no copy, libbpf's search. */
#define COREBTF_MAX_ROOTS 256
#define COREBTF_HASH_SLOTS 1024 /* open addressing, a power of two > 2 * roots */

struct corebtf_roots {
	const char *name[COREBTF_MAX_ROOTS];
	size_t len[COREBTF_MAX_ROOTS];
	uint8_t found[COREBTF_MAX_ROOTS];
	int16_t slot[COREBTF_HASH_SLOTS]; /* index + 1, 0 = empty */
	unsigned n;
};

/* libbpf's bpf_core_essential_name_len(): the name without a "___flavor". */
size_t corebtf_essential_len(const char *s, size_t n);
/* The index of root name s (n bytes, flavor dropped), or -1. */
int corebtf_root_find(const struct corebtf_roots *r, const char *s, size_t n);
/* The root names of elf's CO-RE relocations into r; *local is the object's
 * BTF, which the names point into (btf__free it after). 0, -EPROTO for a
 * malformed object, -ENOTSUP for a relocation the copy cannot answer. */
int corebtf_object_roots(const void *elf, size_t elf_sz, struct corebtf_roots *r,
			 struct btf **local);

#endif /* AS_COREBTF_INT_H */
