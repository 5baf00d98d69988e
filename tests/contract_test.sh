#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# contract_test.sh AGEWALK CORPUS: the empty-mm contract's options
# (src/event/contract.h) change what the RFC's contract says they change,
# against figures worked out by hand from the rules:
#  - the first-touch eviction (corpus/regressions/emptymap-first-touch-
#    hot-eviction.aws) needs a mark that a huge first-touch fault leaves:
#    gone when huge faults clear it, gone when "empty" is "no leaves at
#    all" (the mm holds one old page: never marked), kept wherever the
#    skip sits;
#  - S8 without THP: with the skip inside get_next_mm() a pass that skips
#    every mm never resets the next filters, and the NULL PMD filter lets
#    pass 5 read all 2,097,152 entries again (4,194,304 in all, against
#    base's 2,097,152); with the skip after it, the mm is handed out, the
#    filters are reset, and emptymap reads base's 2,097,152;
#  - the option survives .aws -> .awpb -> .aws, and a bad one is refused.
set -u
aw=$1 corpus=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() {	# NAME CONDITION...
	local name=$1
	shift
	if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}
ft=$corpus/regressions/emptymap-first-touch-hot-eviction.aws
findings() { "$aw" run "$ft" --variants base,emptymap "$@" 2>/dev/null | grep -c '^finding'; }
check "first touch: default contract finds it" test "$(findings)" = 1
check "first touch: clear=major+huge+migration does not" test "$(findings --empty-contract clear=major+huge+migration)" = 0
check "first touch: empty=no-leaves does not" test "$(findings --empty-contract empty=no-leaves)" = 0
check "first touch: place=after still does" test "$(findings --empty-contract place=after)" = 1

leaves() {	# node 1's leaf entries of emptymap on S8 without THP
	"$aw" run "$corpus/scenarios/s8-rfc-headline.aws" --thp never --variants base,emptymap "$@" --json 2>/dev/null |
		python3 -c 'import json,sys; d=json.load(sys.stdin); print(" ".join(str(v["nodes"][1]["leaf_total"]) for v in d["variants"]))'
}
check "S8 never: skip inside get_next_mm() reads twice" test "$(leaves)" = "2097152 4194304"
check "S8 never: skip after get_next_mm() reads once" test "$(leaves --empty-contract place=after)" = "2097152 2097152"

printf '# agewalk scenario\nnode 0 cpus 0-1 mem 512M\nempty_contract clock=pass clear=major+collapse\nproc P1\n' > "$tmp/c.aws"
"$aw" convert "$tmp/c.aws" "$tmp/c.awpb" && "$aw" convert "$tmp/c.awpb" "$tmp/back.aws"
check "awpb keeps the contract" grep -qx 'empty_contract place=get-next-mm empty=associated clock=pass clear=major+collapse' "$tmp/back.aws"
"$aw" run "$ft" --empty-contract clock=hourly > "$tmp/bad.out" 2>&1
check "bad --empty-contract: exit 2" test $? = 2
check "bad --empty-contract: one line naming the word" test "$(grep -c "clock=hourly" "$tmp/bad.out")" = 1
exit $fail
