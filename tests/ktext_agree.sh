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
