// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The public side of the output stage: builds one struct out per enabled
 * output, fans each alert out to their queues (one shared copy), and drains
 * and stops them at close.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "out.h"

/* One of each kind at most. */
#define OUTPUTS_MAX 5

struct outputs {
	struct out outs[OUTPUTS_MAX];
	size_t n;
	int curl_global; /* out_http_global_init succeeded */
};

typedef int (*outputs_open_fn)(struct out *o, const struct outputs_config *cfg);

static void outputs_free(struct outputs *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		struct out *o = &s->outs[i];
		size_t left;

		if (o->be && o->ops->close) /* never started: close here */
			o->ops->close(o);
		left = outq_destroy(&o->q);
		if (left)
			out_log_err(o, "warning", "%zu alerts not delivered at exit", left);
	}
	if (s->curl_global)
		out_http_global_cleanup();
	free(s);
}

static int outputs_add(struct outputs *s, const struct outputs_config *cfg, size_t cap,
		       outputs_open_fn open_fn)
{
	struct out *o = &s->outs[s->n];
	int err;

	err = outq_init(&o->q, cap);
	if (err) {
		fprintf(stderr, "agent-sentinel: error: output queue of %zu alerts: %s\n", cap,
			strerror(-err));
		return err;
	}
	o->buffered = cfg->buffered;
	atomic_init(&o->reopen, 0);
	atomic_init(&o->abort, 0);
	atomic_init(&o->emitted, 0);
	atomic_init(&o->failed, 0);
	s->n++; /* from here outputs_free cleans it up */
	err = open_fn(o, cfg);
	if (err == -ENOMEM)
		out_log_err(o, "error", "out of memory");
	return err;
}

int outputs_open(struct outputs **out, const struct outputs_config *cfg)
{
	size_t cap = cfg->queue_max ? cfg->queue_max : OUTPUTS_QUEUE_MAX_DEFAULT;
	struct outputs *s;
	size_t i;
	int err = 0;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s) {
		fprintf(stderr, "agent-sentinel: error: outputs: out of memory\n");
		return -ENOMEM;
	}
	if (cfg->http_output.enabled) {
		err = out_http_global_init(); /* says why when it fails */
		s->curl_global = !err;
	}
	if (!err && cfg->stdout_output.enabled)
		err = outputs_add(s, cfg, cap, out_stdout_open);
	if (!err && cfg->file_output.enabled)
		err = outputs_add(s, cfg, cap, out_file_open);
	if (!err && cfg->syslog_output.enabled)
		err = outputs_add(s, cfg, cap, out_syslog_open);
	if (!err && cfg->program_output.enabled)
		err = outputs_add(s, cfg, cap, out_program_open);
	if (!err && cfg->http_output.enabled)
		err = outputs_add(s, cfg, cap, out_http_open);
	for (i = 0; !err && i < s->n; i++) {
		err = out_worker_start(&s->outs[i]);
		if (err)
			out_log_err(&s->outs[i], "error", "thread: %s", strerror(-err));
	}
	if (err) {
		for (i = 0; i < s->n; i++)
			outq_stop(&s->outs[i].q);
		for (i = 0; i < s->n; i++) {
			struct timespec now;

			outq_deadline(&now, 0);
			out_worker_join(&s->outs[i], &now);
		}
		outputs_free(s);
		return err;
	}
	*out = s;
	return 0;
}

void outputs_emit(struct outputs *s, const char *line, size_t len, int prio, const char *rule)
{
	struct outmsg *m;
	size_t i;

	if (!s || !s->n)
		return;
	m = outmsg_new(line, len, prio);
	for (i = 0; i < s->n; i++) {
		if (m)
			outq_push(&s->outs[i].q, m, rule);
		else
			outq_drop(&s->outs[i].q, rule);
	}
	outmsg_put(m);
}

void outputs_set_block(struct outputs *s, int block)
{
	for (size_t i = 0; s && i < s->n; i++)
		outq_set_block(&s->outs[i].q, block ? OUTQ_BLOCK_MS : 0);
}

void outputs_kick(struct outputs *s)
{
	for (size_t i = 0; s && i < s->n; i++)
		outq_kick(&s->outs[i].q);
}

void outputs_reopen(struct outputs *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++)
		atomic_store(&s->outs[i].reopen, 1);
}

size_t outputs_count(const struct outputs *s)
{
	return s ? s->n : 0;
}

const char *outputs_name(const struct outputs *s, size_t i)
{
	return s && i < s->n ? s->outs[i].ops->name : NULL;
}

void outputs_stats_get(const struct outputs *cs, size_t i, struct outputs_stats *st)
{
	struct outputs *s = (struct outputs *)cs; /* the queue locks */
	struct out *o;

	memset(st, 0, sizeof(*st));
	if (!s || i >= s->n)
		return;
	o = &s->outs[i];
	st->emitted = atomic_load(&o->emitted);
	st->failed = atomic_load(&o->failed);
	st->dropped = outq_dropped(&o->q, NULL, 0);
	st->queued = outq_count(&o->q);
}

void outputs_close(struct outputs *s, long timeout_ms)
{
	struct timespec deadline;
	size_t i;

	if (!s)
		return;
	outq_deadline(&deadline, timeout_ms > 0 ? timeout_ms : 0);
	outputs_kick(s);
	for (i = 0; i < s->n; i++)
		outq_wait_drained(&s->outs[i].q, &deadline);
	for (i = 0; i < s->n; i++)
		outq_stop(&s->outs[i].q);
	for (i = 0; i < s->n; i++)
		out_worker_join(&s->outs[i], &deadline);
	outputs_free(s);
}
