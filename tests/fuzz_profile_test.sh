#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# fuzz_profile_test.sh SRC: bench/fuzz-profile's command line, never a
# profile (perf needs a machine that allows it, and its figures are not
# tested).  Usage errors exit 2 with one line on stderr naming the
# problem; no target prints the usage and exits 2.
set -euo pipefail
src=$1
prof=$src/bench/fuzz-profile
. "$(dirname "$0")/usage_case.sh"
usage_case "$prof" '-r abc: a number of runs' -r abc agewalk_fuzz_lockstep
usage_case "$prof" '-r 0: a number of runs' -r 0 agewalk_fuzz_lockstep
usage_case "$prof" '-n x: a number of symbols' -n x agewalk_fuzz_lockstep
usage_case "$prof" "no $tmp/none/fuzz/agewalk_fuzz_lockstep" -B "$tmp/none" agewalk_fuzz_lockstep

rc=0
"$prof" > "$tmp/out" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "no target exited $rc, not 2"
grep -q 'bench/fuzz-profile \[-B BUILD\]' "$tmp/out" || fail "no target: no usage: $(cat "$tmp/out")"
echo "fuzz-profile: usage errors as documented"
