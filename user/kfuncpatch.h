/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef AS_KFUNCPATCH_H
#define AS_KFUNCPATCH_H

#include <stddef.h>
#include <stdint.h>
#include "abi.h"

/* The name of kfunc i of AS_KFUNC_LIST (bpf/events.h). */
const char *kfuncpatch_name(unsigned i);
/* A copy of the BPF object elf in which every marked helper call
 * (AS_KFUNC_MARK + i) calls kfunc i by its id in the kernel's BTF, ids[i],
 * or, where ids[i] is 0, is "r0 = r1" instead. The number rewritten goes to
 * *count. NULL with errno EPROTO (not an ELF object, a section outside it,
 * a marker past AS_KF_MAX) or ENOMEM; free() the copy once no bpf_object
 * opened from it is still to be loaded. */
void *kfuncpatch_elf(const void *elf, size_t elf_sz, const uint32_t ids[AS_KF_MAX],
		     unsigned *count);

#endif /* AS_KFUNCPATCH_H */
