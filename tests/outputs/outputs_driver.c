// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Test driver of the output stage: opens the outputs the options ask for,
 * then reads commands on stdin and answers on stderr with lines starting
 * "driver: " (stdout belongs to the stdout output):
 *   emit PRIO TEXT           one alert, TEXT as the line
 *   burst N PRIO TAG         N alerts {"burst":"TAG","seq":i}; answers the
 *                            slowest outputs_emit call: "driver: burst N max_emit_us=U"
 *   reopen                   outputs_reopen
 *   stats                    "driver: stats NAME emitted=E dropped=D failed=F queued=Q"
 *                            per output, then "driver: end"
 *   sync                     "driver: end"
 *   sleep MS
 * End of input closes the outputs with --close-timeout (default 5000 ms) and
 * answers "driver: closed". Exit status: 0, or 2 when outputs_open failed.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "outputs.h"

/* Longest command line read from stdin. */
#define DRIVER_LINE_MAX 65536

static long driver_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
}

static void driver_stats(struct outputs *o)
{
	size_t i;

	for (i = 0; i < outputs_count(o); i++) {
		struct outputs_stats st;

		outputs_stats_get(o, i, &st);
		fprintf(stderr,
			"driver: stats %s emitted=%" PRIu64 " dropped=%" PRIu64 " failed=%" PRIu64
			" queued=%zu\n",
			outputs_name(o, i), st.emitted, st.dropped, st.failed, st.queued);
	}
	fprintf(stderr, "driver: end\n");
}

static void driver_burst(struct outputs *o, const char *args)
{
	char tag[64], line[256];
	long n, i, worst = 0;
	int prio;

	if (sscanf(args, "%ld %d %63s", &n, &prio, tag) != 3) {
		fprintf(stderr, "driver: bad burst\n");
		return;
	}
	for (i = 0; i < n; i++) {
		int len = snprintf(line, sizeof(line), "{\"burst\":\"%s\",\"seq\":%ld}", tag, i);
		long t0 = driver_now_us(), dt;

		outputs_emit(o, line, (size_t)len, prio, "driver burst");
		dt = driver_now_us() - t0;
		if (dt > worst)
			worst = dt;
	}
	outputs_kick(o); /* as the agent does after each batch of events */
	fprintf(stderr, "driver: burst %ld max_emit_us=%ld\n", n, worst);
}

static void driver_run(struct outputs *o)
{
	static char line[DRIVER_LINE_MAX];

	while (fgets(line, sizeof(line), stdin)) {
		size_t len = strcspn(line, "\n");
		char *rest;
		int prio;

		line[len] = '\0';
		if (!strncmp(line, "emit ", 5)) {
			prio = (int)strtol(line + 5, &rest, 10);
			rest += strspn(rest, " ");
			outputs_emit(o, rest, strlen(rest), prio, "driver rule");
			outputs_kick(o);
		} else if (!strncmp(line, "burst ", 6)) {
			driver_burst(o, line + 6);
		} else if (!strcmp(line, "reopen")) {
			outputs_reopen(o);
		} else if (!strcmp(line, "stats")) {
			driver_stats(o);
		} else if (!strcmp(line, "sync")) {
			fprintf(stderr, "driver: end\n");
		} else if (!strncmp(line, "sleep ", 6)) {
			long ms = atol(line + 6);
			struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

			nanosleep(&ts, NULL);
		} else {
			fprintf(stderr, "driver: unknown command '%s'\n", line);
		}
	}
}

enum {
	OPT_STDOUT = 256,
	OPT_FILE,
	OPT_FILE_KEEP,
	OPT_SYSLOG,
	OPT_FACILITY,
	OPT_TAG,
	OPT_PROGRAM,
	OPT_PROGRAM_KEEP,
	OPT_HTTP,
	OPT_UA,
	OPT_INSECURE,
	OPT_CA_CERT,
	OPT_CA_PATH,
	OPT_CERT,
	OPT_KEY,
	OPT_TIMEOUT,
	OPT_RETRIES,
	OPT_QUEUE,
	OPT_BUFFERED,
	OPT_TEXT,
	OPT_CLOSE,
};

static const struct option driver_opts[] = {
    {"stdout", no_argument, NULL, OPT_STDOUT},
    {"file", required_argument, NULL, OPT_FILE},
    {"file-keep-alive", no_argument, NULL, OPT_FILE_KEEP},
    {"syslog", required_argument, NULL, OPT_SYSLOG},
    {"facility", required_argument, NULL, OPT_FACILITY},
    {"tag", required_argument, NULL, OPT_TAG},
    {"program", required_argument, NULL, OPT_PROGRAM},
    {"program-keep-alive", no_argument, NULL, OPT_PROGRAM_KEEP},
    {"http", required_argument, NULL, OPT_HTTP},
    {"user-agent", required_argument, NULL, OPT_UA},
    {"insecure", no_argument, NULL, OPT_INSECURE},
    {"ca-cert", required_argument, NULL, OPT_CA_CERT},
    {"ca-path", required_argument, NULL, OPT_CA_PATH},
    {"client-cert", required_argument, NULL, OPT_CERT},
    {"client-key", required_argument, NULL, OPT_KEY},
    {"timeout-ms", required_argument, NULL, OPT_TIMEOUT},
    {"retries", required_argument, NULL, OPT_RETRIES},
    {"queue", required_argument, NULL, OPT_QUEUE},
    {"buffered", no_argument, NULL, OPT_BUFFERED},
    {"text", no_argument, NULL, OPT_TEXT},
    {"close-timeout", required_argument, NULL, OPT_CLOSE},
    {NULL, 0, NULL, 0},
};

int main(int argc, char **argv)
{
	struct outputs_config cfg = {.json = 1};
	struct outputs *o;
	long close_ms = 5000;
	int c, err;

	while ((c = getopt_long(argc, argv, "", driver_opts, NULL)) != -1) {
		switch (c) {
		case OPT_STDOUT:
			cfg.stdout_output.enabled = 1;
			break;
		case OPT_FILE:
			cfg.file_output.enabled = 1;
			cfg.file_output.filename = optarg;
			break;
		case OPT_FILE_KEEP:
			cfg.file_output.keep_alive = 1;
			break;
		case OPT_SYSLOG:
			cfg.syslog_output.enabled = 1;
			cfg.syslog_output.socket_path = optarg;
			break;
		case OPT_FACILITY:
			cfg.syslog_output.facility = outputs_syslog_facility_parse(optarg);
			if (cfg.syslog_output.facility < 0) {
				fprintf(stderr, "driver: unknown facility %s\n", optarg);
				return 2;
			}
			break;
		case OPT_TAG:
			cfg.syslog_output.tag = optarg;
			break;
		case OPT_PROGRAM:
			cfg.program_output.enabled = 1;
			cfg.program_output.program = optarg;
			break;
		case OPT_PROGRAM_KEEP:
			cfg.program_output.keep_alive = 1;
			break;
		case OPT_HTTP:
			cfg.http_output.enabled = 1;
			cfg.http_output.url = optarg;
			break;
		case OPT_UA:
			cfg.http_output.user_agent = optarg;
			break;
		case OPT_INSECURE:
			cfg.http_output.insecure = 1;
			break;
		case OPT_CA_CERT:
			cfg.http_output.ca_cert = optarg;
			break;
		case OPT_CA_PATH:
			cfg.http_output.ca_path = optarg;
			break;
		case OPT_CERT:
			cfg.http_output.client_cert = optarg;
			break;
		case OPT_KEY:
			cfg.http_output.client_key = optarg;
			break;
		case OPT_TIMEOUT:
			cfg.http_output.timeout_ms = atol(optarg);
			break;
		case OPT_RETRIES:
			cfg.http_output.max_retries = atoi(optarg);
			break;
		case OPT_QUEUE:
			cfg.queue_max = (size_t)atol(optarg);
			break;
		case OPT_BUFFERED:
			cfg.buffered = 1;
			break;
		case OPT_TEXT:
			cfg.json = 0;
			break;
		case OPT_CLOSE:
			close_ms = atol(optarg);
			break;
		default:
			return 2;
		}
	}
	err = outputs_open(&o, &cfg);
	if (err) {
		fprintf(stderr, "driver: open failed: %s\n", strerror(-err));
		return 2;
	}
	fprintf(stderr, "driver: open %zu\n", outputs_count(o));
	driver_run(o);
	driver_stats(o);
	outputs_close(o, close_ms);
	fprintf(stderr, "driver: closed\n");
	return 0;
}
