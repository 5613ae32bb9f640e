// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Definitions into the engine: lists flattened, macros parsed (each sees
 * only the macros before it), each rule parsed, its exceptions joined on,
 * compiled, specialised, its output prepared; then the index by syscall.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "load.h"
#include "vec.h"

static void report_at(struct rules_loader *L, const struct rule_def *rd, const struct ast *at,
		      int is_err, const char *prefix, const char *msg)
{
	struct srcpos p = rd->pos;

	if (at && at->src)
		yamlload_map(at->src, at->off, &p);
	if (!p.file)
		p = rd->pos;
	engine_diag(&L->d, &p, is_err, "rule", rd->name, "%s%s", prefix, msg);
}

int rulecomp_flatten_lists(struct rules_loader *L)
{
	for (size_t i = 0; i < L->nlists; i++) {
		struct list_def *ld = &L->lists[i];
		char **out = NULL;
		size_t n = 0;

		for (size_t k = 0; k < ld->nitems; k++) {
			const struct list_def *sub = NULL;

			for (size_t j = 0; j < i; j++)
				if (!strcmp(L->lists[j].name, ld->items[k]))
					sub = &L->lists[j];
			if (sub)
				L->lists[sub - L->lists].used = 1;
			if (sub ? keys_strv_append(&out, &n, sub->items, sub->nitems, 0) :
				  keys_strv_append(&out, &n, &ld->items[k], 1, 0)) {
				keys_strv_free(out, n);
				return -ENOMEM;
			}
		}
		keys_strv_free(ld->items, ld->nitems);
		ld->items = out;
		ld->nitems = n;
	}
	return 0;
}

void rulecomp_parse_macros(struct rules_loader *L)
{
	for (size_t i = 0; i < L->nmacros; i++) {
		struct macro_def *md = &L->macros[i];
		struct cond_env env = { L->lists, L->nlists, L->macros, i };
		char msg[ENGINE_MSG_MAX];
		size_t off;

		if (parse_cond(&md->cond, &env, &md->ast, msg, sizeof(msg), &off)) {
			struct srcpos p;

			yamlload_map(&md->cond, off, &p);
			engine_diag(&L->d, &p, 1, "macro", md->name, "%s", msg);
			md->bad = 1;
		}
	}
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void rulecomp_rule_free(struct rule *r)
{
	free(r->name);
	free(r->desc);
	free(r->file);
	keys_strv_free(r->tags, r->ntags);
	free(r->source);
	free(r->code);
	for (unsigned sc = 0; sc < AS_SC_MAX; sc++)
		if (r->graph_sc[sc] != r->graph)
			free(r->graph_sc[sc]);
	free(r->graph);
	free(r->outtext);
	free(r->segs);
	for (size_t i = 0; i < r->nkeys; i++) {
		free((char *)r->keys[i].key);
		free(r->keys[i].json);
	}
	free(r->keys);
	free(r->json_tail);
}

static struct ast *and_not(struct ast *cond, struct ast *exc)
{
	struct ast *n = calloc(1, sizeof(*n)), *a = calloc(1, sizeof(*a));

	if (!n || !a) {
		free(n);
		free(a);
		return NULL;
	}
	n->kind = A_NOT;
	n->l = exc;
	n->off = exc->off;
	n->src = exc->src;
	a->kind = A_AND;
	a->l = cond;
	a->r = n;
	a->off = cond->off;
	a->src = cond->src;
	return a;
}

int rulecomp_rule(struct rules_loader *L, struct rule_def *rd)
{
	struct engine *e = L->e;
	struct cond_env env = { L->lists, L->nlists, L->macros, L->nmacros };
	struct ast *a = NULL, *x = NULL;
	struct text xt = { 0 };
	struct textseg xseg;
	struct cond_err err = { 0 };
	struct rule r = { 0 };
	char msg[ENGINE_MSG_MAX], warn[ENGINE_MSG_MAX];
	size_t off;
	int named = 0, rc;

	if (strcmp(rd->source, "syscall")) {
		engine_diag(&L->d, &rd->pos, 0, "rule", rd->name,
			    "skipped: source '%s' is not supported", rd->source);
		return 0;
	}
	if (e->opts.min_priority > ENGINE_PRIO_NONE && rd->prio > e->opts.min_priority) {
		/* dropped, but its lists count as used (Falco compiles it) */
		if (!parse_cond(&rd->cond, &env, &a, msg, sizeof(msg), &off))
			parse_free(a);
		return 0;
	}
	if (parse_cond(&rd->cond, &env, &a, msg, sizeof(msg), &off)) {
		struct srcpos p;

		yamlload_map(&rd->cond, off, &p);
		engine_diag(&L->d, &p, 1, "rule", rd->name, "%s", msg);
		return -EINVAL;
	}
	if (parse_uses_field(a, "evt.dir", 0))
		engine_diag(&L->d, &rd->pos, 0, "rule", rd->name,
			    "field 'evt.dir' is deprecated: an event is one record, the "
			    "enter and the exit at once: evt.dir = > and evt.dir = < both match it");
	/* exceptions: (cond) and not (exc1 or exc2 ...) */
	xseg.off = 0;
	xseg.pos = rd->nexcs ? rd->excs[0].pos : rd->pos;
	xseg.pos.raw = NULL;
	xt.s = (char *)"";
	xt.segs = &xseg;
	xt.nsegs = 1;
	rc = except_ast(L, rd, &env, &xt, &x);
	if (rc)
		goto out;
	if (x) {
		struct ast *na = and_not(a, x);

		if (!na) {
			rc = -ENOMEM;
			goto out;
		}
		a = na;
		x = NULL;
	}
	rc = compile_cond(e, a, &r.code, &r.ncode, &r.evmask, &named, &err);
	if (rc) {
		if (rc == -ENOMEM)
			goto out;
		if (err.unsupported || rd->skip_unknown) {
			report_at(L, rd, err.at, 0, "skipped: ", err.msg);
			rc = 0;
		} else {
			report_at(L, rd, err.at, 1, "", err.msg);
		}
		goto out;
	}
	if (err.warn[0])
		report_at(L, rd, err.warn_at, 0, "", err.warn);
	rc = specialise_graph(r.code, r.ncode, &r.graph, &r.entry);
	if (rc)
		goto out;
	rc = specialise_entries(e, &r);
	if (rc)
		goto out;
	kfilter_derive(a, &r.kf);
	kfopen_derive(a, &r.kfo);
	/* the string an open passed costs a second copy: only for a rule that reads it */
	r.kfo.raw = parse_uses_field(a, "fd.nameraw", 0) || parse_uses_field(a, "fs.path.nameraw", 0) ||
		    (rd->output.s && memmem(rd->output.s, rd->output.len, "nameraw", 7));
	if (scset_empty(&r.evmask) && named) {
		engine_diag(&L->d, &rd->pos, 0, "rule", rd->name,
			    "skipped: needs event types agent-sentinel does not capture");
		goto out;
	}
	rc = output_compile(e, &r, &rd->output, &err, warn, sizeof(warn));
	if (rc) {
		if (rc != -ENOMEM) {
			struct srcpos p = rd->output.nsegs ? rd->output.segs[0].pos : rd->pos;

			if (err.unsupported || rd->skip_unknown) {
				engine_diag(&L->d, &p, 0, "rule", rd->name, "skipped: %s", err.msg);
				rc = 0;
			} else {
				engine_diag(&L->d, &p, 1, "rule", rd->name, "%s", err.msg);
			}
		}
		goto out;
	}
	if (warn[0]) {
		struct srcpos p = rd->output.nsegs ? rd->output.segs[0].pos : rd->pos;

		engine_diag(&L->d, &p, 0, "rule", rd->name, "%s", warn);
	}
	if (rd->enabled && rd->warn_evttypes && evmask_all(&r.evmask))
		engine_diag(&L->d, &rd->pos, 0, "rule", rd->name,
			    "Rule matches too many evt.type values. This has a significant performance penalty.");
	r.name = strdup(rd->name);
	r.desc = strdup(rd->desc ? rd->desc : "");
	r.file = strdup(rd->pos.file ? rd->pos.file : "");
	r.line = rd->pos.line;
	r.prio = rd->prio;
	r.enabled = rd->enabled;
	r.source = strdup(rd->source);
	r.ntags = 0;
	if (!r.name || !r.desc || !r.file || !r.source ||
	    keys_strv_append(&r.tags, &r.ntags, rd->tags, rd->ntags, 1)) {
		rc = -ENOMEM;
		goto out;
	}
	if (r.ntags)
		qsort(r.tags, r.ntags, sizeof(*r.tags), str_cmp);
	rc = output_prepare(&r);
	if (rc)
		goto out;
	if (vec_room(&e->rules, e->nrules, sizeof(*e->rules))) {
		rc = -ENOMEM;
		goto out;
	}
	e->rules[e->nrules++] = r;
	memset(&r, 0, sizeof(r));
out:
	rulecomp_rule_free(&r);
	parse_free(a);
	parse_free(x);
	return rc;
}

int rulecomp_index(struct engine *e)
{
	for (size_t sc = 0; sc < AS_SC_MAX; sc++) {
		size_t n = 0;

		for (size_t i = 0; i < e->nrules; i++)
			n += e->rules[i].enabled && scset_has(&e->rules[i].evmask, sc);
		e->index[sc] = calloc(n ? n : 1, sizeof(uint32_t));
		if (!e->index[sc])
			return -ENOMEM;
		for (size_t i = 0; i < e->nrules; i++)
			if (e->rules[i].enabled && scset_has(&e->rules[i].evmask, sc))
				e->index[sc][e->nindex[sc]++] = (uint32_t)i;
		if (n)
			scset_add(&e->wants, sc);
	}
	return 0;
}
