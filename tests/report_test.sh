#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# report.browser: agewalk report's page in a real browser (headless
# Chromium).  For a corpus scenario with regions, a run with a finding and
# a replay with lost events: the page renders (--dump-dom gives the parsed
# document back), every chart has one series per variant and each series
# as many points as the JSON has passes on that node, the heatmaps one row
# per region, the findings one entry each, the lost passes shaded, and the
# browser logs no console error.  Series that coincide (s3-cold-pud's four
# variants: base = emptymap and pud = rfc on most figures): a probe script
# in a copy of the page asks the browser, for every series of every chart,
# for its line's length and style and which element is on top at points
# along and beside it: every series has pixels of its own line on top,
# coinciding series differ in dashes and width, and the text under the
# chart names exactly the groups the JSON has.  The difference charts:
# one per figure where a variant differs from base, one series per other
# variant, each point's value and height variant minus base from the JSON,
# the other figures named, and a page without base says so.  Pages made
# wrong on purpose (series drawn alike, the note gone, a difference off by
# one) must fail that check.  Then bad input: not JSON, truncated JSON,
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
# probe PAGE: a copy of PAGE (which has no script) with probe.js before </body>,
# its findings in the DOM as <pre id="aw-probe">JSON</pre>, into PAGE.probe.dom
probe() {
	sed 's|</body>|<script src="probe.js"></script></body>|' "$1" >"$1.probe.html"
	chromium --headless --no-sandbox --disable-gpu --window-size=1000,800 --enable-logging=stderr --v=0 \
		--dump-dom "file://$1.probe.html" >"$1.probe.dom" 2>"$1.probe.log"
}
cat >"$work/probe.js" <<'JS'
// For every chart and series: the line's length, extent, style, and how
// many points on it and beside it (within its stroke) have that very
// line on top: elementFromPoint is the browser's own answer to "what is
// drawn there", after every later series has been painted over it.
(function () {
	const out = [];
	for (const fig of document.querySelectorAll("figure.chart, figure.diffchart")) {
		fig.scrollIntoView();
		const note = fig.querySelector("p.coincide");
		const c = { kind: fig.className, node: +fig.dataset.node, metric: fig.dataset.metric,
			    lo: +fig.dataset.lo, hi: +fig.dataset.hi, note: note ? note.textContent : null,
			    coincide: note ? note.dataset.coincide : "", zero: note ? note.dataset.zero : "", series: [] };
		for (const g of fig.querySelectorAll("g.series")) {
			const line = g.querySelector("polyline"), s = { variant: g.dataset.variant, line: !!line, points: [] };
			for (const p of g.querySelectorAll("circle.point"))
				s.points.push([+p.dataset.pass, +p.dataset.value, +p.getAttribute("cy")]);
			if (line) {
				const cs = getComputedStyle(line), r = line.getBoundingClientRect(), m = line.getScreenCTM();
				s.length = line.getTotalLength();
				s.extent = r.width + r.height;
				s.dash = cs.strokeDasharray;
				s.width = parseFloat(cs.strokeWidth);
				s.shown = cs.display !== "none" && cs.visibility === "visible" && +cs.opacity > 0 &&
					  +cs.strokeOpacity > 0 && cs.stroke !== "none" && s.width > 0;
				s.hits = 0;
				for (let i = 0; i <= 120 && s.length > 0; i++) {
					const l = s.length * i / 120, q = line.getPointAtLength(l),
					      a = line.getPointAtLength(Math.max(0, l - 0.5)),
					      b = line.getPointAtLength(Math.min(s.length, l + 0.5));
					const n = Math.hypot(b.x - a.x, b.y - a.y) || 1, nx = (a.y - b.y) / n, ny = (b.x - a.x) / n;
					for (const d of [0, s.width / 2 - 0.35, 0.35 - s.width / 2]) {
						const pt = new DOMPoint(q.x + nx * d, q.y + ny * d).matrixTransform(m);
						if (document.elementFromPoint(pt.x, pt.y) === line)
							s.hits++;
					}
				}
			}
			c.series.push(s);
		}
		out.push(c);
	}
	const nodiff = [...document.querySelectorAll("p.nodiff")].map(p => p.textContent),
	      same = [...document.querySelectorAll("p.samefigs")].map(p => p.dataset.metrics);
	const pre = document.createElement("pre");
	pre.id = "aw-probe";
	pre.textContent = JSON.stringify({ charts: out, nodiff: nodiff, same: same });
	document.body.appendChild(pre);
})();
JS
# probe_check RUN.json PAGE: the probe's answers against the JSON (see the top)
probe_check() {
	"$py" - "$1" "$2.probe.dom" <<'PY'
import html, json, re, sys

run = json.load(open(sys.argv[1]))
dom = open(sys.argv[2]).read()
m = re.search(r'<pre id="aw-probe">(.*?)</pre>', dom, re.S)
if not m:
    print("    the probe left no answer")
    sys.exit(1)
got = json.loads(html.unescape(m.group(1)))
bad = []
vs = run["variants"]
names = [v["name"] for v in vs]
base = next((v for v in vs if v["name"] == "base"), None)
figs = ["leaf_total", "young", "pmd_entries_read", "pud_skipped", "walks", "evicted", "refaults"]

def values(v, node, key):
    return [q[key] for q in v["nodes"][node]["per_pass"]]

def groups(series):     # [(name, values)] -> the groups of 2+ equal, in order
    out = []
    for name, val in series:
        for g in out:
            if g[0][1] == val:
                g.append((name, val))
                break
        else:
            out.append([(name, val)])
    return [[n for n, _ in g] for g in out if len(g) > 1]

def ypos(y, lo, hi):    # report_html.c's CH - MB - (CH - MT - MB) * (y - lo) / (hi - lo)
    return 200 - 28 - (200 - 10 - 28) * (y - lo) / (hi - lo)

def visible(where, s, below):
    if not s["line"]:
        bad.append("%s %s: no line" % (where, s["variant"]))
        return
    if not (s["length"] > 0 and s["extent"] > 0 and s["shown"]):
        bad.append("%s %s: not rendered (length %.1f, extent %.1f, shown %s)" %
                   (where, s["variant"], s["length"], s["extent"], s["shown"]))
    if s["hits"] == 0:
        bad.append("%s %s: hidden: no point of its line is on top (under %s)" % (where, s["variant"], below))

nodes = [n for n in range(len(vs[0]["nodes"])) if vs[0]["nodes"][n]["per_pass"]]
charts = [c for c in got["charts"] if c["kind"] == "chart"]
diffs = [c for c in got["charts"] if c["kind"] == "diffchart"]
for c in charts:
    where = "node %d %s" % (c["node"], c["metric"])
    want = groups([(v["name"], values(v, c["node"], c["metric"])) for v in vs])
    ser = {s["variant"]: s for s in c["series"]}
    for s in c["series"]:
        visible(where, s, "the later series")
    for g in want:
        if c["note"] is None or " = ".join(g) not in c["note"] or c["coincide"].split().count("=".join(g)) != 1:
            bad.append("%s: %s coincide, the chart says %r" % (where, " = ".join(g), c["note"]))
        for i, a in enumerate(g):
            for b in g[i + 1:]:
                if a in ser and b in ser and ser[a]["dash"] == ser[b]["dash"]:
                    bad.append("%s: %s and %s coincide and have the same dashes %s" % (where, a, b, ser[a]["dash"]))
                if a in ser and b in ser and not ser[a]["width"] > ser[b]["width"]:
                    bad.append("%s: %s is drawn under %s but not wider (%s, %s)" %
                               (where, a, b, ser[a]["width"], ser[b]["width"]))
    if not want and c["note"] is not None:
        bad.append("%s: nothing coincides, the chart says %r" % (where, c["note"]))
if base is None:
    if diffs or not any("base is not among the variants" in t for t in got["nodiff"]):
        bad.append("no base: %d difference charts, notes %s" % (len(diffs), got["nodiff"]))
else:
    others = [v for v in vs if v is not base]
    for node in nodes:
        drawn = []
        for key in figs:
            d = [(v["name"], [a - b for a, b in zip(values(v, node, key), values(base, node, key))]) for v in others]
            differ = any(any(x) for _, x in d) or any(len(values(v, node, key)) != len(values(base, node, key))
                                                      for v in others)
            c = [c for c in diffs if c["node"] == node and c["metric"] == key]
            where = "node %d %s - base" % (node, key)
            if len(c) != (1 if differ else 0):
                bad.append("%s: %d difference charts, %d expected" % (where, len(c), 1 if differ else 0))
                continue
            if not differ:
                continue
            drawn.append(key)
            c = c[0]
            if [s["variant"] for s in c["series"]] != [n for n, _ in d]:
                bad.append("%s: series %s, want %s" % (where, [s["variant"] for s in c["series"]], [n for n, _ in d]))
            for (name, want), s in zip(d, c["series"]):
                visible(where, s, "the later series")
                pts = s["points"]
                if [p[1] for p in pts] != want:
                    bad.append("%s %s: points %s, variant - base %s" % (where, name, [p[1] for p in pts], want))
                if [p[0] for p in pts] != [q["pass"] for q in base["nodes"][node]["per_pass"]][:len(want)]:
                    bad.append("%s %s: passes %s" % (where, name, [p[0] for p in pts]))
                off = [p for p in pts if abs(p[2] - ypos(p[1], c["lo"], c["hi"])) > 0.06]
                if off or c["lo"] > min(want + [0]) or c["hi"] < max(want + [0]):
                    bad.append("%s %s: drawn at the wrong height: %s (axis %s..%s)" % (where, name, off, c["lo"], c["hi"]))
            for g in groups(d):
                if any(g) and not all(x == 0 for x in dict(d)[g[0]]) and \
                        (c["note"] is None or " = ".join(g) not in c["note"]):
                    bad.append("%s: %s coincide, the chart says %r" % (where, " = ".join(g), c["note"]))
            zero = [n for n, x in d if not any(x)]
            if sorted(c["zero"].split()) != sorted(zero):
                bad.append("%s: equal to base %s, the chart says %r" % (where, zero, c["zero"]))
        rest = " ".join(k for k in figs if k not in drawn)
        if rest and rest not in got["same"]:
            bad.append("node %d: figures equal to base %r not named (%s)" % (node, rest, got["same"]))
for b in bad[:20]:
    print("   ", b)
sys.exit(1 if bad else 0)
PY
}

# the console check can see an error: a page whose script throws is caught
printf '<html><body><script>undefinedFunction()</script></body></html>\n' >"$work/throws.html"
browser "$work/throws.html"
grep -qE ':CONSOLE[:(]|Uncaught' "$work/throws.html.log" && ok ||
	bad "the browser's log shows no console error for a page that throws: the check is blind"

"$aw" run "$src/corpus/scenarios/s3-cold-pud.aws" --variants base,pud,emptymap,rfc --json >"$work/s3.json" 2>/dev/null
"$aw" run "$src/corpus/regressions/pud-late-region-hot-eviction.aws" --variants base,pud --keep-going --json \
	>"$work/finding.json" 2>/dev/null
# the same run without base: no difference chart, and the page says why
"$py" -c 'import json, sys; d = json.load(open(sys.argv[1])); d["variants"] = [v for v in d["variants"] if v["name"] != "base"]; json.dump(d, open(sys.argv[2], "w"))' \
	"$work/s3.json" "$work/nobase.json"
jsons="s3 nobase finding"
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
        self.diffs = []         # the same for the difference charts
        self.target = None      # the series of the figure being read
        self.series = None
        self.heat = []          # (variant, metric, rects)
        self.findings = 0
        self.lost = 0
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = a.get("class", "")
        if tag == "figure" and cls in ("chart", "diffchart"):
            (self.charts if cls == "chart" else self.diffs).append([int(a["data-node"]), a["data-metric"], {}])
            self.target = (self.charts if cls == "chart" else self.diffs)[-1][2]
        elif tag == "figure" and cls == "heatmap":
            self.heat.append([a["data-variant"], a["data-metric"], 0])
            self.charts.append(None)
        elif tag == "g" and cls == "series":
            self.series = a["data-variant"]
            self.target[self.series] = [int(a["data-points"]), 0]
        elif tag == "circle" and cls == "point":
            self.target[self.series][1] += 1
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
unreliable = [sum(1 for q in n["per_pass"] if q.get("unreliable")) for n in run["variants"][0]["nodes"]]
bands = sum(u * (7 + sum(1 for d in p.diffs if d[0] == n)) for n, u in enumerate(unreliable))
if p.lost != bands:
    bad.append("%d shaded bands, %d unreliable passes x (7 charts + the difference charts)" % (p.lost, sum(unreliable)))
for b in bad:
    print("   ", b)
sys.exit(1 if bad else 0)
PY
	probe "$work/$j.html"
	probe_check "$work/$j.json" "$work/$j.html" && ok || bad "$j: a series hidden, or the difference charts wrong"
done

# the probe's check can fail: s3's page with the coinciding series drawn
# alike (the old drawing), without the line naming them, and with one
# difference off by one must each be rejected, for that reason
mutant() {	# mutant NAME EXPECTED-MESSAGE PYTHON-EXPRESSION-ON-page
	"$py" -c "import re, sys; page = open(sys.argv[1]).read(); open(sys.argv[2], 'w').write($3)" \
		"$work/s3.html" "$work/$1.html"
	probe "$work/$1.html"
	if probe_check "$work/s3.json" "$work/$1.html" >"$work/$1.out"; then
		bad "$1: the check passes a page where $2: it is blind"
	elif ! grep -q "$2" "$work/$1.out"; then
		bad "$1: rejected, but not because $2: $(head -3 "$work/$1.out")"
	else
		ok
	fi
}
mutant alike "hidden: no point of its line is on top" \
	're.sub(r" stroke-dasharray=\"[^\"]*\"", "", re.sub(r"stroke-width=\"[0-9.]+\"", "stroke-width=\"1.5\"", page))'
mutant nonote "base = emptymap coincide, the chart says None" \
	're.sub(r"<p class=\"coincide\".*?</p>", "", page)'
mutant offbyone "pud: points" \
	'page[:page.index("class=\"diffchart\"")] + re.sub(r"data-value=\"(-?[0-9]+)\"", lambda m: "data-value=\"%d\"" % (int(m.group(1)) + 1), page[page.index("class=\"diffchart\""):], count=1)'

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
# an output that cannot be written is exit 3 (output.h), not bad input
[ "$rc" = 3 ] && [ "$(wc -l <"$work/bad.out")" = 1 ] && grep -q 'r.html: No such file or directory' "$work/bad.out" && ok ||
	bad "unwritable output: exit $rc: $(cat "$work/bad.out")"
echo "report.browser: $pass passed, $fail failed"
[ "$fail" = 0 ]
