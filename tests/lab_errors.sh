#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# lab_errors.sh AGEWALK WORKDIR: tools/agewalk-lab's bad-input paths, none
# of which boots anything: a kernel that is no file, a scenario that does
# not parse (the position, from the model's parser), a missing scenario,
# unknown subcommands and options.  Each is one line starting
# "agewalk-lab: " and exit status 2, and no OUT.json is left behind.
set -euo pipefail
agewalk=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") work=$2
lab=$(cd "$(dirname "$0")/.." && pwd)/tools/agewalk-lab
rm -rf "$work"; mkdir -p "$work"; cd "$work"
export AGEWALK_BUILD=$(dirname "$agewalk") AGEWALK_LAB_DIR=$work/lab
fail() { echo "FAIL: $*"; exit 1; }
printf 'node 0 cpus 0 mem 1G\nnode 1 cpus 1 mem 1G\nbogus line\n' >bad.aws
printf 'node 0 cpus 0 mem 1G\nthp never\nmodes never\nproc P cpu 0\n' >good.aws

# check WANT_REGEX ARGS...: exit 2, one line matching
check() {
	local want=$1 out rc=0; shift
	out=$("$lab" "$@" 2>&1) || rc=$?
	[ "$rc" = 2 ] || fail "agewalk-lab $*: exit $rc, not 2 ($out)"
	[ "$(echo "$out" | wc -l)" = 1 ] || fail "agewalk-lab $*: not one line: $out"
	echo "$out" | grep -qE "^agewalk-lab: $want" || fail "agewalk-lab $*: '$out' does not match '$want'"
	[ ! -e out.json ] || fail "agewalk-lab $*: left out.json behind"
}
check 'kernel [^ ]*nonexistent/bzImage: no such file' run "$work/nonexistent/bzImage" good.aws -o out.json
check 'kernel 6\.7: no such file' run 6.7 good.aws -o out.json
# a series' kernel is named by the series up to its first '-' (6.12+NAME
# from src/ktext/series/NAME-vN); not built, the line names the build
check 'kernel 6\.12\+pud not built \(run: agewalk-lab build 6\.12 --series pud-v3\)$' run 6.12+pud good.aws -o out.json
check 'kernel 6\.12\+khugepaged not built \(run: agewalk-lab build 6\.12 --series khugepaged-v7\)$' \
	run 6.12+khugepaged good.aws -o out.json
check 'kernel 6\.12\+frob: no such file' run 6.12+frob good.aws -o out.json
check 'bad\.aws:3:1: ' run "$work/nonexistent/bzImage" bad.aws -o out.json
check 'missing\.aws: no such scenario' run 6.1 missing.aws -o out.json
check 'run needs KERNEL SCENARIO -o OUT.json' run 6.1 good.aws
check 'run: unknown option --bogus' run 6.1 good.aws -o out.json --bogus
check '.*--timeout needs seconds' run 6.1 good.aws -o out.json --timeout soon
check '.*--mem-cap needs a size' run 6.1 good.aws -o out.json --mem-cap lots
check '.*--icount needs a shift 0-10' run 6.1 good.aws -o out.json --icount 11
check 'fetch: 6\.12 is not fetched' fetch 6.12
check 'build: only 6\.12 is built' build 6.1
check 'build: no series frob in src/ktext/series$' build 6.12 --series frob
check 'unknown subcommand frob' frob

# a kernel that cannot be fetched: one line, exit 1, nothing kept.  Fake
# apt tools on PATH stand for a machine without the package (apt-cache
# resolves, apt-get download fails) and one whose apt knows no cloud image
mkdir -p fakeapt
printf '#!/bin/sh\necho "  Depends: linux-image-6.1.0-99-cloud-amd64"\n' >fakeapt/apt-cache
printf '#!/bin/sh\necho "E: Unable to locate package $3"; exit 100\n' >fakeapt/apt-get
chmod +x fakeapt/*
fetch_fails() {	# fetch_fails WANT_REGEX
	local out rc=0
	out=$(PATH=$work/fakeapt:$PATH "$lab" fetch 6.1 2>&1) || rc=$?
	[ "$rc" = 1 ] || fail "fetch 6.1 ($2): exit $rc, not 1 ($out)"
	[ "$(echo "$out" | wc -l)" = 1 ] && echo "$out" | grep -qE "^agewalk-lab: fetch 6\.1: $1" ||
		fail "fetch 6.1 ($2): not the one-line error: $out"
	[ ! -e "$AGEWALK_LAB_DIR/kernel-6.1" ] || fail "fetch 6.1 ($2): left a kernel-6.1 directory"
}
fetch_fails 'apt-get download linux-image-6\.1\.0-99-cloud-amd64 failed: E: Unable to locate' "download fails"
printf '#!/bin/sh\nexit 0\n' >fakeapt/apt-cache
fetch_fails 'cannot resolve linux-image-cloud-amd64' "no image package"
echo "ok: 16 bad invocations, each one line and exit 2; 2 failed fetches, one line and exit 1"
