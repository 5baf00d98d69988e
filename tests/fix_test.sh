#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# fix_test.sh AGEWALK CORPUS: the fix tried for the PUD filter's
# late-region finding (docs/findings/pud-late-region.md, --fix pud-young)
# silences it -- R0's THP stays resident, 64 folios evicted as base does
# -- and leaves the filter's savings on cold subtrees as they were (S3:
# 1,290 PMD entries read against base's 4,384), while S12's arena, which
# the filter never carries, is read as base reads it (6,670).
set -u
aw=$1 corpus=$2
fail=0
check() {	# NAME CONDITION...
	local name=$1
	shift
	if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}
pmd_read() {	# FILE [--fix pud-young]: pud's PMD entries read, all nodes
	"$aw" run "$corpus/scenarios/$1" --variants base,pud "${@:2}" --json 2>/dev/null |
		python3 -c 'import json,sys; d=json.load(sys.stdin); print(sum(n["pmd_entries_read"] for n in d["variants"][1]["nodes"]))'
}
late=$corpus/regressions/pud-late-region-hot-eviction.aws
"$aw" run "$late" --variants base,pud > /dev/null 2>&1
check "late region: the finding without the fix" test $? = 1
out=$("$aw" run "$late" --variants base,pud --fix pud-young 2>&1)
check "late region: silent with the fix" test $? = 0
check "late region: pud evicts 64 folios, as base" test "$(echo "$out" | grep -c 'evicted 64 (single-touch 0, hot 0)')" = 2
check "S3: the fix keeps the savings" test "$(pmd_read s3-cold-pud.aws --fix pud-young)" = 1290
check "S12: the arena read as base reads it" test "$(pmd_read s12-late-thp-arena.aws --fix pud-young)" = 6670
"$aw" run "$late" --fix sometimes > /dev/null 2>&1
check "unknown fix: exit 2" test $? = 2
exit $fail
