// SPDX-License-Identifier: GPL-2.0-only
/*
 * khugepaged's text of each tree (issue 31), run on a small machine of
 * this test's own (it is not bound onto the model's yet): two mms, page
 * tables built by hand, three wake-ups of the text's khugepaged_do_scan()
 * with khugepaged_pages_to_scan = 1024.  The expected progress, cursor,
 * full scans and per-range results are read off 6.1's and 6.12's
 * khugepaged_scan_mm_slot() and khugepaged_do_scan(), which agree here:
 *  - each khugepaged_scan_mm_slot() call counts 1 for the mm, then
 *    HPAGE_PMD_NR (512) per range, and stops once progress >= pages;
 *  - khugepaged_do_scan() calls it again while progress < pages, at most
 *    twice through the list head (pass_through_head);
 *  - a range with no PUD table is SCAN_PMD_NULL (2), a PMD entry that is
 *    none SCAN_PMD_NONE (3), a PMD leaf SCAN_PMD_MAPPED (4)
 *    (find_pmd_or_thp_or_none(); enum scan_result's order is the same in
 *    both trees);
 *  - a PTE table with no PTE is SCAN_EXCEED_NONE_PTE (5) once the 512th
 *    none PTE exceeds max_ptes_none 511, counted as THP_SCAN_EXCEED_NONE_PTE
 *    (hpage_collapse_scan_pmd()'s loop, khugepaged's limit);
 *  - the cursor moves to the next mm when an mm's VMAs run out, to none
 *    (and full_scans + 1) after the last.
 * Skips (77) in a build without kernel trees.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aw_test.h"
#include "ktext_kh_api.h"
#include "ktext_variants.h"

#define MB		(1UL << 20)
#define ENTRY_TABLE	0x067UL		/* present, rw, user, accessed, dirty: a table */
#define ENTRY_HUGE	0x0e7UL		/* the same with _PAGE_PSE: a PMD leaf */
#define NR_TABLES	5

struct machine {
	unsigned long table[NR_TABLES][512];	/* id 0 unused; 1: mm 0's PGD, 2 its PUD, 3 its PMD, 4 a PTE table */
	unsigned long pgd1[512];		/* mm 1's PGD: empty */
	int results[16];			/* trace_mm_khugepaged_scan_pmd() statuses, in order */
	int mms[16];
	int nr;
	int events[4], nr_events;		/* count_vm_event() items */
};

static void *host_table(void *ctx, unsigned long pfn)
{
	struct machine *m = ctx;

	return pfn < NR_TABLES ? m->table[pfn] : NULL;
}

static bool host_is_table(void *ctx, unsigned long pfn) { return pfn > 0 && pfn < NR_TABLES; }
static struct folio *host_folio(void *ctx, unsigned long pfn) { return NULL; }
static bool host_thp_allowable(void *ctx, int mm, unsigned long start, unsigned long vm_flags, bool sysfs)
{
	return true;
}

static void host_trace_scan_pmd(void *ctx, int mm, int writable, int referenced, int none_or_zero,
				int status, int unmapped)
{
	struct machine *m = ctx;

	if (m->nr < 16) {
		m->mms[m->nr] = mm;
		m->results[m->nr] = status;
	}
	m->nr++;
}

static void host_event(void *ctx, int item)
{
	struct machine *m = ctx;

	if (m->nr_events < 4)
		m->events[m->nr_events] = item;
	m->nr_events++;
}

/* no range here reaches a collapse, a swap-in or a folio */
static void host_trace_collapse(void *ctx, int mm, int isolated, int status) { abort(); }

static void check_state(const struct aw_kh_ops *ops, struct aw_kh *kh, int mm, unsigned long address,
			unsigned long full_scans)
{
	struct aw_kh_state st;

	ops->state(kh, &st);
	CHECK_EQ(st.cursor_mm, mm);
	CHECK_EQ(st.address, address);
	CHECK_EQ(st.full_scans, full_scans);
	CHECK_EQ(st.pages_collapsed, 0);
	CHECK_EQ(st.nr_slots, 2);
	CHECK_EQ(st.warnings, 0);
	if (st.warnings)
		fprintf(stderr, "%s: warning at %s\n", ops->name, st.last_warning);
}

static void check_results(struct machine *m, int from, int n, const int *mms, const int *results)
{
	CHECK_EQ(m->nr, from + n);
	for (int i = 0; i < n && from + i < 16; i++) {
		CHECK_EQ(m->mms[from + i], mms[i]);
		CHECK_EQ(m->results[from + i], results[i]);
	}
}

static void test_scan(const struct aw_kh_ops *ops)
{
	struct machine *m = calloc(1, sizeof(*m));
	struct aw_ktext_host kt = {
		.ctx = m, .nr_nodes = 1, .nr_memcgs = 1, .zero_pfn = ~0UL, .huge_zero_pfn = ~0UL,
		.table = host_table, .is_table = host_is_table, .folio = host_folio,
	};
	struct aw_kh_host host = {
		.ctx = m, .thp_allowable = host_thp_allowable, .event = host_event,
		.trace_scan_pmd = host_trace_scan_pmd, .trace_collapse = host_trace_collapse,
	};
	/* mm 0: one anonymous VMA over [2M, 8M): ranges at 2M (none), 4M (a PMD leaf), 6M (an empty PTE table) */
	struct aw_ktext_vma vma0 = { .start = 2 * MB, .end = 8 * MB, .vm_flags = 0x3 };
	/* mm 1: [0, 2M) without any table below its PGD */
	struct aw_ktext_vma vma1 = { .start = 0, .end = 2 * MB, .vm_flags = 0x3 };
	struct aw_kh *kh;

	if (!m)
		abort();
	m->table[1][0] = (2UL << 12) | ENTRY_TABLE;		/* PGD[0] -> PUD table 2 */
	m->table[2][0] = (3UL << 12) | ENTRY_TABLE;		/* PUD[0] -> PMD table 3 */
	m->table[3][2] = (512UL << 12) | ENTRY_HUGE;		/* PMD[2]: 4M, a THP at pfn 512 */
	m->table[3][3] = (4UL << 12) | ENTRY_TABLE;		/* PMD[3]: 6M -> PTE table 4, all none */
	kh = ops->create(&kt, &host);
	CHECK(kh != NULL);
	if (!kh) {
		free(m);
		return;
	}
	ops->knobs(kh, true, 1024, 511, 64, 256);
	ops->set_mm(kh, 0, &(struct aw_kh_mm){ .pgd = m->table[1], .vmas = &vma0, .nr_vmas = 1 });
	ops->set_mm(kh, 1, &(struct aw_kh_mm){ .pgd = m->pgd1, .vmas = &vma1, .nr_vmas = 1 });
	ops->enter(kh, 0);
	ops->enter(kh, 1);

	/* wake-up 1: mm 0 from 0: 1 + 2M none (513) + 4M mapped (1025 >= 1024): cursor mm 0 at 6M */
	ops->do_scan(kh);
	check_results(m, 0, 2, (const int[]){ 0, 0 }, (const int[]){ 3, 4 });
	check_state(ops, kh, 0, 6 * MB, 0);

	CHECK_EQ(m->nr_events, 0);

	/*
	 * wake-up 2: mm 0 at 6M: 1 + 6M exceeds max_ptes_none = 513, its VMAs
	 * run out: cursor mm 1 at 0; 513 < 1024: mm 1 with 511 left: 1 + 0
	 * null = 513 >= 511: cursor mm 1 at 2M
	 */
	ops->do_scan(kh);
	check_results(m, 2, 2, (const int[]){ 0, 1 }, (const int[]){ 5, 2 });
	check_state(ops, kh, 1, 2 * MB, 0);
	CHECK_EQ(m->nr_events, 1);
	CHECK_EQ(m->events[0], 2);	/* ktext_kh.h's THP_SCAN_EXCEED_NONE_PTE */

	/*
	 * wake-up 3: mm 1 at 2M: 1, no VMA left and mm 1 is the last: cursor
	 * none, full_scans 1; 1 < 1024, the head passed once: mm 0 from 0 with
	 * 1023 left: 1 + 2M none + 4M mapped = 1025 >= 1023: cursor mm 0 at 6M
	 */
	ops->do_scan(kh);
	check_results(m, 4, 2, (const int[]){ 0, 0 }, (const int[]){ 3, 4 });
	check_state(ops, kh, 0, 6 * MB, 1);
	CHECK_EQ(m->nr_events, 1);

	/* khugepaged_exit() of the mm under the cursor: __khugepaged_exit() leaves its slot to the scan */
	ops->exit(kh, 1);
	ops->destroy(kh);
	free(m);
}

int main(void)
{
	int n = 0;

	for (const struct aw_kh_ops *const *v = aw_kh_variants; *v; v++, n++) {
		printf("%s\n", (*v)->name);
		test_scan(*v);
	}
	if (!n) {
		printf("test_ktext_kh: no kernel trees in this build (AGEWALK_KERNEL_TREES): skipped\n");
		return 77;
	}
	return aw_test_report("test_ktext_kh");
}
