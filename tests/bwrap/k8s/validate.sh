#!/bin/sh
# Validate every Kubernetes manifest under PACKAGING_DIR against the Kubernetes
# API schemas (kubernetes-models, see validate.mjs), and check that the
# validator rejects the known-bad manifests in bad/.
# Needs node and `npm ci --prefix tests/bwrap/k8s` (packaging/deps.sh does it).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
pkg=${1:?usage: validate.sh PACKAGING_DIR}

command -v node >/dev/null || { echo "validate.sh: node not found: apt-get install nodejs npm" >&2; exit 1; }
if [ ! -d "$here/node_modules/kubernetes-models" ] || [ ! -d "$here/node_modules/yaml" ]; then
	echo "validate.sh: validator not installed: run npm ci --prefix $here" >&2
	exit 1
fi

files=$(find "$pkg" -type f \( -name '*.yaml' -o -name '*.yml' \) | sort)
manifests=""
for f in $files; do
	grep -q '^apiVersion:' "$f" && manifests="$manifests $f"
done
[ -n "$manifests" ] || { echo "validate.sh: no Kubernetes manifest under $pkg" >&2; exit 1; }

# shellcheck disable=SC2086 # word splitting wanted: paths have no spaces
node "$here/validate.mjs" $manifests

bad_ok=0
for f in "$here"/bad/*.yaml; do
	if node "$here/validate.mjs" "$f" >/dev/null 2>&1; then
		echo "validate.sh: $f was accepted but must be rejected" >&2
		bad_ok=1
	fi
done
[ $bad_ok -eq 0 ] || exit 1
n=$(echo $manifests | wc -w)
echo "k8s manifests: $n file(s) valid, $(ls "$here"/bad/*.yaml | wc -l) bad one(s) rejected"
