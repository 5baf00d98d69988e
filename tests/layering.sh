#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# layering.sh SRCDIR: every quoted #include of a layer resolves inside the
# layers below it (docs/architecture.md).  The libraries' include
# directories already refuse a header of a layer above; this also catches
# relative paths ("../check/oracle.h") that an include directory cannot.
# Every layer may include src/kapi; only src/kapi's headers are named with
# their folder, as the kernel's are ("linux/list.h").
#   src/kapi   -> src/kapi: the kernel vocabulary (linux/list.h,
#                 asm/pgtable_types.h ...) every layer may include
#   src/event  -> src/event (and the generated agewalk.pb-c.h)
#   src/sim    -> src/sim, src/event
#   src/check  -> src/check, src/sim, src/event
#   src/trace  -> src/trace, src/event
#   src/ktext  -> src/ktext (kernel text's shim stands alone)
#   src/kbind  -> src/kbind, src/check, src/ktext, src/sim, src/event
#   replay     -> replay, src/trace, src/check, src/sim, src/event (what
#                 runs beneath the command line: never src/cli)
#   src/cli    -> everything: the command line is the top (and the
#                 generated version.h)
set -u
src=$1/src
fail=0
allowed() {
	case $1 in
	kapi) echo "kapi" ;;
	event) echo "event" ;;
	sim) echo "sim event" ;;
	check) echo "check sim event" ;;
	trace) echo "trace event" ;;
	ktext) echo "ktext" ;;
	kbind) echo "kbind check ktext sim event" ;;
	lab) echo "lab event" ;;
	../replay) echo "../replay trace check sim event" ;;
	cli) echo "cli ../replay kbind check trace ktext sim event" ;;
	esac
}
layer_files() {
	if [ "$1" = kapi ]; then find "$src/kapi" -name '*.[ch]'; else ls "$src/$1"/*.[ch]; fi
}
for layer in kapi event sim check trace ktext kbind lab ../replay cli; do
	while IFS=: read -r f hdr; do
		[ "$hdr" = agewalk.pb-c.h ] && continue
		[ "$layer:$hdr" = cli:version.h ] && continue
		case $hdr in
		../*|./*) ;;
		*/*) [ -f "$src/kapi/$hdr" ] && continue ;;
		*) [ $layer != kapi ] && [ -f "$src/kapi/$hdr" ] && continue ;;
		esac
		case $hdr in
		*/*) echo "layering: ${f#$1/}: #include \"$hdr\": a path, not a header of an allowed layer"
		     fail=1; continue ;;
		esac
		found=
		for dir in $(allowed $layer); do
			[ -f "$src/$dir/$hdr" ] && found=$dir
		done
		if [ -z "$found" ]; then
			echo "layering: ${f#$1/}: #include \"$hdr\" is not in $(allowed $layer | sed 's/ /, /g')"
			fail=1
		fi
	done < <(layer_files $layer | xargs grep -H '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' |
		 sed 's/^\([^:]*\):[^"]*"\([^"]*\)".*/\1:\2/')
done

# No folder includes from a folder that includes it back: every folder of C
# (src/*, replay, fuzz, tests/*, bench, tools) and the folders its quoted
# #include lines resolve to form a graph that tsort(1) must order.  An
# include resolves beside its file first; a path ("linux/list.h") then in
# src/kapi; a bare name in the one folder holding a header of that name
# (bare names are unique in the tree outside src/kapi, which is always
# named with its folder).
edges=$(cd "$1" && {
	files=$(find src replay fuzz tests bench tools -name '*.[ch]' 2>/dev/null)
	{ for f in $files; do
		echo "F $f"
		case $f in src/kapi/*) ;; *.h) echo "H ${f##*/} ${f%/*}" ;; esac
	  done
	  grep -H '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' $files |
	  sed 's/^\([^:]*\)\/[^/:]*:[^"]*"\([^"]*\)".*/I \1 \2/'; } |
	awk 'function norm(path,   p, q, n, m, i, e) {
		n = split(path, p, "/"); m = 0
		for (i = 1; i <= n; i++) if (p[i] == "..") m--; else if (p[i] != ".") q[++m] = p[i]
		e = q[1]; for (i = 2; i <= m; i++) e = e "/" q[i]
		return e
	     }
	     function folder(path) { sub(/\/[^\/]*$/, "", path); return path }
	     $1 == "F" { file[$2] = 1; next }
	     $1 == "H" { dir[$2] = $3; next }
	     { d = $2; h = $3; e = "" }
	     norm(d "/" h) in file { e = folder(norm(d "/" h)) }
	     !e && h ~ /\// && ("src/kapi/" h) in file { e = folder("src/kapi/" h) }
	     !e && h !~ /\// && (h in dir) { e = dir[h] }
	     e && e != d { print d, e }' | sort -u
})
if ! cycle=$(tsort <<<"$edges" 2>&1 >/dev/null) || [ -n "$cycle" ]; then
	echo "layering: folders include each other:"
	sed "s/^tsort: \(-: \)\?/  /" <<<"$cycle"
	fail=1
fi

[ $fail = 0 ] && echo "layering: every layer of src/ and replay/ includes only its own and lower layers; no folder includes from one that includes it back"
exit $fail
