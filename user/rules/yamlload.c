// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * YAML to items: every document of a rules file must be a sequence of
 * mappings. Values keep their file position (and their raw bytes, so an
 * offset inside a condition maps back to a line and column).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>
#include "rules.h"
#include "yamlutil.h"
#include "vec.h"

#define YAMLLOAD_MAX_DEPTH 16 /* item > exceptions > exception > values > value > scalar is 6 */
#define YAMLLOAD_MAX_NODES 1000000 /* values converted per file: stops alias bombs */

struct yctx {
	struct yfile *f;
	struct diag *d;
	size_t *line_start; /* byte offset of each line */
	size_t nlines;
	size_t budget;
};

static size_t byte_of(const struct yctx *c, yaml_mark_t m)
{
	size_t b;

	if (m.line >= c->nlines)
		return c->f->len;
	b = c->line_start[m.line];
	/* columns count characters: step over UTF-8 continuation bytes */
	for (size_t col = 0; col < m.column && b < c->f->len; col++) {
		b++;
		while (b < c->f->len && ((unsigned char)c->f->raw[b] & 0xc0) == 0x80)
			b++;
	}
	return b;
}

static void pos_of(const struct yctx *c, yaml_node_t *n, struct srcpos *p)
{
	p->file = c->f->name;
	p->line = (uint32_t)n->start_mark.line + 1;
	p->col = (uint32_t)n->start_mark.column + 1;
	p->raw = NULL;
	if (n->type != YAML_SCALAR_NODE)
		return;
	p->raw = c->f->raw;
	p->raw_start = byte_of(c, n->start_mark);
	p->raw_end = byte_of(c, n->end_mark);
	switch (n->data.scalar.style) {
	case YAML_LITERAL_SCALAR_STYLE:
	case YAML_FOLDED_SCALAR_STYLE:
		p->block = 1;
		break;
	case YAML_SINGLE_QUOTED_SCALAR_STYLE:
	case YAML_DOUBLE_QUOTED_SCALAR_STYLE:
		p->block = 2;
		break;
	default:
		p->block = 0;
		break;
	}
}

static void yval_free(struct yval *v)
{
	free(v->s);
	for (size_t i = 0; i < v->n; i++) {
		if (v->items)
			yval_free(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->keypos);
	memset(v, 0, sizeof(*v));
}

static int convert(struct yctx *c, yaml_document_t *doc, yaml_node_t *n, struct yval *v, int depth)
{
	memset(v, 0, sizeof(*v));
	pos_of(c, n, &v->pos);
	if (depth > YAMLLOAD_MAX_DEPTH) {
		engine_diag(c->d, &v->pos, 1, NULL, NULL, "YAML nested deeper than %d levels",
			    YAMLLOAD_MAX_DEPTH);
		return -EINVAL;
	}
	if (c->budget-- == 0) {
		engine_diag(c->d, &v->pos, 1, NULL, NULL, "more than %d YAML values in one file",
			    YAMLLOAD_MAX_NODES);
		return -EINVAL;
	}
	switch (n->type) {
	case YAML_SCALAR_NODE:
		v->kind = YV_SCALAR;
		v->s = strndup((const char *)n->data.scalar.value, n->data.scalar.length);
		v->quoted = n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
		return v->s ? 0 : -ENOMEM;
	case YAML_SEQUENCE_NODE: {
		size_t cnt = yamlutil_len(n);

		v->kind = YV_SEQ;
		v->items = calloc(cnt ? cnt : 1, sizeof(*v->items));
		if (!v->items)
			return -ENOMEM;
		for (size_t i = 0; i < cnt; i++) {
			yaml_node_t *in = yamlutil_item(doc, n, i);
			int rc;

			v->n = i + 1;
			if (!in)
				return -EINVAL;
			rc = convert(c, doc, in, &v->items[i], depth + 1);
			if (rc)
				return rc;
		}
		v->n = cnt;
		return 0;
	}
	case YAML_MAPPING_NODE: {
		size_t cnt = yamlutil_len(n);

		v->kind = YV_MAP;
		v->items = calloc(cnt ? cnt : 1, sizeof(*v->items));
		v->keys = calloc(cnt ? cnt : 1, sizeof(*v->keys));
		v->keypos = calloc(cnt ? cnt : 1, sizeof(*v->keypos));
		if (!v->items || !v->keys || !v->keypos)
			return -ENOMEM;
		for (size_t i = 0; i < cnt; i++) {
			yaml_node_t *k, *val;
			int rc;

			v->n = i + 1;
			if (!yamlutil_pair(doc, n, i, &k, &val))
				return -EINVAL;
			pos_of(c, k, &v->keypos[i]);
			if (k->type != YAML_SCALAR_NODE) {
				engine_diag(c->d, &v->keypos[i], 1, NULL, NULL,
					    "mapping key is not a scalar");
				return -EINVAL;
			}
			v->keys[i] = strndup((const char *)k->data.scalar.value,
					     k->data.scalar.length);
			if (!v->keys[i])
				return -ENOMEM;
			rc = convert(c, doc, val, &v->items[i], depth + 1);
			if (rc)
				return rc;
		}
		v->n = cnt;
		return 0;
	}
	default:
		v->kind = YV_NONE;
		return 0;
	}
}

static int add_item(struct yfile *f, struct yval *map)
{
	if (vec_room(&f->items, f->nitems, sizeof(*f->items)))
		return -ENOMEM;
	f->items[f->nitems++].map = *map;
	return 0;
}

static int load_doc(struct yctx *c, yaml_document_t *doc, yaml_node_t *root)
{
	struct srcpos p;

	pos_of(c, root, &p);
	if (root->type == YAML_SCALAR_NODE && root->data.scalar.length == 0)
		return 0; /* an empty document */
	if (root->type != YAML_SEQUENCE_NODE) {
		engine_diag(c->d, &p, 1, NULL, NULL, "rules file content is not a sequence of items");
		return -EINVAL;
	}
	for (size_t i = 0; i < yamlutil_len(root); i++) {
		yaml_node_t *n = yamlutil_item(doc, root, i);
		struct yval v;
		int rc;

		if (!n)
			return -EINVAL;
		if (n->type != YAML_MAPPING_NODE) {
			pos_of(c, n, &p);
			engine_diag(c->d, &p, 1, NULL, NULL, "item is not a mapping");
			rc = -EINVAL;
			continue;
		}
		rc = convert(c, doc, n, &v, 1);
		if (rc) {
			yval_free(&v);
			return rc;
		}
		rc = add_item(c->f, &v);
		if (rc) {
			yval_free(&v);
			return rc;
		}
	}
	return 0;
}

int yamlload_parse(struct yfile *f, struct diag *d)
{
	struct yctx c = { .f = f, .d = d, .budget = YAMLLOAD_MAX_NODES };
	yaml_parser_t p;
	int rc = 0;
	size_t cap = 64;

	c.line_start = malloc(cap * sizeof(*c.line_start));
	if (!c.line_start)
		return -ENOMEM;
	c.line_start[c.nlines++] = 0;
	for (size_t i = 0; i < f->len; i++) {
		if (f->raw[i] != '\n')
			continue;
		if (c.nlines == cap) {
			size_t *n = realloc(c.line_start, 2 * cap * sizeof(*n));

			if (!n) {
				free(c.line_start);
				return -ENOMEM;
			}
			c.line_start = n;
			cap *= 2;
		}
		c.line_start[c.nlines++] = i + 1;
	}
	if (!yaml_parser_initialize(&p)) {
		free(c.line_start);
		return -ENOMEM;
	}
	yaml_parser_set_input_string(&p, (const unsigned char *)f->raw, f->len);
	for (;;) {
		yaml_document_t doc;
		yaml_node_t *root;

		if (!yaml_parser_load(&p, &doc)) {
			char msg[ENGINE_MSG_MAX];
			size_t line, col;
			struct srcpos pos = { .file = f->name };

			yamlutil_parse_error(&p, msg, sizeof(msg), &line, &col);
			pos.line = (uint32_t)line;
			pos.col = (uint32_t)col;
			engine_diag(d, &pos, 1, NULL, NULL, "%s", msg);
			rc = -EINVAL;
			break;
		}
		root = yaml_document_get_root_node(&doc);
		if (!root) {
			yaml_document_delete(&doc);
			break;
		}
		rc = load_doc(&c, &doc, root);
		yaml_document_delete(&doc);
		if (rc)
			break;
	}
	yaml_parser_delete(&p);
	free(c.line_start);
	return rc;
}

void yamlload_free(struct yfile *f)
{
	for (size_t i = 0; i < f->nitems; i++)
		yval_free(&f->items[i].map);
	free(f->items);
	free(f->raw);
	free(f->name);
	memset(f, 0, sizeof(*f));
}

const struct yval *yamlload_get(const struct yval *map, const char *key, size_t *idx)
{
	if (map->kind != YV_MAP)
		return NULL;
	for (size_t i = 0; i < map->n; i++) {
		if (strcmp(map->keys[i], key) == 0) {
			if (idx)
				*idx = i;
			return &map->items[i];
		}
	}
	return NULL;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

void yamlload_map(const struct text *t, size_t off, struct srcpos *out)
{
	const struct textseg *seg = NULL;
	size_t k = 0, b, end;

	for (size_t i = 0; i < t->nsegs; i++)
		if (t->segs[i].off <= off)
			seg = &t->segs[i];
	if (!seg) {
		*out = (struct srcpos){ 0 };
		return;
	}
	*out = seg->pos;
	if (!seg->pos.raw || off > t->len)
		return;
	/* the n-th non-blank character of the value is the n-th of its source */
	for (size_t i = seg->off; i < off; i++)
		if (!is_space(t->s[i]))
			k++;
	b = seg->pos.raw_start;
	end = seg->pos.raw_end;
	if (seg->pos.block == 1) { /* skip the "|" / ">" header line */
		while (b < end && seg->pos.raw[b] != '\n')
			b++;
	} else if (seg->pos.block == 2) {
		b++; /* opening quote */
	}
	for (;;) {
		while (b < end && is_space(seg->pos.raw[b]))
			b++;
		if (k == 0 || b >= end)
			break;
		b++;
		k--;
	}
	if (b >= end)
		return;
	out->line = 1;
	out->col = 1;
	for (size_t i = 0; i < b; i++) {
		if (seg->pos.raw[i] == '\n') {
			out->line++;
			out->col = 1;
		} else if (((unsigned char)seg->pos.raw[i] & 0xc0) != 0x80) {
			out->col++;
		}
	}
}
