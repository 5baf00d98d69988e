#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# report.browser: agewalk report's page in a real browser (headless
# Chromium).  For a corpus scenario with regions, a run with a finding and
# a replay with lost events: the page renders (--dump-dom gives the parsed
# document back), every chart has one series per variant and each series
# as many points as the JSON has passes on that node, the heatmaps one row
# per region, the findings one entry each, the lost passes shaded, and the
# browser logs no console error.  Then bad input: not JSON, truncated JSON,
# JSON of another shape or another version: one line, exit 2, no page and
# no temporary file left.
# usage: report_test.sh AGEWALK SRCDIR WORKDIR
set -u
aw=$1 src=$2 work=$3 py=/usr/bin/python3
rm -rf "$work" && mkdir -p "$work" || exit 1
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
browser() {	# browser PAGE: the DOM after parsing into PAGE.dom, console messages into PAGE.log
	chromium --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 \
		--dump-dom "file://$1" >"$1.dom" 2>"$1.log"
}

# the console check can see an error: a page whose script throws is caught
printf '<html><body><script>undefinedFunction()</script></body></html>\n' >"$work/throws.html"
browser "$work/throws.html"
grep -qE ':CONSOLE[:(]|Uncaught' "$work/throws.html.log" && ok ||
	bad "the browser's log shows no console error for a page that throws: the check is blind"

"$aw" run "$src/corpus/scenarios/s3-cold-pud.aws" --variants base,pud,emptymap,rfc --json >"$work/s3.json" 2>/dev/null
"$aw" run "$src/corpus/regressions/pud-late-region-hot-eviction.aws" --variants base,pud --keep-going --json \
	>"$work/finding.json" 2>/dev/null
jsons="s3 finding"
if command -v trace-cmd >/dev/null && "$py" "$src/tests/trace_fixture.py" "$work/fx" >/dev/null 2>&1; then
	"$aw" replay "$work/fx/fixture_lost.dat" --no-progress --json >"$work/lost.json" 2>/dev/null
	jsons="$jsons lost"
fi
for j in $jsons; do
	if "$aw" report "$work/$j.json" -o "$work/$j.html"; then ok; else bad "$j: agewalk report exit $?"; continue; fi
	browser "$work/$j.html"
	[ -s "$work/$j.html.dom" ] && grep -q '<figure class="chart"' "$work/$j.html.dom" && ok ||
		bad "$j: the browser gave no document back: $(tail -2 "$work/$j.html.log")"
	# the page has no script: any console message at all is an error
	if grep -qE ':CONSOLE[:(]|Uncaught' "$work/$j.html.log"; then
		bad "$j: console messages: $(grep -E ':CONSOLE[:(]|Uncaught' "$work/$j.html.log" | head -2)"
	else
		ok
	fi
	"$py" - "$work/$j.json" "$work/$j.html.dom" <<'PY' && ok || bad "$j: the rendered page does not match its JSON"
import json, sys
from html.parser import HTMLParser

run = json.load(open(sys.argv[1]))

class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.charts = []        # [node, metric, {variant: points declared, circles seen}]
        self.series = None
        self.heat = []          # (variant, metric, rects)
        self.findings = 0
        self.lost = 0
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = a.get("class", "")
        if tag == "figure" and cls == "chart":
            self.charts.append([int(a["data-node"]), a["data-metric"], {}])
        elif tag == "figure" and cls == "heatmap":
            self.heat.append([a["data-variant"], a["data-metric"], 0])
            self.charts.append(None)
        elif tag == "g" and cls == "series":
            self.series = a["data-variant"]
            self.charts[-1][2][self.series] = [int(a["data-points"]), 0]
        elif tag == "circle" and cls == "point":
            self.charts[-1][2][self.series][1] += 1
        elif tag == "rect" and self.heat and self.charts[-1] is None and cls == "":
            self.heat[-1][2] += 1
        elif tag == "rect" and cls == "lost":
            self.lost += 1
        elif tag == "div" and cls == "finding":
            self.findings += 1

p = Page()
p.feed(open(sys.argv[2]).read())
charts = [c for c in p.charts if c]
bad = []
names = [v["name"] for v in run["variants"]]
nodes_with_passes = [n for n in range(len(run["variants"][0]["nodes"])) if run["variants"][0]["nodes"][n]["per_pass"]]
if len(charts) != 7 * len(nodes_with_passes):
    bad.append("%d charts, %d expected" % (len(charts), 7 * len(nodes_with_passes)))
for node, metric, series in charts:
    if sorted(series) != sorted(names):
        bad.append("node %d %s: series %s" % (node, metric, sorted(series)))
    for v in run["variants"]:
        want = len(v["nodes"][node]["per_pass"])
        got = series.get(v["name"], [0, 0])
        if got != [want, want]:
            bad.append("node %d %s %s: %s points, %d passes" % (node, metric, v["name"], got, want))
for v in run["variants"]:
    cells = sum(len(r["per_pass"]) for r in v["regions"])
    for hv, metric, rects in p.heat:
        if hv == v["name"] and rects != cells:
            bad.append("%s %s heatmap: %d cells, %d region-passes" % (hv, metric, rects, cells))
if len(p.heat) != (2 * len(names) if run["variants"][0]["regions"] else 0):
    bad.append("%d heatmaps" % len(p.heat))
if p.findings != len(run["findings"]):
    bad.append("%d findings shown, %d in the JSON" % (p.findings, len(run["findings"])))
unreliable = sum(1 for n in run["variants"][0]["nodes"] for q in n["per_pass"] if q.get("unreliable"))
if p.lost != 7 * unreliable:
    bad.append("%d shaded bands, %d unreliable passes x 7 charts" % (p.lost, unreliable))
for b in bad:
    print("   ", b)
sys.exit(1 if bad else 0)
PY
done

# bad input: one line, exit 2, nothing written
printf 'not json\n' >"$work/bad1.json"
head -c 4000 "$work/s3.json" >"$work/bad2.json"
printf '{"a": 1}\n' >"$work/bad3.json"
"$py" -c 'import json, sys; d = json.load(open(sys.argv[1])); [n.pop("per_pass") for v in d["variants"] for n in v["nodes"]]; json.dump(d, open(sys.argv[2], "w"))' \
	"$work/s3.json" "$work/bad4.json"
for b in 1 2 3 4; do
	"$aw" report "$work/bad$b.json" -o "$work/bad$b.html" >"$work/bad.out" 2>&1
	rc=$?
	left=$(ls "$work" | grep -c "^bad$b\.html")
	[ "$rc" = 2 ] && [ "$(wc -l <"$work/bad.out")" = 1 ] && [ "$left" = 0 ] && ok ||
		bad "bad input $b: exit $rc, $(wc -l <"$work/bad.out") lines, $left pages: $(cat "$work/bad.out")"
done
"$aw" report "$work/s3.json" -o "$work/no/such/dir/r.html" >"$work/bad.out" 2>&1
rc=$?
[ "$rc" = 2 ] && [ "$(wc -l <"$work/bad.out")" = 1 ] && ok || bad "unwritable output: exit $rc: $(cat "$work/bad.out")"
echo "report.browser: $pass passed, $fail failed"
[ "$fail" = 0 ]
