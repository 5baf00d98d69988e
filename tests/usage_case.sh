# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the bench scripts' tests: usage_case CMD WANT ARGS... runs
# CMD ARGS... and fails (the caller's fail()) unless it exits 2 with
# nothing on stdout and one line on stderr that says WANT.  Uses the
# caller's $tmp.
usage_case() {
	local cmd=$1 want=$2 rc=0
	shift 2
	"$cmd" "$@" > "$tmp/out" 2> "$tmp/err" || rc=$?
	[ "$rc" = 2 ] || fail "$* exited $rc, not 2"
	[ ! -s "$tmp/out" ] || fail "$* wrote to stdout: $(cat "$tmp/out")"
	[ "$(wc -l < "$tmp/err")" = 1 ] || fail "$*: not one line: $(cat "$tmp/err")"
	grep -q -- "$want" "$tmp/err" || fail "$*: '$(cat "$tmp/err")' does not say '$want'"
}
