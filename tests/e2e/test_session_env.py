#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""The agent session from the environment at exec, on the real kernel
(bpf/proc.bpf.c, as_session_from_env): the first string that starts with
AGENT_SESSION_ID= and has a value sets the session, wherever it is in the
block the kernel side reads in chunks: first, last, after an 8 KiB string,
across each chunk edge. Empty values, the key inside another string and a
near miss are no session: the process keeps the one it inherited.

Every environment is given as the exact list of strings (execve through
libc), so repeated names and their order are what the test says."""
import ctypes
import os
import re
import shutil
import tempfile
import unittest

import harness
from harness import Sentinel

KEY = "AGENT_SESSION_ID="
PROBE = "as-senv-probe"  # the exec'd program's name: no other test uses it
RULE = "session probe"
SESSION_MAX = 64  # AS_SESSION_MAX (bpf/events.h): value bytes incl. NUL
PAD = 1000  # bytes of the padding strings before a key placed at an offset
libc = ctypes.CDLL(None, use_errno=True)


def bpf_define(name):
    """A number #defined in bpf/sentinel.bpf.h (the chunk sizes)."""
    with open(os.path.join(harness.AS_SOURCE_DIR, "bpf", "sentinel.bpf.h")) as f:
        text = f.read()
    m = re.search(r"#define %s \(?(\w+)( \+ 1\))?" % name, text)
    assert m, name
    v = m.group(1)
    return (int(v) if v.isdigit() else bpf_define(v)) + (1 if m.group(2) else 0)


CHUNK_FIRST = bpf_define("AS_ENV_CHUNK_FIRST")
CHUNK = bpf_define("AS_SCRATCH_OFF_MASK") + 1  # AS_ENV_CHUNK
# the first chunk tests the string starts [0, CHUNK_FIRST) of the block, the
# next [CHUNK_FIRST, CHUNK_FIRST + CHUNK), each reading the 17 bytes past its
# end that a key at its last start needs
EDGES = [CHUNK_FIRST, CHUNK_FIRST + CHUNK]


def padding(nbytes, tag):
    """Strings that fill exactly NBYTES of the block (NULs included)."""
    out = []
    i = 0
    while nbytes > 0:
        n = PAD if nbytes >= PAD + 4 else nbytes  # the last one takes the rest
        assert n >= 4, nbytes
        name = "P%s%d=" % (tag, i)
        assert n - 1 >= len(name), n
        out.append(name + "x" * (n - 1 - len(name)))
        nbytes -= n
        i += 1
    return out


def at_offset(off, value, tag):
    """An environment whose key string begins OFF bytes into the block."""
    env = padding(off, tag)
    assert sum(len(s) + 1 for s in env) == off
    return env + [KEY + value, "AFTER=1"]


class SessionEnv(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="as-senv-")
        os.chmod(self.dir, 0o755)
        self.probe = os.path.join(self.dir, PROBE)
        shutil.copy("/bin/true", self.probe)
        self.rules = os.path.join(self.dir, "probe.yaml")
        with open(self.rules, "w") as f:
            f.write("- rule: %s\n  desc: the probe's exec and its session\n"
                    "  condition: evt.type = execve and proc.name = %s\n"
                    "  output: \"probe %%proc.pid %%agent.session\"\n"
                    "  priority: WARNING\n" % (RULE, PROBE))
        os.chmod(self.rules, 0o600)

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def run_probe(self, env, args=(PROBE,)):
        """exec the probe with exactly the strings ENV (and ARGS); its pid."""
        argv = (ctypes.c_char_p * (len(args) + 1))(*[a.encode() for a in args], None)
        envp = (ctypes.c_char_p * (len(env) + 1))(*[s.encode() for s in env], None)
        path = self.probe.encode()
        pid = os.fork()
        if pid == 0:
            libc.execve(path, argv, envp)
            os._exit(127)
        _, status = os.waitpid(pid, 0)
        self.assertEqual(os.waitstatus_to_exitcode(status), 0, env[:3])
        return pid

    def sessions(self, cases):
        """CASES: {name: env}; {name: agent.session of its exec}, and the
        session of an exec without the variable (what a process inherits)."""
        pids = {}
        with Sentinel("-r", self.rules) as s:
            base = self.run_probe(["PATH=/usr/bin:/bin"])
            for name, env in cases.items():
                if name.startswith("no argv"):
                    pids[name] = self.run_probe(env, args=())
                else:
                    pids[name] = self.run_probe(env)
        alerts = {a["output_fields"]["proc.pid"]: a["output_fields"].get("agent.session")
                  for a in s.events() if a.get("rule") == RULE}
        self.assertIn(base, alerts, s.stderr)
        got = {}
        for name, pid in pids.items():
            self.assertIn(pid, alerts, name)
            got[name] = alerts[pid]
        return got, alerts[base]

    def test_where_the_variable_is(self):
        common = ["HOME=/root", "LANG=C.UTF-8", "TERM=xterm", "ANSWER=42", "A=", "A"]
        big = "BIG=" + "b" * 8192
        cases = {
            "first": [KEY + "s-first"] + common * 6,
            "last": common * 6 + [KEY + "s-last"],
            "after 8 KiB": [big, KEY + "s-after-big"],
            "after 8 KiB and 300 strings": [big] + ["V%03d=%s" % (i, "v" * 120)
                                                   for i in range(300)] + [KEY + "s-deep"],
            "the first of two": common + [KEY + "s-one", KEY + "s-two"],
            "after an empty one": [KEY, "X=1", KEY + "s-after-empty"],
            "after near misses": [KEY[:-1] + "X=no", "AGENT_SESSION_IDX=no", "AGENT_SESSION_I",
                                  "AGENT_SESSION_ID", "AGENT_SESSION_id=no", "A" * 40,
                                  KEY + "s-after-misses"],
            "cut to the id size": [KEY + "L" * 200],
            "value is the last byte": ["Y=" + "y" * 100, KEY + "z"],
            "one-byte strings around": ["", "", KEY + "s-empties", ""],
            # the kernel then gives argv one empty string, below the block
            "no argv, key first": [KEY + "s-no-argv", "B=1"],
        }
        got, _ = self.sessions(cases)
        self.assertEqual(got, {
            "first": "s-first", "last": "s-last", "after 8 KiB": "s-after-big",
            "after 8 KiB and 300 strings": "s-deep", "the first of two": "s-one",
            "after an empty one": "s-after-empty", "after near misses": "s-after-misses",
            "cut to the id size": "L" * (SESSION_MAX - 1), "value is the last byte": "z",
            "one-byte strings around": "s-empties", "no argv, key first": "s-no-argv",
        })

    def test_no_session(self):
        cases = {
            "empty value": ["HOME=/", KEY],
            "key not at the start": ["X" + KEY + "bad-x"],
            "key inside a value": ["FOO=" + KEY + "bad-value"],
            # the earlier scan read a long string 4096 bytes at a time and took
            # a piece's start for a string's
            "key inside a long string": ["P=" + "x" * 4094 + KEY + "bad-piece", "Q=1"],
            # at the first start the second chunk tests, after a byte that is not a NUL
            "key at a chunk's start in a long string": [
                "P=" + "x" * (CHUNK_FIRST - 2) + KEY + "bad-edge"],
            "key at each offset of a long string": ["P=" + "".join(
                "x" * k + KEY + "bad-%d" % k for k in range(40))],
            "near misses only": ["AGENT_SESSION_IDX=no", KEY[:-1], "A" * 17 + "=no"],
        }
        got, base = self.sessions(cases)
        self.assertEqual(got, {name: base for name in cases})
        self.assertFalse([v for v in got.values() if v and "bad" in v], got)

    def test_key_across_each_chunk_edge(self):
        """The key begins -1..18 bytes before each edge between two chunks:
        at 1..17 it straddles the edge, at 17 only its value is past it."""
        cases = {}
        for e, edge in enumerate(EDGES):
            for before in range(-1, len(KEY) + 2):
                cases["edge %d - %d" % (edge, before)] = at_offset(
                    edge - before, "s-%d-%d" % (e, before), "%d%d" % (e, before))
        got, _ = self.sessions(cases)
        want = {}
        for e, edge in enumerate(EDGES):
            for before in range(-1, len(KEY) + 2):
                want["edge %d - %d" % (edge, before)] = "s-%d-%d" % (e, before)
        self.assertEqual(got, want)


if __name__ == "__main__":
    harness.main()
