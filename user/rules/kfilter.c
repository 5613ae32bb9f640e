// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The kernel-side pre-filter, derived from the rules: for each rule, the
 * weakest predicate "the name of the process or of one of its first D
 * ancestors is in set S" that its condition implies, or "anything" when the
 * condition implies no such thing. The derivation is conservative: a rule's
 * condition can only be true when its predicate is, so dropping events that
 * fail the predicate never loses an alert.
 *
 *   P(a and b) = P(a) or P(b), whichever restricts (both are implied)
 *   P(a or b)  = P(a) union P(b)   (names and depth; and the deepest live
 *                level either tests, which a lineage test does not cover:
 *                a live name can differ from the exec-time one)
 *   P(not a)   = anything          (a negation implies no name)
 *   P(proc.name = x | in (...))        = names {x...} at depth 0
 *   P(proc.pname ...)                  = depth 1
 *   P(proc.aname[N] ...)               = depth N ("some ancestor <= N" is weaker)
 *   P(proc.aname ... (any ancestor))   = depth AS_MAX_ANCESTORS
 *   P(proc.lineage.name[N] | no index ...) = names {x...} anywhere in the
 *                                        lineage (ENGINE_KF_LINEAGE)
 *   P(agent.ancestor.name = x | in ...)  = names {x...} in the lineage
 *   P(agent.ancestor.* anything else)    = the agent names (agentid) in the
 *                                        lineage; the kernel also matches
 *                                        pinned executables by inode (the
 *                                        names are read by engine_kfilter:
 *                                        a reload compiles beside the
 *                                        running configuration)
 *   P(false) = nothing; P(anything else) = anything.
 * Negations are pushed down first (De Morgan), so "not (a or b)" counts as
 * "not a and not b".
 */
#include <stdlib.h>
#include <string.h>
#include "agentid.h"
#include "names.h"
#include "rules.h"

static void kf_anything(struct kfilter *k)
{
	k->kind = KF_ANY;
	k->depth = 0;
	k->live = -1;
	k->nnames = 0;
	k->agents = 0;
}

static void kf_union(struct kfilter *a, const struct kfilter *b)
{
	if (a->kind == KF_ANY || b->kind == KF_NONE)
		return;
	if (b->kind == KF_ANY || a->kind == KF_NONE) {
		*a = *b;
		return;
	}
	if (b->depth > a->depth)
		a->depth = b->depth;
	if (b->live > a->live)
		a->live = b->live;
	a->agents |= b->agents;
	for (size_t i = 0; i < b->nnames; i++) {
		size_t j;

		for (j = 0; j < a->nnames; j++)
			if (!strcmp(a->names[j], b->names[i]))
				break;
		if (j < a->nnames)
			continue;
		if (a->nnames == KF_NAMES_MAX) { /* too many names to test: give up */
			kf_anything(a);
			return;
		}
		memcpy(a->names[a->nnames++], b->names[i], AS_COMM_LEN);
	}
}

/* Both hold; keep the one that lets fewer events through. */
static void kf_both(struct kfilter *a, const struct kfilter *b)
{
	if (b->kind == KF_NONE || a->kind == KF_ANY) {
		*a = *b;
		return;
	}
	if (a->kind == KF_NONE || b->kind == KF_ANY)
		return;
	if (b->depth < a->depth ||
	    (b->depth == a->depth && b->nnames + !!b->agents < a->nnames + !!a->agents))
		*a = *b;
}

/* A comparison on a process or ancestor name, as the kernel can test it. */
static void kf_cmp(const struct ast *a, struct kfilter *k)
{
	int f = fields_lookup(a->lhs.name);
	long depth;

	kf_anything(k);
	if (a->lhs.nxf)
		return;
	if ((f == F_AGENT_ANCESTOR_NAME || f == F_AGENT_ANCESTOR_PID ||
	     f == F_AGENT_ANCESTOR_EXEPATH) &&
	    (f != F_AGENT_ANCESTOR_NAME || a->has_rfield ||
	     (a->op != OP_EQ && a->op != OP_EQ2 && a->op != OP_IN))) {
		/* true only with an agent in the lineage: its names */
		k->kind = KF_NAMES;
		k->depth = ENGINE_KF_LINEAGE;
		k->live = -1;
		k->agents = 1;
		return;
	}
	if (a->has_rfield || (a->op != OP_EQ && a->op != OP_EQ2 && a->op != OP_IN))
		return;
	if (f == F_PROC_NAME && !a->lhs.has_arg)
		depth = 0;
	else if (f == F_PROC_PNAME && !a->lhs.has_arg)
		depth = 1;
	else if (f == F_PROC_ANAME && !a->lhs.has_arg)
		depth = AS_MAX_ANCESTORS; /* any ancestor */
	else if (f == F_PROC_ANAME)
		depth = strtol(a->lhs.arg, NULL, 10);
	else if (f == F_PROC_LINEAGE_NAME || f == F_AGENT_ANCESTOR_NAME)
		depth = ENGINE_KF_LINEAGE; /* the kernel tests every entry */
	else
		return;
	k->kind = KF_NAMES;
	if (depth > AS_MAX_ANCESTORS && depth != ENGINE_KF_LINEAGE) { /* never captured: never true */
		k->kind = KF_NONE;
		return;
	}
	k->depth = (int)depth;
	k->live = depth == ENGINE_KF_LINEAGE ? -1 : (int)depth;
	for (size_t i = 0; i < a->nvals; i++) {
		/* a comm holds at most 15 bytes: a longer value never equals one */
		if (strlen(a->vals[i]) >= AS_COMM_LEN)
			continue;
		if (k->nnames == KF_NAMES_MAX) {
			kf_anything(k);
			return;
		}
		memset(k->names[k->nnames], 0, AS_COMM_LEN);
		memcpy(k->names[k->nnames++], a->vals[i], strlen(a->vals[i]));
	}
	if (!k->nnames)
		k->kind = KF_NONE;
}

/*
 * The walk both derivations share: negations pushed down (De Morgan),
 * macros expanded, constants and comparisons handed to the algebra's leaf.
 * v and the algebra's scratch value are alg->size bytes.
 */
void kf_walk(const struct kf_algebra *alg, const struct ast *a, int neg, int depth, void *v)
{
	void *r;

	if (!a || depth > COND_MAX_DEPTH + COND_MAX_MACRO_DEPTH || alg->size > KF_VALUE_MAX) {
		alg->leaf(NULL, neg, v); /* no restriction */
		return;
	}
	switch (a->kind) {
	case A_AND:
	case A_OR:
		/* the right side's value on the heap: a value is kilobytes, and
		 * a condition nests COND_MAX_DEPTH + COND_MAX_MACRO_DEPTH deep */
		if (!(r = malloc(alg->size))) {
			alg->leaf(NULL, neg, v); /* no restriction: keeps more */
			return;
		}
		kf_walk(alg, a->l, neg, depth + 1, v);
		kf_walk(alg, a->r, neg, depth + 1, r);
		/* not (x and y) = not x or not y; not (x or y) = not x and not y */
		if ((a->kind == A_AND) != neg)
			alg->both(v, r);
		else
			alg->either(v, r);
		free(r);
		return;
	case A_NOT:
		kf_walk(alg, a->l, !neg, depth + 1, v);
		return;
	case A_MACRO:
		kf_walk(alg, a->m ? a->m->ast : NULL, neg, depth + 1, v);
		return;
	default: /* A_CMP, A_CONST */
		alg->leaf(a, neg, v);
		return;
	}
}

static void kf_leaf(const struct ast *a, int neg, void *v)
{
	struct kfilter *k = v;

	kf_anything(k);
	if (a && a->kind == A_CONST && !a->val != !neg) /* false, or not true */
		k->kind = KF_NONE;
	else if (a && a->kind == A_CMP && !neg)
		kf_cmp(a, k);
}

static void kf_both_v(void *a, const void *b)
{
	kf_both(a, b);
}

static void kf_union_v(void *a, const void *b)
{
	kf_union(a, b);
}

_Static_assert(sizeof(struct kfilter) <= KF_VALUE_MAX, "KF_VALUE_MAX too small");

static const struct kf_algebra kf_names_algebra = {
	.size = sizeof(struct kfilter),
	.leaf = kf_leaf,
	.both = kf_both_v,
	.either = kf_union_v,
};

void kfilter_derive(const struct ast *a, struct kfilter *k)
{
	memset(k, 0, sizeof(*k));
	kf_walk(&kf_names_algebra, a, 0, 0, k);
}

/* The agent names as they are now, added to k's; 1 when k then tests no
 * name (no agent name configured) or too many: anything passes. */
static int kf_add_agents(struct kfilter *k)
{
	struct kfilter agents = { .kind = KF_NAMES, .depth = k->depth, .live = k->live };

	agents.nnames = agentid_filter_names(agents.names, KF_NAMES_MAX);
	if (!agents.nnames)
		return 1;
	kf_union(k, &agents);
	return k->kind == KF_ANY;
}

int engine_kfilter(const struct engine *e, struct engine_kfilter *out)
{
	struct kfilter per[AS_EV_MAX];
	int seen[AS_EV_MAX] = { 0 };

	memset(out, 0, sizeof(*out));
	/* no rule for opens: the class mask stays empty (depth says NOTHING) */
	for (size_t i = 0; i < e->nrules; i++) {
		const struct rule *r = &e->rules[i];

		if (!r->enabled)
			continue;
		for (unsigned sc = AS_SC_NONE + 1; sc < AS_SC_MAX; sc++) {
			unsigned type = AS_EV_NONE;

			if (!scset_has(&r->evmask, sc))
				continue;
			type = names_syscall_type(sc);
			if (type == AS_EV_NONE)
				continue;
			if (type == AS_EV_OPEN && !seen[type])
				out->open = r->kfo;
			else if (type == AS_EV_OPEN)
				kfopen_union(&out->open, &r->kfo);
			if (!seen[type]) {
				per[type] = r->kf;
				seen[type] = 1;
			} else {
				kf_union(&per[type], &r->kf);
			}
		}
	}
	for (unsigned t = AS_EV_EXEC; t < AS_EV_MAX; t++) {
		if (seen[t] && per[t].kind == KF_ANY) {
			out->depth[t] = ENGINE_KF_ANY;
			continue;
		}
		if (!seen[t] || per[t].kind == KF_NONE) { /* no rule, or none can match */
			out->depth[t] = ENGINE_KF_NOTHING;
			continue;
		}
		if (per[t].agents && kf_add_agents(&per[t])) {
			out->depth[t] = ENGINE_KF_ANY;
			continue;
		}
		out->depth[t] = (uint8_t)per[t].depth;
		if (per[t].live > out->walk)
			out->walk = (uint8_t)per[t].live;
		for (size_t i = 0; i < per[t].nnames; i++) {
			size_t j;

			for (j = 0; j < out->nnames; j++)
				if (!memcmp(out->names[j], per[t].names[i], AS_COMM_LEN))
					break;
			if (j < out->nnames)
				continue;
			if (out->nnames == ENGINE_KF_NAMES_MAX) {
				out->depth[t] = ENGINE_KF_ANY;
				break;
			}
			memcpy(out->names[out->nnames++], per[t].names[i], AS_COMM_LEN);
		}
	}
	return 0;
}

void engine_kfilter_union(struct engine_kfilter *a, const struct engine_kfilter *b)
{
	int full = 0;

	for (size_t i = 0; i < b->nnames && !full; i++) {
		size_t j;

		for (j = 0; j < a->nnames; j++)
			if (!memcmp(a->names[j], b->names[i], AS_COMM_LEN))
				break;
		if (j < a->nnames)
			continue;
		if (a->nnames == ENGINE_KF_NAMES_MAX)
			full = 1; /* too many names to test: what tests names keeps all */
		else
			memcpy(a->names[a->nnames++], b->names[i], AS_COMM_LEN);
	}
	for (unsigned t = 0; t < AS_EV_MAX; t++) {
		uint8_t x = a->depth[t], y = b->depth[t];

		if (x == ENGINE_KF_ANY || y == ENGINE_KF_ANY)
			a->depth[t] = ENGINE_KF_ANY;
		else if (x == ENGINE_KF_NOTHING)
			a->depth[t] = y;
		else if (y != ENGINE_KF_NOTHING)
			a->depth[t] = x > y ? x : y;
		if (full && a->depth[t] != ENGINE_KF_NOTHING)
			a->depth[t] = ENGINE_KF_ANY;
	}
	if (b->walk > a->walk)
		a->walk = b->walk;
	if (b->open.classes || b->open.untested)
		kfopen_union(&a->open, &b->open);
}

void engine_kfilter_all(struct engine_kfilter *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned t = 0; t < AS_EV_MAX; t++)
		out->depth[t] = ENGINE_KF_ANY;
	kfopen_all(&out->open);
}

int engine_kfilter_pass(const struct engine_kfilter *kf, const struct event *ev)
{
	const struct as_hdr *h = ev->hdr;
	uint8_t d = h->type < AS_EV_MAX ? kf->depth[h->type] : ENGINE_KF_ANY;

	if (d == ENGINE_KF_NOTHING)
		return 0;
	/* as bpf/file.bpf.c: a 32-bit open (AS_HF_COMPAT) or an open_by_handle_at
	 * meets no class or path test. The kernel tests the path of successful
	 * opens only; this tests failed ones too, on the string the rules see:
	 * stricter, and still never dropping what a rule can match */
	if (h->type == AS_EV_OPEN && !(h->flags & AS_HF_COMPAT) &&
	    h->syscall != AS_SC_OPEN_BY_HANDLE_AT &&
	    !kfopen_pass(&kf->open, engine_open_class(ev), ev->path.s,
			 ev->res >= 0 &&
				 (ev->u.open->pflags & (AS_OF_NOLINK | AS_OF_RAWDEV | AS_OF_SETID))))
		return 0;
	if (d == ENGINE_KF_ANY || d == ENGINE_KF_LINEAGE)
		return 1; /* the kernel's lineage test: not in the record */
	for (unsigned i = 0; i <= d && i <= h->n_anc; i++) {
		const char *comm = i ? h->anc[i - 1].comm : h->comm;

		for (size_t j = 0; j < kf->nnames; j++)
			if (comm[0] == kf->names[j][0] && !strncmp(comm, kf->names[j], AS_COMM_LEN))
				return 1;
	}
	return 0;
}
