#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""fd.name is the normalised absolute path as the process sees it: absolute,
relative, ../, dirfd, openat2, creat, failed opens, inside bubblewrap; and
hostile bytes in names stay inside one valid JSON line."""
import os
import re
import shutil
import subprocess
import tempfile
import unittest

import harness
from harness import Sentinel, find, workload

NOBODY = 65534
PATH_FIELDS = ("fs.path.name", "fs.path.source", "fs.path.target", "fd.name")


class Paths(unittest.TestCase):
    def setUp(self):
        self.dir = os.path.realpath(tempfile.mkdtemp(prefix="as-paths-"))
        self.sub = os.path.join(self.dir, "sub")
        os.mkdir(self.sub)

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def one(self, events, pid, **kw):
        got = find(events, {"proc.pid": pid}, **kw)
        self.assertEqual(len(got), 1, [e.get("fd.name") for e in find(events, {"proc.pid": pid})])
        return got[0]

    def test_successful_opens(self):
        with Sentinel("--trace") as s:
            p_abs, r_abs = workload("open", self.dir + "/abs.txt")
            p_rel, r_rel = workload("openat-cwd", "rel.txt", cwd=self.sub)
            p_up, r_up = workload("chdir-openat", self.sub, "../x/../up.txt")
            p_dfd, r_dfd = workload("openat-dirfd", self.sub, "./dfd.txt")
            p_oa2, r_oa2 = workload("openat2-dirfd", self.sub, "oa2.txt")
            p_creat, r_creat = workload("creat", self.dir + "//c//creat.txt")
        ev = s.events()
        e = self.one(ev, p_abs, evt__type="open")
        self.assertEqual(e["fd.name"], self.dir + "/abs.txt")
        self.assertEqual(e["fd.num"], int(r_abs[0]))
        self.assertEqual(e["evt.res"], "SUCCESS")
        self.assertEqual(e["fd.typechar"], "f")
        self.assertTrue(e["evt.is_open_write"])
        self.assertFalse(e["evt.is_open_read"])
        self.assertEqual(e["evt.arg.flags"], "O_WRONLY|O_CREAT|O_TRUNC|O_F_CREATED")  # a new file
        self.assertEqual(e["fd.directory"], self.dir)
        self.assertEqual(e["fd.filename"], "abs.txt")
        self.assertEqual(int(e["evt.arg.ino"]), os.stat(self.dir + "/abs.txt").st_ino)
        e = self.one(ev, p_rel, evt__type="openat", fd__name=self.sub + "/rel.txt")
        self.assertEqual(e["evt.arg.dirfd"], "-100")
        self.assertEqual(r_up[0], "-2")  # ../x/.. needs x to exist: ENOENT, lexically /dir/up.txt
        e = self.one(ev, p_up, evt__type="openat", evt__res="ENOENT")
        self.assertEqual(e["fd.name"], self.dir + "/up.txt")
        self.assertEqual(e["fd.num"], -1)
        e = self.one(ev, p_dfd, evt__type="openat", fd__name=self.sub + "/dfd.txt")
        self.assertEqual(e["evt.arg.dirfd"], r_dfd[0].split()[1])
        e = self.one(ev, p_oa2, evt__type="openat2")
        self.assertEqual(e["fd.name"], self.sub + "/oa2.txt")
        self.assertEqual(e["evt.arg.mode"], "0640")
        e = self.one(ev, p_creat, evt__type="creat")
        self.assertEqual(e["evt.res"], "ENOENT")  # c/ does not exist
        self.assertEqual(e["fd.name"], self.dir + "/c/creat.txt")

    def test_failed_opens(self):
        secret = os.path.join(self.dir, "secret")
        with open(secret, "w") as f:
            f.write("x")
        os.chmod(secret, 0o600)
        os.chmod(self.dir, 0o755)
        with Sentinel("--trace") as s:
            p_acc, r_acc = workload("as-user", NOBODY, "read", secret)
            p_ent, r_ent = workload("openat-dirfd", self.sub, "../missing/./f")
        self.assertEqual(r_acc, ["-13"])
        ev = s.events()
        e = self.one(ev, p_acc, evt__type="openat", evt__res="EACCES")
        self.assertEqual(e["evt.rawres"], -13)
        self.assertEqual(e["fd.name"], secret)
        self.assertEqual(e["user.uid"], NOBODY)
        self.assertTrue(e["evt.is_open_read"])
        e = self.one(ev, p_ent, evt__type="openat", evt__res="ENOENT")
        self.assertEqual(e["fd.name"], self.dir + "/missing/f")

    def comparable(self, events, pids):
        """This test's events (its pids, or naming its directory) without what
        differs between two agents watching the same acts (numbering, times)."""
        out = []
        for e in events:
            names = str(e.get("fd.name", "")) + str(e.get("fs.path.name", "")) + \
                str(e.get("proc.cmdline", ""))
            if e.get("proc.pid") in pids or self.dir in names:
                e = {k: v for k, v in e.items() if k not in ("evt.num", "evt.time", "evt.rawtime",
                                                        "evt.time.iso8601", "proc.duration")}
                out.append(repr(sorted(e.items())))
        return sorted(out)

    def test_helper_reads_give_the_same_events(self):
        """Kernels before 6.2 lack bpf_rdonly_cast: the programs then read
        through helper calls. Both ways, side by side on this kernel, must
        report the same events: paths, ancestry, credentials, cgroup."""
        compat = {"AGENT_SENTINEL_COMPAT_READS": "1"}
        with Sentinel("--trace", "-v") as typed, Sentinel("--trace", "-v", env=compat) as helper:
            pids = [workload("open", self.dir + "/abs.txt")[0],
                    workload("openat-cwd", "rel.txt", cwd=self.sub)[0],
                    workload("chdir-openat", self.sub, "../x/../up.txt")[0],
                    workload("open", self.dir + "/missing/x")[0],
                    workload("creat", self.dir + "//c.txt")[0]]
            subprocess.run(["sh", "-c", "cat %s/abs.txt > /dev/null" % self.dir])
        self.assertIn("through typed pointers", typed.stderr)
        self.assertIn("through helper calls", helper.stderr)
        # the kfunc calls are written in by the loader (user/kfuncpatch.c)
        self.assertRegex(typed.stderr, r"[1-9][0-9]* kfunc calls made")
        self.assertRegex(helper.stderr, r"[1-9][0-9]* kfunc calls left out")

        a, b = self.comparable(typed.events(), pids), self.comparable(helper.events(), pids)
        self.assertGreater(len(a), 5)
        self.assertEqual(a, b)

    def test_trimmed_btf_and_two_threads_give_the_same_events(self):
        """Start-up relocates against a trimmed copy of the kernel's BTF and
        verifies the programs on two threads (user/corebtf.c, parload.c).
        Side by side with libbpf's own way (whole BTF, one thread), the
        same acts must give the same events, for every program: exec, fork,
        exit, open, the generic exits, connect, setuid."""
        libbpf = {"AGENT_SENTINEL_FULL_BTF": "1", "AGENT_SENTINEL_SERIAL_LOAD": "1"}
        with Sentinel("--trace", "-v") as fast, Sentinel("--trace", "-v", env=libbpf) as plain:
            pids = [workload("open", self.dir + "/abs.txt")[0],
                    workload("openat-cwd", "rel.txt", cwd=self.sub)[0],
                    workload("open", self.dir + "/missing/x")[0]]
            for cmd in ("mkdir %s/d && mv %s/d %s/e && rmdir %s/e" % ((self.dir,) * 4),
                        "cat %s/abs.txt > /dev/null" % self.dir):
                subprocess.run(["sh", "-c", cmd], check=True)
        self.assertIn("programs verified on two threads", fast.stderr)
        self.assertNotIn("programs verified on two threads", plain.stderr)
        if os.listdir("/sys/kernel/btf") == ["vmlinux"]:
            # with module BTF, a root found only in a module (ovl_inode when
            # overlayfs is one) leaves libbpf's search to libbpf: no copy
            self.assertNotIn("no trimmed copy", fast.stderr)
        self.assertNotIn("trimmed kernel BTF failed", fast.stderr)
        # the fork program's attach id from the loader's index (user/tpbtf.c);
        # the plain way takes it from libbpf's parse of the whole BTF
        self.assertIn("2 tp_btf attach ids from the loader's index", fast.stderr)  # fork, task_rename
        self.assertNotIn("tp_btf attach ids from the loader's index", plain.stderr)

        a, b = self.comparable(fast.events(), pids), self.comparable(plain.events(), pids)
        self.assertGreater(len(a), 8)
        self.assertEqual(a, b)

    def test_verifier_statistics(self):
        """AGENT_SENTINEL_VERIFIER_STATS=1: one thread, and the verifier's own
        figures for every program loaded (what start-up spends), while the
        monitor works as ever: an open is still an event."""
        stats = {"AGENT_SENTINEL_VERIFIER_STATS": "1"}
        with Sentinel("--trace", "-v", env=stats) as s:
            pid = workload("open", self.dir + "/abs.txt")[0]
        self.assertNotIn("programs verified on two threads", s.stderr)
        rows = dict(re.findall(r"verifier: (\S+) +[\d.]+ ms +(\d+) instructions", s.stderr))
        for prog in ("tp_sched_process_exec", "rtp_sched_process_fork", "tp_sys_exit_openat",
                     "tp_sys_exit_connect", "tp_sys_exit_setuid", "tp_sys_exit_generic"):
            self.assertIn(prog, rows, s.stderr)
            self.assertGreater(int(rows[prog]), 0)
        total = re.search(r"verifier: all programs +[\d.]+ ms +(\d+) instructions", s.stderr)
        self.assertIsNotNone(total, s.stderr)
        self.assertEqual(int(total.group(1)),
                         sum(int(v) for k, v in rows.items() if k != "all"))
        self.assertTrue(any(e.get("proc.pid") == pid and e.get("fd.name") == self.dir + "/abs.txt"
                            for e in s.events()))

    def test_hostile_names(self):
        # an invalid UTF-8 byte, a newline, a control byte, a quote
        raw = self.dir.encode() + b"/bad\xff\nname\x01\"q"
        with Sentinel("--trace") as s:
            pid, res = workload("open", raw)
        self.assertTrue(int(res[0]) >= 0)
        # s.events() parsed every line as JSON; the name is escaped, not cut:
        # the invalid byte comes back as \u00ff, everything else as it was
        e = self.one(s.events(), pid, evt__type="open")
        self.assertEqual(e["fd.name"], self.dir + "/bad\u00ff\nname\x01\"q")
        line = [l for l in s.lines if b"bad" in l and b'"evt.type":"open"' in l][0]
        self.assertIn(b"bad\\u00ff\\nname\\u0001\\\"q", line)

    def test_bubblewrap_sees_sandbox_path(self):
        work = os.path.join(self.dir, "work")
        os.mkdir(work)
        shutil.copy(harness.AS_WORKLOAD, os.path.join(work, "as-workload"))
        with Sentinel("--trace") as s:
            subprocess.run(["bwrap", "--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib",
                            "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/bin", "/bin",
                            "--bind", work, "/workspace", "--chdir", "/workspace",
                            "--proc", "/proc", "--dev", "/dev", "--unshare-pid",
                            "/workspace/as-workload", "openat-cwd", "made-inside.txt"],
                           check=True, stdout=subprocess.DEVNULL)
        got = [e for e in s.events() if e.get("fd.name", "").endswith("made-inside.txt")]
        self.assertEqual(len(got), 1, got)
        self.assertEqual(got[0]["fd.name"], "/workspace/made-inside.txt")
        self.assertTrue(os.path.exists(os.path.join(work, "made-inside.txt")))

    def test_paths_relative_to_the_root(self):
        """A relative path from the root (cwd /, or a dirfd on /) is
        absolute in every field: the kernel's walk of / has no name, and a
        change under /etc read "etc/x" (no rule's startswith /etc saw it)."""
        rel = self.dir[1:]
        with Sentinel("--trace") as s:
            sh = subprocess.run(["/bin/sh", "-c", "cd / && mkdir {0}/m && chmod 700 {0}/m && "
                                 "mv {0}/m {0}/n && rmdir {0}/n && cat {0}/none; true".format(rel)],
                                stderr=subprocess.DEVNULL)
            py = subprocess.Popen(["python3", "-c", "import os; d = os.open('/', os.O_PATH); "
                                   "os.mkdir('%s/p', dir_fd=d); os.rmdir('%s/p', dir_fd=d)"
                                   % (rel, rel)])
            py.wait()
        self.assertEqual(sh.returncode, 0)
        self.assertEqual(py.returncode, 0)
        ev = s.events()
        got = {(e["evt.type"], e.get("fs.path.name"), e.get("fs.path.source"),
                e.get("fs.path.target"), e.get("fd.name"))
               for e in ev if any(rel in str(e.get(k)) for k in PATH_FIELDS)}
        d = self.dir
        self.assertLessEqual({("mkdir", d + "/m", None, None, None),
                              ("fchmodat", d + "/m", None, None, None),
                              ("renameat2", None, d + "/m", d + "/n", None),
                              ("rmdir", d + "/n", None, None, None),
                              ("openat", None, None, None, d + "/none"),
                              ("mkdirat", d + "/p", None, None, None),
                              ("unlinkat", d + "/p", None, None, None)}, got)
        self.assertEqual([g for g in got if any(x and not x.startswith("/") for x in g[1:])], [])

    def test_pipes_are_no_files(self):
        """/dev/stdout onto a pipe (a shell's > /dev/stderr, tee /dev/stderr,
        >(...)) opens the pipe: it has no path, only the kernel's name
        pipe:[INODE] (as /proc/PID/fd shows it), fd.typechar p. A named FIFO
        keeps its path, typechar p too. Neither is a file the rules' writes
        outside the workspace mean: an agent's shell writing to its piped
        stderr raised two of them (file=/) before. touch /dev/stderr changes
        the pipe's times through its descriptor (futimens): no path either
        (it read "." before, and alerted)."""
        fifo = os.path.join(self.dir, "fifo")
        os.mkfifo(fifo)
        r, w = os.pipe()
        ino = os.fstat(r).st_ino
        claude = os.path.join(self.dir, "claude")
        shutil.copy("/bin/sh", claude)
        outside = os.path.realpath(tempfile.mkdtemp(prefix="as-pipes-", dir="/var/lib"))
        try:
            with Sentinel("--trace") as s:
                p = subprocess.Popen(["/bin/sh", "-c", "echo x > /dev/stdout"], stdout=w)
                p.wait()
                reader = subprocess.Popen(["cat", fifo], stdout=subprocess.DEVNULL)
                q = subprocess.Popen(["/bin/sh", "-c", "echo y > " + fifo])
                q.wait()
                reader.wait()
            ev = s.events()
            e = self.one(ev, p.pid, evt__type="openat", fd__typechar="p")
            self.assertEqual(e["fd.name"], "pipe:[%d]" % ino)
            self.assertEqual(e["fd.typechar"], "p")
            self.assertEqual(e["fd.type"], "pipe")
            self.assertEqual(int(e["evt.arg.ino"]), ino)
            self.assertNotIn("fd.directory", e)  # no path, no directory
            e = self.one(ev, q.pid, evt__type="openat", fd__name=fifo)
            self.assertEqual(e["fd.typechar"], "p")
            with Sentinel("--rules", os.path.join(harness.AS_SOURCE_DIR, "rules/agent.yaml"),
                          "-o", "rule_matching=all") as s:
                a = subprocess.Popen([claude, "-c", "sh -c 'echo x > /dev/stderr; "
                                      "echo y | tee /dev/stderr >/dev/null; "
                                      "touch /dev/stderr; chmod 600 /dev/stderr'; true"],
                                     stderr=w)
                a.wait()
                b = subprocess.Popen([claude, "-c", "echo z > %s/f; true" % outside])
                b.wait()
            os.close(w)
            w = -1
            self.assertEqual(os.read(r, 100), b"x\nx\ny\n")
            writes = [e["output"] for e in s.events()
                      if e["rule"] != "Agent Process Spawned Outside Sandbox"]
            # the control: the same kind of shell writing to a file outside alerts
            self.assertTrue(any(outside + "/f" in o for o in writes), writes)
            self.assertEqual([o for o in writes if outside + "/f" not in o], [])
        finally:
            if w >= 0:
                os.close(w)
            os.close(r)
            shutil.rmtree(outside, ignore_errors=True)


if __name__ == "__main__":
    harness.main()
