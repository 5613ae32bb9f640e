// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * containerd's gRPC API (api/services/{namespaces,containers,images}/v1):
 * the container's namespace is not in its cgroup path in general, so the
 * namespaces are listed and the id asked for in each; then its image's
 * digest, and for a CRI container its pod sandbox's labels.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chttp.h"
#include "pb.h"
#include "sources.h"

#define CSRC_NS_MAX 32 /* namespaces tried; a host has default, k8s.io, moby, a few more */
#define CSRC_NS_LEN 256 /* a namespace name: containerd allows 76 characters */
#define CSRC_REQ_MAX 1024

#define CSRC_LIST_NS "/containerd.services.namespaces.v1.Namespaces/List"
#define CSRC_GET_CONTAINER "/containerd.services.containers.v1.Containers/Get"
#define CSRC_GET_IMAGE "/containerd.services.images.v1.Images/Get"
#define CSRC_GRPC_NOT_FOUND 5

/* CRI annotations on a container's OCI spec (containerd's pkg/cri/annotations) */
#define CSRC_CRI_SANDBOX "io.kubernetes.cri.sandbox-id"
#define CSRC_CRI_POD "io.kubernetes.cri.sandbox-name"
#define CSRC_CRI_NS "io.kubernetes.cri.sandbox-namespace"
#define CSRC_CRI_UID "io.kubernetes.cri.sandbox-uid"
#define CSRC_CRI_NAME "io.kubernetes.cri.container-name"
#define CSRC_CRI_IMAGE "io.kubernetes.cri.image-name"

struct csrc_container {
	struct pb_field labels[CMETA_LABELS_MAX];
	size_t nlabels;
	struct pb_field image, spec;
};

static int list_namespaces(const char *socket, uint32_t timeout_ms, char ns[][CSRC_NS_LEN],
			   size_t *n, char *err, size_t cap)
{
	struct chttp_resp r;
	struct pb rd;
	struct pb_field f, g;
	int k;

	*n = 0;
	if (chttp_grpc(socket, CSRC_LIST_NS, NULL, (const uint8_t *)"", 0, timeout_ms, &r)) {
		snprintf(err, cap, "%s: %s", socket, r.err);
		return -EIO;
	}
	if (r.status) {
		snprintf(err, cap, "%s: listing namespaces: grpc-status %ld", socket, r.status);
		chttp_resp_free(&r);
		return -EIO;
	}
	rd = pb_of(r.body, r.len);
	while ((k = pb_next(&rd, &f)) == 1 && *n < CSRC_NS_MAX) {
		struct pb in;

		if (f.num != 1 || f.wire != 2)
			continue;
		in = pb_of(f.data, f.len);
		while (pb_next(&in, &g) == 1)
			if (g.num == 1 && g.wire == 2 && g.len && g.len < CSRC_NS_LEN)
				pb_str(&g, ns[(*n)++], CSRC_NS_LEN);
	}
	chttp_resp_free(&r);
	if (k < 0) {
		snprintf(err, cap, "%s: malformed namespace list", socket);
		return -EIO;
	}
	return 0;
}

/* GetContainerResponse.container's fields we use; r keeps the bytes. */
static int parse_container(const struct chttp_resp *r, struct csrc_container *c)
{
	struct pb rd = pb_of(r->body, r->len), in;
	struct pb_field f, g;
	int k;

	memset(c, 0, sizeof(*c));
	while ((k = pb_next(&rd, &f)) == 1)
		if (f.num == 1 && f.wire == 2)
			break;
	if (k != 1)
		return -1;
	in = pb_of(f.data, f.len);
	while ((k = pb_next(&in, &g)) == 1) {
		if (g.wire != 2)
			continue;
		if (g.num == 2 && c->nlabels < CMETA_LABELS_MAX)
			c->labels[c->nlabels++] = g;
		else if (g.num == 3)
			c->image = g;
		else if (g.num == 5)
			c->spec = g;
	}
	return k < 0 ? -1 : 0;
}

/* A map<string,string> entry: key 1, value 2. */
static int map_entry(const struct pb_field *e, char *key, size_t kcap, char *val, size_t vcap)
{
	struct pb in = pb_of(e->data, e->len);
	struct pb_field f;
	int k;

	key[0] = val[0] = 0;
	while ((k = pb_next(&in, &f)) == 1) {
		if (f.num == 1 && f.wire == 2)
			pb_str(&f, key, kcap);
		else if (f.num == 2 && f.wire == 2)
			pb_str(&f, val, vcap);
	}
	return k < 0 || !key[0] ? -1 : 0;
}

static int get_container(const char *socket, const char *ns, const char *id, uint32_t timeout_ms,
			 struct chttp_resp *r, char *err, size_t cap)
{
	uint8_t req[CSRC_REQ_MAX];
	size_t len = 0;

	if (pb_put_str(req, sizeof(req), &len, 1, id))
		return -EINVAL;
	if (chttp_grpc(socket, CSRC_GET_CONTAINER, ns, req, len, timeout_ms, r)) {
		snprintf(err, cap, "%s: %s", socket, r->err);
		return -EIO;
	}
	if (r->status == CSRC_GRPC_NOT_FOUND) {
		chttp_resp_free(r);
		return -ENOENT;
	}
	if (r->status) {
		snprintf(err, cap, "%s: getting container: grpc-status %ld", socket, r->status);
		chttp_resp_free(r);
		return -EIO;
	}
	return 0;
}

/* Images/Get: GetImageResponse{image=1: Image{target=3: Descriptor{digest=2}}}. */
static void image_digest(struct cmeta *m, const char *socket, const char *ns, const char *image,
			 uint32_t timeout_ms)
{
	uint8_t req[CSRC_REQ_MAX];
	size_t len = 0;
	struct chttp_resp r;
	struct pb rd;
	struct pb_field f;
	char digest[CMETA_STR_MAX];

	if (pb_put_str(req, sizeof(req), &len, 1, image) ||
	    chttp_grpc(socket, CSRC_GET_IMAGE, ns, req, len, timeout_ms, &r))
		return;
	rd = pb_of(r.body, r.len);
	digest[0] = 0;
	for (int depth = 0; !r.status && depth < 3; depth++) {
		static const uint32_t path[3] = { 1, 3, 2 };
		int k;

		while ((k = pb_next(&rd, &f)) == 1 && !(f.num == path[depth] && f.wire == 2))
			;
		if (k != 1)
			break;
		if (depth == 2)
			pb_str(&f, digest, sizeof(digest));
		rd = pb_of(f.data, f.len);
	}
	if (!strncmp(digest, "sha256:", 7))
		cmeta_set(&m->image_digest, digest);
	chttp_resp_free(&r);
}

/* The labels of the pod's sandbox container, as k8s.pod.labels. */
static void sandbox_labels(struct cmeta *m, const char *socket, const char *ns, const char *sandbox,
			   uint32_t timeout_ms)
{
	struct chttp_resp r;
	struct csrc_container *c = malloc(sizeof(*c));
	char err[8], key[CMETA_STR_MAX], val[CMETA_STR_MAX];

	if (!c)
		return;
	if (get_container(socket, ns, sandbox, timeout_ms, &r, err, sizeof(err))) {
		free(c);
		return;
	}
	if (!parse_container(&r, c))
		for (size_t i = 0; i < c->nlabels; i++)
			if (!map_entry(&c->labels[i], key, sizeof(key), val, sizeof(val)) &&
			    !cmeta_is_runtime_label(key))
				cmeta_label(m, 1, key, val);
	chttp_resp_free(&r);
	free(c);
}

static int build(struct cmeta *m, const struct csrc_container *c, const char *id)
{
	char key[CMETA_STR_MAX], val[CMETA_STR_MAX];
	int rc = 0;

	for (size_t i = 0; i < c->nlabels; i++)
		if (!map_entry(&c->labels[i], key, sizeof(key), val, sizeof(val)))
			rc |= cmeta_label(m, 0, key, val);
	if (c->image.data) {
		pb_str(&c->image, val, sizeof(val));
		rc |= cmeta_set(&m->image, val);
	}
	if (c->spec.data) {
		/* google.protobuf.Any: type_url 1, value 2 (the spec as JSON) */
		struct pb in = pb_of(c->spec.data, c->spec.len);
		struct pb_field f;

		while (pb_next(&in, &f) == 1)
			if (f.num == 2 && f.wire == 2)
				rc |= src_oci_spec(m, (const char *)f.data, f.len);
	}
	if (!m->name)
		rc |= cmeta_set(&m->name, cmeta_label_get(m, 0, "nerdctl/name"));
	if (!m->name)
		rc |= cmeta_set(&m->name, id); /* ctr run: the id is the name given */
	return rc ? -ENOMEM : 0;
}

int src_containerd(const char *socket, const char *id, uint32_t timeout_ms, struct cmeta **out,
		   char *err, size_t cap)
{
	char (*ns)[CSRC_NS_LEN] = malloc(CSRC_NS_MAX * sizeof(*ns));
	struct csrc_container *c = malloc(sizeof(*c));
	struct chttp_resp r;
	size_t n = 0, i;
	struct cmeta *m = NULL;
	int rc = -ENOMEM;

	*out = NULL;
	if (!ns || !c)
		goto out;
	rc = list_namespaces(socket, timeout_ms, ns, &n, err, cap);
	if (rc)
		goto out;
	rc = -ENOENT;
	for (i = 0; i < n && rc == -ENOENT; i++)
		rc = get_container(socket, ns[i], id, timeout_ms, &r, err, cap);
	if (rc)
		goto out;
	i--;
	if (parse_container(&r, c)) {
		snprintf(err, cap, "%s: malformed container", socket);
		rc = -EIO;
	} else if (!(m = cmeta_new(CGPATH_CONTAINERD)) || build(m, c, id)) {
		snprintf(err, cap, "%s", strerror(ENOMEM));
		rc = -ENOMEM;
	}
	chttp_resp_free(&r);
	if (rc)
		goto out;
	if (m->image)
		image_digest(m, socket, ns[i], m->image, timeout_ms);
	if (m->sandbox_id && strcmp(m->sandbox_id, id))
		sandbox_labels(m, socket, ns[i], m->sandbox_id, timeout_ms);
	else if (m->sandbox_id) /* the sandbox itself: its labels are the pod's */
		for (size_t k = 0; k < m->nlabels; k++)
			if (!cmeta_is_runtime_label(m->labels[k].key))
				cmeta_label(m, 1, m->labels[k].key, m->labels[k].value);
	if (cmeta_finish(m)) {
		snprintf(err, cap, "%s", strerror(ENOMEM));
		rc = -ENOMEM;
	}
out:
	if (rc) {
		cmeta_free(m);
		m = NULL;
	}
	*out = m;
	free(ns);
	free(c);
	return rc;
}

/* ---- the OCI runtime spec ---- */

static json_object *jget(json_object *o, const char *key, json_type t)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, t))
		return NULL;
	return v;
}

static const char *jstr(json_object *o, const char *key)
{
	json_object *v = jget(o, key, json_type_string);

	return v ? json_object_get_string(v) : NULL;
}

/* A mount's propagation and rw from its options ("rbind", "ro", "rprivate"...). */
static void mount_opts(json_object *opts, int *rw, const char **prop)
{
	static const char *const props[] = { "private", "rprivate", "shared", "rshared",
					     "slave", "rslave" };

	*rw = 1;
	*prop = "";
	for (size_t i = 0; opts && i < json_object_array_length(opts); i++) {
		json_object *o = json_object_array_get_idx(opts, i);
		const char *s = json_object_is_type(o, json_type_string) ? json_object_get_string(o) : "";

		if (!strcmp(s, "ro"))
			*rw = 0;
		for (size_t k = 0; k < sizeof(props) / sizeof(props[0]); k++)
			if (!strcmp(s, props[k]))
				*prop = props[k];
	}
}

static int has_opt(json_object *mount, const char *opt)
{
	json_object *opts = jget(mount, "options", json_type_array);

	for (size_t i = 0; opts && i < json_object_array_length(opts); i++) {
		json_object *o = json_object_array_get_idx(opts, i);

		if (json_object_is_type(o, json_type_string) && !strcmp(json_object_get_string(o), opt))
			return 1;
	}
	return 0;
}

int src_oci_spec(struct cmeta *m, const char *json, size_t len)
{
	struct json_tokener *tok;
	json_object *o, *ann, *proc, *caps, *bounding, *masked, *mounts, *lin;
	int rc = 0, sys_admin = 0;

	if (len > CHTTP_RESPONSE_MAX || !(tok = json_tokener_new()))
		return 0;
	o = json_tokener_parse_ex(tok, json, (int)len);
	json_tokener_free(tok);
	if (!o || !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return 0; /* no spec: the fields it gives stay unknown */
	}
	ann = jget(o, "annotations", json_type_object);
	rc |= cmeta_set(&m->name, jstr(ann, CSRC_CRI_NAME));
	rc |= cmeta_set(&m->pod_name, jstr(ann, CSRC_CRI_POD));
	rc |= cmeta_set(&m->pod_namespace, jstr(ann, CSRC_CRI_NS));
	rc |= cmeta_set(&m->pod_uid, jstr(ann, CSRC_CRI_UID));
	rc |= cmeta_set(&m->sandbox_id, jstr(ann, CSRC_CRI_SANDBOX));
	if (!m->image)
		rc |= cmeta_set(&m->image, jstr(ann, CSRC_CRI_IMAGE));
	/* privileged, as ctr --privileged and the CRI make it: CAP_SYS_ADMIN in
	 * the bounding set and no masked paths */
	proc = jget(o, "process", json_type_object);
	caps = jget(proc, "capabilities", json_type_object);
	bounding = jget(caps, "bounding", json_type_array);
	for (size_t i = 0; bounding && i < json_object_array_length(bounding); i++) {
		json_object *c = json_object_array_get_idx(bounding, i);

		if (json_object_is_type(c, json_type_string) &&
		    !strcmp(json_object_get_string(c), "CAP_SYS_ADMIN"))
			sys_admin = 1;
	}
	lin = jget(o, "linux", json_type_object);
	masked = jget(lin, "maskedPaths", json_type_array);
	if (proc)
		m->privileged = sys_admin && (!masked || json_object_array_length(masked) == 0);
	mounts = jget(o, "mounts", json_type_array);
	for (size_t i = 0; mounts && i < json_object_array_length(mounts); i++) {
		json_object *e = json_object_array_get_idx(mounts, i);
		const char *src, *dst, *type, *prop;
		int rw;

		if (!json_object_is_type(e, json_type_object))
			continue;
		src = jstr(e, "source");
		dst = jstr(e, "destination");
		type = jstr(e, "type");
		/* binds are the container's mounts in Falco's sense; proc, sysfs,
		 * tmpfs, devpts and mqueue are the runtime's own */
		if (!(type && !strcmp(type, "bind")) && !has_opt(e, "bind") && !has_opt(e, "rbind"))
			continue;
		mount_opts(jget(e, "options", json_type_array), &rw, &prop);
		rc |= cmeta_mount(m, src, dst, "", rw, prop);
	}
	json_object_put(o);
	return rc ? -ENOMEM : 0;
}
