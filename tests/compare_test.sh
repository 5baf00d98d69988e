#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# agewalk compare against hand-made run pairs whose verdicts are computed
# by hand from the tolerance rule (src/cli/compare_tol.h):
#   |model - kernel| <= rel * max(|model|, |kernel|) + abs + per_walk * walks
# Usage: compare_test.sh AGEWALK
set -uo pipefail
aw=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# run FILE KERNEL "T Y" [walks]... : one node, one pass per "T Y" pair
run() {
	local file=$1 kernel=$2 walks=$3 passes="" sep="" nr
	shift 3
	nr=$#
	for p in "$@"; do
		set -- $p
		passes+="$sep{\"pass\":1,\"forced\":false,\"walks\":$walks,\"leaf_total\":$1,\"young\":$2,\"nonleaf_found\":null}"
		sep=,
	done
	printf '{"input":"corpus/scenarios/x.aws","thp":"never","kernel":"%s","events":3,"variants":[{"name":"base","nodes":[{"node":0,"passes":%d,"aging_refused":0,"evicted":null,"per_pass":[%s]}],"regions":[{"name":"R","resident":100}]}]}\n' \
		"$kernel" "$nr" "$passes" >"$file"
}

# expect RC WANT ARGS...: exit status RC and WANT somewhere in stdout+stderr
expect() {
	local want_rc=$1 want=$2 out rc
	shift 2
	out=$("$aw" compare "$@" 2>&1)
	rc=$?
	[ "$rc" = "$want_rc" ] && [[ $out == *"$want"* ]] && ok ||
		bad "compare $*: exit $rc (want $want_rc), no '$want' in: $out"
}

# Six figures are judged: walks (0%), T, Y, passes, aging_refused (0%), resident.
# leaf_total 10%+64/walk, 2 walks: model 1000 vs 1200 -> 200 <= 120 + 128 within;
# vs 1300 -> 300 > 130 + 128 outside.  young 10%: 500 vs 550 -> 50 <= 55 within.
run "$dir/m.json" 6.1 2 "1000 500"
run "$dir/k-in.json" 6.1.0-57-cloud-amd64 2 "1200 550"
run "$dir/k-out.json" 6.1.0-57-cloud-amd64 2 "1300 550"
expect 0 "compared 6 figures: 6 within tolerance, 0 outside; 0 not measured" "$dir/m.json" "$dir/k-in.json"
expect 1 "1300!" "$dir/m.json" "$dir/k-out.json"
expect 1 "5 within tolerance, 1 outside" "$dir/m.json" "$dir/k-out.json"
# young 5%: 50 > 27.5 outside; leaf_total 25% with no walk term: 200 <= 300 within
expect 1 "550!" "$dir/m.json" "$dir/k-in.json" --tolerance young=5%
expect 0 "6 within" "$dir/m.json" "$dir/k-out.json" --tolerance leaf_total=25%
# an absolute slack: 300 <= 0 + 300
expect 0 "6 within" "$dir/m.json" "$dir/k-out.json" --tolerance leaf_total=0%+300

# a kernel null is '-' and not measured, never agreement: evicted is null in
# both, nonleaf_found null in both (not shown); make the model's evicted a number
sed 's/"evicted":null/"evicted":7/' "$dir/m.json" >"$dir/m-ev.json"
expect 0 "1 not measured by the kernel" "$dir/m-ev.json" "$dir/k-in.json"

# each evict: pages compared under evicted_pages' 10% (1000 vs 1080 within,
# vs 1200 outside), generations shown as anon/file before and after
evs() { sed "s|\"per_pass\"|\"evictions\":[{\"event\":5,\"memcg\":0,\"seq\":3,\"max_seq\":5,\"min_seq_before\":[3,3],\"min_seq_after\":[$2],\"evicted_pages\":$3,\"refused\":false}],\"per_pass\"|" "$1"; }
evs "$dir/m.json" 4,4 1000 >"$dir/m-evs.json"
evs "$dir/k-in.json" 4,5 1080 >"$dir/k-evs.json"
evs "$dir/k-in.json" 4,4 1200 >"$dir/k-evs-out.json"
expect 0 "7 within tolerance, 0 outside" "$dir/m-evs.json" "$dir/k-evs.json"
expect 0 "3/3         3/3          4/4         4/5" "$dir/m-evs.json" "$dir/k-evs.json"
expect 1 "1200!" "$dir/m-evs.json" "$dir/k-evs-out.json"
# an eviction on one side only; a run without records compares none
sed 's|"evictions":\[{.*}\],"per_pass"|"evictions":[],"per_pass"|' "$dir/k-evs.json" >"$dir/k-evs-none.json"
expect 1 "only in the model" "$dir/m-evs.json" "$dir/k-evs-none.json"
expect 0 "6 within tolerance" "$dir/m-evs.json" "$dir/k-in.json"

# passes on one side only
run "$dir/k-two.json" 6.1.0-57-cloud-amd64 2 "1000 500" "1000 500"
expect 1 "only in the kernel" "$dir/m.json" "$dir/k-two.json"

# Passes paired by the event that caused them ("event", "reclaim" on both
# sides), not by position.  The model: an age line's pass at event 3, then
# a memcg limit's reclaim aging inside events 7 (twice) and 9.  The kernel:
# the same, but its reclaim also aged inside event 5 and only once inside
# event 7.  By position, rows 2 and 3 would compare 500 with 300 and 450
# with 500 (outside 10%); by cause every pair agrees, and the kernel's pass
# at event 5 and the model's second at event 7 are on one side only.
evp() {	# evp EVENT RECLAIM T: one pass
	printf '{"pass":0,"forced":false,"event":%d,"reclaim":%s,"walks":1,"leaf_total":%d,"young":0}' "$1" "$2" "$3"
}
evrun() {	# evrun FILE KERNEL PASS...
	local file=$1 kernel=$2 passes
	shift 2
	passes=$(IFS=,; echo "$*")
	printf '{"input":"corpus/lab/t.aws","thp":"never","kernel":"%s","events":10,"variants":[{"name":"base","nodes":[{"node":0,"passes":%d,"aging_refused":0,"per_pass":[%s]}],"regions":[]}]}\n' \
		"$kernel" "$#" "$passes" >"$file"
}
evrun "$dir/m-ev.json" 6.12 "$(evp 3 false 1000)" "$(evp 7 true 500)" "$(evp 7 true 450)" "$(evp 9 true 400)"
evrun "$dir/k-ev.json" 6.12.0-lab "$(evp 3 false 1000)" "$(evp 5 true 300)" "$(evp 7 true 500)" "$(evp 9 true 400)"
out=$("$aw" compare "$dir/m-ev.json" "$dir/k-ev.json" 2>&1); rc=$?
rows=$(echo "$out" | sed -n '/^  pass /,/^  total/p')
[ "$rc" = 1 ] && [[ $rows != *'!'* ]] && ok || bad "by event: exit $rc (want 1), a '!' in: $rows"
[[ $rows == *"only in the kernel  reclaim@5"* ]] && [[ $rows == *"only in the model  reclaim@7"* ]] && ok ||
	bad "by event: the passes of events 5 (kernel) and 7 (model's second) not on one side: $rows"
# the pairs, in order: age@3, reclaim@5 (kernel), reclaim@7 (500 500), reclaim@7 (model), reclaim@9 (400 400)
[ "$(echo "$rows" | awk '/@/ { print $NF }' | tr '\n' ' ')" = "age@3 reclaim@5 reclaim@7 reclaim@7 reclaim@9 " ] &&
	[[ $rows == *"      500       500 "*"reclaim@7"* ]] && ok || bad "by event: rows: $rows"
[[ $out == *"2 passes or nodes on one side only"* ]] && [[ $out == *"outside"* ]] && [[ $out != *" 1 outside"* ]] && ok ||
	bad "by event: summary: $out"
# a side without the records (an older file): by position, as before
sed 's/"event":[0-9]*,"reclaim":[a-z]*,//g' "$dir/k-ev.json" >"$dir/k-ev-old.json"
expect 1 "300!" "$dir/m-ev.json" "$dir/k-ev-old.json"

# memcg events, paired by event and memcg, an event one side has no record
# of compared with 0; pgsteal and refaults 10% + 64 pages:
#   event 5: pgsteal 1000 vs 1064: 64 <= 106.4 + 64 within; refaults 0 vs 0
#   event 6: (no model record) 0 vs 100: 100 > 10 + 64 outside; refaults 0 vs 0
#   event 7: pgsteal 500 vs 500; refaults 300 vs 200 + 50 = 250: 50 <= 30 + 64 within
# 6 figures above + 3 events x 2 = 12, one outside, the first apart at 6;
# majfault is shown, not judged (2 vs 90 is no '!')
mce() {	# mce EVENT PGSTEAL ANON FILE MAJ
	printf '{"event":%s,"memcg":1,"pgsteal":%s,"workingset_refault_anon":%s,"workingset_refault_file":%s,"pgmajfault":%s,"lru_gen":[]}' "$@"
}
sed "s/\"regions\":\[/\"memcg_events\":[$(mce 5 1000 0 0 0),$(mce 7 500 300 0 2)],\"regions\":[/" "$dir/m.json" >"$dir/m-mce.json"
sed "s/}\$/,\"memcg_events\":[$(mce 5 1064 0 0 0),$(mce 6 100 0 0 0),$(mce 7 500 200 50 90)]}/" "$dir/k-in.json" >"$dir/k-mce.json"
expect 1 "compared 12 figures: 11 within tolerance, 1 outside" "$dir/m-mce.json" "$dir/k-mce.json"
expect 1 "first event apart: 6" "$dir/m-mce.json" "$dir/k-mce.json"
out=$("$aw" compare "$dir/m-mce.json" "$dir/k-mce.json" 2>&1)
[[ $out == *"      6     1         0       100!          0         0           0         0 "* ]] &&
	[[ $out == *"      7     1       500       500         300       250           2        90 "* ]] && ok ||
	bad "memcg events: rows: $out"
# a model run without the records (no limit): no such section, no figure
expect 0 "compared 6 figures: 6 within" "$dir/m.json" "$dir/k-mce.json"

# khugepaged: the model's block beside the kernel's (agewalk-exec's tracepoint
# figures), wake-ups, full scans, collapses and lazyfree skips at 0%, calls,
# progress, ranges and each full scan's progress at 10%; a range kind one
# side lacks is 0 there.  Patched model vs a kernel with the series:
#   wakeups 25/25, full_scans 1/1, collapsed 128/128, madv_collapsed 0/0,
#   lazyfree_skips 64/64 within; calls 131 vs 140: 9 <= 14 within; progress
#   65743 vs 70000: 4257 <= 7000 within; ranges succeed 128/128, page_lazyfree
#   64/64 within, pmd_mapped 10 vs 0: 10 > 1 outside, no_pte_table 0 vs 3:
#   3 > 0.3 outside; full scan 1 65743 vs 70000 within.
# 12 khugepaged figures, 2 outside; with the 6 above, 18 compared.
khm='"khugepaged":{"patched":true,"wakeups":25,"calls":131,"full_scans":1,"progress":65743,"topup":0,"collapsed":128,"madv_collapsed":0,"lazyfree_skips":64,"ranges":{"succeed":128,"page_lazyfree":64,"pmd_mapped":10},"progress_per_full_scan":[65743],"collapses":[],"trace_records":131}'
khk='"khugepaged":{"patched":true,"wakeups":25,"calls":140,"full_scans":1,"progress":70000,"topup":null,"collapsed":128,"madv_collapsed":0,"lazyfree_skips":64,"ranges":{"succeed":128,"page_lazyfree":64,"no_pte_table":3},"progress_per_full_scan":[70000],"collapses":null,"trace_records":140,"lab":{"has_scan_event":true,"commanded_wakeups":25,"spontaneous_wakeups":0,"per_wakeup":[{"progress":4100,"full_scan_finished":false,"spontaneous":false},{"progress":12,"full_scan_finished":true,"spontaneous":false}],"other_mms":{"calls":3,"progress":9,"ranges":0}}}'
sed "s/\"regions\":/$khm,\"regions\":/" "$dir/m.json" >"$dir/m-kh.json"
sed "s/\"regions\":/$khk,\"regions\":/" "$dir/k-in.json" >"$dir/k-kh.json"
expect 1 "compared 18 figures: 16 within tolerance, 2 outside; 0 not measured" "$dir/m-kh.json" "$dir/k-kh.json"
expect 1 "judgement: 12 figures compared, 10 within tolerance, 2 outside, 0 not measured" "$dir/m-kh.json" "$dir/k-kh.json"
out=$("$aw" compare "$dir/m-kh.json" "$dir/k-kh.json" 2>&1)
[[ $out == *"khugepaged: model patched vs kernel with the series (mm_khugepaged_scan)"* ]] &&
	[[ $out == *"  calls                              131       140 "* ]] &&
	[[ $out == *"  ranges pmd_mapped                   10         0!"* ]] &&
	[[ $out == *"  ranges no_pte_table                  0         3!"* ]] &&
	[[ $out == *"  progress, full scan 1            65743     70000 "* ]] &&
	[[ $out == *"kernel progress per wake-up (F full scan ended, s spontaneous): 4100 12F"* ]] && ok ||
	bad "khugepaged: rows: $out"
# --tolerance kh_ranges=0%+10: 10 <= 10 and 3 <= 10, all 18 within
expect 0 "18 within tolerance, 0 outside" "$dir/m-kh.json" "$dir/k-kh.json" --tolerance kh_ranges=0%+10
# a kernel without the series: calls, progress and the full scans' progress
# null (not measured, 2: the model finished no full scan here); wakeups 1/1,
# full_scans 0/0, collapsed 0/0, madv_collapsed 64/64, lazyfree_skips 0/0,
# ranges pmd_mapped 8/8: 6 judged, all within, + the 6 above
khm='"khugepaged":{"patched":false,"wakeups":1,"calls":1,"full_scans":0,"progress":4099,"topup":0,"collapsed":0,"madv_collapsed":64,"lazyfree_skips":0,"ranges":{"pmd_mapped":8},"progress_per_full_scan":[],"collapses":[],"trace_records":0}'
khk='"khugepaged":{"patched":false,"wakeups":1,"calls":null,"full_scans":0,"progress":null,"topup":null,"collapsed":0,"madv_collapsed":64,"lazyfree_skips":0,"ranges":{"pmd_mapped":8},"progress_per_full_scan":null,"collapses":null,"trace_records":null}'
sed "s/\"regions\":/$khm,\"regions\":/" "$dir/m.json" >"$dir/m-kh0.json"
sed "s/\"regions\":/$khk,\"regions\":/" "$dir/k-in.json" >"$dir/k-kh0.json"
expect 0 "compared 12 figures: 12 within tolerance, 0 outside; 2 not measured" "$dir/m-kh0.json" "$dir/k-kh0.json"
expect 0 "khugepaged: model base vs kernel without the series" "$dir/m-kh0.json" "$dir/k-kh0.json"
# a patched model against a kernel without the series: said
expect 1 "these figures are not meant to agree" "$dir/m-kh.json" "$dir/k-kh0.json"
# neither side did anything: no section
sed 's/"wakeups":1,"calls":1/"wakeups":0,"calls":0/; s/"madv_collapsed":64/"madv_collapsed":0/' "$dir/m-kh0.json" >"$dir/m-kh-idle.json"
sed 's/"wakeups":1/"wakeups":0/; s/"madv_collapsed":64/"madv_collapsed":0/' "$dir/k-kh0.json" >"$dir/k-kh-idle.json"
out=$("$aw" compare "$dir/m-kh-idle.json" "$dir/k-kh-idle.json" 2>&1)
[[ $out != *"khugepaged:"* ]] && [[ $out == *"compared 6 figures"* ]] && ok || bad "khugepaged idle: $out"

# nothing measured: a kernel run whose every figure is null
sed 's/"walks":[0-9]*/"walks":null/g; s/"leaf_total":[0-9]*/"leaf_total":null/; s/"young":[0-9]*/"young":null/; s/"resident":[0-9]*/"resident":null/; s/"passes":[0-9]*/"passes":null/; s/"aging_refused":0/"aging_refused":null/' \
	"$dir/k-in.json" >"$dir/k-null.json"
expect 1 "nothing was measured" "$dir/m.json" "$dir/k-null.json"

# refused: another profile, another scenario, not JSON, truncated, trailing data
run "$dir/m-main.json" mainline 2 "1000 500"
expect 2 "rerun the model with --kernel 6.1" "$dir/m-main.json" "$dir/k-in.json"
# the release decides, not the profile the executor assumed for debugfs
sed 's/"kernel":"6.1.0-57-cloud-amd64"/"kernel":"6.12","release":"6.18.4"/' "$dir/k-in.json" >"$dir/k-618.json"
expect 2 "ran on 6.18.4: the model has profiles for 6.1 and 6.12 only" "$dir/m.json" "$dir/k-618.json"
sed 's/x.aws/y.aws/' "$dir/k-in.json" >"$dir/k-other.json"
expect 2 "is a run of x.aws" "$dir/m.json" "$dir/k-other.json"
echo '{"a":1}' >"$dir/notaw.json"
expect 2 "not agewalk JSON" "$dir/m.json" "$dir/notaw.json"
head -c 100 "$dir/k-in.json" >"$dir/trunc.json"
expect 2 "byte 100: truncated JSON" "$dir/m.json" "$dir/trunc.json"
{ cat "$dir/k-in.json"; echo '{}'; } >"$dir/trail.json"
expect 2 "data after the JSON value" "$dir/m.json" "$dir/trail.json"
expect 2 "cannot open" "$dir/m.json" "$dir/missing.json"
expect 2 "is not REL%" "$dir/m.json" "$dir/k-in.json" --tolerance young=5
expect 2 "no variant pud" "$dir/m.json" "$dir/k-in.json" --variant pud

echo "compare: $pass passed, $fail failed"
[ "$fail" = 0 ]
