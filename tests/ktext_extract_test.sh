#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/ktext-extract on bad input: each case gets one line naming the tree
# and what is wrong, exit status 2, and no output file (a half-built variant
# never joins a build).  The cases that need real kernel text start from
# Debian's linux-source-6.12 tarball and skip (77) without it.
#   ktext_extract_test.sh SRCDIR WORKDIR CC [TARBALL]
set -u
src=$1 work=$2 cc=$3 tarball=${4:-/usr/src/linux-source-6.12.tar.xz}
x="$src/tools/ktext-extract"
fail=0
rm -rf "$work" && mkdir -p "$work"

# expect NAME PATTERN ARGS...: exit 2, one stderr line matching PATTERN, no output
expect() {
	local name=$1 pat=$2
	shift 2
	rm -f "$work/out.c"
	"$x" --name k-test --shim "$src/src/ktext" --kapi "$src/src/kapi" --out "$work/out.c" --cache "$work/cache" "$@" \
		>"$work/stdout" 2>"$work/stderr"
	local rc=$? lines
	lines=$(wc -l <"$work/stderr")
	if [ $rc -ne 2 ] || [ "$lines" -ne 1 ] || ! grep -q -- "$pat" "$work/stderr" || [ -e "$work/out.c" ]; then
		echo "FAIL $name: rc=$rc lines=$lines: $(head -c 300 "$work/stderr")"
		fail=1
	else
		echo "ok   $name: $(cat "$work/stderr")"
	fi
}

roots="$src/src/ktext/roots.txt"
mkdir -p "$work/empty"
expect not-a-tree "not a kernel tree" --tree "$work/empty" --roots "$roots"
echo garbage >"$work/garbage.tar.xz"
expect not-a-tarball "neither a kernel tree nor a tarball" --tree "$work/garbage.tar.xz" --roots "$roots"
expect no-such-path "no such directory or tarball" --tree "$work/nope" --roots "$roots"

if [ ! -f "$tarball" ]; then
	echo "skip: $tarball absent (apt-get install linux-source-6.12)"
	[ $fail -eq 0 ] && exit 77
	exit 1
fi
tree="$work/tree"
khroots="$src/src/ktext/roots-khugepaged.txt"
"$x" --tree "$tarball" --name k-test --shim "$src/src/ktext" --kapi "$src/src/kapi" --roots "$roots" --out "$work/x.c" \
	--kh-roots "$khroots" --kh-out "$work/x_kh.c" \
	--cache "${AGEWALK_KTEXT_CACHE:-$HOME/.cache/agewalk-ktext}" --stage "$tree" || exit 1

# the pristine tree extracts and compiles
if "$x" --tree "$tree" --name k-test --shim "$src/src/ktext" --kapi "$src/src/kapi" --roots "$roots" --out "$work/ok.c" \
	--cc "$cc" >/dev/null 2>"$work/stderr" && [ -s "$work/ok.c" ]; then
	echo "ok   pristine tree"
else
	echo "FAIL pristine tree: $(cat "$work/stderr")"
	fail=1
fi

# khugepaged's text (--kh-roots): both files compile, each root of
# mm/khugepaged.c is there after its #line, and the MGLRU file is the same
# as without it (the khugepaged shim's names are not the MGLRU shim's)
if "$x" --tree "$tree" --name k-test --shim "$src/src/ktext" --kapi "$src/src/kapi" --roots "$roots" --out "$work/ok2.c" \
	--kh-roots "$khroots" --kh-out "$work/ok2_kh.c" --cc "$cc" >"$work/stdout" 2>"$work/stderr" &&
	cmp -s "$work/ok.c" "$work/ok2.c" && grep -q "khugepaged: [0-9]* functions" "$work/stdout"; then
	missing=
	for f in khugepaged_do_scan khugepaged_scan_mm_slot hpage_collapse_scan_pmd collapse_huge_page \
		__collapse_huge_page_isolate __collapse_huge_page_copy madvise_collapse __khugepaged_enter \
		__khugepaged_exit collect_mm_slot; do
		grep -A2 '^#line [0-9]* ".*/mm/khugepaged.c"' "$work/ok2_kh.c" | grep -q "[ *]$f(" || missing="$missing $f"
	done
	if [ -z "$missing" ]; then
		echo "ok   khugepaged text: $(grep khugepaged: "$work/stdout")"
	else
		echo "FAIL khugepaged text lacks:$missing"
		fail=1
	fi
else
	echo "FAIL khugepaged text: $(cat "$work/stderr") (MGLRU file unchanged: $(cmp -s "$work/ok.c" "$work/ok2.c" && echo yes || echo no))"
	fail=1
fi
# the pristine tree is not patched (struct aw_kh_ops' patched, read off the text)
if grep -qx '#define AW_KTEXT_KH_SERIES 0' "$work/ok2_kh.c"; then
	echo "ok   pristine khugepaged text: not patched"
else
	echo "FAIL pristine khugepaged text: no AW_KTEXT_KH_SERIES 0"
	fail=1
fi
# a khugepaged-only tree (--kh-only): the khugepaged scan series leaves the
# MGLRU text as the tree's own, so only the khugepaged file is written, and
# its text is patched
khs="$src/src/ktext/series/khugepaged-v7"
rm -f "$work/khonly.c" "$work/khonly_kh.c"
if "$x" --tree "$tarball" --name k-test --shim "$src/src/ktext" --kapi "$src/src/kapi" --roots "$roots" \
	--out "$work/khonly.c" --kh-roots "$khroots" --kh-out "$work/khonly_kh.c" --kh-only --series "$khs" \
	--cache "${AGEWALK_KTEXT_CACHE:-$HOME/.cache/agewalk-ktext}" --cc "$cc" >"$work/stdout" 2>"$work/stderr" &&
	[ ! -e "$work/khonly.c" ] && grep -qx '#define AW_KTEXT_KH_SERIES 1' "$work/khonly_kh.c" &&
	grep -q "no MGLRU variant (khugepaged only)" "$work/stdout" &&
	grep -q "the khugepaged scan series (trace, progress, lazyfree, exit_or_disable)" "$work/stdout"; then
	echo "ok   khugepaged-only tree: $(tr '\n' ' ' <"$work/stdout")"
else
	echo "FAIL khugepaged-only tree: $(cat "$work/stderr") $(cat "$work/stdout")"
	fail=1
fi
# a series that changes the MGLRU text is no khugepaged-only tree: neither file
expect kh-only-mglru "--kh-only: the series changes the MGLRU text" --tree "$tarball" --roots "$roots" \
	--kh-roots "$khroots" --kh-out "$work/out_kh.c" --kh-only --series "$src/src/ktext/series/pud-v3"
[ -e "$work/out_kh.c" ] && { echo "FAIL kh-only-mglru left $work/out_kh.c"; fail=1; }
echo "no_such_root" >"$work/khroots"
expect kh-unknown-root "has no no_such_root in mm/mm_slot.h" --tree "$tree" --roots "$roots" \
	--kh-roots "$work/khroots" --kh-out "$work/out_kh.c"
[ -e "$work/out_kh.c" ] && { echo "FAIL kh-unknown-root left $work/out_kh.c"; fail=1; }
expect kh-no-out "--kh-roots needs --kh-out" --tree "$tree" --roots "$roots" --kh-roots "$khroots"
# khugepaged's text calling a kernel function the shim lacks: neither file is written
cp -r "$tree" "$work/khstub"
ln=$(grep -n '^static int hpage_collapse_scan_pmd(struct mm_struct \*mm,$' "$work/khstub/mm/khugepaged.c" | cut -d: -f1)
body=$(awk -v l="$ln" 'NR > l && /^{$/ { print NR; exit }' "$work/khstub/mm/khugepaged.c")
sed -i "${body}s/^{\$/{ mm_future_helper(mm);/" "$work/khstub/mm/khugepaged.c"
expect kh-missing-stub "shim lacks function mm_future_helper, used by hpage_collapse_scan_pmd() at mm/khugepaged.c:" \
	--tree "$work/khstub" --roots "$roots" --kh-roots "$khroots" --kh-out "$work/out_kh.c" --cc "$cc"
[ -e "$work/out_kh.c" ] && { echo "FAIL kh-missing-stub left $work/out_kh.c"; fail=1; }

echo "no_such_function" >"$work/roots"
expect unknown-root "has no no_such_function()" --tree "$tree" --roots "$work/roots"

# a release whose entry point has a signature the glue does not know
cp -r "$tree" "$work/newsig"
sed -i 's/^static bool try_to_inc_max_seq(struct lruvec \*lruvec, unsigned long seq,/static bool try_to_inc_max_seq(struct lruvec *lruvec, unsigned long seq, int flags,/' \
	"$work/newsig/mm/vmscan.c"
expect unknown-signature "try_to_inc_max_seq(.*int flags.*signature the glue does not know" \
	--tree "$work/newsig" --roots "$roots" --cc "$cc"

# a release that calls a kernel function the shim lacks
cp -r "$tree" "$work/newstub"
ln=$(grep -n '^static void walk_mm(struct mm_struct \*mm, struct lru_gen_mm_walk \*walk)$' \
	"$work/newstub/mm/vmscan.c" | cut -d: -f1)
sed -i "$((ln + 1))s/^{\$/{ mm_future_helper(mm);/" "$work/newstub/mm/vmscan.c"
expect missing-stub "shim lacks function mm_future_helper, used by walk_mm() at mm/vmscan.c:" \
	--tree "$work/newstub" --roots "$roots" --cc "$cc"

# a series that does not apply
mkdir -p "$work/series"
cat >"$work/series/0001-bad.patch" <<'PATCH'
--- a/mm/vmscan.c
+++ b/mm/vmscan.c
@@ -10,3 +10,3 @@
 this context
-is not in
+any kernel
 tree at all
PATCH
echo 0001-bad.patch >"$work/series/series"
expect series-rejected "series patch 0001-bad.patch does not apply: .*FAILED" \
	--tree "$tree" --roots "$roots" --series "$work/series"
echo 0002-missing.patch >"$work/series/series"
expect series-missing-patch "0002-missing.patch" --tree "$tree" --roots "$roots" --series "$work/series"

exit $fail
