#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""connect() to IPv4, IPv6, unix path and abstract sockets; the setuid family
and capset, each with its arguments and result."""
import os
import shutil
import socket
import tempfile
import unittest

import harness
from harness import Sentinel, find, workload


class Net(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="as-net-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def one(self, events, pid, **kw):
        got = find(events, {"proc.pid": pid}, evt__type="connect", **kw)
        self.assertEqual(len(got), 1, find(events, {"proc.pid": pid}, evt__type="connect"))
        return got[0]

    def test_connects(self):
        l4 = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        l4.bind(("127.0.0.1", 0))
        l4.listen(4)
        l6 = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
        l6.bind(("::1", 0))
        l6.listen(4)
        upath = os.path.join(self.dir, "egress.sock")
        lu = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        lu.bind(upath)
        lu.listen(4)
        la = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        la.bind(b"\0as-test-abstract")
        la.listen(4)
        closed = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        closed.bind(("127.0.0.1", 0))
        closed_port = closed.getsockname()[1]
        closed.close()  # nothing listens there now
        with Sentinel("--trace") as s:
            p4, r4 = workload("connect4", "127.0.0.1", l4.getsockname()[1])
            p6, r6 = workload("connect6", "::1", l6.getsockname()[1])
            pu, ru = workload("connect-unix", upath)
            pa, ra = workload("connect-abstract", "as-test-abstract")
            pr, rr = workload("connect4", "127.0.0.1", closed_port)
        self.assertEqual([r4, r6, ru, ra, rr], [["0"], ["0"], ["0"], ["0"], ["-111"]])
        ev = s.events()
        e = self.one(ev, p4)
        self.assertEqual(e["evt.res"], "SUCCESS")
        self.assertEqual(e["fd.typechar"], "4")
        self.assertEqual(e["fd.sockfamily"], "ip")
        self.assertEqual(e["fd.l4proto"], "tcp")
        self.assertEqual(e["fd.sip"], "127.0.0.1")
        self.assertEqual(e["fd.sport"], l4.getsockname()[1])
        self.assertEqual(e["fd.cip"], "127.0.0.1")
        self.assertGreater(e["fd.cport"], 0)
        self.assertEqual(e["fd.name"], "127.0.0.1:%d->127.0.0.1:%d" % (e["fd.cport"], e["fd.sport"]))
        e = self.one(ev, p6)
        self.assertEqual(e["fd.typechar"], "6")
        self.assertEqual(e["fd.sip"], "::1")
        self.assertEqual(e["fd.sport"], l6.getsockname()[1])
        self.assertEqual(e["fd.cip"], "::1")
        e = self.one(ev, pu)
        self.assertEqual(e["fd.typechar"], "u")
        self.assertEqual(e["fd.name"], upath)
        e = self.one(ev, pa)
        self.assertEqual(e["fd.name"], "@as-test-abstract")  # '@': abstract
        e = self.one(ev, pr)
        self.assertEqual(e["evt.res"], "ECONNREFUSED")
        self.assertEqual(e["fd.sport"], closed_port)
        for sock in (l4, l6, lu, la):
            sock.close()


class Cred(unittest.TestCase):
    def test_setid_family_and_capset(self):
        with Sentinel("--trace") as s:
            pu, ru = workload("setuid", 0)
            pg, rg = workload("setgid", 0)
            pre, rre = workload("setreuid", 1000, -1)
            prge, rrge = workload("setregid", -1, 0)
            pr, rr = workload("setresuid", 1000, -1, 1001)
            prg, rrg = workload("setresgid", -1, 0, -1)
            pc, rc = workload("capset", 0x1, 0x3, 0x0)
            pf, rf = workload("as-user", 65534, "setuid", 0)
        self.assertEqual([ru, rg, rre, rrge, rr, rrg, rc, rf],
                         [["0"], ["0"], ["0"], ["0"], ["0"], ["0"], ["0"], ["-1"]])
        ev = s.events()

        def one(pid, t):
            got = find(ev, {"proc.pid": pid, "evt.type": t})
            self.assertTrue(got, t)
            return got[-1]  # as-user drops privileges first: the last one is ours

        e = one(pu, "setuid")
        # evt.arg.* are strings, as Falco formats them and as rules compare them
        self.assertEqual((e["evt.arg.uid"], e["evt.res"]), ("0", "SUCCESS"))
        e = one(pg, "setgid")
        self.assertEqual(e["evt.arg.gid"], "0")
        e = one(pre, "setreuid")
        self.assertEqual((e["evt.arg.ruid"], e["evt.arg.euid"]), ("1000", "-1"))
        e = one(prge, "setregid")
        self.assertEqual((e["evt.arg.rgid"], e["evt.arg.egid"]), ("-1", "0"))
        e = one(pr, "setresuid")
        self.assertEqual((e["evt.arg.ruid"], e["evt.arg.euid"], e["evt.arg.suid"]),
                         ("1000", "-1", "1001"))
        # the ids after the call: root's effective id kept, the saved one 1001
        self.assertEqual((e["user.ruid"], e["user.uid"], e["user.suid"]), (1000, 0, 1001))
        self.assertIsNone(e.get("group.sgid"))  # a uid call says nothing of the groups
        e = one(prg, "setresgid")
        self.assertEqual((e["evt.arg.rgid"], e["evt.arg.egid"], e["evt.arg.sgid"]),
                         ("-1", "0", "-1"))
        self.assertEqual(e["group.sgid"], 0)
        self.assertIsNone(e.get("user.suid"))
        e = one(pc, "capset")
        self.assertEqual((e["evt.arg.cap_effective"], e["evt.arg.cap_permitted"],
                          e["evt.arg.cap_inheritable"]), ("1", "3", "0"))
        self.assertEqual(e["evt.res"], "SUCCESS")
        e = one(pf, "setuid")
        self.assertEqual((e["evt.arg.uid"], e["evt.res"], e["evt.rawres"]), ("0", "EPERM", -1))
        self.assertEqual(e["user.uid"], 65534)


if __name__ == "__main__":
    harness.main()
