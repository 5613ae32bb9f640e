// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <string.h>
#include "agentid.h"
#include "names.h"
#include "prefilter.h"

/* The looser of two per-type settings. */
static uint8_t looser(uint8_t a, uint8_t b)
{
	if (a == ENGINE_KF_ANY || b == ENGINE_KF_ANY)
		return ENGINE_KF_ANY;
	if (a == ENGINE_KF_NOTHING)
		return b;
	if (b == ENGINE_KF_NOTHING)
		return a;
	return a > b ? a : b;
}

void prefilter_plan(const struct engine *e, uint32_t want_types, struct engine_kfilter *out)
{
	uint8_t life = ENGINE_KF_NOTHING;

	engine_kfilter(e, out);
	/* no rule can match an open of any class, nor one the classes do not
	 * test (32-bit, open_by_handle_at) */
	if (!out->open.classes && !out->open.untested)
		out->depth[AS_EV_OPEN] = ENGINE_KF_NOTHING;
	for (unsigned t = AS_EV_EXEC; t < AS_EV_MAX; t++) {
		if (!(want_types & (1u << t)))
			out->depth[t] = ENGINE_KF_NOTHING;
		else
			life = looser(life, out->depth[t]);
	}
	/* a process whose events can pass needs its exec and fork in the table */
	out->depth[AS_EV_EXEC] = looser(out->depth[AS_EV_EXEC], life);
	out->depth[AS_EV_FORK] = looser(out->depth[AS_EV_FORK], life);
	/* exits free table entries: always (they are one per process) */
	out->depth[AS_EV_EXIT] = ENGINE_KF_ANY;
	out->depth[AS_EV_PROC] = ENGINE_KF_ANY;
}

_Static_assert(LOADER_FILTER_EXES_MAX == AGENTID_MAX + AGENTID_SEEN_MAX,
	       "the kernel's pin maps hold every pin and every earlier file");

/* The pinned executables (pins(), agentid.h) into the kernel's maps: their
 * inodes (filter_exes), and where they are (filter_pins: the directory and
 * the name of the file itself, its links followed). */
static void prefilter_pins(struct loader_opts *lo, const struct agentid_pin *(*pins)(size_t *))
{
	size_t n;
	const struct agentid_pin *p = pins(&n);

	for (size_t i = 0; i < n; i++) {
		const char *name = strrchr(p[i].real ? p[i].real : p[i].path, '/') + 1;
		struct as_pin_key *k = &lo->filter_pins[lo->filter_npins];

		if (p[i].ino && lo->filter_nexes < LOADER_FILTER_EXES_MAX) {
			lo->filter_exes[lo->filter_nexes].ino = p[i].ino;
			lo->filter_exes[lo->filter_nexes++].dev = p[i].dev;
		}
		if (!p[i].dir_ino || strlen(name) >= AS_PIN_NAME_MAX ||
		    lo->filter_npins == LOADER_FILTER_EXES_MAX)
			continue;
		memset(k, 0, sizeof(*k));
		k->dir_ino = p[i].dir_ino;
		k->dir_dev = p[i].dir_dev;
		memcpy(k->name, name, strlen(name));
		lo->filter_npins++;
	}
}

void prefilter_pins_to_loader(struct loader_opts *lo)
{
	lo->filter_nexes = 0;
	lo->filter_npins = 0;
	prefilter_pins(lo, agentid_pins);
	prefilter_pins(lo, agentid_seen); /* files pinned paths led to before */
}

void prefilter_to_loader(const struct engine_kfilter *kf, struct loader_opts *lo)
{
	for (unsigned t = 0; t < AS_EV_MAX; t++) {
		uint8_t d = kf->depth[t];

		if (d == ENGINE_KF_ANY)
			lo->filter_depth[t] = 0;
		else if (d == ENGINE_KF_NOTHING)
			lo->want_types &= ~(1u << t); /* nothing can match: not even attached */
		else if (d == ENGINE_KF_LINEAGE)
			lo->filter_depth[t] = LOADER_DEPTH_LINEAGE;
		else
			lo->filter_depth[t] = d + 1;
	}
	prefilter_pins_to_loader(lo);
	lo->filter_walk = kf->walk;
	lo->filter_nnames = kf->nnames < LOADER_FILTER_NAMES_MAX ? kf->nnames : LOADER_FILTER_NAMES_MAX;
	memcpy(lo->filter_names, kf->names, lo->filter_nnames * AS_COMM_LEN);
	memset(&lo->open_filter, 0, sizeof(lo->open_filter));
	lo->open_filtered = 1;
	lo->open_filter.classes = kf->open.classes;
	lo->open_filter.raw = kf->open.raw;
	memcpy(lo->open_filter.nterm, kf->open.nterm, sizeof(lo->open_filter.nterm));
	for (unsigned c = 0; c < AS_OPEN_CLASSES; c++)
		for (unsigned t = 0; t < kf->open.nterm[c] && t < AS_OPEN_TERMS; t++) {
			lo->open_filter.term[c][t].excl = kf->open.term[c][t].excl;
			lo->open_filter.term[c][t].need = kf->open.term[c][t].need;
		}
	for (unsigned i = 0; i < kf->open.nprefix && i < AS_OPEN_PREFIX_MAX; i++) {
		size_t n = strnlen(kf->open.prefix[i], AS_OPEN_PREFIX_LEN - 1);

		lo->open_filter.plen[i] = (uint8_t)n;
		memcpy(lo->open_filter.prefix[i], kf->open.prefix[i], n);
	}
	for (unsigned j = 0; j < kf->open.natom && j < AS_OPEN_ATOM_MAX; j++) {
		size_t n = strnlen(kf->open.atom[j], AS_OPEN_ATOM_LEN - 1);

		lo->open_filter.alen[j] = (uint8_t)n;
		lo->open_filter.akind[j] = kf->open.akind[j];
		memcpy(lo->open_filter.atom[j], kf->open.atom[j], n);
	}
	lo->open_filter.natom = kf->open.natom;
}

/* " open-classes=read+ok:name(/.ssh/|.env),write+ok:not(/tmp|/proc)|...":
 * the classes kept, each with its terms (one of which must hold): the
 * prefixes that drop it and the names it needs. */
static void prefilter_describe_term(const struct engine_kfopen *o, const struct engine_kfterm *t,
				    FILE *out)
{
	static const char *const kinds[] = { "/%s/", "/%s*", "%s", "%s*" };
	const char *psep = "not(";

	for (unsigned i = 0; i < o->nprefix; i++) {
		if (!(t->excl & (1u << i)))
			continue;
		fprintf(out, "%s%s", psep, o->prefix[i]);
		psep = "|";
	}
	if (t->excl)
		fputc(')', out);
	psep = t->excl ? "&name(" : "name(";
	for (unsigned j = 0; j < o->natom; j++) {
		if (!(t->need & (1u << j)))
			continue;
		fputs(psep, out);
		fprintf(out, kinds[o->akind[j] & 3], o->atom[j]);
		psep = "|";
	}
	if (t->need)
		fputc(')', out);
}

static void prefilter_describe_open(const struct engine_kfopen *o, FILE *out)
{
	static const char *const cls[AS_OPEN_CLASSES / 2] = {
		"other", "other+ok", "read", "read+ok", "write", "write+ok", "rw", "rw+ok",
	};
	const char *sep = " open-classes=";

	for (unsigned c = 0; c < AS_OPEN_CLASSES; c++) {
		const char *tsep = ":";

		if (!(o->classes & (1u << c)))
			continue;
		fprintf(out, "%s%s%s", sep, cls[c & (AS_OPEN_TRUNC - 1)],
			c & AS_OPEN_TRUNC ? "+trunc" : "");
		sep = ",";
		for (unsigned t = 0; t < o->nterm[c]; t++) {
			if (!o->term[c][t].excl && !o->term[c][t].need)
				continue;
			fputs(tsep, out);
			prefilter_describe_term(o, &o->term[c][t], out);
			tsep = " or ";
		}
	}
}

void prefilter_describe(const struct engine_kfilter *kf, FILE *out)
{
	fputs("agent-sentinel: pre-filter:", out);
	NAMES_EACH_KERNEL_TYPE(t) {
		uint8_t d = kf->depth[t];

		if (d == ENGINE_KF_ANY)
			fprintf(out, " %s=all", names_event_kind(t));
		else if (d == ENGINE_KF_NOTHING)
			fprintf(out, " %s=off", names_event_kind(t));
		else if (d == ENGINE_KF_LINEAGE)
			fprintf(out, " %s=aname[0..%u]+lineage", names_event_kind(t), kf->walk);
		else
			fprintf(out, " %s=aname[0..%u]", names_event_kind(t), d);
	}
	if (kf->depth[AS_EV_OPEN] != ENGINE_KF_NOTHING)
		prefilter_describe_open(&kf->open, out);
	fputs(" names=", out);
	for (size_t i = 0; i < kf->nnames; i++)
		fprintf(out, "%s%.*s", i ? "," : "", AS_COMM_LEN, kf->names[i]);
	fputc('\n', out);
}
