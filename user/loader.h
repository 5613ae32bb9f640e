/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Loader: checks that the kernel can run us (privilege, BTF, lockdown,
 * tracefs), opens the skeleton, writes settings, switches off programs for
 * tracepoints this kernel lacks or that no consumer wants, loads, attaches.
 * Every failure is one sentence on stderr, not a libbpf dump.
 */
#ifndef AS_LOADER_H
#define AS_LOADER_H

#include <stddef.h>
#include <stdint.h>
#include "abi.h"
#include "attach.h"
#include "parload.h"
#include "ringwarm.h"

/* 4 MiB: ~8,000 typical events of slack, and 100,000 alerting opens at full
 * speed lost none in tests/bench (1 MiB lost none either). The kernel fills
 * the mapping at mmap: it counts its size in RSS from the start (once: the
 * consumer maps the data once, user/consumer.h). */
#define LOADER_RINGBUF_DEFAULT (4u << 20)
#define LOADER_WAKEUP_DEFAULT (256u << 10) /* wake the consumer per 256 KiB queued */

struct sentinel_bpf;

#define LOADER_FILTER_NAMES_MAX AS_FILTER_NAMES_MAX /* bpf/events.h */
#define LOADER_FILTER_EXES_MAX 128 /* = AS_FILTER_EXES_MAX = AGENTID_MAX + AGENTID_SEEN_MAX */
/* filter_depth: keep when any lineage entry's exec-time name is in
 * filter_names or its executable in filter_exes (or an ancestor within the
 * walk matches) */
#define LOADER_DEPTH_LINEAGE 0xff

struct loader_opts {
	uint32_t ringbuf_bytes; /* power of two, >= page size */
	/* kernel pre-filter: per event type 0 = keep all, d + 1 = keep when the
	 * process or one of its first d ancestors is named in filter_names */
	uint8_t filter_depth[AS_EV_MAX];
	/* how many live ancestors above the process the verdict tests by name
	 * (the deepest d - 1 of the types, and the live levels a lineage
	 * type's rules also test) */
	uint8_t filter_walk;
	char filter_names[LOADER_FILTER_NAMES_MAX][AS_COMM_LEN];
	size_t filter_nnames;
	struct {
		uint64_t ino;
		uint32_t dev;
	} filter_exes[LOADER_FILTER_EXES_MAX]; /* pinned agent executables */
	size_t filter_nexes;
	struct as_pin_key filter_pins[LOADER_FILTER_EXES_MAX]; /* and where they are */
	size_t filter_npins;
	/* opens: which classes and paths can match (when open_filtered;
	 * otherwise every open is kept) */
	int open_filtered;
	struct as_open_filter open_filter;
	uint64_t wakeup_bytes; /* 0: wake on every event */
	int send_fold; /* a thread's repeated send on a socket is one event (bpf/net.bpf.c) */
	uint32_t want_types; /* bit per enum as_event_type: attach only these */
	struct scset want_sc; /* and of syscall tracepoints, only these syscalls' */
	int verbose; /* pass libbpf's messages through */
};

struct loader {
	struct sentinel_bpf *skel;
	struct attach_set at; /* the tracepoints each program serves */
	struct parload pl; /* the second copy that verified half of the programs */
	uint64_t open_ns, load_ns, attach_ns; /* start-up phases, for -v */
	struct ringwarm_result warm; /* the ring's warm-up at start */
};

/* Returns 0, or a negative errno after printing why. */
int loader_start(struct loader *l, const struct loader_opts *o);
/* Apply new settings to running programs (a rules reload): the pre-filter,
 * and which programs are attached. Returns 0 or -errno after saying why. */
int loader_retarget(struct loader *l, const struct loader_opts *o);
void loader_stop(struct loader *l);
int loader_ringbuf_fd(const struct loader *l);
/* The programs' flag that the consumer sleeps long (consumer_set_idle_flag) */
volatile uint32_t *loader_ring_idle(struct loader *l);
/* Tell the kernel side that pid belongs to an agent session (for processes
 * that were already running when we started). */
int loader_seed_session(const struct loader *l, uint32_t pid, const char *session);
/* Give pid (and each of its threads) the lineage /proc told (for processes
 * that were already running when we started). */
int loader_seed_lineage(const struct loader *l, uint32_t pid, const struct as_lineage *lin);
/* Every cached pre-filter verdict expires (each thread is judged afresh at
 * its next event): after the names change, and after the seed, since a
 * verdict taken between attaching and seeding did not see the lineage. */
void loader_expire_verdicts(struct loader *l);
/* The pinned executables of o (filter_exes, filter_pins) into the kernel's
 * maps while programs run: the new set added before the old one goes, then
 * the verdicts expire. */
int loader_set_pins(struct loader *l, const struct loader_opts *o);
/* Sum the per-CPU drop counters: drops[type] for each enum as_event_type;
 * and *folds, the sends folded into the one before (bpf/net.bpf.c). */
int loader_read_drops(const struct loader *l, uint64_t *drops, unsigned n, uint64_t *folds);

#endif /* AS_LOADER_H */
