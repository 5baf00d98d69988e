#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# layering.sh SRCDIR: every quoted #include of a layer resolves inside the
# layers below it (docs/architecture.md).  The libraries' include
# directories already refuse a header of a layer above; this also catches
# relative paths ("../check/oracle.h") that an include directory cannot.
#   src/event  -> src/event (and the generated agewalk.pb-c.h)
#   src/sim    -> src/sim, src/event
#   src/check  -> src/check, src/sim, src/event
#   src/trace  -> src/trace, src/event
#   src/ktext  -> src/ktext (kernel text's shim stands alone), and
#                 src/sim/folio_layout.h: the struct folio both share
#   src/kdiff  -> src/kdiff, src/ktext, src/sim, src/event
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
	event) echo "event" ;;
	sim) echo "sim event" ;;
	check) echo "check sim event" ;;
	trace) echo "trace event" ;;
	ktext) echo "ktext" ;;
	kdiff) echo "kdiff ktext sim event" ;;
	kbind) echo "kbind check ktext sim event" ;;
	lab) echo "lab event" ;;
	../replay) echo "../replay trace check sim event" ;;
	cli) echo "cli ../replay kdiff kbind check trace ktext sim event" ;;
	esac
}
for layer in event sim check trace ktext kdiff kbind lab ../replay cli; do
	while IFS=: read -r f hdr; do
		[ "$hdr" = agewalk.pb-c.h ] && continue
		[ "$layer:$hdr" = cli:version.h ] && continue
		case $f:$hdr in
		$src/ktext/*:../sim/folio_layout.h) continue ;;
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
	done < <(grep -H '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$src/$layer"/*.[ch] |
		 sed 's/^\([^:]*\):[^"]*"\([^"]*\)".*/\1:\2/')
done
[ $fail = 0 ] && echo "layering: src/event, src/sim, src/check, src/trace, src/ktext, src/kdiff, src/kbind, src/lab, replay and src/cli include only their own and lower layers"
exit $fail
