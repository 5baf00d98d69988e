#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Every file agewalk writes goes through src/event/output.c; this drives
# each writer (convert, run --html, run --walk-log, report -o, minimize -o,
# replay --save-stream) into what a user's path can be, and checks what is
# left behind, never what agewalk says it did:
#   - a character device made with mknod here (never /dev/null itself)
#     stays a character device; a FIFO stays a FIFO and its reader gets
#     exactly the bytes a regular file gets; a symlink stays a link and
#     its target (also a dangling one's) gets the bytes, keeping its mode;
#   - a full tmpfs (ENOSPC), a read-only one (EROFS), a directory the
#     user may not write (EACCES, run as nobody: root ignores modes), and a
#     writer killed between its write and its rename: exit 3 (killed: the
#     signal), one line naming the path and strerror, the old file byte for
#     byte, and no temporary file left;
#   - standard output on /dev/full: exit 3 and one line.
# Needs root (mknod, mount, setpriv) and strace; exits 77 without.
# Usage: output_test.sh AGEWALK SOURCE_DIR WORKDIR
set -uo pipefail
aw=$1 src=$2 work=$3
if [ "$(id -u)" != 0 ]; then
	echo "output_test: needs root (mknod, mount -t tmpfs, setpriv); skipped"
	exit 77
fi
command -v strace >/dev/null || { echo "output_test: needs strace (Debian: strace); skipped"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
mounts=()
cleanup() { for m in "${mounts[@]}"; do umount "$m" 2>/dev/null; done; }
trap cleanup EXIT
# LeakSanitizer cannot stop the world of a traced process; leaks are the
# other tests' business
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0

scen=$src/corpus/scenarios/s3-cold-pud.aws
s5=$src/corpus/scenarios/s5-forced-revives.aws
trace=$src/traces/memhog.dat
"$aw" run "$scen" --variants base,pud --json >"$work/run.json" || { echo "FAIL: run --json"; exit 1; }

# write WRITER OUT: the writer's command, writing OUT; its stdout goes away
write() {
	local w=$1 out=$2
	case $w in
	convert) "$aw" convert "$scen" "$out" --to aws ;;
	html) "$aw" run "$scen" --variants base,pud --html "$out" >/dev/null ;;
	walklog) "$aw" run "$scen" --variants base,pud --walk-log "$out" >/dev/null ;;
	report) "$aw" report "$work/run.json" -o "$out" ;;
	minimize)	# without its summary line ("SIG: 34 -> 5 events in 68 runs")
		local e st
		e=$(mktemp)
		"$aw" minimize "$s5" --variants base,pud --bug pud-force-no-remark \
			--oracle stale-suppression -o "$out" >/dev/null 2>"$e"
		st=$?
		grep -v ' events in [0-9]* runs' "$e" >&2
		rm -f "$e"
		return $st ;;
	save) "$aw" replay "$trace" --variants base --save-stream "$out" >/dev/null ;;
	esac
}
writers=(convert html walklog report minimize save)

# the bytes each writer writes to a regular file: what every other kind of path must get
for w in "${writers[@]}"; do
	write "$w" "$work/ref.$w" 2>"$work/err" && [ -s "$work/ref.$w" ] && ok ||
		bad "$w: to a regular file: $(cat "$work/err")"
done
# the walk log and the replay carry nothing time-dependent: the same bytes twice
write walklog "$work/ref2.walklog" && cmp -s "$work/ref.walklog" "$work/ref2.walklog" && ok || bad "walklog: not deterministic"

# listing DIR: every name in it, temporaries included (they start with a dot)
listing() { (cd "$1" && ls -A | sort | tr '\n' ' '); }

for w in "${writers[@]}"; do
	d=$work/$w
	mkdir -p "$d"
	# a character device made here: still one, written in place
	mknod "$d/null" c 1 3
	write "$w" "$d/null" 2>"$work/err" && [ -c "$d/null" ] && ok ||
		bad "$w: character device: exit or type changed: $(cat "$work/err"; ls -l "$d/null")"
	# a FIFO with a reader: the reader gets the bytes, the FIFO stays
	mkfifo "$d/fifo"
	cat "$d/fifo" >"$d/from-fifo" &
	reader=$!
	write "$w" "$d/fifo" 2>"$work/err" || bad "$w: FIFO: exit $?: $(cat "$work/err")"
	# the reader must not wait for ever: a writer that never opened the FIFO
	# leaves it blocked (open and close it: end of file), one that replaced
	# the FIFO leaves it blocked on a FIFO nobody can reach (kill it)
	if [ -p "$d/fifo" ]; then
		exec 3<>"$d/fifo"
		exec 3>&-
	else
		kill "$reader" 2>/dev/null
	fi
	wait "$reader"
	[ -p "$d/fifo" ] && cmp -s "$d/from-fifo" "$work/ref.$w" && ok || bad "$w: FIFO replaced or bytes differ"
	# a symlink: the link stays, its target gets the bytes and keeps its mode
	echo old >"$d/target"
	chmod 640 "$d/target"
	ln -s target "$d/link"
	write "$w" "$d/link" 2>"$work/err" && [ -L "$d/link" ] && cmp -s "$d/target" "$work/ref.$w" &&
		[ "$(stat -c %a "$d/target")" = 640 ] && ok ||
		bad "$w: symlink: $(cat "$work/err"; ls -l "$d/link" "$d/target")"
	# a dangling symlink through a relative path in another directory
	mkdir -p "$d/sub"
	ln -s ../made-by-link "$d/sub/dangling"
	write "$w" "$d/sub/dangling" 2>"$work/err" && [ -L "$d/sub/dangling" ] &&
		cmp -s "$d/made-by-link" "$work/ref.$w" && ok || bad "$w: dangling symlink: $(cat "$work/err")"
	# a new file: 0666 less the umask (022)
	(umask 022 && write "$w" "$d/new") 2>"$work/err" && [ "$(stat -c %a "$d/new")" = 644 ] && ok ||
		bad "$w: new file mode $(stat -c %a "$d/new" 2>&1)"
	[ -z "$(cd "$d" && ls -A | grep '^\.')" ] && ok || bad "$w: temporaries left: $(listing "$d")"
done

# fails WRITER DIR ERRNO-TEXT [RUNNER...]: the write into DIR/out fails,
# exit 3, one line "…DIR/out: ERRNO-TEXT", the old file byte for byte,
# the directory's listing as before
fails() {
	local w=$1 d=$2 why=$3 before st
	shift 3
	before=$(listing "$d")
	"$@" bash -c "$(declare -f write); aw='$aw' scen='$scen' s5='$s5' trace='$trace' work='$work'; write $w '$d/out'" \
		2>"$work/err"
	st=$?
	[ $st -eq 3 ] && ok || bad "$w into $d: exit $st, not 3 ($(cat "$work/err"))"
	[ "$(wc -l <"$work/err")" -eq 1 ] && grep -qF "$d/out: $why" "$work/err" && ok ||
		bad "$w into $d: message is not one line naming '$d/out: $why': $(cat "$work/err")"
	cmp -s "$d/out" "$work/old" && ok || bad "$w into $d: the old file changed"
	[ "$(listing "$d")" = "$before" ] && ok || bad "$w into $d: left $(listing "$d") (was $before)"
}
head -c 3000 /dev/urandom >"$work/old"

# ENOSPC: a tmpfs with the old file and a few bytes to spare
full=$work/full
mkdir -p "$full"
if mount -t tmpfs -o size=64k,nr_inodes=64 tmpfs "$full" 2>"$work/err"; then
	mounts+=("$full")
	cp "$work/old" "$full/out"
	# fill what is left (the fill file stays, and is listed as before)
	dd if=/dev/zero of="$full/.fill" bs=1k 2>/dev/null
	for w in "${writers[@]}"; do
		fails "$w" "$full" "No space left on device"
	done
	# EROFS: the same tmpfs, read-only
	rm -f "$full/.fill"
	mount -o remount,ro "$full" && for w in "${writers[@]}"; do
		fails "$w" "$full" "Read-only file system"
	done
else
	bad "mount -t tmpfs: $(cat "$work/err")"
fi

# EACCES: a directory nobody may write, as nobody (root ignores modes)
ro=$work/ro
mkdir -p "$ro"
cp "$work/old" "$ro/out"
chmod 755 "$ro" "$work"
chmod 644 "$ro/out" "$work/run.json"
for w in "${writers[@]}"; do
	fails "$w" "$ro" "Permission denied" setpriv --reuid=nobody --regid=nogroup --clear-groups
done

# killed between the write and the rename (SIGKILL at the output's fsync):
# the old file stays, and the unnamed temporary file vanishes with the process
for w in "${writers[@]}"; do
	d=$work/killed-$w
	mkdir -p "$d"
	cp "$work/old" "$d/out"
	before=$(listing "$d")
	strace -f -o /dev/null -e trace=fsync -e inject=fsync:signal=SIGKILL \
		bash -c "$(declare -f write); aw='$aw' scen='$scen' s5='$s5' trace='$trace' work='$work'; write $w '$d/out'" \
		2>/dev/null
	st=$?
	[ $st -ne 0 ] && cmp -s "$d/out" "$work/old" && [ "$(listing "$d")" = "$before" ] && ok ||
		bad "$w killed at fsync: exit $st, old file $(cmp -s "$d/out" "$work/old" && echo kept || echo changed), left $(listing "$d")"
done

# standard output on /dev/full: exit 3 and one line, for the table, the
# JSON and a converted stream
# (s9's text is larger than stdio's buffer: the write fails inside the writer, not at exit)
for cmd in "run $scen" "run $scen --json" "convert $scen - --to aws" "replay $trace --variants base" \
	   "convert $src/corpus/scenarios/s9-reclaim-pressure.aws - --to aws"; do
	# shellcheck disable=SC2086
	"$aw" $cmd >/dev/full 2>"$work/err"
	st=$?
	[ $st -eq 3 ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
		grep -q "standard output: No space left on device" "$work/err" && ok ||
		bad "agewalk $cmd >/dev/full: exit $st: $(cat "$work/err")"
done
# /dev/stdout is the descriptor, as is: a pipe's reader gets the bytes
"$aw" convert "$scen" /dev/stdout --to aws 2>"$work/err" | cat >"$work/via-stdout"
cmp -s "$work/via-stdout" "$work/ref.convert" && ok || bad "convert to /dev/stdout: $(cat "$work/err")"
# a socket cannot be opened for writing: one line, exit 3, the socket stays
if command -v python3 >/dev/null; then
	python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$work/sock"
	"$aw" convert "$scen" "$work/sock" --to aws 2>"$work/err"
	st=$?
	[ $st -eq 3 ] && [ -S "$work/sock" ] && grep -q 'sock: No such device or address' "$work/err" && ok ||
		bad "convert to a socket: exit $st: $(cat "$work/err")"
fi
# and a check writes nothing at all: convert --check
"$aw" convert --check "$scen" >"$work/check" 2>&1 && grep -q 'valid' "$work/check" && ok || bad "convert --check: $(cat "$work/check")"
echo 'node 0 cpus 0 mem 1G
bogus line' >"$work/bad.aws"
"$aw" convert --check "$work/bad.aws" 2>"$work/err"
st=$?
[ $st -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q 'bad.aws:2' "$work/err" && ok ||
	bad "convert --check of a bad file: exit $st: $(cat "$work/err")"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
