/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Inside the field extractors (fields.c and the fields_*.c it includes):
 * the helpers every field class uses, and each class's extractor, which
 * extract_any calls. */
#ifndef AS_FIELDS_INT_H
#define AS_FIELDS_INT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "rules.h"
#include "sctable.h"

#ifndef AS_FIELDS_TU
#error "fields_*.c are parts of fields.c's translation unit: compile fields.c"
#endif

/* The process's table entry, looked up once per event. */
static inline const struct proc_entry *entry(struct evctx *c)
{
	if (!c->pe_done) {
		c->pe_done = 1;
		c->pe = c->pt ? proctable_lookup(c->pt, c->ev->hdr->pid) : NULL;
	}
	return c->pe;
}

/* The event describes its process: a successful exec, or a /proc snapshot.
 * A failed exec leaves the caller as it was (Falco updates nothing then):
 * what it tried is in evt.arg.*. */
static inline int has_exec_strings(const struct event *ev)
{
	return (ev->hdr->type == AS_EV_EXEC || ev->hdr->type == AS_EV_PROC) && ev->res >= 0;
}

/* The syscall's result; a clone's is the child's thread id, as Falco's
 * clone exit has it in the parent. */
static inline int64_t event_res(const struct event *ev)
{
	return ev->hdr->type == AS_EV_FORK ? (int64_t)ev->u.fork->child_tid : ev->res;
}

static inline void set_str(struct fval *v, const char *s, size_t len)
{
	v->present = 1;
	v->type = T_STR;
	v->s = s;
	v->len = len;
}

static inline void set_cstr(struct fval *v, const char *s)
{
	if (s)
		set_str(v, s, strlen(s));
}

static inline void set_num(struct fval *v, int64_t n)
{
	v->present = 1;
	v->type = T_NUM;
	v->n = n;
}

static inline void set_bool(struct fval *v, int b)
{
	v->present = 1;
	v->type = T_BOOL;
	v->n = !!b;
}

/* strnlen(comm, AS_COMM_LEN), a word at a time where the layout allows:
 * comms are the most compared strings (proc.name, proc.aname[N]). */
static inline size_t comm_len(const char *comm)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (AS_COMM_LEN == 2 * sizeof(uint64_t)) {
		const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;

		for (size_t i = 0; i < 2; i++) {
			uint64_t w, zero;

			memcpy(&w, comm + i * sizeof(w), sizeof(w));
			/* the lowest set bit marks the first NUL byte exactly */
			zero = (w - ones) & ~w & highs;
			if (zero)
				return i * sizeof(w) + (size_t)__builtin_ctzll(zero) / 8;
		}
		return AS_COMM_LEN;
	}
#endif
	return strnlen(comm, AS_COMM_LEN);
}

static inline void set_comm(struct fval *v, const char *comm)
{
	set_str(v, comm, comm_len(comm));
}

static inline int has_res(const struct event *ev)
{
	unsigned t = ev->hdr->type;

	return t != AS_EV_EXIT && t != AS_EV_PROC;
}

/* fields_proc.c */
static const char *fields_proc_args(struct evctx *c, uint32_t *len);
static const char *fields_proc_str(struct evctx *c, const struct event_path *evp, size_t pe_off);
static void fields_join_args(char *buf, size_t cap, size_t *pos, const char *a, uint32_t len,
			     int lead);
static const char *fields_cap_names(uint64_t set, char *buf, size_t cap);
static void fields_get_cgroup(struct evctx *c, struct fval *v, char *buf, size_t cap);
static void fields_get_parent(struct evctx *c, int f, struct fval *v, char *buf, size_t cap);
static void fields_get_exe_kind(struct evctx *c, int f, struct fval *v);
static void fields_get_exec_prev(const struct event *ev, int f, struct fval *v, char *buf,
				 size_t cap);

/* fields_evt.c */
static void fields_get_arg(struct evctx *c, const char *arg, struct fval *v, char *buf, size_t cap);

/* fields_fd.c */
static void fields_fd_name_connect(const struct as_connect *k, char *buf, size_t cap);
static void fields_get_fd_path(const struct event *ev, uint32_t pflags, int f, struct fval *v,
			       char *buf, size_t cap);
static void fields_get_fd(struct evctx *c, int f, struct fval *v, char *buf, size_t cap);
static void fields_get_fspath(const struct event *ev, int f, struct fval *v);

/* fields_container.c */
static void fields_get_container(struct evctx *c, int f, const char *arg, struct fval *v, char *buf,
				 size_t cap);

/* fields_evt.c: does pid (a process, or -pgid) or the thread tid name
 * agent-sentinel itself, or a process it started (an output program)? */
static int fields_names_self(const struct proctable *pt, const struct proctable_self *me,
			     int32_t pid, int32_t tid);

/* fields_lineage.c */
static void fields_get_lineage(struct evctx *c, int f, int32_t idx, struct fval *v, char *buf,
			       size_t cap);

#endif /* AS_FIELDS_INT_H */
