// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Stage 3: the compiler from the AST (macros inlined) to straight-line code
 * with short-circuit jumps over one boolean register. What can be checked is
 * checked here, once (field names, operator and operand types, constants),
 * as the operator facts of ops.h say, so evaluation cannot fail; equal
 * comparisons across rules are merged.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rules.h"
#include "names.h"
#include "dnsres.h"


static void cerr(struct cond_err *err, const struct ast *at, int unsupported, const char *fmt,
		 ...) __attribute__((format(printf, 4, 5)));

static void cerr(struct cond_err *err, const struct ast *at, int unsupported, const char *fmt,
		 ...)
{
	va_list ap;

	err->at = at;
	err->unsupported = unsupported;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static int parse_num(const char *s, int64_t *out)
{
	char *end;
	long long v;

	errno = 0;
	if (!s[0])
		return -EINVAL;
	v = strtoll(s, &end, 10);
	if (*end || errno)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_bool(const char *s, int64_t *out)
{
	if (!strcasecmp(s, "true")) {
		*out = 1;
		return 0;
	}
	if (!strcasecmp(s, "false")) {
		*out = 0;
		return 0;
	}
	return -EINVAL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void compile_free_cmp(struct cmp *c)
{
	free(c->s);
	for (size_t i = 0; c->set && i < c->nsetv; i++)
		free(c->set[i]);
	free(c->set);
	free(c->setlen);
	free(c->setwild);
	free(c->nset);
	free(c->nets);
	free(c->skip);
	if (c->kind == CK_COMM || c->kind == CK_COMM_ANY)
		free(c->as.comm.keys);
	if (c->kind == CK_COMM_ANY)
		free(c->as.comm.memo);
	if (c->re) {
		regfree(c->re);
		free(c->re);
	}
}

static int is_evtype(const struct engine *e, const struct ast *a)
{
	(void)e;
	return a->lhs.nxf == 0 && !strcmp(a->lhs.name, "evt.type") && !a->has_rfield;
}

static int same_bytes(const char *a, size_t al, const char *b, size_t bl)
{
	return al == bl && (al == 0 || memcmp(a, b, al) == 0);
}

/* Same comparison: same slots, operator and constants (a regex is compiled
 * from c->s, a fold worked out from the rest). */
static int cmp_same(const struct cmp *a, const struct cmp *b)
{
	if (a->slot != b->slot || a->op != b->op || a->rslot != b->rslot || a->n != b->n ||
	    a->nsetv != b->nsetv || !a->s != !b->s || !a->set != !b->set ||
	    !a->nset != !b->nset || !a->re != !b->re)
		return 0;
	if (a->s && !same_bytes(a->s, a->len, b->s, b->len))
		return 0;
	for (size_t i = 0; a->set && i < a->nsetv; i++)
		if (!same_bytes(a->set[i], a->setlen[i], b->set[i], b->setlen[i]))
			return 0;
	for (size_t i = 0; a->nset && i < a->nsetv; i++)
		if (a->nset[i] != b->nset[i])
			return 0;
	return 1;
}

/* Add c, or when an equal comparison exists, free c and return that one:
 * macros repeat comparisons across rules, and evaluation remembers each
 * result for the event. */
static int add_cmp(struct engine *e, struct cmp *c)
{
	for (size_t i = 0; i < e->ncmps; i++) {
		if (cmp_same(&e->cmps[i], c)) {
			compile_free_cmp(c);
			return (int)i;
		}
	}
	if (e->ncmps == e->capcmps) {
		size_t cap = e->capcmps ? 2 * e->capcmps : 64;
		struct cmp *n = realloc(e->cmps, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		e->cmps = n;
		e->capcmps = cap;
	}
	e->cmps[e->ncmps] = *c;
	return (int)e->ncmps++;
}

/* pmatch prefixes with wildcards (eval.c pmatch_wild): their component
 * counts; components past UCHAR_MAX count as that many. 0 or -ENOMEM. */
static int pmatch_wildcards(struct cmp *c)
{
	for (size_t i = 0; i < c->nsetv; i++) {
		unsigned n = 1;

		if (!strpbrk(c->set[i], "*?["))
			continue;
		if (!c->setwild) {
			c->setwild = calloc(c->nsetv, 1);
			if (!c->setwild)
				return -ENOMEM;
		}
		for (const char *p = c->set[i] + 1; *p; p++)
			n += *p == '/';
		c->setwild[i] = (unsigned char)(n > UCHAR_MAX ? UCHAR_MAX : n);
	}
	return 0;
}

/* Note one string of a string set in its quick filter (eval.c in_sorted). */
static void set_filter_add(struct cmp *c, const char *s, size_t len)
{
	unsigned char b = (unsigned char)s[0];

	c->setlens |= 1ull << (len < SET_LEN_BITS ? len : SET_LEN_BITS - 1);
	if (len)
		c->setfirst[b >> 6] |= 1ull << (b & 63);
}

/* The field on the right (val(f) or a transformer): same type, one value,
 * an operator that takes one (OF_FIELD_RHS). The left slot is found again
 * after slot_find, which may grow (move) e->slots. */
static int compile_rhs_field(struct engine *e, const struct ast *a, struct cmp *c,
			     struct cond_err *err)
{
	const struct slot *r, *sl;

	c->rslot = slot_find(e, &a->rhs, err);
	if (c->rslot < 0) {
		err->at = a;
		return c->rslot;
	}
	r = &e->slots[c->rslot];
	sl = &e->slots[c->slot];
	if (r->list) {
		cerr(err, a, 0, "the list '%s' on the right of an operator is not supported by agent-sentinel",
		     r->text);
		return -EINVAL;
	}
	if (r->type != sl->type || r->any) {
		cerr(err, a, 0, r->xform == XF_NONE ? "val(%s) is a %s, '%s' is a %s" :
						       "%s is a %s, '%s' is a %s",
		     r->text, fields_type_name(r->type), sl->text, fields_type_name(sl->type));
		return -EINVAL;
	}
	if (!(ops_table[a->op].flags & OF_FIELD_RHS)) {
		cerr(err, a, 0, "operator '%s' needs a constant, not val()", ops_table[a->op].text);
		return -EINVAL;
	}
	return 0;
}

/* Hex digits into bytes (OF_HEX operators). 0, -EINVAL, -ENOMEM. */
static int hex_bytes(const char *v, struct cmp *c)
{
	size_t n = strlen(v);

	if (n % 2)
		return -EINVAL;
	c->s = malloc(n / 2 + 1);
	if (!c->s)
		return -ENOMEM;
	for (size_t i = 0; i < n / 2; i++) {
		int hi = hexval(v[2 * i]), lo = hexval(v[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			free(c->s);
			c->s = NULL;
			return -EINVAL;
		}
		c->s[i] = (char)(hi << 4 | lo);
	}
	c->len = n / 2;
	return 0;
}

/* An OF_REGEX constant: Falco (RE2 FullMatch) matches the whole string. */
static int compile_regex(const struct ast *a, struct cmp *c, const char *v,
			 struct cond_err *err)
{
	size_t n = strlen(v) + 8;
	char *pat = malloc(n);
	char m[128];
	int rc;

	c->re = calloc(1, sizeof(*c->re));
	if (!pat || !c->re) {
		free(pat);
		return -ENOMEM;
	}
	if (constchk_regex(v, m, sizeof(m))) {
		free(pat);
		free(c->re);
		c->re = NULL;
		cerr(err, a, 0, "invalid regex '%s': %s", v, m);
		return -EINVAL;
	}
	snprintf(pat, n, "^(%s)$", v);
	rc = regcomp(c->re, pat, REG_EXTENDED | REG_NOSUB);
	free(pat);
	if (!rc)
		return 0;
	regerror(rc, c->re, m, sizeof(m));
	free(c->re);
	c->re = NULL;
	cerr(err, a, 0, "invalid regex '%s': %s", v, m);
	return -EINVAL;
}

/* The one constant of an OK_SCALAR operator, by the field's check type and
 * the operator's facts. 0 or -errno (c's allocations are the caller's). */
static int compile_scalar(const struct ast *a, struct cmp *c, const struct slot *sl,
			  struct cond_err *err)
{
	const char *v = a->vals[0];
	int rc;

	if (sl->type == T_NUM && parse_num(v, &c->n)) {
		cerr(err, a, 0, "'%s' is not a number, as field '%s' needs", v, sl->text);
		return -EINVAL;
	}
	if (sl->type == T_BOOL && parse_bool(v, &c->n)) {
		cerr(err, a, 0, "'%s' is not true or false, as field '%s' needs", v, sl->text);
		return -EINVAL;
	}
	if (ops_table[a->op].flags & OF_HEX) {
		rc = hex_bytes(v, c);
		if (rc == -EINVAL)
			cerr(err, a, 0, "'%s' is not a hex byte string", v);
		if (rc)
			return rc;
	} else if (slot_check_type(sl) == CHECK_T_IP) {
		c->s = slot_ip_canonical(v);
		if (!c->s) {
			cerr(err, a, 0, "'%s' is not an IP address, as field '%s' needs", v,
			     sl->text);
			return -EINVAL;
		}
		c->len = strlen(c->s);
	} else if (slot_check_type(sl) == CHECK_T_NET) {
		c->nets = calloc(1, sizeof(*c->nets));
		if (!c->nets)
			return -ENOMEM;
		c->nnets = 1;
		if (slot_ip_net(v, c->nets)) {
			cerr(err, a, 0, "'%s' is not an IP network (a.b.c.d/len), as field '%s' needs",
			     v, sl->text);
			return -EINVAL;
		}
		c->s = strdup(v);
		if (!c->s)
			return -ENOMEM;
		c->len = strlen(v);
	} else {
		c->s = strdup(v);
		if (!c->s)
			return -ENOMEM;
		c->len = strlen(v);
		if (sl->type == T_STR)
			constchk_warn(a, v, err);
	}
	if (ops_table[a->op].flags & OF_REGEX)
		return compile_regex(a, c, v, err);
	return 0;
}

/* The set of an OK_LIST operator: strings sorted for in/intersects (pmatch
 * keeps its order and marks wildcards), numbers and booleans parsed. */
static int compile_set(const struct ast *a, struct cmp *c, const struct slot *sl,
		       struct cond_err *err)
{
	size_t n = a->nvals;
	int ip = slot_check_type(sl) == CHECK_T_IP;

	c->nsetv = n;
	if (sl->type != T_STR) {
		c->nset = calloc(n ? n : 1, sizeof(*c->nset));
		if (!c->nset)
			return -ENOMEM;
		for (size_t i = 0; i < n; i++) {
			if (sl->type == T_NUM ? parse_num(a->vals[i], &c->nset[i]) :
						parse_bool(a->vals[i], &c->nset[i])) {
				cerr(err, a, 0, "'%s' is not a %s, as field '%s' needs", a->vals[i],
				     fields_type_name(sl->type), sl->text);
				return -EINVAL;
			}
		}
		return 0;
	}
	c->set = calloc(n ? n : 1, sizeof(*c->set));
	c->setlen = calloc(n ? n : 1, sizeof(*c->setlen));
	if (!c->set || !c->setlen)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		c->set[i] = ip ? slot_ip_canonical(a->vals[i]) : strdup(a->vals[i]);
		if (!ip && c->set[i])
			constchk_warn(a, c->set[i], err);
		if (!c->set[i] && ip) {
			cerr(err, a, 0, "'%s' is not an IP address, as field '%s' needs", a->vals[i],
			     sl->text);
			return -EINVAL;
		}
		if (!c->set[i])
			return -ENOMEM;
	}
	if (a->op != OP_PMATCH)
		qsort(c->set, n, sizeof(*c->set), cmp_str);
	else if (pmatch_wildcards(c))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		c->setlen[i] = strlen(c->set[i]);
		set_filter_add(c, c->set[i], c->setlen[i]);
	}
	if (slot_check_type(sl) == CHECK_T_NET) {
		c->nets = calloc(n ? n : 1, sizeof(*c->nets));
		if (!c->nets)
			return -ENOMEM;
		c->nnets = n;
		for (size_t i = 0; i < n; i++)
			if (slot_ip_net(c->set[i], &c->nets[i])) {
				cerr(err, a, 0,
				     "'%s' is not an IP network (a.b.c.d/len), as field '%s' needs",
				     c->set[i], sl->text);
				return -EINVAL;
			}
	}
	return 0;
}

/* fd.sip.name = NAME and the like: the names go to the background resolver
 * (dnsres.h); the other operators compare the name an address resolved to,
 * so their constants are no host names to resolve. */
static int compile_hostnames(const struct ast *a, const struct slot *sl, struct cond_err *err)
{
	const char *why = NULL;

	if (!(fields_table[sl->field].flags & FF_HOST) || sl->xform != XF_NONE)
		return 0;
	if (a->op != OP_EQ && a->op != OP_EQ2 && a->op != OP_NE && a->op != OP_IN &&
	    a->op != OP_INTERSECTS)
		return 0;
	for (size_t i = 0; i < a->nvals; i++) {
		if (dnsres_want(a->vals[i], &why)) {
			cerr(err, a, 0, "host name '%s' of field '%s': %s", a->vals[i], sl->text, why);
			return -EINVAL;
		}
	}
	return 0;
}

/* Compile one comparison node; returns the cmp index, or -errno. */
static int compile_cmp(struct engine *e, const struct ast *a, struct cond_err *err)
{
	struct cmp c = { .op = a->op, .rslot = -1 };
	const struct slot *sl;
	int rc;

	c.slot = slot_find(e, &a->lhs, err);
	if (c.slot < 0) {
		err->at = a;
		return c.slot;
	}
	sl = &e->slots[c.slot];
	if (sl->list && (a->has_rfield || !(a->op == OP_IN || a->op == OP_INTERSECTS ||
					    a->op == OP_EXISTS))) {
		cerr(err, a, 0, "'%s' is a list: it takes in, intersects or exists, not '%s'%s",
		     sl->text, ops_table[a->op].text, a->has_rfield ? " with a field" : "");
		return -EINVAL;
	}
	if (!(ops_table[a->op].types & (1u << slot_check_type(sl)))) {
		cerr(err, a, 0, "operator '%s' cannot be used on field '%s' (%s)",
		     ops_table[a->op].text, sl->text, slot_check_type_name(slot_check_type(sl)));
		return -EINVAL;
	}
	if (a->has_rfield) {
		rc = compile_rhs_field(e, a, &c, err);
		if (rc)
			return rc;
		c.dfield = -1;
		rc = add_cmp(e, &c);
		return rc < 0 ? -ENOMEM : rc;
	}
	switch (ops_table[a->op].kind) {
	case OK_SCALAR:
		rc = compile_scalar(a, &c, sl, err);
		break;
	case OK_LIST:
		rc = compile_set(a, &c, sl, err);
		break;
	default:
		rc = 0;
		break;
	}
	if (!rc)
		rc = compile_hostnames(a, sl, err);
	if (!rc)
		rc = specialise_cmp(&c, sl);
	if (!rc)
		rc = add_cmp(e, &c);
	if (rc < 0)
		compile_free_cmp(&c);
	return rc;
}

struct gen {
	struct insn *code;
	size_t n, cap;
};

static int emit(struct gen *g, uint32_t op, uint32_t arg)
{
	if (g->n == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 16;
		struct insn *n = realloc(g->code, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		g->code = n;
		g->cap = cap;
	}
	g->code[g->n].op = op;
	g->code[g->n].arg = arg;
	return (int)g->n++;
}

/* syscalls named by an evt.type comparison; unknown names counted */
static struct scset evtype_set(const struct ast *a, int *unknown)
{
	struct scset m = { { 0 } };

	for (size_t i = 0; i < a->nvals; i++) {
		unsigned t, sc;

		if (names_evt_type_parse(a->vals[i], &t, &sc) == 0)
			scset_add(&m, sc);
		else if (unknown)
			(*unknown)++;
	}
	return m;
}

static struct scset evmask(const struct ast *a, int neg, int depth)
{
	struct scset l, r, s, none = { { 0 } };

	if (!a || depth > COND_MAX_MACRO_DEPTH + COND_MAX_DEPTH)
		return scset_all();
	switch (a->kind) {
	case A_AND:
	case A_OR:
		l = evmask(a->l, neg, depth + 1);
		r = evmask(a->r, neg, depth + 1);
		return (a->kind == A_AND) != neg ? scset_and(l, r) : scset_or(l, r);
	case A_NOT:
		return evmask(a->l, !neg, depth + 1);
	case A_MACRO:
		return a->m ? evmask(a->m->ast, neg, depth + 1) : scset_all();
	case A_CONST:
		return (a->val != 0) != neg ? scset_all() : none;
	case A_CMP:
		if (!is_evtype(NULL, a))
			return scset_all();
		/* every event has a type: Falco's one-set, whose complement is
		 * empty (test_filter_evttype_resolver.cpp check_properties) */
		if (a->op == OP_EXISTS)
			return neg ? none : scset_all();
		s = evtype_set(a, NULL);
		if (a->op == OP_EQ || a->op == OP_EQ2 || a->op == OP_IN || a->op == OP_INTERSECTS)
			return neg ? scset_not(s) : s;
		if (a->op == OP_NE)
			return neg ? s : scset_not(s);
		return scset_all();
	default:
		return scset_all();
	}
}

static int gen_node(struct engine *e, struct gen *g, const struct ast *a, int depth,
		    int *named, struct cond_err *err)
{
	int rc, j;

	if (depth > COND_MAX_DEPTH + COND_MAX_MACRO_DEPTH) {
		cerr(err, a, 0, "condition nested deeper than %d levels (macros included)",
		     COND_MAX_DEPTH + COND_MAX_MACRO_DEPTH);
		return -EINVAL;
	}
	switch (a->kind) {
	case A_AND:
	case A_OR:
		if ((rc = gen_node(e, g, a->l, depth + 1, named, err)))
			return rc;
		j = emit(g, a->kind == A_AND ? I_JF : I_JT, 0);
		if (j < 0)
			return -ENOMEM;
		if ((rc = gen_node(e, g, a->r, depth + 1, named, err)))
			return rc;
		g->code[j].arg = (uint32_t)g->n;
		return 0;
	case A_NOT:
		if ((rc = gen_node(e, g, a->l, depth + 1, named, err)))
			return rc;
		return emit(g, I_NOT, 0) < 0 ? -ENOMEM : 0;
	case A_CONST:
		return emit(g, a->val ? I_TRUE : I_FALSE, 0) < 0 ? -ENOMEM : 0;
	case A_MACRO:
		if (!a->m) {
			cerr(err, a, 0, "Undefined macro '%s' used in filter.", a->name);
			return -EINVAL;
		}
		if (!a->m->ast) {
			cerr(err, a, 0, "macro '%s' has errors", a->name);
			return -EINVAL;
		}
		return gen_node(e, g, a->m->ast, depth + 1, named, err);
	case A_CMP:
		if (is_evtype(e, a)) {
			int unknown = 0;
			struct scset s = evtype_set(a, &unknown);

			(*named)++;
			if (unknown && scset_empty(&s) && (a->op == OP_EQ || a->op == OP_EQ2 ||
					      a->op == OP_IN || a->op == OP_INTERSECTS)) {
				/* only types we never see: never true */
				return emit(g, I_FALSE, 0) < 0 ? -ENOMEM : 0;
			}
		}
		rc = compile_cmp(e, a, err);
		if (rc < 0) {
			if (!err->at)
				err->at = a;
			return rc;
		}
		return emit(g, I_CMP, (uint32_t)rc) < 0 ? -ENOMEM : 0;
	default:
		return -EINVAL;
	}
}

int compile_cond(struct engine *e, const struct ast *a, struct insn **code, size_t *ncode,
		 struct scset *mask, int *evtype_named, struct cond_err *err)
{
	struct gen g = { 0 };
	int rc;

	err->at = NULL;
	err->warn[0] = 0;
	err->warn_at = NULL;
	err->unsupported = 0;
	err->msg[0] = 0;
	*evtype_named = 0;
	rc = gen_node(e, &g, a, 0, evtype_named, err);
	if (rc) {
		if (rc == -ENOMEM && !err->msg[0])
			snprintf(err->msg, sizeof(err->msg), "out of memory");
		free(g.code);
		return rc;
	}
	*code = g.code;
	*ncode = g.n;
	*mask = evmask(a, 0, 0);
	return 0;
}

