/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* systemd's sd_notify protocol, without libsystemd: one datagram to $NOTIFY_SOCKET. */
#ifndef AS_NOTIFY_H
#define AS_NOTIFY_H

#include <stdint.h>

/* Send state ("READY=1", "STOPPING=1", ...); 0 when sent or when not under
 * systemd, -errno when $NOTIFY_SOCKET is set but unusable. */
int notify_send(const char *state);
/* systemd's watchdog interval ($WATCHDOG_USEC, when $WATCHDOG_PID is unset
 * or ours) in ns; 0: no watchdog. "WATCHDOG=1" is due at least this often
 * (we send it twice as often). */
uint64_t notify_watchdog_ns(void);

#endif /* AS_NOTIFY_H */
