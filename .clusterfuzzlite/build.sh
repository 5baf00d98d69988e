#!/bin/bash -eu
# SPDX-License-Identifier: GPL-2.0-only
# ClusterFuzzLite / OSS-Fuzz build: honours $CC $CFLAGS $LIB_FUZZING_ENGINE
# $OUT $SRC $WORK.  Puts each fuzzer in $OUT with <fuzzer>_seed_corpus.zip
# (files named by their sha1), <fuzzer>.dict and <fuzzer>.options.
src=${SRC:-$(cd "$(dirname "$0")/.." && pwd)}
[ -d "$src/agewalk" ] && src=$src/agewalk
work=${WORK:-$(mktemp -d)}
cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAGEWALK_FUZZ_ENGINE=oss-fuzz \
	-DCMAKE_C_COMPILER="${CC:-clang}" -DCMAKE_CXX_COMPILER="${CXX:-clang++}" \
	-DCMAKE_C_FLAGS="${CFLAGS:-}" -DCMAKE_CXX_FLAGS="${CXXFLAGS:-}"
cmake --build "$work/build" -j"$(nproc)"
for t in agewalk_fuzz_lockstep agewalk_fuzz_awpb agewalk_fuzz_khugepaged agewalk_fuzz_aws; do
	cp "$work/build/fuzz/$t" "$OUT/"
	case $t in
	*awpb) seeds=$work/build/fuzz/seeds/awpb ;;
	*aws) seeds=$work/build/fuzz/seeds/aws ;;
	*khugepaged) seeds=$work/build/fuzz/seeds/khugepaged ;;
	*) seeds=$work/build/fuzz/seeds/lockstep ;;
	esac
	named=$(mktemp -d)
	for f in "$seeds"/*; do cp "$f" "$named/$(sha1sum "$f" | cut -d' ' -f1)"; done
	rm -f "$OUT/${t}_seed_corpus.zip"
	(cd "$named" && python3 -m zipfile -c "$OUT/${t}_seed_corpus.zip" *)
	rm -rf "$named"
	cp "$src/fuzz/$t.dict" "$OUT/$t.dict"
	# the fuzz-format records fit 4112 bytes; .aws text is longer (the target reads 256 KiB)
	max_len=4112
	case $t in *aws) max_len=65536 ;; esac
	cat > "$OUT/$t.options" <<OPT
[libfuzzer]
dict = $t.dict
max_len = $max_len
rss_limit_mb = 2560
OPT
done
