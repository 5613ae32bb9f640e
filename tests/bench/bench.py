#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""agent-sentinel benchmark (issue 4). Run as root from the checkout:

    python3 tests/bench/bench.py --build-dir build

Prints a table and writes JSON (--json, default tests/bench/results.json).
It measures and reports ratios against the targets; it never fails on a
number. --smoke runs every part with tiny counts (CTest's bench_smoke) and
only checks that everything runs end to end. See tests/bench/README.md.
"""
import argparse
import calendar
import glob
import json
import os
import platform
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
AGENT_NAMES = ("claude", "node", "agent-bwrap", "mcp-launch")
ALERT_RULE = b'"rule":"Agent Wrote to Unexpected Path"'
SUMMARY_RE = re.compile(r"events=(\d+) drops=(\d+) bad_records=(\d+)")
CLK_TCK = os.sysconf("SC_CLK_TCK")
SETTLE_S = 1.0  # pause after a tracer exits (--settle)
CONFIGS = ("none", "floor", "sentinel", "bpftrace")

# Targets of issue 4, as printed.
TARGET_W1_VS_FLOOR = 1.5
TARGET_W2_VS_BPFTRACE = 0.1
TARGET_REPLAY_EPS = 2_000_000
TARGET_RSS_MB = 16.0
TARGET_READY_MS = 150.0
TARGET_P99_MS = 20.0


def log(msg):
    print("bench: " + msg, file=sys.stderr, flush=True)


# ---- small helpers ------------------------------------------------------

def median(v):
    return statistics.median(v) if v else None


def pct(v, p):
    """Percentile p (0..100) by linear interpolation; None when empty."""
    if not v:
        return None
    s = sorted(v)
    k = (len(s) - 1) * p / 100.0
    lo = int(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def spread(v):
    """median, p25, p75, min, max of a list of numbers."""
    if not v:
        return None
    return {"median": median(v), "p25": pct(v, 25), "p75": pct(v, 75),
            "min": min(v), "max": max(v), "n": len(v)}


def proc_cpu_s(pid):
    """utime + stime of pid in seconds, or None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK
    except (OSError, IndexError, ValueError):
        return None


def proc_mem_kb(pid):
    """VmRSS, VmHWM, RssAnon, RssFile, RssShmem of pid in kB."""
    out = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                k, _, v = line.partition(":")
                if k in ("VmRSS", "VmHWM", "RssAnon", "RssFile", "RssShmem"):
                    out[k] = int(v.split()[0])
    except OSError:
        pass
    return out


IDLE_WAKE_S = 3.0  # how long an idle agent-sentinel's wakeups are counted


def idle_wakeups_per_s(pid):
    """Wakeups a second of pid's main thread (its voluntary context switches)
    over IDLE_WAKE_S with nothing asked of it: the ring polled while idle."""
    def count():
        with open(f"/proc/{pid}/task/{pid}/status") as f:
            for line in f:
                if line.startswith("voluntary_ctxt_switches:"):
                    return int(line.split()[1])
        return 0
    a = count()
    time.sleep(IDLE_WAKE_S)
    return (count() - a) / IDLE_WAKE_S


def parse_iso_ns(s):
    """'2026-11-29T16:25:12.241061501Z' -> ns since the epoch."""
    base, _, frac = s.rstrip("Z").partition(".")
    secs = calendar.timegm(time.strptime(base, "%Y-%m-%dT%H:%M:%S"))
    return secs * 1_000_000_000 + int((frac + "000000000")[:9])


class PipeReader(threading.Thread):
    """Reads a tracer's stdout as a SIEM would: counts lines and lines that
    contain `needle`, notes when the last such line was read, and (when
    keep) keeps (read time, line) of each matching line for latency."""

    def __init__(self, fd, needle=None, keep=False):
        super().__init__(daemon=True)
        self.fd, self.needle, self.keep = fd, needle, keep
        self.lines = 0
        self.matches = 0
        self.last_match_ns = 0
        self.kept = []
        self.ready = threading.Event()
        self.ready_marker = None

    def run(self):
        tail = b""
        while True:
            try:
                chunk = os.read(self.fd, 1 << 20)
            except OSError:
                break
            if not chunk:
                break
            now = time.time_ns()
            data = tail + chunk
            parts = data.split(b"\n")
            tail = parts.pop()
            self.lines += len(parts)
            if self.ready_marker is not None and not self.ready.is_set():
                if any(self.ready_marker in p for p in parts):
                    self.ready.set()
            if self.needle is not None:
                n = 0
                n1, n2 = self.needle  # no generator per line: 135,000 lines/s
                for p in parts:
                    if n1 in p and n2 in p:
                        n += 1
                        if self.keep:
                            self.kept.append((now, p))
                if n:
                    self.matches += n
                    self.last_match_ns = now
        os.close(self.fd)


# ---- the environment the workloads run in -------------------------------

class Env:
    def __init__(self, args):
        self.args = args
        self.src = os.path.abspath(args.source_dir)
        self.build = os.path.abspath(args.build_dir)
        self.sentinel = os.path.join(self.build, "agent-sentinel")
        self.loop = os.path.join(self.build, "tests", "bench", "as-bench-loop")
        self.floor = os.path.join(self.build, "tests", "bench", "as-floor")
        self.floor_tps = []  # agent-sentinel's tracepoints (check_floor fills it)
        self.rules = os.path.join(self.src, "rules", "agent.yaml")
        self.work = tempfile.mkdtemp(prefix="as-bench-", dir="/tmp")
        # an agent tree: the loop's parent is a bash copied as `claude`
        # (aname[1] = claude); outside: its parent is sh, grandparent us
        self.claude = os.path.join(self.work, "claude")
        shutil.copy2("/bin/bash", self.claude)
        self.outside = os.path.join(self.work, "sh")
        shutil.copy2("/bin/sh", self.outside)
        self.read_file = os.path.join(self.work, "read.txt")
        with open(self.read_file, "w") as f:
            f.write("x\n")
        self.tmp_write = os.path.join(self.work, "written.txt")  # under /tmp: no alert
        # where the seed rule alerts: outside /workspace, /tmp, /var/tmp, /proc
        self.alert_dir = tempfile.mkdtemp(prefix="as-bench-", dir="/var/lib")
        self.alert_file = os.path.join(self.alert_dir, "alert.txt")

    def cleanup(self):
        shutil.rmtree(self.work, ignore_errors=True)
        shutil.rmtree(self.alert_dir, ignore_errors=True)

    def loop_cmd(self, mode, n, *extra, inside):
        """argv running the loop as a child of `claude` (inside) or of sh."""
        inner = " ".join([self.loop, mode, str(n)] + [str(e) for e in extra])
        shell = self.claude if inside else self.outside
        return [shell, "-c", inner + "; exit $?"]  # not the last command: forked, not exec'd

    def run_loop(self, mode, n, *extra, inside):
        p = subprocess.run(self.loop_cmd(mode, n, *extra, inside=inside),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            res = json.loads(p.stdout.strip().splitlines()[-1])
        except (IndexError, ValueError):
            raise RuntimeError(f"workload {mode} failed: {p.stderr.strip()}")
        if p.returncode or res.get("errors"):
            raise RuntimeError(f"workload {mode} had {res.get('errors')} failed iterations "
                               f"(exit {p.returncode}): {p.stderr.strip()}")
        return res


# ---- tracers --------------------------------------------------------------

def bpftrace_script():
    """The seed's bpftrace style: the same comm/ancestor test agent_ancestor
    makes (aname[0..2]), a printf per open and per exec of an agent tree."""
    def anc(expr):
        return " || ".join(f'{expr} == "{n}"' for n in AGENT_NAMES)
    test = " ||\n  ".join([anc("comm"), anc("curtask->real_parent->comm"),
                           anc("curtask->real_parent->real_parent->comm")])
    return f"""BEGIN {{ printf("BENCH-READY\\n"); }}
tracepoint:syscalls:sys_enter_openat
/ {test} /
{{ @fn[tid] = args->filename; @fl[tid] = args->flags; }}
tracepoint:syscalls:sys_exit_openat /@fn[tid]/
{{ printf("%llu openat pid=%d comm=%s parent=%s file=%s flags=%d res=%d\\n", nsecs, pid, comm,
          curtask->real_parent->comm, str(@fn[tid]), @fl[tid], args->ret);
   delete(@fn[tid]); delete(@fl[tid]); }}
tracepoint:syscalls:sys_enter_rename, tracepoint:syscalls:sys_enter_unlink
/ {test} /
{{ printf("%llu %s pid=%d comm=%s parent=%s\\n", nsecs, probe, pid, comm,
          curtask->real_parent->comm); }}
tracepoint:syscalls:sys_enter_sendto
/ ({test}) && args->addr != 0 /
{{ printf("%llu sendto pid=%d comm=%s parent=%s fd=%d\\n", nsecs, pid, comm,
          curtask->real_parent->comm, args->fd); }}
tracepoint:sched:sched_process_exec
/ {test} /
{{ printf("%llu exec pid=%d comm=%s parent=%s file=%s\\n", nsecs, pid, comm,
          curtask->real_parent->comm, str(args->filename)); }}
"""


class Tracer:
    """One of CONFIGS running until stop(); its stdout read by a PipeReader."""

    def __init__(self, env, kind, extra=(), needle=None, keep=False, ready_timeout=60):
        self.env, self.kind = env, kind
        self.proc = None
        self.reader = None
        self.ready_ms = None
        self.summary = None
        self.stderr = ""
        self.cpu0 = None
        self.stop_ms = None
        if kind == "none":
            return
        self.errf = tempfile.TemporaryFile()
        rfd, wfd = os.pipe()
        t0 = time.monotonic()
        if kind == "sentinel":
            sock_path = os.path.join(env.work, "notify")
            if os.path.exists(sock_path):
                os.unlink(sock_path)
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            sock.bind(sock_path)
            sock.settimeout(ready_timeout)
            cmd = [env.sentinel, "--rules", env.rules] + list(extra)
            t0 = time.monotonic()
            self.proc = subprocess.Popen(cmd, stdout=wfd, stderr=self.errf,
                                         env=dict(os.environ, NOTIFY_SOCKET=sock_path))
            os.close(wfd)
            self.reader = PipeReader(rfd, needle, keep)
            self.reader.start()
            try:
                while b"READY=1" not in sock.recv(4096):
                    pass
                self.ready_ms = (time.monotonic() - t0) * 1e3
            except socket.timeout:
                pass
            finally:
                sock.close()
        else:
            if kind == "floor":
                cmd, marker = [env.floor] + env.floor_tps, b"READY"
            elif kind == "bpftrace":
                cmd, marker = ["bpftrace", "-e", bpftrace_script()], b"BENCH-READY"
            elif kind == "record":
                cmd, marker = list(extra), None
            else:
                raise ValueError(kind)
            self.proc = subprocess.Popen(cmd, stdout=wfd, stderr=self.errf)
            os.close(wfd)
            self.reader = PipeReader(rfd, needle, keep)
            self.reader.ready_marker = marker
            self.reader.start()
            if self.reader.ready.wait(ready_timeout):
                self.ready_ms = (time.monotonic() - t0) * 1e3
        if self.ready_ms is None:
            self.stop()
            raise RuntimeError(f"{kind} never became ready: {self.stderr.strip()[-2000:]}")
        self.cpu0 = proc_cpu_s(self.proc.pid)

    @property
    def pid(self):
        return self.proc.pid if self.proc else None

    def cpu_s(self):
        return proc_cpu_s(self.pid) if self.proc else None

    def mem(self):
        return proc_mem_kb(self.pid) if self.proc else {}

    def stop(self):
        """SIGTERM, wait, read the summary; returns CPU seconds used since ready."""
        if not self.proc:
            return None
        cpu = self.cpu_s()
        if self.proc.poll() is None:
            time.sleep(0.05)
            t0 = time.monotonic()
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.stop_ms = (time.monotonic() - t0) * 1e3
        # the kernel finishes detaching after the process is gone; starting
        # the next tracer meanwhile would time that, not the tracer
        time.sleep(SETTLE_S)
        if self.reader:
            self.reader.join(timeout=30)
        self.errf.seek(0)
        self.stderr = self.errf.read().decode(errors="replace")
        self.errf.close()
        m = SUMMARY_RE.search(self.stderr)
        if m:
            self.summary = {"events": int(m.group(1)), "drops": int(m.group(2)),
                            "bad_records": int(m.group(3))}
        return None if cpu is None or self.cpu0 is None else cpu - self.cpu0


# ---- the parts of the benchmark -----------------------------------------

def ensure_bpftrace(args):
    if shutil.which("bpftrace"):
        return True
    if args.no_install:
        log("bpftrace missing and --no-install: its column is skipped")
        return False
    log("bpftrace missing: apt-get install -y bpftrace")
    r = subprocess.run(["apt-get", "install", "-y", "bpftrace"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True,
                       env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
    if r.returncode or not shutil.which("bpftrace"):
        log("cannot install bpftrace: its column is skipped: " + r.stderr.strip()[-300:])
        return False
    return True


WORKLOADS = (  # name, mode, inside, iterations option
    ("w1_open_outside", "open", False, "open_iters"),
    ("w2_write_tmp_inside", "write", True, "open_iters"),
    ("w4_exec_inside", "exec", True, "exec_iters"),
    ("w5_churn_outside", "churn", False, "open_iters"),
    ("w6_churn_inside", "churn", True, "open_iters"),
    ("w7_sendto_outside", "sendto", False, "open_iters"),
    ("w8_sendto_inside", "sendto", True, "open_iters"),
    ("w9_read_inside", "open", True, "open_iters"),
)


def workload_args(env, mode):
    """The path argument of a loop mode, if it takes one."""
    return {"open": (env.read_file,), "write": (env.tmp_write,), "churn": (env.work,),
            "paced": (env.tmp_write,)}.get(mode, ())


def check_floor(env):
    """The floor must attach the tracepoints agent-sentinel attaches, no more
    and no fewer, or the w1 ratio compares against the wrong thing."""
    r = subprocess.run([env.sentinel, "--rules", env.rules, "-v", "-M", "0.1"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    m = re.search(r"(\d+) tracepoints attached", r.stderr)
    tps = re.search(r"attached:((?: \S+)*)", r.stderr)
    env.floor_tps = tps.group(1).split() if tps else []
    f = subprocess.Popen([env.floor] + env.floor_tps, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    try:
        line = f.stdout.readline().split()
    finally:
        f.terminate()
        f.wait()
    ours = int(m.group(1)) if m else None
    floor = int(line[1]) if len(line) > 1 and line[0] == "READY" else None
    if ours is None or floor is None or ours != floor:
        raise RuntimeError(f"the floor attaches {floor} tracepoints, agent-sentinel {ours}: "
                           "as-floor must attach agent-sentinel's -v list of tracepoints")
    log(f"floor and agent-sentinel both attach {ours} tracepoints")
    return ours


def part_alternating(env, args, configs):
    """Workloads 1, 2, 4 under each configuration, alternated round by round."""
    per = {c: {w[0]: [] for w in WORKLOADS} for c in configs}
    tracer_cpu = {c: {w[0]: [] for w in WORKLOADS} for c in configs}
    ready = {c: [] for c in configs}
    stop_ms = {c: [] for c in configs}
    mem = {c: [] for c in configs}
    summaries = []
    for r in range(args.rounds):
        order = configs[r % len(configs):] + configs[:r % len(configs)]
        for c in order:
            t = Tracer(env, c)
            try:
                if t.ready_ms is not None:
                    ready[c].append(t.ready_ms)
                for name, mode, inside, iters in WORKLOADS:
                    extra = workload_args(env, mode)
                    c0 = t.cpu_s()
                    res = env.run_loop(mode, getattr(args, iters), *extra, inside=inside)
                    c1 = t.cpu_s()
                    per[c][name].append(res["ns_per_iter"])
                    if c0 is not None and c1 is not None:
                        tracer_cpu[c][name].append((c1 - c0) * 1e9 / res["iters"])
                    if t.proc:
                        mem[c].append(t.mem())
            finally:
                t.stop()
            if t.stop_ms is not None:
                stop_ms[c].append(t.stop_ms)
            if c == "sentinel" and t.summary:
                summaries.append(t.summary)
        log(f"round {r + 1}/{args.rounds}: " + "  ".join(
            f"{c}:" + "/".join(f"{per[c][w[0]][-1] / 1e3:.2f}" for w in WORKLOADS)
            for c in configs) + " us (" + "/".join(w[0].split("_")[0] for w in WORKLOADS) + ")")
    out = {"configs": {}, "sentinel_summaries": summaries}
    for c in configs:
        d = {"ready_ms": spread(ready[c]), "stop_ms": spread(stop_ms[c]), "workloads": {}}
        for name, _, _, _ in WORKLOADS:
            vals = per[c][name]
            w = {"ns_per_iter": spread(vals), "tracer_cpu_ns_per_iter": spread(tracer_cpu[c][name])}
            if c != "none":
                # overhead per round, paired with the same round's no-probe run
                paired = [a - b for a, b in zip(vals, per["none"][name])]
                w["overhead_ns_paired"] = spread(paired)
                w["overhead_ns"] = median(vals) - median(per["none"][name])
            d["workloads"][name] = w
        if mem[c]:
            d["rss_kb_max"] = max(m.get("VmRSS", 0) for m in mem[c])
            d["hwm_kb_max"] = max(m.get("VmHWM", 0) for m in mem[c])
            d["rss_last"] = mem[c][-1]
        out["configs"][c] = d
    return out


def run_alerts(env, n, extra):
    """Workload 3: n alerting opens at full speed, agent-sentinel with extra
    options; every alert line counted as read from its stdout."""
    needle = (ALERT_RULE, env.alert_file.encode())
    t = Tracer(env, "sentinel", extra=extra, needle=needle)
    try:
        cpu0 = t.cpu_s()
        start_ns = time.time_ns()
        res = env.run_loop("write", n, env.alert_file, inside=True)
        loop_end_ns = time.time_ns()
        mem = t.mem()
        cpu = (t.cpu_s() or 0) - (cpu0 or 0)
    finally:
        t.stop()
    rd = t.reader
    summ = t.summary or {}
    alerts = rd.matches
    written_span = max(rd.last_match_ns, loop_end_ns) - start_ns
    return {
        "options": list(extra), "opens": n, "alerts": alerts, "missing": n - alerts,
        "kernel_drops": summ.get("drops"), "events": summ.get("events"),
        "loop_ns_per_iter": res["ns_per_iter"],
        "alerts_per_s": alerts / (written_span / 1e9) if written_span > 0 else None,
        "loop_opens_per_s": 1e9 / res["ns_per_iter"],
        "tail_ms": max(0, rd.last_match_ns - loop_end_ns) / 1e6,
        "sentinel_cpu_s": cpu, "mem_kb": mem,
        "drop_warnings": [l for l in t.stderr.splitlines() if "ring buffer full" in l][:5],
        # alerts an output queue dropped (its reader fell behind): counted by
        # agent-sentinel and said on stderr, "... N alerts dropped (M in all)"
        "queue_drops": max([int(m.group(1)) for m in
                            re.finditer(r"alerts dropped \((\d+) in all\)", t.stderr)] or [0]),
    }


def part_alerts(env, args):
    reps = [run_alerts(env, args.alert_opens, ()) for _ in range(args.alert_reps)]
    for r in reps:
        log(f"w3 default: {r['alerts']}/{r['opens']} alerts, drops={r['kernel_drops']}, "
            f"{r['alerts_per_s']:.0f} alerts/s")
    out = {"default": reps, "sweep": []}
    if not args.smoke:
        # the smaller ring that would meet the RSS target (see part_rss): does it lose?
        rs = [run_alerts(env, args.alert_opens, ("--ringbuf-size", "4M")) for _ in range(2)]
        for r in rs:
            log(f"w3 --ringbuf-size 4M: {r['alerts']}/{r['opens']} alerts, drops={r['kernel_drops']}")
        out["sweep"].append({"options": ["--ringbuf-size", "4M"], "runs": rs,
                             "zero_loss": all(not r["missing"] and not r["kernel_drops"] for r in rs)})
    lost = any(r["missing"] or r["kernel_drops"] for r in reps)
    if lost and not args.smoke:
        # find settings that lose nothing: bigger ring, then earlier wakeups
        for opts in (("--ringbuf-size", "64M"), ("--ringbuf-size", "256M"),
                     ("--wakeup-bytes", "64K"), ("--wakeup-bytes", "0"),
                     ("--ringbuf-size", "64M", "--wakeup-bytes", "64K"),
                     ("--ringbuf-size", "256M", "--wakeup-bytes", "64K")):
            rs = [run_alerts(env, args.alert_opens, opts) for _ in range(2)]
            ok = all(not r["missing"] and not r["kernel_drops"] for r in rs)
            for r in rs:
                log(f"w3 {' '.join(opts)}: {r['alerts']}/{r['opens']} alerts, "
                    f"drops={r['kernel_drops']}")
            out["sweep"].append({"options": list(opts), "runs": rs, "zero_loss": ok})
    return out


def part_latency(env, args):
    """Alert latency at a paced rate: read time of the line minus its "time"."""
    out = {}
    n = int(args.latency_rate * args.latency_seconds)
    for label, extra in (("unbuffered", ("-U",)), ("buffered", ())):
        needle = (ALERT_RULE, env.alert_file.encode())
        t = Tracer(env, "sentinel", extra=extra, needle=needle, keep=True)
        try:
            res = env.run_loop("paced", n, args.latency_rate, env.alert_file, inside=True)
        finally:
            t.stop()
        lat = []
        for read_ns, line in t.reader.kept:
            try:
                ev_ns = parse_iso_ns(json.loads(line)["time"])
            except (ValueError, KeyError):
                continue
            lat.append((read_ns - ev_ns) / 1e6)
        out[label] = {"options": list(extra), "alerts": len(lat), "opens": n,
                      "achieved_rate": n / (res["ns"] / 1e9),
                      "p50_ms": pct(lat, 50), "p90_ms": pct(lat, 90), "p99_ms": pct(lat, 99),
                      "max_ms": max(lat) if lat else None,
                      "kernel_drops": (t.summary or {}).get("drops")}
        log(f"latency {label}: p50={out[label]['p50_ms']} p99={out[label]['p99_ms']} ms")
    return out


def part_rss(env, args):
    """Memory of agent-sentinel by ring buffer size: the consumer maps the
    ring's data once (user/consumer.h); the kernel fills those pages at mmap."""
    out = []
    for ring in ("4M", "16M", "64M"):
        t = Tracer(env, "sentinel", extra=("--ringbuf-size", ring))
        try:
            idle = t.mem()
            wakeups = idle_wakeups_per_s(t.proc.pid)
            env.run_loop("write", args.open_iters // 2, env.tmp_write, inside=True)
            env.run_loop("write", args.open_iters // 10, env.alert_file, inside=True)
            busy = t.mem()
        finally:
            t.stop()
        out.append({"ringbuf": ring, "idle_kb": idle, "after_workloads_kb": busy,
                    "idle_wakeups_per_s": wakeups,
                    "ready_ms": t.ready_ms, "drops": (t.summary or {}).get("drops")})
        log(f"rss ringbuf {ring}: VmRSS {busy.get('VmRSS')} kB (anon {busy.get('RssAnon')}, "
            f"file {busy.get('RssFile')}), ready {t.ready_ms:.0f} ms, "
            f"idle {wakeups:.1f} wakeups/s")
    return out


def part_build(env, args):
    """A real workload: this project's userspace compiled from scratch (cc
    of every user/**/*.c, two jobs) inside an agent tree, with agent-sentinel
    running the shipped rules and with no probe, alternated."""
    srcs = sorted(glob.glob(os.path.join(env.src, "user", "**", "*.c"), recursive=True))
    # a .c file another one #includes (user/rules/fields_*.c) is not a unit
    included = set()
    for c in srcs:
        with open(c, errors="replace") as f:
            included.update(re.findall(r'^#include "([^"]+\.c)"', f.read(), re.M))
    srcs = [c for c in srcs if os.path.basename(c) not in included]
    if args.build_files:
        srcs = srcs[:args.build_files]
    # every directory of user/ that has headers (the project's own include
    # paths), and bpf/ for the shared ABI
    hdirs = sorted({os.path.dirname(h) for h in
                    glob.glob(os.path.join(env.src, "user", "**", "*.h"), recursive=True)})
    incs = " ".join(["-I" + d for d in hdirs] + ["-I" + os.path.join(env.src, "bpf")] +
                    ["-I" + os.path.join(env.build, "bpf"), "-I/usr/include/json-c"])
    out = os.path.join(env.work, "build-objs")
    os.makedirs(out, exist_ok=True)
    mk = os.path.join(env.work, "Makefile.bench")
    with open(mk, "w") as f:
        objs = []
        for i, c in enumerate(srcs):
            o = os.path.join(out, f"{i}.o")
            objs.append(o)
            f.write(f"{o}: {c}\n\tcc -std=c11 -O2 -D_GNU_SOURCE {incs} -c $< -o $@\n")
        f.write("all: " + " ".join(objs) + "\n")
    cmd = f"make -s -j2 -f {mk} all; exit $?"
    # the floor too: what attaching the same tracepoints costs the build
    # before any program does anything (the syscall slow path, the calls)
    configs = ["none", "floor", "sentinel"]
    per = {c: [] for c in configs}
    cpu = {c: [] for c in configs}  # the build's own CPU (the programs run in its syscalls)
    tracer_cpu = []  # agent-sentinel's, during the build
    for r in range(args.build_rounds):
        for c in configs[r % 3:] + configs[:r % 3]:
            t = Tracer(env, c)
            try:
                for o in glob.glob(os.path.join(out, "*.o")):
                    os.unlink(o)
                t0 = t.cpu_s()
                wall, cpu_s, _ = run_timed([env.claude, "-c", cmd])
                if c == "sentinel":
                    tracer_cpu.append((t.cpu_s() or 0) - (t0 or 0))
                per[c].append(wall)
                cpu[c].append(cpu_s)
            finally:
                t.stop()
        log(f"build round {r + 1}/{args.build_rounds}: " +
            ", ".join(f"{c} {per[c][-1]:.2f} s (CPU {cpu[c][-1]:.2f})" for c in configs) +
            f", agent-sentinel CPU {tracer_cpu[-1]:.2f} s")
    n = median(per["none"])
    pct = {c: (median(per[c]) - n) / n * 100 if n else None for c in ("floor", "sentinel")}
    # wall time on a shared 2-CPU VM moves by 10-20% from build to build: the
    # CPU the build and agent-sentinel spend is the steadier account
    ncpu = median(cpu["none"])
    cpu_pct = {c: (median(cpu[c]) - ncpu) / ncpu * 100 if ncpu else None
               for c in ("floor", "sentinel")}
    tr = median(tracer_cpu)
    log(f"build: wall {sfmt(pct['sentinel'], '%')} (floor {sfmt(pct['floor'], '%')}); the "
        f"build's CPU {sfmt(cpu_pct['sentinel'], '%')} (floor {sfmt(cpu_pct['floor'], '%')}); "
        f"agent-sentinel's own CPU {tr:.2f} s = {fmt(tr / ncpu * 100 if ncpu else None, '%')} "
        f"of the build's")
    return {"files": len(srcs), "wall_s": {c: spread(v) for c, v in per.items()},
            "cpu_s": {c: spread(v) for c, v in cpu.items()},
            "sentinel_cpu_s": spread(tracer_cpu),
            "overhead_pct": pct["sentinel"], "floor_overhead_pct": pct["floor"],
            "cpu_overhead_pct": cpu_pct["sentinel"], "floor_cpu_overhead_pct": cpu_pct["floor"],
            "sentinel_cpu_pct": tr / ncpu * 100 if ncpu else None}


def run_timed(cmd, cpu=None):
    """Run cmd (pinned to cpu when given); wall seconds, CPU seconds, stderr."""
    if cpu is not None and shutil.which("taskset"):
        cmd = ["taskset", "-c", str(cpu)] + cmd
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_s = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if p.returncode:
        raise RuntimeError(f"{' '.join(cmd)} failed: {p.stderr.strip()[-500:]}")
    return wall, cpu_s, p.stderr


def part_replay(env, args):
    """Record a realistic stream with --no-prefilter --record, replay it on one core."""
    rec = os.path.join(env.work, "stream.asrec")
    # --no-prefilter: the kernel sends every event and every one is recorded.
    # Not --trace: printing each event as JSON cannot keep up with the loops
    # (it dropped two thirds of them), and the recording is what is measured.
    sentinel = Tracer(env, "sentinel", extra=("--no-prefilter", "--record", rec))
    try:
        s = args.record_scale
        env.run_loop("open", int(200000 * s), env.read_file, inside=False)
        env.run_loop("write", int(100000 * s), env.tmp_write, inside=True)
        env.run_loop("open", int(50000 * s), env.read_file, inside=True)
        env.run_loop("write", int(50000 * s), env.alert_file, inside=True)
        env.run_loop("exec", int(1000 * s), inside=True)
    finally:
        sentinel.stop()
    summ = sentinel.summary or {}
    if args.save_stream:
        shutil.copyfile(rec, args.save_stream)
        log(f"recorded stream saved as {args.save_stream}")
    out = {"recorded_events": summ.get("events"), "record_drops": summ.get("drops"),
           "file_bytes": os.path.getsize(rec), "runs": {}}
    # a header-only file: the fixed cost (rules load, start, exit)
    empty = os.path.join(env.work, "empty.asrec")
    with open(rec, "rb") as f, open(empty, "wb") as g:
        g.write(f.read(32))
    cpu = min(1, (os.cpu_count() or 1) - 1)
    base = [run_timed([env.sentinel, "--rules", env.rules, "--replay", empty], cpu)[1]
            for _ in range(max(1, args.replay_reps))]
    out["fixed_cpu_s"] = median(base)
    total = None
    for label, extra in (("no_prefilter", ["--no-prefilter"]), ("prefilter", [])):
        runs = []
        for _ in range(args.replay_reps):
            wall, cpu_s, err = run_timed(
                [env.sentinel, "--rules", env.rules, "--replay", rec] + extra, cpu)
            m = SUMMARY_RE.search(err)
            runs.append({"wall_s": wall, "cpu_s": cpu_s,
                         "events": int(m.group(1)) if m else None})
        cpu_med = median([r["cpu_s"] for r in runs])
        evs = runs[0]["events"]
        if label == "no_prefilter":
            total = evs
        net = max(cpu_med - out["fixed_cpu_s"], 1e-9)
        out["runs"][label] = {
            "runs": runs, "events_evaluated": evs, "records_in_file": total,
            "cpu_s_median": cpu_med,
            "cpu_s_spread": spread([r["cpu_s"] for r in runs]),
            # records of the file per second of CPU, start-up cost removed
            "records_per_s": total / net if total else None,
            "events_evaluated_per_s": evs / net if evs else None,
        }
        log(f"replay {label}: {total} records, {evs} evaluated, {cpu_med:.3f} s CPU")
    if args.profile:
        out["profile"] = profile_replay(env, rec, cpu, args)
    return out


def profile_replay(env, rec, cpu, args):
    """perf (cpu-clock sampling; this VM has no hardware counters) or callgrind."""
    cmd = [env.sentinel, "--rules", env.rules, "--replay", rec, "--no-prefilter"]
    path = os.path.splitext(os.path.abspath(args.json))[0] + ".profile.txt"
    if shutil.which("perf"):
        data = os.path.join(env.work, "perf.data")
        # dwarf unwinding: the build has no frame pointers
        r = subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-F", "1999",
                            "--call-graph", "dwarf",
                            "-o", data, "--", "taskset", "-c", str(cpu)] + cmd,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode == 0:
            flat = subprocess.run(["perf", "report", "-i", data, "--stdio", "--no-children",
                                   "--sort", "symbol", "-g", "none", "--percent-limit", "0.5"],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            incl = subprocess.run(["perf", "report", "-i", data, "--stdio", "--children",
                                   "--sort", "symbol", "-g", "none", "--percent-limit", "3"],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            with open(path, "w") as f:
                f.write("# self time (perf cpu-clock, --no-prefilter replay)\n" + flat.stdout +
                        "\n# including callees\n" + incl.stdout)
            top = []
            for line in flat.stdout.splitlines():
                m = re.match(r"\s*([\d.]+)%\s+\[(.)\]\s+(\S+(?: \(inlined\))?)", line)
                if m:
                    top.append({"self_pct": float(m.group(1)), "where": m.group(2),
                                "symbol": m.group(3).strip()})
            incl_top = []
            for line in incl.stdout.splitlines():
                m = re.match(r"\s*([\d.]+)%\s+([\d.]+)%\s+\[(.)\]\s+(\S+(?: \(inlined\))?)", line)
                if m:
                    incl_top.append({"children_pct": float(m.group(1)),
                                     "self_pct": float(m.group(2)),
                                     "symbol": m.group(4).strip()})
            return {"tool": "perf record -e cpu-clock --call-graph dwarf", "file": path,
                    "top_self": top[:25], "top_inclusive": incl_top[:25]}
        log("perf record failed: " + r.stderr.strip()[-200:])
    if shutil.which("valgrind"):
        out = os.path.join(env.work, "callgrind.out")
        subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out] + cmd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        ann = subprocess.run(["callgrind_annotate", out], stdout=subprocess.PIPE, text=True)
        with open(path, "w") as f:
            f.write(ann.stdout)
        return {"tool": "callgrind", "file": path}
    return {"tool": None}


def part_diagnose(env, args):
    """Syscall counts of agent-sentinel while it writes 20,000 alerts
    (strace -c -f), with and without -U: evidence for the write path."""
    if not shutil.which("strace"):
        return None
    out = {}
    n = 20000
    for label, extra in (("buffered", ()), ("unbuffered", ("-U",))):
        t = Tracer(env, "sentinel", extra=extra, needle=(ALERT_RULE, env.alert_file.encode()))
        sf = os.path.join(env.work, f"strace-{label}.txt")
        st = subprocess.Popen(["strace", "-c", "-f", "-o", sf, "-p", str(t.pid)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.5)
        try:
            env.run_loop("write", n, env.alert_file, inside=True)
            time.sleep(0.3)
        finally:
            st.send_signal(signal.SIGINT)
            st.wait(timeout=30)
            t.stop()
        calls = {}
        try:
            with open(sf) as f:
                for line in f:
                    m = re.match(r"\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)$", line)
                    if m:
                        calls[m.group(2)] = int(m.group(1))
        except OSError:
            pass
        out[label] = {"alerts": n, "alerts_read": t.reader.matches, "syscalls": calls}
    out["startup_syscalls"] = startup_syscalls(env)
    out["verifier"] = verifier_stats(env)
    out["bpf_prog_stats"] = bpf_prog_stats(env, args)
    return out


def verifier_stats(env):
    """What start-up's largest part, the kernel's verifier, spends per program:
    AGENT_SENTINEL_VERIFIER_STATS=1 loads on one thread and prints the
    verifier's own figures (time, instructions processed, states) at -v."""
    r = subprocess.run([env.sentinel, "--rules", env.rules, "-v", "-M", "0.2"],
                       env=dict(os.environ, AGENT_SENTINEL_VERIFIER_STATS="1"),
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    time.sleep(SETTLE_S)
    progs = {}
    for line in r.stderr.splitlines():
        m = re.search(r"verifier: (\S+(?: programs)?)\s+([\d.]+) ms\s+(\d+) instructions", line)
        if m:
            progs[m.group(1)] = {"ms": float(m.group(2)), "insns": int(m.group(3))}
    if progs:
        log("verifier, one thread (ms/instructions): " +
            ", ".join(f"{k} {v['ms']:.1f}/{v['insns']}" for k, v in progs.items()))
    return progs


def startup_syscalls(env):
    """Where start-up goes: wall time per syscall until exit (-M 0.2), by
    strace -f -w -c (strace slows the user side, not the kernel's verifier)."""
    sf = os.path.join(env.work, "strace-startup.txt")
    subprocess.run(["strace", "-f", "-w", "-c", "-o", sf, env.sentinel, "--rules", env.rules,
                    "-M", "0.2"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(SETTLE_S)
    rows = {}
    try:
        with open(sf) as f:
            for line in f:
                m = re.match(r"\s*([\d.]+)\s+([\d.]+)\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)$", line)
                if m and m.group(4) != "total":
                    rows[m.group(4)] = {"seconds": float(m.group(2)), "calls": int(m.group(3))}
    except OSError:
        pass
    top = dict(sorted(rows.items(), key=lambda kv: -kv[1]["seconds"])[:8])
    log("start-up syscalls (s): " + ", ".join(f"{k} {v['seconds']:.3f}/{v['calls']}"
                                              for k, v in top.items()))
    return top


BPF_STATS = "/proc/sys/kernel/bpf_stats_enabled"


def bpf_stats_set(value):
    """Set kernel.bpf_stats_enabled; its old value (None: no such setting).
    Left on (by an earlier run cut short, or by hand), it adds two clock
    reads to every program run, the floor's as well as ours: timing runs
    with it off."""
    try:
        with open(BPF_STATS) as f:
            was = f.read().strip()
        with open(BPF_STATS, "w") as f:
            f.write(value)
        return was
    except OSError:
        return None


def bpf_prog_stats(env, args):
    """Kernel time per run of agent-sentinel's programs (kernel.bpf_stats_enabled,
    bpftool prog show: run_time_ns / run_cnt) during w1 and w2."""
    if not shutil.which("bpftool") or not os.path.exists(BPF_STATS):
        return None
    was = bpf_stats_set("1")
    out = {}
    try:
        for name, mode, inside, path in (("w1_open_outside", "open", False, env.read_file),
                                         ("w2_write_tmp_inside", "write", True, env.tmp_write),
                                         ("w3_write_alert_inside", "write", True, env.alert_file)):
            t = Tracer(env, "sentinel")
            try:
                before = prog_stats(t.pid)
                env.run_loop(mode, args.open_iters // 2, path, inside=inside)
                after = prog_stats(t.pid)
            finally:
                t.stop()
            d = {}
            for prog, (ns, cnt) in after.items():
                ns0, cnt0 = before.get(prog, (0, 0))
                if cnt - cnt0 > 1000:
                    d[prog] = {"runs": cnt - cnt0, "ns_per_run": (ns - ns0) / (cnt - cnt0)}
            out[name] = d
            log(f"bpf stats {name}: " + ", ".join(f"{k} {v['ns_per_run']:.0f} ns"
                                                  for k, v in d.items()))
    finally:
        bpf_stats_set(was)
    return out


def part_progtime(env, args):
    """Kernel time in the tracer's own programs per iteration of each row, the
    empty programs' (floor) against agent-sentinel's, from bpf_stats: what the
    wall-clock rows cannot resolve where a fork+exec spreads by +-500 us. The
    dispatch to a program (the tracepoint, the perf buffer of the syscall
    tracepoints) is the same in both and not counted; the caches the
    programs evict, which the wall clock pays too, are not either."""
    if not shutil.which("bpftool") or not os.path.exists(BPF_STATS):
        return None
    was = bpf_stats_set("1")
    out = {}
    try:
        for name, mode, inside, iters in WORKLOADS:
            n = getattr(args, iters) // (1 if mode == "exec" else 4)
            row = {}
            for kind in ("floor", "sentinel"):
                t = Tracer(env, kind)
                try:
                    before = prog_stats(t.pid)
                    env.run_loop(mode, n, *workload_args(env, mode), inside=inside)
                    after = prog_stats(t.pid)
                finally:
                    t.stop()
                total = sum(ns - before.get(prog, (0, 0))[0] for prog, (ns, _) in after.items())
                runs = sum(c - before.get(prog, (0, 0))[1] for prog, (_, c) in after.items())
                row[kind] = {"ns_per_iter": total / n, "runs_per_iter": runs / n}
            out[name] = row
            f, a = row["floor"]["ns_per_iter"], row["sentinel"]["ns_per_iter"]
            log(f"program time {name}: floor {f:.0f} ns, agent-sentinel {a:.0f} ns an iteration "
                f"({row['sentinel']['runs_per_iter']:.1f} runs)")
    finally:
        bpf_stats_set(was)
    return out


def prog_stats(pid):
    """{program name: (run_time_ns, run_cnt)} of the programs pid holds."""
    r = subprocess.run(["bpftool", "-j", "prog", "show"], stdout=subprocess.PIPE, text=True)
    try:
        progs = json.loads(r.stdout)
    except ValueError:
        return {}
    def ours(p):
        if "pids" in p:  # bpftool built with pid iterators
            return pid in [q.get("pid") for q in p["pids"]]
        return p.get("name", "").startswith(("tp_", "rtp_", "raw_", "floor_"))  # one at a time
    return {p.get("name", "?"): (p.get("run_time_ns", 0), p.get("run_cnt", 0))
            for p in progs if ours(p)}


# ---- report ---------------------------------------------------------------

def fmt(v, unit="", digits=2):
    if v is None:
        return "n/a"
    return f"{v:.{digits}f}{unit}"


def sfmt(v, unit="", digits=2):
    """fmt with the sign always shown: an overhead may come out negative"""
    return "n/a" if v is None else f"{v:+.{digits}f}{unit}"


def verdict(ok):
    return "n/a" if ok is None else ("MET" if ok else "MISSED")


def build_targets(res):
    alt = res.get("alternating", {}).get("configs", {})
    t = []

    def ovh(c, w):
        return alt.get(c, {}).get("workloads", {}).get(w, {}).get("overhead_ns")

    a1, f1 = ovh("sentinel", "w1_open_outside"), ovh("floor", "w1_open_outside")
    r1 = a1 / f1 if a1 is not None and f1 else None
    t.append({"target": "w1 overhead <= 1.5x floor", "value": r1, "limit": TARGET_W1_VS_FLOOR,
              "detail": f"agent {fmt(a1 and a1 / 1e3, ' us')} vs floor {fmt(f1 and f1 / 1e3, ' us')}",
              "met": None if r1 is None else r1 <= TARGET_W1_VS_FLOOR})
    a2, f2 = ovh("sentinel", "w2_write_tmp_inside"), ovh("floor", "w2_write_tmp_inside")
    r2f = a2 / f2 if a2 is not None and f2 and f2 > 0 else None
    t.append({"target": "w2 overhead <= 1.5x floor", "value": r2f, "limit": TARGET_W1_VS_FLOOR,
              "detail": f"agent {fmt(a2 and a2 / 1e3, ' us')} vs floor {fmt(f2 and f2 / 1e3, ' us')}",
              "met": None if r2f is None else r2f <= TARGET_W1_VS_FLOOR})
    b2 = ovh("bpftrace", "w2_write_tmp_inside")
    r2 = a2 / b2 if a2 is not None and b2 else None
    t.append({"target": "w2 overhead <= 1/10 bpftrace", "value": r2, "limit": TARGET_W2_VS_BPFTRACE,
              "detail": f"agent {fmt(a2 and a2 / 1e3, ' us')} vs bpftrace {fmt(b2 and b2 / 1e3, ' us')}",
              "met": None if r2 is None else r2 <= TARGET_W2_VS_BPFTRACE})
    for w in ("w4_exec_inside", "w5_churn_outside", "w6_churn_inside", "w7_sendto_outside",
              "w8_sendto_inside", "w9_read_inside"):
        a, f = ovh("sentinel", w), ovh("floor", w)
        r = a / f if a is not None and f and f > 0 else None
        t.append({"target": f"{w.split('_')[0]} overhead <= 1.5x floor", "value": r,
                  "limit": TARGET_W1_VS_FLOOR,
                  "detail": f"agent {fmt(a and a / 1e3, ' us')} vs floor {fmt(f and f / 1e3, ' us')}",
                  "met": None if r is None else r <= TARGET_W1_VS_FLOOR})
    b = res.get("build", {}).get("overhead_pct")
    if res.get("build"):
        t.append({"target": "own build inside an agent tree <= 2% over no probe", "value": b,
                  "limit": 2.0, "detail": f"{sfmt(b, ' %')} (floor "
                  f"{sfmt(res['build'].get('floor_overhead_pct'), ' %')}; CPU: the build "
                  f"{sfmt(res['build'].get('cpu_overhead_pct'), ' %')}, agent-sentinel "
                  f"{fmt(res['build'].get('sentinel_cpu_pct'), ' %')})",
                  "met": None if b is None else b <= 2.0})
    w3 = res.get("alerts", {}).get("default", [])
    if w3:
        lost = max(r["missing"] + (r["kernel_drops"] or 0) for r in w3)
        t.append({"target": "w3 zero lost, every alert written (default settings)",
                  "value": lost, "limit": 0,
                  "detail": "; ".join(f"{r['alerts']}/{r['opens']} alerts, {r['kernel_drops']} drops"
                                      for r in w3),
                  "met": lost == 0})
    rp = res.get("replay", {}).get("runs", {})
    for label in ("no_prefilter", "prefilter"):
        if label in rp:
            eps = rp[label]["records_per_s"]
            t.append({"target": f"replay >= 2M events/s, one core ({label})",
                      "value": eps and eps / TARGET_REPLAY_EPS, "limit": 1.0,
                      "detail": f"{fmt(eps and eps / 1e6, ' M/s')} ({rp[label]['events_evaluated']} of "
                                f"{rp[label]['records_in_file']} evaluated)",
                      "met": None if eps is None else eps >= TARGET_REPLAY_EPS})
    rss = res.get("resources", {}).get("rss_kb_max")
    if rss is not None:
        t.append({"target": "RSS <= 16 MB steady", "value": rss / 1024 / TARGET_RSS_MB, "limit": 1.0,
                  "detail": f"VmRSS max {rss / 1024:.1f} MB, VmHWM max "
                            f"{res['resources']['hwm_kb_max'] / 1024:.1f} MB",
                  "met": rss / 1024 <= TARGET_RSS_MB})
    rdy = res.get("resources", {}).get("ready_ms", {})
    if rdy:
        t.append({"target": "start-up to READY=1 <= 150 ms", "value": rdy["median"] / TARGET_READY_MS,
                  "limit": 1.0, "detail": f"median {rdy['median']:.0f} ms, max {rdy['max']:.0f} ms",
                  "met": rdy["median"] <= TARGET_READY_MS})
    lat = res.get("latency", {})
    for label in ("unbuffered", "buffered"):
        if label in lat and lat[label]["p99_ms"] is not None:
            p99 = lat[label]["p99_ms"]
            t.append({"target": f"alert p99 <= 20 ms at 10k/s ({label})", "value": p99 / TARGET_P99_MS,
                      "limit": 1.0,
                      "detail": f"p50 {lat[label]['p50_ms']:.2f} ms, p99 {p99:.2f} ms, "
                                f"at {lat[label]['achieved_rate']:.0f}/s",
                      "met": p99 <= TARGET_P99_MS})
    return t


def print_report(res):
    alt = res.get("alternating")
    if alt:
        configs = list(alt["configs"])
        n = alt["configs"]["none"]["workloads"][WORKLOADS[0][0]]["ns_per_iter"]["n"]
        print(f"\nWorkloads 1, 2, 4: cost per iteration, {n} alternated rounds "
              "(overhead = median minus no-probe median; paired = per-round difference)")
        print(f"{'workload':<21}{'config':<10}{'median':>10}{'min..max':>20}{'overhead':>10}"
              f"{'paired p25..p75':>20}{'tracer CPU':>12}")
        for name, _, _, _ in WORKLOADS:
            for c in configs:
                w = alt["configs"][c]["workloads"][name]
                s = w["ns_per_iter"]
                p = w.get("overhead_ns_paired")
                cpu = w["tracer_cpu_ns_per_iter"]
                pair = f"{p['p25'] / 1e3:.2f}..{p['p75'] / 1e3:.2f}us" if p else ""
                print(f"{name:<21}{c:<10}{s['median'] / 1e3:>8.2f}us"
                      f"{s['min'] / 1e3:>11.2f}..{s['max'] / 1e3:<7.2f}"
                      f"{fmt(w.get('overhead_ns') and w['overhead_ns'] / 1e3, 'us'):>10}"
                      f"{pair:>20}"
                      f"{(fmt(cpu['median'] / 1e3, 'us') if cpu else ''):>12}")
        print(f"{'tracer':<21}{'start-up median (max)':<31}{'RSS max':>10}{'HWM max':>10}")
        for c in configs[1:]:
            d = alt["configs"][c]
            r = d["ready_ms"]
            print(f"{'':<21}{c:<10}{fmt(r and r['median'], ' ms', 0):>10} ({fmt(r and r['max'], ' ms', 0)})"
                  f"{'':<5}{fmt(d.get('rss_kb_max') and d['rss_kb_max'] / 1024, ' MB', 1):>10}"
                  f"{fmt(d.get('hwm_kb_max') and d['hwm_kb_max'] / 1024, ' MB', 1):>10}")
    pt = res.get("progtime")
    if pt:
        print("\nKernel time in the tracer's own programs per iteration (bpf_stats)")
        print(f"{'workload':<21}{'floor':>10}{'agent-sentinel':>16}{'ratio':>8}{'runs':>8}")
        for name, row in pt.items():
            f, a = row["floor"]["ns_per_iter"], row["sentinel"]["ns_per_iter"]
            print(f"{name:<21}{f / 1e3:>8.2f}us{a / 1e3:>14.2f}us{fmt(f and a / f, 'x', 1):>8}"
                  f"{row['sentinel']['runs_per_iter']:>8.1f}")
    al = res.get("alerts")
    if al:
        print("\nWorkload 3: alerting opens at full speed inside the agent tree")
        for r in al["default"] + [x for s in al["sweep"] for x in s["runs"]]:
            print(f"  {' '.join(r['options']) or 'default':<40} {r['alerts']:>7}/{r['opens']} alerts "
                  f"drops={r['kernel_drops']} queue_drops={r.get('queue_drops', 0)} "
                  f"{fmt(r['alerts_per_s'], '/s', 0)} "
                  f"(loop {r['loop_ns_per_iter'] / 1e3:.2f} us/open, agent CPU {r['sentinel_cpu_s']:.2f} s)")
    lat = res.get("latency")
    if lat:
        print("\nAlert latency (line read from stdout minus the event's time)")
        for k, v in lat.items():
            print(f"  {k:<12} {v['alerts']} alerts at {v['achieved_rate']:.0f}/s: p50 {fmt(v['p50_ms'])} "
                  f"p90 {fmt(v['p90_ms'])} p99 {fmt(v['p99_ms'])} max {fmt(v['max_ms'])} ms")
    rp = res.get("replay")
    if rp:
        print(f"\nReplay ({rp['recorded_events']} events recorded, {rp['record_drops']} dropped while "
              f"recording, {rp['file_bytes'] / 1e6:.1f} MB, "
              f"fixed cost {rp['fixed_cpu_s'] * 1e3:.0f} ms CPU)")
        for k, v in rp["runs"].items():
            print(f"  {k:<13} {fmt(v['records_per_s'] and v['records_per_s'] / 1e6, ' M records/s')} "
                  f"({v['events_evaluated']} evaluated, CPU {v['cpu_s_median']:.3f} s median)")
        pr = rp.get("profile") or {}
        if pr.get("top_self"):
            print("  hot spots (self %, perf cpu-clock): " + ", ".join(
                f"{h['symbol']} {h['self_pct']:.1f}%" for h in pr["top_self"][:10]))
    rs = res.get("resources", {})
    if rs.get("by_ringbuf"):
        print("\nagent-sentinel memory by --ringbuf-size (after w2 + alerting opens)")
        for r in rs["by_ringbuf"]:
            m = r["after_workloads_kb"]
            print(f"  {r['ringbuf']:>4}: VmRSS {m.get('VmRSS', 0) / 1024:.1f} MB = anon "
                  f"{m.get('RssAnon', 0) / 1024:.1f} + file {m.get('RssFile', 0) / 1024:.1f} MB "
                  f"(idle VmRSS {r['idle_kb'].get('VmRSS', 0) / 1024:.1f} MB), ready {r['ready_ms']:.0f} ms, "
                  f"idle {r.get('idle_wakeups_per_s', 0):.1f} wakeups/s")
    if rs.get("stop_ms"):
        print(f"\nagent-sentinel SIGTERM to exit: median {rs['stop_ms']['median']:.0f} ms, "
              f"max {rs['stop_ms']['max']:.0f} ms")
    print("\nTargets (issue 4)")
    for t in res["targets"]:
        v = t["value"]
        print(f"  {t['target']:<52} {fmt(v, '', 3) if isinstance(v, float) else v!s:>8} "
              f"(limit {t['limit']}) {verdict(t['met']):<7} {t['detail']}")


def main():
    global SETTLE_S
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", default="build")
    ap.add_argument("--source-dir", default=os.path.dirname(os.path.dirname(HERE)))
    ap.add_argument("--json", default=os.path.join(HERE, "results.json"))
    ap.add_argument("--rounds", type=int, default=10, help="alternations of the configurations")
    ap.add_argument("--open-iters", type=int, default=200000)
    ap.add_argument("--exec-iters", type=int, default=1000)
    ap.add_argument("--alert-opens", type=int, default=100000)
    ap.add_argument("--alert-reps", type=int, default=3)
    ap.add_argument("--latency-rate", type=float, default=10000)
    ap.add_argument("--latency-seconds", type=float, default=5)
    ap.add_argument("--record-scale", type=float, default=1.0)
    ap.add_argument("--replay-reps", type=int, default=5)
    ap.add_argument("--save-stream", metavar="PATH",
                    help="keep the recorded replay stream (for profiling by hand)")
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--settle", type=float, default=1.0,
                    help="seconds to wait after a tracer exits")
    ap.add_argument("--build-rounds", type=int, default=4, help="rounds of the build workload")
    ap.add_argument("--build-files", type=int, default=0, help="compile only this many (0: all)")
    ap.add_argument("--only",
                    default="alternating,rss,alerts,latency,replay,diagnose,progtime,build",
                    help="parts to run")
    ap.add_argument("--no-profile", dest="profile", action="store_false")
    ap.add_argument("--no-install", action="store_true", help="never apt-get bpftrace")
    ap.add_argument("--smoke", action="store_true",
                    help="tiny counts: checks it runs end to end, no number asserted")
    args = ap.parse_args()
    SETTLE_S = args.settle
    if args.smoke:
        SETTLE_S = min(SETTLE_S, 0.2)
        args.rounds, args.open_iters, args.exec_iters = 1, 2000, 10
        args.alert_opens, args.alert_reps = 2000, 1
        args.latency_rate, args.latency_seconds = 1000, 0.5
        args.record_scale, args.replay_reps = 0.02, 1
        args.build_rounds, args.build_files = 1, 3
        args.profile, args.no_install = False, True
        args.only = args.only.replace(",diagnose", "")

    if not os.path.exists("/sys/kernel/btf/vmlinux"):
        log("SKIPPED: this kernel has no BTF")
        return 77
    if os.geteuid() != 0:
        log("the benchmark loads BPF programs: run it as root")
        return 77 if args.smoke else 1
    env = Env(args)
    for b in (env.sentinel, env.loop, env.floor):
        if not os.access(b, os.X_OK):
            log(f"missing {b}: build first (cmake --build {args.build_dir})")
            return 1
    parts = args.only.split(",")
    tracepoints = check_floor(env)
    configs = [c for c in args.configs.split(",") if c in CONFIGS]
    if "none" not in configs:
        configs.insert(0, "none")
    if "bpftrace" in configs and not ensure_bpftrace(args):
        configs.remove("bpftrace")

    res = {"date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
           "machine": {"cpus": os.cpu_count(), "kernel": platform.release(),
                       "model": next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                                      if l.startswith("model name")), None),
                       "bpftrace": subprocess.run(["bpftrace", "--version"], stdout=subprocess.PIPE,
                                                  text=True).stdout.strip()
                       if shutil.which("bpftrace") else None},
           "args": vars(args), "tracepoints_attached": tracepoints}
    stats_was = bpf_stats_set("0")
    res["machine"]["bpf_stats_was"] = stats_was
    if stats_was == "1":
        log("kernel.bpf_stats_enabled was 1: off while timing, restored at the end")
    try:
        if "alternating" in parts:
            res["alternating"] = part_alternating(env, args, configs)
            s = res["alternating"]["configs"].get("sentinel")
            if s:
                res["resources"] = {"stop_ms": s["stop_ms"], "ready_ms": s["ready_ms"], "rss_kb_max": s.get("rss_kb_max"),
                                    "hwm_kb_max": s.get("hwm_kb_max"), "rss_last": s.get("rss_last")}
        if "rss" in parts:
            res.setdefault("resources", {})["by_ringbuf"] = part_rss(env, args)
        if "alerts" in parts:
            res["alerts"] = part_alerts(env, args)
        if "latency" in parts:
            res["latency"] = part_latency(env, args)
        if "replay" in parts:
            res["replay"] = part_replay(env, args)
        if "diagnose" in parts:
            res["diagnose"] = part_diagnose(env, args)
        if "progtime" in parts:
            res["progtime"] = part_progtime(env, args)
        if "build" in parts:
            res["build"] = part_build(env, args)
    finally:
        env.cleanup()
        if stats_was is not None:
            bpf_stats_set(stats_was)
    res["targets"] = build_targets(res)
    os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
    with open(args.json, "w") as f:
        json.dump(res, f, indent=1)
    print_report(res)
    print(f"\nJSON: {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
