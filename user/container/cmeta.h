/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * One container's metadata as a runtime reported it, in the form Falco's
 * container.* and k8s.* fields print it. Built by the resolver thread,
 * immutable once handed to the cache, freed when the container leaves it.
 */
#ifndef AS_CMETA_H
#define AS_CMETA_H

#include <stddef.h>
#include "cgpath.h"

#define CMETA_STR_MAX 1024 /* one name, image, label value...: longer is cut (a k8s label value is at most 63) */
#define CMETA_LABELS_MAX 128 /* labels kept per container or pod; a pod rarely has 20 */
#define CMETA_MOUNTS_MAX 64 /* mounts listed in container.mounts; more are left out */

struct cmeta_kv {
	char *key;
	char *value;
};

struct cmeta {
	enum cgpath_type type; /* the runtime that answered */
	char *name;
	char *image; /* as the container was created from: "docker.io/library/busybox:1.35" */
	char *image_repository; /* "docker.io/library/busybox" */
	char *image_tag; /* "1.35" */
	char *image_digest; /* "sha256:..." */
	int privileged; /* 1, 0, or -1 when the runtime did not say */
	char *mounts; /* Falco's container.mounts: "src:dst:mode:rdwr:propagation,..." */
	struct cmeta_kv *labels; /* sorted by key */
	size_t nlabels;
	char *labels_text; /* "k1:v1, k2:v2" as Falco's container.labels */
	char *pod_name, *pod_namespace, *pod_uid;
	char *sandbox_id; /* full */
	struct cmeta_kv *pod_labels; /* sorted by key */
	size_t npod_labels;
	char *pod_labels_text;
	char *mounts_buf; /* container.mounts while cmeta_mount builds it */
	size_t nmounts; /* mounts in it, at most CMETA_MOUNTS_MAX */
	struct cmeta_kv *mount_paths; /* each of those mounts: key its source, value its destination */
};

struct cmeta *cmeta_new(enum cgpath_type type);
void cmeta_free(struct cmeta *m);
/* Set one string (cut at CMETA_STR_MAX); 0 or -ENOMEM. A NULL or empty s leaves it unset. */
int cmeta_set(char **field, const char *s);
/* Add a label (pod: to the pod's labels); a key seen before is replaced. */
int cmeta_label(struct cmeta *m, int pod, const char *key, const char *value);
/* Add a mount; rw is 1 or 0. */
int cmeta_mount(struct cmeta *m, const char *src, const char *dst, const char *mode, int rw,
		const char *propagation);
/*
 * Derive what follows from what was set: image repository/tag/digest from
 * image (unless set), k8s.* from the io.kubernetes.* labels (the CRI's and
 * the kubelet's), the name from io.kubernetes.container.name when unset,
 * sorted labels and their texts. 0 or -ENOMEM.
 */
int cmeta_finish(struct cmeta *m);
/* A label the kubelet or a runtime adds (io.kubernetes.*, io.containerd.*,
 * io.cri-containerd.*): not one of the pod's own. */
int cmeta_is_runtime_label(const char *key);
/* Value of a label, NULL when absent. */
const char *cmeta_label_get(const struct cmeta *m, int pod, const char *key);
/* Falco's container.mount.dest[ARG]: the destination of mount number ARG,
 * or of the first whose source matches the glob ARG; NULL when none. */
const char *cmeta_mount_dest(const struct cmeta *m, const char *arg);
/* Split "repo[:tag][@digest]" into its parts (each NULL when absent; freed by the caller). */
int cmeta_split_image(const char *image, char **repo, char **tag, char **digest);

#endif /* AS_CMETA_H */
