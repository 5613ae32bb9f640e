#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""Process churn keeps the process table at the live set; failed execs are
reported; --record then --replay gives the same events; a kernel without some
tracepoints runs with those sources off; stdout stays JSON only."""
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest

import harness
from harness import AS_BIN, AS_WORKLOAD, Sentinel, find, workload


def summary(stderr):
    m = re.search(r"events=(\d+) drops=(\d+) bad_records=(\d+) untracked_procs=(\d+) procs=(\d+)",
                  stderr)
    assert m, stderr
    return dict(zip(("events", "drops", "bad", "untracked", "procs"), map(int, m.groups())))


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def live_processes():
    return sum(1 for d in os.listdir("/proc") if d.isdigit())


class Lifecycle(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="as-life-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_churn_keeps_table_bounded(self):
        # a ring that holds the storm even when the consumer runs under the
        # sanitizers: what this test checks is the table, not the ring
        with Sentinel("--trace", "--ringbuf-size", "64M") as s:
            before = live_processes()
            pid, res = workload("forkstorm", 10000)
        self.assertEqual(res, ["10000"])
        ev = s.events()  # once: the whole host's events of the storm
        forks = find(ev, {"proc.pid": pid, "evt.type": "clone"})
        exits = [e for e in ev if e.get("evt.type") == "procexit" and e["proc.ppid"] == pid]
        self.assertEqual(len(forks), 10000)
        self.assertEqual(len(exits), 10000)
        st = summary(s.stderr)
        self.assertEqual(st["drops"], 0)
        # the table holds the live set (plus what lived and died meanwhile on
        # this host), not 10,000 dead children
        self.assertLess(st["procs"], before + 200, st)

    def test_failed_exec(self):
        with Sentinel("--trace") as s:
            pid, res = workload("execfail", "/nonexistent/tool", "--flag", "x y")
        self.assertEqual(res, ["-2"])
        e = find(s.events(), {"proc.pid": pid, "evt.type": "execve", "evt.res": "ENOENT"})
        self.assertEqual(len(e), 1)
        self.assertEqual(e[0]["evt.arg.filename"], "/nonexistent/tool")
        # what it tried to run; the process itself is still the workload
        self.assertEqual(e[0]["evt.arg.exe"], "/nonexistent/tool")
        self.assertEqual(e[0]["evt.arg.args"], "--flag x y")
        self.assertEqual(e[0]["proc.name"], "as-workload")
        self.assertEqual(e[0]["proc.exepath"], os.path.realpath(AS_WORKLOAD))
        self.assertEqual(e[0]["proc.cmdline"], "as-workload execfail /nonexistent/tool --flag x y")

    def test_records_carry_no_stale_kernel_bytes(self):
        # an exec's environment passes through the kernel side's scratch
        # buffer (the session scan); none of it may ride along in a later
        # record's unused header bytes, into the stream or a recording
        marker = "as-secret-%d" % os.getpid()
        rec = os.path.join(self.dir, "stale.asrec")
        # long enough to reach past the header's first bytes in the buffer
        env = dict(os.environ, AS_TOKEN=marker * 80)
        with Sentinel("--trace", "--record", rec) as s:
            for _ in range(20):
                subprocess.run([AS_WORKLOAD, "open", "/etc/hostname"], env=env,
                               stdout=subprocess.DEVNULL, check=True)
        self.assertTrue(find(s.events(), {"evt.type": "execve", "proc.name": "as-workload"}))
        with open(rec, "rb") as f:
            self.assertNotIn(marker.encode(), f.read())

    def test_execveat(self):
        # the exit program tells execveat from execve by the syscall number,
        # and the exec event by the number still in the saved registers
        with Sentinel("--trace") as s:
            pf, rf = workload("execveat", "/tmp/as-no-such-tool", "a")
            po = subprocess.Popen([AS_WORKLOAD, "execveat", "/bin/true", "b"])
            self.assertEqual(po.wait(), 0)
        self.assertEqual(rf, ["-2"])
        ev = s.events()
        e = find(ev, {"proc.pid": pf, "evt.type": "execveat", "evt.res": "ENOENT"})
        self.assertEqual(len(e), 1, e)
        self.assertEqual(e[0]["evt.arg.filename"], "as-no-such-tool")  # relative to the dirfd
        self.assertEqual((e[0]["evt.arg.exe"], e[0]["evt.arg.args"]), ("/tmp/as-no-such-tool", "a"))
        ok = find(ev, {"proc.pid": po.pid, "evt.type": "execveat", "proc.name": "true"})
        self.assertEqual(len(ok), 1, [x for x in ev if x.get("proc.pid") == po.pid])
        # the one execve of that pid is the workload's own start
        self.assertEqual([e["proc.name"] for e in find(ev, {"proc.pid": po.pid,
                                                           "evt.type": "execve"})],
                         ["as-workload"])

    def test_record_then_replay(self):
        rec = os.path.join(self.dir, "events.asrec")
        with Sentinel("--trace", "--record", rec) as s:
            workload("open", os.path.join(self.dir, "f"))
            workload("connect4", "127.0.0.1", 9)
            subprocess.run(["sh", "-c", "true"])
        live = s.lines
        self.assertGreater(len(live), 5)
        r = subprocess.run([AS_BIN, "--trace", "--replay", rec], capture_output=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        replayed = r.stdout.split(b"\n")[:-1]
        self.assertEqual(replayed, live)
        for line in replayed:
            json.loads(line)

    def test_bad_recordings(self):
        rec = os.path.join(self.dir, "events.asrec")
        with Sentinel("--trace", "--record", rec):
            workload("open", os.path.join(self.dir, "f"))
        data = read_bytes(rec)
        cases = {
            # 9 bytes: more than the last record's padding (at most 7), so
            # the record itself is cut whatever its length
            "truncated": (data[:len(data) - 9], "truncated record at offset"),
            "bad magic": (b"NOTASREC" + data[8:], "not an agent-sentinel recording"),
            "oversized": (data[:32] + (1 << 20).to_bytes(4, "little") + data[36:],
                          "record of 1048576 bytes at offset 32"),
            "empty": (b"", "not an agent-sentinel recording"),
        }
        for name, (blob, msg) in cases.items():
            path = os.path.join(self.dir, name.replace(" ", "_"))
            with open(path, "wb") as f:
                f.write(blob)
            r = subprocess.run([AS_BIN, "--trace", "--replay", path], capture_output=True,
                               text=True)
            self.assertEqual(r.returncode, 1, name)
            self.assertIn(msg, r.stderr, name)
            self.assertIn(path, r.stderr, name)
            for line in r.stdout.splitlines():
                json.loads(line)  # whatever came before the damage is still JSON

    def test_corrupt_record_is_dropped_not_fatal(self):
        rec = os.path.join(self.dir, "events.asrec")
        with Sentinel("--trace", "--record", rec):
            workload("open", os.path.join(self.dir, "f"))
        data = bytearray(read_bytes(rec))
        data[32 + 4] = 0xee  # first record's type: unknown
        path = os.path.join(self.dir, "corrupt")
        with open(path, "wb") as f:
            f.write(data)
        r = subprocess.run([AS_BIN, "--trace", "--replay", path], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("dropped a malformed record: unknown record type 238", r.stderr)
        self.assertEqual(summary(r.stderr)["bad"], 1)

    def test_missing_tracepoints_switch_sources_off(self):
        # a tracefs view without openat2 and connect, as on an older kernel
        fake = os.path.join(self.dir, "tracefs")
        for tp in os.listdir("/sys/kernel/tracing/events/syscalls"):
            if "openat2" in tp or "connect" in tp:
                continue
            os.makedirs(os.path.join(fake, "events/syscalls", tp))
        for cat in ("sched", "task", "io_uring", "raw_syscalls", "sock"):
            for tp in os.listdir(os.path.join("/sys/kernel/tracing/events", cat)):
                os.makedirs(os.path.join(fake, "events", cat, tp))
        # what this kernel lacks already (no module support, say) stays off too
        r = subprocess.run([AS_BIN, "--trace", "-v", "-M", "0.1"], capture_output=True, text=True)
        lacking = r.stderr.count("not in this kernel: switched off")
        with Sentinel("--trace", "-v", env={"AGENT_SENTINEL_TRACEFS": fake}) as s:
            p1, _ = workload("openat2-dirfd", self.dir, "x")
            p2, _ = workload("openat-dirfd", self.dir, "y")
            p3, _ = workload("connect4", "127.0.0.1", 9)
        ev = s.events()
        self.assertEqual(find(ev, {"proc.pid": p1, "evt.type": "openat2"}), [])
        self.assertEqual(find(ev, {"proc.pid": p3, "evt.type": "connect"}), [])
        self.assertEqual(len(find(ev, {"proc.pid": p2, "evt.type": "openat"},
                                  fd__name=os.path.join(self.dir, "y"))), 1)
        self.assertIn("tracepoint syscalls/sys_exit_openat2 not in this kernel: switched off",
                      s.stderr)
        self.assertIn("%d switched off (tracepoint missing)" % (lacking + 2), s.stderr)

    def test_without_raw_syscalls_the_32bit_abi_is_off(self):
        # a tracefs view without raw_syscalls: the 32-bit ABI's program
        # cannot attach, and only it is switched off, said at -v
        fake = os.path.join(self.dir, "tracefs")
        for cat in ("syscalls", "sched", "io_uring", "sock"):
            for tp in os.listdir(os.path.join("/sys/kernel/tracing/events", cat)):
                os.makedirs(os.path.join(fake, "events", cat, tp))
        with Sentinel("--trace", "-v", env={"AGENT_SENTINEL_TRACEFS": fake}) as s:
            p, _ = workload("openat-dirfd", self.dir, "y")
        self.assertIn("tracepoint raw_syscalls/sys_exit not in this kernel: switched off",
                      s.stderr)
        self.assertIn("syscalls through the 32-bit ABI and ioctl's terminal input: not traced "
                      "(no raw_syscalls/sys_exit)", s.stderr)
        self.assertNotIn("raw_tp/sys_exit", s.stderr)
        self.assertEqual(len(find(s.events(), {"proc.pid": p, "evt.type": "openat"},
                                  fd__name=os.path.join(self.dir, "y"))), 1)

    def test_unprivileged(self):
        r = subprocess.run(["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups",
                            AS_BIN, "--trace", "-M", "1"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout, "")
        self.assertEqual(r.stderr, "agent-sentinel: error: not privileged enough to load BPF "
                         "programs: run as root, or with CAP_BPF, CAP_PERFMON and "
                         "CAP_SYS_RESOURCE\n")

    def test_bad_options(self):
        for args, msg in ((["--ringbuf-size", "1000"], "--ringbuf-size 1000: expected a power of two"),
                          (["--bogus"], "unknown option --bogus"),
                          (["extra"], "unexpected argument 'extra'"),
                          # after --trace the words are its filter
                          (["--trace", "extra"],
                           "--trace:1:1: error: rule '--trace': Undefined macro 'extra'"),
                          (["-p", "%proc.name"], "-p FORMAT prints traced events: it needs --trace"),
                          ([], "nothing to do"),
                          (["--record", "/nonexistent/dir/f", "--trace", "-M", "0.1"],
                           "cannot create record file /nonexistent/dir/f")):
            r = subprocess.run([AS_BIN] + args, capture_output=True, text=True)
            self.assertNotEqual(r.returncode, 0, args)
            self.assertEqual(r.stdout, "", args)
            self.assertIn(msg, r.stderr, args)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)


if __name__ == "__main__":
    harness.main()
