#!/bin/bash
# agewalk minimize: a planted-bug finding in a corpus scenario shrinks to a
# readable .aws of at most 12 events that still fires, is 1-minimal
# (removing any single event loses the finding), and is the same bytes
# when run twice.  Usage: minimize_test.sh AGEWALK SOURCE_DIR WORKDIR
set -uo pipefail
aw=$1 src=$2 work=$3
mkdir -p "$work"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
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
	"$aw" minimize "$in" --variants "$vars" --bug "$bug" --oracle "$oracle" -o "$out" --max-time 120 \
		2>"$work/log" || { bad "$name/$bug: minimize failed: $(cat "$work/log")"; continue; }
	"$aw" minimize "$in" --variants "$vars" --bug "$bug" --oracle "$oracle" -o "$out.2" --max-time 120 2>/dev/null
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
		"$aw" run --variants "$vars" --bug "$bug" "$work/drop.aws" 2>/dev/null | grep -q "^finding: $oracle at" && still=$((still + 1))
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
"$aw" minimize "$work/k5.fuzz" --variants "$kv" --bug khugepaged-progress-512 -o "$work/k5-min.aws" --max-time 60 \
	2>"$work/log" && ok || bad "minimize of a khugepaged fuzz input failed: $(cat "$work/log")"
"$aw" run --variants "$kv" --bug khugepaged-progress-512 "$work/k5-min.aws" >"$work/run" 2>&1
grep -q '^finding: khugepaged-progress at' "$work/run" && ok || bad "the minimized khugepaged fuzz input does not fire"
grep -q "^# variants: $kv\$" "$work/k5-min.aws" && ! grep -q '^thp never' "$work/k5-min.aws" && ok ||
	bad "minimized khugepaged fuzz input: no '# variants:' line, or THP never"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
