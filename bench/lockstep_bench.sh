#!/bin/bash
# Lockstep overhead (docs/results.md): S1 run with base alone and with
# base+pud in lockstep, oracles on, both THP modes; the ratio of the two
# CPU times is measured in one run on one machine.
# Usage: bench/lockstep_bench.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
aw=${1:-build}/agewalk
f=corpus/scenarios/s1-cross-node.aws
# CPU seconds of N runs (THP always is too quick to time once)
cpu() {
	local n=$1
	shift
	/usr/bin/time -f "%U %S" bash -c 'for i in $(seq '"$n"'); do "$@" >/dev/null; done' _ "$@" 2>&1 |
		tail -1 | awk '{print $1 + $2}'
}
for mode in never always; do
	n=1
	[ "$mode" = always ] && n=20
	one=$(cpu $n "$aw" run --thp "$mode" --variants base "$f")
	two=$(cpu $n "$aw" run --thp "$mode" --variants base,pud "$f")
	awk -v m="$mode" -v a="$one" -v b="$two" -v n="$n" \
		'BEGIN { printf "S1 thp=%s (%d runs): base %.2f s, base+pud %.2f s, ratio %.2fx\n", m, n, a, b, b / a }'
done
