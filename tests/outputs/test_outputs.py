#!/usr/bin/env python3
"""The output stage against real receivers on loopback (127.0.0.1, unix
sockets in temporary directories), through tests/outputs/outputs_driver.c.

Environment (set by tests/outputs/CMakeLists.txt):
  OUTPUTS_DRIVER  the driver binary
  OPENSSL         the openssl program (certificates for the HTTPS tests)

Run one group: python3 test_outputs.py Http   (or no argument for all).
"""
import http.server
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import unittest

DRIVER = os.environ.get("OUTPUTS_DRIVER", "")
OPENSSL = os.environ.get("OPENSSL", "openssl")
WAIT = 20  # seconds for anything that should happen "soon"


def until(pred, timeout=WAIT, step=0.05):
    """Poll pred until it returns something true; returns it, or None on timeout."""
    end = time.monotonic() + timeout
    while True:
        v = pred()
        if v:
            return v
        if time.monotonic() > end:
            return None
        time.sleep(step)


class Driver:
    """One outputs_driver process. stderr is collected by a thread; stdout is
    either a pipe read by a thread (stdout_lines) or discarded."""

    def __init__(self, args, capture_stdout=False, stdout=None):
        self.err = []
        self.out = []
        self.lock = threading.Lock()
        self.proc = subprocess.Popen(
            [DRIVER] + args, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE if capture_stdout else stdout or subprocess.DEVNULL,
            stderr=subprocess.PIPE, text=True, bufsize=1)
        self.threads = [threading.Thread(target=self._read, args=(self.proc.stderr, self.err),
                                         daemon=True)]
        if capture_stdout:
            self.threads.append(threading.Thread(target=self._read,
                                                 args=(self.proc.stdout, self.out), daemon=True))
        for t in self.threads:
            t.start()

    def _read(self, f, sink):
        for line in f:
            with self.lock:
                sink.append(line.rstrip("\n"))

    def send(self, cmd):
        self.proc.stdin.write(cmd + "\n")
        self.proc.stdin.flush()

    def err_lines(self):
        with self.lock:
            return list(self.err)

    def diag(self):
        """stderr lines that are the library's own (not the driver's answers)."""
        return [l for l in self.err_lines() if not l.startswith("driver: ")]

    def out_lines(self):
        with self.lock:
            return list(self.out)

    def stats(self):
        """{name: {emitted, dropped, failed, queued}} as of now."""
        n = len(self.err_lines())
        self.send("stats")
        until(lambda: "driver: end" in self.err_lines()[n:])
        res = {}
        for l in self.err_lines()[n:]:
            m = re.match(r"driver: stats (\w+) (.*)", l)
            if m:
                res[m.group(1)] = {k: int(v) for k, v in
                                   (kv.split("=") for kv in m.group(2).split())}
        return res

    def wait_stat(self, name, pred, timeout=WAIT):
        return until(lambda: (lambda s: s if name in s and pred(s[name]) else None)(self.stats()),
                     timeout, 0.1)

    def answer(self, prefix, timeout=WAIT):
        return until(lambda: next((l for l in self.err_lines() if l.startswith(prefix)), None),
                     timeout)

    def close(self, timeout=60):
        if self.proc.stdin and not self.proc.stdin.closed:
            self.proc.stdin.close()
        rc = self.proc.wait(timeout)
        for t in self.threads:
            t.join(10)
        return rc


def read_lines(path):
    try:
        with open(path) as f:
            return f.read().splitlines()
    except FileNotFoundError:
        return []


def alert(n, tag="t"):
    return json.dumps({"output": f"alert {n}", "priority": "Warning", "rule": tag, "seq": n},
                      sort_keys=True)


class Base(unittest.TestCase):
    def setUp(self):
        self.assertTrue(os.access(DRIVER, os.X_OK), f"OUTPUTS_DRIVER={DRIVER!r}")
        self.tmp = tempfile.mkdtemp(prefix="outputs-test.")
        self.drivers = []

    def tearDown(self):
        for d in self.drivers:
            if d.proc.poll() is None:
                d.proc.kill()
                d.proc.wait()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def driver(self, args, **kw):
        d = Driver(args, **kw)
        self.drivers.append(d)
        self.assertTrue(d.answer("driver: open"), d.err_lines())
        return d

    def path(self, name):
        return os.path.join(self.tmp, name)

    def assertNoDiag(self, d):
        self.assertEqual(d.diag(), [], "unexpected lines on stderr")


class Stdout(Base):
    def test_unbuffered_lines_arrive_at_once(self):
        d = self.driver(["--stdout"], capture_stdout=True)
        for i in range(3):
            d.send(f"emit 5 {alert(i)}")
            self.assertTrue(until(lambda: len(d.out_lines()) == i + 1, 5), d.out_lines())
        self.assertEqual(d.out_lines(), [alert(i) for i in range(3)])
        self.assertEqual(d.close(), 0)
        self.assertNoDiag(d)

    def test_buffered_flushes_when_idle_and_at_close(self):
        d = self.driver(["--stdout", "--buffered"], capture_stdout=True)
        d.send(f"emit 5 {alert(0)}")
        # not at once necessarily, but within a tick of idleness
        self.assertTrue(until(lambda: d.out_lines(), 5), "buffered line never flushed")
        d.send("burst 20000 5 big")  # faster than a pipe: some are dropped, and counted
        self.assertEqual(d.close(), 0)
        lines = d.out_lines()
        st = [l for l in d.err_lines() if l.startswith("driver: stats stdout")][-1]
        emitted = int(re.search(r"emitted=(\d+)", st).group(1))
        dropped = int(re.search(r"dropped=(\d+)", st).group(1))
        # every line whole JSON, in order, nothing lost but counted drops
        seqs = [json.loads(l)["seq"] for l in lines[1:]]
        self.assertEqual(seqs, sorted(seqs))
        self.assertEqual(len(lines), 1 + 20000 - dropped, (emitted, dropped))
        self.assertLessEqual(emitted, len(lines))  # stats come before close's drain
        self.assertEqual([l for l in d.diag() if "queue full" not in l], [])

    def test_stdout_only_json(self):
        """A program output's own stdout must not reach our stdout."""
        d = self.driver(["--stdout", "--program", "cat", "--program-keep-alive"],
                        capture_stdout=True)
        d.send(f"emit 5 {alert(1)}")
        self.assertTrue(d.wait_stat("program", lambda s: s["emitted"] == 1))
        self.assertEqual(d.close(), 0)
        self.assertEqual(d.out_lines(), [alert(1)])
        self.assertIn(alert(1), d.err_lines())  # cat's copy went to stderr


class File(Base):
    def test_rotate_keep_alive(self):
        f = self.path("alerts.json")
        d = self.driver(["--file", f, "--file-keep-alive"])
        for i in range(5):
            d.send(f"emit 5 {alert(i)}")
        self.assertTrue(until(lambda: len(read_lines(f)) == 5), read_lines(f))
        os.rename(f, f + ".1")  # logrotate
        d.send(f"emit 5 {alert(5)}")  # still the old file: no reopen yet
        self.assertTrue(until(lambda: len(read_lines(f + ".1")) == 6))
        d.send("reopen")
        self.assertTrue(until(lambda: os.path.exists(f)), "reopen did not create the file")
        for i in range(6, 10):
            d.send(f"emit 5 {alert(i)}")
        self.assertTrue(until(lambda: len(read_lines(f)) == 4), read_lines(f))
        self.assertEqual(d.close(), 0)
        self.assertEqual(read_lines(f + ".1"), [alert(i) for i in range(6)])
        self.assertEqual(read_lines(f), [alert(i) for i in range(6, 10)])
        self.assertEqual(os.stat(f).st_mode & 0o777 & ~0o640, 0)
        self.assertNoDiag(d)

    def test_rotate_without_keep_alive(self):
        """Falco's default: open, append, close per alert; rotation needs no signal."""
        f = self.path("alerts.json")
        d = self.driver(["--file", f])
        d.send(f"emit 5 {alert(0)}")
        self.assertTrue(until(lambda: len(read_lines(f)) == 1))
        os.rename(f, f + ".1")
        d.send(f"emit 5 {alert(1)}")
        self.assertTrue(until(lambda: len(read_lines(f)) == 1))
        self.assertEqual(d.close(), 0)
        self.assertEqual(read_lines(f + ".1"), [alert(0)])
        self.assertEqual(read_lines(f), [alert(1)])

    def test_buffered_keep_alive_reaches_file(self):
        f = self.path("alerts.json")
        d = self.driver(["--file", f, "--file-keep-alive", "--buffered"])
        d.send("burst 5000 5 b")
        self.assertEqual(d.close(), 0)
        seqs = [json.loads(l)["seq"] for l in read_lines(f)]
        st = d.err_lines()
        dropped = int(re.search(r"dropped=(\d+)", [l for l in st if "stats file" in l][-1]).group(1))
        self.assertEqual(len(seqs), 5000 - dropped)
        self.assertEqual(seqs, sorted(seqs))


class Syslog(Base):
    def bind(self, path):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        s.bind(path)
        s.settimeout(WAIT)
        return s

    def test_datagrams_priorities_facility_tag(self):
        sock = self.path("log")
        rx = self.bind(sock)
        d = self.driver(["--syslog", sock, "--facility", "local3", "--tag", "sentinel-test"])
        for prio in range(1, 9):
            d.send(f"emit {prio} {alert(prio)}")
        got = [rx.recv(65536).decode() for _ in range(8)]
        self.assertEqual(d.close(), 0)
        pid = d.proc.pid
        for prio, msg in zip(range(1, 9), got):
            m = re.fullmatch(r"<(\d+)>([A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d) "
                             r"sentinel-test\[(\d+)\]: (.*)", msg)
            self.assertTrue(m, msg)
            # LOG_LOCAL3 = 19 << 3; Emergency..Debug -> LOG_EMERG(0)..LOG_DEBUG(7)
            self.assertEqual(int(m.group(1)), 19 * 8 + prio - 1)
            self.assertEqual(int(m.group(3)), pid)
            self.assertEqual(m.group(4), alert(prio))
        rx.close()
        self.assertNoDiag(d)

    def test_default_facility_user(self):
        sock = self.path("log")
        rx = self.bind(sock)
        d = self.driver(["--syslog", sock])
        d.send(f"emit 4 {alert(0)}")
        msg = rx.recv(65536).decode()
        self.assertTrue(msg.startswith("<11>"), msg)  # LOG_USER | LOG_ERR
        self.assertIn(" agent-sentinel[", msg)
        self.assertEqual(d.close(), 0)

    def test_socket_appears_later(self):
        """syslogd not there yet: one error line, alerts wait, delivered when it binds."""
        sock = self.path("log")
        d = self.driver(["--syslog", sock])
        for i in range(3):
            d.send(f"emit 5 {alert(i)}")
        self.assertTrue(d.wait_stat("syslog", lambda s: s["queued"] == 3))
        rx = self.bind(sock)
        got = [rx.recv(65536).decode().split(": ", 1)[1] for _ in range(3)]
        self.assertEqual(got, [alert(i) for i in range(3)])
        self.assertEqual(d.close(), 0)
        errs = [l for l in d.diag() if "error" in l]
        self.assertEqual(len(errs), 1, d.diag())
        self.assertIn(sock, errs[0])
        self.assertTrue(any("delivering again" in l for l in d.diag()), d.diag())


def children_of(pid):
    kids = []
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open(f"/proc/{p}/stat") as f:
                st = f.read()
        except OSError:
            continue
        if int(st.rsplit(")", 1)[1].split()[1]) == pid:
            kids.append(int(p))
    return kids


class Program(Base):
    def test_keep_alive_one_child_restarted(self):
        out = self.path("prog.json")
        d = self.driver(["--program", f"cat >> {out}", "--program-keep-alive"])
        for i in range(3):
            d.send(f"emit 5 {alert(i)}")
        self.assertTrue(until(lambda: len(read_lines(out)) == 3), read_lines(out))
        kids = children_of(d.proc.pid)
        self.assertEqual(len(kids), 1, "one long-running child")
        for pid in children_of(kids[0]) + kids:  # sh and, if sh did not exec it, cat
            os.kill(pid, signal.SIGKILL)
        time.sleep(0.2)
        for i in range(3, 6):
            d.send(f"emit 5 {alert(i)}")
        self.assertTrue(until(lambda: len(read_lines(out)) == 6), read_lines(out))
        self.assertEqual(d.close(), 0)
        self.assertEqual(read_lines(out), [alert(i) for i in range(6)])
        self.assertEqual(children_of(d.proc.pid), [])
        # sh killed, or sh reporting its killed cat
        self.assertTrue(any(re.search(r"(killed by signal 9|exited with status 137); restarting it",
                                      l) for l in d.diag()), d.diag())

    def test_child_per_alert(self):
        out = self.path("prog.json")
        d = self.driver(["--program", f"cat >> {out}"])
        for i in range(3):
            d.send(f"emit 5 {alert(i)}")
        self.assertTrue(d.wait_stat("program", lambda s: s["emitted"] == 3))
        self.assertEqual(d.close(), 0)
        self.assertEqual(read_lines(out), [alert(i) for i in range(3)])
        self.assertNoDiag(d)


class JsonHandler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        n = int(self.headers.get("Content-Length", 0))
        body = self.rfile.read(n).decode()
        delay = self.server.delay
        if delay:
            time.sleep(delay)
        self.server.got.append((body, dict(self.headers)))
        code = self.server.status
        self.send_response(code)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *a):
        pass


class Server:
    """A Falcosidekick stand-in on 127.0.0.1 (any free port, or the given one)."""

    def __init__(self, port=0, delay=0.0, context=None, got=None):
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), JsonHandler)
        self.httpd.delay = delay
        self.httpd.status = 200
        self.httpd.got = got if got is not None else []
        if context:
            self.httpd.socket = context.wrap_socket(self.httpd.socket, server_side=True)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def got(self):
        return self.httpd.got

    def bodies(self):
        return [b for b, _ in self.httpd.got]

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join()


class Http(Base):
    def test_slow_down_back(self):
        q = 20
        srv = Server(delay=0.3)
        url = f"http://127.0.0.1:{srv.port}/"
        d = self.driver(["--http", url, "--queue", str(q), "--timeout-ms", "3000",
                         "--stdout"], capture_stdout=True)
        # slow: the producer is never held up, every alert arrives
        d.send("burst 5 5 slow")
        m = re.search(r"max_emit_us=(\d+)", d.answer("driver: burst 5"))
        self.assertLess(int(m.group(1)), 50000, "outputs_emit waited for the receiver")
        self.assertTrue(until(lambda: len(srv.got) == 5), srv.got)
        body, headers = srv.got[0]
        self.assertEqual(json.loads(body), {"burst": "slow", "seq": 0})
        self.assertEqual(headers.get("Content-Type"), "application/json")
        self.assertEqual(headers.get("User-Agent"), "agent-sentinel")
        self.assertTrue(d.wait_stat("http", lambda s: s["emitted"] == 5 and s["queued"] == 0))
        # down: alerts wait up to the bound, the excess is dropped and counted
        srv.stop()
        for i in range(q + 10):  # paced, so that only the dead receiver's queue overflows
            d.send(f"emit 5 {json.dumps({'burst': 'down', 'seq': i})}")
            d.send("sleep 5")
        s = d.wait_stat("http", lambda s: s["dropped"] == 10 and s["queued"] == q)
        self.assertTrue(s, d.stats())
        self.assertEqual(s["stdout"]["dropped"], 0, "a dead receiver must not hurt stdout")
        self.assertTrue(until(lambda: len(d.out_lines()) == 5 + q + 10))
        self.assertTrue(until(lambda: any("dropped" in l for l in d.diag())), d.diag())
        # back: the waiting alerts arrive, oldest first
        srv2 = Server(port=srv.port)
        self.assertTrue(until(lambda: len(srv2.got) == q), srv2.got)
        self.assertEqual([json.loads(b)["seq"] for b in srv2.bodies()], list(range(q)))
        s = d.wait_stat("http", lambda s: s["queued"] == 0)
        self.assertEqual((s["http"]["emitted"], s["http"]["dropped"], s["http"]["failed"]),
                         (5 + q, 10, 0))
        self.assertEqual(d.close(), 0)
        srv2.stop()
        diag = d.diag()
        self.assertEqual(len([l for l in diag if ": error: " in l]), 1, diag)
        self.assertTrue(any("delivering again" in l for l in diag), diag)
        # drop lines are rate-limited, so the 10 may be reported in several
        # lines (seen: 1, then 9); the last one carries the running total
        drop = [l for l in diag if "dropped" in l]
        self.assertTrue(drop and "(10 in all)" in drop[-1], diag)
        self.assertEqual(sum(int(re.search(r"(\d+) alerts dropped", l).group(1)) for l in drop),
                         10, diag)
        self.assertIn("last rule 'driver rule'", drop[-1])

    def test_text_content_type_and_user_agent(self):
        srv = Server()
        d = self.driver(["--http", f"http://127.0.0.1:{srv.port}/x", "--text",
                         "--user-agent", "falcosecurity/falco"])
        d.send("emit 5 12:00:00.000000000: Warning hello")
        self.assertTrue(until(lambda: srv.got))
        self.assertEqual(d.close(), 0)
        body, headers = srv.got[0]
        self.assertEqual(body, "12:00:00.000000000: Warning hello")
        self.assertEqual(headers["Content-Type"], "text/plain")
        self.assertEqual(headers["User-Agent"], "falcosecurity/falco")
        srv.stop()

    def test_server_errors_retried_then_failed(self):
        srv = Server()
        srv.httpd.status = 503
        d = self.driver(["--http", f"http://127.0.0.1:{srv.port}/", "--retries", "2"])
        d.send(f"emit 5 {alert(0)}")
        self.assertTrue(d.wait_stat("http", lambda s: s["failed"] == 1))
        self.assertEqual(len(srv.got), 3, "one try and two retries")
        srv.httpd.status = 400  # refused: not retried
        d.send(f"emit 5 {alert(1)}")
        self.assertTrue(d.wait_stat("http", lambda s: s["failed"] == 2))
        self.assertEqual(len(srv.got), 4)
        srv.httpd.status = 200
        d.send(f"emit 5 {alert(2)}")
        self.assertTrue(d.wait_stat("http", lambda s: s["emitted"] == 1))
        self.assertEqual(d.close(), 0)
        self.assertTrue(any("HTTP status 503" in l for l in d.diag()), d.diag())
        srv.stop()


def openssl(*args, cwd):
    subprocess.run([OPENSSL] + list(args), cwd=cwd, check=True, capture_output=True)


class Https(Base):
    def setUp(self):
        super().setUp()
        c = self.tmp
        ext = self.path("ext.cnf")
        with open(ext, "w") as f:
            f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
                "/CN=outputs test CA", "-keyout", "ca.key", "-out", "ca.pem", cwd=c)
        for name in ("server", "client"):
            openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", f"/CN={name}",
                    "-keyout", f"{name}.key", "-out", f"{name}.csr", cwd=c)
            openssl("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                    "-CAcreateserial", "-days", "2", "-extfile", ext, "-out", f"{name}.pem",
                    cwd=c)

    def server(self, mtls=False):
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(self.path("server.pem"), self.path("server.key"))
        if mtls:
            ctx.verify_mode = ssl.CERT_REQUIRED
            ctx.load_verify_locations(self.path("ca.pem"))
        srv = Server(context=ctx)
        self.addCleanup(srv.stop)
        return srv

    def post(self, srv, extra):
        d = self.driver(["--http", f"https://127.0.0.1:{srv.port}/", "--retries", "0",
                         "--timeout-ms", "3000"] + extra)
        d.send(f"emit 5 {alert(7)}")
        s = d.wait_stat("http", lambda s: s["emitted"] + s["failed"] == 1)
        self.assertEqual(d.close(), 0)
        return s["http"], d.diag()

    def test_verification_fails_without_ca(self):
        srv = self.server()
        st, diag = self.post(srv, [])
        self.assertEqual(st["failed"], 1)
        self.assertEqual(srv.got, [])
        self.assertEqual(len(diag), 1, diag)
        self.assertRegex(diag[0], r"certificate", diag)

    def test_ca_cert(self):
        srv = self.server()
        st, diag = self.post(srv, ["--ca-cert", self.path("ca.pem")])
        self.assertEqual(st["emitted"], 1, diag)
        self.assertEqual(srv.bodies(), [alert(7)])

    def test_ca_path(self):
        cadir = self.path("cadir")
        os.mkdir(cadir)
        shutil.copy(self.path("ca.pem"), cadir)
        openssl("rehash", cadir, cwd=self.tmp)
        srv = self.server()
        st, diag = self.post(srv, ["--ca-path", cadir])
        self.assertEqual(st["emitted"], 1, diag)

    def test_insecure(self):
        srv = self.server()
        st, diag = self.post(srv, ["--insecure"])
        self.assertEqual(st["emitted"], 1, diag)

    def test_mtls(self):
        srv = self.server(mtls=True)
        st, diag = self.post(srv, ["--ca-cert", self.path("ca.pem")])
        self.assertEqual(st["failed"], 1, "no client certificate: refused")
        st, diag = self.post(srv, ["--ca-cert", self.path("ca.pem"),
                                   "--client-cert", self.path("client.pem"),
                                   "--client-key", self.path("client.key")])
        self.assertEqual(st["emitted"], 1, diag)
        self.assertEqual(srv.bodies(), [alert(7)])


class BadInput(Base):
    def open_fails(self, args, pattern):
        d = Driver(args)
        self.drivers.append(d)
        self.assertEqual(d.close(), 2)
        diag = d.diag()
        self.assertEqual(len(diag), 1, diag)
        self.assertRegex(diag[0], pattern)

    def test_bad_configuration_fails_open(self):
        self.open_fails(["--http", "ftp://127.0.0.1/"], r"output http: .*scheme must be http")
        self.open_fails(["--http", "http://[::1"], r"output http: http_output.url")
        self.open_fails(["--http", "https://127.0.0.1/", "--ca-cert", self.path("nope.pem")],
                        r"http_output.ca_cert .*nope.pem.*No such file")
        self.open_fails(["--http", "https://127.0.0.1/", "--client-cert", "/etc/hostname"],
                        r"client_cert and client_key go together")
        self.open_fails(["--file", ""], r"file_output.filename is not set")
        self.open_fails(["--syslog", "/x" * 80], r"syslog socket path longer")
        self.open_fails(["--stdout", "--syslog", self.path("log"), "--tag", "a b"],
                        r"syslog tag")

    def test_unreachable_url(self):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()  # nothing listens there now
        d = self.driver(["--http", f"http://127.0.0.1:{port}/", "--stdout", "--queue", "5",
                         "--close-timeout", "300"], capture_stdout=True)
        for i in range(8):
            d.send(f"emit 5 {alert(i)}")
            time.sleep(0.1)
        self.assertTrue(until(lambda: len(d.out_lines()) == 8), "stdout must keep working")
        self.assertTrue(d.wait_stat("http", lambda s: s["queued"] == 5 and s["dropped"] == 3))
        self.assertEqual(d.close(), 0)
        errs = [l for l in d.diag() if ": error: " in l]
        self.assertEqual(len(errs), 1, d.diag())
        self.assertRegex(errs[0], rf"output http: POST http://127.0.0.1:{port}/: .*connect")
        self.assertTrue(any("5 alerts not delivered at exit" in l for l in d.diag()), d.diag())

    def test_unwritable_file(self):
        """The file cannot be opened: one error line, stdout goes on, the alerts
        wait and reach the file once it can be written."""
        blocker = self.path("dir")
        os.mkdir(blocker)
        f = os.path.join(blocker, "alerts.json")
        ro = False
        if os.geteuid() == 0:
            ro = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", blocker],
                                capture_output=True).returncode == 0
            if not ro:  # no mount allowed here: a directory where the file should be
                os.mkdir(f)
        else:
            os.chmod(blocker, 0o500)
        try:
            d = self.driver(["--file", f, "--file-keep-alive", "--stdout"], capture_stdout=True)
            for i in range(3):
                d.send(f"emit 5 {alert(i)}")
            self.assertTrue(until(lambda: len(d.out_lines()) == 3))
            self.assertTrue(d.wait_stat("file", lambda s: s["queued"] == 3))
        finally:
            if ro:
                subprocess.run(["umount", blocker], check=True)
            elif os.geteuid() == 0:
                os.rmdir(f)
            else:
                os.chmod(blocker, 0o700)
        self.assertTrue(until(lambda: len(read_lines(f)) == 3), "alerts never reached the file")
        self.assertEqual(d.close(), 0)
        self.assertEqual(read_lines(f), [alert(i) for i in range(3)])
        errs = [l for l in d.diag() if ": error: " in l]
        self.assertEqual(len(errs), 1, d.diag())
        self.assertIn(f"output file: open {f}: ", errs[0])

    def test_missing_program(self):
        d = self.driver(["--program", "no-such-program-4242 --flag", "--program-keep-alive",
                         "--stdout", "--close-timeout", "300"], capture_stdout=True)
        d.send(f"emit 5 {alert(0)}")
        self.assertTrue(until(lambda: d.out_lines() == [alert(0)]), "stdout must keep working")
        self.assertTrue(d.wait_stat("program", lambda s: s["queued"] == 1))
        self.assertEqual(d.close(), 0)
        errs = [l for l in d.diag() if ": error: " in l]
        self.assertEqual(len(errs), 1, d.diag())
        self.assertIn("program 'no-such-program-4242': not found in PATH", errs[0])

    def test_closed_stdout_does_not_kill(self):
        """SIGPIPE from a vanished stdout reader comes back as an error line."""
        f = self.path("alerts.json")
        r, w = os.pipe()
        os.close(r)  # the reader is gone before the first alert
        d = Driver(["--stdout", "--file", f], stdout=w)
        os.close(w)
        self.drivers.append(d)
        self.assertTrue(d.answer("driver: open"))
        for i in range(3):
            d.send(f"emit 5 {alert(i)}")
        self.assertTrue(until(lambda: len(read_lines(f)) == 3))
        self.assertEqual(d.close(), 0)
        self.assertTrue(any("write to stdout: Broken pipe" in l for l in d.diag()), d.diag())


if __name__ == "__main__":
    groups = sys.argv[1:]
    loader = unittest.TestLoader()
    if groups:
        suite = unittest.TestSuite(loader.loadTestsFromTestCase(globals()[g]) for g in groups)
    else:
        suite = loader.loadTestsFromModule(sys.modules[__name__])
    res = unittest.TextTestRunner(verbosity=2).run(suite)
    sys.exit(0 if res.wasSuccessful() else 1)
