# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""Real container runtimes for the container tests, each started and stopped
by the test itself: a static busybox root filesystem, an OCI bundle for runc,
an OCI image layout tarball, containerd on private paths, podman's API
service with a private storage. Nothing here needs the network."""
import hashlib
import io
import json
import os
import shutil
import signal
import socket
import subprocess
import tarfile
import time

BUSYBOX = "/bin/busybox"
MARKER = "/as-marker"
APPLETS = ["sh", "cat", "sleep", "ls", "true", "touch", "test"]


def hexid(n):
    """A 64-hex container id, distinct per n (CRI and docker ids look like this)."""
    return hashlib.sha256(b"agent-sentinel-e2e-%d-%d" % (os.getpid(), n)).hexdigest()


def make_rootfs(path):
    """A root filesystem of one static busybox, its applets and the marker."""
    for d in ("bin", "proc", "sys", "dev", "etc", "tmp", "run"):
        os.makedirs(os.path.join(path, d), exist_ok=True)
    shutil.copy(BUSYBOX, os.path.join(path, "bin/busybox"))
    for a in APPLETS:
        link = os.path.join(path, "bin", a)
        if not os.path.lexists(link):
            os.symlink("busybox", link)
    with open(os.path.join(path, MARKER.lstrip("/")), "w") as f:
        f.write("marker\n")
    with open(os.path.join(path, "etc/passwd"), "w") as f:
        f.write("root:x:0:0:root:/:/bin/sh\n")
    with open(os.path.join(path, "etc/group"), "w") as f:
        f.write("root:x:0:\n")
    return path


def _blob(tar, data):
    digest = hashlib.sha256(data).hexdigest()
    info = tarfile.TarInfo("blobs/sha256/" + digest)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))
    return "sha256:" + digest, len(data)


def make_oci_archive(rootfs, out, name):
    """An OCI image layout tarball of rootfs, named name (ctr image import
    reads io.containerd.image.name). Returns the manifest digest."""
    layer = io.BytesIO()
    with tarfile.open(fileobj=layer, mode="w") as t:
        t.add(rootfs, arcname=".")
    layer = layer.getvalue()
    with tarfile.open(out, "w") as tar:
        ldig, lsize = _blob(tar, layer)
        config = json.dumps({
            "architecture": "amd64", "os": "linux",
            "config": {"Cmd": ["/bin/sh"], "Env": ["PATH=/bin"]},
            "rootfs": {"type": "layers", "diff_ids": [ldig]},
        }).encode()
        cdig, csize = _blob(tar, config)
        manifest = json.dumps({
            "schemaVersion": 2,
            "mediaType": "application/vnd.oci.image.manifest.v1+json",
            "config": {"mediaType": "application/vnd.oci.image.config.v1+json",
                       "digest": cdig, "size": csize},
            "layers": [{"mediaType": "application/vnd.oci.image.layer.v1.tar",
                        "digest": ldig, "size": lsize}],
        }).encode()
        mdig, msize = _blob(tar, manifest)
        for fname, data in (
            ("oci-layout", json.dumps({"imageLayoutVersion": "1.0.0"}).encode()),
            ("index.json", json.dumps({
                "schemaVersion": 2,
                "manifests": [{
                    "mediaType": "application/vnd.oci.image.manifest.v1+json",
                    "digest": mdig, "size": msize,
                    "annotations": {"io.containerd.image.name": name,
                                    "org.opencontainers.image.ref.name": name.rsplit(":", 1)[1]},
                }],
            }).encode()),
        ):
            info = tarfile.TarInfo(fname)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return mdig


def runc_bundle(path, rootfs, args, cgroups_path=None):
    """An OCI bundle for runc: no rlimits (root here lacks CAP_SYS_RESOURCE), no terminal."""
    os.makedirs(path, exist_ok=True)
    subprocess.run(["runc", "spec", "--bundle", path], check=True)
    with open(os.path.join(path, "config.json")) as f:
        spec = json.load(f)
    spec["root"] = {"path": rootfs, "readonly": True}
    spec["process"]["terminal"] = False
    spec["process"]["args"] = args
    spec["process"].pop("rlimits", None)
    if cgroups_path:
        spec["linux"]["cgroupsPath"] = cgroups_path
    with open(os.path.join(path, "config.json"), "w") as f:
        json.dump(spec, f)
    return path


def wait_socket(path, proc, timeout=30.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            raise AssertionError("%s exited with %s before its socket %s appeared"
                                 % (proc.args[0], proc.returncode, path))
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            try:
                s.connect(path)
                return
            except OSError:
                pass
        time.sleep(0.1)
    raise AssertionError("no socket at %s after %.0f s" % (path, timeout))


def stop(proc, timeout=20):
    if proc and proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class Containerd:
    """containerd on private root, state and socket paths (no CRI plugin)."""

    def __init__(self, tmp):
        self.tmp = tmp
        self.sock = os.path.join(tmp, "containerd.sock")
        self.cfg = os.path.join(tmp, "config.toml")
        self.log = os.path.join(tmp, "containerd.log")
        with open(self.cfg, "w") as f:
            f.write('version = 2\nroot = "%s/root"\nstate = "%s/state"\n'
                    'disabled_plugins = ["io.containerd.grpc.v1.cri"]\n'
                    '[grpc]\n  address = "%s"\n[ttrpc]\n  address = "%s.ttrpc"\n'
                    % (tmp, tmp, self.sock, self.sock))
        self.proc = None

    def start(self):
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(["containerd", "--config", self.cfg], stdout=log,
                                         stderr=subprocess.STDOUT)
        wait_socket(self.sock, self.proc)
        return self

    def ctr(self, *args, ns="k8s.io", check=True, timeout=120):
        return subprocess.run(["ctr", "--address", self.sock, "--namespace", ns] + list(args),
                              check=check, capture_output=True, timeout=timeout)

    def stop(self):
        stop(self.proc)


class Podman:
    """podman with a private storage (vfs), runc as its runtime, cgroupfs, no
    default ulimits (root here lacks CAP_SYS_RESOURCE; crun refuses the hybrid
    cgroup layout), no network; and its API service on a private socket."""

    def __init__(self, tmp):
        self.tmp = tmp
        self.sock = os.path.join(tmp, "podman.sock")
        conf = os.path.join(tmp, "containers.conf")
        storage = os.path.join(tmp, "storage.conf")
        with open(conf, "w") as f:
            f.write('[containers]\ndefault_ulimits = []\nnetns = "none"\nlog_driver = "k8s-file"\n'
                    '[engine]\ncgroup_manager = "cgroupfs"\nevents_logger = "file"\n'
                    'runtime = "runc"\n')
        with open(storage, "w") as f:
            f.write('[storage]\ndriver = "vfs"\ngraphroot = "%s/root"\nrunroot = "%s/runroot"\n'
                    % (tmp, tmp))
        self.env = dict(os.environ, CONTAINERS_CONF=conf, CONTAINERS_STORAGE_CONF=storage)
        self.proc = None

    def podman(self, *args, check=True, timeout=120):
        return subprocess.run(["podman"] + list(args), env=self.env, check=check,
                              capture_output=True, timeout=timeout)

    def start(self):
        with open(os.path.join(self.tmp, "service.log"), "ab") as log:
            self.proc = subprocess.Popen(["podman", "system", "service", "--time=0",
                                          "unix://" + self.sock], env=self.env, stdout=log,
                                         stderr=subprocess.STDOUT)
        wait_socket(self.sock, self.proc)
        return self

    def stop(self):
        stop(self.proc)


class Docker:
    """dockerd on private paths (it starts its own containerd), vfs storage,
    cgroupfs, no iptables, no bridge."""

    def __init__(self, tmp):
        self.tmp = tmp
        self.sock = os.path.join(tmp, "docker.sock")
        self.env = dict(os.environ, DOCKER_HOST="unix://" + self.sock)
        self.proc = None

    def docker(self, *args, check=True, timeout=120, stdin=None):
        return subprocess.run(["docker"] + list(args), env=self.env, check=check,
                              capture_output=True, timeout=timeout, stdin=stdin)

    def start(self):
        with open(os.path.join(self.tmp, "dockerd.log"), "ab") as log:
            self.proc = subprocess.Popen(
                ["dockerd", "--data-root", os.path.join(self.tmp, "root"),
                 "--exec-root", os.path.join(self.tmp, "exec"), "-H", "unix://" + self.sock,
                 "--pidfile", os.path.join(self.tmp, "dockerd.pid"), "--iptables=false",
                 "--ip6tables=false", "--bridge=none", "--storage-driver=vfs",
                 "--exec-opt", "native.cgroupdriver=cgroupfs"],
                stdout=log, stderr=subprocess.STDOUT)
        wait_socket(self.sock, self.proc, timeout=60)
        return self

    def stop(self):
        stop(self.proc, timeout=30)
