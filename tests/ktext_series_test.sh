#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ktext.series_apply: the ported series under src/ktext/series/ applies to
# a pristine linux-source-6.12 tarball (exit 77, CTest's skip, when the
# machine has none) and adds what it says it adds.
#
# Only the files the patches touch are taken out of the tarball
# (tools/ktext_tarball.py: a few seconds, where tar -xJ takes 15-35), then
# every patch, in the order of the series file, is
#   1. dry-run with patch -p1 --fuzz=0, then applied for real;
#   2. checked and applied with git apply (when git is there), on a
#      second copy: git apply is the stricter parser of the two;
# and the patched text must have the series' new identifiers, which the
# pristine text must not.  A hunk applying at an offset is a failure on
# the SUBLEVEL the port was made for (the patches are exact there) and a
# note on any other.  The compile check of the patched objects is in each
# series' NOTES.md; it needs a configured kernel tree, too slow for here.
# SERIES is a folder of src/ktext/series/ (default pud-v3); each known one
# has its list of what it adds below.
# usage: ktext_series_test.sh SRCDIR TARBALL WORKDIR [SERIES]
set -u
src=$(cd "$1" && pwd) tarball=$2 work=$(realpath -m "$3") name=${4:-pud-v3}
series=$src/src/ktext/series/$name
target_sublevel=118

fail() { echo "FAIL: $*"; exit 1; }
[ -f "$tarball" ] || { echo "no $tarball: skipped"; exit 77; }
for tool in patch python3 xz; do
	command -v $tool >/dev/null || { echo "no $tool: skipped"; exit 77; }
done
[ -f "$series/series" ] || fail "$series/series: missing"

# the series file: every NNNN-*.patch of the directory exactly once, in order
mapfile -t patches < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$series/series" | grep .)
listed=$(printf '%s\n' "${patches[@]}")
present=$(cd "$series" && ls [0-9][0-9][0-9][0-9]-*.patch)
[ "$listed" = "$present" ] || fail "series file lists '$(echo $listed)', the directory has '$(echo $present)'"

files=$(cd "$series" && sed -n 's|^+++ b/||p' "${patches[@]}" | sort -u)
rm -rf "$work" && mkdir -p "$work/tree" || fail "cannot create $work"
# shellcheck disable=SC2086  # $files: one path a word
python3 "$src/tools/ktext_tarball.py" "$tarball" "$work/tree" Makefile $files ||
	fail "cannot extract $(echo $files) from $tarball"
sublevel=$(sed -n 's/^SUBLEVEL = //p' "$work/tree/Makefile")
cp -r "$work/tree" "$work/pristine" && cp -r "$work/tree" "$work/git"

# the first "Hunk #N FAILED/succeeded at ..." line of patch's output, with
# the file it is about: "mm/vmscan.c hunk #3 FAILED at 3664"
first_hunk() {
	awk -v pat="$1" '/^(checking|patching) file /{ f = $3 }
		$0 ~ pat { sub(/^Hunk /, "hunk "); sub(/\.$/, ""); print f " " $0; exit }'
}

for p in "${patches[@]}"; do
	out=$(cd "$work/tree" && patch -p1 --dry-run --fuzz=0 --no-backup-if-mismatch <"$series/$p" 2>&1)
	if [ $? != 0 ]; then
		hunk=$(first_hunk 'FAILED' <<<"$out")
		# no hunk to name: a malformed patch ("patch: **** malformed patch at line N")
		[ -n "$hunk" ] || hunk=$(grep -m1 -v '^\(checking\|patching\) file ' <<<"$out")
		fail "$p: $hunk"
	fi
	off=$(first_hunk 'offset' <<<"$out")
	if [ -n "$off" ]; then
		[ "$sublevel" = "$target_sublevel" ] && fail "$p: $off (6.12.$sublevel is the port's own base)"
		echo "note: $p: $off (6.12.$sublevel, the port is for 6.12.$target_sublevel)"
	fi
	(cd "$work/tree" && patch -p1 -s --fuzz=0 --no-backup-if-mismatch <"$series/$p") ||
		fail "$p: applies in the dry run, not for real"
	if command -v git >/dev/null; then
		# outside any repository, or git apply, run from inside one (a build
		# directory in the source tree), skips the paths outside the directory
		out=$(cd "$work/git" && export GIT_CEILING_DIRECTORIES=$work &&
		      git apply --check "$series/$p" 2>&1 && git apply "$series/$p" 2>&1) ||
			fail "$p: git apply: $(grep -m1 error: <<<"$out")"
	fi
done
if command -v git >/dev/null; then
	diff -r "$work/tree" "$work/git" >/dev/null || fail "patch and git apply give different trees"
fi

# what the series adds, one identifier a line: FILE<TAB>TEXT
adds() {
	case $name in
	pud-v3) cat <<'EOF'
include/linux/mmzone.h	MM_LEAF_ASSOCIATED,
include/linux/mmzone.h	MM_WALK_EMPTY,
include/linux/mmzone.h	MM_PUD_EMPTY_SKIPPED,
include/linux/mmzone.h	enum bloom_filter_level {
include/linux/mmzone.h	BLOOM_FILTER_LEVELS,
include/linux/mmzone.h	unsigned long *filters[BLOOM_FILTER_LEVELS][NR_BLOOM_FILTERS];
include/trace/events/vmscan.h	TRACE_EVENT(mm_vmscan_lru_gen_walk,
include/trace/events/vmscan.h	__field(int, pud_skipped)
mm/vmscan.c	static bool __test_bloom_filter(unsigned long **filters, unsigned long seq, void *item)
mm/vmscan.c	reset_bloom_filter(mm_state, BLOOM_FILTER_PUD, walk->seq + 1);
mm/vmscan.c	static bool walk_pmd_range(pud_t *pud, unsigned long start, unsigned long end,
mm/vmscan.c	!test_bloom_filter(mm_state, BLOOM_FILTER_PUD, walk->seq, pud_key)) {
mm/vmscan.c	walk->mm_stats[MM_PUD_EMPTY_SKIPPED]++;
mm/vmscan.c	update_bloom_filter(mm_state, BLOOM_FILTER_PUD, max_seq, pud_key);
mm/vmscan.c	walk->mm_stats[MM_LEAF_EMPTY_WALKS] +=
mm/vmscan.c	s = "TYFALWEES";
EOF
	;;
	khugepaged-v7) cat <<'EOF'
include/trace/events/huge_memory.h	TRACE_EVENT(mm_khugepaged_scan,
include/trace/events/huge_memory.h	__field(bool, full_scan_finished)
include/trace/events/huge_memory.h	EM( SCAN_PAGE_LAZYFREE,
include/trace/events/huge_memory.h	"page_lazyfree")
mm/khugepaged.c	trace_mm_khugepaged_scan(mm, progress, khugepaged_scan.mm_slot == NULL);
mm/khugepaged.c	unsigned int *cur_progress,
mm/khugepaged.c	*cur_progress += 1;
mm/khugepaged.c	*cur_progress = HPAGE_PMD_NR;
mm/khugepaged.c	progress += cur_progress;
mm/khugepaged.c	&mmap_locked, NULL, cc);
mm/khugepaged.c	SCAN_PAGE_LAZYFREE,
mm/khugepaged.c	if (cc->is_khugepaged && !pte_dirty(pteval) &&
mm/khugepaged.c	if (hpage_collapse_test_exit_or_disable(mm) || !vma) {
include/linux/page-flags.h	static __always_inline bool folio_test_lazyfree(const struct folio *folio)
mm/huge_memory.c	if (folio_test_lazyfree(folio))
mm/vmscan.c	if (!folio_is_file_lru(folio) || folio_test_lazyfree(folio)) {
EOF
	;;
	*) fail "$name: no list of what it adds in $0" ;;
	esac
}
list=$(adds) || { echo "$list"; exit 1; }
while IFS=$'\t' read -r f text; do
	grep -qF -- "$text" "$work/tree/$f" || fail "$f: no '$text' after the series"
	grep -qF -- "$text" "$work/pristine/$f" && fail "$f: '$text' already in the pristine text"
done <<<"$list"

# and the series undone, last patch first, gives the pristine text back
for ((i = ${#patches[@]} - 1; i >= 0; i--)); do
	(cd "$work/tree" && patch -p1 -R -s --fuzz=0 --no-backup-if-mismatch <"$series/${patches[i]}") ||
		fail "${patches[i]}: does not reverse"
done
diff -r "$work/pristine" "$work/tree" >/dev/null || fail "the series reversed is not the pristine text"

echo "${#patches[@]} patches, $(grep -c '^@@ ' "${patches[@]/#/$series/}" | awk -F: '{ n += $2 } END { print n }') hunks: apply to 6.12.$sublevel with no fuzz and no offset, and reverse"
rm -rf "$work"
