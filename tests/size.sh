#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# size.sh ROOT: no C file of ours is over 1,000 lines and no function over
# 120 (issue 29's house rules: a reviewer sees a function whole and finds a
# concept by its file).  A function runs from the line at column 0 that
# names it ("static int\nfoo(...)" counts from "foo(") to the "}" at column
# 0 that closes it, which is how the kernel's style lays functions out and
# how checkpatch-era tools find them.  Generated and extracted code lives
# in the build directory and is not scanned.
set -u
root=$1
fail=0
files=$(cd "$root" && find src replay fuzz tests bench tools -name '*.[ch]' \
	-o -name '*.inc.c' 2>/dev/null | sort -u)
for f in $files; do
	n=$(wc -l <"$root/$f")
	if [ "$n" -gt 1000 ]; then
		echo "size: $f: $n lines (at most 1,000)"
		fail=1
	fi
done
long=$(cd "$root" && awk '
	FNR == 1 { start = 0 }
	/^[A-Za-z_][A-Za-z0-9_ \t\*]*\(/ && !/;[ \t]*$/ { start = FNR; name = $0 }
	/^\}/ && start {
		n = FNR - start + 1
		if (n > 120) printf "size: %s:%d: a function of %d lines (at most 120): %s\n", FILENAME, start, n, name
		start = 0
	}' $files)
if [ -n "$long" ]; then
	echo "$long"
	fail=1
fi
[ $fail = 0 ] && echo "size: $(echo "$files" | wc -w) C files, none over 1,000 lines, no function over 120"
exit $fail
