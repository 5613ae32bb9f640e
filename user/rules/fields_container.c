// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* container.* and k8s.* fields. Part of fields.c's translation unit
 * (included there, not compiled alone). */
#include <stdio.h>
#include <string.h>
#include "fields_int.h"
#include "container.h"

/* container.* and k8s.*: the process's container id and type from the
 * process table, the rest from the container cache (absent until resolved;
 * on the host, container.name is "host" as in Falco, the others absent). */
static void fields_get_container(struct evctx *c, int f, const char *arg, struct fval *v, char *buf,
				 size_t cap)
{
	const struct proc_entry *pe = entry(c);
	const struct cmeta *m;
	int host;

	if (!pe || !pe->container_id[0])
		return;
	host = pe->container_type == CGPATH_HOST;
	if (f == F_CONTAINER_TYPE) {
		set_cstr(v, host ? "host" : container_type_name(pe->container_id, pe->container_type));
		return;
	}
	if (f == F_CONTAINER_FULL_ID) {
		set_cstr(v, host ? "host" : container_full_id(pe->container_id));
		return;
	}
	if (host) {
		if (f == F_CONTAINER_NAME)
			set_cstr(v, "host");
		return;
	}
	m = container_meta(pe->container_id);
	if (!m)
		return;
	switch (f) {
	case F_CONTAINER_NAME:
		set_cstr(v, m->name);
		break;
	case F_CONTAINER_IMAGE:
		set_cstr(v, m->image);
		break;
	case F_CONTAINER_IMAGE_REPOSITORY:
		set_cstr(v, m->image_repository);
		break;
	case F_CONTAINER_IMAGE_TAG:
		set_cstr(v, m->image_tag);
		break;
	case F_CONTAINER_IMAGE_DIGEST:
		set_cstr(v, m->image_digest);
		break;
	case F_CONTAINER_PRIVILEGED:
		if (m->privileged >= 0)
			set_bool(v, m->privileged);
		break;
	case F_CONTAINER_MOUNTS:
		set_cstr(v, m->mounts);
		break;
	case F_CONTAINER_MOUNT_DEST:
		set_cstr(v, cmeta_mount_dest(m, arg));
		break;
	case F_CONTAINER_LABELS:
		set_cstr(v, m->labels_text);
		break;
	case F_CONTAINER_LABEL:
		set_cstr(v, arg ? cmeta_label_get(m, 0, arg) : NULL);
		break;
	case F_K8S_POD_NAME:
		set_cstr(v, m->pod_name);
		break;
	case F_K8S_NS_NAME:
		set_cstr(v, m->pod_namespace);
		break;
	case F_K8S_POD_UID:
		set_cstr(v, m->pod_uid);
		break;
	case F_K8S_POD_SANDBOX_ID:
		if (m->sandbox_id) {
			snprintf(buf, cap, "%.12s", m->sandbox_id);
			set_cstr(v, buf);
		}
		break;
	case F_K8S_POD_FULL_SANDBOX_ID:
		set_cstr(v, m->sandbox_id);
		break;
	case F_K8S_POD_LABELS:
		set_cstr(v, m->pod_labels_text);
		break;
	case F_K8S_POD_LABEL:
		set_cstr(v, arg ? cmeta_label_get(m, 1, arg) : NULL);
		break;
	default:
		break;
	}
}
