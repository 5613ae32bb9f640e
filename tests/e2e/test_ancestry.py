#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""exec events carry the ancestor chain captured in the kernel, also for a
process tree that started before agent-sentinel did."""
import os
import shutil
import subprocess
import tempfile
import time
import unittest

import harness
from harness import Sentinel, find


class Ancestry(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="as-anc-")
        # a binary copied under the name claude, as an agent would be
        self.claude = os.path.join(self.dir, "claude")
        shutil.copy("/bin/bash", self.claude)
        self.child = os.path.join(self.dir, "child")
        shutil.copy("/bin/true", self.child)
        self.fifo = os.path.join(self.dir, "go")
        os.mkfifo(self.fifo)

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def check_tree(self, events, claude_pid):
        execs = find(events, {"evt.type": "execve", "proc.name": "child"})
        self.assertEqual(len(execs), 1, execs)
        e = execs[0]
        self.assertEqual(e["evt.res"], "SUCCESS")
        self.assertEqual(e["proc.exepath"], self.child)
        self.assertEqual(e["proc.pname"], "sh")
        self.assertEqual(e["proc.aname[1]"], "sh")
        self.assertEqual(e["proc.aname[2]"], "claude")
        self.assertEqual(e["proc.apid[2]"], claude_pid)
        self.assertEqual(e["proc.ppid"], e["proc.apid[1]"])
        # the sh in between was forked by claude: its exec event agrees
        sh = find(events, {"evt.type": "execve", "proc.name": "sh", "proc.pid": e["proc.ppid"]})
        self.assertEqual(len(sh), 1)
        self.assertEqual(sh[0]["proc.aname[1]"], "claude")
        self.assertEqual(sh[0]["proc.apid[1]"], claude_pid)
        # the chain goes on to init
        n = 1
        while "proc.aname[%d]" % (n + 1) in e:
            n += 1
        self.assertEqual(e["proc.apid[%d]" % n], 1)  # init: nothing cut off

    def test_tree_started_after_agent(self):
        with Sentinel("--trace") as s:
            claude = subprocess.Popen([self.claude, "-c", "sh -c '%s; true'; true" % self.child])
            claude.wait()
        self.check_tree(s.events(), claude.pid)

    def test_tree_started_before_agent(self):
        # claude and its sh exist before the agent; the child is exec'd after
        claude = subprocess.Popen([self.claude, "-c",
                                   "sh -c 'read x < %s; %s; true'; true" % (self.fifo, self.child)])
        time.sleep(0.3)
        with Sentinel("--trace") as s:
            with open(self.fifo, "w") as f:
                f.write("go\n")
            claude.wait()
        self.check_prestarted(s.events(), claude.pid)

    def check_prestarted(self, events, claude_pid):
        execs = find(events, {"evt.type": "execve", "proc.name": "child"})
        self.assertEqual(len(execs), 1, execs)
        e = execs[0]
        self.assertEqual(e["proc.aname[1]"], "sh")
        self.assertEqual(e["proc.aname[2]"], "claude")
        self.assertEqual(e["proc.apid[2]"], claude_pid)
        # the process table was seeded from /proc: the parent's command line is known
        # a creation's result, in the parent, is the child (Falco's clone
        # exit); dash makes its children with vfork, others with clone(3)
        forks = [f for f in find(events, {"evt.rawres": e["proc.pid"]})
                 if f["evt.type"] in ("clone", "clone3", "fork", "vfork")]
        self.assertEqual(len(forks), 1)
        self.assertEqual(forks[0]["proc.name"], "sh")
        self.assertIn("read x", forks[0]["proc.cmdline"])


if __name__ == "__main__":
    harness.main()
