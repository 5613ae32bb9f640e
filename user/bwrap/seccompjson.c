// SPDX-License-Identifier: MIT
/*
 * OCI seccomp profile -> libseccomp -> BPF.
 *
 * Supported: defaultAction, defaultErrnoRet, architectures, archMap (the entry
 * of the native architecture and its subArchitectures), syscalls[] with names
 * (or name), action, errnoRet and args (index, value, valueTwo, op). Keys that
 * start with '_' or are "comment" are ignored.
 *
 * clone3: container runtimes cannot filter clone3's flags (they sit in a
 * struct behind a pointer), so a clone3 rule with argument filters, or no
 * clone3 rule at all under a denying default, becomes ERRNO(ENOSYS): libc then
 * falls back to clone(2), whose flags the profile does filter.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <seccomp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bwlog.h"
#include "seccompjson.h"

/* Docker's default profile is about 20 KiB; anything near this is not a profile. */
#define SECCOMPJSON_FILE_MAX (4 << 20)
/* seccomp(2) sees six syscall arguments. */
#define SECCOMPJSON_ARGS_MAX 6
/* Longest architecture token ("SCMP_ARCH_MIPSEL64N32" is 21). */
#define SECCOMPJSON_ARCH_NAME_MAX 32
/* "archMap[N].subArchitectures[M]", "syscalls[N]": where an entry is. */
#define SECCOMPJSON_WHERE_MAX 96
/* An entry's place plus ".names[N]" or ".args[N]". */
#define SECCOMPJSON_AT_MAX (SECCOMPJSON_WHERE_MAX + 32)
/* json-c nesting limit: a profile is four levels deep. */
#define SECCOMPJSON_JSON_DEPTH 32

/* Every architecture token libseccomp may know, as seccomp_arch_resolve_name spells it. */
static const char *const seccompjson_arch_names[] = {
	"x86",	  "x86_64", "x32",    "arm",	"aarch64", "mips",    "mips64",
	"mips64n32", "mipsel", "mipsel64", "mipsel64n32", "ppc", "ppc64", "ppc64le",
	"s390",	  "s390x",  "parisc", "parisc64", "riscv64", "loongarch64", "m68k",
	"sh",	  "sheb",
};

#define SECCOMPJSON_ARCHES_MAX (sizeof(seccompjson_arch_names) / sizeof(seccompjson_arch_names[0]))

enum seccompjson_data { SJ_DATA_NONE, SJ_DATA_ERRNO, SJ_DATA_TRACE };

static const struct {
	const char *name;
	uint32_t action; /* without data */
	enum seccompjson_data data;
} seccompjson_actions[] = {
	{ "SCMP_ACT_ALLOW", SCMP_ACT_ALLOW, SJ_DATA_NONE },
	{ "SCMP_ACT_ERRNO", SCMP_ACT_ERRNO(0), SJ_DATA_ERRNO },
	{ "SCMP_ACT_KILL", SCMP_ACT_KILL, SJ_DATA_NONE },
	{ "SCMP_ACT_KILL_THREAD", SCMP_ACT_KILL_THREAD, SJ_DATA_NONE },
	{ "SCMP_ACT_KILL_PROCESS", SCMP_ACT_KILL_PROCESS, SJ_DATA_NONE },
	{ "SCMP_ACT_TRAP", SCMP_ACT_TRAP, SJ_DATA_NONE },
	{ "SCMP_ACT_TRACE", SCMP_ACT_TRACE(0), SJ_DATA_TRACE },
	{ "SCMP_ACT_LOG", SCMP_ACT_LOG, SJ_DATA_NONE },
};

static const struct {
	const char *name;
	enum scmp_compare op;
} seccompjson_ops[] = {
	{ "SCMP_CMP_NE", SCMP_CMP_NE }, { "SCMP_CMP_LT", SCMP_CMP_LT },
	{ "SCMP_CMP_LE", SCMP_CMP_LE }, { "SCMP_CMP_EQ", SCMP_CMP_EQ },
	{ "SCMP_CMP_GE", SCMP_CMP_GE }, { "SCMP_CMP_GT", SCMP_CMP_GT },
	{ "SCMP_CMP_MASKED_EQ", SCMP_CMP_MASKED_EQ },
};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

struct seccompjson {
	const char *path;
	scmp_filter_ctx ctx;
	uint32_t def_action;
	uint32_t def_errno; /* defaultErrnoRet, or EPERM */
	uint32_t arches[SECCOMPJSON_ARCHES_MAX]; /* in the filter */
	size_t narches;
	bool clone3_seen;
};

/* Error helpers: every message names the file and the entry. */
#define sj_malformed(sj, fmt, ...)                                                          \
	(bwlog_err("seccomp profile %s: " fmt, (sj)->path, ##__VA_ARGS__), -EBADMSG)
#define sj_unsupported(sj, fmt, ...)                                                        \
	(bwlog_err("seccomp profile %s: " fmt, (sj)->path, ##__VA_ARGS__), -EOPNOTSUPP)

static bool sj_ignored_key(const char *key)
{
	return key[0] == '_' || strcmp(key, "comment") == 0;
}

static int sj_read(const char *path, char **buf, size_t *len)
{
	struct stat st;
	ssize_t n;
	size_t off = 0;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		bwlog_err("seccomp profile %s: cannot open: %s", path, strerror(errno));
		return err == -ENOMEM ? err : -ENOENT;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size == 0 ||
	    st.st_size > SECCOMPJSON_FILE_MAX) {
		bwlog_err("seccomp profile %s: not a regular file of 1 byte to %d bytes", path,
			  SECCOMPJSON_FILE_MAX);
		close(fd);
		return -ENOENT;
	}
	*buf = malloc((size_t)st.st_size + 1);
	if (!*buf) {
		close(fd);
		bwlog_err("seccomp profile %s: out of memory", path);
		return -ENOMEM;
	}
	while (off < (size_t)st.st_size) {
		n = read(fd, *buf + off, (size_t)st.st_size - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			bwlog_err("seccomp profile %s: read failed: %s", path,
				  n < 0 ? strerror(errno) : "file shrank");
			err = -ENOENT;
			break;
		}
		off += (size_t)n;
	}
	close(fd);
	if (err) {
		free(*buf);
		*buf = NULL;
		return err;
	}
	(*buf)[off] = '\0';
	*len = off;
	return 0;
}

/* Line and column (1-based) of byte offset off. */
static void sj_position(const char *buf, size_t off, unsigned *line, unsigned *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off && buf[i]; i++) {
		if (buf[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

static int sj_parse(struct seccompjson *sj, const char *buf, size_t len, json_object **root)
{
	struct json_tokener *tok = json_tokener_new_ex(SECCOMPJSON_JSON_DEPTH);
	enum json_tokener_error jerr;
	unsigned line, col;
	size_t end;

	if (!tok) {
		bwlog_err("seccomp profile %s: out of memory", sj->path);
		return -ENOMEM;
	}
	*root = json_tokener_parse_ex(tok, buf, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	if (!*root && jerr == json_tokener_continue)
		jerr = json_tokener_error_parse_eof;
	if (jerr != json_tokener_success) {
		json_tokener_free(tok);
		json_object_put(*root);
		*root = NULL;
		sj_position(buf, end, &line, &col);
		return sj_malformed(sj, "line %u column %u: invalid JSON: %s", line, col,
				    json_tokener_error_desc(jerr));
	}
	json_tokener_free(tok);
	while (end < len && isspace((unsigned char)buf[end]))
		end++;
	if (end < len) {
		json_object_put(*root);
		*root = NULL;
		sj_position(buf, end, &line, &col);
		return sj_malformed(sj, "line %u column %u: text after the JSON object", line, col);
	}
	if (!json_object_is_type(*root, json_type_object)) {
		json_object_put(*root);
		*root = NULL;
		return sj_malformed(sj, "top level is not a JSON object");
	}
	return 0;
}

/* A non-negative integer member; *out untouched when absent. */
static int sj_get_u64(struct seccompjson *sj, json_object *obj, const char *key, const char *where,
		      bool *present, uint64_t *out)
{
	json_object *v;

	*present = json_object_object_get_ex(obj, key, &v) && v;
	if (!*present)
		return 0;
	if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
		return sj_malformed(sj, "%s.%s: expected a non-negative integer", where, key);
	*out = json_object_get_uint64(v);
	return 0;
}

static int sj_get_string(struct seccompjson *sj, json_object *obj, const char *key,
			 const char *where, bool required, const char **out)
{
	json_object *v;

	*out = NULL;
	if (!json_object_object_get_ex(obj, key, &v) || !v) {
		if (required)
			return sj_malformed(sj, "%s: missing \"%s\"", where, key);
		return 0;
	}
	if (!json_object_is_type(v, json_type_string))
		return sj_malformed(sj, "%s.%s: expected a string", where, key);
	*out = json_object_get_string(v);
	return 0;
}

/* An array member (null and absent are empty); *out NULL when empty. */
static int sj_get_array(struct seccompjson *sj, json_object *obj, const char *key,
			const char *where, json_object **out)
{
	json_object *v;

	*out = NULL;
	if (!json_object_object_get_ex(obj, key, &v) || !v)
		return 0;
	if (!json_object_is_type(v, json_type_array))
		return sj_malformed(sj, "%s.%s: expected an array", where, key);
	*out = v;
	return 0;
}

static int sj_action(struct seccompjson *sj, const char *name, const char *where, bool has_errno,
		     uint64_t errno_ret, uint32_t *action)
{
	for (size_t i = 0; i < ARRAY_LEN(seccompjson_actions); i++) {
		if (strcmp(name, seccompjson_actions[i].name) != 0)
			continue;
		switch (seccompjson_actions[i].data) {
		case SJ_DATA_NONE:
			if (has_errno)
				return sj_unsupported(sj, "%s: %s takes no errnoRet", where, name);
			*action = seccompjson_actions[i].action;
			return 0;
		case SJ_DATA_ERRNO:
			if (!has_errno)
				errno_ret = sj->def_errno;
			if (errno_ret > 0xffff)
				return sj_unsupported(sj, "%s: errnoRet %" PRIu64 " out of range",
						      where, errno_ret);
			*action = SCMP_ACT_ERRNO((uint32_t)errno_ret);
			return 0;
		case SJ_DATA_TRACE:
			if (errno_ret > 0xffff)
				return sj_unsupported(sj, "%s: errnoRet %" PRIu64 " out of range",
						      where, errno_ret);
			*action = SCMP_ACT_TRACE(has_errno ? (uint32_t)errno_ret : 0);
			return 0;
		}
	}
	return sj_unsupported(sj, "%s: unsupported action \"%s\"", where, name);
}

/* "SCMP_ARCH_X86_64" -> libseccomp token, 0 when unknown. */
static uint32_t sj_arch_resolve(const char *name)
{
	static const char prefix[] = "SCMP_ARCH_";
	char lower[SECCOMPJSON_ARCH_NAME_MAX];
	size_t i;

	if (strncmp(name, prefix, sizeof(prefix) - 1) != 0)
		return 0;
	name += sizeof(prefix) - 1;
	for (i = 0; name[i] && i + 1 < sizeof(lower); i++)
		lower[i] = (char)tolower((unsigned char)name[i]);
	if (name[i])
		return 0;
	lower[i] = '\0';
	return seccomp_arch_resolve_name(lower);
}

static int sj_arch_add(struct seccompjson *sj, json_object *name, const char *where)
{
	const char *s;
	uint32_t arch;
	int err;

	if (!json_object_is_type(name, json_type_string))
		return sj_malformed(sj, "%s: expected an architecture name", where);
	s = json_object_get_string(name);
	arch = sj_arch_resolve(s);
	if (!arch)
		return sj_unsupported(sj, "%s: unknown architecture \"%s\"", where, s);
	for (size_t i = 0; i < sj->narches; i++)
		if (sj->arches[i] == arch)
			return 0;
	err = seccomp_arch_add(sj->ctx, arch);
	if (err && err != -EEXIST)
		return sj_unsupported(sj, "%s: architecture \"%s\": %s", where, s, strerror(-err));
	if (sj->narches < ARRAY_LEN(sj->arches))
		sj->arches[sj->narches++] = arch;
	return 0;
}

/* "architectures" and the archMap entry of the native architecture. */
static int sj_arches(struct seccompjson *sj, json_object *root)
{
	json_object *list, *map, *entry, *arch, *subs;
	char where[SECCOMPJSON_WHERE_MAX];
	const char *name;
	int err;

	sj->arches[sj->narches++] = seccomp_arch_native();
	err = sj_get_array(sj, root, "architectures", "profile", &list);
	for (size_t i = 0; !err && list && i < json_object_array_length(list); i++) {
		snprintf(where, sizeof(where), "architectures[%zu]", i);
		err = sj_arch_add(sj, json_object_array_get_idx(list, i), where);
	}
	if (!err)
		err = sj_get_array(sj, root, "archMap", "profile", &map);
	for (size_t i = 0; !err && map && i < json_object_array_length(map); i++) {
		snprintf(where, sizeof(where), "archMap[%zu]", i);
		entry = json_object_array_get_idx(map, i);
		if (!json_object_is_type(entry, json_type_object))
			return sj_malformed(sj, "%s: expected an object", where);
		err = sj_get_string(sj, entry, "architecture", where, true, &name);
		if (err)
			return err;
		if (!sj_arch_resolve(name))
			return sj_unsupported(sj, "%s: unknown architecture \"%s\"", where, name);
		if (sj_arch_resolve(name) != seccomp_arch_native())
			continue;
		arch = json_object_object_get(entry, "architecture");
		err = sj_arch_add(sj, arch, where);
		if (!err)
			err = sj_get_array(sj, entry, "subArchitectures", where, &subs);
		for (size_t j = 0; !err && subs && j < json_object_array_length(subs); j++) {
			snprintf(where, sizeof(where), "archMap[%zu].subArchitectures[%zu]", i, j);
			err = sj_arch_add(sj, json_object_array_get_idx(subs, j), where);
		}
	}
	return err;
}

enum sj_where { SJ_UNKNOWN, SJ_FOREIGN, SJ_IN_FILTER };

/* Is the name a syscall on an architecture of this filter, only on others, or on none? */
static enum sj_where sj_syscall_where(const struct seccompjson *sj, const char *name)
{
	enum sj_where where = SJ_UNKNOWN;

	for (size_t j = 0; j < sj->narches; j++)
		if (seccomp_syscall_resolve_name_arch(sj->arches[j], name) >= 0)
			return SJ_IN_FILTER;
	for (size_t i = 0; i < ARRAY_LEN(seccompjson_arch_names); i++) {
		uint32_t arch = seccomp_arch_resolve_name(seccompjson_arch_names[i]);

		if (arch && seccomp_syscall_resolve_name_arch(arch, name) >= 0)
			where = SJ_FOREIGN;
	}
	return where;
}

static int sj_args(struct seccompjson *sj, json_object *args, const char *where,
		   struct scmp_arg_cmp *cmps, unsigned *ncmps, bool *split)
{
	bool seen[SECCOMPJSON_ARGS_MAX] = { false };
	char at[SECCOMPJSON_AT_MAX];
	json_object *arg;
	const char *opname;
	uint64_t index = 0, value = 0, value2 = 0;
	bool has;
	int err;

	*ncmps = 0;
	*split = false;
	if (!args)
		return 0;
	if (json_object_array_length(args) > SECCOMPJSON_ARGS_MAX)
		return sj_unsupported(sj, "%s.args: more than %d conditions", where,
				      SECCOMPJSON_ARGS_MAX);
	for (size_t i = 0; i < json_object_array_length(args); i++) {
		size_t k;

		snprintf(at, sizeof(at), "%s.args[%zu]", where, i);
		arg = json_object_array_get_idx(args, i);
		if (!json_object_is_type(arg, json_type_object))
			return sj_malformed(sj, "%s: expected an object", at);
		err = sj_get_u64(sj, arg, "index", at, &has, &index);
		if (!err && !has)
			return sj_malformed(sj, "%s: missing \"index\"", at);
		if (!err)
			err = sj_get_u64(sj, arg, "value", at, &has, &value);
		if (!err && !has)
			return sj_malformed(sj, "%s: missing \"value\"", at);
		value2 = 0;
		if (!err)
			err = sj_get_u64(sj, arg, "valueTwo", at, &has, &value2);
		if (!err)
			err = sj_get_string(sj, arg, "op", at, true, &opname);
		if (err)
			return err;
		if (index >= SECCOMPJSON_ARGS_MAX)
			return sj_unsupported(sj, "%s: index %" PRIu64 " beyond the %d arguments",
					      at, index, SECCOMPJSON_ARGS_MAX);
		for (k = 0; k < ARRAY_LEN(seccompjson_ops); k++)
			if (strcmp(opname, seccompjson_ops[k].name) == 0)
				break;
		if (k == ARRAY_LEN(seccompjson_ops))
			return sj_unsupported(sj, "%s: unsupported operator \"%s\"", at, opname);
		/* Two conditions on one argument: one rule each (runc does the same). */
		*split |= seen[index];
		seen[index] = true;
		cmps[*ncmps] = (struct scmp_arg_cmp){ .arg = (unsigned)index,
						      .op = seccompjson_ops[k].op,
						      .datum_a = value,
						      .datum_b = value2 };
		(*ncmps)++;
	}
	return 0;
}

static int sj_rule(struct seccompjson *sj, const char *name, const char *where, uint32_t action,
		   const struct scmp_arg_cmp *cmps, unsigned ncmps, bool split)
{
	int nr, err = 0;

	if (strcmp(name, "clone3") == 0) {
		sj->clone3_seen = true;
		if (ncmps) { /* flags behind a pointer: see the comment at the top */
			action = SCMP_ACT_ERRNO(ENOSYS);
			ncmps = 0;
		}
	}
	switch (sj_syscall_where(sj, name)) {
	case SJ_UNKNOWN:
		return sj_unsupported(sj, "%s: unknown syscall name \"%s\"", where, name);
	case SJ_FOREIGN:
		return 0; /* exists, but not on the architectures of this filter */
	case SJ_IN_FILTER:
		break;
	}
	if (action == sj->def_action)
		return 0; /* libseccomp refuses rules that repeat the default */
	nr = seccomp_syscall_resolve_name(name);
	if (!split) {
		err = seccomp_rule_add_array(sj->ctx, action, nr, ncmps, cmps);
	} else {
		for (unsigned i = 0; !err && i < ncmps; i++)
			err = seccomp_rule_add_array(sj->ctx, action, nr, 1, &cmps[i]);
	}
	if (err)
		return sj_unsupported(sj, "%s: syscall \"%s\": libseccomp refused the rule: %s",
				      where, name, strerror(-err));
	return 0;
}

static int sj_entry(struct seccompjson *sj, json_object *entry, size_t idx)
{
	struct scmp_arg_cmp cmps[SECCOMPJSON_ARGS_MAX];
	json_object *names, *args, *v;
	const char *action_name, *name;
	uint64_t errno_ret = 0;
	uint32_t action;
	unsigned ncmps;
	bool has_errno, split;
	char where[SECCOMPJSON_WHERE_MAX];
	int err;

	snprintf(where, sizeof(where), "syscalls[%zu]", idx);
	if (!json_object_is_type(entry, json_type_object))
		return sj_malformed(sj, "%s: expected an object", where);
	json_object_object_foreach(entry, key, val)
	{
		(void)val;
		if (sj_ignored_key(key) || !strcmp(key, "names") || !strcmp(key, "name") ||
		    !strcmp(key, "action") || !strcmp(key, "errnoRet") || !strcmp(key, "args"))
			continue;
		if ((!strcmp(key, "includes") || !strcmp(key, "excludes")) &&
		    (!val || (json_object_is_type(val, json_type_object) &&
			      json_object_object_length(val) == 0)))
			continue;
		return sj_unsupported(sj, "%s: unsupported key \"%s\"", where, key);
	}
	err = sj_get_string(sj, entry, "action", where, true, &action_name);
	if (!err)
		err = sj_get_u64(sj, entry, "errnoRet", where, &has_errno, &errno_ret);
	if (!err)
		err = sj_action(sj, action_name, where, has_errno, errno_ret, &action);
	if (!err)
		err = sj_get_array(sj, entry, "args", where, &args);
	if (!err)
		err = sj_args(sj, args, where, cmps, &ncmps, &split);
	if (!err)
		err = sj_get_array(sj, entry, "names", where, &names);
	if (err)
		return err;
	if (json_object_object_get_ex(entry, "name", &v) && v) {
		if (!json_object_is_type(v, json_type_string))
			return sj_malformed(sj, "%s.name: expected a string", where);
		err = sj_rule(sj, json_object_get_string(v), where, action, cmps, ncmps, split);
	}
	for (size_t i = 0; !err && names && i < json_object_array_length(names); i++) {
		char at[SECCOMPJSON_AT_MAX];

		snprintf(at, sizeof(at), "%s.names[%zu]", where, i);
		v = json_object_array_get_idx(names, i);
		if (!json_object_is_type(v, json_type_string))
			return sj_malformed(sj, "%s: expected a syscall name", at);
		name = json_object_get_string(v);
		err = sj_rule(sj, name, at, action, cmps, ncmps, split);
	}
	return err;
}

static int sj_profile(struct seccompjson *sj, json_object *root)
{
	json_object *syscalls = NULL;
	const char *def_name;
	uint64_t def_errno = EPERM;
	bool has;
	int err;

	json_object_object_foreach(root, key, val)
	{
		if (!strcmp(key, "flags") || !strcmp(key, "listenerPath") ||
		    !strcmp(key, "listenerMetadata")) {
			if (!val || (json_object_is_type(val, json_type_array) &&
				     json_object_array_length(val) == 0) ||
			    (json_object_is_type(val, json_type_string) &&
			     !*json_object_get_string(val)))
				continue;
			return sj_unsupported(sj, "\"%s\": not supported by bubblewrap's --seccomp",
					      key);
		}
	}
	err = sj_get_string(sj, root, "defaultAction", "profile", true, &def_name);
	if (!err)
		err = sj_get_u64(sj, root, "defaultErrnoRet", "profile", &has, &def_errno);
	if (err)
		return err;
	if (def_errno > 0xffff)
		return sj_unsupported(sj, "defaultErrnoRet %" PRIu64 " out of range", def_errno);
	sj->def_errno = (uint32_t)def_errno;
	err = sj_action(sj, def_name, "defaultAction", false, 0, &sj->def_action);
	if (err)
		return err;
	sj->ctx = seccomp_init(sj->def_action);
	if (!sj->ctx) {
		bwlog_err("seccomp profile %s: libseccomp cannot create a filter", sj->path);
		return -ENOMEM;
	}
	err = sj_arches(sj, root);
	if (!err)
		err = sj_get_array(sj, root, "syscalls", "profile", &syscalls);
	for (size_t i = 0; !err && syscalls && i < json_object_array_length(syscalls); i++)
		err = sj_entry(sj, json_object_array_get_idx(syscalls, i), i);
	if (err)
		return err;
	/* No clone3 rule under a denying default: ENOSYS, so libc falls back to clone. */
	if (!sj->clone3_seen && sj->def_action != SCMP_ACT_ALLOW && sj->def_action != SCMP_ACT_LOG)
		err = sj_rule(sj, "clone3", "clone3 fallback", SCMP_ACT_ERRNO(ENOSYS), NULL, 0,
			      false);
	return err;
}

static int sj_export(struct seccompjson *sj, int *fd)
{
	int err;

	*fd = memfd_create("agent-bwrap-seccomp", MFD_CLOEXEC);
	if (*fd < 0) {
		err = -errno;
		bwlog_err("seccomp: memfd_create for the BPF program failed: %s", strerror(errno));
		return err;
	}
	err = seccomp_export_bpf(sj->ctx, *fd);
	if (!err && lseek(*fd, 0, SEEK_SET) < 0)
		err = -errno;
	if (err) {
		bwlog_err("seccomp profile %s: exporting the BPF program failed: %s", sj->path,
			  strerror(-err));
		close(*fd);
		*fd = -1;
	}
	return err;
}

int seccompjson_compile(const char *path, int *fd)
{
	struct seccompjson sj = { .path = path };
	json_object *root = NULL;
	char *buf = NULL;
	size_t len = 0;
	int err;

	*fd = -1;
	err = sj_read(path, &buf, &len);
	if (!err)
		err = sj_parse(&sj, buf, len, &root);
	if (!err)
		err = sj_profile(&sj, root);
	if (!err)
		err = sj_export(&sj, fd);
	if (sj.ctx)
		seccomp_release(sj.ctx);
	json_object_put(root);
	free(buf);
	return err;
}
