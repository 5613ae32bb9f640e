// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * --trace: each event as one JSON object, written by walking the field
 * table (FIELD_LIST) through the extractors the rules use, so that what
 * --trace shows, what a rule tests and what --list-fields documents are one
 * thing. A field the event does not carry is left out.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json.h"
#include "names.h"
#include "rules.h"
#include "trace.h"

/* Every key a line can have, as JSON ("name": or "name[N]":), formatted once:
 * formatting them per event was a third of the cost of a line. */
#define TRACE_KEY_MAX 64 /* a field name with its index, quoted; longer: formatted per use */

struct trace_key {
	char s[TRACE_KEY_MAX];
	size_t n; /* 0: too long, format it per use */
};

static struct trace_key trace_keys[F_MAX][AS_MAX_ANCESTORS + 1]; /* [f][0]: no index */

static void trace_keys_init(void)
{
	static int done;

	if (done)
		return;
	done = 1;
	for (int f = 0; f < F_MAX; f++) {
		const char *name = fields_table[f].name;
		int top = (fields_table[f].flags & FA_IDX) ? AS_MAX_ANCESTORS : 0;

		for (int i = 0; i <= top; i++) {
			struct trace_key *k = &trace_keys[f][i];
			int n = i ? snprintf(k->s, sizeof(k->s), "\"%s[%d]\":", name, i) :
				    snprintf(k->s, sizeof(k->s), "\"%s\":", name);

			k->n = n > 0 && (size_t)n < sizeof(k->s) ? (size_t)n : 0;
		}
	}
}

/* "key": value, when the event carries the field; key as JSON (n bytes), or
 * NULL: f's own name and index, from trace_keys. */
static void trace_field(struct jw *w, struct evctx *c, int f, int32_t idx, const char *arg,
			const char *key, size_t n, char *vbuf, size_t vcap)
{
	const struct trace_key *k = &trace_keys[f][idx < 0 ? 0 : idx];
	struct fval v;

	fields_extract(c, f, idx, arg, &v, vbuf, vcap);
	if (!v.present)
		return;
	if (key) {
		jw_key_raw(w, key, n);
	} else if (k->n) {
		jw_key_raw(w, k->s, k->n);
	} else {
		char name[2 * TRACE_KEY_MAX];

		snprintf(name, sizeof(name), idx < 0 ? "%s" : "%s[%d]", fields_table[f].name, idx);
		jw_key(w, name);
	}
	output_json_value(w, &v);
}

/* "evt.arg.NAME": into key; its length, or 0 when it does not fit. */
static size_t trace_arg_key(char *key, size_t cap, const char *field, const char *arg)
{
	size_t lf = strlen(field), la = strlen(arg);

	if (lf + la + 5 > cap)
		return 0;
	key[0] = '"';
	memcpy(key + 1, field, lf);
	key[1 + lf] = '.';
	memcpy(key + 2 + lf, arg, la);
	memcpy(key + 2 + lf + la, "\":", 2);
	return lf + la + 4;
}

long trace_format(const struct event *ev, const struct proctable *pt, char *buf, size_t cap)
{
	static char vbuf[FIELDS_BUF_MAX]; /* one value at a time: written before the next */
	struct evctx c = { .ev = ev, .pt = pt };
	char key[TRACE_KEY_MAX];
	struct jw w;

	trace_keys_init();
	jw_init(&w, buf, cap);
	jw_obj_open(&w, NULL);
	for (int f = 0; f < F_MAX; f++) {
		const struct field_info *fi = &fields_table[f];

		if (fi->flags & FA_ARG) { /* the arguments this syscall has, Falco's names */
			const char *a;

			for (size_t i = 0; (a = fields_evt_arg(ev->hdr->syscall, i)) != NULL; i++) {
				size_t n = trace_arg_key(key, sizeof(key), fi->name, a);

				if (n)
					trace_field(&w, &c, f, -1, a, key, n, vbuf, sizeof(vbuf));
			}
		} else if (fi->flags & FA_IDX) { /* [1] the parent, up the known ancestry */
			for (int32_t i = 1; i <= ev->hdr->n_anc && i <= AS_MAX_ANCESTORS; i++)
				trace_field(&w, &c, f, i, NULL, NULL, 0, vbuf, sizeof(vbuf));
		} else {
			trace_field(&w, &c, f, -1, NULL, NULL, 0, vbuf, sizeof(vbuf));
		}
	}
	jw_obj_close(&w);
	return jw_finish(&w);
}

int trace_write(const struct event *ev, const struct proctable *pt, FILE *out)
{
	static char line[TRACE_LINE_MAX];
	long n = trace_format(ev, pt, line, sizeof(line));

	if (n < 0)
		return -E2BIG;
	if (fwrite(line, 1, (size_t)n, out) != (size_t)n)
		return -EIO;
	return 0;
}

/* ---- --trace FILTER, -p FORMAT ---- */

#define TRACE_RULE "--trace" /* the name of the one rule (and of the filter's "file") */
/* the condition compiled when only a format is given: true of every event */
#define TRACE_ANY "evt.num > 0"

struct trace_filter {
	struct engine *e; /* one rule: the filter (or TRACE_ANY) and the format */
	int filter; /* a filter was given */
	int format; /* a format was given */
	char *line; /* TRACE_LINE_MAX: the format's line */
};

/* The one rule, its diagnostics passed on to diag, except that a rule the
 * engine skips (a Falco field or event type we lack: a warning in a rules
 * file) leaves nothing to trace: that warning is the error. */
static int trace_compile(struct trace_filter *t, const char *filter, const char *format,
			 const struct engine_opts *eo, FILE *diag)
{
	static const char skipped[] = " warning: rule '" TRACE_RULE "': skipped: ";
	char *text = NULL, *at;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	int err;

	if (!m)
		return -ENOMEM;
	err = engine_load_rule(&t->e, TRACE_RULE, TRACE_RULE, filter ? filter : TRACE_ANY, "-p",
			       format ? format : "", eo, m);
	if (fclose(m)) {
		free(text);
		return -ENOMEM;
	}
	if (!err && engine_rule_count(t->e) != 1) {
		err = -EINVAL;
		at = strstr(text, skipped);
		if (at) { /* FILE:1:COL: error: rule '--trace': ... */
			fwrite(text, 1, (size_t)(at - text), diag);
			fprintf(diag, " error: rule '%s': %s", TRACE_RULE, at + sizeof(skipped) - 1);
		} else {
			fputs(text, diag);
			fprintf(diag, "agent-sentinel: error: the --trace filter matches no event\n");
		}
	} else {
		fputs(text, diag);
	}
	free(text);
	return err;
}

int trace_filter_load(struct trace_filter **out, const char *filter, const char *format,
		      FILE *diag)
{
	struct engine_opts eo = { .json = 1 };
	struct trace_filter *t;
	int err;

	*out = NULL;
	if (!filter && !format)
		return 0;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->filter = filter != NULL;
	t->format = format != NULL;
	t->line = format ? malloc(TRACE_LINE_MAX) : NULL;
	if (format && !t->line) {
		free(t);
		return -ENOMEM;
	}
	err = trace_compile(t, filter, format, &eo, diag);
	if (err) {
		trace_filter_free(t);
		return err;
	}
	*out = t;
	return 0;
}

void trace_filter_free(struct trace_filter *t)
{
	if (!t)
		return;
	engine_free(t->e);
	free(t->line);
	free(t);
}

const struct engine *trace_filter_engine(const struct trace_filter *t)
{
	return t && t->filter ? t->e : NULL;
}

/* The rule's evaluation context for ev, as engine_process sets it up. */
static void trace_ctx(struct trace_filter *t, const struct event *ev, const struct proctable *pt,
		      struct evctx *c)
{
	struct engine *e = t->e;
	unsigned sc = ev->hdr->syscall;

	*c = (struct evctx){ .e = e, .ev = ev, .pt = pt };
	c->sc = sc < AS_SC_MAX && names_syscall_type(sc) == ev->hdr->type ? sc : AS_SC_NONE;
	if (++e->gen == 0) { /* wrapped: forget every cached value */
		for (size_t i = 0; i < e->nslots; i++)
			e->slots[i].gen = 0;
		for (size_t i = 0; i < e->ncmps; i++)
			e->cmps[i].gen = 0;
		e->gen = 1;
	}
	c->gen = e->gen;
	if (ev->hdr->type == AS_EV_OPEN)
		c->ocls = EVAL_OCLS_OPEN | engine_open_class(ev);
}

int trace_filter_match(struct trace_filter *t, const struct event *ev, const struct proctable *pt)
{
	const struct rule *r;
	unsigned sc = ev->hdr->syscall;
	struct evctx c;

	if (!t || !t->filter)
		return 1;
	r = &t->e->rules[0];
	/* as engine_process: a /proc snapshot is state, not an event; a rule
	 * sees only the syscalls its condition admits */
	if (ev->hdr->type == AS_EV_PROC || sc >= AS_SC_MAX || !scset_has(&r->evmask, sc))
		return 0;
	trace_ctx(t, ev, pt, &c);
	return eval_rule(&c, r);
}

int trace_filter_write(struct trace_filter *t, const struct event *ev,
		       const struct proctable *pt, FILE *out)
{
	struct evctx c;
	size_t n;

	if (!t || !t->format)
		return trace_write(ev, pt, out);
	trace_ctx(t, ev, pt, &c);
	n = output_format(&c, &t->e->rules[0], t->line, TRACE_LINE_MAX - 1);
	t->line[n++] = '\n';
	return fwrite(t->line, 1, n, out) == n ? 0 : -EIO;
}
