#!/usr/bin/env python3
"""agent-egress against real clients and servers (run as root).

The proxy runs in a mount namespace of its own with a test hosts file bound
over /etc/hosts, so that names resolve (through glibc, as in production) to
loopback servers the test starts: an HTTPS server with a certificate from a
CA made here with openssl, a plain HTTP server that echoes the head it
received, and a TCP echo server. The Sandbox group runs real curl and
python3 inside agent-bwrap.

Environment (set by tests/egress/CMakeLists.txt):
  AGENT_EGRESS  the agent-egress binary
  AGENT_BWRAP   the agent-bwrap binary
  SOURCE_DIR    the source tree (for packaging/seccomp/agent.json)

Run one group: python3 test_egress.py BadInput   (or no argument for all).
"""
import http.server
import json
import os
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

EGRESS = os.environ.get("AGENT_EGRESS", "")
AGENT_BWRAP = os.environ.get("AGENT_BWRAP", "")
SOURCE_DIR = os.environ.get("SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
PROFILE = os.path.join(SOURCE_DIR, "packaging", "seccomp", "agent.json")
TIMEOUT = 60  # seconds for anything that should take milliseconds
HEAD_MAX = 8192  # EGRESS_HEAD_MAX (user/egress/http.h)
PER_SESSION_DEFAULT = 64  # EGRESS_PER_SESSION_DEFAULT (user/egress/config.h)
EXIT_USAGE = 2

HOSTS = """127.0.0.1 localhost
127.0.0.1 good.test other.test lo.test a.b.suffix.test suffix.test xsuffix.test
127.0.0.2 dflt.test
10.1.2.3 private.test
169.254.169.254 meta.test
169.254.7.7 link.test
::1 v6lo.test
"""


def free_port(host="127.0.0.1"):
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


class Pki:
    """A CA and a server certificate for good.test and *.suffix.test, made with openssl."""

    def __init__(self, d):
        self.ca, self.key, self.cert = (os.path.join(d, n) for n in ("ca.pem", "srv.key", "srv.pem"))
        ca_key, csr, ext = (os.path.join(d, n) for n in ("ca.key", "srv.csr", "ext.cnf"))
        ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        run = lambda *a: subprocess.run(["openssl", *a], check=True, capture_output=True)
        run("req", "-x509", *ec, "-keyout", ca_key, "-out", self.ca, "-days", "2",
            "-subj", "/CN=agent-egress test CA")
        run("req", *ec, "-keyout", self.key, "-out", csr, "-subj", "/CN=good.test")
        with open(ext, "w") as f:
            f.write("subjectAltName=DNS:good.test,DNS:a.b.suffix.test,DNS:dflt.test\n")
        run("x509", "-req", "-in", csr, "-CA", self.ca, "-CAkey", ca_key, "-CAcreateserial",
            "-out", self.cert, "-days", "2", "-extfile", ext)


class Handler(http.server.BaseHTTPRequestHandler):
    """GET /big?N: N bytes; anything else: the request head as received."""
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        if self.path.startswith("/big?"):
            body = b"x" * int(self.path[5:])
        else:
            body = (self.requestline + "\r\n" + str(self.headers)).encode()
            if self.server.tls:
                body = b"hello-tls\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a):
        pass


def serve_http(host, port, tls_ctx=None):
    srv = http.server.ThreadingHTTPServer((host, port), Handler)
    srv.daemon_threads = True
    srv.tls = tls_ctx is not None
    if tls_ctx:
        srv.socket = tls_ctx.wrap_socket(srv.socket, server_side=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def serve_echo():
    """A TCP echo server on loopback; returns (socket, port)."""
    lsock = socket.socket()
    lsock.bind(("127.0.0.1", 0))
    lsock.listen(64)

    def one(c):
        with c:
            while True:
                b = c.recv(65536)
                if not b:
                    return
                c.sendall(b)

    def loop():
        while True:
            try:
                c, _ = lsock.accept()
            except OSError:
                return
            threading.Thread(target=one, args=(c,), daemon=True).start()

    threading.Thread(target=loop, daemon=True).start()
    return lsock, lsock.getsockname()[1]


class Proxy:
    """agent-egress in its own mount namespace (test hosts file), stdout parsed as it comes."""

    def __init__(self, tmp, config, args=()):
        self.sock = os.path.join(tmp, "egress.sock")
        self.config = os.path.join(tmp, "egress.yaml")
        hosts = os.path.join(tmp, "hosts")
        with open(hosts, "w") as f:
            f.write(HOSTS)
        with open(self.config, "w") as f:
            f.write(config)
        self.alerts, self.stderr = [], []
        self.cond = threading.Condition()
        self.p = subprocess.Popen(
            ["unshare", "-m", "sh", "-c", 'mount --bind "$0" /etc/hosts && exec "$@"', hosts,
             EGRESS, "--socket", self.sock, "--config", self.config, *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        threading.Thread(target=self._read, args=(self.p.stdout, self.alerts, True),
                         daemon=True).start()
        threading.Thread(target=self._read, args=(self.p.stderr, self.stderr, False),
                         daemon=True).start()
        self.wait_stderr("listening on")

    def _read(self, f, into, is_json):
        for line in f:
            with self.cond:
                into.append(json.loads(line) if is_json else line.rstrip("\n"))
                self.cond.notify_all()

    def wait_stderr(self, text, start=0):
        with self.cond:
            ok = self.cond.wait_for(lambda: any(text in l for l in self.stderr[start:])
                                    or self.p.poll() is not None, TIMEOUT)
        assert ok and any(text in l for l in self.stderr[start:]), (text, self.stderr)

    def wait_alerts(self, n, start=0):
        """The alerts from index start on, once there are at least n of them."""
        with self.cond:
            self.cond.wait_for(lambda: len(self.alerts) - start >= n, TIMEOUT)
            return list(self.alerts[start:])

    def connect(self):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(TIMEOUT)
        s.connect(self.sock)
        return s

    def ask(self, head):
        """Send a head, return the proxy's whole answer (it closes after refusing)."""
        with self.connect() as s:
            s.sendall(head)
            return recv_all(s)

    def reload(self, config):
        with open(self.config, "w") as f:
            f.write(config)
        mark = len(self.stderr)
        self.p.send_signal(signal.SIGHUP)
        return mark

    def stop(self):
        self.p.send_signal(signal.SIGTERM)
        try:
            rc = self.p.wait(TIMEOUT)
        finally:
            self.p.stdout.close()
            self.p.stderr.close()
        return rc


def recv_all(s):
    out = b""
    while True:
        b = s.recv(65536)
        if not b:
            return out
        out += b


def recv_head(s):
    out = b""
    while b"\r\n\r\n" not in out:
        b = s.recv(1)
        if not b:
            break
        out += b
    return out


class Base(unittest.TestCase):
    CONFIG = ""  # format()ed with the ports below

    @classmethod
    def setUpClass(cls):
        assert os.geteuid() == 0, "these tests need root (mount namespace, bubblewrap)"
        assert os.access(EGRESS, os.X_OK), f"AGENT_EGRESS={EGRESS!r}"
        cls.tmp = tempfile.mkdtemp(prefix="agent-egress-test.")
        cls.pki = Pki(cls.tmp)
        ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ctx.load_cert_chain(cls.pki.cert, cls.pki.key)
        cls.https_port = free_port()
        cls.https = serve_http("127.0.0.1", cls.https_port, ctx)
        cls.http_port = free_port()
        cls.http = serve_http("127.0.0.1", cls.http_port)
        cls.echo, cls.echo_port = serve_echo()
        cls.other_port = free_port()  # nothing listens there
        cls.proxy = Proxy(cls.tmp, cls.CONFIG.format(
            https=cls.https_port, http=cls.http_port, echo=cls.echo_port, other=cls.other_port))

    @classmethod
    def tearDownClass(cls):
        rc = cls.proxy.stop()
        cls.https.shutdown()
        cls.http.shutdown()
        cls.echo.close()
        shutil.rmtree(cls.tmp, ignore_errors=True)
        assert rc == 0, (rc, cls.proxy.stderr)

    def tearDown(self):
        # the Allowed line of a connection comes when the proxy sees it end, which
        # may be after the test returned: let it land before the next test's mark
        n = -1
        while n != len(self.proxy.alerts):
            n = len(self.proxy.alerts)
            time.sleep(0.3)

    def client_ctx(self):
        return ssl.create_default_context(cafile=self.pki.ca)

    def denied(self, head, status, reason, prio="Warning"):
        """head is refused with status; exactly one Denied line, whose reason contains reason."""
        mark = len(self.proxy.alerts)
        answer = self.proxy.ask(head)
        self.assertTrue(answer.startswith(f"HTTP/1.1 {status} ".encode()), answer)
        self.assertIn(reason.encode(), answer)
        # (the Allowed lines of earlier tests' connections may come in between)
        is_denied = lambda: [a for a in self.proxy.alerts[mark:] if a["rule"] != "Agent Egress Allowed"]
        with self.proxy.cond:
            self.proxy.cond.wait_for(is_denied, TIMEOUT)
        time.sleep(0.05)
        alerts = is_denied()
        self.assertEqual(len(alerts), 1, alerts)
        a = alerts[0]
        self.assertEqual(a["rule"], "Agent Egress Denied")
        self.assertEqual(a["priority"], prio)
        self.assertEqual(a["source"], "agent-egress")
        self.assertIn(reason, a["output_fields"]["egress.reason"])
        return a


STANDARD = """# the test's allowlist
allow:
  - good.test:{https}
  - good.test:{http}
  - good.test:{echo}
  - "*.suffix.test:{https}"
  - lo.test:{other}
  - private.test
  - meta.test:80
  - link.test:443
  - v6lo.test:{other}
  - dflt.test
  - 127.0.0.1/32:{https}
  - 127.0.0.1:{http}
  - 127.0.0.1:{echo}
  - 127.0.0.2
connections_per_session: 64
connect_timeout_ms: 5000
"""


class Allow(Base):
    CONFIG = STANDARD

    def tunnel(self, host, port):
        s = self.proxy.connect()
        s.sendall(f"CONNECT {host}:{port} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
        head = recv_head(s)
        self.assertEqual(head, b"HTTP/1.1 200 Connection established\r\n\r\n")
        return s

    def https_get(self, host, port):
        with self.client_ctx().wrap_socket(self.tunnel(host, port), server_hostname=host) as t:
            t.sendall(f"GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
            return recv_all(t)

    def test_connect_tls_end_to_end(self):
        mark = len(self.proxy.alerts)
        answer = self.https_get("good.test", self.https_port)
        self.assertTrue(answer.startswith(b"HTTP/1.1 200"), answer)
        self.assertTrue(answer.endswith(b"hello-tls\n"), answer)
        a = self.proxy.wait_alerts(1, mark)[0]
        f = a["output_fields"]
        self.assertEqual((a["rule"], a["priority"]), ("Agent Egress Allowed", "Informational"))
        self.assertEqual((f["egress.host"], f["egress.port"], f["egress.address"]),
                         ("good.test", self.https_port, "127.0.0.1"))
        self.assertEqual(f["egress.reason"], f"allowed by good.test:{self.https_port}")
        self.assertEqual(f["egress.error"], "")
        self.assertGreater(f["egress.bytes_in"], len(b"hello-tls\n"))
        self.assertGreater(f["egress.bytes_out"], 0)

    def test_bytes_and_duration_exact(self):
        mark = len(self.proxy.alerts)
        s = self.tunnel("good.test", self.echo_port)
        payload = os.urandom(100000)
        s.sendall(payload)
        got = b""
        while len(got) < len(payload):
            got += s.recv(65536)
        self.assertEqual(got, payload)
        time.sleep(0.3)
        s.shutdown(socket.SHUT_WR)
        self.assertEqual(recv_all(s), b"")
        s.close()
        f = self.proxy.wait_alerts(1, mark)[0]["output_fields"]
        self.assertEqual((f["egress.bytes_out"], f["egress.bytes_in"]), (100000, 100000))
        self.assertGreaterEqual(f["egress.duration_ms"], 300)

    def test_plain_http_rewritten(self):
        mark = len(self.proxy.alerts)
        answer = self.proxy.ask(
            f"GET http://good.test:{self.http_port}/path?q=1 HTTP/1.1\r\n"
            f"Host: good.test:{self.http_port}\r\nProxy-Connection: keep-alive\r\n"
            "Proxy-Authorization: Basic eDp5\r\nX-Kept: yes\r\nConnection: keep-alive\r\n"
            "\r\n".encode())
        head, _, body = answer.partition(b"\r\n\r\n")
        self.assertTrue(head.startswith(b"HTTP/1.1 200"), answer)
        lines = body.decode().splitlines()
        self.assertEqual(lines[0], "GET /path?q=1 HTTP/1.1")
        self.assertIn(f"Host: good.test:{self.http_port}", lines)
        self.assertIn("X-Kept: yes", lines)
        self.assertIn("Connection: close", lines)
        self.assertFalse([l for l in lines if l.lower().startswith("proxy-")], lines)
        f = self.proxy.wait_alerts(1, mark)[0]["output_fields"]
        self.assertEqual((f["egress.host"], f["egress.port"]), ("good.test", self.http_port))

    def test_plain_http_host_added_and_default_port(self):
        # no Host header: the proxy adds it; an http:// URI without port is port 80
        answer = self.proxy.ask(f"GET http://good.test:{self.http_port} HTTP/1.0\r\n\r\n".encode())
        self.assertIn(f"GET / HTTP/1.1\r\nHost: good.test:{self.http_port}".encode(), answer)
        self.denied(b"GET http://good.test/ HTTP/1.1\r\n\r\n", 403,
                    "good.test:80 not in the allowlist")

    def test_not_allowlisted(self):
        self.denied(b"CONNECT evil.test:443 HTTP/1.1\r\n\r\n", 403,
                    "evil.test:443 not in the allowlist")
        # the port is part of the entry
        self.denied(f"CONNECT good.test:{self.other_port} HTTP/1.1\r\n\r\n".encode(), 403,
                    f"good.test:{self.other_port} not in the allowlist")

    def test_default_port_443(self):
        # "dflt.test" and "127.0.0.2" carry no port: 443. A TLS server on 127.0.0.2:443.
        ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ctx.load_cert_chain(self.pki.cert, self.pki.key)
        srv = serve_http("127.0.0.2", 443, ctx)
        try:
            self.assertTrue(self.https_get("dflt.test", 443).endswith(b"hello-tls\n"))
        finally:
            srv.shutdown()
            srv.server_close()
        self.denied(b"CONNECT dflt.test:8443 HTTP/1.1\r\n\r\n", 403,
                    "dflt.test:8443 not in the allowlist")

    def test_suffix_entry(self):
        self.assertTrue(self.https_get("a.b.suffix.test", self.https_port).endswith(b"hello-tls\n"))
        for host in ("suffix.test", "xsuffix.test"):
            with self.subTest(host=host):
                self.denied(f"CONNECT {host}:{self.https_port} HTTP/1.1\r\n\r\n".encode(), 403,
                            f"{host}:{self.https_port} not in the allowlist")

    def test_case_and_trailing_dot(self):
        self.tunnel("GOOD.Test.", self.https_port).close()

    def test_ip_literals(self):
        # allowed only where a range entry names them
        self.tunnel("127.0.0.1", self.https_port).close()
        self.denied(f"CONNECT 127.0.0.1:{self.other_port} HTTP/1.1\r\n\r\n".encode(), 403,
                    f"IP literal 127.0.0.1:{self.other_port} not in the allowlist", "Error")
        self.denied(f"CONNECT [::1]:{self.other_port} HTTP/1.1\r\n\r\n".encode(), 403,
                    f"IP literal ::1:{self.other_port} not in the allowlist", "Error")
        self.denied(b"GET http://10.0.0.1/ HTTP/1.1\r\n\r\n", 403,
                    "IP literal 10.0.0.1:80 not in the allowlist", "Error")

    def test_special_ranges(self):
        # allowed names, refused for where they resolve to
        cases = [
            (f"lo.test:{self.other_port}", "lo.test resolves to loopback address 127.0.0.1", "Error"),
            (f"v6lo.test:{self.other_port}", "v6lo.test resolves to loopback address ::1", "Error"),
            ("private.test:443", "private.test resolves to private address 10.1.2.3", "Error"),
            ("meta.test:80", "meta.test resolves to metadata address 169.254.169.254", "Critical"),
            ("link.test:443", "link.test resolves to link-local address 169.254.7.7", "Error"),
        ]
        for target, reason, prio in cases:
            with self.subTest(target=target):
                a = self.denied(f"CONNECT {target} HTTP/1.1\r\n\r\n".encode(), 403, reason, prio)
                self.assertEqual(a["output_fields"]["egress.address"], reason.split()[-1])

    def test_peer_fields(self):
        # a client process of its own, in an agent session: pid, name, session, cgroup from /proc
        mark = len(self.proxy.alerts)
        code = ("import socket,sys,os; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); "
                "s.sendall(b'CONNECT evil.test:443 HTTP/1.1\\r\\n\\r\\n'); s.recv(4096); "
                "print(os.getpid())")
        r = subprocess.run([sys.executable, "-c", code, self.proxy.sock], capture_output=True,
                           text=True, timeout=TIMEOUT,
                           env=dict(os.environ, AGENT_SESSION_ID="peer-session-1"))
        self.assertEqual(r.returncode, 0, r.stderr)
        f = self.proxy.wait_alerts(1, mark)[0]["output_fields"]
        self.assertEqual(f["proc.pid"], int(r.stdout))
        self.assertEqual(f["agent.session"], "peer-session-1")
        self.assertEqual(f["proc.exe"], os.path.realpath(sys.executable))
        with open("/proc/self/cgroup") as cg:
            v2 = [l.split("::", 1)[1].strip() for l in cg if l.startswith("0::")]
        if v2:
            self.assertEqual(f["proc.cgroup"], v2[0])
        self.assertEqual(f["user.uid"], 0)

    def test_slow_client_does_not_stall_others(self):
        # one client asks for 20 MB and reads none of it; others are served meanwhile
        slow = self.proxy.connect()
        slow.sendall(f"GET http://good.test:{self.http_port}/big?{20 << 20} HTTP/1.1\r\n"
                     f"Host: good.test\r\n\r\n".encode())
        time.sleep(0.5)
        for i in range(20):
            answer = self.proxy.ask(f"GET http://good.test:{self.http_port}/n{i} HTTP/1.1\r\n"
                                    "\r\n".encode())
            self.assertIn(f"GET /n{i} HTTP/1.1".encode(), answer)
        with slow:
            self.assertEqual(len(recv_all(slow).partition(b"\r\n\r\n")[2]), 20 << 20)


class BadInput(Base):
    CONFIG = STANDARD + "idle_timeout_ms: 1000\n"

    def test_malformed_requests(self):
        cases = [
            (b"GARBAGE\r\n\r\n", "malformed request line"),
            (b"GET  http://good.test/ HTTP/1.1\r\n\r\n", "malformed request line"),
            (b"G(T http://good.test/ HTTP/1.1\r\n\r\n", "malformed request line"),
            (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", "malformed request line"),
            (b"GET / HTTP/1.1\r\nHost: good.test\r\n\r\n", "target is not an absolute http:// URI"),
            (b"GET https://good.test/ HTTP/1.1\r\n\r\n", "https:// target: use CONNECT"),
            (b"CONNECT good.test:443 HTTP/2.0\r\n\r\n", "not an HTTP/1.0 or HTTP/1.1 request line"),
            (b"CONNECT good.test:443 HTTP/1.1 x\r\n\r\n", "not an HTTP/1.0 or HTTP/1.1 request line"),
            (b"CONNECT good.test HTTP/1.1\r\n\r\n", "CONNECT target without a port"),
            (b"CONNECT good.test:99999 HTTP/1.1\r\n\r\n", "port in the target is not 1-65535"),
            (b"CONNECT good.test:0 HTTP/1.1\r\n\r\n", "port in the target is not 1-65535"),
            (b"CONNECT good.test: HTTP/1.1\r\n\r\n", "port in the target is not 1-65535"),
            (b"CONNECT :443 HTTP/1.1\r\n\r\n", "no host in the target"),
            (b"CONNECT user@good.test:443 HTTP/1.1\r\n\r\n", "user information in the target"),
            (b"CONNECT [::1:443 HTTP/1.1\r\n\r\n", "unbalanced [ in the target"),
            (b"CONNECT good.test$:443 HTTP/1.1\r\n\r\n", "character 0x24 in the host"),
            (b"GET http://good.test/ HTTP/1.1\r\nNoColon\r\n\r\n", "header line without a name and colon"),
            (b"GET http://good.test/ HTTP/1.1\r\nBad Name: x\r\n\r\n", "header name with character 0x20"),
            (b"GET http://good.test/ HTTP/1.1\r\nX: a\x01b\r\n\r\n", "control character in a header value"),
            (b"CONNECT " + b"a" * 300 + b".test:443 HTTP/1.1\r\n\r\n", "too long a host in the target"),
        ]
        for head, reason in cases:
            with self.subTest(head=head[:40]):
                self.denied(head, 400, reason)

    def test_oversized_head(self):
        big = b"GET http://good.test/ HTTP/1.1\r\nX-Pad: " + b"a" * HEAD_MAX + b"\r\n\r\n"
        self.denied(big, 431, f"request head longer than {HEAD_MAX} bytes")
        # still too long without ever reaching a blank line
        self.denied(b"GET http://good.test/ HTTP/1.1\r\nX: " + b"b" * (2 * HEAD_MAX), 431,
                    f"request head longer than {HEAD_MAX} bytes")

    def test_idle_client(self):
        for sent in (b"", b"CONNECT good.test:4"):
            with self.subTest(sent=sent):
                mark = len(self.proxy.alerts)
                with self.proxy.connect() as s:
                    s.sendall(sent)
                    answer = recv_all(s)  # the proxy gives up on its own
                self.assertTrue(answer.startswith(b"HTTP/1.1 408 "), answer)
                a = self.proxy.wait_alerts(1, mark)[0]
                self.assertEqual(a["output_fields"]["egress.reason"],
                                 "no complete request head within 1000 ms")

    def test_client_gone_mid_head(self):
        mark = len(self.proxy.alerts)
        with self.proxy.connect() as s:
            s.sendall(b"CONNECT good.te")
        a = self.proxy.wait_alerts(1, mark)[0]
        self.assertEqual(a["output_fields"]["egress.reason"],
                         "client closed before the request head was complete")

    def test_bad_configuration(self):
        cases = [
            ("allow: [good.test:0]\n", '1:9: allow: "good.test:0": port "0" is not 1-65535'),
            ("allow:\n  - ok.test\n  - 'bad name'\n", '3:5: allow: "bad name": "bad name" is not a host name (wildcards only as "*.suffix")'),
            ("allow: ['*bad*']\n", '1:9: allow: "*bad*": "*bad*" is not a host name (wildcards only as "*.suffix")'),
            ("allow: ['[::1']\n", '1:9: allow: "[::1": unbalanced [ ] around an IPv6 address'),
            ("allow: [10.0.0.0/33]\n", '1:9: allow: "10.0.0.0/33": "10.0.0.0/33" is not an address range'),
            ("allow: [[a]]\n", "1:9: allow: an entry must be a string"),
            ("allow: good.test\n", "1:8: allow: expected a list of HOST[:PORT] entries"),
            ("alow: [good.test]\n", '1:1: unknown key "alow"'),
            ("- good.test\n", "1:1: expected a mapping of configuration keys"),
            ("connections_total: -1\n", "1:20: connections_total: expected a whole number from 1 to 100000000"),
            ("idle_timeout_ms: soon\n", "1:18: idle_timeout_ms: expected a whole number from 1 to 100000000"),
            ("allow: [good.test\n", "2:1: invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence on line 1)"),
        ]
        for text, message in cases:
            with self.subTest(text=text):
                path = os.path.join(self.tmp, "bad.yaml")
                with open(path, "w") as f:
                    f.write(text)
                r = subprocess.run([EGRESS, "--config", path, "--check"], capture_output=True,
                                   text=True, timeout=TIMEOUT)
                self.assertEqual(r.returncode, EXIT_USAGE, r.stderr)
                self.assertEqual(r.stderr.splitlines(), [f"agent-egress: {path}:{message}"])
                self.assertEqual(r.stdout, "")

    def test_bad_command_line(self):
        cases = [
            (["--allow", "good.test:70000"], 'agent-egress: --allow good.test:70000: port "70000" is not 1-65535'),
            (["--allow", ""], "agent-egress: --allow : empty entry"),
            (["--frobnicate"], "agent-egress: unknown or incomplete option --frobnicate (see --help)"),
            (["--config"], "agent-egress: unknown or incomplete option --config (see --help)"),
            (["stray"], "agent-egress: unexpected argument stray (see --help)"),
            (["--config", "/nonexistent.yaml"], "agent-egress: /nonexistent.yaml: cannot open: No such file or directory"),
        ]
        for args, message in cases:
            with self.subTest(args=args):
                r = subprocess.run([EGRESS, "--check", *args], capture_output=True, text=True,
                                   timeout=TIMEOUT)
                self.assertEqual(r.returncode, EXIT_USAGE, r.stderr)
                self.assertEqual(r.stderr.splitlines(), [message])

    def test_socket_in_use(self):
        r = subprocess.run([EGRESS, "--socket", self.proxy.sock, "--allow", "good.test"],
                           capture_output=True, text=True, timeout=TIMEOUT)
        self.assertEqual(r.returncode, 1)
        self.assertIn(f"agent-egress: socket {self.proxy.sock}: another proxy is listening on it",
                      r.stderr.splitlines())


FLOOD = """# the flood client holds at most 64 and the proxy 80 in all
allow: [good.test:{https}, 127.0.0.1/32:{https}]
connections_total: 80
"""


class Limits(Base):
    CONFIG = FLOOD

    def flood(self, session, n, refused):
        """A client process in session opens n connections and, once the proxy has
        written its lines for the refused ones, reports which got an answer."""
        code = r"""
import socket, sys, json
socks = []
for _ in range(int(sys.argv[2])):
    s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); socks.append(s)
print("connected"); sys.stdout.flush()
sys.stdin.readline()  # the test has seen the proxy's lines for the refused ones
answered = []
for s in socks:
    s.setblocking(False)
    try:
        answered.append(s.recv(200).decode().split("\r\n")[0])
    except BlockingIOError:
        answered.append(None)
print(json.dumps(answered)); sys.stdout.flush()
sys.stdin.readline()
"""
        mark = len(self.proxy.alerts)
        p = subprocess.Popen([sys.executable, "-c", code, self.proxy.sock, str(n)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                             env=dict(os.environ, AGENT_SESSION_ID=session))
        self.assertEqual(p.stdout.readline(), "connected\n")
        # the proxy answers a refusal before it writes the line: once the lines
        # are in, the refused connections hold their answers
        self.proxy.wait_alerts(refused, mark)
        time.sleep(0.2)
        p.stdin.write("check\n")
        p.stdin.flush()
        return p, json.loads(p.stdout.readline())

    def test_1000_connections_one_session(self):
        mark = len(self.proxy.alerts)
        p, answered = self.flood("flood-1", 1000, 1000 - PER_SESSION_DEFAULT)
        try:
            open_ = [a for a in answered if a is None]
            self.assertEqual(len(open_), PER_SESSION_DEFAULT)
            self.assertEqual(answered[:PER_SESSION_DEFAULT], [None] * PER_SESSION_DEFAULT)
            self.assertEqual(set(answered[PER_SESSION_DEFAULT:]), {"HTTP/1.1 429 Too Many Requests"})
            alerts = self.proxy.wait_alerts(1000 - PER_SESSION_DEFAULT, mark)
            self.assertEqual(len(alerts), 1000 - PER_SESSION_DEFAULT)
            self.assertEqual({a["output_fields"]["egress.reason"] for a in alerts},
                             {f"session connection limit reached ({PER_SESSION_DEFAULT})"})
            self.assertEqual({a["output_fields"]["agent.session"] for a in alerts}, {"flood-1"})
            # another session is not held back by this one, up to the total of 80
            p2, answered2 = self.flood("flood-2", 20, 4)
            p2.communicate("\n", timeout=TIMEOUT)
            self.assertEqual(answered2[:16], [None] * 16)
            self.assertEqual(set(answered2[16:]), {"HTTP/1.1 503 Service Unavailable"})
        finally:
            p.communicate("\n", timeout=TIMEOUT)
        # once the flood is gone its session may connect again
        with self.proxy.connect() as s:
            s.sendall(f"CONNECT good.test:{self.https_port} HTTP/1.1\r\n\r\n".encode())
            self.assertEqual(recv_head(s), b"HTTP/1.1 200 Connection established\r\n\r\n")


class Reload(Base):
    CONFIG = "allow: [good.test:{https}, 127.0.0.1/32:{https}]\n"

    def test_sighup_reload_and_broken_file(self):
        p = self.https_port
        self.denied(f"CONNECT other.test:{p} HTTP/1.1\r\n\r\n".encode(), 403,
                    f"other.test:{p} not in the allowlist")
        mark = self.proxy.reload(f"allow: [good.test:{p}, other.test:{p}, 127.0.0.1/32:{p}]\n")
        self.proxy.wait_stderr(f"{self.proxy.config}: reloaded, 3 allow entries", mark)
        with self.proxy.connect() as s:
            s.sendall(f"CONNECT other.test:{p} HTTP/1.1\r\n\r\n".encode())
            self.assertEqual(recv_head(s), b"HTTP/1.1 200 Connection established\r\n\r\n")
        mark = self.proxy.reload("allow: [other.test:{p}\nconnections_total: x\n")
        self.proxy.wait_stderr("keeping the previous configuration", mark)
        lines = self.proxy.stderr[mark:]
        self.assertRegex(lines[0], rf"^agent-egress: {self.proxy.config}:\d+:\d+: ")
        self.assertEqual(lines[-1], f"agent-egress: {self.proxy.config}: reload failed (errors "
                                    "above): keeping the previous configuration")
        with self.proxy.connect() as s:
            s.sendall(f"CONNECT other.test:{p} HTTP/1.1\r\n\r\n".encode())
            self.assertEqual(recv_head(s), b"HTTP/1.1 200 Connection established\r\n\r\n")


def relays_of(session):
    """Live egress-relay processes of a sandbox session."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/comm") as f:
                if f.read().strip() != "egress-relay":
                    continue
            with open(f"/proc/{pid}/environ", "rb") as f:
                if f"AGENT_SESSION_ID={session}".encode() in f.read().split(b"\0"):
                    found.append(int(pid))
        except OSError:
            pass
    return found


class Sandbox(Base):
    """Real curl and python3 inside agent-bwrap, through the relay, the socket and the proxy."""
    CONFIG = STANDARD

    def setUp(self):
        assert os.access(AGENT_BWRAP, os.X_OK), f"AGENT_BWRAP={AGENT_BWRAP!r}"
        self.ws = tempfile.mkdtemp(prefix="ws.", dir=self.tmp)
        shutil.copy(self.pki.ca, os.path.join(self.ws, "ca.pem"))
        self.session = f"egress-test-{os.getpid()}-{self._testMethodName[-12:]}"

    def sandbox(self, script, session=None):
        env = {k: v for k, v in os.environ.items() if k not in ("USE_NETWORK", "BWRAP")}
        env.update(SECCOMP_FILE=PROFILE, EGRESS_SOCK=self.proxy.sock,
                   AGENT_SESSION_ID=session or self.session,
                   AGENT_BWRAP_SYSLOG_SOCKET=os.path.join(self.tmp, "no-syslog"))
        return subprocess.run([AGENT_BWRAP, self.ws, "--", "/bin/sh", "-c", script], env=env,
                              capture_output=True, text=True, timeout=TIMEOUT)

    def test_curl_https_and_http(self):
        mark = len(self.proxy.alerts)
        r = self.sandbox(f"curl -sS --cacert /workspace/ca.pem https://good.test:{self.https_port}/"
                         f" && curl -sS http://good.test:{self.http_port}/plain")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(r.stdout.startswith("hello-tls\nGET /plain HTTP/1.1\n"), r.stdout)
        alerts = self.proxy.wait_alerts(2, mark)
        for a, port in zip(alerts, (self.https_port, self.http_port)):
            f = a["output_fields"]
            self.assertEqual(a["rule"], "Agent Egress Allowed")
            self.assertEqual((f["egress.host"], f["egress.port"]), ("good.test", port))
            self.assertEqual(f["agent.session"], self.session)
            self.assertEqual(f["proc.name"], "egress-relay")
            self.assertIn(f"agent-sandbox/{self.session}", f["proc.cgroup"])

    def test_python_urllib(self):
        code = ("import ssl,urllib.request as u; c=ssl.create_default_context(cafile='/workspace/ca.pem'); "
                f"print(u.urlopen('https://good.test:{self.https_port}/',context=c).read().decode(),end=''); "
                f"print(u.urlopen('http://good.test:{self.http_port}/py').read().decode().split(chr(13))[0])")
        r = self.sandbox(f"python3 -c \"{code}\"")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, "hello-tls\nGET /py HTTP/1.1\n")

    def test_denied_in_sandbox(self):
        mark = len(self.proxy.alerts)
        r = self.sandbox("curl -sS https://evil.test/; echo rc=$?")
        self.assertIn("rc=56", r.stdout)  # curl: CONNECT refused
        self.assertIn("403", r.stderr)
        a = self.proxy.wait_alerts(1, mark)[0]
        self.assertEqual(a["rule"], "Agent Egress Denied")
        self.assertEqual(a["output_fields"]["agent.session"], self.session)
        self.assertEqual(a["output_fields"]["egress.reason"], "evil.test:443 not in the allowlist")

    def test_no_way_around(self):
        # straight to the host's server: the sandbox has its own network namespace,
        # and Landlock allows TCP connect to the relay port only
        code = ("import socket\nfor port in (%d, 3129):\n  s=socket.socket()\n"
                "  try: s.connect(('127.0.0.1', port)); print('connected')\n"
                "  except OSError as e: print(e.errno)\n" % self.https_port)
        r = self.sandbox(f"python3 -c \"{code}\"")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.split(), ["13", "13"])  # EACCES

    def test_relay_dies_with_sandbox(self):
        r = self.sandbox("for p in /proc/[0-9]*; do [ \"$(cat $p/comm 2>/dev/null)\" = egress-relay ] "
                         "&& echo relay; done")
        self.assertEqual(r.stdout, "relay\n", r.stderr)
        deadline = time.monotonic() + 10
        while relays_of(self.session) and time.monotonic() < deadline:
            time.sleep(0.1)
        self.assertEqual(relays_of(self.session), [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
