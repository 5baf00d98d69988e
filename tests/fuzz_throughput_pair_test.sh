#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# fuzz_throughput_pair_test.sh SRC BUILD ENGINE: bench/fuzz-throughput-pair's
# command line and the shape of its output, never its figures (no timed
# assertion).  Usage errors exit 2 with one line on stderr; in a libFuzzer
# build (ENGINE libfuzzer), BUILD against itself, 2 pairs of 1 s, prints
# the header, a line per pair with both runs and their ratio, the load
# after, and the medians with the ratio, of exec/s and per CPU second.
set -euo pipefail
src=$1 build=$2 engine=$3
pair=$src/bench/fuzz-throughput-pair
. "$(dirname "$0")/usage_case.sh"
two_build_cases "$pair" "$build"
usage_case "$pair" '-n 0: a number of pairs' -B "$build" -R "$build" -n 0
usage_case "$pair" '-n x: a number of pairs' -B "$build" -R "$build" -n x
rc=0
"$pair" -x > /dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "-x exited $rc, not 2"
stray_case "$pair" 'bench/fuzz-throughput-pair -B NEW -R REF' -B "$build" -R "$build" stray

if [ "$engine" != libfuzzer ]; then
	echo "usage checked; the output's shape needs a libFuzzer build (this one's engine: $engine)"
	exit 0
fi
usage_case "$pair" "no seed corpus $tmp/none" -B "$build" -R "$build" -c "$tmp/none"
"$pair" -B "$build" -R "$build" -n 2 -d 1 > "$tmp/out" 2> "$tmp/err" || fail "2 pairs of 1 s: $(cat "$tmp/err")"
num='[0-9][0-9.]*'
run="$num exec/s, $num per CPU s \\([0-9]+ inputs, mean [0-9]+ records\\)"
shape=(
	"^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} UTC, [0-9]+ cores, "
	"^agewalk_fuzz_lockstep, 2 pairs of 1 s, seeds .*/fuzz/seeds/lockstep \\([0-9]+ inputs\\)$"
	"^new: .* \\(source .*, HEAD now .*\\)$"
	"^ref: .* \\(source .*, HEAD now .*\\)$"
	"^load before: $num $num $num$"
	"^pair 1 \\(seed 1\\): new $run, ref $run: $num, per CPU s $num$"
	"^pair 2 \\(seed 2\\): new $run, ref $run: $num, per CPU s $num$"
	"^load after: $num $num $num$"
	"^median: new $num exec/s, ref $num exec/s: ratio NEW/REF $num \\(median of the pairs' ratios $num\\)$"
	"^median per CPU second: new $num per CPU s, ref $num per CPU s: ratio NEW/REF $num \\(median of the pairs' ratios $num\\)$"
)
[ "$(wc -l < "$tmp/out")" = "${#shape[@]}" ] || fail "not ${#shape[@]} lines: $(cat "$tmp/out")"
for i in "${!shape[@]}"; do
	line=$(sed -n "$((i + 1))p" "$tmp/out")
	grep -Eq "${shape[$i]}" <<< "$line" || fail "line $((i + 1)) '$line' is not /${shape[$i]}/"
done
echo "ok: usage and output shape"
