#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# lab_write.sh BUILD WORKDIR: how tools/agewalk-lab run writes its results
# (docs/lab.md, "Outputs"), with stand-ins for QEMU and file(1) on PATH so
# that nothing boots: the stand-in QEMU writes a JSON object to the
# debugcon file and the lines /init prints to the console.  From an empty
# working directory:
#   - a new OUT.json and its console log are written, the work files are
#     under BUILD/lab/runs, nothing lands in the working directory and no
#     temporary file is left;
#   - an existing OUT.json keeps its mode; a symbolic link's target is
#     written (a dangling link's too) and the link stays a link; a FIFO
#     with a reader gets the result and stays a FIFO; a character device
#     made with mknod (root) stays a character device;
#   - a read-only directory (as nobody when root), a full tmpfs (ENOSPC)
#     and a read-only tmpfs (EROFS): exit 3, one line naming OUT.json and
#     the reason, the old file byte for byte, no temporary file; the
#     read-only directory is found before the boot; a missing directory
#     is made;
#   - a failed run removes an old OUT.json (never a result from another
#     run) but never a FIFO, and keeps what arrived as OUT.partial.json.
# Cases that need root or mount(2) say "skip" when they cannot run; the
# test is skipped (77) when jq or cpio is missing.
set -euo pipefail
build=$(cd "$1" && pwd) work=$(realpath -m -- "$2")
top=$(cd "$(dirname "$0")/.." && pwd)
lab=$top/tools/agewalk-lab
for t in jq cpio; do
	command -v "$t" >/dev/null || { echo "skipped: not installed: $t (Debian: $t)"; exit 77; }
done
for b in agewalk agewalk-exec agewalk-lab-init; do
	[ -x "$build/$b" ] || { echo "skipped: $b not built in $build"; exit 77; }
done
mnt=()
cleanup() { local m; for m in "${mnt[@]}"; do umount "$m" 2>/dev/null || true; done; }
trap cleanup EXIT
rm -rf "$work"; mkdir -p "$work"; chmod 755 "$work"
fails=0 skips=()
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fails=$((fails + 1)); }

# the build: the real binaries, under a directory of the test's own, so
# that the cache (BUILD/lab) is the test's
mkdir -p "$work/b" "$work/bin" "$work/cwd" "$work/out"
for b in agewalk agewalk-exec agewalk-lab-init; do ln -s "$build/$b" "$work/b/$b"; done
printf 'node 0 cpus 0 mem 1G\nthp never\nmodes never\nproc P cpu 0\n' >"$work/good.aws"
printf 'not a kernel\n' >"$work/bzImage"
cat >"$work/bin/file" <<'EOF'
#!/bin/sh
echo "Linux kernel x86 boot executable bzImage, version 6.1.0-stand-in (test@lab) #1 SMP, RO-rootFS"
EOF
# FAKE_PAD=N: N bytes more in the result; FAKE_DIE=1: no exit line (a guest that died)
cat >"$work/bin/qemu-system-x86_64" <<'EOF'
#!/bin/bash
echo boot >>"${0%/bin/*}/boots"
dbg=""
while [ $# -gt 0 ]; do
	case $1 in -chardev) dbg=${2#*path=}; shift ;; esac
	shift
done
pad=$(head -c "${FAKE_PAD:-0}" /dev/zero | tr '\0' x)
printf '{"kernel":"6.1","variants":[],"pad":"%s"}\n' "$pad" >"$dbg"
echo "lab-init: release 6.1.0-stand-in"
echo "lab-init: nodes 1"
[ "${FAKE_DIE:-0}" = 1 ] || echo "lab-init: exit 0"
EOF
chmod 755 "$work/bin/"* "$work/b" "$work/out" "$work/cwd"
: >"$work/boots"; chmod 666 "$work/boots"
boots() { wc -l <"$work/boots"; }
export PATH=$work/bin:$PATH AGEWALK_BUILD=$work/b
unset AGEWALK_LAB_DIR AGEWALK_EXEC

# run OUT [ENV...]: agewalk-lab run from the empty working directory; RC, MSG
run() {
	local out=$1
	shift
	RC=0
	MSG=$(cd "$work/cwd" && env "$@" "$lab" run "$work/bzImage" "$work/good.aws" -o "$out" 2>&1 >/dev/null) || RC=$?
}
is_result() { jq -e '.lab.status == "ok" and .kernel == "6.1"' "$1" >/dev/null 2>&1; }
no_temps() {	# DIR: no temporary file of the writer left
	local left
	left=$(find "$1" -maxdepth 1 -name '.*.tmp' 2>/dev/null)
	[ -z "$left" ] || { bad "temporary files left in $1: $left"; return 1; }
}
intact() {	# CASE ORIG FILE: the old file byte for byte
	cmp -s "$2" "$3" || { bad "$1: the old file changed: $(head -c 80 "$3" 2>&1 | tr '\n' ' ')"; return 1; }
}
one_line_exit3() {	# CASE PATH REASON
	[ "$RC" = 3 ] || { bad "$1: exit $RC, not 3 ($MSG)"; return 1; }
	[ "$(printf '%s\n' "$MSG" | wc -l)" = 1 ] || { bad "$1: not one line: $MSG"; return 1; }
	[ "$MSG" = "agewalk-lab: $2: $3" ] || { bad "$1: '$MSG', not 'agewalk-lab: $2: $3'"; return 1; }
}

# --- a new file
run "$work/out/r.json"
if [ "$RC" = 0 ] && is_result "$work/out/r.json" && [ -s "$work/out/r.console.log" ]; then
	ok "new OUT.json: written, console log beside it"
else
	bad "new OUT.json: exit $RC ($MSG)"
fi
ls "$work/b/lab/runs/"r-*/initramfs.cpio >/dev/null 2>&1 && ok "work files under BUILD/lab/runs" ||
	bad "no BUILD/lab/runs/r-*/initramfs.cpio: $(find "$work/b/lab" -maxdepth 3 2>/dev/null | head)"
[ -z "$(ls -A "$work/cwd")" ] && ok "nothing in the working directory" ||
	bad "the working directory has: $(ls -A "$work/cwd")"
no_temps "$work/out" && ok "no temporary file"

# --- a directory that does not exist yet is made (as -o always made it)
run "$work/out/new/dir/r.json"
[ "$RC" = 0 ] && is_result "$work/out/new/dir/r.json" && ok "OUT.json in a new directory: made" ||
	bad "OUT.json in a new directory: exit $RC ($MSG)"

# --- an existing file keeps its mode
echo old >"$work/out/m.json"; chmod 640 "$work/out/m.json"
run "$work/out/m.json"
[ "$RC" = 0 ] && is_result "$work/out/m.json" && [ "$(stat -c %a "$work/out/m.json")" = 640 ] &&
	ok "existing OUT.json: replaced, mode 640 kept" ||
	bad "existing OUT.json: exit $RC, mode $(stat -c %a "$work/out/m.json") ($MSG)"

# --- symbolic links
echo old >"$work/out/target.json"; ln -s target.json "$work/out/link.json"
run "$work/out/link.json"
[ "$RC" = 0 ] && [ -L "$work/out/link.json" ] && is_result "$work/out/target.json" &&
	ok "symbolic link: its target written, the link kept" ||
	bad "symbolic link: exit $RC, link $(stat -c %F "$work/out/link.json") ($MSG)"
ln -s new-target.json "$work/out/dangling.json"
run "$work/out/dangling.json"
[ "$RC" = 0 ] && [ -L "$work/out/dangling.json" ] && is_result "$work/out/new-target.json" &&
	ok "dangling symbolic link: its target created" || bad "dangling symbolic link: exit $RC ($MSG)"

# --- a FIFO with a reader
mkfifo "$work/out/fifo.json"
timeout 120 cat "$work/out/fifo.json" >"$work/fifo.got" &
reader=$!
run "$work/out/fifo.json"
# a run that never opened the FIFO would leave the reader waiting: let it go
! kill -0 "$reader" 2>/dev/null || timeout 5 sh -c ': >"$1"' sh "$work/out/fifo.json" || true
wait "$reader" || true
[ "$RC" = 0 ] && [ -p "$work/out/fifo.json" ] && is_result "$work/fifo.got" &&
	ok "FIFO: the reader got the result, still a FIFO" ||
	bad "FIFO: exit $RC, now $(stat -c %F "$work/out/fifo.json") ($MSG)"
no_temps "$work/out"

# --- a character device, made here (never /dev/null itself)
if [ "$(id -u)" = 0 ] && mknod "$work/out/null.json" c 1 3 2>/dev/null; then
	run "$work/out/null.json"
	[ "$RC" = 0 ] && [ -c "$work/out/null.json" ] && ok "character device: written in place, still a character device" ||
		bad "character device: exit $RC, now $(stat -c %F "$work/out/null.json") ($MSG)"
else
	skips+=("character device (mknod needs root)")
fi

# --- a read-only directory
mkdir -p "$work/ro"; echo "old result" >"$work/ro/r.json"
cp "$work/ro/r.json" "$work/ro.orig"; chmod 555 "$work/ro"
before=$(boots)
if [ "$(id -u)" = 0 ]; then
	# root ignores permissions: run as nobody, with a cache nobody can write
	mkdir -p "$work/nb"; chown nobody "$work/nb" "$work/cwd"
	run "$work/ro/r.json" AGEWALK_LAB_DIR="$work/nb" setpriv --reuid=nobody --regid=nogroup --clear-groups
	chown root "$work/cwd"
else
	run "$work/ro/r.json"
fi
one_line_exit3 "read-only directory" "$work/ro/r.json" "Permission denied" &&
	intact "read-only directory" "$work/ro.orig" "$work/ro/r.json" && no_temps "$work/ro" &&
	ok "read-only directory: exit 3, one line, the old file intact"
[ "$(boots)" = "$before" ] && ok "read-only directory: said before the boot" ||
	bad "read-only directory: the guest was booted before the output was found unwritable"
chmod 755 "$work/ro"

# --- a full disk, and a read-only file system (tmpfs: root and mount(2))
mkdir -p "$work/full"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64k,mode=755 tmpfs "$work/full" 2>/dev/null; then
	mnt+=("$work/full")
	echo "old result" >"$work/full/r.json"; cp "$work/full/r.json" "$work/full.orig"
	run "$work/full/r.json" FAKE_PAD=200000
	one_line_exit3 "ENOSPC" "$work/full/r.json" "No space left on device" &&
		intact ENOSPC "$work/full.orig" "$work/full/r.json" && no_temps "$work/full" &&
		ok "full tmpfs: exit 3, one line (ENOSPC), the old file intact"
	if mount -o remount,ro "$work/full" 2>/dev/null; then
		run "$work/full/r.json"
		one_line_exit3 "EROFS" "$work/full/r.json" "Read-only file system" &&
			intact EROFS "$work/full.orig" "$work/full/r.json" &&
			ok "read-only tmpfs: exit 3, one line (EROFS), the old file intact"
	else
		skips+=("read-only file system (remount refused)")
	fi
	umount "$work/full" && mnt=()
else
	skips+=("ENOSPC and EROFS (mount -t tmpfs not permitted)")
fi

# --- a failed run: no OUT.json, what arrived kept as OUT.partial.json; a FIFO untouched
echo "old result" >"$work/out/f.json"
run "$work/out/f.json" FAKE_DIE=1
[ "$RC" = 1 ] && [ ! -e "$work/out/f.json" ] && [ -s "$work/out/f.partial.json" ] &&
	[ "$(printf '%s\n' "$MSG" | wc -l)" = 1 ] && ok "failed run: exit 1, old OUT.json removed, partial kept" ||
	bad "failed run: exit $RC, f.json $([ -e "$work/out/f.json" ] && echo kept || echo gone) ($MSG)"
run "$work/out/fifo.json" FAKE_DIE=1
[ "$RC" = 1 ] && [ -p "$work/out/fifo.json" ] && ok "failed run onto a FIFO: the FIFO untouched" ||
	bad "failed run onto a FIFO: exit $RC, now $(stat -c %F "$work/out/fifo.json")"
no_temps "$work/out"

for s in "${skips[@]}"; do echo "skip $s"; done
[ "$fails" = 0 ] || { echo "FAIL: $fails case(s)"; exit 1; }
echo "ok: every case of the lab's result writer${skips:+ (${#skips[@]} skipped)}"
