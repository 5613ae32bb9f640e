// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The container cache: open addressing on the short id, linear probing,
 * backward-shift deletion (no tombstones), as the process table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ccache.h"

struct ccache {
	struct ccache_entry *slots;
	uint32_t mask;
	uint32_t count;
	uint32_t max_entries;
	uint32_t _pad0;
	struct ccache_stats st;
};

static uint32_t cc_hash(const char *id)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	for (; *id; id++)
		h = (h ^ (uint8_t)*id) * 16777619u;
	return h;
}

struct ccache *ccache_new(uint32_t max_entries)
{
	struct ccache *c = calloc(1, sizeof(*c));
	uint32_t n = 16;

	if (!c)
		return NULL;
	if (!max_entries || max_entries > CCACHE_MAX_ENTRIES)
		max_entries = CCACHE_MAX_ENTRIES;
	while (n < 2 * max_entries)
		n <<= 1; /* load factor at most one half: probes stay short */
	c->slots = calloc(n, sizeof(*c->slots));
	if (!c->slots) {
		free(c);
		return NULL;
	}
	c->mask = n - 1;
	c->max_entries = max_entries;
	return c;
}

void ccache_free(struct ccache *c)
{
	if (!c)
		return;
	for (uint32_t i = 0; i <= c->mask; i++)
		if (c->slots[i].used)
			cmeta_free(c->slots[i].meta);
	free(c->slots);
	free(c);
}

struct ccache_entry *ccache_get(const struct ccache *c, const char *short_id)
{
	for (uint32_t i = cc_hash(short_id) & c->mask;; i = (i + 1) & c->mask) {
		struct ccache_entry *e = &c->slots[i];

		if (!e->used)
			return NULL;
		if (!strcmp(e->id, short_id))
			return e;
	}
}

struct ccache_entry *ccache_ref(struct ccache *c, const char *short_id, const char *full_id,
				unsigned type, int *created)
{
	struct ccache_entry *e = ccache_get(c, short_id);

	*created = 0;
	if (e) {
		e->refs++;
		if (!e->full_id[0] && full_id)
			snprintf(e->full_id, sizeof(e->full_id), "%s", full_id);
		return e;
	}
	if (!full_id)
		return NULL; /* a fork into a container we refused: nothing to ask with */
	if (c->count >= c->max_entries) {
		c->st.refused++;
		return NULL;
	}
	for (uint32_t i = cc_hash(short_id) & c->mask;; i = (i + 1) & c->mask) {
		e = &c->slots[i];
		if (e->used)
			continue;
		memset(e, 0, sizeof(*e));
		e->used = 1;
		snprintf(e->id, sizeof(e->id), "%s", short_id);
		snprintf(e->full_id, sizeof(e->full_id), "%s", full_id);
		e->type = (uint8_t)type;
		e->state = CCACHE_NEW;
		e->refs = 1;
		c->count++;
		c->st.added++;
		*created = 1;
		return e;
	}
}

static void cc_remove(struct ccache *c, struct ccache_entry *e)
{
	uint32_t i = (uint32_t)(e - c->slots), j = i;

	cmeta_free(e->meta);
	for (;;) {
		uint32_t home;

		j = (j + 1) & c->mask;
		if (!c->slots[j].used)
			break;
		home = cc_hash(c->slots[j].id) & c->mask;
		if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
			continue;
		c->slots[i] = c->slots[j];
		i = j;
	}
	memset(&c->slots[i], 0, sizeof(c->slots[i]));
	c->count--;
	c->st.evicted++;
}

void ccache_unref(struct ccache *c, const char *short_id)
{
	struct ccache_entry *e = ccache_get(c, short_id);

	if (e && e->refs && --e->refs == 0)
		cc_remove(c, e);
}

void ccache_publish(struct ccache *c, const char *short_id, struct cmeta *meta)
{
	struct ccache_entry *e = ccache_get(c, short_id);

	if (!e || e->state == CCACHE_RESOLVED) {
		cmeta_free(meta); /* the container exited while it was asked for */
		return;
	}
	if (meta) {
		e->meta = meta;
		e->state = CCACHE_RESOLVED;
		c->st.resolved++;
	} else {
		e->state = CCACHE_FAILED;
		c->st.failed++;
	}
}

void ccache_each(struct ccache *c, void (*fn)(struct ccache_entry *e, void *ctx), void *ctx)
{
	for (uint32_t i = 0; i <= c->mask; i++)
		if (c->slots[i].used)
			fn(&c->slots[i], ctx);
}

uint32_t ccache_count(const struct ccache *c)
{
	return c->count;
}

struct ccache_stats ccache_stats(const struct ccache *c)
{
	return c->st;
}
