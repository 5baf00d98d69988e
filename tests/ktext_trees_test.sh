#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ktext.trees_option: -DAGEWALK_KERNEL_TREES=NAME=PATH+SERIES takes SERIES
# as a folder of src/ktext/series/ by name (pud-v3, khugepaged-v7) or as a
# path to the user's own series (docs/ktext.md's example): each configures,
# naming the series' folder to tools/ktext-extract (khugepaged-v7 as a
# khugepaged-only tree: --kh-only, its khugepaged text registered and no
# MGLRU variant); a path without a quilt `series` file stops
# the configure with an error naming it (CMake wraps the message's lines).  Configure only: the extraction
# itself is covered by the builds with kernel trees.  Exit 77 (skipped)
# without a linux-source-6.12 tarball.
# usage: ktext_trees_test.sh SRCDIR TARBALL WORKDIR
set -u
src=$(cd "$1" && pwd) tarball=$2 work=$(realpath -m "$3")
[ -f "$tarball" ] || { echo "no $tarball: skipped"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work/own" || fail "cannot create $work"
# the user's own series: a copy of the port, somewhere outside the tree
cp "$src"/src/ktext/series/pud-v3/* "$work/own/"

configure() {	# NAME ENTRY: configure a fresh build directory, its output in NAME.log
	cmake -S "$src" -B "$work/$1" -DAGEWALK_KERNEL_TREES="$2" >"$work/$1.log" 2>&1
}
# each series of src/ktext/series/ by name (the PUD filter, the khugepaged
# scan series), and the user's copy by path
for form in "byname=$tarball+pud-v3" "bynamekh=$tarball+khugepaged-v7" "bypath=$tarball+$work/own"; do
	name=${form%%=*}
	case $name in
	bypath) dir=$work/own ;;
	*) dir=$src/src/ktext/series/${form##*+} ;;
	esac
	configure "$name" "$form" || { cat "$work/$name.log"; fail "$form: refused"; }
	grep -rqs -- "--series $dir" "$work/$name/CMakeFiles" ||
		fail "$form: the extraction is not given the series' folder"
	# the khugepaged scan series is a khugepaged-only tree (its folder's
	# khugepaged-only file): khugepaged text in aw_kh_variants[], no MGLRU variant
	reg=$work/$name/ktext/ktext_variants.c
	if [ "$name" = bynamekh ]; then
		grep -rqs -- "--kh-only" "$work/$name/CMakeFiles" ||
			fail "$form: the extraction is not told --kh-only"
		grep -q '&aw_bynamekh_kh_ops,' "$reg" && ! grep -q '&aw_bynamekh_ops,' "$reg" ||
			fail "$form: the registry is not khugepaged-only: $(grep bynamekh "$reg")"
	else
		! grep -rqs -- "--kh-only" "$work/$name/CMakeFiles" || fail "$form: told --kh-only"
		grep -q "&aw_${name}_ops," "$reg" && grep -q "&aw_${name}_kh_ops," "$reg" ||
			fail "$form: the registry lacks a variant: $(grep "$name" "$reg")"
	fi
	echo "ok: $form"
done
if configure missing "x=$tarball+$work/none"; then
	fail "a series path with no series file was accepted"
fi
tr -s ' \n' '  ' <"$work/missing.log" | grep -q "AGEWALK_KERNEL_TREES: x: no series '$work/none'" ||
	{ cat "$work/missing.log"; fail "no error naming the missing series"; }
echo "ok: a missing series is refused, by name"
