#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# `cmake --install` into a temporary DESTDIR puts the program, agewalk(1)
# and the bash completion where they belong; the installed program runs;
# the page renders without a groff warning and carries every command's
# usage text (it is generated from them); the completion completes.
# Skipped (exit 77) when neither groff nor man is installed: nothing could
# render the page.
# Usage: install_test.sh BUILD_DIR VERSION
set -uo pipefail
build=$1 version=$2
if ! command -v groff >/dev/null && ! command -v man >/dev/null; then
	echo "neither groff nor man installed: cannot render agewalk(1); skipped"
	exit 77
fi
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

DESTDIR=$root cmake --install "$build" --prefix /usr >"$root/install.log" 2>&1 ||
	{ cat "$root/install.log"; echo "cmake --install failed"; exit 1; }
bin=$root/usr/bin/agewalk
page=$root/usr/share/man/man1/agewalk.1.gz
completion=$root/usr/share/bash-completion/completions/agewalk
for f in "$bin" "$page" "$completion"; do
	[ -f "$f" ] && ok || bad "not installed: ${f#"$root"}"
done
[ -x "$bin" ] && [ "$("$bin" --version | head -1)" = "agewalk $version" ] && ok || bad "installed agewalk --version"

# render: groff with every warning on (any warning fails), or man-db
gunzip -c "$page" >"$root/agewalk.1"
if command -v groff >/dev/null; then
	warn=$(groff -man -Tascii -ww -z "$root/agewalk.1" 2>&1)
	[ -z "$warn" ] && ok || bad "groff warnings: $warn"
	text=$(groff -man -Tascii -P-cbou "$root/agewalk.1" 2>/dev/null)
else
	text=$(LC_ALL=C MANWIDTH=200 man -P cat -l "$page" 2>/dev/null | col -b)
fi
[[ $(printf '%s\n' "$text" | sed -n '/^NAME/{n;p}') == *"agewalk  -  model"* ]] && ok ||
	bad "rendered page has no NAME line"
# the page is the usage text: each command's --help, line for line
for c in run convert replay minimize kdiff; do
	while IFS= read -r line; do
		[[ $text == *"${line#"${line%%[! ]*}"}"* ]] || { bad "page lacks '$c --help' line: $line"; break; }
	done < <("$bin" "$c" --help)
	ok
done
[[ $text == *"agewalk $version"* ]] && ok || bad "page has no version"

# the completion: commands, a command's options, an option's values
complete_words() {	# complete_words WORD...: the completions of the last word
	bash -c 'source "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _agewalk; echo "${COMPREPLY[*]}"' \
		"$completion" "$@"
}
bash -n "$completion" && ok || bad "completion: syntax"
[ "$(complete_words agewalk r)" = "run replay report" ] && ok || bad "complete 'agewalk r': $(complete_words agewalk r)"
[ "$(complete_words agewalk run --th)" = "--thp" ] && ok || bad "complete 'run --th': $(complete_words agewalk run --th)"
[ "$(complete_words agewalk run --thp "")" = "always never madvise" ] && ok ||
	bad "complete 'run --thp': $(complete_words agewalk run --thp "")"
[ "$(complete_words agewalk replay --assume-access f)" = "faults-only" ] && ok ||
	bad "complete 'replay --assume-access f': $(complete_words agewalk replay --assume-access f)"
[ "$(complete_words agewalk help mi)" = "minimize" ] && ok || bad "complete 'help mi'"

echo "install: $pass passed, $fail failed"
[ "$fail" = 0 ]
