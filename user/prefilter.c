// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <string.h>
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

void prefilter_to_loader(const struct engine_kfilter *kf, struct loader_opts *lo)
{
	for (unsigned t = 0; t < AS_EV_MAX; t++) {
		uint8_t d = kf->depth[t];

		if (d == ENGINE_KF_ANY)
			lo->filter_depth[t] = 0;
		else if (d == ENGINE_KF_NOTHING)
			lo->want_types &= ~(1u << t); /* nothing can match: not even attached */
		else
			lo->filter_depth[t] = d + 1;
	}
	lo->filter_nnames = kf->nnames < LOADER_FILTER_NAMES_MAX ? kf->nnames : LOADER_FILTER_NAMES_MAX;
	memcpy(lo->filter_names, kf->names, lo->filter_nnames * AS_COMM_LEN);
}

void prefilter_describe(const struct engine_kfilter *kf, FILE *out)
{
	fputs("agent-sentinel: pre-filter:", out);
	for (unsigned t = AS_EV_EXEC; t < AS_EV_PROC; t++) {
		uint8_t d = kf->depth[t];

		if (d == ENGINE_KF_ANY)
			fprintf(out, " %s=all", names_event_kind(t));
		else if (d == ENGINE_KF_NOTHING)
			fprintf(out, " %s=off", names_event_kind(t));
		else
			fprintf(out, " %s=aname[0..%u]", names_event_kind(t), d);
	}
	fputs(" names=", out);
	for (size_t i = 0; i < kf->nnames; i++)
		fprintf(out, "%s%.*s", i ? "," : "", AS_COMM_LEN, kf->names[i]);
	fputc('\n', out);
}
