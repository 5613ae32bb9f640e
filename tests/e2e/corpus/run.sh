# Runs the lines of the file named by $1 one by one (see harmless.sh).
grep -v '^#' "$1" | while IFS= read -r line; do
	[ -n "$line" ] || continue
	(cd /workspace && eval "$line") || { echo "corpus line failed: $line" >&2; exit 1; }
done
