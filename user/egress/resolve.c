// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The resolver threads: a queue under one mutex, results through a pipe. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elog.h"
#include "resolve.h"

static void *egress_resolve_worker(void *arg)
{
	struct egress_resolver *r = arg;
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_ADDRCONFIG };

	for (;;) {
		struct egress_resolve_job *j;

		pthread_mutex_lock(&r->lock);
		while (!r->head)
			pthread_cond_wait(&r->more, &r->lock);
		j = r->head;
		r->head = j->next;
		if (!r->head)
			r->tail = NULL;
		pthread_mutex_unlock(&r->lock);
		j->gai_err = getaddrinfo(j->host, NULL, &hints, &j->res);
		if (j->gai_err == EAI_NONAME || j->gai_err == EAI_ADDRFAMILY) {
			/* AI_ADDRCONFIG hides names of a family no interface has (a
			 * host with only loopback): ask once more without it */
			struct addrinfo plain = hints;

			plain.ai_flags = 0;
			j->gai_err = getaddrinfo(j->host, NULL, &plain, &j->res);
		}
		/* a pointer is far below PIPE_BUF: the write is atomic and whole */
		while (write(r->done_wr, &j, sizeof(j)) < 0 && errno == EINTR)
			;
	}
	return NULL;
}

int egress_resolve_init(struct egress_resolver *r)
{
	int fds[2], err;

	memset(r, 0, sizeof(*r));
	if (pipe2(fds, O_CLOEXEC) < 0 || fcntl(fds[0], F_SETFL, O_NONBLOCK) < 0) {
		err = -errno;
		elog("resolver pipe: %s", strerror(errno));
		return err;
	}
	r->done_rd = fds[0];
	r->done_wr = fds[1];
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->more, NULL);
	for (int i = 0; i < EGRESS_RESOLVERS; i++) {
		err = pthread_create(&r->threads[i], NULL, egress_resolve_worker, r);
		if (err) {
			elog("resolver thread: %s", strerror(err));
			return -err;
		}
		pthread_detach(r->threads[i]);
	}
	return 0;
}

int egress_resolve_start(struct egress_resolver *r, uint64_t id, const char *host)
{
	struct egress_resolve_job *j = calloc(1, sizeof(*j));

	if (!j)
		return -ENOMEM;
	j->conn_id = id;
	snprintf(j->host, sizeof(j->host), "%s", host);
	pthread_mutex_lock(&r->lock);
	if (r->tail)
		r->tail->next = j;
	else
		r->head = j;
	r->tail = j;
	pthread_cond_signal(&r->more);
	pthread_mutex_unlock(&r->lock);
	return 0;
}

struct egress_resolve_job *egress_resolve_next(struct egress_resolver *r)
{
	struct egress_resolve_job *j;
	ssize_t n;

	do
		n = read(r->done_rd, &j, sizeof(j));
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(j) ? j : NULL;
}

void egress_resolve_free(struct egress_resolve_job *j)
{
	if (j->res)
		freeaddrinfo(j->res);
	free(j);
}
