#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# --walk-log logs every variant's walks, each line naming its variant, in
# the order one thread runs them (src/check/walklog.h).
#
# Hand-computed from corpus/scenarios/s3-cold-pud.aws under THP always:
# H is 64 MiB of PMD-mapped THPs (32 leaves), C is 1 GiB (512 leaves)
# filling the PUD at 0x7f0000000000; one mm, eight aging passes.  Pass 1
# is forced (a new mm) and, with no filter from a pass before, reads the
# same in both variants: every PTE slot of the process's layout
# (docs/model-notes.md: text 128 KiB, heap 132 KiB, library 2 MiB, stack
# 132 KiB: 32 + 33 + 512 + 33 = 610) and the 544 leaves, T=1154; young
# the 64 layout pages faulted at creation (8 + 16 + 32 + 8) and the 544,
# Y=608.  From pass 3 on (pass 2 has cleared the young
# bits of the process's other, PTE-mapped pages, so their tables are
# gate-skipped), base still reads all 544 leaves with only H's 32 young;
# pud reads H's 32 alone, C's PUD being out of the Bloom filter (its
# entries were old in pass 2, so nothing put it back), and counts the
# skip; base never skips a PUD.
#
# A replay logs the same bytes with its variants split over threads
# asked for (--threads 3) as on one thread.
# Usage: walklog_test.sh AGEWALK SOURCE_DIR
set -uo pipefail
aw=$1 src=$2
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

log=$work/s3.log
"$aw" run "$src/corpus/scenarios/s3-cold-pud.aws" --thp always --variants base,pud \
	--walk-log "$log" >/dev/null || bad "run s3-cold-pud --walk-log: exit $?"

# field LINE NAME: the value of NAME= in LINE
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<"$1"; }

n=0 prev=''
while read -r line; do
	n=$((n + 1))
	# one mm: base's line then pud's, pass by pass
	want=base
	[ $((n % 2)) = 0 ] && want=pud
	passno=$(((n + 1) / 2))
	[ "$(field "$line" variant)" = "$want" ] && [ "$(field "$line" pass)" = "$passno" ] && ok ||
		bad "line $n: want variant=$want pass=$passno: $line"
	t=$(field "$line" T) y=$(field "$line" Y) s=$(field "$line" S)
	if [ "$passno" = 1 ] && [ "$want" = base ]; then
		[[ $line == *" forced "* ]] && [ "$t" = 1154 ] && [ "$y" = 608 ] && ok ||
			bad "pass 1 of base: want forced T=1154 Y=608: $line"
	elif [ "$passno" = 1 ]; then
		[ "${line/variant=pud/variant=base}" = "$prev" ] && ok ||
			bad "pass 1 of pud: want base's line: $line"
	elif [ "$passno" -ge 3 ] && [ "$want" = base ]; then
		[[ $line == *" walked "* ]] && [ "$t" = 544 ] && [ "$y" = 32 ] && [ "$s" = 0 ] && ok ||
			bad "pass $passno of base: want walked T=544 Y=32 S=0: $line"
	elif [ "$passno" -ge 3 ]; then
		[[ $line == *" walked "* ]] && [ "$t" = 32 ] && [ "$y" = 32 ] && [ "${s:-0}" -ge 1 ] && ok ||
			bad "pass $passno of pud: want walked T=32 Y=32 S>=1: $line"
	fi
	prev=$line
done <"$log"
[ "$n" = 16 ] && ok || bad "s3-cold-pud: $n walk lines, want 16 (8 passes x 2 variants)"

# one variant: its lines only
"$aw" run "$src/corpus/scenarios/s3-cold-pud.aws" --thp always --variants base \
	--walk-log "$work/base.log" >/dev/null || bad "run --variants base --walk-log: exit $?"
[ "$(grep -c '^walk variant=base ' "$work/base.log")" = 8 ] && [ "$(wc -l <"$work/base.log")" = 8 ] && ok ||
	bad "--variants base: want 8 lines, all variant=base"

# a replay: threads asked for do not change a byte
for t in 1 3; do
	"$aw" replay "$src/traces/memhog.dat" --variants base,pud --threads $t \
		--walk-log "$work/replay.$t" >/dev/null || bad "replay --threads $t --walk-log: exit $?"
done
cmp -s "$work/replay.1" "$work/replay.3" && ok || bad "replay walk logs differ between --threads 1 and 3"
# the PUD filter works inside a walk: it changes no mm a pass walks or skips
nb=$(grep -c '^walk variant=base ' "$work/replay.1") np=$(grep -c '^walk variant=pud ' "$work/replay.1")
[ "$nb" -gt 0 ] && [ "$nb" = "$np" ] && ok || bad "replay walk log: $nb base lines, $np pud lines"

echo "walklog: $pass passed, $fail failed"
[ "$fail" = 0 ]
