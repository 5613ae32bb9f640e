// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The configuration: one table of keys (name, type, bounds, field), one
 * walker over a libyaml document that checks each value against its row, and
 * the same walker for -o overrides (the value becomes a one-node document,
 * or is parsed as YAML flow when it starts with '[' or '{').
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>
#include <yaml.h>
#include "config.h"
#include "yamlutil.h"
#include "loader.h"
#include "proctable.h"
#include "container/ccache.h"
#include "agentid.h"
#include "rules/engine.h"

#define CONFIG_QUEUE_DEFAULT		16384u /* alerts waiting per output: ~0.1 s at 135,000 alerts/s, ~11 MiB at 700 B an alert, only while a reader lags */
#define CONFIG_QUEUE_MAX		(1u << 20) /* bounds an output queue's memory to ~1 GiB */
#define CONFIG_RINGBUF_MIN		4096u	   /* one page: the kernel's smallest ring buffer */
#define CONFIG_RINGBUF_MAX		(1u << 30) /* 1 GiB, as --ringbuf-size */
#define CONFIG_WAKEUP_MAX		(1ull << 30) /* cannot usefully exceed the largest ring buffer */
#define CONFIG_HTTP_TIMEOUT_DEFAULT	5000u	     /* ms per POST, connect included */
#define CONFIG_HTTP_TIMEOUT_MAX		600000u	     /* 10 minutes: longer is a hung receiver */
#define CONFIG_HTTP_RETRIES_DEFAULT	3u /* retries of one POST, with backoff, before requeueing */
#define CONFIG_HTTP_RETRIES_MAX		100u
#define CONFIG_METRICS_INTERVAL_DEFAULT (60ull * 60 * 1000) /* Falco's default: 1h */
#define CONFIG_METRICS_INTERVAL_MIN	100ull /* ms: faster metrics alerts would crowd the stream */
#define CONFIG_METRICS_INTERVAL_MAX	(365ull * 24 * 60 * 60 * 1000) /* one year */
#define CONFIG_METRICS_PORT_DEFAULT	8765u			       /* Falco's webserver port */
#define CONFIG_DROP_RATE_DEFAULT	30u    /* s: Falco's syscall_event_drops.rate is 1/30 s */
#define CONFIG_DROP_RATE_MAX		86400u /* one drop alert a day at least */
#define CONFIG_CONTAINER_TIMEOUT_DEFAULT 1000u /* ms per runtime request: Falco's cri_timeout */
#define CONFIG_CONTAINER_TIMEOUT_MAX	60000u /* a runtime slower than a minute is down */
#define CONFIG_SHOW_MAX			60     /* bytes of a bad value quoted in an error */
#define CONFIG_MAX_SEEN			128 /* keys and sections tracked for duplicates in one file */

#define K(kname, ktype, field, kmin, kmax)                                                         \
	{                                                                                          \
		.name = (kname), .type = (ktype), .off = offsetof(struct config, field),           \
		.size = sizeof(((struct config *)0)->field), .min = (kmin), .max = (kmax)          \
	}

static const struct config_key config_table[] = {
    K("rules_files", CONFIG_T_PATHS, rules_files, 0, 0),
    K("json_output", CONFIG_T_BOOL, json_output, 0, 0),
    K("priority", CONFIG_T_PRIORITY, priority, 0, 0),
    K("rule_matching", CONFIG_T_MATCHING, rule_matching, 0, 0),
    K("buffered_outputs", CONFIG_T_BOOL, buffered_outputs, 0, 0),
    K("outputs_queue.capacity", CONFIG_T_UINT, outputs_queue.capacity, 1, CONFIG_QUEUE_MAX),
    K("stdout_output.enabled", CONFIG_T_BOOL, stdout_output.enabled, 0, 0),
    K("file_output.enabled", CONFIG_T_BOOL, file_output.enabled, 0, 0),
    K("file_output.filename", CONFIG_T_STRING, file_output.filename, 0, 0),
    K("file_output.keep_alive", CONFIG_T_BOOL, file_output.keep_alive, 0, 0),
    K("syslog_output.enabled", CONFIG_T_BOOL, syslog_output.enabled, 0, 0),
    K("syslog_output.facility", CONFIG_T_FACILITY, syslog_output.facility, 0, 0),
    K("syslog_output.tag", CONFIG_T_STRING, syslog_output.tag, 0, 0),
    K("syslog_output.socket", CONFIG_T_STRING, syslog_output.socket, 0, 0),
    K("program_output.enabled", CONFIG_T_BOOL, program_output.enabled, 0, 0),
    K("program_output.program", CONFIG_T_STRING, program_output.program, 0, 0),
    K("program_output.keep_alive", CONFIG_T_BOOL, program_output.keep_alive, 0, 0),
    K("http_output.enabled", CONFIG_T_BOOL, http_output.enabled, 0, 0),
    K("http_output.url", CONFIG_T_URL, http_output.url, 0, 0),
    K("http_output.user_agent", CONFIG_T_STRING, http_output.user_agent, 0, 0),
    K("http_output.insecure", CONFIG_T_BOOL, http_output.insecure, 0, 0),
    K("http_output.ca_cert", CONFIG_T_STRING, http_output.ca_cert, 0, 0),
    K("http_output.ca_path", CONFIG_T_STRING, http_output.ca_path, 0, 0),
    K("http_output.client_cert", CONFIG_T_STRING, http_output.client_cert, 0, 0),
    K("http_output.client_key", CONFIG_T_STRING, http_output.client_key, 0, 0),
    K("http_output.timeout_ms", CONFIG_T_UINT, http_output.timeout_ms, 1, CONFIG_HTTP_TIMEOUT_MAX),
    K("http_output.max_retries", CONFIG_T_UINT, http_output.max_retries, 0,
      CONFIG_HTTP_RETRIES_MAX),
    K("metrics.enabled", CONFIG_T_BOOL, metrics.enabled, 0, 0),
    K("metrics.interval", CONFIG_T_DURATION, metrics.interval_ms, CONFIG_METRICS_INTERVAL_MIN,
      CONFIG_METRICS_INTERVAL_MAX),
    K("metrics.listen_address", CONFIG_T_ADDR, metrics.listen_address, 0, 0),
    K("metrics.listen_port", CONFIG_T_UINT, metrics.listen_port, 1, 65535),
    K("ringbuf.size_bytes", CONFIG_T_POW2, ringbuf.size_bytes, CONFIG_RINGBUF_MIN,
      CONFIG_RINGBUF_MAX),
    K("ringbuf.wakeup_bytes", CONFIG_T_SIZE, ringbuf.wakeup_bytes, 0, CONFIG_WAKEUP_MAX),
    K("proctable.max_entries", CONFIG_T_UINT, proctable.max_entries, 1, PROCTABLE_MAX_ENTRIES),
    K("drop_alerts.rate_limit_s", CONFIG_T_UINT, drop_alerts.rate_limit_s, 1, CONFIG_DROP_RATE_MAX),
    K("container_engines.enabled", CONFIG_T_BOOL, container_engines.enabled, 0, 0),
    K("container_engines.docker_sockets", CONFIG_T_PATHS, container_engines.docker_sockets, 0, 0),
    K("container_engines.podman_sockets", CONFIG_T_PATHS, container_engines.podman_sockets, 0, 0),
    K("container_engines.containerd_sockets", CONFIG_T_PATHS,
      container_engines.containerd_sockets, 0, 0),
    K("container_engines.crio_sockets", CONFIG_T_PATHS, container_engines.crio_sockets, 0, 0),
    K("container_engines.lookup_timeout_ms", CONFIG_T_UINT, container_engines.timeout_ms, 1,
      CONFIG_CONTAINER_TIMEOUT_MAX),
    K("container_engines.max_entries", CONFIG_T_UINT, container_engines.max_entries, 1,
      CCACHE_MAX_ENTRIES),
    K("agents.names", CONFIG_T_PATHS, agents.names, 0, 0),
    K("agents.exe_paths", CONFIG_T_PATHS, agents.exe_paths, 0, 0),
};
/* a list key's count is the member after its array */
_Static_assert(offsetof(struct config, n_rules_files) ==
		       offsetof(struct config, rules_files) + sizeof(char **), "list layout");
_Static_assert(offsetof(struct config, agents.n_names) ==
		       offsetof(struct config, agents.names) + sizeof(char **), "list layout");
_Static_assert(offsetof(struct config, agents.n_exe_paths) ==
		       offsetof(struct config, agents.exe_paths) + sizeof(char **), "list layout");
#undef K

#define CONFIG_NKEYS (sizeof(config_table) / sizeof(config_table[0]))

static const struct {
	const char *name;
	int value;
} config_facilities[] = {
    {"auth", LOG_AUTH},	    {"authpriv", LOG_AUTHPRIV}, {"cron", LOG_CRON},
    {"daemon", LOG_DAEMON}, {"ftp", LOG_FTP},		{"kern", LOG_KERN},
    {"local0", LOG_LOCAL0}, {"local1", LOG_LOCAL1},	{"local2", LOG_LOCAL2},
    {"local3", LOG_LOCAL3}, {"local4", LOG_LOCAL4},	{"local5", LOG_LOCAL5},
    {"local6", LOG_LOCAL6}, {"local7", LOG_LOCAL7},	{"lpr", LOG_LPR},
    {"mail", LOG_MAIL},	    {"news", LOG_NEWS},		{"syslog", LOG_SYSLOG},
    {"user", LOG_USER},	    {"uucp", LOG_UUCP},
};

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

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

const struct config_key *config_keys(size_t *n)
{
	*n = CONFIG_NKEYS;
	return config_table;
}

const struct config_key *config_key_find(const char *name)
{
	for (size_t i = 0; i < CONFIG_NKEYS; i++)
		if (!strcmp(config_table[i].name, name))
			return &config_table[i];
	return NULL;
}

/* "http_output" when some key is "http_output.<...>". */
static int config_is_section(const char *name)
{
	size_t len = strlen(name);

	for (size_t i = 0; i < CONFIG_NKEYS; i++)
		if (!strncmp(config_table[i].name, name, len) && config_table[i].name[len] == '.')
			return 1;
	return 0;
}

static void *config_field(struct config *cfg, const struct config_key *k)
{
	return (char *)cfg + k->off;
}

static const void *config_cfield(const struct config *cfg, const struct config_key *k)
{
	return (const char *)cfg + k->off;
}

static int config_strset(char **slot, const char *v)
{
	char *s = strdup(v);

	if (!s)
		return -ENOMEM;
	free(*slot);
	*slot = s;
	return 0;
}

/* A list of paths is a char ** and, right after it, its size_t count. */
#define CONFIG_PATHS_COUNT_FOLLOWS(list, count)                                                   \
	_Static_assert(offsetof(struct config, count) ==                                          \
			       offsetof(struct config, list) + sizeof(char **),                   \
		       #count " must follow " #list)
CONFIG_PATHS_COUNT_FOLLOWS(rules_files, n_rules_files);
CONFIG_PATHS_COUNT_FOLLOWS(container_engines.docker_sockets,
			   container_engines.n_docker_sockets);
CONFIG_PATHS_COUNT_FOLLOWS(container_engines.podman_sockets,
			   container_engines.n_podman_sockets);
CONFIG_PATHS_COUNT_FOLLOWS(container_engines.containerd_sockets,
			   container_engines.n_containerd_sockets);
CONFIG_PATHS_COUNT_FOLLOWS(container_engines.crio_sockets, container_engines.n_crio_sockets);

static size_t *config_paths_count(const void *list)
{
	return (size_t *)((char *)(uintptr_t)list + sizeof(char **));
}

static void config_paths_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Where each runtime puts its API socket (rootful), tried in this order. */
static const char *const config_docker_sockets[] = { "/var/run/docker.sock", "/run/docker.sock",
						     NULL };
static const char *const config_podman_sockets[] = { "/run/podman/podman.sock", NULL };
static const char *const config_containerd_sockets[] = {
	"/run/containerd/containerd.sock", "/run/k3s/containerd/containerd.sock", NULL
};

static const char *const config_crio_sockets[] = { "/var/run/crio/crio.sock", "/run/crio/crio.sock",
						   NULL };

static int config_paths_set(char ***v, size_t *n, const char *const *src)
{
	size_t k = 0;

	while (src[k])
		k++;
	*v = calloc(k, sizeof(**v));
	if (!*v)
		return -ENOMEM;
	for (*n = 0; *n < k; (*n)++)
		if (!((*v)[*n] = strdup(src[*n])))
			return -ENOMEM;
	return 0;
}

int config_defaults(struct config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->json_output = true;	   /* Falco: false; our stdout is a SIEM's JSON stream */
	cfg->priority = ENGINE_PRIO_DEBUG; /* Falco's default: every rule */
	cfg->rule_matching = CONFIG_MATCH_FIRST;
	cfg->buffered_outputs = true; /* Falco: false; we flush after each ring-buffer batch */
	cfg->outputs_queue.capacity = CONFIG_QUEUE_DEFAULT;
	cfg->stdout_output.enabled = true;
	cfg->syslog_output.facility = LOG_USER; /* Falco writes its alerts as LOG_USER */
	cfg->http_output.timeout_ms = CONFIG_HTTP_TIMEOUT_DEFAULT;
	cfg->http_output.max_retries = CONFIG_HTTP_RETRIES_DEFAULT;
	cfg->metrics.interval_ms = CONFIG_METRICS_INTERVAL_DEFAULT;
	cfg->metrics.listen_port = CONFIG_METRICS_PORT_DEFAULT;
	cfg->ringbuf.size_bytes = LOADER_RINGBUF_DEFAULT;
	cfg->ringbuf.wakeup_bytes = LOADER_WAKEUP_DEFAULT;
	cfg->proctable.max_entries = PROCTABLE_MAX_ENTRIES;
	cfg->drop_alerts.rate_limit_s = CONFIG_DROP_RATE_DEFAULT;
	cfg->container_engines.enabled = true;
	cfg->container_engines.timeout_ms = CONFIG_CONTAINER_TIMEOUT_DEFAULT;
	cfg->container_engines.max_entries = CCACHE_DEFAULT_ENTRIES;
	{
		static const char *const agents[] = AGENTID_DEFAULT_NAMES;
		size_t n = sizeof(agents) / sizeof(agents[0]);

		cfg->agents.names = calloc(n, sizeof(char *));
		if (!cfg->agents.names)
			return -ENOMEM;
		for (size_t i = 0; i < n; i++)
			if (!(cfg->agents.names[cfg->agents.n_names++] = strdup(agents[i]))) {
				config_free(cfg);
				return -ENOMEM;
			}
	}
	if (config_strset(&cfg->file_output.filename, "/var/log/agent-sentinel/events.json") ||
	    config_strset(&cfg->syslog_output.tag, "agent-sentinel") ||
	    config_strset(&cfg->syslog_output.socket, "/dev/log") ||
	    config_strset(&cfg->program_output.program, "") ||
	    config_strset(&cfg->http_output.url, "") ||
	    config_strset(&cfg->http_output.user_agent, "agent-sentinel") ||
	    config_strset(&cfg->http_output.ca_cert, "") ||
	    config_strset(&cfg->http_output.ca_path, "") ||
	    config_strset(&cfg->http_output.client_cert, "") ||
	    config_strset(&cfg->http_output.client_key, "") ||
	    config_strset(&cfg->metrics.listen_address, "127.0.0.1") ||
	    config_paths_set(&cfg->container_engines.docker_sockets,
			     &cfg->container_engines.n_docker_sockets, config_docker_sockets) ||
	    config_paths_set(&cfg->container_engines.podman_sockets,
			     &cfg->container_engines.n_podman_sockets, config_podman_sockets) ||
	    config_paths_set(&cfg->container_engines.containerd_sockets,
			     &cfg->container_engines.n_containerd_sockets,
			     config_containerd_sockets) ||
	    config_paths_set(&cfg->container_engines.crio_sockets,
			     &cfg->container_engines.n_crio_sockets, config_crio_sockets)) {
		config_free(cfg);
		return -ENOMEM;
	}
	return 0;
}

void config_free(struct config *cfg)
{
	for (size_t i = 0; i < CONFIG_NKEYS; i++) {
		const struct config_key *k = &config_table[i];

		if (k->type == CONFIG_T_STRING || k->type == CONFIG_T_URL ||
		    k->type == CONFIG_T_ADDR)
			free(*(char **)config_field(cfg, k));
		if (k->type == CONFIG_T_PATHS) {
			char ***pv = config_field(cfg, k);

			config_paths_free(*pv, *config_paths_count(pv));
		}
	}
	memset(cfg, 0, sizeof(*cfg));
}

/* ---- where a value came from, and one line per problem ---- */

struct config_ctx {
	struct config *cfg;
	FILE *diag;
	const char *file; /* NULL: an -o override */
	yaml_document_t *doc;
	int errors;
	int nomem;
	struct {
		char name[64];
		size_t line;
	} seen[CONFIG_MAX_SEEN];
	size_t n_seen;
};

__attribute__((format(printf, 4, 5))) static void
config_err(struct config_ctx *c, const yaml_node_t *n, const char *key, const char *fmt, ...)
{
	va_list ap;

	c->errors++;
	if (!c->diag)
		return;
	if (c->file)
		fprintf(c->diag, "%s:%zu:%zu: %s: ", c->file, n ? n->start_mark.line + 1 : 1,
			n ? n->start_mark.column + 1 : 1, key);
	else
		fprintf(c->diag, "-o %s: ", key);
	va_start(ap, fmt);
	vfprintf(c->diag, fmt, ap);
	va_end(ap);
	fputc('\n', c->diag);
}

static int config_is_null(const yaml_node_t *n)
{
	const char *s = (const char *)n->data.scalar.value;

	if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return 0;
	return !*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") ||
	       !strcmp(s, "NULL");
}

/* What a wrong value is, for "got ...": "soon" quoted and escaped, or its kind. */
static const char *config_show(const yaml_node_t *n, char *buf, size_t len)
{
	const unsigned char *s;
	size_t o = 0, i;

	if (n->type == YAML_SEQUENCE_NODE)
		return "a list";
	if (n->type == YAML_MAPPING_NODE)
		return "a mapping";
	if (config_is_null(n))
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

#define GOT(n) config_show((n), got, sizeof(got))

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

static int config_parse_facility(const char *s)
{
	for (size_t i = 0; i < ARRAY_LEN(config_facilities); i++)
		if (!strcasecmp(s, config_facilities[i].name))
			return config_facilities[i].value;
	return -1;
}

static const char *config_facility_name(int f)
{
	for (size_t i = 0; i < ARRAY_LEN(config_facilities); i++)
		if (config_facilities[i].value == f)
			return config_facilities[i].name;
	return "?";
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
	yaml_node_item_t *it;
	char **v = NULL;
	size_t cnt = 0, i = 0;

	if (n->type == YAML_MAPPING_NODE) {
		config_err(c, at, k->name, "expected a list of paths, got a mapping");
		return;
	}
	if (n->type == YAML_SCALAR_NODE) { /* a single path, as Falco accepts */
		if (config_is_null(n) || !*n->data.scalar.value) {
			config_err(c, at, k->name, "expected a list of paths, got %s", GOT(n));
			return;
		}
		cnt = 1;
	} else {
		cnt = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
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
	for (it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++, i++) {
		yaml_node_t *item = yaml_document_get_node(c->doc, *it);

		if (!item || item->type != YAML_SCALAR_NODE || config_is_null(item) ||
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
static void config_apply_key(struct config_ctx *c, const struct config_key *k,
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
		if (config_is_null(n) || config_parse_bool(s, field))
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
		if (config_strset(field, config_is_null(n) ? "" : s))
			c->nomem = 1;
		break;
	case CONFIG_T_URL:
		if (!config_is_null(n) && !config_valid_url(s))
			config_err(c, at, k->name, "expected an http:// or https:// URL, got %s",
				   GOT(n));
		else if (config_strset(field, config_is_null(n) ? "" : s))
			c->nomem = 1;
		break;
	case CONFIG_T_ADDR:
		if (config_is_null(n) || !config_valid_addr(s))
			config_err(c, at, k->name,
				   "expected an IPv4 or IPv6 address (such as 127.0.0.1 or ::1), "
				   "got %s",
				   GOT(n));
		else if (config_strset(field, s))
			c->nomem = 1;
		break;
	case CONFIG_T_PRIORITY:
		v = engine_priority_parse(s);
		if (v < 0)
			config_err(c, at, k->name,
				   "expected one of emergency, alert, critical, error, warning, "
				   "notice, informational, debug, got %s",
				   GOT(n));
		else
			*(int *)field = v;
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
		v = config_parse_facility(s);
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

/* ---- mappings: sections and keys ---- */

/* A key given twice in one file: the second one is an error. */
static int config_seen(struct config_ctx *c, const char *name, const yaml_node_t *n)
{
	if (!c->file)
		return 0; /* -o: the last one wins */
	for (size_t i = 0; i < c->n_seen; i++) {
		if (!strcmp(c->seen[i].name, name)) {
			config_err(c, n, name, "given twice (first on line %zu)", c->seen[i].line);
			return 1;
		}
	}
	if (c->n_seen < CONFIG_MAX_SEEN && strlen(name) < sizeof(c->seen[0].name)) {
		strcpy(c->seen[c->n_seen].name, name);
		c->seen[c->n_seen++].line = n->start_mark.line + 1;
	}
	return 0;
}

/* "unknown key", with the full name when only the section was left out and
 * exactly one key has that last part. */
static void config_unknown(struct config_ctx *c, const yaml_node_t *n, const char *name)
{
	const char *leaf = strrchr(name, '.'), *match = NULL;
	int matches = 0;

	leaf = leaf ? leaf + 1 : name;
	for (size_t i = 0; i < CONFIG_NKEYS; i++) {
		const char *dot = strrchr(config_table[i].name, '.');

		if (dot && !strcmp(dot + 1, leaf) && strcmp(config_table[i].name, name)) {
			match = config_table[i].name;
			matches++;
		}
	}
	if (matches == 1)
		config_err(c, n, name, "unknown key (did you mean %s?)", match);
	else
		config_err(c, n, name, "unknown key");
}

static void config_apply(struct config_ctx *c, const char *name, yaml_node_t *key,
			 yaml_node_t *val);

static void config_apply_map(struct config_ctx *c, const char *prefix, yaml_node_t *map)
{
	char got[CONFIG_SHOW_MAX + 16];

	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(c->doc, p->key);
		yaml_node_t *v = yaml_document_get_node(c->doc, p->value);
		char name[160];

		if (!k || !v)
			continue;
		if (k->type != YAML_SCALAR_NODE) {
			config_err(c, k, prefix ? prefix : "(top)",
				   "keys are names, got %s as a key", GOT(k));
			continue;
		}
		if (prefix)
			snprintf(name, sizeof(name), "%s.%s", prefix, k->data.scalar.value);
		else
			snprintf(name, sizeof(name), "%s", k->data.scalar.value);
		config_apply(c, name, k, v);
	}
}

static void config_apply(struct config_ctx *c, const char *name, yaml_node_t *key, yaml_node_t *val)
{
	const struct config_key *k;
	char got[CONFIG_SHOW_MAX + 16];

	if (!strcmp(name, "rules_file")) /* Falco's older name */
		name = "rules_files";
	k = config_key_find(name);
	if (k) {
		if (!config_seen(c, name, key))
			config_apply_key(c, k, key, val);
		return;
	}
	if (!config_is_section(name)) {
		config_unknown(c, key, name);
		return;
	}
	if (config_seen(c, name, key))
		return;
	if (val->type == YAML_MAPPING_NODE)
		config_apply_map(c, name, val);
	else if (!config_is_null(val)) /* "http_output:" alone sets nothing */
		config_err(c, key, name, "expected a mapping of %s.* settings, got %s", name,
			   GOT(val));
}

static int config_result(const struct config_ctx *c)
{
	if (c->nomem)
		return -ENOMEM;
	return c->errors ? -EINVAL : 0;
}

/* ---- the file ---- */

static void config_yaml_error(FILE *diag, const char *path, const yaml_parser_t *p)
{
	if (!diag)
		return;
	fprintf(diag, "%s:%zu:%zu: invalid YAML: %s", path, p->problem_mark.line + 1,
		p->problem_mark.column + 1, p->problem ? p->problem : "cannot parse");
	if (p->context)
		fprintf(diag, " (%s on line %zu)", p->context, p->context_mark.line + 1);
	fputc('\n', diag);
}

int config_load_file(struct config *cfg, const char *path, FILE *diag)
{
	struct config_ctx *c;
	yaml_parser_t parser;
	yaml_document_t doc, next;
	yaml_node_t *root, *extra;
	char got[CONFIG_SHOW_MAX + 16];
	FILE *f;
	int err;

	f = fopen(path, "re");
	if (!f) {
		err = -errno;
		if (diag)
			fprintf(diag, "%s: cannot open: %s\n", path, strerror(-err));
		return err;
	}
	c = calloc(1, sizeof(*c));
	if (!c || !yaml_parser_initialize(&parser)) {
		free(c);
		fclose(f);
		return -ENOMEM;
	}
	yaml_parser_set_input_file(&parser, f);
	if (!yaml_parser_load(&parser, &doc)) {
		config_yaml_error(diag, path, &parser);
		err = parser.error == YAML_MEMORY_ERROR ? -ENOMEM : -EINVAL;
		goto out_parser;
	}
	/* one document: a second one would be silently ignored otherwise */
	if (yaml_document_get_root_node(&doc)) {
		if (!yaml_parser_load(&parser, &next)) {
			config_yaml_error(diag, path, &parser);
			err = parser.error == YAML_MEMORY_ERROR ? -ENOMEM : -EINVAL;
			goto out_doc;
		}
		extra = yaml_document_get_root_node(&next);
		if (extra && diag)
			fprintf(diag, "%s:%zu:%zu: a second YAML document: one is expected\n", path,
				extra->start_mark.line + 1, extra->start_mark.column + 1);
		yaml_document_delete(&next);
		if (extra) {
			err = -EINVAL;
			goto out_doc;
		}
	}
	c->cfg = cfg;
	c->diag = diag;
	c->file = path;
	c->doc = &doc;
	root = yaml_document_get_root_node(&doc);
	if (root && root->type == YAML_MAPPING_NODE)
		config_apply_map(c, NULL, root);
	else if (root && !config_is_null(root))
		config_err(c, root, "(top)", "expected a mapping of settings, got %s", GOT(root));
	err = config_result(c);
out_doc:
	yaml_document_delete(&doc);
out_parser:
	yaml_parser_delete(&parser);
	fclose(f);
	free(c);
	return err;
}

/* ---- -o overrides ---- */

/* "a,b" -> a sequence of scalars (spaces around items dropped). */
static int config_split_list(yaml_document_t *doc, const char *value)
{
	int seq = yaml_document_add_sequence(doc, NULL, YAML_FLOW_SEQUENCE_STYLE);
	const char *p = value;

	if (!seq)
		return -ENOMEM;
	while (*p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		int item;

		while (len && isspace((unsigned char)*p))
			p++, len--;
		while (len && isspace((unsigned char)p[len - 1]))
			len--;
		if (len > INT_MAX)
			return -EINVAL;
		item = yaml_document_add_scalar(doc, NULL, (yaml_char_t *)p, (int)len,
						YAML_SINGLE_QUOTED_SCALAR_STYLE);
		if (!item || !yaml_document_append_sequence_item(doc, seq, item))
			return -ENOMEM;
		if (!end)
			break;
		p = end + 1;
	}
	return 0;
}

int config_set(struct config *cfg, const char *key, const char *value, FILE *diag)
{
	const struct config_key *k = NULL;
	struct config_ctx *c;
	yaml_document_t doc;
	yaml_node_t *root, knode = {.type = YAML_SCALAR_NODE};
	int err = 0, have_doc = 0;

	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->cfg = cfg;
	c->diag = diag;
	c->doc = &doc;
	if (!strcmp(key, "rules_file"))
		key = "rules_files";
	k = config_key_find(key);
	if (!k && !config_is_section(key)) {
		config_unknown(c, NULL, key);
		err = -EINVAL;
		goto out;
	}
	if (value[0] == '[' || value[0] == '{') { /* YAML flow, as Falco's -o key={...} */
		yaml_parser_t parser;

		if (!yaml_parser_initialize(&parser)) {
			err = -ENOMEM;
			goto out;
		}
		yaml_parser_set_input_string(&parser, (const unsigned char *)value, strlen(value));
		if (!yaml_parser_load(&parser, &doc)) {
			if (diag)
				fprintf(diag, "-o %s: invalid YAML at column %zu: %s\n", key,
					parser.problem_mark.index + 1, /* one line: byte offset */
					parser.problem ? parser.problem : "cannot parse");
			err = parser.error == YAML_MEMORY_ERROR ? -ENOMEM : -EINVAL;
			yaml_parser_delete(&parser);
			goto out;
		}
		yaml_parser_delete(&parser);
	} else {
		if (!yaml_document_initialize(&doc, NULL, NULL, NULL, 1, 1)) {
			err = -ENOMEM;
			goto out;
		}
		have_doc = 1;
		if (k && k->type == CONFIG_T_PATHS)
			err = config_split_list(&doc, value);
		else if (strlen(value) > INT_MAX ||
			 !yaml_document_add_scalar(&doc, NULL, (yaml_char_t *)value,
						   (int)strlen(value),
						   YAML_SINGLE_QUOTED_SCALAR_STYLE))
			err = -ENOMEM;
		if (err)
			goto out;
	}
	have_doc = 1;
	root = yaml_document_get_root_node(&doc);
	if (!root) { /* "[" alone parses to nothing */
		if (diag)
			fprintf(diag, "-o %s: no value\n", key);
		err = -EINVAL;
		goto out;
	}
	knode.data.scalar.value = (yaml_char_t *)key;
	config_apply(c, key, &knode, root);
	err = config_result(c);
out:
	if (have_doc)
		yaml_document_delete(&doc);
	free(c);
	return err;
}

int config_set_option(struct config *cfg, const char *kv, FILE *diag)
{
	const char *eq = strchr(kv, '=');
	char key[160];

	if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof(key)) {
		if (diag)
			fprintf(diag, "-o %s: expected KEY=VALUE\n", kv);
		return -EINVAL;
	}
	memcpy(key, kv, (size_t)(eq - kv));
	key[eq - kv] = 0;
	return config_set(cfg, key, eq + 1, diag);
}

/* ---- checks across keys ---- */

int config_validate(const struct config *cfg, FILE *diag)
{
	int bad = 0;

#define CONFIG_NEED(cond, ...)                                                                     \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			bad = 1;                                                                   \
			if (diag) {                                                                \
				fprintf(diag, __VA_ARGS__);                                        \
				fputc('\n', diag);                                                 \
			}                                                                          \
		}                                                                                  \
	} while (0)

	CONFIG_NEED(!cfg->file_output.enabled || *cfg->file_output.filename,
		    "file_output.filename: empty, but file_output.enabled is true");
	CONFIG_NEED(!cfg->program_output.enabled || *cfg->program_output.program,
		    "program_output.program: empty, but program_output.enabled is true");
	CONFIG_NEED(!cfg->http_output.enabled || *cfg->http_output.url,
		    "http_output.url: empty, but http_output.enabled is true");
	CONFIG_NEED(!cfg->syslog_output.enabled || *cfg->syslog_output.socket,
		    "syslog_output.socket: empty, but syslog_output.enabled is true");
	CONFIG_NEED(!*cfg->http_output.client_cert == !*cfg->http_output.client_key,
		    "http_output.client_cert and http_output.client_key: give both or neither");
	CONFIG_NEED(cfg->ringbuf.wakeup_bytes <= cfg->ringbuf.size_bytes,
		    "ringbuf.wakeup_bytes: %llu is more than ringbuf.size_bytes (%u): the "
		    "consumer would never be woken by size",
		    (unsigned long long)cfg->ringbuf.wakeup_bytes, cfg->ringbuf.size_bytes);
#undef CONFIG_NEED
	return bad ? -EINVAL : 0;
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
		o = (size_t)snprintf(buf, len, "%s", config_facility_name(*(const int *)field));
		break;
	}
	return o >= len ? -ENOSPC : 0;
}

/* ---- file safety ---- */

static int config_refuse(FILE *diag, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int config_refuse(FILE *diag, const char *path, const char *fmt, ...)
{
	va_list ap;

	if (diag) {
		fprintf(diag, "%s: refused: ", path);
		va_start(ap, fmt);
		vfprintf(diag, fmt, ap);
		va_end(ap);
		fprintf(diag, "; the agent runs as root and would load what another user "
			      "wrote\n");
	}
	return -EPERM;
}

/*
 * One inode: owned by root or us, not writable by group or others (a
 * directory above the file may be writable when sticky). what: "file",
 * "directory", "parent directory /x of".
 */
static int config_check_inode(const char *shown, const char *what, const struct stat *st,
			      int allow_sticky, FILE *diag)
{
	uid_t me = geteuid();
	mode_t m = st->st_mode;

	if (st->st_uid != 0 && st->st_uid != me)
		return config_refuse(diag, shown, "%s owned by uid %u, not root", what,
				     (unsigned)st->st_uid);
	if ((m & (S_IWGRP | S_IWOTH)) && !(allow_sticky && S_ISDIR(m) && (m & S_ISVTX)))
		return config_refuse(diag, shown, "%s writable by %s (mode %04o)", what,
				     (m & S_IWGRP) && (m & S_IWOTH) ? "group and others"
				     : (m & S_IWGRP)		    ? "group"
								    : "others",
				     (unsigned)(m & 07777));
	return 0;
}

/* Every directory above abs (an absolute path) up to /. */
static int config_check_parents(const char *shown, const char *abs, FILE *diag)
{
	char dir[PATH_MAX], what[PATH_MAX + 32];
	struct stat st;
	char *slash;
	int err;

	if (strlen(abs) >= sizeof(dir))
		return -ENAMETOOLONG;
	strcpy(dir, abs);
	for (;;) {
		slash = strrchr(dir, '/');
		if (!slash)
			return 0;
		if (slash == dir)
			slash[1] = 0; /* "/" */
		else
			*slash = 0;
		if (stat(dir, &st)) {
			err = -errno;
			if (diag)
				fprintf(diag, "%s: cannot stat %s: %s\n", shown, dir,
					strerror(-err));
			return err;
		}
		snprintf(what, sizeof(what), "directory %s above it is", dir);
		err = config_check_inode(shown, what, &st, 1, diag);
		if (err || !strcmp(dir, "/"))
			return err;
	}
}

static int config_check_one(const char *path, FILE *diag, int top);

/* A rules directory: its *.yaml and *.yml files, as the engine loads them. */
static int config_check_dir_entries(const char *path, FILE *diag)
{
	char child[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir(path);
	int err = 0;

	if (!d) {
		err = -errno;
		if (diag)
			fprintf(diag, "%s: cannot open directory: %s\n", path, strerror(-err));
		return err;
	}
	while (!err && (de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (de->d_name[0] == '.' || !((l > 5 && !strcmp(de->d_name + l - 5, ".yaml")) ||
					      (l > 4 && !strcmp(de->d_name + l - 4, ".yml"))))
			continue;
		if ((size_t)snprintf(child, sizeof(child), "%s/%s", path, de->d_name) >=
		    sizeof(child))
			continue;
		err = config_check_one(child, diag, 0);
	}
	closedir(d);
	return err;
}

static int config_check_one(const char *path, FILE *diag, int top)
{
	char abs[PATH_MAX], real[PATH_MAX];
	struct stat st;
	int err;

	if (stat(path, &st)) {
		err = -errno;
		if (diag)
			fprintf(diag, "%s: cannot stat: %s\n", path, strerror(-err));
		return err;
	}
	if (!S_ISREG(st.st_mode) && !(top && S_ISDIR(st.st_mode))) {
		if (diag)
			fprintf(diag, "%s: refused: not a regular file%s\n", path,
				top ? " or directory" : "");
		return -EPERM;
	}
	err = config_check_inode(path, S_ISDIR(st.st_mode) ? "directory" : "file", &st, 0, diag);
	if (err)
		return err;
	/* the directories above the path as given (a symlink's own directory
	 * decides where it points) and above the file it resolves to */
	if (path[0] == '/') {
		snprintf(abs, sizeof(abs), "%s", path);
	} else {
		if (!getcwd(abs, sizeof(abs)))
			return -errno;
		if (strlen(abs) + 1 + strlen(path) >= sizeof(abs))
			return -ENAMETOOLONG;
		strcat(abs, "/");
		strcat(abs, path);
	}
	err = config_check_parents(path, abs, diag);
	if (err)
		return err;
	if (!realpath(path, real))
		return -errno;
	if (strcmp(real, abs)) {
		err = config_check_parents(path, real, diag);
		if (err)
			return err;
	}
	if (S_ISDIR(st.st_mode))
		return config_check_dir_entries(path, diag);
	return 0;
}

int config_check_file_safety(const char *path, FILE *diag)
{
	return config_check_one(path, diag, 1);
}

int config_parse_size(const char *s, uint64_t *out)
{
	return config_parse_u64(s, 1, out);
}
