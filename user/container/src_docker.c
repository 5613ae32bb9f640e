// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The HTTP+JSON APIs: Docker Engine (docker, and podman's compatible
 * endpoints), and CRI-O's info endpoint. */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include "chttp.h"
#include "sources.h"

#define SRC_ID_CHARS "0123456789abcdefABCDEF"

static const char *jstr(json_object *o, const char *key)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static json_object *jobj(json_object *o, const char *key, json_type t)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, t))
		return NULL;
	return v;
}

static json_object *parse(const struct chttp_resp *r)
{
	struct json_tokener *tok = json_tokener_new();
	json_object *o;

	if (!tok)
		return NULL;
	o = json_tokener_parse_ex(tok, (const char *)r->body, (int)r->len);
	json_tokener_free(tok);
	if (o && !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* The one request of both APIs: GET /containers/<id><suffix> on socket.
 * 0 and the JSON object in *o; -ENOENT for no such container; -EINVAL,
 * -EIO with err saying why. */
static int get_container(const char *socket, const char *id, const char *suffix,
			 uint32_t timeout_ms, json_object **o, char *err, size_t cap)
{
	struct chttp_resp r;
	char path[128];

	*o = NULL;
	if (strlen(id) != CGPATH_ID_LEN || strspn(id, SRC_ID_CHARS) != CGPATH_ID_LEN) {
		snprintf(err, cap, "not a container id");
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "/containers/%s%s", id, suffix);
	if (chttp_get(socket, path, timeout_ms, &r)) {
		snprintf(err, cap, "%s: %s", socket, r.err);
		return -EIO;
	}
	if (r.status == 404) {
		chttp_resp_free(&r);
		return -ENOENT;
	}
	*o = r.status == 200 ? parse(&r) : NULL;
	if (!*o)
		snprintf(err, cap, "%s: HTTP %ld, %s", socket, r.status,
			 r.status == 200 ? "not a JSON object" : "no container");
	chttp_resp_free(&r);
	return *o ? 0 : -EIO;
}

/* The string labels of a JSON object into m's labels (kind 0). */
static int add_labels(struct cmeta *m, json_object *labels)
{
	int rc = 0;

	if (!labels)
		return 0;
	json_object_object_foreach(labels, k, v)
	{
		if (json_object_is_type(v, json_type_string))
			rc |= cmeta_label(m, 0, k, json_object_get_string(v));
	}
	return rc;
}

/* The digest of the image a container runs: the RepoDigests entry of its repository. */
static void image_digest(struct cmeta *m, const char *socket, const char *image, uint32_t timeout_ms)
{
	struct chttp_resp r;
	char path[600];
	json_object *o, *d;
	size_t n;

	if (!image || strlen(image) > 512 || strchr(image, '?') || strchr(image, '#'))
		return;
	snprintf(path, sizeof(path), "/images/%s/json", image);
	if (chttp_get(socket, path, timeout_ms, &r))
		return;
	o = r.status == 200 ? parse(&r) : NULL;
	d = jobj(o, "RepoDigests", json_type_array);
	n = d ? json_object_array_length(d) : 0;
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(d, i);
		const char *s = json_object_is_type(e, json_type_string) ? json_object_get_string(e) : NULL;
		const char *at = s ? strchr(s, '@') : NULL;

		if (!at)
			continue;
		/* the repository's own digest if it has one, else the first */
		if (!m->image_digest || (m->image_repository &&
					 !strncmp(s, m->image_repository, (size_t)(at - s))))
			cmeta_set(&m->image_digest, at + 1);
	}
	json_object_put(o);
	chttp_resp_free(&r);
}

int src_docker(const char *socket, const char *id, enum cgpath_type type, uint32_t timeout_ms,
	       struct cmeta **out, char *err, size_t cap)
{
	json_object *o, *cfg, *labels, *hc, *mounts, *priv;
	const char *name;
	struct cmeta *m;
	int rc;

	*out = NULL;
	rc = get_container(socket, id, "/json", timeout_ms, &o, err, cap);
	if (rc)
		return rc;
	m = cmeta_new(type);
	if (!m) {
		rc = -ENOMEM;
		goto out;
	}
	name = jstr(o, "Name");
	if (name && name[0] == '/')
		name++;
	cfg = jobj(o, "Config", json_type_object);
	labels = jobj(cfg, "Labels", json_type_object);
	hc = jobj(o, "HostConfig", json_type_object);
	priv = jobj(hc, "Privileged", json_type_boolean);
	rc |= cmeta_set(&m->name, name);
	rc |= cmeta_set(&m->image, jstr(cfg, "Image"));
	if (priv)
		m->privileged = json_object_get_boolean(priv);
	rc |= add_labels(m, labels);
	mounts = jobj(o, "Mounts", json_type_array);
	for (size_t i = 0; mounts && i < json_object_array_length(mounts); i++) {
		json_object *e = json_object_array_get_idx(mounts, i), *rw;

		if (!json_object_is_type(e, json_type_object))
			continue;
		rw = jobj(e, "RW", json_type_boolean);
		rc |= cmeta_mount(m, jstr(e, "Source"), jstr(e, "Destination"), jstr(e, "Mode"),
				  rw ? json_object_get_boolean(rw) : 0, jstr(e, "Propagation"));
	}
	if (!rc)
		rc = cmeta_finish(m);
	if (!rc)
		image_digest(m, socket, m->image, timeout_ms);
	if (rc) {
		cmeta_free(m);
		m = NULL;
		snprintf(err, cap, "%s", strerror(ENOMEM));
		rc = -ENOMEM;
	}
	*out = m;
out:
	json_object_put(o);
	return rc;
}

/*
 * CRI-O: GET /containers/ID on its socket gives its ContainerInfo (name,
 * image, image_ref, labels, annotations, sandbox; cri-o's
 * internal/types.ContainerInfo). It says nothing of privileges or mounts.
 */
int src_crio(const char *socket, const char *id, uint32_t timeout_ms, struct cmeta **out,
	     char *err, size_t cap)
{
	json_object *o, *labels;
	const char *ref, *at;
	struct cmeta *m;
	int rc;

	*out = NULL;
	rc = get_container(socket, id, "", timeout_ms, &o, err, cap);
	if (rc)
		return rc;
	m = cmeta_new(CGPATH_CRIO);
	if (!m) {
		rc = -ENOMEM;
		goto out;
	}
	rc |= cmeta_set(&m->name, jstr(o, "name"));
	rc |= cmeta_set(&m->image, jstr(o, "image"));
	rc |= cmeta_set(&m->sandbox_id, jstr(o, "sandbox"));
	ref = jstr(o, "image_ref");
	at = ref ? strchr(ref, '@') : NULL;
	if (at)
		rc |= cmeta_set(&m->image_digest, at + 1);
	labels = jobj(o, "labels", json_type_object);
	rc |= add_labels(m, labels);
	if (!rc)
		rc = cmeta_finish(m);
	if (rc) {
		cmeta_free(m);
		m = NULL;
		snprintf(err, cap, "%s", strerror(ENOMEM));
		rc = -ENOMEM;
	}
	*out = m;
out:
	json_object_put(o);
	return rc;
}
