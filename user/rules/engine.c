// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The engine's public side: load (read files and directories, collect their
 * items, compile), process events, list rules and fields.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "load.h"
#include "json.h"
#include "names.h"
#include "vec.h"

static int read_file(const char *path, char **buf, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	size_t got = 0;
	char *b;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || st.st_size > RULES_MAX_FILE) {
		int rc = st.st_size > RULES_MAX_FILE ? -EFBIG : -errno;

		close(fd);
		return rc;
	}
	b = malloc((size_t)st.st_size + 1);
	if (!b) {
		close(fd);
		return -ENOMEM;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, b + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	b[got] = 0;
	*buf = b;
	*len = got;
	return 0;
}

static int add_file(struct rules_loader *L, const char *name, char *raw, size_t len)
{
	struct yfile *f;

	if (vec_room(&L->files, L->nfiles, sizeof(*f))) {
		free(raw);
		return -ENOMEM;
	}
	f = &L->files[L->nfiles++];
	memset(f, 0, sizeof(*f));
	f->name = strdup(name);
	f->raw = raw;
	f->len = len;
	if (!f->name)
		return -ENOMEM;
	return yamlload_parse(f, &L->d) == -ENOMEM ? -ENOMEM : 0;
}

static int has_rules_ext(const char *n)
{
	size_t l = strlen(n);

	return (l > 5 && !strcmp(n + l - 5, ".yaml")) || (l > 4 && !strcmp(n + l - 4, ".yml"));
}

static int load_path(struct rules_loader *L, const char *path)
{
	struct stat st;
	struct srcpos p = { .file = path, .line = 1, .col = 1 };
	char *raw = NULL;
	size_t len = 0;
	int rc;

	if (stat(path, &st)) {
		engine_diag(&L->d, &p, 1, NULL, NULL, "cannot read rules: %s", strerror(errno));
		return 0;
	}
	if (S_ISDIR(st.st_mode)) {
		struct dirent **names;
		int n = scandir(path, &names, NULL, alphasort);

		if (n < 0) {
			engine_diag(&L->d, &p, 1, NULL, NULL, "cannot list directory: %s",
				    strerror(errno));
			return 0;
		}
		rc = 0;
		for (int i = 0; i < n; i++) {
			if (!rc && i < ENGINE_MAX_DIR_FILES && has_rules_ext(names[i]->d_name)) {
				char full[4096];

				snprintf(full, sizeof(full), "%s/%s", path, names[i]->d_name);
				if (stat(full, &st) == 0 && S_ISREG(st.st_mode))
					rc = load_path(L, full);
			}
			free(names[i]);
		}
		free(names);
		return rc;
	}
	rc = read_file(path, &raw, &len);
	if (rc) {
		engine_diag(&L->d, &p, 1, NULL, NULL, "cannot read rules: %s", strerror(-rc));
		return rc == -ENOMEM ? rc : 0;
	}
	return add_file(L, path, raw, len);
}

static void loader_free(struct rules_loader *L)
{
	for (size_t i = 0; i < L->nlists; i++) {
		free(L->lists[i].name);
		keys_strv_free(L->lists[i].items, L->lists[i].nitems);
	}
	free(L->lists);
	for (size_t i = 0; i < L->nmacros; i++) {
		free(L->macros[i].name);
		keys_text_free(&L->macros[i].cond);
		parse_free(L->macros[i].ast);
	}
	free(L->macros);
	for (size_t i = 0; i < L->nrules; i++)
		collect_rule_def_free(&L->rules[i]);
	free(L->rules);
	for (size_t i = 0; i < L->nfiles; i++)
		yamlload_free(&L->files[i]);
	free(L->files);
}

static struct engine *engine_new(const struct engine_opts *o)
{
	struct engine *e = calloc(1, sizeof(*e));
	const char *h;

	if (!e)
		return NULL;
	if (o)
		e->opts = *o;
	else
		e->opts.json = 1;
	h = e->opts.hostname ? e->opts.hostname : getenv("FALCO_HOSTNAME");
	if (h)
		snprintf(e->hostname, sizeof(e->hostname), "%s", h);
	else if (gethostname(e->hostname, sizeof(e->hostname) - 1))
		snprintf(e->hostname, sizeof(e->hostname), "unknown");
	e->opts.hostname = NULL;
	e->line = malloc(OUTPUT_LINE_MAX);
	e->textbuf = malloc(OUTPUT_LINE_MAX);
	e->second.secs = -1;
	if (!e->line || !e->textbuf || output_init(e)) {
		engine_free(e);
		return NULL;
	}
	return e;
}

/* Collect every item of every file, then compile. */
static int load_all(struct rules_loader *L)
{
	int rc = 0;

	for (size_t i = 0; i < L->nfiles && !rc; i++)
		for (size_t k = 0; k < L->files[i].nitems && !rc; k++) {
			rc = collect_item(L, &L->files[i].items[k].map);
			if (rc == -EINVAL)
				rc = 0; /* reported; the next item still loads */
		}
	if (rc)
		return rc;
	rc = rulecomp_flatten_lists(L);
	if (rc)
		return rc;
	rulecomp_parse_macros(L);
	for (size_t i = 0; i < L->nrules; i++) {
		rc = rulecomp_rule(L, &L->rules[i]);
		if (rc == -ENOMEM)
			return rc;
	}
	/* Falco's LOAD_UNUSED_LIST, in our words */
	for (size_t i = 0; i < L->nlists; i++)
		if (!L->lists[i].used)
			engine_diag(&L->d, &L->lists[i].pos, 0, "list", L->lists[i].name,
				    "list is not used by any macro, rule or list");
	return rulecomp_index(L->e);
}

static int finish(struct rules_loader *L, struct engine **out, int rc)
{
	if (rc == -ENOMEM || rc == -E2BIG) {
		if (rc == -ENOMEM)
			engine_diag(&L->d, NULL, 1, NULL, NULL, "out of memory loading rules");
		engine_free(L->e);
		loader_free(L);
		*out = NULL;
		return rc == -E2BIG ? -EINVAL : rc;
	}
	loader_free(L);
	*out = L->e;
	return L->d.errors ? -EINVAL : 0;
}

int engine_load(struct engine **out, const char *const *paths, size_t npaths,
		const struct engine_opts *o, FILE *diag)
{
	struct rules_loader L = { .d = { .f = diag } };
	int rc = 0;

	*out = NULL;
	L.e = engine_new(o);
	if (!L.e)
		return -ENOMEM;
	for (size_t i = 0; i < npaths && !rc; i++)
		rc = load_path(&L, paths[i]);
	if (!rc)
		rc = load_all(&L);
	return finish(&L, out, rc);
}

int engine_load_buffer(struct engine **out, const char *name, const char *buf, size_t len,
		       const struct engine_opts *o, FILE *diag)
{
	struct rules_loader L = { .d = { .f = diag } };
	char *raw;
	int rc;

	*out = NULL;
	L.e = engine_new(o);
	if (!L.e)
		return -ENOMEM;
	raw = malloc(len + 1);
	if (!raw) {
		engine_free(L.e);
		return -ENOMEM;
	}
	memcpy(raw, buf, len);
	raw[len] = 0;
	rc = add_file(&L, name, raw, len);
	if (!rc)
		rc = load_all(&L);
	return finish(&L, out, rc);
}

/* cond and output as the texts of one rule, each file:1:COL in diagnostics;
 * the position map's copy ends in one more non-blank byte, so that a
 * problem at the very end has a column too (just past the text). */
static int text_cli(struct text *t, const char *file, const char *s, char **raw)
{
	struct srcpos pos = { .file = file, .line = 1, .col = 1 };
	size_t n = strlen(s);

	*raw = malloc(n + 2);
	if (!*raw)
		return -ENOMEM;
	memcpy(*raw, s, n);
	memcpy(*raw + n, "$", 2);
	pos.raw = *raw;
	pos.raw_end = n + 1;
	return keys_text_set(t, s, &pos);
}

int engine_load_rule(struct engine **out, const char *name, const char *cond_file,
		     const char *cond, const char *output_file, const char *output,
		     const struct engine_opts *o, FILE *diag)
{
	struct rules_loader L = { .d = { .f = diag } };
	struct rule_def *rd;
	char *raw[2] = { NULL, NULL };
	int rc;

	*out = NULL;
	L.e = engine_new(o);
	rd = calloc(1, sizeof(*rd));
	if (!L.e || !rd) {
		engine_free(L.e);
		free(rd);
		return -ENOMEM;
	}
	L.rules = rd;
	L.nrules = 1;
	rd->pos = (struct srcpos){ .file = cond_file, .line = 1, .col = 1 };
	rd->name = strdup(name);
	rd->desc = strdup(name);
	rd->source = strdup("syscall");
	rd->prio = ENGINE_PRIO_DEBUG;
	rd->enabled = rd->has_cond = rd->has_output = rd->has_desc = rd->has_prio = 1;
	rc = !rd->name || !rd->desc || !rd->source ? -ENOMEM : 0;
	if (!rc)
		rc = text_cli(&rd->cond, cond_file, cond, &raw[0]);
	if (!rc)
		rc = text_cli(&rd->output, output_file, output, &raw[1]);
	if (!rc)
		rc = load_all(&L);
	rc = finish(&L, out, rc);
	free(raw[0]);
	free(raw[1]);
	return rc;
}

void engine_free(struct engine *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->nrules; i++)
		rulecomp_rule_free(&e->rules[i]);
	free(e->rules);
	for (size_t i = 0; i < AS_SC_MAX; i++)
		free(e->index[i]);
	for (size_t i = 0; i < e->nslots; i++)
		slot_free(&e->slots[i]);
	free(e->slots);
	for (size_t i = 0; i < e->ncmps; i++)
		compile_free_cmp(&e->cmps[i]);
	free(e->cmps);
	free(e->line);
	free(e->textbuf);
	free(e->json_head);
	free(e);
}

int engine_wants(const struct engine *e, unsigned type, unsigned syscall)
{
	if (!e || type == AS_EV_PROC || syscall >= AS_SC_MAX)
		return 0;
	return scset_has(&e->wants, syscall);
}

int engine_process(struct engine *e, const struct event *ev, const struct proctable *pt,
		   FILE *out)
{
	struct evctx c = { .e = e, .ev = ev, .pt = pt };
	unsigned sc;
	int n = 0;

	/* /proc snapshots are state, not events (Falco raises nothing for them) */
	if (!e || !ev || !ev->hdr || ev->hdr->type == AS_EV_PROC)
		return 0;
	sc = ev->hdr->syscall;
	if (sc >= AS_SC_MAX)
		return 0;
	/* folded comparisons hold for events of the syscall's own type */
	c.sc = names_syscall_type(sc) == ev->hdr->type ? sc : AS_SC_NONE;
	if (++e->gen == 0) { /* wrapped: forget every cached value */
		for (size_t i = 0; i < e->nslots; i++)
			e->slots[i].gen = 0;
		for (size_t i = 0; i < e->ncmps; i++)
			e->cmps[i].gen = 0;
		e->gen = 1;
	}
	c.gen = e->gen;
	if (ev->hdr->type == AS_EV_OPEN)
		c.ocls = EVAL_OCLS_OPEN | engine_open_class(ev);
	for (size_t i = 0; i < e->nindex[sc]; i++) {
		const struct rule *r = &e->rules[e->index[sc][i]];

		if (!eval_rule(&c, r))
			continue;
		output_alert(&c, r, out);
		n++;
		if (!e->opts.rule_matching_all)
			break;
	}
	e->alerts += (uint64_t)n;
	return n;
}

uint64_t engine_alert_count(const struct engine *e)
{
	return e ? e->alerts : 0;
}

size_t engine_rule_count(const struct engine *e)
{
	return e ? e->nrules : 0;
}

static void evtypes_text(const struct scset *mask, char *buf, size_t cap)
{
	size_t pos = 0;

	buf[0] = 0;
	if (evmask_all(mask)) {
		snprintf(buf, cap, "all");
		return;
	}
	for (unsigned sc = AS_SC_NONE + 1; sc < AS_SC_MAX && pos < cap; sc++) {
		unsigned t;
		const char *name;

		if (!scset_has(mask, sc))
			continue;
		/* the type of a syscall: try each event type */
		name = "unknown";
		for (t = AS_EV_EXEC; t < AS_EV_MAX; t++) {
			name = names_evt_type(t, sc);
			if (strcmp(name, "unknown") && strcmp(name, "procinfo"))
				break;
		}
		pos += (size_t)snprintf(buf + pos, cap - pos, "%s%s", pos ? "," : "", name);
	}
}

const char *engine_hostname(const struct engine *e)
{
	return e->hostname;
}

void engine_continue_seq(struct engine *e, const struct engine *from)
{
	if (e && from)
		e->seq = from->seq;
}

int engine_list_rules(const struct engine *e, FILE *out, int json)
{
	char types[512];

	if (json)
		fputs("{\"rules\":[", out);
	for (size_t i = 0; i < e->nrules; i++) {
		const struct rule *r = &e->rules[i];

		evtypes_text(&r->evmask, types, sizeof(types));
		if (!json) {
			fprintf(out, "%s\t%s\t%s\t%s\t%s:%u\n", r->name,
				engine_priority_name(r->prio), types,
				r->enabled ? "enabled" : "disabled", r->file, r->line);
			continue;
		}
		struct jw w;

		jw_init(&w, e->line, OUTPUT_LINE_MAX);
		w.need_comma = i > 0;
		jw_obj_open(&w, NULL);
		jw_str(&w, "name", r->name);
		jw_str(&w, "priority", engine_priority_name(r->prio));
		jw_str(&w, "event_types", types);
		jw_bool(&w, "enabled", r->enabled);
		jw_str(&w, "source", r->source);
		jw_str(&w, "file", r->file);
		jw_u64(&w, "line", r->line);
		jw_str(&w, "desc", r->desc);
		jw_arr_open(&w, "tags");
		for (size_t k = 0; k < r->ntags; k++)
			jw_str(&w, NULL, r->tags[k]);
		jw_arr_close(&w);
		jw_obj_close(&w);
		fwrite(w.buf, 1, w.len, out);
	}
	if (json)
		fputs("]}\n", out);
	return 0;
}

static void field_syntax(int i, char *buf, size_t cap)
{
	const struct field_info *f = &fields_table[i];

	if (f->flags & FA_IDX)
		snprintf(buf, cap, "%s[N]", f->name);
	else if (f->flags & FA_ARG)
		snprintf(buf, cap, "%s.NAME", f->name);
	else
		snprintf(buf, cap, "%s", f->name);
}

int engine_list_fields(FILE *out, const char *format)
{
	char name[64], line[1024];
	int json = format && !strcmp(format, "json");
	int md = format && !strcmp(format, "markdown");

	if (format && !json && !md && strcmp(format, "text"))
		return -EINVAL;
	if (json)
		fputs("[", out);
	if (md)
		fputs("| Field | Type | Description |\n| --- | --- | --- |\n", out);
	for (int i = 0; i < F_MAX; i++) {
		const struct field_info *f = &fields_table[i];

		field_syntax(i, name, sizeof(name));
		if (json) {
			struct jw w;

			jw_init(&w, line, sizeof(line));
			w.need_comma = i > 0;
			jw_obj_open(&w, NULL);
			jw_str(&w, "name", name);
			jw_str(&w, "type", fields_type_name(f->type));
			jw_str(&w, "desc", f->doc);
			jw_obj_close(&w);
			fwrite(w.buf, 1, w.len, out);
		} else if (md) {
			fprintf(out, "| `%s` | %s | %s |\n", name, fields_type_name(f->type), f->doc);
		} else {
			fprintf(out, "%-22s %-7s %s\n", name, fields_type_name(f->type), f->doc);
		}
	}
	if (json)
		fputs("]\n", out);
	return 0;
}
