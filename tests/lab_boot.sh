#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# lab_boot.sh BUILD LABDIR WORKDIR: real boots under QEMU (docs/lab.md).
# Skips (exit 77) unless LABDIR names a lab cache with a fetched 6.1 (the
# CMake cache variable AGEWALK_LAB_DIR; empty by default, so CI never
# boots), qemu-system-x86_64 and jq are installed and BUILD has
# agewalk-exec.  Then:
#   - a boot cut at 1 second is a one-line "timeout" error, exit 1, its
#     console log kept, no OUT.json (a partial run is never a result);
#   - calibration-lab.aws on each kernel the cache has (6.1, 6.12,
#     6.12+pud): the guest saw two NUMA nodes, lru_gen enabled 0x0007,
#     debugfs lru_gen readable, and the executor's JSON came back.
set -euo pipefail
build=$(cd "$1" && pwd) labdir=$2 work=$3
top=$(cd "$(dirname "$0")/.." && pwd)
skip() { echo "skipped: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
[ -n "$labdir" ] || skip "no lab cache (configure with -DAGEWALK_LAB_DIR=DIR after tools/agewalk-lab fetch 6.1)"
[ -f "$labdir/kernel-6.1/vmlinuz" ] || skip "6.1 not fetched into $labdir (tools/agewalk-lab fetch 6.1)"
command -v qemu-system-x86_64 >/dev/null || skip "not installed: qemu-system-x86_64 (Debian: qemu-system-x86)"
command -v jq >/dev/null || skip "not installed: jq (Debian: jq)"
[ -x "$build/agewalk-exec" ] || skip "agewalk-exec not built in $build"
export AGEWALK_BUILD=$build AGEWALK_LAB_DIR=$labdir
lab=$top/tools/agewalk-lab scen=$top/corpus/scenarios/calibration-lab.aws
rm -rf "$work"; mkdir -p "$work"

rc=0; out=$("$lab" run 6.1 "$scen" -o "$work/t.json" --timeout 1 2>&1) || rc=$?
[ "$rc" = 1 ] || fail "--timeout 1: exit $rc, not 1 ($out)"
[ "$(echo "$out" | wc -l)" = 1 ] && echo "$out" | grep -q 'timeout: boot timed out after 1s' ||
	fail "--timeout 1: not a one-line timeout error: $out"
[ -f "$work/t.console.log" ] || fail "--timeout 1: console log not kept"
[ ! -e "$work/t.json" ] || fail "--timeout 1: a partial run left t.json"

n=0
for k in 6.1 6.12 6.12+pud; do
	case $k in 6.1) ;; *) [ -f "$labdir/kernel-$k/bzImage" ] || continue ;; esac
	"$lab" run "$k" "$scen" -o "$work/$k.json" || fail "$k: run failed"
	jq -e '.lab.status == "ok" and .lab.guest.nodes == "2" and .lab.guest.lru_gen_enabled == "0x0007"
	       and .lab.guest.debugfs_lru_gen == "readable"' "$work/$k.json" >/dev/null ||
		fail "$k: the guest is not the lab's machine: $(jq -c .lab "$work/$k.json")"
	n=$((n + 1))
done
echo "ok: timeout path; $n kernel(s) booted with 2 nodes, lru_gen 0x0007, debugfs lru_gen"
