#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# need.sh REQUIREMENT... -- COMMAND [ARG]...: run COMMAND when every optional
# tool it needs is installed; otherwise print one line naming what is
# missing and the Debian package that has it, and exit 77, the
# SKIP_RETURN_CODE of the tests that use this (tests/CMakeLists.txt).  A
# missing optional tool skips a test; it never fails it.  tests/run-all
# installs them all.
#
# REQUIREMENT is a program (protoc, trace-cmd, python3, or a path such as
# /usr/bin/python3: Debian's interpreter, where python3-protobuf installs),
# or py:MODULE, a module /usr/bin/python3 must import.
set -u
package() {	# the Debian package of a requirement, for the message
	case $1 in
	protoc) echo protobuf-compiler ;;
	py:google.protobuf) echo python3-protobuf ;;
	py:*) echo "python3-${1#py:}" ;;
	*python3) echo python3 ;;
	*) basename "$1" ;;
	esac
}
missing=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	case $1 in
	py:*) [ -x /usr/bin/python3 ] && /usr/bin/python3 -c "import ${1#py:}" 2>/dev/null ;;
	*) command -v "$1" >/dev/null ;;
	esac || missing+=("$1 (Debian: $(package "$1"))")
	shift
done
[ $# -gt 0 ] && shift
if [ ${#missing[@]} -gt 0 ]; then
	echo "skipped: not installed: ${missing[*]}"
	exit 77
fi
exec "$@"
