#!/usr/bin/env bash
# Installs what is missing, builds twice (plain, and with AddressSanitizer +
# UndefinedBehaviorSanitizer), and runs the whole test suite in both builds:
# unit, rule-engine, launcher and root end-to-end tests on the real kernel.
# Every step says what it was doing when it fails.
set -Eeuo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

step="starting"
trap 'rc=$?; echo "tests/run.sh: failed while $step (exit $rc)" >&2; exit $rc' ERR

# Run "$@" (a download) with its output kept; on failure say why, wait, try
# once more, and on a second failure show what it said.
retry_once() {
	local log rc=0
	log=$(mktemp)
	"$@" >"$log" 2>&1 || rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "tests/run.sh: $step: '$*' failed (exit $rc): $(tail -n 3 "$log" | tr '\n' ' ')" >&2
		echo "tests/run.sh: $step: retrying once in 5 s" >&2
		sleep 5
		rc=0
		"$@" >"$log" 2>&1 || rc=$?
		if [ "$rc" -ne 0 ]; then
			echo "tests/run.sh: $step: '$*' failed again (exit $rc); its output:" >&2
			tail -n 40 "$log" >&2
		fi
	fi
	rm -f "$log"
	return "$rc"
}

step="installing the Debian packages (packaging/deps.sh)"
bash packaging/deps.sh
# The Kubernetes manifest validator (tests/bwrap/k8s): kubernetes-models, the
# API schemas as code, is in no Debian package, so it comes from the npm
# registry at the versions package-lock.json pins.
step="installing the Kubernetes manifest validator (npm ci --prefix tests/bwrap/k8s)"
retry_once npm ci --no-audit --no-fund --prefix tests/bwrap/k8s

step="configuring the plain build (cmake -B build)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
step="building the plain build"
cmake --build build -j"$jobs"
# clang: the libFuzzer harnesses of the rule engine build only with it
step="configuring the sanitizer build (cmake -B build-san)"
CC=clang cmake -S . -B build-san -DCMAKE_BUILD_TYPE=Debug -DSANITIZE=ON >/dev/null
step="building the sanitizer build"
cmake --build build-san -j"$jobs"

export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
status=0
step="running the tests"
echo "== tests: plain build"
(cd build && ctest --output-on-failure -j"$jobs") || status=1
echo "== tests: AddressSanitizer + UndefinedBehaviorSanitizer build"
(cd build-san && ctest --output-on-failure -j"$jobs") || status=1
[ "$status" -eq 0 ] || echo "tests/run.sh: some tests failed (listed above)" >&2
exit $status
