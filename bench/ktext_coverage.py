# SPDX-License-Identifier: GPL-2.0-only
"""ktext_coverage.py TREE OUTDIR < gcov JSON: the tree's lines of one
generated kernel-text file (bench/ktext-coverage).

The generated file's #line directives name the tree's files by a relative
label (linux-6.12.118/mm/vmscan.c); the shim, the src/kapi headers and
the generated file itself have absolute paths.  Only the tree's lines
count: those are the extracted kernel text.  Writes OUTDIR/TREE.summary
and OUTDIR/TREE.unexecuted (file:line function, in file order) and
prints the summary line."""
import json
import os
import sys

tree, out = sys.argv[1], sys.argv[2]
lines = {}      # (file, line) -> [count, function, branches, branches taken]
for text in sys.stdin:
    text = text.strip()
    if not text:
        continue
    doc = json.loads(text)
    for f in doc.get("files", []):
        name = f["file"]
        if os.path.isabs(name):
            continue        # the shim, src/kapi, the generated file, system headers
        for ln in f.get("lines", []):
            key = (name, ln["line_number"])
            e = lines.setdefault(key, [0, ln.get("function_name", "?"), 0, 0])
            e[0] += ln["count"]
            br = ln.get("branches", [])
            e[2] = max(e[2], len(br))
            e[3] = max(e[3], sum(1 for b in br if b["count"] > 0))
total = len(lines)
run = sum(1 for e in lines.values() if e[0] > 0)
btotal = sum(e[2] for e in lines.values())
brun = sum(e[3] for e in lines.values())
funcs = {e[1] for e in lines.values()}
pct = lambda a, b: 100.0 * a / b if b else 0.0
summary = ("%s: lines %d/%d (%.1f%%), branches %d/%d (%.1f%%), %d functions, %d never executed"
           % (tree, run, total, pct(run, total), brun, btotal, pct(brun, btotal), len(funcs), total - run))
print(summary)
with open(os.path.join(out, tree + ".summary"), "w") as s:
    s.write(summary + "\n")
with open(os.path.join(out, tree + ".unexecuted"), "w") as u:
    for (name, line), e in sorted(lines.items()):
        if not e[0]:
            # the label's first component is the tree's (linux-6.12.118): drop it
            u.write("%s:%d %s\n" % (name.split("/", 1)[-1], line, e[1]))
