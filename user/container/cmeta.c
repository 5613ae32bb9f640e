// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Container metadata: building it field by field, and what derives from it. */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmeta.h"

/* Labels the kubelet and the CRI runtimes set on a pod's containers; they
 * become k8s.* and are left out of k8s.pod.labels. */
#define CMETA_K8S_POD_NAME "io.kubernetes.pod.name"
#define CMETA_K8S_POD_NS "io.kubernetes.pod.namespace"
#define CMETA_K8S_POD_UID "io.kubernetes.pod.uid"
#define CMETA_K8S_CONTAINER "io.kubernetes.container.name"
#define CMETA_K8S_SANDBOX "io.kubernetes.sandbox.id" /* dockershim, cri-dockerd */

static const char *const cmeta_runtime_prefixes[] = {
	"io.kubernetes.", "io.cri-containerd.", "io.containerd.", "annotation.io.kubernetes.",
};

struct cmeta *cmeta_new(enum cgpath_type type)
{
	struct cmeta *m = calloc(1, sizeof(*m));

	if (m) {
		m->type = type;
		m->privileged = -1;
	}
	return m;
}

static void kv_free(struct cmeta_kv *kv, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(kv[i].key);
		free(kv[i].value);
	}
	free(kv);
}

void cmeta_free(struct cmeta *m)
{
	if (!m)
		return;
	free(m->name);
	free(m->image);
	free(m->image_repository);
	free(m->image_tag);
	free(m->image_digest);
	free(m->mounts);
	free(m->mounts_buf);
	kv_free(m->mount_paths, m->nmounts);
	kv_free(m->labels, m->nlabels);
	free(m->labels_text);
	free(m->pod_name);
	free(m->pod_namespace);
	free(m->pod_uid);
	free(m->sandbox_id);
	kv_free(m->pod_labels, m->npod_labels);
	free(m->pod_labels_text);
	free(m);
}

static char *dup_cut(const char *s)
{
	return strndup(s, CMETA_STR_MAX);
}

int cmeta_set(char **field, const char *s)
{
	char *d;

	if (!s || !*s)
		return 0;
	d = dup_cut(s);
	if (!d)
		return -ENOMEM;
	free(*field);
	*field = d;
	return 0;
}

int cmeta_label(struct cmeta *m, int pod, const char *key, const char *value)
{
	struct cmeta_kv **kv = pod ? &m->pod_labels : &m->labels;
	size_t *n = pod ? &m->npod_labels : &m->nlabels;
	char *k, *v;
	struct cmeta_kv *grown;

	if (!key || !*key || !value)
		return 0;
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*kv)[i].key, key)) {
			v = dup_cut(value);
			if (!v)
				return -ENOMEM;
			free((*kv)[i].value);
			(*kv)[i].value = v;
			return 0;
		}
	if (*n >= CMETA_LABELS_MAX)
		return 0; /* the rest are left out */
	k = dup_cut(key);
	v = dup_cut(value);
	grown = k && v ? realloc(*kv, (*n + 1) * sizeof(**kv)) : NULL;
	if (!grown) {
		free(k);
		free(v);
		return -ENOMEM;
	}
	*kv = grown;
	(*kv)[*n] = (struct cmeta_kv){ k, v };
	(*n)++;
	return 0;
}

int cmeta_mount(struct cmeta *m, const char *src, const char *dst, const char *mode, int rw,
		const char *propagation)
{
	size_t old = m->mounts_buf ? strlen(m->mounts_buf) : 0, add;
	struct cmeta_kv *kv;
	char *b;

	if (m->nmounts >= CMETA_MOUNTS_MAX)
		return 0;
	add = strnlen(src ? src : "", CMETA_STR_MAX) + strnlen(dst ? dst : "", CMETA_STR_MAX) +
	      strnlen(mode ? mode : "", 64) + strnlen(propagation ? propagation : "", 64) + 16;
	b = realloc(m->mounts_buf, old + add);
	if (!b)
		return -ENOMEM;
	m->mounts_buf = b;
	b[old] = 0;
	kv = realloc(m->mount_paths, (m->nmounts + 1) * sizeof(*kv));
	if (!kv)
		return -ENOMEM;
	m->mount_paths = kv;
	kv[m->nmounts].key = dup_cut(src ? src : "");
	kv[m->nmounts].value = dup_cut(dst ? dst : "");
	if (!kv[m->nmounts].key || !kv[m->nmounts].value) {
		free(kv[m->nmounts].key);
		free(kv[m->nmounts].value);
		return -ENOMEM;
	}
	snprintf(b + old, add, "%s%.*s:%.*s:%.64s:%s:%.64s", old ? "," : "", CMETA_STR_MAX,
		 src ? src : "", CMETA_STR_MAX, dst ? dst : "", mode ? mode : "",
		 rw ? "true" : "false", propagation ? propagation : "");
	m->nmounts++;
	return 0;
}

int cmeta_split_image(const char *image, char **repo, char **tag, char **digest)
{
	const char *at, *slash, *colon, *end;

	*repo = *tag = *digest = NULL;
	if (!image || !*image)
		return 0;
	at = strchr(image, '@');
	end = at ? at : image + strlen(image);
	slash = memrchr(image, '/', (size_t)(end - image));
	/* a tag's colon comes after the last slash ("localhost:5000/x" has none) */
	colon = memrchr(slash ? slash : image, ':', (size_t)(end - (slash ? slash : image)));
	if (at)
		*digest = dup_cut(at + 1);
	if (colon) {
		*tag = strndup(colon + 1, (size_t)(end - colon - 1));
		end = colon;
	}
	*repo = strndup(image, (size_t)(end - image));
	if (!*repo || (at && !*digest) || (colon && !*tag)) {
		free(*repo);
		free(*tag);
		free(*digest);
		*repo = *tag = *digest = NULL;
		return -ENOMEM;
	}
	return 0;
}

static int kv_cmp(const void *a, const void *b)
{
	return strcmp(((const struct cmeta_kv *)a)->key, ((const struct cmeta_kv *)b)->key);
}

/* "k1:v1, k2:v2": Falco's text of a label map, sorted by key. */
static int kv_text(struct cmeta_kv *kv, size_t n, char **out)
{
	size_t len = 1, pos = 0;
	char *t;

	if (n)
		qsort(kv, n, sizeof(*kv), kv_cmp); /* kv is NULL when there are none */
	for (size_t i = 0; i < n; i++)
		len += strlen(kv[i].key) + strlen(kv[i].value) + 3;
	t = malloc(len);
	if (!t)
		return -ENOMEM;
	t[0] = 0;
	for (size_t i = 0; i < n; i++)
		pos += (size_t)snprintf(t + pos, len - pos, "%s%s:%s", i ? ", " : "", kv[i].key,
					kv[i].value);
	free(*out);
	*out = n ? t : NULL;
	if (!n)
		free(t);
	return 0;
}

const char *cmeta_label_get(const struct cmeta *m, int pod, const char *key)
{
	const struct cmeta_kv *kv = pod ? m->pod_labels : m->labels;
	size_t n = pod ? m->npod_labels : m->nlabels;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(kv[i].key, key))
			return kv[i].value;
	return NULL;
}

const char *cmeta_mount_dest(const struct cmeta *m, const char *arg)
{
	char *end;
	unsigned long i;

	if (!arg || !*arg)
		return NULL;
	i = strtoul(arg, &end, 10);
	if (!*end && arg[0] >= '0' && arg[0] <= '9')
		return i < m->nmounts ? m->mount_paths[i].value : NULL;
	for (i = 0; i < m->nmounts; i++)
		if (fnmatch(arg, m->mount_paths[i].key, 0) == 0)
			return m->mount_paths[i].value;
	return NULL;
}

int cmeta_is_runtime_label(const char *key)
{
	for (size_t i = 0; i < sizeof(cmeta_runtime_prefixes) / sizeof(cmeta_runtime_prefixes[0]);
	     i++)
		if (!strncmp(key, cmeta_runtime_prefixes[i], strlen(cmeta_runtime_prefixes[i])))
			return 1;
	return 0;
}

int cmeta_finish(struct cmeta *m)
{
	const char *pod = cmeta_label_get(m, 0, CMETA_K8S_POD_NAME);
	int err = 0;

	if (m->image && !m->image_repository) {
		char *r, *t, *d;

		if (cmeta_split_image(m->image, &r, &t, &d))
			return -ENOMEM;
		m->image_repository = r;
		if (!m->image_tag)
			m->image_tag = t;
		else
			free(t);
		if (!m->image_digest)
			m->image_digest = d;
		else
			free(d);
	}
	if (!m->pod_name)
		err |= cmeta_set(&m->pod_name, pod);
	if (!m->pod_namespace)
		err |= cmeta_set(&m->pod_namespace, cmeta_label_get(m, 0, CMETA_K8S_POD_NS));
	if (!m->pod_uid)
		err |= cmeta_set(&m->pod_uid, cmeta_label_get(m, 0, CMETA_K8S_POD_UID));
	if (!m->sandbox_id)
		err |= cmeta_set(&m->sandbox_id, cmeta_label_get(m, 0, CMETA_K8S_SANDBOX));
	/* the CRI names the container in a label; a plain runtime by its name */
	err |= cmeta_set(&m->name, cmeta_label_get(m, 0, CMETA_K8S_CONTAINER));
	/* without the sandbox's own labels, a pod's are its containers' that
	 * the kubelet and the runtime did not add */
	if (m->pod_name && !m->npod_labels)
		for (size_t i = 0; i < m->nlabels && !err; i++)
			if (!cmeta_is_runtime_label(m->labels[i].key))
				err |= cmeta_label(m, 1, m->labels[i].key, m->labels[i].value);
	if (err)
		return -ENOMEM;
	if (kv_text(m->labels, m->nlabels, &m->labels_text) ||
	    kv_text(m->pod_labels, m->npod_labels, &m->pod_labels_text))
		return -ENOMEM;
	if (m->mounts_buf && !m->mounts) {
		m->mounts = m->mounts_buf;
		m->mounts_buf = NULL;
	}
	return 0;
}
