/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Types shared by the stages of the rule engine; not a public interface. */
#ifndef AS_RULES_H
#define AS_RULES_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "engine.h"
#include "event.h"
#include "proctable.h"
#include "fields.h"
#include "ops.h"
#include "scset.h"

#define COND_MAX_DEPTH 100 /* parenthesis/not nesting; Lua's LUAI_MAXCCALLS is 200 */
#define COND_MAX_MACRO_DEPTH 64 /* macros inside macros while compiling a rule */
#define COND_MAX_LEN (256 * 1024) /* one condition after appends; Falco's biggest is ~4 KiB */
#define COND_MAX_XFORMS 4 /* transformers nested around one field */
/* arguments of one join/concat/getopt call, list items included; Falco sets
 * none, the longest seen in its tests is 8 */
#define COND_MAX_XARGS 64
#define RULES_MAX_FILE (16 * 1024 * 1024) /* one rules file; falco_rules.yaml is ~64 KiB */
#define RULES_MAX_ITEMS 100000 /* items across all files */
#define ENGINE_MSG_MAX 512 /* one diagnostic sentence */
#define OUTPUT_LINE_MAX (256 * 1024) /* one alert line; longer is cut (json.h marks it) */
#define OUTPUT_FRAC_LEN 10 /* ".nnnnnnnnn": the nanoseconds of a stamp */
/* from the end of "output" to the first output_fields key (output.c, output_alert.c) */
#define OUTPUT_FIELDS_OPEN "\",\"output_fields\":{"
#define OUTPUT_REUSE_MAX 32 /* output text segments whose escaped value output_fields may copy */
#define FIELDS_BUF_MAX (AS_ARGS_MAX + AS_COMM_LEN + 2 * AS_PATH_MAX) /* built field values */

/* Where text came from: file, 1-based line/col, and for offset mapping the
 * raw file bytes of the YAML scalar holding it. */
struct srcpos {
	const char *file;
	uint32_t line, col;
	const char *raw; /* file bytes; NULL: offsets are not mapped */
	size_t raw_start, raw_end; /* scalar's bytes in raw */
	int block; /* scalar is a block scalar (content starts on the next line) */
};

/* A text assembled from pieces (appends): where each piece starts. */
struct textseg {
	size_t off;
	struct srcpos pos;
};

struct text {
	char *s;
	size_t len;
	struct textseg *segs;
	size_t nsegs;
};

/* Map an offset in t to a file position. */
void yamlload_map(const struct text *t, size_t off, struct srcpos *out);

/* Diagnostics sink */
struct diag {
	FILE *f;
	unsigned errors, warnings;
};
void engine_diag(struct diag *d, const struct srcpos *p, int is_err, const char *kind,
		 const char *name, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* ---- YAML items ---- */
enum yval_kind { YV_NONE, YV_SCALAR, YV_SEQ, YV_MAP };

struct yval {
	int kind;
	char *s; /* scalar */
	int quoted; /* scalar was quoted (not plain) */
	struct srcpos pos;
	struct yval *items; /* seq items, or map values */
	char **keys; /* map keys */
	struct srcpos *keypos;
	size_t n;
};

struct yitem {
	struct yval map; /* the item's mapping */
};

struct yfile {
	char *name;
	char *raw;
	size_t len;
	struct yitem *items;
	size_t nitems;
};

/* Parse one file's YAML into items; errors on d. Returns 0 or -errno. */
int yamlload_parse(struct yfile *f, struct diag *d);
void yamlload_free(struct yfile *f);
const struct yval *yamlload_get(const struct yval *map, const char *key, size_t *idx);

/* ---- collected definitions ---- */
struct list_def {
	char *name;
	struct srcpos pos;
	char **items;
	size_t nitems;
	int quoted_flat; /* items already flattened */
	int used;
};

struct ast;

struct macro_def {
	char *name;
	struct srcpos pos;
	struct text cond;
	struct ast *ast; /* parsed; NULL when parsing failed */
	int bad; /* parse error already reported */
	size_t order;
};

struct exc_def {
	char *name;
	struct srcpos pos;
	char **fields;
	size_t nfields;
	int fields_list; /* fields given as a list (vs a scalar) */
	char **comps;
	size_t ncomps;
	struct yval *values; /* cloned yval sequence (or NULL) */
	size_t nvalues;
};

struct rule_def {
	char *name;
	struct srcpos pos;
	struct text cond;
	struct text output;
	char *desc;
	int prio;
	char **tags;
	size_t ntags;
	int enabled;
	char *source;
	int warn_evttypes;
	int skip_unknown;
	struct exc_def *excs;
	size_t nexcs;
	int has_cond, has_output, has_prio, has_desc;
};

/* ---- compiled form ---- */
struct fval {
	int present;
	int type; /* enum ftype */
	const char *s;
	size_t len;
	int64_t n;
};

/* A field instance: field + argument + transformers; extracted at most once per event. */
struct slot {
	int field; /* enum field_id */
	int32_t idx; /* [N], or -1 */
	char *arg; /* evt.arg.<name>, or NULL */
	int xform; /* enum xform applied to parent slot, XF_NONE for a plain field */
	int parent;
	int type; /* result type */
	/* a join/concat/getopt (xcall.c): its arguments, list items inline, and
	 * where the list among them is (xcall.c says which argument is which) */
	struct slot_arg *margs;
	size_t nmargs;
	int list; /* the value is a list (getopt): NUL-separated strings, v.n of them */
	int any; /* proc.aname/proc.apid with no index: any ancestor */
	int direct; /* a plain fields_direct_ok field: comparisons read it in place */
	/* evt.arg.flags by name: on an open its value is trace_open_flags() of
	 * the flags alone, so v is kept while opens come with the same flags
	 * (most opens are tested for O_TRUNC); memo_ok: v is of memo_flags */
	int open_flags;
	int memo_ok;
	uint64_t memo_flags;
	char *text; /* as written */
	char *buf;
	size_t cap;
	uint32_t gen;
	struct fval v;
};


#define SET_LEN_BITS 64 /* bits of cmp.setlens; longer strings share the last */

/*
 * The comparisons eval.c answers without the generic value path. Each is a
 * plain field of the header or of an open compared with constants; what is
 * not of that shape (or not that event type) goes the generic way.
 */
enum cmp_kind {
	CK_GENERIC,
	CK_OPEN_CLASS, /* evt.is_open_read/write =, != or exists: a bit test */
	CK_COMM, /* proc.name, proc.pname, proc.aname[N]: =, !=, in, exists */
	/* proc.aname with no index (any ancestor from the parent up), as
	 * CK_COMM per ancestor; its answer is kept per event, as generic ones */
	CK_COMM_ANY,
	CK_FD_NUM, /* fd.num against numbers; opens inline, others generic */
	/* fd.name startswith a constant; opens inline, others generic (other
	 * operators cost more than a lookup: they keep their per-event answer) */
	CK_FD_PREFIX,
};

struct comm_key;

/* CK_OPEN_CLASS: (evctx.ocls & mask) == want */
struct cmp_open {
	uint32_t mask, want;
};

/* CK_COMM: the constants as comm images */
struct cmp_comm {
	struct comm_key *keys;
	size_t nkeys;
	uint64_t hash; /* bit comm_key_hash() of every key */
	int32_t idx; /* ancestor index, 0 the process itself; -1 for CK_COMM_ANY */
	int neg; /* true when the comm is none of keys */
	/* CK_COMM_ANY: the ancestors' comms as they came (AS_MAX_ANCESTORS of
	 * them) the last time, and the answer for them: the next event of a
	 * process mostly has the same, and comparing them costs less than
	 * masking and looking up each */
	struct comm_key *memo;
	int memo_n; /* how many; -1 none yet */
	int memo_res;
};

/* CK_FD_PREFIX: the prefix's first bytes (the constant s), masked */
struct cmp_prefix {
	uint64_t word, mask;
};

/*
 * One compiled comparison: what it compares (slot, operator, constants or
 * the field on the right), what the syscall fixes, its answer for the
 * current event, and, tagged by kind, how eval.c answers it inline.
 */
/* an IP network constant (FF_NET fields) */
struct ipnet {
	int family; /* AF_INET, AF_INET6 */
	unsigned bits; /* prefix length */
	unsigned char addr[16];
};

struct cmp {
	int slot;
	int op; /* enum op_id */
	int rslot; /* a field on the right (val() or a transformer), or -1 */
	/* the constants */
	char *s; /* constant (bytes for b-ops) */
	size_t len;
	int64_t n;
	char **set; /* in/intersects/pmatch: sorted strings */
	size_t *setlen;
	/* pmatch: per prefix, 0 for a plain one, else the number of '/'-separated
	 * components of one with wildcards (* ? [), matched by fnmatch */
	unsigned char *setwild;
	int64_t *nset; /* numeric set */
	struct ipnet *nets; /* an FF_NET field's constants: c->s's or c->set's, parsed */
	size_t nnets;
	size_t nsetv;
	/* string sets: bit min(len, SET_LEN_BITS - 1) of every string's length,
	 * and bit b of every first byte b; a value missing from either is not in
	 * the set, without a search (most values are not in it) */
	uint64_t setlens;
	uint64_t setfirst[4];
	regex_t *re;
	uint8_t *skip; /* contains of a constant: Horspool's shift per byte, or NULL */
	/* a field whose value a syscall fixes (evt.type, evt.dir)
	 * compared with constants: the answer for syscall sc (bit sc of
	 * fold_known) is bit sc of fold_true, worked out at load */
	struct scset fold_known;
	struct scset fold_true;
	/* a fields_direct field (slot.direct) compared with a constant is read
	 * in place: its field and index; dfield -1: through the slot */
	int dfield;
	int32_t didx;
	/* the result for the event of generation gen: rules share comparisons
	 * (compile_cond merges equal ones), and each runs once per event */
	uint32_t gen;
	int res;
	int kind; /* enum cmp_kind: which member of as (specialise.c) */
	union {
		struct cmp_open open;
		struct cmp_comm comm;
		struct cmp_prefix prefix;
	} as;
};

#define CMP_COMM_KEYS_MAX 16 /* longer in-lists on comms are searched as strings */

/* A comm as its AS_COMM_LEN bytes with everything from the first NUL zeroed:
 * two names are equal when their images are. */
struct comm_key {
	uint64_t w[2];
};
_Static_assert(sizeof(struct comm_key) == AS_COMM_LEN, "a comm image is one comm");

/* Which of 64 bits a comm image sets in cmp.chash: a name whose bit is clear
 * is in no set, without a search (most names are in none). */
static inline unsigned comm_key_hash(const struct comm_key *k)
{
	return (unsigned)(((k->w[0] ^ (k->w[1] * 31)) * 0x9e3779b97f4a7c15ull) >> 58);
}

/* evctx.ocls: the open's class (AS_OPEN_*) with this bit; 0 for other events */
#define EVAL_OCLS_OPEN 0x80u

enum insn_op { I_CMP, I_JF, I_JT, I_NOT, I_TRUE, I_FALSE };

struct insn {
	uint32_t op; /* enum insn_op */
	uint32_t arg; /* I_CMP: cmp index; I_JF/I_JT: target pc */
};

/*
 * The code as the evaluator runs it (specialise_graph): each comparison names the
 * comparison to run next when it is true and when it is false. Chains of
 * jumps and nots are followed once at load instead of one step per event.
 */
#define BN_FALSE (-1) /* the rule does not match */
#define BN_TRUE (-2) /* the rule matches */

struct bnode {
	uint32_t cmp; /* cmp index */
	int32_t t, f; /* pc of the next comparison, or BN_FALSE / BN_TRUE */
};

struct outseg {
	const char *lit;
	size_t litlen;
	int slot; /* -1: literal only */
	int width; /* %20field */
	int unsupported; /* Falco field we do not have: always <NA> */
	/* a literal as the JSON "output" string has it, escaped once at load
	 * (output_prepare; it lives in the rule's json_tail allocation); the
	 * last segment, always a literal, goes on to the output_fields key */
	const char *json;
	size_t jsonlen;
};

struct outkey { /* output_fields, sorted by key */
	const char *key;
	int slot;
	int unsupported;
	/* ,"key": as the line has it (output_prepare), followed by the '"'
	 * that opens a string value (json[jsonlen]); the first key of
	 * output_fields is written from json + 1 */
	char *json;
	size_t jsonlen;
	/* the first segment of the output text showing this value, whose
	 * escaped text output_fields copies instead of escaping it again; -1:
	 * none (or beyond OUTPUT_REUSE_MAX) */
	int seg;
};

/* What a rule's condition implies about process and ancestor names (kfilter.c). */
#define KF_NAMES_MAX ENGINE_KF_NAMES_MAX
enum kf_kind { KF_ANY, KF_NAMES, KF_NONE };

struct kfilter {
	int kind; /* KF_ANY: no restriction; KF_NONE: never true */
	int depth; /* KF_NAMES: some name among ancestors 0..depth is in names */
	/* KF_NAMES: the deepest live level (proc.name 0, proc.pname 1,
	 * proc.aname[N] N) a name may be at; -1: none, the lineage only. A
	 * union with a lineage test keeps it: the lineage holds exec-time
	 * names, a rename (prctl, /proc/PID/comm) changes only the live one */
	int live;
	char names[KF_NAMES_MAX][AS_COMM_LEN];
	size_t nnames;
	/* KF_NAMES: the agent names (agentid_filter_names) are in the set too,
	 * read when engine_kfilter plans the kernel's filter, not at compile:
	 * a compile reads no state the running configuration owns */
	int agents;
};

void kfilter_derive(const struct ast *a, struct kfilter *k);

/* What a derivation needs of its representation (kfilter.c walks the
 * condition once for any of them): a leaf's value (a NULL leaf: no
 * restriction), and the value of "both hold" and "one holds". */
#define KF_VALUE_MAX 4096 /* bytes of the largest representation */

struct kf_algebra {
	size_t size;
	void (*leaf)(const struct ast *a, int neg, void *v);
	void (*both)(void *a, const void *b);
	void (*either)(void *a, const void *b);
};

void kf_walk(const struct kf_algebra *alg, const struct ast *a, int neg, int depth, void *v);

/* The open part (kfopen.c). */
void kfopen_derive(const struct ast *a, struct engine_kfopen *o);
void kfopen_all(struct engine_kfopen *o);
void kfopen_union(struct engine_kfopen *a, const struct engine_kfopen *b);
/* Does an open of this class with this fd.name pass? kept: the kernel keeps
 * its file before the path test (no link left, a raw device, a setid file
 * written or made: bpf/walk.bpf.c as_file_dropped). */
int kfopen_pass(const struct engine_kfopen *o, unsigned cls, const char *path, int kept);

struct rule {
	char *name;
	char *desc;
	char *file;
	uint32_t line;
	int prio;
	char **tags; /* sorted */
	size_t ntags;
	int enabled;
	char *source;
	struct scset evmask; /* bit per enum as_syscall */
	struct insn *code;
	size_t ncode;
	struct bnode *graph; /* indexed by pc; only comparisons' entries are used */
	int32_t entry; /* first comparison, or BN_FALSE / BN_TRUE */
	/* per syscall: the first comparison not folded for it (specialise_entries);
	 * most conditions open with an evt.type test every indexed event passes */
	int32_t entry_sc[AS_SC_MAX];
	/* per syscall: the graph with the comparisons folded for it bypassed
	 * (specialise_entries), so that evaluation never meets one; graph itself when
	 * nothing folds (and for AS_SC_NONE, which folds nothing) */
	struct bnode *graph_sc[AS_SC_MAX];
	char *outtext;
	struct outseg *segs;
	size_t nsegs;
	struct outkey *keys;
	size_t nkeys;
	int has_session_key; /* agent.session is one of keys */
	/* where the keys the engine adds sort among keys (output_fields is a
	 * sorted map, as in Falco): before keys[seq_at] and keys[session_at] */
	size_t seq_at, session_at;
	/* the constant end of the rule's JSON line, from closing output_fields
	 * to the opening quote of "time" (output_prepare) */
	char *json_tail;
	size_t json_tail_len;
	/* ": <priority> " as the "output" string has it, after the time */
	const char *json_prio;
	size_t json_prio_len;
	/* every literal of the output text is ASCII: the text can be written
	 * escaped piece by piece (a byte below 0x80 escapes the same wherever it
	 * is), with no text buffer to escape afterwards */
	int json_direct;
	struct kfilter kf;
	struct engine_kfopen kfo;
};


/* a rule indexed under every syscall: no evt.type narrows it */
static inline int evmask_all(const struct scset *m)
{
	struct scset all = scset_all();

	return scset_eq(m, &all);
}

struct engine {
	struct engine_opts opts;
	char hostname[256];
	struct rule *rules;
	size_t nrules;
	uint32_t *index[AS_SC_MAX];
	size_t nindex[AS_SC_MAX];
	struct scset wants; /* union of enabled rules' masks */
	struct slot *slots;
	size_t nslots, capslots;
	struct cmp *cmps;
	size_t ncmps, capcmps;
	uint32_t gen;
	uint64_t alerts;
	uint64_t seq; /* agent.seq of the last alert: a gap downstream means a loss */
	char *line;
	char *textbuf;
	char *json_head; /* {"hostname":"...","output":" (output_init) */
	size_t json_head_len;
	/* an alert's second, formatted once per second (localtime_r and
	 * strftime were a tenth of the cost of an alert) */
	struct {
		int64_t secs; /* -1: nothing cached */
		/* HH:MM:SS, local time, as Falco's output prefix; then the
		 * alert's nanoseconds (output_alert writes them in place) */
		char tod[16 + OUTPUT_FRAC_LEN];
		/* YYYY-MM-DDTHH:MM:SS, UTC; then nanoseconds, 'Z' and the
		 * "} that ends the line */
		char iso[24 + OUTPUT_FRAC_LEN + 3];
		size_t todlen, isolen; /* of the second's part */
	} second;
};

/* One argument of a join/concat/getopt as its slot sees it: a field's slot,
 * or a constant (slot -1). */
struct slot_arg {
	int slot;
	char *s;
	size_t len;
	int in_list; /* an item of the call's list argument */
};

/* ---- AST ---- */
enum ast_kind { A_AND, A_OR, A_NOT, A_CMP, A_MACRO, A_CONST };

struct xcall;

struct fref {
	char *name; /* the field; for a call (mx), the transformer's name */
	char *arg; /* inside [...] or after evt.arg. */
	int has_arg;
	int xf[COND_MAX_XFORMS];
	int nxf;
	size_t off;
	struct xcall *mx; /* innermost is a join/concat/getopt call, not a field */
};

/* An argument of a call as written: a field (with its transformers or a call
 * of its own), a quoted string or number, or a parenthesised list of those. */
enum xarg_kind { XA_FIELD, XA_CONST, XA_LIST };

struct xarg {
	int kind;
	size_t off;
	struct fref f; /* XA_FIELD */
	char *s; /* XA_CONST */
	struct xarg *items; /* XA_LIST */
	size_t nitems;
};

struct xcall {
	int xf; /* enum xform, an XA_MULTI one */
	char sel; /* getopt(...)[c]: the one option c's value; 0 for the list */
	size_t off;
	struct xarg *args;
	size_t nargs;
};

struct ast {
	int kind;
	size_t off;
	const struct text *src;
	struct ast *l, *r;
	/* A_CMP */
	struct fref lhs;
	int op;
	int has_rfield;
	struct fref rhs;
	char **vals;
	int *valquoted;
	size_t nvals;
	int is_list;
	/* A_MACRO */
	char *name;
	const struct macro_def *m;
	/* A_CONST */
	int val;
};

/* Parser lookups */
struct cond_env {
	struct list_def *lists;
	size_t nlists;
	struct macro_def *macros;
	size_t nmacros; /* visible: macros[0..nmacros) */
};

/* Parse t; on error writes a message and the offset. */
int parse_cond(const struct text *t, const struct cond_env *env, struct ast **out, char *msg,
	       size_t msgsz, size_t *erroff);
void parse_free(struct ast *a);
/* One comparison from its parts, as an exception gives them: the field (a
 * transformer allowed), the operator and the values (a set for in,
 * intersects, pmatch; one value otherwise; val(f) or a transformer alone
 * compares fields). Nodes point at src. 0, -EINVAL (msg) or -ENOMEM. */
int parse_cmp_parts(const struct cond_env *env, const struct text *src, const char *field,
		    const char *op, const char *const *vals, size_t nvals, struct ast **out,
		    char *msg, size_t msgsz);
/* Does the condition (its macros included) compare field name? */
int parse_uses_field(const struct ast *a, const char *name, int depth);

/* Compile into e's slots/cmps, appending code to *code. Errors: message,
 * offending node; *unsupported set when the cause is a Falco field or event
 * type we do not have (the rule is then skipped, not an error). */
struct cond_err {
	char msg[ENGINE_MSG_MAX];
	const struct ast *at;
	int unsupported;
	/* the first warning of a compile that succeeded, and where */
	char warn[ENGINE_MSG_MAX];
	const struct ast *warn_at;
};
/* constchk.c: the load warnings a constant gets (the first of a compile
 * into err->warn), and the guard of a regex: 0, or -1 with why. */
void constchk_warn(const struct ast *a, const char *v, struct cond_err *err);
int constchk_regex(const char *v, char *why, size_t n);
int compile_cond(struct engine *e, const struct ast *a, struct insn **code, size_t *ncode,
		 struct scset *evmask, int *evtype_named, struct cond_err *err);
/* slot.c: the slot of f (shared when equal), or -errno with err */
int slot_find(struct engine *e, const struct fref *f, struct cond_err *err);
/* slot.c: the slot k describes, an existing equal one or a new one (k's
 * margs then belong to it; else the caller frees them); or -ENOMEM */
int slot_add(struct engine *e, const struct slot *k);
void slot_free(struct slot *s);
/* xcall.c: the slot of a join/concat/getopt call, its arguments checked as
 * libsinsp checks them; or -errno with err */
int xcall_slot(struct engine *e, const struct xcall *x, struct cond_err *err);
struct evctx;
/* xcall.c: a call slot's value for this event, into its buffer */
void xcall_fill(struct evctx *c, struct slot *s);
/* parse_operand.c: a field reference's allocations (its call's too) */
void parse_fref_free(struct fref *f);
#define CHECK_T_IP 3 /* the check type of an IP address field: bit 1 << 3 is OT_IP */
#define CHECK_T_NET 5 /* the check type of an IP network field (FF_NET): bit 1 << 5 is OT_NET */
/* the type an operator is checked against (ops.h OT_*): the slot's, but an
 * IP address field apart from other strings, as libsinsp has it */
int slot_check_type(const struct slot *sl);
const char *slot_check_type_name(int t);
/* an IP address constant as the field prints it (inet_ntop), or NULL */
char *slot_ip_canonical(const char *v);
/* a network constant, a.b.c.d/len or an IPv6 one (a bare address: all its
 * bits); 0, or -EINVAL when v is none */
int slot_ip_net(const char *v, struct ipnet *n);
/* specialise.c: how eval.c answers a compiled comparison against constants
 * (its kind, table, per-syscall fold, field read in place). 0 or -ENOMEM. */
int specialise_cmp(struct cmp *c, const struct slot *sl);
/* The decision graph of code (jumps only go forward). Returns 0 or -ENOMEM. */
int specialise_graph(const struct insn *code, size_t ncode, struct bnode **graph, int32_t *entry);
/* r->entry_sc and r->graph_sc from r->entry and r->graph, past comparisons
 * each syscall folds. Returns 0 or -ENOMEM. */
int specialise_entries(const struct engine *e, struct rule *r);
void compile_free_cmp(struct cmp *c);

/* eval.c */
struct evctx {
	struct engine *e;
	const struct event *ev;
	const struct proctable *pt;
	const struct proc_entry *pe;
	int pe_done;
	unsigned sc; /* the event's syscall; AS_SC_NONE when it is not of its type */
	uint32_t gen; /* e->gen for this event */
	uint32_t ocls; /* an open: EVAL_OCLS_OPEN | engine_open_class; else 0 */
	int agent_done; /* agent_idx is known */
	int agent_idx; /* the nearest agent in the lineage, -1: none */
};
int eval_rule(struct evctx *c, const struct rule *r);
/* A comparison against a constant value (no val() on the right). */
int eval_cmp_const(const struct cmp *c, const struct fval *v);
void fields_extract(struct evctx *c, int f, int32_t idx, const char *arg, struct fval *v,
		    char *buf, size_t cap);
/* The indexes a field with FA_ANY and no index ranges over: first..return
 * value (empty when below first). */
int fields_any_range(struct evctx *c, int f, int *first);
/* Fields read straight from the record (no buffer, no process table): for
 * such a field of this event fill v and return 1, else 0 (fields_extract then
 * works it out). fields_direct_ok(f): f may be one. */
int fields_direct(const struct event *ev, int f, int32_t idx, struct fval *v);
int fields_direct_ok(int f);
/* The value of field f in every event of syscall sc, when the syscall fixes
 * it (1, *v set); else 0. */
int fields_fixed(int f, unsigned sc, struct fval *v);
const struct fval *eval_slot(struct evctx *c, int slot);

/* output.c (at load) and output_alert.c (per alert) */
int output_compile(struct engine *e, struct rule *r, const struct text *t, struct cond_err *err,
		   char *warn, size_t warnsz);
/* The constant pieces of every alert line: the engine's (hostname) and a
 * compiled rule's (keys, priority, name, source, tags). 0 or -ENOMEM. */
int output_init(struct engine *e);
int output_prepare(struct rule *r);
void output_alert(struct evctx *c, const struct rule *r, FILE *out);
void output_value_text(const struct fval *v, int field, char *buf, size_t cap);
/* A field's value in JSON, as output_fields has it (after its key). */
struct jw;
void output_json_value(struct jw *w, const struct fval *v);
/* r's output text alone, as --text shows it (control bytes as \xNN), into
 * buf (NUL-terminated, cut at cap); returns its length. */
size_t output_format(struct evctx *c, const struct rule *r, char *buf, size_t cap);

/* dump.c */
void dump_rule(const struct engine *e, const struct rule *r, FILE *out);

#endif /* AS_RULES_H */
