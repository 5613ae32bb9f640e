// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <signal.h>
#include "bgjob.h"

static void *bgjob_main(void *arg)
{
	struct bgjob *j = arg;

	j->fn(j->arg);
	atomic_store_explicit(&j->done, 1, memory_order_release);
	return NULL;
}

int bgjob_start(struct bgjob *j, void (*fn)(void *arg), void *arg)
{
	sigset_t all, prev;
	int err;

	if (j->running)
		return -EBUSY;
	j->fn = fn;
	j->arg = arg;
	atomic_store(&j->done, 0);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &prev); /* the new thread inherits it */
	err = pthread_create(&j->th, NULL, bgjob_main, j);
	pthread_sigmask(SIG_SETMASK, &prev, NULL);
	if (err)
		return -err;
	j->running = 1;
	return 0;
}

int bgjob_running(const struct bgjob *j)
{
	return j->running;
}

int bgjob_done(struct bgjob *j)
{
	return j->running && atomic_load_explicit(&j->done, memory_order_acquire);
}

void bgjob_join(struct bgjob *j)
{
	if (!j->running)
		return;
	pthread_join(j->th, NULL);
	j->running = 0;
}
