// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include "usercache.h"

/* Distinct ids remembered; a host has few users. Past this, lookups go
 * uncached (slow but correct) rather than growing without bound. */
#define USERCACHE_SLOTS 256
#define USERCACHE_NAME_MAX 64

struct usercache_slot {
	uint32_t id;
	uint8_t used;
	uint8_t known; /* resolved to a name */
	char name[USERCACHE_NAME_MAX];
};

static struct usercache_slot users[USERCACHE_SLOTS], groups[USERCACHE_SLOTS];
static char uncached[USERCACHE_NAME_MAX];

static const char *usercache_get(struct usercache_slot *tab, uint32_t id, int is_group)
{
	uint32_t h = (id * 2654435761u) % USERCACHE_SLOTS;
	struct usercache_slot *s = NULL;
	const char *name = NULL;

	for (uint32_t i = 0; i < USERCACHE_SLOTS; i++) {
		struct usercache_slot *c = &tab[(h + i) % USERCACHE_SLOTS];

		if (c->used && c->id == id)
			return c->known ? c->name : NULL;
		if (!c->used) {
			s = c;
			break;
		}
	}
	if (is_group) {
		struct group *g = getgrgid(id);

		name = g ? g->gr_name : NULL;
	} else {
		struct passwd *p = getpwuid(id);

		name = p ? p->pw_name : NULL;
	}
	if (!s) {
		if (!name)
			return NULL;
		strncpy(uncached, name, sizeof(uncached) - 1);
		return uncached;
	}
	s->used = 1;
	s->id = id;
	s->known = name != NULL;
	if (name) {
		strncpy(s->name, name, sizeof(s->name) - 1);
		s->name[sizeof(s->name) - 1] = 0;
	}
	return s->known ? s->name : NULL;
}

const char *usercache_user(uint32_t uid)
{
	return usercache_get(users, uid, 0);
}

const char *usercache_group(uint32_t gid)
{
	return usercache_get(groups, gid, 1);
}

void usercache_reset(void)
{
	memset(users, 0, sizeof(users));
	memset(groups, 0, sizeof(groups));
}
