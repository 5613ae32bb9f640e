// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "chttp.h"
#include "diag.h"
#include "resolver.h"
#include "sources.h"

enum { SRC_DOCKER, SRC_PODMAN, SRC_CONTAINERD, SRC_CRIO, SRC_N };

struct resolver_req {
	char id[CGPATH_ID_LEN + 1];
	uint8_t type;
};

struct resolver {
	struct resolver_config cfg;
	char *paths[SRC_N][RESOLVER_SOCKETS_MAX]; /* our copies of the socket paths, per source */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct resolver_req q[RESOLVER_QUEUE_MAX];
	uint32_t head, len;
	struct resolver_answer *done, **done_tail;
	atomic_int has_done;
	int stop;
};

static int is_socket(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISSOCK(st.st_mode);
}

/* Ask every socket of one runtime; -ENOENT when none knew the id. */
static int ask_runtime(const struct resolver_config *cfg, int src, const char *id,
		       struct cmeta **out, char *err, size_t cap)
{
	const char *const *const lists[SRC_N] = { cfg->docker, cfg->podman, cfg->containerd,
						  cfg->crio };
	const size_t counts[SRC_N] = { cfg->n_docker, cfg->n_podman, cfg->n_containerd,
				       cfg->n_crio };
	const char *const *s = lists[src];
	size_t n = counts[src];
	int rc = -ENOENT;

	for (size_t i = 0; i < n; i++) {
		int r;

		if (!s[i] || !s[i][0] || !is_socket(s[i]))
			continue; /* probed, not there: costs a stat */
		if (chttp_init(err, cap))
			return -EIO;
		if (src == SRC_CONTAINERD)
			r = src_containerd(s[i], id, cfg->timeout_ms, out, err, cap);
		else if (src == SRC_CRIO)
			r = src_crio(s[i], id, cfg->timeout_ms, out, err, cap);
		else
			r = src_docker(s[i], id, src == SRC_PODMAN ? CGPATH_PODMAN : CGPATH_DOCKER,
				       cfg->timeout_ms, out, err, cap);
		if (!r)
			return 0;
		if (r != -ENOENT)
			rc = r;
	}
	return rc;
}

struct cmeta *resolver_lookup(const struct resolver_config *cfg, const char *full_id,
			      enum cgpath_type type, char *err, size_t cap)
{
	/* the runtime the cgroup path names first, then the others */
	static const int order[CGPATH_NTYPES][SRC_N] = {
		[CGPATH_DOCKER] = { SRC_DOCKER, SRC_CONTAINERD, SRC_PODMAN, SRC_CRIO },
		[CGPATH_PODMAN] = { SRC_PODMAN, SRC_DOCKER, SRC_CONTAINERD, SRC_CRIO },
		[CGPATH_CONTAINERD] = { SRC_CONTAINERD, SRC_CRIO, SRC_DOCKER, SRC_PODMAN },
		[CGPATH_CRIO] = { SRC_CRIO, SRC_CONTAINERD, SRC_DOCKER, SRC_PODMAN },
		[CGPATH_CRI] = { SRC_CONTAINERD, SRC_CRIO, SRC_DOCKER, SRC_PODMAN },
		[CGPATH_RUNC] = { SRC_CONTAINERD, SRC_CRIO, SRC_DOCKER, SRC_PODMAN },
		[CGPATH_HOST] = { SRC_CONTAINERD, SRC_CRIO, SRC_DOCKER, SRC_PODMAN },
	};
	struct cmeta *m = NULL;
	char e[256] = "";
	int failed = 0;

	if ((unsigned)type >= CGPATH_NTYPES)
		type = CGPATH_RUNC;
	for (int i = 0; i < SRC_N; i++) {
		int r = ask_runtime(cfg, order[type][i], full_id, &m, e, sizeof(e));

		if (!r)
			return m;
		if (r != -ENOENT)
			failed = 1;
	}
	snprintf(err, cap, "%s", failed ? e : "no runtime knows it");
	return NULL;
}

static void *resolver_main(void *arg)
{
	struct resolver *r = arg;

	pthread_mutex_lock(&r->lock);
	for (;;) {
		struct resolver_req req;
		struct resolver_answer *a;
		char err[256];

		while (!r->stop && !r->len)
			pthread_cond_wait(&r->cond, &r->lock);
		if (r->stop)
			break;
		req = r->q[r->head];
		r->head = (r->head + 1) % RESOLVER_QUEUE_MAX;
		r->len--;
		pthread_mutex_unlock(&r->lock);

		a = calloc(1, sizeof(*a));
		if (a) {
			memcpy(a->id, req.id, CGPATH_SHORT_LEN);
			a->meta = resolver_lookup(&r->cfg, req.id, req.type, err, sizeof(err));
			if (!a->meta && r->cfg.verbose)
				diag_info("container %.12s: no metadata: %s", req.id, err);
		}
		pthread_mutex_lock(&r->lock);
		if (a) {
			*r->done_tail = a;
			r->done_tail = &a->next;
			atomic_store_explicit(&r->has_done, 1, memory_order_release);
		}
	}
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

static void free_paths(struct resolver *r)
{
	for (int s = 0; s < SRC_N; s++)
		for (int i = 0; i < RESOLVER_SOCKETS_MAX; i++)
			free(r->paths[s][i]);
}

static int copy_paths(struct resolver *r, int s, const char *const *in, size_t n,
		      const char *const **out, size_t *nout)
{
	if (n > RESOLVER_SOCKETS_MAX)
		n = RESOLVER_SOCKETS_MAX;
	for (size_t i = 0; i < n; i++)
		if (!(r->paths[s][i] = strdup(in[i] ? in[i] : "")))
			return -ENOMEM;
	*out = (const char *const *)r->paths[s];
	*nout = n;
	return 0;
}

struct resolver *resolver_start(const struct resolver_config *cfg)
{
	struct resolver *r = calloc(1, sizeof(*r));
	int rc;

	if (!r) {
		diag_err("container metadata: %s", strerror(ENOMEM));
		return NULL;
	}
	r->cfg = *cfg;
	if (copy_paths(r, SRC_DOCKER, cfg->docker, cfg->n_docker, &r->cfg.docker, &r->cfg.n_docker) ||
	    copy_paths(r, SRC_PODMAN, cfg->podman, cfg->n_podman, &r->cfg.podman, &r->cfg.n_podman) ||
	    copy_paths(r, SRC_CONTAINERD, cfg->containerd, cfg->n_containerd, &r->cfg.containerd,
		       &r->cfg.n_containerd) ||
	    copy_paths(r, SRC_CRIO, cfg->crio, cfg->n_crio, &r->cfg.crio, &r->cfg.n_crio)) {
		diag_err("container metadata: %s", strerror(ENOMEM));
		free_paths(r);
		free(r);
		return NULL;
	}
	r->done_tail = &r->done;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->cond, NULL);
	rc = pthread_create(&r->thread, NULL, resolver_main, r);
	if (rc) {
		diag_err("container metadata: cannot start its thread: %s", strerror(rc));
		pthread_mutex_destroy(&r->lock);
		pthread_cond_destroy(&r->cond);
		free_paths(r);
		free(r);
		return NULL;
	}
	return r;
}

void resolver_stop(struct resolver *r)
{
	struct resolver_answer *a;

	if (!r)
		return;
	pthread_mutex_lock(&r->lock);
	r->stop = 1;
	pthread_cond_signal(&r->cond);
	pthread_mutex_unlock(&r->lock);
	pthread_join(r->thread, NULL);
	for (a = r->done; a;) {
		struct resolver_answer *next = a->next;

		cmeta_free(a->meta);
		free(a);
		a = next;
	}
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->cond);
	free_paths(r);
	free(r);
}

int resolver_ask(struct resolver *r, const char *full_id, enum cgpath_type type)
{
	int rc = 0;

	pthread_mutex_lock(&r->lock);
	if (r->len >= RESOLVER_QUEUE_MAX) {
		rc = -ENOSPC;
	} else {
		struct resolver_req *q = &r->q[(r->head + r->len) % RESOLVER_QUEUE_MAX];

		snprintf(q->id, sizeof(q->id), "%s", full_id);
		q->type = (uint8_t)type;
		r->len++;
		pthread_cond_signal(&r->cond);
	}
	pthread_mutex_unlock(&r->lock);
	return rc;
}

struct resolver_answer *resolver_take(struct resolver *r)
{
	struct resolver_answer *a;

	if (!atomic_load_explicit(&r->has_done, memory_order_acquire))
		return NULL;
	pthread_mutex_lock(&r->lock);
	a = r->done;
	r->done = NULL;
	r->done_tail = &r->done;
	atomic_store_explicit(&r->has_done, 0, memory_order_relaxed);
	pthread_mutex_unlock(&r->lock);
	return a;
}
