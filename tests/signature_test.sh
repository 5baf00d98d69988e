#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# signature_test.sh AGEWALK CORPUS: a finding's signature names its cause
# by rule and holds no address, pid or event index.  For each of the two
# patch-inherent differential findings, the regression and a different
# input with the same cause (moved to another address, with an unrelated
# process first, so pids, mm ids and event indexes all change) get one
# signature, the expected one; the two findings get different ones.
set -u
aw=$1 corpus=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() {	# NAME GOT WANT
	if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: got '$2', want '$3'"; fail=1; fi
}
sig() {	# SCENARIO VARIANTS: the signature lines, sorted
	"$aw" run "$1" --variants "$2" 2>/dev/null | sed -n 's/^  signature: //p' | sort -u
}
# the same scenario, moved: another address, another process (in the root
# memcg, which the memcg-1 passes and evictions never see) before P1
moved() {	# IN OUT ADDR
	sed -e "s/ at 0x7e0000000000/ at $3/" \
	    -e 's/^proc P1 memcg 1$/proc P0\nmmap P0 R1 64K\nwrite P0 R1\nproc P1 memcg 1/' "$1" > "$2"
}

# a forked child's tables are copies of its parent's, and so is their skip
# history: the folio evicted through the child's mapping is attributed to
# the skip of its path in the parent, before the fork
fork=$corpus/regressions/pud-skip-other-node-fork.aws
check "fork: the parent's skip, inherited" "$(sig "$fork" base,pud)" \
	'premature-reclaim-differential [base,pud] no skip on its path; the last skip on its path, in another lruvec: PUD skipped: never inserted, its subtree had no page tables at the last walk'
# ... and a skip in the parent after the fork is on the shared folio's path too
after=$corpus/regressions/rfc-skip-parent-after-fork.aws
check "fork: the parent's skip after the fork" "$(sig "$after" base,rfc)" \
	'premature-reclaim-differential [base,rfc] no skip on its path; the last skip on its path, in another lruvec: PUD skipped: never inserted, nothing in its subtree was young at the last walk'

pud=$corpus/regressions/pud-late-region-hot-eviction.aws
want_pud='premature-reclaim-differential [base,pud] PUD skipped: never inserted, its subtree had no page tables at the last walk'
moved "$pud" "$tmp/pud-moved.aws" 0x7c0040000000
check "pud: regression" "$(sig "$pud" base,pud)" "$want_pud"
check "pud: moved input, same signature" "$(sig "$tmp/pud-moved.aws" base,pud)" "$want_pud"
check "pud: the input did move" "$(grep -c 0x7c0040000000 "$tmp/pud-moved.aws")" 1

em=$corpus/regressions/emptymap-first-touch-hot-eviction.aws
want_em='premature-reclaim-differential [base,emptymap] mm skipped while marked empty: mark set by a walk with no young leaf, not cleared by a huge first-touch fault'
moved "$em" "$tmp/em-moved.aws" 0x7d0000000000
check "emptymap: regression" "$(sig "$em" base,emptymap)" "$want_em"
check "emptymap: moved input, same signature" "$(sig "$tmp/em-moved.aws" base,emptymap)" "$want_em"

# JSON carries it too, and the cause alone
json=$("$aw" run "$pud" --variants base,pud --json 2>/dev/null)
case $json in
*'"signature":"'"$want_pud"'","cause":"PUD skipped: never inserted, its subtree had no page tables at the last walk"'*)
	echo "ok   json: signature and cause" ;;
*)	echo "FAIL json: no signature/cause pair"; fail=1 ;;
esac
exit $fail
