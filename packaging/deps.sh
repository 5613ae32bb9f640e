#!/usr/bin/env bash
# Installs the Debian 12 packages agent-sentinel needs to build, run and test.
# Idempotent and fast when everything is there: apt runs only for what is missing.
set -euo pipefail

PACKAGES=(
  # build
  build-essential cmake pkg-config clang llvm
  libbpf-dev bpftool libelf-dev zlib1g-dev libyaml-dev
  # agent-bwrap
  bubblewrap libseccomp-dev libjson-c-dev
  # tests and benchmarks
  libcmocka-dev libclang-rt-14-dev python3 bpftrace iproute2 iptables procps util-linux rsync
  liburing-dev
  libcurl4-openssl-dev openssl lintian dpkg-dev systemd groff-base man-db
  # agent-egress tests: curl inside the sandbox, openssl for the test CA
  curl
  # container runtimes the container tests start themselves
  runc containerd busybox-static podman docker.io
  # the harmless corpus of tests/e2e/test_corpus.py: real tools in the sandbox
  git tar python3-venv python3-pip python3-setuptools python3-wheel
)
# the Kubernetes manifest validator runs on Node.js; keep a Node.js that is
# already there (Debian's npm conflicts with other Node.js builds)
command -v npm >/dev/null 2>&1 || PACKAGES+=(nodejs npm)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Run "$@" (apt, a download) quietly; on failure say why and try once more.
apt_step() {
  local log rc=0
  log=$(mktemp)
  "$@" >"$log" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "packaging/deps.sh: '$*' failed (exit $rc): $(tail -n 3 "$log" | tr '\n' ' ')" >&2
    echo "packaging/deps.sh: retrying once in 5 s" >&2
    sleep 5
    rc=0
    "$@" >"$log" 2>&1 || rc=$?
    if [ "$rc" -ne 0 ]; then
      echo "packaging/deps.sh: '$*' failed again (exit $rc); its output:" >&2
      tail -n 40 "$log" >&2
    fi
  fi
  rm -f "$log"
  return "$rc"
}

if ((${#missing[@]})); then
  echo "packaging/deps.sh: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt_step apt-get update -qq
  apt_step apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
