#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# known_fuzz_test.sh AGEWALK FUZZ_LOCKSTEP CORPUS SEEDS: the lockstep fuzz
# target (replay driver) counts a known finding and goes on, and stops on
# any other: the PUD filter's own hot eviction (corpus/known-findings)
# exits 0 with the hit reported; over the seed corpus, a planted bug's
# finding aborts with its signature.
set -u
aw=$1 fz=$2 corpus=$3 seeds=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() {	# NAME CONDITION...
	local name=$1
	shift
	if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}
"$aw" convert "$corpus/regressions/pud-late-region-hot-eviction.aws" "$tmp/known.fuzz" || exit 1
"$fz" "$tmp/known.fuzz" > "$tmp/known.out" 2>&1
check "known: exit 0" test $? -eq 0
check "known: hit reported" grep -qF 'known finding, hit 1: premature-reclaim-differential [base,pud] PUD skipped: never inserted, its subtree had no page tables at the last walk' "$tmp/known.out"

AGEWALK_BUG=walk-batch-not-flushed "$fz" "$seeds" > "$tmp/bug.out" 2>&1
check "planted bug: aborts" test $? -ne 0
check "planted bug: its signature" grep -qF 'signature: structural [base] nr_pages disagrees with the folios'"'"' generations' "$tmp/bug.out"
[ $fail = 0 ] || cat "$tmp/bug.out" "$tmp/known.out"
exit $fail
