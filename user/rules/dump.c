// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The disassembler: what the compiler made of each rule (--dump, tests). */
#include <string.h>
#include "rules.h"

static void dump_cmp(const struct engine *e, const struct cmp *c, FILE *out)
{
	const struct slot *s = &e->slots[c->slot];

	fprintf(out, "%s%s %s", s->text, s->any ? "[any]" : "", ops_table[c->op].text);
	if (c->rslot >= 0) {
		const struct slot *r = &e->slots[c->rslot];

		/* val() holds a plain field; a transformer stands alone */
		fprintf(out, r->xform == XF_NONE ? " val(%s)" : " %s", r->text);
		return;
	}
	switch (ops_table[c->op].kind) {
	case OK_UNARY:
		return;
	case OK_LIST:
		fputs(" (", out);
		for (size_t i = 0; i < c->nsetv; i++) {
			if (s->type == T_STR)
				fprintf(out, "%s\"%s\"", i ? ", " : "", c->set[i]);
			else
				fprintf(out, "%s%lld", i ? ", " : "", (long long)c->nset[i]);
		}
		fputs(")", out);
		return;
	default:
		break;
	}
	if (s->type != T_STR)
		fprintf(out, " %lld", (long long)c->n);
	else if (c->op == OP_BCONTAINS || c->op == OP_BSTARTSWITH)
		for (size_t i = 0; i < c->len; i++)
			fprintf(out, "%s%02x", i ? "" : " ", (unsigned char)c->s[i]);
	else
		fprintf(out, " \"%s\"", c->s);
}

void dump_rule(const struct engine *e, const struct rule *r, FILE *out)
{
	fprintf(out, "rule \"%s\" %s mask=0x", r->name, engine_priority_name(r->prio));
	/* the words from the highest one in use, the lowest at least five digits */
	{
		int top = SCSET_WORDS - 1;

		while (top > 0 && !r->evmask.w[top])
			top--;
		for (int i = top; i >= 0; i--)
			fprintf(out, i == top ? (i ? "%llx" : "%05llx") : "%016llx",
				(unsigned long long)r->evmask.w[i]);
	}
	fprintf(out, "%s\n", r->enabled ? "" : " disabled");
	for (size_t pc = 0; pc < r->ncode; pc++) {
		const struct insn *in = &r->code[pc];

		fprintf(out, "  %3zu ", pc);
		switch (in->op) {
		case I_CMP:
			fputs("cmp  ", out);
			dump_cmp(e, &e->cmps[in->arg], out);
			break;
		case I_JF:
			fprintf(out, "jf   %u", in->arg);
			break;
		case I_JT:
			fprintf(out, "jt   %u", in->arg);
			break;
		case I_NOT:
			fputs("not", out);
			break;
		case I_TRUE:
			fputs("true", out);
			break;
		default:
			fputs("false", out);
			break;
		}
		fputc('\n', out);
	}
}

int engine_dump(const struct engine *e, FILE *out)
{
	for (size_t i = 0; i < e->nrules; i++)
		dump_rule(e, &e->rules[i], out);
	return 0;
}
