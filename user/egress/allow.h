/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The allowlist of agent-egress: which host:port a request may name, and
 * which resolved addresses it may reach. Entries are "HOST[:PORT]" (exact,
 * case-insensitive), "*.SUFFIX[:PORT]" (any name ending in .SUFFIX, not
 * SUFFIX itself) and address ranges "ADDR[/PREFIX][:PORT]" (IPv6 in brackets
 * when a port follows). The port defaults to 443.
 *
 * Names must be allowed by a name entry. Addresses in the special ranges
 * (loopback, private, link-local, metadata, ...) and IP literals are refused
 * unless a range entry with that port contains them.
 */
#ifndef AS_EGRESS_ALLOW_H
#define AS_EGRESS_ALLOW_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define EGRESS_HOST_MAX 253 /* longest DNS name (RFC 1035 2.3.4, without the root dot) */
#define EGRESS_PORT_DEFAULT 443 /* an entry without :PORT is for HTTPS */
#define EGRESS_ENTRY_TEXT_MAX (EGRESS_HOST_MAX + 16) /* "[" name-or-range "]:" port */

enum egress_allow_kind {
	EGRESS_ALLOW_EXACT,
	EGRESS_ALLOW_SUFFIX, /* "*.example.org": name holds ".example.org" */
	EGRESS_ALLOW_RANGE,
};

struct egress_allow_entry {
	enum egress_allow_kind kind;
	uint16_t port;
	uint8_t prefix; /* bits of addr, 0..128 (IPv4 as ::ffff:a.b.c.d, prefix + 96) */
	uint8_t addr[16];
	char name[EGRESS_HOST_MAX + 2];
	char text[EGRESS_ENTRY_TEXT_MAX + 1]; /* as written, for reasons in alerts */
};

struct egress_allowlist {
	struct egress_allow_entry *v;
	size_t n, cap;
};

/* Parse one entry and append it. 0, or -EINVAL with the reason in err. */
int egress_allow_add(struct egress_allowlist *l, const char *text, char *err, size_t errsz);
void egress_allow_free(struct egress_allowlist *l);

/* A host as a request names it: 1 and addr set when it is an IP literal. */
int egress_allow_literal(const char *host, uint8_t addr[16]);
/* The name entry allowing host:port, or NULL. */
const struct egress_allow_entry *egress_allow_name(const struct egress_allowlist *l,
						   const char *host, uint16_t port);
/* The range entry containing addr with that port, or NULL. */
const struct egress_allow_entry *egress_allow_range(const struct egress_allowlist *l,
						    const uint8_t addr[16], uint16_t port);
/* The special range addr lies in ("loopback", "private", "metadata", ...), or NULL. */
const char *egress_allow_special(const uint8_t addr[16]);

/* sockaddr <-> the 16-byte form (IPv4 mapped); text for alerts. */
void egress_addr_from_sa(const struct sockaddr *sa, uint8_t addr[16]);
void egress_addr_format(const uint8_t addr[16], char *buf, size_t cap);

#endif /* AS_EGRESS_ALLOW_H */
