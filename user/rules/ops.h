/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The comparison operators as data: one X-macro line per operator. */
#ifndef AS_OPS_H
#define AS_OPS_H

/* operand kinds */
enum op_kind {
	OK_UNARY, /* no value */
	OK_SCALAR, /* one value */
	OK_LIST, /* (v1, v2, ...) */
};

/* operand types an operator accepts */
#define OT_STR 1u
#define OT_NUM 2u
#define OT_BOOL 4u

/* OP(id, text, kind, types) */
#define OP_LIST(OP)                                              \
	OP(EXISTS, "exists", OK_UNARY, OT_STR | OT_NUM | OT_BOOL) \
	OP(EQ, "=", OK_SCALAR, OT_STR | OT_NUM | OT_BOOL)         \
	OP(EQ2, "==", OK_SCALAR, OT_STR | OT_NUM | OT_BOOL)       \
	OP(NE, "!=", OK_SCALAR, OT_STR | OT_NUM | OT_BOOL)        \
	OP(LT, "<", OK_SCALAR, OT_STR | OT_NUM)                   \
	OP(LE, "<=", OK_SCALAR, OT_STR | OT_NUM)                  \
	OP(GT, ">", OK_SCALAR, OT_STR | OT_NUM)                   \
	OP(GE, ">=", OK_SCALAR, OT_STR | OT_NUM)                  \
	OP(CONTAINS, "contains", OK_SCALAR, OT_STR)               \
	OP(ICONTAINS, "icontains", OK_SCALAR, OT_STR)             \
	OP(BCONTAINS, "bcontains", OK_SCALAR, OT_STR)             \
	OP(STARTSWITH, "startswith", OK_SCALAR, OT_STR)           \
	OP(BSTARTSWITH, "bstartswith", OK_SCALAR, OT_STR)         \
	OP(ENDSWITH, "endswith", OK_SCALAR, OT_STR)               \
	OP(GLOB, "glob", OK_SCALAR, OT_STR)                       \
	OP(IGLOB, "iglob", OK_SCALAR, OT_STR)                     \
	OP(REGEX, "regex", OK_SCALAR, OT_STR)                     \
	OP(IN, "in", OK_LIST, OT_STR | OT_NUM | OT_BOOL)          \
	OP(INTERSECTS, "intersects", OK_LIST, OT_STR | OT_NUM)    \
	OP(PMATCH, "pmatch", OK_LIST, OT_STR)

#define OP_ENUM(id, text, kind, types) OP_##id,
enum op_id { OP_LIST(OP_ENUM) OP_MAX };
#undef OP_ENUM

struct op_info {
	const char *text;
	int kind;
	unsigned types;
};

extern const struct op_info ops_table[OP_MAX];

/* Match an operator at s (longest symbol, or a whole word); returns the op
 * and its length in *len, or -1. */
int ops_match(const char *s, size_t *len);

#endif /* AS_OPS_H */
