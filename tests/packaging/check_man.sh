#!/usr/bin/env bash
# Render every man page with warnings on (groff -ww, and man --warnings at the
# 80 columns lintian uses) and fail on any warning.
# usage: check_man.sh PAGE...
set -euo pipefail
command -v groff >/dev/null || { echo "check_man.sh: groff not found: apt-get install groff-base" >&2; exit 1; }
command -v man >/dev/null || { echo "check_man.sh: man not found: apt-get install man-db" >&2; exit 1; }
(($#)) || { echo "usage: check_man.sh PAGE..." >&2; exit 2; }
export LC_ALL=C.UTF-8 MANWIDTH=80
status=0
for page in "$@"; do
	out=$( { zcat -f "$page" | groff -man -Tutf8 -ww -z; } 2>&1) || { echo "$page: groff failed" >&2; status=1; }
	out+=$(man --warnings -E UTF-8 -l "$page" 2>&1 >/dev/null) || { echo "$page: man -l failed" >&2; status=1; }
	if [ -n "$out" ]; then
		echo "$page: warnings:" >&2
		echo "$out" >&2
		status=1
	fi
	# the page must document something: NAME and SYNOPSIS render
	man -l "$page" 2>/dev/null | grep -q '^NAME' || { echo "$page: no NAME section" >&2; status=1; }
done
[ $status -eq 0 ] && echo "man pages: $# rendered without warnings"
exit $status
