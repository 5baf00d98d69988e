// SPDX-License-Identifier: GPL-2.0-only
/*
 * khugepaged's text of each tree (issue 31), run on a small machine of
 * this test's own (not the model's, which src/kbind binds): two mms, page
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
 * A tree with the khugepaged scan series (k6.12+khugepaged: 6.12 with
 * src/ktext/series/khugepaged-v7, ops->patched) gives other figures on the
 * same machine, read off the series' khugepaged_scan_mm_slot() and
 * hpage_collapse_scan_pmd() (2/5): a range costs its cur_progress instead
 * of 512 -- 1 when find_pmd_or_thp_or_none() fails (SCAN_PMD_NULL,
 * SCAN_PMD_NONE, SCAN_PMD_MAPPED alike), else 1 per PTE the loop looks at,
 * counted at the top of the loop body so the PTE that ends it counts too --
 * and each call ends with trace_mm_khugepaged_scan(mm, progress,
 * khugepaged_scan.mm_slot == NULL) (1/5), the host's trace_scan, which the
 * base trees never call.  A second machine has lazyfree folios (anon
 * without PG_swapbacked, as the model keeps them): the series' khugepaged
 * stops a range at a clean PTE of one with SCAN_PAGE_LAZYFREE (4/5), the
 * base trees and a dirty PTE go on.  A third MADV_FREEs a folio while the
 * collapse has the mmap_lock dropped: the series' isolation stops with
 * SCAN_PAGE_LAZYFREE (4/5's other test), the base trees' for want of a
 * young PTE.
 * Skips (77) in a build without kernel trees.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aw_test.h"
#include "ktext_kh_api.h"
#include "ktext_variants.h"
#include "linux/mm_types.h"
#include "linux/page-flags.h"

#define MB		(1UL << 20)
#define ENTRY_TABLE	0x067UL		/* present, rw, user, accessed, dirty: a table */
#define ENTRY_HUGE	0x0e7UL		/* the same with _PAGE_PSE: a PMD leaf */
#define ENTRY_CLEAN	0x007UL		/* present, rw, user: a PTE neither young nor dirty */
#define ENTRY_DIRTY	0x047UL		/* the same, dirty (written after MADV_FREE) */
#define ENTRY_YOUNG	0x067UL		/* present, rw, user, accessed, dirty: a PTE written lately */
#define NR_TABLES	6
#define NR_FOLIOS	2
#define FOLIO_PFN	1000		/* the folios' pfns: FOLIO_PFN + i */
#define HUGE_PFN	2048		/* the huge folio alloc_huge() gives */

/* enum scan_result: the same numbers in every tree up to SCAN_PAGE_ANON (18) */
#define SCAN_PMD_NULL			2
#define SCAN_PMD_NONE			3
#define SCAN_PMD_MAPPED			4
#define SCAN_EXCEED_NONE_PTE		5
#define SCAN_LACK_REFERENCED_PAGE	12
#define SCAN_PAGE_LAZYFREE		19	/* the series' (4/5), after SCAN_PAGE_ANON */

struct machine {
	unsigned long table[NR_TABLES][512];	/* id 0 unused; 1: mm 0's PGD, 2 its PUD, 3 its PMD, 4 (5) PTE tables */
	unsigned long pgd1[512];		/* mm 1's PGD: empty */
	struct folio folios[NR_FOLIOS];		/* order 0, at FOLIO_PFN + i */
	struct folio huge;			/* HPAGE_PMD_ORDER, at HUGE_PFN */
	int allocs, puts, isolated, putback;	/* alloc_huge(), put(), isolate_lru(), putback_lru() calls */
	int collapse_mm[4], collapse_isolated[4], collapse_status[4], nr_collapses;	/* mm_collapse_huge_page */
	int results[16];			/* trace_mm_khugepaged_scan_pmd() statuses, in order */
	int mms[16];
	int writable[16], referenced[16], none_or_zero[16], unmapped[16];
	int nr;
	int events[4], nr_events;		/* count_vm_event() items */
	/* trace_mm_khugepaged_scan(): the series' trees only */
	int scan_mm[16];
	unsigned int scan_progress[16];
	bool scan_finished[16];
	int nr_scans;
};

static void *host_table(void *ctx, unsigned long pfn)
{
	struct machine *m = ctx;

	return pfn < NR_TABLES ? m->table[pfn] : NULL;
}

static bool host_is_table(void *ctx, unsigned long pfn) { return pfn > 0 && pfn < NR_TABLES; }
static struct folio *host_folio(void *ctx, unsigned long pfn)
{
	struct machine *m = ctx;

	if (m->huge.order && pfn >= HUGE_PFN && pfn < HUGE_PFN + 512)
		return &m->huge;
	if (pfn < FOLIO_PFN || pfn >= FOLIO_PFN + NR_FOLIOS)
		return NULL;
	return &m->folios[pfn - FOLIO_PFN];
}

/* the references the model counts: one per mapping (no swap cache, no pins) */
static int host_folio_ref_count(void *ctx, struct folio *folio) { return (int)folio->mapcount; }
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
		m->writable[m->nr] = writable;
		m->referenced[m->nr] = referenced;
		m->none_or_zero[m->nr] = none_or_zero;
		m->unmapped[m->nr] = unmapped;
	}
	m->nr++;
}

static void host_trace_scan(void *ctx, int mm, unsigned int progress, bool full_scan_finished)
{
	struct machine *m = ctx;

	if (m->nr_scans < 16) {
		m->scan_mm[m->nr_scans] = mm;
		m->scan_progress[m->nr_scans] = progress;
		m->scan_finished[m->nr_scans] = full_scan_finished;
	}
	m->nr_scans++;
}

static void host_event(void *ctx, int item)
{
	struct machine *m = ctx;

	if (m->nr_events < 4)
		m->events[m->nr_events] = item;
	m->nr_events++;
}

/* no range of the first two machines reaches a collapse, nor a swap-in */
static void host_trace_collapse(void *ctx, int mm, int isolated, int status) { abort(); }

static void host_record_collapse(void *ctx, int mm, int isolated, int status)
{
	struct machine *m = ctx;

	if (m->nr_collapses < 4) {
		m->collapse_mm[m->nr_collapses] = mm;
		m->collapse_isolated[m->nr_collapses] = isolated;
		m->collapse_status[m->nr_collapses] = status;
	}
	m->nr_collapses++;
}

/*
 * __folio_alloc() of the huge folio, with the mmap_lock dropped
 * (collapse_huge_page()): meanwhile the task MADV_FREEs the range, as
 * madvise_free_pte_range() does to folio 0 behind PTE 0 -- the PTE made
 * old and clean, the folio clean and lazyfree (PG_swapbacked cleared).
 */
static struct folio *host_alloc_huge_madv_free(void *ctx, int node, unsigned long nodemask)
{
	struct machine *m = ctx;

	m->allocs++;
	m->table[4][0] &= ~(0x020UL | 0x040UL);		/* pte_mkold(), pte_mkclean() */
	m->folios[0].flags &= ~((1UL << PG_dirty) | (1UL << PG_swapbacked));
	m->huge.pfn = HUGE_PFN;
	m->huge.order = 9;
	return &m->huge;
}

/* mem_cgroup_charge() of the huge folio: charged */
static int host_charge(void *ctx, int mm, struct folio *folio) { return 0; }

static void host_put(void *ctx, struct folio *folio)
{
	struct machine *m = ctx;

	m->puts += folio == &m->huge;
}

static bool host_isolate_lru(void *ctx, struct folio *folio)
{
	struct machine *m = ctx;

	m->isolated++;
	return test_and_clear_bit(PG_lru, &folio->flags);
}

static void host_putback_lru(void *ctx, struct folio *folio)
{
	struct machine *m = ctx;

	m->putback++;
	folio->flags |= 1UL << PG_lru;
}

static void check_slots(const struct aw_kh_ops *ops, struct aw_kh *kh, int mm, unsigned long address,
			unsigned long full_scans, int nr_slots)
{
	struct aw_kh_state st;

	ops->state(kh, &st);
	CHECK_EQ(st.cursor_mm, mm);
	CHECK_EQ(st.address, address);
	CHECK_EQ(st.full_scans, full_scans);
	CHECK_EQ(st.pages_collapsed, 0);
	CHECK_EQ(st.nr_slots, nr_slots);
	CHECK_EQ(st.warnings, 0);
	if (st.warnings)
		fprintf(stderr, "%s: warning at %s\n", ops->name, st.last_warning);
}

static void check_state(const struct aw_kh_ops *ops, struct aw_kh *kh, int mm, unsigned long address,
			unsigned long full_scans)
{
	check_slots(ops, kh, mm, address, full_scans, 2);
}

static void check_results(struct machine *m, int from, int n, const int *mms, const int *results)
{
	CHECK_EQ(m->nr, from + n);
	for (int i = 0; i < n && from + i < 16; i++) {
		CHECK_EQ(m->mms[from + i], mms[i]);
		CHECK_EQ(m->results[from + i], results[i]);
	}
}

/* trace_mm_khugepaged_scan() records from..from+n-1: mm, progress, full_scan_finished */
static void check_scans(struct machine *m, int from, int n, const int *mms, const unsigned int *progress,
			const bool *finished)
{
	CHECK_EQ(m->nr_scans, from + n);
	for (int i = 0; i < n && from + i < 16; i++) {
		CHECK_EQ(m->scan_mm[from + i], mms[i]);
		CHECK_EQ(m->scan_progress[from + i], progress[i]);
		CHECK_EQ(m->scan_finished[from + i], finished[i]);
	}
}

/* which trees of AGEWALK_KERNEL_TREES=auto have the series: k6.12+khugepaged only */
static void check_patched(const struct aw_kh_ops *ops)
{
	if (!strcmp(ops->name, "k6.12+khugepaged"))
		CHECK(ops->patched);
	else if (!strcmp(ops->name, "k6.12") || !strcmp(ops->name, "k6.12+pud") || !strcmp(ops->name, "k6.1"))
		CHECK(!ops->patched);
}

/*
 * The same machine under the series (khugepaged-v7 on 6.12.118).  Each
 * wake-up is now a full scan, since the ranges that are not PTE tables
 * cost 1 each:
 *  - khugepaged_scan_mm_slot(1024): the cursor is none, so mm 0 from 0
 *    (pass_through_head 1): 1 for the mm; 2M SCAN_PMD_NONE, cur_progress
 *    1 (2); 4M SCAN_PMD_MAPPED, 1 (3); 6M: the PTE loop counts PTEs 0-511
 *    and stops at the 512th none PTE (512 > max_ptes_none 511) with
 *    SCAN_EXCEED_NONE_PTE, cur_progress 512 (515).  The VMAs run out
 *    (vma NULL): the cursor moves to mm 1 at 0; the trace says (mm 0,
 *    515, false).
 *  - 515 < 1024: khugepaged_scan_mm_slot(509) on mm 1: 1; 0 SCAN_PMD_NULL
 *    (no table below the PGD), 1 (2).  No VMA left and mm 1 is the last:
 *    the cursor is none, full_scans + 1, address stays 2M; the trace says
 *    (mm 1, 2, true).
 *  - 517 < 1024, but the cursor is none again: pass_through_head 2, the
 *    wake-up ends (progress = pages).
 * Wake-ups 2 and 3 start from none and do the same: the same four results,
 * the same two records, full_scans 2 then 3, one THP_SCAN_EXCEED_NONE_PTE
 * each.
 */
static void test_scan_series(const struct aw_kh_ops *ops, struct aw_kh *kh, struct machine *m)
{
	for (int w = 0; w < 3; w++) {
		ops->do_scan(kh);
		check_results(m, 4 * w, 4, (const int[]){ 0, 0, 0, 1 },
			      (const int[]){ SCAN_PMD_NONE, SCAN_PMD_MAPPED, SCAN_EXCEED_NONE_PTE, SCAN_PMD_NULL });
		check_scans(m, 2 * w, 2, (const int[]){ 0, 1 }, (const unsigned int[]){ 515, 2 },
			    (const bool[]){ false, true });
		check_state(ops, kh, -1, 2 * MB, w + 1);
		CHECK_EQ(m->nr_events, w + 1);
		CHECK_EQ(m->events[w], 2);	/* ktext_kh.h's THP_SCAN_EXCEED_NONE_PTE */
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
		.trace_scan = host_trace_scan,
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

	if (ops->patched) {
		test_scan_series(ops, kh, m);
		goto out;
	}
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
	/* the base trees have no mm_khugepaged_scan */
	CHECK_EQ(m->nr_scans, 0);

out:
	/* khugepaged_exit() of the mm under the cursor: __khugepaged_exit() leaves its slot to the scan */
	ops->exit(kh, 1);
	ops->destroy(kh);
	free(m);
}

/*
 * Lazyfree folios (issue 31): one mm, one anonymous VMA [0, 4M) with two
 * PTE tables and knobs as above (1024 pages, max_ptes_none 511).  Folio 0
 * is mapped by PTE 3 of the table at 0 (PTEs 0-2 and 4-511 none), clean;
 * folio 1 by PTE 0 of the table at 2M (1-511 none), dirty.  Both are anon,
 * on the LRU, unlocked, mapped once with one reference, not swap-backed
 * (MADV_FREE'd: lazyfree); no PTE is young and no folio referenced.
 *
 * Series (hpage_collapse_scan_pmd() with 4/5): at 0, PTEs 0-2 are none
 * (none_or_zero 3), PTE 3 is writable, not dirty and maps a lazyfree
 * folio: SCAN_PAGE_LAZYFREE, the scan stopped at its 4th PTE, so
 * cur_progress 4.  At 2M the PTE is dirty, so the folio is not skipped:
 * anon, not shared, LRU, unlocked, refcount 1 = mapcount 1, not young
 * (referenced 0), then 511 none PTEs (511 <= 511): writable and nothing
 * referenced, SCAN_LACK_REFERENCED_PAGE after all 512 PTEs.  Progress 1 +
 * 4 + 512 = 517 < 1024; the VMAs run out and mm 0 is the only slot: the
 * cursor is none, full_scans 1, address 4M, one trace record (mm 0, 517,
 * true); the next loop of khugepaged_do_scan() meets the head a second
 * time and ends.
 *
 * Base trees (6.1 and 6.12 without the series): no lazyfree test, so the
 * range at 0 goes as the one at 2M does: SCAN_LACK_REFERENCED_PAGE with
 * 511 none, each range 512: 1 + 512 = 513 < 1024, 513 + 512 = 1025 >= 1024
 * stops in the VMA (vma not NULL): the cursor stays on mm 0 at 4M,
 * full_scans 0, no trace record.  No range collapses, no event.
 */
static void test_lazyfree(const struct aw_kh_ops *ops)
{
	struct machine *m = calloc(1, sizeof(*m));
	struct aw_ktext_host kt = {
		.ctx = m, .nr_nodes = 1, .nr_memcgs = 1, .zero_pfn = ~0UL, .huge_zero_pfn = ~0UL,
		.table = host_table, .is_table = host_is_table, .folio = host_folio,
	};
	struct aw_kh_host host = {
		.ctx = m, .thp_allowable = host_thp_allowable, .folio_ref_count = host_folio_ref_count,
		.event = host_event, .trace_scan_pmd = host_trace_scan_pmd,
		.trace_collapse = host_trace_collapse, .trace_scan = host_trace_scan,
	};
	struct aw_ktext_vma vma = { .start = 0, .end = 4 * MB, .vm_flags = 0x3 };
	struct aw_kh *kh;

	if (!m)
		abort();
	for (int i = 0; i < NR_FOLIOS; i++) {
		m->folios[i].pfn = FOLIO_PFN + i;
		m->folios[i].mapcount = 1;
		m->folios[i].lru.next = m->folios[i].lru.prev = &m->folios[i].lru;
		/* MADV_FREE's lazyfree folio: anon on the LRU, PG_swapbacked cleared */
		m->folios[i].flags = (1UL << PG_anon) | (1UL << PG_lru);
	}
	m->table[1][0] = (2UL << 12) | ENTRY_TABLE;		/* PGD[0] -> PUD table 2 */
	m->table[2][0] = (3UL << 12) | ENTRY_TABLE;		/* PUD[0] -> PMD table 3 */
	m->table[3][0] = (4UL << 12) | ENTRY_TABLE;		/* PMD[0]: 0 -> PTE table 4 */
	m->table[3][1] = (5UL << 12) | ENTRY_TABLE;		/* PMD[1]: 2M -> PTE table 5 */
	m->table[4][3] = ((unsigned long)FOLIO_PFN << 12) | ENTRY_CLEAN;
	m->table[5][0] = ((unsigned long)(FOLIO_PFN + 1) << 12) | ENTRY_DIRTY;
	kh = ops->create(&kt, &host);
	CHECK(kh != NULL);
	if (!kh) {
		free(m);
		return;
	}
	ops->knobs(kh, true, 1024, 511, 64, 256);
	ops->set_mm(kh, 0, &(struct aw_kh_mm){ .pgd = m->table[1], .vmas = &vma, .nr_vmas = 1 });
	ops->enter(kh, 0);

	ops->do_scan(kh);
	if (ops->patched) {
		check_results(m, 0, 2, (const int[]){ 0, 0 },
			      (const int[]){ SCAN_PAGE_LAZYFREE, SCAN_LACK_REFERENCED_PAGE });
		CHECK_EQ(m->none_or_zero[0], 3);
		check_scans(m, 0, 1, (const int[]){ 0 }, (const unsigned int[]){ 517 }, (const bool[]){ true });
		check_slots(ops, kh, -1, 4 * MB, 1, 1);
	} else {
		check_results(m, 0, 2, (const int[]){ 0, 0 },
			      (const int[]){ SCAN_LACK_REFERENCED_PAGE, SCAN_LACK_REFERENCED_PAGE });
		CHECK_EQ(m->none_or_zero[0], 511);
		CHECK_EQ(m->nr_scans, 0);
		check_slots(ops, kh, 0, 4 * MB, 0, 1);
	}
	/* both ranges: a writable PTE seen, none young, no swap entry; the second's 511 none */
	for (int i = 0; i < 2; i++) {
		CHECK_EQ(m->writable[i], 1);
		CHECK_EQ(m->referenced[i], 0);
		CHECK_EQ(m->unmapped[i], 0);
	}
	CHECK_EQ(m->none_or_zero[1], 511);
	CHECK_EQ(m->nr_events, 0);
	/* the scan leaves the folios as they were (no lock, no isolation) */
	for (int i = 0; i < NR_FOLIOS; i++)
		CHECK_EQ(m->folios[i].flags, (1UL << PG_anon) | (1UL << PG_lru));

	ops->exit(kh, 0);
	ops->destroy(kh);
	free(m);
}

/*
 * A lazyfree folio that appears while the collapse has the mmap_lock
 * dropped (issue 31, 4/5's test in __collapse_huge_page_isolate()): one
 * mm, one anonymous VMA [0, 2M), a PTE table with PTE 0 young, dirty and
 * writable over folio 0 (anon, swap-backed, on the LRU, mapped once), the
 * other 511 none.  hpage_collapse_scan_pmd() sees all 512 PTEs (511 none
 * <= 511, referenced 1, writable): SCAN_SUCCEED in every tree, so
 * collapse_huge_page(): the mmap_lock dropped, the huge folio allocated
 * (THP_COLLAPSE_ALLOC), and meanwhile MADV_FREE (host_alloc_huge_madv_free());
 * revalidated, the PMD cleared (pmdp_collapse_flush()), then the isolation
 * of the table's PTEs:
 *  - series: PTE 0 is clean and its folio lazyfree: SCAN_PAGE_LAZYFREE
 *    before the folio is locked or isolated;
 *  - base trees: the folio is locked and isolated, but PTE 0 is no longer
 *    young (none referenced): SCAN_LACK_REFERENCED_PAGE, the folio
 *    unlocked and put back (release_pte_pages()).
 * Either way the PMD gets its table back (pmd_populate()), the huge folio
 * is put, mm_collapse_huge_page says (mm 0, not isolated, the result),
 * and the range's mm_khugepaged_scan_pmd carries that result with the
 * scan's referenced 1 and none_or_zero 511.  The collapse released the
 * mmap_lock, so khugepaged_scan_mm_slot() stops there with the cursor on
 * mm 0 at 2M: progress 1 + 512 = 513 in every tree (the series counts
 * the 512 PTEs its loop saw).  513 < 1024: a second call on mm 0 from 2M
 * finds no VMA left: progress 1, the cursor none, full_scans 1; the head
 * met twice ends the wake-up.  The series' trace: (mm 0, 513, false),
 * (mm 0, 1, true).
 */
static void test_lazyfree_race(const struct aw_kh_ops *ops)
{
	struct machine *m = calloc(1, sizeof(*m));
	struct aw_ktext_host kt = {
		.ctx = m, .nr_nodes = 1, .nr_memcgs = 1, .zero_pfn = ~0UL, .huge_zero_pfn = ~0UL,
		.table = host_table, .is_table = host_is_table, .folio = host_folio,
	};
	struct aw_kh_host host = {
		.ctx = m, .thp_allowable = host_thp_allowable, .folio_ref_count = host_folio_ref_count,
		.isolate_lru = host_isolate_lru, .putback_lru = host_putback_lru, .put = host_put,
		.alloc_huge = host_alloc_huge_madv_free, .charge = host_charge, .event = host_event,
		.trace_scan_pmd = host_trace_scan_pmd, .trace_collapse = host_record_collapse,
		.trace_scan = host_trace_scan,
	};
	struct aw_ktext_vma vma = { .start = 0, .end = 2 * MB, .vm_flags = 0x3 };
	int status = ops->patched ? SCAN_PAGE_LAZYFREE : SCAN_LACK_REFERENCED_PAGE;
	struct aw_kh *kh;

	if (!m)
		abort();
	m->folios[0].pfn = FOLIO_PFN;
	m->folios[0].mapcount = 1;
	m->folios[0].lru.next = m->folios[0].lru.prev = &m->folios[0].lru;
	m->folios[0].flags = (1UL << PG_anon) | (1UL << PG_lru) | (1UL << PG_swapbacked) | (1UL << PG_dirty);
	m->table[1][0] = (2UL << 12) | ENTRY_TABLE;		/* PGD[0] -> PUD table 2 */
	m->table[2][0] = (3UL << 12) | ENTRY_TABLE;		/* PUD[0] -> PMD table 3 */
	m->table[3][0] = (4UL << 12) | ENTRY_TABLE;		/* PMD[0]: 0 -> PTE table 4 */
	m->table[4][0] = ((unsigned long)FOLIO_PFN << 12) | ENTRY_YOUNG;
	kh = ops->create(&kt, &host);
	CHECK(kh != NULL);
	if (!kh) {
		free(m);
		return;
	}
	ops->knobs(kh, true, 1024, 511, 64, 256);
	ops->set_mm(kh, 0, &(struct aw_kh_mm){ .pgd = m->table[1], .vmas = &vma, .nr_vmas = 1 });
	ops->enter(kh, 0);

	ops->do_scan(kh);
	check_results(m, 0, 1, (const int[]){ 0 }, (const int[]){ status });
	CHECK_EQ(m->writable[0], 1);
	CHECK_EQ(m->referenced[0], 1);
	CHECK_EQ(m->none_or_zero[0], 511);
	CHECK_EQ(m->nr_collapses, 1);
	CHECK_EQ(m->collapse_mm[0], 0);
	CHECK_EQ(m->collapse_isolated[0], 0);
	CHECK_EQ(m->collapse_status[0], status);
	CHECK_EQ(m->allocs, 1);
	CHECK_EQ(m->puts, 1);
	CHECK_EQ(m->isolated, ops->patched ? 0 : 1);
	CHECK_EQ(m->putback, ops->patched ? 0 : 1);
	CHECK_EQ(m->nr_events, 1);
	CHECK_EQ(m->events[0], 0);	/* ktext_kh.h's THP_COLLAPSE_ALLOC */
	/* the table is back under PMD 0, PTE 0 as MADV_FREE left it, folio 0 unlocked on the LRU */
	CHECK_EQ(m->table[3][0], (4UL << 12) | ENTRY_TABLE);
	CHECK_EQ(m->table[4][0], ((unsigned long)FOLIO_PFN << 12) | ENTRY_CLEAN);
	CHECK_EQ(m->folios[0].flags, (1UL << PG_anon) | (1UL << PG_lru));
	if (ops->patched)
		check_scans(m, 0, 2, (const int[]){ 0, 0 }, (const unsigned int[]){ 513, 1 },
			    (const bool[]){ false, true });
	else
		CHECK_EQ(m->nr_scans, 0);
	check_slots(ops, kh, -1, 2 * MB, 1, 1);

	ops->exit(kh, 0);
	ops->destroy(kh);
	free(m);
}

int main(void)
{
	int n = 0;

	for (const struct aw_kh_ops *const *v = aw_kh_variants; *v; v++, n++) {
		printf("%s%s\n", (*v)->name, (*v)->patched ? " (the khugepaged scan series)" : "");
		check_patched(*v);
		test_scan(*v);
		test_lazyfree(*v);
		test_lazyfree_race(*v);
	}
	if (!n) {
		printf("test_ktext_kh: no kernel trees in this build (AGEWALK_KERNEL_TREES): skipped\n");
		return 77;
	}
	return aw_test_report("test_ktext_kh");
}
