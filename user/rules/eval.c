// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Evaluation: walks a rule's decision graph (specialise_graph), one comparison per
 * step. The header fields most conditions test (comm names, the open's class,
 * fd.num, fd.name prefixes) are compared inline, as enum cmp_kind says; any
 * other comparison's result is worked out at most once per event, however
 * many rules share it (comparisons carry the event generation of their
 * result), or at load when the syscall fixes it (specialise_entries then leaves it
 * out of that syscall's graph); field values are read in place or extracted
 * at most once per event into slots. Nothing is allocated here.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <fnmatch.h>
#include <string.h>
#include "rules.h"

static int b64_val(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/* Standard base64 (RFC 4648) into buf, '=' padding optional as libsinsp's
 * decoder has it (filter_transformer.ut.cpp decodes "YWFhLWJiYg"); -1 when s
 * is not base64 or does not fit. Allocation-free: it runs per event. */
static int b64_decode(const char *s, size_t n, char *buf, size_t cap, size_t *outlen)
{
	size_t o = 0;
	uint32_t acc = 0;
	int bits = 0, pad = 0;

	if (n % 4 == 1 || (n % 4 && memchr(s, '=', n)))
		return -1;
	for (size_t i = 0; i < n; i++) {
		int v;

		if (s[i] == '=') {
			if (i + 2 < n)
				return -1;
			pad++;
			continue;
		}
		if (pad)
			return -1;
		v = b64_val((unsigned char)s[i]);
		if (v < 0)
			return -1;
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (o + 1 >= cap)
				return -1;
			buf[o++] = (char)(acc >> bits);
		}
	}
	buf[o] = 0;
	*outlen = o;
	return 0;
}

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
	case XF_B64:
		if (b64_decode(in->s, in->len, buf, cap, &out->len) < 0) {
			out->present = 0; /* not base64: no value, as libsinsp */
			break;
		}
		out->s = buf;
		break;
	default:
		out->present = 0;
		break;
	}
}

static const struct fval *slot_value(struct evctx *c, int i);

/* Work out slot s for this event. Out of line: slot_value, inlined into
 * every comparison, is then a generation test and a return. */
static __attribute__((noinline)) void slot_fill(struct evctx *c, struct slot *s)
{
	if (s->margs) {
		xcall_fill(c, s);
	} else if (s->xform != XF_NONE) {
		const struct fval *p = slot_value(c, s->parent);

		if (!p->present)
			s->v = (struct fval){ .type = s->type };
		else if (c->e->slots[s->parent].list) /* len() of a list: its count */
			s->v = (struct fval){ .present = 1, .type = T_NUM, .n = p->n };
		else
			xform_apply(s->xform, p, &s->v, s->buf, s->cap);
	} else if (s->open_flags && c->ev->hdr->type == AS_EV_OPEN) {
		uint64_t fl = c->ev->u.open->flags;

		if (!s->memo_ok || s->memo_flags != fl) {
			fields_extract(c, s->field, s->idx, s->arg, &s->v, s->buf, s->cap);
			s->memo_flags = fl;
			s->memo_ok = 1;
		}
	} else {
		fields_extract(c, s->field, s->any ? -1 : s->idx, s->arg, &s->v, s->buf, s->cap);
		s->memo_ok = 0;
	}
	s->gen = c->gen;
}

static inline const struct fval *slot_value(struct evctx *c, int i)
{
	struct slot *s = &c->e->slots[i];

	if (s->gen != c->gen)
		slot_fill(c, s);
	return &s->v;
}

const struct fval *eval_slot(struct evctx *c, int i)
{
	return slot_value(c, i);
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

static __attribute__((noinline)) int in_search(const struct cmp *c, const char *s, size_t len)
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

/* The quick filter inline; the search, for the few values that pass, not */
static int in_sorted(const struct cmp *c, const char *s, size_t len)
{
	unsigned char b = len ? (unsigned char)s[0] : 0;

	if (!((c->setlens >> (len < SET_LEN_BITS ? len : SET_LEN_BITS - 1)) & 1))
		return 0;
	if (len && !((c->setfirst[b >> 6] >> (b & 63)) & 1))
		return 0;
	return in_search(c, s, len);
}

/* A wildcard prefix (compile.c marks them in setwild): the path's first
 * components, as many as the pattern has, match it component by component
 * (fnmatch with FNM_PATHNAME: '*' stays within one), as libsinsp's
 * path_prefix_search does. */
static int pmatch_wild(const char *pat, size_t ncomp, const char *s, size_t len, char *tmp,
		       size_t cap)
{
	size_t n = 0, k = 0;

	while (n < len && k < ncomp) {
		if (s[n] == '/' && n > 0)
			k++;
		if (k < ncomp)
			n++;
	}
	if (k + 1 < ncomp || n >= cap)
		return 0;
	memcpy(tmp, s, n);
	tmp[n] = 0;
	return fnmatch(pat, tmp, FNM_PATHNAME | FNM_NOESCAPE) == 0;
}

/* Falco's pmatch: a prefix matches itself and what is below it. */
static int pmatch(const struct cmp *c, const char *s, size_t len, char *tmp, size_t cap)
{
	for (size_t i = 0; i < c->nsetv; i++) {
		size_t pl = c->setlen[i];

		if (c->setwild && c->setwild[i]) {
			if (pmatch_wild(c->set[i], c->setwild[i], s, len, tmp, cap))
				return 1;
			continue;
		}
		if (pl > len || memcmp(s, c->set[i], pl) != 0)
			continue;
		if (pl == len || s[pl] == '/' || (pl && c->set[i][pl - 1] == '/'))
			return 1;
	}
	return 0;
}

/* contains with the comparison's Horspool table (compile.c): the last byte of
 * the window says how far the needle can move. */
static __attribute__((noinline)) int contains_skip(const uint8_t *skip, const char *h, size_t hl,
						   const char *n, size_t nl)
{
	unsigned char last = (unsigned char)n[nl - 1];

	for (size_t i = 0; i + nl <= hl; i += skip[(unsigned char)h[i + nl - 1]]) {
		size_t j = nl - 1;

		if ((unsigned char)h[i + j] != last)
			continue;
		while (j && h[i + j - 1] == n[j - 1])
			j--;
		if (j == 0)
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

/* The operators that need a NUL-terminated copy or a byte loop. Out of
 * line: their buffer would make every call of cmp_str set up a large frame. */
static __attribute__((noinline)) int cmp_str_slow(const struct cmp *c, const struct fval *v,
						  const char *k, size_t kl)
{
	char tmp[FIELDS_BUF_MAX], pat[FIELDS_BUF_MAX];
	int r;

	if (k != c->s && (c->op == OP_GLOB || c->op == OP_IGLOB)) {
		/* a pattern from a field on the right (libsinsp's flt_compare_string
		 * globs against it): NUL-terminated for fnmatch */
		struct fval kv = { .s = k, .len = kl };

		k = cstr(&kv, pat, sizeof(pat));
	}
	switch (c->op) {
	case OP_LT:
	case OP_LE:
	case OP_GT:
	case OP_GE:
		r = strcmp_n(v->s, v->len, k, kl);
		return c->op == OP_LT ? r < 0 : c->op == OP_LE ? r <= 0 : c->op == OP_GT ? r > 0 : r >= 0;
	case OP_ICONTAINS:
		return icontains(v->s, v->len, k, kl);
	case OP_GLOB:
		return fnmatch(k, cstr(v, tmp, sizeof(tmp)), FNM_NOESCAPE) == 0;
	case OP_IGLOB:
		return fnmatch(k, cstr(v, tmp, sizeof(tmp)), FNM_NOESCAPE | FNM_CASEFOLD) == 0;
	case OP_REGEX:
		return regexec(c->re, cstr(v, tmp, sizeof(tmp)), 0, NULL, 0) == 0;
	case OP_PMATCH:
		return pmatch(c, v->s, v->len, tmp, sizeof(tmp));
	default:
		return 0;
	}
}

static int cmp_str(const struct cmp *c, const struct fval *v, const char *k, size_t kl)
{
	switch (c->op) {
	case OP_EQ:
	case OP_EQ2:
		return v->len == kl && memcmp(v->s, k, kl) == 0;
	case OP_NE:
		return !(v->len == kl && memcmp(v->s, k, kl) == 0);
	case OP_CONTAINS:
	case OP_BCONTAINS:
		if (c->skip && k == c->s)
			return contains_skip(c->skip, v->s, v->len, k, kl);
		return kl == 0 || memmem(v->s, v->len, k, kl) != NULL;
	case OP_STARTSWITH:
	case OP_BSTARTSWITH:
		return v->len >= kl && memcmp(v->s, k, kl) == 0;
	case OP_ENDSWITH:
		return v->len >= kl && memcmp(v->s + v->len - kl, k, kl) == 0;
	case OP_IN:
	case OP_INTERSECTS:
		return in_sorted(c, v->s, v->len);
	default:
		return cmp_str_slow(c, v, k, kl);
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

/* An FF_NET field's address against its networks: =, in, intersects hold
 * when it is inside one, != when it is inside none. */
static int cmp_net(const struct cmp *c, const struct fval *v)
{
	char a[INET6_ADDRSTRLEN];
	unsigned char b[16];
	int fam, in = 0;

	if (v->type != T_STR || !v->s || v->len >= sizeof(a))
		return 0;
	fam = memchr(v->s, ':', v->len) ? AF_INET6 : AF_INET;
	memcpy(a, v->s, v->len);
	a[v->len] = 0;
	if (inet_pton(fam, a, b) != 1)
		return 0;
	for (size_t i = 0; i < c->nnets && !in; i++) {
		const struct ipnet *n = &c->nets[i];
		unsigned full = n->bits / 8, rest = n->bits % 8;

		in = n->family == fam && memcmp(b, n->addr, full) == 0 &&
		     (!rest || ((b[full] ^ n->addr[full]) & (0xff00u >> rest) & 0xff) == 0);
	}
	return c->op == OP_NE ? !in : in;
}

/* in, intersects, pmatch against the one value of a field on the right */
static int rhs_in(const struct cmp *c, const struct fval *v, const struct fval *r)
{
	if (v->type != T_STR)
		return v->n == r->n;
	if (c->op == OP_PMATCH)
		return r->len <= v->len && memcmp(v->s, r->s, r->len) == 0 &&
		       (r->len == v->len || v->s[r->len] == '/' ||
			(r->len && r->s[r->len - 1] == '/'));
	return v->len == r->len && memcmp(v->s, r->s, r->len) == 0;
}

/* One value against the comparison; missing values never match. */
static int cmp_value(struct evctx *ctx, const struct cmp *c, const struct fval *v)
{
	if (c->op == OP_EXISTS)
		return v->present;
	if (!v->present)
		return 0;
	if (c->rslot >= 0) {
		const struct fval *r = slot_value(ctx, c->rslot);

		if (!r->present)
			return 0;
		if (ops_table[c->op].kind == OK_LIST) /* a one-value set */
			return rhs_in(c, v, r);
		if (v->type == T_STR)
			return cmp_str(c, v, r->s, r->len);
		return cmp_num(c, v->n, r->n);
	}
	if (c->nets)
		return cmp_net(c, v);
	if (v->type == T_STR)
		return cmp_str(c, v, c->s, c->len);
	return cmp_num(c, v->n, c->n);
}

int eval_cmp_const(const struct cmp *c, const struct fval *v)
{
	return c->rslot < 0 && cmp_value(NULL, c, v);
}

/* what one value of an "any" field is built in: fd.net's address text
 * (INET6_ADDRSTRLEN is 46); the others need none */
#define EVAL_ANY_BUF 64

/* A field with no index that means any: proc.aname / proc.apid any ancestor
 * from the parent up, proc.lineage.* any entry (fields_any_range), fd.net
 * and fd.port either end (FA_BOTH: present only when that end is known) */
static int eval_any(struct evctx *ctx, const struct cmp *c, const struct slot *s)
{
	int first, n = fields_any_range(ctx, s->field, &first);
	char buf[EVAL_ANY_BUF];
	struct fval v;

	if (c->op == OP_EXISTS && !(fields_table[s->field].flags & FA_BOTH))
		return n >= first;
	if (c->op == OP_NE && (fields_table[s->field].flags & FA_BOTH)) {
		/* either end is not it: neither end is (compare_ip, compare_port) */
		int seen = 0;

		for (int i = first; i <= n; i++) {
			fields_extract(ctx, s->field, i, NULL, &v, buf, sizeof(buf));
			if (!v.present)
				continue;
			if (!cmp_value(ctx, c, &v))
				return 0;
			seen = 1;
		}
		return seen;
	}
	for (int i = first; i <= n; i++) {
		fields_extract(ctx, s->field, i, NULL, &v, buf, sizeof(buf));
		if (cmp_value(ctx, c, &v))
			return 1;
	}
	return 0;
}

/* cmp_value of a comparison with a constant */
static int cmp_const(const struct cmp *c, const struct fval *v)
{
	if (!v->present)
		return 0;
	if (c->op == OP_EXISTS)
		return 1;
	if (c->nets)
		return cmp_net(c, v);
	if (v->type == T_STR)
		return cmp_str(c, v, c->s, c->len);
	return cmp_num(c, v->n, c->n);
}

/* A list value (getopt's): in, every element is in the set; intersects,
 * some element is (libsinsp's list semantics); exists, it has a value. */
static __attribute__((noinline)) int eval_list(const struct cmp *c, const struct fval *v)
{
	const char *p = v->s;

	if (!v->present)
		return 0;
	if (c->op == OP_EXISTS)
		return 1;
	for (int64_t i = 0; i < v->n; i++) {
		size_t n = strlen(p);
		int in = in_sorted(c, p, n);

		if (c->op == OP_INTERSECTS && in)
			return 1;
		if (c->op == OP_IN && !in)
			return 0;
		p += n + 1;
	}
	return c->op == OP_IN;
}

static int eval_cmp_uncached(struct evctx *ctx, const struct cmp *c)
{
	const struct slot *s;
	struct fval v;

	/* a field read in place costs less than filling its slot */
	if (c->dfield >= 0 && fields_direct(ctx->ev, c->dfield, c->didx, &v))
		return cmp_const(c, &v);
	s = &ctx->e->slots[c->slot];
	if (s->any)
		return eval_any(ctx, c, s);
	if (s->list)
		return eval_list(c, slot_value(ctx, c->slot));
	return cmp_value(ctx, c, slot_value(ctx, c->slot));
}

/* Ancestor idx's comm (0: the process itself), or NULL when the event does
 * not reach that far; as fields.c ancestor() */
static inline const char *anc_comm(const struct as_hdr *h, int32_t idx)
{
	if (idx == 0)
		return h->comm;
	if (idx - 1 >= h->n_anc || idx - 1 >= AS_MAX_ANCESTORS)
		return NULL;
	return h->anc[idx - 1].comm;
}

/* CK_COMM: the comm's image (struct comm_key) against the constants' */
static inline int eval_comm_of(const struct cmp *c, const char *comm)
{
	struct comm_key k;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	{
		const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
		uint64_t z;

		memcpy(&k, comm, sizeof(k));
		/* the lowest set bit of z marks the first NUL exactly (as comm_len
		 * in fields.c); the bytes from it on are cleared */
		z = (k.w[0] - ones) & ~k.w[0] & highs;
		if (z) {
			k.w[0] &= ((z & -z) >> 7) - 1;
			k.w[1] = 0;
		} else {
			z = (k.w[1] - ones) & ~k.w[1] & highs;
			if (z)
				k.w[1] &= ((z & -z) >> 7) - 1;
		}
	}
#else
	{
		char img[AS_COMM_LEN] = { 0 };

		memcpy(img, comm, strnlen(comm, AS_COMM_LEN));
		memcpy(&k, img, sizeof(k));
	}
#endif
	if (!((c->as.comm.hash >> comm_key_hash(&k)) & 1))
		return c->as.comm.neg;
	for (size_t i = 0; i < c->as.comm.nkeys; i++)
		if (c->as.comm.keys[i].w[0] == k.w[0] && c->as.comm.keys[i].w[1] == k.w[1])
			return !c->as.comm.neg;
	return c->as.comm.neg;
}

static int eval_comm(const struct evctx *ctx, const struct cmp *c)
{
	const char *comm = anc_comm(ctx->ev->hdr, c->as.comm.idx);

	return comm ? eval_comm_of(c, comm) : 0;
}

/* CK_COMM_ANY: some ancestor from the parent up, as eval_any over
 * fields_any_range's range (an event with none has no value); the same
 * ancestors as last time (byte for byte) have the same answer */
static __attribute__((noinline)) int eval_comm_any(const struct evctx *ctx, struct cmp *c)
{
	const struct as_hdr *h = ctx->ev->hdr;
	int n = h->n_anc < AS_MAX_ANCESTORS ? h->n_anc : AS_MAX_ANCESTORS, i, res = 0;
	struct comm_key *memo = c->as.comm.memo;
	struct comm_key k;

	if (c->as.comm.memo_n == n) {
		for (i = 0; i < n; i++) {
			memcpy(&k, h->anc[i].comm, sizeof(k));
			if (k.w[0] != memo[i].w[0] || k.w[1] != memo[i].w[1])
				break;
		}
		if (i == n)
			return c->as.comm.memo_res;
	}
	for (i = 0; i < n && !res; i++)
		res = eval_comm_of(c, h->anc[i].comm);
	for (i = 0; i < n; i++)
		memcpy(&memo[i], h->anc[i].comm, sizeof(memo[i]));
	c->as.comm.memo_n = n;
	c->as.comm.memo_res = res;
	return res;
}

/* CK_FD_PREFIX on an open: the path starts with the constant */
static int eval_fd_prefix(const struct cmp *c, const struct event_path *p)
{
	uint64_t w;

	if (p->len < c->len)
		return 0;
	if (p->len < sizeof(w))
		return memcmp(p->s, c->s, c->len) == 0;
	/* most paths differ from the prefix in its first bytes */
	memcpy(&w, p->s, sizeof(w));
	if ((w & c->as.prefix.mask) != c->as.prefix.word)
		return 0;
	return c->len <= sizeof(w) ||
	       memcmp(p->s + sizeof(w), c->s + sizeof(w), c->len - sizeof(w)) == 0;
}

/* One comparison for this event (those folded at load for its syscall are
 * not in its graph): answered inline (enum cmp_kind), or worked out once per
 * event whichever rules ask. */
static int eval_cmp(struct evctx *ctx, struct cmp *c)
{
	switch (c->kind) {
	case CK_OPEN_CLASS:
		return (ctx->ocls & c->as.open.mask) == c->as.open.want;
	case CK_COMM:
		return eval_comm(ctx, c);
	case CK_FD_NUM:
		if (ctx->ocls) {
			int64_t fd = ctx->ev->res < 0 ? -1 : ctx->ev->res;

			/* fd.num >= 0 is in most open rules: no call for it */
			if (c->op == OP_GE)
				return fd >= c->n;
			return cmp_num(c, fd, c->n);
		}
		break;
	case CK_FD_PREFIX:
		if (ctx->ocls)
			return eval_fd_prefix(c, &ctx->ev->path);
		break;
	default:
		break;
	}
	if (c->gen != ctx->gen) {
		c->gen = ctx->gen;
		c->res = c->kind == CK_COMM_ANY ? eval_comm_any(ctx, c) : eval_cmp_uncached(ctx, c);
	}
	return c->res;
}

int eval_rule(struct evctx *c, const struct rule *r)
{
	struct cmp *cmps = c->e->cmps;
	const struct bnode *g = r->graph_sc[c->sc]; /* the folded comparisons bypassed */
	int32_t pc = r->entry_sc[c->sc];

	while (pc >= 0) {
		const struct bnode *b = &g[pc];

		pc = eval_cmp(c, &cmps[b->cmp]) ? b->t : b->f;
	}
	return pc == BN_TRUE;
}
