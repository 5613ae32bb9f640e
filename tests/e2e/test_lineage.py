#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""Lineage on the real kernel: a descendant of an agent is known as one
across a double fork with setsid, prctl renames, a 12-generation tree, exec
through a symlink, the dynamic loader or a memfd, and for a tree started
before agent-sentinel; executables pinned by path; the sandbox state of an
agent session; the process table stays bounded through 10,000 processes.

Every process shape is made by as-lineage (tests/e2e/lineage.c), copied
under the names the test wants: the exec-time name is the file's name."""
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import unittest
import uuid

import harness
from harness import Sentinel

AS_LINEAGE = os.environ.get("AS_LINEAGE", "build/tests/as-lineage")
AGENT_RULES = os.path.join(harness.AS_SOURCE_DIR, "rules", "agent.yaml")
LDSO = "/lib64/ld-linux-x86-64.so.2"
FIELDS = ["proc.pid", "proc.name", "proc.aname[1]", "proc.aname[2]", "proc.aname[3]",
          "proc.lineage.name", "proc.lineage.pid", "proc.lineage.exepath", "proc.lineage.len",
          "proc.lineage.truncated", "proc.lineage.name[0]", "proc.lineage.exepath[0]",
          "agent.ancestor.name", "agent.ancestor.pid", "agent.ancestor.exepath",
          "proc.is_reparented", "fd.name"]


def v2_root():
    """Where the cgroup v2 hierarchy is mounted (hybrid hosts: .../unified)."""
    with open("/proc/mounts") as f:
        for line in f:
            dev, mnt, fstype = line.split()[:3]
            if fstype == "cgroup2":
                return mnt
    raise AssertionError("no cgroup2 mount on this host")


def wait_for_file(path, timeout=20.0):
    deadline = time.time() + timeout
    while not os.path.exists(path) and time.time() < deadline:
        time.sleep(0.02)
    return os.path.exists(path)


def wait_for_file_text(path, text, timeout=20.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        with open(path, errors="replace") as f:
            if text in f.read():
                return True
        time.sleep(0.05)
    return False


class Lineage(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="as-lin-")
        os.chmod(self.dir, 0o755)
        self.claude = self.copy("claude")
        self.w = self.copy("w")
        self.rules = os.path.join(self.dir, "probe.yaml")
        out = " ".join("%s=%%%s" % (f, f) for f in FIELDS)
        with open(self.rules, "w") as f:
            # writes under the test's dir by any agent descendant, every field out
            f.write("- rule: Lineage Probe\n"
                    "  desc: writes under the test directory from an agent's lineage\n"
                    "  condition: evt.type in (open, openat) and evt.is_open_write = true"
                    " and fd.name startswith %s/out and agent.ancestor.pid exists\n"
                    "  output: \"probe %s\"\n"
                    "  priority: WARNING\n" % (self.dir, out))

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def copy(self, name):
        path = os.path.join(self.dir, name)
        shutil.copy(AS_LINEAGE, path)
        return path

    def run_tree(self, argv, env=None):
        p = subprocess.Popen(argv, stdout=subprocess.PIPE, env=env)
        out, _ = p.communicate(timeout=120)
        self.assertEqual(p.returncode, 0, out)
        return p.pid, out.decode().split("\n")[:-1]

    def writer_pid(self, lines):
        w = [l.split() for l in lines if l.startswith("write ")]
        self.assertEqual(len(w), 1, lines)
        self.assertEqual(w[0][2], "0", lines)  # the open succeeded
        return int(w[0][1])

    def probes(self, s, path):
        alerts = [e["output_fields"] for e in s.events() if e.get("rule") == "Lineage Probe"
                  and e["output_fields"]["fd.name"] == path]
        self.assertEqual(len(alerts), 1, alerts)
        return alerts[0]

    def names(self, a):
        return a["proc.lineage.name"].split(" ")

    def pids(self, a):
        return [int(p) for p in a["proc.lineage.pid"].split(" ")]

    def test_double_fork_setsid(self):
        out = self.dir + "/out.dfork"
        with Sentinel("--rules", self.rules) as s:
            cpid, lines = self.run_tree([self.claude, "child", "exec", self.w, "w",
                                         "dfork", "write", out])
        wpid = self.writer_pid(lines)
        a = self.probes(s, out)
        self.assertEqual(a["proc.pid"], wpid)
        # writer (forked w) <- its creator (forked w, exited) <- w (exec) <- claude
        self.assertEqual(self.names(a)[:4], ["w", "w", "w", "claude"])
        self.assertEqual(self.pids(a)[0], wpid)
        self.assertEqual(self.pids(a)[3], cpid)
        self.assertEqual(a["agent.ancestor.name"], "claude")
        self.assertEqual(a["agent.ancestor.pid"], cpid)
        self.assertEqual(a["agent.ancestor.exepath"], self.claude)
        self.assertEqual(a["proc.is_reparented"], True)  # its creator exited
        self.assertNotIn("claude", [a["proc.aname[1]"], a["proc.aname[2]"]])

    def test_rename_by_agent_and_by_child(self):
        out1, out2 = self.dir + "/out.agent", self.dir + "/out.child"
        with Sentinel("--rules", self.rules) as s:
            cpid, lines1 = self.run_tree([self.claude, "rename", "bash", "child", "exec",
                                          self.w, "w", "write", out1])
            cpid2, lines2 = self.run_tree([self.claude, "child", "rename", "sh",
                                           "write", out2])
        a = self.probes(s, out1)
        self.assertEqual(a["proc.aname[1]"], "bash")  # the agent's name now
        self.assertEqual(self.names(a)[:2], ["w", "claude"])  # its name at exec
        self.assertEqual(a["agent.ancestor.pid"], cpid)
        self.assertEqual(a["proc.is_reparented"], False)
        b = self.probes(s, out2)
        wpid = self.writer_pid(lines2)
        self.assertEqual(b["proc.name"], "sh")
        # the renamed child runs claude's image: it is itself the nearest agent
        self.assertEqual(b["proc.lineage.name[0]"], "claude")
        self.assertEqual(self.pids(b)[:2], [wpid, cpid2])
        self.assertEqual(b["agent.ancestor.pid"], wpid)

    def test_twelve_generations(self):
        out = self.dir + "/out.deep"
        with Sentinel("--rules", self.rules) as s:
            cpid, lines = self.run_tree([self.claude, "exec", self.w, "w", "deep", "12",
                                         "write", out])
        a = self.probes(s, out)
        n = self.names(a)
        # 12 generations, the w claude exec'd, then claude itself (same pid)
        self.assertEqual(n[:13], ["w"] * 13)
        self.assertEqual(n[13], "claude")
        self.assertEqual(self.pids(a)[12:14], [cpid, cpid])
        self.assertEqual(a["agent.ancestor.pid"], cpid)
        self.assertEqual(a["proc.aname[3]"], "w")  # the seed's ancestry sees only w
        # claude's own ancestors (this test's runner, up to init) overflow 16;
        # the oldest that are not agents gave way, claude stayed
        self.assertEqual(a["proc.lineage.len"], 16)
        self.assertEqual(a["proc.lineage.truncated"], True)

    def test_exec_symlink_loader_memfd(self):
        link = os.path.join(self.dir, "link")
        os.symlink(self.w, link)
        outs = [self.dir + "/out.link", self.dir + "/out.ldso", self.dir + "/out.memfd"]
        with Sentinel("--rules", self.rules) as s:
            c1, _ = self.run_tree([self.claude, "exec", link, "link", "write", outs[0]])
            c2, _ = self.run_tree([self.claude, "exec", LDSO, "ld", self.w, "write", outs[1]])
            c3, _ = self.run_tree([self.claude, "memfd", "write", outs[2]])
        a = self.probes(s, outs[0])
        self.assertEqual(self.names(a)[:2], ["link", "claude"])  # the name it ran as
        self.assertEqual(a["proc.lineage.exepath[0]"], self.w)  # the file it ran
        self.assertEqual(a["agent.ancestor.pid"], c1)
        b = self.probes(s, outs[1])
        self.assertEqual(self.names(b)[:2], ["ld-linux-x86-64", "claude"])
        self.assertEqual(b["proc.lineage.exepath[0]"], os.path.realpath(LDSO))
        self.assertEqual(b["agent.ancestor.pid"], c2)
        m = self.probes(s, outs[2])
        # an exec of an fd names the process after the file: the memfd's name
        self.assertEqual(self.names(m)[:2], ["memfd:as-lineag", "claude"])
        self.assertEqual(m["agent.ancestor.pid"], c3)

    def started_before(self, out, *cmd):
        """as-lineage cmd (which waits on the FIFO go, then writes out),
        started before agent-sentinel: (the tree's pid, the writer's, its
        probe alert)."""
        fifo = os.path.join(self.dir, "go")
        os.mkfifo(fifo)
        tree = subprocess.Popen([self.claude] + [fifo if c == "FIFO" else c for c in cmd],
                                stdout=subprocess.PIPE)
        time.sleep(0.3)
        with Sentinel("--rules", self.rules) as s:
            with open(fifo, "w") as f:
                f.write("go\n")
            lines, _ = tree.communicate(timeout=60)
        return tree, self.writer_pid(lines.decode().split("\n")[:-1]), self.probes(s, out)

    def test_tree_started_before(self):
        out = self.dir + "/out.before"
        tree, wpid, a = self.started_before(out, "child", "exec", self.w, "w", "wait", "FIFO",
                                            "write", out)
        # what /proc told at start: the chain of live parents
        self.assertEqual(self.names(a)[:2], ["w", "claude"])
        self.assertEqual(self.pids(a)[:2], [wpid, tree.pid])
        self.assertEqual(a["proc.lineage.exepath[0]"], self.w)
        self.assertEqual(a["agent.ancestor.pid"], tree.pid)
        self.assertEqual(a["agent.ancestor.exepath"], self.claude)

    def test_thread_of_a_process_started_before(self):
        """A process alive at start whose second thread forks: the seed gave
        that thread the process's lineage too (user/loader.c lists the task
        directory of every multi-threaded process), so the child's lineage
        is the whole chain from /proc, not a truncated guess."""
        out = self.dir + "/out.thread"
        tree, wpid, a = self.started_before(out, "thread", "wait", "FIFO", "child", "exec",
                                            self.w, "w", "write", out)
        self.assertEqual(self.names(a)[:2], ["w", "claude"])
        self.assertEqual(self.pids(a)[:3], [wpid, tree.pid, os.getpid()])
        self.assertEqual(a["proc.lineage.truncated"], False)
        self.assertEqual(a["agent.ancestor.pid"], tree.pid)

    def test_busy_tree_started_before(self):
        """A writer eight generations below claude, alive before agent-sentinel
        and busy opening files while it starts: only its lineage (from /proc,
        seeded after the programs are attached) makes it an agent's. A
        verdict taken in between, before the seed, must not outlive it: it
        did, and the writer's alerts were lost until its next exec. That
        event also made the thread's task storage (lineage still empty),
        which the seed must fill rather than leave to it."""
        out = self.dir + "/out.busy"
        fifo = os.path.join(self.dir, "go")
        os.mkfifo(fifo)
        tree = subprocess.Popen([self.claude, "child", "exec", self.w, "w", "deep", "6", "spin",
                                 fifo, self.dir + "/spun", "write", out], stdout=subprocess.PIPE)
        self.assertTrue(wait_for_file(self.dir + "/spun"))
        with Sentinel("--rules", self.rules) as s:
            time.sleep(0.2)
            with open(fifo, "w") as f:
                f.write("go\n")
            lines, _ = tree.communicate(timeout=60)
        self.assertEqual(tree.returncode, 0, lines)
        a = self.probes(s, out)
        self.assertEqual(self.names(a)[0], "w")
        self.assertEqual(a["agent.ancestor.name"], "claude")
        self.assertEqual(a["agent.ancestor.pid"], tree.pid)

    def test_pinned_agent(self):
        real = self.copy("agentbin")
        alias = os.path.join(self.dir, "zzz")
        os.symlink(real, alias)
        o_fake, o_real = self.dir + "/out.fake", self.dir + "/out.real"
        with Sentinel("--rules", self.rules, "-o", "agents.exe_paths=" + real) as s:
            # named claude, not the pinned binary: not an agent
            self.run_tree([self.claude, "child", "exec", self.w, "w", "write", o_fake])
            # the pinned binary, run as zzz and renamed: an agent all the same
            rpid, _ = self.run_tree([alias, "rename", "bash", "child", "exec", self.w, "w",
                                     "write", o_real])
        fake = [e for e in s.events() if e.get("rule") == "Lineage Probe"
                and e["output_fields"]["fd.name"] == o_fake]
        self.assertEqual(fake, [])
        a = self.probes(s, o_real)
        self.assertEqual(a["agent.ancestor.pid"], rpid)
        self.assertEqual(a["agent.ancestor.name"], "zzz")
        self.assertEqual(a["agent.ancestor.exepath"], real)

    def test_pinned_agent_replaced(self):
        """A pinned binary replaced while agent-sentinel runs (an update: a new
        file renamed over the path, so a new inode) is still the agent, run by
        its path or through a link: the kernel matches a pin by its directory
        and name at exec, not only by the inode it had at start."""
        real = self.copy("agentbin")
        alias = os.path.join(self.dir, "runner")
        os.symlink(real, alias)
        out = self.dir + "/out.replaced"
        with Sentinel("--rules", self.rules, "-o", "agents.exe_paths=" + real) as s:
            shutil.copy(AS_LINEAGE, real + ".new")
            os.rename(real + ".new", real)
            rpid, _ = self.run_tree([alias, "child", "exec", self.w, "w", "write", out])
        a = self.probes(s, out)
        self.assertEqual(a["agent.ancestor.pid"], rpid)
        self.assertEqual(a["agent.ancestor.exepath"], real)

    def overlay(self):
        """An overlay mount (tmpfs lower and upper, as a container's root)
        holding a copy of as-lineage as agentbin in its lower layer, and the
        same mount bound at a second place (a container's root seen from the
        host); the mounts go at cleanup. stat() of that file gives a
        per-layer pseudo device, not the overlay's s_dev that the kernel's
        events carry. Returns the file's two paths."""
        base = os.path.join(self.dir, "ov")
        lower, rw, merged = base + "/l", base + "/rw", base + "/m"
        bound = base + "/b"
        for d in (lower, rw, merged, bound):
            os.makedirs(d)
        for d in (lower, rw):
            subprocess.run(["mount", "-t", "tmpfs", "as-ov", d], check=True)
            self.addCleanup(subprocess.run, ["umount", "-l", d])
        shutil.copy(AS_LINEAGE, lower + "/agentbin")
        os.makedirs(rw + "/u")
        os.makedirs(rw + "/w")
        subprocess.run(["mount", "-t", "overlay", "as-ov", "-o", "lowerdir=%s,upperdir=%s/u,"
                        "workdir=%s/w" % (lower, rw, rw), merged], check=True)
        self.addCleanup(subprocess.run, ["umount", "-l", merged])
        subprocess.run(["mount", "--bind", merged, bound], check=True)
        self.addCleanup(subprocess.run, ["umount", "-l", bound])
        real = merged + "/agentbin"
        dev = os.stat(real).st_dev
        with open("/proc/self/mountinfo") as f:
            mnt = [l.split() for l in f if l.split()[4] == merged]
        self.assertEqual(len(mnt), 1, mnt)
        self.assertNotEqual("%d:%d" % (os.major(dev), os.minor(dev)), mnt[0][2],
                            "this overlay no longer gives lower files a pseudo device: "
                            "the test would not tell")
        return real, bound + "/agentbin"

    def test_pinned_agent_on_overlay(self):
        """A pinned binary on overlayfs (a container image's layer): the pin's
        device is the one the kernel reports (the mount's s_dev, user/kdev.h),
        not stat()'s, or the agent's descendants are not its. Run by another
        path to the same file (the pin is the host's path, the agent runs
        by the container's), only the inode can tell."""
        real, bound = self.overlay()
        out = self.dir + "/out.overlay"
        with Sentinel("--rules", self.rules, "-o", "agents.exe_paths=" + real) as s:
            rpid, _ = self.run_tree([bound, "child", "exec", self.w, "w", "write", out])
        a = self.probes(s, out)
        self.assertEqual(self.names(a)[:2], ["w", "agentbin"])
        self.assertEqual(a["agent.ancestor.pid"], rpid)
        self.assertEqual(a["agent.ancestor.exepath"], bound)

    def test_pinned_agent_on_overlay_started_before(self):
        """The same agent alive before agent-sentinel: its lineage entry comes
        from /proc (user/procscan.c) and must carry the kernel's device too."""
        real, bound = self.overlay()
        out = self.dir + "/out.ovbefore"
        fifo = os.path.join(self.dir, "go")
        os.mkfifo(fifo)
        tree = subprocess.Popen([bound, "child", "exec", self.w, "w", "wait", fifo, "write", out],
                                stdout=subprocess.PIPE)
        time.sleep(0.3)
        with Sentinel("--rules", self.rules, "-o", "agents.exe_paths=" + real) as s:
            with open(fifo, "w") as f:
                f.write("go\n")
            lines, _ = tree.communicate(timeout=60)
        self.assertEqual(tree.returncode, 0, lines)
        a = self.probes(s, out)
        self.assertEqual(self.names(a)[:2], ["w", "agentbin"])
        self.assertEqual(a["agent.ancestor.pid"], tree.pid)

    def test_pinned_link_moved_to_a_new_version(self):
        """The pin is a link to a versioned file (~/.local/bin/claude ->
        versions/1, as the native installer lays it out). The link is
        followed: the pin is that file and its directory. An update moves the
        link to versions/2 while agent-sentinel runs: the pins follow within
        two checks (a second apart; nothing else reloads), the new version is
        the agent, and so is the old one still running (it updated itself and
        runs on) with its children."""
        versions, bindir = self.dir + "/versions", self.dir + "/bin"
        os.makedirs(versions)
        os.makedirs(bindir)
        shutil.copy(AS_LINEAGE, versions + "/1")
        link = bindir + "/claude"
        os.symlink("../versions/1", link)
        fifo = os.path.join(self.dir, "go")
        os.mkfifo(fifo)
        o_old, o_v1, o_v2 = (self.dir + "/out." + n for n in ("old", "v1", "v2"))
        with Sentinel("--rules", self.rules, "-o", "agents.exe_paths=" + link) as s:
            # version 1, by the link: an agent, its exe the file itself
            p1, _ = self.run_tree([link, "child", "exec", self.w, "w", "write", o_v1])
            # version 1 again, left running across the update
            old = subprocess.Popen([link, "wait", fifo, "child", "exec", self.w, "w",
                                    "write", o_old], stdout=subprocess.PIPE)
            shutil.copy(AS_LINEAGE, versions + "/2")
            os.symlink("../versions/2", link + ".new")
            os.rename(link + ".new", link)
            self.assertTrue(wait_for_file_text(s.err_path, "pins set again"),
                            "the pins were never set again")
            p2, _ = self.run_tree([link, "child", "exec", self.w, "w", "write", o_v2])
            with open(fifo, "w") as f:
                f.write("go\n")
            lines, _ = old.communicate(timeout=60)
            self.assertEqual(old.returncode, 0, lines)
        self.assertIn("agents.exe_paths: a pinned path leads to another file now: pins set "
                      "again", s.stderr)
        self.assertNotIn("reload", s.stderr)  # the pins alone, not the rules
        a = self.probes(s, o_v1)
        self.assertEqual(a["agent.ancestor.pid"], p1)
        self.assertEqual(a["agent.ancestor.exepath"], versions + "/1")
        a = self.probes(s, o_v2)
        self.assertEqual(a["agent.ancestor.pid"], p2)
        self.assertEqual(a["agent.ancestor.exepath"], versions + "/2")
        a = self.probes(s, o_old)
        self.assertEqual(a["agent.ancestor.pid"], old.pid)
        self.assertEqual(a["agent.ancestor.exepath"], versions + "/1")

    def test_pinned_path_must_be_absolute(self):
        r = subprocess.run([harness.AS_BIN, "-o", "agents.exe_paths=bin/claude", "-V",
                            AGENT_RULES], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stderr.strip().split("\n"),
                         ["agent-sentinel: error: agents.exe_paths[0]: bin/claude: "
                          "not an absolute path"])

    def test_sandbox_not_armed(self):
        session = "as-lin-" + uuid.uuid4().hex[:12]
        cg = os.path.join(v2_root(), "agent-sandbox", session)
        os.makedirs(cg)
        try:
            with Sentinel("--rules", AGENT_RULES) as s:
                armed, _ = self.run_tree([AS_LINEAGE, "cgroup", cg, "seccomp", "env",
                                          "AGENT_SESSION_ID=" + session, "exec", self.w, "w",
                                          "pid"])
                bare, _ = self.run_tree([AS_LINEAGE, "env", "AGENT_SESSION_ID=" + session,
                                         "exec", self.w, "w", "pid"])
        finally:
            os.rmdir(cg)
        alerts = [e for e in s.events() if e.get("rule") == "Agent Sandbox Not Armed"
                  and e["output_fields"]["agent.session"] == session]
        self.assertEqual([a["output_fields"]["proc.pid"] for a in alerts], [bare])
        f = alerts[0]["output_fields"]
        self.assertEqual(f["thread.seccomp_mode"], 0)
        self.assertEqual(alerts[0]["priority"], "Critical")

    def test_etc_writes_alert_exactly_once(self):
        tag = uuid.uuid4().hex[:8]
        files = ["/etc/as-lineage-%s-%s" % (tag, k) for k in ("dfork", "rename", "deep", "seed")]
        try:
            with Sentinel("--rules", AGENT_RULES, "-o", "rule_matching=all") as s:
                self.run_tree([self.claude, "child", "exec", self.w, "w", "dfork",
                               "write", files[0]])
                self.run_tree([self.claude, "rename", "bash", "child", "exec", self.w, "w",
                               "write", files[1]])
                self.run_tree([self.claude, "exec", self.w, "w", "deep", "5",
                               "write", files[2]])
                self.run_tree([self.claude, "write", files[3]])  # the seed's own case
        finally:
            for f in files:
                if os.path.exists(f):
                    os.unlink(f)
        events = s.events()
        for f in files:
            hits = [e["rule"] for e in events if e.get("output_fields", {}).get("fd.name") == f]
            # beyond the seed's ancestry test, the lineage-aware agent_tree
            # of the file-change rule finds the agent
            want = ("Agent Wrote to Unexpected Path" if f.endswith("seed") else
                    "Agent Changed File Outside Workspace")
            self.assertEqual(hits, [want], f)

    def test_ten_thousand_processes_stay_bounded(self):
        out = self.dir + "/out.after"
        with Sentinel("--rules", self.rules) as s:
            self.run_tree([self.claude, "storm", "10000"])
            _, lines = self.run_tree([self.claude, "child", "exec", self.w, "w",
                                      "write", out])
        live = len([d for d in os.listdir("/proc") if d.isdigit()])
        m = re.search(r"procs=(\d+)", s.stderr)
        self.assertIsNotNone(m, s.stderr)
        # the table follows the live set (other work on the host churns a little)
        self.assertLess(int(m.group(1)), live + 200)
        a = self.probes(s, out)  # and lineage is still right afterwards
        self.assertEqual(self.names(a)[:2], ["w", "claude"])


if __name__ == "__main__":
    harness.main()
