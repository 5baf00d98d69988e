#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# fuzz_cpu_pair_test.sh SRC BUILD ENGINE: bench/fuzz-cpu-pair's command
# line and the shape of its output, never its figures (no timed
# assertion).  Usage errors exit 2 with one line on stderr; in a libFuzzer
# build (ENGINE libfuzzer), BUILD against itself: 2 rounds over a corpus
# grown for 1 s by each, then 2 rounds over the kept corpus given with -c,
# each printing the header, a line per round with both CPU times and
# their ratio, the load after, the medians and the speed-up.
set -euo pipefail
src=$1 build=$2 engine=$3
pair=$src/bench/fuzz-cpu-pair
. "$(dirname "$0")/usage_case.sh"
two_build_cases "$pair" "$build"
usage_case "$pair" '-r 0: a number of rounds' -B "$build" -R "$build" -r 0
usage_case "$pair" '-d x: a number of seconds' -B "$build" -R "$build" -d x
stray_case "$pair" 'bench/fuzz-cpu-pair -B NEW -R REF' -B "$build" -R "$build" stray

if [ "$engine" != libfuzzer ]; then
	echo "usage checked; the output's shape needs a libFuzzer build (this one's engine: $engine)"
	exit 0
fi
usage_case "$pair" "no corpus $tmp/none" -B "$build" -R "$build" -c "$tmp/none"
mkdir "$tmp/empty"
usage_case "$pair" "$tmp/empty holds no input" -B "$build" -R "$build" -c "$tmp/empty"
num='[0-9][0-9.]*'
check_shape() {	# check_shape OUT CORPUS_PATTERN
	local shape=(
		"^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} UTC, [0-9]+ cores, "
		"^agewalk_fuzz_lockstep, 2 rounds over [0-9]+ inputs of $2$"
		"^new: /"
		"^ref: /"
		"^load before: $num $num $num$"
		"^round 1: new $num s, ref $num s: REF/NEW ${num}x$"
		"^round 2: new $num s, ref $num s: REF/NEW ${num}x$"
		"^load after: $num $num $num$"
		"^median CPU: new $num s \\($num us an input\\), ref $num s \\($num us an input\\)$"
		"^speed-up REF/NEW: median of the rounds' ${num}x, of the medians ${num}x$"
	)
	[ "$(wc -l < "$1")" = "${#shape[@]}" ] || fail "not ${#shape[@]} lines: $(cat "$1")"
	for i in "${!shape[@]}"; do
		line=$(sed -n "$((i + 1))p" "$1")
		grep -Eq "${shape[$i]}" <<< "$line" || fail "line $((i + 1)) '$line' is not /${shape[$i]}/"
	done
}
"$pair" -B "$build" -R "$build" -r 2 -d 1 -k "$tmp/kept" > "$tmp/out" 2> "$tmp/err" || fail "grown, 2 rounds: $(cat "$tmp/err")"
check_shape "$tmp/out" "$tmp/kept"
# the kept corpus holds at least the seeds, and is what -c runs
seeds=$(find "$build/fuzz/seeds/lockstep" -type f | wc -l)
[ "$(find "$tmp/kept" -type f | wc -l)" -ge "$seeds" ] || fail "the kept corpus holds fewer than the $seeds seeds"
"$pair" -B "$build" -R "$build" -r 2 -c "$tmp/kept" > "$tmp/out" 2> "$tmp/err" || fail "-c, 2 rounds: $(cat "$tmp/err")"
check_shape "$tmp/out" "$tmp/kept"
echo "ok: usage and output shape"
