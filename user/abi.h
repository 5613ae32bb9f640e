/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Userspace view of bpf/events.h: the fixed-width kernel types it is written in. */
#ifndef AS_ABI_H
#define AS_ABI_H

#include <linux/types.h>
#include "events.h"

#endif /* AS_ABI_H */
