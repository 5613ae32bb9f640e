// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Background resolution of the rules' host names: see dnsres.h. */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include "dnsres.h"

#define DNSRES_SETTLE_STEP_MS 5
#define DNSRES_STOP_WAIT_MS 200 /* how long a stop waits for a lookup in flight */
#define DNSRES_STR(x) #x
#define DNSRES_XSTR(x) DNSRES_STR(x)
#define DNSRES_NAMES_MAX_TEXT DNSRES_XSTR(DNSRES_NAMES_MAX)

struct dnsres_set {
	uint8_t n;
	uint8_t family[DNSRES_ADDRS_MAX];
	uint8_t addr[DNSRES_ADDRS_MAX][16];
};

/* Two answer sets per name: the thread fills the one readers are not
 * using, then publishes it by bumping gen; a reader takes set gen & 1.
 * The thread writes a set again only a refresh period later, far longer
 * than any reader holds one. */
struct dnsres_name {
	char name[DNSRES_NAME_MAX + 1];
	_Atomic uint32_t gen; /* 0: no answer yet */
	struct dnsres_set set[2];
};

static struct {
	struct dnsres_name names[DNSRES_NAMES_MAX];
	_Atomic uint32_t n;
	pthread_t thread;
	int running;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int stop;
} dnsres = { .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER };

int dnsres_want(const char *name, const char **err)
{
	uint32_t n = atomic_load(&dnsres.n);

	for (uint32_t i = 0; i < n; i++)
		if (!strcmp(dnsres.names[i].name, name))
			return 0;
	if (strlen(name) > DNSRES_NAME_MAX || !name[0]) {
		*err = "not a host name (empty, or longer than 253 bytes)";
		return -1;
	}
	if (n >= DNSRES_NAMES_MAX) {
		*err = "more than " DNSRES_NAMES_MAX_TEXT " distinct host names compared with fd.*ip.name";
		return -1;
	}
	strcpy(dnsres.names[n].name, name);
	atomic_store_explicit(&dnsres.names[n].gen, 0, memory_order_relaxed);
	atomic_store_explicit(&dnsres.n, n + 1, memory_order_release);
	return 0;
}

static void dnsres_resolve(struct dnsres_name *nm)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
	struct addrinfo *res = NULL, *ai;
	uint32_t gen = atomic_load_explicit(&nm->gen, memory_order_relaxed);
	struct dnsres_set *s = &nm->set[(gen + 1) & 1];

	s->n = 0;
	if (getaddrinfo(nm->name, NULL, &hints, &res) == 0) {
		for (ai = res; ai && s->n < DNSRES_ADDRS_MAX; ai = ai->ai_next) {
			if (ai->ai_family == AF_INET) {
				memset(s->addr[s->n], 0, 16);
				memcpy(s->addr[s->n], &((struct sockaddr_in *)ai->ai_addr)->sin_addr, 4);
			} else if (ai->ai_family == AF_INET6) {
				memcpy(s->addr[s->n], &((struct sockaddr_in6 *)ai->ai_addr)->sin6_addr, 16);
			} else {
				continue;
			}
			s->family[s->n++] = (uint8_t)ai->ai_family;
		}
		freeaddrinfo(res);
	}
	atomic_store_explicit(&nm->gen, gen + 1, memory_order_release);
}

static void *dnsres_loop(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&dnsres.mu);
	while (!dnsres.stop) {
		struct timespec until;
		uint32_t n = atomic_load_explicit(&dnsres.n, memory_order_acquire);

		pthread_mutex_unlock(&dnsres.mu);
		for (uint32_t i = 0; i < n; i++)
			dnsres_resolve(&dnsres.names[i]);
		pthread_mutex_lock(&dnsres.mu);
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += DNSRES_REFRESH_S;
		while (!dnsres.stop && pthread_cond_timedwait(&dnsres.cv, &dnsres.mu, &until) == 0)
			;
	}
	pthread_mutex_unlock(&dnsres.mu);
	return NULL;
}

int dnsres_start(void)
{
	int err;

	if (dnsres.running || !atomic_load(&dnsres.n))
		return 0;
	dnsres.stop = 0;
	err = pthread_create(&dnsres.thread, NULL, dnsres_loop, NULL);
	if (err)
		return -err;
	dnsres.running = 1;
	return 0;
}

void dnsres_stop(void)
{
	struct timespec until;

	if (!dnsres.running)
		return;
	pthread_mutex_lock(&dnsres.mu);
	dnsres.stop = 1;
	pthread_cond_signal(&dnsres.cv);
	pthread_mutex_unlock(&dnsres.mu);
	/* a lookup in flight can take the resolver's whole timeout (resolv.conf):
	 * give it a moment, then leave it to the process's exit */
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += DNSRES_STOP_WAIT_MS * 1000000L;
	until.tv_sec += until.tv_nsec / 1000000000L;
	until.tv_nsec %= 1000000000L;
	if (pthread_timedjoin_np(dnsres.thread, NULL, &until))
		pthread_detach(dnsres.thread);
	dnsres.running = 0;
}

const char *dnsres_name_of(int family, const uint8_t *addr)
{
	uint32_t n = atomic_load_explicit(&dnsres.n, memory_order_acquire);
	size_t len = family == AF_INET ? 4 : 16;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t gen = atomic_load_explicit(&dnsres.names[i].gen, memory_order_acquire);
		const struct dnsres_set *s = &dnsres.names[i].set[gen & 1];

		if (!gen)
			continue;
		for (unsigned j = 0; j < s->n && j < DNSRES_ADDRS_MAX; j++)
			if (s->family[j] == family && !memcmp(s->addr[j], addr, len))
				return dnsres.names[i].name;
	}
	return NULL;
}

static int dnsres_settled(void)
{
	uint32_t n = atomic_load_explicit(&dnsres.n, memory_order_acquire);

	for (uint32_t i = 0; i < n; i++)
		if (!atomic_load_explicit(&dnsres.names[i].gen, memory_order_acquire))
			return 0;
	return 1;
}

int dnsres_settle(unsigned timeout_ms)
{
	const struct timespec step = { 0, DNSRES_SETTLE_STEP_MS * 1000000L };

	for (unsigned waited = 0; !dnsres_settled(); waited += DNSRES_SETTLE_STEP_MS) {
		if (waited >= timeout_ms || !dnsres.running)
			return 0;
		nanosleep(&step, NULL);
	}
	return 1;
}
