// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The configuration's keys: one table (name, type, bounds, field of struct
 * config), the defaults, and freeing what the values own. The values are
 * parsed in config_values.c, the file and -o walked in config.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include "config_int.h"
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

#define K(kname, ktype, field, kmin, kmax)                                                         \
	{                                                                                          \
		.name = (kname), .type = (ktype), .off = offsetof(struct config, field),           \
		.size = sizeof(((struct config *)0)->field), .min = (kmin), .max = (kmax)          \
	}

const struct config_key config_table[] = {
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
    K("state_directory", CONFIG_T_STRING, state_directory, 0, 0),
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
const size_t config_nkeys = CONFIG_NKEYS;


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
int config_is_section(const char *name)
{
	size_t len = strlen(name);

	for (size_t i = 0; i < CONFIG_NKEYS; i++)
		if (!strncmp(config_table[i].name, name, len) && config_table[i].name[len] == '.')
			return 1;
	return 0;
}

int config_strset(char **slot, const char *v)
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

void config_paths_free(char **v, size_t n)
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
	    config_strset(&cfg->state_directory, "") ||
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
