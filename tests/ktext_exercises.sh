#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ktext_exercises.sh AGEWALK SRCDIR [quick]: every corpus scenario, run
# with each kernel-text variant beside its model pair under its release's
# profile, in each THP mode the scenario declares, executes the text: an
# aging call, an eviction or reclaim (agewalk warns "ran no kernel text"
# otherwise, src/check/report_text_ran.c).  A scenario the text never
# runs checks nothing against the kernel's code; 6.1/6.12 refuse unforced
# aging -ERANGE while four generations are live, so such a scenario needs
# an eviction or a forced pass (docs/ktext.md).  Skips (77) without
# kernel-text variants; quick (the sanitizer build): the regressions and
# corpus/ktext only.
set -u
bin=$1 src=$2 quick=${3:-}
variants=$("$bin" --version | sed -n 's/^kernel-text variants: //p')
case $variants in none*|"") echo "ktext_exercises: no kernel-text variants in this build"; exit 77 ;; esac
fail=0 runs=0
while read -r name profile pair; do
	files=("$src"/corpus/ktext/*.aws "$src"/corpus/regressions/*.aws)
	[ -n "$quick" ] || files+=("$src"/corpus/scenarios/*.aws)
	for f in "${files[@]}"; do
		modes=$(sed -n 's/^modes[[:space:]]\{1,\}//p' "$f" | head -1)
		[ -n "$modes" ] || modes=$(sed -n 's/^thp[[:space:]]\{1,\}//p' "$f" | head -1)
		for thp in ${modes:-always}; do
			out=$("$bin" run "$f" --thp "$thp" --variants "$pair,$name" --kernel "$profile" --no-oracles \
			      2>&1 >/dev/null)
			runs=$((runs + 1))
			if printf '%s\n' "$out" | grep -q 'ran no kernel text'; then
				echo "ktext_exercises: ${f#$src/} --thp $thp --variants $pair,$name --kernel $profile:" \
				     "the text ran nothing"
				fail=1
			fi
		done
	done
done < <(printf '%s\n' "$variants" | grep -o '[^ ,][^ ]* ([^,]*, agrees with [^)]*)' |
	 sed 's/^\([^ ]*\) (\([^,]*\), agrees with \([^)]*\))$/\1 \2 \3/')
[ $runs -gt 0 ] || { echo "ktext_exercises: cannot read the variants from: $variants"; exit 1; }
[ $fail = 0 ] && echo "ktext_exercises: $runs runs, the kernel text ran in every one"
exit $fail
