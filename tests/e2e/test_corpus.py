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
import subprocess
import tempfile
import unittest

import harness
from harness import AS_BIN, AS_SOURCE_DIR, Sentinel

RULES = os.path.join(AS_SOURCE_DIR, "rules/agent.yaml")
AGENT_BWRAP = os.environ.get("AS_AGENT_BWRAP", "")
AS_ACTS = os.environ.get("AS_ACTS", "build/tests/as-acts")
CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
PROFILE = os.path.join(AS_SOURCE_DIR, "packaging/seccomp/agent.json")
SESSION_TIMEOUT = 300  # seconds for the harmless session (npm and pip start slowly)


def launcher_rules(path):
    """The deployment's list of launcher paths, with the built agent-bwrap."""
    with open(path, "w") as f:
        f.write("- list: agent_launcher_paths\n  items: [%s]\n  override: {items: append}\n"
                % os.path.realpath(AGENT_BWRAP))


def corpus_profile(path):
    """The shipped profile plus what package managers need (corpus/seccomp-extra.json)."""
    with open(PROFILE) as f:
        prof = json.load(f)
    with open(os.path.join(CORPUS, "seccomp-extra.json")) as f:
        extra = json.load(f)
    extra.pop("_comment")
    prof["syscalls"].insert(0, extra)
    with open(path, "w") as f:
        json.dump(prof, f)


def tree_pids(rec, roots):
    """Pids of ROOTS and of their descendants, from a --trace replay of REC."""
    p = subprocess.run([AS_BIN, "--trace", "--no-prefilter", "--replay", rec],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True)
    pids = set(roots)
    for line in p.stdout.split(b"\n"):
        if not line:
            continue
        e = json.loads(line)
        chain = [e.get("proc.pid")] + [e[k] for k in e if k.startswith("proc.apid[")]
        if any(c in roots for c in chain):
            pids.add(e.get("proc.pid"))
    return pids


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
        profile = os.path.join(self.tmp, "profile.json")
        corpus_profile(profile)
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


if __name__ == "__main__":
    harness.main()
