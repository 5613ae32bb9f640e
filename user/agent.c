// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "agent.h"
#include "agentid.h"
#include "bgjob.h"
#include "clock.h"
#include "consumer.h"
#include "container/container.h"
#include "diag.h"
#include "engine.h"
#include "internal.h"
#include "lastrun.h"
#include "loader.h"
#include "metrics.h"
#include "names.h"
#include "notify.h"
#include "outputs.h"
#include "pipeline.h"
#include "prefilter.h"
#include "privs.h"
#include "record.h"
#include "dnsres.h"
#include "trace.h"

#define AGENT_STDOUT_BUF (1 << 20) /* stdout block buffer for --trace */
#define AGENT_TICK_NS 1000000000ull /* drop counters, metrics, pins: once a second */
#define AGENT_CLOSE_MS 5000 /* outputs get this long to drain at exit */
#define AGENT_RELOAD_CLOSE_MS 1000 /* old outputs get this long after a reload */
#define AGENT_RELOAD_NICE 10 /* a reload's compile is this much nicer than the loop */
#define AGENT_EVAL_SAMPLE 64 /* time one engine call in this many (metrics) */
#define AGENT_REPLAY_DNS_MS 5000 /* a replay waits this long for the rules' host names */
#define AGENT_REPLAY_BATCH 256 /* replayed records per wakeup of the output threads */

/* A reload under way: what its thread reads and compiles (agent_reload_*) */
struct agent_reload {
	struct bgjob job;
	struct agent *a;
	int check_safety;
	int err;
	struct config cfg;
	struct engine *e;
};

struct agent {
	const struct opts *o;
	struct config cfg;
	struct engine *engine;
	struct outputs *outputs;
	struct metrics metrics;
	struct pipeline p;
	struct recorder rec;
	struct loader l;
	struct consumer c;
	struct loader_opts lo;
	struct engine_kfilter kf;
	int live;
	int started; /* reached READY (or opened the recording): a summary is due */
	int trace; /* --trace: stdout carries event lines, written here */
	struct trace_filter *tf; /* --trace FILTER / -p FORMAT; NULL: neither */
	uint64_t eval_calls;
	uint64_t alerts_before; /* alerts of engines replaced by reloads */
	/* losses reported so far (drop alerts carry the difference) */
	uint64_t kdrops[AS_EV_MAX], kdrops_said[AS_EV_MAX];
	uint64_t kfolds; /* repeated sends the kernel folded (no loss: said in the summary) */
	uint64_t odrops_said[METRICS_OUTPUTS_MAX];
	uint64_t last_drop_alert, next_tick, next_metrics_alert;
	uint64_t pins_new; /* agentid_pins_now() seen once, not yet applied; 0 none */
	uint64_t watchdog_ns, next_watchdog; /* systemd's watchdog; 0: none */
	struct lastrun run; /* our marker in the state directory */
	struct lastrun_prev prev_run; /* the one the run before left */
	struct agent_reload reload;
	char line[INTERNAL_LINE_MAX];
};

static volatile sig_atomic_t agent_stop, agent_reload;
static struct outputs *volatile agent_reopen_outputs;

static void agent_on_signal(int sig)
{
	if (sig == SIGHUP)
		agent_reload = 1;
	else if (sig == SIGUSR1) {
		if (agent_reopen_outputs)
			outputs_reopen(agent_reopen_outputs); /* async-signal-safe */
	} else
		agent_stop = 1;
}

static int agent_signals(void)
{
	struct sigaction sa = { .sa_handler = agent_on_signal }; /* no SA_RESTART: poll wakes */
	int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGUSR1 };

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], &sa, NULL))
			return -errno;
	signal(SIGPIPE, SIG_IGN);
	/* a file size limit set on us (prlimit --fsize=0 from any root process)
	 * would kill us at the next write of a file: that write fails instead */
	signal(SIGXFSZ, SIG_IGN);
	/* the signals whose default ends a process and that the kernel sends
	 * on another's say-so: SIGIO (and SIGPOLL, the same) to the owner of a
	 * file's I/O signals (fcntl F_SETOWN from any root process names us
	 * without a kill call; the alert is 'Agent Tampered With the Monitor') */
	signal(SIGIO, SIG_IGN);
	return 0;
}

/* ---- configuration ----------------------------------------------------- */

/* The configuration of o into cfg, nothing else touched (a reload's thread
 * reads it beside the running one); agent_config also makes its agents the
 * running ones. */
static int agent_config_read(const struct opts *o, struct config *cfg, int check_safety)
{
	const char *path = o->config;
	int err;

	err = config_defaults(cfg);
	if (err)
		return err;
	if (!path && access(CONFIG_DEFAULT_PATH, F_OK) == 0)
		path = CONFIG_DEFAULT_PATH;
	if (path) {
		if (check_safety && config_check_file_safety(path, stderr))
			return -EPERM;
		err = config_load_file(cfg, path, stderr);
		if (err)
			return err;
	}
	for (size_t i = 0; i < o->n_overrides; i++)
		if (config_set_option(cfg, o->overrides[i], stderr))
			return -EINVAL;
	if (o->n_rules) { /* -r replaces rules_files, as in Falco */
		for (size_t i = 0; i < cfg->n_rules_files; i++)
			free(cfg->rules_files[i]);
		free(cfg->rules_files);
		cfg->rules_files = calloc(o->n_rules, sizeof(char *));
		if (!cfg->rules_files)
			return -ENOMEM;
		cfg->n_rules_files = 0;
		for (size_t i = 0; i < o->n_rules; i++) {
			cfg->rules_files[i] = strdup(o->rules[i]);
			if (!cfg->rules_files[i])
				return -ENOMEM;
			cfg->n_rules_files++;
		}
	}
	if (o->text)
		cfg->json_output = false;
	if (o->unbuffered)
		cfg->buffered_outputs = false;
	if (o->ringbuf_bytes)
		cfg->ringbuf.size_bytes = o->ringbuf_bytes;
	if (o->wakeup_bytes != OPTS_UNSET)
		cfg->ringbuf.wakeup_bytes = o->wakeup_bytes;
	if (o->max_procs)
		cfg->proctable.max_entries = o->max_procs;
	if (check_safety)
		for (size_t i = 0; i < cfg->n_rules_files; i++)
			if (config_check_file_safety(cfg->rules_files[i], stderr))
				return -EPERM;
	if (config_validate(cfg, stderr))
		return -EINVAL;
	return 0;
}

/* cfg's agents the running ones: before the pre-filter is planned, which
 * tests for their names */
static int agent_config_agents(const struct config *cfg)
{
	return agentid_set(cfg->agents.names, cfg->agents.n_names, cfg->agents.exe_paths,
			   cfg->agents.n_exe_paths);
}

int agent_config(const struct opts *o, struct config *cfg, int check_safety)
{
	int err = agent_config_read(o, cfg, check_safety);

	return err ? err : agent_config_agents(cfg);
}

static void agent_emit(void *ctx, const char *line, size_t len, int prio, const char *rule);

/* Load the rules of cfg; 0, or -EINVAL after the engine listed the problems. */
static int agent_engine(struct agent *a, const struct config *cfg, struct engine **out)
{
	struct engine_opts eo = {
		.rule_matching_all = cfg->rule_matching == CONFIG_MATCH_ALL,
		.min_priority = cfg->priority,
		.json = cfg->json_output,
		.seq = 1,
		.emit = a ? agent_emit : NULL,
		.emit_ctx = a,
	};
	int err = engine_load(out, (const char *const *)cfg->rules_files, cfg->n_rules_files, &eo,
			      stderr);

	if (err == -ENOMEM)
		diag_err("out of memory loading rules");
	if (err) {
		engine_free(*out);
		*out = NULL;
	}
	return err;
}

int agent_one_shot(const struct opts *o)
{
	struct config cfg = { 0 };
	struct engine *e = NULL;
	int rc = 1;

	if (o->list_fields)
		return engine_list_fields(stdout, o->format ? o->format : "text") ? 2 : 0;
	if (!o->n_validate && !o->dry_run && !o->list_rules && !o->dump)
		return -1;
	if (agent_config(o, &cfg, 0))
		goto out;
	if (o->n_validate) { /* -V checks the files named, whatever the config lists */
		struct opts v = *o;

		memcpy(v.rules, o->validate, sizeof(v.rules));
		v.n_rules = o->n_validate;
		config_free(&cfg);
		if (agent_config(&v, &cfg, 0))
			goto out;
	}
	if (agent_engine(NULL, &cfg, &e))
		goto out;
	rc = 0;
	if (o->list_rules)
		engine_list_rules(e, stdout, o->format && !strcmp(o->format, "json"));
	else if (o->dump)
		engine_dump(e, stdout);
	else
		diag_info("%zu rules in %zu files: OK", engine_rule_count(e), cfg.n_rules_files);
out:
	engine_free(e);
	config_free(&cfg);
	return rc;
}

/* ---- outputs ------------------------------------------------------------ */

static int agent_outputs(const struct config *cfg, int trace, struct outputs **out)
{
	struct outputs_config oc = {
		.json = cfg->json_output,
		.buffered = cfg->buffered_outputs,
		.queue_max = cfg->outputs_queue.capacity,
		/* with --trace this thread owns stdout: alerts join the event lines */
		.stdout_output = { .enabled = cfg->stdout_output.enabled && !trace },
		.file_output = { cfg->file_output.enabled, cfg->file_output.filename,
				 cfg->file_output.keep_alive },
		.syslog_output = { cfg->syslog_output.enabled, cfg->syslog_output.socket,
				   cfg->syslog_output.facility, cfg->syslog_output.tag },
		.program_output = { cfg->program_output.enabled, cfg->program_output.program,
				    cfg->program_output.keep_alive },
		.http_output = { cfg->http_output.enabled, cfg->http_output.url,
				 cfg->http_output.user_agent, cfg->http_output.insecure,
				 cfg->http_output.ca_cert, cfg->http_output.ca_path,
				 cfg->http_output.client_cert, cfg->http_output.client_key,
				 cfg->http_output.timeout_ms, (int)cfg->http_output.max_retries },
	};

	return outputs_open(out, &oc);
}

/* Did anything that shapes the outputs change? */
static int agent_outputs_changed(const struct config *a, const struct config *b)
{
	static const char *const prefixes[] = { "stdout_output.", "file_output.", "syslog_output.",
						"program_output.", "http_output.", "outputs_queue.",
						"json_output", "buffered_outputs" };
	size_t n;
	const struct config_key *keys = config_keys(&n);

	for (size_t i = 0; i < n; i++) {
		char va[1024], vb[1024];
		int match = 0;

		for (size_t j = 0; j < sizeof(prefixes) / sizeof(prefixes[0]); j++)
			match |= !strncmp(keys[i].name, prefixes[j], strlen(prefixes[j]));
		if (!match)
			continue;
		if (config_format(a, keys[i].name, va, sizeof(va)) ||
		    config_format(b, keys[i].name, vb, sizeof(vb)) || strcmp(va, vb))
			return 1;
	}
	return 0;
}

/* Every alert, the rules' and our own: counted, then to stdout (--trace) or the outputs. */
static void agent_emit(void *ctx, const char *line, size_t len, int prio, const char *rule)
{
	struct agent *a = ctx;

	metrics_alert(&a->metrics, rule, prio);
	if (a->trace) {
		fwrite(line, 1, len, stdout);
		fputc('\n', stdout);
	}
	if (a->outputs)
		outputs_emit(a->outputs, line, len, prio, rule);
}

static void agent_internal(struct agent *a, int prio, const char *rule, const char *msg,
			   const struct internal_field *f, size_t n)
{
	const char *host = a->engine ? engine_hostname(a->engine) : "";
	long len = internal_format(a->line, sizeof(a->line), a->cfg.json_output, host,
				   clock_wall_now(), prio, rule, msg, f, n);

	if (len > 0)
		agent_emit(a, a->line, (size_t)len, prio, rule);
}

/* ---- losses and metrics -------------------------------------------------- */

/* Publish counters for the endpoint and the metrics alert. */
static void agent_publish(struct agent *a)
{
	struct metrics *m = &a->metrics;
	size_t n = a->outputs ? outputs_count(a->outputs) : 0;

	for (unsigned t = 0; t < AS_EV_MAX; t++) {
		atomic_store_explicit(&m->events[t], a->p.by_type[t], memory_order_relaxed);
		atomic_store_explicit(&m->kernel_drops[t], a->kdrops[t], memory_order_relaxed);
	}
	atomic_store_explicit(&m->bad_records, a->p.bad_records, memory_order_relaxed);
	atomic_store_explicit(&m->proctable_entries, proctable_count(a->p.pt),
			      memory_order_relaxed);
	atomic_store_explicit(&m->untracked, a->p.untracked, memory_order_relaxed);
	if (n > METRICS_OUTPUTS_MAX)
		n = METRICS_OUTPUTS_MAX;
	for (size_t i = 0; i < n; i++) {
		struct outputs_stats st;

		outputs_stats_get(a->outputs, i, &st);
		snprintf(m->outputs[i].name, sizeof(m->outputs[i].name), "%s",
			 outputs_name(a->outputs, i));
		atomic_store_explicit(&m->outputs[i].emitted, st.emitted, memory_order_relaxed);
		atomic_store_explicit(&m->outputs[i].dropped, st.dropped, memory_order_relaxed);
		atomic_store_explicit(&m->outputs[i].failed, st.failed, memory_order_relaxed);
		atomic_store_explicit(&m->outputs[i].queued, st.queued, memory_order_relaxed);
	}
	atomic_store_explicit(&m->noutputs, n, memory_order_release);
}

/*
 * Losses become an alert in the stream itself (rule "agent-sentinel
 * internal: event drop", source internal), at most one per
 * drop_alerts.rate_limit_s, each carrying what was lost since the last one,
 * per event type and per output; force sends a pending one now (at exit).
 */
static void agent_drop_alert(struct agent *a, uint64_t now, int force)
{
	struct internal_field f[AS_EV_MAX + METRICS_OUTPUTS_MAX + 2];
	uint64_t kernel = 0, queued = 0;
	size_t n = 0, no = atomic_load(&a->metrics.noutputs);
	char msg[256];

	NAMES_EACH_KERNEL_TYPE(t)
		kernel += a->kdrops[t] - a->kdrops_said[t];
	for (size_t i = 0; i < no; i++)
		queued += atomic_load(&a->metrics.outputs[i].dropped) - a->odrops_said[i];
	if (!kernel && !queued)
		return;
	if (!force && a->last_drop_alert &&
	    now - a->last_drop_alert < (uint64_t)a->cfg.drop_alerts.rate_limit_s * 1000000000ull)
		return;
	NAMES_EACH_KERNEL_TYPE(t) {
		static char keys[AS_EV_MAX][32];

		snprintf(keys[t], sizeof(keys[t]), "ringbuf.%s", names_event_kind(t));
		f[n++] = (struct internal_field){ keys[t], NULL, a->kdrops[t] - a->kdrops_said[t] };
		a->kdrops_said[t] = a->kdrops[t];
	}
	for (size_t i = 0; i < no; i++) {
		static char keys[METRICS_OUTPUTS_MAX][32];
		uint64_t d = atomic_load(&a->metrics.outputs[i].dropped);

		snprintf(keys[i], sizeof(keys[i]), "output.%s", a->metrics.outputs[i].name);
		f[n++] = (struct internal_field){ keys[i], NULL, d - a->odrops_said[i] };
		a->odrops_said[i] = d;
	}
	f[n++] = (struct internal_field){ "ringbuf.total", NULL, kernel };
	f[n++] = (struct internal_field){ "output.total", NULL, queued };
	snprintf(msg, sizeof(msg),
		 "agent-sentinel internal: event drop. %llu events lost in the kernel ring "
		 "buffer, %llu alerts lost in output queues",
		 (unsigned long long)kernel, (unsigned long long)queued);
	diag_warn("%s", msg + strlen("agent-sentinel internal: "));
	agent_internal(a, ENGINE_PRIO_CRITICAL, INTERNAL_RULE_DROP, msg, f, n);
	a->last_drop_alert = now;
}

/* The run before ours left its marker: it was killed (SIGKILL), crashed, or
 * the host went down, and nobody watched from its last sign of life to our
 * start. Said once, in the stream, as soon as we watch again. */
static void agent_unclean_alert(struct agent *a)
{
	const struct lastrun_prev *p = &a->prev_run;
	char msg[512], started[LASTRUN_TIME_MAX], alive[LASTRUN_TIME_MAX], now_s[LASTRUN_TIME_MAX];
	uint64_t now = a->run.started_ns;
	struct internal_field f[4];
	size_t n = 0;

	if (!p->found)
		return;
	lastrun_time(now_s, now);
	if (p->readable) {
		lastrun_time(started, p->started_ns);
		lastrun_time(alive, p->alive_ns);
		snprintf(msg, sizeof(msg),
			 "%s. The previous agent-sentinel (pid %u, started %s) stopped without a "
			 "clean shutdown (killed, crashed or the host went down); nothing was "
			 "monitored from its last sign of life at %s until this start at %s",
			 INTERNAL_RULE_UNCLEAN, (unsigned)p->pid, started, alive, now_s);
		f[n++] = (struct internal_field){ "previous.pid", NULL, p->pid };
		f[n++] = (struct internal_field){ "previous.start_ns", NULL, p->started_ns };
		f[n++] = (struct internal_field){ "previous.alive_ns", NULL, p->alive_ns };
		f[n++] = (struct internal_field){ "unmonitored_ms", NULL,
						  now > p->alive_ns ? (now - p->alive_ns) / 1000000 : 0 };
	} else {
		snprintf(msg, sizeof(msg),
			 "%s. The previous agent-sentinel stopped without a clean shutdown and left "
			 "an unreadable marker; nothing was monitored for an unknown time before "
			 "this start at %s",
			 INTERNAL_RULE_UNCLEAN, now_s);
	}
	diag_warn("%s", msg + strlen("agent-sentinel internal: "));
	agent_internal(a, ENGINE_PRIO_CRITICAL, INTERNAL_RULE_UNCLEAN, msg, f, n);
}

/* "WATCHDOG=1" twice per systemd's interval, from the loop that consumes
 * events: a monitor that hangs or is stopped (SIGSTOP) stops sending it,
 * and systemd restarts it. */
static void agent_watchdog(struct agent *a, uint64_t now)
{
	if (!a->watchdog_ns || now < a->next_watchdog)
		return;
	a->next_watchdog = now + a->watchdog_ns / 2;
	notify_send("WATCHDOG=1");
}

static void agent_metrics_alert(struct agent *a)
{
	struct internal_field f[AS_EV_MAX + 6];
	uint64_t events = 0, drops = 0;
	size_t n = 0;

	NAMES_EACH_KERNEL_TYPE(t) {
		static char keys[AS_EV_MAX][32];

		snprintf(keys[t], sizeof(keys[t]), "events.%s", names_event_kind(t));
		f[n++] = (struct internal_field){ keys[t], NULL, a->p.by_type[t] };
		events += a->p.by_type[t];
		drops += a->kdrops[t];
	}
	f[n++] = (struct internal_field){ "events.total", NULL, events };
	f[n++] = (struct internal_field){ "drops.ringbuf", NULL, drops };
	f[n++] = (struct internal_field){ "alerts.total", NULL,
					  a->alerts_before +
						  (a->engine ? engine_alert_count(a->engine) : 0) };
	f[n++] = (struct internal_field){ "proctable.entries", NULL, proctable_count(a->p.pt) };
	f[n++] = (struct internal_field){ "rss_bytes", NULL, metrics_rss_bytes() };
	f[n++] = (struct internal_field){ "rule_eval_ns", NULL, atomic_load(&a->metrics.eval_ns) };
	agent_internal(a, ENGINE_PRIO_INFORMATIONAL, INTERNAL_RULE_METRICS,
		       "agent-sentinel internal: metrics", f, n);
}

/* The running configuration's pins resolved again (links and files as they
 * are now; agentid_set keeps the files they led to before) and into the
 * kernel's maps, nothing else reloaded. */
static int agent_pins_apply(struct agent *a)
{
	const struct config *c = &a->cfg;
	int err = agentid_set(c->agents.names, c->agents.n_names, c->agents.exe_paths,
			      c->agents.n_exe_paths);

	if (err)
		return err;
	prefilter_pins_to_loader(&a->lo);
	return a->live ? loader_set_pins(&a->l, &a->lo) : 0;
}

/* A pinned path that leads to another file now (an update moved a link to
 * a new version, or replaced or installed the file), the same at two checks
 * in a row (not caught mid-update, and a path that flaps is left alone):
 * the pins follow. */
static void agent_pins_check(struct agent *a)
{
	uint64_t now = agentid_pins_now();

	if (now == agentid_pins_sig()) {
		a->pins_new = 0;
		return;
	}
	if (now != a->pins_new) {
		a->pins_new = now;
		return;
	}
	a->pins_new = 0;
	diag_info("agents.exe_paths: a pinned path leads to another file now: pins set again");
	if (agent_pins_apply(a))
		diag_err("agents.exe_paths: the pins could not be set again");
}

static void agent_tick(struct agent *a, int final)
{
	uint64_t now = clock_mono_now();

	if (!final && now < a->next_tick)
		return;
	a->next_tick = now + AGENT_TICK_NS;
	if (a->live) {
		clock_calibrate(); /* follow wall-clock steps */
		loader_read_drops(&a->l, a->kdrops, AS_EV_MAX, &a->kfolds);
		lastrun_beat(&a->run, now);
		if (!final) {
			if (agentid_pinned())
				agent_pins_check(a);
			container_tick();
		}
	}
	agent_publish(a);
	agent_drop_alert(a, now, final);
	if (a->cfg.metrics.enabled && !final && now >= a->next_metrics_alert) {
		if (a->next_metrics_alert)
			agent_metrics_alert(a);
		a->next_metrics_alert = now + a->cfg.metrics.interval_ms * 1000000ull;
	}
}

/* ---- the event path ------------------------------------------------------- */

static int agent_sink(void *ctx, const struct event *ev, const struct proctable *pt)
{
	struct agent *a = ctx;

	if (a->trace && trace_filter_match(a->tf, ev, pt) &&
	    trace_filter_write(a->tf, ev, pt, stdout) == -E2BIG)
		diag_warn("event %llu too large to print", (unsigned long long)ev->num);
	if (!a->engine)
		return 0;
	if (++a->eval_calls % AGENT_EVAL_SAMPLE == 0) { /* sampled: clock reads cost too */
		uint64_t t0 = clock_mono_now();

		engine_process(a->engine, ev, pt, stdout);
		atomic_fetch_add_explicit(&a->metrics.eval_ns,
					  (clock_mono_now() - t0) * AGENT_EVAL_SAMPLE,
					  memory_order_relaxed);
	} else {
		engine_process(a->engine, ev, pt, stdout);
	}
	return 0;
}

static int agent_ring_cb(void *ctx, void *rec, size_t len)
{
	pipeline_feed(ctx, rec, len, 1);
	return 0;
}

static int agent_admit(void *ctx, const struct event *ev)
{
	return engine_kfilter_pass(ctx, ev);
}

/* The event types and the syscalls some rule (or --trace) needs. */
static uint32_t agent_want_types(const struct agent *a, const struct engine *e,
				 struct scset *want_sc)
{
	const struct engine *tf = trace_filter_engine(a->tf);
	uint32_t mask = 0;

	*want_sc = scset_all();
	if ((a->trace && !tf) || (!e && !tf))
		return ~0u;
	memset(want_sc, 0, sizeof(*want_sc));
	/* the --trace filter counts as one more rule */
	for (unsigned sc = AS_SC_NONE + 1; sc < AS_SC_MAX; sc++) {
		unsigned t = names_syscall_type(sc);

		if (engine_wants(e, t, sc) || engine_wants(tf, t, sc)) {
			mask |= 1u << t;
			scset_add(want_sc, sc);
		}
	}
	/* the process table lives on exec, fork and exit whatever the rules ask */
	scset_add(want_sc, AS_SC_EXECVE);
	scset_add(want_sc, AS_SC_EXECVEAT);
	return mask | 1u << AS_EV_EXEC | 1u << AS_EV_FORK | 1u << AS_EV_EXIT;
}

/* What to attach and what the kernel drops, for engine e under cfg. */
static void agent_plan(struct agent *a, const struct config *cfg, const struct engine *e,
		       struct loader_opts *lo, struct engine_kfilter *kf)
{
	const struct engine *tf = trace_filter_engine(a->tf);

	memset(lo, 0, sizeof(*lo));
	memset(kf, 0, sizeof(*kf));
	lo->ringbuf_bytes = cfg->ringbuf.size_bytes;
	lo->wakeup_bytes = cfg->ringbuf.wakeup_bytes;
	lo->verbose = a->o->verbose;
	lo->want_types = agent_want_types(a, e, &lo->want_sc);
	if ((a->trace && !tf) || (!e && !tf) || a->o->no_prefilter) {
		/* every event: every send too */
		engine_kfilter_all(kf);
		return;
	}
	lo->send_fold = 1;
	if (e)
		prefilter_plan(e, lo->want_types, kf);
	if (tf && e) { /* what either needs: the rules' alerts and the filter's events */
		struct engine_kfilter t;

		prefilter_plan(tf, lo->want_types, &t);
		engine_kfilter_union(kf, &t);
	} else if (tf) {
		prefilter_plan(tf, lo->want_types, kf);
	}
	prefilter_to_loader(kf, lo);
	if (a->o->verbose)
		prefilter_describe(kf, stderr);
}

/* ---- reload ---------------------------------------------------------------- */

/* The reload's thread: the new configuration read and its rules compiled,
 * beside the event loop, which goes on judging with the running ones. */
static void agent_reload_compile(void *arg)
{
	struct agent_reload *r = arg;

	/* this thread's alone (Linux's nice is per thread): the loop keeps the
	 * CPU it needs to empty the ring, the compile takes what is left */
	if (setpriority(PRIO_PROCESS, 0, getpriority(PRIO_PROCESS, 0) + AGENT_RELOAD_NICE))
		diag_warn("reload: cannot lower its thread's priority: %s", strerror(errno));
	r->err = agent_config_read(r->a->o, &r->cfg, r->check_safety);
	if (!r->err)
		r->err = agent_engine(r->a, &r->cfg, &r->e);
}

static void agent_reload_discard(struct agent_reload *r)
{
	engine_free(r->e);
	r->e = NULL;
	config_free(&r->cfg);
}

/*
 * SIGHUP: a new configuration and new rules read and compiled on a thread
 * (bgjob.h) while the loop keeps emptying the ring buffer: a compile longer
 * than the ring takes to fill loses nothing. A SIGHUP meanwhile reloads
 * again after this one.
 */
static void agent_reload_begin(struct agent *a)
{
	struct agent_reload *r = &a->reload;
	int err;

	agent_reload = 0;
	diag_info("reloading configuration and rules");
	memset(&r->cfg, 0, sizeof(r->cfg));
	r->e = NULL;
	r->err = 0;
	r->check_safety = a->live && geteuid() == 0;
	err = bgjob_start(&r->job, agent_reload_compile, r);
	if (err) {
		diag_err("reload: cannot start its thread: %s", strerror(-err));
		atomic_fetch_add(&a->metrics.reload_failures, 1);
		diag_err("reload failed: the running configuration and rules stay");
	}
}

/*
 * The compile done: swapped in only when every step succeeded; else the
 * running configuration and rules stay and the reason is logged.
 */
static void agent_reload_finish(struct agent *a)
{
	struct agent_reload *r = &a->reload;
	struct engine *e;
	struct outputs *outs = NULL, *old_outs = NULL;
	struct loader_opts lo;
	struct engine_kfilter kf;
	int agents_set = 0;

	bgjob_join(&r->job);
	if (r->err)
		goto fail;
	/* what the ring holds came under the running filter: the running rules
	 * judge it, before the kernel is told the new one */
	if (a->live)
		consumer_drain(&a->c);
	agents_set = 1;
	if (agent_config_agents(&r->cfg))
		goto fail;
	if (agent_outputs_changed(&a->cfg, &r->cfg) && agent_outputs(&r->cfg, a->trace, &outs))
		goto fail;
	e = r->e;
	agent_plan(a, &r->cfg, e, &lo, &kf);
	if (a->live) {
		if (r->cfg.ringbuf.size_bytes != a->cfg.ringbuf.size_bytes)
			diag_warn("ringbuf.size_bytes changes at the next start, not on reload");
		if (strcmp(r->cfg.state_directory, a->cfg.state_directory))
			diag_warn("state_directory changes at the next start, not on reload");
		lo.ringbuf_bytes = a->lo.ringbuf_bytes;
		if (loader_retarget(&a->l, &lo)) {
			loader_retarget(&a->l, &a->lo); /* back to what ran */
			goto fail;
		}
	}
	/* from here nothing fails: swap */
	engine_continue_seq(e, a->engine);
	a->alerts_before += engine_alert_count(a->engine);
	engine_free(a->engine);
	a->engine = e;
	r->e = NULL;
	a->lo = lo;
	a->kf = kf;
	if (outs) {
		sigset_t block, prev;

		sigemptyset(&block);
		sigaddset(&block, SIGUSR1);
		sigprocmask(SIG_BLOCK, &block, &prev);
		old_outs = a->outputs;
		a->outputs = outs;
		agent_reopen_outputs = outs;
		memset(a->odrops_said, 0, sizeof(a->odrops_said));
		sigprocmask(SIG_SETMASK, &prev, NULL);
		outputs_close(old_outs, AGENT_RELOAD_CLOSE_MS);
	}
	config_free(&a->cfg);
	a->cfg = r->cfg;
	memset(&r->cfg, 0, sizeof(r->cfg));
	atomic_fetch_add(&a->metrics.reloads, 1);
	diag_info("reloaded: %zu rules from %zu files", engine_rule_count(e), a->cfg.n_rules_files);
	return;
fail:
	agent_reload_discard(r);
	/* agent_config_agents set (some of) the new configuration's agents:
	 * back to the running one's */
	if (agents_set && agent_pins_apply(a))
		diag_err("agents.exe_paths: the running configuration's pins could not be set again");
	atomic_fetch_add(&a->metrics.reload_failures, 1);
	diag_err("reload failed: the running configuration and rules stay");
}

/* One turn of the loop: a SIGHUP starts a reload, a finished compile is
 * swapped in (wait: the loop has no ring to empty meanwhile, a replay). */
static void agent_reload_step(struct agent *a, int wait)
{
	if (agent_reload && !bgjob_running(&a->reload.job))
		agent_reload_begin(a);
	if (bgjob_done(&a->reload.job) || (wait && bgjob_running(&a->reload.job)))
		agent_reload_finish(a);
}

/* How long an idle ring may keep the loop asleep: until the next tick, the
 * watchdog's next ping or the --duration deadline; not while a reload
 * compiles (its end is looked for each time round). */
static int agent_idle_ms(const struct agent *a, uint64_t deadline)
{
	uint64_t now = clock_mono_now(), until = a->next_tick;

	if (bgjob_running(&a->reload.job) || agent_reload)
		return 0;
	if (a->watchdog_ns && a->next_watchdog < until)
		until = a->next_watchdog;
	if (deadline && deadline < until)
		until = deadline;
	return until > now ? (int)((until - now) / 1000000ull) : 0;
}

/* Stopping: a compile still running is waited for and dropped. */
static void agent_reload_abandon(struct agent *a)
{
	if (!bgjob_running(&a->reload.job))
		return;
	bgjob_join(&a->reload.job);
	agent_reload_discard(&a->reload);
}

/* ---- running ------------------------------------------------------------------ */

static void agent_seed_session(void *ctx, const struct as_hdr *h)
{
	if (h->flags & AS_HF_SESSION)
		loader_seed_session(ctx, h->pid, h->session);
	if (h->type == AS_EV_PROC)
		loader_seed_lineage(ctx, h->pid, &((const struct as_exec *)h)->lin);
}

/* Container metadata: the cache follows the process table from the seed on. */
static int agent_containers(struct agent *a)
{
	const struct config *c = &a->cfg;
	struct container_config cc = {
		.enabled = c->container_engines.enabled,
		.docker_sockets = c->container_engines.docker_sockets,
		.n_docker_sockets = c->container_engines.n_docker_sockets,
		.podman_sockets = c->container_engines.podman_sockets,
		.n_podman_sockets = c->container_engines.n_podman_sockets,
		.containerd_sockets = c->container_engines.containerd_sockets,
		.n_containerd_sockets = c->container_engines.n_containerd_sockets,
		.crio_sockets = c->container_engines.crio_sockets,
		.n_crio_sockets = c->container_engines.n_crio_sockets,
		.timeout_ms = c->container_engines.timeout_ms,
		.max_entries = c->container_engines.max_entries,
		.verbose = a->o->verbose,
	};

	return container_start(&cc, a->p.pt);
}

/* state_directory, else the first of systemd's $STATE_DIRECTORY (a list
 * separated by ':'); NULL: none. */
static const char *agent_state_dir(const struct config *cfg)
{
	static char first[LASTRUN_DIR_MAX];
	const char *env = getenv("STATE_DIRECTORY");

	if (*cfg->state_directory)
		return cfg->state_directory;
	if (!env || !*env)
		return NULL;
	snprintf(first, sizeof(first), "%.*s", (int)strcspn(env, ":"), env);
	return first;
}

static int agent_live(struct agent *a)
{
	uint64_t deadline = 0, t0 = clock_mono_now(), seed_ns, ready_ns;
	int err;

	err = lastrun_open(&a->run, agent_state_dir(&a->cfg), &a->prev_run);
	if (err)
		return err;
	err = loader_start(&a->l, &a->lo);
	if (err)
		return err;
	a->live = 1;
	proctable_set_self(a->p.pt, &(struct proctable_self){ .pid = (uint32_t)getpid(),
							      .pgid = (uint32_t)getpgrp(),
							      .live = 1 });
	err = consumer_open(&a->c, loader_ringbuf_fd(&a->l), agent_ring_cb, &a->p);
	if (err)
		return err;
	consumer_set_idle_flag(&a->c, loader_ring_idle(&a->l));
	clock_calibrate();
	/* seeded before READY: whatever is alive when we say ready is known
	 * with its command line, even if it exits before its next event */
	if (agent_containers(a))
		return -1;
	seed_ns = clock_mono_now();
	pipeline_seed(&a->p, "/proc", agent_seed_session, &a->l);
	loader_expire_verdicts(&a->l);
	seed_ns = clock_mono_now() - seed_ns;
	if (geteuid() == 0 && privs_drop() == 0 && a->o->verbose)
		diag_info("capabilities now 0x%llx", (unsigned long long)privs_effective());
	container_resolve(); /* after the drop: its thread keeps what it starts with */
	err = lastrun_mark(&a->run);
	if (err)
		return err;
	atomic_store(&a->metrics.ready, 1);
	a->started = 1;
	ready_ns = clock_mono_now() - t0;
	notify_send("READY=1");
	a->watchdog_ns = notify_watchdog_ns();
	agent_unclean_alert(a);
	if (a->o->verbose)
		diag_info("%u tracepoints attached, %u switched off (tracepoint missing), "
			  "%u not needed; %u processes seeded",
			  a->l.at.attached, a->l.at.skipped, a->l.at.unwanted, proctable_count(a->p.pt));
	if (a->o->verbose)
		attach_describe(&a->l.at, stderr);
	if (a->o->verbose)
		diag_info("ready %.1f ms after loading started: open %.1f, load and verify %.1f, "
			  "ring warm-up %.1f, attach %.1f, /proc seed %.1f ms",
			  (double)ready_ns / 1e6, (double)a->l.open_ns / 1e6,
			  (double)a->l.load_ns / 1e6, (double)a->l.warm.ns / 1e6,
			  (double)a->l.attach_ns / 1e6, (double)seed_ns / 1e6);
	if (a->o->duration > 0)
		deadline = clock_mono_now() + (uint64_t)(a->o->duration * 1e9);
	while (!agent_stop) {
		err = consumer_poll(&a->c, agent_idle_ms(a, deadline));
		if (err < 0) {
			diag_err("ring buffer poll failed: %s", strerror(-err));
			break;
		}
		err = 0;
		if (a->trace)
			fflush(stdout);
		agent_reload_step(a, 0);
		agent_tick(a, 0);
		agent_watchdog(a, clock_mono_now());
		outputs_kick(a->outputs); /* this batch's alerts, internal ones too */
		if (deadline && clock_mono_now() >= deadline)
			break;
	}
	notify_send("STOPPING=1");
	agent_reload_abandon(a);
	consumer_drain(&a->c);
	outputs_kick(a->outputs);
	if (err)
		lastrun_close(&a->run); /* the next start says nobody watched */
	else
		lastrun_end(&a->run);
	if (a->o->verbose && a->cfg.container_engines.enabled) {
		struct ccache_stats st = container_stats();

		diag_info("containers: %u cached, %llu seen, %llu resolved, %llu unresolved, "
			  "%llu evicted, %llu refused",
			  container_cached(), (unsigned long long)st.added,
			  (unsigned long long)st.resolved, (unsigned long long)st.failed,
			  (unsigned long long)st.evicted, (unsigned long long)st.refused);
	}
	return err;
}

static int agent_replay(struct agent *a)
{
	struct replayer *r = malloc(sizeof(*r));
	uint64_t n = 0;
	long len;
	int err;

	if (!r)
		return -ENOMEM;
	err = replayer_open(r, a->o->replay);
	a->started = !err;
	if (!err) /* a signal in the recording names the run that recorded it */
		proctable_set_self(a->p.pt, &(struct proctable_self){ .pid = r->self_pid,
								      .pgid = r->self_pgid });
	outputs_set_block(a->outputs, 1); /* a recording's alerts all get out */
	while (!err && !agent_stop && (len = replayer_next(r)) != 0) {
		if (len < 0) {
			err = (int)len;
			break;
		}
		pipeline_feed(&a->p, r->rec, (size_t)len, 0);
		if (++n % AGENT_REPLAY_BATCH == 0)
			outputs_kick(a->outputs);
		agent_reload_step(a, 1);
	}
	agent_reload_abandon(a);
	outputs_kick(a->outputs);
	replayer_close(r);
	free(r);
	return err;
}

static void agent_summary(const struct agent *a)
{
	uint64_t drops = 0;

	for (unsigned t = 0; t < AS_EV_MAX; t++)
		drops += a->kdrops[t];
	diag_info("events=%llu drops=%llu bad_records=%llu untracked_procs=%llu procs=%u "
		  "alerts=%llu folded_sends=%llu",
		  (unsigned long long)a->p.num, (unsigned long long)drops,
		  (unsigned long long)a->p.bad_records, (unsigned long long)a->p.untracked,
		  proctable_count(a->p.pt),
		  (unsigned long long)(a->alerts_before +
				       (a->engine ? engine_alert_count(a->engine) : 0)),
		  (unsigned long long)a->kfolds);
}

int agent_run(const struct opts *o)
{
	static struct agent a; /* large; one per process */
	int live = !o->replay, err, rc = 1;

	a.o = o;
	a.reload.a = &a;
	a.trace = o->trace;
	metrics_init(&a.metrics);
	if (agent_signals())
		return 1;
	if (agent_config(o, &a.cfg, live && geteuid() == 0))
		goto out;
	if (!a.trace && !a.cfg.n_rules_files) {
		diag_err("nothing to do: give --rules FILE, rules_files in the configuration, or "
			 "--trace (see --help)");
		rc = 2;
		goto out;
	}
	if (a.cfg.n_rules_files && agent_engine(&a, &a.cfg, &a.engine))
		goto out;
	if (a.trace && trace_filter_load(&a.tf, o->trace_filter, o->trace_format, stderr)) {
		rc = 2;
		goto out;
	}
	if (a.trace)
		setvbuf(stdout, NULL, o->unbuffered ? _IOLBF : _IOFBF, AGENT_STDOUT_BUF);
	if (agent_outputs(&a.cfg, a.trace, &a.outputs))
		goto out;
	agent_reopen_outputs = a.outputs;
	if (pipeline_init(&a.p, a.cfg.proctable.max_entries))
		goto out;
	a.p.sink = agent_sink;
	a.p.sink_ctx = &a;
	if (live && (!(a.p.pathres = pathres_new()) || !(a.p.ldpath = ldpath_new()))) {
		diag_err("cannot allocate the path resolver: %s", strerror(ENOMEM));
		goto out;
	}
	if (o->record) {
		clock_calibrate();
		if (recorder_open(&a.rec, o->record, clock_wall_now()))
			goto out;
		a.p.recorder = &a.rec;
	}
	agent_plan(&a, &a.cfg, a.engine, &a.lo, &a.kf);
	if (!live && !o->no_prefilter && ((a.engine && !a.trace) || trace_filter_engine(a.tf))) {
		a.p.admit = agent_admit; /* filter the recording as the kernel would have */
		a.p.admit_ctx = &a.kf;
	}
	if (live && a.cfg.metrics.enabled && a.cfg.metrics.listen_port) {
		int port = 0;

		if (metrics_serve(&a.metrics, a.cfg.metrics.listen_address,
				  (int)a.cfg.metrics.listen_port, &port))
			goto out;
		if (o->verbose)
			diag_info(strchr(a.cfg.metrics.listen_address, ':') ?
					  "metrics on http://[%s]:%d/metrics" :
					  "metrics on http://%s:%d/metrics",
				  a.cfg.metrics.listen_address, port);
	}
	err = dnsres_start();
	if (err)
		diag_warn("cannot start the host name resolver: %s: fd.*ip.name matches nothing",
			  strerror(-err));
	else if (!live && !dnsres_settle(AGENT_REPLAY_DNS_MS))
		diag_warn("host names of the rules not all resolved within %d ms: "
			  "fd.*ip.name may differ from a live run", AGENT_REPLAY_DNS_MS);
	err = live ? agent_live(&a) : agent_replay(&a);
	if (a.started) {
		agent_tick(&a, 1);
		if (a.trace)
			fflush(stdout);
		agent_summary(&a);
	}
	rc = err ? 1 : 0;
out:
	metrics_stop(&a.metrics);
	dnsres_stop();
	agent_reopen_outputs = NULL;
	outputs_close(a.outputs, AGENT_CLOSE_MS);
	if (a.p.recorder && recorder_close(&a.rec))
		rc = 1;
	consumer_close(&a.c);
	loader_stop(&a.l);
	container_stop(a.p.pt);
	pipeline_fini(&a.p);
	engine_free(a.engine);
	trace_filter_free(a.tf);
	config_free(&a.cfg);
	return rc;
}
