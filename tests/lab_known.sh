#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# lab_known.sh WORKDIR: tools/agewalk-lab known, the demo's judge of
# agewalk compare's output, on the committed lab results
# (bench/lab-results/KERNEL/calibration-lab.compare.txt and .known) and on
# copies changed one way each.  Nothing is booted.
#   - 6.1 and 6.12: exit 0, the two known differences (node 0's third
#     eviction and its total) named with their reasons;
#   - 6.12+pud: exit 1, pass 2's pud_skipped the one new difference;
#   - a new '!' on a pass figure, the known eviction with another kernel
#     value, the same difference on the other node, a pass on one side
#     only, "nothing was measured": exit 1 and a "new:" line for it;
#   - no difference at all: exit 0, the known lines "not seen";
#   - the output of another scenario or kernel, a count of '!' marks that
#     disagrees with compare's summary, a truncated output, a known file
#     with a line that does not parse: exit 2, one line.
set -euo pipefail
work=$(realpath -m -- "$1")
top=$(cd "$(dirname "$0")/.." && pwd)
lab=$top/tools/agewalk-lab res=$top/bench/lab-results
rm -rf "$work"; mkdir -p "$work/6.1"
fails=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fails=$((fails + 1)); }

# known CASE WANT_RC COMPARE KNOWN: run it; OUT and RC for the checks
known() {
	local case=$1 want=$2
	RC=0
	OUT=$("$lab" known "$3" "$4" 2>&1) || RC=$?
	[ "$RC" = "$want" ] || { bad "$case: exit $RC, not $want: $OUT"; return 1; }
}
has() {	# CASE REGEX: a line of OUT matches
	printf '%s\n' "$OUT" | grep -qE "$2" || { bad "$1: no line matching '$2' in: $OUT"; return 1; }
}
count() {	# CASE REGEX N: N lines of OUT match
	local n
	n=$(printf '%s\n' "$OUT" | grep -cE "$2" || true)
	[ "$n" = "$3" ] || { bad "$1: $n lines matching '$2', not $3: $OUT"; return 1; }
}

for k in 6.1 6.12; do
	known "$k" 0 "$res/$k/calibration-lab.compare.txt" "$res/$k/calibration-lab.known" &&
		count "$k" '^known: ' 2 &&
		has "$k" '^known: node 0 evict 3 evicted_pages \(model 320, kernel 0\): the model.s third eviction takes its layout.s file pages' &&
		has "$k" '^known: node 0 total evicted_pages \(model 320, kernel 0\): ' &&
		count "$k" '^(new|not seen): ' 0 &&
		has "$k" "^2 differences: 2 known \\($res/$k/calibration-lab.known\\), 0 new$" &&
		ok "$k: the committed result's 2 differences are the known ones"
done
known 6.12+pud 1 "$res/6.12+pud/calibration-lab.compare.txt" "$res/6.12+pud/calibration-lab.known" &&
	count 6.12+pud '^new: ' 1 && has 6.12+pud '^new: node 0 pass 2 pud_skipped \(model 8, kernel 15\)$' &&
	count 6.12+pud '^known: node 0 pass [0-9]+ pud_skipped \(model 24, kernel 8\)' 17 &&
	ok "6.12+pud: 19 known, pass 2's pud_skipped new"

# the 6.1 result, changed: the copies live in WORK/6.1 beside a copy of
# the known file, since the file's name and directory say its scenario
# and kernel
cmp=$work/6.1/calibration-lab.compare.txt kf=$work/6.1/calibration-lab.known
cp "$res/6.1/calibration-lab.known" "$kf"
orig=$res/6.1/calibration-lab.compare.txt
# edit AWK-PROGRAM: the original through awk into the copy (n: the node,
# and e: in an eviction table)
edit() { awk "/^node [0-9]+: /{ n = \$2 + 0; e = 0 } /^  evict /{ e = 1 } $1 { print }" "$orig" >"$cmp"; }
outside() { sed -i "s/ 2 outside;/ $1 outside;/" "$cmp"; }

edit 'n == 0 && /^  5  / { sub(/131075 /, "100000!") }'; outside 3
known "new pass figure" 1 "$cmp" "$kf" && count "new pass figure" '^new: ' 1 &&
	has "new pass figure" '^new: node 0 pass 5 young \(model 131072, kernel 100000\)$' &&
	count "new pass figure" '^known: ' 2 && ok "a new '!' on pass 5's young: exit 1, named"

edit 'n == 0 && /^  3  .* 320  / { sub(/ 0!/, " 5!") }'
known "eviction, other value" 1 "$cmp" "$kf" &&
	has "eviction, other value" '^new: node 0 evict 3 evicted_pages \(model 320, kernel 5\)$' &&
	ok "the known eviction with kernel 5 pages, not 0: new"

# node 1's third eviction with node 0's difference, node 0's without it
edit 'n == 0 && e && /^  3  .* 320  / { sub(/ 320  /, "   0  "); sub(/ 0!/, " 0 ") } n == 1 && e && /^  3  / { sub(/     0         0 /, "   320         0!") }'
known "other node" 1 "$cmp" "$kf" && has "other node" '^new: node 1 evict 3 evicted_pages \(model 320, kernel 0\)$' &&
	has "other node" '^not seen: .*calibration-lab.known:[0-9]+: node 0 evict 3 evicted_pages$' &&
	ok "the same difference on node 1: new, node 0's known line not seen"

edit '/^  21 / && n == 1 { print "  22     only in the kernel" }'
sed -i 's/ not measured by the kernel$/ not measured by the kernel; 1 passes or nodes on one side only/' "$cmp"
known "one side only" 1 "$cmp" "$kf" && has "one side only" '^new: node 1 evict 22 only-in-kernel$' &&
	ok "an eviction on the kernel only: new"

edit '1'; echo "nothing was measured: no agreement to report" >>"$cmp"
known "nothing measured" 1 "$cmp" "$kf" && has "nothing measured" '^new: nothing was measured$' &&
	ok "nothing measured: new"

edit '{ gsub(/!/, " ") }'; outside 0
known "no difference" 0 "$cmp" "$kf" && count "no difference" '^not seen: ' 2 && count "no difference" '^known: ' 0 &&
	ok "no difference: exit 0, both known lines not seen"

# exit 2: one line each
bad_input() {	# CASE REGEX COMPARE KNOWN
	known "$1" 2 "$3" "$4" && count "$1" '' 1 && has "$1" "^agewalk-lab: $2" && ok "$1: exit 2, one line"
}
edit 'n == 0 && /^  5  / { sub(/131075 /, "100000!") }'
bad_input "marks and summary disagree" '.*: 3 figures marked "!", compare counted 2 outside' "$cmp" "$kf"
head -40 "$orig" >"$cmp"
bad_input "truncated output" '.*: no "compared N figures" line' "$cmp" "$kf"
cp "$res/6.1/s3-cold-pud.compare.txt" "$cmp"
bad_input "another scenario" '.*: compares s3-cold-pud.aws, .* is for calibration-lab.aws' "$cmp" "$kf"
cp "$res/6.12/calibration-lab.compare.txt" "$cmp"
bad_input "another kernel" '.*: kernel 6.12.117, .* is for 6.1$' "$cmp" "$kf"
cp "$orig" "$cmp"
printf 'node 0 evict three evicted_pages: why\n' >>"$kf"
bad_input "bad known line" ".*calibration-lab.known:[0-9]+: \"three\" is not a evict number or range N-M" "$cmp" "$kf"
cp "$res/6.1/calibration-lab.known" "$kf"; printf 'node 0 pass 5 young\n' >>"$kf"
bad_input "known line without a reason" '.*calibration-lab.known:[0-9]+: no ": WHY" after the difference' "$cmp" "$kf"

[ "$fails" = 0 ] || { echo "FAIL: $fails case(s)"; exit 1; }
echo "ok: the known differences of the committed results, and every changed copy judged as it should be"
