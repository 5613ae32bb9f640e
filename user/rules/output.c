// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Outputs, at load: a rule's output is compiled once into literal pieces and
 * field slots, and the constant parts of its JSON line are escaped once
 * (output_alert.c writes the line of each alert from them).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "rules.h"
#include "json.h"

static int key_cmp(const void *a, const void *b)
{
	return strcmp(((const struct outkey *)a)->key, ((const struct outkey *)b)->key);
}

static int add_seg(struct rule *r, const char *lit, size_t litlen, int slot, int width, int unsup)
{
	struct outseg *n = realloc(r->segs, (r->nsegs + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	r->segs = n;
	n[r->nsegs++] = (struct outseg){ .lit = lit, .litlen = litlen, .slot = slot,
					 .width = width, .unsupported = unsup };
	return 0;
}

static int add_key(struct rule *r, const char *key, int slot, int unsup)
{
	struct outkey *n;
	char *k;

	for (size_t i = 0; i < r->nkeys; i++)
		if (strcmp(r->keys[i].key, key) == 0)
			return 0;
	n = realloc(r->keys, (r->nkeys + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	r->keys = n;
	k = strdup(key);
	if (!k)
		return -ENOMEM;
	n[r->nkeys++] = (struct outkey){ .key = k, .slot = slot, .unsupported = unsup };
	return 0;
}

static int name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.';
}

int output_compile(struct engine *e, struct rule *r, const struct text *t, struct cond_err *err,
		   char *warn, size_t warnsz)
{
	const char *s;
	size_t i = 0, lit = 0, n;

	warn[0] = 0;
	r->outtext = strndup(t->s, t->len);
	if (!r->outtext)
		return -ENOMEM;
	s = r->outtext;
	n = strlen(s);
	/* Falco trims the output text */
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	r->outtext[n] = 0;
	while (i < n) {
		size_t start = i, nm, wend;
		int width = 0, slot, unsup = 0;
		struct fref f = { 0 };
		char key[300], name[256];

		if (s[i] != '%') {
			i++;
			continue;
		}
		wend = i + 1;
		while (wend < n && isdigit((unsigned char)s[wend]) && width < 10000)
			width = width * 10 + (s[wend++] - '0');
		nm = wend;
		while (nm < n && name_char(s[nm]))
			nm++;
		while (nm > wend && s[nm - 1] == '.')
			nm--; /* "file=%fd.name." ends the sentence */
		if (nm == wend || nm - wend >= sizeof(name) || !isalpha((unsigned char)s[wend])) {
			i = wend;
			continue; /* a lone '%' is text */
		}
		if (add_seg(r, s + lit, start - lit, -1, 0, 0))
			return -ENOMEM;
		memcpy(name, s + wend, nm - wend);
		name[nm - wend] = 0;
		i = nm;
		if (i < n && s[i] == '[') {
			const char *close = memchr(s + i, ']', n - i);

			if (!close) {
				snprintf(err->msg, sizeof(err->msg),
					 "unterminated '[' after output field '%s'", name);
				return -EINVAL;
			}
			f.arg = strndup(s + i + 1, (size_t)(close - s - i - 1));
			if (!f.arg)
				return -ENOMEM;
			f.has_arg = 1;
			i = (size_t)(close - s) + 1;
		}
		lit = i;
		if (!strcmp(name, "container.info")) {
			free(f.arg);
			continue; /* Falco's placeholder for container details: nothing here */
		}
		f.name = name;
		slot = slot_find(e, &f, err);
		if (f.has_arg)
			snprintf(key, sizeof(key), "%s[%s]", name, f.arg);
		else
			snprintf(key, sizeof(key), "%s", name);
		free(f.arg);
		if (slot == -ENOTSUP) {
			unsup = 1;
			if (!warn[0])
				snprintf(warn, warnsz, "output field '%s' is not supported, prints <NA>",
					 key);
		} else if (slot < 0) {
			snprintf(err->msg + strlen(err->msg), sizeof(err->msg) - strlen(err->msg),
				 " in output");
			return slot;
		} else if (!f.has_arg && slot >= 0 && e->slots[slot].field == F_EVT_ARG) {
			snprintf(key, sizeof(key), "%s", e->slots[slot].text);
		}
		if (add_seg(r, NULL, 0, unsup ? -1 : slot, width, unsup) ||
		    add_key(r, key, unsup ? -1 : slot, unsup))
			return -ENOMEM;
	}
	if (add_seg(r, s + lit, n - lit, -1, 0, 0))
		return -ENOMEM;
	if (r->nkeys)
		qsort(r->keys, r->nkeys, sizeof(*r->keys), key_cmp);
	return 0;
}


/* Room for a constant piece of text: any byte may become a 6-byte escape */
static size_t piece_room(size_t textlen)
{
	return 6 * textlen + 64;
}

/* The text written into w (its own malloc'd buffer) as a string. */
static char *piece_take(struct jw *w, size_t *len)
{
	if (w->overflow) { /* piece_room was short: cannot be */
		free(w->buf);
		return NULL;
	}
	w->buf[w->len] = 0; /* jw_raw keeps two bytes spare */
	*len = w->len;
	return w->buf;
}

int output_init(struct engine *e)
{
	size_t cap = piece_room(strlen(e->hostname) + sizeof("hostname") + sizeof("output"));
	struct jw w;
	char *b = malloc(cap);

	if (!b)
		return -ENOMEM;
	jw_init(&w, b, cap);
	jw_obj_open(&w, NULL);
	jw_str(&w, "hostname", e->hostname);
	jw_key(&w, "output");
	jw_raw(&w, "\"", 1);
	e->json_head = piece_take(&w, &e->json_head_len);
	return e->json_head ? 0 : -ENOMEM;
}

/* "key": of each output field */
static int prepare_keys(struct rule *r)
{
	for (size_t i = 0; i < r->nkeys; i++) {
		struct outkey *k = &r->keys[i];
		size_t cap = piece_room(strlen(k->key));
		struct jw w;
		char *b = malloc(cap);

		if (!b)
			return -ENOMEM;
		/* ,"key":" : the comma for all but the first key, the quote
		 * for a string value (output_key) */
		jw_init(&w, b, cap);
		jw_raw(&w, ",", 1);
		jw_key(&w, k->key);
		jw_raw(&w, "\"", 1);
		k->json = piece_take(&w, &k->jsonlen);
		if (!k->json)
			return -ENOMEM;
		k->jsonlen--; /* the quote stays after the end */
		if (!strcmp(k->key, "agent.session"))
			r->has_session_key = 1;
		/* the value as the output text shows it, when it is there */
		k->seg = -1;
		for (size_t j = 0; k->slot >= 0 && j < r->nsegs && j < OUTPUT_REUSE_MAX; j++) {
			if (!r->segs[j].lit && r->segs[j].slot == k->slot) {
				k->seg = (int)j;
				break;
			}
		}
	}
	r->seq_at = r->session_at = r->nkeys;
	for (size_t i = r->nkeys; i-- > 0;) {
		if (strcmp(r->keys[i].key, "agent.seq") > 0)
			r->seq_at = i;
		if (strcmp(r->keys[i].key, "agent.session") > 0)
			r->session_at = i;
	}
	return 0;
}

/* Does s hold a byte above 0x7f? */
static int output_has_high(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] >= 0x80)
			return 1;
	return 0;
}

int output_prepare(struct rule *r)
{
	const char *prio = engine_priority_name(r->prio);
	size_t len = strlen(r->name) + strlen(r->source) + strlen(prio) +
		     sizeof("priority\"rule\"source\"tags\"time"),
	       cap, prio_at, *lit_at;
	struct jw w;
	char *b;

	for (size_t i = 0; i < r->ntags; i++)
		len += strlen(r->tags[i]) + 3;
	/* one allocation (engine.c frees json_tail) holds the tail, then the
	 * priority piece and every literal of the output text, escaped */
	cap = piece_room(len) + piece_room(strlen(prio) + 2) + sizeof(OUTPUT_FIELDS_OPEN);
	for (size_t i = 0; i < r->nsegs; i++)
		if (r->segs[i].lit)
			cap += piece_room(r->segs[i].litlen);
	b = malloc(cap);
	lit_at = calloc(r->nsegs ? r->nsegs : 1, sizeof(*lit_at));
	if (!b || !lit_at) {
		free(b);
		free(lit_at);
		return -ENOMEM;
	}
	/* what output_alert wrote after the output fields, up to the time */
	jw_init(&w, b, cap);
	jw_obj_close(&w);
	jw_str(&w, "priority", prio);
	jw_str(&w, "rule", r->name);
	jw_str(&w, "source", r->source);
	jw_arr_open(&w, "tags");
	for (size_t i = 0; i < r->ntags; i++)
		jw_str(&w, NULL, r->tags[i]);
	jw_arr_close(&w);
	jw_key(&w, "time");
	jw_raw(&w, "\"", 1);
	r->json_tail_len = w.len;
	jw_raw(&w, "", 1); /* a NUL after each piece */
	prio_at = w.len;
	jw_raw(&w, ": ", 2);
	jw_escape(&w, prio, strlen(prio));
	jw_raw(&w, " ", 1);
	r->json_prio_len = w.len - prio_at;
	jw_raw(&w, "", 1);
	r->json_direct = !output_has_high(prio, strlen(prio));
	for (size_t i = 0; i < r->nsegs; i++) {
		struct outseg *g = &r->segs[i];

		if (!g->lit)
			continue;
		lit_at[i] = w.len;
		jw_escape(&w, g->lit, g->litlen);
		if (i == r->nsegs - 1) /* the text's end, then what follows it */
			jw_raw(&w, OUTPUT_FIELDS_OPEN, sizeof(OUTPUT_FIELDS_OPEN) - 1);
		g->jsonlen = w.len - lit_at[i];
		jw_raw(&w, "", 1);
		if (output_has_high(g->lit, g->litlen))
			r->json_direct = 0;
	}
	if (w.overflow) { /* piece_room was short: cannot be */
		free(b);
		free(lit_at);
		return -ENOMEM;
	}
	r->json_tail = b;
	r->json_prio = b + prio_at;
	for (size_t i = 0; i < r->nsegs; i++)
		if (r->segs[i].lit)
			r->segs[i].json = b + lit_at[i];
	free(lit_at);
	return prepare_keys(r);
}
