// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The configuration's values: each key type's parser and its error (one
 * line, at the key), and formatting a value back (config_format).
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <syslog.h>
#include "config_int.h"
#include "rules/engine.h"
#include "outputs/outputs.h"

/* Prometheus duration units, largest first, as Falco's parse_prometheus_interval. */
static const struct {
	const char *unit;
	uint64_t ms;
} config_units[] = {
    {"y", 365ull * 24 * 3600 * 1000},
    {"w", 7ull * 24 * 3600 * 1000},
    {"d", 24ull * 3600 * 1000},
    {"h", 3600ull * 1000},
    {"m", 60ull * 1000},
    {"s", 1000},
    {"ms", 1},
};

/* What a wrong value is, for "got ...": "soon" quoted and escaped, or its kind. */
const char *config_show(const yaml_node_t *n, char *buf, size_t len)
{
	const unsigned char *s;
	size_t o = 0, i;

	if (n->type == YAML_SEQUENCE_NODE)
		return "a list";
	if (n->type == YAML_MAPPING_NODE)
		return "a mapping";
	if (yamlutil_is_null(n))
		return "nothing";
	s = n->data.scalar.value;
	buf[o++] = '"';
	for (i = 0; s[i] && i < CONFIG_SHOW_MAX && o + 8 < len; i++) {
		if (s[i] == '"' || s[i] == '\\')
			o += (size_t)snprintf(buf + o, len - o, "\\%c", s[i]);
		else if (s[i] < 0x20 || s[i] == 0x7f)
			o += (size_t)snprintf(buf + o, len - o, "\\x%02x", s[i]);
		else
			buf[o++] = (char)s[i];
	}
	if (s[i] && o + 5 < len)
		o += (size_t)snprintf(buf + o, len - o, "...");
	snprintf(buf + o, len - o, "\"");
	return buf;
}

/* ---- scalar parsers: 0, or -EINVAL (not that type) / -ERANGE (outside bounds) ---- */

/* The rules' booleans (yamlutil.c): Falco reads both with yaml-cpp. */
static int config_parse_bool(const char *s, bool *out)
{
	int b;

	if (yamlutil_bool(s, &b))
		return -EINVAL;
	*out = b;
	return 0;
}

/* The decimal digits at *p into *v, advancing *p; -ERANGE on overflow. */
static int config_parse_digits(const char **p, uint64_t *v)
{
	for (*v = 0; isdigit((unsigned char)**p); (*p)++) {
		if (*v > (UINT64_MAX - 9) / 10)
			return -ERANGE;
		*v = *v * 10 + (uint64_t)(**p - '0');
	}
	return 0;
}

/* Decimal digits, optionally K/M/G (x1024) when sizes; overflow is -ERANGE. */
static int config_parse_u64(const char *s, int sizes, uint64_t *out)
{
	uint64_t v = 0;
	unsigned shift = 0;
	const char *p = s;

	if (config_parse_digits(&p, &v))
		return -ERANGE;
	if (p == s)
		return -EINVAL;
	if (sizes && *p) {
		switch (*p++) {
		case 'k':
		case 'K':
			shift = 10;
			break;
		case 'm':
		case 'M':
			shift = 20;
			break;
		case 'g':
		case 'G':
			shift = 30;
			break;
		default:
			return -EINVAL;
		}
	}
	if (*p)
		return -EINVAL;
	if (shift && v > (UINT64_MAX >> shift))
		return -ERANGE;
	*out = v << shift;
	return 0;
}

/* "1h30m", "15s", "500ms": each unit at most once, largest first (Falco's rule). */
static int config_parse_duration(const char *s, uint64_t *out)
{
	size_t next_unit = 0;
	uint64_t total = 0;
	const char *p = s;

	if (!*p)
		return -EINVAL;
	while (*p) {
		uint64_t v = 0;
		size_t u;

		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		if (config_parse_digits(&p, &v))
			return -ERANGE;
		/* "ms" before "m": the longest unit that matches */
		for (u = ARRAY_LEN(config_units); u-- > next_unit;) {
			size_t ul = strlen(config_units[u].unit);

			if (!strncmp(p, config_units[u].unit, ul) && !isalpha((unsigned char)p[ul]))
				break;
		}
		if (u == (size_t)-1 || u < next_unit)
			return -EINVAL;
		p += strlen(config_units[u].unit);
		if (v > (UINT64_MAX - total) / config_units[u].ms)
			return -ERANGE;
		total += v * config_units[u].ms;
		next_unit = u + 1;
	}
	*out = total;
	return 0;
}

static size_t config_fmt_duration(uint64_t ms, char *buf, size_t len)
{
	size_t o = 0;

	if (!ms)
		return (size_t)snprintf(buf, len, "0ms");
	for (size_t u = 0; u < ARRAY_LEN(config_units) && o < len; u++) {
		if (ms >= config_units[u].ms) {
			o += (size_t)snprintf(buf + o, len - o, "%llu%s",
					      (unsigned long long)(ms / config_units[u].ms),
					      config_units[u].unit);
			ms %= config_units[u].ms;
		}
	}
	return o;
}

/* 4096 -> "4K", 1073741824 -> "1G", else the number. */
static const char *config_fmt_size(uint64_t v, char *buf, size_t len)
{
	if (v && !(v & ((1ull << 30) - 1)))
		snprintf(buf, len, "%lluG", (unsigned long long)(v >> 30));
	else if (v && !(v & ((1ull << 20) - 1)))
		snprintf(buf, len, "%lluM", (unsigned long long)(v >> 20));
	else if (v && !(v & ((1ull << 10) - 1)))
		snprintf(buf, len, "%lluK", (unsigned long long)(v >> 10));
	else
		snprintf(buf, len, "%llu", (unsigned long long)v);
	return buf;
}

static int config_valid_url(const char *s)
{
	if (!*s)
		return 1; /* unset */
	if (!strncasecmp(s, "http://", 7))
		return s[7] && s[7] != '/';
	if (!strncasecmp(s, "https://", 8))
		return s[8] && s[8] != '/';
	return 0;
}

static int config_valid_addr(const char *s)
{
	unsigned char buf[sizeof(struct in6_addr)];

	return inet_pton(AF_INET, s, buf) == 1 || inet_pton(AF_INET6, s, buf) == 1;
}

static void config_store_uint(void *field, size_t size, uint64_t v)
{
	if (size == sizeof(uint64_t))
		*(uint64_t *)field = v;
	else
		*(uint32_t *)field = (uint32_t)v;
}

static uint64_t config_load_uint(const void *field, size_t size)
{
	return size == sizeof(uint64_t) ? *(const uint64_t *)field : *(const uint32_t *)field;
}

/* ---- one key ---- */

static void config_apply_paths(struct config_ctx *c, const struct config_key *k,
			       const yaml_node_t *at, yaml_node_t *n)
{
	char got[CONFIG_SHOW_MAX + 16], key[96];
	char **v = NULL;
	size_t cnt = 0, i = 0;

	if (n->type == YAML_MAPPING_NODE) {
		config_err(c, at, k->name, "expected a list of paths, got a mapping");
		return;
	}
	if (n->type == YAML_SCALAR_NODE) { /* a single path, as Falco accepts */
		if (yamlutil_is_null(n) || !*n->data.scalar.value) {
			config_err(c, at, k->name, "expected a list of paths, got %s", GOT(n));
			return;
		}
		cnt = 1;
	} else {
		cnt = yamlutil_len(n);
	}
	v = calloc(cnt ? cnt : 1, sizeof(*v));
	if (!v) {
		c->nomem = 1;
		return;
	}
	if (n->type == YAML_SCALAR_NODE) {
		v[0] = strdup((const char *)n->data.scalar.value);
		if (!v[0])
			goto nomem;
		goto store;
	}
	for (i = 0; i < cnt; i++) {
		yaml_node_t *item = yamlutil_item(c->doc, n, i);

		if (!item || item->type != YAML_SCALAR_NODE || yamlutil_is_null(item) ||
		    !*item->data.scalar.value) {
			snprintf(key, sizeof(key), "%s[%zu]", k->name, i);
			config_err(c, item ? item : n, key, "expected a path, got %s",
				   item ? GOT(item) : "nothing");
			config_paths_free(v, cnt);
			return;
		}
		v[i] = strdup((const char *)item->data.scalar.value);
		if (!v[i])
			goto nomem;
	}
store: {
	char ***pv = config_field(c->cfg, k);
	size_t *pn = config_paths_count(pv);

	config_paths_free(*pv, *pn);
	*pv = v;
	*pn = cnt;
	return;
}
nomem:
	config_paths_free(v, cnt);
	c->nomem = 1;
}

/* Errors point at the key (at), as the value can span lines; list items at themselves. */
void config_apply_key(struct config_ctx *c, const struct config_key *k,
			     const yaml_node_t *at, yaml_node_t *n)
{
	char got[CONFIG_SHOW_MAX + 16], lo[32], hi[32];
	void *field = config_field(c->cfg, k);
	const char *s;
	uint64_t u;
	int v, err;

	if (k->type == CONFIG_T_PATHS) {
		config_apply_paths(c, k, at, n);
		return;
	}
	if (n->type != YAML_SCALAR_NODE) {
		static const char *const want[] = {
		    [CONFIG_T_BOOL] = "true or false",
		    [CONFIG_T_UINT] = "an integer",
		    [CONFIG_T_SIZE] = "a byte count",
		    [CONFIG_T_POW2] = "a byte count",
		    [CONFIG_T_DURATION] = "a duration",
		    [CONFIG_T_STRING] = "a string",
		    [CONFIG_T_URL] = "a URL",
		    [CONFIG_T_ADDR] = "an IP address",
		    [CONFIG_T_PRIORITY] = "a priority",
		    [CONFIG_T_MATCHING] = "first or all",
		    [CONFIG_T_FACILITY] = "a syslog facility",
		};
		config_err(c, at, k->name, "expected %s, got %s", want[k->type], GOT(n));
		return;
	}
	s = (const char *)n->data.scalar.value;
	switch (k->type) {
	case CONFIG_T_BOOL:
		if (yamlutil_is_null(n) || config_parse_bool(s, field))
			config_err(c, at, k->name, "expected true or false, got %s", GOT(n));
		break;
	case CONFIG_T_UINT:
		err = config_parse_u64(s, 0, &u);
		if (err == -EINVAL)
			config_err(c, at, k->name, "expected an integer, got %s", GOT(n));
		else if (err || u < k->min || u > k->max)
			config_err(c, at, k->name, "expected an integer from %llu to %llu, got %s",
				   (unsigned long long)k->min, (unsigned long long)k->max, GOT(n));
		else
			config_store_uint(field, k->size, u);
		break;
	case CONFIG_T_SIZE:
	case CONFIG_T_POW2:
		err = config_parse_u64(s, 1, &u);
		if (err == -EINVAL)
			config_err(c, at, k->name,
				   "expected a byte count (such as 4096, 256K, 16M), got %s",
				   GOT(n));
		else if (err || u < k->min || u > k->max ||
			 (k->type == CONFIG_T_POW2 && (u & (u - 1))))
			config_err(c, at, k->name, "expected %s from %s to %s, got %s",
				   k->type == CONFIG_T_POW2 ? "a power of two" : "a byte count",
				   config_fmt_size(k->min, lo, sizeof(lo)),
				   config_fmt_size(k->max, hi, sizeof(hi)), GOT(n));
		else
			config_store_uint(field, k->size, u);
		break;
	case CONFIG_T_DURATION:
		err = config_parse_duration(s, &u);
		if (err == -EINVAL) {
			config_err(c, at, k->name,
				   "expected a duration such as 15s, 1m, 500ms or 1h30m, got %s",
				   GOT(n));
		} else if (err || u < k->min || u > k->max) {
			config_fmt_duration(k->min, lo, sizeof(lo));
			config_fmt_duration(k->max, hi, sizeof(hi));
			config_err(c, at, k->name, "expected a duration from %s to %s, got %s", lo,
				   hi, GOT(n));
		} else {
			config_store_uint(field, k->size, u);
		}
		break;
	case CONFIG_T_STRING:
		if (config_strset(field, yamlutil_is_null(n) ? "" : s))
			c->nomem = 1;
		break;
	case CONFIG_T_URL:
		if (!yamlutil_is_null(n) && !config_valid_url(s))
			config_err(c, at, k->name, "expected an http:// or https:// URL, got %s",
				   GOT(n));
		else if (config_strset(field, yamlutil_is_null(n) ? "" : s))
			c->nomem = 1;
		break;
	case CONFIG_T_ADDR:
		if (yamlutil_is_null(n) || !config_valid_addr(s))
			config_err(c, at, k->name,
				   "expected an IPv4 or IPv6 address (such as 127.0.0.1 or ::1), "
				   "got %s",
				   GOT(n));
		else if (config_strset(field, s))
			c->nomem = 1;
		break;
	case CONFIG_T_PRIORITY:
		v = engine_priority_parse(s);
		if (v < 0) {
			char names[128]; /* the eight names of prio.c */

			engine_priority_list(names, sizeof(names));
			config_err(c, at, k->name, "expected one of %s, got %s", names, GOT(n));
		} else {
			*(int *)field = v;
		}
		break;
	case CONFIG_T_MATCHING:
		if (!strcmp(s, "first"))
			*(enum config_rule_matching *)field = CONFIG_MATCH_FIRST;
		else if (!strcmp(s, "all"))
			*(enum config_rule_matching *)field = CONFIG_MATCH_ALL;
		else
			config_err(c, at, k->name, "expected first or all, got %s", GOT(n));
		break;
	case CONFIG_T_FACILITY:
		v = outputs_syslog_facility_parse(s);
		if (v < 0)
			config_err(c, at, k->name,
				   "expected a syslog facility (auth, authpriv, cron, daemon, ftp, "
				   "kern, local0 to local7, lpr, mail, news, syslog, user, uucp), "
				   "got %s",
				   GOT(n));
		else
			*(int *)field = v;
		break;
	case CONFIG_T_PATHS:
		break;
	}
}

/* ---- formatting a value back ---- */

int config_format(const struct config *cfg, const char *key, char *buf, size_t len)
{
	const struct config_key *k = config_key_find(key);
	const void *field;
	size_t o = 0;

	if (!k)
		return -ENOENT;
	if (!len)
		return -ENOSPC;
	field = config_cfield(cfg, k);
	switch (k->type) {
	case CONFIG_T_BOOL:
		o = (size_t)snprintf(buf, len, "%s", *(const bool *)field ? "true" : "false");
		break;
	case CONFIG_T_UINT:
	case CONFIG_T_SIZE:
	case CONFIG_T_POW2:
		o = (size_t)snprintf(buf, len, "%llu",
				     (unsigned long long)config_load_uint(field, k->size));
		break;
	case CONFIG_T_DURATION:
		o = config_fmt_duration(config_load_uint(field, k->size), buf, len);
		break;
	case CONFIG_T_STRING:
	case CONFIG_T_URL:
	case CONFIG_T_ADDR:
		o = (size_t)snprintf(buf, len, "%s", *(char *const *)field);
		break;
	case CONFIG_T_PATHS: {
		char *const *v = *(char *const *const *)field;
		size_t nv = *config_paths_count(field);

		o = (size_t)snprintf(buf, len, "[");
		for (size_t i = 0; i < nv && o < len; i++)
			o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "", v[i]);
		if (o < len)
			o += (size_t)snprintf(buf + o, len - o, "]");
		break;
	}
	case CONFIG_T_PRIORITY: {
		int p = *(const int *)field;

		/* as the configuration writes it: lower case */
		o = (size_t)snprintf(buf, len, "%s",
				     p > 0 && p < ENGINE_PRIO_MAX ? engine_priority_name(p) : "?");
		for (size_t i = 0; i < o && i < len; i++)
			buf[i] = (char)tolower((unsigned char)buf[i]);
		break;
	}
	case CONFIG_T_MATCHING:
		o = (size_t)snprintf(buf, len, "%s",
				     *(const enum config_rule_matching *)field == CONFIG_MATCH_ALL
					 ? "all"
					 : "first");
		break;
	case CONFIG_T_FACILITY:
		o = (size_t)snprintf(buf, len, "%s", outputs_syslog_facility_name(*(const int *)field));
		break;
	}
	return o >= len ? -ENOSPC : 0;
}

int config_parse_size(const char *s, uint64_t *out)
{
	return config_parse_u64(s, 1, out);
}
