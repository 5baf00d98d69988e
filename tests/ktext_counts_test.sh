#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ktext_counts_test.sh AGEWALK SRCDIR: what a kernel-text variant's table
# and JSON count, and what they say they do not (docs/ktext.md, "What a
# text variant's tables count").  On corpus/scenarios/s3-cold-pud.aws
# (THP always, one process, --kernel 6.12, pud beside k6.12+pud), by hand:
# one mm, so each of the two passes walks one mm; pass 1 meets the mm new,
# so its walk is forced without the pass being forced (sticky); the
# faults placed every folio in the youngest generation, so pass 1 promotes
# none and pass 2 promotes H's 32 young THPs.  The text counts walks
# (walk_mm() hook) and promotions (per node) and not PMD entries read,
# Bloom filter tests, per-pass promotions, regions' per-pass figures or
# the oracles' shadows: '-' in the table, null in the JSON, and an expect
# line reading one fails.
set -u
aw=$1 src=$2 fail=0
s3=$src/corpus/scenarios/s3-cold-pud.aws
err() { echo "ktext_counts: $*"; fail=1; }

table=$("$aw" run "$s3" --kernel 6.12 --variants pud,k6.12+pud 2>&1) || err "run failed"
rows=$(echo "$table" | awk '/^variant k6.12\+pud, node 0/ { on = 1; next } on && /^  (1|2|total) / { print } /^$/ { on = 0 }')
want="  1                  1         1         0         1      1154       608       608         4         3         -         -         0         -
  2                  1         1         0         0       642        32        32         3         0         -         -         1         -
  total              2         2         0         1      1796       640       640         7         3         -         -         1        32"
[ "$rows" = "$want" ] || err "k6.12+pud's rows: got
$rows
want
$want"
echo "$table" | grep -q "^  evicted 0 (single-touch 0, hot 0)  refaults 0  oom kills 0  promoted 32  filter fill pmd 0 pud 6$" ||
	err "k6.12+pud's promoted is not 32"
echo "$table" | grep -q "^  suppressed-young region-passes - (longest run -)  Bloom false positives -  feedback kept - lost -$" ||
	err "k6.12+pud's oracle metrics are not '-'"

json=$("$aw" run "$s3" --kernel 6.12 --variants pud,k6.12+pud --json 2>/dev/null)
got=$(echo "$json" | jq -c '.variants[1] | [.nodes[0] | .walks, .forced_walks, .sticky_forced_walks, .promoted,
	.pmd_entries_read, .bloom_tests, .feedback, .per_pass[0].promoted, .per_pass[1].walks] + [.regions[0].per_pass[0] | .young, .resident]')
[ "$got" = "[2,1,1,32,null,null,null,null,1,null,16384]" ] || err "k6.12+pud's JSON: $got"
got=$(echo "$json" | jq -c '.variants[0] | [.nodes[0] | .walks, .forced_walks, .sticky_forced_walks, .promoted, .pmd_entries_read]')
[ "$got" = "[2,1,1,32,1095]" ] || err "pud's JSON (the model counts all): $got"

# an expect line on a figure the text does not count fails, naming it
f=${TMPDIR:-/tmp}/ktext_counts.$$.aws
trap 'rm -f "$f"' EXIT
{ cat "$s3"; echo "expect var=k6.12 node=0 pmd_entries_read==0"; } >"$f"
out=$("$aw" run "$f" --kernel 6.12 --thp always --variants base,k6.12 --check 2>&1); rc=$?
[ $rc = 1 ] || err "expect on an uncounted figure: exit $rc, want 1"
echo "$out" | grep -q "kernel text does not count 'pmd_entries_read' (var=k6.12)" || err "expect message: $out"
# k6.12 has no PUD series: its per-walk counters (walks with leaves, PUDs skipped) are not counted either
got=$("$aw" run "$s3" --kernel 6.12 --variants base,k6.12 --json 2>/dev/null |
	jq -c '.variants[1].nodes[0] | [.walks, .walks_with_leaves, .pud_skipped]')
[ "$got" = "[2,null,null]" ] || err "k6.12's per-walk counters: $got"
[ $fail = 0 ] && echo "ktext_counts: ok"
exit $fail
