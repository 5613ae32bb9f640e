/* SPDX-License-Identifier: MIT */
/*
 * The OCI seccomp profile (JSON) compiled with libseccomp to a classic BPF
 * program in a memfd, for bubblewrap's --seccomp FD.
 */
#ifndef AGENT_BWRAP_SECCOMPJSON_H
#define AGENT_BWRAP_SECCOMPJSON_H

/*
 * Compile the profile at path. On success *fd is a memfd (close-on-exec,
 * offset 0) holding the BPF program. Errors, each printed with the file and
 * the entry:
 *   -ENOENT     the file is missing, unreadable, empty or too large
 *   -EBADMSG    not JSON, or JSON that is not a seccomp profile
 *   -EOPNOTSUPP an entry cannot be honoured: unknown syscall name (on every
 *               architecture), action, architecture, operator or flag
 *   other       -errno of libseccomp or memfd_create
 */
int seccompjson_compile(const char *path, int *fd);

#endif
