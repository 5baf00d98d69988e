#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""ktext_tarball.py TARBALL DESTDIR MEMBER...

Copy a few files out of a kernel source .tar.xz (MEMBER is a path below
the tarball's top directory, e.g. mm/vmscan.c) to DESTDIR/MEMBER, fast.

Why not `tar -xJf TARBALL MEMBER`: tar has to decompress the stream up to
the member, and Debian's linux-source-6.12 puts mm/ 1.3 GiB into a 1.5 GiB
stream, 15-35 s on a shared 2-core machine.  But xz compresses in
independent blocks (24 MiB each in that tarball; `xz -lvv` lists them),
and Debian's tar is sorted by path.  So a binary search over the blocks,
decompressing only the first few KiB of each probed block to read the
name of the first tar header in it, finds the block holding a member, and
only that block (and the next, if the member runs over) is decompressed
in full.  About 3 s instead of 15-35.

When the shortcut does not hold (a tarball that is not sorted, a single
xz block, no xz on PATH), the member is not found where the search says;
the script then falls back to one sequential pass, which is slow but
right.  Exit status: 0 all members written, 1 a member is not in the
tarball, 2 the tarball is unreadable.
"""
import io
import lzma
import os
import subprocess
import sys
import tarfile

HEADER = 512            # tar's record size: every header starts on one
PROBE = 64 * 1024       # output decompressed to find a block's first header


def die(msg, code):
    print(f"ktext_tarball: {msg}", file=sys.stderr)
    sys.exit(code)


def key(name):
    """Sort key of Debian's tarball: the path as bytes, no trailing slash."""
    return name.rstrip("/").encode("utf-8", "surrogateescape")


def xz_blocks(path):
    """The xz index as [(stream_offset, comp_offset, total_size, uncomp_offset)].

    Read through `xz --robot -lvv` rather than by parsing the index here:
    the fields are documented ("Robot mode" in xz(1)) and the same xz is
    what tar -J would run."""
    try:
        out = subprocess.run(["xz", "--robot", "-lvv", path], capture_output=True,
                             text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return []
    streams, blocks = {}, []
    for line in out.splitlines():
        f = line.split("\t")
        if f[0] == "stream":
            streams[f[1]] = int(f[3])
        elif f[0] == "block":
            blocks.append((streams[f[1]], int(f[4]), int(f[6]), int(f[5])))
    return blocks


class BlockStream(io.RawIOBase):
    """The tar stream from uncompressed offset START on, decompressing
    block after block; only what is read gets decompressed."""

    def __init__(self, fh, blocks, index, start):
        self.fh, self.blocks, self.index = fh, blocks, index
        self.skip = start - blocks[index][3]
        self.buf, self.dec = b"", None
        self.open_block(index)

    def open_block(self, index):
        stream_off, comp_off, size, _ = self.blocks[index]
        self.fh.seek(stream_off)
        header = self.fh.read(12)         # the stream header: magic and check type
        self.fh.seek(comp_off)
        self.pending = header + self.fh.read(size)
        self.dec = lzma.LZMADecompressor(format=lzma.FORMAT_XZ)

    def more(self, want):
        while True:
            if self.dec.needs_input and self.pending == b"":
                # the block is done (the decompressor now waits for the
                # index, which we never give it): go on with the next
                if self.index + 1 >= len(self.blocks):
                    return b""
                self.index += 1
                self.open_block(self.index)
            data = self.dec.decompress(self.pending, max_length=max(want, HEADER))
            self.pending = b""
            if data:
                return data

    def readinto(self, b):
        while len(self.buf) < len(b):
            data = self.more(len(b) + self.skip)
            if not data:
                break
            if self.skip:
                cut = min(self.skip, len(data))
                data, self.skip = data[cut:], self.skip - cut
            self.buf += data
        n = min(len(b), len(self.buf))
        b[:n], self.buf = self.buf[:n], self.buf[n:]
        return n

    def readable(self):
        return True


def first_member(fh, blocks, index):
    """(offset, name) of the first tar header that starts inside block
    INDEX, or None if a file's contents fill the whole probed prefix."""
    _, _, _, base = blocks[index]
    raw = BlockStream(fh, blocks, index, base).read(PROBE)
    for off in range(-base % HEADER, len(raw) - HEADER + 1, HEADER):
        rec = raw[off:off + HEADER]
        if rec[257:262] != b"ustar":
            continue
        try:
            tarfile.TarInfo.frombuf(rec, "utf-8", "surrogateescape")
        except tarfile.HeaderError:
            continue                       # file contents that look like "ustar"
        # let tarfile read it, so a GNU long name or a pax path is honoured
        tar = tarfile.open(fileobj=BlockStream(fh, blocks, index, base + off), mode="r|")
        member = tar.next()
        if member is not None:
            return base + off, member.name
    return None


def locate(fh, blocks, target, probes):
    """Uncompressed offset of the first tar header of the last block whose
    first member sorts at or before TARGET: scanning from there reaches
    TARGET if the tarball is sorted."""
    def probe(i):
        if i not in probes:
            probes[i] = first_member(fh, blocks, i)
        return probes[i]

    # blocks with no header start (inside one big file) give no start
    # point; they go with the nearest block on their left that has one
    lo, hi = 0, len(blocks) - 1           # block 0 starts with the top directory
    while lo < hi:
        mid = (lo + hi + 1) // 2
        j = mid
        while j > lo and probe(j) is None:
            j -= 1
        if j == lo or key(probe(j)[1]) <= key(target):
            lo = mid
        else:
            hi = j - 1
    while probe(lo) is None:
        lo -= 1
    return probe(lo)[0]


def scan(tar, wanted, dest, top, upto):
    """Write the wanted members TAR yields, until it passes the path UPTO
    (None: to the end, the tarball may not be sorted)."""
    for member in tar:
        rel = member.name[len(top):] if member.name.startswith(top) else None
        if rel in wanted and member.isfile():
            path = os.path.join(dest, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with tar.extractfile(member) as src, open(path, "wb") as out:
                out.write(src.read())
            wanted.discard(rel)
        if not wanted or (upto and key(member.name) >= key(upto)):
            break


def main(argv):
    if len(argv) < 4:
        die("usage: ktext_tarball.py TARBALL DESTDIR MEMBER...", 2)
    tarball, dest, members = argv[1], argv[2], set(argv[3:])
    try:
        fh = open(tarball, "rb")
        blocks = xz_blocks(tarball)
        probes = {}
        if len(blocks) > 1:
            first = first_member(fh, blocks, 0)
            if first is None:
                die(f"{tarball}: no tar header at the start", 2)
            top = first[1].split("/")[0] + "/"
            probes[0] = first
            # members found from the same start point share one scan
            starts = {}
            for m in sorted(members, key=lambda m: key(top + m)):
                starts.setdefault(locate(fh, blocks, top + m, probes), []).append(m)
            for start, group in sorted(starts.items()):
                index = max(i for i, b in enumerate(blocks) if b[3] <= start)
                tar = tarfile.open(fileobj=BlockStream(fh, blocks, index, start), mode="r|")
                scan(tar, members, dest, top, top + group[-1])
        if members:
            # the slow, sure way: one pass over the whole stream
            with tarfile.open(tarball, "r|*") as tar:
                top = tar.next().name.split("/")[0] + "/"
                scan(tar, members, dest, top, None)
    except (OSError, EOFError, lzma.LZMAError, tarfile.TarError) as e:
        die(f"{tarball}: unreadable ({e})", 2)
    if members:
        die(f"{tarball}: no {', '.join(sorted(members))}", 1)


if __name__ == "__main__":
    main(sys.argv)
