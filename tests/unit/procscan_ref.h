/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The uncached procscan (tests/unit/procscan_ref.c), the seed's reference. */
#ifndef AS_PROCSCAN_REF_H
#define AS_PROCSCAN_REF_H

#include "procscan.h"

long ref_procscan_one(const char *proc_root, uint32_t pid, uint64_t ts, void *buf, size_t cap);
void ref_procscan_lineage(const char *proc_root, uint32_t pid, struct as_lineage *l);
int ref_procscan_all(const char *proc_root, procscan_cb cb, void *ctx);

#endif /* AS_PROCSCAN_REF_H */
