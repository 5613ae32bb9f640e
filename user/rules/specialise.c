// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Stage 4: specialisation. A compiled comparison is given the cheapest way
 * eval.c can answer it (enum cmp_kind, a Horspool table, a fold for the
 * syscalls that fix its field), and a rule's code becomes a decision graph,
 * one per syscall with what that syscall folds bypassed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "rules.h"

/* A plain field a syscall fixes (evt.type is the syscall's name) compared
 * with a constant: compare once per syscall, here, not per event.
 * evt.dir: one record is the syscall's enter and its exit at once (an exit
 * record that carries the enter's arguments), so a comparison holds when it
 * holds for either direction: evt.dir = > and evt.dir = < both match, and a
 * rule testing both still sees one record, so it alerts once. */
static void fold_fixed(struct cmp *c, const struct slot *sl)
{
	if (sl->xform != XF_NONE || sl->any || sl->arg || c->rslot >= 0)
		return;
	for (unsigned sc = AS_SC_NONE + 1; sc < AS_SC_MAX; sc++) {
		struct fval v;
		int hit;

		if (!fields_fixed(sl->field, sc, &v))
			continue;
		scset_add(&c->fold_known, sc);
		hit = eval_cmp_const(c, &v);
		if (!hit && sl->field == F_EVT_DIR) {
			v.s = ">";
			hit = eval_cmp_const(c, &v);
		}
		if (hit)
			scset_add(&c->fold_true, sc);
	}
}

/* Horspool's table for contains of a constant needle of 2..255 bytes. */
static int contains_table(struct cmp *c)
{
	if ((c->op != OP_CONTAINS && c->op != OP_BCONTAINS) || c->len < 2 || c->len > UINT8_MAX)
		return 0;
	c->skip = malloc(UINT8_MAX + 1);
	if (!c->skip)
		return -ENOMEM;
	memset(c->skip, (int)c->len, UINT8_MAX + 1);
	for (size_t i = 0; i + 1 < c->len; i++)
		c->skip[(unsigned char)c->s[i]] = (uint8_t)(c->len - 1 - i);
	return 0;
}

/* evt.is_open_read/write =, != or exists: which bits of evctx.ocls decide */
static void specialise_open_class(struct cmp *c, uint32_t bit)
{
	int want;

	if (c->op == OP_EXISTS) {
		c->as.open.mask = c->as.open.want = EVAL_OCLS_OPEN; /* present on every open */
		c->kind = CK_OPEN_CLASS;
		return;
	}
	if (c->op == OP_EQ || c->op == OP_EQ2)
		want = c->n != 0;
	else if (c->op == OP_NE)
		want = c->n == 0;
	else
		return;
	c->as.open.mask = EVAL_OCLS_OPEN | bit;
	c->as.open.want = EVAL_OCLS_OPEN | (want ? bit : 0);
	c->kind = CK_OPEN_CLASS;
}

/* A comm name compared with constants: each constant as a comm image (a
 * longer one is no comm and is left out). Returns 0 or -ENOMEM. */
static int specialise_comm(struct cmp *c, int32_t idx)
{
	const char *const *vals = c->set ? (const char *const *)c->set : (const char *const *)&c->s;
	const size_t *lens = c->set ? c->setlen : &c->len;
	size_t n = c->set ? c->nsetv : 1;

	switch (c->op) {
	case OP_EXISTS: /* present: not equal to nothing */
		n = 0;
		c->as.comm.neg = 1;
		break;
	case OP_NE:
		c->as.comm.neg = 1;
		break;
	case OP_EQ:
	case OP_EQ2:
	case OP_IN:
	case OP_INTERSECTS:
		break;
	default:
		return 0;
	}
	if (n > CMP_COMM_KEYS_MAX)
		return 0;
	c->as.comm.keys = calloc(n ? n : 1, sizeof(*c->as.comm.keys));
	if (!c->as.comm.keys)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		char img[AS_COMM_LEN] = { 0 };

		if (lens[i] > AS_COMM_LEN)
			continue;
		memcpy(img, vals[i], lens[i]);
		memcpy(&c->as.comm.keys[c->as.comm.nkeys], img, sizeof(img));
		c->as.comm.hash |= 1ull << comm_key_hash(&c->as.comm.keys[c->as.comm.nkeys]);
		c->as.comm.nkeys++;
	}
	c->as.comm.idx = idx;
	c->kind = CK_COMM;
	return 0;
}

/* fd.name startswith: the prefix's first bytes (up to a word) and their mask */
static void specialise_prefix(struct cmp *c)
{
	size_t n = c->len < sizeof(c->as.prefix.word) ? c->len : sizeof(c->as.prefix.word);
	unsigned char ones[sizeof(c->as.prefix.mask)] = { 0 };

	c->as.prefix.word = 0;
	memcpy(&c->as.prefix.word, c->s, n);
	memset(ones, 0xff, n);
	memcpy(&c->as.prefix.mask, ones, sizeof(ones));
	c->kind = CK_FD_PREFIX;
}

/* Pick how eval.c answers c (enum cmp_kind): a plain header field against
 * constants is answered inline, as fields_direct and cmp_value would.
 * Returns 0 or -ENOMEM. */
static int cmp_specialise(struct cmp *c, const struct slot *sl)
{
	c->kind = CK_GENERIC;
	if (c->rslot >= 0)
		return 0;
	/* eval_any over proc.aname's ancestors, one comm image each */
	if (sl->any && sl->field == F_PROC_ANAME && sl->xform == XF_NONE && !sl->arg &&
	    !sl->margs) {
		int rc = specialise_comm(c, -1);

		if (rc || c->kind != CK_COMM)
			return rc;
		c->as.comm.memo = calloc(AS_MAX_ANCESTORS, sizeof(*c->as.comm.memo));
		if (!c->as.comm.memo)
			return -ENOMEM;
		c->as.comm.memo_n = -1;
		c->kind = CK_COMM_ANY;
		return 0;
	}
	if (!sl->direct)
		return 0;
	switch (sl->field) {
	case F_EVT_IS_OPEN_READ:
		specialise_open_class(c, AS_OPEN_READ);
		return 0;
	case F_EVT_IS_OPEN_WRITE:
		specialise_open_class(c, AS_OPEN_WRITE);
		return 0;
	case F_PROC_NAME:
		return specialise_comm(c, 0);
	case F_PROC_PNAME:
		return specialise_comm(c, 1);
	case F_PROC_ANAME:
		return sl->idx >= 0 ? specialise_comm(c, sl->idx) : 0;
	case F_FD_NUM:
		if (c->op != OP_EXISTS)
			c->kind = CK_FD_NUM;
		return 0;
	case F_FD_NAME:
		if (c->op == OP_STARTSWITH || c->op == OP_BSTARTSWITH)
			specialise_prefix(c);
		return 0;
	default:
		return 0;
	}
}

int specialise_cmp(struct cmp *c, const struct slot *sl)
{
	fold_fixed(c, sl);
	c->dfield = sl->direct && c->rslot < 0 ? sl->field : -1;
	c->didx = sl->idx;
	return contains_table(c) || cmp_specialise(c, sl) ? -ENOMEM : 0;
}

/* Where the code goes from pc with the register known to be acc: the pc of
 * the next comparison, or the result when the code ends first. gen_node only
 * jumps forward, so this ends. */
static int32_t graph_follow(const struct insn *code, size_t ncode, size_t pc, int acc)
{
	while (pc < ncode) {
		const struct insn *in = &code[pc];

		switch (in->op) {
		case I_CMP:
			return (int32_t)pc;
		case I_JF:
			pc = acc ? pc + 1 : in->arg;
			break;
		case I_JT:
			pc = acc ? in->arg : pc + 1;
			break;
		case I_NOT:
			acc = !acc;
			pc++;
			break;
		default:
			acc = in->op == I_TRUE;
			pc++;
			break;
		}
	}
	return acc ? BN_TRUE : BN_FALSE;
}

int specialise_graph(const struct insn *code, size_t ncode, struct bnode **graph, int32_t *entry)
{
	struct bnode *g = calloc(ncode ? ncode : 1, sizeof(*g));

	if (!g)
		return -ENOMEM;
	for (size_t pc = 0; pc < ncode; pc++) {
		if (code[pc].op != I_CMP)
			continue;
		g[pc].cmp = code[pc].arg;
		g[pc].t = graph_follow(code, ncode, pc + 1, 1);
		g[pc].f = graph_follow(code, ncode, pc + 1, 0);
	}
	*entry = graph_follow(code, ncode, 0, 0); /* the register starts false */
	*graph = g;
	return 0;
}

/* Where pc leads for syscall sc once the comparisons sc folds are passed */
static int32_t entry_follow(const struct engine *e, const struct bnode *g, unsigned sc, int32_t pc)
{
	while (pc >= 0) {
		const struct cmp *c = &e->cmps[g[pc].cmp];

		if (!scset_has(&c->fold_known, sc))
			break;
		pc = scset_has(&c->fold_true, sc) ? g[pc].t : g[pc].f;
	}
	return pc;
}

int specialise_entries(const struct engine *e, struct rule *r)
{
	for (unsigned sc = 0; sc < AS_SC_MAX; sc++) {
		int folds = 0;
		struct bnode *g;

		r->entry_sc[sc] = entry_follow(e, r->graph, sc, r->entry);
		r->graph_sc[sc] = r->graph;
		/* a folded comparison left in a graph is still answered right (the
		 * generic way), so only the syscalls the rule is indexed under are
		 * worth a graph of their own */
		if (!scset_has(&r->evmask, sc))
			continue;
		for (size_t pc = 0; pc < r->ncode; pc++)
			if (r->code[pc].op == I_CMP &&
			    scset_has(&e->cmps[r->graph[pc].cmp].fold_known, sc))
				folds = 1;
		if (!folds)
			continue;
		g = malloc(r->ncode * sizeof(*g));
		if (!g)
			return -ENOMEM;
		for (size_t pc = 0; pc < r->ncode; pc++) {
			g[pc] = r->graph[pc];
			if (r->code[pc].op != I_CMP)
				continue;
			g[pc].t = entry_follow(e, r->graph, sc, g[pc].t);
			g[pc].f = entry_follow(e, r->graph, sc, g[pc].f);
		}
		r->graph_sc[sc] = g;
	}
	return 0;
}

