# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# Sourced by the bench scripts' tests (after their own `set -euo
# pipefail`): makes $tmp, a directory removed at exit, and fail(), which
# ends the test with its message; then the checks below.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# usage_case CMD WANT ARGS... runs CMD ARGS... and fails unless it exits 2
# with nothing on stdout and one line on stderr that says WANT.
usage_case() {
	local cmd=$1 want=$2 rc=0
	shift 2
	"$cmd" "$@" > "$tmp/out" 2> "$tmp/err" || rc=$?
	[ "$rc" = 2 ] || fail "$* exited $rc, not 2"
	[ ! -s "$tmp/out" ] || fail "$* wrote to stdout: $(cat "$tmp/out")"
	[ "$(wc -l < "$tmp/err")" = 1 ] || fail "$*: not one line: $(cat "$tmp/err")"
	grep -q -- "$want" "$tmp/err" || fail "$*: '$(cat "$tmp/err")' does not say '$want'"
}

# stray_case CMD USAGE ARGS...: CMD ARGS... (which end in an argument the
# command takes no place for) exits 2 and prints its usage, whose synopsis
# line starts with USAGE.
stray_case() {
	local cmd=$1 want=$2 rc=0
	shift 2
	"$cmd" "$@" > "$tmp/out" 2>&1 || rc=$?
	[ "$rc" = 2 ] || fail "$* exited $rc, not 2"
	grep -q -- "^#   $want" "$tmp/out" || fail "$*: no usage"
}

# two_build_cases CMD BUILD: the usage errors of a bench that compares two
# builds (-B NEW -R REF): either one missing, or naming no fuzz target.
two_build_cases() {
	usage_case "$1" '-B NEW and -R REF are both needed'
	usage_case "$1" '-B NEW and -R REF are both needed' -B "$2"
	usage_case "$1" '-B NEW and -R REF are both needed' -R "$2"
	usage_case "$1" "no $tmp/none/fuzz/agewalk_fuzz_lockstep" -B "$tmp/none" -R "$2"
	usage_case "$1" "no $tmp/none/fuzz/agewalk_fuzz_lockstep" -B "$2" -R "$tmp/none"
}
