/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Where metadata comes from: one function per runtime API, each asking one
 * socket about one container, from the resolver thread. Each returns 0 and
 * the metadata, -ENOENT when the runtime does not know the id, or another
 * negative errno when the socket is missing, slow or answers nonsense (err
 * says which).
 *
 * docker, podman: the Docker Engine API (podman serves the same "compat"
 *   endpoints), GET /containers/ID/json and GET /images/IMAGE/json.
 * cri-o: its info endpoint, GET /containers/ID (the CRI itself is gRPC
 *   with a larger schema; the info endpoint has what the fields need).
 * containerd: its gRPC API (containerd.services.*.v1), unary calls over
 *   HTTP/2 with libcurl and a few lines of protobuf (pb.h). Debian's gRPC
 *   (libgrpc-dev 1.51) has a C API, but is 12 MB of C++ with abseil, re2,
 *   c-ares and libprotobuf (and protobuf-c for the messages) for three
 *   unary calls; reading containerd's bolt database or the shims' bundle
 *   directories instead would read private state that changes between
 *   versions, and a bundle's config.json lacks the labels and the image.
 */
#ifndef AS_SOURCES_H
#define AS_SOURCES_H

#include <stddef.h>
#include <stdint.h>
#include "cmeta.h"

int src_docker(const char *socket, const char *id, enum cgpath_type type, uint32_t timeout_ms,
	       struct cmeta **out, char *err, size_t cap);
int src_crio(const char *socket, const char *id, uint32_t timeout_ms, struct cmeta **out,
	     char *err, size_t cap);
int src_containerd(const char *socket, const char *id, uint32_t timeout_ms, struct cmeta **out,
		   char *err, size_t cap);

/* The OCI runtime spec (JSON) of a container: privileged, mounts, the CRI's
 * annotations. Shared by the sources that hand out the spec. */
int src_oci_spec(struct cmeta *m, const char *json, size_t len);

#endif /* AS_SOURCES_H */
