# SPDX-License-Identifier: GPL-2.0-only
# Sourced by fuzz/run-afl and bench/time-to-bug (fuzz/campaign reads the
# same file in Python): aw_afl_settings puts fuzz/afl-settings into the
# environment.  NAME=VALUE lines, "mutator:" ones only with the
# structure-aware mutator (aw_afl_settings 1).  A variable the caller's
# environment sets wins; set empty, it is unset (AFL++ reads any set
# variable as on).  Run from the source tree's top.
aw_afl_settings() {
	local l n
	while read -r l; do
		l=${l%%#*}
		case $l in
		mutator:*) [ "$1" = 1 ] || continue; l=${l#mutator:}; l=${l#"${l%%[![:space:]]*}"} ;;
		*=*) ;;
		*) continue ;;
		esac
		n=${l%%=*}
		if [ -n "${!n+x}" ]; then
			[ -n "${!n}" ] || unset "$n"
			continue
		fi
		export "${l%"${l##*[![:space:]]}"}"
	done <fuzz/afl-settings
}
