#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ktext_kh_agree.sh AGEWALK SRCDIR KHTREE RELEASE PAIR: khugepaged's text of
# one tree (kh6.12, kh6.1, ...) beside its model pair on every khugepaged
# scenario of the corpus -- K1-K5, the khugepaged regressions and
# corpus/ktext-kh -- with every oracle: no finding (khugepaged-text-
# agreement compares cursor, slots, counters, each range's result and the
# machine after every call into the text), no WARN of the text's, and the
# text ran (no idle line).  The files' expect lines are the model's
# figures under its own profile; they are not checked here.
set -u
aw=$1 src=$2 tree=$3 rel=$4 pair=$5 fail=0 n=0
for f in "$src"/corpus/scenarios/k[0-9]*.aws "$src"/corpus/regressions/*khugepaged*.aws "$src"/corpus/ktext-kh/*.aws; do
	out=$("$aw" run "$f" --variants "$pair,$tree" --kernel "$rel" 2>&1); rc=$?
	bad=$(printf '%s\n' "$out" | grep -E '^finding:|WARNING|^agewalk: (error|warning)' | head -3)
	if [ -n "$bad" ] || [ $rc != 0 ]; then
		echo "ktext_kh_agree: $tree on ${f#$src/}: exit $rc"
		printf '%s\n' "${bad:-$(printf '%s\n' "$out" | tail -3)}"
		fail=1
	fi
	n=$((n + 1))
done
[ $fail = 0 ] && echo "ktext_kh_agree: $tree agreed with $pair on $n scenarios"
exit $fail
