#!/bin/bash
# agewalk minimize: a planted-bug finding in a corpus scenario shrinks to a
# readable .aws of at most 12 events that still fires, is 1-minimal
# (removing any single event loses the finding), and is the same bytes
# when run twice, the second time with both cores kept busy by two other
# processes: the budget is a number of runs (--max-runs, default), never a
# time, so load cannot change where it stops.
# Usage: minimize_test.sh AGEWALK SOURCE_DIR WORKDIR
set -uo pipefail
aw=$1 src=$2 work=$3
mkdir -p "$work"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
# busy: two spinning processes (one per core) until unbusy
busy_pids=()
busy() { for _ in 1 2; do (while :; do :; done) & busy_pids+=($!); done; }
unbusy() { kill "${busy_pids[@]}" 2>/dev/null; wait "${busy_pids[@]}" 2>/dev/null; busy_pids=(); }
trap unbusy EXIT
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

for spec in "s5-forced-revives pud-force-no-remark stale-suppression" \
	    "s7-rfc-cadence emptymap-shared-counter emptymap-cadence" \
	    "s5-forced-revives walk-batch-not-flushed structural" \
	    "k2-hot-cold-hot khugepaged-collapse-lazyfree khugepaged-lazyfree" \
	    "k5-progress-matrix khugepaged-progress-512 khugepaged-progress" \
	    "../regressions/khugepaged-swapin-collapse khugepaged-copy-present-only khugepaged-data-loss"; do
	set -- $spec
	name=$1 bug=$2 oracle=$3
	case $bug in
	emptymap*) vars=base,emptymap ;;
	khugepaged*) vars=khugepaged-base,khugepaged-patched ;;
	*) vars=base,pud ;;
	esac
	in="$src/corpus/scenarios/$name.aws"
	name=$(basename "$name")
	out="$work/$name-$bug.aws"
	"$aw" minimize "$in" --variants "$vars" --bug "$bug" --oracle "$oracle" -o "$out" \
		2>"$work/log" || { bad "$name/$bug: minimize failed: $(cat "$work/log")"; continue; }
	busy
	"$aw" minimize "$in" --variants "$vars" --bug "$bug" --oracle "$oracle" -o "$out.2" 2>/dev/null
	unbusy
	cmp -s "$out" "$out.2" && ok || bad "$name/$bug: not deterministic"
	n=$(grep -cvE '^(#|node |memcg |thp |modes |swap |mmap_base |skip_empty |region |topology |$)' "$out")
	[ "$n" -le 12 ] && ok || bad "$name/$bug: $n events (> 12)"
	grep -q "^# finding: $oracle with --bug $bug --variants $vars" "$out" && ok ||
		bad "$name/$bug: header does not name the finding"
	case $vars in khugepaged*)
		grep -q "^# variants: $vars\$" "$out" && ok || bad "$name/$bug: no '# variants:' line" ;;
	esac
	"$aw" run --variants "$vars" --bug "$bug" "$out" >"$work/run" 2>&1
	grep -q "^finding: $oracle at" "$work/run" && ok || bad "$name/$bug: the minimized file does not fire"
	"$aw" run --variants "$vars" "$out" >/dev/null 2>&1 && ok || bad "$name/$bug: fires without the bug"
	# 1-minimal: delete each event line in turn; none may still fire
	mapfile -t lines < <(grep -nvE '^(#|node |memcg |thp |modes |swap |mmap_base |skip_empty |region |topology |$)' "$out" | cut -d: -f1)
	still=0
	for l in "${lines[@]}"; do
		sed "${l}d" "$out" >"$work/drop.aws"
		# through a file: under pipefail, grep -q's early exit (SIGPIPE) would hide a hit
		"$aw" run --variants "$vars" --bug "$bug" "$work/drop.aws" >"$work/drop.out" 2>/dev/null
		grep -q "^finding: $oracle at" "$work/drop.out" && still=$((still + 1))
	done
	[ $still -eq 0 ] && ok || bad "$name/$bug: $still single-event deletions still fire (not 1-minimal)"
	echo "minimize $name --bug $bug: $n events"
done
# A crash of agewalk_fuzz_khugepaged: the header's THP byte 3 reads as never
# for the lockstep target but as always for the khugepaged one, so only the
# khugepaged decoding (chosen by --variants) reproduces the finding.
kv=khugepaged-base,khugepaged-patched
"$aw" convert "$src/corpus/scenarios/k5-progress-matrix.aws" "$work/k5.fuzz" --fuzz-variant khugepaged &&
	printf '\003' | dd of="$work/k5.fuzz" bs=1 seek=1 conv=notrunc status=none
"$aw" convert "$work/k5.fuzz" "$work/k5-fuzz.aws" --from fuzz --fuzz-variant khugepaged 2>/dev/null &&
	grep -q '^thp always' "$work/k5-fuzz.aws" && ok || bad "convert --fuzz-variant khugepaged: THP never not folded"
"$aw" run "$work/k5.fuzz" --variants "$kv" --bug khugepaged-progress-512 >"$work/run" 2>&1
grep -q '^finding: khugepaged-progress at' "$work/run" && ok || bad "run of a khugepaged fuzz input: no finding"
"$aw" minimize "$work/k5.fuzz" --variants "$kv" --bug khugepaged-progress-512 -o "$work/k5-min.aws" \
	2>"$work/log" && ok || bad "minimize of a khugepaged fuzz input failed: $(cat "$work/log")"
"$aw" run --variants "$kv" --bug khugepaged-progress-512 "$work/k5-min.aws" >"$work/run" 2>&1
grep -q '^finding: khugepaged-progress at' "$work/run" && ok || bad "the minimized khugepaged fuzz input does not fire"
grep -q "^# variants: $kv\$" "$work/k5-min.aws" && ! grep -q '^thp never' "$work/k5-min.aws" && ok ||
	bad "minimized khugepaged fuzz input: no '# variants:' line, or THP never"
# The run budget: --max-runs 20 stops early, deterministically, says so in
# the header, and still writes a firing reproducer (exit 0); the safety
# stop --max-time marks the result incomplete and exits 4 (a nanosecond:
# one lockstep run of s7's 914 events always takes longer).
s7="$src/corpus/scenarios/s7-rfc-cadence.aws"
m7=(--variants base,emptymap --bug emptymap-shared-counter --oracle emptymap-cadence)
"$aw" minimize "$s7" "${m7[@]}" --max-runs 20 -o "$work/r20.aws" 2>"$work/log" && ok || bad "--max-runs 20: exit $?"
"$aw" minimize "$s7" "${m7[@]}" --max-runs 20 -o "$work/r20b.aws" 2>/dev/null
cmp -s "$work/r20.aws" "$work/r20b.aws" && ok || bad "--max-runs 20: not deterministic"
grep -q '^# the run budget (--max-runs 20) was spent' "$work/r20.aws" && ok || bad "--max-runs 20: header does not say the budget was spent"
grep -q 'in 20 runs (the run budget was spent' "$work/log" && ok || bad "--max-runs 20: message: $(cat "$work/log")"
"$aw" run "${m7[@]:0:4}" "$work/r20.aws" >"$work/run" 2>&1
grep -q '^finding: emptymap-cadence at' "$work/run" && ok ||
	bad "--max-runs 20: the result does not fire"
"$aw" minimize "$s7" "${m7[@]}" --max-time 1e-9 -o "$work/t.aws" 2>"$work/log"
st=$?
[ $st -eq 4 ] && ok || bad "--max-time fired: exit $st, not 4"
grep -q '^# incomplete: stopped by --max-time' "$work/t.aws" && grep -q 'INCOMPLETE' "$work/log" && ok ||
	bad "--max-time fired: not marked incomplete"
for v in 0 -3 1x ""; do
	"$aw" minimize "$s7" "${m7[@]}" --max-runs "$v" -o "$work/x.aws" 2>"$work/log"
	st=$?
	[ $st -eq 2 ] && [ "$(wc -l <"$work/log")" -eq 1 ] && ok || bad "--max-runs '$v': exit $st, $(cat "$work/log")"
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
