#!/bin/bash
# The Python example of docs/format.md reads an .awpb that agewalk wrote,
# with the standard protobuf package, and sees the same events.
# Usage: python_example.sh AGEWALK SOURCE_DIR WORKDIR
set -euo pipefail
aw=$1 src=$2 dir=$3
mkdir -p "$dir"
protoc --python_out="$dir" -I"$src/src/event" "$src/src/event/agewalk.proto"
"$aw" convert "$src/corpus/scenarios/s3-cold-pud.aws" "$dir/s3.awpb"
out=$(PYTHONPATH="$dir" /usr/bin/python3 "$src/tests/awpb_example.py" "$dir/s3.awpb")
# hand count: S3 has evict, proc, 2 mmap, 2 write, 8 age, 7 read = 21 events
[ "$out" = "2 nodes, 21 events, first evict, pid 0" ] || { echo "got: $out"; exit 1; }
echo "python example: 1 passed, 0 failed"
