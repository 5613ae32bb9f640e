// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Evaluation: runs a rule's code over one boolean register. Field values are
 * extracted at most once per event (slots carry the event generation they
 * were filled in); nothing is allocated here.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <string.h>
#include "names.h"
#include "rules.h"

static void xform_apply(int xf, const struct fval *in, struct fval *out, char *buf, size_t cap)
{
	size_t n = in->len < cap - 1 ? in->len : cap - 1;
	const char *slash;

	*out = (struct fval){ .present = 1, .type = T_STR };
	switch (xf) {
	case XF_TOLOWER:
	case XF_TOUPPER:
		for (size_t i = 0; i < n; i++)
			buf[i] = (char)(xf == XF_TOLOWER ? tolower((unsigned char)in->s[i]) :
							   toupper((unsigned char)in->s[i]));
		buf[n] = 0;
		out->s = buf;
		out->len = n;
		break;
	case XF_BASENAME:
		slash = memrchr(in->s, '/', in->len);
		out->s = slash ? slash + 1 : in->s;
		out->len = in->len - (size_t)(out->s - in->s);
		break;
	case XF_LEN:
		out->type = T_NUM;
		out->n = (int64_t)in->len;
		break;
	default:
		out->present = 0;
		break;
	}
}

const struct fval *eval_slot(struct evctx *c, int i)
{
	struct slot *s = &c->e->slots[i];

	if (s->gen == c->e->gen)
		return &s->v;
	if (s->xform != XF_NONE) {
		const struct fval *p = eval_slot(c, s->parent);

		if (p->present)
			xform_apply(s->xform, p, &s->v, s->buf, s->cap);
		else
			s->v = (struct fval){ .type = s->type };
	} else {
		fields_extract(c, s->field, s->any ? -1 : s->idx, s->arg, &s->v, s->buf, s->cap);
	}
	s->gen = c->e->gen;
	return &s->v;
}

static int strcmp_n(const char *a, size_t al, const char *b, size_t bl)
{
	int r = memcmp(a, b, al < bl ? al : bl);

	if (r)
		return r;
	return al < bl ? -1 : al > bl;
}

static int icontains(const char *h, size_t hl, const char *n, size_t nl)
{
	if (nl == 0)
		return 1;
	for (size_t i = 0; i + nl <= hl; i++) {
		size_t j = 0;

		while (j < nl && tolower((unsigned char)h[i + j]) == tolower((unsigned char)n[j]))
			j++;
		if (j == nl)
			return 1;
	}
	return 0;
}

static int in_sorted(const struct cmp *c, const char *s, size_t len)
{
	size_t lo = 0, hi = c->nsetv;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int r = strcmp_n(s, len, c->set[mid], c->setlen[mid]);

		if (r == 0)
			return 1;
		if (r < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return 0;
}

/* Falco's pmatch: a prefix matches itself and what is below it. */
static int pmatch(const struct cmp *c, const char *s, size_t len)
{
	for (size_t i = 0; i < c->nsetv; i++) {
		size_t pl = c->setlen[i];

		if (pl > len || memcmp(s, c->set[i], pl) != 0)
			continue;
		if (pl == len || s[pl] == '/' || (pl && c->set[i][pl - 1] == '/'))
			return 1;
	}
	return 0;
}

/* Copy into a NUL-terminated buffer for fnmatch/regexec. */
static const char *cstr(const struct fval *v, char *tmp, size_t cap)
{
	size_t n = v->len < cap - 1 ? v->len : cap - 1;

	memcpy(tmp, v->s, n);
	tmp[n] = 0;
	return tmp;
}

static int cmp_str(const struct cmp *c, const struct fval *v, const char *k, size_t kl)
{
	char tmp[FIELDS_BUF_MAX];
	int r;

	switch (c->op) {
	case OP_EQ:
	case OP_EQ2:
		return v->len == kl && memcmp(v->s, k, kl) == 0;
	case OP_NE:
		return !(v->len == kl && memcmp(v->s, k, kl) == 0);
	case OP_LT:
	case OP_LE:
	case OP_GT:
	case OP_GE:
		r = strcmp_n(v->s, v->len, k, kl);
		return c->op == OP_LT ? r < 0 : c->op == OP_LE ? r <= 0 : c->op == OP_GT ? r > 0 : r >= 0;
	case OP_CONTAINS:
	case OP_BCONTAINS:
		return kl == 0 || memmem(v->s, v->len, k, kl) != NULL;
	case OP_ICONTAINS:
		return icontains(v->s, v->len, k, kl);
	case OP_STARTSWITH:
	case OP_BSTARTSWITH:
		return v->len >= kl && memcmp(v->s, k, kl) == 0;
	case OP_ENDSWITH:
		return v->len >= kl && memcmp(v->s + v->len - kl, k, kl) == 0;
	case OP_GLOB:
		return fnmatch(k, cstr(v, tmp, sizeof(tmp)), FNM_NOESCAPE) == 0;
	case OP_IGLOB:
		return fnmatch(k, cstr(v, tmp, sizeof(tmp)), FNM_NOESCAPE | FNM_CASEFOLD) == 0;
	case OP_REGEX:
		return regexec(c->re, cstr(v, tmp, sizeof(tmp)), 0, NULL, 0) == 0;
	case OP_IN:
	case OP_INTERSECTS:
		return in_sorted(c, v->s, v->len);
	case OP_PMATCH:
		return pmatch(c, v->s, v->len);
	default:
		return 0;
	}
}

static int cmp_num(const struct cmp *c, int64_t a, int64_t b)
{
	switch (c->op) {
	case OP_EQ:
	case OP_EQ2:
		return a == b;
	case OP_NE:
		return a != b;
	case OP_LT:
		return a < b;
	case OP_LE:
		return a <= b;
	case OP_GT:
		return a > b;
	case OP_GE:
		return a >= b;
	case OP_IN:
	case OP_INTERSECTS:
		for (size_t i = 0; i < c->nsetv; i++)
			if (c->nset[i] == a)
				return 1;
		return 0;
	default:
		return 0;
	}
}

/* One value against the comparison; missing values never match. */
static int cmp_value(struct evctx *ctx, const struct cmp *c, const struct fval *v)
{
	if (c->op == OP_EXISTS)
		return v->present;
	if (!v->present)
		return 0;
	if (c->rslot >= 0) {
		const struct fval *r = eval_slot(ctx, c->rslot);

		if (!r->present)
			return 0;
		if (v->type == T_STR)
			return cmp_str(c, v, r->s, r->len);
		return cmp_num(c, v->n, r->n);
	}
	if (v->type == T_STR)
		return cmp_str(c, v, c->s, c->len);
	return cmp_num(c, v->n, c->n);
}

int eval_cmp_const(const struct cmp *c, const struct fval *v)
{
	return c->rslot < 0 && cmp_value(NULL, c, v);
}

static int eval_cmp(struct evctx *ctx, const struct cmp *c)
{
	const struct slot *s = &ctx->e->slots[c->slot];

	if (c->fold) {
		const struct as_hdr *h = ctx->ev->hdr;

		if (h->syscall < AS_SC_MAX && names_syscall_type(h->syscall) == h->type)
			return (c->fold_true >> h->syscall) & 1;
	}

	if (s->any) {
		/* proc.aname / proc.apid with no index: any ancestor from the parent up */
		const struct as_hdr *h = ctx->ev->hdr;
		int n = h->n_anc < AS_MAX_ANCESTORS ? h->n_anc : AS_MAX_ANCESTORS;
		struct fval v;

		if (c->op == OP_EXISTS)
			return n > 0;
		for (int i = 1; i <= n; i++) {
			fields_extract(ctx, s->field, i, NULL, &v, NULL, 0);
			if (cmp_value(ctx, c, &v))
				return 1;
		}
		return 0;
	}
	return cmp_value(ctx, c, eval_slot(ctx, c->slot));
}

int eval_rule(struct evctx *c, const struct rule *r)
{
	int acc = 0;
	size_t pc = 0;

	/* if-chain in order of frequency, not a switch: the switch compiled to
	 * a jump table whose one indirect branch mispredicted at most steps */
	while (pc < r->ncode) {
		const struct insn *in = &r->code[pc];
		int op = in->op;

		if (op == I_CMP) {
			acc = eval_cmp(c, &c->e->cmps[in->arg]);
			pc++;
		} else if (op == I_JF) {
			pc = acc ? pc + 1 : in->arg;
		} else if (op == I_JT) {
			pc = acc ? in->arg : pc + 1;
		} else if (op == I_NOT) {
			acc = !acc;
			pc++;
		} else {
			acc = op == I_TRUE;
			pc++;
		}
	}
	return acc;
}
