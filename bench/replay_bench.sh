#!/bin/bash
# Replay throughput (README "Figures"): record ~1 M page faults with
# traces/record (root, tracefs), then compare, in one run, the CPU time of
#   agewalk replay FILE --variants base,pud   (ingest + lockstep, aging every 500 ms)
#   trace-cmd report FILE > /dev/null
# and report agewalk's peak memory.  Usage: bench/replay_bench.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
aw=${1:-build}/agewalk
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 traces/workloads/faulter.c -o "$work/faulter"
traces/record -b 262144 -o "$work/faulter.dat" -- "$work/faulter" 64 >/dev/null 2>&1
events=$(trace-cmd report --stat "$work/faulter.dat" >/dev/null 2>&1; "$aw" replay "$work/faulter.dat" --no-progress --json --variants base | python3 -c 'import json,sys; print(json.load(sys.stdin)["trace"]["events_read"])')
cpu() { /usr/bin/time -f "%U %S %M" "$@" 2>&1 >/dev/null | tail -1; }
read -r au as am <<<"$(cpu "$aw" replay "$work/faulter.dat" --no-progress --variants base,pud)"
read -r tu ts tm <<<"$(cpu trace-cmd report "$work/faulter.dat")"
awk -v e="$events" -v a="$(echo "$au + $as" | bc)" -v t="$(echo "$tu + $ts" | bc)" -v m="$am" -v s="$(stat -c %s "$work/faulter.dat")" \
	'BEGIN { printf "%d events (%.1f MiB trace): agewalk replay base+pud %.2f s CPU, trace-cmd report %.2f s CPU, ratio %.2f; agewalk peak %.0f MiB\n", e, s / 1048576, a, t, a / t, m / 1024 }'
