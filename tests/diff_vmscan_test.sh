#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/diff-vmscan against the toy kernel tree and toy model under
# tests/diff_vmscan (written for this test, no kernel text), as a tree and
# as a tarball, plus its errors.  Expected figures by hand:
#   count_widgets: 7 kernel lines; the model keeps "{", "sum += w[i];"
#     (its extra blanks normalized away), "return sum;" and "}": 4, 57.1%
#   pick_box: the longer of the two #ifdef definitions, 10 lines; the
#     model's 6 lines all match one kernel line each; the kernel's second
#     "return true;" and second "return false;" have no partner left
#     (multiset): 6, 60.0%
#   total 10 / 17 = 58.8%
# usage: diff_vmscan_test.sh SRCDIR WORKDIR
set -u
src=$1 work=$2
tool=$src/tools/diff-vmscan fix=$src/tests/diff_vmscan
fail=0
rm -rf "$work" && mkdir -p "$work"

bad() { echo "FAIL: $*"; fail=1; }
squeeze() { tr -s ' '; }

expect_summary="function model file kernel verbatim share
count_widgets src/sim/walk.c 7 4 57.1%
pick_box src/sim/walk.c 10 6 60.0%
total 17 10 58.8%

model functions mm/vmscan.c lacks (1):
 model_only_helper

MGLRU functions of mm/vmscan.c the model lacks (1):
 kernel_only_thing"

out=$("$tool" --summary --model "$fix/model" "$fix/kernel") || bad "tree: exit $?"
[ "$(squeeze <<<"$out")" = "$expect_summary" ] || bad "tree summary:"$'\n'"$out"

# the full output: each diff, then the same table
"$tool" --model "$fix/model" "$fix/kernel" >"$work/full.txt" || bad "full: exit $?"
[ "$(grep -c '^--- mm/vmscan.c:' "$work/full.txt")" = 2 ] || bad "full: not two diffs"
[ "$(sed -n '/^function /,$p' "$work/full.txt" | squeeze)" = "$expect_summary" ] ||
	bad "full: table differs"
# kernel first, model second; "sum += w[i];" differs in blanks only: context
grep -qx -- '-static int count_widgets(int \*w, int n)' "$work/full.txt" || bad "kernel line not '-'"
grep -qx -- '+static int count_widgets(const int \*w, int n)' "$work/full.txt" || bad "model line not '+'"
grep -qxF -- "$(printf ' \t\tsum   +=   w[i];')" "$work/full.txt" || bad "blank-only change not context"

# one function: its diff (hunk numbers: the toy files' own lines) and its row
cat >"$work/pick_box.expect" <<'X'
--- mm/vmscan.c:pick_box()
+++ src/sim/walk.c:pick_box()
@@ -27,9 +14,5 @@
 {
 	if (a > b)
 		return true;
-	if (a == b)
 	return false;
-	if (b - a < 2)
-		return false;
-	return true;
 }

function  model file         kernel verbatim  share
pick_box  src/sim/walk.c         10        6  60.0%
total                            10        6  60.0%
X
"$tool" --function pick_box --model "$fix/model" "$fix/kernel" >"$work/pick_box.out" ||
	bad "--function: exit $?"
diff -u "$work/pick_box.expect" "$work/pick_box.out" || bad "--function pick_box output"

# a tarball with a top directory gives the same figures
mkdir -p "$work/t/toy-1.0" && cp -r "$fix/kernel/mm" "$work/t/toy-1.0/"
tar -C "$work/t" -cJf "$work/toy.tar.xz" toy-1.0
out=$("$tool" --summary --model "$fix/model" "$work/toy.tar.xz") || bad "tarball: exit $?"
[ "$(squeeze <<<"$out")" = "$expect_summary" ] || bad "tarball summary:"$'\n'"$out"

# errors: one line on stderr, exit 2 without mm/vmscan.c, 1 for usage
check_err() {	# want-rc args...
	local want=$1 rc
	shift
	"$tool" "$@" >"$work/out" 2>"$work/err"
	rc=$?
	[ "$rc" = "$want" ] || bad "$*: exit $rc, want $want"
	[ "$(wc -l <"$work/err")" = 1 ] && grep -q '^diff-vmscan: ' "$work/err" ||
		bad "$*: not one 'diff-vmscan:' line: $(cat "$work/err")"
	[ -s "$work/out" ] && bad "$*: wrote to stdout"
}
head -c 200 "$work/toy.tar.xz" >"$work/truncated.tar.xz"
echo "not a tarball" >"$work/junk"
tar -C "$fix/model" -cJf "$work/nomm.tar.xz" walk.c
check_err 2 "$fix/model"
check_err 2 "$work/does-not-exist"
check_err 2 "$work/junk"
check_err 2 "$work/truncated.tar.xz"
check_err 2 "$work/nomm.tar.xz"
check_err 1 --function kernel_only_thing --model "$fix/model" "$fix/kernel"
check_err 1 --function no_such_function --model "$fix/model" "$fix/kernel"
check_err 1 --frobnicate "$fix/kernel"
check_err 1
[ $fail = 0 ] && echo "diff-vmscan: all checks passed"
exit $fail
