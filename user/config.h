/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The configuration file (-c FILE, YAML) and -o KEY=VALUE overrides.
 *
 * Falco's key names wherever Falco has the setting, so a Falco user's habits
 * carry over; agent-sentinel's own settings (ringbuf, proctable, drop_alerts)
 * next to them. Every key is one row of the table in config_keys.c: its name, its
 * type, its bounds and where it lives in struct config.
 *
 * Every problem is one line on the diag stream, naming the file, line,
 * column and key:
 *   agent-sentinel.yaml:12:3: http_output.timeout_ms: expected an integer, got "soon"
 * or, for an override, the option:
 *   -o http_output.timeout_ms: expected an integer, got "soon"
 *
 * Reload: build a new config (config_defaults, config_load_file, config_set
 * for each -o, config_validate) and swap it in only when every step returned
 * 0; a config a step failed on is still valid to config_free.
 */
#ifndef AS_CONFIG_H
#define AS_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CONFIG_DEFAULT_PATH "/etc/agent-sentinel/agent-sentinel.yaml"

enum config_rule_matching {
	CONFIG_MATCH_FIRST = 0, /* Falco's default: stop at the first matching rule */
	CONFIG_MATCH_ALL,
};

struct config {
	/* rules_files (Falco; its older name rules_file is accepted): files or
	 * directories, loaded in this order */
	char **rules_files;
	size_t n_rules_files;
	bool json_output;
	int priority; /* minimum priority, enum engine_priority (1 emergency .. 8 debug) */
	enum config_rule_matching rule_matching;
	bool buffered_outputs;
	struct {
		uint32_t capacity; /* alerts per output queue */
	} outputs_queue;
	struct {
		bool enabled;
	} stdout_output;
	struct {
		bool enabled;
		char *filename;
		bool keep_alive;
	} file_output;
	struct {
		bool enabled;
		int facility; /* LOG_USER, LOG_DAEMON, LOG_LOCAL0, ... (<syslog.h>) */
		char *tag;    /* openlog() ident */
		char *socket; /* "/dev/log" */
	} syslog_output;
	struct {
		bool enabled;
		char *program; /* run with /bin/sh -c */
		bool keep_alive;
	} program_output;
	struct {
		bool enabled;
		char *url; /* http:// or https:// */
		char *user_agent;
		bool insecure; /* skip TLS verification */
		char *ca_cert; /* "" = the system's CA store */
		char *ca_path;
		char *client_cert; /* mTLS, both or neither */
		char *client_key;
		uint32_t timeout_ms;
		uint32_t max_retries;
	} http_output;
	struct {
		bool enabled;
		uint64_t interval_ms; /* written as "15s", "1m", "500ms", "1h30m" */
		char *listen_address;
		uint32_t listen_port;
	} metrics;
	struct {
		uint32_t size_bytes; /* power of two */
		uint64_t wakeup_bytes;
	} ringbuf;
	struct {
		uint32_t max_entries;
	} proctable;
	struct {
		uint32_t rate_limit_s; /* at most one drop alert per this many seconds */
	} drop_alerts;
	/* where a run keeps its marker (user/lastrun.h); "": systemd's
	 * $STATE_DIRECTORY, else none. Read at start, as the ring buffer */
	char *state_directory;
	/* container metadata from the runtimes' sockets (Falco's section name;
	 * read at start: a reload keeps the running settings) */
	struct {
		bool enabled;
		char **docker_sockets; /* each list: its count follows it */
		size_t n_docker_sockets;
		char **podman_sockets;
		size_t n_podman_sockets;
		char **containerd_sockets;
		size_t n_containerd_sockets;
		char **crio_sockets;
		size_t n_crio_sockets;
		uint32_t timeout_ms; /* per request */
		uint32_t max_entries; /* containers cached at once */
	} container_engines;
	/* which lineage entries are agents (user/agentid.h): names, used only
	 * when no executable is pinned. Lists: the count follows the array. */
	struct {
		char **names;
		size_t n_names;
		char **exe_paths;
		size_t n_exe_paths;
	} agents;
};

enum config_type {
	CONFIG_T_BOOL,
	CONFIG_T_UINT,	   /* decimal integer in [min, max] */
	CONFIG_T_SIZE,	   /* bytes, K/M/G suffix allowed, in [min, max] */
	CONFIG_T_POW2,	   /* CONFIG_T_SIZE that must be a power of two */
	CONFIG_T_DURATION, /* Prometheus duration ("1h30m", "15s", "500ms") to ms, in [min, max] */
	CONFIG_T_STRING,
	CONFIG_T_URL,	/* "" or an http:// / https:// URL */
	CONFIG_T_ADDR,	/* numeric IPv4 or IPv6 address */
	CONFIG_T_PATHS, /* list of paths (a single scalar is a list of one) */
	CONFIG_T_PRIORITY,
	CONFIG_T_MATCHING,
	CONFIG_T_FACILITY,
};

/* One row of the key table. */
struct config_key {
	const char *name; /* dotted: "http_output.timeout_ms" */
	enum config_type type;
	size_t off;	   /* offsetof(struct config, ...) */
	size_t size;	   /* sizeof the field */
	uint64_t min, max; /* numeric types */
};

/* Every key, in the order of the shipped file. */
const struct config_key *config_keys(size_t *n);
const struct config_key *config_key_find(const char *name);

/* Fill *cfg with the built-in defaults. 0 or -ENOMEM. */
int config_defaults(struct config *cfg);

/*
 * Apply the YAML file at path on top of *cfg. Every problem is one line on
 * diag ("FILE:LINE:COL: KEY: ..."); all of them are reported, not only the
 * first. 0, -EINVAL (some key was wrong: *cfg holds the good ones), -errno
 * when the file cannot be read, -ENOMEM.
 */
int config_load_file(struct config *cfg, const char *path, FILE *diag);

/*
 * Set one key from the command line, Falco's -o syntax: key is dotted; the
 * value is a scalar, or YAML flow ("[a, b]" for a list, "{enabled: true,
 * url: ...}" for a whole section); a list also reads "a,b". Errors name the
 * option ("-o KEY: ..."). 0, -EINVAL or -ENOMEM.
 */
int config_set(struct config *cfg, const char *key, const char *value, FILE *diag);

/* "KEY=VALUE" as given to -o. */
int config_set_option(struct config *cfg, const char *kv, FILE *diag);

/*
 * Checks between keys, once every source is applied: an enabled output
 * missing its target (file_output.filename, program_output.program,
 * http_output.url), half an mTLS pair, ringbuf.wakeup_bytes above
 * ringbuf.size_bytes. 0 or -EINVAL (each problem one line).
 */
int config_validate(const struct config *cfg, FILE *diag);

/* The value of a key, formatted as in the YAML file ("true", "16777216",
 * "[a, b]", "15s"). 0, -ENOENT (no such key) or -ENOSPC. */
int config_format(const struct config *cfg, const char *key, char *buf, size_t len);

/* A byte count as the file and -o take it ("4096", "256K", "16M", "1G");
 * 0, -EINVAL or -ERANGE. The command line's size flags use it too. */
int config_parse_size(const char *s, uint64_t *out);

/* Free every string the config owns; *cfg is zeroed. */
void config_free(struct config *cfg);

/*
 * Refuse a rules or config file the agent (root) would read but another user
 * could change: the file (and, for a directory of rules, the directory and
 * each *.yaml / *.yml in it) must be owned by root or by the agent's own user
 * and not writable by group or others; every directory above it up to / must
 * be owned by root or the agent's user and not writable by group or others
 * unless sticky (as /tmp: others cannot replace entries they do not own).
 * Both the path as given and its resolved form are checked. One line on diag
 * with the reason: "PATH: refused: writable by group and others (mode 0666)
 * ...". 0, -EPERM (unsafe) or -errno (cannot stat).
 */
int config_check_file_safety(const char *path, FILE *diag);

#endif /* AS_CONFIG_H */
