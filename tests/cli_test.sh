#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The command line behaves like a tool's: --version names the version CMake
# was given (project VERSION) and the default kernel profile (mainline,
# docs/model-notes.md "Kernel profiles"); every --help prints to stdout and
# exits 0; every option a --help names is one the command takes; an unknown
# option, a missing value or a missing input is exit 2 with one line on
# stderr and nothing on stdout.
# Usage: cli_test.sh AGEWALK VERSION SOURCE_DIR
set -uo pipefail
aw=$1 version=$2 src=$3
scenario=$src/corpus/scenarios/s3-cold-pud.aws
commands="run convert replay minimize kdiff compare report"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

errfile=$(mktemp)
trap 'rm -f "$errfile"' EXIT

# call ARGS...: sets rc, out (stdout) and err (stderr)
call() {
	out=$("$aw" "$@" 2>"$errfile")
	rc=$?
	err=$(<"$errfile")
}

# help ARGS...: exit 0, text on stdout starting with "usage: agewalk", nothing on stderr
help() {
	call "$@"
	[ "$rc" = 0 ] && [ -z "$err" ] && [[ $out == "usage: agewalk "* ]] && ok ||
		bad "agewalk $*: exit $rc, stdout '${out:0:60}', stderr '$err'"
}

# usage_error WANT ARGS...: exit 2, nothing on stdout, one line on stderr containing WANT
usage_error() {
	local want=$1
	shift
	call "$@"
	[ "$rc" = 2 ] && [ -z "$out" ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] &&
		[[ $err == *"$want"* ]] && ok || bad "agewalk $*: exit $rc, stdout '${out:0:60}', stderr '$err'"
}

# --version
call --version
[ "$rc" = 0 ] && [ -z "$err" ] && ok || bad "--version: exit $rc, stderr '$err'"
[ "$(printf '%s\n' "$out" | sed -n 1p)" = "agewalk $version" ] && ok || bad "--version: '$out'"
[[ "$(printf '%s\n' "$out" | sed -n 2p)" == "kernel profile: mainline (default; --kernel 6.1|6.12|mainline)" ]] &&
	ok || bad "--version profile line: '$out'"

# the program's usage: every way of asking, and exactly these commands
for args in --help -h help "help --help" "help help"; do
	# shellcheck disable=SC2086
	help $args
done
call --help
listed=$(printf '%s\n' "$out" | sed -n 's/^\(usage:\)\{0,1\} *agewalk \([a-z-]*\).*/\2/p' | paste -sd' ')
[ "$listed" = "$commands help --version" ] && ok || bad "agewalk --help lists '$listed'"

for c in $commands; do
	help "$c" --help
	[[ $out == "usage: agewalk $c "* ]] && ok || bad "$c --help starts '${out:0:40}'"
	usage_text=$out
	help help "$c"
	[ "$out" = "$usage_text" ] && ok || bad "agewalk help $c differs from agewalk $c --help"
	# --help wins wherever it stands
	help "$c" "$scenario" --help
	# every option the text names (run's text also lists the other
	# commands: their lines are not run's) is taken: as the last word it
	# is either complete or "needs a value", never "unknown option"
	for opt in $(printf '%s\n' "$usage_text" | sed '/^ *agewalk [a-z]/d' |
		     grep -oE '(^|[[ |])--?[a-z][a-z-]*' | sed 's/^[[ |]//' | sort -u); do
		[ "$opt" = --help ] && continue
		call "$c" "$opt"
		[ "$rc" != 0 ] && [[ $err != *"unknown option"* ]] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] &&
			ok || bad "agewalk $c $opt (named in its --help): exit $rc, '$err'"
	done
	usage_error "unknown option '--no-such-option'; see agewalk $c --help" "$c" "$scenario" --no-such-option
done

# unknown options, values and inputs
usage_error "unknown option '--no-such-option'; see agewalk --help" --no-such-option
usage_error "'no-such-command' is not a command" no-such-command
usage_error "'no-such-command' is not a command" help no-such-command
usage_error "--walk-log needs a value" run "$scenario" --walk-log
usage_error "--window needs a value" replay "$src/traces/memhog.dat" --window
usage_error "-o needs a value" minimize "$scenario" -o
usage_error "--tree needs a value" kdiff "$scenario" --tree
usage_error "--to needs a value" convert "$scenario" out.aws --to
usage_error "--kernel takes 6.1, 6.12 or mainline, not '6.6'" run "$scenario" --kernel 6.6
usage_error "no input file" run
usage_error "no trace file" replay
usage_error "no input" minimize
usage_error "no input file" kdiff
usage_error "needs an input and an output" convert "$scenario"
usage_error "one input file only" run "$scenario" "$scenario"
# no command at all: the usage, on stderr
call
[ "$rc" = 2 ] && [ -z "$out" ] && [[ $err == "usage: agewalk "* ]] && ok || bad "agewalk: exit $rc, '$err'"

echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
