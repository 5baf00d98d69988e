#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""
A long synthetic trace.dat for the replay benchmark (bench/long-trace), of
any length, with the model's state bounded whatever the length:

    gen_trace.py OUT.dat EVENTS [PROCESSES]

PROCESSES (default 16) processes on 2 CPUs, each with one 32 MiB anonymous
mapping.  They take turns (sched_switch); each turn writes to the next 256
pages of its mapping (page_fault_user, error_code 6), 2 us apart; when a
process has touched its whole mapping it munmaps and mmaps it again, so its
memory is freed and faulted anew.  A trace of 4x the events is the same
workload running 4x as long: what the model holds stays the same.

The file is built as tests/trace_fixture.py builds its fixtures (a fake
tracing directory turned into headers by `trace-cmd restore -c`, ring-buffer
pages written here, `trace-cmd restore -i` to join them), but the pages are
written as the events are made: memory stays small for 20 M events.
Needs trace-cmd (3.x).  Side file OUT.topology: one 16 GiB node, 8 GiB swap,
THP never (every fault is a 4 KiB page).
"""
import os
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
import trace_fixture as tf  # noqa: E402

MAP_LEN = 32 << 20
PAGES = MAP_LEN // 4096
PER_TURN = 256
STEP_NS = 2000


class CpuWriter:
    """Ring-buffer pages for one CPU, written to a file as they fill."""

    def __init__(self, path):
        self.f = open(path, "wb")
        self.page_ts = None
        self.last = 0
        self.body = bytearray()

    def flush(self):
        if self.page_ts is not None:
            page = struct.pack("<QQ", self.page_ts, len(self.body)) + bytes(self.body)
            self.f.write(page.ljust(tf.PAGE_SIZE, b"\0"))
        self.page_ts, self.body = None, bytearray()

    def add(self, ts, data):
        if self.page_ts is not None:
            delta = ts - self.last
            rec = b""
            if delta >= 1 << tf.TS_DELTA_BITS:
                rec += tf.rb_time_extend(delta)
                delta = 0
            rec += tf.rb_event(delta, data)
            if len(self.body) + len(rec) > tf.DATA_SIZE:
                self.flush()
        if self.page_ts is None:
            self.page_ts = ts
            rec = tf.rb_event(0, data)
        self.body += rec
        self.last = ts

    def close(self):
        self.flush()
        self.f.close()


def main():
    if len(sys.argv) not in (3, 4):
        sys.stderr.write("usage: gen_trace.py OUT.dat EVENTS [PROCESSES]\n")
        return 2
    out, total = os.path.abspath(sys.argv[1]), int(sys.argv[2])
    nproc = int(sys.argv[3]) if len(sys.argv) == 4 else 16
    events = [tf.FAULT, tf.MMAP_IN, tf.MMAP_OUT, tf.MUNMAP, tf.SWITCH]
    work = out + ".build"
    pids = [1000 + p for p in range(nproc)]
    ids = tf.write_head(work, events, tf.EVENT_DEFS, {pid: "work%d" % i for i, pid in enumerate(pids)})

    fault_s = struct.Struct("<HBBiQQQ")             # common header, address, ip, error_code
    def fault(pid, addr):
        return fault_s.pack(ids[tf.FAULT], 0, 0, pid, addr, 0x401000, 6)
    pl = lambda key, pid, **v: tf.payload(ids[key], tf.EVENT_DEFS[key], pid, v)
    base = lambda p: 0x7f0000000000 + p * (1 << 30)
    cpus = [CpuWriter(os.path.join(work, "cpu%d.raw" % c)) for c in (0, 1)]
    ts = tf.T0
    n = 0
    pos = [0] * nproc
    prev = [0, 0]                                   # the pid each CPU runs

    def emit(cpu, data):
        nonlocal ts, n
        cpus[cpu].add(ts, data)
        ts += STEP_NS
        n += 1

    for p, pid in enumerate(pids):                  # each maps its region once
        emit(p % 2, pl(tf.MMAP_IN, pid, __syscall_nr=9, addr=base(p), len=MAP_LEN, prot=3, flags=0x32,
                       fd=(1 << 64) - 1))
        emit(p % 2, pl(tf.MMAP_OUT, pid, __syscall_nr=9, ret=base(p)))
    p = 0
    while n < total:
        pid, cpu = pids[p], p % 2
        emit(cpu, pl(tf.SWITCH, 0, **tf.sw("work", prev[cpu], "work", pid)))
        prev[cpu] = pid
        for i in range(PER_TURN):
            emit(cpu, fault(pid, base(p) + ((pos[p] + i) % PAGES) * 4096))
        pos[p] += PER_TURN
        if pos[p] % PAGES == 0:                     # the whole region touched: free it, map it again
            emit(cpu, pl(tf.MUNMAP, pid, __syscall_nr=11, addr=base(p), len=MAP_LEN))
            emit(cpu, pl(tf.MMAP_IN, pid, __syscall_nr=9, addr=base(p), len=MAP_LEN, prot=3, flags=0x32,
                         fd=(1 << 64) - 1))
            emit(cpu, pl(tf.MMAP_OUT, pid, __syscall_nr=9, ret=base(p)))
        p = (p + 1) % nproc
    for c in cpus:
        c.close()
    tf.run(["trace-cmd", "restore", "-i", "head.dat", "-o", out, "cpu0.raw", "cpu1.raw"], work)
    with open(out[:-4] + ".topology" if out.endswith(".dat") else out + ".topology", "w") as f:
        f.write("node 0 cpus 0-1 mem 17179869184\nswap 8589934592\nthp never\n")
    shutil.rmtree(work, ignore_errors=True)
    print("%s: %d events, %.1f s of trace" % (out, n, (ts - tf.T0) / 1e9))
    return 0


if __name__ == "__main__":
    sys.exit(main())
