/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Syscalls through the 32-bit ABI (int $0x80, 32-bit programs): the i386
 * numbers of the calls agent-sentinel traces, each as the x86_64 call it is
 * (user/compat.c, one row each), and the programs of bpf/compat.bpf.c that
 * turn them into the same events as the native calls.
 */
#ifndef AS_COMPAT_H
#define AS_COMPAT_H

#include <stddef.h>
#include <stdint.h>
#include "abi.h"

/* The dispatcher's tables: spec by i386 number, sock by socketcall call.
 * Returns the rows written (0 where there is no 32-bit ABI to trace). */
unsigned compat_fill(struct as_compat_spec spec[AS_COMPAT_NR_MAX],
		     struct as_compat_spec sock[AS_COMPAT_SOCKCALL_MAX]);
/* The tail-call slot (enum as_compat_family) of a traced syscall (enum
 * as_syscall), AS_CFAM_NONE for one the 32-bit path does not serve. */
unsigned compat_family(unsigned sc);
/* The i386 syscall of the row that maps to sc, for tests (-1: none). */
int compat_i386_nr(unsigned sc);

#endif /* AS_COMPAT_H */
