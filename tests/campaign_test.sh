#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# campaign_test.sh SRC AGEWALK FUZZ_BUILD: fuzz/campaign end to end on a
# libFuzzer build of the fuzz targets (skipped, 77, without one), one core,
# under a minute:
#  1. 20 s with a planted bug (pud-reset-wrong-seq, caught in seconds, by
#     findings no known-findings entry accepts): the index is written, with
#     new signatures, each minimized within its run budget (not marked
#     incomplete) to an .aws that, run with the bug and the row's
#     variants, gives that signature;
#  2. the same command again for 8 s resumes: the corpus is still there,
#     the state is kept, no signature is minimized twice, no hit count
#     drops;
#  3. a fresh campaign stopped by SIGINT after 6 s exits 0 with a valid
#     index and says how to resume.
# shellcheck disable=SC2015 # ok never fails: "A && ok || bad" is if-then-else here
set -euo pipefail
src=$1 aw=$2 fb=$3
if [ ! -x "$fb/fuzz/agewalk_fuzz_lockstep" ]; then
	echo "skipped: no $fb/fuzz/agewalk_fuzz_lockstep (a libFuzzer build:" \
		"CC=clang cmake -S . -B build-lf -DAGEWALK_FUZZ_ENGINE=libfuzzer)"
	exit 77
fi
command -v python3 >/dev/null || { echo "skipped: not installed: python3"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bug=pud-reset-wrong-seq
# the minimizer's budget is a number of runs, never a time (its --max-time
# safety stop stays at the campaign's default and never fires here)
args=(-B "$fb" --agewalk "$aw" -j 1 -b "$bug" --minimize-runs 5000 --progress 2)
campaign() {	# DIR ARGS...
	local dir=$1
	shift
	"$src/fuzz/campaign" "${args[@]}" -o "$dir" "$@"
}
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }

# --- 1: a campaign that finds the planted bug
rc=0
campaign "$tmp/c" -d 20 >"$tmp/1.out" 2>"$tmp/1.err" || rc=$?
[ "$rc" = 0 ] && ok "run: exit 0" || bad "run: exit $rc"
grep -q '^campaign: [1-9][0-9]* new signatures\{0,1\}, [0-9]* known, index ' "$tmp/1.out" &&
	ok "run: summary line" || bad "run: no summary line: $(cat "$tmp/1.out")"
for f in INDEX".md" index.json; do	# (quoted: not a document of the tree for self_contained.sh)
	[ -s "$tmp/c/findings/$f" ] && ok "run: findings/$f" || bad "run: no findings/$f"
done
# every new row: its minimized .aws gives its signature with the bug and its variants;
# --keep-going as agewalk minimize --signature and the campaign's own check use it,
# since a reproducer may keep an earlier finding of another signature
python3 - "$tmp/c/findings/index.json" >"$tmp/rows" <<'EOF' || bad "run: index.json: $(cat "$tmp/rows")"
import json, os, sys
d = json.load(open(sys.argv[1]))
new = [r for r in d['signatures'] if r['status'] == 'new']
if not new:
    print('no new signature row')
    sys.exit(1)
for r in new:
    if not (r['reproducer'] or '').endswith('.aws'):
        print(f"{r['signature']}: no minimized reproducer ({r.get('minimize')}: {r.get('minimize_note')})")
        sys.exit(1)
    if r.get('minimize_incomplete') is not False:
        print(f"{r['signature']}: minimize_incomplete {r.get('minimize_incomplete')!r}, not false: "
              f"the run budget alone must finish it ({r.get('minimize_note')})")
        sys.exit(1)
    print(f"{os.path.join(os.path.dirname(sys.argv[1]), r['reproducer'])}\t{r['variants']}\t{r['signature']}")
EOF
rows=0
while IFS=$'\t' read -r file variants sig; do
	rows=$((rows + 1))
	[ -f "$file" ] || { bad "run: $file missing"; continue; }
	rc=0
	"$aw" run "$file" --keep-going --bug "$bug" --variants "$variants" >"$tmp/repro.out" 2>&1 || rc=$?
	if [ "$rc" = 1 ] && grep -qxF "  signature: $sig" "$tmp/repro.out"; then
		ok "run: $(basename "$file") --variants $variants: $sig"
	else
		bad "run: $(basename "$file") --variants $variants: exit $rc, not '$sig'"
	fi
done <"$tmp/rows"
[ "$rows" -gt 0 ] && ok "run: $rows new signature(s)" || bad "run: no new signature row"

# --- 2: the same command again resumes
snapshot() {	# DIR: signatures' hits and minimized files' mtimes, corpus size, sessions
	python3 - "$1" <<'EOF'
import json, os, sys
d = sys.argv[1]
s = json.load(open(os.path.join(d, 'state.json')))
out = {'sessions': len(s['sessions']), 'triaged': sorted(s['triaged']), 'seconds': s['total_seconds'],
       'corpus': len(os.listdir(os.path.join(d, 'corpus', 'agewalk_fuzz_lockstep'))), 'sigs': {}}
for sig, e in s['signatures'].items():
    m = os.path.join(d, 'findings', e['minimized']) if e.get('minimized') else None
    out['sigs'][sig] = {'hits': e['hits'], 'minimized': e.get('minimized'),
                        'mtime': os.stat(m).st_mtime_ns if m and os.path.exists(m) else None}
print(json.dumps(out))
EOF
}
snapshot "$tmp/c" >"$tmp/before.json"
rc=0
campaign "$tmp/c" -d 8 >"$tmp/2.out" 2>"$tmp/2.err" || rc=$?
[ "$rc" = 0 ] && ok "resume: exit 0" || bad "resume: exit $rc"
grep -q '^campaign: resuming ' "$tmp/2.err" && ok "resume: says so" || bad "resume: no 'resuming' line"
snapshot "$tmp/c" >"$tmp/after.json"
python3 - "$tmp/before.json" "$tmp/after.json" <<'EOF' || fail=1
import json, sys
b, a = (json.load(open(p)) for p in sys.argv[1:3])
bad = []
if a['corpus'] == 0 or a['corpus'] < b['corpus']:
    bad.append(f"corpus {b['corpus']} -> {a['corpus']} files")
if a['sessions'] != b['sessions'] + 1:
    bad.append(f"sessions {b['sessions']} -> {a['sessions']}")
if not set(b['triaged']) <= set(a['triaged']):
    bad.append('triaged crash files forgotten')
if a['seconds'] <= b['seconds']:
    bad.append(f"campaign seconds {b['seconds']} -> {a['seconds']}")
for sig, e in b['sigs'].items():
    n = a['sigs'].get(sig)
    if n is None:
        bad.append(f'{sig}: forgotten')
    elif n['hits'] < e['hits']:
        bad.append(f"{sig}: hits {e['hits']} -> {n['hits']}")
    elif e['minimized'] and (n['minimized'] != e['minimized'] or n['mtime'] != e['mtime']):
        bad.append(f'{sig}: minimized again')
for x in bad:
    print(f'FAIL resume: {x}')
if not bad:
    print(f"ok   resume: corpus {b['corpus']} -> {a['corpus']} files, {len(b['sigs'])} signatures kept, "
          f"none minimized twice, no hit count lower")
sys.exit(1 if bad else 0)
EOF

# --- 3: SIGINT stops it cleanly (the program itself in the background, not a subshell)
"$src/fuzz/campaign" "${args[@]}" -o "$tmp/i" -d 60 >"$tmp/3.out" 2>"$tmp/3.err" &
pid=$!
sleep 6
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
[ "$rc" = 0 ] && ok "SIGINT: exit 0" || bad "SIGINT: exit $rc"
grep -q '^campaign: interrupted after .*; resume with: ' "$tmp/3.out" && ok "SIGINT: says how to resume" ||
	bad "SIGINT: no 'interrupted ... resume with' line: $(cat "$tmp/3.out")"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["campaign"]["interrupted"] and not d["campaign"]["running"], d["campaign"]
assert d["campaign"]["triaged"] == d["campaign"]["crashes"], d["campaign"]
' "$tmp/i/findings/index.json" && ok "SIGINT: index.json valid, every crash triaged" ||
	bad "SIGINT: index.json"
if [ "$fail" != 0 ]; then
	for f in 1.err 2.err 3.err; do
		echo "--- $f"
		tail -20 "$tmp/$f"
	done
fi
exit "$fail"
