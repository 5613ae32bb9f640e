// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The open part of the kernel pre-filter, derived from the rules: what a
 * rule's condition implies about an open event, as
 *   "its class (AS_OPEN_OK | _READ | _WRITE: fd.num >= 0, evt.is_open_read,
 *    evt.is_open_write) is in C, and for that class fd.name starts with none
 *    of the prefixes E[class]".
 * The derivation is conservative, as kfilter.c's: a condition can only be
 * true of an open when its predicate is. Negations are pushed down (De
 * Morgan) and
 *   P(a and b): classes C(a) & C(b); per class E(a) | E(b)   (exact)
 *   P(a or b):  classes C(a) | C(b); per class in both, the prefixes of
 *               E(a) or E(b) under one of the other's ("/tmp/" under
 *               "/tmp": excluded by both), in one its own E (weaker than
 *               the disjunction: conservative)
 *   P(evt.is_open_read = true), P(evt.is_open_write = ...), P(fd.num op N),
 *   P(evt.failed = ...): the classes where it can hold (exact, negatable:
 *               these fields always have a value on an open)
 *   P(evt.is_compat = true): no class. The filter is the native opens': a
 *               32-bit open (bpf/compat.bpf.c) is tested by neither the
 *               classes nor the prefixes, all reach the rules
 *   P(not fd.name startswith X): every class, X excluded
 *   P(evt.type = X), P(evt.type in (...)) naming no open call: no class
 *   P(false) = no class; P(anything else) = every class, nothing excluded.
 * A prefix the kernel cannot test (not absolute, too long, table full) is
 * left out, which only ever keeps more events.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "rules.h"

#define KFO_ALL_CLASSES ((1u << AS_OPEN_CLASSES) - 1)

static void kfo_all(struct engine_kfopen *o)
{
	memset(o, 0, sizeof(*o));
	o->classes = KFO_ALL_CLASSES;
}

/* Index of prefix s in o's table, added when missing; -1 when it cannot be. */
static int kfo_intern(struct engine_kfopen *o, const char *s)
{
	size_t len = strlen(s);

	for (unsigned i = 0; i < o->nprefix; i++)
		if (!strcmp(o->prefix[i], s))
			return (int)i;
	if (o->nprefix == ENGINE_KF_PREFIX_MAX || s[0] != '/' || len >= AS_OPEN_PREFIX_LEN)
		return -1;
	memset(o->prefix[o->nprefix], 0, AS_OPEN_PREFIX_LEN);
	memcpy(o->prefix[o->nprefix], s, len);
	return (int)o->nprefix++;
}

/* b's prefix mask m, as indices into a's table (prefixes that do not fit are
 * dropped: a smaller exclusion set is a weaker predicate). */
static uint16_t kfo_remap(struct engine_kfopen *a, const struct engine_kfopen *b, uint16_t m)
{
	uint16_t out = 0;

	for (unsigned i = 0; i < b->nprefix; i++) {
		int j;

		if (!(m & (1u << i)))
			continue;
		j = kfo_intern(a, b->prefix[i]);
		if (j >= 0)
			out |= (uint16_t)(1u << j);
	}
	return out;
}

/* Drop the prefixes no class uses, so the table does not fill with dead ones. */
static void kfo_compact(struct engine_kfopen *o)
{
	struct engine_kfopen c;
	uint16_t used = 0;

	for (unsigned k = 0; k < AS_OPEN_CLASSES; k++) {
		if (!(o->classes & (1u << k)))
			o->excl[k] = 0;
		used |= o->excl[k];
	}
	memset(&c, 0, sizeof(c));
	c.classes = o->classes;
	c.raw = o->raw;
	for (unsigned k = 0; k < AS_OPEN_CLASSES; k++)
		c.excl[k] = kfo_remap(&c, o, (uint16_t)(o->excl[k] & used));
	*o = c;
}

/* Both hold. */
static void kfo_and(struct engine_kfopen *a, const struct engine_kfopen *b)
{
	a->classes &= b->classes;
	for (unsigned k = 0; k < AS_OPEN_CLASSES; k++)
		a->excl[k] |= kfo_remap(a, b, b->excl[k]);
	kfo_compact(a);
}

/* Does prefix p start with prefix q (every path under p is under q)? */
static int kfo_under(const char *p, const char *q)
{
	return !strncmp(p, q, strlen(q));
}

/* Where both a (its prefixes ma) and b (mb) exclude, as a's prefixes: each
 * prefix of either that is under one of the other ("/tmp/" is under
 * "/tmp": a path there is excluded by both). A prefix that does not fit
 * a's table is left out, which only keeps more events. */
static uint16_t kfo_meet(struct engine_kfopen *a, uint16_t ma, const struct engine_kfopen *b,
			 uint16_t mb)
{
	uint16_t out = 0;

	for (unsigned i = 0; i < a->nprefix; i++)
		for (unsigned j = 0; (ma & (1u << i)) && j < b->nprefix; j++)
			if ((mb & (1u << j)) && kfo_under(a->prefix[i], b->prefix[j]))
				out |= (uint16_t)(1u << i);
	for (unsigned j = 0; j < b->nprefix; j++)
		for (unsigned i = 0; (mb & (1u << j)) && i < a->nprefix; i++)
			if ((ma & (1u << i)) && kfo_under(b->prefix[j], a->prefix[i])) {
				int n = kfo_intern(a, b->prefix[j]);

				if (n >= 0)
					out |= (uint16_t)(1u << n);
				break;
			}
	return out;
}

/* One of them holds. */
void kfopen_union(struct engine_kfopen *a, const struct engine_kfopen *b)
{
	for (unsigned k = 0; k < AS_OPEN_CLASSES; k++) {
		unsigned bit = 1u << k;

		if (!(b->classes & bit))
			continue;
		if (a->classes & bit)
			a->excl[k] = kfo_meet(a, a->excl[k], b, b->excl[k]);
		else
			a->excl[k] = kfo_remap(a, b, b->excl[k]);
	}
	a->classes |= b->classes;
	a->raw |= b->raw;
	kfo_compact(a);
}

/* Classes in which fd.num (fd, or -1 when the open failed) op n can hold. */
static unsigned kfo_fdnum(int op, long long n, int neg)
{
	int fail, ok, ok_always;

	switch (op) {
	case OP_EQ:
	case OP_EQ2:
		fail = n == -1, ok = n >= 0, ok_always = 0;
		break;
	case OP_NE:
		fail = n != -1, ok = 1, ok_always = n < 0;
		break;
	case OP_LT:
		fail = -1 < n, ok = n > 0, ok_always = 0;
		break;
	case OP_LE:
		fail = -1 <= n, ok = n >= 0, ok_always = 0;
		break;
	case OP_GT:
		fail = -1 > n, ok = 1, ok_always = n < 0;
		break;
	case OP_GE:
		fail = -1 >= n, ok = 1, ok_always = n <= 0;
		break;
	default:
		return KFO_ALL_CLASSES;
	}
	if (neg) { /* the value -1 is exact; some fd >= 0 fails op unless all pass */
		fail = !fail;
		ok = !ok_always;
	}
	return (fail ? 0x55u : 0) | (ok ? 0xaau : 0); /* classes without / with AS_OPEN_OK */
}

/* Classes in which a boolean field (bit set = true) compared to v can hold. */
static unsigned kfo_bool(unsigned bit, const struct ast *a, int neg)
{
	int want;
	unsigned set = 0;

	if ((a->op != OP_EQ && a->op != OP_EQ2 && a->op != OP_NE) || a->nvals != 1)
		return KFO_ALL_CLASSES;
	if (!strcasecmp(a->vals[0], "true"))
		want = 1;
	else if (!strcasecmp(a->vals[0], "false"))
		want = 0;
	else
		return KFO_ALL_CLASSES;
	if (a->op == OP_NE)
		want = !want;
	if (neg)
		want = !want;
	for (unsigned k = 0; k < AS_OPEN_CLASSES; k++)
		if (!!(k & bit) == want)
			set |= 1u << k;
	return set;
}

/* Does evt.type OP vals name an open (open, openat, openat2, creat)? For a
 * test that names none, the classes where it can hold on an open: none
 * (evt.type = X, evt.type in (...)), or all (negated, or anything else). */
static unsigned kfo_evtype(const struct ast *a, int neg)
{
	static const char *const opens[] = { "open", "openat", "openat2", "creat" };

	if (neg || (a->op != OP_EQ && a->op != OP_EQ2 && a->op != OP_IN))
		return KFO_ALL_CLASSES;
	for (size_t i = 0; i < a->nvals; i++)
		for (size_t j = 0; j < sizeof(opens) / sizeof(opens[0]); j++)
			if (!strcmp(a->vals[i], opens[j]))
				return KFO_ALL_CLASSES;
	return 0;
}

static void kfo_cmp(const struct ast *a, int neg, struct engine_kfopen *o)
{
	int f = fields_lookup(a->lhs.name);
	char *end;
	long long n;

	kfo_all(o);
	if (a->lhs.nxf || a->lhs.has_arg || a->has_rfield)
		return;
	switch (f) {
	case F_EVT_TYPE:
		o->classes = (uint8_t)kfo_evtype(a, neg);
		return;
	case F_EVT_IS_OPEN_READ:
		o->classes = (uint8_t)kfo_bool(AS_OPEN_READ, a, neg);
		return;
	case F_EVT_IS_OPEN_WRITE:
		o->classes = (uint8_t)kfo_bool(AS_OPEN_WRITE, a, neg);
		return;
	case F_EVT_IS_COMPAT: /* this filter is the native opens': none is a 32-bit call */
		o->classes = (uint8_t)kfo_bool(0, a, neg);
		return;
	case F_EVT_FAILED: /* true when fd.num is -1: the classes without OK */
		o->classes = (uint8_t)(kfo_bool(AS_OPEN_OK, a, !neg) & KFO_ALL_CLASSES);
		return;
	case F_FD_NUM:
		if (a->nvals != 1 || a->is_list)
			return;
		n = strtoll(a->vals[0], &end, 10);
		if (*end || !a->vals[0][0])
			return;
		o->classes = (uint8_t)kfo_fdnum(a->op, n, neg);
		return;
	case F_FD_NAME:
		if (neg && a->op == OP_STARTSWITH && a->nvals == 1) {
			int i = kfo_intern(o, a->vals[0]);

			if (i >= 0)
				for (unsigned k = 0; k < AS_OPEN_CLASSES; k++)
					o->excl[k] = (uint16_t)(1u << i);
		}
		return;
	default:
		return;
	}
}

static void kfo_leaf(const struct ast *a, int neg, void *v)
{
	struct engine_kfopen *o = v;

	kfo_all(o);
	if (a && a->kind == A_CONST && !a->val != !neg) /* false, or not true */
		o->classes = 0;
	else if (a && a->kind == A_CMP)
		kfo_cmp(a, neg, o);
}

static void kfo_both_v(void *a, const void *b)
{
	kfo_and(a, b);
}

static void kfo_either_v(void *a, const void *b)
{
	kfopen_union(a, b);
}

static const struct kf_algebra kfo_algebra = {
	.size = sizeof(struct engine_kfopen),
	.leaf = kfo_leaf,
	.both = kfo_both_v,
	.either = kfo_either_v,
};

_Static_assert(sizeof(struct engine_kfopen) <= KF_VALUE_MAX, "KF_VALUE_MAX too small");

void kfopen_derive(const struct ast *a, struct engine_kfopen *o)
{
	kf_walk(&kfo_algebra, a, 0, 0, o);
}

void kfopen_all(struct engine_kfopen *o)
{
	kfo_all(o);
	o->raw = 1;
}

int kfopen_pass(const struct engine_kfopen *o, unsigned class, const char *path)
{
	uint16_t m;

	class &= AS_OPEN_CLASSES - 1;
	if (!(o->classes & (1u << class)))
		return 0;
	m = o->excl[class];
	for (unsigned i = 0; m && i < o->nprefix; i++)
		if ((m & (1u << i)) && !strncmp(path, o->prefix[i], strlen(o->prefix[i])))
			return 0;
	return 1;
}
