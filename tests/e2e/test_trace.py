#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""--trace FILTER selects events with the rules' condition language, in the
kernel as a rule's pre-filter would and again in userspace; -p FORMAT prints
each as a rule's output text would; both the same on a replay."""
import json
import os
import shutil
import socket
import subprocess
import tempfile
import unittest

import harness
from harness import AS_BIN, AS_WORKLOAD, Sentinel

FILTER = "evt.type in (open, connect) and proc.aname in (claude)"
FORMAT = "%evt.type %proc.name %proc.pname %fd.name %evt.res %user.loginuid"


class Trace(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="as-trace-")
        self.claude = os.path.join(self.dir, "claude")  # bash under an agent's name
        shutil.copy("/bin/bash", self.claude)
        self.file = os.path.join(self.dir, "in.txt")
        with open(self.file, "w") as f:
            f.write("x\n")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def replay(self, rec, *args):
        r = subprocess.run([AS_BIN, "--replay", rec, "--trace"] + list(args),
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout.splitlines()

    def test_filter_selects_and_format_prints(self):
        rec = os.path.join(self.dir, "t.asrec")
        l6 = socket.socket(socket.AF_INET6)
        l6.bind(("::1", 0))
        l6.listen(4)
        port = l6.getsockname()[1]
        with Sentinel("--trace", FILTER, "-p", FORMAT, "-v", "--record", rec) as s:
            subprocess.run([self.claude, "-c", "%s open %s; %s connect6 ::1 %d; true" %
                            (AS_WORKLOAD, self.file, AS_WORKLOAD, port)], check=True,
                           stdout=subprocess.DEVNULL)
            # the same acts outside the agent's tree: filtered out
            subprocess.run([AS_WORKLOAD, "open", self.file], check=True,
                           stdout=subprocess.DEVNULL)
            subprocess.run([AS_WORKLOAD, "connect6", "::1", str(port)], check=True,
                           stdout=subprocess.DEVNULL)
        l6.close()
        lines = [l.decode() for l in s.lines]
        self.assertEqual(len(lines), 2, lines)
        t, name, pname, fdname, res, loginuid = lines[0].split(" ")
        self.assertEqual((t, name, pname, fdname, res), ("open", "as-workload", "claude",
                                                         self.file, "SUCCESS"))
        self.assertRegex(loginuid, r"^(-1|\d+)$")  # -1 when unset, as rules see it
        t, name, pname, fdname, res, _ = lines[1].split(" ")
        self.assertEqual((t, name, pname, res), ("connect", "as-workload", "claude", "SUCCESS"))
        # an IPv6 tuple as Falco writes it, no brackets
        self.assertRegex(fdname, r"^::1:\d+->::1:%d$" % port)
        # the filter went into the kernel like a rule's: connect and open
        # restricted to the names it implies, the other families off
        pre = [l for l in s.stderr.splitlines() if "pre-filter:" in l]
        self.assertEqual(len(pre), 1, s.stderr)
        self.assertIn("setid=off", pre[0])
        self.assertIn("capset=off", pre[0])
        self.assertRegex(pre[0], r"connect=aname\[0\.\.\d+\]")
        self.assertRegex(pre[0], r"open=aname\[0\.\.\d+\]")
        # what the kernel let through (the recording) has no open of the file
        # outside the tree: it was dropped there, not only in userspace
        events = [json.loads(l) for l in self.replay(rec, "--no-prefilter")]
        opens = [e for e in events if e.get("fd.name") == self.file]
        self.assertEqual([e["proc.pname"] for e in opens], ["claude"])
        # a replay filters and prints the same
        self.assertEqual(self.replay(rec, FILTER, "-p", FORMAT), lines)
        # (glibc's nscd probes from the tree's shell are unix connects: not these)
        self.assertEqual(self.replay(rec, "evt.type = connect and fd.typechar = 6", "-p",
                                     "%fd.sport %fd.typechar"), ["%d 6" % port])
        # the filter alone: the JSON object of each event it matches
        got = [json.loads(l) for l in self.replay(rec, FILTER)]
        self.assertEqual([(e["evt.type"], e["proc.aname[1]"]) for e in got],
                         [("open", "claude"), ("connect", "claude")])
        self.assertEqual(got[1]["fd.name"], fdname)

    def test_filter_beside_rules(self):
        # the kernel keeps what the rules need and what the filter needs
        rules = os.path.join(harness.AS_SOURCE_DIR, "rules", "agent.yaml")
        with Sentinel("--rules", rules, "--trace", "evt.type = open and proc.name = as-workload",
                      "-p", "%proc.name %fd.name", "-v") as s:
            subprocess.run([AS_WORKLOAD, "open", self.file], check=True,
                           stdout=subprocess.DEVNULL)
        # the rules' alerts (JSON) share stdout with the -p lines
        lines = [l.decode() for l in s.lines if not l.startswith(b"{")]
        self.assertEqual(lines, ["as-workload " + self.file])
        for l in s.lines:
            if l.startswith(b"{"):
                self.assertIn("rule", json.loads(l))
        pre = [l for l in s.stderr.splitlines() if "pre-filter:" in l]
        self.assertEqual(len(pre), 1, s.stderr)
        names = pre[0].split(" names=")[1].split(",")
        self.assertIn("as-workload", names)  # the filter's
        self.assertIn("claude", names)  # the rules'

    def test_bad_filter(self):
        for args, want in (
                (["proc.name = claude and proc.nme = x"],
                 "--trace:1:24: error: rule '--trace': unknown field 'proc.nme'\n"),
                (["evt.type", "=", "connect", "and"],  # words are joined, as sysdig does
                 "--trace:1:23: error: rule '--trace': expected a field name, found end of "
                 "condition\n")):
            r = subprocess.run([AS_BIN, "--trace"] + args + ["-M", "1"], capture_output=True,
                               text=True)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertEqual(r.stdout, "")
            self.assertEqual(r.stderr, want)  # one line, with its column
        r = subprocess.run([AS_BIN, "--trace", "-p", "%proc.name[", "-M", "1"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stderr, "-p:1:1: error: rule '--trace': unterminated '[' after "
                         "output field 'proc.name'\n")


if __name__ == "__main__":
    harness.main()
