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
END { if (n > 1) print last ": " files }' > "${TMPDIR:-/tmp}/kapi_names.$$"
dups=$(wc -l < "${TMPDIR:-/tmp}/kapi_names.$$")
if [ "$dups" -gt 0 ]; then
	sed 's/^/kapi_names: defined twice: /' "${TMPDIR:-/tmp}/kapi_names.$$"
	echo "kapi_names: $dups kernel names defined in more than one header; define each once (src/kapi for the shared vocabulary)"
	rm -f "${TMPDIR:-/tmp}/kapi_names.$$"
	exit 1
fi
rm -f "${TMPDIR:-/tmp}/kapi_names.$$"
echo "kapi_names: every kernel name in src/**/*.h is defined in one header"
