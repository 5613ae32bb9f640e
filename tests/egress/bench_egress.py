#!/usr/bin/env python3
"""agent-egress benchmark (not a test: it asserts nothing about speed).

  AGENT_EGRESS=build/user/egress/agent-egress python3 tests/egress/bench_egress.py

Measures, on loopback, with the proxy in its own mount namespace as in the
tests: tunnel throughput one way (CONNECT to a discard server) against the
same transfer straight over TCP, and decisions per second (CONNECT, 200,
close; and refused requests). Prints one JSON object.
"""
import json
import os
import socket
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_egress as t  # noqa: E402

MIB = 1 << 20
TRANSFER = int(os.environ.get("BENCH_MIB", "1024")) * MIB
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "2000"))


def discard_server():
    lsock = socket.socket()
    lsock.bind(("127.0.0.1", 0))
    lsock.listen(64)

    def one(c):
        with c:
            while c.recv(1 << 20):
                pass

    def loop():
        while True:
            try:
                c, _ = lsock.accept()
            except OSError:
                return
            threading.Thread(target=one, args=(c,), daemon=True).start()

    threading.Thread(target=loop, daemon=True).start()
    return lsock, lsock.getsockname()[1]


def push(s, total):
    chunk = b"x" * MIB
    start = time.monotonic()
    sent = 0
    while sent < total:
        s.sendall(chunk)
        sent += len(chunk)
    s.shutdown(socket.SHUT_WR)
    s.recv(1)  # the far side closes once it has read everything
    return time.monotonic() - start


def main():
    tmp = tempfile.mkdtemp(prefix="agent-egress-bench.")
    lsock, port = discard_server()
    echo, echo_port = t.serve_echo()
    proxy = t.Proxy(tmp, f"allow: [sink.test:{port}, good.test:{echo_port}, 127.0.0.1/32:{port},"
                         f" 127.0.0.1/32:{echo_port}]\nconnections_per_session: 100000\n"
                         "connections_total: 100000\n")
    out = {}
    with socket.create_connection(("127.0.0.1", port)) as s:
        out["direct_tcp_MiB_per_s"] = round(TRANSFER / MIB / push(s, TRANSFER))
    s = proxy.connect()
    s.sendall(f"CONNECT 127.0.0.1:{port} HTTP/1.1\r\n\r\n".encode())
    assert t.recv_head(s).startswith(b"HTTP/1.1 200")
    out["tunnel_MiB_per_s"] = round(TRANSFER / MIB / push(s, TRANSFER))
    s.close()

    start = time.monotonic()
    for _ in range(ROUNDS):
        with proxy.connect() as c:
            c.sendall(f"CONNECT good.test:{echo_port} HTTP/1.1\r\n\r\n".encode())
            assert t.recv_head(c).startswith(b"HTTP/1.1 200")
    out["connect_allowed_per_s"] = round(ROUNDS / (time.monotonic() - start))
    start = time.monotonic()
    for _ in range(ROUNDS):
        assert proxy.ask(b"CONNECT evil.test:443 HTTP/1.1\r\n\r\n").startswith(b"HTTP/1.1 403")
    out["connect_denied_per_s"] = round(ROUNDS / (time.monotonic() - start))
    out["transfer_MiB"] = TRANSFER // MIB
    out["rounds"] = ROUNDS
    proxy.wait_alerts(2 * ROUNDS + 1)
    with open(f"/proc/{proxy.p.pid}/status") as f:  # unshare and sh exec'd the proxy
        out["proxy_peak_rss_KiB"] = int(next(l for l in f if l.startswith("VmHWM")).split()[1])
    proxy.stop()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
