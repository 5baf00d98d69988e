#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/lab-port: a hand-written scenario and its port written out by hand
# (an eviction before each lruvec's first age and after every age, with
# that age's memcg and swappiness; 'kernel 6.12' before the first event
# line), and every committed port in corpus/lab/ equal to a fresh port of
# its source and readable by agewalk.
# Usage: lab_port_test.sh SOURCE_DIR AGEWALK
set -uo pipefail
src=$1 aw=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0

cat >"$dir/in.aws" <<'AWS'
# a comment
node 0 cpus 0 mem 1G
memcg 1
proc P cpu 0 memcg 1
age node 0 memcg 1 force 0 swappiness 1
repeat 2 {
  age node 0 memcg 1 force 1
}
age node 0 force 0  # root
AWS
cat >"$dir/want.aws" <<'AWS'
# lab-port of in.aws (tools/lab-port): the oldest generation of each
# lruvec is evicted before its first age and after every age, so 6.1
# and 6.12's run_aging() have room for the next one (-ERANGE otherwise).
# a comment
kernel 6.12
node 0 cpus 0 mem 1G
memcg 1
proc P cpu 0 memcg 1
evict node 0 memcg 1 swappiness 1   # lab-port: make room
age node 0 memcg 1 force 0 swappiness 1
evict node 0 memcg 1 swappiness 1   # lab-port: make room
repeat 2 {
  age node 0 memcg 1 force 1
  evict node 0 memcg 1   # lab-port: make room
}
evict node 0   # lab-port: make room
age node 0 force 0  # root
evict node 0   # lab-port: make room
AWS
"$src/tools/lab-port" "$dir/in.aws" -o "$dir/out.aws" &&
	diff -u "$dir/want.aws" "$dir/out.aws" || { echo "FAIL: the hand-written port"; fail=1; }
"$aw" run "$dir/out.aws" >/dev/null || { echo "FAIL: agewalk cannot run the port"; fail=1; }

n=0
for port in "$src"/corpus/lab/*.aws; do
	name=$(sed -n '1s/^# lab-port of \([^ ]*\) .*/\1/p' "$port")
	# a lab scenario of its own (memcg-thrash-*: written for 6.1 and 6.12,
	# no port of anything): it runs under both profiles
	if [ -z "$name" ] && ! head -1 "$port" | grep -q 'lab-port'; then
		for k in 6.1 6.12; do
			"$aw" run "$port" --kernel $k >/dev/null || { echo "FAIL: $port does not run under $k"; fail=1; }
		done
		continue
	fi
	orig=$(ls "$src"/corpus/scenarios/"$name" "$src"/corpus/regressions/"$name" 2>/dev/null | head -1)
	[ -n "$orig" ] || { echo "FAIL: $port: no source $name"; fail=1; continue; }
	"$src/tools/lab-port" "$orig" | cmp -s - "$port" ||
		{ echo "FAIL: $port differs from tools/lab-port $orig"; fail=1; }
	"$aw" run "$port" --kernel 6.12 >/dev/null || { echo "FAIL: $port does not run"; fail=1; }
	n=$((n + 1))
done
echo "lab-port: hand-written port and $n committed ports checked"
exit $fail
