#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# replay.stream: the streaming replay gives the same bytes on one thread
# and on two (text and JSON, a finding-stopping run and --keep-going);
# --save-stream leaves exactly the finished file (no spool, no temporary)
# and `agewalk run` of it streams to the same figures as the replay; an
# unwritable --save-stream and a truncated .awpb get one-line errors.
# usage: stream_test.sh AGEWALK SRCDIR WORKDIR
set -u
aw=$1 src=$2 work=$3 py=/usr/bin/python3
rm -rf "$work" && mkdir -p "$work" || exit 1
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
trace=$src/traces/memhog.dat

# the variants split over two threads (--threads 3) as well: a finding of a patched variant alone
# (pud-force-no-remark on this recording) makes the split run repeat itself on fewer threads
for opts in "--json" "--variants base,pud,emptymap,rfc --keep-going" "--variants base,rfc --bug pud-reset-wrong-seq" \
	"--bug pud-force-no-remark --json" "--bug two-touch-first-promotes --keep-going"; do
	# shellcheck disable=SC2086  # opts: words
	"$aw" replay "$trace" --no-progress $opts --threads 1 >"$work/t1.out" 2>"$work/t1.err"
	r1=$?
	for t in 2 3; do
		# shellcheck disable=SC2086
		"$aw" replay "$trace" --no-progress $opts --threads $t >"$work/t$t.out" 2>"$work/t$t.err"
		r2=$?
		if [ "$r1" = "$r2" ] && cmp -s "$work/t1.out" "$work/t$t.out" && cmp -s "$work/t1.err" "$work/t$t.err"; then
			ok
		else
			bad "[$opts]: --threads 1 and $t differ (exit $r1, $r2): $(diff "$work/t1.out" "$work/t$t.out" | head -3)"
		fi
	done
	[ "$opts" = "--variants base,rfc --bug pud-reset-wrong-seq" ] && cp "$work/t2.out" "$work/bug.out"
done
# the planted bug is found by the streamed run (exit 1), not lost in the queue
grep -q '^  signature: ' "$work/bug.out" && ok || bad "planted bug: no finding in the streamed run"

# reopening the input midway (what bounds libtracecmd's caches) resumes every CPU exactly:
# reopened every 9973 records (5 times), the recording gives the same report; and a generated
# trace without kallsyms (reopening it is cheap) reopened every 97 records, 600 times: enough
# reopens that malloc hands a new file's format tables the old one's addresses
AGEWALK_REOPEN_EVERY=9973 "$aw" replay "$trace" --no-progress --threads 2 >"$work/reopen.out" 2>&1
"$aw" replay "$trace" --no-progress --threads 2 >"$work/plain0.out" 2>&1
[ -s "$work/plain0.out" ] && cmp -s "$work/plain0.out" "$work/reopen.out" && ok ||
	bad "reopened every 9973 records: $(diff "$work/plain0.out" "$work/reopen.out" | head -4)"
if command -v trace-cmd >/dev/null && mkdir -p "$work/gen" && "$py" "$src/bench/gen_trace.py" "$work/gen/gen.dat" 60000 4 >/dev/null 2>&1; then
	"$aw" replay "$work/gen/gen.dat" --no-progress >"$work/gen0.out" 2>&1
	AGEWALK_REOPEN_EVERY=97 "$aw" replay "$work/gen/gen.dat" --no-progress >"$work/gen1.out" 2>&1
	[ -s "$work/gen0.out" ] && cmp -s "$work/gen0.out" "$work/gen1.out" && ok ||
		bad "generated trace reopened every 97 records: $(diff "$work/gen0.out" "$work/gen1.out" | head -4)"
else
	echo "note: no trace-cmd: the generated-trace reopen check did not run"
fi

# --save-stream: the file and nothing else
"$aw" replay "$trace" --no-progress --save-stream "$work/s.awpb" >"$work/save.out" 2>&1 || bad "--save-stream: exit $?"
left=$(cd "$work" && ls | grep -v -e '^s\.awpb$' -e '\.out$' -e '\.err$' -e '^gen$')
[ -s "$work/s.awpb" ] && [ -z "$left" ] && ok || bad "--save-stream left '$left'"
# the run of the stream has the replay's table (the first line names the file)
"$aw" run "$work/s.awpb" --variants base,pud >"$work/run.out" 2>&1 || bad "run s.awpb: exit $?"
sed -n '/^agewalk run /,/^$/p' "$work/save.out" | tail -n +2 >"$work/a"
sed -n '/^agewalk run /,/^$/p' "$work/run.out" | tail -n +2 >"$work/b"
[ -s "$work/a" ] && cmp -s "$work/a" "$work/b" && ok || bad "run of the saved stream: $(diff "$work/a" "$work/b" | head -4)"

# errors: one line; exit 3 for an output that cannot be written, 2 for bad input
"$aw" replay "$trace" --no-progress --save-stream "$work/no/such/dir/s.awpb" >"$work/e.out" 2>&1
rc=$?
[ "$rc" = 3 ] && [ "$(wc -l <"$work/e.out")" = 1 ] && grep -q 's.awpb: No such file or directory' "$work/e.out" && ok ||
	bad "unwritable --save-stream: exit $rc: $(cat "$work/e.out")"
# bad values of the options that narrow a replay, and a missing second file: one line, exit 2
for args in "--pid abc" "--pid 0" "--comm 0123456789abcdefX" "--cgroup relative/path" "--threads 4" \
	"--start 5%x" "$trace $work/does-not-exist.dat"; do
	# shellcheck disable=SC2086  # args: words
	"$aw" replay "$trace" --no-progress $args >"$work/e.out" 2>&1
	rc=$?
	[ "$rc" = 2 ] && [ "$(wc -l <"$work/e.out")" = 1 ] && ok || bad "replay $args: exit $rc: $(cat "$work/e.out")"
done
head -c 300000 "$work/s.awpb" >"$work/cut.awpb"
"$aw" run "$work/cut.awpb" >"$work/e.out" 2>&1
rc=$?
[ "$rc" = 2 ] && [ "$(wc -l <"$work/e.out")" = 1 ] && grep -q '^.*cut.awpb: event [0-9]* (byte [0-9]*): ' "$work/e.out" &&
	ok || bad "truncated .awpb: exit $rc: $(cat "$work/e.out")"

# compressed inputs: the recording as a v7 zstd file (trace-cmd convert) gives the same report,
# but for the file name; a compression this libtracecmd lacks (the name in the header changed to
# zlib, which Debian 12's libtracecmd is built without) is a one-line error
if command -v trace-cmd >/dev/null && trace-cmd list -c 2>/dev/null | grep -q zstd; then
	trace-cmd convert -i "$trace" -o "$work/z.dat" --file-version 7 --compression zstd >/dev/null 2>&1
	for side in topology saved_tgids cpustats; do
		cp "${trace%.dat}.$side" "$work/z.$side" 2>/dev/null
	done
	cp -r "${trace%.dat}.procs" "$work/z.procs" 2>/dev/null
	"$aw" replay "$trace" --no-progress | sed "s#$trace#TRACE#" >"$work/plain.out"
	"$aw" replay "$work/z.dat" --no-progress | sed "s#$work/z.dat#TRACE#" >"$work/zstd.out"
	[ -s "$work/plain.out" ] && cmp -s "$work/plain.out" "$work/zstd.out" && ok ||
		bad "zstd-compressed copy: $(diff "$work/plain.out" "$work/zstd.out" | head -4)"
	AGEWALK_REOPEN_EVERY=10007 "$aw" replay "$work/z.dat" --no-progress | sed "s#$work/z.dat#TRACE#" >"$work/zr.out"
	cmp -s "$work/plain.out" "$work/zr.out" && ok ||
		bad "zstd copy reopened every 10007 records: $(diff "$work/plain.out" "$work/zr.out" | head -4)"
	"$py" - "$work/z.dat" "$work/zlib.dat" <<'EOF'
import sys
d = open(sys.argv[1], 'rb').read()
i = d.find(b'zstd\0')
open(sys.argv[2], 'wb').write(d[:i] + b'zlib' + d[i + 4:] if i > 0 else b'')
EOF
	"$aw" replay "$work/zlib.dat" --no-progress >"$work/e.out" 2>&1
	rc=$?
	[ "$rc" = 2 ] && [ "$(wc -l <"$work/e.out")" = 1 ] && grep -q 'compressed with zlib' "$work/e.out" &&
		ok || bad "unknown compression: exit $rc: $(cat "$work/e.out")"
else
	echo "note: no trace-cmd with zstd: the compressed-input checks did not run"
fi

echo "replay.stream: $pass passed, $fail failed"
[ "$fail" = 0 ]
