// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Slots: a field instance (field, [argument], transformers around it) that
 * evaluation extracts at most once per event; conditions and outputs share
 * them. Also the type an operator is checked against, and IP constants.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rules.h"

static void serr(struct cond_err *err, int unsupported, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void serr(struct cond_err *err, int unsupported, const char *fmt, ...)
{
	va_list ap;

	err->at = NULL;
	err->unsupported = unsupported;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

/* The type an operator is checked against (ops.h OT_*): the slot's, but an
 * IP address field apart from other strings, as libsinsp has it. */
int slot_check_type(const struct slot *sl)
{
	if (sl->type == T_STR && sl->xform == XF_NONE && (fields_table[sl->field].flags & FF_IP))
		return CHECK_T_IP;
	if (sl->type == T_STR && sl->xform == XF_NONE && (fields_table[sl->field].flags & FF_NET))
		return CHECK_T_NET;
	return sl->type;
}

const char *slot_check_type_name(int t)
{
	return t == CHECK_T_IP ? "IP address" : t == CHECK_T_NET ? "IP network" : fields_type_name(t);
}

/* An IP address constant in the text the field prints (inet_ntop's), so
 * that equal addresses compare equal however they are written; NULL when
 * v is not an address. */
char *slot_ip_canonical(const char *v)
{
	unsigned char a[sizeof(struct in6_addr)];
	char out[INET6_ADDRSTRLEN];
	int fam = strchr(v, ':') ? AF_INET6 : AF_INET;

	if (inet_pton(fam, v, a) != 1 || !inet_ntop(fam, a, out, sizeof(out)))
		return NULL;
	return strdup(out);
}

int slot_ip_net(const char *v, struct ipnet *n)
{
	char a[INET6_ADDRSTRLEN + 8], *slash, *end;
	unsigned long bits;

	if (strlen(v) >= sizeof(a))
		return -EINVAL;
	strcpy(a, v);
	slash = strchr(a, '/');
	if (slash)
		*slash = 0;
	n->family = strchr(a, ':') ? AF_INET6 : AF_INET;
	memset(n->addr, 0, sizeof(n->addr));
	if (inet_pton(n->family, a, n->addr) != 1)
		return -EINVAL;
	n->bits = n->family == AF_INET ? 32 : 128;
	if (slash) {
		bits = strtoul(slash + 1, &end, 10);
		if (!slash[1] || *end || bits > n->bits)
			return -EINVAL;
		n->bits = (unsigned)bits;
	}
	return 0;
}

void slot_free(struct slot *s)
{
	free(s->arg);
	free(s->text);
	free(s->buf);
	for (size_t i = 0; i < s->nmargs; i++)
		free(s->margs[i].s);
	free(s->margs);
}

/* a call's slot (margs) is equal to another by its text, which spells every
 * argument out */
int slot_add(struct engine *e, const struct slot *k)
{
	struct slot *s;

	for (size_t i = 0; i < e->nslots; i++) {
		s = &e->slots[i];
		if (s->field == k->field && s->idx == k->idx && s->xform == k->xform &&
		    s->parent == k->parent &&
		    ((!s->arg && !k->arg) || (s->arg && k->arg && !strcmp(s->arg, k->arg))) &&
		    (!k->margs || !strcmp(s->text, k->text)))
			return (int)i;
	}
	if (e->nslots == e->capslots) {
		size_t cap = e->capslots ? 2 * e->capslots : 32;
		struct slot *n = realloc(e->slots, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		e->slots = n;
		e->capslots = cap;
	}
	s = &e->slots[e->nslots];
	*s = *k;
	s->direct = k->xform == XF_NONE && !k->any && !k->arg && !k->margs &&
		    fields_direct_ok(k->field);
	s->open_flags = k->field == F_EVT_ARG && k->xform == XF_NONE && !k->any && !k->margs &&
			k->arg && !strcmp(k->arg, "flags");
	s->memo_ok = 0;
	s->arg = k->arg ? strdup(k->arg) : NULL;
	s->text = strdup(k->text);
	s->cap = FIELDS_BUF_MAX;
	s->buf = malloc(s->cap);
	s->gen = 0;
	if (!s->text || !s->buf || (k->arg && !s->arg)) {
		free(s->arg);
		free(s->text);
		free(s->buf);
		s->margs = NULL; /* still the caller's */
		return -ENOMEM;
	}
	return (int)e->nslots++;
}

int slot_find(struct engine *e, const struct fref *f, struct cond_err *err)
{
	struct slot k = { .idx = -1, .xform = XF_NONE, .parent = -1 };
	char text[512];
	int id = fields_lookup(f->name), s;
	const char *arg = f->has_arg ? f->arg : NULL;

	if (f->mx) {
		s = xcall_slot(e, f->mx, err);
		if (s < 0)
			return s;
		id = 0;
		goto xforms;
	}
	if (id < 0 && !f->has_arg)
		id = fields_lookup_dotted(f->name, &arg); /* evt.arg.NAME, container.label.KEY */
	if (id < 0) {
		char full[300];

		snprintf(full, sizeof(full), "%s", f->name);
		if (fields_falco_known(f->name)) {
			serr(err, 1, "field '%s' is not supported by agent-sentinel", f->name);
			return -ENOTSUP;
		}
		serr(err, 0, "unknown field '%s'", full);
		return -EINVAL;
	}
	k.field = id;
	k.type = fields_table[id].type;
	if (fields_table[id].flags & FA_IDX) {
		if (arg) {
			char *end;
			long v = strtol(arg, &end, 10);

			if (!arg[0] || *end || v < 0 || v > 1000) {
				serr(err, 0, "field '%s' needs a number in [], not '%s'",
				     f->name, arg);
				return -EINVAL;
			}
			k.idx = (int32_t)v;
			snprintf(text, sizeof(text), "%s[%ld]", f->name, v);
		} else {
			k.any = 1;
			snprintf(text, sizeof(text), "%s", f->name);
		}
	} else if (fields_table[id].flags & FA_ARG) {
		if (!arg || !arg[0]) {
			serr(err, 0, "field '%s' needs an argument", f->name);
			return -EINVAL;
		}
		if (id == F_EVT_ARG && !fields_arg_known(arg)) {
			serr(err, 1, "field 'evt.arg.%s' is not supported by agent-sentinel",
			     arg);
			return -ENOTSUP;
		}
		k.arg = (char *)arg;
		if (id == F_EVT_ARG)
			/* evt.arg[N] keeps Falco's spelling (output_fields key) */
			snprintf(text, sizeof(text),
				 arg[0] >= '0' && arg[0] <= '9' ? "evt.arg[%s]" : "evt.arg.%s", arg);
		else
			snprintf(text, sizeof(text), "%s[%s]", fields_table[id].name, arg);
	} else {
		if (arg) {
			serr(err, 0, "field '%s' does not take an argument", f->name);
			return -EINVAL;
		}
		k.any = !!(fields_table[id].flags & FA_BOTH); /* either end's value */
		snprintf(text, sizeof(text), "%s", f->name);
	}
	k.text = text;
	s = slot_add(e, &k);
	if (s < 0)
		goto nomem;
xforms:
	for (int i = f->nxf; i-- > 0;) {
		struct slot x = { .field = id, .idx = e->slots[s].idx, .xform = f->xf[i],
				  .parent = s, .any = 0 };
		char t2[600];

		if (e->slots[s].list && f->xf[i] != XF_LEN) {
			serr(err, 0, "transformer %s() of the list '%s' is not supported by agent-sentinel (len() is)",
			     xforms_table[f->xf[i]].name, e->slots[s].text);
			return -EINVAL;
		}
		if (slot_check_type(&e->slots[s]) != T_STR) {
			serr(err, 0, "transformer %s() needs a string, '%s' is a%s %s",
			     xforms_table[f->xf[i]].name, e->slots[s].text,
			     slot_check_type(&e->slots[s]) == CHECK_T_IP ? "n" : "",
			     slot_check_type_name(slot_check_type(&e->slots[s])));
			return -EINVAL;
		}
		if (e->slots[s].any) {
			serr(err, 0, "transformer %s() needs one value: give '%s' an index",
			     xforms_table[f->xf[i]].name, e->slots[s].text);
			return -EINVAL;
		}
		x.type = xforms_table[f->xf[i]].result;
		snprintf(t2, sizeof(t2), "%s(%.580s)", xforms_table[f->xf[i]].name, e->slots[s].text);
		x.text = t2;
		s = slot_add(e, &x);
		if (s < 0)
			goto nomem;
	}
	return s;
nomem:
	serr(err, 0, "out of memory");
	return -ENOMEM;
}
