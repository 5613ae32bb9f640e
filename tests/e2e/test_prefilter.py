#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""The kernel pre-filter derived from the rules never loses an alert: the same
workload gives the same alerts with and without it, live on the real kernel
and in replays of one unfiltered recording, for every rules file in the tests;
and it does drop the events no rule can match."""
import fcntl
import glob
import json
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
from harness import AS_BIN, AS_SOURCE_DIR, AS_WORKLOAD, Sentinel

F_SETPIPE_SZ = 1031  # linux/fcntl.h; Python names it only from 3.10
AS_ACTS = os.environ.get("AS_ACTS", "build/tests/as-acts")
AS_IA32 = os.environ.get("AS_IA32", "build/tests/as-ia32")
RULE_FILES = [os.path.join(AS_SOURCE_DIR, "rules/agent.yaml"),
              os.path.join(AS_SOURCE_DIR, "tests/rules/falco/falco_rules.yaml")] + \
    sorted(glob.glob(os.path.join(AS_SOURCE_DIR, "tests/e2e/prefilter/*.yaml")))


def untimed(alert):
    """An alert without what depends on the agent rather than the event: its
    time stamp (each agent calibrates boot-to-wall time on its own) and its
    alert number (each agent numbers what it saw since it started)."""
    alert = dict(alert)
    del alert["time"]
    alert["output_fields"] = {k: v for k, v in alert["output_fields"].items() if k != "agent.seq"}
    alert["output"] = alert["output"].split(": ", 1)[1]
    return repr(sorted(alert.items()))


def events_count(stderr):
    m = re.search(r"events=(\d+)", stderr)
    assert m, stderr
    return int(m.group(1))


class Prefilter(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="as-pf-")
        cls.outside = tempfile.mkdtemp(prefix="as-pf-", dir="/var/lib")
        # "/tmp" is a string prefix in the seed's rule: /tmpX... is excluded
        # there, but not from agent.yaml's own file rule (its dirs are "/tmp/")
        cls.tmplike = tempfile.mkdtemp(prefix="tmpas-pf-", dir="/")
        for name in ("claude", "node"):
            shutil.copy("/bin/bash", os.path.join(cls.tmp, name))
        shutil.copy(AS_WORKLOAD, os.path.join(cls.tmp, "as-workload"))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)
        shutil.rmtree(cls.outside, ignore_errors=True)
        shutil.rmtree(cls.tmplike, ignore_errors=True)

    def workload(self):
        """Agent trees at several depths, and the same work outside them."""
        srv = socket.socket()
        srv.bind(("127.0.0.1", 0))
        srv.listen(128)  # more than the connects made: none may wait
        port = srv.getsockname()[1]
        w = os.path.join(self.tmp, "as-workload")
        o = self.outside
        steps = ("{w} open {o}/a; {w} connect4 127.0.0.1 {p}; {w} setuid 0; {w} capset 0 0 0; "
                 "echo x > {o}/secret.txt; cat {o}/secret.txt; /bin/true; "
                 # the open pre-filter: writes under excluded prefixes (also
                 # relative, and /tmpX...), through a link out of /tmp, deep
                 # paths, failed opens, a read-write open of a credential
                 "echo x > {t}/w.txt; (cd {t} && echo x > rel.txt); echo x > {l}/w.txt; "
                 "ln -sf {o}/linked {t}/link; echo x > {t}/link; "
                 "mkdir -p {o}/d1/d2/d3/d4; echo x > {o}/d1/d2/d3/d4/deep; "
                 "echo x > {o}/missing/x 2>/dev/null; cat {t}/missing 2>/dev/null; "
                 "mkdir -p {t}/.ssh; echo k > {t}/.ssh/id_rsa; {w} open {t}/.ssh/id_rsa; "
                 "{w} read {t}/.ssh/id_rsa"
                 ).format(w=w, o=o, p=port, t=self.tmp, l=self.tmplike)
        nest = steps
        scripts = []
        for depth in range(6):
            scripts.append(nest)
            nest = "sh -c '%s'" % nest.replace("'", "'\\''")
        for agent in ("claude", "node"):
            for script in scripts:
                subprocess.run([os.path.join(self.tmp, agent), "-c", script + "; true"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run(["sh", "-c", steps + "; true"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        srv.close()

    def test_live_same_alerts_with_and_without(self):
        rules = RULE_FILES[0]
        rec_f = os.path.join(self.tmp, "filtered.asrec")
        rec_a = os.path.join(self.tmp, "all.asrec")
        with Sentinel("--rules", rules, "--record", rec_f) as filtered, \
                Sentinel("--rules", rules, "--no-prefilter", "--record", rec_a) as full:
            self.workload()
        # only this test's processes (the host may be busy), and no loss in either
        ours = (self.tmp, self.outside, self.tmplike)
        a = sorted(untimed(e) for e in filtered.events() if any(p in json.dumps(e) for p in ours))
        b = sorted(untimed(e) for e in full.events() if any(p in json.dumps(e) for p in ours))
        for s in (filtered, full):
            self.assertRegex(s.stderr, r"drops=0 ")
        self.assertGreater(len(b), 10)
        self.assertEqual(a, b)
        # and the kernel kept back what no rule could match: the open made
        # outside any agent tree reached only the unfiltered agent
        self.assertEqual(self.opens_outside_agents(rec_f), 0)
        self.assertEqual(self.opens_outside_agents(rec_a), 1)
        # and the writes under /tmp of the agent trees, which no rule of
        # agent.yaml can match, reached only the unfiltered agent (12 trees)
        self.assertEqual(self.opens_of(rec_f, self.tmp + "/w.txt"), 0)
        self.assertEqual(self.opens_of(rec_a, self.tmp + "/w.txt"), 13)
        # a write under /tmpX... is outside /tmp: every one kept, and each
        # alerts (the file rule, not the seed's, which takes it for /tmp)
        tmplike = [e for e in full.events() if e["output_fields"].get("fd.name") ==
                   self.tmplike + "/w.txt"]
        self.assertEqual(len(tmplike), 12)
        self.assertEqual({e["rule"] for e in tmplike}, {"Agent Changed File Outside Workspace"})
        self.assertEqual(self.opens_of(rec_f, self.tmplike + "/w.txt"), 12)  # not sh's
        self.assertEqual(self.opens_of(rec_a, self.tmplike + "/w.txt"), 13)
        # and an agent's reads of nothing secret (cat of a file outside):
        # only the credential rule takes reads, and it needs a credential's
        # name in the path, which the kernel tests; the key's reads are kept
        # (its writes, under /tmp, are not: "open" writes, "read" reads)
        self.assertEqual(self.opens_of(rec_f, self.outside + "/secret.txt", "cat"), 0)
        self.assertEqual(self.opens_of(rec_a, self.outside + "/secret.txt", "cat"), 13)
        self.assertEqual(self.opens_of(rec_f, self.tmp + "/.ssh/id_rsa", "as-workload"), 12)
        self.assertEqual(self.opens_of(rec_a, self.tmp + "/.ssh/id_rsa", "as-workload"), 26)
        # a write through /tmp/.../link lands outside: kept where it alerts
        linked = [e for e in full.events() if e["output_fields"].get("fd.name") ==
                  self.outside + "/linked"]
        self.assertGreater(len(linked), 0)
        self.assertEqual(self.opens_of(rec_f, self.outside + "/linked"), len(linked))

    def test_a_thread_judged_outside_is_judged_again_after_exec(self):
        """A thread's verdict is cached per thread and per CPU (bpf/
        sentinel.bpf.h: as_vcache): the same thread, outside every agent
        tree, opens many times (cached "no"), then execs an agent binary and
        writes as the agent itself. The write must alert; the opens before
        must not reach userspace."""
        claude = os.path.join(self.tmp, "claude")
        before, after = self.outside + "/before-exec", self.outside + "/after-exec"
        script = ("for i in 1 2 3 4 5 6 7 8; do echo x > {b}; done; "
                  "exec {c} -c 'echo x > {a}'").format(b=before, a=after, c=claude)
        rec = os.path.join(self.tmp, "exec.asrec")
        with Sentinel("--rules", RULE_FILES[0], "--record", rec) as s:
            # taskset: one CPU, so the cached verdict is the one looked at
            subprocess.run(["taskset", "-c", "0", "sh", "-c", script], check=True)
        self.assertEqual(self.opens_of(rec, before), 0)
        self.assertEqual(self.opens_of(rec, after), 1)
        hits = [e for e in s.events() if e["output_fields"].get("fd.name") == after]
        self.assertEqual(len(hits), 1, s.events())

    def test_live_renames_are_judged_again(self):
        """Rules test live names (proc.name, proc.aname), and a real agent
        often takes its name after its exec (node's process.title = "claude":
        prctl PR_SET_NAME). The kernel's verdicts are cached per thread and
        were taken on the names of their time; its lineage holds exec-time
        names only. A process that renames itself claude after it was judged
        (by /proc/PID/comm, by prctl), a child it had already, children it
        makes afterwards, and a child alive when its parent execs as claude:
        each one's credential read and write outside alert with the
        pre-filter exactly as without it (3 of 12 alerts got through before)."""
        o, claude = self.outside, os.path.join(self.tmp, "claude")
        os.makedirs(os.path.join(self.tmp, ".ssh"), exist_ok=True)
        key = os.path.join(self.tmp, ".ssh", "renamed_key")
        with open(key, "w") as f:
            f.write("k\n")
        prctl = "import ctypes, os\nname = lambda n: ctypes.CDLL(None).prctl(15, n, 0, 0, 0)\n"
        acts = "open(%r).read(); open(%r + '/ren-%%s', 'w').write('x')" % (key, o)
        shapes = [
            ["bash", "-c", "printf claude > /proc/$$/comm; cat %s > /dev/null; "
             "echo x > %s/ren-comm; true" % (key, o)],
            [sys.executable, "-c", prctl + "open(%r + '/pre', 'w'); name(b'claude'); " % o
             + acts % "prctl"],
            [sys.executable, "-c", prctl + "r, w = os.pipe()\nif os.fork() == 0:\n"
             "    open(%r + '/pre', 'w'); os.read(r, 1); %s; os._exit(0)\n" % (o, acts % "child")
             + "name(b'claude'); os.write(w, b'x'); os.wait()"],
            [sys.executable, "-c", prctl + "name(b'claude'); os.system(\"sh -c 'cat %s; "
             "echo x > %s/ren-deep'\")" % (key, o)],
            # the parent (claude by then) lives until the child has acted:
            # a child outliving it is reparented, and no claude is above it
            [sys.executable, "-c", prctl + "r, w = os.pipe(); r2, w2 = os.pipe()\n"
             "if os.fork() == 0:\n"
             "    os.close(w); open(%r + '/pre', 'w'); os.read(r, 1); %s\n"
             "    os.write(w2, b'x'); os._exit(0)\n"
             % (o, acts % "exec") + "os.set_inheritable(w, True); os.set_inheritable(r2, True)\n"
             "os.execv(%r, ['claude', '-c', 'sleep 0.3; echo x >&%%d; read -r -n 1 _ <&%%d'"
             " %% (w, r2)])" % claude],
        ]
        # the reference takes every event of the host: a ring big enough that
        # another test's load beside it (ctest -j2) cannot make it lose one
        with Sentinel("--rules", RULE_FILES[0]) as filtered, \
                Sentinel("--rules", RULE_FILES[0], "--no-prefilter",
                         "--ringbuf-size", "64M") as full:
            for argv in shapes:
                subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               timeout=60)

        def ours(s):
            return sorted(untimed(e) for e in s.events()
                          if "/ren-" in json.dumps(e) or key in json.dumps(e))
        a, b = ours(filtered), ours(full)
        for m in (filtered, full):  # a lost event would be a difference of its own
            self.assertRegex(m.stderr, r"drops=0 ")
        for tag in ("comm", "prctl", "child", "deep", "exec"):
            self.assertTrue(any("/ren-" + tag in x for x in b), tag)  # each shape alerts
        self.assertGreaterEqual(sum(key in x for x in b), 4)
        self.assertEqual(a, b)

    def test_never_its_own_events_when_started_by_an_agent(self):
        """agent-sentinel started by an agent (a shell named claude runs it)
        descends from one: the pre-filter would pass its own opens (the /proc
        seed, its caches) and every event it reports would make more. Its
        threads' verdict is none, so nothing of its own is an event, with a
        traced type judged by the pre-filter (the filter below) and with
        every event kept (no filter)."""
        claude = os.path.join(self.tmp, "claude")
        script = "trap 'kill -TERM $p; wait $p; exit 0' TERM; \"$@\" & p=$!; wait $p; wait $p"
        for flt in (["proc.aname in (claude) or proc.name = claude"], []):
            with self.subTest(filter=flt):
                s = Sentinel("--trace", *flt)
                s.args = [claude, "-c", script, "claude"] + s.args
                with s:
                    with open("/proc/%d/task/%d/children" % (s.proc.pid, s.proc.pid)) as f:
                        kids = [int(k) for k in f.read().split()]
                    self.assertEqual(len(kids), 1, kids)
                    me = kids[0]
                    # an act of the same tree, as a control: it is seen
                    subprocess.run([claude, "-c", "cat /etc/hostname > /dev/null; exit 0"],
                                   check=True)
                events = s.events()
                self.assertTrue(any(e.get("proc.name") == "cat" for e in events),
                                "the control act was not seen")
                own = [e for e in events if e.get("proc.pid") == me]
                self.assertEqual(own, [], own[:3])

    def test_the_prefix_test_walks_a_bounded_depth(self):
        """The kernel's prefix test walks at most AS_EXCL_DEPTH (32) hops to
        the root (bpf/walk.bpf.c): a write under /tmp 20 directories down
        is dropped in the kernel; one 40 down is not tested there and
        reaches userspace, where the rules judge it. Neither alerts. And
        a prefix of exactly one word (/var/tmp: 8 bytes, its mask's second
        word empty) drops what is under it, not what merely shares a word."""
        claude = os.path.join(self.tmp, "claude")
        paths = {}
        for depth in (20, 40):
            d = os.path.join(self.tmp, "deep%d" % depth, *["d%d" % i for i in range(depth)])
            os.makedirs(d)
            paths[depth] = os.path.join(d, "w.txt")
        vartmp = tempfile.mkdtemp(prefix="as-pf-", dir="/var/tmp")
        self.addCleanup(shutil.rmtree, vartmp, True)
        paths["vartmp"] = os.path.join(vartmp, "w.txt")
        paths["var"] = os.path.join(self.outside, "shared.txt")  # /var/lib: shares "/var/" only
        rec = os.path.join(self.tmp, "depth.asrec")
        script = "; ".join("echo x > %s" % p for p in paths.values())
        with Sentinel("--rules", RULE_FILES[0], "--record", rec) as s:
            subprocess.run([claude, "-c", script], check=True)
        self.assertEqual(self.opens_of(rec, paths[20]), 0)
        self.assertEqual(self.opens_of(rec, paths[40]), 1)
        self.assertEqual(self.opens_of(rec, paths["vartmp"]), 0)
        self.assertEqual(self.opens_of(rec, paths["var"]), 1)
        # (claude's own exec alerts: the seed's rule; its command line names them all)
        alerted = [e["output_fields"].get("fd.name") for e in s.events()]
        self.assertEqual([p for p in paths.values() if p in alerted], [paths["var"]])

    def opens_of(self, recording, path, comm=None):
        r = subprocess.run([AS_BIN, "--trace", "--replay", recording], capture_output=True,
                           text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        return sum(1 for line in r.stdout.splitlines()
                   if json.loads(line).get("fd.name") == path and
                   comm in (None, json.loads(line).get("proc.name")))

    def test_the_name_test_reads_what_the_rules_name(self):
        """The credential rule's names are tested in the kernel on the
        path's names (bpf/walk.bpf.c, as_atom_match): a directory named
        .aws, .kube, .ssh or gcloud anywhere, a last name .env or .env.*
        (also one longer than the 32 bytes the kernel reads, or than the 63
        its length mask tells apart), across a mount; a path longer than
        the walk copies (as_path_walk cuts it short) is kept, whatever it
        names. Each such read alerts
        once; the reads whose names only look alike never leave the kernel.
        Names of 64-127, 128-191 and 192-255 bytes: the length table's last
        bucket stands for all of them; one of 63 bytes is at its edge, and
        one of 35 is kept in its dentry (read by typed loads) but longer
        than the 32 bytes compared."""
        claude = os.path.join(self.tmp, "claude")
        home = tempfile.mkdtemp(prefix="as-pf-home-", dir=self.outside)
        mnt = os.path.join(home, "mnt")
        os.makedirs(mnt)
        subprocess.run(["mount", "-t", "tmpfs", "none", mnt], check=True)
        self.addCleanup(subprocess.run, ["umount", "-l", mnt])
        secret = [os.path.join(home, p) for p in (
            ".aws/credentials", ".kube/config", ".config/gcloud/adc.json", "w/.env",
            "w/.env.production", "w/.env." + "s" * 30, "w/.env." + "t" * 58,
            "w/.env." + "x" * 40, "w/.env." + "y" * 80,
            "w/.env." + "v" * 125, "w/.env." + "u" * 200,
            "mnt/.ssh/id_ed25519", "mnt/.env")]
        plain = [os.path.join(home, p) for p in (
            "aws/credentials", ".awsx/config", "x.ssh/id", "w/.envrc", "w/env", "w/.en",
            "gcloudx/a", "w/" + "z" * 80, ".env/inside", "mnt/.ssh.d/k",
            "w/.enw." + "s" * 30, ".awsz/" + "a" * 35)]
        for p in secret + plain:
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w") as f:
                f.write("k\n")
        # 17 names of 250 bytes: 4,267 bytes, more than as_path_walk copies
        # (4,096), in fewer than the test's 32 hops
        deep, fd = [], os.open(home, os.O_RDONLY | os.O_DIRECTORY)
        for i in range(17):
            name = chr(ord("a") + i) * 250
            os.mkdir(name, dir_fd=fd)
            nfd = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = nfd
            deep.append(name)
        os.close(os.open("long.txt", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd))
        os.close(fd)
        rec = os.path.join(self.tmp, "names.asrec")
        script = "; ".join("cat '%s' > /dev/null" % p for p in secret + plain)
        script += "; cd %s && cd %s && cat long.txt" % (home, " && cd ".join(deep))
        with Sentinel("--rules", RULE_FILES[0], "--record", rec) as s:
            subprocess.run([claude, "-c", script], check=True)
        read = [e["output_fields"]["fd.name"] for e in s.events()
                if e["rule"] == "Agent Read Credential File"]
        self.assertEqual(sorted(read), sorted(secret))
        for p in secret:
            self.assertEqual(self.opens_of(rec, p, "cat"), 1, p)
        for p in plain:
            self.assertEqual(self.opens_of(rec, p, "cat"), 0, p)
        r = subprocess.run([AS_BIN, "--trace", "--replay", rec], capture_output=True, text=True)
        longs = [l for l in r.stdout.splitlines()
                 if json.loads(l).get("fd.name", "").endswith("/long.txt")]
        self.assertEqual(len(longs), 1, r.stderr)

    def opens_outside_agents(self, recording):
        r = subprocess.run([AS_BIN, "--trace", "--replay", recording], capture_output=True,
                           text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        n = 0
        for line in r.stdout.splitlines():
            e = json.loads(line)
            names = {v for k, v in e.items() if k.startswith("proc.aname[")}
            if e.get("fd.name") == self.outside + "/a" and e["evt.type"] == "open" and \
                    not names & {"claude", "node"}:
                n += 1
        return n

    def test_rules_of_untested_opens_alone_keep_the_open_type(self):
        """The class and path tests are the native path opens': a rule that
        can match only a 32-bit open or an open_by_handle_at asks for no
        class, and the open type must stay attached for it all the same."""
        rules = os.path.join(self.tmp, "untested.yaml")
        with open(rules, "w") as f:
            f.write("- rule: Handle\n  desc: d\n"
                    "  condition: evt.type = open_by_handle_at and fd.name startswith /tmp/\n"
                    "  output: handle %fd.name\n  priority: WARNING\n"
                    "- rule: Compat\n  desc: d\n"
                    "  condition: evt.type = open and evt.is_compat = true\n"
                    "  output: compat %fd.name\n  priority: WARNING\n")
        target = os.path.join(self.tmp, "handled.txt")
        with open(target, "w") as f:
            f.write("x")
        with Sentinel("--rules", rules, "-v") as s:
            ia32 = [] if harness.ia32_refused() else [[AS_IA32, "open", target, "0", "0"]]
            for cmd in [[AS_ACTS, "open_by_handle_at", target]] + ia32:
                r = subprocess.run(cmd, capture_output=True, text=True)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertGreaterEqual(int(r.stdout.split()[-1]), 0, r.stdout)
        plan = [l for l in s.stderr.splitlines() if "pre-filter:" in l][0]
        self.assertIn(" open=all", plan)
        got = sorted(e["rule"] for e in s.events() if e["output_fields"].get("fd.name") == target)
        self.assertEqual(got, ["Compat", "Handle"] if ia32 else ["Handle"])

    def test_replay_same_alerts_for_every_rules_file(self):
        rec = os.path.join(self.tmp, "all.asrec")
        with Sentinel("--trace", "--record", rec):
            self.workload()
        for rules in RULE_FILES:
            runs = []
            for extra in ([], ["--no-prefilter"]):
                r = subprocess.run([AS_BIN, "--rules", rules, "--replay", rec] + extra,
                                   capture_output=True)
                self.assertEqual(r.returncode, 0, (rules, r.stderr))
                runs.append((r.stdout.split(b"\n"), events_count(r.stderr.decode())))
            self.assertEqual(runs[0][0], runs[1][0], rules)
            self.assertLessEqual(runs[0][1], runs[1][1], rules)
            if rules.endswith("agent.yaml") or rules.endswith("names.yaml"):
                self.assertGreater(len(runs[0][0]), 3, rules)  # the rules did fire
                self.assertLess(runs[0][1], runs[1][1], rules)  # and events were dropped

    def test_replay_waits_for_a_slow_output(self):
        # live, an output queue that is full drops (the ring must drain);
        # a replay has no such hurry: it waits, and every alert gets out
        rec = os.path.join(self.tmp, "slow.asrec")
        with Sentinel("--trace", "--record", rec):
            self.workload()
        cmd = [AS_BIN, "--rules", RULE_FILES[0], "--replay", rec]
        fast = subprocess.run(cmd, capture_output=True)
        self.assertEqual(fast.returncode, 0, fast.stderr)
        rfd, wfd = os.pipe()
        fcntl.fcntl(wfd, F_SETPIPE_SZ, 4096)  # the smallest pipe fills first
        p = subprocess.Popen(cmd + ["-o", "outputs_queue.capacity=1"], stdout=wfd,
                             stderr=subprocess.PIPE)
        os.close(wfd)
        time.sleep(1)  # nothing read meanwhile: the pipe and the queue are full
        with os.fdopen(rfd, "rb") as r:
            out = r.read()
        err = p.communicate()[1]
        self.assertEqual(p.returncode, 0, err)
        self.assertGreater(len(fast.stdout), 3 * 4096)  # more than the pipe holds
        self.assertNotIn(b"dropped", err)
        self.assertEqual(out, fast.stdout)

    def test_derived_filter_is_reported(self):
        r = subprocess.run([AS_BIN, "--rules", os.path.join(AS_SOURCE_DIR, "tests/e2e/prefilter/names.yaml"),
                            "-v", "-M", "0.1"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        line = [l for l in r.stderr.splitlines() if "pre-filter:" in l][0]
        # open: pname in (agents) and name = as-workload keeps the tighter (depth 0);
        # connect: any ancestor; setuid: aname[5]; capset: a name longer than a
        # comm can never match, so capset is not even attached; exec: not
        # proc.name in (bash) restricts nothing but pname = claude does, and
        # exec and fork then follow the loosest type (connect)
        self.assertIn("open=aname[0..0]", line)
        self.assertIn("connect=aname[0..12]", line)
        self.assertIn("setid=aname[0..5]", line)
        self.assertIn("capset=off", line)
        self.assertIn("exec=aname[0..12] fork=aname[0..12] exit=all", line)
        self.assertEqual(sorted(line.split("names=")[1].split(",")), ["as-workload", "claude", "node"])


if __name__ == "__main__":
    harness.main()
