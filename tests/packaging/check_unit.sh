#!/usr/bin/env bash
# Validate the systemd unit with systemd-analyze (no running systemd needed):
# `verify` against a scratch root holding the unit, the binary, the man page
# and the host's own units (sysinit.target ...), which must print nothing, and
# `security --offline` with an exposure threshold. A deliberately broken copy
# must be caught, so that a silent verify cannot pass for a clean one.
# usage: check_unit.sh ROOT    (ROOT: an installed package tree, e.g. dpkg-deb -x)
set -euo pipefail
root=${1:?usage: check_unit.sh ROOT}
unit=agent-sentinel.service
# exposure is printed on a 0-10 scale and compared x10: 3.2 -> 32
threshold=${AS_UNIT_EXPOSURE_MAX:-40}
command -v systemd-analyze >/dev/null || { echo "check_unit.sh: systemd-analyze not found: apt-get install systemd" >&2; exit 1; }
[ -f "$root/lib/systemd/system/$unit" ] || { echo "check_unit.sh: $root/lib/systemd/system/$unit missing" >&2; exit 1; }

# what verify resolves inside the root: systemd's units, ExecReload's kill
for d in /lib/systemd/system /usr/lib/systemd/system; do
	[ -d "$d" ] && cp -an "$d/." "$root/lib/systemd/system/" 2>/dev/null || true
done
mkdir -p "$root/bin"
[ -e "$root/bin/kill" ] || cp "$(type -P kill)" "$root/bin/kill"

export MANPATH=$root/usr/share/man
out=$(systemd-analyze verify --root="$root" "$unit" 2>&1) || { echo "systemd-analyze verify failed:" >&2; echo "$out" >&2; exit 1; }
if [ -n "$out" ]; then
	echo "systemd-analyze verify $unit:" >&2
	echo "$out" >&2
	exit 1
fi
echo "systemd-analyze verify $unit: clean"

sed 's/^Type=notify$/Type=notifyy/' "$root/lib/systemd/system/$unit" >"$root/lib/systemd/system/broken-$unit"
out=$(systemd-analyze verify --root="$root" "broken-$unit" 2>&1 || true)
rm -f "$root/lib/systemd/system/broken-$unit"
case $out in
*notifyy*) ;;
*) echo "check_unit.sh: verify did not report a broken Type=: $out" >&2; exit 1 ;;
esac

if ! systemd-analyze security --offline=true --root="$root" --threshold="$threshold" "$unit" >"$root/security.txt" 2>&1; then
	cat "$root/security.txt" >&2
	echo "check_unit.sh: exposure above $threshold/100" >&2
	exit 1
fi
grep 'Overall exposure' "$root/security.txt"
# the capability bounding set is exactly what eBPF tracing and /proc need
caps=$(sed -n 's/^CapabilityBoundingSet=//p' "$root/lib/systemd/system/$unit")
want="CAP_BPF CAP_PERFMON CAP_SYS_RESOURCE CAP_SYS_PTRACE CAP_DAC_READ_SEARCH"
[ "$caps" = "$want" ] || { echo "check_unit.sh: CapabilityBoundingSet=$caps, expected $want" >&2; exit 1; }
grep -q '^Type=notify$' "$root/lib/systemd/system/$unit"
grep -q '^ExecReload=/bin/kill -HUP \$MAINPID$' "$root/lib/systemd/system/$unit"
