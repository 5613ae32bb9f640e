#!/bin/sh
# Load Falco's default rules; every diagnostic must match the expected list.
set -u
loader=$1 rules=$2 expected=$3
out=$("$loader" "$rules" 2>&1 >/dev/null)
rc=$?
if [ $rc -gt 1 ]; then echo "loader crashed or failed (rc=$rc)" >&2; echo "$out" >&2; exit 1; fi
# file names differ between checkouts: compare from the line number on
printf '%s\n' "$out" | sed 's|^[^:]*:||' > "${TMPDIR:-/tmp}/falco_diag.$$"
trap 'rm -f "${TMPDIR:-/tmp}/falco_diag.$$"' EXIT
diff -u "$expected" "${TMPDIR:-/tmp}/falco_diag.$$" || exit 1
"$loader" "$rules" 2>/dev/null | tail -1
