# The harmless session of tests/e2e/test_corpus.py: ordinary agent work with
# real tools, run by /bin/sh inside agent-bwrap (cwd /workspace, no network).
# One command a line (lines run in order, each from /workspace); a failing
# line fails the test. Every line must raise no alert.
ls -la /workspace /usr/bin/env
id
whoami
ls -l /etc/passwd
git init -q repo
cd repo && git config user.name t && git config user.email t@example.invalid && git remote add origin https://example.invalid/filter.cmd.git && git config branch.main.remote origin
cd repo && git -c user.name=t -c user.email=t@example.invalid commit -q --allow-empty -m init
printf 'hello\n' > repo/hello.txt && cd repo && git add hello.txt && git -c user.name=t -c user.email=t@example.invalid commit -q -m hello && git log --oneline
git clone -q repo clone && git -C clone log --oneline > /dev/null && cat repo/.git/hooks/pre-commit.sample > /dev/null && rm -rf clone
git -C repo worktree add -q ../wt && git -C wt status --short && rm -rf wt && git -C repo worktree prune
git -C repo -c protocol.file.allow=always submodule add -q /workspace/repo sub && git -C repo config --local --add user.email u@example.invalid
printf '#include <stdio.h>\nint main(void){puts("hi");return 0;}\n' > hi.c && cc -o hi hi.c && ./hi
python3 -c 'import tempfile, os; open("/workspace/py.txt", "w").write("x"); d = tempfile.mkdtemp(); open(os.path.join(d, "f"), "w").write("y")'
tar -cf /tmp/ws.tar -C /workspace repo hi.c && mkdir /tmp/x && tar -xf /tmp/ws.tar -C /tmp/x
printf 'all: hi2\nhi2: hi.c\n\tcc -o hi2 hi.c\n' > Makefile && make -s && ./hi2
ldd ./hi > /dev/null && /lib64/ld-linux-x86-64.so.2 ./hi && bash -c 'diff <(echo a) <(echo a)'
mkdir -p pkg/demo && printf 'def f():\n    return 1\n' > pkg/demo/__init__.py && printf 'from setuptools import setup\nsetup(name="demo", version="1.0", packages=["demo"])\n' > pkg/setup.py
python3 -m pip wheel -q --no-index --no-build-isolation --no-deps -w /tmp/wheels ./pkg
python3 -c 'import tempfile; f = tempfile.TemporaryFile(); f.write(b"x"); f.seek(0); assert f.read() == b"x"'
python3 -m venv /tmp/venv && /tmp/venv/bin/pip install -q --no-index --no-cache-dir /tmp/wheels/demo-1.0-py3-none-any.whl && /tmp/venv/bin/python -c 'import demo; print(demo.f())'
mkdir -p npmpkg app && printf '{"name":"npmpkg","version":"1.0.0","main":"index.js"}\n' > npmpkg/package.json && echo 'module.exports = 1' > npmpkg/index.js && printf '{"name":"app","version":"1.0.0"}\n' > app/package.json
cd app && npm install --offline --no-audit --no-fund --no-update-notifier ../npmpkg && node -e 'console.log(require("npmpkg"))'
echo 'to stderr, a pipe here' > /dev/stderr && printf 'tee to stderr\n' | tee /dev/stderr > /dev/null
touch /dev/stdout | cat && touch /dev/stderr 2>&1 | cat
getent hosts localhost && getent ahosts localhost > /dev/null && (getent hosts pypi.org; true)
(python3 -c 'import socket; socket.getaddrinfo("registry.npmjs.org", 443)' 2>/dev/null; true)
python3 -c 'import socket; u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind(("127.0.0.1", 0)); v = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); v.sendto(b"x", u.getsockname()); print(u.recv(1))'
echo hi | chmod 600 /dev/stdin && chmod 600 /dev/stdout | cat && chmod 644 /dev/stdin < /workspace/hi.c && chmod 644 /proc/self/fd/1 | cat
python3 -c 'import socket; socket.getaddrinfo(None, 8000, 0, socket.SOCK_STREAM, 0, socket.AI_PASSIVE)'
python3 -c 'import socket; s = socket.socket(socket.AF_UNIX); s.bind("/tmp/srv.sock"); s.listen(1)'
python3 -c 'import socket, os; S = lambda a: (s := socket.socket(socket.AF_UNIX), s.bind(a), s.listen(1), c := socket.socket(socket.AF_UNIX), c.connect(a), c.send(b"x"), s.accept()[0].recv(1)); print(S("/workspace/srv.sock")[-1], S("\0as-harmless")[-1]); os.unlink("/workspace/srv.sock")'
python3 -m venv .env && ls .env > /dev/null && du -s /workspace > /dev/null && printf 'API_URL=\n' > .env.example && cat .env.example
ps aux > /dev/null && ps -ef > /dev/null
head -c 8 /dev/urandom > /dev/null && (echo x > /dev/full; true) && exec 4<>/dev/zero
bash -c "$(printf 'cat /dev/stdin > /dev/null <<EOF\n%s\nEOF\n' "$(head -c 100000 /dev/zero | tr '\0' x)")"
