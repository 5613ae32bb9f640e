#!/usr/bin/env python3
"""agent-bwrap against real bubblewrap on the real kernel (run as root).

Environment (set by tests/bwrap/CMakeLists.txt):
  AGENT_BWRAP   the agent-bwrap binary
  BWRAP_PROBE   the probe binary (copied into each workspace, runs inside)
  BWRAP_PRELOAD an LD_PRELOAD library that marks the processes loading it
  AGENT_BWRAP_STATIC  1 when agent-bwrap is linked statically
  SOURCE_DIR    the source tree (for packaging/seccomp/agent.json)

Run one group: python3 test_bwrap.py Seccomp   (or no argument for all).
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

AGENT_BWRAP = os.environ.get("AGENT_BWRAP", "")
PROBE = os.environ.get("BWRAP_PROBE", "")
PRELOAD = os.environ.get("BWRAP_PRELOAD", "")
STATIC = os.environ.get("AGENT_BWRAP_STATIC") == "1"  # no dynamic loader in agent-bwrap
SOURCE_DIR = os.environ.get("SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
PROFILE = os.path.join(SOURCE_DIR, "packaging", "seccomp", "agent.json")
CGROUP_V2 = None
TIMEOUT = 60  # seconds for one sandbox launch; bubblewrap starts in milliseconds

# Exit codes (user/bwrap/exitcode.h).
EXIT_EGRESS, EXIT_USAGE = 1, 2
EXIT_WS_MISSING, EXIT_WS_NOT_DIR = 64, 65
EXIT_SC_MISSING, EXIT_SC_MALFORMED, EXIT_SC_UNSUPPORTED = 66, 67, 68
EXIT_BWRAP_MISSING = 69
EXIT_LANDLOCK, EXIT_INIT_MISSING = 72, 73
EACCES, EPERM = 13, 1
RELAY_PORT = 3128  # RELAY_PORT_DEFAULT (user/bwrap/relay.h)


def find_cgroup_v2():
    with open("/proc/self/mountinfo") as f:
        for line in f:
            left, _, right = line.partition(" - ")
            if right.split()[0] == "cgroup2":
                return left.split()[4]
    return None


def session_dirs(session):
    """Every .../agent-sandbox/<session> directory under /sys/fs/cgroup."""
    found = []
    for root, dirs, _ in os.walk("/sys/fs/cgroup"):
        if os.path.basename(root) == "agent-sandbox" and session in dirs:
            found.append(os.path.join(root, session))
        dirs[:] = [d for d in dirs if not d.startswith(("cgroup.", "memory.", "pids."))]
    return found


def proc_summary(pid):
    """name, state and parent of a process, for a failure message."""
    try:
        with open(f"/proc/{pid}/status") as f:
            fields = dict(line.split(":\t", 1) for line in f if ":\t" in line)
        return f"{pid} {fields['Name'].strip()} {fields['State'].strip()} ppid {fields['PPid'].strip()}"
    except OSError as e:
        return f"{pid} ({e.strerror})"


def procs_with(marker):
    """Pids whose command line contains marker (the sandbox leaves none behind)."""
    pids = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if marker.encode() in f.read():
                    pids.append(int(pid))
        except OSError:
            pass
    return pids


class Sandbox(unittest.TestCase):
    """Common set-up: a workspace holding the probe, a syslog socket, clean env."""

    def setUp(self):
        self.assertEqual(os.geteuid(), 0, "these tests need root (bubblewrap, cgroups)")
        self.assertTrue(os.access(AGENT_BWRAP, os.X_OK), f"AGENT_BWRAP={AGENT_BWRAP!r}")
        self.tmp = tempfile.mkdtemp(prefix="agent-bwrap-test.")
        self.ws = os.path.join(self.tmp, "ws")
        os.mkdir(self.ws)
        shutil.copy(PROBE, os.path.join(self.ws, "probe"))
        self.log_path = os.path.join(self.tmp, "log.sock")
        self.log = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.log.bind(self.log_path)
        self.env = {k: v for k, v in os.environ.items()
                    if k not in ("AGENT_SESSION_ID", "EGRESS_SOCK", "BWRAP", "USE_NETWORK")}
        self.env.update(SECCOMP_FILE=PROFILE, USE_NETWORK="0",
                        AGENT_BWRAP_SYSLOG_SOCKET=self.log_path)

    def tearDown(self):
        self.log.close()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def run_bwrap(self, *cmd, args=(), env=None, workdir=None, **kw):
        full_env = dict(self.env)
        full_env.update(env or {})
        argv = [AGENT_BWRAP, *args, workdir or self.ws]
        if cmd:
            argv += ["--", *cmd]
        return subprocess.run(argv, env=full_env, capture_output=True, text=True,
                              timeout=TIMEOUT, **kw)

    def probe(self, *what, **kw):
        r = self.run_bwrap("/workspace/probe", *what, **kw)
        self.assertEqual(r.returncode, 0, f"probe {what}: {r.stderr}")
        return r.stdout.strip()

    def syslog_lines(self, wait=1.0):
        self.log.settimeout(wait)
        lines = []
        try:
            while True:
                lines.append(self.log.recv(4096).decode())
                self.log.settimeout(0.2)
        except (socket.timeout, BlockingIOError):
            pass
        return lines


class Filesystem(Sandbox):
    def test_workspace_and_tmpfs_writable(self):
        self.assertEqual(self.probe("write", "/workspace/out"), "ok")
        with open(os.path.join(self.ws, "out")) as f:
            self.assertEqual(f.read(), "probe\n")
        self.assertEqual(self.probe("write", "/tmp/x"), "ok")
        self.assertEqual(self.probe("write", "/var/tmp/x"), "ok")

    def test_writes_elsewhere_fail(self):
        for path in ("/usr/probe", "/usr/bin/probe", "/etc/probe", "/probe", "/lib/probe",
                     "/proc/probe"):
            with self.subTest(path=path):
                self.assertRegex(self.probe("write", path), r"^errno=\d+$")

    def test_usr_read_only(self):
        self.assertEqual(self.probe("write", "/usr/probe"), f"errno={30}")  # EROFS
        r = self.run_bwrap("/bin/sh", "-c", "touch /usr/bin/x 2>&1; mount | grep ' /usr '")
        self.assertIn("Read-only file system", r.stdout)

    def test_host_tmp_not_visible(self):
        marker = os.path.join("/tmp", os.path.basename(self.tmp))
        r = self.run_bwrap("/bin/sh", "-c", f"test -e {marker} && echo visible || echo hidden")
        self.assertEqual(r.stdout.strip(), "hidden")

    def test_chdir_workspace(self):
        r = self.run_bwrap("/bin/sh", "-c", "pwd")
        self.assertEqual(r.stdout.strip(), "/workspace")


class Network(Sandbox):
    def setUp(self):
        super().setUp()
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(8)
        self.listener.settimeout(0.5)
        self.port = self.listener.getsockname()[1]

    def tearDown(self):
        self.listener.close()
        super().tearDown()

    def assert_no_tcp(self, **kw):
        out = self.probe("tcp", "127.0.0.1", str(self.port), **kw)
        self.assertRegex(out, r"^errno=\d+$")
        with self.assertRaises(socket.timeout):
            self.listener.accept()

    def test_no_network(self):
        self.assert_no_tcp()

    def test_egress_socket_only(self):
        sock_path = os.path.join(self.tmp, "egress.sock")
        other_path = os.path.join(self.tmp, "other.sock")
        egress = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        egress.bind(sock_path)
        egress.listen(4)
        other = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        other.bind(other_path)
        other.listen(4)

        def serve():
            conn, _ = egress.accept()
            with conn:
                if conn.recv(64) == b"ping\n":
                    conn.sendall(b"pong\n")

        t = threading.Thread(target=serve, daemon=True)
        t.start()
        env = {"USE_NETWORK": "1", "EGRESS_SOCK": sock_path}
        try:
            self.assertEqual(self.probe("unix", sock_path, env=env), "ok pong")
            # the relay on the sandbox's loopback carries HTTP(S)_PROXY to the socket
            for var in ("HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy"):
                self.assertEqual(self.probe("env", var, env=env), "http://127.0.0.1:3128")
            for var in ("NO_PROXY", "no_proxy"):
                self.assertEqual(self.probe("env", var, env=env), "localhost,127.0.0.1")
            self.assertEqual(self.probe("env", "AGENT_EGRESS_SOCK", env=env), sock_path)
            self.assertEqual(self.probe("unix", other_path, env=env), "errno=2")  # ENOENT
            self.assert_no_tcp(env=env)
        finally:
            t.join(5)
            egress.close()
            other.close()

    def test_egress_missing(self):
        r = self.run_bwrap("/bin/true", env={"USE_NETWORK": "1",
                                             "EGRESS_SOCK": os.path.join(self.tmp, "none")})
        self.assertEqual(r.returncode, EXIT_EGRESS)
        self.assertEqual(r.stderr.splitlines(), [
            f"agent-bwrap: egress socket missing: {os.path.join(self.tmp, 'none')}",
            "Start the egress proxy or run with USE_NETWORK=0 for offline tasks."])


class Seccomp(Sandbox):
    def test_forbidden_calls_get_profile_errno(self):
        for what in ("unshare", "mount", "ptrace", "clone-ns"):
            with self.subTest(what=what):
                self.assertEqual(self.probe(what), "errno=1")  # defaultErrnoRet

    def test_errno_follows_profile(self):
        with open(PROFILE) as f:
            prof = json.load(f)
        prof["defaultErrnoRet"] = 13  # EACCES
        path = os.path.join(self.tmp, "eacces.json")
        with open(path, "w") as f:
            json.dump(prof, f)
        for what in ("unshare", "mount", "ptrace", "clone-ns"):
            with self.subTest(what=what):
                self.assertEqual(self.probe(what, env={"SECCOMP_FILE": path}), "errno=13")

    def test_io_uring_denied(self):
        # io_uring operations would bypass the filter: the shipped profile denies all three calls
        for what in ("io_uring_setup", "io_uring_enter", "io_uring_register"):
            with self.subTest(what=what):
                self.assertEqual(self.probe(what), "errno=1")

    def test_clone3_enosys_and_process_creation(self):
        self.assertEqual(self.probe("clone3"), "errno=38")  # ENOSYS: libc falls back
        for what in ("clone", "fork", "thread"):
            with self.subTest(what=what):
                self.assertEqual(self.probe(what), "ok")

    def test_ordinary_work(self):
        r = self.run_bwrap("/bin/sh", "-c",
                           "ls -la /workspace > /workspace/listing && echo hi > /tmp/f && "
                           "cat /tmp/f && wc -l < /workspace/listing && "
                           "python3 -c 'import subprocess; print(subprocess.run([\"true\"]).returncode)'")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(r.stdout.startswith("hi\n"), r.stdout)
        self.assertTrue(os.path.exists(os.path.join(self.ws, "listing")))
        self.assertTrue(r.stdout.endswith("0\n"), r.stdout)


def kernel_landlock_abi():
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    v = libc.syscall(444, None, 0, 1)  # landlock_create_ruleset(NULL, 0, VERSION)
    return max(v, 0)


class Landlock(Sandbox):
    """The second wall: what Landlock refuses that bubblewrap's mounts alone allow."""

    def setUp(self):
        super().setUp()
        self.abi = kernel_landlock_abi()
        self.assertGreaterEqual(self.abi, 6, "this kernel must have Landlock ABI 6 (Linux 6.12)")
        # an egress socket for the relay, which nothing needs to answer here
        self.sock_path = os.path.join(self.tmp, "egress.sock")
        self.egress = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.egress.bind(self.sock_path)
        self.egress.listen(4)
        self.net = {"USE_NETWORK": "1", "EGRESS_SOCK": self.sock_path}

    def tearDown(self):
        self.egress.close()
        super().tearDown()

    def test_writes_where_allowed(self):
        for path in ("/workspace/w", "/tmp/w", "/var/tmp/w", "/dev/shm/w", "/dev/null"):
            with self.subTest(path=path):
                self.assertEqual(self.probe("write", path), "ok")

    def test_write_on_dev_tmpfs_refused(self):
        # bubblewrap's /dev is a writable tmpfs: only Landlock stops a new file there
        self.assertEqual(self.probe("write", "/dev/new"), f"errno={EACCES}")
        r = self.run_bwrap("/workspace/probe", "write", "/dev/new",
                           env={"AGENT_BWRAP_LANDLOCK_ABI": "0"})
        self.assertEqual(r.stdout.strip(), "ok")
        self.assertIn("agent-bwrap: Landlock unavailable (limited to ABI 0 by "
                      "AGENT_BWRAP_LANDLOCK_ABI): no second wall behind bubblewrap and seccomp\n",
                      r.stderr)

    def test_tcp_connect_relay_port_only(self):
        self.assertEqual(self.probe("tcp", "127.0.0.1", str(RELAY_PORT), env=self.net), "ok")
        self.assertEqual(self.probe("tcp", "127.0.0.1", str(RELAY_PORT + 1), env=self.net),
                         f"errno={EACCES}")
        # offline: no port at all
        self.assertEqual(self.probe("tcp", "127.0.0.1", str(RELAY_PORT)), f"errno={EACCES}")
        # without the TCP rules the same connect gets as far as the network
        r = self.run_bwrap("/workspace/probe", "tcp", "127.0.0.1", str(RELAY_PORT + 1),
                           env=dict(self.net, AGENT_BWRAP_LANDLOCK_ABI="3"))
        self.assertEqual(r.stdout.strip(), "errno=111")  # ECONNREFUSED

    def test_no_tcp_bind(self):
        for port in ("0", "8080"):
            with self.subTest(port=port):
                self.assertEqual(self.probe("bind", "127.0.0.1", port, env=self.net),
                                 f"errno={EACCES}")

    def find_relay_then_kill(self, env):
        return self.run_bwrap("/bin/sh", "-c",
                              "for p in /proc/[0-9]*; do [ \"$(cat $p/comm 2>/dev/null)\" = "
                              "egress-relay ] && exec /workspace/probe kill ${p#/proc/}; done; "
                              "echo no relay", env=env)

    def test_signal_scoping(self):
        # the relay is outside the agent's Landlock domain: no signal reaches it (ABI 6)
        r = self.find_relay_then_kill(self.net)
        self.assertEqual(r.stdout.strip(), f"errno={EPERM}", r.stderr)
        r = self.find_relay_then_kill(dict(self.net, AGENT_BWRAP_LANDLOCK_ABI="5"))
        self.assertEqual(r.stdout.strip(), "ok", r.stderr)

    def test_older_abi_says_what_is_missing(self):
        cases = {
            "5": "Landlock ABI 5: filesystem rules applied; not available: scoping (ABI 6)",
            "3": "Landlock ABI 3: filesystem rules applied; not available: TCP port rules "
                 "(ABI 4), scoping (ABI 6)",
        }
        for abi, line in cases.items():
            with self.subTest(abi=abi):
                r = self.run_bwrap("/workspace/probe", "write", "/dev/new",
                                   env={"AGENT_BWRAP_LANDLOCK_ABI": abi})
                self.assertEqual(r.stdout.strip(), f"errno={EACCES}")  # the file rules hold
                self.assertEqual([l for l in r.stderr.splitlines() if "Landlock" in l],
                                 [f"agent-bwrap: {line}"])
        r = self.run_bwrap("/bin/true")
        self.assertNotIn("Landlock", r.stderr)

    def test_require_landlock(self):
        r = self.run_bwrap("/bin/true", args=("--require-landlock",),
                           env={"AGENT_BWRAP_LANDLOCK_ABI": "5"})
        self.assertEqual(r.returncode, EXIT_LANDLOCK, r.stderr)
        self.assertIn("agent-bwrap: --require-landlock: Landlock ABI 5: filesystem rules "
                      "applied; not available: scoping (ABI 6)\n", r.stderr)
        r = self.run_bwrap("/bin/true", args=("--require-landlock",))
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_profile_without_landlock_calls(self):
        # a profile that denies Landlock's calls: the init says so and goes on
        with open(PROFILE) as f:
            prof = json.load(f)
        for entry in prof["syscalls"]:
            entry["names"] = [n for n in entry.get("names", []) if not n.startswith("landlock")]
        path = os.path.join(self.tmp, "nolandlock.json")
        with open(path, "w") as f:
            json.dump(prof, f)
        r = self.run_bwrap("/workspace/probe", "write", "/dev/new", env={"SECCOMP_FILE": path})
        self.assertEqual(r.stdout.strip(), "ok")
        self.assertIn("agent-bwrap: Landlock unavailable (Operation not permitted)", r.stderr)


class Cgroup(Sandbox):
    def test_in_agent_sandbox_cgroup_and_cleaned_up(self):
        session = f"test-{os.getpid()}-cg"
        r = self.run_bwrap("/bin/sh", "-c", "cat /proc/self/cgroup; echo $AGENT_SESSION_ID",
                           env={"AGENT_SESSION_ID": session})
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(lines[-1], session)
        v2 = [l for l in lines if l.startswith("0::")]
        if find_cgroup_v2():
            self.assertEqual(len(v2), 1, r.stdout)
            self.assertTrue(v2[0].endswith(f"/agent-sandbox/{session}"), v2[0])
        else:
            self.assertIn(f"/agent-sandbox/{session}", r.stdout)
        self.assertIn(f"agent-bwrap: session {session}", r.stderr)
        self.assertEqual(session_dirs(session), [], "session cgroup left behind")

    def test_generated_session(self):
        r = self.run_bwrap("/workspace/probe", "env", "AGENT_SESSION_ID")
        sid = r.stdout.strip()
        self.assertRegex(sid, r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
        self.assertIn(f"agent-bwrap: session {sid}\n", r.stderr)

    def test_limits(self):
        session = f"test-{os.getpid()}-lim"
        env = dict(self.env, AGENT_SESSION_ID=session)
        p = subprocess.Popen([AGENT_BWRAP, "--memory-max", "64M", "--pids-max", "32", self.ws,
                              "--", "/bin/sh", "-c", "echo started; read x"],
                             env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        try:
            self.assertEqual(p.stdout.readline(), "started\n")
            dirs = session_dirs(session)
            values = {}
            for d in dirs:
                for name in ("memory.max", "memory.limit_in_bytes", "pids.max"):
                    if os.path.exists(os.path.join(d, name)):
                        with open(os.path.join(d, name)) as f:
                            values[name] = f.read().strip()
            self.assertEqual(values.get("pids.max"), "32", (dirs, values))
            self.assertIn(str(64 << 20), (values.get("memory.max"),
                                          values.get("memory.limit_in_bytes")), values)
            p.stdin.write("go\n")
            p.stdin.flush()
            self.assertEqual(p.wait(TIMEOUT), 0)
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
            p.stdin.close()
            p.stdout.close()
            p.stderr.close()
        self.assertEqual(session_dirs(session), [])

    def test_bad_session_id(self):
        r = self.run_bwrap("/bin/true", env={"AGENT_SESSION_ID": "../escape"})
        self.assertEqual(r.returncode, EXIT_USAGE)
        self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)


class Syslog(Sandbox):
    def test_stderr_tee(self):
        r = self.run_bwrap("/bin/sh", "-c", "echo to-stdout; echo denied-marker-1 >&2; "
                           "echo denied-marker-2 >&2; exit 3")
        self.assertEqual(r.returncode, 3)
        self.assertEqual(r.stdout, "to-stdout\n")
        self.assertIn("denied-marker-1\ndenied-marker-2\n", r.stderr)
        msgs = self.syslog_lines()
        tagged = [m for m in msgs if m.startswith("<12>") and " agent-sandbox[" in m]
        self.assertEqual(len(tagged), len(msgs), msgs)
        self.assertTrue(any(m.endswith("]: denied-marker-1") for m in tagged), msgs)
        self.assertTrue(any(m.endswith("]: denied-marker-2") for m in tagged), msgs)
        self.assertFalse(any("to-stdout" in m for m in msgs))

    def test_bwrap_own_error(self):
        r = self.run_bwrap("/nonexistent-agent")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("nonexistent-agent", r.stderr)
        self.assertTrue(any("agent-sandbox[" in m and "nonexistent-agent" in m
                            for m in self.syslog_lines()))

    def test_no_syslog_still_runs(self):
        r = self.run_bwrap("/bin/sh", "-c", "echo x >&2",
                           env={"AGENT_BWRAP_SYSLOG_SOCKET": os.path.join(self.tmp, "none")})
        self.assertEqual(r.returncode, 0)
        self.assertIn("stderr only", r.stderr)
        self.assertIn("x\n", r.stderr)


class BadInput(Sandbox):
    def write_profile(self, text):
        path = os.path.join(self.tmp, "profile.json")
        with open(path, "w") as f:
            f.write(text)
        return path

    def profile_with(self, entry):
        with open(PROFILE) as f:
            prof = json.load(f)
        prof["syscalls"].append(entry)
        return self.write_profile(json.dumps(prof))

    def check(self, code, pattern, env=None, workdir=None):
        session = f"test-{os.getpid()}-bad-{code}"
        marker = f"marker-{os.getpid()}-{code}"
        full = dict(env or {}, AGENT_SESSION_ID=session)
        r = self.run_bwrap("/bin/sh", "-c", f"sleep 30 # {marker}", env=full, workdir=workdir)
        self.assertEqual(r.returncode, code, r.stderr)
        lines = r.stderr.splitlines()
        self.assertEqual(len(lines), 1, r.stderr)
        self.assertTrue(lines[0].startswith("agent-bwrap: "), lines[0])
        self.assertRegex(lines[0], pattern)
        self.assertEqual(session_dirs(session), [], "cgroup left behind")
        self.assertEqual(procs_with(marker), [], "process left running")
        return lines[0]

    def test_missing_seccomp_file(self):
        path = os.path.join(self.tmp, "missing.json")
        self.check(EXIT_SC_MISSING, f"seccomp profile {path}: cannot open: No such file",
                   env={"SECCOMP_FILE": path})

    def test_malformed_seccomp_file(self):
        path = self.write_profile('{\n  "defaultAction": "SCMP_ACT_ERRNO",\n  "syscalls": [\n')
        self.check(EXIT_SC_MALFORMED, r"line \d+ column \d+: invalid JSON",
                   env={"SECCOMP_FILE": path})

    def test_not_a_profile(self):
        path = self.write_profile('{"defaultAction": 3}')
        self.check(EXIT_SC_MALFORMED, r"defaultAction: expected a string",
                   env={"SECCOMP_FILE": path})

    def test_unknown_syscall(self):
        path = self.profile_with({"names": ["read", "no_such_call"], "action": "SCMP_ACT_ALLOW"})
        self.check(EXIT_SC_UNSUPPORTED,
                   r'syscalls\[\d+\]\.names\[1\]: unknown syscall name "no_such_call"',
                   env={"SECCOMP_FILE": path})

    def test_unsupported_action(self):
        path = self.profile_with({"names": ["read"], "action": "SCMP_ACT_NOTIFY"})
        self.check(EXIT_SC_UNSUPPORTED, r'syscalls\[\d+\]: unsupported action "SCMP_ACT_NOTIFY"',
                   env={"SECCOMP_FILE": path})

    def test_unsupported_operator(self):
        path = self.profile_with({"names": ["read"], "action": "SCMP_ACT_ALLOW",
                                  "args": [{"index": 0, "value": 1, "op": "SCMP_CMP_FOO"}]})
        self.check(EXIT_SC_UNSUPPORTED, r'args\[0\]: unsupported operator "SCMP_CMP_FOO"',
                   env={"SECCOMP_FILE": path})

    def test_foreign_syscall_accepted(self):
        # arm_fadvise64_64 exists on ARM only: not an error on x86_64 (nor on aarch64).
        path = self.profile_with({"names": ["arm_fadvise64_64"], "action": "SCMP_ACT_ALLOW"})
        if os.uname().machine in ("armv7l", "armv6l"):
            self.skipTest("native syscall here")
        r = self.run_bwrap("/bin/true", env={"SECCOMP_FILE": path})
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_workspace_is_file(self):
        f = os.path.join(self.tmp, "file")
        open(f, "w").close()
        self.check(EXIT_WS_NOT_DIR, f"workspace is not a directory: {f}", workdir=f)

    def test_workspace_missing(self):
        d = os.path.join(self.tmp, "nodir")
        self.check(EXIT_WS_MISSING, f"workspace dir does not exist: {d}", workdir=d)

    def test_missing_bwrap(self):
        self.check(EXIT_BWRAP_MISSING, r"bubblewrap not found: /nonexistent/bwrap",
                   env={"BWRAP": "/nonexistent/bwrap"})

    def test_bwrap_not_in_path(self):
        self.check(EXIT_BWRAP_MISSING, r"bubblewrap not found: bwrap",
                   env={"PATH": self.tmp})

    def test_bad_landlock_abi(self):
        self.check(EXIT_USAGE, r"AGENT_BWRAP_LANDLOCK_ABI=x: not a Landlock ABI number",
                   env={"AGENT_BWRAP_LANDLOCK_ABI": "x"})

    def test_bad_relay_port(self):
        for port in ("0", "65536", "x"):
            with self.subTest(port=port):
                r = self.run_bwrap("/bin/true", args=("--relay-port", port))
                self.assertEqual(r.returncode, EXIT_USAGE)
                self.assertEqual(r.stderr.splitlines(),
                                 [f"agent-bwrap: --relay-port {port}: not a TCP port (1-65535)"])

    def test_init_missing(self):
        self.check(EXIT_INIT_MISSING, r"agent-bwrap-init not found: /nonexistent/init",
                   env={"AGENT_BWRAP_INIT": "/nonexistent/init"})

    def test_init_bad_lifeline(self):
        init = os.path.join(os.path.dirname(AGENT_BWRAP), "agent-bwrap-init")
        for fd in ("x", "", "1", "3x", "999", "-4"):
            with self.subTest(fd=fd):
                r = subprocess.run([init, "--lifeline", fd, "--", "/bin/true"],
                                   capture_output=True, text=True, timeout=TIMEOUT)
                self.assertEqual(r.returncode, EXIT_USAGE)
                self.assertEqual(r.stderr.splitlines(),
                                 [f"agent-bwrap: agent-bwrap-init: --lifeline {fd}: "
                                  "not an open descriptor above 2"])
        # outside a new PID namespace its watcher's kill(-1) would reach the host
        rd, wr = os.pipe()
        try:
            r = subprocess.run([init, "--lifeline", str(rd), "--", "/bin/true"], pass_fds=(rd,),
                               capture_output=True, text=True, timeout=TIMEOUT)
        finally:
            os.close(rd)
            os.close(wr)
        self.assertEqual(r.returncode, EXIT_USAGE)
        self.assertEqual(r.stderr.splitlines(),
                         ["agent-bwrap: agent-bwrap-init: --lifeline: "
                          "not started by PID 1 of a new PID namespace"])

    def test_bad_option(self):
        r = self.run_bwrap("/bin/true", args=("--frobnicate",))
        self.assertEqual(r.returncode, EXIT_USAGE)
        self.assertEqual(len(r.stderr.splitlines()), 1)


class Lifecycle(Sandbox):
    def kill_launcher(self, env=None, sig=signal.SIGKILL):
        """Start a looping shell in the sandbox, signal agent-bwrap, and check
        that it exits and the sandbox goes with it, leaving an empty session
        cgroup (SIGKILL: the launcher cannot remove it)."""
        marker = f"lifecycle-{os.getpid()}"
        env = dict(self.env, AGENT_SESSION_ID=marker, **(env or {}))
        # the marker is the shell's $0: in its command line for as long as it runs
        p = subprocess.Popen([AGENT_BWRAP, self.ws, "--", "/bin/sh", "-c",
                              "echo up; while :; do sleep 1; done", marker],
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             text=True)
        self.assertEqual(p.stdout.readline(), "up\n")
        self.assertTrue(procs_with(marker))
        p.send_signal(sig)
        try:
            p.wait(TIMEOUT)
        finally:
            if p.poll() is None:  # hung: a sandbox left holding its stderr
                p.kill()
                p.wait()
            p.stdout.close()
        def cgroup_pids():
            out = ""
            for d in session_dirs(marker):
                with open(os.path.join(d, "cgroup.procs")) as f:
                    out += f.read()
            return out

        # the shell goes first; its `sleep 1` child may outlive it by a moment
        deadline = time.monotonic() + 10
        while (procs_with(marker) or cgroup_pids()) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = procs_with(marker)
        for pid in left:  # no stray sandbox for the next test
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        self.assertEqual(left, [], [proc_summary(pid) for pid in left])
        # A launcher killed with SIGKILL cannot remove its session cgroup: it must be
        # empty, and the test removes it.
        if sig != signal.SIGKILL:
            self.assertEqual(p.returncode, 128 + sig)
            self.assertEqual(session_dirs(marker), [])
        for d in session_dirs(marker):
            with open(os.path.join(d, "cgroup.procs")) as f:
                self.assertEqual(f.read(), "", d)
            os.rmdir(d)

    def test_launcher_killed_takes_sandbox_down(self):
        self.kill_launcher()

    def no_die_wrapper(self):
        """bubblewrap without --die-with-parent: its PID 1 survives its parent."""
        wrapper = os.path.join(self.tmp, "bwrap-no-die")
        with open(wrapper, "w") as f:
            f.write("#!/bin/sh\n"
                    "for a; do shift; [ \"$a\" = --die-with-parent ] || set -- \"$@\" \"$a\"; done\n"
                    f"exec {shutil.which('bwrap')} \"$@\"\n")
        os.chmod(wrapper, 0o755)
        return wrapper

    def test_lifeline_when_bubblewrap_outlives_launcher(self):
        # bubblewrap 0.8 arms --die-with-parent in its PID 1 after forking the
        # command, without checking that its parent still runs: a launcher killed
        # in that window leaves PID 1 and the sandbox running. Without the flag
        # that window is permanent, so only the lifeline (lifeline.h) can end it.
        self.kill_launcher(env={"BWRAP": self.no_die_wrapper()})

    def test_lifeline_when_bubblewrap_dies_first(self):
        # A forwarded SIGTERM ends bubblewrap itself; its PID 1, unarmed in the
        # same window, would keep the sandbox and its stderr pipe open, and
        # agent-bwrap waiting on that pipe forever: it cuts the lifeline the
        # moment bubblewrap exits.
        self.kill_launcher(env={"BWRAP": self.no_die_wrapper()}, sig=signal.SIGTERM)

    def test_sigterm_forwarded(self):
        p = subprocess.Popen([AGENT_BWRAP, self.ws, "--", "/bin/sh", "-c", "echo up; sleep 300"],
                             env=self.env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             text=True)
        self.assertEqual(p.stdout.readline(), "up\n")
        p.send_signal(signal.SIGTERM)
        self.assertNotEqual(p.wait(TIMEOUT), 0)
        p.stdout.close()

    def test_caller_fds_not_inherited(self):
        leak = os.open(os.path.join(self.tmp, "secret"), os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            # ls itself, no shell: a shell holds descriptors of its own while
            # it sets up pipes and redirections (seen under load). ls lists
            # 0-2 and the directory it reads, at the lowest free number: 3
            # only when nothing leaked in.
            r = subprocess.run([AGENT_BWRAP, self.ws, "--", "/bin/ls", "/proc/self/fd"],
                               env=self.env, capture_output=True, text=True, timeout=TIMEOUT,
                               pass_fds=(leak,))
        finally:
            os.close(leak)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(sorted(r.stdout.split(), key=int), ["0", "1", "2", "3"], r.stdout)

    def test_loader_variables_reach_only_the_command(self):
        """The monitor trusts agent-bwrap and the bubblewrap it runs, by their
        paths, while they build the sandbox: neither may run code that an
        LD_PRELOAD names. agent-bwrap is static (but in a sanitizer build), and
        bubblewrap gets the loader's variables only as --setenv for the command,
        which still sees them; agent-bwrap-init, which applies Landlock in
        the sandbox before the command runs, is static too."""
        marks, inside = os.path.join(self.tmp, "marks"), os.path.join(self.ws, "marks")
        os.mkdir(marks)
        os.mkdir(inside)
        shutil.copy(PRELOAD, os.path.join(self.ws, "preload.so"))
        # the host's path for the processes outside, the workspace's inside
        preload = PRELOAD + ":/workspace/preload.so"
        r = self.run_bwrap("/usr/bin/env", env={
            "LD_PRELOAD": preload, "GLIBC_TUNABLES": "glibc.malloc.perturb=0",
            "BWRAP_PRELOAD_MARKS": marks + ":/workspace/marks"})
        self.assertEqual(r.returncode, 0, r.stderr)
        env = r.stdout.splitlines()
        self.assertIn("LD_PRELOAD=" + preload, env)
        self.assertIn("GLIBC_TUNABLES=glibc.malloc.perturb=0", env)
        got = sorted(os.listdir(marks))
        self.assertNotIn("bwrap", got)
        if STATIC:
            self.assertEqual(got, [])
        # inside: the command loads it, the init that applies Landlock
        # before it (static, always) does not
        self.assertEqual(sorted(os.listdir(inside)), ["env"])
        # the control: the library does mark a dynamic program that loads it
        subprocess.run(["/bin/true"], env=dict(os.environ, LD_PRELOAD=PRELOAD,
                                               BWRAP_PRELOAD_MARKS=marks), check=True)
        self.assertIn("true", os.listdir(marks))

    def test_exit_status_passed_through(self):
        self.assertEqual(self.run_bwrap("/bin/sh", "-c", "exit 7").returncode, 7)

    def test_dry_run(self):
        r = self.run_bwrap("/bin/true", args=("--dry-run",))
        self.assertEqual(r.returncode, 0, r.stderr)
        out = r.stdout
        for flags in ("--ro-bind /usr /usr", "--ro-bind /etc /etc", "--tmpfs /tmp",
                      "--tmpfs /var/tmp", f"--bind {os.path.realpath(self.ws)} /workspace",
                      "--chdir /workspace", "--proc /proc", "--dev /dev", "--unshare-uts",
                      "--unshare-ipc", "--unshare-pid", "--new-session", "--die-with-parent",
                      "--cap-drop ALL", "--unshare-net", "--setenv AGENT_SESSION_ID",
                      "--seccomp ", "-- /bin/true"):
            self.assertIn(flags, out)
        for path in ("/lib", "/lib64"):
            if not os.path.lexists(path):
                self.assertNotIn(f" {path} ", out)


if __name__ == "__main__":
    unittest.main(verbosity=2)
