#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""
Build synthetic trace.dat fixtures with hand-known content, at test time.

    trace_fixture.py OUTDIR

writes, in OUTDIR:

  fixture.dat, fixture.topology           the scripted workload (synthesized aging)
  fixture_walk.dat, fixture_walk.topology the same machine with vmscan:mm_vmscan_lru_gen_walk
                                          recorded (recorded-aging mode)
  fixture_lost.dat, fixture_lost.topology  the scripted workload with two ring-buffer overruns
                                          (pages flagged RB_MISSED_EVENTS, one with its count)
  fixture_mremap.dat, fixture_mremap.topology
                                          mremap(MREMAP_FIXED) then a fault in the new range
  fixture_kh.dat, fixture_kh.topology     khugepaged: huge_memory:* records of a "khugepaged" task in
                                          two wake-ups 10 s apart, mm_khugepaged_scan (patched kernel),
                                          MADV_COLLAPSE and its process-context records
  fixture_kh_old.dat, .topology           the pre-6.15 mm_khugepaged_scan_pmd layout (a "writable"
                                          field, pmd_null/pmd_none), a collapse event without status
  FIXTURE.events                          one line per event written, in time order
                                          ("ts cpu pid system:event"), for the test's counts

How: a fake tracing directory (events/<system>/<event>/format in the 6.x
kernel's words, events/header_page and events/header_event as a 64-bit
kernel prints them, an events/ftrace directory, saved_cmdlines, an empty
kallsyms) is turned into a partial trace.dat by `trace-cmd restore -c -t
DIR -k KALLSYMS`; per-CPU ring-buffer pages are then written by hand (4096-byte
pages: u64 timestamp, u64 commit, events with 32-bit type_len:5 /
time_delta:27 headers, TIME_EXTEND records for gaps of 2^27 ns or more) and
appended by `trace-cmd restore -i head.dat -o FIXTURE.dat cpu0.raw cpu1.raw`.

Python 3 standard library only. Needs trace-cmd (3.x) on PATH.
"""
import os
import shutil
import struct
import subprocess
import sys

PAGE_SIZE = 4096
PAGE_HDR = 16                       # u64 timestamp + u64 commit (local_t, 64-bit)
DATA_SIZE = PAGE_SIZE - PAGE_HDR    # 4080, as header_page says
TS_DELTA_BITS = 27
RB_MAX_SMALL_DATA = 28 * 4          # type_len 1..28 carry 4*type_len bytes
TYPE_TIME_EXTEND = 30

HEADER_PAGE = (
    "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
    "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
    "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
    "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n")

HEADER_EVENT = (
    "# compressed entry header\n"
    "\ttype_len    :    5 bits\n"
    "\ttime_delta  :   27 bits\n"
    "\tarray       :   32 bits\n"
    "\n"
    "\tpadding     : type == 29\n"
    "\ttime_extend : type == 30\n"
    "\ttime_stamp : type == 31\n"
    "\tdata max type_len  == 28\n")

COMMON = [
    ("unsigned short", "common_type", 0, 2, 0),
    ("unsigned char", "common_flags", 2, 1, 0),
    ("unsigned char", "common_preempt_count", 3, 1, 0),
    ("int", "common_pid", 4, 4, 1),
]


def syscall_fields(args):
    """A syscall entry/exit: int __syscall_nr at 8, then one 8-byte slot per argument."""
    fields = [("int", "__syscall_nr", 8, 4, 1)]
    off = 16
    for ctype, name, signed in args:
        fields.append((ctype, name, off, 8, signed))
        off += 8
    return fields


def sc_fmt(args):
    return ", ".join("%s: 0x%%08lx" % a[1] for a in args) + '", ' + \
        ", ".join("((unsigned long)(REC->%s))" % a[1] for a in args)


def sc_enter(name, nr, args):
    return (("syscalls", "sys_enter_" + name), dict(
        fields=syscall_fields(args), fmt='"' + sc_fmt(args), nr=nr))


def sc_exit(name, nr):
    return (("syscalls", "sys_exit_" + name), dict(
        fields=syscall_fields([("long", "ret", 1)]), fmt='"0x%lx", REC->ret', nr=nr))


UL = "unsigned long"

# (system, event) -> fields (ctype, name, offset, size, signed) after the common ones, print fmt.
# Field types, offsets and sizes as a 6.x x86_64 kernel prints them.
EVENT_DEFS = dict([
    (("exceptions", "page_fault_user"), dict(fields=[
        (UL, "address", 8, 8, 0), (UL, "ip", 16, 8, 0), (UL, "error_code", 24, 8, 0)],
        fmt='"address=%ps ip=%ps error_code=0x%lx", (void *)REC->address, (void *)REC->ip, '
            'REC->error_code')),
    sc_enter("mmap", 9, [(UL, "addr", 0), (UL, "len", 0), (UL, "prot", 0), (UL, "flags", 0),
                         (UL, "fd", 0), (UL, "off", 0)]),
    sc_exit("mmap", 9),
    sc_enter("munmap", 11, [(UL, "addr", 0), ("size_t", "len", 0)]),
    sc_enter("madvise", 28, [(UL, "start", 0), ("size_t", "len_in", 0), ("int", "behavior", 0)]),
    sc_enter("mprotect", 10, [(UL, "start", 0), ("size_t", "len", 0), (UL, "prot", 0)]),
    sc_enter("brk", 12, [(UL, "brk", 0)]),
    sc_exit("brk", 12),
    sc_enter("mremap", 25, [(UL, "addr", 0), (UL, "old_len", 0), (UL, "new_len", 0),
                            (UL, "flags", 0), (UL, "new_addr", 0)]),
    sc_enter("pread64", 17, [(UL, "fd", 0), (UL, "buf", 0), ("size_t", "count", 0), ("long", "pos", 1)]),
    sc_enter("pwrite64", 18, [(UL, "fd", 0), (UL, "buf", 0), ("size_t", "count", 0), ("long", "pos", 1)]),
    sc_enter("close", 3, [(UL, "fd", 0)]),
    sc_enter("prctl", 157, [("int", "option", 0), (UL, "arg2", 0), (UL, "arg3", 0),
                            (UL, "arg4", 0), (UL, "arg5", 0)]),
    (("task", "task_newtask"), dict(fields=[
        ("pid_t", "pid", 8, 4, 1), ("char", "comm[16]", 12, 16, 0), ("u64", "clone_flags", 32, 8, 0),
        ("short", "oom_score_adj", 40, 2, 1)],
        fmt='"pid=%d comm=%s clone_flags=%llx oom_score_adj=%hd", REC->pid, REC->comm, '
            'REC->clone_flags, REC->oom_score_adj')),
    (("sched", "sched_process_exec"), dict(fields=[
        ("__data_loc char[]", "filename", 8, 4, 0), ("pid_t", "pid", 12, 4, 1),
        ("pid_t", "old_pid", 16, 4, 1)],
        fmt='"filename=%s pid=%d old_pid=%d", __get_str(filename), REC->pid, REC->old_pid')),
    (("sched", "sched_process_exit"), dict(fields=[
        ("char", "comm[16]", 8, 16, 0), ("pid_t", "pid", 24, 4, 1), ("int", "prio", 28, 4, 1),
        ("bool", "group_dead", 32, 1, 0)],
        fmt='"comm=%s pid=%d prio=%d group_dead=%s", REC->comm, REC->pid, REC->prio, '
            'REC->group_dead ? "true" : "false"')),
    (("sched", "sched_switch"), dict(fields=[
        ("char", "prev_comm[16]", 8, 16, 0), ("pid_t", "prev_pid", 24, 4, 1),
        ("int", "prev_prio", 28, 4, 1), ("long", "prev_state", 32, 8, 1),
        ("char", "next_comm[16]", 40, 16, 0), ("pid_t", "next_pid", 56, 4, 1),
        ("int", "next_prio", 60, 4, 1)],
        fmt='"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d '
            'next_prio=%d", REC->prev_comm, REC->prev_pid, REC->prev_prio, '
            '(REC->prev_state & 0xff) ? "S" : "R", REC->next_comm, REC->next_pid, REC->next_prio')),
    (("sched", "sched_wakeup"), dict(fields=[
        ("char", "comm[16]", 8, 16, 0), ("pid_t", "pid", 24, 4, 1), ("int", "prio", 28, 4, 1),
        ("int", "target_cpu", 32, 4, 1)],
        fmt='"comm=%s pid=%d prio=%d target_cpu=%03d", REC->comm, REC->pid, REC->prio, '
            'REC->target_cpu')),
    (("migrate", "mm_migrate_pages"), dict(fields=[
        (UL, "succeeded", 8, 8, 0), (UL, "failed", 16, 8, 0), (UL, "thp_succeeded", 24, 8, 0),
        (UL, "thp_failed", 32, 8, 0), (UL, "thp_split", 40, 8, 0),
        (UL, "large_folio_split", 48, 8, 0), ("enum migrate_mode", "mode", 56, 4, 0),
        ("int", "reason", 60, 4, 1)],
        fmt='"nr_succeeded=%lu nr_failed=%lu nr_thp_succeeded=%lu nr_thp_failed=%lu '
            'nr_thp_split=%lu nr_split=%lu mode=%d reason=%d", REC->succeeded, REC->failed, '
            'REC->thp_succeeded, REC->thp_failed, REC->thp_split, REC->large_folio_split, '
            'REC->mode, REC->reason')),
    (("damon", "damon_aggregated"), dict(fields=[
        (UL, "target_id", 8, 8, 0), ("unsigned int", "nr_regions", 16, 4, 0),
        (UL, "start", 24, 8, 0), (UL, "end", 32, 8, 0), ("unsigned int", "nr_accesses", 40, 4, 0),
        ("unsigned int", "age", 44, 4, 0)],
        fmt='"target_id=%lu nr_regions=%u %lu-%lu: %u %u", REC->target_id, REC->nr_regions, '
            'REC->start, REC->end, REC->nr_accesses, REC->age')),
    (("vmscan", "mm_vmscan_lru_gen_walk"), dict(fields=[
        ("int", "nid", 8, 4, 1), (UL, "seq", 16, 8, 0), ("int", "leaf_total", 24, 4, 1),
        ("int", "leaf_associated", 28, 4, 1), ("bool", "empty", 32, 1, 0),
        ("int", "pud_skipped", 36, 4, 1)],
        fmt='"nid=%d seq=%lu leaf_total=%d leaf_associated=%d empty=%d pud_skipped=%d", '
            'REC->nid, REC->seq, REC->leaf_total, REC->leaf_associated, REC->empty, '
            'REC->pud_skipped')),
])

# SCAN_STATUS as __print_symbolic() prints it: (value, kernel string) pairs.
SCAN_STATUS_NEW = [  # >= 6.19 plus the patched kernel's page_lazyfree (the third seed's P4)
    "failed", "succeeded", "no_pte_table", "page_pmd_mapped", "exceed_none_pte", "exceed_swap_pte",
    "exceed_shared_pte", "pte_non_present", "pte_uffd_wp", "pte_mapped_hugepage",
    "lack_referenced_page", "page_null", "scan_aborted", "not_suitable_page_count",
    "page_not_in_lru", "page_locked", "page_not_anon", "page_lazyfree", "page_compound",
    "no_process_for_page", "vma_null", "vma_check_failed", "not_suitable_address_range",
    "could_not_delete_page_from_lru", "alloc_huge_page_failed"]
SCAN_STATUS_OLD = [  # 6.1 .. 6.14: pmd_null and pmd_none, page_ro
    "failed", "succeeded", "pmd_null", "pmd_none", "page_pmd_mapped", "exceed_none_pte",
    "exceed_swap_pte", "exceed_shared_pte", "pte_non_present", "pte_uffd_wp", "pte_mapped_hugepage",
    "page_ro", "lack_referenced_page"]


def symbolic(field, names):
    return "__print_symbolic(REC->%s, %s)" % (
        field, ", ".join('{%d, "%s"}' % (i, n) for i, n in enumerate(names)))


KH_DEFS = {
    ("huge_memory", "mm_khugepaged_scan_pmd"): dict(fields=[
        ("struct mm_struct *", "mm", 8, 8, 0), (UL, "pfn", 16, 8, 0), ("int", "referenced", 24, 4, 1),
        ("int", "none_or_zero", 28, 4, 1), ("int", "status", 32, 4, 1), ("int", "unmapped", 36, 4, 1)],
        fmt='"mm=%p, scan_pfn=0x%lx, referenced=%d, none_or_zero=%d, status=%s, unmapped=%d", '
            'REC->mm, REC->pfn, REC->referenced, REC->none_or_zero, ' +
            symbolic("status", SCAN_STATUS_NEW) + ', REC->unmapped'),
    ("huge_memory", "mm_collapse_huge_page"): dict(fields=[
        ("struct mm_struct *", "mm", 8, 8, 0), ("int", "isolated", 16, 4, 1), ("int", "status", 20, 4, 1)],
        fmt='"mm=%p, isolated=%d, status=%s", REC->mm, REC->isolated, ' +
            symbolic("status", SCAN_STATUS_NEW)),
    ("huge_memory", "mm_collapse_huge_page_swapin"): dict(fields=[
        ("struct mm_struct *", "mm", 8, 8, 0), ("int", "swapped_in", 16, 4, 1),
        ("int", "referenced", 20, 4, 1), ("int", "ret", 24, 4, 1)],
        fmt='"mm=%p, swapped_in=%d, referenced=%d, ret=%d", REC->mm, REC->swapped_in, '
            'REC->referenced, REC->ret'),
    ("huge_memory", "mm_khugepaged_scan"): dict(fields=[
        ("struct mm_struct *", "mm", 8, 8, 0), ("unsigned int", "progress", 16, 4, 0),
        ("bool", "full_scan_finished", 20, 1, 0)],
        fmt='"mm=%p, progress=%u, full_scan_finished=%d", REC->mm, REC->progress, '
            'REC->full_scan_finished'),
}
EVENT_DEFS.update(KH_DEFS)

# The older layouts: scan_pmd with "writable" (removed ~6.15), a collapse event without status.
KH_OLD_DEFS = {
    ("huge_memory", "mm_khugepaged_scan_pmd"): dict(fields=[
        ("struct mm_struct *", "mm", 8, 8, 0), (UL, "pfn", 16, 8, 0), ("bool", "writable", 24, 1, 0),
        ("int", "referenced", 28, 4, 1), ("int", "none_or_zero", 32, 4, 1), ("int", "status", 36, 4, 1),
        ("int", "unmapped", 40, 4, 1)],
        fmt='"mm=%p, scan_pfn=0x%lx, writable=%d, referenced=%d, none_or_zero=%d, status=%s, '
            'unmapped=%d", REC->mm, REC->pfn, REC->writable, REC->referenced, REC->none_or_zero, ' +
            symbolic("status", SCAN_STATUS_OLD) + ', REC->unmapped'),
    ("huge_memory", "mm_collapse_huge_page"): dict(fields=[
        ("struct mm_struct *", "mm", 8, 8, 0), ("int", "isolated", 16, 4, 1)],
        fmt='"mm=%p, isolated=%d", REC->mm, REC->isolated'),
}

FTRACE_PRINT = (
    "name: print\n"
    "ID: 5\n"
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
    "\n"
    "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
    "\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:0;\n"
    "\n"
    "print fmt: \"%ps: %s\", (void *)REC->ip, REC->buf\n")


def field_line(ctype, name, off, size, signed):
    return "\tfield:%s %s;\toffset:%d;\tsize:%d;\tsigned:%d;\n" % (ctype, name, off, size, signed)


def format_text(sysname, name, ev_id, d):
    s = "name: %s\nID: %d\nformat:\n" % (name, ev_id)
    for f in COMMON:
        s += field_line(*f)
    s += "\n"
    for f in d["fields"]:
        s += field_line(*f)
    s += "\nprint fmt: %s\n" % d["fmt"]
    return s


def fixed_size(d):
    end = max(off + size for _, _, off, size, _ in d["fields"])
    return (end + 7) & ~7           # the kernel's struct is 8-byte aligned


def payload(ev_id, d, pid, values):
    """The record payload: common header, then each field at its declared offset."""
    base = fixed_size(d)
    buf = bytearray(base)
    struct.pack_into("<HBBi", buf, 0, ev_id, 0, 0, pid)
    dyn = bytearray()
    for ctype, fname, off, size, signed in d["fields"]:
        name = fname.split("[")[0]
        v = values.get(name, 0)
        if ctype.startswith("__data_loc"):
            data = v.encode() + b"\0"
            struct.pack_into("<I", buf, off, (len(data) << 16) | (base + len(dyn)))
            dyn += data
        elif "[" in fname:
            raw = v.encode()[:size - 1] if isinstance(v, str) else bytes(v)
            buf[off:off + size] = raw.ljust(size, b"\0")
        else:
            code = {1: "b", 2: "h", 4: "i", 8: "q"}[size]
            if not signed:
                code = code.upper()
            if signed and v >= 1 << (8 * size - 1):
                v -= 1 << (8 * size)
            if not signed and v < 0:
                v += 1 << (8 * size)
            struct.pack_into("<" + code, buf, off, v)
    for k in values:
        if k not in [f[1].split("[")[0] for f in d["fields"]]:
            raise SystemExit("trace_fixture: %s has no field %s" % (d, k))
    return bytes(buf + dyn)


def rb_event(delta, data):
    """One ring-buffer data record: header word (+ length word if large), payload, padding."""
    assert 0 <= delta < 1 << TS_DELTA_BITS
    length = (len(data) + 3) & ~3
    data = data.ljust(length, b"\0")
    if length <= RB_MAX_SMALL_DATA:
        return struct.pack("<I", (delta << 5) | (length // 4)) + data
    # type_len 0: array[0] holds the length including itself
    return struct.pack("<II", delta << 5, length + 4) + data


def rb_time_extend(delta):
    return struct.pack("<II", ((delta & ((1 << TS_DELTA_BITS) - 1)) << 5) | TYPE_TIME_EXTEND,
                       delta >> TS_DELTA_BITS)


RB_MISSED_EVENTS = 1 << 31          # commit flags: events were lost before this page
RB_MISSED_STORED = 1 << 30          # ... and their count follows the page's data


def cpu_pages(records):
    """records: [(ts, payload bytes)] in time order -> raw per-CPU file contents.
    A record (ts, LostMark) ends the page: the next page says events were lost
    before it, with their count stored after its data (or no count: None)."""
    pages = []
    page_ts = None
    body = bytearray()
    last = None
    lost = [False, None]            # the page being filled follows lost events; how many

    def flush():
        if page_ts is not None:
            commit = len(body)
            tail = b""
            if lost[0]:
                commit |= RB_MISSED_EVENTS
                if lost[1] is not None:
                    commit |= RB_MISSED_STORED
                    tail = struct.pack("<Q", lost[1])
            page = struct.pack("<QQ", page_ts, commit) + bytes(body) + tail
            pages.append(page.ljust(PAGE_SIZE, b"\0"))
        lost[0], lost[1] = False, None

    for ts, data in records:
        if isinstance(data, LostMark):
            flush()
            page_ts, body = None, bytearray()
            lost[0], lost[1] = True, data.count
            continue
        rec = None
        if page_ts is not None:
            delta = ts - last
            assert delta >= 0, "records out of time order"
            rec = b""
            if delta >= 1 << TS_DELTA_BITS:
                rec += rb_time_extend(delta)
                delta = 0
            rec += rb_event(delta, data)
            if len(body) + len(rec) > DATA_SIZE - 8:    # room for a lost-events count
                flush()
                page_ts, body, rec = None, bytearray(), None
        if page_ts is None:
            page_ts = ts
            rec = rb_event(0, data)
        body += rec
        last = ts
    flush()
    return b"".join(pages)


class LostMark:
    """A ring-buffer overrun in a script: ((ts, cpu, 0, LOST, dict(count=N or None))."""
    def __init__(self, count):
        self.count = count


def run(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    if p.returncode != 0:
        sys.stderr.write("trace_fixture: %s failed (%d):\n%s" % (" ".join(cmd), p.returncode,
                                                                 p.stdout))
        sys.exit(1)


def write_head(work, events, defs, cmdlines):
    """The headers of a trace.dat in WORK/head.dat: a fake tracing directory (header pages, the
    events' formats, saved cmdlines, an empty kallsyms) through `trace-cmd restore -c`.
    events: the (system, event) pairs; cmdlines: {pid: comm}. Returns {(system, event): id}."""
    shutil.rmtree(work, ignore_errors=True)
    tdir = os.path.join(work, "tracing")
    os.makedirs(os.path.join(tdir, "events", "ftrace", "print"))
    with open(os.path.join(tdir, "events", "header_page"), "w") as f:
        f.write(HEADER_PAGE)
    with open(os.path.join(tdir, "events", "header_event"), "w") as f:
        f.write(HEADER_EVENT)
    with open(os.path.join(tdir, "events", "ftrace", "print", "format"), "w") as f:
        f.write(FTRACE_PRINT)
    ids = {}
    for i, key in enumerate(events):
        ids[key] = 300 + i
        d = os.path.join(tdir, "events", key[0], key[1])
        os.makedirs(d)
        with open(os.path.join(d, "format"), "w") as f:
            f.write(format_text(key[0], key[1], ids[key], defs[key]))
    with open(os.path.join(tdir, "saved_cmdlines"), "w") as f:
        f.write("".join("%d %s\n" % (pid, comm) for pid, comm in sorted(cmdlines.items())))
    open(os.path.join(tdir, "printk_formats"), "w").close()
    # an empty kallsyms: otherwise trace-cmd copies the host's /proc/kallsyms
    kallsyms = os.path.join(work, "kallsyms")
    open(kallsyms, "w").close()
    run(["trace-cmd", "restore", "-c", "-t", tdir, "-k", kallsyms, "-o", "head.dat"], work)
    return ids


def build(outdir, stem, events, cmdlines, script, topology, nr_cpus=2, defs_override=None):
    """events: the (system, event) pairs the fake kernel knows; script: [(ts, cpu, pid, (sys, ev), values)];
    defs: event definitions replacing EVENT_DEFS' (older layouts)."""
    defs = dict(EVENT_DEFS)
    defs.update(defs_override or {})
    work = os.path.join(outdir, stem + ".build")
    ids = write_head(work, events, defs, cmdlines)

    script = sorted(script, key=lambda e: e[0])
    assert len(set(e[0] for e in script)) == len(script), "timestamps must be distinct"
    per_cpu = [[] for _ in range(nr_cpus)]
    for ts, cpu, pid, key, values in script:
        if key == LOST:
            per_cpu[cpu].append((ts, LostMark(values["count"])))
        else:
            per_cpu[cpu].append((ts, payload(ids[key], defs[key], pid, values)))
    raws = []
    for cpu in range(nr_cpus):
        name = "cpu%d.raw" % cpu
        with open(os.path.join(work, name), "wb") as f:
            f.write(cpu_pages(per_cpu[cpu]))
        raws.append(name)
    out = os.path.abspath(os.path.join(outdir, stem + ".dat"))
    run(["trace-cmd", "restore", "-i", "head.dat", "-o", out] + raws, work)
    with open(os.path.join(outdir, stem + ".topology"), "w") as f:
        f.write(topology)
    with open(os.path.join(outdir, stem + ".events"), "w") as f:
        for ts, cpu, pid, key, values in script:
            if key != LOST:
                f.write("%d %d %d %s:%s\n" % (ts, cpu, pid, key[0], key[1]))
    return out


# ---- the scripted workloads ------------------------------------------------------

T0 = 5000 * 10**9                   # trace clock at the first event (nonzero, like a real clock)
US = 1000
MS = 1000 * US
TOPOLOGY = "node 0 cpus 0 mem 17179869184\nnode 1 cpus 1 mem 17179869184\nswap 8589934592\n"

FAULT = ("exceptions", "page_fault_user")
MMAP_IN = ("syscalls", "sys_enter_mmap")
MMAP_OUT = ("syscalls", "sys_exit_mmap")
MUNMAP = ("syscalls", "sys_enter_munmap")
MADVISE = ("syscalls", "sys_enter_madvise")
MPROTECT = ("syscalls", "sys_enter_mprotect")
BRK_IN = ("syscalls", "sys_enter_brk")
BRK_OUT = ("syscalls", "sys_exit_brk")
MREMAP = ("syscalls", "sys_enter_mremap")
PRCTL = ("syscalls", "sys_enter_prctl")
PREAD = ("syscalls", "sys_enter_pread64")
PWRITE = ("syscalls", "sys_enter_pwrite64")
CLOSE = ("syscalls", "sys_enter_close")
NEWTASK = ("task", "task_newtask")
EXEC = ("sched", "sched_process_exec")
EXIT = ("sched", "sched_process_exit")
SWITCH = ("sched", "sched_switch")
WAKEUP = ("sched", "sched_wakeup")
MIGRATE = ("migrate", "mm_migrate_pages")
WALK = ("vmscan", "mm_vmscan_lru_gen_walk")
DAMON = ("damon", "damon_aggregated")
LOST = ("-", "lost")                # not an event: a ring-buffer overrun (LostMark)

BASE_EVENTS = [FAULT, MMAP_IN, MMAP_OUT, MUNMAP, MADVISE, MPROTECT, BRK_IN, BRK_OUT, MREMAP,
               PRCTL, NEWTASK, EXEC, EXIT, SWITCH, WAKEUP, MIGRATE]
CMDLINES = {100: "work", 101: "work", 102: "ls"}


def sw(prev_comm, prev_pid, next_comm, next_pid):
    return dict(prev_comm=prev_comm, prev_pid=prev_pid, prev_prio=120, prev_state=0,
                next_comm=next_comm, next_pid=next_pid, next_prio=120)


def fault(addr, err):
    return dict(address=addr, ip=0x401000, error_code=err)


def anon_mapping(length):
    """Process 100 is switched in, maps length bytes of anonymous memory at
    0x7f0000000000 (mmap enter/exit) and writes its first page: how most
    fixtures begin."""
    return [
        (0, 0, 0, SWITCH, sw("swapper/0", 0, "work", 100)),
        (100, 0, 100, MMAP_IN, dict(__syscall_nr=9, addr=0, len=length, prot=3, flags=0x22,
                                   fd=(1 << 64) - 1, off=0)),
        (110, 0, 100, MMAP_OUT, dict(__syscall_nr=9, ret=0x7f0000000000)),
        (200, 0, 100, FAULT, fault(0x7f0000000000, 6)),
    ]


def main_script():
    """The main workload: times in microseconds after T0, (cpu, pid, event, fields)."""
    s = [
        *anon_mapping(8 << 20),
        (210, 0, 100, FAULT, fault(0x7f0000001234, 6)),
        (220, 0, 100, FAULT, fault(0x7f0000200000, 4)),
        (300, 0, 100, MADVISE, dict(__syscall_nr=28, start=0x7f0000000000, len_in=2 << 20,
                                   behavior=4)),
        (400, 0, 100, NEWTASK, dict(pid=101, comm="work", clone_flags=0x3d0f00, oom_score_adj=0)),
        (500, 0, 100, NEWTASK, dict(pid=102, comm="work", clone_flags=0x1200011, oom_score_adj=0)),
        (600, 1, 0, SWITCH, sw("swapper/1", 0, "work", 101)),
        (700, 1, 101, FAULT, fault(0x7f0000300000, 6)),
        (800, 0, 100, BRK_IN, dict(__syscall_nr=12, brk=0)),
        (810, 0, 100, BRK_OUT, dict(__syscall_nr=12, ret=0x555555800000)),
        (820, 0, 100, BRK_IN, dict(__syscall_nr=12, brk=0x555555a00000)),
        (830, 0, 100, BRK_OUT, dict(__syscall_nr=12, ret=0x555555a00000)),
        (900, 0, 100, MPROTECT, dict(__syscall_nr=10, start=0x7f0000600000, len=64 << 10, prot=1)),
        (1000, 0, 100, MUNMAP, dict(__syscall_nr=11, addr=0x7f0000400000, len=1 << 20)),
        (1100, 0, 100, MREMAP, dict(__syscall_nr=25, addr=0x7f0000600000, old_len=1 << 20,
                                   new_len=2 << 20, flags=3, new_addr=0x7f0001000000)),
        (1200, 0, 100, PRCTL, dict(__syscall_nr=157, option=41, arg2=1, arg3=0)),
        (1300, 1, 101, SWITCH, sw("work", 101, "work", 102)),
        (1400, 1, 102, EXEC, dict(filename="/bin/ls", pid=102, old_pid=102)),
        (1500, 1, 102, FAULT, fault(0x555555554100, 4)),
        (1600, 1, 102, EXIT, dict(comm="ls", pid=102, prio=120, group_dead=1)),
        (1700, 0, 100, MIGRATE, dict(succeeded=3, failed=0, mode=2, reason=5)),
        (1800, 1, 0, WAKEUP, dict(comm="work", pid=101, prio=120, target_cpu=1)),
        (1900, 1, 101, EXIT, dict(comm="work", pid=101, prio=120, group_dead=0)),
        # 700 ms later (a TIME_EXTEND record on CPU 0): the first synthesized pass fires
        (701900, 0, 100, FAULT, fault(0x7f0000002000, 6)),
        # 1.6 s after the first event: the 1000 ms and 1500 ms boundaries are both passed
        (1600000, 0, 100, FAULT, fault(0x7f0000003000, 4)),
    ]
    return [(T0 + t * US, cpu, pid, key, v) for t, cpu, pid, key, v in s]


def lost_script():
    """The main workload with two overruns: 37 events lost on CPU 0 before the fault at 701.9 ms
    (the first record of CPU 0 after 1.7 ms), an unknown number on CPU 1 before a fault at 1.2 s."""
    s = [(t, cpu, pid, key, v) for t, cpu, pid, key, v in main_script()]
    s.append((T0 + 701899 * US, 0, 0, LOST, dict(count=37)))
    s.append((T0 + 1199999 * US, 1, 0, LOST, dict(count=None)))
    s.append((T0 + 1200000 * US, 1, 101, FAULT, fault(0x7f0000004000, 4)))
    return s


def walk_script():
    """Recorded aging: walks for node 0 at seq 7, seq 8, and a repeat of seq 8 (one pass each seq)."""
    walk = lambda seq: dict(nid=0, seq=seq, leaf_total=12, leaf_associated=3, empty=0,
                            pud_skipped=0)
    s = [
        *anon_mapping(4 << 20),
        (300, 0, 0, WALK, walk(7)),
        (701000, 0, 100, FAULT, fault(0x7f0000001000, 6)),
        (702000, 0, 0, WALK, walk(8)),
        (703000, 1, 0, WALK, walk(8)),
        (1600000, 0, 100, FAULT, fault(0x7f0000002000, 4)),
    ]
    return [(T0 + t * US, cpu, pid, key, v) for t, cpu, pid, key, v in s]


def mremap_script():
    """mremap(MREMAP_MAYMOVE|MREMAP_FIXED) of a known mapping, then a fault in the new range."""
    s = [
        *anon_mapping(4 << 20),
        (300, 0, 100, MREMAP, dict(__syscall_nr=25, addr=0x7f0000000000, old_len=1 << 20,
                                  new_len=1 << 20, flags=3, new_addr=0x7f0001000000)),
        (400, 0, 100, FAULT, fault(0x7f0001000000, 4)),
    ]
    return [(T0 + t * US, cpu, pid, key, v) for t, cpu, pid, key, v in s]


def fdio_script():
    """A private file mapping of descriptor 3 (file offset 1 MiB, 4 MiB long), pread64 and
    pwrite64 of that descriptor inside and past it, a pread64 of a descriptor never mapped,
    close(3), and a pread64 of 3 again."""
    s = [
        (0, 0, 0, SWITCH, sw("swapper/0", 0, "work", 100)),
        (100, 0, 100, MMAP_IN, dict(__syscall_nr=9, addr=0, len=4 << 20, prot=1, flags=0x02,
                                   fd=3, off=1 << 20)),
        (110, 0, 100, MMAP_OUT, dict(__syscall_nr=9, ret=0x7f0000000000)),
        (200, 0, 100, PREAD, dict(__syscall_nr=17, fd=3, buf=0x1000, count=8192, pos=(1 << 20) + 4096)),
        (300, 0, 100, PWRITE, dict(__syscall_nr=18, fd=3, buf=0x1000, count=1 << 20, pos=(4 << 20) + 4096)),
        (400, 0, 100, PREAD, dict(__syscall_nr=17, fd=5, buf=0x1000, count=4096, pos=0)),
        (500, 0, 100, CLOSE, dict(__syscall_nr=3, fd=3)),
        (600, 0, 100, PREAD, dict(__syscall_nr=17, fd=3, buf=0x1000, count=4096, pos=1 << 20)),
    ]
    return [(T0 + t * US, cpu, pid, key, v) for t, cpu, pid, key, v in s]


def damon_script():
    """DAMON reports the first 2 MiB of a mapping accessed (5 samples) and the next 2 MiB idle."""
    agg = lambda start, end, n: dict(target_id=0, nr_regions=2, start=start, end=end,
                                     nr_accesses=n, age=3)
    s = [
        *anon_mapping(4 << 20),
        (210, 0, 100, FAULT, fault(0x7f0000300000, 6)),
        (400000, 1, 0, DAMON, agg(0x7f0000000000, 0x7f0000200000, 5)),
        (400001, 1, 0, DAMON, agg(0x7f0000200000, 0x7f0000400000, 0)),
        (600000, 0, 100, FAULT, fault(0x7f0000001000, 4)),
    ]
    return [(T0 + t * US, cpu, pid, key, v) for t, cpu, pid, key, v in s]


KH_SCAN_PMD = ("huge_memory", "mm_khugepaged_scan_pmd")
KH_COLLAPSE = ("huge_memory", "mm_collapse_huge_page")
KH_SWAPIN = ("huge_memory", "mm_collapse_huge_page_swapin")
KH_SCAN = ("huge_memory", "mm_khugepaged_scan")
KH_PID = 38
KH_CMDLINES = dict(CMDLINES)
KH_CMDLINES[KH_PID] = "khugepaged"
# one node, both CPUs; the khugepaged knobs traces/record saves (the model has pages_to_scan)
KH_TOPOLOGY = ("node 0 cpus 0-1 mem 17179869184\nswap 8589934592\nkhugepaged pages_to_scan 1024\n"
               "khugepaged scan_sleep_millisecs 10000\n")
MM = 0xffff888100000000


def scan_pmd(status, **kw):
    return dict(dict(mm=MM, pfn=0x1000, referenced=0, none_or_zero=0, status=status, unmapped=0), **kw)


def kh_script():
    """khugepaged: two wake-ups 10 s apart, plus MADV_COLLAPSE in process context."""
    s = [
        *anon_mapping(4 << 20),
        # MADV_COLLAPSE (25) and what the kernel records for it, in the caller's context
        (300, 0, 100, MADVISE, dict(__syscall_nr=28, start=0x7f0000200000, len_in=2 << 20,
                                   behavior=25)),
        (310, 0, 100, KH_SCAN_PMD, scan_pmd(1)),
        (320, 0, 100, KH_COLLAPSE, dict(mm=MM, isolated=1, status=1)),
        # wake-up 1 at 1 s
        (1000000, 1, KH_PID, KH_SCAN_PMD, scan_pmd(3)),
        (1000010, 1, KH_PID, KH_SCAN_PMD, scan_pmd(1, referenced=512)),
        (1000020, 1, KH_PID, KH_COLLAPSE, dict(mm=MM, isolated=1, status=1)),
        (1000030, 1, KH_PID, KH_SCAN, dict(mm=MM, progress=515, full_scan_finished=0)),
        # wake-up 2, 10 s later (scan_sleep_millisecs); a status the table lacks (99)
        (11000000, 1, KH_PID, KH_SCAN_PMD, scan_pmd(2, pfn=(1 << 64) - 1)),
        (11000100, 1, KH_PID, KH_SCAN_PMD, scan_pmd(99)),
        (11000200, 1, KH_PID, KH_SWAPIN, dict(mm=MM, swapped_in=3, referenced=0, ret=1)),
        (11000300, 1, KH_PID, KH_COLLAPSE, dict(mm=MM, isolated=0, status=24)),
        # 0.5 s later: still wake-up 2 (the default gap is 1 s)
        (11500000, 1, KH_PID, KH_SCAN_PMD, scan_pmd(4, none_or_zero=300)),
        (11500100, 1, KH_PID, KH_SCAN, dict(mm=MM, progress=2, full_scan_finished=1)),
        (11600000, 0, 100, FAULT, fault(0x7f0000001000, 4)),
    ]
    return [(T0 + t * US, cpu, pid, key, v) for t, cpu, pid, key, v in s]


def kh_old_script():
    """The older layouts: writable, pmd_null (2) / page_pmd_mapped (4), a status-less collapse."""
    old = lambda status: dict(mm=MM, pfn=0x1000, writable=1, referenced=0, none_or_zero=0,
                              status=status, unmapped=0)
    s = [
        (0, 0, 0, SWITCH, sw("swapper/0", 0, "work", 100)),
        (1000, 1, KH_PID, KH_SCAN_PMD, old(2)),
        (1010, 1, KH_PID, KH_SCAN_PMD, old(4)),
        (1020, 1, KH_PID, KH_COLLAPSE, dict(mm=MM, isolated=1)),
        (200000, 0, 100, FAULT, fault(0x7f0000000000, 6)),
    ]
    return [(T0 + t * US, cpu, pid, key, v) for t, cpu, pid, key, v in s]


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: trace_fixture.py OUTDIR\n")
        return 2
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    build(outdir, "fixture", BASE_EVENTS, CMDLINES, main_script(), TOPOLOGY)
    build(outdir, "fixture_walk", BASE_EVENTS + [WALK], CMDLINES, walk_script(), TOPOLOGY)
    build(outdir, "fixture_lost", BASE_EVENTS, CMDLINES, lost_script(), TOPOLOGY)
    build(outdir, "fixture_mremap", BASE_EVENTS, CMDLINES, mremap_script(), TOPOLOGY)
    build(outdir, "fixture_damon", BASE_EVENTS + [DAMON], CMDLINES, damon_script(), TOPOLOGY)
    build(outdir, "fixture_fdio", BASE_EVENTS + [PREAD, PWRITE, CLOSE], CMDLINES, fdio_script(), TOPOLOGY)
    with open(os.path.join(outdir, "fixture_damon.damon_targets"), "w") as f:
        f.write("0 100\n")   # DAMON target 0 is pid 100
    build(outdir, "fixture_kh", BASE_EVENTS + [KH_SCAN_PMD, KH_COLLAPSE, KH_SWAPIN, KH_SCAN],
          KH_CMDLINES, kh_script(), KH_TOPOLOGY)
    build(outdir, "fixture_kh_old", BASE_EVENTS + [KH_SCAN_PMD, KH_COLLAPSE], KH_CMDLINES,
          kh_old_script(), KH_TOPOLOGY, defs_override=KH_OLD_DEFS)
    return 0


if __name__ == "__main__":
    sys.exit(main())
