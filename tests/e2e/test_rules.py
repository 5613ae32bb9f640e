#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""agent-sentinel --rules rules/agent.yaml on the real kernel, with real
claude-named process trees: each seed rule fires with the right fields, stays
silent for the negative cases, and sandboxed trees started by agent-bwrap are
told apart from unsandboxed children of the same agent."""
import os
import shutil
import socket
import subprocess
import tempfile
import unittest

import harness
from harness import AS_SOURCE_DIR, AS_WORKLOAD, Sentinel

RULES = os.path.join(AS_SOURCE_DIR, "rules/agent.yaml")
AGENT_BWRAP = os.environ.get("AS_AGENT_BWRAP", "")
SPAWN = "Agent Process Spawned Outside Sandbox"
WROTE = "Agent Wrote to Unexpected Path"
PRIV = "Agent Attempted Privilege Escalation"
NET = "Agent Network Connection"
CRED = "Agent Read Credential File"


def cgroup2_root():
    with open("/proc/mounts") as f:
        for line in f:
            dev, mnt, fstype = line.split()[:3]
            if fstype == "cgroup2":
                return mnt
    raise AssertionError("no cgroup2 mount")


class Rules(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="as-rules-")
        # not under /tmp, /var/tmp or /workspace: writes here are unexpected
        self.outside = tempfile.mkdtemp(prefix="as-rules-", dir="/var/lib")
        self.claude = os.path.join(self.tmp, "claude")
        shutil.copy("/bin/bash", self.claude)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)
        shutil.rmtree(self.outside, ignore_errors=True)

    def alerts(self, s, rule=None):
        out = [a for a in s.events() if rule is None or a["rule"] == rule]
        for a in out:
            self.assertEqual(sorted(a), ["hostname", "output", "output_fields", "priority", "rule",
                                         "source", "tags", "time"])
        return out

    def claude_run(self, script, **kw):
        return subprocess.run([self.claude, "-c", script + "; true"], check=True, **kw)

    def test_spawn_outside_sandbox_and_sandboxed_cgroup(self):
        cg = os.path.join(cgroup2_root(), "agent-sandbox-e2e-%d" % os.getpid())
        os.mkdir(cg)
        try:
            with Sentinel("--rules", RULES) as s:
                # outside: claude -> sh -> tool
                self.claude_run("sh -c '/bin/ls %s >/dev/null; true'" % self.tmp)
                # inside a cgroup whose path contains agent-sandbox
                self.claude_run("sh -c 'echo $$ > %s/cgroup.procs; /bin/ls -d /usr >/dev/null; true'"
                                % cg)
                # a command found on the PATH's third entry by env (execvp,
                # as a "#!/usr/bin/env bash" script runs): the two execve
                # that found no file spawned nothing
                self.claude_run("env PATH=%s/none:/none:/bin ls -d /var >/dev/null" % self.tmp)
                # a process outside any agent tree
                subprocess.run(["sh", "-c", "/bin/ls -d /etc >/dev/null; true"], check=True)
        finally:
            os.rmdir(cg)
        spawns = self.alerts(s, SPAWN)
        cmds = [a["output_fields"]["proc.cmdline"] for a in spawns]
        ls = [a for a in spawns if a["output_fields"]["proc.cmdline"] == "ls %s" % self.tmp]
        self.assertEqual(len(ls), 1, cmds)
        a = ls[0]
        self.assertEqual(a["priority"], "Warning")
        self.assertEqual(a["source"], "syscall")
        self.assertEqual(a["tags"], ["agent", "blast_radius", "sandbox"])
        self.assertEqual(a["output_fields"]["proc.pname"], "sh")
        self.assertIsInstance(a["output_fields"]["proc.pid"], int)
        self.assertNotIn("agent-sandbox", a["output_fields"]["proc.cgroup"])
        self.assertRegex(a["output"], r"^\d\d:\d\d:\d\d\.\d{9}: Warning Unsandboxed child of agent "
                                      r"\(pid=\d+ cmd=ls %s parent=sh cgroup=" % self.tmp)
        self.assertRegex(a["time"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$")
        search = [c for c in cmds if c.startswith("env PATH=")]
        self.assertEqual(len(search), 1, search)  # env itself; not its misses
        self.assertEqual(cmds.count("ls -d /var"), 1, cmds)
        self.assertNotIn("ls -d /usr", cmds)  # sandboxed cgroup: silent
        self.assertNotIn("ls -d /etc", cmds)  # no agent ancestor: silent

    def test_unexpected_writes(self):
        deep = os.path.join(self.outside, "deep.txt")
        with Sentinel("--rules", RULES) as s:
            self.claude_run("echo x > %s/direct.txt" % self.outside)
            self.claude_run("sh -c 'echo x > %s/child.txt'" % self.outside)
            self.claude_run("echo x > %s/ok.txt" % self.tmp)  # /tmp: allowed
            self.claude_run("echo x > /dev/null")
            # the writer is aname[3] below claude: beyond the seed's depth
            self.claude_run("sh -c \"sh -c 'sh -c \\\"echo x > %s\\\"; true'; true\"" % deep)
            subprocess.run(["sh", "-c", "echo x > %s/nonagent.txt" % self.outside], check=True)
        # (only ours: other tests on the host may run claude-named trees)
        files = sorted(a["output_fields"]["fd.name"] for a in self.alerts(s, WROTE)
                       if a["output_fields"]["fd.name"].startswith(self.outside))
        self.assertEqual(files, [self.outside + "/child.txt", self.outside + "/direct.txt"])
        a = [a for a in self.alerts(s, WROTE) if a["output_fields"]["fd.name"].endswith("child.txt")][0]
        self.assertEqual(a["output_fields"]["proc.pname"], "claude")
        self.assertEqual(a["priority"], "Warning")
        self.assertTrue(os.path.exists(deep))

    def test_privilege_escalation(self):
        pids = os.path.join(self.tmp, "pids")
        with Sentinel("--rules", RULES) as s:
            # each act's pid noted (other tests on the host run claude trees too)
            self.claude_run("; ".join("sh -c 'echo $$ >> %s; exec %s %s'" % (pids, AS_WORKLOAD, a)
                                      for a in ("setuid 0", "setgid 0", "capset 0 0 0",
                                                "setresuid 0 0 0")),
                            stdout=subprocess.DEVNULL)
            subprocess.run([AS_WORKLOAD, "setuid", "0"], stdout=subprocess.DEVNULL, check=True)
        with open(pids) as f:
            ours = {int(x) for x in f.read().split()}
        got = sorted(a["output_fields"]["evt.type"] for a in self.alerts(s, PRIV)
                     if a["output_fields"]["proc.pid"] in ours)
        # setresuid is not in the seed rule's list
        self.assertEqual(got, ["capset", "setgid", "setuid"])
        for a in self.alerts(s, PRIV):
            if a["output_fields"]["proc.pid"] not in ours:
                continue
            self.assertEqual(a["priority"], "Error")
            self.assertEqual(a["output_fields"]["proc.pname"], "claude")

    def test_connect_and_credentials(self):
        home = os.path.join(self.tmp, "home")
        os.makedirs(home + "/.ssh")
        with open(home + "/.ssh/id_ed25519", "w") as f:
            f.write("key")
        with open(home + "/.env", "w") as f:
            f.write("TOKEN=x")
        srv = socket.socket()
        srv.bind(("127.0.0.1", 0))
        srv.listen(1)
        port = srv.getsockname()[1]
        with Sentinel("--rules", RULES) as s:
            self.claude_run("%s connect4 127.0.0.1 %d >/dev/null; cat %s/.ssh/id_ed25519 %s/.env "
                            ">/dev/null" % (AS_WORKLOAD, port, home, home))
            subprocess.run(["cat", home + "/.ssh/id_ed25519"], stdout=subprocess.DEVNULL)
        srv.close()
        # only the TCP connect: bash started without HOME (as CI may start it) also
        # asks nscd over a unix socket, a real agent connection that alerts too
        # (and only ours: other tests on the host may run claude-named trees)
        net = [a for a in self.alerts(s, NET) if a["output_fields"]["fd.type"] == "ipv4"
               and a["output_fields"]["fd.sport"] == port]
        self.assertEqual(len(net), 1, self.alerts(s, NET))
        self.assertEqual(net[0]["priority"], "Notice")
        self.assertEqual(net[0]["output_fields"]["fd.sip"], "127.0.0.1")
        self.assertEqual(net[0]["output_fields"]["fd.sport"], port)
        self.assertEqual(net[0]["output_fields"]["evt.res"], "SUCCESS")
        creds = sorted(a["output_fields"]["fd.name"] for a in self.alerts(s, CRED))
        self.assertEqual(creds, [home + "/.env", home + "/.ssh/id_ed25519"])

    def test_agent_bwrap_sandbox_and_session(self):
        self.assertTrue(AGENT_BWRAP, "AS_AGENT_BWRAP must name the agent-bwrap binary")
        ws = os.path.join(self.tmp, "ws")
        os.mkdir(ws)
        shutil.copy(self.claude, os.path.join(ws, "claude"))
        shutil.copy(AS_WORKLOAD, os.path.join(ws, "as-workload"))
        env = dict(os.environ, USE_NETWORK="0", AGENT_SESSION_ID="e2e-session-42",
                   SECCOMP_FILE=os.path.join(AS_SOURCE_DIR, "packaging/seccomp/agent.json"))
        with Sentinel("--rules", RULES) as s:
            # the same agent: one sandboxed tree through agent-bwrap, one child outside
            subprocess.run([self.claude, "-c",
                            "%s %s -- /workspace/claude -c '/bin/ls /workspace >/dev/null; "
                            "/workspace/as-workload setuid 65534 >/dev/null; true'; "
                            "env -u AGENT_SESSION_ID /bin/ls -d / >/dev/null; true"
                            % (AGENT_BWRAP, ws)], env=env, check=True,
                           stderr=subprocess.DEVNULL)
        spawns = self.alerts(s, SPAWN)
        cmds = [a["output_fields"]["proc.cmdline"] for a in spawns]
        self.assertIn("ls -d /", cmds)
        self.assertNotIn("ls /workspace", cmds)
        self.assertFalse([c for c in cmds if c.startswith("claude -c /bin/ls /workspace")], cmds)
        # sandboxed: the sandbox rule (Critical), not the seed's (its exception)
        self.assertFalse([a for a in self.alerts(s, PRIV) if a["output_fields"]["evt.type"] == "setuid"
                          and "e2e-session-42" == a["output_fields"].get("agent.session")])
        priv = [a for a in self.alerts(s, "Sandboxed Agent Gained Privilege")
                if a["output_fields"]["evt.type"] == "setuid"]
        self.assertEqual(len(priv), 1, self.alerts(s))
        self.assertEqual(priv[0]["priority"], "Critical")
        self.assertEqual(priv[0]["output_fields"]["agent.session"], "e2e-session-42")


if __name__ == "__main__":
    harness.main()
