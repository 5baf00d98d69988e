#!/bin/bash
# Replay throughput and memory against trace-cmd (docs/results.md, issue 32).
# For each recording (default: the two mixed multi-process recordings
# committed in traces/, see traces/README.md), ROUNDS paired rounds
# (default 7: a shared machine's noise is +-15%), each running, one after
# the other,
#   agewalk replay FILE --variants base,pud --mem-stats   (ingest + lockstep, aging every 500 ms)
#   trace-cmd report FILE > /dev/null
# as whole processes under /usr/bin/time, and reports the medians of CPU
# (user+sys), wall and peak RSS, their ratios, each round's CPU ratio,
# agewalk's memory split as --mem-stats measures it (the model's heap, the
# reader's heap: libtracecmd's caches, the process table), and the CPU of
# each of its threads (reading, base, the other variants: the longest
# bounds the wall time where each thread has a core of its own).
#   bench/replay_bench.sh [BUILD_DIR] [ROUNDS] [FILE.dat...]
# BENCH_RECORD=1 re-records the faulter recording of earlier sessions
# (traces/workloads/faulter.c, root) and benches it instead.
set -euo pipefail
cd "$(dirname "$0")/.."
aw=${1:-build}/agewalk
rounds=${2:-7}
shift $(($# > 2 ? 2 : $#))
files=("$@")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ "${BENCH_RECORD:-0}" = 1 ]; then
	cc -O2 traces/workloads/faulter.c -o "$work/faulter"
	traces/record -b 262144 -o "$work/faulter.dat" -- "$work/faulter" 64 >/dev/null 2>&1
	files=("$work/faulter.dat")
fi
[ ${#files[@]} -gt 0 ] || files=(traces/agewalk-build.dat traces/mixio.dat)

echo "replay bench, $(date -u '+%Y-%m-%d %H:%M UTC'), $(lscpu | sed -n 's/^Model name: *//p' | head -1)," \
	"$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg), $aw (tree $(git rev-parse --short HEAD 2>/dev/null || echo "?"))," \
	"$(trace-cmd --version 2>/dev/null | sed -n 's/.*version \([^ ]*\).*/trace-cmd \1/p' | head -1)"
run() {	# run OUT CMD...: OUT gets "user+sys wall maxrss_kb"; the command's stderr goes to OUT.err
	local out=$1
	shift
	/usr/bin/time -o "$out.t" -f "%U %S %e %M" "$@" >/dev/null 2>"$out.err" || true
	awk '{ print $1 + $2, $3, $4 }' "$out.t" >"$out"
}
med() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
for dat in "${files[@]}"; do
	events=$("$aw" replay "$dat" --no-progress --json --variants base |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["trace"]["events_read"])')
	: >"$work/rounds"
	for ((i = 0; i < rounds; i++)); do
		run "$work/a" "$aw" replay "$dat" --no-progress --variants base,pud --mem-stats
		run "$work/t" trace-cmd report "$dat"
		# the memory line: model heap, reader heap (MiB)
		mem=$(sed -n 's/.*model heap peak \([0-9.]*\) MiB; reader heap peak \([0-9.]*\) MiB.*/\1 \2/p' "$work/a.err")
		# each thread's CPU (--mem-stats' cpu line): reading, base, the other variants
		thr=$(sed -n 's/^cpu: reading \([0-9.]*\) s, base \([0-9.]*\) s, the other variants \([0-9.]*\) s$/\1 \2 \3/p' "$work/a.err")
		echo "$(cat "$work/a") $(cat "$work/t") ${mem:-0 0} ${thr:-0 0 0}" >>"$work/rounds"
	done
	col() { cut -d' ' -f"$1" "$work/rounds" | med; }
	awk -v f="$(basename "$dat")" -v e="$events" -v s="$(stat -c %s "$dat")" -v n="$rounds" \
		-v ac="$(col 1)" -v aw="$(col 2)" -v am="$(col 3)" -v tc="$(col 4)" -v tw="$(col 5)" -v tm="$(col 6)" \
		-v mm="$(col 7)" -v rm="$(col 8)" -v t0="$(col 9)" -v t1="$(col 10)" -v t2="$(col 11)" 'BEGIN {
		printf "%s: %d events (%.1f MiB file), median of %d paired rounds:\n", f, e, s / 1048576, n
		printf "  agewalk replay base,pud  %.2f s CPU  %.2f s wall  %.1f MiB peak RSS (model heap %.1f MiB, reader heap %.1f MiB)\n", ac, aw, am / 1024, mm, rm
		printf "  trace-cmd report         %.2f s CPU  %.2f s wall  %.1f MiB peak RSS\n", tc, tw, tm / 1024
		printf "  ratio agewalk/trace-cmd  CPU %.2f  wall %.2f  peak RSS %.2f\n", ac / tc, aw / tw, am / tm
		lt = t0 > t1 ? t0 : t1
		lt = t2 > lt ? t2 : lt
		if (lt > 0)
			printf "  agewalk threads (CPU)    reading %.2f s, base %.2f s, other variants %.2f s: the longest %.2fx trace-cmd CPU\n", t0, t1, t2, lt / tc }'
	printf '  CPU ratio by round:'
	awk '{ printf " %.2f", $1 / $4 }' "$work/rounds"
	printf '\n  wall ratio by round:'
	awk '{ printf " %.2f", $2 / $5 }' "$work/rounds"
	echo
done
