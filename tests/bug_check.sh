#!/bin/bash
# A corpus file that documents planted bugs: each "# finding: ORACLE with
# --bug NAME --variants V" line says that running the file with that bug
# makes ORACLE fire (exit 1), and the file passes --check without it.
# A "# expect-finding: ORACLE --variants V" line documents a finding of the
# correct variants (a property of the patch): it must fire with V and must
# not fire with base alone.  With a "# expect-known" line as well, every
# finding of that run must be a known one (corpus/known-findings): the
# oracle names a cause the list accepts.
# Usage: bug_check.sh AGEWALK FILE
set -uo pipefail
aw=$1 f=$2
pass=0 fail=0
known=0
grep -qxE '# expect-known' "$f" && known=1
# every "  signature:" line of OUT followed by a "  known finding:" line
all_known() { awk '/^  signature: / { n++; want = 1; next } want && /^  known finding: / { k++ } { want = 0 } END { exit !(n > 0 && k == n) }' <<<"$1"; }
while read -r _ _ oracle varopt variants; do
	[ -n "$oracle" ] || continue
	[ "$varopt" = "--variants" ] || { echo "bad expect-finding line in $f"; exit 1; }
	out=$("$aw" run --variants "$variants" --keep-going "$f" 2>&1)
	rc=$?
	if [ $rc -eq 1 ] && grep -q "^finding: $oracle at" <<<"$out"; then
		pass=$((pass + 1))
	else
		echo "FAIL: $f with $variants: exit $rc, no '$oracle' finding"
		fail=$((fail + 1))
	fi
	if [ $known = 1 ] && ! all_known "$out"; then
		echo "FAIL: $f with $variants: a finding that is not a known one:"
		grep -E '^  signature: ' <<<"$out"
		fail=$((fail + 1))
	fi
	if "$aw" run --variants base "$f" >/dev/null 2>&1; then
		pass=$((pass + 1))
	else
		echo "FAIL: $f fires with base alone"
		fail=$((fail + 1))
	fi
done <<<"$(grep -E '^# expect-finding: ' "$f")"
lines=$(grep -E '^# finding: ' "$f")
[ -n "$lines" ] || { echo "$pass passed, $fail failed"; [ $fail -eq 0 ]; exit; }
while read -r _ _ oracle _ bugopt bug varopt variants; do
	[ "$bugopt" = "--bug" ] && [ "$varopt" = "--variants" ] || { echo "bad line in $f"; exit 1; }
	if "$aw" run --check --variants "$variants" "$f" >/dev/null 2>&1; then
		pass=$((pass + 1))
	else
		echo "FAIL: $f is not clean without --bug (variants $variants)"
		fail=$((fail + 1))
	fi
	out=$("$aw" run --variants "$variants" --bug "$bug" --keep-going "$f" 2>&1)
	rc=$?
	if [ $rc -eq 1 ] && grep -q "^finding: $oracle at" <<<"$out"; then
		pass=$((pass + 1))
	else
		echo "FAIL: --bug $bug on $f: exit $rc, no '$oracle' finding"
		fail=$((fail + 1))
	fi
done <<<"$lines"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
