#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/diff-vmscan against a real linux-source-6.12 tarball, when the
# machine has one (exit 77: CTest's skip).  The model's shares move with
# every model change, so the check is on what the kernel side fixes:
# walk_pte_range() and walk_pmd_range() of 6.12 are 53 and 56 non-blank
# lines (counted by hand: awk 'NF' over their line ranges), every share
# is 0..100%, and the diffs come out for every row.
# usage: diff_vmscan_kernel.sh SRCDIR TARBALL
set -u
src=$1 tarball=$2
[ -f "$tarball" ] || { echo "no $tarball: skipped"; exit 77; }
out=$("$src/tools/diff-vmscan" "$tarball") || { echo "FAIL: exit $?"; exit 1; }
table=$(sed -n '/^function /,/^total /p' <<<"$out")
fail=0
row() { awk -v f="$1" '$1 == f { print $3 }' <<<"$table"; }
[ "$(row walk_pte_range)" = 53 ] || { echo "FAIL: walk_pte_range kernel lines $(row walk_pte_range)"; fail=1; }
[ "$(row walk_pmd_range)" = 56 ] || { echo "FAIL: walk_pmd_range kernel lines $(row walk_pmd_range)"; fail=1; }
rows=$(awk 'NR > 1 && $1 != "total"' <<<"$table" | wc -l)
[ "$rows" -ge 10 ] || { echo "FAIL: only $rows mirrored functions"; fail=1; }
[ "$(grep -c '^--- mm/vmscan.c:' <<<"$out")" = "$rows" ] || { echo "FAIL: diffs != rows"; fail=1; }
awk 'NR > 1 { s = $NF; sub("%", "", s); s += 0; if (s < 0 || s > 100) exit 1 }' <<<"$table" ||
	{ echo "FAIL: share out of range"; fail=1; }
[ $fail = 0 ] && echo "$table"
exit $fail
