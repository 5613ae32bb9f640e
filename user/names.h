/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Names the outputs use: Falco's evt.type per syscall, errno names. */
#ifndef AS_NAMES_H
#define AS_NAMES_H

#include <stdint.h>

/* Falco's evt.type for an event ("execve", "openat", "procexit", ...). */
const char *names_evt_type(unsigned type, unsigned syscall);
/* Short name of an event type for counters and logs: "exec", "open", ... */
const char *names_event_kind(unsigned type);
/* Parse an evt.type name back to (type, syscall); -1 when unknown. */
int names_evt_type_parse(const char *name, unsigned *type, unsigned *syscall);
/* The event type (enum as_event_type) a syscall's events have; AS_EV_NONE
 * for AS_SC_NONE or out of range. */
unsigned names_syscall_type(unsigned syscall);
/* "SUCCESS" for res >= 0, else the errno name ("ENOENT"), or "E<n>" when unnamed. */
const char *names_res(int64_t res, char buf[16]);
/* Socket family name as Falco prints fd.sockfamily: "ip", "unix", or NULL. */
const char *names_sockfamily(unsigned family);
/* L4 protocol: "tcp", "udp", "icmp", "raw" or NULL. */
const char *names_l4proto(unsigned family, unsigned proto, unsigned sock_type);

/* Every event type the kernel sends (all but the userspace-only AS_EV_PROC). */
#define NAMES_EACH_KERNEL_TYPE(t) \
	for (unsigned t = AS_EV_EXEC; t < AS_EV_MAX; t += (t + 1 == AS_EV_PROC) ? 2 : 1)

#endif /* AS_NAMES_H */
