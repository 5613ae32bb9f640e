# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""Shared pieces of the end-to-end tests: run agent-sentinel against the real
kernel, wait for its systemd readiness message, stop it, parse its JSON.

Environment (set by CTest): AS_BIN (agent-sentinel), AS_WORKLOAD (as-workload),
AS_SOURCE_DIR (checkout). Exit code 77 = skipped, used only when the kernel
cannot run BPF at all (no BTF), and said loudly.
"""
import json
import os
import platform
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

AS_BIN = os.environ.get("AS_BIN", "build/agent-sentinel")
AS_WORKLOAD = os.environ.get("AS_WORKLOAD", "build/tests/as-workload")
AS_SOURCE_DIR = os.environ.get("AS_SOURCE_DIR", os.getcwd())
READY_TIMEOUT = 30.0  # seconds to wait for READY=1 (slow under sanitizers)
DRAIN_WAIT = 0.3  # seconds for events to reach the consumer (poll is 10 ms)


def require_kernel():
    """Skip (exit 77) only on a kernel that cannot run us; fail if not root."""
    if not os.path.exists("/sys/kernel/btf/vmlinux"):
        print("SKIPPED LOUDLY: this kernel has no BTF (/sys/kernel/btf/vmlinux); "
              "kernel end-to-end tests cannot run here", file=sys.stderr)
        sys.exit(77)
    if os.geteuid() != 0:
        print("kernel end-to-end tests need root", file=sys.stderr)
        sys.exit(1)


class Sentinel:
    """agent-sentinel running with the given arguments until stop()."""

    def __init__(self, *args, env=None):
        self.args = [AS_BIN] + list(args)
        self.env = dict(os.environ, **(env or {}))
        self.tmp = tempfile.mkdtemp(prefix="as-e2e-")
        self.out_path = os.path.join(self.tmp, "stdout")
        self.err_path = os.path.join(self.tmp, "stderr")
        self.proc = None
        self.lines = []
        self.stderr = ""
        self.returncode = None

    def start(self):
        sock_path = os.path.join(self.tmp, "notify")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(sock_path)
        sock.settimeout(READY_TIMEOUT)
        env = dict(self.env, NOTIFY_SOCKET=sock_path)
        with open(self.out_path, "wb") as out, open(self.err_path, "wb") as err:
            self.proc = subprocess.Popen(self.args, env=env, stdout=out, stderr=err)
        deadline = time.time() + READY_TIMEOUT
        try:
            while time.time() < deadline:
                msg = sock.recv(4096).decode()
                if "READY=1" in msg:
                    return self
        except socket.timeout:
            pass
        finally:
            sock.close()
        self.stop()
        raise AssertionError("agent-sentinel never became ready: " + self.stderr)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            time.sleep(DRAIN_WAIT)
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc:
            self.returncode = self.proc.returncode
        with open(self.err_path, "r", errors="replace") as f:
            self.stderr = f.read()
        with open(self.out_path, "rb") as f:
            raw = f.read()
        self.lines = raw.split(b"\n")
        if self.lines and self.lines[-1] == b"":
            self.lines.pop()
        shutil.rmtree(self.tmp, ignore_errors=True)
        return self

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def events(self):
        """Every stdout line parsed as JSON; a line that is not JSON fails."""
        out = []
        for line in self.lines:
            out.append(json.loads(line.decode("utf-8")))
        return out


def workload(*args, user=None, cwd=None, env=None):
    """Run as-workload; return (pid, [result lines])."""
    cmd = [AS_WORKLOAD] + [a if isinstance(a, bytes) else str(a) for a in args]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, cwd=cwd, env=env)
    out, _ = p.communicate(timeout=120)
    return p.pid, out.decode().split("\n")[:-1]


def find(events, match=None, **kw):
    """Events whose fields equal every key/value of match and of kw (in kw,
    '.' is written '__': proc__name='sh')."""
    want = dict(match or {})
    want.update({k.replace("__", "."): v for k, v in kw.items()})
    return [e for e in events if all(k in e and e[k] == v for k, v in want.items())]


_IA32_REFUSED = []


def ia32_refused():
    """None if this machine runs 32-bit syscalls (int $0x80); else why not, in
    one line. Some kernels and hypervisors (ia32 emulation off, PVM) have no
    such road at all: there an agent cannot take it either, and the tests of
    it say so loudly and leave it out."""
    if not _IA32_REFUSED:
        if platform.machine() != "x86_64":
            why = "the i386 ABI (int $0x80) is x86_64's; this is %s" % platform.machine()
        else:
            r = subprocess.run([os.environ.get("AS_IA32", "build/tests/as-ia32"), "probe"],
                               capture_output=True, text=True)
            if r.returncode not in (0, 77):
                raise RuntimeError("as-ia32 probe failed: %s" % r.stderr.strip())
            why = r.stderr.strip() if r.returncode else None
        _IA32_REFUSED.append(why)
        if why:
            print("LEFT OUT LOUDLY: %s" % why, file=sys.stderr)
    return _IA32_REFUSED[0]


def main():
    require_kernel()
    unittest.main(verbosity=2)
