#!/bin/bash
# Replay never crashes on foreign or broken input: every public trace.dat
# (scheduler-only, 32-bit longs, empty v7, a 103-byte text file) and
# truncated copies of a real recording give a report (exit 0) or a one-line
# message (exit 2) -- never a signal, never another status.
# Usage: replay_robustness.sh AGEWALK SOURCE_DIR WORKDIR [EXTRA_TRACES]
# EXTRA_TRACES (CMake's AGEWALK_EXTRA_TRACES, empty by default): a folder
# of further recordings, kept outside the tree for their size; the checks
# of the files it has run, the others are left out.
set -uo pipefail
aw=$1 src=$2 work=$3 extra=${4:-}
mkdir -p "$work"
pass=0 fail=0
check() {	# check FILE EXPECTED_STATUS...
	local f=$1 out rc
	shift
	out=$("$aw" replay "$f" --no-progress --variants base,pud 2>&1)
	rc=$?
	for want in "$@"; do
		if [ "$rc" = "$want" ]; then
			if [ "$rc" = 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" != 1 ]; then
				echo "FAIL: $f: exit 2 but not a one-line message: $out"
				fail=$((fail + 1))
				return
			fi
			pass=$((pass + 1))
			return
		fi
	done
	echo "FAIL: $f: exit $rc (wanted $*): $(printf '%s' "$out" | tail -3)"
	fail=$((fail + 1))
}
if [ -n "$extra" ] && [ -d "$extra/public" ]; then
	check "$extra/public/dynamic-scheduling.dat" 2
	check "$extra/public/lisa-sched_load.dat" 0
	check "$extra/public/lisa-example_rtapp.dat" 0
	check "$extra/public/kernel-monitor-framework.dat" 0
	check "$extra/public/working-set-estimation.dat" 0
fi
check "$work/does-not-exist.dat" 2
recs=("$src"/traces/*.dat)
# small.dat has huge_memory:* (khugepaged) records: truncated/flipped copies go through that path too
[ -n "$extra" ] && [ -f "$extra/small.dat" ] && recs+=("$extra/small.dat")
for rec in "${recs[@]}"; do
	check "$rec" 0
	size=$(stat -c %s "$rec")
	for cut in 0 64 4096 65536 $((size / 3)) $((size / 2)) $((size - 1)); do
		head -c "$cut" "$rec" > "$work/cut.dat"
		check "$work/cut.dat" 0 2
	done
	# corrupted headers: libtracecmd trusts them (absurd allocations, a crash
	# in its own error path), so replay probes them in a child first
	for off in 546 $(seq 16 401 6000); do
		[ "$off" -lt "$size" ] || continue
		cp "$rec" "$work/hdr.dat"
		printf '\xff\xff\xff\x7f' | dd of="$work/hdr.dat" bs=1 seek="$off" conv=notrunc 2>/dev/null
		check "$work/hdr.dat" 0 2
	done
	# flipped bytes in the data section
	cp "$rec" "$work/flip.dat"
	printf '\xff\xff\xff\xff' | dd of="$work/flip.dat" bs=1 seek=$((size * 3 / 4)) conv=notrunc 2>/dev/null
	check "$work/flip.dat" 0 2
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
