#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# lab_status.sh WORKDIR: how tools/agewalk-lab judges a boot from its
# console log and QEMU's exit status (`agewalk-lab status`, the same
# classify() that `run` uses; docs/lab.md, "The lab runner", 6), on
# console logs written here, nothing booted.  Above all: a memcg's OOM
# kill, whose only console line under `quiet` is oom_kill_process()'s
# KERN_ERR "Memory cgroup out of memory: Killed process ...", is
# memcg-oom -- not executor-failed (the worker it killed stops the
# executor, exit 1), and not guest-oom (the machine had memory).
set -euo pipefail
work=$(realpath -m -- "$1")
lab=$(cd "$(dirname "$0")/.." && pwd)/tools/agewalk-lab
rm -rf "$work"; mkdir -p "$work"
fails=0
# case NAME QEMU_STATUS WANT: the console is the case's stdin (CR LF, as
# the serial console writes it)
case_() {
	local name=$1 rc=$2 want=$3 got
	sed 's/$/\r/' >"$work/$name.log"
	got=$("$lab" status "$work/$name.log" "$rc" 2>&1) || got="exit $?: $got"
	if [ "$got" = "$want" ]; then echo "ok   $name"; else
		echo "FAIL $name: got '$got', want '$want'"; fails=$((fails + 1)); fi
}
boot='lab-init: release 6.12.0
lab-init: nodes 1
lab-init: debugfs lru_gen present'
oom='[   41.207311] Memory cgroup out of memory: Killed process 87 (agewalk-exec) total-vm:70312kB, anon-rss:61440kB, file-rss:4kB, shmem-rss:0kB, UID:0 pgtables:172kB oom_score_adj:0'
died='agewalk-exec: memcg-thrash.aws:9: event 4 (access): worker 1 died'

# quiet: the KERN_ERR line only
case_ memcg-oom-quiet 0 'memcg-oom: memory cgroup out of memory: killed process 87 (agewalk-exec); agewalk-exec exited 1' <<EOT
$boot
$oom
$died
lab-init: exit 1
EOT
# without quiet: dump_header()'s lines and the summary name the memcg;
# "oom-kill" in them is not the machine's OOM
case_ memcg-oom-summary 0 'memcg-oom: memory cgroup /agewalk/m1 out of memory: killed process 87 (agewalk-exec); agewalk-exec exited 1' <<EOT
$boot
[   41.2] agewalk-exec invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=0
[   41.2] memory: usage 65536kB, limit 65536kB, failcnt 212
[   41.2] oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0,oom_memcg=/agewalk/m1,task_memcg=/agewalk/m1,task=agewalk-exec,pid=87,uid=0
$oom
$died
lab-init: exit 1
EOT
# a kill the executor outlived is still no result to compare
case_ memcg-oom-exit-0 0 'memcg-oom: memory cgroup out of memory: killed process 87 (agewalk-exec)' <<EOT
$boot
$oom
lab-init: exit 0
EOT
# the machine's OOM is guest-oom, as before
case_ guest-oom 0 'guest-oom: guest out of memory; agewalk-exec exited 1' <<EOT
$boot
[   12.0] Out of memory: Killed process 87 (agewalk-exec) total-vm:70312kB, anon-rss:61440kB
lab-init: exit 1
EOT
case_ executor-failed 0 'executor-failed: agewalk-exec exited 1' <<EOT
$boot
$died
lab-init: exit 1
EOT
case_ ok 0 'ok' <<EOT
$boot
lab-init: exit 0
EOT
case_ guest-died 0 'guest-died: guest stopped before the executor finished: [    3.1] Kernel panic - not syncing: Attempted to kill init!' <<EOT
$boot
[    3.1] Kernel panic - not syncing: Attempted to kill init!
EOT
case_ timeout 124 'timeout: boot timed out after 600s' <<EOT
$boot
EOT
case_ lru-gen-missing 0 'executor-failed: debugfs lru_gen missing in the guest; agewalk-exec exited 1' <<EOT
lab-init: debugfs lru_gen missing
lab-init: exit 1
EOT
# usage: one line, exit 2
got=$("$lab" status "$work/none.log" 2>&1) && rc=0 || rc=$?
if [ "$rc" = 2 ] && [ "$(echo "$got" | wc -l)" = 1 ]; then echo "ok   missing log"; else
	echo "FAIL missing log: exit $rc, '$got'"; fails=$((fails + 1)); fi
[ "$fails" = 0 ] || { echo "$fails failed"; exit 1; }
echo "all passed"
