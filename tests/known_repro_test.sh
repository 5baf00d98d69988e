#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# known_repro_test.sh AGEWALK SRC: every entry of corpus/known-findings
# keeps its word -- its reproducer, run with the variants its
# "# expect-finding:" line names, still gives a finding whose signature
# that entry accepts (the JSON's "known" names the same reproducer).  A
# model change that moves the finding to another cause fails here, not
# silently in a campaign.
set -u
aw=$1 src=$2
cd "$src" || exit 1
fail=0 n=0
for repro in $(sed -n 's/^reproducer: //p' corpus/known-findings); do
	n=$((n + 1))
	vars=$(sed -n 's/^# expect-finding: .*--variants \([^ ]*\).*/\1/p' "$repro" | head -1)
	if [ -z "$vars" ]; then
		echo "FAIL $repro: no '# expect-finding: ... --variants' line"
		fail=1
		continue
	fi
	"$aw" run "$repro" --variants "$vars" --keep-going --json 2>/dev/null |
		python3 -c '
import json, sys
repro = sys.argv[1]
d = json.load(sys.stdin)
ok = [f["signature"] for f in d["findings"] if (f.get("known") or {}).get("reproducer") == repro]
print(("ok   %s: %s" % (repro, ok[0])) if ok else ("FAIL %s: no finding its entry accepts: %s" %
      (repro, [f["signature"] for f in d["findings"]])))
sys.exit(0 if ok else 1)' "$repro" || fail=1
done
[ "$n" -gt 0 ] || { echo "FAIL no reproducer in corpus/known-findings"; fail=1; }
exit $fail
