#!/bin/bash
# S9 reclaim pressure at the seed's full length (600 s of simulated time;
# CI runs the 60 s cut in corpus/scenarios/s9-reclaim-pressure.aws).
# Checks the same expectations and prints the figures docs/results.md uses.
# Usage: bench/s9-600s.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
aw=${1:-build}/agewalk
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed 's/^repeat 30 {$/repeat 300 {/' corpus/scenarios/s9-reclaim-pressure.aws > "$tmp/s9-600s.aws"
grep -q '^repeat 300 {$' "$tmp/s9-600s.aws"
for mode in always never; do
	/usr/bin/time -f "thp=$mode: %e s, %M KiB peak" \
		"$aw" run --check --thp "$mode" --variants base,pud "$tmp/s9-600s.aws"
done
