#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""Container and Kubernetes metadata on alerts, with real runtimes started by
the test: runc directly, containerd (Debian's 1.6) on private paths with an
image imported from an OCI layout tarball of a static busybox, and sockets
that hang, answer garbage or answer too much. A process in each container
reads /as-marker; the alert must carry that container's id, type, name and
image; privileged says so; kubelet-style labels give k8s.*; with the runtime
gone or hostile the alerts keep coming with the id alone; 100 short-lived
containers leave nothing cached."""
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import unittest

import harness
from harness import AS_SOURCE_DIR, Sentinel

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "containers"))
import runtimes  # noqa: E402

RULES = os.path.join(AS_SOURCE_DIR, "tests/e2e/containers/marker.yaml")
RULE = "Container Marker Read"
IMAGE = "docker.io/library/as-busybox:1.35"
# read the marker, give the resolver two seconds (a lookup takes a few ms;
# sanitizers and a loaded CI machine are slower), read it again: the first
# alert may come before the runtime answered, the second must not
TWICE = ["sh", "-c", "cat /as-marker >/dev/null; sleep 2; cat /as-marker >/dev/null"]


def fields(s):
    return [a["output_fields"] for a in s.events() if a["rule"] == RULE]


def summary(s):
    """The counters of -v's last line about containers."""
    m = re.search(r"containers: (\d+) cached, (\d+) seen, (\d+) resolved, (\d+) unresolved, "
                  r"(\d+) evicted, (\d+) refused", s.stderr)
    if not m:
        raise AssertionError("no container summary in: " + s.stderr)
    return dict(zip(("cached", "seen", "resolved", "unresolved", "evicted", "refused"),
                    map(int, m.groups())))


def of(alerts, cid):
    return [f for f in alerts if f["container.full_id"] == cid or f["container.id"] == cid[:12]]


class Hostile:
    """Unix sockets that misbehave: one never answers, one answers garbage,
    one sends an endless body."""

    def __init__(self, tmp):
        self.paths = {k: os.path.join(tmp, k + ".sock") for k in ("silent", "garbage", "huge")}
        self.stop = threading.Event()
        self.socks = []
        for kind, path in self.paths.items():
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.bind(path)
            s.listen(16)
            s.settimeout(0.2)
            self.socks.append(s)
            threading.Thread(target=self.serve, args=(s, kind), daemon=True).start()

    def serve(self, s, kind):
        while not self.stop.is_set():
            try:
                c, _ = s.accept()
            except socket.timeout:
                continue
            except OSError:
                return  # closed
            threading.Thread(target=self.answer, args=(c, kind), daemon=True).start()

    def answer(self, c, kind):
        try:
            c.settimeout(5)
            c.recv(65536)
            if kind == "garbage":
                c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n{\"Name\":[" + b"\x00" * 64)
            elif kind == "huge":
                c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{\"Name\":\"")
                chunk = b"A" * 65536
                for _ in range(64 * 16):  # 64 MiB, far past the 1 MiB limit
                    if self.stop.is_set():
                        break
                    c.sendall(chunk)
            else:
                self.stop.wait(10)
        except OSError:
            pass
        finally:
            c.close()

    def close(self):
        self.stop.set()
        for s in self.socks:
            s.close()


class CrioInfo:
    """A socket that answers as CRI-O's info endpoint (GET /containers/ID,
    its internal/types.ContainerInfo): cri-o is not in Debian 12, so its
    container runs under runc in a crio-<id>.scope cgroup and this answers
    for it."""

    def __init__(self, path, cid, sandbox):
        self.path = path
        self.body = json.dumps({
            "name": "k8s_web_web-0_shop_3e41dc6b_0", "pid": 1, "image": IMAGE,
            "image_ref": "docker.io/library/as-busybox@sha256:" + "ab" * 32,
            "created_time": 1, "labels": {
                "io.kubernetes.container.name": "web", "io.kubernetes.pod.name": "web-0",
                "io.kubernetes.pod.namespace": "shop", "io.kubernetes.pod.uid": "3e41dc6b",
                "app": "shop"},
            "annotations": {}, "crio_annotations": {}, "log_path": "", "root": "",
            "sandbox": sandbox, "ip_addresses": []}).encode()
        self.want = "/containers/" + cid
        self.paths = []
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(path)
        self.sock.listen(8)
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            with c:
                req = c.recv(65536).decode(errors="replace")
                path = req.split(" ")[1] if " " in req else ""
                self.paths.append(path)
                body, status = (self.body, "200 OK") if path == self.want else (b"no", "404 Not Found")
                c.sendall(b"HTTP/1.1 %s\r\nContent-Type: application/json\r\n"
                          b"Content-Length: %d\r\nConnection: close\r\n\r\n%s"
                          % (status.encode(), len(body), body))

    def close(self):
        self.sock.close()


class Containers(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        for tool in ("runc", "containerd", "ctr", "podman", "dockerd", "docker", runtimes.BUSYBOX):
            if not shutil.which(tool):
                raise AssertionError("%s is not installed: run packaging/deps.sh" % tool)
        cls.tmp = tempfile.mkdtemp(prefix="as-ctr-")
        cls.rootfs = runtimes.make_rootfs(os.path.join(cls.tmp, "rootfs"))
        cls.archive = os.path.join(cls.tmp, "image.tar")
        cls.digest = runtimes.make_oci_archive(cls.rootfs, cls.archive, IMAGE)
        cls.n = 0

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def cid(self):
        Containers.n += 1
        return runtimes.hexid(Containers.n)

    def containerd(self):
        d = tempfile.mkdtemp(prefix="cd-", dir=self.tmp)
        c = runtimes.Containerd(d).start()
        self.addCleanup(c.stop)
        c.ctr("image", "import", "--snapshotter", "native", self.archive)
        return c

    def runc(self, cid, args, cgroups_path=None):
        bundle = runtimes.runc_bundle(os.path.join(self.tmp, "b-" + cid[:12]), self.rootfs, args,
                                      cgroups_path)
        p = subprocess.run(["runc", "run", "--bundle", bundle, cid], capture_output=True,
                           timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        shutil.rmtree(bundle, ignore_errors=True)

    def ctr_run(self, c, cid, args, *opts):
        p = c.ctr("run", "--rm", "--snapshotter", "native", *opts, IMAGE, cid, *args, check=False)
        self.assertEqual(p.returncode, 0, p.stderr)

    def sentinel(self, *opts):
        return Sentinel("-v", "--rules", RULES, "-o", "container_engines.lookup_timeout_ms=300",
                        *opts)

    def test_runc_plain_cgroup_path(self):
        cid = self.cid()
        with self.sentinel("-o", "container_engines.containerd_sockets=[]",
                           "-o", "container_engines.docker_sockets=[]",
                           "-o", "container_engines.podman_sockets=[]") as s:
            self.runc(cid, TWICE)
        got = of(fields(s), cid)
        self.assertEqual(len(got), 2, s.stderr)
        for f in got:
            self.assertEqual(f["container.id"], cid[:12])
            self.assertEqual(f["container.full_id"], cid)
            self.assertEqual(f["container.type"], "runc")
            self.assertIsNone(f["container.name"])
            self.assertIsNone(f["container.image"])
        st = summary(s)
        self.assertGreaterEqual(st["seen"], 1)
        self.assertGreaterEqual(st["unresolved"], 1)

    def test_containerd_metadata_k8s_and_privileged(self):
        c = self.containerd()
        plain, priv = self.cid(), self.cid()
        with self.sentinel("-o", "container_engines.containerd_sockets=" + c.sock) as s:
            self.ctr_run(c, plain, TWICE,
                         "--label", "io.kubernetes.pod.name=web-0",
                         "--label", "io.kubernetes.pod.namespace=shop",
                         "--label", "io.kubernetes.pod.uid=3e41dc6b-08a8-44db-bc2a-3724b18ab19a",
                         "--label", "io.kubernetes.container.name=nginx",
                         "--label", "io.kubernetes.sandbox.id=" + priv,
                         "--label", "app=storefront")
            self.ctr_run(c, priv, TWICE, "--privileged", "--label", "app=tools")
        alerts = fields(s)
        a = of(alerts, plain)
        self.assertEqual(len(a), 2, s.stderr)
        self.assertEqual([f["container.id"] for f in a], [plain[:12]] * 2)
        f = a[-1]
        self.assertEqual(f["container.type"], "containerd", s.stderr)
        self.assertEqual(f["container.name"], "nginx")
        self.assertEqual(f["container.image"], IMAGE)
        self.assertEqual(f["container.image.repository"], "docker.io/library/as-busybox")
        self.assertEqual(f["container.image.tag"], "1.35")
        self.assertEqual(f["container.image.digest"], self.digest)
        self.assertIs(f["container.privileged"], False)
        self.assertEqual(f["container.label[app]"], "storefront")
        self.assertIn("app:storefront, io.containerd.image.config.stop-signal:SIGTERM, "
                      "io.kubernetes.container.name:nginx", f["container.labels"])
        self.assertEqual(f["k8s.pod.name"], "web-0")
        self.assertEqual(f["k8s.ns.name"], "shop")
        self.assertEqual(f["k8s.pod.uid"], "3e41dc6b-08a8-44db-bc2a-3724b18ab19a")
        self.assertEqual(f["k8s.pod.labels"], "app:storefront")
        self.assertEqual(f["k8s.pod.label.app"], "storefront")
        self.assertEqual(f["k8s.pod.sandbox_id"], priv[:12])
        p = of(alerts, priv)
        self.assertEqual(len(p), 2, s.stderr)
        f = p[-1]
        self.assertEqual(f["container.type"], "containerd")
        self.assertEqual(f["container.name"], priv)  # ctr run: the id is its name
        self.assertIs(f["container.privileged"], True)
        self.assertIsNone(f["k8s.pod.name"])
        self.assertIsNone(f["k8s.pod.labels"])
        self.assertGreaterEqual(summary(s)["resolved"], 2)

    def test_containerd_cri_annotations_and_sandbox_labels(self):
        # as the CRI plugin makes them: the pod in the OCI spec's annotations,
        # the pod's labels on its sandbox container
        c = self.containerd()
        sandbox, cid = self.cid(), self.cid()
        c.ctr("container", "create", "--snapshotter", "native", "--label", "app=checkout",
              "--label", "tier=web", "--label", "io.cri-containerd.kind=sandbox",
              "--label", "io.kubernetes.pod.name=web-1", IMAGE, sandbox)
        self.addCleanup(c.ctr, "container", "rm", sandbox, check=False)
        with self.sentinel("-o", "container_engines.containerd_sockets=" + c.sock) as s:
            self.ctr_run(c, cid, TWICE,
                         "--annotation", "io.kubernetes.cri.container-type=container",
                         "--annotation", "io.kubernetes.cri.sandbox-id=" + sandbox,
                         "--annotation", "io.kubernetes.cri.sandbox-name=web-1",
                         "--annotation", "io.kubernetes.cri.sandbox-namespace=shop",
                         "--annotation", "io.kubernetes.cri.sandbox-uid=0b1c2d3e",
                         "--annotation", "io.kubernetes.cri.container-name=app",
                         "--label", "io.cri-containerd.kind=container")
        a = of(fields(s), cid)
        self.assertEqual(len(a), 2, s.stderr)
        f = a[-1]
        self.assertEqual(f["container.name"], "app")
        self.assertEqual(f["k8s.pod.name"], "web-1")
        self.assertEqual(f["k8s.ns.name"], "shop")
        self.assertEqual(f["k8s.pod.uid"], "0b1c2d3e")
        self.assertEqual(f["k8s.pod.sandbox_id"], sandbox[:12])
        self.assertEqual(f["k8s.pod.labels"], "app:checkout, tier:web")
        self.assertEqual(f["k8s.pod.label.app"], "checkout")
        self.assertIsNone(f["container.label[app]"])  # the pod's, not the container's

    def test_runtime_stopped_and_hostile_sockets(self):
        c = self.containerd()
        bad = Hostile(self.tmp)
        self.addCleanup(bad.close)
        before, after, hostile = self.cid(), self.cid(), self.cid()
        with self.sentinel("-o", "container_engines.containerd_sockets=[%s, %s]"
                           % (c.sock, bad.paths["silent"]),
                           "-o", "container_engines.docker_sockets=[%s, %s]"
                           % (bad.paths["garbage"], bad.paths["huge"]),
                           "-o", "container_engines.podman_sockets=" + bad.paths["silent"]) as s:
            self.ctr_run(c, before, TWICE)
            c.stop()  # the runtime goes away mid-test
            self.runc(after, TWICE)
            self.runc(hostile, ["sh", "-c", "for i in 1 2 3 4 5; do cat /as-marker >/dev/null; "
                                "sleep 0.3; done"])
        self.assertEqual(s.returncode, 0, s.stderr)
        alerts = fields(s)
        f = of(alerts, before)
        self.assertEqual(len(f), 2, s.stderr)
        self.assertEqual(f[-1]["container.image"], IMAGE)
        for cid, n in ((after, 2), (hostile, 5)):
            got = of(alerts, cid)
            self.assertEqual(len(got), n, s.stderr)
            for g in got:
                self.assertEqual(g["container.id"], cid[:12])
                self.assertEqual(g["container.type"], "runc")
                self.assertIsNone(g["container.name"])
                self.assertIsNone(g["container.image"])
        self.assertRegex(s.stderr, r"answer larger than 1048576 bytes|Operation timed out|"
                         r"Timeout was reached")
        # the last lookup (every hostile socket in turn) may still be under
        # way at exit: neither resolved nor unresolved then
        st = summary(s)
        self.assertGreaterEqual(st["resolved"], 1)
        self.assertGreaterEqual(st["unresolved"], 1)

    def test_podman_metadata_mounts_and_privileged(self):
        p = runtimes.Podman(tempfile.mkdtemp(prefix="pm-", dir=self.tmp))
        p.podman("load", "-i", self.archive)
        p.start()
        self.addCleanup(p.stop)
        self.addCleanup(p.podman, "rm", "-af", check=False)
        digest = p.podman("image", "inspect", "--format", "{{.Digest}}", IMAGE).stdout.decode().strip()
        data = tempfile.mkdtemp(prefix="data-", dir=self.tmp)
        with self.sentinel("-o", "container_engines.podman_sockets=" + p.sock,
                           "-o", "container_engines.docker_sockets=[]",
                           "-o", "container_engines.containerd_sockets=[]") as s:
            web = p.podman("run", "-d", "--name", "web", "--label", "app=shop", "-v",
                           data + ":/data:ro", IMAGE, *TWICE).stdout.decode().strip()
            tools = p.podman("run", "-d", "--name", "tools", "--privileged", IMAGE,
                             *TWICE).stdout.decode().strip()
            p.podman("wait", web, tools)
        alerts = fields(s)
        a = of(alerts, web)
        self.assertEqual(len(a), 2, s.stderr)
        f = a[-1]
        self.assertEqual(f["container.id"], web[:12])
        self.assertEqual(f["container.type"], "podman")
        self.assertEqual(f["container.name"], "web")
        self.assertEqual(f["container.image"], IMAGE)
        self.assertEqual(f["container.image.repository"], "docker.io/library/as-busybox")
        self.assertEqual(f["container.image.tag"], "1.35")
        self.assertEqual(f["container.image.digest"], digest)
        self.assertIs(f["container.privileged"], False)
        self.assertEqual(f["container.label[app]"], "shop")
        self.assertIn("%s:/data:" % data, f["container.mounts"])
        self.assertIn(":/data::false:", f["container.mounts"].replace(data, ""))
        b = of(alerts, tools)
        self.assertEqual(len(b), 2, s.stderr)
        self.assertEqual(b[-1]["container.name"], "tools")
        self.assertIs(b[-1]["container.privileged"], True)

    def test_docker_metadata(self):
        d = runtimes.Docker(tempfile.mkdtemp(prefix="dk-", dir=self.tmp)).start()
        self.addCleanup(d.stop)
        tar = os.path.join(self.tmp, "rootfs.tar")
        subprocess.run(["tar", "-C", self.rootfs, "-cf", tar, "."], check=True)
        with open(tar, "rb") as f:
            d.docker("import", "-c", 'CMD ["/bin/sh"]', "-", IMAGE, stdin=f)
        with self.sentinel("-o", "container_engines.docker_sockets=" + d.sock,
                           "-o", "container_engines.podman_sockets=[]",
                           "-o", "container_engines.containerd_sockets=[]") as s:
            web = d.docker("run", "-d", "--network", "none", "--name", "web", "--label",
                           "app=shop", IMAGE, *TWICE).stdout.decode().strip()
            d.docker("wait", web)
            d.docker("rm", web)
        a = of(fields(s), web)
        self.assertEqual(len(a), 2, s.stderr)
        f = a[-1]
        self.assertEqual(f["container.id"], web[:12])
        self.assertEqual(f["container.type"], "docker")
        self.assertEqual(f["container.name"], "web", s.stderr)
        self.assertEqual(f["container.image"], IMAGE)
        self.assertEqual(f["container.image.repository"], "docker.io/library/as-busybox")
        self.assertEqual(f["container.image.tag"], "1.35")
        self.assertIsNone(f["container.image.digest"])  # imported: never pushed or pulled
        self.assertIs(f["container.privileged"], False)
        self.assertEqual(f["container.label[app]"], "shop")

    def test_crio_layout_and_info_endpoint(self):
        cid, sandbox = self.cid(), self.cid()
        crio = CrioInfo(os.path.join(self.tmp, "crio.sock"), cid, sandbox)
        self.addCleanup(crio.close)
        with self.sentinel("-o", "container_engines.crio_sockets=" + crio.path,
                           "-o", "container_engines.containerd_sockets=[]",
                           "-o", "container_engines.docker_sockets=[]",
                           "-o", "container_engines.podman_sockets=[]") as s:
            self.runc(cid, TWICE, cgroups_path="/as-e2e-kubepods/pod3e41dc6b/crio-%s.scope" % cid)
        a = of(fields(s), cid)
        self.assertEqual(len(a), 2, s.stderr)
        self.assertEqual(crio.paths, ["/containers/" + cid])  # asked once, by full id
        f = a[-1]
        self.assertEqual(f["container.type"], "cri-o")
        self.assertEqual(f["container.name"], "web")
        self.assertEqual(f["container.image"], IMAGE)
        self.assertEqual(f["container.image.digest"], "sha256:" + "ab" * 32)
        self.assertIsNone(f["container.privileged"])  # cri-o's info endpoint does not say
        self.assertEqual(f["k8s.pod.name"], "web-0")
        self.assertEqual(f["k8s.ns.name"], "shop")
        self.assertEqual(f["k8s.pod.uid"], "3e41dc6b")
        self.assertEqual(f["k8s.pod.sandbox_id"], sandbox[:12])
        self.assertEqual(f["k8s.pod.labels"], "app:shop")

    def test_many_short_lived_containers(self):
        c = self.containerd()
        ids = [self.cid() for _ in range(100)]
        with self.sentinel("-o", "container_engines.containerd_sockets=" + c.sock,
                           "-o", "container_engines.max_entries=8") as s:
            for cid in ids:
                self.runc(cid, ["cat", "/as-marker"])
        alerts = fields(s)
        for cid in ids:
            self.assertEqual(len(of(alerts, cid)), 1, cid)
        st = summary(s)
        # the host may run containers of its own: they are counted too, and
        # only they may still be cached at exit
        self.assertGreaterEqual(st["seen"], 100)
        self.assertGreaterEqual(st["evicted"], 100)
        self.assertEqual(st["cached"], st["seen"] - st["evicted"])
        self.assertLessEqual(st["cached"], st["seen"] - 100)
        self.assertEqual(st["refused"], 0)  # one at a time: a cache of 8 never refused one


if __name__ == "__main__":
    harness.main()
