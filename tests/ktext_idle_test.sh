#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ktext_idle_test.sh AGEWALK SRCDIR: a kernel-text pair whose text ran
# nothing (tests/ktext/no-aging.aws: no aging, no eviction, no reclaim)
# says so in one line on stderr and exits 0; under --check the same line
# is an error and the exit status 1.  A pair whose text ran
# (corpus/ktext/dense-sparse.aws: four passes, one eviction) says
# nothing, and its JSON counts what the text did.
set -u
aw=$1 src=$2 fail=0
idle=$src/tests/ktext/no-aging.aws
err() { echo "ktext_idle: $*"; fail=1; }

out=$("$aw" run "$idle" --variants base,k6.12 --kernel 6.12 2>&1 >/dev/null); rc=$?
want="agewalk: warning: k6.12 ran no kernel text on $idle thp=never: no aging pass, no eviction, no reclaim (0 aging commands refused -ERANGE)"
[ $rc = 0 ] || err "without --check: exit $rc, want 0"
[ "$out" = "$want" ] || err "without --check: stderr '$out', want '$want'"

out=$("$aw" run "$idle" --variants base,k6.12 --kernel 6.12 --check 2>&1 >/dev/null); rc=$?
[ $rc = 1 ] || err "--check: exit $rc, want 1"
[ "$out" = "${want/warning/error}" ] || err "--check: stderr '$out', want '${want/warning/error}'"

# the text ran: no line, and what it ran in the JSON, counted from the
# file: its four age lines each reach the text's try_to_inc_max_seq() (none
# refused -ERANGE) and each moves max_seq; its one evict line is one
# evict_folios() call; the model variant has no text_ran
json=$("$aw" run "$src/corpus/ktext/dense-sparse.aws" --variants base,k6.12 --kernel 6.12 --json 2>"${TMPDIR:-/tmp}/ktext_idle.$$")
out=$(cat "${TMPDIR:-/tmp}/ktext_idle.$$"); rm -f "${TMPDIR:-/tmp}/ktext_idle.$$"
[ -z "$out" ] || err "dense-sparse: stderr '$out', want nothing"
got=$(printf '%s' "$json" | /usr/bin/python3 -c '
import json, sys
v = json.load(sys.stdin)["variants"]
t = v[1]["text_ran"]
print("base" if "text_ran" in v[0] else "-", t["aging_calls"], t["aging_passes"], t["aging_refused_ERANGE"],
      t["evict_calls"], t["idle"])')
[ "$got" = "- 4 4 0 1 False" ] || err "dense-sparse: text_ran '$got', want '- 4 4 0 1 False'"
[ $fail = 0 ] && echo "ktext_idle: the idle pair warned (an error under --check), the busy one reported its text"
exit $fail
