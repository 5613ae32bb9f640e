// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The kernel's BTF, trimmed for libbpf's CO-RE relocation.
 *
 * To relocate a field access libbpf looks for the kernel types that share
 * the access's root type name (task_struct, file, ...): one pass over every
 * type of the kernel's BTF per root, 126k types here, about 55 ms of
 * agent-sentinel's start-up for its roots. bpftool's "gen min_core_btf"
 * answers that with a file made ahead of time per kernel; here the copy is
 * made from the running kernel's BTF at every start (a few ms), so it cannot
 * go stale, and it holds:
 *   - every type whose name, without a ___flavor, is a root's of this
 *     object's relocations (so the candidates are exactly libbpf's);
 *   - everything those types hold by value (members, array elements,
 *     typedef and modifier targets), so field offsets, sizes, bitfields and
 *     enum values resolve as against the whole BTF;
 *   - pointers, but not what they point to: libbpf takes any pointer as
 *     compatible with any (relo_core.c: bpf_core_fields_are_compat), and a
 *     chain of reads through pointers is one relocation per step, each with
 *     its own root.
 * Types are renumbered, so nothing may take a type id from it: the ids the
 * typed reads need come from corebtf_struct_id() on the real BTF instead.
 *
 * libbpf searches module BTF only when vmlinux has no candidate, and never
 * with a custom BTF: if a root is missing from vmlinux while modules have
 * BTF, no copy is made and libbpf does its full search.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/btf.h>
#include <bpf/btf.h>
#include "corebtf.h"
#include "corebtf_int.h"
#define COREBTF_DIR "/sys/kernel/btf"
#define COREBTF_PROBES_MAX 4096 /* string-table probes before giving up (never near) */

/* Extra bytes after struct btf_type for each kind, -1 if unknown. */
static long corebtf_type_extra(const struct btf_type *t)
{
	uint32_t vlen = BTF_INFO_VLEN(t->info);

	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	case BTF_KIND_ARRAY:
		return (long)sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return (long)(vlen * sizeof(struct btf_member));
	case BTF_KIND_ENUM:
		return (long)(vlen * sizeof(struct btf_enum));
	case BTF_KIND_FUNC_PROTO:
		return (long)(vlen * sizeof(struct btf_param));
	case BTF_KIND_DATASEC:
		return (long)(vlen * sizeof(struct btf_var_secinfo));
	case BTF_KIND_ENUM64:
		return (long)(vlen * 12); /* struct btf_enum64 */
	default:
		return -1;
	}
}
/* Does the kernel have BTF beside vmlinux's (modules)? */
static int corebtf_have_modules(void)
{
	DIR *d = opendir(COREBTF_DIR);
	struct dirent *de;
	int found = 0;

	if (!d)
		return 1; /* cannot tell: assume so */
	while (!found && (de = readdir(d)))
		found = de->d_name[0] != '.' && strcmp(de->d_name, "vmlinux");
	closedir(d);
	return found;
}

/* Index the types of a raw BTF image: k->off[id] is type id's offset. */
int corebtf_open(struct corebtf_kernel *k, const void *raw, size_t size)
{
	const struct btf_header *h = raw;
	size_t off, end, cap = 0;

	memset(k, 0, sizeof(*k));
	if (size < sizeof(*h) || size > UINT32_MAX || h->magic != BTF_MAGIC || h->hdr_len > size ||
	    (h->hdr_len | h->type_off | h->type_len) % 4 ||
	    (size_t)h->hdr_len + h->type_off + h->type_len > size ||
	    (size_t)h->hdr_len + h->str_off + h->str_len > size)
		return -EPROTO; /* types are 4-byte aligned words */
	k->raw = raw;
	k->strs = (const char *)raw + h->hdr_len + h->str_off;
	k->str_len = h->str_len;
	off = h->hdr_len + h->type_off;
	end = off + h->type_len;
	k->n = 1; /* id 0 is void */
	while (off < end) {
		const struct btf_type *t = (const void *)((const uint8_t *)raw + off);
		long extra;

		if (end - off < sizeof(*t) || (extra = corebtf_type_extra(t)) < 0 ||
		    end - off - sizeof(*t) < (size_t)extra) {
			corebtf_close(k);
			return -EPROTO;
		}
		if (k->n >= cap) {
			uint32_t *o = realloc(k->off, (cap = cap ? cap * 2 : 1u << 17) * sizeof(*o));

			if (!o) {
				corebtf_close(k);
				return -ENOMEM;
			}
			k->off = o;
		}
		k->off[k->n++] = (uint32_t)off;
		off += sizeof(*t) + (size_t)extra;
	}
	return 0;
}

void corebtf_close(struct corebtf_kernel *k)
{
	free(k->off);
	memset(k, 0, sizeof(*k));
}

static const struct btf_type *corebtf_type(const struct corebtf_kernel *k, uint32_t id)
{
	return (const void *)((const uint8_t *)k->raw + k->off[id]);
}

/* The type's name, "" when it has none or its offset is out of range. */
static const char *corebtf_name(const struct corebtf_kernel *k, uint32_t name_off, size_t *len)
{
	const char *s = name_off < k->str_len ? k->strs + name_off : "";

	*len = strnlen(s, k->str_len - (name_off < k->str_len ? name_off : k->str_len));
	return s;
}

void corebtf_find(const struct corebtf_kernel *k, struct corebtf_want *w, unsigned n)
{
	unsigned left = n;

	for (unsigned i = 0; i < n; i++)
		w[i].id = 0;
	for (uint32_t id = 1; id < k->n && left; id++) {
		const struct btf_type *t = corebtf_type(k, id);
		const char *s = NULL;
		size_t len = 0;

		if (!t->name_off)
			continue;
		for (unsigned i = 0; i < n; i++) {
			if (w[i].id || BTF_INFO_KIND(t->info) != w[i].kind)
				continue;
			if (!s)
				s = corebtf_name(k, t->name_off, &len);
			if (len == strlen(w[i].name) && !memcmp(s, w[i].name, len)) {
				w[i].id = id;
				left--;
			}
		}
	}
}

uint32_t corebtf_struct_id(const struct corebtf_kernel *k, const char *name)
{
	struct corebtf_want w = { .name = name, .kind = BTF_KIND_STRUCT };

	corebtf_find(k, &w, 1);
	return w.id;
}

/* The ids type t holds by value (see the top of the file), pointers not
 * followed unless follow_ptr; fn(ctx, &ref) for each. Only the copy being
 * emitted is ever rewritten through ref (corebtf_renumber). */
static void corebtf_refs(const struct btf_type *t, int follow_ptr,
			 void (*fn)(void *ctx, const uint32_t *ref), void *ctx)
{
	uint32_t vlen = BTF_INFO_VLEN(t->info);

	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_PTR:
		if (follow_ptr)
			fn(ctx, &t->type);
		break;
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
	case BTF_KIND_FUNC:
	case BTF_KIND_VAR:
		fn(ctx, &t->type);
		break;
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = (const struct btf_array *)(t + 1);

		fn(ctx, &a->type);
		fn(ctx, &a->index_type);
		break;
	}
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		for (uint32_t i = 0; i < vlen; i++)
			fn(ctx, &((const struct btf_member *)(t + 1))[i].type);
		break;
	case BTF_KIND_FUNC_PROTO:
		fn(ctx, &t->type);
		for (uint32_t i = 0; i < vlen; i++)
			fn(ctx, &((const struct btf_param *)(t + 1))[i].type);
		break;
	default: /* INT ENUM ENUM64 FWD FLOAT: nothing; DATASEC DECL_TAG: never kept */
		break;
	}
}

/* The name offsets a type carries: its own, its members', values', params'. */
static void corebtf_names(struct btf_type *t, void (*fn)(void *ctx, uint32_t *off), void *ctx)
{
	uint32_t vlen = BTF_INFO_VLEN(t->info);

	fn(ctx, &t->name_off);
	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		for (uint32_t i = 0; i < vlen; i++)
			fn(ctx, &((struct btf_member *)(t + 1))[i].name_off);
		break;
	case BTF_KIND_ENUM:
		for (uint32_t i = 0; i < vlen; i++)
			fn(ctx, &((struct btf_enum *)(t + 1))[i].name_off);
		break;
	case BTF_KIND_ENUM64:
		for (uint32_t i = 0; i < vlen; i++)
			fn(ctx, (uint32_t *)((uint8_t *)(t + 1) + (size_t)i * 12));
		break;
	case BTF_KIND_FUNC_PROTO:
		for (uint32_t i = 0; i < vlen; i++)
			fn(ctx, &((struct btf_param *)(t + 1))[i].name_off);
		break;
	default:
		break;
	}
}

/* Root kinds: what a relocation's local root can be and libbpf can match. */
static int corebtf_root_kind(const struct btf_type *t)
{
	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_INT:
	case BTF_KIND_FLOAT:
		return 1;
	default:
		return 0;
	}
}

struct corebtf_gen {
	const struct corebtf_kernel *k;
	uint32_t *newid; /* by old id; 0 = not kept */
	uint32_t *queue, qlen;
	/* string map: old name offset -> new, open addressing on old + 1 */
	uint32_t *skey, *sval, scap;
	char *strs;
	size_t slen, scap_bytes;
	int err;
};

static void corebtf_keep(void *ctx, const uint32_t *ref)
{
	struct corebtf_gen *g = ctx;

	if (*ref && *ref < g->k->n && !g->newid[*ref]) {
		g->newid[*ref] = UINT32_MAX; /* kept; numbered later */
		g->queue[g->qlen++] = *ref;
	}
}

/* ref points into the image being emitted (corebtf_emit's own memory). */
static void corebtf_renumber(void *ctx, const uint32_t *ref)
{
	struct corebtf_gen *g = ctx;

	*(uint32_t *)ref = *ref < g->k->n ? g->newid[*ref] : 0; /* 0: void, a pointee not kept */
}

static void corebtf_restring(void *ctx, uint32_t *off)
{
	struct corebtf_gen *g = ctx;
	uint32_t h, key = *off + 1;
	size_t len;
	const char *s;

	if (!*off || g->err)
		return;
	for (h = key * 2654435761u;; h++) {
		uint32_t i = h & (g->scap - 1);

		if (h - key * 2654435761u >= COREBTF_PROBES_MAX) {
			g->err = -E2BIG; /* cannot happen at half full; never loop */
			return;
		}
		if (g->skey[i] == key) {
			*off = g->sval[i];
			return;
		}
		if (!g->skey[i]) {
			s = corebtf_name(g->k, *off, &len);
			if (g->slen + len + 1 > g->scap_bytes) {
				size_t cap = (g->slen + len + 1) * 2;
				char *n = realloc(g->strs, cap);

				if (!n) {
					g->err = -ENOMEM;
					return;
				}
				g->strs = n;
				g->scap_bytes = cap;
			}
			memcpy(g->strs + g->slen, s, len);
			g->strs[g->slen + len] = '\0';
			g->skey[i] = key;
			g->sval[i] = (uint32_t)g->slen;
			*off = (uint32_t)g->slen;
			g->slen += len + 1;
			return;
		}
	}
}

/* The trimmed BTF image (header, types, strings) in *out. */
static int corebtf_emit(struct corebtf_gen *g, uint8_t **out, size_t *out_sz)
{
	const struct corebtf_kernel *k = g->k;
	size_t tlen = 0, pos;
	uint32_t next = 1;
	struct btf_header *h;
	uint8_t *img;

	size_t names = 0;

	for (uint32_t id = 1; id < k->n; id++)
		if (g->newid[id]) {
			const struct btf_type *t = corebtf_type(k, id);

			g->newid[id] = next++;
			tlen += sizeof(struct btf_type) + (size_t)corebtf_type_extra(t);
			names += 1 + BTF_INFO_VLEN(t->info); /* its own, members' or values' */
		}
	g->scap = 1;
	while (g->scap < 2 * names + 64) /* at most half full */
		g->scap <<= 1;
	g->skey = calloc(g->scap, sizeof(*g->skey));
	g->sval = calloc(g->scap, sizeof(*g->sval));
	g->strs = malloc(g->scap_bytes = 4096);
	img = malloc(sizeof(*h) + tlen);
	if (!g->skey || !g->sval || !g->strs || !img) {
		free(img);
		return -ENOMEM;
	}
	g->strs[0] = '\0';
	g->slen = 1;
	pos = sizeof(*h);
	for (uint32_t id = 1; id < k->n; id++) {
		const struct btf_type *src = corebtf_type(k, id);
		size_t sz = sizeof(*src) + (size_t)corebtf_type_extra(src);
		struct btf_type *t = (struct btf_type *)(img + pos);

		if (!g->newid[id])
			continue;
		memcpy(t, src, sz);
		corebtf_refs(t, 1, corebtf_renumber, g);
		corebtf_names(t, corebtf_restring, g);
		pos += sz;
	}
	if (g->err) {
		free(img);
		return g->err;
	}
	h = (struct btf_header *)img;
	memset(h, 0, sizeof(*h));
	h->magic = BTF_MAGIC;
	h->version = BTF_VERSION;
	h->hdr_len = sizeof(*h);
	h->type_off = 0;
	h->type_len = (uint32_t)tlen;
	h->str_off = (uint32_t)tlen;
	h->str_len = (uint32_t)g->slen;
	*out = img;
	*out_sz = sizeof(*h) + tlen;
	return 0;
}

static int corebtf_write(int fd, const void *p, size_t n)
{
	for (size_t done = 0; done < n;) {
		ssize_t w = write(fd, (const uint8_t *)p + done, n - done);

		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		done += (size_t)w;
	}
	return 0;
}

int corebtf_make(const struct corebtf_kernel *k, const void *elf, size_t elf_sz, char *path,
		 size_t path_sz)
{
	struct corebtf_roots *r = calloc(1, sizeof(*r));
	struct corebtf_gen g = { .k = k };
	struct btf *local = NULL;
	uint8_t *img = NULL;
	size_t img_sz = 0;
	int fd = -1, err;

	g.newid = calloc(k->n, sizeof(*g.newid));
	g.queue = malloc(k->n * sizeof(*g.queue));
	if (!r || !g.newid || !g.queue) {
		err = -ENOMEM;
		goto out;
	}
	err = corebtf_object_roots(elf, elf_sz, r, &local);
	if (err)
		goto out;
	for (uint32_t id = 1; id < k->n; id++) {
		const struct btf_type *t = corebtf_type(k, id);
		size_t len;
		const char *s;
		int i;

		if (!t->name_off || !corebtf_root_kind(t))
			continue;
		s = corebtf_name(k, t->name_off, &len);
		i = corebtf_root_find(r, s, corebtf_essential_len(s, len));
		if (i < 0)
			continue;
		r->found[i] = 1;
		corebtf_keep(&g, &id);
	}
	for (unsigned i = 0; i < r->n; i++)
		if (!r->found[i] && corebtf_have_modules()) {
			err = -ENOENT; /* perhaps in a module: libbpf's search looks there */
			goto out;
		}
	for (uint32_t q = 0; q < g.qlen; q++) /* everything held by value */
		corebtf_refs(corebtf_type(k, g.queue[q]), 0, corebtf_keep, &g);
	err = corebtf_emit(&g, &img, &img_sz);
	if (err)
		goto out;
	fd = memfd_create("agent-sentinel-core-btf", MFD_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	err = corebtf_write(fd, img, img_sz);
	if (!err)
		err = corebtf_write(fd, g.strs, g.slen);
	if (!err && (size_t)snprintf(path, path_sz, "/proc/self/fd/%d", fd) >= path_sz)
		err = -ENAMETOOLONG;
out:
	btf__free(local); /* the root names point into it: used up by now */
	free(r);
	free(g.newid);
	free(g.queue);
	free(g.skey);
	free(g.sval);
	free(g.strs);
	free(img);
	if (err) {
		if (fd >= 0)
			close(fd);
		return err;
	}
	return fd;
}
