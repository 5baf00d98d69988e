#!/bin/bash
# --khugepaged-rev: the seed's patched khugepaged skips a clean PTE of a
# VM_DROPPABLE folio, v8 exempts VM_DROPPABLE and collapses (and the
# default is the seed).  Usage: kh_rev_test.sh AGEWALK FILE
set -uo pipefail
aw=$1 f=$2 fail=0
collapsed() {	# $1 = extra options; prints khugepaged-patched's "collapsed"
	"$aw" run --variants khugepaged-patched --json $1 "$f" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["variants"][0]["khugepaged"]["collapsed"])'
}
[ "$(collapsed "")" = 0 ] || { echo "FAIL: default revision collapsed a droppable lazyfree range"; fail=1; }
[ "$(collapsed "--khugepaged-rev seed")" = 0 ] || { echo "FAIL: seed collapsed it"; fail=1; }
[ "$(collapsed "--khugepaged-rev v8")" = 1 ] || { echo "FAIL: v8 did not collapse it"; fail=1; }
"$aw" run --khugepaged-rev v7 "$f" >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAIL: --khugepaged-rev v7 accepted"; fail=1; }
[ $fail -eq 0 ] && echo "kh_rev_test: 4 checks passed"
exit $fail
