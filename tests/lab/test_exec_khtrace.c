// SPDX-License-Identifier: GPL-2.0-only
/*
 * agewalk-exec's khugepaged records (exec_khtrace.c): a canned trace file
 * of the patched 6.12 (tests/lab/khtrace-6.12kh.txt, the trace file's
 * layout with hash-ptr off) parsed line by line, against counts made by
 * hand from the file.  The run's mms are ...1000 and ...2000; ...9000 is
 * another mm (the executor's own).  Wake-ups: a spontaneous one at 5.0 s
 * (two records of the run, one of the other mm, 0.1 s apart: one wake-up),
 * commanded wake-up 1, a spontaneous one at 20 s (other mm only), commanded
 * wake-up 2 without records (no wake-up: khugepaged scanned nothing), and
 * commanded wake-up 3, whose first two records are MADV_COLLAPSE in a
 * worker's own context (not khugepaged's) and whose third comes with an
 * unresolved comm ("<...>-38", khugepaged's pid); then a spontaneous one at
 * 50 s that ends a full scan of the other mm alone (not the run's).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"

static int failures;

#define CHECK(cond) do { if (!(cond)) { printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

static uint64_t range(const struct aw_khtrace *t, const char *name)
{
	for (int i = 0; i < t->nr_ranges; i++)
		if (!strcmp(t->ranges[i].name, name))
			return t->ranges[i].count;
	return 0;
}

int main(int argc, char **argv)
{
	struct aw_khtrace t = { .on = true, .has_scan = true, .kh_pid = 38 };
	char path[1024], *text, *line, *save = NULL;
	int parsed = 0;

	if (argc != 2)
		return 2;
	snprintf(path, sizeof(path), "%s/khtrace-6.12kh.txt", argv[1]);
	if (aw_read_file(path, &text)) {
		printf("FAIL cannot read %s\n", path);
		return 1;
	}
	aw_kht_add_mm(&t, 0xffff888004001000ull);
	aw_kht_add_mm(&t, 0xffff888004002000ull);
	aw_kht_add_mm(&t, 0xffff888004001000ull);	/* once only */
	CHECK(t.nr_mms == 2);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		parsed += !aw_kht_line(&t, line);
	free(text);
	/* 26 lines of the three events and the markers; the madvise, walk_pud and comment lines are not */
	CHECK(parsed == 26);

	/* wake-ups: 5.0 s (spontaneous), 1, 20 s (spontaneous), 3, 50 s (spontaneous) */
	CHECK(t.wakeups == 5);
	CHECK(t.spontaneous == 3);
	CHECK(t.nr_wake == 5);
	/* the run's: the ones at 20 s and 50 s reached only the other mm */
	CHECK(aw_kht_wakeups(&t) == 3);
	if (t.nr_wake == 4) {
		CHECK(t.wake[0].spontaneous && t.wake[0].progress == 1 && !t.wake[0].full && t.wake[0].run);
		CHECK(!t.wake[1].spontaneous && t.wake[1].progress == 2 + 1030 && t.wake[1].full && t.wake[1].run);
		CHECK(t.wake[2].spontaneous && t.wake[2].progress == 0 && !t.wake[2].full && !t.wake[2].run);
		CHECK(!t.wake[3].spontaneous && t.wake[3].progress == 7 && t.wake[3].full && t.wake[3].run);
	}
	/* mm_khugepaged_scan: the run's 1 + 2 + 1030 + 7 in 4 calls; the other mm's 3 + 5 + 512 + 4 in 4 */
	CHECK(t.calls == 4);
	CHECK(t.progress == 1040);
	CHECK(t.other_calls == 4);
	CHECK(t.other_progress == 524);
	/* three full scans ended; the one at 50 s is not the run's: not logged */
	CHECK(t.full_finished == 3);
	CHECK(t.full_other == 1);
	CHECK(t.nr_full == 2 && t.per_full[0] == 1 + 2 + 1030 && t.per_full[1] == 7);
	/* ranges, the model's names: pmd_none and pmd_null are both no_pte_table, no_writable_page is page_ro */
	CHECK(range(&t, "no_pte_table") == 2);
	CHECK(range(&t, "pmd_mapped") == 1);
	CHECK(range(&t, "succeed") == 1);
	CHECK(range(&t, "page_lazyfree") == 1);
	CHECK(range(&t, "page_ro") == 1);
	CHECK(range(&t, "weird_status") == 1);	/* no model name: the kernel's own */
	CHECK(t.nr_ranges == 6);
	CHECK(t.unmapped_status == 1);
	CHECK(t.other_ranges == 1);
	/* collapses by khugepaged: one succeeded, one stopped by a lazyfree folio in isolation */
	CHECK(t.collapses == 2 && t.collapse_ok == 1);
	CHECK(t.nr_cstatus == 1 && !strcmp(t.cstatus[0].name, "page_lazyfree") && t.cstatus[0].count == 1);
	CHECK(t.lazyfree_skips == 2);
	/* MADV_COLLAPSE, the worker's own context */
	CHECK(t.madv_scan_pmd == 1 && t.madv_collapsed == 1);
	aw_kht_free(&t);
	if (!failures)
		printf("ok   khugepaged records: 26 lines, 5 wake-ups (3 the run's), progress 1040\n");
	return failures != 0;
}
