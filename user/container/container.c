// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The event thread's side of container metadata: cache, hook, answers. */
#include <stdlib.h>
#include <string.h>
#include "clock.h"
#include "container.h"
#include "diag.h"
#include "resolver.h"

static struct {
	struct ccache *cache;
	struct resolver *resolver;
	struct resolver_config rcfg;
	uint64_t queue_full;
} cs;

/* Land the resolver's answers in the cache. */
/* A container's lookup is asked for at most this many times, this far
 * apart: a runtime busy starting the very container (its first exec is
 * ours to see before the runtime has finished) may miss the lookup's
 * timeout once; one the runtimes do not know costs three asks in all. */
#define CONTAINER_LOOKUP_TRIES 3
#define CONTAINER_RETRY_NS 1000000000ull

static void container_drain(void)
{
	struct resolver_answer *a;

	if (!cs.resolver)
		return;
	a = resolver_take(cs.resolver);
	while (a) {
		struct resolver_answer *next = a->next;

		ccache_publish(cs.cache, a->id, a->meta);
		free(a);
		a = next;
	}
}

static void container_ask_new(struct ccache_entry *e, void *ctx);

void container_on_proc(void *ctx, const char *short_id, const char *full_id, unsigned type,
		       int delta)
{
	struct ccache_entry *e;
	int created;

	(void)ctx;
	if (!cs.cache)
		return;
	container_drain(); /* answers land here too, not only when a field asks */
	if (delta < 0) {
		ccache_unref(cs.cache, short_id);
		return;
	}
	e = ccache_ref(cs.cache, short_id, full_id, type, &created);
	if (e && created && cs.resolver)
		container_ask_new(e, NULL); /* before container_resolve: asked then */
}

int container_start(const struct container_config *cfg, struct proctable *pt)
{
	if (!cfg->enabled)
		return 0;
	cs.rcfg = (struct resolver_config){
		.docker = (const char *const *)cfg->docker_sockets,
		.n_docker = cfg->n_docker_sockets,
		.podman = (const char *const *)cfg->podman_sockets,
		.n_podman = cfg->n_podman_sockets,
		.containerd = (const char *const *)cfg->containerd_sockets,
		.n_containerd = cfg->n_containerd_sockets,
		.crio = (const char *const *)cfg->crio_sockets,
		.n_crio = cfg->n_crio_sockets,
		.timeout_ms = cfg->timeout_ms,
		.verbose = cfg->verbose,
	};
	cs.cache = ccache_new(cfg->max_entries);
	if (!cs.cache) {
		diag_err("container metadata: cannot allocate its cache");
		return -1;
	}
	proctable_on_container(pt, container_on_proc, NULL);
	return 0;
}

/* Hand e to the resolver (its first lookup, or another after a failure). */
static void container_ask(struct ccache_entry *e)
{
	e->tries++;
	e->retry_ns = clock_mono_now() + CONTAINER_RETRY_NS;
	if (resolver_ask(cs.resolver, e->full_id, (enum cgpath_type)e->type) == 0) {
		e->state = CCACHE_PENDING;
	} else {
		e->state = CCACHE_FAILED;
		cs.queue_full++;
	}
}

static void container_ask_new(struct ccache_entry *e, void *ctx)
{
	(void)ctx;
	if (e->state == CCACHE_NEW)
		container_ask(e);
}

static void container_ask_again(struct ccache_entry *e, void *ctx)
{
	uint64_t now = *(const uint64_t *)ctx;

	if (e->state == CCACHE_FAILED && e->tries < CONTAINER_LOOKUP_TRIES && e->full_id[0] &&
	    now >= e->retry_ns)
		container_ask(e);
}

void container_tick(void)
{
	uint64_t now = clock_mono_now();

	if (!cs.cache || !cs.resolver)
		return;
	container_drain();
	ccache_each(cs.cache, container_ask_again, &now);
}

int container_resolve(void)
{
	if (!cs.cache || cs.resolver)
		return 0;
	/* resolver_start copies the socket paths: the config may go */
	cs.resolver = resolver_start(&cs.rcfg);
	memset(&cs.rcfg, 0, sizeof(cs.rcfg));
	if (!cs.resolver)
		return -1;
	ccache_each(cs.cache, container_ask_new, NULL);
	return 0;
}

void container_stop(struct proctable *pt)
{
	if (pt)
		proctable_on_container(pt, NULL, NULL);
	resolver_stop(cs.resolver);
	ccache_free(cs.cache);
	memset(&cs, 0, sizeof(cs));
}

const struct cmeta *container_meta(const char *short_id)
{
	struct ccache_entry *e;

	if (!cs.cache || !short_id)
		return NULL;
	container_drain();
	e = ccache_get(cs.cache, short_id);
	return e && e->state == CCACHE_RESOLVED ? e->meta : NULL;
}

const char *container_full_id(const char *short_id)
{
	struct ccache_entry *e = cs.cache && short_id ? ccache_get(cs.cache, short_id) : NULL;

	return e && e->full_id[0] ? e->full_id : NULL;
}

const char *container_type_name(const char *short_id, unsigned cgroup_type)
{
	const struct cmeta *m = container_meta(short_id);

	return cgpath_type_name(m ? m->type : (enum cgpath_type)cgroup_type);
}

uint32_t container_cached(void)
{
	return cs.cache ? ccache_count(cs.cache) : 0;
}

struct ccache_stats container_stats(void)
{
	struct ccache_stats st = { 0 };

	if (cs.cache)
		st = ccache_stats(cs.cache);
	st.refused += cs.queue_full;
	return st;
}
