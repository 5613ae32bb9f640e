// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Load the BPF programs on two cores at once.
 *
 * libbpf loads an object's programs one after the other, and the kernel's
 * verifier is most of agent-sentinel's start-up (about 130 ms for the 11
 * programs here). So the object is opened a second time from the same ELF
 * bytes, each copy loads about half of the programs, and both share one set
 * of maps: the maps are created here first, from the skeleton's own
 * definitions, and handed to both copies with bpf_map__reuse_fd(). The
 * skeleton keeps working as before (its globals are mapped onto the same
 * maps); the programs the second copy loaded are found by name.
 *
 * Whatever cannot be done this way (one CPU, a map kind this file does not
 * create, a kernel that refuses the object's BTF) falls back to libbpf's
 * own serial load, so the parallel path can only make start-up faster.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "diag.h"
#include "parload.h"

/* More programs or maps than this: load serially (the object has 12 and 11). */
#define PARLOAD_MAX_PROGS 64
#define PARLOAD_MAX_MAPS 64
/* Instructions per cost unit (0.1 ms) for a program without a hint: the
 * programs here verify at 3-30 ms per 1000 instructions. */
#define PARLOAD_INSNS_PER_COST 6

/* The CPUs this process may run on (its affinity, its cpuset). */
static int parload_cpus(void)
{
	cpu_set_t set;

	return sched_getaffinity(0, sizeof(set), &set) ? 1 : CPU_COUNT(&set);
}

/* libbpf up to 1.4 maps a skeleton's globals onto whatever map fd the
 * object has when the skeleton is loaded, reused or not; from 1.5 that is
 * done where libbpf creates the map itself, so a reused .bss would leave
 * the skeleton's pointers on private memory and the loader's writes to the
 * filter lost (libbpf 137978f42251). Serial load there. */
static int parload_libbpf_ok(void)
{
	return libbpf_major_version() == 1 && libbpf_minor_version() < 5;
}

struct parload_side {
	struct bpf_object *obj;
	int err;
};

/* Two bpf_object__load() at once: each object is its own, and the one
 * global libbpf 1.1 shares between them, its cache of kernel feature
 * probes, is written once per feature with the same answer (READ_ONCE /
 * WRITE_ONCE in libbpf). */
static void *parload_thread(void *arg)
{
	struct parload_side *s = arg;

	s->err = bpf_object__load(s->obj);
	return NULL;
}

static void parload_close_fds(int *fds, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/* Map kinds whose BTF key and value the kernel refuses (libbpf drops them too). */
static int parload_map_takes_btf(enum bpf_map_type t)
{
	return t != BPF_MAP_TYPE_RINGBUF && t != BPF_MAP_TYPE_PERF_EVENT_ARRAY;
}

/* Create map m as libbpf would, filled with its initial value if it is a
 * global-data section (.rodata frozen, as libbpf does); the fd or -errno. */
static int parload_create_map(const struct bpf_map *m, int btf_fd)
{
	LIBBPF_OPTS(bpf_map_create_opts, mo, .map_flags = bpf_map__map_flags(m),
		    .map_extra = bpf_map__map_extra(m), .numa_node = bpf_map__numa_node(m));
	enum bpf_map_type t = bpf_map__type(m);
	const char *name = bpf_map__name(m);
	size_t isz = 0;
	const void *init;
	int fd;

	if (bpf_map__inner_map((struct bpf_map *)m) || strstr(name, ".kconfig") ||
	    strstr(name, ".ksyms"))
		return -ENOTSUP; /* not needed by this object: libbpf's path does it */
	if (btf_fd >= 0 && parload_map_takes_btf(t) &&
	    (bpf_map__btf_key_type_id(m) || bpf_map__btf_value_type_id(m))) {
		mo.btf_fd = (uint32_t)btf_fd;
		mo.btf_key_type_id = bpf_map__btf_key_type_id(m);
		mo.btf_value_type_id = bpf_map__btf_value_type_id(m);
	}
	fd = bpf_map_create(t, name, bpf_map__key_size(m), bpf_map__value_size(m),
			    bpf_map__max_entries(m), &mo);
	if (fd < 0)
		return -errno;
	init = bpf_map__initial_value((struct bpf_map *)m, &isz);
	if (init && t == BPF_MAP_TYPE_ARRAY && isz == bpf_map__value_size(m)) {
		uint32_t zero = 0;

		if (bpf_map_update_elem(fd, &zero, init, 0) ||
		    ((bpf_map__map_flags(m) & BPF_F_RDONLY_PROG) && bpf_map_freeze(fd))) {
			int err = -errno;

			close(fd);
			return err;
		}
	}
	return fd;
}

/* The object's own BTF in the kernel, for the maps that name types (task
 * storage must); -errno if the kernel refuses it. */
static int parload_btf_fd(struct bpf_object *obj)
{
	const struct btf *local = bpf_object__btf(obj);
	const void *raw;
	struct btf *copy;
	uint32_t sz;
	int fd;

	if (!local)
		return -ENOENT;
	raw = btf__raw_data(local, &sz);
	copy = raw ? btf__new(raw, sz) : NULL;
	if (!copy)
		return -ENOMEM;
	fd = btf__load_into_kernel(copy) ? -errno : dup(btf__fd(copy));
	if (fd == -1)
		fd = -errno; /* dup's */
	btf__free(copy);
	return fd;
}

/* Create every map once and make both objects use it; 0 or -errno. */
static int parload_share_maps(struct bpf_object *a, struct bpf_object *b)
{
	int fds[PARLOAD_MAX_MAPS], err = 0, btf_fd;
	struct bpf_map *ma, *mb;
	unsigned n = 0;

	btf_fd = parload_btf_fd(a);
	if (btf_fd < 0)
		return btf_fd;
	for (ma = bpf_object__next_map(a, NULL), mb = bpf_object__next_map(b, NULL); ma || mb;
	     ma = bpf_object__next_map(a, ma), mb = bpf_object__next_map(b, mb)) {
		if (!ma || !mb || strcmp(bpf_map__name(ma), bpf_map__name(mb)) ||
		    n == PARLOAD_MAX_MAPS) {
			err = -EINVAL; /* not two copies of one object */
			break;
		}
		fds[n] = parload_create_map(ma, btf_fd);
		if (fds[n] < 0) {
			err = fds[n];
			break;
		}
		n++;
	}
	/* only once every map exists: a failure above leaves both objects as opened */
	ma = bpf_object__next_map(a, NULL);
	mb = bpf_object__next_map(b, NULL);
	for (unsigned i = 0; !err && i < n; i++) {
		if (bpf_map__reuse_fd(ma, fds[i]) || bpf_map__reuse_fd(mb, fds[i]))
			err = -errno;
		ma = bpf_object__next_map(a, ma);
		mb = bpf_object__next_map(b, mb);
	}
	parload_close_fds(fds, n); /* reuse_fd keeps a dup of each */
	close(btf_fd);
	return err;
}

/* A program's expected verification time: its row of hints (measured),
 * else its instruction count as a stand-in (a poor one: per instruction
 * the exec program verifies three times slower than the connect one). */
static unsigned parload_cost(const struct parload_hint *hints, const struct bpf_program *p)
{
	for (const struct parload_hint *h = hints; h && h->prog; h++)
		if (!strcmp(h->prog, bpf_program__name(p)))
			return h->cost;
	return (unsigned)(bpf_program__insn_cnt(p) / PARLOAD_INSNS_PER_COST);
}

/* Split the programs to load between a and b, costliest first onto the
 * side with less so far. The number of programs each loads goes to n[0]
 * and n[1]. */
static int parload_split(struct bpf_object *a, struct bpf_object *b,
			 const struct parload_hint *hints, unsigned n[2])
{
	struct bpf_program *progs[PARLOAD_MAX_PROGS], *p, *pb;
	unsigned cost[PARLOAD_MAX_PROGS], load[2] = { 0, 0 }, cnt = 0;

	bpf_object__for_each_program(p, a) {
		pb = bpf_object__find_program_by_name(b, bpf_program__name(p));
		if (!pb || cnt == PARLOAD_MAX_PROGS)
			return -EINVAL;
		if (!bpf_program__autoload(p)) {
			bpf_program__set_autoload(pb, false);
			continue;
		}
		progs[cnt] = p;
		cost[cnt++] = parload_cost(hints, p);
	}
	for (unsigned i = 1; i < cnt; i++) /* insertion sort, costliest first */
		for (unsigned j = i; j > 0 && cost[j] > cost[j - 1]; j--) {
			unsigned c = cost[j];

			p = progs[j];
			progs[j] = progs[j - 1];
			progs[j - 1] = p;
			cost[j] = cost[j - 1];
			cost[j - 1] = c;
		}
	n[0] = n[1] = 0;
	for (unsigned i = 0; i < cnt; i++) {
		int side = load[1] < load[0];

		pb = bpf_object__find_program_by_name(b, bpf_program__name(progs[i]));
		load[side] += cost[i];
		bpf_program__set_autoload(progs[i], side == 0);
		bpf_program__set_autoload(pb, side == 1);
		n[side]++;
	}
	return 0;
}

int parload_load(struct parload *pl, struct bpf_object *obj, const void *elf, size_t elf_sz,
		 const char *btf_custom_path, const struct parload_hint *hints,
		 int (*load_first)(void *), void *arg, int verbose)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .object_name = bpf_object__name(obj),
		    .btf_custom_path = btf_custom_path);
	struct parload_side second = { 0 };
	const char *env = getenv(PARLOAD_ENV);
	unsigned n[2];
	pthread_t tid;
	int err;

	memset(pl, 0, sizeof(*pl));
	if ((env && !strcmp(env, "1")) || parload_cpus() < 2 || !parload_libbpf_ok())
		return load_first(arg);
	second.obj = bpf_object__open_mem(elf, elf_sz, &oo);
	if (!second.obj)
		return load_first(arg);
	err = parload_share_maps(obj, second.obj);
	if (!err)
		err = parload_split(obj, second.obj, hints, n);
	if (err) {
		/* maps already shared stay so: they are the object's, made as libbpf would */
		if (verbose)
			diag_info("programs verified on one thread: cannot share the maps or split "
				  "the programs (%s)", strerror(-err));
		bpf_object__close(second.obj);
		return load_first(arg);
	}
	pl->second = second.obj;
	if (pthread_create(&tid, NULL, parload_thread, &second)) {
		err = load_first(arg); /* no thread: the same two loads, one after the other */
		if (!err)
			parload_thread(&second);
	} else {
		err = load_first(arg);
		pthread_join(tid, NULL);
	}
	if (!err)
		err = second.err;
	if (verbose && !err)
		diag_info("programs verified on two threads: %u and %u", n[0], n[1]);
	return err;
}

struct bpf_program *parload_program(const struct parload *pl, struct bpf_program *prog)
{
	struct bpf_program *p;

	if (!pl->second || bpf_program__autoload(prog))
		return prog;
	p = bpf_object__find_program_by_name(pl->second, bpf_program__name(prog));
	return p && bpf_program__autoload(p) ? p : prog;
}

void parload_close(struct parload *pl)
{
	bpf_object__close(pl->second);
	pl->second = NULL;
}
