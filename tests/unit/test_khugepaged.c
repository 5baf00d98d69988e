// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the khugepaged model (src/sim/khugepaged.c): registration,
 * the cursor and slot lifetime, per-range progress in base and patched,
 * the lazyfree skip (seed and v8), the max_ptes_* limits, MADV_COLLAPSE,
 * the sysfs stores, and page contents through collapse and split.
 *
 * Every expected value is worked out by hand from mm/khugepaged.c as
 * described in docs/khugepaged-plan.md §1 (rule numbers in the comments).
 * One process, no layout (no text/heap/lib/stack VMAs), so a call over an
 * mm costs 1 (the lock) + the ranges, and nothing else.
 */
#include "aw_kernel_test.h"
#include "oracle.h"

#define BASE	0x40000000ULL	/* 1 GiB aligned */
#define PG(n)	((uint64_t)(n) * PAGE_SIZE)
#define MB2	PMD_SIZE

static struct aw_kernel *kernel(int thp, unsigned int features)
{
	return aw_test_kernel(thp, 1ULL << 30, features);
}

/* the same under the 6.12 profile, with 1 GiB of swap, THP madvise */
static struct aw_kernel *kernel_6_12(unsigned int features)
{
	struct aw_config cfg;

	aw_config_default(&cfg);
	cfg.nr_nodes = 1;
	cfg.swap_bytes = 1ULL << 30;
	cfg.thp = AW_THP_MADVISE;
	cfg.thp_modes = 1u << AW_THP_MADVISE;
	cfg.kernel = AW_KERNEL_6_12;
	return aw_kernel_create(&cfg, 0, features, 0);
}

static void proc(struct aw_kernel *k, uint32_t pid)
{
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_PROC, .pid = pid, .flags = AW_PROC_NOLAYOUT }), 0);
}

static void map(struct aw_kernel *k, uint32_t pid, uint64_t addr, uint64_t len, unsigned int flags)
{
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_MMAP, .pid = pid, .addr2 = addr, .len = len,
					     .flags = (uint8_t)flags, .arg = AW_PROT_DEFAULT }), 0);
}

static void touch(struct aw_kernel *k, uint32_t pid, uint64_t addr, uint64_t len, bool write)
{
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_ACCESS, .pid = pid, .addr = addr, .len = len,
					     .repeat = 1, .flags = write ? AW_ACC_WRITE : 0 }), 0);
}

static void advise(struct aw_kernel *k, uint32_t pid, uint64_t addr, uint64_t len, int advice)
{
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_MADVISE, .pid = pid, .addr = addr, .len = len,
					     .arg = (uint32_t)advice }), 0);
}

static void wake(struct aw_kernel *k)
{
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_KHUGEPAGED }), 0);
}

static struct mm_struct *mm_of(struct aw_kernel *k, uint32_t pid)
{
	struct aw_task *t = aw_task_get(k, pid);

	return t && t->alive ? aw_mm(k, t->mm) : NULL;
}

static int nr_slots(struct aw_kernel *k)
{
	int n = 0;

	for (struct list_head *p = k->kh.scan.mm_head.next; p != &k->kh.scan.mm_head; p = p->next)
		n++;
	return n;
}

static int findings(struct aw_kernel *k)
{
	return aw_oracle_nr_findings(k);
}

/* 512 small, young, dirty PTEs in range r of BASE: NOHUGEPAGE, write, HUGEPAGE */
static void small_range(struct aw_kernel *k, uint32_t pid, int r)
{
	advise(k, pid, BASE + r * MB2, MB2, AW_MADV_NOHUGEPAGE);
	touch(k, pid, BASE + r * MB2, MB2, true);
	advise(k, pid, BASE + r * MB2, MB2, AW_MADV_HUGEPAGE);
}

/* Rules 2-3: an anonymous VMA registers only once it has an anon_vma. */
static void test_registration(void)
{
	struct aw_kernel *k = kernel(AW_THP_ALWAYS, AW_FEAT_KHUGEPAGED_PATCHED);
	struct mm_struct *mm;

	proc(k, 1);
	map(k, 1, BASE, 2 * MB2, 0);
	mm = mm_of(k, 1);
	CHECK(!(test_bit(MMF_VM_HUGEPAGE, &mm->flags)));		/* __mmap_region: no anon_vma yet */
	advise(k, 1, BASE, 2 * MB2, AW_MADV_HUGEPAGE);
	CHECK(!(test_bit(MMF_VM_HUGEPAGE, &mm->flags)));		/* hugepage_madvise: still none */
	touch(k, 1, BASE, PG(1), false);		/* huge zero page fault: anon_vma + enter */
	CHECK(test_bit(MMF_VM_HUGEPAGE, &mm->flags));
	CHECK_EQ(nr_slots(k), 1);
	/* khugepaged_fork(): the child of a registered mm goes to the tail */
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_FORK, .pid = 1, .pid2 = 2 }), 0);
	CHECK(test_bit(MMF_VM_HUGEPAGE, &mm_of(k, 2)->flags));
	CHECK_EQ(nr_slots(k), 2);
	CHECK_EQ(container_of(k->kh.scan.mm_head.prev, struct khugepaged_mm_slot, mm_node)->mm,
		 mm_of(k, 2)->id);
	/* __khugepaged_exit() with the cursor elsewhere: the slot goes at once */
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_EXIT, .pid = 2 }), 0);
	CHECK_EQ(nr_slots(k), 1);
	aw_kernel_destroy(k);

	/* THP never: hugepage_pmd_enabled() is false, nothing registers */
	k = kernel(AW_THP_NEVER, AW_FEAT_KHUGEPAGED_PATCHED);
	proc(k, 1);
	map(k, 1, BASE, 2 * MB2, AW_MAP_HUGEPAGE);
	touch(k, 1, BASE, 2 * MB2, true);
	CHECK(!(test_bit(MMF_VM_HUGEPAGE, &mm_of(k, 1)->flags)));
	CHECK(mm_of(k, 1)->vmas[0].anon_vma);		/* small anonymous faults set it */
	aw_kernel_destroy(k);

	/* a 4 KiB read maps the zero page and needs no anon_vma */
	k = kernel(AW_THP_MADVISE, AW_FEAT_KHUGEPAGED_PATCHED);
	proc(k, 1);
	map(k, 1, BASE, 2 * MB2, 0);
	touch(k, 1, BASE, PG(4), false);
	CHECK(!mm_of(k, 1)->vmas[0].anon_vma);
	advise(k, 1, BASE, 2 * MB2, AW_MADV_HUGEPAGE);
	CHECK(!(test_bit(MMF_VM_HUGEPAGE, &mm_of(k, 1)->flags)));
	touch(k, 1, BASE + MB2, PG(1), true);		/* huge fault in range 1 */
	CHECK(test_bit(MMF_VM_HUGEPAGE, &mm_of(k, 1)->flags));
	/* PR_SET_THP_DISABLE survives execve; the new mm is not registered */
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_PRCTL_THP, .pid = 1,
					     .arg = AW_THP_DISABLE_COMPLETELY }), 0);
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_EXEC, .pid = 1 }), 0);
	CHECK_EQ(mm_of(k, 1)->thp_disable, AW_THP_DISABLE_COMPLETELY);
	CHECK(!(test_bit(MMF_VM_HUGEPAGE, &mm_of(k, 1)->flags)));
	CHECK_EQ(nr_slots(k), 0);			/* the old mm's slot went with it */
	/* khugepaged_wait_work(): an empty list keeps the thread asleep */
	wake(k);
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_KHUGEPAGED, .repeat = 3, .flags = AW_KH_FULL }), 0);
	CHECK_EQ(k->kh.wakeups, 0);
	CHECK_EQ(k->kh.topup, 0);
	CHECK_EQ(k->kh.full_scans, 0);
	aw_kernel_destroy(k);
}

/*
 * Rules 7, 8, 11: one mm with range 0 PMD-mapped, range 1 table-less
 * (pmd_none in a PMD table that exists), range 2 512 small young PTEs.
 * Patched: call 1 = 1 + 1 + 1 + 512 (range 2 collapses, the call ends) =
 * 515; call 2 = 1 (no VMA left: the cursor wraps, full scan 1) = 1; then the
 * second pass through the head ends the loop and the top-up is
 * 4096 - 516 = 3580.  Base: 1 + 3 x 512 = 1537, then 1: 1538, top-up 2558.
 */
static void test_range_costs(void)
{
	for (int patched = 0; patched < 2; patched++) {
		struct aw_kernel *k = kernel(AW_THP_MADVISE, patched ? AW_FEAT_KHUGEPAGED_PATCHED : 0);

		aw_oracle_attach(k);
		proc(k, 1);
		map(k, 1, BASE, 3 * MB2, AW_MAP_HUGEPAGE);
		touch(k, 1, BASE, MB2, true);		/* range 0: a THP */
		small_range(k, 1, 2);
		wake(k);
		CHECK_EQ(k->kh.progress, patched ? 516 : 1538);
		CHECK_EQ(k->kh.topup, patched ? 3580 : 2558);
		CHECK_EQ(k->kh.calls, 2);
		CHECK_EQ(k->kh.full_scans, 1);
		CHECK_EQ(k->kh.pages_collapsed, 1);
		CHECK_EQ(k->kh.result[SCAN_PMD_MAPPED], 1);
		CHECK_EQ(k->kh.result[SCAN_NO_PTE_TABLE], 1);
		CHECK_EQ(k->kh.nr_trace, patched ? 2 : 0);	/* P1: patched only */
		if (patched) {
			CHECK_EQ(k->kh.trace[0].progress, 515);
			CHECK(!k->kh.trace[0].full_scan_finished);
			CHECK_EQ(k->kh.trace[1].progress, 1);
			CHECK(k->kh.trace[1].full_scan_finished);
		}
		/* range 2 is PMD-mapped now: 3 x 512 resident pages, the PTE table gone */
		CHECK_EQ(mm_of(k, 1)->rss, 2 * 512);
		CHECK_EQ(findings(k), 0);
		aw_kernel_destroy(k);
	}
}

/*
 * Rule 13 (P4) and 17: a clean PTE of a lazyfree folio stops patched
 * khugepaged at that PTE; base collapses; a write re-dirties it; v8 exempts
 * VM_DROPPABLE.  MADV_FREE of PTE 3 then a read: young and clean.
 */
static void test_lazyfree(void)
{
	for (int variant = 0; variant < 3; variant++) {
		unsigned int f = variant == 0 ? 0 : AW_FEAT_KHUGEPAGED_PATCHED;
		struct aw_kernel *k = kernel(AW_THP_MADVISE, f);

		aw_oracle_attach(k);
		proc(k, 1);
		map(k, 1, BASE, MB2, AW_MAP_NOHUGEPAGE);
		touch(k, 1, BASE, MB2, true);
		advise(k, 1, BASE, MB2, AW_MADV_HUGEPAGE);
		advise(k, 1, BASE + PG(3), PG(1), AW_MADV_FREE);
		touch(k, 1, BASE + PG(3), PG(1), false);
		if (variant == 2)
			touch(k, 1, BASE + PG(3), PG(1), true);	/* re-dirtied: no skip */
		wake(k);
		if (variant == 1) {
			/* 1 + 4 (PTEs 0-3) = 5, then the cursor wraps */
			CHECK_EQ(k->kh.result[SCAN_PAGE_LAZYFREE], 1);
			CHECK_EQ(k->kh.trace[0].progress, 5);
			CHECK_EQ(k->kh.pages_collapsed, 0);
		} else {
			CHECK_EQ(k->kh.pages_collapsed, 1);
		}
		CHECK_EQ(findings(k), 0);
		aw_kernel_destroy(k);
	}

	/* VM_DROPPABLE: folios are born lazyfree; MADV_FREE + read makes a clean
	 * PTE.  Seed: skipped like any lazyfree folio.  v8: exempt, collapsed,
	 * and the THP stays lazyfree (folio_add_new_anon_rmap()). */
	for (int v8 = 0; v8 < 2; v8++) {
		struct aw_kernel *k = kernel(AW_THP_MADVISE, AW_FEAT_KHUGEPAGED_PATCHED |
					     (v8 ? AW_FEAT_KHUGEPAGED_V8 : 0));
		pmd_t *pmd;

		aw_oracle_attach(k);
		proc(k, 1);
		map(k, 1, BASE, MB2, AW_MAP_NOHUGEPAGE | AW_MAP_DROPPABLE);
		touch(k, 1, BASE, MB2, true);
		CHECK(folio_test_lazyfree(pfn_folio(&k->mem, pte_pfn(*aw_pte_lookup(k, mm_of(k, 1), BASE, false,
										     NULL)))));
		advise(k, 1, BASE, MB2, AW_MADV_HUGEPAGE);
		advise(k, 1, BASE, PG(1), AW_MADV_FREE);
		touch(k, 1, BASE, PG(1), false);
		wake(k);
		CHECK_EQ(k->kh.pages_collapsed, v8 ? 1 : 0);
		CHECK_EQ(k->kh.result[SCAN_PAGE_LAZYFREE], v8 ? 0 : 1);
		pmd = aw_pmd_lookup(k, mm_of(k, 1), BASE, false, NULL);
		if (v8 && pmd && pmd_trans_huge(*pmd))
			CHECK(folio_test_lazyfree(pfn_folio(&k->mem, pmd_pfn(*pmd))));
		CHECK_EQ(findings(k), 0);
		aw_kernel_destroy(k);
	}
}

/*
 * Rule 8 limits, patched costs: after fork every page is mapped twice, so
 * the 257th PTE exceeds max_ptes_shared 256 (cost 257); 65 swap PTEs
 * exceed max_ptes_swap 64 at the 65th (cost 65); with max_ptes_none 0 a
 * range whose PTE 2 is none stops there (cost 3).
 */
static void test_limits(void)
{
	struct aw_kernel *k = kernel(AW_THP_MADVISE, AW_FEAT_KHUGEPAGED_PATCHED);

	aw_oracle_attach(k);
	proc(k, 1);
	map(k, 1, BASE, MB2, AW_MAP_NOHUGEPAGE);
	touch(k, 1, BASE, MB2, true);
	advise(k, 1, BASE, MB2, AW_MADV_HUGEPAGE);
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_FORK, .pid = 1, .pid2 = 2 }), 0);
	wake(k);
	/* parent: 1 + 257; child: 1 + 257 (same pages); cursor wraps after each */
	CHECK_EQ(k->kh.result[SCAN_EXCEED_SHARED_PTE], 2);
	CHECK_EQ(k->kh.trace[0].progress, 258);
	CHECK_EQ(k->kh.trace[1].progress, 258);
	aw_kernel_destroy(k);

	k = kernel(AW_THP_MADVISE, AW_FEAT_KHUGEPAGED_PATCHED);
	aw_oracle_attach(k);
	proc(k, 1);
	map(k, 1, BASE, MB2, AW_MAP_NOHUGEPAGE);
	touch(k, 1, BASE, MB2, true);
	advise(k, 1, BASE, PG(65), AW_MADV_PAGEOUT);
	advise(k, 1, BASE, MB2, AW_MADV_HUGEPAGE);
	wake(k);
	CHECK_EQ(k->kh.result[SCAN_EXCEED_SWAP_PTE], 1);
	CHECK_EQ(k->kh.trace[0].progress, 1 + 65);
	aw_kernel_destroy(k);

	k = kernel(AW_THP_MADVISE, AW_FEAT_KHUGEPAGED_PATCHED);
	aw_oracle_attach(k);
	proc(k, 1);
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_KHUGEPAGED, .arg = AW_KH_MAX_PTES_NONE }), 0);
	map(k, 1, BASE, MB2, AW_MAP_NOHUGEPAGE);
	touch(k, 1, BASE, PG(2), true);
	touch(k, 1, BASE + PG(3), MB2 - PG(3), true);
	advise(k, 1, BASE, MB2, AW_MADV_HUGEPAGE);
	wake(k);
	CHECK_EQ(k->kh.result[SCAN_EXCEED_NONE_PTE], 1);
	CHECK_EQ(k->kh.trace[0].progress, 1 + 3);
	CHECK_EQ(findings(k), 0);
	aw_kernel_destroy(k);
}

/* The sysfs stores: pages_to_scan 1..UINT_MAX, max_ptes_* 0..511. */
static void test_knobs(void)
{
	struct aw_kernel *k = kernel(AW_THP_ALWAYS, 0);

	CHECK_EQ(k->kh.pages_to_scan, 4096);
	CHECK_EQ(k->kh.max_ptes_none, 511);
	CHECK_EQ(k->kh.max_ptes_swap, 64);
	CHECK_EQ(k->kh.max_ptes_shared, 256);
	CHECK_EQ(aw_khugepaged_set(k, AW_KH_PAGES_TO_SCAN, 0), -1);
	CHECK_EQ(aw_khugepaged_set(k, AW_KH_MAX_PTES_NONE, 512), -1);
	CHECK_EQ(aw_khugepaged_set(k, AW_KH_MAX_PTES_SHARED, 511), 0);
	CHECK_EQ(k->kh.max_ptes_shared, 511);
	CHECK_EQ(aw_khugepaged_set(k, AW_KH_PAGES_TO_SCAN, 100), 0);
	CHECK_EQ(k->kh.pages_to_scan, 100);
	/* an event with an illegal value is counted as ignored */
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_KHUGEPAGED, .arg = AW_KH_MAX_PTES_SWAP, .len = 600 }), 0);
	CHECK_EQ(k->kh.max_ptes_swap, 64);
	CHECK_EQ(k->ignored_events, 1);
	aw_kernel_destroy(k);
}

/*
 * Rules 4, 5, 14 and the trylock: the cursor's own slot survives its mm's
 * exit until the next call (+1, then collected); a failed mmap_lock trylock
 * costs 0 and moves the cursor; a THP-disabled mm costs 1 and moves the
 * cursor in base and patched alike (P5 is unobservable sequentially).
 */
static void test_cursor(void)
{
	for (int patched = 0; patched < 2; patched++) {
		unsigned int f = patched ? AW_FEAT_KHUGEPAGED_PATCHED : 0;
		struct aw_kernel *k = kernel(AW_THP_ALWAYS, f);

		aw_oracle_attach(k);
		proc(k, 1);
		map(k, 1, BASE, 16 * MB2, 0);
		touch(k, 1, BASE, 16 * MB2, true);	/* 16 PMD-mapped ranges */
		/* pages 4: base stops after range 0 (1 + 512); patched after 4 ranges */
		CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_KHUGEPAGED, .len = 4 }), 0);
		CHECK(k->kh.scan.mm_slot != NULL);
		CHECK_EQ(k->kh.progress, patched ? 4 : 513);
		CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_EXIT, .pid = 1 }), 0);
		CHECK_EQ(nr_slots(k), 1);		/* kept for collect_mm_slot() */
		CHECK(k->kh.scan.mm_slot->dead);
		wake(k);				/* +1, test_exit, collected, wrapped */
		CHECK_EQ(nr_slots(k), 0);
		CHECK_EQ(k->kh.full_scans, 1);
		CHECK_EQ(k->kh.progress, (patched ? 4 : 513) + 1);
		CHECK_EQ(findings(k), 0);
		aw_kernel_destroy(k);

		k = kernel(AW_THP_ALWAYS, f);
		aw_oracle_attach(k);
		proc(k, 1);
		map(k, 1, BASE, MB2, 0);
		touch(k, 1, BASE, MB2, true);
		CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_CONTEND, .pid = 1, .arg = AW_LOCK_MMAP,
						     .flags = AW_CONTEND_ON }), 0);
		wake(k);
		CHECK_EQ(k->kh.calls, 1);
		CHECK_EQ(k->kh.progress, 0);		/* trylock failed: nothing counted */
		CHECK_EQ(k->kh.full_scans, 1);		/* ... but the cursor moved on */
		CHECK_EQ(k->kh.topup, 4096);
		CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_CONTEND, .pid = 1, .arg = AW_LOCK_MMAP }), 0);
		CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_PRCTL_THP, .pid = 1,
						     .arg = AW_THP_DISABLE_COMPLETELY }), 0);
		wake(k);
		CHECK_EQ(k->kh.progress, 1);		/* the lock, then exit_or_disable */
		CHECK_EQ(k->kh.full_scans, 2);
		CHECK_EQ(nr_slots(k), 1);		/* collect_mm_slot() frees exiting mms only */
		CHECK(test_bit(MMF_VM_HUGEPAGE, &mm_of(k, 1)->flags));
		CHECK_EQ(findings(k), 0);
		aw_kernel_destroy(k);
	}
}

/*
 * Contents: a write through a PMD mapping versions the subpages written;
 * a collapse carries every page's version (a swapped-out page's from its
 * slot, after the swap-in); a split keeps them.  MADV_COLLAPSE (rule 10)
 * collapses regardless of the none limit and referenced test.
 */
static void test_contents(void)
{
	struct aw_kernel *k = kernel(AW_THP_ALWAYS, AW_FEAT_KHUGEPAGED_PATCHED);
	struct mm_struct *mm;
	struct folio *thp;
	pmd_t *pmd;

	aw_oracle_attach(k);
	proc(k, 1);
	map(k, 1, BASE, MB2, 0);
	touch(k, 1, BASE + PG(3), PG(2), true);	/* a THP; subpages 3 and 4 written */
	mm = mm_of(k, 1);
	pmd = aw_pmd_lookup(k, mm, BASE, false, NULL);
	CHECK(pmd && pmd_trans_huge(*pmd));
	thp = pfn_folio(&k->mem, pmd_pfn(*pmd));
	CHECK_EQ(*folio_page_version(thp, 3), 1);
	CHECK_EQ(*folio_page_version(thp, 4), 1);
	CHECK_EQ(*folio_page_version(thp, 5), 0);
	touch(k, 1, BASE + PG(4), PG(1), true);
	CHECK_EQ(*folio_page_version(thp, 4), 2);
	aw_kernel_destroy(k);

	/* small pages 0..9 written, page 5 twice, page 7 paged out; the rest none */
	k = kernel(AW_THP_MADVISE, AW_FEAT_KHUGEPAGED_PATCHED);
	aw_oracle_attach(k);
	proc(k, 1);
	map(k, 1, BASE, MB2, AW_MAP_NOHUGEPAGE);
	touch(k, 1, BASE, PG(10), true);
	touch(k, 1, BASE + PG(5), PG(1), true);
	advise(k, 1, BASE + PG(7), PG(1), AW_MADV_PAGEOUT);
	advise(k, 1, BASE, MB2, AW_MADV_HUGEPAGE);
	advise(k, 1, BASE, MB2, AW_MADV_COLLAPSE);
	mm = mm_of(k, 1);
	pmd = aw_pmd_lookup(k, mm, BASE, false, NULL);
	CHECK(pmd && pmd_trans_huge(*pmd));
	thp = pfn_folio(&k->mem, pmd_pfn(*pmd));
	CHECK_EQ(*folio_page_version(thp, 0), 1);
	CHECK_EQ(*folio_page_version(thp, 5), 2);
	CHECK_EQ(*folio_page_version(thp, 7), 1);	/* swapped back in */
	CHECK_EQ(*folio_page_version(thp, 10), 0);
	CHECK_EQ(k->kh.madv_collapsed, 1);
	CHECK_EQ(k->kh.pages_collapsed, 0);		/* not khugepaged's */
	CHECK_EQ(mm->rss, 512);
	CHECK(folio_test(thp, PG_swapbacked));
	CHECK(test_bit(MMF_VM_HUGEPAGE, &mm->flags));		/* MADV_HUGEPAGE after the writes' anon_vma */
	/* munmap of page 0 splits the THP; page 5 keeps its contents */
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_MUNMAP, .pid = 1, .addr = BASE, .len = PG(1) }), 0);
	CHECK_EQ(pfn_folio(&k->mem, pte_pfn(*aw_pte_lookup(k, mm, BASE + PG(5), false, NULL)))->version, 2);
	CHECK_EQ(findings(k), 0);
	aw_kernel_destroy(k);
}

/*
 * Rule 9: the THP goes to the first node with the most pages of the range
 * (300 on node 1, 212 on node 0: node 1); a memcg that cannot take 512 more
 * pages fails the charge without reclaim (SCAN_CGROUP_CHARGE_FAIL), which
 * still ends the call (collapse_huge_page() dropped the lock).  User page
 * tables are charged too (GFP_PGTABLE_USER): the range's PUD, PMD and PTE
 * tables are 3 pages, so the limit is 1024 + 4 pages: 515 + 512 fit for
 * the first collapse, which frees the PTE table and its charge (the
 * model's deviation: the kernel deposits it), leaving 512 + 2; range 1's
 * 512 pages and its PTE table make 1027, and no THP fits beside them.
 */
static void test_collapse_target(void)
{
	struct aw_config cfg;
	struct aw_kernel *k;
	pmd_t *pmd;

	aw_config_default(&cfg);
	cfg.nr_nodes = 2;
	cfg.node[0].mem_bytes = cfg.node[1].mem_bytes = 1ULL << 30;
	cfg.node[0].cpu_mask = 0x3;
	cfg.node[1].cpu_mask = 0xc;
	cfg.nr_memcgs = 2;
	cfg.memcg_limit[1] = (4ULL << 20) + 4 * 4096;	/* 1028 pages */
	cfg.swap_bytes = 1ULL << 30;
	cfg.thp = AW_THP_MADVISE;
	cfg.thp_modes = 1u << AW_THP_MADVISE;
	k = aw_kernel_create(&cfg, 0, AW_FEAT_KHUGEPAGED_PATCHED, 0);
	aw_oracle_attach(k);
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_PROC, .pid = 1, .cpu = 2, .memcg = 1,
					     .flags = AW_PROC_NOLAYOUT }), 0);
	map(k, 1, BASE, 2 * MB2, AW_MAP_NOHUGEPAGE);
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_ACCESS, .pid = 1, .cpu = 2, .addr = BASE,
					     .len = PG(300), .repeat = 1, .flags = AW_ACC_WRITE }), 0);	/* node 1 */
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_ACCESS, .pid = 1, .cpu = 0, .addr = BASE + PG(300),
					     .len = PG(212), .repeat = 1, .flags = AW_ACC_WRITE }), 0);
	advise(k, 1, BASE, MB2, AW_MADV_HUGEPAGE);
	wake(k);
	pmd = aw_pmd_lookup(k, mm_of(k, 1), BASE, false, NULL);
	CHECK(pmd && pmd_trans_huge(*pmd));
	if (pmd && pmd_trans_huge(*pmd))
		CHECK_EQ(pfn_folio(&k->mem, pmd_pfn(*pmd))->nid, 1);
	CHECK_EQ(k->memcg[1].usage, 512 + 2);	/* the small pages and the PTE table were uncharged */
	/* range 1: 512 small pages and a PTE table (usage 1027), then no room for a THP */
	touch(k, 1, BASE + MB2, MB2, true);
	CHECK_EQ(k->memcg[1].usage, 1027);
	advise(k, 1, BASE + MB2, MB2, AW_MADV_HUGEPAGE);
	wake(k);
	CHECK_EQ(k->kh.result[SCAN_CGROUP_CHARGE_FAIL], 1);
	CHECK_EQ(k->memcg[1].usage, 1027);
	CHECK_EQ(k->kh.pages_collapsed, 1);
	CHECK_EQ(findings(k), 0);
	aw_kernel_destroy(k);
}

/*
 * RSS: read faults map the zero page without counting it; a collapse makes
 * every none or zero PTE anonymous memory (MM_ANONPAGES += none_or_zero),
 * so 1 written page + 16 zero-page reads + 495 holes become 512 resident,
 * and munmap takes all 512 back to 0.
 */
static void test_collapse_rss(void)
{
	struct aw_kernel *k = kernel(AW_THP_MADVISE, AW_FEAT_KHUGEPAGED_PATCHED);
	struct mm_struct *mm;

	aw_oracle_attach(k);
	proc(k, 1);
	map(k, 1, BASE, MB2, AW_MAP_NOHUGEPAGE);
	touch(k, 1, BASE, PG(1), true);
	touch(k, 1, BASE + PG(1), PG(16), false);
	mm = mm_of(k, 1);
	CHECK_EQ(mm->rss, 1);
	advise(k, 1, BASE, MB2, AW_MADV_HUGEPAGE);
	advise(k, 1, BASE, MB2, AW_MADV_COLLAPSE);
	CHECK_EQ(k->kh.madv_collapsed, 1);
	CHECK_EQ(mm->rss, 512);
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_MUNMAP, .pid = 1, .addr = BASE, .len = MB2 }), 0);
	CHECK_EQ(mm->rss, 0);
	CHECK_EQ(findings(k), 0);
	aw_kernel_destroy(k);
}

/*
 * prctl: mainline's prctl_set_thp_disable() only flips the flags; with
 * AW_FEAT_KH_PRCTL_ENTER (docs/oracles.md) re-enabling THP runs
 * khugepaged_enter_vma() over the VMAs.  An mm whose only eligible VMA got
 * its anon_vma while THP was disabled is registered by neither the faults
 * (THP disabled) nor, in mainline, the prctl.
 */
static void test_prctl_enter(void)
{
	for (int enter = 0; enter < 2; enter++) {
		struct aw_kernel *k = kernel(AW_THP_ALWAYS, AW_FEAT_KHUGEPAGED_PATCHED |
					     (enter ? AW_FEAT_KH_PRCTL_ENTER : 0));

		proc(k, 1);
		CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_PRCTL_THP, .pid = 1,
						     .arg = AW_THP_DISABLE_COMPLETELY }), 0);
		map(k, 1, BASE, MB2, 0);
		touch(k, 1, BASE, MB2, true);		/* small pages: THP disabled */
		CHECK(!(test_bit(MMF_VM_HUGEPAGE, &mm_of(k, 1)->flags)));
		CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_PRCTL_THP, .pid = 1, .arg = AW_THP_ENABLE }), 0);
		CHECK_EQ(!!(test_bit(MMF_VM_HUGEPAGE, &mm_of(k, 1)->flags)), enter);
		CHECK_EQ(nr_slots(k), enter);
		aw_kernel_destroy(k);
	}
}

static bool has_finding(struct aw_kernel *k, enum aw_oracle_id id)
{
	for (int i = 0; i < aw_oracle_nr_findings(k); i++)
		if (aw_oracle_finding(k, i)->oracle == id)
			return true;
	return false;
}

/*
 * Each khugepaged oracle fires on a state built by hand to violate it:
 * a flag without a slot and a slot without its flag (khugepaged-slot), a
 * range whose reported cost is not the rule's and a wake-up whose trace
 * does not add up (khugepaged-progress), a THP whose subpage lost its
 * contents (khugepaged-data-loss).
 */
static void test_oracles_fire(void)
{
	struct aw_kernel *k = kernel(AW_THP_ALWAYS, AW_FEAT_KHUGEPAGED_PATCHED);
	struct mm_struct *mm;
	pmd_t *pmd;

	aw_oracle_attach(k);
	proc(k, 1);
	proc(k, 2);
	map(k, 1, BASE, MB2, 0);
	touch(k, 1, BASE, MB2, true);			/* registered, range 0 a THP */
	mm = mm_of(k, 1);
	clear_bit(MMF_VM_HUGEPAGE, &mm->flags);			/* a slot without its flag */
	wake(k);
	CHECK(has_finding(k, AW_OR_KH_SLOT));
	aw_kernel_destroy(k);

	k = kernel(AW_THP_ALWAYS, AW_FEAT_KHUGEPAGED_PATCHED);
	aw_oracle_attach(k);
	proc(k, 1);
	set_bit(MMF_VM_HUGEPAGE, &mm_of(k, 1)->flags);		/* a flag without a slot */
	wake(k);
	CHECK(has_finding(k, AW_OR_KH_SLOT));
	aw_kernel_destroy(k);

	k = kernel(AW_THP_ALWAYS, AW_FEAT_KHUGEPAGED_PATCHED);
	aw_oracle_attach(k);
	proc(k, 1);
	map(k, 1, BASE, MB2, 0);
	touch(k, 1, BASE, MB2, true);
	mm = mm_of(k, 1);
	aw_or_kh_range_begin(k, mm, &mm->vmas[0], BASE);	/* PMD-mapped: the rule says 1 */
	aw_or_kh_range_end(k, SCAN_PMD_MAPPED, 512);
	CHECK(has_finding(k, AW_OR_KH_PROGRESS));
	CHECK_EQ(aw_oracle_nr_findings(k), 1);
	aw_or_kh_wakeup_end(k, 4096, 0, 4000);		/* the trace misses 96 */
	CHECK_EQ(aw_oracle_nr_findings(k), 2);
	/* a collapse "begun" over a PMD mapping has nothing to compare */
	aw_or_kh_collapse_begin(k, mm, &mm->vmas[0], BASE, true);
	aw_or_kh_collapse_end(k, mm, BASE, SCAN_SUCCEED);
	CHECK_EQ(aw_oracle_nr_findings(k), 2);
	aw_kernel_destroy(k);

	k = kernel(AW_THP_MADVISE, AW_FEAT_KHUGEPAGED_PATCHED);
	aw_oracle_attach(k);
	proc(k, 1);
	map(k, 1, BASE, MB2, AW_MAP_NOHUGEPAGE);
	touch(k, 1, BASE, MB2, true);			/* 512 pages, version 1 each */
	mm = mm_of(k, 1);
	advise(k, 1, BASE, MB2, AW_MADV_HUGEPAGE);
	aw_or_kh_collapse_begin(k, mm, &mm->vmas[0], BASE, false);	/* snapshot: all 1 */
	{
		struct aw_kh_oracle *o = k->kh_oracle;

		k->kh_oracle = NULL;			/* collapse unobserved ... */
		advise(k, 1, BASE, MB2, AW_MADV_COLLAPSE);
		k->kh_oracle = o;
	}
	pmd = aw_pmd_lookup(k, mm, BASE, false, NULL);
	CHECK(pmd && pmd_trans_huge(*pmd));
	if (pmd && pmd_trans_huge(*pmd))
		*folio_page_version(pfn_folio(&k->mem, pmd_pfn(*pmd)), 9) = 0;	/* ... losing page 9 */
	aw_or_kh_collapse_end(k, mm, BASE, SCAN_SUCCEED);
	CHECK(has_finding(k, AW_OR_KH_DATA));
	CHECK_EQ(aw_oracle_nr_findings(k), 1);
	aw_kernel_destroy(k);

	/*
	 * khugepaged-decision: 512 small pages written, then every PTE made
	 * old and every folio's PG_referenced cleared (as an aging walk and
	 * a reference check would).  A khugepaged range "collapsed" from
	 * there is refused by the referenced test: a finding.  With page 7
	 * young again it is not; and then the range passes the scan (512
	 * present, writable, anon, on the LRU), so "lack_referenced_page" is
	 * a finding, while a failed allocation is not.  Read-only (no PTE
	 * writable), a collapse of it is a finding again (SCAN_PAGE_RO).
	 */
	for (int c = 0; c < 3; c++) {	/* 0: nothing referenced; 1: page 7 young; 2: and read-only */
		const struct aw_ptable *pt;

		k = kernel(AW_THP_MADVISE, AW_FEAT_KHUGEPAGED_PATCHED);
		aw_oracle_attach(k);
		proc(k, 1);
		map(k, 1, BASE, MB2, AW_MAP_NOHUGEPAGE);
		touch(k, 1, BASE, MB2, true);
		mm = mm_of(k, 1);
		pmd = aw_pmd_lookup(k, mm, BASE, false, NULL);
		CHECK(pmd && pmd_present(*pmd) && !pmd_trans_huge(*pmd));
		if (!pmd || !pmd_present(*pmd) || pmd_trans_huge(*pmd)) {
			aw_kernel_destroy(k);
			continue;
		}
		pt = aw_table(&k->pt, aw_entry_table(*pmd));
		for (unsigned int i = 0; i < HPAGE_PMD_NR; i++) {
			((struct aw_ptable *)pt)->e[i] &= ~(pte_t)(_PAGE_ACCESSED | (c == 2 ? _PAGE_RW : 0));
			folio_clear(pfn_folio(&k->mem, pte_pfn(pt->e[i])), PG_referenced);
		}
		if (c)
			((struct aw_ptable *)pt)->e[7] |= _PAGE_ACCESSED;
		aw_or_kh_range_begin(k, mm, &mm->vmas[0], BASE);
		aw_or_kh_range_end(k, SCAN_SUCCEED, HPAGE_PMD_NR);
		CHECK_EQ(has_finding(k, AW_OR_KH_DECISION), c != 1);
		if (c == 1) {
			aw_or_kh_range_begin(k, mm, &mm->vmas[0], BASE);
			aw_or_kh_range_end(k, SCAN_ALLOC_HUGE_PAGE_FAIL, HPAGE_PMD_NR);
			CHECK(!has_finding(k, AW_OR_KH_DECISION));
			aw_or_kh_range_begin(k, mm, &mm->vmas[0], BASE);
			aw_or_kh_range_end(k, SCAN_LACK_REFERENCED_PAGE, HPAGE_PMD_NR);
			CHECK(has_finding(k, AW_OR_KH_DECISION));
		}
		aw_kernel_destroy(k);
	}
}

/*
 * The referenced test (hpage_collapse_scan_pmd(): SCAN_LACK_REFERENCED_PAGE),
 * on 6.12, whose walk clears a young page's PG_referenced when it first
 * sees it (folio_update_gen()): 512 pages written in a nohugepage VMA (no
 * fault sets PG_referenced on an anon page), one forced aging pass (every
 * PTE old, no folio referenced), then MADV_HUGEPAGE and a wake-up: the
 * range is not collapsed, lack_referenced_page, and the scan refused it:
 * collapse_huge_page() never ran (no attempt recorded).  Page 3 read again (its
 * PTE young: referenced 1, no swap PTEs) and another wake-up: collapsed.
 */
static void test_lack_referenced(void)
{
	struct aw_kernel *k = kernel_6_12(AW_FEAT_KHUGEPAGED_PATCHED);
	pmd_t *pmd;

	CHECK(k != NULL);
	if (!k)
		return;
	aw_oracle_attach(k);
	proc(k, 1);
	map(k, 1, BASE, MB2, AW_MAP_NOHUGEPAGE);
	touch(k, 1, BASE, MB2, true);
	ev_age(k, true);
	advise(k, 1, BASE, MB2, AW_MADV_HUGEPAGE);
	wake(k);
	CHECK_EQ(k->kh.result[SCAN_LACK_REFERENCED_PAGE], 1);
	CHECK_EQ(k->kh.nr_collapses, 0);	/* refused by the scan: collapse_huge_page() never ran */
	pmd = aw_pmd_lookup(k, mm_of(k, 1), BASE, false, NULL);
	CHECK(pmd && !pmd_trans_huge(*pmd));
	touch(k, 1, BASE + PG(3), PAGE_SIZE, false);
	wake(k);
	pmd = aw_pmd_lookup(k, mm_of(k, 1), BASE, false, NULL);
	CHECK(pmd && pmd_trans_huge(*pmd));
	CHECK_EQ(aw_oracle_nr_findings(k), 0);
	aw_kernel_destroy(k);
}

/*
 * SCAN_PAGE_RO with swap PTEs: only a present page's pte_write() makes the
 * range writable, so swap PTEs do not.  300 pages written, pages 0-3
 * paged out (4 swap PTEs, within max_ptes_swap 64), then the range made
 * read-only: 296 present read-only pages, all young (referenced 296 >=
 * 256, so the swap-in rule passes), 212 none.  The scan ends with
 * page_ro: collapse_huge_page() never runs, so nothing is swapped in --
 * page 0 is still a swap PTE.
 */
static void test_page_ro_swap(void)
{
	struct aw_kernel *k = kernel(AW_THP_MADVISE, AW_FEAT_KHUGEPAGED_PATCHED);
	unsigned long refaults;
	pte_t *pte;

	aw_oracle_attach(k);
	proc(k, 1);
	map(k, 1, BASE, MB2, AW_MAP_NOHUGEPAGE);
	touch(k, 1, BASE, PG(300), true);
	advise(k, 1, BASE, PG(4), AW_MADV_PAGEOUT);
	pte = aw_pte_lookup(k, mm_of(k, 1), BASE, false, NULL);
	CHECK(pte && pte_swp(*pte));
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_MPROTECT, .pid = 1, .addr = BASE, .len = MB2,
					     .arg = AW_PROT_READ }), 0);
	advise(k, 1, BASE, MB2, AW_MADV_HUGEPAGE);
	refaults = k->node_stats[0].refaults;
	wake(k);
	CHECK_EQ(k->kh.result[SCAN_PAGE_RO], 1);
	CHECK_EQ(k->kh.nr_collapses, 0);
	CHECK_EQ(k->node_stats[0].refaults, refaults);
	pte = aw_pte_lookup(k, mm_of(k, 1), BASE, false, NULL);
	CHECK(pte && pte_swp(*pte));
	CHECK_EQ(aw_oracle_nr_findings(k), 0);
	aw_kernel_destroy(k);
}

/*
 * hpage_collapse_scan_pmd() and __collapse_huge_page_isolate(): a range
 * whose present pages are all read-only is not collapsed (SCAN_PAGE_RO),
 * by khugepaged or MADV_COLLAPSE; only a present page's pte_write() counts,
 * so zero-page PTEs do not make a range writable.  Pages 0..3 written,
 * then the whole range mprotect()ed PROT_READ: 4 present read-only PTEs,
 * 508 none (max_ptes_none 511), 4 referenced.  khugepaged: one call, the
 * mm's lock (1) and all 512 PTEs scanned (patched cost), result page_ro.
 * MADV_COLLAPSE: EINVAL, nothing collapsed.  Pages 0..3 read (zero page)
 * instead, plus page 4 written: page 4 is writable, so the range collapses.
 */
static void test_page_ro(void)
{
	for (int madv = 0; madv < 2; madv++) {
		struct aw_kernel *k = kernel(AW_THP_MADVISE, AW_FEAT_KHUGEPAGED_PATCHED);
		struct mm_struct *mm;
		pmd_t *pmd;

		aw_oracle_attach(k);
		proc(k, 1);
		map(k, 1, BASE, MB2, AW_MAP_NOHUGEPAGE);
		touch(k, 1, BASE, PG(4), true);
		CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_MPROTECT, .pid = 1, .addr = BASE, .len = MB2,
						     .arg = AW_PROT_READ }), 0);
		advise(k, 1, BASE, MB2, AW_MADV_HUGEPAGE);
		if (madv) {
			advise(k, 1, BASE, MB2, AW_MADV_COLLAPSE);
			CHECK_EQ(k->ignored_events, 1);		/* EINVAL */
			CHECK_EQ(k->kh.madv_collapsed, 0);
		} else {
			wake(k);
			CHECK_EQ(k->kh.result[SCAN_PAGE_RO], 1);
			CHECK_EQ(k->kh.trace[0].progress, 513);
			CHECK_EQ(k->kh.pages_collapsed, 0);
		}
		mm = mm_of(k, 1);
		pmd = aw_pmd_lookup(k, mm, BASE, false, NULL);
		CHECK(pmd && !pmd_trans_huge(*pmd));
		CHECK_EQ(mm->rss, 4);
		CHECK_EQ(findings(k), 0);
		aw_kernel_destroy(k);
	}

	/* zero pages and one writable page: collapsed */
	{
		struct aw_kernel *k = kernel(AW_THP_MADVISE, AW_FEAT_KHUGEPAGED_PATCHED);
		pmd_t *pmd;

		proc(k, 1);
		map(k, 1, BASE, MB2, AW_MAP_NOHUGEPAGE);
		touch(k, 1, BASE, PG(4), false);
		touch(k, 1, BASE + PG(4), PG(1), true);
		advise(k, 1, BASE, MB2, AW_MADV_HUGEPAGE);
		advise(k, 1, BASE, MB2, AW_MADV_COLLAPSE);
		pmd = aw_pmd_lookup(k, mm_of(k, 1), BASE, false, NULL);
		CHECK(pmd && pmd_trans_huge(*pmd));
		CHECK_EQ(k->kh.madv_collapsed, 1);
		aw_kernel_destroy(k);
	}
}

/* anon pages of node 0's root lruvec in the generation of seq */
static long anon_pages(struct aw_kernel *k, unsigned long seq)
{
	return aw_lruvec(k, 0, 0)->lrugen.nr_pages[lru_gen_from_seq(seq)][0];
}

/*
 * A collapse puts the small folios it took back on the LRU before they
 * lose its mapping (__collapse_huge_page_isolate()'s folio_isolate_lru(),
 * then __collapse_huge_page_copy_succeeded()'s release_pte_folio()):
 * one that another mm still maps stays, where folio_add_lru() puts it.
 * 6.12: 512 pages written at max_seq 3; three forced passes leave them
 * in the oldest generation (max_seq 6, min_seq 3).  P2 forks them, which
 * write-protects P1's PTEs; P1 writes page 0 again, a COW copy (the only
 * writable PTE, or the range is SCAN_PAGE_RO).  MADV_COLLAPSE in P1:
 * seq 3 is not one of the two youngest, so lru_gen_del_folio() sets no
 * PG_active, and lru_gen_folio_seq() puts an anon folio outside the swap
 * cache at max_seq - 1 = 5: the 511 pages P2 still maps go there, and so
 * does the new THP (512): 1023 at seq 5; the copy P1 made is freed; seq 3
 * keeps page 0's original, which only P2 maps.  (The model before left
 * the 511 at seq 3.)
 */
static void test_collapse_putback(void)
{
	struct aw_kernel *k = kernel_6_12(0);

	CHECK(k != NULL);
	if (!k)
		return;
	proc(k, 1);
	map(k, 1, BASE, MB2, AW_MAP_NOHUGEPAGE);
	touch(k, 1, BASE, MB2, true);
	CHECK_EQ(aw_lruvec(k, 0, 0)->lrugen.max_seq, 3);
	ev_age(k, true);
	ev_age(k, true);
	ev_age(k, true);
	CHECK_EQ(aw_lruvec(k, 0, 0)->lrugen.max_seq, 6);
	CHECK_EQ(anon_pages(k, 3), 512);
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_FORK, .pid = 1, .pid2 = 2 }), 0);
	touch(k, 1, BASE, PG(1), true);
	advise(k, 1, BASE, MB2, AW_MADV_HUGEPAGE);
	advise(k, 1, BASE, MB2, AW_MADV_COLLAPSE);
	CHECK_EQ(k->kh.madv_collapsed, 1);
	CHECK_EQ(anon_pages(k, 3), 1);
	CHECK_EQ(anon_pages(k, 5), 1023);
	CHECK_EQ(anon_pages(k, 6), 0);
	aw_kernel_destroy(k);
}

int main(void)
{
	test_registration();
	test_range_costs();
	test_lazyfree();
	test_limits();
	test_knobs();
	test_cursor();
	test_contents();
	test_collapse_target();
	test_collapse_rss();
	test_prctl_enter();
	test_oracles_fire();
	test_page_ro();
	test_lack_referenced();
	test_page_ro_swap();
	test_collapse_putback();
	return aw_test_report("test_khugepaged");
}
