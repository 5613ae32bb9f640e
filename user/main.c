// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* agent-sentinel: wires options, loader, consumer, pipeline and sinks together. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "clock.h"
#include "consumer.h"
#include "diag.h"
#include "engine.h"
#include "loader.h"
#include "notify.h"
#include "opts.h"
#include "pipeline.h"
#include "prefilter.h"
#include "record.h"
#include "trace.h"

#define MAIN_STDOUT_BUF (1 << 20) /* stdout block buffer when not -U */
#define MAIN_DROP_CHECK_NS 1000000000ull /* read the kernel drop counters every second */

static volatile sig_atomic_t main_stop;

static void main_on_signal(int sig)
{
	(void)sig;
	main_stop = 1;
}

static int main_signals(void)
{
	struct sigaction sa = { .sa_handler = main_on_signal }; /* no SA_RESTART: poll wakes */

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL))
		return -errno;
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

struct main_sink {
	FILE *out;
	struct engine *engine; /* NULL: no rules */
	int trace;
	int unbuffered;
	int failed;
};

/* Every event: its trace line (--trace), then the alerts it raises. */
static int main_sink(void *ctx, const struct event *ev, const struct proctable *pt)
{
	struct main_sink *s = ctx;
	int err = 0;

	if (s->trace)
		err = trace_write(ev, pt, s->out);
	if (s->engine)
		engine_process(s->engine, ev, pt, s->out);
	if (ferror(s->out) && !err)
		err = -EIO;
	if (err && !s->failed) {
		s->failed = 1;
		diag_err("cannot write to stdout: %s", strerror(-err));
	}
	if (s->unbuffered)
		fflush(s->out);
	return 0;
}

static int main_ring_cb(void *ctx, void *rec, size_t len)
{
	pipeline_feed(ctx, rec, len, 1);
	return 0;
}

static uint64_t sum(const uint64_t *v, unsigned n)
{
	uint64_t s = 0;

	for (unsigned i = 0; i < n; i++)
		s += v[i];
	return s;
}

static void main_report_drops(const uint64_t *now, uint64_t *seen)
{
	static const char *const names[AS_EV_MAX] = {
		[AS_EV_EXEC] = "exec",	     [AS_EV_FORK] = "fork",	[AS_EV_EXIT] = "exit",
		[AS_EV_OPEN] = "open",	     [AS_EV_CONNECT] = "connect", [AS_EV_SETID] = "setid",
		[AS_EV_CAPSET] = "capset",
	};
	char line[512] = "";
	size_t len = 0;

	if (sum(now, AS_EV_MAX) == sum(seen, AS_EV_MAX))
		return;
	for (unsigned t = 1; t < AS_EV_MAX; t++) {
		if (now[t] != seen[t] && names[t])
			len += (size_t)snprintf(line + len, sizeof(line) - len, " %s=%llu", names[t],
						(unsigned long long)(now[t] - seen[t]));
		seen[t] = now[t];
	}
	diag_warn("ring buffer full: events lost since last report:%s", line);
}

static void main_summary(const struct pipeline *p, const uint64_t *drops)
{
	diag_info("events=%llu drops=%llu bad_records=%llu untracked_procs=%llu procs=%u",
		  (unsigned long long)p->num, (unsigned long long)sum(drops, AS_EV_MAX),
		  (unsigned long long)p->bad_records, (unsigned long long)p->untracked,
		  proctable_count(p->pt));
}

static int main_replay(struct pipeline *p, const char *path)
{
	struct replayer *r = malloc(sizeof(*r));
	uint64_t drops[AS_EV_MAX] = { 0 };
	long len;
	int err = 0;

	if (!r)
		return -ENOMEM;
	err = replayer_open(r, path);
	while (!err && !main_stop && (len = replayer_next(r)) != 0) {
		if (len < 0) {
			err = (int)len;
			break;
		}
		pipeline_feed(p, r->buf, (size_t)len, 0);
	}
	replayer_close(r);
	free(r);
	fflush(stdout);
	main_summary(p, drops);
	return err;
}

static void main_seed_session(void *ctx, const struct as_hdr *h)
{
	if (h->flags & AS_HF_SESSION)
		loader_seed_session(ctx, h->pid, h->session);
}

/* Event types to attach: all for --trace, else those some rule needs. */
static uint32_t main_want_types(const struct main_sink *s)
{
	uint32_t mask = 0;

	if (s->trace || !s->engine)
		return ~0u;
	for (unsigned t = AS_EV_EXEC; t < AS_EV_MAX; t++)
		for (unsigned sc = AS_SC_NONE + 1; sc < AS_SC_MAX; sc++)
			if (engine_wants(s->engine, t, sc))
				mask |= 1u << t;
	/* the process table lives on exec, fork and exit whatever the rules ask */
	return mask | 1u << AS_EV_EXEC | 1u << AS_EV_FORK | 1u << AS_EV_EXIT;
}

static int main_admit(void *ctx, const struct as_hdr *h)
{
	return engine_kfilter_pass(ctx, h);
}

/* What to attach and what the kernel drops, from the rules (none for --trace). */
static void main_plan(const struct opts *o, const struct main_sink *s, struct loader_opts *lo,
		      struct engine_kfilter *kf)
{
	memset(lo, 0, sizeof(*lo));
	lo->ringbuf_bytes = o->ringbuf_bytes;
	lo->wakeup_bytes = o->wakeup_bytes;
	lo->verbose = o->verbose;
	lo->want_types = main_want_types(s);
	if (s->trace || !s->engine || o->no_prefilter)
		return;
	prefilter_plan(s->engine, lo->want_types, kf);
	prefilter_to_loader(kf, lo);
	if (o->verbose)
		prefilter_describe(kf, stderr);
}

static int main_live(struct pipeline *p, const struct opts *o, const struct loader_opts *plan)
{
	struct loader_opts lo = *plan;
	uint64_t drops[AS_EV_MAX] = { 0 }, seen[AS_EV_MAX] = { 0 };
	uint64_t next_check, deadline = 0;
	struct consumer c = { 0 };
	struct loader l;
	int err;

	err = loader_start(&l, &lo);
	if (err)
		return err;
	err = consumer_open(&c, loader_ringbuf_fd(&l), main_ring_cb, p);
	if (err)
		goto out;
	clock_calibrate();
	pipeline_seed(p, "/proc", main_seed_session, &l);
	notify_send("READY=1");
	if (o->verbose)
		diag_info("%u programs attached, %u switched off (tracepoint missing), "
			  "%u not needed; %u processes seeded",
			  l.attached, l.skipped, l.unwanted, proctable_count(p->pt));
	next_check = clock_mono_now() + MAIN_DROP_CHECK_NS;
	if (o->duration > 0)
		deadline = clock_mono_now() + (uint64_t)(o->duration * 1e9);
	while (!main_stop) {
		uint64_t now;

		err = consumer_poll(&c);
		if (err < 0) {
			diag_err("ring buffer poll failed: %s", strerror(-err));
			break;
		}
		err = 0;
		fflush(stdout);
		now = clock_mono_now();
		if (now >= next_check) {
			clock_calibrate(); /* follow wall-clock steps */
			loader_read_drops(&l, drops, AS_EV_MAX);
			main_report_drops(drops, seen);
			next_check = now + MAIN_DROP_CHECK_NS;
		}
		if (deadline && now >= deadline)
			break;
	}
	notify_send("STOPPING=1");
	consumer_drain(&c);
	fflush(stdout);
	loader_read_drops(&l, drops, AS_EV_MAX);
	main_report_drops(drops, seen);
	main_summary(p, drops);
out:
	consumer_close(&c);
	loader_stop(&l);
	return err;
}

/* Load the rules of -r (or -V); 0, or 1 after the engine listed the problems. */
static int main_load_rules(const struct opts *o, const char *const *paths, size_t n,
			   struct engine **out)
{
	struct engine_opts eo = { .rule_matching_all = o->rule_matching_all,
				  .min_priority = o->min_priority,
				  .json = o->json };
	int err = engine_load(out, paths, n, &eo, stderr);

	if (err == -ENOMEM) {
		diag_err("out of memory loading rules");
		return 1;
	}
	return err ? 1 : 0;
}

/* -V, --dry-run, -L, --list-fields: answer and exit. Returns an exit code,
 * or -1 when the run goes on. */
static int main_one_shot(const struct opts *o)
{
	struct engine *e = NULL;
	int rc;

	if (o->list_fields)
		return engine_list_fields(stdout, o->format ? o->format : "text") ? 2 : 0;
	if (o->n_validate) {
		rc = main_load_rules(o, o->validate, o->n_validate, &e);
		if (!rc)
			diag_info("%zu rules in %zu files: OK", engine_rule_count(e), o->n_validate);
		engine_free(e);
		return rc;
	}
	if (!o->dry_run && !o->list_rules)
		return -1;
	rc = main_load_rules(o, o->rules, o->n_rules, &e);
	if (!rc && o->list_rules)
		engine_list_rules(e, stdout, o->format && !strcmp(o->format, "json"));
	engine_free(e);
	return rc;
}

int main(int argc, char **argv)
{
	static struct main_sink sink;
	static struct engine_kfilter kf;
	struct loader_opts lo;
	struct recorder rec = { 0 };
	struct pipeline p;
	struct opts o;
	int err;

	err = opts_parse(&o, argc, argv);
	if (err)
		return err > 0 ? 0 : 2;
	err = main_one_shot(&o);
	if (err >= 0)
		return err;
	if (!o.trace && !o.n_rules) {
		diag_err("nothing to do: give --rules FILE or --trace (see --help)");
		return 2;
	}
	if (main_signals())
		return 1;
	if (!o.unbuffered)
		setvbuf(stdout, NULL, _IOFBF, MAIN_STDOUT_BUF);
	if (o.n_rules && main_load_rules(&o, o.rules, o.n_rules, &sink.engine)) {
		engine_free(sink.engine);
		return 1;
	}
	err = pipeline_init(&p, o.max_procs);
	if (err) {
		engine_free(sink.engine);
		return 1;
	}
	sink.out = stdout;
	sink.trace = o.trace;
	sink.unbuffered = o.unbuffered;
	p.sink = main_sink;
	p.sink_ctx = &sink;
	if (o.record) {
		clock_calibrate();
		err = recorder_open(&rec, o.record, clock_wall_now());
		if (err)
			goto out;
		p.recorder = &rec;
	}
	main_plan(&o, &sink, &lo, &kf);
	if (o.replay && sink.engine && !sink.trace && !o.no_prefilter) {
		/* filter the recording as the kernel would have */
		p.admit = main_admit;
		p.admit_ctx = &kf;
	}
	err = o.replay ? main_replay(&p, o.replay) : main_live(&p, &o, &lo);
out:
	if (p.recorder && recorder_close(&rec) && !err)
		err = -EIO;
	pipeline_fini(&p);
	engine_free(sink.engine);
	return err ? 1 : 0;
}
