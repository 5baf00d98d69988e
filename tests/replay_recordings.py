#!/usr/bin/python3
# The committed recordings replay to sensible reports: usage replay_recordings.py AGEWALK SOURCE_DIR
# (figures checked here are facts of the recordings, read with trace-cmd's
# own counts, not agewalk's output).
import json, subprocess, sys

aw, src = sys.argv[1], sys.argv[2]
passed = failed = 0

def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)

for name in ("memhog", "gcc-build"):
    path = f"{src}/traces/{name}.dat"
    report = subprocess.run(["trace-cmd", "report", path], capture_output=True, text=True).stdout
    faults = report.count(" page_fault_user:")
    out = subprocess.run([aw, "replay", path, "--json", "--no-progress", "--variants", "base,pud"],
                         capture_output=True, text=True)
    check(out.returncode == 0, f"{name}: exit {out.returncode}: {out.stderr[-300:]}")
    if out.returncode:
        continue
    d = json.loads(out.stdout)
    t = d["trace"]
    # every record is read: trace-cmd's count of page_fault_user is a lower bound
    check(t["events_read"] >= faults > 0, f"{name}: events_read {t['events_read']} < faults {faults}")
    check(t["lost_events"] == 0, f"{name}: lost events")
    check(t["initial_state"] == "snapshots", f"{name}: snapshots not used")
    check("access=faults-only" in d["policy"] and "aging=500ms" in d["policy"], f"{name}: policy {d['policy']}")
    check([v["name"] for v in d["variants"]] == ["base", "pud"], f"{name}: variants")
    base = d["variants"][0]["nodes"][0]
    # aging every 500 ms of trace time, plus one pass after the last event
    want = int(t["duration_ns"] // 500_000_000) + 1
    check(base["passes"] == want, f"{name}: {base['passes']} passes, wanted {want}")
    check(base["walks"] > 0 and base["leaf_total"] > 0, f"{name}: nothing walked")
    check(d["findings"] == [], f"{name}: findings {d['findings']}")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
