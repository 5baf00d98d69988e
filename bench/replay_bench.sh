#!/bin/bash
# Replay throughput (docs/results.md): record ~1 M page faults with
# traces/record (root, tracefs), then compare, in one run, the CPU and
# wall time of
#   agewalk replay FILE --variants base,pud   (ingest + lockstep, aging every 500 ms)
#   trace-cmd report FILE > /dev/null
# alternately, ROUNDS times (default 7: a shared machine's noise is +-15%),
# and report the medians, their ratios, each round's CPU ratio and
# agewalk's peak memory.  Usage: bench/replay_bench.sh [BUILD_DIR] [ROUNDS] [FILE.dat]
# (a FILE given is replayed instead of a new recording).
set -euo pipefail
cd "$(dirname "$0")/.."
aw=${1:-build}/agewalk
rounds=${2:-7}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dat=${3:-}
if [ -z "$dat" ]; then
	cc -O2 traces/workloads/faulter.c -o "$work/faulter"
	traces/record -b 262144 -o "$work/faulter.dat" -- "$work/faulter" 64 >/dev/null 2>&1
	dat=$work/faulter.dat
fi
events=$("$aw" replay "$dat" --no-progress --json --variants base |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["trace"]["events_read"])')
run() {	# run CMD...: "user+sys wall maxrss_kb"
	/usr/bin/time -f "%U %S %e %M" "$@" 2>&1 >/dev/null | tail -1 | awk '{ print $1 + $2, $3, $4 }'
}
for ((i = 0; i < rounds; i++)); do
	echo "$(run "$aw" replay "$dat" --no-progress --variants base,pud) $(run trace-cmd report "$dat")"
done >"$work/rounds"
med() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
ac=$(cut -d' ' -f1 "$work/rounds" | med) aw_=$(cut -d' ' -f2 "$work/rounds" | med)
am=$(cut -d' ' -f3 "$work/rounds" | med)
tc=$(cut -d' ' -f4 "$work/rounds" | med) tw=$(cut -d' ' -f5 "$work/rounds" | med)
awk -v e="$events" -v s="$(stat -c %s "$dat")" -v ac="$ac" -v aw="$aw_" -v am="$am" -v tc="$tc" -v tw="$tw" \
	-v n="$rounds" 'BEGIN { printf "%d events (%.1f MiB trace), median of %d rounds: agewalk replay base+pud %.2f s CPU, %.2f s wall; trace-cmd report %.2f s CPU, %.2f s wall; CPU ratio %.2f, wall ratio %.2f; agewalk peak %.0f MiB\n", e, s / 1048576, n, ac, aw, tc, tw, ac / tc, aw / tw, am / 1024 }'
printf 'CPU ratio by round:'
awk '{ printf " %.2f", $1 / $4 }' "$work/rounds"
echo
