/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Host names the loaded rules compare fd.sip.name (fd.cip.name, fd.rip.name,
 * fd.lip.name) with, resolved in the background as Falco's
 * sinsp_dns_manager does: the rule compiler registers each name it sees,
 * a thread resolves every registered name at start and again every
 * DNSRES_REFRESH_S seconds with the system's resolver (getaddrinfo: hosts
 * file, DNS, whatever nsswitch says), and the event path only reads the
 * last answers, never waits for one. An address's name is the first
 * registered name that resolved to it (Falco's name_of); an address no name
 * resolved to has none (<NA>). A name that does not resolve yet, or no
 * longer, matches nothing.
 */
#ifndef AS_DNSRES_H
#define AS_DNSRES_H

#include <stdint.h>

#define DNSRES_NAMES_MAX 1024 /* distinct names across the loaded rules (Falco's sandbox
				* rules name about 110 mining pools); ~560 bytes each, untouched until used */
#define DNSRES_NAME_MAX 253 /* a DNS name's longest text form (RFC 1035) */
#define DNSRES_ADDRS_MAX 16 /* addresses kept per name */
#define DNSRES_REFRESH_S 10 /* Falco's base refresh period */

/* Register a name (at rule load, before dnsres_start). Returns 0, or -1
 * with a reason in err when the table is full or the name is too long. */
int dnsres_want(const char *name, const char **err);
/* Start the resolver thread (nothing to do without names). 0 or -errno. */
int dnsres_start(void);
void dnsres_stop(void);
/* The first registered name an address (AF_INET: 4 bytes, AF_INET6: 16)
 * resolved to, or NULL. Lock-free; safe beside the resolver thread. */
const char *dnsres_name_of(int family, const uint8_t *addr);
/* Wait up to timeout_ms for every registered name's first answer (or
 * failure): a replay resolves before its first event, so that it does not
 * depend on how fast the resolver was. Returns 1 when all are in. */
int dnsres_settle(unsigned timeout_ms);

#endif /* AS_DNSRES_H */
