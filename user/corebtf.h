/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef AS_COREBTF_H
#define AS_COREBTF_H

#include <stddef.h>
#include <stdint.h>

/* The kernel's BTF, indexed by type id (raw bytes not copied: they must
 * outlive it). */
struct corebtf_kernel {
	const void *raw;
	const char *strs;
	uint32_t str_len;
	uint32_t n; /* type ids 1..n-1 */
	uint32_t *off; /* byte offset of each type in raw */
};

/* 0, or -EPROTO for a malformed BTF, -ENOMEM. */
int corebtf_open(struct corebtf_kernel *k, const void *raw, size_t size);
void corebtf_close(struct corebtf_kernel *k);
/* A type looked for by name and kind (BTF_KIND_*); id 0: none. */
struct corebtf_want {
	const char *name;
	uint32_t kind;
	uint32_t id;
};

/* Each want's id, the first of its name and kind, in one pass. */
void corebtf_find(const struct corebtf_kernel *k, struct corebtf_want *w, unsigned n);
/* The id of the struct of that name, 0 if there is none. */
uint32_t corebtf_struct_id(const struct corebtf_kernel *k, const char *name);
/* Make the kernel's BTF trimmed for the CO-RE relocations of the BPF object
 * elf (the roots' types and what they hold by value, renumbered). Returns
 * an fd (memfd) whose /proc/self/fd path is written to path, for
 * btf_custom_path; close it once the object is loaded. Returns -errno where
 * libbpf's own search must be used instead (a malformed object, a root
 * perhaps in a module). */
int corebtf_make(const struct corebtf_kernel *k, const void *elf, size_t elf_sz, char *path,
		 size_t path_sz);

#endif /* AS_COREBTF_H */
