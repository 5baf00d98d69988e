#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# exec_host.sh AGEWALK_EXEC DIR: what agewalk-exec does on any Linux host,
# with hand-computed values.  The host needs no MGLRU: sysfs, cgroup and
# debugfs are pointed at a scratch directory, so nothing of the host is
# changed; the workers are real processes, their residency real pagemap.
set -u
exe=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
[ -r /proc/self/pagemap ] || { echo "skipped: no /proc/self/pagemap"; exit 77; }
[ "$(nproc --all)" -ge 2 ] || { echo "skipped: needs CPUs 0 and 1"; exit 77; }

# a machine of one node with CPUs 0-1, and the knob files the executor writes
mkdir -p "$tmp/sys/cpu/cpu0" "$tmp/sys/cpu/cpu1" "$tmp/sys/node/node0/cpu0" "$tmp/sys/node/node0/cpu1" \
	"$tmp/thp/khugepaged" "$tmp/dbg" "$tmp/cg"
touch "$tmp/thp/enabled" "$tmp/thp/khugepaged/pages_to_scan"
echo 7 > "$tmp/thp/khugepaged/full_scans"
run() {
	"$exe" --sys-dir "$tmp/sys" --thp-dir "$tmp/thp" --debugfs "$tmp/dbg" --cgroup-mount "$tmp/cg" \
		--cgroup-root "$tmp/cg/agewalk" --tracefs "$tmp/tr" --kh-wait 20 "$@"
}
check() {	# NAME CONDITION...
	local name=$1
	shift
	if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}
has() { grep -qF -- "$2" "$1"; }

# 1. workers: 64 pages mapped, 16 written -> 16 resident; a fork child's
# munmap leaves the parent's copy; mremap to 128 pages moves the 16 with
# the region, 2 more written -> 18; thread, vfork, exec, exit run.
cat > "$tmp/res.aws" <<'AWS'
proc P cpu 1
mmap P A 256K nohugepage
write P A len 64K
sample A
fork P C
munmap C A off 0 len 64K
mremap P A 512K
write P A off 256K len 8K
sample A
thread P T
vfork P V
read T A len 4K
exec V
exit C
run P cpu 0
time 1ms
AWS
run --json "$tmp/res.aws" > "$tmp/res.json" 2> "$tmp/res.err"
check "workers: exit 0" test $? -eq 0
check "workers: 16 of 64 resident" has "$tmp/res.json" '"samples":[{"event":3,"resident":16,"swapped":0},{"event":8,"resident":18,"swapped":0}]'
check "workers: 18 at the end" has "$tmp/res.json" '"name":"A","resident":18,'
check "workers: no error" has "$tmp/res.json" '"error":null}'
check "workers: source kernel" has "$tmp/res.json" '"source":"kernel"'
check "workers: 16 events" has "$tmp/res.json" '"events":16,'
check "workers: thp knob written" test "$(cat "$tmp/thp/enabled")" = never

# 1b. an access the kernel would answer with SIGSEGV is skipped, as the
# model skips it: Q reads P's region (16 pages Q does not map), P writes a
# read-only 4 pages of its own and then 8 it may write
cat > "$tmp/segv.aws" <<'AWS'
proc P
proc Q
mmap P A 64K
read Q A
mprotect P A len 16K prot r
write P A len 48K
AWS
run --json "$tmp/segv.aws" > "$tmp/segv.json" 2> "$tmp/segv.err"
check "skipped steps: exit 0" test $? -eq 0; cat "$tmp/segv.err"
check "skipped steps: Q's 16" has "$tmp/segv.json" '"event":3,"line":4,"kind":"not_executed","text":"16 of the access'
check "skipped steps: P's 4" has "$tmp/segv.json" '"event":5,"line":6,"kind":"not_executed","text":"4 of the access'
check "skipped steps: P's 8 written" has "$tmp/segv.json" '"name":"A","resident":8,'

# 1c. `mmap ... at` over the scenario's own mapping replaces it, as the
# model's mmap (MAP_FIXED) does: 4K, then 64K at the same address, all written
cat > "$tmp/remap.aws" <<'AWS'
proc P
mmap P A 4K at 0x7e0000000000
write P A
mmap P A 64K at 0x7e0000000000
write P A
AWS
run --json "$tmp/remap.aws" > "$tmp/remap.json" 2> "$tmp/remap.err"
check "mmap over own: exit 0" test $? -eq 0
check "mmap over own: no event note" bash -c "! grep -q '\"event\":[0-9]' '$tmp/remap.json'"
check "mmap over own: 16 resident" has "$tmp/remap.json" '"name":"A","resident":16,'

# 1d. MADV_PAGEOUT reclaims where pgsteal does not count (reclaim_pages()):
# evicted_pages is not measured then, on every node, and a note says why
cat > "$tmp/pageout.aws" <<'AWS'
proc P
mmap P A 64K
write P A
madvise P A len 16K pageout
AWS
run --json "$tmp/pageout.aws" > "$tmp/pageout.json" 2> "$tmp/pageout.err"
check "pageout: exit 0" test $? -eq 0
check "pageout: evicted_pages null" has "$tmp/pageout.json" '"evicted_pages":null'
check "pageout: note" has "$tmp/pageout.json" 'MADV_PAGEOUT reclaims outside pgsteal'

# 2. what a kernel cannot be made to do is marked, with its line
cat > "$tmp/mark.aws" <<'AWS'
proc P
contend P mmap on
age_begin node 0 force 0
khugepaged set pages_to_scan 100
khugepaged full 1
AWS
run --json "$tmp/mark.aws" > "$tmp/mark.json"
check "marks: exit 0" test $? -eq 0
check "marks: contend" has "$tmp/mark.json" '{"event":1,"line":2,"kind":"not_executed","text":"contend'
check "marks: split aging" has "$tmp/mark.json" '{"event":2,"line":3,"kind":"not_executed","text":"split aging'
check "marks: khugepaged knob" test "$(cat "$tmp/thp/khugepaged/pages_to_scan")" = 100
check "marks: khugepaged wait" has "$tmp/mark.json" '"kind":"approximated","text":"khugepaged cannot be woken: waited for full_scans 7 -> 7 (asked +1)"'

# 3. no MGLRU debugfs: one line naming the event and its line, exit 1,
# the results so far in the JSON
cat > "$tmp/age.aws" <<'AWS'
proc P
mmap P A 64K
write P A
sample A
age node 0 force 0
write P A
AWS
run --json "$tmp/age.aws" > "$tmp/age.json" 2> "$tmp/age.err"
check "no lru_gen: exit 1" test $? -eq 1
check "no lru_gen: one line" test "$(cat "$tmp/age.err")" = \
	"$tmp/age.aws:5: event 4 (age): cannot read $tmp/dbg/lru_gen: No such file or directory"
check "no lru_gen: results kept" has "$tmp/age.json" '"samples":[{"event":3,"resident":16,"swapped":0}]'
check "no lru_gen: 4 events done" has "$tmp/age.json" '"events":4,'
check "no lru_gen: error in JSON" has "$tmp/age.json" "\"error\":\"cannot read $tmp/dbg/lru_gen"

# 4. bad input: one line, exit 2
printf 'proc P\nmmap P A 3K\n' > "$tmp/bad.aws"
run "$tmp/bad.aws" > /dev/null 2> "$tmp/bad.err"
check "bad scenario: exit 2" test $? -eq 2
check "bad scenario: one line with position" test "$(wc -l < "$tmp/bad.err")" -eq 1
check "bad scenario: FILE:LINE:COL" grep -q "^$tmp/bad.aws:2:[0-9]*: " "$tmp/bad.err"
run --kernel 5.4 "$tmp/res.aws" > /dev/null 2> "$tmp/cli.err"
check "bad --kernel: exit 2" test $? -eq 2
check "bad --kernel: one line" test "$(cat "$tmp/cli.err")" = "agewalk-exec: --kernel takes 6.1 or 6.12, not 5.4"

# 5. a node the machine lacks is refused before anything runs
printf 'topology T2\nproc P cpu 2\n' > "$tmp/t2.aws"
run "$tmp/t2.aws" > /dev/null 2> "$tmp/t2.err"
check "missing node: exit 2" test $? -eq 2
check "missing node: one line" test "$(cat "$tmp/t2.err")" = "agewalk-exec: scenario node 1 does not exist on this machine"

# 6. --topology: what the lab runner reads
printf 'node 0 cpus 0-1 mem 1G\nnode 1 cpus 2 mem 512M\nswap 256M\nthp always\nmemcg 1\n' > "$tmp/topo.aws"
run --topology "$tmp/topo.aws" > "$tmp/topo.out"
check "topology" test "$(cat "$tmp/topo.out")" = "$(printf 'node 0 mem 1073741824 cpus 0,1\nnode 1 mem 536870912 cpus 2\nswap 268435456\nthp always\nmemcgs 2')"

# 7. the aging path against stand-in files: lru_gen_full of 6.12 (memcg 1
# is "/", node 0 at max_seq 5), the command lands in the lru_gen file;
# the read after it is unchanged, so the pass did not age and walked 0
mkdir -p "$tmp/dbg2"
cp "$2/lru_gen_full-6.12-cumulative.txt" "$tmp/dbg2/lru_gen_full"
cp "$2/lru_gen_full-6.12-cumulative.txt" "$tmp/dbg2/lru_gen"
printf 'proc P\nage node 0 force 0\n' > "$tmp/age2.aws"
run --debugfs "$tmp/dbg2" --kernel 6.12 --json "$tmp/age2.aws" > "$tmp/age2.json"
check "stand-in aging: exit 0" test $? -eq 0
check "stand-in aging: the command" test "$(head -1 "$tmp/dbg2/lru_gen")" = "+ 1 0 5 4294967295 0"
check "stand-in aging: the pass" has "$tmp/age2.json" '"leaf_total":0,"leaf_associated":null,"young":0,"nonleaf_found":0,"nonleaf_added":0,"pmd_entries_read":null,"pud_skipped":null,"promoted":null,"bloom_tests":{"pmd":null,"pud":null},"leaf_old":null,"nonleaf_total":null,"walked":null,"walked_other":null,"event":1,"max_seq_before":5,"max_seq_after":5,"aged":false,"refused":false,"reclaim":false}'

# 8. walk visibility against stand-in tracefs files: the probe lines
# appended to kprobe_events (after removing a previous run's, and removed
# again at the end), the pass traced with no hits
mkdir -p "$tmp/tr/events/agewalk"
cp "$2/lru_gen_full-6.12-cumulative.txt" "$tmp/dbg2/lru_gen"
touch "$tmp/tr/kprobe_events" "$tmp/tr/events/agewalk/enable" "$tmp/tr/tracing_on" "$tmp/tr/trace"
run --debugfs "$tmp/dbg2" --tracefs "$tmp/tr" --kernel 6.12 --json "$tmp/age2.aws" > "$tmp/age3.json"
check "kprobes: exit 0" test $? -eq 0
check "kprobes: the probes" test "$(cat "$tmp/tr/kprobe_events")" = "$(printf '%s\n' \
	'-:agewalk/walk_pud' '-:agewalk/madvise' \
	'p:agewalk/walk_pud walk_pud_range mm=+8(%cx):x64 start=%si:x64 end=%dx:x64' \
	'p:agewalk/madvise do_madvise mm=%di:x64 behavior=%cx:s32' \
	'-:agewalk/walk_pud' '-:agewalk/madvise')"
check "kprobes: disabled at the end" test "$(cat "$tmp/tr/events/agewalk/enable")" = 0
check "kprobes: the pass traced" has "$tmp/age3.json" '"walked":[],"walked_other":0,"event":1,'

# 9. passes the kernel's own reclaim ran: lru_gen_full is a FIFO that
# serves the executor's reads in turn -- the start (max_seq 5, T 64), the
# read before the command (max_seq 7, T 80: reclaim aged twice and walked
# 16 entries), the read after it (max_seq 8, T 100), the end (unchanged).
# Expected: two passes marked reclaim (5->6, 6->7; two share one
# difference, so their figures are null), then the command's pass, 7->8,
# charged 100 - 80 = 20 entries only.
mkdir -p "$tmp/dbg3"
fixtures=$2
# gen D T: the stand-in with memcg 1's generations moved up by D, T on max_seq
gen() {
	awk -v d="$1" -v t="$2" '/^memcg/ { m++ }
		m == 1 && NF == 4 && $1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ { sub(/^ *[0-9]+/, sprintf(" %10d", $1 + d)) }
		m == 1 && match($0, / +64T /) { $0 = substr($0, 1, RSTART - 1) sprintf("%" (RLENGTH - 2) "dT ", t) substr($0, RSTART + RLENGTH) }
		{ print }' "$fixtures/lru_gen_full-6.12-cumulative.txt"
}
gen 0 64 > "$tmp/dbg3/lru_gen"
mkfifo "$tmp/dbg3/lru_gen_full"
# one writer per read, a second apart, so that no read sees two
( for v in "0 64" "2 80" "3 100" "3 100"; do gen $v > "$tmp/dbg3/lru_gen_full"; sleep 1; done ) &
feeder=$!
run --debugfs "$tmp/dbg3" --kernel 6.12 --json "$tmp/age2.aws" > "$tmp/age4.json" 2> "$tmp/age4.err"
check "reclaim passes: exit 0" test $? -eq 0; cat "$tmp/age4.err"
kill "$feeder" 2>/dev/null	# a read fewer than served (a failed run) leaves one writer waiting
check "reclaim passes: the first" has "$tmp/age4.json" '{"pass":1,"forced":false,"walks":null,"walks_with_leaves":null,"empty_walks":null,"forced_walks":null,"leaf_total":null,'
check "reclaim passes: 5 to 6" has "$tmp/age4.json" '"max_seq_before":5,"max_seq_after":6,"aged":true,"refused":false,"reclaim":true}'
check "reclaim passes: 6 to 7" has "$tmp/age4.json" '"max_seq_before":6,"max_seq_after":7,"aged":true,"refused":false,"reclaim":true}'
check "reclaim passes: the command's" has "$tmp/age4.json" '{"pass":3,"forced":false,"walks":null,"walks_with_leaves":null,"empty_walks":null,"forced_walks":null,"leaf_total":20,'
check "reclaim passes: 7 to 8" has "$tmp/age4.json" '"max_seq_before":7,"max_seq_after":8,"aged":true,"refused":false,"reclaim":false}'
# 10. `file` mappings' files (exec_file.c): without --file-dir a memfd,
# and a setup note says its pages are shmem; with --file-dir on a disk
# file system an unnamed file there (16 pages read: 16 resident, no note);
# --file-dir on tmpfs is refused in one line, since its "file" would be
# shmem again
printf 'proc P cpu 0\nmmap P F 64K file\nread P F\nsample F\n' > "$tmp/file.aws"
run --json "$tmp/file.aws" > "$tmp/file.json" 2> "$tmp/file.err"
check "file, memfd: exit 0" test $? -eq 0
check "file, memfd: 16 resident" has "$tmp/file.json" '"samples":[{"event":3,"resident":16,"swapped":0}]'
check "file, memfd: the note" has "$tmp/file.json" '"kind":"setup","text":"file mappings are memfds (shmem: the anon LRU, no shadows): no --file-dir"'
mkdir -p "$tmp/disk"
case $(stat -f -c %T "$tmp/disk") in
tmpfs|ramfs) echo "skip file, disk: $tmp is on $(stat -f -c %T "$tmp/disk")" ;;
*)	run --file-dir "$tmp/disk" --json "$tmp/file.aws" > "$tmp/file2.json" 2> "$tmp/file2.err"
	check "file, disk: exit 0" test $? -eq 0; cat "$tmp/file2.err"
	check "file, disk: 16 resident" has "$tmp/file2.json" '"samples":[{"event":3,"resident":16,"swapped":0}]'
	check "file, disk: no note" bash -c "! grep -q 'memfds' '$tmp/file2.json'"
	check "file, disk: nothing left" test -z "$(ls -A "$tmp/disk")" ;;
esac
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
	run --file-dir /dev/shm --json "$tmp/file.aws" > "$tmp/file3.json" 2> "$tmp/file3.err"
	check "file, tmpfs: exit 1" test $? -eq 1
	check "file, tmpfs: one line" test "$(cat "$tmp/file3.err")" = \
		"$tmp/file.aws:2: event 1 (mmap): --file-dir /dev/shm is tmpfs or ramfs: its files would be shmem"
else
	echo "skip file, tmpfs: /dev/shm is not tmpfs"
fi
exit $fail
