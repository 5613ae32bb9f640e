/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef AS_TPBTF_H
#define AS_TPBTF_H

#include "corebtf.h"

/* tp_btf programs load with their attach ids from the loader's index of the
 * kernel's BTF instead of libbpf's parse of the whole BTF: libbpf takes
 * them for raw_tp programs until each is loaded, then each is made the
 * tp_btf program it is. tpbtf_use(k) before opening an object (k must
 * outlive its load; NULL: ids from libbpf's parse of the whole BTF, as
 * libbpf would); the handler stays registered for the process (libbpf 1.1
 * cannot unregister its last handler safely). 0 or -errno. */
int tpbtf_use(const struct corebtf_kernel *k);
/* Programs given an id from the index since the last tpbtf_use. */
unsigned tpbtf_indexed(void);

#endif /* AS_TPBTF_H */
