// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Allowlist entries: parsing, matching names and addresses, the special ranges. */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "allow.h"

/* Growth step of the entry array. */
#define EGRESS_ALLOW_CHUNK 16

/*
 * Addresses a name must not resolve to unless a range entry names them:
 * RFC 6890 special-purpose ranges an agent has no business reaching, and
 * the cloud metadata endpoints (listed first: the first match names the reason).
 */
static const struct {
	const char *cidr, *what;
} egress_special[] = {
	{ "169.254.169.254/32", "metadata" }, /* AWS, GCP, Azure, OpenStack IMDS */
	{ "100.100.100.200/32", "metadata" }, /* Alibaba Cloud */
	{ "fd00:ec2::254/128", "metadata" }, /* AWS IMDS over IPv6 */
	{ "0.0.0.0/8", "unspecified" },
	{ "10.0.0.0/8", "private" },
	{ "100.64.0.0/10", "shared (CGNAT)" },
	{ "127.0.0.0/8", "loopback" },
	{ "169.254.0.0/16", "link-local" },
	{ "172.16.0.0/12", "private" },
	{ "192.0.0.0/24", "IETF protocol assignments" },
	{ "192.168.0.0/16", "private" },
	{ "198.18.0.0/15", "benchmarking" },
	{ "224.0.0.0/4", "multicast" },
	{ "240.0.0.0/4", "reserved" },
	{ "::/128", "unspecified" },
	{ "::1/128", "loopback" },
	{ "64:ff9b:1::/48", "private (NAT64)" },
	{ "fc00::/7", "private" },
	{ "fe80::/10", "link-local" },
	{ "ff00::/8", "multicast" },
};

static const uint8_t egress_v4_mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

int egress_allow_literal(const char *host, uint8_t addr[16])
{
	struct in_addr a4;

	if (inet_pton(AF_INET6, host, addr) == 1)
		return 1;
	if (inet_pton(AF_INET, host, &a4) != 1)
		return 0;
	memcpy(addr, egress_v4_mapped, 12);
	memcpy(addr + 12, &a4, 4);
	return 1;
}

/* "ADDR" or "ADDR/PREFIX" into addr and prefix (IPv4 mapped). 0 or -EINVAL. */
static int egress_allow_cidr(const char *s, uint8_t addr[16], uint8_t *prefix)
{
	char buf[INET6_ADDRSTRLEN + 8], *slash, *end;
	unsigned long bits;
	int v4;

	if (snprintf(buf, sizeof(buf), "%s", s) >= (int)sizeof(buf))
		return -EINVAL;
	slash = strchr(buf, '/');
	if (slash)
		*slash++ = 0;
	if (!egress_allow_literal(buf, addr))
		return -EINVAL;
	v4 = memcmp(addr, egress_v4_mapped, 12) == 0 && !strchr(buf, ':');
	bits = v4 ? 32 : 128;
	if (slash) {
		errno = 0;
		bits = strtoul(slash, &end, 10);
		if (!*slash || *end || errno || bits > (v4 ? 32u : 128u))
			return -EINVAL;
	}
	*prefix = (uint8_t)(v4 ? bits + 96 : bits);
	return 0;
}

static int egress_prefix_match(const uint8_t *a, const uint8_t *net, unsigned bits)
{
	unsigned whole = bits / 8, rest = bits % 8;

	if (memcmp(a, net, whole))
		return 0;
	return !rest || ((a[whole] ^ net[whole]) & (0xff00 >> rest) & 0xff) == 0;
}

/* A DNS name: letters, digits, '-', '_' and dots, no empty label. */
static int egress_valid_name(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > EGRESS_HOST_MAX || s[0] == '.' || s[n - 1] == '.' || strstr(s, ".."))
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '-' && *s != '.' && *s != '_')
			return 0;
	return 1;
}

static int egress_parse_port(const char *s, uint16_t *port)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (!isdigit((unsigned char)*s) || *end || errno || v == 0 || v > 65535)
		return -EINVAL;
	*port = (uint16_t)v;
	return 0;
}

static int egress_allow_parse(struct egress_allow_entry *e, const char *text, char *err,
			      size_t errsz)
{
	char host[EGRESS_ENTRY_TEXT_MAX + 1], *port = NULL, *colon;

	memset(e, 0, sizeof(*e));
	e->port = EGRESS_PORT_DEFAULT;
	if (!*text || snprintf(host, sizeof(host), "%s", text) >= (int)sizeof(host)) {
		snprintf(err, errsz, "%s", *text ? "too long" : "empty entry");
		return -EINVAL;
	}
	snprintf(e->text, sizeof(e->text), "%s", text);
	if (host[0] == '[') {
		char *close = strchr(host, ']');

		if (!close || (close[1] && close[1] != ':')) {
			snprintf(err, errsz, "unbalanced [ ] around an IPv6 address");
			return -EINVAL;
		}
		*close = 0;
		memmove(host, host + 1, strlen(host + 1) + 1);
		if (close[1] == ':')
			port = close + 2; /* after "]:", left where it was */
	} else if ((colon = strrchr(host, ':')) && colon == strchr(host, ':')) {
		*colon = 0; /* one colon: HOST:PORT; more: an IPv6 address without port */
		port = colon + 1;
	}
	if (port && egress_parse_port(port, &e->port)) {
		snprintf(err, errsz, "port \"%s\" is not 1-65535", port);
		return -EINVAL;
	}
	if (egress_allow_cidr(host, e->addr, &e->prefix) == 0) {
		e->kind = EGRESS_ALLOW_RANGE;
		return 0;
	}
	if (strchr(host, '/') || strchr(host, ':')) {
		snprintf(err, errsz, "\"%s\" is not an address range", host);
		return -EINVAL;
	}
	if (strncmp(host, "*.", 2) == 0) {
		e->kind = EGRESS_ALLOW_SUFFIX;
		if (!egress_valid_name(host + 2)) {
			snprintf(err, errsz, "\"%s\" is not a host name", host + 2);
			return -EINVAL;
		}
		memcpy(e->name, host + 1, strlen(host + 1) + 1); /* <= EGRESS_HOST_MAX + 1 */
		return 0;
	}
	if (!egress_valid_name(host)) {
		snprintf(err, errsz, "\"%s\" is not a host name (wildcards only as \"*.suffix\")",
			 host);
		return -EINVAL;
	}
	e->kind = EGRESS_ALLOW_EXACT;
	memcpy(e->name, host, strlen(host) + 1); /* egress_valid_name: <= EGRESS_HOST_MAX */
	return 0;
}

int egress_allow_add(struct egress_allowlist *l, const char *text, char *err, size_t errsz)
{
	struct egress_allow_entry e;

	if (egress_allow_parse(&e, text, err, errsz))
		return -EINVAL;
	if (l->n == l->cap) {
		size_t cap = l->cap + EGRESS_ALLOW_CHUNK;
		struct egress_allow_entry *v = realloc(l->v, cap * sizeof(*v));

		if (!v) {
			snprintf(err, errsz, "out of memory");
			return -ENOMEM;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = e;
	return 0;
}

void egress_allow_free(struct egress_allowlist *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

const struct egress_allow_entry *egress_allow_name(const struct egress_allowlist *l,
						   const char *host, uint16_t port)
{
	size_t n = strlen(host);

	if (n && host[n - 1] == '.')
		n--; /* "example.org." is example.org */
	for (size_t i = 0; i < l->n; i++) {
		const struct egress_allow_entry *e = &l->v[i];
		size_t m = strlen(e->name);

		if (e->port != port)
			continue;
		if (e->kind == EGRESS_ALLOW_EXACT && m == n && strncasecmp(host, e->name, n) == 0)
			return e;
		if (e->kind == EGRESS_ALLOW_SUFFIX && n > m &&
		    strncasecmp(host + n - m, e->name, m) == 0)
			return e;
	}
	return NULL;
}

const struct egress_allow_entry *egress_allow_range(const struct egress_allowlist *l,
						    const uint8_t addr[16], uint16_t port)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct egress_allow_entry *e = &l->v[i];

		if (e->kind == EGRESS_ALLOW_RANGE && e->port == port &&
		    egress_prefix_match(addr, e->addr, e->prefix))
			return e;
	}
	return NULL;
}

const char *egress_allow_special(const uint8_t addr[16])
{
	for (size_t i = 0; i < sizeof(egress_special) / sizeof(egress_special[0]); i++) {
		uint8_t net[16], prefix;

		/* the table is constant and parses: checked by the tests' every range */
		if (egress_allow_cidr(egress_special[i].cidr, net, &prefix) == 0 &&
		    egress_prefix_match(addr, net, prefix))
			return egress_special[i].what;
	}
	return NULL;
}

void egress_addr_from_sa(const struct sockaddr *sa, uint8_t addr[16])
{
	if (sa->sa_family == AF_INET6) {
		memcpy(addr, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
		return;
	}
	memcpy(addr, egress_v4_mapped, 12);
	memcpy(addr + 12, &((const struct sockaddr_in *)sa)->sin_addr, 4);
}

void egress_addr_format(const uint8_t addr[16], char *buf, size_t cap)
{
	if (memcmp(addr, egress_v4_mapped, 12) == 0)
		inet_ntop(AF_INET, addr + 12, buf, (socklen_t)cap);
	else
		inet_ntop(AF_INET6, addr, buf, (socklen_t)cap);
}
