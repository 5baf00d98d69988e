#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The kernel profile on the command line and in the file: a bad --kernel
# is a one-line message (the first line of the output, before the usage)
# and exit 2 for run, replay and minimize; the JSON report names the
# profile that ran; `kernel 6.1` in a scenario is overridden by --kernel.
# Usage: kernel_profile_test.sh AGEWALK SOURCE_DIR WORKDIR
set -uo pipefail
aw=$1 src=$2 work=$3
mkdir -p "$work"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

want_msg="--kernel takes 6.1, 6.12 or mainline, not '6.6'"
for cmd in "run $src/corpus/scenarios/s3-cold-pud.aws" "replay $src/traces/memhog.dat" \
	   "minimize $src/corpus/scenarios/s3-cold-pud.aws"; do
	out=$($aw $cmd --kernel 6.6 2>&1)
	rc=$?
	first=$(printf '%s\n' "$out" | head -1)
	[ "$rc" = 2 ] && [ "${first#*: }" = "$want_msg" ] && ok ||
		bad "agewalk $cmd --kernel 6.6: exit $rc, '$first'"
done

printf 'kernel 6.1\nproc P\nmmap P A 64K\nwrite P A\n' >"$work/k61.aws"
for args in ":6.1" "--kernel 6.12:6.12" "--kernel mainline:mainline"; do
	opt=${args%%:*} want=${args#*:}
	# shellcheck disable=SC2086
	got=$("$aw" run "$work/k61.aws" --json $opt | grep -o '"kernel":"[^"]*"')
	[ "$got" = "\"kernel\":\"$want\"" ] && ok || bad "run k61.aws $opt: $got, wanted $want"
done
# 6.1/6.12 run_aging(): an unforced age on a new lruvec (min_seq 0, max_seq 3)
# is refused with -ERANGE and counted; mainline ages
printf 'proc P\nmmap P A 64K\nwrite P A\nage node 0 force 0\n' >"$work/age.aws"
for args in "6.1:1" "6.12:1" "mainline:0"; do
	kv=${args%%:*} want=${args#*:}
	got=$("$aw" run "$work/age.aws" --json --kernel "$kv" | grep -o '"aging_refused":[0-9]*' | head -1)
	[ "$got" = "\"aging_refused\":$want" ] && ok || bad "age.aws --kernel $kv: $got, wanted $want"
done
got=$("$aw" run "$src/corpus/scenarios/s3-cold-pud.aws" --json | grep -o '"kernel":"[^"]*"')
[ "$got" = '"kernel":"mainline"' ] && ok || bad "default profile: $got"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
