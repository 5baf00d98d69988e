#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# src/kapi's compile-time refusals (linux/minmax.h, array_size.h, build_bug.h): each snippet must fail to compile
# with its own diagnostic, and the same snippet made right must compile
# (so a failure is the check, not a broken include path).
# usage: shim_compile_test.sh CC SRCDIR WORKDIR
set -u
cc=$1 src=$2 work=$3
fail=0
mkdir -p "$work"
compile() {	# body -> compiler output in $work/log, status
	printf '#include "linux/array_size.h"\n#include "linux/minmax.h"\nint f(void);\nint f(void)\n{\n%s\n}\n' "$1" >"$work/t.c"
	"$cc" -std=c11 -Wall -Wextra -Werror -fsyntax-only -I"$src/src/kapi" "$work/t.c" >"$work/log" 2>&1
}
refused() {	# what, bad body, diagnostic regex, good body
	if compile "$2"; then
		echo "FAIL: $1 compiled"; fail=1
	elif ! grep -qE "$3" "$work/log"; then
		echo "FAIL: $1: no '$3' in:"; cat "$work/log"; fail=1
	fi
	compile "$4" || { echo "FAIL: $1: the corrected form did not compile:"; cat "$work/log"; fail=1; }
}
refused "min(int, unsigned)" "int a = -1; unsigned int b = 2; return (int)min(a, b);" \
	"mixed signedness" "int a = -1; unsigned int b = 2; return min_t(int, a, b);"
refused "max(unsigned long, int)" "unsigned long a = 1; int b = 2; return (int)max(a, b);" \
	"mixed signedness" "unsigned long a = 1; long b = 2; return (int)max((long)a, b);"
refused "ARRAY_SIZE(pointer)" "int v[3], *p = v; return (int)ARRAY_SIZE(p);" \
	"bit-field|bitfield|width" "int v[3]; return (int)ARRAY_SIZE(v);"
refused "BUILD_BUG_ON(true)" "BUILD_BUG_ON(sizeof(long) != 4); return 0;" \
	"BUILD_BUG_ON\(sizeof\(long\) != 4\)" "BUILD_BUG_ON(sizeof(long) != 8); return 0;"
[ $fail = 0 ] && echo "shim compile checks: all passed"
exit $fail
