#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""rules/agent.yaml against real sessions on the real kernel, live and
replayed (issue 12).

The harmless corpus: corpus/harmless.sh run by real tools (git, cc, make,
tar, python3 venv + pip of a local wheel, npm of a local package) inside the
real agent-bwrap, with USE_NETWORK=0 and with the egress socket bound in.
agent-sentinel records the stream (--record) while the sessions run; the live
alerts and the alerts of a replay of that recording must be none.

The escapes: one act of every escape class (as-acts, one syscall or io_uring
request each), from inside the sandbox and from an unsandboxed agent tree;
live and replayed, each act raises exactly the expected alert (rule,
priority, target), never two.

Nothing recorded is committed: the recording ABI follows bpf/events.h, so the
test records in its own run and replays that. Alerts are those of the tested
process trees (other tests may run on the host at the same time): the trees'
pids come from a --trace replay of the same recording (proc.apid[N]).
"""
import json
import os
import shutil
import socket
import stat
import subprocess
import tempfile
import unittest

import harness
from harness import AS_BIN, AS_SOURCE_DIR, Sentinel

RULES = os.path.join(AS_SOURCE_DIR, "rules/agent.yaml")
AGENT_BWRAP = os.environ.get("AS_AGENT_BWRAP", "")
AS_ACTS = os.environ.get("AS_ACTS", "build/tests/as-acts")
AS_IA32 = os.environ.get("AS_IA32", "build/tests/as-ia32")  # acts through int $0x80
CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
PROFILE = os.path.join(AS_SOURCE_DIR, "packaging/seccomp/agent.json")
LDSO = "/lib64/ld-linux-x86-64.so.2"  # the x86_64 dynamic loader
# a program whose ELF interpreter is descriptor 9 (tests/CMakeLists.txt)
AS_INTERP_FD = os.path.join(os.path.dirname(os.path.abspath(AS_ACTS)), "as-interp-fd")
# a fixed-address (ET_EXEC) program with no libc, to be that interpreter (AT_BASE 0)
AS_INTERP_STATIC = os.path.join(os.path.dirname(os.path.abspath(AS_ACTS)), "as-interp-static")
LIBM = os.path.join(os.path.dirname(os.path.realpath(LDSO)), "libm.so.6")  # a library to preload
MEMFD_MAPPED = "/memfd:as-escape (deleted)"  # the file memfd-loader's loader maps as code
SESSION_TIMEOUT = 300  # seconds for the harmless session (npm and pip start slowly)


def launcher_rules(path):
    """The deployment's list of launcher paths, with the built agent-bwrap."""
    with open(path, "w") as f:
        f.write("- list: agent_launcher_paths\n  items: [%s]\n  override: {items: append}\n"
                % os.path.realpath(AGENT_BWRAP))


def trees(rec, roots):
    """{root: pids of ROOT and of its descendants}, from a --trace replay of REC."""
    p = subprocess.run([AS_BIN, "--trace", "--no-prefilter", "--replay", rec],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True)
    out = {r: {r} for r in roots}
    for line in p.stdout.split(b"\n"):
        if not line:
            continue
        e = json.loads(line)
        chain = [e.get("proc.pid")] + [e[k] for k in e if k.startswith("proc.apid[")]
        for c in chain:
            if c in out:
                out[c].add(e.get("proc.pid"))
    return out


def tree_pids(rec, roots):
    return set().union(*trees(rec, roots).values())


def mine(alerts, pids):
    out = []
    for a in alerts:
        assert "proc.pid" in a["output_fields"], a  # every rule names the process
        if a["output_fields"]["proc.pid"] in pids:
            out.append(a)
    return out


def replay(rec, *rules):
    args = [AS_BIN, "-o", "rule_matching=all", "--replay", rec]
    for r in rules:
        args += ["--rules", r]
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True)
    return [json.loads(l) for l in p.stdout.split(b"\n") if l]


def brief(alerts):
    return ["%s | %s | %s" % (a["rule"], a["priority"], a["output"]) for a in alerts]


class Corpus(unittest.TestCase):
    maxDiff = None
    def setUp(self):
        self.assertTrue(AGENT_BWRAP, "AS_AGENT_BWRAP must name the agent-bwrap binary")
        self.tmp = tempfile.mkdtemp(prefix="as-corpus-")
        self.launcher = os.path.join(self.tmp, "launcher.yaml")
        launcher_rules(self.launcher)
        self.rec = os.path.join(self.tmp, "session.asrec")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def sentinel(self):
        # every rule that matches alerts: an act matching two rules would show
        return Sentinel("--rules", RULES, "--rules", self.launcher, "-o", "rule_matching=all",
                        "--record", self.rec)

    def bwrap(self, ws, cmd, env, check=True):
        p = subprocess.Popen([AGENT_BWRAP, ws, "--"] + cmd, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        out, err = p.communicate(timeout=SESSION_TIMEOUT)
        if check:
            self.assertEqual(p.returncode, 0, err.decode(errors="replace")[-3000:])
        return p.pid, out.decode(errors="replace")

    def test_harmless_sessions_raise_nothing(self):
        profile = PROFILE  # the shipped one: package managers and builds run under it
        egress = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        egress_path = os.path.join(self.tmp, "egress.sock")
        egress.bind(egress_path)
        egress.listen(4)
        roots = []
        with self.sentinel() as s:
            for net in ("0", "1"):
                ws = os.path.join(self.tmp, "ws" + net)
                os.mkdir(ws)
                for f in ("harmless.sh", "run.sh"):
                    shutil.copy(os.path.join(CORPUS, f), ws)
                env = dict(os.environ, USE_NETWORK=net, EGRESS_SOCK=egress_path,
                           SECCOMP_FILE=profile, AGENT_SESSION_ID="corpus-net" + net,
                           npm_config_cache="/tmp/npm-cache", HOME="/workspace")
                pid, out = self.bwrap(ws, ["/bin/sh", "/workspace/run.sh",
                                           "/workspace/harmless.sh"], env)
                roots.append(pid)
                self.assertIn("hi\n", out)
                self.assertTrue(os.path.exists(os.path.join(ws, "app/node_modules/npmpkg")))
        egress.close()
        self.assertEqual(s.returncode, 0, s.stderr)
        pids = tree_pids(self.rec, roots)
        self.assertGreater(len(pids), 30)  # the sessions' processes were seen
        self.assertEqual(brief(mine(s.events(), pids)), [])
        self.assertEqual(brief(mine(replay(self.rec, RULES, self.launcher), pids)), [])


# Rule names of rules/agent.yaml.
SPAWN = "Agent Process Spawned Outside Sandbox"
WROTE = "Agent Wrote to Unexpected Path"
FILE, SB_FILE = "Agent Changed File Outside Workspace", "Sandboxed Agent Changed File Outside Workspace"
NET, LISTEN = "Agent Network Connection", "Agent Listening on a Socket"
SB_NET = "Sandboxed Agent Connected Outside Egress Proxy"
PRIV, SB_PRIV = "Agent Gained Privilege", "Sandboxed Agent Gained Privilege"
CODE, SB_CODE = "Agent Ran Code From Memfd or Deleted File", \
    "Sandboxed Agent Ran Code From Memfd or Deleted File"
URING = "Agent Used io_uring"
CRED = "Agent Read Credential File"
UNARMED = "Sandboxed Agent Not Confined"
COMPAT, SB_COMPAT = "Agent Used the 32-bit Syscall ABI", "Sandboxed Agent Used the 32-bit Syscall ABI"
TTY, SB_TTY = "Agent Injected Terminal Input", "Sandboxed Agent Injected Terminal Input"
PROCW = "Agent Wrote to Another Process or the Kernel Through /proc"
DEV = "Agent Created a Device Node"
NETCHG = "Agent Changed the Host Network"
RENCRED = "Agent Renamed a Credential File"
MON = "Agent Tampered With the Monitor"
RAWDEV = "Agent Opened a Raw Disk or Memory Device"
AUDIT = "Agent Changed the Audit Configuration"
LAUNCH = "Agent Started the Sandbox Launcher"
HOST, SB_HOST = "Agent Changed the Host's State", "Sandboxed Agent Changed the Host's State"
PLANT = "Agent Planted Code the Host Runs"
PRIO = {PLANT: "Error", AUDIT: "Critical", RAWDEV: "Error", LAUNCH: "Error", MON: "Critical", RENCRED: "Warning", PROCW: "Error", DEV: "Error", NETCHG: "Error", COMPAT: "Warning", SB_COMPAT: "Critical", TTY: "Error", SB_TTY: "Critical", SPAWN: "Warning", WROTE: "Warning", FILE: "Warning", SB_FILE: "Critical", NET: "Notice",
        LISTEN: "Notice", SB_NET: "Critical", PRIV: "Error", SB_PRIV: "Critical", CODE: "Error", SB_CODE: "Critical",
        URING: "Warning", UNARMED: "Critical", CRED: "Warning", HOST: "Error", SB_HOST: "Critical"}


def block_device():
    """The device number of a block device of this machine (a loop device's
    when there is one: reading one that is not set up reads nothing)."""
    names = sorted(os.listdir("/sys/class/block"), key=lambda n: (not n.startswith("loop"), n))
    if not names:
        raise AssertionError("no block device in /sys/class/block to make a node of")
    with open("/sys/class/block/%s/dev" % names[0]) as f:
        major, minor = f.read().split(":")
    return os.makedev(int(major), int(minor))


def cgroup2_root():
    with open("/proc/mounts") as f:
        for line in f:
            dev, mnt, fstype = line.split()[:3]
            if fstype == "cgroup2":
                return mnt
    raise AssertionError("no cgroup2 mount")


class Escapes(unittest.TestCase):
    """One act per run of as-acts; each act's tree raises exactly the alerts
    listed: (rule, field, value) with the rule's priority from PRIO."""
    maxDiff = None

    def setUp(self):
        self.assertTrue(AGENT_BWRAP, "AS_AGENT_BWRAP must name the agent-bwrap binary")
        self.tmp = tempfile.mkdtemp(prefix="as-esc-")
        # not under /tmp, /var/tmp or /workspace: changes here are escapes
        self.out = tempfile.mkdtemp(prefix="as-esc-", dir="/var/lib")
        self.launcher = os.path.join(self.tmp, "launcher.yaml")
        launcher_rules(self.launcher)
        self.rec = os.path.join(self.tmp, "escapes.asrec")
        self.claude = os.path.join(self.tmp, "claude")
        shutil.copy("/bin/bash", self.claude)
        self.ws = os.path.join(self.tmp, "ws")
        os.mkdir(self.ws)
        shutil.copy(AS_ACTS, os.path.join(self.ws, "as-acts"))
        shutil.copy(AS_IA32, os.path.join(self.ws, "as-ia32"))
        shutil.copy(AS_INTERP_FD, os.path.join(self.ws, "as-interp-fd"))
        shutil.copy(AS_INTERP_STATIC, os.path.join(self.ws, "as-interp-static"))
        # a repository in the workspace (made by the test, no agent), and a
        # config an agent could move over its own
        subprocess.run(["git", "init", "-q", os.path.join(self.ws, "repo")], check=True)
        with open(os.path.join(self.ws, "evil.config"), "w") as f:
            f.write("[core]\n\tfsmonitor = /workspace/as-acts\n")
        # a section an agent could rename into a key that runs programs; hooks
        # staged in the workspace, and a repository whose hooks dir is gone,
        # for a rename of the whole dir into place
        subprocess.run(["git", "-C", os.path.join(self.ws, "repo"), "config", "foo.x", "1"],
                       check=True)
        os.makedirs(os.path.join(self.ws, "staged-hooks"))
        with open(os.path.join(self.ws, "staged-hooks", "pre-commit"), "w") as f:
            f.write("#!/bin/sh\n")
        subprocess.run(["git", "init", "-q", os.path.join(self.ws, "repo2")], check=True)
        shutil.rmtree(os.path.join(self.ws, "repo2", ".git", "hooks"))
        os.mkdir(os.path.join(self.ws, "repo3"))
        shutil.copytree(os.path.join(self.ws, "staged-hooks"), os.path.join(self.ws, "staged-hooks2"))
        shutil.copytree(os.path.join(self.ws, "staged-hooks"), os.path.join(self.ws, "staged-bare"))
        # a repository whose config is not under a .git
        subprocess.run(["git", "init", "-q", "--separate-git-dir", os.path.join(self.ws, "gd"),
                        os.path.join(self.ws, "repo4")], check=True)
        with open(os.path.join(self.ws, "repo4", ".git"), "w") as f:
            f.write("gitdir: ../gd\n")  # git wrote the host's path of it
        # a repository git init then separates from its .git
        subprocess.run(["git", "init", "-q", os.path.join(self.ws, "repo6")], check=True)
        # a staged gitdir for a submodule's place; a key husky's install set
        os.mkdir(os.path.join(self.ws, "repo", ".git", "modules"))
        shutil.copytree(os.path.join(self.ws, "staged-hooks"), os.path.join(self.ws, "staged-mod"))
        subprocess.run(["git", "-C", os.path.join(self.ws, "repo4"), "config", "core.hooksPath",
                        ".husky"], check=True)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)
        shutil.rmtree(self.out, ignore_errors=True)

    def o(self, name):
        return os.path.join(self.out, name)

    def check(self, runs, rec):
        """runs: [(label, root pid, [(rule, field, value)])], value None = any; every
        alert of a run's tree is one of its entries and every entry one alert, live and
        replayed."""
        tr = trees(rec, [r[1] for r in runs])
        for src, alerts in (("live", self.live), ("replay", replay(rec, RULES, self.launcher))):
            got, want = [], []
            for label, root, exp in runs:
                seen = []
                for a in alerts:
                    if a["output_fields"].get("proc.pid") not in tr[root]:
                        continue
                    self.assertEqual(a["priority"], PRIO.get(a["rule"]), a["output"])
                    cands = [e for e in exp if e[0] == a["rule"]]
                    hit = [e for e in cands if e[2] is None or a["output_fields"].get(e[1]) == e[2]]
                    if hit:
                        seen.append(hit[0])
                    else:
                        seen.append((a["rule"], "output", a["output"]))
                got.append((label, sorted(seen, key=repr)))
                want.append((label, sorted(exp, key=repr)))
            self.assertEqual(got, want, src)

    def test_escape_acts(self):
        srv = socket.socket()
        srv.bind(("127.0.0.1", 0))
        srv.listen(8)
        tport = srv.getsockname()[1]
        udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        udp.bind(("127.0.0.1", 0))
        uport = udp.getsockname()[1]
        # a unix datagram socket of a process outside the tree (syslog's kind)
        udgram = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        udgram_path = os.path.join(self.tmp, "outside.dgram")
        udgram.bind(udgram_path)
        # a host service's server in the agent's workspace: what a sandboxed
        # connect there reaches is the host's, whatever the path
        uhost = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        uhost.bind(os.path.join(self.ws, "host.sock"))
        uhost.listen(8)
        os.makedirs(self.o(".ssh"), exist_ok=True)
        for n in ("a", "b", "t", "m", "x", "h", "u", "c", "k", "pr", "pc", ".ssh/id_uring",
                  ".git-credentials", ".netrc", "vf", "vt", "vs", "vc", "vl", "vp", "vd", "vi",
                  "fa", "ch", "ac", "sw"):
            with open(self.o(n), "w") as f:
                f.write("data")
        o = self.o
        os.mkdir(os.path.join(self.tmp, "cr"))

        def cr(name):
            return os.path.join(self.tmp, "cr", name)

        def t(name):
            return os.path.join(self.tmp, name)
        os.mknod(t("disk"), stat.S_IFBLK | 0o600, block_device())
        for n in (".env", ".env.prod", ".netrc", ".pgpass", ".pypirc", "h1/.ssh/id_rsa",
                  "h2/.ssh/id_rsa", "h2/.ssh/kh.tmp", "h3/.config/gcloud/adc.json",
                  "h4/gcloud/x"):
            os.makedirs(os.path.dirname(cr(n)), exist_ok=True)
            with open(cr(n), "w") as f:
                f.write("SECRET=1")
        self.fdlink = os.path.join(self.out, "fdlink")
        os.symlink("/proc/self/fd", self.fdlink)
        self.fifo_out = os.path.join(self.out, "fifo-w")
        os.mkfifo(self.fifo_out)
        os.symlink("/proc/self/fd", os.path.join(self.ws, "fdlink"))
        myld = os.path.join(self.tmp, "myld")
        shutil.copy(LDSO, myld)
        os.makedirs(os.path.join(self.tmp, "fd", "1"))  # a decoy: a real directory fd/1
        self.decoy = (self.tmp + "/fd/1/" + "../" * (len(self.tmp.strip("/").split("/")) + 2) +
                      "proc/self/fd/")
        open(os.path.join(self.tmp, "su"), "w").close()
        self.reader = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
        self.addCleanup(self.reader.wait)
        self.addCleanup(self.reader.kill)
        self.addCleanup(self.reader.stdin.close)
        # a process outside the tree for the tree to attach to (killed
        # before an attach's SIGSTOP could matter)
        self.victim = subprocess.Popen(["sleep", "600"])
        self.addCleanup(self.victim.wait)
        self.addCleanup(self.victim.kill)
        self.tmpfile = os.path.join(self.tmp, "mine")
        open(self.tmpfile, "w").close()
        dst = "127.0.0.1:%d" % uport
        # unsandboxed: claude -> as-acts (the seed's spawn rule reports the exec)
        acts = [
            ("rename", ["rename", o("a"), o("a2")], [(FILE, "fs.path.target", o("a2"))]),
            ("link", ["link", o("b"), o("b2")], [(FILE, "fs.path.source", o("b2"))]),
            # a second name under /tmp for a file outside: its writes and reads
            # through that name would look like ones inside
            ("link outside into tmp", ["link", o("k"), os.path.join(self.tmp, "k")],
             [(FILE, "fs.path.target", o("k"))]),
            ("symlink", ["symlink", "/etc/passwd", o("s")], [(FILE, "fs.path.source", o("s"))]),
            ("truncate", ["truncate", o("t"), "0"], [(FILE, "fs.path.name", o("t"))]),
            ("unlink", ["unlink", o("b2")], [(FILE, "fs.path.name", o("b2"))]),
            ("chmod", ["chmod", o("m"), "0600"], [(FILE, "fs.path.name", o("m"))]),
            ("chown", ["chown", o("m"), "0", "0"], [(FILE, "fs.path.name", o("m"))]),
            ("mkdir", ["mkdir", o("d"), "0755"], [(FILE, "fs.path.name", o("d"))]),
            # through /proc links, from a mount namespace other than the monitor's:
            # its own root is followed; its cwd's link cannot be read as it sees
            # it, and a change's path left under /proc counts as outside
            ("unlink via /proc/self/root", ["own-mntns", "/", "unlink", "/proc/self/root" + o("pr")],
             [(PRIV, "evt.type", "unshare"), (FILE, "evt.type", "unlink")]),  # live: o("pr")
            ("unlink via /proc/self/cwd", ["own-mntns", self.out, "unlink", "/proc/self/cwd/pc"],
             [(PRIV, "evt.type", "unshare"), (FILE, "evt.type", "unlink")]),  # /proc/PID/cwd/pc
            # through a descriptor's /proc link, the descriptor (O_PATH)
            # closed right after the call: the kernel read the file behind
            # it when the call returned
            ("chmod via /proc/self/fd", ["via-fd", o("vf"), "/proc/self/fd/", "chmod", "{}", "0600"],
             [(FILE, "fs.path.name", o("vf"))]),
            ("truncate via /dev/fd", ["via-fd", o("vt"), "/dev/fd/", "truncate", "{}", "0"],
             [(FILE, "fs.path.name", o("vt"))]),
            ("chmod via //proc/./self/fd//", ["via-fd", o("vs"), "//proc/./self/fd//", "chmod",
                                              "{}", "0600"], [(FILE, "fs.path.name", o("vs"))]),
            # the descriptor's number after 140 "./" (past the kernel's word
            # test), or after a directory really named fd/1 earlier in the path
            ("chmod via a long fd path", ["via-fd", o("vp"), "/proc/self/" + "./" * 140 + "fd/",
                                          "chmod", "{}", "0600"], [(FILE, "fs.path.name", o("vp"))]),
            ("chmod via fd past a decoy", ["via-fd", o("vd"), self.decoy, "chmod", "{}", "0600"],
             [(FILE, "fs.path.name", o("vd"))]),
            # /dev/stdin is /proc/self/fd/0: the kernel reads descriptor 0
            ("chmod /dev/stdin outside", ["chmod", "/dev/stdin", "0600", "<", o("vi")],
             [(FILE, "fs.path.name", o("vi"))]),
            ("chmod /dev/stdin inside tmp", ["chmod", "/dev/stdin", "0600", "<", self.tmpfile], []),
            ("mkdir under a dir fd", ["via-fd", self.out, "/proc/thread-self/fd/", "mkdir",
                                      "{}/vdir", "0755"], [(FILE, "fs.path.name", o("vdir"))]),
            ("chmod via fd, cwd /proc/self", ["via-fd", o("vc"), "fd/", "chdir-chmod", "/proc/self",
                                              "{}", "0600"], [(FILE, "fs.path.name", o("vc"))]),
            # a link of its own to /proc/self/fd: no "fd/N" in the path for
            # the kernel to read; the descriptor's link, unread, counts as
            # outside (a replay follows no link: the link is outside here so
            # that the replay has the act too; test_events has one under /tmp)
            ("chmod via a link to /proc/self/fd", ["via-fd", o("vl"), self.fdlink + "/", "chmod",
                                                   "{}", "0600"], [(FILE, "fs.path.name", None)]),
            ("chmod via fd inside tmp", ["via-fd", self.tmpfile, "/proc/self/fd/", "chmod", "{}",
                                         "0600"], []),
            # glibc's fchmodat(AT_SYMLINK_NOFOLLOW): chmod of /proc/self/fd/N
            ("lchmod inside tmp", ["lchmod", self.tmpfile, "0644"], []),
            ("lchmod outside", ["lchmod", o("vf"), "0644"], [(FILE, "fs.path.name", o("vf"))]),
            ("mknod", ["mknod", o("fifo"), "0600"], [(FILE, "fs.path.name", o("fifo"))]),
            ("setxattr", ["setxattr", o("x"), "user.as", "v"], [(FILE, "fs.path.name", o("x"))]),
            ("setxattrat", ["setxattrat", os.path.dirname(o("x")), os.path.basename(o("x")),
                            "user.at", "v", "0"], [(FILE, "fs.path.name", o("x"))]),
            ("open-trunc", ["open-trunc", o("t")], [(FILE, "evt.arg.flags", "O_RDONLY|O_TRUNC")]),
            # a read-only open makes the file when there is none (the kernel
            # marks it O_F_CREATED); the same open of one that exists is a read
            ("open-creat-ro", ["open-creat-ro", o("new")],
             [(FILE, "evt.arg.flags", "O_RDONLY|O_CREAT|O_F_CREATED")]),
            ("open-creat-ro existing", ["open-creat-ro", o("t")], []),
            # a credential opened through io_uring, as by openat
            ("uring-openat-read key", ["uring-openat-read", o(".ssh/id_uring")],
             [(URING, "proc.pid", None), (CRED, "fd.name", o(".ssh/id_uring"))]),
            # password stores and another process's environment, read
            ("read git-credentials", ["open-read", o(".git-credentials")],
             [(CRED, "fd.name", o(".git-credentials"))]),
            ("read netrc", ["open-read", o(".netrc")], [(CRED, "fd.name", o(".netrc"))]),
            ("read environ", ["open-read", "/proc/%d/environ" % os.getpid()],
             [(CRED, "fd.name", "/proc/%d/environ" % os.getpid())]),
            # a credential in a writable dir given a name no read rule watches
            # (by syscall and by io_uring); one that stays a credential name,
            # or a template's, is no alert
            ("rename .env to a template", ["rename", cr(".env"), cr(".env.example")],
             [(RENCRED, "fs.path.target", cr(".env.example"))]),
            ("rename a template", ["rename", cr(".env.example"), cr(".env.sample")], []),
            ("rename .env.prod to .env.bak", ["rename", cr(".env.prod"), cr(".env.bak")], []),
            ("link .netrc as notes", ["link", cr(".netrc"), cr("notes")],
             [(RENCRED, "fs.path.source", cr("notes"))]),
            ("link .pgpass as .netrc", ["link", cr(".pgpass"), cr(".netrc2")],
             [(RENCRED, "fs.path.source", cr(".netrc2"))]),
            # a credential directory renamed, a key moved out of one; a
            # key's temporary file renamed into place inside one (ssh's
            # known_hosts), a directory that only shares a name, are not
            ("rename a .ssh dir", ["rename", cr("h1/.ssh"), cr("h1/keys")],
             [(RENCRED, "fs.path.target", cr("h1/keys"))]),
            ("rename a key out of .ssh", ["rename", cr("h2/.ssh/id_rsa"), cr("h2/idr")],
             [(RENCRED, "fs.path.source", cr("h2/.ssh/id_rsa"))]),
            ("rename inside .ssh", ["rename", cr("h2/.ssh/kh.tmp"), cr("h2/.ssh/known_hosts")],
             []),
            ("rename gcloud's config dir", ["rename", cr("h3/.config/gcloud"), cr("h3/gc")],
             [(RENCRED, "fs.path.target", cr("h3/gc"))]),
            ("rename a dir named gcloud", ["rename", cr("h4/gcloud"), cr("h4/g2")], []),
            ("uring-renameat .env.bak", ["uring-renameat", cr(".env.bak"), cr("bak.txt")],
             [(URING, "proc.pid", None), (RENCRED, "fs.path.target", cr("bak.txt"))]),
            ("uring-linkat .pypirc", ["uring-linkat", cr(".pypirc"), cr("pp")],
             [(URING, "proc.pid", None), (RENCRED, "fs.path.source", cr("pp"))]),
            ("read own environ", ["open-read", "/proc/self/environ"], []),
            # ps aux opens every process's environ and shows none of it; a
            # library search path of root's own directories (CUDA's kind) is
            # no code put into it: one more spawn, no credential read
            ("ps aux, root's LD_LIBRARY_PATH",
             ["exec-env", "/usr/bin/ps", "LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu:/usr/lib",
              "--", "aux"], [(SPAWN, "proc.pid", None)]),
            ("read a file", ["open-read", o("a")], []),
            ("open_by_handle_at", ["open_by_handle_at", o("h")],
             [(FILE, "evt.type", "open_by_handle_at")]),
            ("uring-renameat", ["uring-renameat", o("u"), o("u2")],
             [(URING, "proc.pid", None), (FILE, "fs.path.target", o("u2"))]),
            ("sendto-udp", ["sendto-udp", "127.0.0.1", str(uport)],
             [(NET, "fd.sip", "127.0.0.1")]),
            # a name lookup that goes out: DNS can carry data (192.0.2.1: TEST-NET-1,
            # routed here by the default route, answered by no one)
            ("sendto dns", ["sendto-udp", "192.0.2.1", "53"], [(NET, "fd.sport", 53)]),
            ("sendmsg-udp", ["sendmsg-udp", "127.0.0.1", str(uport)],
             [(NET, "fd.sport", uport)]),
            # a datagram to another process's unix socket: out of the tree, as a connect
            ("sendto-unix", ["sendto-unix", udgram_path], [(NET, "fd.name", udgram_path)]),
            # AF_INET SOCK_PACKET: the kernel makes a packet socket
            ("inet packet socket", ["socket", "2", "10", "768"], [(NET, "evt.type", "socket")]),
            ("sendto-fastopen", ["sendto-fastopen", "127.0.0.1", str(tport)],
             [(NET, "evt.arg.flags", "MSG_FASTOPEN")]),
            ("uring-sendmsg-udp", ["uring-sendmsg-udp", "127.0.0.1", str(uport)],
             [(URING, "proc.pid", None), (NET, "evt.arg.opcode", "IORING_OP_SENDMSG")]),
            ("uring-connect", ["uring-connect", "127.0.0.1", str(tport)],
             [(URING, "proc.pid", None), (NET, "evt.arg.opcode", "IORING_OP_CONNECT")]),
            ("listen4", ["listen4", "127.0.0.1", "0"], [(LISTEN, "evt.type", "listen")]),
            ("setfsuid", ["setfsuid", "65534"], [(PRIV, "evt.type", "setfsuid")]),
            ("setgroups", ["setgroups", "0"], [(PRIV, "evt.type", "setgroups")]),
            ("unshare", ["unshare", "0x10000000"], [(PRIV, "evt.arg.flags", "CLONE_NEWUSER")]),
            # a process it did not start (a sleep of this test's), and its
            # own child made undumpable (ssh-agent's guard: root attaches
            # past it); its own plain child (strace's, gdb's program) and
            # LeakSanitizer's shape (a clone sharing its memory attaches
            # to it: every ASan-built test at exit) are its own
            ("ptrace", ["ptrace-pid", str(self.victim.pid)],
             [(PRIV, "evt.arg.request", "PTRACE_ATTACH")]),
            ("ptrace undumpable child", ["ptrace-attach-undumpable"],
             [(PRIV, "evt.arg.request", "PTRACE_ATTACH")]),
            ("ptrace own child", ["ptrace-attach"], []),
            ("ptrace by a memory sharer", ["ptrace-shared-mm"], []),
            # memory written: its tracee's (strace's) is its own; an
            # untraced child's is judged as another's (by the call's exit
            # its pid could name another process)
            ("write own tracee's memory", ["process_vm_writev-traced"], []),
            ("write own child's memory", ["process_vm_writev"],
             [(PRIV, "evt.type", "process_vm_writev")]),
            # a child started in the sandbox's cgroup (made below, before
            # the acts run), to pass for sandboxed work
            ("clone3 into the sandbox cgroup",
             ["clone3-into-cgroup", os.path.join(cgroup2_root(),
                                                 "agent-sandbox-esc-%d" % os.getpid())],
             [(PRIV, "evt.arg.flags", "CLONE_INTO_CGROUP")]),
            # memory reached through /proc: the tracer's own tracee's is
            # its own (its own child here: neither the attach nor the open
            # alerts); a process it does not trace (this test) is
            # another's, whatever the opener is
            ("traced mem", ["traced-mem", str(os.getpid())],
             [(PROCW, "fd.name", "/proc/%d/mem" % os.getpid())]),
            # a setuid file made under /tmp by an open or a mknod; a plain one
            # is not
            ("open-creat setuid", ["open-creat", t("osu"), "04755"],
             [(PRIV, "fs.path.name", t("osu"))]),
            ("open-creat plain", ["open-creat", t("pl"), "0755"], []),
            ("mknod setuid file", ["mknod-mode", t("sm"), "0104755"],
             [(PRIV, "fs.path.name", t("sm"))]),
            ("mknod plain file", ["mknod-mode", t("pm"), "0100755"], []),
            # a disk read raw through a node of its own under /tmp
            ("raw disk", ["open-read", t("disk")], [(RAWDEV, "fd.name", t("disk"))]),
            ("mount", ["mount-tmpfs", o("d")],
             [(PRIV, "evt.type", "unshare"), (PRIV, "evt.type", "mount"),
              (PRIV, "evt.type", "mount")]),
            # the rest of the mount API: a mount's options changed, a mount
            # cloned with new attributes (each beside its private namespace)
            ("fspick", ["fspick-remount", o("d")],
             [(PRIV, "evt.type", "unshare"), (PRIV, "evt.type", "mount"),
              (PRIV, "evt.type", "mount"), (PRIV, "fs.path.name", o("d")),
              (PRIV, "evt.type", "fsconfig"), (PRIV, "evt.type", "fsconfig")]),
            ("open_tree_attr", ["open-tree-attr", self.out],
             [(PRIV, "evt.type", "unshare"), (PRIV, "evt.type", "mount"),
              (PRIV, "evt.type", "open_tree_attr")]),
            # a file's inode flags (chattr +i, +a) outside, by syscall and by ioctl
            ("file_setattr", ["file-setattr", o("fa")], [(FILE, "fs.path.name", o("fa"))]),
            ("chattr", ["chattr-same", o("ch")], [(FILE, "fs.path.name", o("ch"))]),
            # process accounting: the kernel appends to the file at each exit
            ("acct", ["acct", o("ac")], [(PRIV, "fs.path.name", o("ac")),
                                        (PRIV, "fs.path.name", None)]),
            # ifconfig's way: a socket ioctl brings an interface up (in a
            # namespace of its own here: the ioctl does not say which)
            ("netns ifup", ["netns-ifup"], [(PRIV, "evt.type", "unshare"),
                                            (NETCHG, "evt.arg.request", "0x8914")]),
            # the kernel's audit asked to change (an empty mask: nothing changes)
            ("audit set", ["audit-set-nothing"], [(AUDIT, "evt.arg.nlmsg_type", "AUDIT_SET")]),
            # the same by write(2) on the socket, no send call: read as sent;
            # spliced from a pipe: unread, a change on the host's netlink
            ("audit set by write", ["audit-set-nothing", "write"],
             [(AUDIT, "evt.type", "write")]),
            ("audit set by splice", ["audit-set-nothing", "splice"],
             [(NETCHG, "evt.type", "splice")]),
            # a route change sent after eight reads: the latest message is kept
            # (in a namespace of its own: its unshare alone is the alert)
            ("netlink padded", ["netns-newaddr", "pad"], [(PRIV, "evt.type", "unshare")]),
            ("netlink writev", ["netns-newaddr", "writev"], [(PRIV, "evt.type", "unshare")]),
            # root's id kept as the saved one while running as a user: the
            # drop and the regain each alert (the first act's fields are after it)
            ("keep root as saved uid", ["keep-root", "1000", "setresuid", "-1", "0", "-1"],
             [(PRIV, "user.uid", 1000), (PRIV, "user.uid", 0)]),
            ("bpf", ["bpf-prog-load-fail"], [(PRIV, "evt.type", "bpf")]),
            # the host's own state: its name, its clock, power, swap,
            # console, a file monitor of the agent's own; reads of the clock
            # and the kernel log, and the kernel's keys, are no act on the
            # host, nor are a name set in a UTS namespace of the agent's own
            # and a reboot in a pid namespace of its own (making the
            # namespace is the privilege rule's alert)
            ("sethostname", ["host-sethostname-same"], [(HOST, "evt.type", "sethostname")]),
            ("sethostname in own uts ns", ["host-sethostname", "as-escape"],
             [(PRIV, "evt.arg.flags", "CLONE_NEWUTS")]),
            ("reboot in own pid ns", ["host-reboot-pidns"],
             [(PRIV, "evt.arg.flags", "CLONE_NEWPID")]),
            ("settimeofday", ["host-settimeofday-null"], [(HOST, "evt.type", "settimeofday")]),
            ("adjtimex status", ["host-adjtimex-same"], [(HOST, "evt.arg.modes", "0x10")]),
            # ... set, then EFAULT: the struct could not be copied back
            ("adjtimex status, read-only", ["host-adjtimex-same", "ro"],
             [(HOST, "evt.res", "EFAULT")]),
            # a clock or name the kernel refused to set changed nothing (a
            # test suite's unprivileged try); the rest alert when refused too
            ("clock_settime refused", ["host-clock-settime", "99"], []),
            ("adjtimex refused", ["host-adjtimex", "0x4000"], []),
            ("clock_adjtime refused", ["host-clock-adjtime", "0", "0x4000"], []),
            ("adjtimex read", ["host-adjtimex", "0"], []),
            ("adjtime read", ["host-clock-adjtime", "0", "0xa001"], []),
            ("reboot", ["host-reboot-bad"], [(HOST, "evt.arg.cmd", "LINUX_REBOOT_CMD_CAD_OFF")]),
            ("swapon", ["host-swapon", o("sw")], [(HOST, "evt.arg.path", o("sw"))]),
            ("swapoff", ["host-swapoff", o("sw")], [(HOST, "evt.type", "swapoff")]),
            ("console level", ["host-syslog", "8"],
             [(HOST, "evt.arg.type", "SYSLOG_ACTION_CONSOLE_LEVEL")]),
            ("kernel log size", ["host-syslog", "10"], []),
            ("fanotify", ["host-fanotify", self.tmp], [(HOST, "evt.type", "fanotify_init")]),
            ("kernel keys", ["host-keys"], []),
            ("hardware clock", ["host-rtc-set", o("sw")], [(HOST, "evt.arg.request", "0x4024700a")]),
            # a setuid or setgid bit, or file capabilities, under /tmp too (a
            # root shell left for any local user); outside it is one alert,
            # the privilege one. A mode without them is nothing under /tmp
            ("setuid bit in tmp", ["chmod", os.path.join(self.tmp, "su"), "04755"],
             [(PRIV, "evt.arg.mode", "04755")]),
            ("setgid bit outside", ["chmod", o("m"), "02755"], [(PRIV, "fs.path.name", o("m"))]),
            ("file capabilities in tmp", ["setxattr", os.path.join(self.tmp, "su"),
                                          "security.capability", "v"],
             [(PRIV, "path", None)]),
            ("plain chmod in tmp", ["chmod", os.path.join(self.tmp, "su"), "0755"], []),
            ("memfd-exec", ["memfd-exec", "as-escape"], [(CODE, "proc.is_exe_from_memfd", True)]),
            # a memfd as the ELF interpreter of a program from a file (one alert)
            ("memfd interpreter", ["interp-fd", "as-escape", LDSO, AS_INTERP_FD],
             [(CODE, "proc.is_interp_nolink", True)]),
            ("memfd static interpreter", ["interp-fd", "as-escape", AS_INTERP_STATIC, AS_INTERP_FD],
             [(CODE, "proc.is_interp_nolink", True)]),
            # the same code mapped by the dynamic loader run as a program: the
            # kernel execs only the loader (one alert: not also a spawn)
            ("memfd-loader", ["memfd-loader", "as-escape", LDSO],
             [(CODE, "proc.exepath", os.path.realpath(LDSO))]),
            ("memfd-loader /dev/fd", ["memfd-loader", "as-escape", LDSO, "/dev/fd/"],
             [(CODE, "proc.exepath", os.path.realpath(LDSO))]),
            # another spelling of the same descriptor
            ("memfd-loader /./proc", ["memfd-loader", "as-escape", LDSO, "/./proc/self/fd/"],
             [(CODE, "proc.exepath", os.path.realpath(LDSO))]),
            ("memfd-loader thread-self", ["memfd-loader", "as-escape", LDSO,
                                          "//proc/thread-self/fd/"],
             [(CODE, "proc.exepath", os.path.realpath(LDSO))]),
            # a link to the descriptors, or a copy of the loader by another
            # name: the exec is a plain spawn, and the loader's mapping of a
            # file with no link as code (no exec names the code) says what it was
            ("memfd-loader link", ["memfd-loader", "as-escape", LDSO, self.fdlink + "/"],
             [(SPAWN, "proc.pid", None), (CODE, "evt.arg.path", MEMFD_MAPPED)]),
            ("memfd-loader copy", ["memfd-loader", "as-escape", myld],
             [(SPAWN, "proc.pid", None), (CODE, "evt.arg.path", MEMFD_MAPPED)]),
            # code mapped from a file with no link by a program that is no
            # loader, each way pages become code: one alert each
            ("map memfd", ["map-code", "memfd", "mmap"],
             [(CODE, "evt.arg.path", "/memfd:as-code (deleted)")]),
            ("mprotect memfd", ["map-code", "memfd", "mprotect"],
             [(CODE, "proc.cmdline", "as-acts map-code memfd mprotect")]),
            ("pkey_mprotect memfd", ["map-code", "memfd", "pkey_mprotect"],
             [(CODE, "proc.cmdline", "as-acts map-code memfd pkey_mprotect")]),
            ("map O_TMPFILE", ["map-code", "tmpfile:" + self.tmp, "mmap"],
             [(CODE, "evt.arg.prot", "PROT_READ|PROT_EXEC")]),
            ("map unlinked", ["map-code", "unlinked:" + os.path.join(self.tmp, "ul"), "mmap"],
             [(CODE, "evt.arg.path", os.path.join(self.tmp, "ul") + " (deleted)")]),
            # a library preloaded from an O_TMPFILE's descriptor into a plain
            # program: its loader maps it (the exec itself is a plain spawn)
            ("preload O_TMPFILE", ["preload-tmpfile", self.tmp, LIBM, "/bin/true"],
             [(SPAWN, "proc.pid", None), (CODE, "proc.exepath", "/usr/bin/true")]),
            # a file with a name, a mapping that is no code, a JIT's
            # anonymous code: nothing
            ("map named", ["map-code", "named:" + os.path.join(self.tmp, "nm"), "mmap"], []),
            ("map memfd no exec", ["map-code", "memfd", "read"], []),
            ("anonymous code", ["map-code", "-", "anon"], []),
            # stdin is no terminal here (ENOTTY): the attempt is the act
            ("tiocsti", ["tiocsti", "x"], [(TTY, "evt.arg.request", "0x5412")]),
            # /proc: another process's memory and the kernel's settings, opened
            # for writing (nothing is written); its own entries are its to write
            ("proc mem", ["open-write", "/proc/%d/mem" % os.getpid()],
             [(PROCW, "fd.procpid", os.getpid())]),
            ("proc sys", ["open-write", "/proc/sys/kernel/core_pattern"],
             [(PROCW, "fd.name", "/proc/sys/kernel/core_pattern")]),
            ("proc own", ["open-write", "/proc/self/comm"], []),
            # ... but for its loginuid: the audit trail's name for who logged in
            ("proc own loginuid", ["open-write", "/proc/self/loginuid"],
             [(PROCW, "fd.name", None)]),
            # the pipe a process outside reads commands from, through its
            # fd link: what is written there runs outside the tree
            ("another's pipe", ["open-write", "/proc/%d/fd/0" % self.reader.pid],
             [(PROCW, "fd.name", "pipe:[%d]" % os.fstat(self.reader.stdin.fileno()).st_ino)]),
            ("own pipe", ["open-write", "/dev/stdout"], []),
            # another's OOM score raised makes it the OOM killer's first
            # choice; a descendant's (a launcher's child, three below) is its own
            ("proc oom", ["open-write", "/proc/%d/oom_score_adj" % os.getpid()],
             [(PROCW, "fd.name", "/proc/%d/oom_score_adj" % os.getpid())]),
            ("descendant oom", ["descendant-oom", "3"], []),
            # a device node under /tmp opens the device behind it (here the
            # null device: 1, 3); a fifo there is no device
            ("mknod-chr", ["mknod-chr", os.path.join(self.tmp, "nulldev"), "1", "3"],
             [(DEV, "evt.arg.mode", "020600")]),
            ("mkfifo", ["mknod", os.path.join(self.tmp, "fifo"), "0600"], []),
            # ... but a FIFO outside, opened for writing, feeds its reader
            # (a daemon's command FIFO); a pipe onto stdout is none
            ("write a fifo outside", ["open-rdwr", self.fifo_out], [(FILE, "fd.name", self.fifo_out)]),
            # (cat, the pipe's reader, is one more spawn)
            ("stdout onto a pipe", ["open-write", "/dev/stdout", "|", "cat"],
             [(SPAWN, "proc.pid", None)]),
            # the kernel takes a syscall's number as an int and a mode as a
            # umode_t: a register's upper half set hides nothing
            ("mknod-chr hi", ["mknod-chr-hi", os.path.join(self.tmp, "nulldev2"), "1", "3"],
             [(DEV, "evt.arg.mode", "020600")]),
            ("tiocsti nr hi", ["tiocsti-nr-hi", "x"], [(TTY, "evt.arg.request", "0x5412")]),
            ("clone nr hi", ["clone-nr-hi", "0x04000000"],
             [(PRIV, "evt.arg.flags", "CLONE_NEWUTS")]),
            # a thread may have namespaces of its own (not user or pid)
            ("thread namespace", ["clone-thread", "0x04000000"], [(PRIV, "evt.type", "clone")]),
            # a unix socket bound to a path makes a file there
            ("bind unix", ["bind-unix", o("u.sock")], [(FILE, "fd.name", o("u.sock"))]),
            ("bind unix tmp", ["bind-unix", os.path.join(self.tmp, "u.sock")], []),
            # a packet socket's frames carry their own addresses
            ("packet socket", ["socket", "17", "3", "768"], [(NET, "evt.type", "socket")]),
            ("raw socket", ["socket", "2", "3", "17"], [(NET, "evt.type", "socket")]),
            # a netlink socket is SOCK_RAW too (every interface listing)
            ("netlink socket", ["socket", "16", "3", "0"], []),
        ]
        cg = os.path.join(cgroup2_root(), "agent-sandbox-esc-%d" % os.getpid())
        os.mkdir(cg)
        fake = os.path.join(self.tmp, "agent-bwrap")
        shutil.copy(AS_ACTS, fake)
        acts_bin = os.path.join(self.ws, "as-acts")
        env = dict(os.environ, USE_NETWORK="0", SECCOMP_FILE=PROFILE)
        runs = []
        try:
            with Sentinel("--rules", RULES, "--rules", self.launcher, "-o", "rule_matching=all",
                          "--record", self.rec) as s:
                # agent-sentinel itself, signalled from the tree by each road
                # (SIGCONT and signal 0 leave it running); another process not.
                # The replay knows the recording run's pid from its header.
                me = str(s.proc.pid)
                acts += [
                    ("signal the monitor", ["kill", me, "18"], [(MON, "evt.arg.sig", "SIGCONT")]),
                    ("probe the monitor", ["kill", me, "0"], [(MON, "evt.arg.sig", "0")]),
                    ("tkill the monitor", ["tkill", me, "18"], [(MON, "evt.arg.tid", me)]),
                    ("tgkill the monitor", ["tgkill", me, me, "18"], [(MON, "evt.type", "tgkill")]),
                    ("sigqueue the monitor", ["sigqueue", me, "18"],
                     [(MON, "evt.type", "rt_sigqueueinfo")]),
                    ("pidfd of the monitor", ["pidfd-signal", me, "18"],
                     [(MON, "evt.type", "pidfd_open")]),
                    ("the monitor's /proc dir", ["procdir-signal", me, "18"],
                     [(MON, "evt.arg.pidfd_file", "/proc/" + me)]),
                    # its limit, priority and classes set to what they are
                    ("limits of the monitor", ["same-sched", me],
                     [(MON, "evt.type", "prlimit"), (MON, "evt.type", "setpriority"),
                      (MON, "evt.type", "sched_setscheduler"),
                      (MON, "evt.type", "sched_setaffinity"), (MON, "evt.type", "ioprio_set")]),
                    # made the owner of a socket's I/O signals (no O_ASYNC: none sent)
                    ("owner of I/O signals", ["set-owner", me],
                     [(MON, "evt.arg.cmd", "F_SETOWN"), (MON, "evt.arg.cmd", "F_SETOWN_EX"),
                      (MON, "evt.arg.request", "0x8901")]),
                    ("another owns I/O signals", ["set-owner", str(os.getpid())], []),
                    ("signal another", ["kill", str(os.getpid()), "0"], [])]
                for label, args, exp in acts:
                    p = subprocess.Popen([self.claude, "-c", " ".join([acts_bin] + args) + "; true"],
                                         stdout=subprocess.DEVNULL)
                    p.wait(timeout=60)
                    runs.append((label, p.pid, [(SPAWN, "proc.pid", None)] * 2 + exp))
                # (two spawns: claude's own exec and as-acts', both outside the sandbox)
                # a process that calls itself agent-bwrap gets no pass
                p = subprocess.Popen([fake, "mkdir", o("fake"), "0755"], stdout=subprocess.DEVNULL)
                p.wait(timeout=60)
                runs.append(("fake launcher", p.pid, [(SPAWN, "proc.pid", None),
                                                      (FILE, "fs.path.name", o("fake"))]))
                # the same escapes through int $0x80: the same rule each, and
                # the one that names the road where no other does
                ia32_bin = os.path.join(self.ws, "as-ia32")
                for label, args, exp in [] if harness.ia32_refused() else [
                        ("ia32 rename", ["rename", o("c"), o("c2")],
                         [(FILE, "fs.path.target", o("c2"))]),
                        ("ia32 sendto", ["sendto", "127.0.0.1", str(uport)],
                         [(NET, "fd.sip", "127.0.0.1")]),
                        ("ia32 unshare", ["unshare", "0x10000000"],
                         [(PRIV, "evt.arg.flags", "CLONE_NEWUSER")]),
                        # no other rule reports a mkdir under /tmp: this one does
                        ("ia32 mkdir", ["mkdir", os.path.join(self.tmp, "d32"), "0755"],
                         [(COMPAT, "evt.type", "mkdir")])]:
                    p = subprocess.Popen([self.claude, "-c", " ".join([ia32_bin] + args) + "; true"],
                                         stdout=subprocess.DEVNULL)
                    p.wait(timeout=60)
                    runs.append((label, p.pid, [(SPAWN, "proc.pid", None)] * 2 + exp))
                # the launcher run by the agent, binding a directory of its
                # choosing as the workspace (here the test's own, not /)
                p = subprocess.Popen([self.claude, "-c", "%s %s -- /bin/true; true"
                                      % (os.path.realpath(AGENT_BWRAP), self.tmp)],
                                     env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                p.wait(timeout=60)
                runs.append(("launcher from the agent", p.pid,
                             [(SPAWN, "proc.pid", None), (LAUNCH, "proc.pid", None)]))
                # a broken sandbox: in the sandbox cgroup, without bubblewrap or seccomp
                p = subprocess.Popen([self.claude, "-c", "echo $$ > %s/cgroup.procs; %s mkdir %s 0755; true"
                                      % (cg, acts_bin, o("sb"))], stdout=subprocess.DEVNULL)
                p.wait(timeout=60)
                runs.append(("unarmed sandbox", p.pid,
                             [(SPAWN, "proc.pid", None), (WROTE, "proc.pid", None),
                              (UNARMED, "proc.pid", None),
                              (SB_FILE, "fs.path.name", o("sb"))]))
                # ... whose loopback is the host's: it reaches the host's services
                p = subprocess.Popen([self.claude, "-c", "echo $$ > %s/cgroup.procs; %s sendto-udp "
                                      "127.0.0.1 %d; true" % (cg, acts_bin, uport)],
                                     stdout=subprocess.DEVNULL)
                p.wait(timeout=60)
                runs.append(("unarmed sandbox loopback", p.pid,
                             [(SPAWN, "proc.pid", None), (WROTE, "proc.pid", None),
                              (UNARMED, "proc.pid", None),
                              (SB_NET, "evt.type", "sendto")]))
                # the real sandbox: attempts fail (no network, seccomp) and are Critical
                for label, args, exp in [
                        # no route out of the sandbox's network namespace: refused,
                        # and still the attempt (192.0.2.1: TEST-NET-1)
                        ("sb connect", ["sendto-udp", "192.0.2.1", "9"],
                         [(SB_NET, "evt.res", "ENETUNREACH")]),
                        # its own loopback and a name lookup that reached nothing
                        ("sb loopback", ["sendto-udp", "127.0.0.1", "9"], []),
                        ("sb loopback6", ["sendto-udp6", "::1", "9"], []),
                        # unix servers of the sandbox's own (its network namespace's),
                        # in the workspace and abstract; the host's in the workspace,
                        # named by its bound path (under the host's /tmp: not the
                        # sandbox's tmpfs)
                        ("sb unix own server", ["unix-self", "/workspace/own.sock"], []),
                        ("sb unix own abstract", ["unix-self", "@as-corpus"], []),
                        ("sb unix host server", ["unix-connect", "/workspace/host.sock"],
                         [(SB_NET, "fd.name", os.path.join(self.ws, "host.sock"))]),
                        ("sb dns", ["sendto-udp", "192.0.2.1", "53"], []),
                        ("sb setfsuid", ["setfsuid", "65534"], [(SB_PRIV, "evt.type", "setfsuid")]),
                        ("sb unshare", ["unshare", "0x10000000"],
                         [(SB_PRIV, "evt.arg.flags", "CLONE_NEWUSER")]),
                        # an attach to its sandbox's first process, refused
                        # by seccomp, is the attempt; one to its own child or
                        # by LeakSanitizer's clone (a refused leak check: a
                        # failed test) is not
                        ("sb ptrace", ["ptrace-pid", "1"], [(SB_PRIV, "evt.type", "ptrace")]),
                        ("sb ptrace own child", ["ptrace-attach"], []),
                        ("sb ptrace by a memory sharer", ["ptrace-shared-mm"], []),
                        # glibc's lchmod, from another mount namespace: the
                        # kernel's read of the descriptor is in the sandbox's view
                        ("sb lchmod", ["lchmod", "/workspace/as-acts", "0755"], []),
                        ("sb chmod via thread-self fd", ["via-fd", "/workspace/as-acts",
                                                         "/proc/thread-self/fd/", "chmod", "{}",
                                                         "0755"], []),
                        ("sb memfd-loader link", ["memfd-loader", "as-escape", LDSO,
                                                  "/workspace/fdlink/"],
                         [(SB_CODE, "evt.arg.path", MEMFD_MAPPED)]),
                        ("sb interp memfd", ["interp-fd", "as-escape", LDSO,
                                             "/workspace/as-interp-fd"],
                         [(SB_CODE, "proc.is_interp_nolink", True)]),
                        ("sb static interp memfd", ["interp-fd", "as-escape",
                                                    "/workspace/as-interp-static",
                                                    "/workspace/as-interp-fd"],
                         [(SB_CODE, "proc.is_interp_nolink", True)]),
                        ("sb map memfd", ["map-code", "memfd", "mprotect"],
                         [(SB_CODE, "evt.arg.path", "/memfd:as-code (deleted)")]),
                        ("sb tiocsti", ["tiocsti", "x"], [(SB_TTY, "evt.arg.request", "0x5412")]),
                        # refused by seccomp, and still the attempt; a read is none,
                        # and so is a reboot in the sandbox's own pid namespace
                        ("sb swapon", ["host-swapon", "/workspace/as-acts"],
                         [(SB_HOST, "evt.res", "EPERM")]),
                        ("sb reboot", ["host-reboot-bad"], []),
                        ("sb adjtimex read", ["host-adjtimex", "0"], []),
                        # code the developer's own git runs later, on the host
                        ("sb git hook", ["open-creat", "/workspace/repo/.git/hooks/post-checkout",
                                         "0755"],
                         [(PLANT, "fd.name", "/workspace/repo/.git/hooks/post-checkout")]),
                        ("sb git config fsmonitor", ["!git", "-C", "/workspace/repo", "config",
                                                     "core.fsmonitor", "/workspace/as-acts"],
                         [(PLANT, "fs.path.target", "/workspace/repo/.git/config")]),
                        ("sb git config user", ["!git", "-C", "/workspace/repo", "config",
                                                "user.name", "agent"], []),
                        # a key for this run alone: the clone's config does not keep it
                        ("sb git -c clone", ["!git", "-c", "core.sshCommand=ssh -i key", "clone",
                                             "-q", "/workspace/repo", "/workspace/clone"], []),
                        ("sb git config moved", ["rename", "/workspace/evil.config",
                                                 "/workspace/repo/.git/config"],
                         [(PLANT, "fs.path.target", "/workspace/repo/.git/config")]),
                        # options before the key; a section renamed into one
                        ("sb git config --add", ["!git", "-C", "/workspace/repo", "config",
                                                 "--file", ".git/config", "--add",
                                                 "core.pager", "less"],
                         [(PLANT, "fs.path.target", "/workspace/repo/.git/config")]),
                        ("sb git config user --add", ["!git", "-C", "/workspace/repo", "config",
                                                      "--local", "--add", "user.email",
                                                      "a@example.com"], []),
                        # the key past the kernel's 4096 bytes of arguments
                        ("sb git key past the cut", ["!git", "--namespace=" + "n" * 4100, "-C",
                                                     "/workspace/repo", "config", "core.editor",
                                                     "vi"],
                         [(PLANT, "fs.path.target", "/workspace/repo/.git/config")]),
                        ("sb git rename-section", ["!git", "-C", "/workspace/repo", "config",
                                                   "--rename-section", "foo", "alias"],
                         [(PLANT, "fs.path.target", "/workspace/repo/.git/config")]),
                        # the hooks dir, or a .git, moved or linked into place whole
                        ("sb hooks dir moved", ["rename", "/workspace/staged-hooks",
                                                "/workspace/repo2/.git/hooks"],
                         [(PLANT, "fs.path.target", "/workspace/repo2/.git/hooks")]),
                        ("sb .git symlinked", ["symlink", "/workspace/repo2/.git",
                                               "/workspace/repo3/.git"],
                         [(PLANT, "fs.path.source", "/workspace/repo3/.git")]),
                        ("sb gitdir file", ["open-creat", "/workspace/.git", "0644"],
                         [(PLANT, "fd.name", "/workspace/.git")]),
                        # an exchange puts each name's file under the other name
                        ("sb hooks dir exchanged", ["renameat2", "/workspace", "repo/.git/hooks",
                                                    "staged-hooks2", "2"],
                         [(PLANT, "fs.path.source", "/workspace/repo/.git/hooks")]),
                        ("sb bare repository moved", ["rename", "/workspace/staged-bare",
                                                      "/workspace/bare.git"],
                         [(PLANT, "fs.path.target", "/workspace/bare.git")]),
                        ("sb git config separate gitdir", ["!git", "-C", "/workspace/repo4",
                                                           "config", "core.fsmonitor",
                                                           "/workspace/as-acts"],
                         [(PLANT, "fs.path.target", "/workspace/gd/config")]),
                        # a repository git makes or moves where no hook path looks:
                        # its hooks would be unwatched (one alert, at its HEAD or
                        # the .git's move); a bare one named NAME.git is watched
                        ("sb git init separate gitdir", ["!git", "init", "-q",
                                                         "--separate-git-dir", "/workspace/gd5",
                                                         "/workspace/repo5"],
                         [(PLANT, "fs.path.target", "/workspace/gd5/HEAD")]),
                        ("sb git init --bare", ["!git", "init", "-q", "--bare",
                                                "/workspace/plain-bare"],
                         [(PLANT, "fs.path.target", "/workspace/plain-bare/HEAD")]),
                        ("sb git init --bare NAME.git", ["!git", "init", "-q", "--bare",
                                                         "/workspace/named.git"], []),
                        ("sb .git moved away", ["!git", "-C", "/workspace/repo6", "init", "-q",
                                                "--separate-git-dir", "/workspace/gd6"],
                         [(PLANT, "fs.path.source", "/workspace/repo6/.git")]),
                        # a key through an alias: git runs the alias's command as a
                        # child git, which writes; a commondir, a submodule's
                        # gitdir: git's to make
                        ("sb git -c alias", ["!git", "-C", "/workspace/repo", "-c",
                                             "alias.y=config", "y", "core.hooksPath",
                                             "/workspace/h"],
                         [(PLANT, "fs.path.target", "/workspace/repo/.git/config")]),
                        # a key removed (husky's uninstall) writes nothing else
                        ("sb git config --unset", ["!git", "-C", "/workspace/repo4", "config",
                                                   "--unset", "core.hooksPath"], []),
                        ("sb commondir written", ["open-creat", "/workspace/repo2/.git/commondir",
                                                  "0644"],
                         [(PLANT, "fd.name", "/workspace/repo2/.git/commondir")]),
                        ("sb submodule gitdir moved", ["rename", "/workspace/staged-mod",
                                                       "/workspace/repo/.git/modules/m"],
                         [(PLANT, "fs.path.target", "/workspace/repo/.git/modules/m")]),
                        ("sb ia32 unshare", ["!ia32", "unshare", "0x10000000"],
                         [(SB_PRIV, "evt.arg.flags", "CLONE_NEWUSER")]),
                        ("sb ia32 mkdir", ["!ia32", "mkdir", "/workspace/d32", "0755"],
                         [(SB_COMPAT, "evt.type", "mkdir")])]:
                    if args[0] == "!ia32" and harness.ia32_refused():
                        continue
                    prog = "/workspace/as-acts"
                    if args[0] == "!ia32":
                        prog, args = "/workspace/as-ia32", args[1:]
                    elif args[0] == "!git":
                        prog, args = "/usr/bin/git", args[1:]
                    p = subprocess.Popen([AGENT_BWRAP, self.ws, "--", prog] + args,
                                         env=env, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL)
                    p.wait(timeout=60)
                    runs.append((label, p.pid, exp))
        finally:
            with open(os.path.join(cg, "cgroup.procs")) as f:
                self.assertEqual(f.read(), "")
            os.rmdir(cg)
        srv.close()
        udp.close()
        udgram.close()
        uhost.close()
        self.live = s.events()
        self.check(runs, self.rec)


if __name__ == "__main__":
    harness.main()
