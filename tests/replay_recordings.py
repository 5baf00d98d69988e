#!/usr/bin/python3
# The committed recordings replay to sensible reports: usage replay_recordings.py AGEWALK SOURCE_DIR [EXTRA_TRACES]
# (figures checked here are facts of the recordings, read with trace-cmd's
# own counts, not agewalk's output).
import json, os, re, subprocess, sys

aw, src = sys.argv[1], sys.argv[2]
# EXTRA_TRACES: CMake's AGEWALK_EXTRA_TRACES, a folder of further recordings (small.dat)
extra = sys.argv[3] if len(sys.argv) > 3 else None
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
# small.dat (EXTRA_TRACES, a real 6.18 recording with huge_memory:*): the recorded khugepaged figures
# equal trace-cmd's own counts, and the khugepaged variants run on it
small = f"{extra}/small.dat" if extra else None
if small and os.path.exists(small):
    report = subprocess.run(["trace-cmd", "report", "-t", small], capture_output=True, text=True).stdout
    kh_lines = [l for l in report.splitlines() if re.match(r"\s*khugepaged-\d+\s", l)]
    scan_pmd = sum(" mm_khugepaged_scan_pmd:" in l for l in kh_lines)
    statuses = {}
    for l in kh_lines:
        m = re.search(r" mm_khugepaged_scan_pmd:.* status=(\w+)", l)
        if m:
            statuses[m.group(1)] = statuses.get(m.group(1), 0) + 1
    collapses = sum(" mm_collapse_huge_page:" in l for l in kh_lines)
    times = [float(re.search(r"\]\s+([\d.]+):", l).group(1)) for l in kh_lines
             if re.search(r" (mm_khugepaged_scan_pmd|mm_collapse_huge_page|mm_collapse_huge_page_swapin|"
                          r"mm_khugepaged_scan):", l)]
    wakeups = sum(1 for i, t in enumerate(times) if i == 0 or t - times[i - 1] > 1.0)
    out = subprocess.run([aw, "replay", small, "--json", "--no-progress", "--variants",
                          "khugepaged-base,khugepaged-patched"], capture_output=True, text=True)
    check(out.returncode == 0, f"small: exit {out.returncode}: {out.stderr[-300:]}")
    if out.returncode == 0:
        d = json.loads(out.stdout)
        k = d["recorded_khugepaged"]
        check(scan_pmd > 0 and k["scan_pmd"] == scan_pmd, f"small: scan_pmd {k['scan_pmd']} != {scan_pmd}")
        check(k["scan_pmd_status"] == statuses, f"small: statuses {k['scan_pmd_status']} != {statuses}")
        check(k["collapses"] == collapses, f"small: collapses {k['collapses']} != {collapses}")
        check(k["wakeups"] == wakeups and k["wakeups_emitted"] == wakeups,
              f"small: wakeups {k['wakeups']} != {wakeups}")
        check([v["name"] for v in d["variants"]] == ["khugepaged-base", "khugepaged-patched"],
              "small: variants")
        check(all(v["khugepaged"]["wakeups"] == wakeups for v in d["variants"]),
              "small: the model did not wake up once per recorded wake-up")
        check(d["findings"] == [], f"small: findings {d['findings']}")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
