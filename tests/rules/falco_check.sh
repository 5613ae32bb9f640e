#!/bin/sh
# Load Falco's default rules; every diagnostic must match the expected list.
# With a fourth argument (Falco's incubating or sandbox file), load it after
# the stable file as Falco would (-r falco_rules.yaml -r EXTRA: it uses the
# stable file's lists and macros), and require that at least two thirds of
# EXTRA's own rules load (issue 12).
set -u
loader=$1 rules=$2 expected=$3 extra=${4:-}
out=$("$loader" "$rules" $extra 2>&1 >/dev/null)
rc=$?
if [ $rc -gt 1 ]; then echo "loader crashed or failed (rc=$rc)" >&2; echo "$out" >&2; exit 1; fi
# file names differ between checkouts: compare from the line number on, or,
# with two files, from the file's base name on
if [ -z "$extra" ]; then strip='s|^[^:]*:||'; else strip='s|^[^:]*/||'; fi
printf '%s\n' "$out" | sed "$strip" > "${TMPDIR:-/tmp}/falco_diag.$$"
trap 'rm -f "${TMPDIR:-/tmp}/falco_diag.$$"' EXIT
diff -u "$expected" "${TMPDIR:-/tmp}/falco_diag.$$" || exit 1
if [ -z "$extra" ]; then
	"$loader" "$rules" 2>/dev/null | tail -1
	exit 0
fi
# the rule list's last column is where each rule was defined
base=$(basename "$extra")
total=$(grep -c '^- rule:' "$extra")
loaded=$("$loader" "$rules" "$extra" 2>/dev/null | grep -c "[	/]$base:[0-9]*\$")
echo "$base: $loaded of $total rules loaded"
if [ $((loaded * 3)) -lt $((total * 2)) ]; then
	echo "fewer than two thirds of $base's rules load" >&2
	exit 1
fi
