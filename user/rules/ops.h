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

/* The operand types an operator accepts: bit 1 << t of each check type t
 * (enum ftype, then the two classes Falco tells apart among strings). */
#define OT_STR 1u
#define OT_NUM 2u
#define OT_BOOL 4u
#define OT_IP 8u /* an IP address field (FF_IP): Falco's PT_IPADDR */
#define OT_BUF 16u /* a byte buffer (Falco's PT_BYTEBUF); no field of ours is one */
#define OT_NET 32u /* an IP network field (FF_NET): Falco's PT_IPNET */
#define OT_ALL (OT_STR | OT_NUM | OT_BOOL | OT_IP | OT_BUF | OT_NET)

/* operator facts */
#define OF_FIELD_RHS 1u /* a field (val() or a transformer) may stand on the right */
#define OF_HEX 2u /* the constant is written as hex bytes */
#define OF_REGEX 4u /* the constant is an extended regular expression */
#define OF_MODIFIER 8u /* takes a list modifier (MOD_LIST): op oneof|anyof|allof (v1, ...) */

/*
 * OP(id, text, kind, types, flags). The types are libsinsp's
 * flt_is_comparable (filter_compare.cpp): strings take every operator but
 * the byte ones, numbers =, !=, ordering and the sets, booleans and IP
 * addresses and networks =, != and the sets, buffers the byte operators.
 */
#define OP_LIST(OP)                                                                      \
	OP(EXISTS, "exists", OK_UNARY, OT_ALL, 0)                                         \
	OP(EQ, "=", OK_SCALAR, OT_STR | OT_NUM | OT_BOOL | OT_IP | OT_BUF | OT_NET, OF_FIELD_RHS | OF_MODIFIER)  \
	OP(EQ2, "==", OK_SCALAR, OT_STR | OT_NUM | OT_BOOL | OT_IP | OT_BUF | OT_NET, OF_FIELD_RHS | OF_MODIFIER) \
	OP(NE, "!=", OK_SCALAR, OT_STR | OT_NUM | OT_BOOL | OT_IP | OT_BUF | OT_NET, OF_FIELD_RHS | OF_MODIFIER)  \
	OP(LT, "<", OK_SCALAR, OT_STR | OT_NUM, OF_FIELD_RHS | OF_MODIFIER)                             \
	OP(LE, "<=", OK_SCALAR, OT_STR | OT_NUM, OF_FIELD_RHS | OF_MODIFIER)                            \
	OP(GT, ">", OK_SCALAR, OT_STR | OT_NUM, OF_FIELD_RHS | OF_MODIFIER)                             \
	OP(GE, ">=", OK_SCALAR, OT_STR | OT_NUM, OF_FIELD_RHS | OF_MODIFIER)                            \
	OP(CONTAINS, "contains", OK_SCALAR, OT_STR | OT_BUF, OF_FIELD_RHS | OF_MODIFIER)                \
	OP(ICONTAINS, "icontains", OK_SCALAR, OT_STR, OF_FIELD_RHS | OF_MODIFIER)                       \
	OP(BCONTAINS, "bcontains", OK_SCALAR, OT_BUF, OF_HEX | OF_MODIFIER)                             \
	OP(STARTSWITH, "startswith", OK_SCALAR, OT_STR | OT_BUF, OF_FIELD_RHS | OF_MODIFIER)            \
	OP(BSTARTSWITH, "bstartswith", OK_SCALAR, OT_BUF, OF_HEX | OF_MODIFIER)                         \
	OP(ENDSWITH, "endswith", OK_SCALAR, OT_STR | OT_BUF, OF_FIELD_RHS | OF_MODIFIER)                \
	OP(GLOB, "glob", OK_SCALAR, OT_STR, OF_FIELD_RHS | OF_MODIFIER)                             \
	OP(IGLOB, "iglob", OK_SCALAR, OT_STR, OF_FIELD_RHS | OF_MODIFIER)                           \
	OP(REGEX, "regex", OK_SCALAR, OT_STR, OF_REGEX | OF_MODIFIER)                                   \
	OP(IN, "in", OK_LIST, OT_STR | OT_NUM | OT_BOOL | OT_IP | OT_NET, OF_FIELD_RHS)            \
	OP(INTERSECTS, "intersects", OK_LIST, OT_STR | OT_NUM | OT_BOOL | OT_IP | OT_NET, OF_FIELD_RHS) \
	OP(PMATCH, "pmatch", OK_LIST, OT_STR, OF_FIELD_RHS)

#define OP_ENUM(id, text, kind, types, flags) OP_##id,
enum op_id { OP_LIST(OP_ENUM) OP_MAX };
#undef OP_ENUM

struct op_info {
	const char *text;
	int kind;
	unsigned types;
	unsigned flags;
};

extern const struct op_info ops_table[OP_MAX];

/*
 * The field transformers: XFORM(id, name, result, args). A one-argument
 * transformer (XA_ONE) takes a string (libsinsp's PT_CHARBUF/FSPATH; b64 a
 * byte buffer too, which we lack) and gives a value of type result (enum
 * ftype): eval.c xform_apply. Falco 0.44's multivalue transformers (XA_MULTI,
 * libs sinsp_filtercheck_multivalue_transformer.cpp) take several arguments,
 * fields, quoted strings or lists of them: xcall.c checks and evaluates them.
 */
#define XA_ONE 0
#define XA_MULTI 1

#define XFORM_LIST(XFORM)                            \
	XFORM(TOLOWER, "tolower", T_STR, XA_ONE)     \
	XFORM(TOUPPER, "toupper", T_STR, XA_ONE)     \
	XFORM(BASENAME, "basename", T_STR, XA_ONE)   \
	XFORM(LEN, "len", T_NUM, XA_ONE)             \
	XFORM(B64, "b64", T_STR, XA_ONE)             \
	XFORM(JOIN, "join", T_STR, XA_MULTI)         \
	XFORM(CONCAT, "concat", T_STR, XA_MULTI)     \
	XFORM(GETOPT, "getopt", T_STR, XA_MULTI)

#define XFORM_ENUM(id, name, result, args) XF_##id,
enum xform { XF_NONE, XFORM_LIST(XFORM_ENUM) XF_MAX };
#undef XFORM_ENUM

struct xform_info {
	const char *name;
	int result; /* enum ftype */
	int args; /* XA_ONE or XA_MULTI */
};

extern const struct xform_info xforms_table[XF_MAX];

/*
 * The list modifiers of Falco 0.44 (libs filterchecks' FILTERCHECK_MOD
 * tests): field op MOD (v1, ..., vn) stands for the n comparisons field op
 * vi, true when exactly one (oneof), at least one (anyof) or every one
 * (allof) holds; with no values it is false. MOD(id, keyword).
 */
#define MOD_LIST(MOD)        \
	MOD(ONEOF, "oneof") \
	MOD(ANYOF, "anyof") \
	MOD(ALLOF, "allof")

#define MOD_ENUM(id, kw) MOD_##id,
enum op_mod { MOD_LIST(MOD_ENUM) MOD_MAX };
#undef MOD_ENUM

extern const char *const mods_table[MOD_MAX];

/* Match an operator at s (longest symbol, or a whole word); returns the op
 * and its length in *len, or -1. */
int ops_match(const char *s, size_t *len);

#endif /* AS_OPS_H */
