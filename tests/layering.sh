#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# layering.sh SRCDIR: every quoted #include of a layer resolves inside the
# layers below it (docs/architecture.md).  The libraries' include
# directories already refuse a header of a layer above; this also catches
# relative paths ("../check/oracle.h") that an include directory cannot.
# Every layer may include src/kapi; only src/kapi's headers are named with
# their folder, as the kernel's are ("linux/list.h").
#   src/kapi   -> src/kapi: the kernel vocabulary (linux/list.h,
#                 asm/pgtable_types.h ...) every layer below may include
#   src/event  -> src/event (and the generated agewalk.pb-c.h)
#   src/sim    -> src/sim, src/event
#   src/check  -> src/check, src/sim, src/event
#   src/trace  -> src/trace, src/event
#   src/ktext  -> src/ktext (kernel text's shim stands alone)
#   src/kdiff  -> src/kdiff, src/ktext, src/sim, src/event
#   src/kbind  -> src/kbind, src/check, src/ktext, src/sim, src/event
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
	kdiff) echo "kdiff ktext sim event" ;;
	kbind) echo "kbind check ktext sim event" ;;
	lab) echo "lab event" ;;
	esac
}
kapi_files() { find "$src/kapi" -name '*.[ch]'; }
layer_files() {
	if [ "$1" = kapi ]; then kapi_files; else ls "$src/$1"/*.[ch]; fi
}
for layer in kapi event sim check trace ktext kdiff kbind lab; do
	while IFS=: read -r f hdr; do
		[ "$hdr" = agewalk.pb-c.h ] && continue
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
[ $fail = 0 ] && echo "layering: src/kapi, src/event, src/sim, src/check, src/trace, src/ktext, src/kdiff, src/kbind and src/lab include only their own and lower layers"
exit $fail
