#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""ktext_seeds.py OUTDIR: seed inputs for agewalk_fuzz_ktext (fuzz_ktext.c's
program format: variant byte, machine byte, 4-byte records op a b c), one
set per variant slot 0-3.  Ops: 0 proc, 1 mmap, 2 access (a bit 7: write),
3 run, 4 age (b bit 7: force), 5 evict (retire empty generations),
6 munmap (c bit 7: to the region's end), 7 exit, 8 memcg move."""
import os
import sys

PROC, MMAP, ACCESS, RUN, AGE, EVICT, MUNMAP, EXIT, MOVE = range(9)


def rec(op, a=0, b=0, c=0):
    return bytes([op, a, b, c])


W = 0x80  # write / force

SEEDS = {
    # test_ktext's machine: a dense and a sparse PMD, forced then plain passes
    "dense-sparse": (0, [rec(PROC), rec(MMAP, 0, 1, 0), rec(ACCESS, W, 0, 63), rec(ACCESS, W, 14, 0),
                         rec(AGE, 0, W), rec(EVICT), rec(ACCESS, 0, 0, 9), rec(RUN), rec(AGE),
                         rec(AGE), rec(AGE, 0, W)]),
    # two nodes, a process on each, both nodes aged
    "two-nodes": (1, [rec(PROC, 0, 0), rec(PROC, 0, 1), rec(MMAP, 0, 0, 1), rec(MMAP, 1, 0, 2),
                      rec(ACCESS, W, 0, 40), rec(ACCESS, W | 1, 0, 40), rec(AGE, 0, W), rec(AGE, 1, W),
                      rec(ACCESS, 0, 0, 5), rec(RUN, 0), rec(AGE, 0), rec(AGE, 1)]),
    # THP always: a fault in an aligned, covered PMD maps a THP
    "thp": (2, [rec(PROC), rec(MMAP, 0, 1, 3), rec(ACCESS, W, 0, 0), rec(AGE, 0, W), rec(EVICT),
                rec(ACCESS, 0, 0, 0), rec(RUN), rec(AGE)]),
    # a file mapping read, two memcgs
    "file-memcg": (4, [rec(PROC, 0), rec(PROC, 1), rec(MMAP, 0, 0x10, 4), rec(MMAP, 1, 0, 5),
                       rec(ACCESS, 0, 0, 30), rec(ACCESS, W | 1, 0, 30), rec(AGE, 0, W), rec(AGE, 0, W | 1),
                       rec(EVICT, 0, 0), rec(EVICT, 0, 1), rec(ACCESS, 0, 0, 3), rec(RUN, 0), rec(AGE, 0, 0),
                       rec(AGE, 0, 1)]),
    # zero pages (anonymous reads), then a write over them
    "zero-cow": (0, [rec(PROC), rec(MMAP, 0, 2, 6), rec(ACCESS, 0, 0, 63), rec(AGE, 0, W), rec(EVICT),
                     rec(ACCESS, W, 0, 7), rec(RUN), rec(AGE)]),
    # munmap of part of a region and of all of another, an exit, a memcg move
    "munmap-exit": (4, [rec(PROC, 0), rec(PROC, 1), rec(MMAP, 0, 1, 7), rec(MMAP, 1, 0, 8),
                        rec(ACCESS, W, 0, 63), rec(ACCESS, W | 1, 0, 40), rec(AGE, 0, W), rec(AGE, 0, W | 1),
                        rec(MUNMAP, 0, 0, 20), rec(MUNMAP, 1, 0, 0x80), rec(EVICT, 0, 0), rec(ACCESS, 0, 0, 30),
                        rec(RUN, 0), rec(AGE, 0, 0), rec(MOVE, 0, 1), rec(ACCESS, W, 40, 20), rec(AGE, 0, W | 1),
                        rec(EXIT, 0), rec(AGE, 0, W)]),
}


def main(out):
    os.makedirs(out, exist_ok=True)
    for name, (machine, recs) in SEEDS.items():
        for variant in range(4):
            data = bytes([variant, machine]) + b"".join(recs)
            with open(os.path.join(out, f"{name}-{variant}.fuzz"), "wb") as f:
                f.write(data)


if __name__ == "__main__":
    main(sys.argv[1])
