#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""Syscalls made through the 32-bit i386 ABI (int $0x80 from a 64-bit
process, as a 32-bit program makes them) are the same events as their native
x86_64 twins, on the real kernel. Each act is made twice in one agent-sentinel
run on the same state: natively (as-acts, or as-workload where as-acts has no
identical operation) and through int $0x80 (as-ia32); the two alerts must
agree on every field but what is naturally the process's own (pid, name,
thread, times, a client's ephemeral port). Where no native driver makes the
identical call, the ia32 alert is checked against the values the native call
is known to give. evt.type is always the native name: the 16- and 32-bit id
calls are setuid, setresuid, chown; socketcall's connect and sendto are
connect and sendto; a 16-bit id of 0xffff is -1 (the kernel's low2highuid).
With the shipped rules, an agent's ia32 write to /etc fires what a native one
fires, and the same write outside any agent tree fires nothing."""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import unittest

import harness
from harness import AS_SOURCE_DIR, AS_WORKLOAD, Sentinel
from test_events import (AS_ACTS, AT_REMOVEDIR, CLONE_NEWNS, CLONE_NEWUTS, ETH_P_ALL_BE,
                         FILE_FIELDS, MNT_DETACH, NET_FIELDS, NOBODY, PRIV_FIELDS,
                         RENAME_NOREPLACE, AF_PACKET, SOCK_RAW, TTY_FIELDS, Acts, EventCase,
                         Peers, free_tcp_port, on_pty, status_mask)

AS_IA32 = os.environ.get("AS_IA32", "build/tests/as-ia32")
RULES = os.path.join(AS_SOURCE_DIR, "rules/agent.yaml")
WROTE = "Agent Wrote to Unexpected Path"
COMPAT_RULE = "Agent Used the 32-bit Syscall ABI"
# every event of the drivers: a compat event under another name (chown32,
# socketcall) shows in the failure, beside the native twin's
DRIVERS = "proc.name in (as-acts, as-ia32, as-workload)"
# naturally each process's own: not compared between the twins
PER_PROCESS = {"proc.pid", "proc.name", "proc.tid", "proc.vpid", "thread.tid", "evt.time",
               "evt.num", "agent.seq", "fd.cport", "evt.is_compat"}
OPEN_FIELDS = ["fd.nameraw", "fd.directory", "fd.filename", "fd.typechar", "evt.arg.fd",
               "evt.arg.ino", "evt.arg.dev", "evt.is_open_write", "evt.is_open_read"]
CRED_FIELDS = ["evt.arg." + n for n in ("uid", "ruid", "euid", "suid", "size", "cap_effective",
                                        "cap_permitted", "cap_inheritable")] + [
    "evt.rawres", "thread.cap_effective", "thread.cap_permitted"]
AF_INET, SOCK_DGRAM = 2, 2
O_WRONLY_CREAT, O_WRONLY_CREAT_TRUNC = "0101", "01101"
MFD_CLOEXEC = 1


def drive(driver, *args, user=None):
    """Run DRIVER (as USER: as-ia32 through as-acts' as-user and exec, the
    others through their own as-user); return (pid, [output lines])."""
    if user is None:
        cmd = [driver]
    elif driver == AS_IA32:
        cmd = [AS_ACTS, "as-user", str(user), "exec", AS_IA32]
    else:
        cmd = [driver, "as-user", str(user)]
    cmd += [a if isinstance(a, bytes) else str(a) for a in args]
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)
    out, _ = p.communicate(timeout=60)
    return p.pid, out.decode().split("\n")[:-1]


def free_udp_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def comparable(alert):
    """ALERT without what is the process's own; a client port (ephemeral)
    left out of the connection's name too."""
    out = {k: v for k, v in alert.items() if k not in PER_PROCESS}
    cport = alert.get("fd.cport")
    if cport:
        for k in ("fd.name", "evt.arg.tuple", "evt.arg.addr"):
            if isinstance(out.get(k), str):
                out[k] = out[k].replace(":%d->" % cport, ":<cport>->")
    return out


class CompatCase(EventCase):
    """twin() makes one act natively and through int $0x80 (each after
    PREPARE, so both find the same state); check() compares their alerts."""

    def setUp(self):
        super().setUp()
        self.twins = []

    def acts(self, fields):
        return Acts(DRIVERS, list(fields) + ["evt.is_compat"])

    def twin(self, etype, native, ia32, result, prepare=None, user=None, select=None, **want):
        """NATIVE and IA32: (driver, args...); NATIVE None: no native driver
        makes the identical call, WANT (keys with '.' as '__') says it all.
        RESULT: both drivers' result line. SELECT: the alert among the pid's
        ETYPE alerts (keys with '__'), when a set-up call is of ETYPE too."""
        runs = []
        for drv in (native, ia32):
            if drv is None:
                runs.append(None)
                continue
            if prepare:
                prepare()
            runs.append(drive(*drv, user=user))
        self.twins.append({"etype": etype, "native": runs[0], "ia32": runs[1], "result": result,
                           "select": select or {}, "want": want,
                           "label": " ".join(str(x) for x in ia32[1:])})

    def check(self, a):
        """Every twin: the same result, the one alert of each, equal."""
        for t in self.twins:
            with self.subTest(t["label"]):
                pi, ri = t["ia32"]
                if t["native"]:
                    pn, rn = t["native"]
                    self.assertEqual(rn[-1:], [str(t["result"])], "native result")
                    en = self.one(a, pn, t["etype"], **t["select"])
                    self.fields(en, **t["want"])
                self.assertEqual(ri[-1:], [str(t["result"])], "ia32 result")
                ei = self.one(a, pi, t["etype"], **t["select"])
                self.fields(ei, **t["want"])
                self.assertIs(ei.get("evt.is_compat"), True, "ia32 alert not flagged")
                if t["native"]:
                    self.assertIs(en.get("evt.is_compat"), False, "native alert flagged")
                    self.assertEqual(comparable(ei), comparable(en))


class Files(CompatCase):
    def fields_of(self):
        return FILE_FIELDS + OPEN_FIELDS

    def write(self, path, data="hello"):
        with open(path, "w") as f:
            f.write(data)

    def gone(self, path):
        if os.path.lexists(path):
            os.unlink(path)

    def test_opens(self):
        f, c, oa, missing = self.f, self.p("c"), self.p("oa"), self.p("missing", "x")
        for path in (c, oa):  # there before both opens: the same inode for both
            self.write(path)
        with self.acts(self.fields_of()) as a:
            self.twin("open", (AS_WORKLOAD, "open", f),
                      (AS_IA32, "open", f, O_WRONLY_CREAT_TRUNC, "0644"), 3,
                      evt__res="SUCCESS", fd__name=f, fd__num=3, evt__arg__mode="0644",
                      evt__arg__flags="O_WRONLY|O_CREAT|O_TRUNC", evt__is_open_write=True)
            self.twin("open", (AS_WORKLOAD, "open", missing),
                      (AS_IA32, "open", missing, O_WRONLY_CREAT_TRUNC, "0644"), -2,
                      evt__res="ENOENT", evt__rawres=-2, fd__name=missing, fd__num=-1)
            self.twin("creat", (AS_WORKLOAD, "creat", c), (AS_IA32, "creat", c, "0600"), 3,
                      evt__res="SUCCESS", fd__name=c, fd__num=3, evt__arg__mode="0600")
            self.twin("openat", (AS_WORKLOAD, "openat-dirfd", self.dir, "oa"),
                      (AS_IA32, "openat", self.dir, "oa", O_WRONLY_CREAT, "0644"), 4,
                      select={"fd__name": oa}, evt__res="SUCCESS", fd__num=4,
                      evt__arg__dirfd="3", evt__arg__flags="O_WRONLY|O_CREAT",
                      evt__arg__mode="0644")
        self.check(a)

    def test_renames(self):
        src, dst, h, x = self.p("a"), self.p("b"), self.p("h"), self.p("x")
        self.write(self.p("c"))
        self.write(self.p("taken"))
        shm = tempfile.mkdtemp(prefix="as-compat-", dir="/dev/shm")
        self.addCleanup(shutil.rmtree, shm, True)
        cross = os.path.join(shm, "cross")
        self.assertNotEqual(os.stat(shm).st_dev, os.stat(self.dir).st_dev)

        def fresh(old, new):
            def prepare():
                self.write(old)
                self.gone(new)
            return prepare
        with self.acts(self.fields_of()) as a:
            self.twin("rename", (AS_ACTS, "rename", src, dst), (AS_IA32, "rename", src, dst), 0,
                      prepare=fresh(src, dst), evt__res="SUCCESS", fs__path__source=src,
                      fs__path__target=dst, evt__arg__oldpath=src, evt__arg__newpath=dst)
            self.twin("rename", (AS_ACTS, "rename", self.f, self.p("missing", "x")),
                      (AS_IA32, "rename", self.f, self.p("missing", "x")), -2,
                      evt__res="ENOENT", evt__rawres=-2, evt__arg__oldpath=self.f,
                      evt__arg__newpath=self.p("missing", "x"))
            self.twin("rename", (AS_ACTS, "rename", cross, self.p("cross")),
                      (AS_IA32, "rename", cross, self.p("cross")), -18,
                      prepare=fresh(cross, self.p("cross")), evt__res="EXDEV",
                      evt__rawres=-18, evt__arg__oldpath=cross, evt__arg__newpath=self.p("cross"))
            self.twin("renameat2", (AS_ACTS, "renameat2", self.dir, "h", "x", RENAME_NOREPLACE),
                      (AS_IA32, "renameat2", self.dir, "h", "x", RENAME_NOREPLACE), 0,
                      prepare=fresh(h, x), evt__res="SUCCESS", fs__path__source=h,
                      fs__path__target=x, fs__path__sourceraw="h", fs__path__targetraw="x",
                      evt__arg__flags="RENAME_NOREPLACE")
            self.twin("renameat2", (AS_ACTS, "renameat2", self.dir, "c", "taken", RENAME_NOREPLACE),
                      (AS_IA32, "renameat2", self.dir, "c", "taken", RENAME_NOREPLACE), -17,
                      evt__res="EEXIST", evt__rawres=-17, evt__arg__oldpath=self.p("c"),
                      evt__arg__newpath=self.p("taken"), evt__arg__flags="RENAME_NOREPLACE")
        self.check(a)

    def test_removal_and_creation(self):
        u, m, r, rmd = self.p("u"), self.p("m"), self.p("r"), self.p("rmd")

        def mkdir_fresh(d):
            return lambda: os.path.isdir(d) or os.mkdir(d)

        def rmdir_fresh(d):
            return lambda: os.path.isdir(d) and os.rmdir(d)
        with self.acts(self.fields_of()) as a:
            self.twin("unlink", (AS_ACTS, "unlink", u), (AS_IA32, "unlink", u), 0,
                      prepare=lambda: self.write(u), evt__res="SUCCESS", fs__path__name=u,
                      evt__arg__path=u)
            self.twin("unlink", (AS_ACTS, "unlink", self.p("nothing")),
                      (AS_IA32, "unlink", self.p("nothing")), -2, evt__res="ENOENT",
                      evt__rawres=-2, evt__arg__path=self.p("nothing"))
            self.twin("unlinkat", (AS_ACTS, "unlinkat", self.dir, "rmd", AT_REMOVEDIR),
                      (AS_IA32, "unlinkat", self.dir, "rmd", AT_REMOVEDIR), 0,
                      prepare=mkdir_fresh(rmd), evt__res="SUCCESS", fs__path__name=rmd,
                      fs__path__nameraw="rmd", evt__arg__name=rmd, evt__arg__flags="AT_REMOVEDIR",
                      evt__arg__dirfd="3")
            self.twin("mkdir", (AS_ACTS, "mkdir", m, "0755"), (AS_IA32, "mkdir", m, "0755"), 0,
                      prepare=rmdir_fresh(m), evt__res="SUCCESS", fs__path__name=m,
                      evt__arg__path=m, evt__arg__mode="0755")
            self.twin("mkdir", (AS_ACTS, "mkdir", self.p("missing", "m"), "0700"),
                      (AS_IA32, "mkdir", self.p("missing", "m"), "0700"), -2, evt__res="ENOENT",
                      evt__arg__path=self.p("missing", "m"), evt__arg__mode="0700")
            self.twin("rmdir", (AS_ACTS, "rmdir", r), (AS_IA32, "rmdir", r), 0,
                      prepare=mkdir_fresh(r), evt__res="SUCCESS", fs__path__name=r,
                      evt__arg__path=r)
        self.check(a)

    def test_metadata(self):
        f = self.f
        locked = self.p("locked")
        os.mkdir(locked, 0o755)
        victim = os.path.join(locked, "victim")
        self.write(victim)
        with self.acts(self.fields_of()) as a:
            self.twin("chmod", (AS_ACTS, "chmod", f, "0600"), (AS_IA32, "chmod", f, "0600"), 0,
                      prepare=lambda: os.chmod(f, 0o644), evt__res="SUCCESS", fs__path__name=f,
                      evt__arg__filename=f, evt__arg__mode="0600")
            self.twin("chmod", (AS_ACTS, "chmod", victim, "0777"),
                      (AS_IA32, "chmod", victim, "0777"), -1, user=NOBODY, evt__res="EPERM",
                      evt__rawres=-1, evt__arg__filename=victim, evt__arg__mode="0777",
                      user__uid=NOBODY, thread__cap_effective="")
            # 16-bit ids: 0xffff is -1, as the 32-bit -1 of the native call
            self.twin("chown", (AS_ACTS, "chown", f, 1, -1), (AS_IA32, "chown16", f, 1, "0xffff"),
                      0, prepare=lambda: os.chown(f, 0, 0), evt__res="SUCCESS", fs__path__name=f,
                      evt__arg__path=f, evt__arg__uid="1", evt__arg__gid="-1")
            self.twin("chown", (AS_ACTS, "chown", f, 70000, 2),
                      (AS_IA32, "chown32", f, 70000, 2), 0, prepare=lambda: os.chown(f, 0, 0),
                      evt__res="SUCCESS", fs__path__name=f, evt__arg__path=f,
                      evt__arg__uid="70000", evt__arg__gid="2")
            self.twin("truncate", (AS_ACTS, "truncate", f, 3), (AS_IA32, "truncate", f, 3), 0,
                      prepare=lambda: self.write(f), evt__res="SUCCESS", fs__path__name=f,
                      evt__arg__path=f, evt__arg__length="3")
        self.check(a)
        self.assertEqual(os.stat(victim).st_mode & 0o777, 0o644)

    def test_links_and_chdir(self):
        f, soft, hard, sub = self.f, self.p("soft"), self.p("hard"), self.p("sub")
        os.mkdir(sub)
        self.write(self.p("taken"))
        with self.acts(self.fields_of()) as a:
            self.twin("symlink", (AS_ACTS, "symlink", f, soft), (AS_IA32, "symlink", f, soft), 0,
                      prepare=lambda: self.gone(soft), evt__res="SUCCESS",
                      fs__path__source=soft, fs__path__target=f, evt__arg__target=f,
                      evt__arg__linkpath=soft)
            self.twin("link", (AS_ACTS, "link", f, hard), (AS_IA32, "link", f, hard), 0,
                      prepare=lambda: self.gone(hard), evt__res="SUCCESS", fs__path__source=hard,
                      fs__path__target=f, evt__arg__oldpath=f, evt__arg__newpath=hard)
            self.twin("link", (AS_ACTS, "link", f, self.p("taken")),
                      (AS_IA32, "link", f, self.p("taken")), -17, evt__res="EEXIST",
                      evt__arg__newpath=self.p("taken"))
            self.twin("chdir", (AS_ACTS, "chdir", sub), (AS_IA32, "chdir", sub), 0,
                      evt__res="SUCCESS", evt__arg__path=sub, proc__cwd=sub)
            self.twin("chdir", (AS_ACTS, "chdir", self.p("none")),
                      (AS_IA32, "chdir", self.p("none")), -2, evt__res="ENOENT",
                      proc__cwd=os.getcwd())
        self.check(a)


class Credentials(CompatCase):
    def test_setuid_family(self):
        with self.acts(CRED_FIELDS) as a:
            for op in ("setuid16", "setuid32"):
                self.twin("setuid", (AS_WORKLOAD, "setuid", 0), (AS_IA32, op, 0), 0,
                          evt__res="SUCCESS", evt__arg__uid="0", user__uid=0)
            # the 16-bit -1: an invalid id, as the native -1 is
            self.twin("setuid", (AS_WORKLOAD, "setuid", -1), (AS_IA32, "setuid16", "0xffff"), -22,
                      evt__res="EINVAL", evt__arg__uid="-1")
            self.twin("setresuid", (AS_WORKLOAD, "setresuid", -1, 0, -1),
                      (AS_IA32, "setresuid32", "0xffffffff", 0, "0xffffffff"), 0,
                      evt__res="SUCCESS", evt__arg__ruid="-1", evt__arg__euid="0",
                      evt__arg__suid="-1")
            self.twin("setresuid", (AS_WORKLOAD, "setresuid", -1, 0, -1),
                      (AS_IA32, "setresuid16", "0xffff", 0, "0xffff"), 0,
                      evt__res="SUCCESS", evt__arg__ruid="-1", evt__arg__euid="0",
                      evt__arg__suid="-1")
        self.check(a)

    def test_setuid_denied_as_nobody(self):
        """as-acts as-user drops to nobody (its own setuid is uid 65534),
        then execs as-ia32; as-workload drops the same way."""
        with self.acts(CRED_FIELDS) as a:
            for op in ("setuid16", "setuid32"):
                self.twin("setuid", (AS_WORKLOAD, "setuid", 0), (AS_IA32, op, 0), -1,
                          user=NOBODY, select={"evt__arg__uid": "0"}, evt__res="EPERM",
                          evt__rawres=-1, user__uid=NOBODY, thread__cap_effective="")
        self.check(a)

    def test_fsuid_groups_capabilities(self):
        bnd, inh = "%x" % status_mask("CapBnd"), "%x" % status_mask("CapInh")
        with self.acts(CRED_FIELDS) as a:
            self.twin("setfsuid", (AS_ACTS, "setfsuid", 1000), (AS_IA32, "setfsuid32", 1000), 0,
                      evt__arg__uid="1000")
            self.twin("setgroups", (AS_ACTS, "setgroups", 5), (AS_IA32, "setgroups32", 5), 0,
                      evt__res="SUCCESS", evt__arg__size="1")
            # an exec as root: permitted = effective = the bounding set
            self.twin("capset", None, (AS_IA32, "capset-same"), 0, evt__res="SUCCESS",
                      evt__arg__cap_effective=bnd, evt__arg__cap_permitted=bnd,
                      evt__arg__cap_inheritable=inh, user__uid=0)
        self.check(a)


class Network(Peers, CompatCase):

    def fields_of(self):
        return NET_FIELDS + ["evt.rawres", "evt.arg.tuple"]

    def test_connects(self):
        closed = free_tcp_port()  # nothing listens there
        with self.acts(self.fields_of()) as a:
            for op in ("connect", "socketcall-connect"):
                self.twin("connect", (AS_WORKLOAD, "connect4", "127.0.0.1", self.tport),
                          (AS_IA32, op, "127.0.0.1", self.tport), 0, evt__res="SUCCESS",
                          fd__num=3, fd__sip="127.0.0.1", fd__sport=self.tport,
                          fd__l4proto="tcp", fd__typechar="4", fd__connected=True)
                self.twin("connect", (AS_WORKLOAD, "connect4", "127.0.0.1", closed),
                          (AS_IA32, op, "127.0.0.1", closed), -111, evt__res="ECONNREFUSED",
                          fd__sport=closed)
        self.check(a)

    def test_sends_with_a_destination(self):
        with self.acts(self.fields_of()) as a:
            for native, op, t in (("sendto-udp", "sendto", "sendto"),
                                  ("sendto-udp", "socketcall-sendto", "sendto"),
                                  ("sendmsg-udp", "sendmsg", "sendmsg")):
                self.twin(t, (AS_ACTS, native, "127.0.0.1", self.uport),
                          (AS_IA32, op, "127.0.0.1", self.uport), 8, evt__res="SUCCESS",
                          fd__sip="127.0.0.1", fd__sport=self.uport, fd__l4proto="udp",
                          fd__typechar="4", fd__connected=False)
        self.check(a)
        self.assertEqual([self.udp.recv(64) for _ in range(6)], [b"as-acts\n"] * 6)

    def test_netlink_change_by_writev(self):
        """An address change on an rtnetlink socket by writev, behind a
        read: the same event, messages walked through compat_iovecs."""
        with self.acts(self.fields_of() + ["evt.arg.nlmsg_type", "evt.arg.nlmsg_change"]) as a:
            self.twin("writev", (AS_ACTS, "netns-newaddr", "writev"),
                      (AS_IA32, "netlink-writev"), 64, evt__res="SUCCESS", fd__num=3,
                      evt__arg__nlmsg_type="RTM_NEWADDR", evt__arg__nlmsg_change="true")
        self.check(a)

    def test_bind_and_socket(self):
        port = free_udp_port()
        with self.acts(self.fields_of()) as a:
            self.twin("bind", None, (AS_IA32, "bind", "127.0.0.1", port), 0,
                      select={"fd__sport": port}, evt__res="SUCCESS", evt__arg__fd="3",
                      fd__num=3, fd__sip="127.0.0.1", fd__l4proto="udp", fd__typechar="4")
            self.twin("bind", None, (AS_IA32, "bind", "127.0.0.1", self.uport), -98,
                      evt__res="EADDRINUSE", evt__rawres=-98, fd__sport=self.uport,
                      fd__l4proto="udp")
            self.twin("socket", (AS_ACTS, "socket", AF_INET, SOCK_DGRAM, 0),
                      (AS_IA32, "socket", AF_INET, SOCK_DGRAM, 0), 3, evt__res="SUCCESS",
                      fd__num=3, evt__arg__domain="AF_INET", evt__arg__type="SOCK_DGRAM")
            self.twin("socket", (AS_ACTS, "socket", AF_PACKET, SOCK_RAW, ETH_P_ALL_BE),
                      (AS_IA32, "socket", AF_PACKET, SOCK_RAW, ETH_P_ALL_BE), 3,
                      evt__res="SUCCESS", evt__arg__domain="AF_PACKET", evt__arg__type="SOCK_RAW")
        self.check(a)


class Isolation(CompatCase):
    def fields_of(self):
        return PRIV_FIELDS + ["fs.path.source"]

    def test_unshare_and_prctl(self):
        with self.acts(self.fields_of()) as a:
            self.twin("unshare", (AS_ACTS, "unshare", CLONE_NEWUTS),
                      (AS_IA32, "unshare", CLONE_NEWUTS), 0, evt__res="SUCCESS",
                      evt__arg__flags="CLONE_NEWUTS")
            self.twin("unshare", (AS_ACTS, "unshare", CLONE_NEWNS),
                      (AS_IA32, "unshare", CLONE_NEWNS), -1, user=NOBODY, evt__res="EPERM",
                      evt__arg__flags="CLONE_NEWNS", user__uid=NOBODY)
            # both take the same name, one the rule selects on
            self.twin("prctl", (AS_ACTS, "prctl-setname", "as-ia32"),
                      (AS_IA32, "prctl-setname", "as-ia32"), 0, evt__res="SUCCESS",
                      evt__arg__option="PR_SET_NAME", evt__arg__arg2_str="as-ia32")
        self.check(a)

    def test_process_creation(self):
        """sched_process_fork reads an i386 clone's flags from ebx and its
        number as i386's (the fork family is not the compat program's)."""
        with self.acts(["evt.arg.flags", "evt.arg.pid", "evt.is_compat"]) as a:
            pn, rn = drive(AS_ACTS, "clone", CLONE_NEWUTS)
            pi, ri = drive(AS_IA32, "clone", CLONE_NEWUTS)
            pf, rf = drive(AS_IA32, "fork")
        for r in (rn, ri, rf):
            self.assertGreater(int(r[-1]), 0)
        self.fields(self.one(a, pn, "clone"), evt__arg__flags="CLONE_NEWUTS",
                    evt__arg__pid=rn[-1], evt__is_compat=False)
        self.fields(self.one(a, pi, "clone"), evt__arg__flags="CLONE_NEWUTS",
                    evt__arg__pid=ri[-1], evt__is_compat=True)
        self.fields(self.one(a, pf, "fork"), evt__arg__pid=rf[-1], evt__is_compat=True)

    def test_terminal_input(self):
        """ioctl(TIOCSTI) through int $0x80: the kernel picks it by its
        request (ecx) as it does the native one's (rsi)."""
        with self.acts(TTY_FIELDS) as a:
            pn, rn, ttyn = on_pty(AS_ACTS, "tiocsti", "x")
            pi, ri, ttyi = on_pty(AS_IA32, "tiocsti", "x")
        self.assertEqual((rn, ri), (["0"], ["0"]))
        en, ei = self.one(a, pn, "ioctl"), self.one(a, pi, "ioctl")
        self.fields(ei, evt__res="SUCCESS", evt__arg__request="0x5412", evt__arg__fd="0",
                    evt__arg__path=ttyi, evt__is_compat=True)
        self.assertNotEqual(ei["evt.arg.argument"], en["evt.arg.argument"])  # each one's buffer
        skip = {"evt.arg.path", "evt.arg.argument"}
        self.assertEqual({k: v for k, v in comparable(ei).items() if k not in skip},
                         {k: v for k, v in comparable(en).items() if k not in skip})

    def test_memfd_and_mounts(self):
        mnt, mnt2 = self.p("mnt"), self.p("mnt2")
        os.mkdir(mnt)
        os.mkdir(mnt2)
        with self.acts(self.fields_of()) as a:
            self.twin("memfd_create", None, (AS_IA32, "memfd_create", "as-compat", MFD_CLOEXEC), 3,
                      evt__res="SUCCESS", evt__arg__name="as-compat", evt__arg__flags="MFD_CLOEXEC",
                      evt__arg__fd="3")
            # in a private mount namespace; its set-up is a mount (of /) too
            self.twin("mount", None, (AS_IA32, "mount-tmpfs", mnt), 0,
                      select={"evt__arg__dir": mnt}, evt__res="SUCCESS", evt__arg__dev="none",
                      evt__arg__type="tmpfs", evt__arg__flags="0", fs__path__target=mnt,
                      fs__path__source="none")
            self.twin("umount2", (AS_ACTS, "umount2", mnt2, MNT_DETACH),
                      (AS_IA32, "umount2", mnt2, MNT_DETACH), 0, evt__res="SUCCESS",
                      fs__path__name=mnt2, evt__arg__name=mnt2, evt__arg__flags="DETACH")
        self.check(a)
        with open("/proc/self/mountinfo") as f:  # the tmpfs never reached the host
            self.assertNotIn(" %s " % mnt, f.read())


class Code(CompatCase):
    def test_code_from_a_file_with_no_link(self):
        """i386's mmap2 and mprotect of a memfd's page as code: the events
        of their x86_64 twins, mmap and mprotect."""
        memfd = "/memfd:as-code (deleted)"
        with self.acts(["evt.arg.prot", "evt.arg.path", "fs.path.name", "evt.arg.length"]) as a:
            self.twin("mmap", None, (AS_IA32, "mmap2-memfd"), 0, evt__res="SUCCESS",
                      evt__arg__prot="PROT_READ|PROT_EXEC", evt__arg__path=memfd,
                      fs__path__name=memfd, evt__arg__length="4096")
            self.twin("mprotect", (AS_ACTS, "map-code", "memfd", "mprotect"),
                      (AS_IA32, "mprotect-memfd"), 0, evt__res="SUCCESS",
                      evt__arg__prot="PROT_READ|PROT_EXEC", evt__arg__path=memfd,
                      fs__path__name=memfd, evt__arg__length="4096")
        self.check(a)


class ShippedRules(unittest.TestCase):
    """rules/agent.yaml: an agent's ia32 acts fire what its native ones do."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="as-compat-")
        self.claude = os.path.join(self.tmp, "claude")
        shutil.copy("/bin/bash", self.claude)
        tag = "%d-%d" % (os.getpid(), id(self))
        self.etc = {k: "/etc/as-ia32-test-%s-%s" % (tag, k) for k in ("native", "ia32")}
        for path in self.etc.values():
            self.addCleanup(lambda p=path: os.path.lexists(p) and os.unlink(p))

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_agent_write_to_etc_fires_the_same_rules(self):
        acts = {"native": (AS_WORKLOAD, "open", self.etc["native"]),
                "ia32": (AS_IA32, "open", self.etc["ia32"], O_WRONLY_CREAT, "0644"),
                "native-setuid": (AS_WORKLOAD, "setuid", 0),
                "ia32-setuid": (AS_IA32, "setuid32", 0)}
        pidfile = {k: os.path.join(self.tmp, k + ".pid") for k in acts}
        # each act in a child of claude that notes its pid, then execs the driver
        script = "; ".join("sh -c 'echo $$ > %s; exec %s' >/dev/null"
                           % (pidfile[k], " ".join(str(x) for x in acts[k])) for k in acts)
        with Sentinel("--rules", RULES) as s:
            subprocess.run([self.claude, "-c", script + "; true"], check=True)
        pids = {}
        for k in acts:
            with open(pidfile[k]) as f:
                pids[k] = int(f.read())
        self.assertTrue(all(os.path.exists(p) for p in self.etc.values()))
        alerts = s.events()

        def rules_of(k):
            return sorted(x["rule"] for x in alerts
                          if x["output_fields"].get("proc.pid") == pids[k])
        native, ia32 = rules_of("native"), rules_of("ia32")
        self.assertIn(WROTE, native)  # what the native write fires today
        self.assertEqual(ia32, native)
        self.assertEqual(rules_of("ia32-setuid"), rules_of("native-setuid"))
        self.assertIn("Agent Attempted Privilege Escalation", rules_of("native-setuid"))
        wrote = {k: [x["output_fields"] for x in alerts if x["rule"] == WROTE and
                     x["output_fields"].get("proc.pid") == pids[k]] for k in ("native", "ia32")}
        for k in ("native", "ia32"):
            self.assertEqual(len(wrote[k]), 1, wrote)
            self.assertEqual(wrote[k][0]["fd.name"], self.etc[k])
            self.assertEqual(wrote[k][0]["proc.pname"], "claude")

        def strip(of):
            return {n: v for n, v in of.items() if n not in PER_PROCESS | {"fd.name"}}
        self.assertEqual(strip(wrote["ia32"][0]), strip(wrote["native"][0]))

    def run_agent_mkdirs(self, *rules):
        """A claude tree makes one directory under self.tmp natively and one
        through int $0x80 (no other rule cares: the tmpfs dirs are the
        agent's); returns ({kind: pid}, alerts)."""
        files = {k: os.path.join(self.tmp, "d-" + k) for k in ("native", "ia32")}
        acts = {"native": (AS_ACTS, "mkdir", files["native"], "0755"),
                "ia32": (AS_IA32, "mkdir", files["ia32"], "0755")}
        pidfile = {k: os.path.join(self.tmp, k + ".pid") for k in acts}
        script = "; ".join("sh -c 'echo $$ > %s; exec %s' >/dev/null"
                           % (pidfile[k], " ".join(str(x) for x in acts[k])) for k in acts)
        args = [a for r in rules for a in ("--rules", r)]
        with Sentinel(*args) as s:
            subprocess.run([self.claude, "-c", script + "; true"], check=True)
        pids = {}
        for k in acts:
            with open(pidfile[k]) as f:
                pids[k] = int(f.read())
        self.assertTrue(all(os.path.exists(p) for p in files.values()))
        return pids, s.events()

    def test_the_32bit_road_alone_alerts(self):
        pids, alerts = self.run_agent_mkdirs(RULES)
        mine = {k: [x for x in alerts if x["output_fields"].get("proc.pid") == pids[k]
                    and x["rule"] != "Agent Process Spawned Outside Sandbox"] for k in pids}
        self.assertEqual(mine["native"], [])
        self.assertEqual([x["rule"] for x in mine["ia32"]], [COMPAT_RULE], mine["ia32"])
        of = mine["ia32"][0]["output_fields"]
        self.assertEqual((of["evt.type"], of["evt.res"], of["proc.exepath"], of["proc.pname"]),
                         ("mkdir", "SUCCESS", os.path.realpath(AS_IA32), "claude"))
        self.assertEqual(mine["ia32"][0]["priority"], "Warning")

    def test_a_listed_32bit_program_does_not_alert(self):
        # the deployment's own 32-bit program, in agent_compat_programs
        extra = os.path.join(self.tmp, "compat-programs.yaml")
        with open(extra, "w") as f:
            f.write("- list: agent_compat_programs\n  items: [%s]\n  override: {items: append}\n"
                    % os.path.realpath(AS_IA32))
        os.chmod(extra, 0o600)
        pids, alerts = self.run_agent_mkdirs(RULES, extra)
        self.assertEqual([x for x in alerts if x["rule"] == COMPAT_RULE], [])
        # the tree was watched all the same
        self.assertIn("Agent Process Spawned Outside Sandbox",
                      [x["rule"] for x in alerts
                       if x["output_fields"].get("proc.pid") == pids["ia32"]])

    def test_outside_any_agent_tree_is_silent(self):
        # a positive control in the same run: the agent's own write does alert
        control = os.path.join(self.tmp, "control.pid")
        with Sentinel("--rules", RULES) as s:
            pi, ri = drive(AS_IA32, "open", self.etc["ia32"], O_WRONLY_CREAT, "0644")
            subprocess.run([self.claude, "-c", "sh -c 'echo $$ > %s; exec %s open %s' >/dev/null; "
                            "true" % (control, AS_WORKLOAD, self.etc["native"])], check=True)
        self.assertEqual(ri, ["3"])
        with open(control) as f:
            cpid = int(f.read())
        alerts = s.events()
        self.assertEqual([x["rule"] for x in alerts if x["output_fields"].get("proc.pid") == cpid
                          and x["rule"] == WROTE], [WROTE])
        mine = [x for x in alerts if x["output_fields"].get("proc.pid") == pi or
                self.etc["ia32"] in x["output"]]
        self.assertEqual(mine, [])


if __name__ == "__main__":
    if harness.ia32_refused():
        print("SKIPPED LOUDLY: every test here makes 32-bit syscalls", file=sys.stderr)
        sys.exit(77)
    harness.main()
