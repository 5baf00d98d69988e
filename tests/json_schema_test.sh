#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# json.schema: every --json report agewalk writes validates against
# docs/agewalk-run.schema.json (JSON Schema 2020-12, strict: a key the
# schema does not list fails, so the schema cannot fall behind the code):
# every corpus scenario and regression (MGLRU variants, and the khugepaged
# pair where they apply), reports with findings (the known reproducers, and
# a planted bug, a fuzz input), replays of the bundled recordings and of fixtures that
# exercise the optional parts (lost events, a window, a filter).
# usage: json_schema_test.sh AGEWALK SRCDIR WORKDIR
set -u
aw=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work" || exit 1
n=0
# each report goes to the next numbered file: next sets $f (not a subshell, so n counts)
next() { n=$((n + 1)); f=$work/$n.json; }
for s in "$src"/corpus/scenarios/*.aws "$src"/corpus/regressions/*.aws; do
	next; "$aw" run "$s" --variants base,pud,emptymap,rfc --keep-going --json >"$f" 2>/dev/null
	case $s in *khugepaged*|*/k[0-9]-*)
		next; "$aw" run "$s" --variants khugepaged-base,khugepaged-patched --keep-going --json >"$f" 2>/dev/null ;;
	esac
done
# a kernel-text pair, where the build has one: what the text executed (text_ran)
kt=$("$aw" --version | grep -o 'k6\.12 (6\.12, agrees with base)' || true)
if [ -n "$kt" ]; then
	next; "$aw" run "$src/corpus/ktext/dense-sparse.aws" --variants base,k6.12 --kernel 6.12 --json >"$f" 2>/dev/null
fi
next; "$aw" run "$src/corpus/scenarios/s3-cold-pud.aws" --variants base,rfc --bug pud-reset-wrong-seq --json >"$f" 2>/dev/null
# a fuzz input with its finding: a known reproducer in the fuzzer's own format, run as its target runs it
"$aw" convert "$src/corpus/regressions/pud-late-region-hot-eviction.aws" "$work/repro.fuzz" >/dev/null 2>&1
next; "$aw" run "$work/repro.fuzz" --from fuzz --keep-going --json >"$f" 2>/dev/null
for t in "$src"/traces/*.dat; do
	next; "$aw" replay "$t" --no-progress --json >"$f" 2>/dev/null
done
next; "$aw" replay "$src/traces/memhog.dat" --no-progress --json --start 1s --end 2s --comm memhog >"$f" 2>/dev/null
if command -v trace-cmd >/dev/null && /usr/bin/python3 "$src/tests/trace_fixture.py" "$work/fx" >/dev/null 2>&1; then
	next; "$aw" replay "$work/fx/fixture_lost.dat" --no-progress --json >"$f" 2>/dev/null
	next; "$aw" replay "$work/fx/fixture_walk.dat" --no-progress --json --variants base,pud,emptymap,rfc >"$f" 2>/dev/null
	next; "$aw" replay "$work/fx/fixture_kh.dat" --no-progress --json --variants khugepaged-base,khugepaged-patched >"$f" 2>/dev/null
fi
/usr/bin/python3 - "$src/docs/agewalk-run.schema.json" "$work" "$n" <<'PY'
import json, sys
from jsonschema import Draft202012Validator
schema = json.load(open(sys.argv[1]))
Draft202012Validator.check_schema(schema)
v = Draft202012Validator(schema)
bad = 0
seen = set()
for i in range(1, int(sys.argv[3]) + 1):
    path = "%s/%d.json" % (sys.argv[2], i)
    try:
        doc = json.load(open(path))
    except ValueError as e:
        print("FAIL: %s: not JSON: %s" % (path, e))
        bad += 1
        continue
    seen.update(k for k in doc)
    # a pass's evictions and refaults are its share of the node's: they cannot add up to more
    for var in doc.get("variants", []):
        for node in var.get("nodes", []):
            for key in ("evicted", "refaults"):
                if sum(p.get(key, 0) for p in node.get("per_pass", [])) > node.get(key, 0):
                    print("FAIL: %s: %s node %s: the passes' %s add up to more than the node's" %
                          (path, var.get("name"), node.get("node"), key))
                    bad += 1
    if doc.get("findings"):
        seen.add("findings (non-empty)")
    for err in v.iter_errors(doc):
        print("FAIL: %s (%s): %s at %s" % (path, doc.get("input"), err.message, "/".join(map(str, err.path))))
        bad += 1
        break
for part in ("trace", "recorded_khugepaged", "findings (non-empty)"):
    if part not in seen:
        print("FAIL: no report had %s: the schema's part for it went untested" % part)
        bad += 1
print("json.schema: %d reports, %d failed" % (int(sys.argv[3]), bad))
sys.exit(1 if bad else 0)
PY
