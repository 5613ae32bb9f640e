// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The root types of a BPF object's CO-RE relocations, by name (user/
 * corebtf.c keeps the kernel's types of those names): read from the
 * object's .BTF.ext (its core_relo part) and named in its .BTF, with the
 * ___flavor suffix dropped as libbpf does.
 */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdint.h>
#include <string.h>
#include <linux/btf.h>
#include <bpf/btf.h>
#include "corebtf_int.h"

#define COREBTF_EXT_HDR_CORE 32 /* btf_ext_header up to core_relo_len */
#define COREBTF_RELO_REC 16 /* struct bpf_core_relo: insn_off, type_id, access_str_off, kind */


/* libbpf's bpf_core_essential_name_len(): the name without a "___flavor". */
size_t corebtf_essential_len(const char *s, size_t n)
{
	for (size_t i = n >= 5 ? n - 5 + 1 : 0; i-- > 0;)
		if (s[i] != '_' && s[i + 1] == '_' && s[i + 2] == '_' && s[i + 3] == '_' &&
		    s[i + 4] != '_')
			return i + 1;
	return n;
}

static uint32_t corebtf_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 16777619u;
	return h;
}

int corebtf_root_find(const struct corebtf_roots *r, const char *s, size_t n)
{
	for (uint32_t h = corebtf_hash(s, n);; h++) {
		int16_t i = r->slot[h & (COREBTF_HASH_SLOTS - 1)];

		if (!i)
			return -1;
		if (r->len[i - 1] == n && !memcmp(r->name[i - 1], s, n))
			return i - 1;
	}
}

static int corebtf_root_add(struct corebtf_roots *r, const char *s)
{
	size_t n = corebtf_essential_len(s, strlen(s));
	uint32_t h;

	if (!n || corebtf_root_find(r, s, n) >= 0)
		return 0;
	if (r->n == COREBTF_MAX_ROOTS)
		return -E2BIG;
	r->name[r->n] = s;
	r->len[r->n] = n;
	for (h = corebtf_hash(s, n); r->slot[h & (COREBTF_HASH_SLOTS - 1)]; h++)
		;
	r->slot[h & (COREBTF_HASH_SLOTS - 1)] = (int16_t)++r->n;
	return 0;
}

static Elf_Data *corebtf_section(Elf *e, const char *want)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(e, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(e, scn)))
	{
		const char *name;

		if (gelf_getshdr(scn, &sh) && (name = elf_strptr(e, shstrndx, sh.sh_name)) &&
		    !strcmp(name, want))
			return elf_getdata(scn, NULL);
	}
	return NULL;
}

/* Relocation kinds (libbpf's enum bpf_core_relo_kind) whose result against
 * the copy is libbpf's against the whole BTF: field relocations (by-value
 * closure, any pointer compatible with any), enum values, and type
 * existence or size of a struct, union or enum (compatible without looking
 * inside). A type id (renumbered here), a type match (which follows
 * pointers), or existence or size of any other root would differ silently:
 * no copy for such an object. */
static int corebtf_relo_ok(uint32_t kind, const struct btf_type *root)
{
	enum { FIELD_LAST = 5, TYPE_ID_LOCAL = 6, TYPE_ID_TARGET = 7, TYPE_EXISTS = 8,
	       TYPE_SIZE = 9, ENUMVAL_EXISTS = 10, ENUMVAL_VALUE = 11 };
	unsigned k = root ? BTF_INFO_KIND(root->info) : 0;

	if (kind <= FIELD_LAST || kind == TYPE_ID_LOCAL || kind == ENUMVAL_EXISTS ||
	    kind == ENUMVAL_VALUE)
		return 1;
	if (kind == TYPE_EXISTS || kind == TYPE_SIZE)
		return k == BTF_KIND_STRUCT || k == BTF_KIND_UNION || k == BTF_KIND_ENUM ||
		       k == BTF_KIND_ENUM64;
	return 0; /* TYPE_ID_TARGET, TYPE_MATCHES, and kinds libbpf 1.1 does not know */
}

/* The names of the root types of the object's CO-RE relocations: the
 * type_id of each record of .BTF.ext's core_relo part (struct
 * bpf_core_relo: insn_off, type_id, access_str_off, kind), named in .BTF. */
int corebtf_object_roots(const void *elf, size_t elf_sz, struct corebtf_roots *r,
				struct btf **local)
{
	Elf *e;
	Elf_Data *btf, *ext;
	const uint8_t *p, *endp;
	uint32_t hdr_len, core_off, core_len, rec_size;
	int err = -EPROTO;

	elf_version(EV_CURRENT);
	e = elf_memory((char *)elf, elf_sz);
	if (!e)
		return -EPROTO;
	btf = corebtf_section(e, ".BTF");
	ext = corebtf_section(e, ".BTF.ext");
	if (!btf || !ext || !btf->d_buf || !ext->d_buf || ext->d_size < COREBTF_EXT_HDR_CORE)
		goto out; /* a NOBITS section has no bytes */
	p = ext->d_buf;
	if (p[0] != (BTF_MAGIC & 0xff) || p[1] != (BTF_MAGIC >> 8))
		goto out;
	*local = btf__new(btf->d_buf, (uint32_t)btf->d_size);
	if (!*local)
		goto out;
	memcpy(&hdr_len, p + 4, 4);
	if (hdr_len < COREBTF_EXT_HDR_CORE)
		goto out;
	memcpy(&core_off, p + 24, 4);
	memcpy(&core_len, p + 28, 4);
	if ((size_t)hdr_len + core_off + core_len > ext->d_size || core_len < 4)
		goto out;
	p += hdr_len + core_off;
	endp = p + core_len;
	memcpy(&rec_size, p, 4);
	if (rec_size < COREBTF_RELO_REC)
		goto out;
	for (p += 4; endp - p >= 8;) {
		uint32_t num;

		memcpy(&num, p + 4, 4);
		p += 8;
		if ((size_t)(endp - p) / rec_size < num)
			goto out;
		for (uint32_t i = 0; i < num; i++, p += rec_size) {
			uint32_t id, kind;
			const struct btf_type *t;
			const char *name;

			memcpy(&id, p + 4, 4);
			memcpy(&kind, p + 12, 4);
			t = btf__type_by_id(*local, id);
			if (!corebtf_relo_ok(kind, t)) {
				err = -ENOTSUP;
				goto out;
			}
			name = t ? btf__name_by_offset(*local, t->name_off) : NULL;
			if (name && name[0] && corebtf_root_add(r, name))
				goto out;
		}
	}
	err = 0;
out:
	elf_end(e);
	return err;
}
