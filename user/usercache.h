/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* uid/gid to name, cached: NSS lookups are far too slow for the event path. */
#ifndef AS_USERCACHE_H
#define AS_USERCACHE_H

#include <stdint.h>

/* The user or group name, or NULL when it cannot be resolved (Falco: <NA>).
 * The returned string lives until usercache_reset(). */
const char *usercache_user(uint32_t uid);
const char *usercache_group(uint32_t gid);
void usercache_reset(void);

#endif /* AS_USERCACHE_H */
