// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The open part of the kernel pre-filter, derived from the rules: what a
 * rule's condition implies about an open event, as
 *   "its class (AS_OPEN_OK | _READ | _WRITE | _TRUNC: fd.num >= 0,
 *    evt.is_open_read, evt.is_open_write, evt.arg.flags contains O_TRUNC)
 *    is in C, and for that class one of the terms
 *    T[class] holds", a term being
 *   "fd.name starts with none of the prefixes E, and has one of the names
 *    N (any name when N is empty)".
 * A name (an atom) is tested on the path's components: one of them is X
 * (fd.name contains "/X/"), starts with X (contains "/X"), or the last one
 * is X or starts with X (fd.filename = X, fd.filename startswith X;
 * fd.name = /a/X; fd.directory = /a/X names a component X).
 * The derivation is conservative, as kfilter.c's: a condition can only be
 * true of an open when its predicate is. Negations are pushed down (De
 * Morgan) and
 *   P(a and b): classes C(a) & C(b); per class the terms pairwise, each
 *               pair's prefixes E(a) | E(b) (exact) and the names of one
 *               of them (a term cannot say both)
 *   P(a or b):  classes C(a) | C(b); per class the terms of both (exact)
 *   at most AS_OPEN_TERMS terms a class: two merge into one that holds
 *               where either does (the prefixes under one of the other's,
 *               the names of both, or none), the pair that loses least
 *   P(evt.is_open_read = true), P(evt.is_open_write = ...), P(fd.num op N),
 *   P(evt.failed = ...): the classes where it can hold (exact, negatable:
 *               these fields always have a value on an open)
 *   P(evt.arg.flags contains O_TRUNC | O_F_CREATED): the classes with the
 *               bit they share; negated, every class
 *   P(evt.is_compat = true): no class. The filter is the native path
 *               opens': a 32-bit open (bpf/compat.bpf.c) or an
 *               open_by_handle_at is tested by neither the classes nor the
 *               path, all reach the rules
 *   P(not fd.name startswith X): every class, X excluded
 *   P(fd.is_deleted = true), P(fd.is_foreign_pipe = true),
 *   P(fd.is_rawdev = true): every class, "/" excluded: the kernel keeps a
 *               file with no link, an anonymous pipe and a raw device
 *               before it tests a prefix; P(fd.is_setid = true): the same
 *               in the classes that write or truncate, which alone have one
 *   P(fd.name contains "/a/b/"): every class, the name b; contains "/a":
 *               a name starting with a; no whole name inside: anything
 *   P(fd.name = X | in (...)), P(fd.filename = X | in (...)),
 *   P(fd.filename startswith X), P(fd.directory = X | in (...)): every
 *               class, the names as above
 *   P(evt.type = X), P(evt.type in (...)): the classes of the opens it
 *               names (creat: write and truncate), none when it names
 *               none (open_by_handle_at is none: never tested)
 * Beside the classes, whether a rule can match an open the filter does not
 * test (untested: a 32-bit open or an open_by_handle_at): false only for an
 * evt.type naming no open call, and for false; it keeps the open type
 * attached when no class is wanted.
 *   P(false) = no class; P(anything else) = every class, one term with
 *   nothing excluded and no name needed.
 * A prefix the kernel cannot test (not absolute, too long, table full) is
 * left out, and a name it cannot test leaves its term needing no name:
 * either only ever keeps more events.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "names.h"
#include "rules.h"

#define KFO_ALL_CLASSES ((1u << AS_OPEN_CLASSES) - 1)

static void kfo_all(struct engine_kfopen *o)
{
	memset(o, 0, sizeof(*o));
	o->classes = KFO_ALL_CLASSES;
	o->untested = 1;
	for (unsigned k = 0; k < AS_OPEN_CLASSES; k++)
		o->nterm[k] = 1; /* one term: nothing excluded, no name needed */
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

/* Index of atom (kind, the len bytes at s) in o's table, added when
 * missing; -1 when it cannot be (empty, a '/' in it, too long, table full). */
static int kfo_atom(struct engine_kfopen *o, unsigned kind, const char *s, size_t len)
{
	if (!len || len >= AS_OPEN_ATOM_LEN || memchr(s, '/', len) || memchr(s, 0, len))
		return -1;
	for (unsigned j = 0; j < o->natom; j++)
		if (o->akind[j] == kind && strlen(o->atom[j]) == len && !memcmp(o->atom[j], s, len))
			return (int)j;
	if (o->natom == ENGINE_KF_ATOM_MAX)
		return -1;
	memset(o->atom[o->natom], 0, AS_OPEN_ATOM_LEN);
	memcpy(o->atom[o->natom], s, len);
	o->akind[o->natom] = (uint8_t)kind;
	return (int)o->natom++;
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

/* b's atom mask m, as indices into a's table; when one does not fit, no
 * name at all (needing fewer names would be a stronger predicate). */
static uint32_t kfo_remap_atoms(struct engine_kfopen *a, const struct engine_kfopen *b, uint32_t m)
{
	uint32_t out = 0;

	for (unsigned j = 0; j < b->natom; j++) {
		int i;

		if (!(m & (1u << j)))
			continue;
		i = kfo_atom(a, b->akind[j], b->atom[j], strlen(b->atom[j]));
		if (i < 0)
			return 0;
		out |= 1u << i;
	}
	return out;
}

/* Does prefix p start with prefix q (every path under p is under q)? */
static int kfo_under(const char *p, const char *q)
{
	return !strncmp(p, q, strlen(q));
}

/* Where both a (its prefixes ma) and b (mb) exclude, as a's prefixes: each
 * prefix of either that is under one of the other's ("/tmp/" is under
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

/* Does every path term y passes also pass x (y is redundant beside x)? */
static int kfo_covers(struct engine_kfterm x, struct engine_kfterm y)
{
	return !(x.excl & ~y.excl) && (!x.need || (y.need && !(y.need & ~x.need)));
}

/* One term that holds where x or y does (both in o's tables). */
static struct engine_kfterm kfo_merge(struct engine_kfopen *o, struct engine_kfterm x,
				      struct engine_kfterm y)
{
	struct engine_kfterm m;

	m.excl = x.excl == y.excl ? x.excl : kfo_meet(o, x.excl, o, y.excl);
	m.need = x.need && y.need ? x.need | y.need : 0;
	return m;
}

/* Drop the terms another covers (of two equal ones, the later). */
static size_t kfo_prune(struct engine_kfterm *t, size_t n)
{
	size_t m = 0;

	for (size_t j = 0; j < n; j++) {
		size_t i;

		for (i = 0; i < n; i++)
			if (i != j && kfo_covers(t[i], t[j]) && (!kfo_covers(t[j], t[i]) || i < j))
				break;
		if (i == n)
			t[m++] = t[j];
	}
	return m;
}

/* What merging x and y loses: 0 nothing (the same names: the prefixes
 * excluded by both; the same prefixes: either's names), 1 prefixes (both
 * need names: they stay, in one list), 2 prefixes where neither needs
 * names, 3 one's names (the other needs none: the merge needs none). */
static int kfo_loss(struct engine_kfterm x, struct engine_kfterm y)
{
	if (x.need == y.need || x.excl == y.excl)
		return 0;
	if (x.need && y.need)
		return 1;
	return !x.need && !y.need ? 2 : 3;
}

/* Class k's n terms in t, without redundant ones and merged down to
 * ENGINE_KF_TERMS, into o. The pairs whose merge loses nothing are merged
 * whatever their number, so the kernel tests fewer; then, while too many,
 * the pairs that lose least. */
static void kfo_set_terms(struct engine_kfopen *o, unsigned k, struct engine_kfterm *t, size_t n)
{
	size_t m = kfo_prune(t, n);

	for (;;) {
		size_t bi = 0, bj = 0;
		int best = 4;

		for (size_t i = 0; i < m; i++)
			for (size_t j = i + 1; j < m; j++)
				if (kfo_loss(t[i], t[j]) < best)
					best = kfo_loss(t[i], t[j]), bi = i, bj = j;
		if (best == 4 || (best > 0 && m <= ENGINE_KF_TERMS))
			break;
		t[bi] = kfo_merge(o, t[bi], t[bj]);
		t[bj] = t[--m];
		m = kfo_prune(t, m);
	}
	o->nterm[k] = (uint8_t)m;
	memcpy(o->term[k], t, m * sizeof(*t));
}

/* Drop the prefixes and atoms no term uses, so the tables do not fill with
 * dead ones; a class no rule wants has no terms. */
static void kfo_compact(struct engine_kfopen *o)
{
	struct engine_kfopen c;
	uint16_t used = 0;
	uint32_t aused = 0;

	for (unsigned k = 0; k < AS_OPEN_CLASSES; k++) {
		if (!(o->classes & (1u << k)))
			o->nterm[k] = 0;
		for (unsigned t = 0; t < o->nterm[k]; t++) {
			used |= o->term[k][t].excl;
			aused |= o->term[k][t].need;
		}
	}
	memset(&c, 0, sizeof(c));
	c.classes = o->classes;
	c.raw = o->raw;
	c.untested = o->untested;
	for (unsigned k = 0; k < AS_OPEN_CLASSES; k++) {
		c.nterm[k] = o->nterm[k];
		for (unsigned t = 0; t < o->nterm[k]; t++) {
			c.term[k][t].excl = kfo_remap(&c, o, (uint16_t)(o->term[k][t].excl & used));
			c.term[k][t].need = kfo_remap_atoms(&c, o, o->term[k][t].need & aused);
		}
	}
	*o = c;
}

/* Both hold: per class, each term of a with each of b. */
static void kfo_and(struct engine_kfopen *a, const struct engine_kfopen *b)
{
	a->classes &= b->classes;
	a->untested &= b->untested;
	for (unsigned k = 0; k < AS_OPEN_CLASSES; k++) {
		struct engine_kfterm t[ENGINE_KF_TERMS * ENGINE_KF_TERMS];
		size_t n = 0;

		if (!(a->classes & (1u << k)))
			continue;
		for (unsigned i = 0; i < a->nterm[k]; i++)
			for (unsigned j = 0; j < b->nterm[k]; j++) {
				struct engine_kfterm x = a->term[k][i];
				uint16_t e = kfo_remap(a, b, b->term[k][j].excl);
				uint32_t nb = kfo_remap_atoms(a, b, b->term[k][j].need);

				t[n].excl = (uint16_t)(x.excl | e);
				/* the names of one: the fewer, the tighter */
				if (!x.need || (nb && __builtin_popcount(nb) < __builtin_popcount(x.need)))
					t[n].need = nb;
				else
					t[n].need = x.need;
				n++;
			}
		kfo_set_terms(a, k, t, n);
	}
	kfo_compact(a);
}

/* One of them holds. */
void kfopen_union(struct engine_kfopen *a, const struct engine_kfopen *b)
{
	for (unsigned k = 0; k < AS_OPEN_CLASSES; k++) {
		struct engine_kfterm t[2 * ENGINE_KF_TERMS];
		size_t n = 0;

		if (!(b->classes & (1u << k)))
			continue;
		if (a->classes & (1u << k))
			for (unsigned i = 0; i < a->nterm[k]; i++)
				t[n++] = a->term[k][i];
		for (unsigned j = 0; j < b->nterm[k]; j++) {
			t[n].excl = kfo_remap(a, b, b->term[k][j].excl);
			t[n++].need = kfo_remap_atoms(a, b, b->term[k][j].need);
		}
		kfo_set_terms(a, k, t, n);
	}
	a->classes |= b->classes;
	a->raw |= b->raw;
	a->untested |= b->untested;
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
	/* the classes without / with AS_OPEN_OK */
	return (fail ? 0x5555u : 0) | (ok ? 0xaaaau : 0);
}

/* The classes with bit set (want) or clear. */
static unsigned kfo_with(unsigned bit, int want)
{
	unsigned set = 0;

	for (unsigned k = 0; k < AS_OPEN_CLASSES; k++)
		if (!!(k & bit) == want)
			set |= 1u << k;
	return set;
}

/* Classes in which a boolean field (bit set = true) compared to v can hold. */
/* What a boolean field compared to v (negated when neg) wants: 1 true,
 * 0 false, -1 either (another operator or value). */
static int kfo_truth(const struct ast *a, int neg)
{
	int want;

	if ((a->op != OP_EQ && a->op != OP_EQ2 && a->op != OP_NE) || a->nvals != 1)
		return -1;
	if (!strcasecmp(a->vals[0], "true"))
		want = 1;
	else if (!strcasecmp(a->vals[0], "false"))
		want = 0;
	else
		return -1;
	return (a->op == OP_NE) != !!neg ? !want : want;
}

static unsigned kfo_bool(unsigned bit, const struct ast *a, int neg)
{
	int want = kfo_truth(a, neg);

	return want < 0 ? KFO_ALL_CLASSES : kfo_with(bit, want);
}

/* What evt.type OP vals says of an open, from the syscall table (names.c):
 * the classes in which it can hold on an open the filter tests (the open
 * calls it names: creat's always write and truncate, any class for the
 * others; none when it names none, open_by_handle_at being never tested),
 * and *untested whether it can hold on one the filter does not test (a
 * 32-bit one of any open call, or an open_by_handle_at). Negated or another
 * operator: all classes, untested. */
static unsigned kfo_evtype(const struct ast *a, int neg, uint8_t *untested)
{
	unsigned set = 0, type, sc;

	*untested = 1;
	if (neg || (a->op != OP_EQ && a->op != OP_EQ2 && a->op != OP_IN))
		return KFO_ALL_CLASSES;
	*untested = 0;
	for (size_t i = 0; i < a->nvals; i++) {
		if (names_evt_type_parse(a->vals[i], &type, &sc) || type != AS_EV_OPEN)
			continue;
		*untested = 1;
		if (sc == AS_SC_CREAT)
			set |= kfo_with(AS_OPEN_WRITE, 1) & kfo_with(AS_OPEN_TRUNC, 1);
		else if (sc != AS_SC_OPEN_BY_HANDLE_AT)
			set = KFO_ALL_CLASSES;
	}
	return set;
}

/* Every class's one term needs the atoms in m (none: m was not derived). */
static void kfo_need(struct engine_kfopen *o, uint32_t m)
{
	for (unsigned k = 0; k < AS_OPEN_CLASSES; k++)
		o->term[k][0].need = m;
}

/* The atom that fd.name contains s implies: the last whole name in s (one
 * between two slashes: "/a/b/" has b), else a name starting with what
 * follows its last slash ("x/b": a name starting with b); -1 for none. A
 * whole name is preferred: the kernel reads only names of its length. */
static int kfo_contains(struct engine_kfopen *o, const char *s)
{
	const char *last = strrchr(s, '/');

	for (const char *end = last; end && end > s; end--) {
		const char *start = end;

		if (*end != '/')
			continue;
		while (start > s && start[-1] != '/')
			start--;
		if (start > s && end > start) { /* a slash before it too: whole */
			int j = kfo_atom(o, 0, start, (size_t)(end - start));

			if (j >= 0)
				return j;
		}
		if (start == s)
			break;
	}
	if (last && last[1])
		return kfo_atom(o, AS_ATOM_PREFIX, last + 1, strlen(last + 1));
	return -1;
}

/* The atom "the path's last name is v" (base; v a path when path: its
 * last name), or "a name is v's last" (fd.directory = v: one of the names
 * above the last, which an atom on any name covers); -1 when v names none. */
static int kfo_lastname(struct engine_kfopen *o, const char *v, unsigned kind, int path)
{
	const char *slash = strrchr(v, '/');

	if (path && (v[0] != '/' || !slash))
		return -1;
	if (!path)
		return kfo_atom(o, kind, v, strlen(v));
	return kfo_atom(o, kind, slash + 1, strlen(slash + 1));
}

/* The names a positive comparison on fd.name, fd.filename or fd.directory
 * implies; 0 when it implies none the kernel can test. */
static uint32_t kfo_names(const struct ast *a, int f, struct engine_kfopen *o)
{
	int eq = a->op == OP_EQ || a->op == OP_EQ2 || a->op == OP_IN;
	uint32_t m = 0;

	if (f == F_FD_NAME && a->op == OP_CONTAINS && a->nvals == 1) {
		int j = kfo_contains(o, a->vals[0]);

		return j < 0 ? 0 : 1u << j;
	}
	if (f == F_FD_FILENAME && a->op == OP_STARTSWITH && a->nvals == 1) {
		int j = kfo_atom(o, AS_ATOM_BASE | AS_ATOM_PREFIX, a->vals[0], strlen(a->vals[0]));

		return j < 0 ? 0 : 1u << j;
	}
	if (!eq || !a->nvals)
		return 0;
	for (size_t i = 0; i < a->nvals; i++) {
		int j = f == F_FD_DIRECTORY ? kfo_lastname(o, a->vals[i], 0, 1) :
			kfo_lastname(o, a->vals[i], AS_ATOM_BASE, f == F_FD_NAME);

		if (j < 0)
			return 0;
		m |= 1u << j;
	}
	return m;
}

static void kfo_cmp(const struct ast *a, int neg, struct engine_kfopen *o)
{
	int f = fields_lookup(a->lhs.name);
	char *end;
	long long n;

	kfo_all(o);
	if (a->lhs.nxf || a->has_rfield)
		return;
	if ((!strcmp(a->lhs.name, "evt.arg.flags") ||
	     (f == F_EVT_ARG && a->lhs.has_arg && !strcmp(a->lhs.arg, "flags"))) &&
	    a->op == OP_CONTAINS && a->nvals == 1 &&
	    (!strcmp(a->vals[0], "O_TRUNC") || !strcmp(a->vals[0], "O_F_CREATED"))) {
		/* the flags' names hold either exactly when it is so, and either
		 * sets the class bit: its absence is in every class */
		o->classes = (uint16_t)(neg ? KFO_ALL_CLASSES : kfo_with(AS_OPEN_TRUNC, 1));
		return;
	}
	if (a->lhs.has_arg)
		return;
	switch (f) {
	case F_EVT_TYPE:
		o->classes = (uint16_t)kfo_evtype(a, neg, &o->untested);
		return;
	case F_EVT_IS_OPEN_READ:
		o->classes = (uint16_t)kfo_bool(AS_OPEN_READ, a, neg);
		return;
	case F_EVT_IS_OPEN_WRITE:
		o->classes = (uint16_t)kfo_bool(AS_OPEN_WRITE, a, neg);
		return;
	case F_EVT_IS_COMPAT: /* this filter is the native opens': none is a 32-bit call */
		o->classes = (uint16_t)kfo_bool(0, a, neg);
		return;
	case F_EVT_FAILED: /* true when fd.num is -1: the classes without OK */
		o->classes = (uint16_t)(kfo_bool(AS_OPEN_OK, a, !neg) & KFO_ALL_CLASSES);
		return;
	case F_FD_NUM:
		if (a->nvals != 1 || a->is_list)
			return;
		n = strtoll(a->vals[0], &end, 10);
		if (*end || !a->vals[0][0])
			return;
		o->classes = (uint16_t)kfo_fdnum(a->op, n, neg);
		return;
	case F_FD_IS_SETID:
	case F_FD_IS_DELETED:
	case F_FD_IS_FOREIGN_PIPE:
	case F_FD_IS_RAWDEV:
		/* the kernel keeps every tested open of a file with no link
		 * before its names and prefixes are read (as_file_dropped), of
		 * a raw device, of a setid file (in the classes that write or
		 * truncate: no other has one), and of an anonymous pipe, whose
		 * walk reaches no root: a term excluding "/", every path, holds
		 * of those alone */
		if (kfo_truth(a, neg) == 1) {
			int i = kfo_intern(o, "/");

			if (f == F_FD_IS_SETID)
				o->classes = (uint16_t)(kfo_with(AS_OPEN_WRITE, 1) |
							kfo_with(AS_OPEN_TRUNC, 1));

			if (i >= 0)
				for (unsigned k = 0; k < AS_OPEN_CLASSES; k++)
					o->term[k][0].excl = (uint16_t)(1u << i);
		}
		return;
	case F_FD_NAME:
		if (neg && a->op == OP_STARTSWITH && a->nvals == 1) {
			int i = kfo_intern(o, a->vals[0]);

			if (i >= 0)
				for (unsigned k = 0; k < AS_OPEN_CLASSES; k++)
					o->term[k][0].excl = (uint16_t)(1u << i);
			return;
		}
		/* fall through */
	case F_FD_FILENAME:
	case F_FD_DIRECTORY:
		if (!neg)
			kfo_need(o, kfo_names(a, f, o));
		return;
	default:
		return;
	}
}

static void kfo_leaf(const struct ast *a, int neg, void *v)
{
	struct engine_kfopen *o = v;

	kfo_all(o);
	if (a && a->kind == A_CONST && !a->val != !neg) { /* false, or not true */
		o->classes = 0;
		o->untested = 0;
	} else if (a && a->kind == A_CMP) {
		kfo_cmp(a, neg, o);
	}
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

/* The atoms in o that the path's names match, as the kernel's walk tests
 * them (bpf/walk.bpf.c, as_atom_match). */
static uint32_t kfo_path_atoms(const struct engine_kfopen *o, const char *path)
{
	uint32_t m = 0;
	const char *p = path;

	while (*p) {
		const char *name, *next;
		size_t len;
		int base;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		name = p;
		next = strchr(name, '/');
		len = next ? (size_t)(next - name) : strlen(name);
		p = name + len;
		base = !*p;
		for (unsigned j = 0; j < o->natom; j++) {
			size_t alen = strlen(o->atom[j]);
			unsigned kind = o->akind[j];

			if ((kind & AS_ATOM_BASE) && !base)
				continue;
			if ((kind & AS_ATOM_PREFIX) ? len < alen : len != alen)
				continue;
			if (!memcmp(name, o->atom[j], alen))
				m |= 1u << j;
		}
	}
	return m;
}

int kfopen_pass(const struct engine_kfopen *o, unsigned class, const char *path, int kept)
{
	uint16_t pm = 0;
	uint32_t am;

	class &= AS_OPEN_CLASSES - 1;
	if (!(o->classes & (1u << class)))
		return 0;
	if (!o->nterm[class] || kept) /* kept before the path test */
		return 1;
	for (unsigned i = 0; i < o->nprefix; i++)
		if (!strncmp(path, o->prefix[i], strlen(o->prefix[i])))
			pm |= (uint16_t)(1u << i);
	am = kfo_path_atoms(o, path);
	for (unsigned t = 0; t < o->nterm[class]; t++) {
		const struct engine_kfterm *x = &o->term[class][t];

		if ((!x->need || (x->need & am)) && !(x->excl & pm))
			return 1;
	}
	return 0;
}
