// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The programs call kernel functions (kfuncs) through marked helper calls,
 * rewritten here in a copy of the object before libbpf opens it: libbpf
 * resolves a kfunc extern by parsing the kernel's whole BTF (~25 ms, once
 * in each loading thread), while the loader already has the kernel's BTF
 * indexed (user/corebtf.c) and finds the id there. The instructions are
 * patched in place, one for one: no offset, relocation or line info moves.
 */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include "kfuncpatch.h"

static const char *const kfuncpatch_names[AS_KF_MAX] = {
#define KFUNCPATCH_NAME_ROW(name) [AS_KF_##name] = #name,
	AS_KFUNC_LIST(KFUNCPATCH_NAME_ROW)
#undef KFUNCPATCH_NAME_ROW
};

const char *kfuncpatch_name(unsigned i)
{
	return i < AS_KF_MAX ? kfuncpatch_names[i] : NULL;
}

/* Rewrite the marked calls among the n instructions at insn; -EPROTO for a
 * marker that names no kfunc. */
static int kfuncpatch_insns(struct bpf_insn *insn, size_t n, const uint32_t ids[AS_KF_MAX],
			    unsigned *count)
{
	for (size_t i = 0; i < n; i++, insn++) {
		int64_t k;

		if (insn->code != (BPF_JMP | BPF_CALL) || insn->src_reg || insn->dst_reg ||
		    insn->off || insn->imm < AS_KFUNC_MARK)
			continue;
		k = (int64_t)insn->imm - AS_KFUNC_MARK;
		if (k >= AS_KFUNC_MARK_SPAN)
			continue; /* an id no helper and no marker has: the verifier's to refuse */
		if (k >= AS_KF_MAX)
			return -EPROTO;
		if (ids[k]) {
			insn->src_reg = BPF_PSEUDO_KFUNC_CALL;
			insn->imm = (int32_t)ids[k];
		} else {
			/* the cast without the kfunc: the pointer as it was */
			insn->code = BPF_ALU64 | BPF_MOV | BPF_X;
			insn->dst_reg = BPF_REG_0;
			insn->src_reg = BPF_REG_1;
			insn->imm = 0;
		}
		(*count)++;
	}
	return 0;
}

void *kfuncpatch_elf(const void *elf, size_t elf_sz, const uint32_t ids[AS_KF_MAX],
		     unsigned *count)
{
	char *copy;
	Elf_Scn *scn = NULL;
	Elf *e;
	int err = 0;

	*count = 0;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		errno = EPROTO;
		return NULL;
	}
	copy = malloc(elf_sz ? elf_sz : 1);
	if (!copy) {
		errno = ENOMEM;
		return NULL;
	}
	memcpy(copy, elf, elf_sz);
	e = elf_memory(copy, elf_sz);
	if (!e || elf_kind(e) != ELF_K_ELF || gelf_getclass(e) != ELFCLASS64)
		err = -EPROTO;
	if (!err) {
		GElf_Ehdr eh;

		/* struct bpf_insn's register fields are little-endian BPF's */
		if (!gelf_getehdr(e, &eh) || eh.e_machine != EM_BPF ||
		    eh.e_ident[EI_DATA] != ELFDATA2LSB)
			err = -EPROTO;
	}
	while (!err && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh)) {
			err = -EPROTO;
			break;
		}
		if (sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_EXECINSTR))
			continue;
		if (sh.sh_offset > elf_sz || sh.sh_size > elf_sz - sh.sh_offset ||
		    sh.sh_size % sizeof(struct bpf_insn) || sh.sh_offset % sizeof(uint32_t)) {
			err = -EPROTO;
			break;
		}
		/* the bytes libelf reads its headers from are not these */
		err = kfuncpatch_insns((struct bpf_insn *)(copy + sh.sh_offset),
				       sh.sh_size / sizeof(struct bpf_insn), ids, count);
	}
	if (e)
		elf_end(e);
	if (err) {
		free(copy);
		errno = -err;
		return NULL;
	}
	return copy;
}
