/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef AS_TPBTF_H
#define AS_TPBTF_H

#include "corebtf.h"

/* While registered (from before the object is opened until it is loaded),
 * tp_btf programs load with their attach ids found in k, the loader's index
 * of the kernel's BTF, instead of libbpf's parse of the whole BTF: libbpf
 * takes them for raw_tp programs until each is loaded, then makes each a
 * tp_btf one. Returns a handle for tpbtf_unregister, or -errno (then
 * libbpf does it its own way). k must outlive the load. */
int tpbtf_register(const struct corebtf_kernel *k);
void tpbtf_unregister(int handle);

#endif /* AS_TPBTF_H */
