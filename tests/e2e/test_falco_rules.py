#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""Falco's default rules (tests/rules/falco/falco_rules.yaml, the pinned
stable set) on the real kernel: every loaded rule whose events agent-sentinel
captures is triggered by a real act and fires with Falco's output.

Not triggered, with the reason:
- "Linux Kernel Module Injection Detected", on a kernel built without module
  support (this VM's 6.18: no syscalls/sys_exit_finit_module tracepoint,
  finit_module returns ENOSYS): there is no event to capture. Where the
  tracepoint exists the act runs and the rule must fire.
"Directory traversal monitored file read" tests fd.nameraw for '../': an
open's record carries the string as passed when a rule reads fd.nameraw
(bpf/file.bpf.c). The PTRACE pair tests evt.dir=> (Falco's enter event):
the one record of a syscall is its enter and its exit (rules/README.md), so
they fire.
"Contact K8S API Server From Container" compares fd.sip.name with
kubernetes.default.svc.cluster.local: agent-sentinel runs in a private mount
namespace whose /etc/hosts maps that name to 127.0.0.3 (the host's file is
left alone), and a process in a container connects there.
A container is a cgroup whose path holds a 64-hex id, as docker, containerd
and cri-o make them (container.id); the acts in "containers" join such a
cgroup first. container.privileged comes from the runtime: debugfs runs in a
privileged container that a private containerd starts (tests/e2e/containers).
"""
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest

import harness
from harness import AS_SOURCE_DIR, Sentinel

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "containers"))
import runtimes  # noqa: E402

FALCO_RULES = os.path.join(AS_SOURCE_DIR, "tests/rules/falco/falco_rules.yaml")
FALCO_INCUBATING = os.path.join(AS_SOURCE_DIR, "tests/rules/falco/falco-incubating_rules.yaml")
FALCO_SANDBOX = os.path.join(AS_SOURCE_DIR, "tests/rules/falco/falco-sandbox_rules.yaml")
AS_ACTS = os.environ.get("AS_ACTS", "build/tests/as-acts")
CONTAINER_ID = "a1b2c3d4e5f6" + "0" * 52  # 64 hex digits: a container runtime's id
SERVER_AGE = 5.5  # seconds: Falco's proc_is_new is 5 s (proc.duration <= 5000000000)
IMAGE = "docker.io/library/as-busybox:1.35"
# debugfs after the runtime has answered for the container (a lookup takes a
# few ms; the first events of a container may come before it)
DEBUGFS = ["sh", "-c", "sleep 2; debugfs as-falco-debugfs"]
K8S_API = "kubernetes.default.svc.cluster.local"  # the rules' k8s_api_server macro
K8S_API_IP = "127.0.0.3"


def kernel_has_modules():
    """Does the kernel have the module syscalls (their exit tracepoint)?"""
    for tracefs in ("/sys/kernel/tracing", "/sys/kernel/debug/tracing"):
        if os.path.isdir(os.path.join(tracefs, "events/syscalls")):
            return os.path.isdir(os.path.join(tracefs, "events/syscalls/sys_exit_finit_module"))
    raise AssertionError("no tracefs")


def cgroup2_root():
    with open("/proc/mounts") as f:
        for line in f:
            dev, mnt, fstype = line.split()[:3]
            if fstype == "cgroup2":
                return mnt
    raise AssertionError("no cgroup2 mount")


def falco_rule(name, path=FALCO_RULES):
    """(priority, output) of rule NAME as the pinned file PATH writes them."""
    with open(path) as f:
        text = f.read()
    m = re.search(r"^- rule: %s\n(.*?)(?=^- |\Z)" % re.escape(name), text, re.S | re.M)
    assert m, name
    body = m.group(1)
    out = re.search(r"^  output: (.*)$", body, re.M).group(1)
    prio = re.search(r"^  priority:\s*(\w+)", body, re.M).group(1)
    prio = prio.capitalize()
    return ("Informational" if prio == "Info" else prio), out


class FalcoDefaults(unittest.TestCase):
    maxDiff = None

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="as-falco-")
        os.chmod(self.tmp, 0o755)  # nobody execs from it
        # same file system as /etc (hard links to /etc/shadow)
        self.var = tempfile.mkdtemp(prefix="as-falco-", dir="/var/lib")
        self.cg = os.path.join(cgroup2_root(), "as-falco-%d-%s" % (os.getpid(), CONTAINER_ID))
        self.shm = "/dev/shm/as-falco-%d" % os.getpid()
        # a privileged container of a real runtime, its image a static busybox
        # that also answers to debugfs
        rootfs = runtimes.make_rootfs(os.path.join(self.tmp, "rootfs"))
        os.symlink("busybox", os.path.join(rootfs, "bin/debugfs"))
        archive = os.path.join(self.tmp, "image.tar")
        runtimes.make_oci_archive(rootfs, archive, IMAGE)
        self.containerd = runtimes.Containerd(tempfile.mkdtemp(prefix="cd-", dir=self.tmp)).start()
        self.addCleanup(self.containerd.stop)
        self.containerd.ctr("image", "import", "--snapshotter", "native", archive)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)
        shutil.rmtree(self.var, ignore_errors=True)
        if os.path.exists(self.shm):
            os.unlink(self.shm)

    def named(self, name, src):
        """A copy of SRC called NAME in the test's directory (proc.name = NAME)."""
        path = os.path.join(self.tmp, name)
        shutil.copy(src, path)
        os.chmod(path, 0o755)
        return path

    def in_container(self, *argv):
        subprocess.run(["sh", "-c", 'echo $$ > %s/cgroup.procs && exec "$@"' % self.cg, "sh"]
                       + list(argv), check=False, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=60)

    def run_acts(self):
        t, v = self.tmp, self.var
        # the other end of the redirected stdin: loopback only
        srv = socket.socket()
        srv.bind(("127.0.0.1", 0))
        srv.listen(4)
        self.addCleanup(srv.close)
        self.port = srv.getsockname()[1]
        api = socket.socket()
        api.bind((K8S_API_IP, 0))
        api.listen(4)
        self.addCleanup(api.close)
        api_port = api.getsockname()[1]
        sh = subprocess.DEVNULL
        py = self.named("nginx", "/usr/bin/python3.11")
        # Read sensitive file trusted after startup: a server older than 5 s
        subprocess.run([py, "-c", "import time; time.sleep(%s); open('/etc/shadow').read()"
                        % SERVER_AGE], check=True)
        # Run shell untrusted: a web server spawns a shell
        subprocess.run([py, "-c", "import subprocess; subprocess.run(['sh', '-c', 'true', '%s'])"
                        % t], check=True)
        # Disallowed SSH Connection Non Standard Port: an ssh (argv[0]) connects out
        # to port 443 of a public address: TEST-NET-2's 198.51.100.1 on the loopback
        # of a network namespace of its own, so nothing leaves the host
        ssh = self.named("ssh", "/usr/bin/python3.11")
        subprocess.run(["unshare", "-n", "sh", "-c",
                        "ip link set lo up && ip addr add 198.51.100.1/32 dev lo && exec \"$0\" "
                        "-c \"import socket; l = socket.create_server(('198.51.100.1', 443)); "
                        "socket.create_connection(('198.51.100.1', 443)).close()  # as-falco\"",
                        ssh], check=True)
        # System user interactive: nobody runs login
        login = self.named("login", "/bin/true")
        subprocess.run([AS_ACTS, "as-user", "65534", "exec", login], check=False, stdout=sh)
        # Search Private Keys or Passwords, Find AWS Credentials
        subprocess.run(["grep", "BEGIN RSA PRIVATE", t], check=False, stdout=sh, stderr=sh)
        subprocess.run(["grep", "aws_secret_access_key", t], check=False, stdout=sh, stderr=sh)
        # Remove Bulk Data from Disk
        victim = os.path.join(t, "victim")
        with open(victim, "w") as f:
            f.write("data")
        subprocess.run(["shred", "-u", victim], check=True)
        # Create Symlink / Hardlink Over Sensitive Files
        subprocess.run(["ln", "-s", "/etc/shadow", os.path.join(t, "shadow-link")], check=True)
        subprocess.run(["ln", "/etc/shadow", os.path.join(v, "shadow-hard")], check=False,
                       stderr=sh)
        # Directory traversal monitored file read: /etc/passwd by way of ../../
        subprocess.run([self.named("travcat", "/bin/cat"), "../../etc/passwd"], cwd=t,
                       check=True, stdout=sh)
        # Read sensitive file untrusted: a program no list trusts
        subprocess.run([self.named("shadowcat", "/bin/cat"), "/etc/shadow"], check=True, stdout=sh)
        # Clear Log Activities: a log file truncated
        subprocess.run(["sh", "-c", ": > %s/auth.log" % t], check=True)
        # Execution from /dev/shm
        shutil.copy("/bin/true", self.shm)
        os.chmod(self.shm, 0o755)
        subprocess.run([self.shm, "as-falco-shm"], check=True)
        # Fileless execution via memfd_create
        acts = self.named("as-acts", AS_ACTS)
        subprocess.run([acts, "memfd-exec", "as-falco"], check=False, stdout=sh)
        # PTRACE attached to process, PTRACE anti-debug attempt
        subprocess.run([acts, "ptrace-attach"], check=True, stdout=sh)
        subprocess.run([acts, "ptrace-traceme"], check=True, stdout=sh)
        # Debugfs Launched in Privileged Container
        self.containerd.ctr("run", "--rm", "--snapshotter", "native", "--privileged", IMAGE,
                            runtimes.hexid(1), *DEBUGFS, check=False)
        # in a container: netcat with -e, a packet socket, a release_agent write
        os.mkdir(self.cg)
        try:
            nc = self.named("nc", "/bin/true")
            self.in_container(nc, "-e", "/bin/sh", t)
            self.in_container(acts, "socket", "17", "3", "768")
            agent = os.path.join(t, "release_agent")
            self.in_container("sh", "-c", "echo x > %s" % agent)
            # Linux Kernel Module Injection Detected: a module load (of no module)
            module = os.path.join(t, "as-falco.ko")
            with open(module, "w") as f:
                f.write("not a module\n")
            self.in_container(acts, "finit_module", module)
            # Drop and execute new binary in container: a file of the overlay's upper layer
            layers = [os.path.join(t, n) for n in ("lower", "upper", "work", "merged")]
            for d in layers:
                os.mkdir(d)
            shutil.copy("/bin/true", os.path.join(t, "upper", "dropped"))
            self.in_container(acts, "overlay-exec", *layers, "dropped")
            # Redirect STDOUT/STDIN to Network Connection: stdin onto a TCP connection
            revsh = self.named("revshell", "/usr/bin/python3.11")
            self.in_container(revsh, "-c", "import os, socket; s = socket.create_connection("
                              "('127.0.0.1', %d)); os.dup2(s.fileno(), 0)" % self.port)
            # Contact K8S API Server From Container
            self.in_container(revsh, "-c", "import socket; socket.create_connection("
                              "('%s', %d)).close()" % (K8S_API_IP, api_port))
            # a terminal shell started by a runtime's entrypoint (script(1) gives the tty)
            runc = self.named("runc", "/bin/dash")
            self.in_container("script", "-qec", "%s -c 'bash -c \"true as-falco-tty\"'" % runc,
                              "/dev/null")
        finally:
            time.sleep(0.2)
            os.rmdir(self.cg)

    def test_every_loaded_rule_we_capture_fires(self):
        hosts = os.path.join(self.tmp, "hosts")
        with open("/etc/hosts") as f, open(hosts, "w") as out:
            out.write(f.read() + "\n%s %s\n" % (K8S_API_IP, K8S_API))
        s = Sentinel("--rules", FALCO_RULES, "-o", "rule_matching=all",
                     "-o", "container_engines.containerd_sockets=" + self.containerd.sock,
                     "-o", "container_engines.lookup_timeout_ms=300")
        # its own /etc/hosts, in a mount namespace of its own (exec: same pid)
        s.args = ["unshare", "-m", "--propagation", "private", "sh", "-c",
                  'mount --bind "$0" /etc/hosts && exec "$@"', hosts] + s.args
        with s:
            self.run_acts()
        self.assertEqual(s.returncode, 0, s.stderr)
        # ours: our paths, the memfd's or an argument's as-falco (other tests run too)
        alerts = [a for a in s.events() if "as-falco" in a["output"]]
        want = {
            "Read sensitive file trusted after startup": "/etc/shadow",
            "Run shell untrusted": "nginx",
            "System user interactive": "login",
            "Search Private Keys or Passwords": "BEGIN RSA PRIVATE",
            "Find AWS Credentials": "aws_secret_access_key",
            "Remove Bulk Data from Disk": "shred",
            "Create Symlink Over Sensitive Files": "/etc/shadow",
            "Create Hardlink Over Sensitive Files": "/etc/shadow",
            "Fileless execution via memfd_create": "as-falco",
            "Netcat Remote Code Execution in Container": "-e /bin/sh",
            "Terminal shell in container": "command=bash -c true as-falco-tty",
            "Packet socket created in container": "command=as-acts socket 17 3 768",
            "Detect release_agent File Container Escapes": "release_agent",
            "Read sensitive file untrusted": "process=shadowcat",
            "Directory traversal monitored file read": "file=/etc/passwd fileraw=../../etc/passwd",
            "Clear Log Activities": "file=%s/auth.log" % self.tmp,
            "Execution from /dev/shm": "proc_exepath=%s " % self.shm,
            "PTRACE attached to process": "command=as-acts ptrace-attach",
            "PTRACE anti-debug attempt": "command=as-acts ptrace-traceme",
            "Debugfs Launched in Privileged Container": "command=debugfs as-falco-debugfs",
            "Linux Kernel Module Injection Detected": "module=finit_module %s/as-falco.ko"
                                                      % self.tmp,
            "Drop and execute new binary in container": "/merged/dropped",
            "Redirect STDOUT/STDIN to Network Connection in Container": "fd.sip=127.0.0.1 "
            "connection=127.0.0.1:",
            "Contact K8S API Server From Container": "->%s:" % K8S_API_IP,
            "Disallowed SSH Connection Non Standard Port": "->198.51.100.1:443 lport=",
        }
        if not kernel_has_modules():
            del want["Linux Kernel Module Injection Detected"]
        got = {}
        for a in alerts:
            got.setdefault(a["rule"], []).append(a)
        self.assertEqual(sorted(r for r in want if r not in got), [],
                         [a["rule"] + ": " + a["output"] for a in alerts])
        for rule, needle in want.items():
            prio, out = falco_rule(rule)
            # Falco's output: its text up to the first field, then the fields' values
            lead = out.split("%")[0].split("(")[0].strip()
            for a in got[rule]:
                self.assertEqual(a["priority"], prio, a["output"])
                self.assertRegex(a["output"], r"^\d\d:\d\d:\d\d\.\d{9}: %s %s" %
                                 (prio, re.escape(lead)))
                self.assertEqual(a["source"], "syscall")
            self.assertTrue([a for a in got[rule] if needle in a["output"]],
                            [a["output"] for a in got[rule]])


class FalcoIncubatingSandbox(unittest.TestCase):
    """Falco's incubating and sandbox files loaded after the stable one, as
    Falco loads them (-r falco_rules.yaml -r ...): a few of their rules that
    matter on an agent's host, each triggered by a real act. Not triggered:
    "Non sudo setuid" tests evt.dir=> (an enter event; ours are exits), and
    "Set Setuid or Setgid bit" tests evt.arg.mode for S_ISUID, the names Falco
    prints a chmod mode with, where ours is octal (README, the arguments)."""
    maxDiff = None

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="as-falco-x-")
        os.chmod(self.tmp, 0o755)  # nobody execs from it

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def named(self, name, src):
        path = os.path.join(self.tmp, name)
        shutil.copy(src, path)
        os.chmod(path, 0o755)
        return path

    def run_acts(self):
        t, sh = self.tmp, subprocess.DEVNULL
        acts = self.named("as-acts", AS_ACTS)
        # incubating: a non-shell program writes a shell's rc file (persistence)
        subprocess.run(["python3", "-c", "open('%s/.bashrc', 'w').write('x')" % t], check=True)
        # incubating: shell history deleted
        hist = os.path.join(t, ".bash_history")
        with open(hist, "w") as f:
            f.write("ls\n")
        subprocess.run(["rm", hist], check=True)
        # incubating: crontab run; a network tool on the host
        subprocess.run([self.named("crontab", "/bin/true"), "-l"], check=True)
        subprocess.run([self.named("nmap", "/bin/true"), "-sS", "10.0.0.1"], check=True)
        # sandbox: an unprivileged userfaultfd (UFFD_USER_MODE_ONLY: nobody may)
        p = subprocess.run([acts, "as-user", "65534", "userfaultfd", "1"], check=True,
                           stdout=subprocess.PIPE, text=True)
        self.assertGreaterEqual(int(p.stdout.split()[0]), 0, p.stdout)
        # sandbox: a miner's pool URI; sudoedit -s ending in a backslash; pkexec without args
        subprocess.run([self.named("xmrig", "/bin/true"), "-o", "stratum+tcp://pool.invalid:3333"],
                       check=True)
        subprocess.run([acts, "as-user", "65534", "exec", self.named("sudoedit", "/bin/true"),
                        "-s", "x\\"], check=False, stdout=sh)
        subprocess.run([acts, "as-user", "65534", "exec", self.named("pkexec", "/bin/true")],
                       check=False, stdout=sh)

    def test_incubating_and_sandbox_rules_fire(self):
        with Sentinel("-r", FALCO_RULES, "-r", FALCO_INCUBATING, "-r", FALCO_SANDBOX,
                      "-o", "rule_matching=all") as s:
            self.run_acts()
        self.assertEqual(s.returncode, 0, s.stderr)
        alerts = [a for a in s.events() if self.tmp in a["output"]]
        want = {
            "Modify Shell Configuration File": (FALCO_INCUBATING, "file=%s/.bashrc" % self.tmp),
            "Delete or rename shell history": (FALCO_INCUBATING, ".bash_history"),
            "Schedule Cron Jobs": (FALCO_INCUBATING, "process=crontab"),
            "Launch Suspicious Network Tool on Host": (FALCO_INCUBATING, "process=nmap"),
            "Unprivileged Delegation of Page Faults Handling to a Userspace Process":
                (FALCO_SANDBOX, "user_uid=65534"),
            "Detect crypto miners using the Stratum protocol": (FALCO_SANDBOX, "stratum+tcp"),
            "Sudo Potential Privilege Escalation": (FALCO_SANDBOX, "process=sudoedit"),
            "Polkit Local Privilege Escalation Vulnerability (CVE-2021-4034)":
                (FALCO_SANDBOX, "process=pkexec"),
        }
        got = {}
        for a in alerts:
            got.setdefault(a["rule"], []).append(a)
        self.assertEqual(sorted(r for r in want if r not in got), [],
                         [a["rule"] + ": " + a["output"] for a in alerts])
        for rule, (path, needle) in want.items():
            prio, out = falco_rule(rule, path)
            lead = out.split("%")[0].split("(")[0].strip()
            for a in got[rule]:
                self.assertEqual(a["priority"], prio, a["output"])
                self.assertRegex(a["output"], r"^\d\d:\d\d:\d\d\.\d{9}: %s %s" %
                                 (prio, re.escape(lead)))
            self.assertTrue([a for a in got[rule] if needle in a["output"]],
                            [a["output"] for a in got[rule]])


if __name__ == "__main__":
    harness.main()
