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
check() {	# check FILE EXPECTED_STATUS...; replay's output stays in $out
	local f=$1 rc
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
# The bundled recordings are zstd-compressed, and corrupt compressed
# headers only make libtracecmd refuse the file.  Uncompressed headers
# (version 6, and 7 without compression) can crash it: replay's parent
# process watches the open (src/trace/guard.h) and reports the file in one
# line, and at least one of these must take that path.
if command -v trace-cmd >/dev/null; then
	crashed=0
	trace-cmd convert -i "$src/traces/memhog.dat" -o "$work/v6.dat" --file-version 6 >/dev/null 2>&1
	trace-cmd convert -i "$src/traces/memhog.dat" -o "$work/v7n.dat" --compression none >/dev/null 2>&1
	for rec in "$work/v6.dat" "$work/v7n.dat"; do
		[ -f "$rec" ] || continue
		for off in 38 51 64 77 90 103; do
			cp "$rec" "$work/hdr.dat"
			printf '\xff\xff\xff\x7f' | dd of="$work/hdr.dat" bs=1 seek="$off" conv=notrunc 2>/dev/null
			check "$work/hdr.dat" 0 2
			case $out in
			*"hdr.dat: corrupt trace.dat headers (libtracecmd"*) crashed=$((crashed + 1)) ;;
			esac
		done
	done
	if [ "$crashed" -eq 0 ]; then
		echo "FAIL: no corrupt header crashed libtracecmd: the guarded open is untested"
		fail=$((fail + 1))
	fi
	# a signal to replay reaches the process doing the work, and replay
	# ends the way that process did (timeout's SIGTERM: status 124)
	timeout -s TERM 0.3 "$aw" replay "$work/v6.dat" --no-progress --variants base,pud --age-every 1us \
		>/dev/null 2>&1
	rc=$?
	sleep 0.2
	if [ "$rc" != 124 ] || pgrep -f "replay $work/v6.dat" >/dev/null; then
		echo "FAIL: replay under timeout: exit $rc, or its worker survived"
		fail=$((fail + 1))
	fi
fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
