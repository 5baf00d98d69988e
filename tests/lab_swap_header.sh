#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# lab_swap_header.sh INIT: the swap header lab_init writes onto zram0,
# against the layout of union swap_header (include/linux/swap.h) worked
# out by hand: page 0 of the device, version 1 at byte 1024, last_page
# (the index of the last page) at 1028, nr_badpages 0 at 1032, uuid and
# label zero, "SWAPSPACE2" in the page's last ten bytes; little-endian.
set -euo pipefail
init=$1
fail() { echo "FAIL: $*"; exit 1; }

# expect BYTES LAST_PAGE_HEX: the page as od prints it, hand-written
expect() {
	local got want
	got=$("$init" --swap-header "$1" | od -A d -t x1 -v | sed 's/  */ /g')
	[ "$(echo "$got" | wc -l)" = 257 ] || fail "$1 bytes: the header is not one 4096-byte page"
	want=$(printf '%07d 01 00 00 00 %s 00 00 00 00 00 00 00 00' 1024 "$2")
	echo "$got" | grep -qx "$want" || fail "$1 bytes: bytes 1024..1039 are not version 1, last_page $2, nr_badpages 0"
	echo "$got" | grep -qx '0004080 00 00 00 00 00 00 53 57 41 50 53 50 41 43 45 32' ||
		fail "$1 bytes: no SWAPSPACE2 magic at 4086"
	# every other line is zero: bootbits, uuid, label, padding
	[ "$(echo "$got" | grep -v -e '^0001024 ' -e '^0004080 ' -e '^0004096$' |
		grep -vc ' 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00$')" = 0 ] ||
		fail "$1 bytes: a byte outside the header fields is not zero"
}
expect 1048576 "ff 00 00 00"		# 256 pages: last_page 255
expect 268435456 "ff ff 00 00"		# 65536 pages: last_page 65535
expect 12287 "01 00 00 00"		# two pages and a partial one: the partial page is not swap
expect 17179869184 "ff ff 3f 00"	# 16 GiB, 4194304 pages: last_page 0x3fffff

# one page is the header alone: no swap device; a word is no size
for bad in 4096 0 12x ""; do
	if out=$("$init" --swap-header "$bad" 2>&1 >/dev/null); then fail "--swap-header '$bad' accepted"; fi
	[ "$(echo "$out" | wc -l)" = 1 ] || fail "--swap-header '$bad': not a one-line error"
done
echo "ok: swap headers of 1 MiB, 256 MiB, 2 pages + 4095 bytes, 16 GiB; 4 bad sizes refused"
