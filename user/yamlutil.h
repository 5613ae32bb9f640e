/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What the configuration (config.c) and the rules (rules/keys.c) read from
 * YAML scalars the same way. */
#ifndef AS_YAMLUTIL_H
#define AS_YAMLUTIL_H

/* A YAML 1.1 boolean as yaml-cpp, Falco's reader of both, takes it: true,
 * yes, on, y and false, no, off, n, in any case. 0 (*out 1 or 0), or
 * -EINVAL when s is none of them. */
int yamlutil_bool(const char *s, int *out);

#endif /* AS_YAMLUTIL_H */
