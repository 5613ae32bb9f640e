/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Which container a process is in, from its cgroup paths alone: no file is
 * read and no runtime asked, so it runs on the event path (at every exec).
 *
 * Layouts recognised, cgroup v1 and v2 alike (each hierarchy is tried, the
 * unified one first), the innermost container winning when they nest
 * (docker in docker, a runtime in a pod):
 *   docker      /docker/<id>                       (cgroupfs driver)
 *               /system.slice/docker-<id>.scope    (systemd driver)
 *   containerd  .../cri-containerd-<id>.scope      (CRI, systemd driver)
 *               .../containerd-<id>.scope          (ctr --runc-systemd-cgroup)
 *   cri-o       .../crio-<id>.scope                (crio-conmon-<id>.scope is not a container)
 *   cri         /kubepods/<qos>/pod<uid>/<id>      (kubelet, cgroupfs driver)
 *   podman      /machine.slice/libpod-<id>.scope, /libpod_parent/libpod-<id>
 *               (libpod-conmon-<id> is the monitor, not a container)
 *   runc        any other path component that is a 64-hex id: runc or ctr run
 *               with a plain cgroups path (/<id>, /<namespace>/<id>); the
 *               runtime that knows the id refines the type later
 */
#ifndef AS_CGPATH_H
#define AS_CGPATH_H

#include <stddef.h>

#define CGPATH_ID_LEN 64 /* docker, containerd, cri-o and podman full ids: sha256 in hex */
#define CGPATH_SHORT_LEN 12 /* Falco's container.id */

/* container.type values; Falco's names, but for runc (Falco has none for it) */
#define CGPATH_TYPES(X)             \
	X(CGPATH_HOST, "host")      \
	X(CGPATH_DOCKER, "docker")  \
	X(CGPATH_CONTAINERD, "containerd") \
	X(CGPATH_CRIO, "cri-o")     \
	X(CGPATH_CRI, "cri")        \
	X(CGPATH_PODMAN, "podman")  \
	X(CGPATH_RUNC, "runc")

#define CGPATH_ENUM(id, name) id,
enum cgpath_type { CGPATH_TYPES(CGPATH_ENUM) CGPATH_NTYPES };
#undef CGPATH_ENUM

struct cgpath_id {
	enum cgpath_type type;
	char id[CGPATH_ID_LEN + 1]; /* full id; "" on the host */
};

/*
 * Parse a cgroups list ("name=path ... unified=path", as the process table
 * keeps it; a single bare path is accepted too). Returns the type; out->id
 * is the full id, "" for the host.
 */
enum cgpath_type cgpath_parse(const char *cgroups, struct cgpath_id *out);
const char *cgpath_type_name(enum cgpath_type t);

#endif /* AS_CGPATH_H */
