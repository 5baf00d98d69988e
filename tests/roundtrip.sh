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
"$aw" run --check --variants base,pud "$dir/$b.awpb" >/dev/null
echo "roundtrip $b: 1 passed, 0 failed"
