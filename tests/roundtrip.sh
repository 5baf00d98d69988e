#!/bin/bash
# .aws -> .awpb -> .aws is identical to .aws -> .aws (the writer's
# normalisation: expanded repeats, explicit offsets), and the .awpb runs to
# the same expectations.  Usage: roundtrip.sh AGEWALK FILE.aws WORKDIR
set -euo pipefail
aw=$1 in=$2 dir=$3
b=$(basename "$in" .aws)
mkdir -p "$dir"
"$aw" convert "$in" "$dir/$b.awpb"
"$aw" convert "$dir/$b.awpb" "$dir/$b.rt.aws"
"$aw" convert "$in" "$dir/$b.norm.aws"
cmp "$dir/$b.norm.aws" "$dir/$b.rt.aws"
"$aw" convert --to awpb "$in" - | "$aw" convert --from awpb - --to aws - | cmp - "$dir/$b.norm.aws"
"$aw" convert --from aws - --to aws - <"$in" | cmp - "$dir/$b.norm.aws"
# standard input is read like a file: a NUL byte is an error with its position
if printf 'node 0 cpus 0-1 mem 1G\n\0' | "$aw" convert --from aws - --to aws - >/dev/null 2>"$dir/$b.nul"; then
	echo "a NUL on standard input was accepted"; exit 1
fi
grep -q '^-:2:1: NUL byte in input' "$dir/$b.nul"
"$aw" run --check --variants base,pud "$dir/$b.awpb" >/dev/null
echo "roundtrip $b: 1 passed, 0 failed"
