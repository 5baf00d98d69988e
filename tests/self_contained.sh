#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The tree stands on its own: it cites no document it does not contain and
# names no machine's paths.
#   1. Every NAME.md a file mentions is a file of the tree (docs/, traces/,
#      a series' NOTES.md ...); an upstream project's document is named
#      with the project (AFL++'s custom_mutators.md); fuzz/campaign writes
#      INDEX.md into a campaign's directory.
#   2. No pointer to the folders beside the tree, and no section marks of
#      the outside rules paraphrase ("kernel-model §5", "km§10").
#   3. In code, a section mark (§) names its document on the same line
#      ("docs/kernel-rules.md §3"); in a .md file a bare § is its own section.
#   4. No absolute path under /work, /home, /root or /tmp; a mktemp or
#      mkstemp template (XXXXXX) is fine, that is a scratch file.
# The files are the git tree's (tracked and new, not ignored) or, outside a
# git checkout, every file but build folders.  One line per problem.
# Usage: self_contained.sh SOURCE_DIR
#        self_contained.sh --selftest   (plants one problem of each kind in
#                                        a scratch tree: each must be found)
set -uo pipefail
src=$1
if [ "$src" = --selftest ]; then
	t=$(mktemp -d)
	trap 'rm -rf "$t"' EXIT
	mkdir -p "$t/tests" "$t/docs"
	cp "$0" "$t/tests/self_contained.sh"
	printf 'x\n' >"$t/README.md"
	printf '# k\n[up](../README.md), docs/k.md, AFL++ docs/custom_mutators.md, §2\n' >"$t/docs/k.md"
	printf '%s\n' '/* DESIGN.md */' '/* (§3.4) */' '/* docs/k.md §2 */' '"/home/me/x"' \
		'"/tmp/t_XXXXXX"' '/* ../shared/traces */' '/* bench/README.md */' >"$t/a.c"
	out=$("$t/tests/self_contained.sh" "$t")
	want="cites DESIGN.md, not in the tree: a.c:1:
section mark without its document: a.c:2:
absolute path: a.c:4:
points outside the tree: a.c:6:
cites bench/README.md, not in the tree: a.c:7:
self-contained: 3 files, 5 problems"
	got=$(printf '%s\n' "$out" | sed 's/\(:[0-9]*:\).*/\1/' | sort)
	[ "$got" = "$(sort <<<"$want")" ] && { echo "selftest: every planted problem found"; exit 0; }
	printf 'selftest: wanted\n%s\ngot\n%s\n' "$want" "$out"
	exit 1
fi
self=tests/self_contained.sh	# names every pattern it looks for
cd "$src" || exit 2

# Lines allowed to cite outside documents while a rewrite is pending; a
# line here that no longer matches fails too, so the list only shrinks.
pending=()
# upstream documents named with their project, and the one the tools
# write (fuzz/campaign's findings index, in a campaign's directory)
upstream='custom_mutators\.md|INDEX\.md'

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	mapfile -t files < <(git ls-files -co --exclude-standard | grep -vxF "$self")
else
	mapfile -t files < <(find . \( -name .git -o -name 'build*' \) -prune -o -type f -print |
			     sed 's|^\./||' | grep -vxF "$self")
fi
# the tree's files by path, and its .md files by name
declare -A path name
for f in "${files[@]}"; do
	path[$f]=1
	[[ $f == *.md ]] && name[${f##*/}]=1
done

# norm PATH: PATH without "." and "dir/.." steps
norm() {
	local out=() part
	local IFS=/
	for part in $1; do
		case $part in
		''|.) ;;
		..) [ ${#out[@]} -gt 0 ] && unset 'out[${#out[@]}-1]' ;;
		*) out+=("$part") ;;
		esac
	done
	echo "${out[*]}"
}

# is_doc FILE MENTION: a bare name is any .md of the tree; a path is one
# from the top of the tree or from FILE's folder (a Markdown link)
is_doc() {
	local file=$1 m=$2 dir
	[[ ${m##*/} =~ ^($upstream)$ ]] && return 0
	[[ $m == */* ]] || { [ -n "${name[$m]:-}" ]; return; }
	dir=$(dirname "$file")
	[ -n "${path[$(norm "$m")]:-}" ] || [ -n "${path[$(norm "$dir/$m")]:-}" ]
}

problems=0
used=()
report() {	# report FILE:LINE:TEXT WHAT
	local hit=$1 what=$2 p
	for p in "${!pending[@]}"; do
		if [ "${hit%%:*}" = "${pending[$p]%%:*}" ] && [[ ${hit#*:*:} == *"${pending[$p]#*:}"* ]]; then
			used[$p]=1
			return
		fi
	done
	echo "$what: $hit"
	problems=$((problems + 1))
}

# grep -I skips binary files (trace.dat recordings); -H names the file even
# when the list has one
scan() {	# scan ERE: file:line:text of every match
	printf '%s\0' "${files[@]}" | xargs -0 grep -HnIE -- "$1" 2>/dev/null
}

# 1. documents that are not in the tree
while IFS= read -r hit; do
	file=${hit%%:*} text=${hit#*:*:}
	while [[ $text =~ ([A-Za-z0-9_./-]*[A-Za-z0-9_-]+\.md)(.*) ]]; do
		m=${BASH_REMATCH[1]} text=${BASH_REMATCH[2]}
		is_doc "$file" "$m" || report "$hit" "cites $m, not in the tree"
	done
done < <(scan '[A-Za-z0-9_-]+\.md\b')

# 2. the folders beside the tree, the paraphrase's section marks
while IFS= read -r hit; do
	report "$hit" "points outside the tree"
done < <(scan '\.\./shared|shared/(docs|seeds|traces|hooks)|kernel-model §|km§')

# 3. a section mark in code names its document
while IFS= read -r hit; do
	file=${hit%%:*} text=${hit#*:*:}
	[[ $file == *.md ]] && continue
	grep -qE '[A-Za-z0-9_-]+\.md' <<<"$text" || report "$hit" "section mark without its document"
done < <(scan '§')

# 4. a machine's absolute paths
while IFS= read -r hit; do
	[[ $hit == *XXXXXX* ]] && continue
	report "$hit" "absolute path"
done < <(scan '(^|[^A-Za-z0-9_.~$}-])/(work|home|root|tmp)(/|\b)')

for p in "${!pending[@]}"; do
	[ -n "${used[$p]:-}" ] || { echo "no longer needed, remove from pending: ${pending[$p]}"; problems=$((problems + 1)); }
done
echo "self-contained: ${#files[@]} files, $problems problems"
[ "$problems" = 0 ]
