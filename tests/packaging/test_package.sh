#!/usr/bin/env bash
# Build the Debian package with CPack into a temporary directory, check it
# (dpkg-deb --info, contents, conffiles, lintian when installed), install it
# into a scratch root with dpkg, run what it installed, validate the unit and
# the man pages there, then remove and purge it.
#
# usage: test_package.sh SOURCE_DIR BUILD_DIR INSTALL_PREFIX
# The package must be built with CMAKE_INSTALL_PREFIX=/usr (paths compiled
# into the binaries, /etc for the configuration): BUILD_DIR is used as it is
# when it was configured so, else a fresh /usr build is made in the temp dir.
set -euo pipefail
src=${1:?usage: test_package.sh SOURCE_DIR BUILD_DIR INSTALL_PREFIX}
build=${2:?}
prefix=${3:?}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d /tmp/as-package.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "test_package.sh: $*" >&2; exit 1; }
need() { command -v "$1" >/dev/null || fail "$1 not found: apt-get install $2"; }
need cpack cmake
need dpkg-deb dpkg
need dpkg-shlibdeps dpkg-dev
pass=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }

# ---- build the package ----
if [ "$prefix" != /usr ]; then
	echo "== configuring a /usr build in $tmp/build (this build's prefix is $prefix)"
	cmake -S "$src" -B "$tmp/build" -DCMAKE_INSTALL_PREFIX=/usr -DBUILD_TESTING=OFF \
		-DCMAKE_BUILD_TYPE=RelWithDebInfo >"$tmp/configure.log" 2>&1 ||
		{ cat "$tmp/configure.log" >&2; fail "configure failed"; }
	cmake --build "$tmp/build" -j"$(nproc)" >"$tmp/build.log" 2>&1 ||
		{ tail -50 "$tmp/build.log" >&2; fail "build failed"; }
	build=$tmp/build
fi
[ -f "$build/CPackConfig.cmake" ] || fail "$build has no CPackConfig.cmake: include(Packaging) missing?"
(cd "$build" && cpack -G DEB -B "$tmp/out") >"$tmp/cpack.log" 2>&1 ||
	{ cat "$tmp/cpack.log" >&2; fail "cpack failed"; }
debs=("$tmp"/out/*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || fail "expected one .deb in $tmp/out"
deb=${debs[0]}
ok "cpack built $(basename "$deb")"

# ---- control fields ----
dpkg-deb --info "$deb" >"$tmp/info" || fail "dpkg-deb --info failed"
field() { dpkg-deb --field "$deb" "$1"; }
[ "$(field Package)" = agent-sentinel ] || fail "Package: $(field Package)"
[ "$(field Architecture)" = "$(dpkg --print-architecture)" ] || fail "Architecture: $(field Architecture)"
version=$(field Version)
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+-[0-9]+$ ]] || fail "Version: $version"
[ -n "$(field Maintainer)" ] && [ "$(field Section)" = admin ] || fail "Maintainer/Section missing"
depends=$(field Depends)
for lib in libc6 libbpf1 libyaml-0-2 libjson-c5; do
	[[ $depends == *"$lib"* ]] || fail "Depends lacks $lib (computed by dpkg-shlibdeps): $depends"
done
# agent-bwrap and agent-bwrap-init are linked statically (libseccomp
# included): no loader variable of the caller's reaches the launcher
[[ $depends != *libseccomp* ]] || fail "Depends has libseccomp, yet agent-bwrap is static: $depends"
# dlopen()ed for the HTTP output, so declared by hand
[[ $depends == *"libcurl4 (>= 7.80)"* ]] || fail "Depends lacks libcurl4: $depends"
[[ $(field Description) == *Falco* ]] || fail "Description: $(field Description)"
ok "dpkg-deb --info: $(field Package) $version $(field Architecture); Depends: $depends"

# ---- contents ----
dpkg-deb --contents "$deb" | awk '{print $6}' | sed 's|^\./|/|' >"$tmp/contents"
for f in /usr/bin/agent-sentinel /usr/bin/agent-bwrap /usr/bin/agent-egress \
	/usr/libexec/agent-sentinel/agent-bwrap-init \
	/etc/agent-sentinel/egress.yaml /lib/systemd/system/agent-egress.service \
	/usr/share/man/man8/agent-egress.8.gz \
	/usr/share/agent-sentinel/rules/agent.yaml \
	/usr/share/agent-sentinel/seccomp/agent.json \
	/etc/agent-sentinel/agent-sentinel.yaml /etc/agent-sentinel/rules.d/ \
	/lib/systemd/system/agent-sentinel.service \
	/usr/share/man/man8/agent-sentinel.8.gz /usr/share/man/man1/agent-bwrap.1.gz \
	/usr/share/doc/agent-sentinel/copyright /usr/share/doc/agent-sentinel/changelog.Debian.gz; do
	grep -qxF "$f" "$tmp/contents" || fail "package lacks $f"
done
! grep -q '^/usr/local' "$tmp/contents" || fail "package has /usr/local paths"
ok "contents: binaries, rules, seccomp profile, config, unit, man pages, copyright"

# ---- conffiles: every file under /etc, and only those ----
mkdir "$tmp/ctrl"
dpkg-deb --control "$deb" "$tmp/ctrl"
[ -f "$tmp/ctrl/conffiles" ] || fail "no conffiles"
grep '^/etc/.*[^/]$' "$tmp/contents" | sort >"$tmp/etc-files"
sort "$tmp/ctrl/conffiles" | diff -u "$tmp/etc-files" - || fail "conffiles differ from the files under /etc"
for s in postinst prerm postrm; do
	[ -x "$tmp/ctrl/$s" ] || fail "$s missing or not executable"
	sh -n "$tmp/ctrl/$s" || fail "$s: syntax error"
	grep -q 'DPKG_ROOT' "$tmp/ctrl/$s" || fail "$s ignores DPKG_ROOT"
done
ok "conffiles: $(tr '\n' ' ' <"$tmp/ctrl/conffiles")"

# ---- install into a scratch root ----
root=$tmp/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
touch "$root/var/lib/dpkg/status"
dpkg_root() {
	# maintainer scripts run outside the root with DPKG_ROOT set; ours then
	# touch no service. --force-depends: the scratch root has no libraries.
	dpkg --root="$root" --force-not-root --force-depends --force-script-chrootless \
		--log=/dev/null "$@"
}
dpkg_root -i "$deb" >"$tmp/dpkg.log" 2>&1 || { cat "$tmp/dpkg.log" >&2; fail "dpkg -i into $root failed"; }
dpkg_root -s agent-sentinel | grep -qx 'Status: install ok installed' || fail "not installed"
dpkg_root -s agent-sentinel | grep -q '^ /etc/agent-sentinel/agent-sentinel.yaml [0-9a-f]\{32\}$' ||
	fail "conffile not registered"
mode=$(stat -c '%a %U:%G' "$root/etc/agent-sentinel/agent-sentinel.yaml")
[ "$mode" = "644 root:root" ] || fail "config mode $mode"
[ -x "$root/usr/bin/agent-sentinel" ] && [ -x "$root/usr/bin/agent-bwrap" ] || fail "binaries not executable"
for f in /usr/bin/agent-bwrap /usr/libexec/agent-sentinel/agent-bwrap-init; do
	! readelf -lW "$root$f" | grep -q 'Requesting program interpreter' ||
		fail "$f is dynamically linked: a caller's LD_PRELOAD would run inside the launcher"
done
ok "dpkg --root installed it; conffile registered; config 0644 root:root"

# the installed binaries run and read the installed files
"$root/usr/bin/agent-sentinel" --version | grep -q "^agent-sentinel $(echo "$version" | cut -d- -f1)" ||
	fail "agent-sentinel --version: $("$root/usr/bin/agent-sentinel" --version 2>&1)"
"$root/usr/bin/agent-bwrap" --help >/dev/null 2>&1 || fail "agent-bwrap --help failed"
"$root/usr/bin/agent-egress" --config "$root/etc/agent-sentinel/egress.yaml" --check 2>"$tmp/egress" ||
	{ cat "$tmp/egress" >&2; fail "agent-egress --check of the installed allowlist failed"; }
dpkg_root -s agent-sentinel | grep -q '^ /etc/agent-sentinel/egress.yaml [0-9a-f]\{32\}$' ||
	fail "egress.yaml not registered as a conffile"
"$root/usr/bin/agent-sentinel" -V "$root/usr/share/agent-sentinel/rules/agent.yaml" 2>"$tmp/validate" ||
	{ cat "$tmp/validate" >&2; fail "the installed rules do not validate"; }
if "$root/usr/bin/agent-sentinel" --help | grep -q -- '-c, --config'; then
	sed "s|^  - /|  - $root/|" "$root/etc/agent-sentinel/agent-sentinel.yaml" >"$tmp/config.yaml"
	"$root/usr/bin/agent-sentinel" -c "$tmp/config.yaml" --dry-run 2>"$tmp/dry" ||
		{ cat "$tmp/dry" >&2; fail "--dry-run with the installed config failed"; }
	ok "agent-sentinel --dry-run loads the installed config and rules"
fi
ok "installed binaries run; installed rules validate"

bash "$here/check_man.sh" "$root/usr/share/man/man8/agent-sentinel.8.gz" "$root/usr/share/man/man1/agent-bwrap.1.gz" \
	"$root/usr/share/man/man8/agent-egress.8.gz"
ok "installed man pages render without warnings"
bash "$here/check_unit.sh" "$root"
ok "installed unit verified"
out=$(MANPATH=$root/usr/share/man systemd-analyze verify --root="$root" agent-egress.service 2>&1) &&
	[ -z "$out" ] || fail "systemd-analyze verify agent-egress.service: $out"
ok "agent-egress.service verified"

# ---- lintian (Debian's package checker), when installed ----
if command -v lintian >/dev/null; then
	if ! lintian --fail-on error,warning "$deb" >"$tmp/lintian" 2>&1; then
		cat "$tmp/lintian" >&2
		fail "lintian reported errors or warnings"
	fi
	grep -v '^running with root' "$tmp/lintian" || true
	ok "lintian: no error or warning"
else
	echo "lintian not installed (apt-get install lintian): skipped"
fi

# ---- remove keeps the conffile, purge removes it ----
dpkg_root -r agent-sentinel >>"$tmp/dpkg.log" 2>&1 || { cat "$tmp/dpkg.log" >&2; fail "dpkg -r failed"; }
[ ! -e "$root/usr/bin/agent-sentinel" ] || fail "binary left after remove"
[ -f "$root/etc/agent-sentinel/agent-sentinel.yaml" ] || fail "conffile removed by remove (only purge may)"
dpkg_root --purge agent-sentinel >>"$tmp/dpkg.log" 2>&1 || { cat "$tmp/dpkg.log" >&2; fail "dpkg --purge failed"; }
[ ! -e "$root/etc/agent-sentinel" ] || fail "/etc/agent-sentinel left after purge"
ok "remove keeps the configuration, purge removes it"

echo "$pass passed, 0 failed"
