#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# kapi_names.sh SRCDIR: no kernel name is defined in two headers of src/.
# The kernel's vocabulary (paging, lists, bitops, VM_* flags, WARN, the
# folio layout) lives once, in src/kapi (the style of the kernel's
# tools/include/linux); the model (src/sim) and the kernel text's shim
# (src/ktext) include it instead of each spelling their own.
#
# A definition is a #define, a struct/union/enum tag with a body, an enum
# constant, a typedef or a static inline function, found in a header after
# its comments are stripped.  Names with the project's prefix (aw_, AW_,
# __aw_, __AW_) are not kernel names and are not checked.
set -u
src=$1/src

# The names each side must define for itself, and why.  They act on a
# machine, not on values: the model's (src/sim: struct aw_kernel, table
# ids, the walk's tracepoints) and kernel text's (src/ktext: host
# pointers, its own objects laid out around each tree's MGLRU types).
# One definition of these is one machine for both, which is issue 29's
# "one way to run kernel text", not a vocabulary.
allowed="
struct lruvec		the model's lruvec vs the shim's, around each tree's lru_gen_folio
struct mm_struct	the model's mm (table ids, VMA array) vs the shim's (host pgd pointer)
struct vm_area_struct	the model's VMA vs the shim's (vm_mm, vm_file)
pfn_folio		the model's takes its struct aw_mem; the shim's reads its machine's
pud_offset		the model's take struct aw_kernel and table ids; the shim's host pointers
pmd_offset		(as pud_offset)
pte_offset_map		(as pud_offset)
ptep_test_and_clear_young	the model's fires its tracepoint; the shim's takes the kernel's vma
pmdp_test_and_clear_young	(as ptep_test_and_clear_young)
is_zero_pfn		the model's zero page is ZERO_PFN; the shim's its machine's zero_pfn
is_huge_zero_pmd	(as is_zero_pfn)
hash_ptr		the model hashes a table's synthetic address (a number), the shim a host pointer it names first
set_pmd_at		the model's writes its tables; the khugepaged shim's asks its host to install the collapse's PMD
"
find "$src" -name '*.h' -print0 | sort -z | xargs -0 awk '
function out(name) {
	bare = name
	sub(/^(struct|union|enum) /, "", bare)
	if (bare ~ /^(aw_|AW_|__aw_|__AW_)/ || bare == "")
		return
	if (seen[name, FILENAME]++)
		return
	print name "\t" FILENAME
}
FNR == 1 { incomment = 0; cont = ""; depth = 0; inenum = 0 }
{
	line = $0
	# comments: /* ... */ (possibly across lines) and //
	s = ""
	while (length(line)) {
		if (incomment) {
			i = index(line, "*/")
			if (!i) { line = ""; break }
			line = substr(line, i + 2); incomment = 0
		} else {
			i = index(line, "/*")
			if (!i) { s = s line; line = ""; break }
			s = s substr(line, 1, i - 1) " "; line = substr(line, i + 2); incomment = 1
		}
	}
	sub(/\/\/.*/, "", s)
	if (s ~ /\\$/) { cont = cont substr(s, 1, length(s) - 1) " "; next }
	s = cont s; cont = ""
	if (s ~ /^[ \t]*#[ \t]*define[ \t]/) {
		n = s; sub(/^[ \t]*#[ \t]*define[ \t]+/, "", n); sub(/[^A-Za-z0-9_].*/, "", n)
		out(n); next
	}
	if (s ~ /^[ \t]*#/)
		next
	if (depth == 0 && match(s, /^[ \t]*(typedef[ \t]+)?(struct|union|enum)[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*\{/)) {
		t = substr(s, RSTART, RLENGTH); sub(/^[ \t]*(typedef[ \t]+)?/, "", t); sub(/[ \t]*\{$/, "", t)
		split(t, w, /[ \t]+/); out(w[1] " " w[2])
	}
	if (depth == 0 && s ~ /^[ \t]*(typedef[ \t]+)?enum[ \t]*([A-Za-z_][A-Za-z0-9_]*)?[ \t]*\{/)
		inenum = 1
	# a static inline function; a prototype (ends in ");") defines nothing
	if (depth == 0 && s ~ /^[ \t]*static[ \t]+(__always_inline|inline)/ && s !~ /\)[ \t]*;[ \t]*$/ &&
	    match(s, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
		n = substr(s, RSTART, RLENGTH); sub(/[ \t]*\($/, "", n); out(n)
	}
	# the enum constants: the leading identifier of each item
	if (inenum) {
		body = s
		if (depth == 0) sub(/^[^{]*\{/, "", body)
		k = split(body, items, ",")
		for (j = 1; j <= k; j++) {
			it = items[j]; sub(/^[ \t]*/, "", it)
			if (match(it, /^[A-Za-z_][A-Za-z0-9_]*/)) out(substr(it, 1, RLENGTH))
		}
	}
	# typedefs ending on this line at file scope: typedef ... NAME; or } NAME;
	tmp = s
	opens = gsub(/\{/, "{", tmp); closes = gsub(/\}/, "}", tmp)
	pdepth = depth
	depth += opens - closes
	if (inenum && depth == 0) inenum = 0
	if (depth == 0 && match(s, /^[ \t]*typedef[^;(]*[ \t*]([A-Za-z_][A-Za-z0-9_]*)[ \t]*;/) && s !~ /\{/) {
		n = s; sub(/[ \t]*;.*/, "", n); sub(/.*[ \t*]/, "", n); out(n)
	}
	if (depth == 0 && pdepth > 0 && match(s, /\}[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*;/)) {
		n = substr(s, RSTART + 1, RLENGTH - 2); gsub(/[ \t]/, "", n); out(n)
	}
	if (depth == 0 && s ~ /^[ \t]*typedef[ \t]+(struct|union)[ \t]*\{.*\}[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*;/) {
		n = s; sub(/[ \t]*;[ \t]*$/, "", n); sub(/.*[ \t}]/, "", n); out(n)
	}
}' | sort | awk -F'\t' -v src="$src/" '
{ f = $2; sub("^" src, "src/", f)
  if ($1 == last) { files = files ", " f; n++ } else { if (n > 1) print last ": " files; last = $1; files = f; n = 1 } }
END { if (n > 1) print last ": " files }' |
while IFS= read -r line; do
	name=${line%%: *}
	if printf '%s\n' "$allowed" | cut -f1 | grep -qxF "$name"; then
		echo "$name" >>"${TMPDIR:-/tmp}/kapi_names.$$.allowed"
	else
		echo "$line"
	fi
done > "${TMPDIR:-/tmp}/kapi_names.$$"
# an allowed name no longer defined twice: say so (the list should shrink)
printf '%s\n' "$allowed" | cut -f1 | grep . | while IFS= read -r name; do
	grep -qxF "$name" "${TMPDIR:-/tmp}/kapi_names.$$.allowed" 2>/dev/null ||
		echo "kapi_names: note: $name is no longer defined twice; drop it from the list in tests/kapi_names.sh"
done
rm -f "${TMPDIR:-/tmp}/kapi_names.$$.allowed"
dups=$(wc -l < "${TMPDIR:-/tmp}/kapi_names.$$")
if [ "$dups" -gt 0 ]; then
	sed 's/^/kapi_names: defined twice: /' "${TMPDIR:-/tmp}/kapi_names.$$"
	echo "kapi_names: $dups kernel names defined in more than one header; define each once (src/kapi for the shared vocabulary)"
	rm -f "${TMPDIR:-/tmp}/kapi_names.$$"
	exit 1
fi
rm -f "${TMPDIR:-/tmp}/kapi_names.$$"
echo "kapi_names: every kernel name in src/**/*.h is defined in one header," \
	"but the $(printf '%s\n' "$allowed" | grep -c .) machine names each side defines for itself"
