// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The container module without a runtime: cgroup layouts, image names,
 * labels, the bounded cache, protobuf and OCI-spec parsing of bad bytes. */
#include "testutil.h"
#include "cgpath.h"
#include "ccache.h"
#include "cmeta.h"
#include "pb.h"
#include "sources.h"

#define HEX64 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define HEXB "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"

struct cg_case {
	const char *in;
	const char *type;
	const char *id;
};

static void test_cgroup_layouts(void **state)
{
	static const struct cg_case cases[] = {
		{ "unified=/docker/" HEX64, "docker", HEX64 },
		{ "cpu=/docker/" HEX64 " memory=/docker/" HEX64 " unified=/", "docker", HEX64 },
		{ "unified=/system.slice/docker-" HEX64 ".scope", "docker", HEX64 },
		{ "unified=/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod1.slice/"
		  "cri-containerd-" HEX64 ".scope", "containerd", HEX64 },
		{ "unified=/system.slice/containerd-" HEX64 ".scope", "containerd", HEX64 },
		{ "unified=/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod2.slice/"
		  "crio-" HEX64 ".scope", "cri-o", HEX64 },
		{ "unified=/kubepods.slice/x.slice/crio-conmon-" HEX64 ".scope", "host", "" },
		{ "unified=/kubepods/besteffort/pod0b1c2d3e-aaaa-bbbb-cccc-0123456789ab/" HEX64,
		  "cri", HEX64 },
		{ "unified=/machine.slice/libpod-" HEX64 ".scope", "podman", HEX64 },
		{ "unified=/libpod_parent/libpod-" HEX64, "podman", HEX64 },
		{ "unified=/libpod_parent/" HEX64, "podman", HEX64 },
		{ "unified=/machine.slice/libpod-conmon-" HEX64 ".scope", "host", "" },
		/* runc and ctr run with plain cgroups paths */
		{ "unified=/" HEX64, "runc", HEX64 },
		{ "unified=/k8s.io/" HEX64, "runc", HEX64 },
		{ "systemd=/" HEX64 " pids=/" HEX64 " unified=/" HEX64, "runc", HEX64 },
		/* v1 only (a hybrid host whose runtime left unified alone) */
		{ "pids=/docker/" HEX64 " unified=/", "docker", HEX64 },
		/* nested: the innermost container */
		{ "unified=/docker/" HEX64 "/docker/" HEXB, "docker", HEXB },
		{ "unified=/kubepods/burstable/pod1/" HEX64 "/system.slice/docker-" HEXB ".scope",
		  "docker", HEXB },
		/* unified wins over stale v1 paths after an exec */
		{ "pids=/docker/" HEX64 " unified=/machine.slice/libpod-" HEXB ".scope", "podman", HEXB },
		/* no container */
		{ "unified=/user.slice/user-1000.slice/session-2.scope", "host", "" },
		{ "unified=/agent-sandbox/s1", "host", "" },
		{ "unified=/docker/" HEX64 "a", "host", "" },
		{ "unified=/", "host", "" },
		{ "", "host", "" },
	};
	struct cgpath_id id;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum cgpath_type t = cgpath_parse(cases[i].in, &id);

		if (strcmp(cgpath_type_name(t), cases[i].type) || strcmp(id.id, cases[i].id))
			fail_msg("\"%s\": %s %s, want %s %s", cases[i].in, cgpath_type_name(t),
				 id.id, cases[i].type, cases[i].id);
	}
	assert_int_equal(cgpath_parse(NULL, &id), CGPATH_HOST);
}

static void test_image_names(void **state)
{
	static const char *const cases[][4] = {
		{ "busybox", "busybox", NULL, NULL },
		{ "busybox:1.35", "busybox", "1.35", NULL },
		{ "docker.io/library/busybox:1.35", "docker.io/library/busybox", "1.35", NULL },
		{ "localhost:5000/x/y", "localhost:5000/x/y", NULL, NULL },
		{ "localhost:5000/x/y:v2", "localhost:5000/x/y", "v2", NULL },
		{ "quay.io/a/b@sha256:abcd", "quay.io/a/b", NULL, "sha256:abcd" },
		{ "quay.io/a/b:t@sha256:abcd", "quay.io/a/b", "t", "sha256:abcd" },
	};
	char *r, *t, *d;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(cmeta_split_image(cases[i][0], &r, &t, &d), 0);
		assert_string_equal(r, cases[i][1]);
		if (cases[i][2])
			assert_string_equal(t, cases[i][2]);
		else
			assert_null(t);
		if (cases[i][3])
			assert_string_equal(d, cases[i][3]);
		else
			assert_null(d);
		free(r);
		free(t);
		free(d);
	}
}

static void test_labels_and_k8s(void **state)
{
	struct cmeta *m = cmeta_new(CGPATH_CONTAINERD);

	(void)state;
	assert_non_null(m);
	assert_int_equal(cmeta_label(m, 0, "io.kubernetes.pod.name", "web-0"), 0);
	assert_int_equal(cmeta_label(m, 0, "io.kubernetes.pod.namespace", "shop"), 0);
	assert_int_equal(cmeta_label(m, 0, "io.kubernetes.pod.uid", "3e41dc6b"), 0);
	assert_int_equal(cmeta_label(m, 0, "io.kubernetes.container.name", "nginx"), 0);
	assert_int_equal(cmeta_label(m, 0, "tier", "front"), 0);
	assert_int_equal(cmeta_label(m, 0, "app", "old"), 0);
	assert_int_equal(cmeta_label(m, 0, "app", "shop"), 0); /* replaces */
	assert_int_equal(cmeta_set(&m->image, "docker.io/library/nginx:1.25"), 0);
	assert_int_equal(cmeta_finish(m), 0);
	assert_string_equal(m->name, "nginx");
	assert_string_equal(m->pod_name, "web-0");
	assert_string_equal(m->pod_namespace, "shop");
	assert_string_equal(m->pod_uid, "3e41dc6b");
	assert_string_equal(m->image_repository, "docker.io/library/nginx");
	assert_string_equal(m->image_tag, "1.25");
	assert_string_equal(m->labels_text,
			    "app:shop, io.kubernetes.container.name:nginx, io.kubernetes.pod.name:web-0, "
			    "io.kubernetes.pod.namespace:shop, io.kubernetes.pod.uid:3e41dc6b, tier:front");
	assert_string_equal(m->pod_labels_text, "app:shop, tier:front");
	assert_string_equal(cmeta_label_get(m, 1, "tier"), "front");
	assert_null(cmeta_label_get(m, 1, "io.kubernetes.pod.name"));
	cmeta_free(m);

	/* no pod: no pod labels; strings are cut at CMETA_STR_MAX */
	m = cmeta_new(CGPATH_DOCKER);
	char big[CMETA_STR_MAX * 2];

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	assert_int_equal(cmeta_label(m, 0, "k", big), 0);
	for (int i = 0; i < CMETA_LABELS_MAX + 10; i++) {
		char k[16];

		snprintf(k, sizeof(k), "l%03d", i);
		assert_int_equal(cmeta_label(m, 0, k, "v"), 0);
	}
	assert_int_equal(cmeta_finish(m), 0);
	assert_int_equal(m->nlabels, CMETA_LABELS_MAX);
	assert_int_equal(strlen(cmeta_label_get(m, 0, "k")), CMETA_STR_MAX);
	assert_null(m->pod_labels_text);
	cmeta_free(m);
}

static void test_cache_bounded_and_evicted(void **state)
{
	struct ccache *c = ccache_new(16);
	char sid[13], full[65];
	int created;

	(void)state;
	/* 1000 short-lived containers, one process each: nothing stays */
	for (int i = 0; i < 1000; i++) {
		struct ccache_entry *e;

		snprintf(full, sizeof(full), "%012x%052x", i + 1, 0);
		memcpy(sid, full, 12);
		sid[12] = 0;
		e = ccache_ref(c, sid, full, CGPATH_RUNC, &created);
		assert_non_null(e);
		assert_true(created);
		/* its fork: same entry, no new lookup */
		assert_ptr_equal(ccache_ref(c, sid, NULL, CGPATH_RUNC, &created), e);
		assert_false(created);
		if (i % 2) /* half are answered before they exit, half after */
			ccache_publish(c, sid, cmeta_new(CGPATH_CONTAINERD));
		ccache_unref(c, sid);
		assert_non_null(ccache_get(c, sid));
		ccache_unref(c, sid);
		assert_null(ccache_get(c, sid));
		if (!(i % 2))
			ccache_publish(c, sid, cmeta_new(CGPATH_CONTAINERD)); /* freed */
	}
	assert_int_equal(ccache_count(c), 0);
	assert_int_equal(ccache_stats(c).added, 1000);
	assert_int_equal(ccache_stats(c).evicted, 1000);
	/* 40 at once in a cache of 16: 24 refused, all released cleanly */
	for (int i = 0; i < 40; i++) {
		snprintf(full, sizeof(full), "%012x%052x", 5000 + i, 0);
		memcpy(sid, full, 12);
		sid[12] = 0;
		if (i < 16)
			assert_non_null(ccache_ref(c, sid, full, CGPATH_DOCKER, &created));
		else
			assert_null(ccache_ref(c, sid, full, CGPATH_DOCKER, &created));
	}
	assert_int_equal(ccache_count(c), 16);
	assert_int_equal(ccache_stats(c).refused, 24);
	for (int i = 0; i < 40; i++) {
		snprintf(full, sizeof(full), "%012x%052x", 5000 + i, 0);
		memcpy(sid, full, 12);
		sid[12] = 0;
		ccache_unref(c, sid);
	}
	assert_int_equal(ccache_count(c), 0);
	/* a fork into a container with no entry (refused) makes none */
	assert_null(ccache_ref(c, "000000000001", NULL, CGPATH_DOCKER, &created));
	ccache_free(c);
}

static void test_protobuf_bad_bytes(void **state)
{
	static const uint8_t truncated_len[] = { 0x0a, 0x05, 'a', 'b' };
	static const uint8_t long_varint[] = { 0x08, 0xff, 0xff, 0xff, 0xff, 0xff,
					       0xff, 0xff, 0xff, 0xff, 0xff, 0x01 };
	static const uint8_t group[] = { 0x0b };
	static const uint8_t ok[] = { 0x0a, 0x02, 'i', 'd', 0x10, 0x96, 0x01 };
	struct pb_field f;
	struct pb r;
	uint8_t buf[8];
	size_t pos = 0;
	char s[8];

	(void)state;
	r = pb_of(truncated_len, sizeof(truncated_len));
	assert_int_equal(pb_next(&r, &f), -1);
	r = pb_of(long_varint, sizeof(long_varint));
	assert_int_equal(pb_next(&r, &f), -1);
	r = pb_of(group, sizeof(group));
	assert_int_equal(pb_next(&r, &f), -1);
	r = pb_of(ok, sizeof(ok));
	assert_int_equal(pb_next(&r, &f), 1);
	pb_str(&f, s, sizeof(s));
	assert_string_equal(s, "id");
	assert_int_equal(pb_next(&r, &f), 1);
	assert_int_equal(f.num, 2);
	assert_int_equal(f.v, 150);
	assert_int_equal(pb_next(&r, &f), 0);
	assert_int_equal(pb_put_str(buf, sizeof(buf), &pos, 1, "abcdef"), 0);
	assert_int_equal(pos, 8);
	assert_int_equal(pb_put_str(buf, sizeof(buf), &pos, 1, "x"), -1);
}

static void test_oci_spec(void **state)
{
	static const char priv[] =
		"{\"process\":{\"capabilities\":{\"bounding\":[\"CAP_CHOWN\",\"CAP_SYS_ADMIN\"]}},"
		"\"mounts\":[{\"destination\":\"/proc\",\"type\":\"proc\",\"source\":\"proc\"},"
		"{\"destination\":\"/data\",\"type\":\"bind\",\"source\":\"/srv/data\","
		"\"options\":[\"rbind\",\"ro\",\"rprivate\"]}],"
		"\"annotations\":{\"io.kubernetes.cri.sandbox-id\":\"" HEXB "\","
		"\"io.kubernetes.cri.sandbox-name\":\"web-0\"},\"linux\":{}}";
	static const char unpriv[] =
		"{\"process\":{\"capabilities\":{\"bounding\":[\"CAP_SYS_ADMIN\"]}},"
		"\"linux\":{\"maskedPaths\":[\"/proc/kcore\"]}}";
	static const char *const junk[] = { "", "[]", "{\"process\":7}", "{\"mounts\":{}}",
					    "{\"process\":{\"capabilities\":[1,2]}}", "{{{{", "\"x\"" };
	struct cmeta *m = cmeta_new(CGPATH_CONTAINERD);

	(void)state;
	assert_int_equal(src_oci_spec(m, priv, strlen(priv)), 0);
	assert_int_equal(m->privileged, 1);
	assert_string_equal(m->sandbox_id, HEXB);
	assert_string_equal(m->pod_name, "web-0");
	assert_int_equal(cmeta_finish(m), 0);
	assert_string_equal(m->mounts, "/srv/data:/data::false:rprivate");
	/* container.mount.dest[ARG]: by index, or by a glob on the source */
	assert_string_equal(cmeta_mount_dest(m, "0"), "/data");
	assert_string_equal(cmeta_mount_dest(m, "/srv/*"), "/data");
	assert_string_equal(cmeta_mount_dest(m, "/srv/data"), "/data");
	assert_null(cmeta_mount_dest(m, "1"));
	assert_null(cmeta_mount_dest(m, "/proc*"));
	assert_null(cmeta_mount_dest(m, ""));
	cmeta_free(m);
	m = cmeta_new(CGPATH_CONTAINERD);
	assert_int_equal(src_oci_spec(m, unpriv, strlen(unpriv)), 0);
	assert_int_equal(m->privileged, 0);
	cmeta_free(m);
	for (size_t i = 0; i < sizeof(junk) / sizeof(junk[0]); i++) {
		m = cmeta_new(CGPATH_CONTAINERD);
		assert_int_equal(src_oci_spec(m, junk[i], strlen(junk[i])), 0);
		cmeta_free(m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cgroup_layouts),
		cmocka_unit_test(test_image_names),
		cmocka_unit_test(test_labels_and_k8s),
		cmocka_unit_test(test_cache_bounded_and_evicted),
		cmocka_unit_test(test_protobuf_bad_bytes),
		cmocka_unit_test(test_oci_spec),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
