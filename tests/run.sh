#!/usr/bin/env bash
# Installs what is missing, builds twice (plain, and with AddressSanitizer +
# UndefinedBehaviorSanitizer), and runs the whole test suite in both builds:
# unit, rule-engine, launcher and root end-to-end tests on the real kernel.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

bash packaging/deps.sh
npm ci --silent --no-audit --no-fund --prefix tests/bwrap/k8s >/dev/null

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$jobs"
# clang: the libFuzzer harnesses of the rule engine build only with it
CC=clang cmake -S . -B build-san -DCMAKE_BUILD_TYPE=Debug -DSANITIZE=ON >/dev/null
cmake --build build-san -j"$jobs"

export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
status=0
echo "== tests: plain build"
(cd build && ctest --output-on-failure -j"$jobs") || status=1
echo "== tests: AddressSanitizer + UndefinedBehaviorSanitizer build"
(cd build-san && ctest --output-on-failure -j"$jobs") || status=1
exit $status
