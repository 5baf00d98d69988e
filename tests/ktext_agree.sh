#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ktext_agree.sh AGEWALK SRCDIR [quick]: every corpus scenario runs with each
# kernel-text variant beside the model variant it must agree with, under
# its release's profile (agewalk --version lists them), and the
# exact-agreement oracle finds no divergence; no kernel WARN, no refused
# event.  Skips (77) when the build has no kernel-text variants.  quick
# (the sanitizer build): the regressions and corpus/ktext only -- the
# scenarios' gigabyte arenas run in the normal build.
set -u
bin=$1 src=$2 quick=${3:-}
variants=$("$bin" --version | sed -n 's/^kernel-text variants: //p')
case $variants in none*|"") echo "ktext_agree: no kernel-text variants in this build"; exit 77 ;; esac
fail=0 runs=0
# "k6.12 (6.12, agrees with base), ..." -> "k6.12 6.12 base" per line
while read -r name profile pair; do
	files=("$src"/corpus/ktext/*.aws "$src"/corpus/regressions/*.aws)
	[ -n "$quick" ] || files+=("$src"/corpus/scenarios/*.aws)
	for f in "${files[@]}"; do
		out=$("$bin" run "$f" --variants "$pair,$name" --kernel "$profile" 2>&1)
		rc=$?
		runs=$((runs + 1))
		bad=$(printf '%s\n' "$out" | grep -v '^agewalk: warning: ' | grep -m1 -E 'kernel-text-agreement|WARN|^agewalk:')
		# one open 6.1 difference (docs/validation.md): with 6.1's reclaim
		# loop modelled, s13-memcg-thrash's list order differs (at event 11
		# in its file list until the page-table charge moved its reclaim,
		# now at event 9 in its anon list); listed exactly, so any other
		# 6.1 difference, or this one moving, fails
		if [ "$profile" = 6.1 ] && [ "${f##*/}" = s13-memcg-thrash.aws ] && [ $rc -le 1 ] &&
		   printf '%s\n' "$bad" | grep -q 'kernel-text-agreement at event 9 .*: memcg 1 node 0: list gen 3 anon, entry 7782: model pfn 0x8f37, kernel text pfn 0x8f35'; then
			echo "ktext_agree: known (open, 6.1 s13 list order): ${f#$src/} --variants $pair,$name"
			bad=
		fi
		# the same open 6.1 list-order difference in s12-late-arena-4k since
		# the page-table charge (issue 30): listed exactly as well
		if [ "$profile" = 6.1 ] && [ "${f##*/}" = s12-late-arena-4k.aws ] && [ $rc -le 1 ] &&
		   printf '%s\n' "$bad" | grep -q 'kernel-text-agreement at event 6 .*: memcg 1 node 0: list gen 0 anon, entry 1909: model pfn 0x1067, kernel text pfn 0x100f'; then
			echo "ktext_agree: known (open, 6.1 s12 list order): ${f#$src/} --variants $pair,$name"
			bad=
		fi
		if [ $rc -gt 1 ] || [ -n "$bad" ]; then
			echo "ktext_agree: ${f#$src/} --variants $pair,$name --kernel $profile (exit $rc): $bad"
			fail=1
		fi
	done
done < <(printf '%s\n' "$variants" | grep -o '[^ ,][^ ]* ([^,]*, agrees with [^)]*)' |
	 sed 's/^\([^ ]*\) (\([^,]*\), agrees with \([^)]*\))$/\1 \2 \3/')
[ $runs -gt 0 ] || { echo "ktext_agree: cannot read the variants from: $variants"; exit 1; }
[ $fail = 0 ] && echo "ktext_agree: $runs runs, model and kernel text agree after every aging pass and eviction"
exit $fail
