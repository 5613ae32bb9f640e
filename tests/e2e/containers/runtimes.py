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


def runc_bundle(path, rootfs, args):
    """An OCI bundle for runc: no rlimits (root here lacks CAP_SYS_RESOURCE), no terminal."""
    os.makedirs(path, exist_ok=True)
    subprocess.run(["runc", "spec", "--bundle", path], check=True)
    with open(os.path.join(path, "config.json")) as f:
        spec = json.load(f)
    spec["root"] = {"path": rootfs, "readonly": True}
    spec["process"]["terminal"] = False
    spec["process"]["args"] = args
    spec["process"].pop("rlimits", None)
    with open(os.path.join(path, "config.json"), "w") as f:
        json.dump(spec, f)
    return path


def wait_socket(path, proc, timeout=30.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            raise AssertionError("%s exited with %s before its socket %s appeared"
                                 % (proc.args[0], proc.returncode, path))
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            s.close()
            return
        except OSError:
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
