// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel profiles (docs/model-notes.md, "Kernel profiles"): the aging
 * (run_aging, should_skip_mm, should_run_aging, try_to_inc_min_seq), where
 * lru_gen_add_folio() places a folio, and THP placement, splitting and
 * collapse.  Every expected value is worked out by hand from the kernel
 * rule quoted next to it, never read back from the model.
 */
#include <string.h>

#include "aw_profile_test.h"

/*
 * 6.1/6.12 run_aging(): a debugfs '+' without force_scan is refused with
 * -ERANGE when min_seq[!can_swap] + MAX_NR_GENS - 1 <= max_seq.  A new
 * lruvec has max_seq = MIN_NR_GENS + 1 = 3 and min_seq 0/0 (four
 * generations): 0 + 4 - 1 = 3 <= 3, refused; no pass, max_seq stays 3.
 * A forced '+' is never refused: inc_max_seq() finds both types at
 * MAX_NR_GENS, inc_min_seq() takes min_seq to 1/1, max_seq 4; the next
 * unforced '+' is refused again (1 + 3 <= 4).  Mainline has no such test
 * ("mm/mglru: rework aging feedback"): the first '+' ages, max_seq 4.
 * The index is !can_swap: 6.1 without swap reads min_seq[file]; with it
 * set to 1 by hand (anon 0, empty lists), 1 + 3 = 4 <= 3 is false and
 * the '+' ages, while 6.1 with swap reads min_seq[anon] = 0 and refuses.
 */
static void test_run_aging_erange(void)
{
	for (int p = 0; p < 2; p++) {
		struct aw_kernel *k = profile_kernel(p ? AW_KERNEL_MAINLINE : AW_KERNEL_6_12, 1ULL << 30, 1);
		struct lru_gen_folio *g;

		CHECK(k != NULL);
		if (!k)
			continue;
		g = &k->lruvecs[0].lrugen;
		CHECK_EQ(g->max_seq, 3);
		ev_age(k, false);
		CHECK_EQ(k->node_stats[0].aging_refused, p ? 0 : 1);
		CHECK_EQ(g->max_seq, p ? 4 : 3);
		CHECK_EQ(k->node_stats[0].nr_passes, p ? 1 : 0);
		if (!p) {
			ev_age(k, true);
			CHECK_EQ(g->max_seq, 4);
			CHECK_EQ(g->min_seq[LRU_GEN_ANON], 1);
			ev_age(k, false);
			CHECK_EQ(k->node_stats[0].aging_refused, 2);
			CHECK_EQ(g->max_seq, 4);
		}
		aw_kernel_destroy(k);
	}
	for (int swap = 0; swap < 2; swap++) {
		struct aw_kernel *k = profile_kernel(AW_KERNEL_6_1, swap ? 1ULL << 30 : 0, 1);

		CHECK(k != NULL);
		if (!k)
			continue;
		k->lruvecs[0].lrugen.min_seq[LRU_GEN_FILE] = 1;
		ev_age(k, false);
		CHECK_EQ(k->node_stats[0].aging_refused, swap ? 1 : 0);
		CHECK_EQ(k->lruvecs[0].lrugen.max_seq, swap ? 3 : 4);
		aw_kernel_destroy(k);
	}
}

/*
 * 6.1 should_skip_mm(): after clearing the node bit, an mm whose
 * MM_FILEPAGES (+ MM_ANONPAGES + MM_SHMEMPAGES with can_swap) is below
 * MIN_LRU_BATCH (64) is skipped, forced pass or not (force_scan only
 * bypasses the bitmap test).  One process with n anonymous pages, one
 * forced '+':
 * - 6.1 with swap (can_swap): 63 pages -> skipped: no walk, the written
 *   PTE stays young; 64 pages -> walked (1 walk), the PTE is cleared.
 * - 6.1 without swap: 64 anonymous pages count 0 (MM_FILEPAGES only) ->
 *   skipped, no walk.
 * - 6.12 (get_next_mm(), no size test): 63 pages -> walked, PTE cleared.
 */
static void test_should_skip_mm(void)
{
	static const struct {
		enum aw_kernel_profile profile;
		uint64_t swap;
		unsigned int pages;
		unsigned long walks;
	} c[] = {
		{ AW_KERNEL_6_1, 1ULL << 30, 63, 0 },
		{ AW_KERNEL_6_1, 1ULL << 30, 64, 1 },
		{ AW_KERNEL_6_1, 0, 64, 0 },
		{ AW_KERNEL_6_12, 1ULL << 30, 63, 1 },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct aw_kernel *k = profile_kernel(c[i].profile, c[i].swap, 1);
		const struct aw_pass *p;
		pte_t *pte;

		CHECK(k != NULL);
		if (!k)
			continue;
		anon_pages(k, c[i].pages);
		ev_age(k, true);
		p = pass_of(k, 0);
		if (p)
			CHECK_EQ(p->walks, c[i].walks);
		pte = pte_at(k, BASE);
		CHECK(pte && pte_present(*pte));
		if (pte && c[i].swap)
			CHECK_EQ(pte_young(*pte), !c[i].walks);
		aw_kernel_destroy(k);
	}
}

/*
 * lru_gen_add_folio() placement, 6.1 and 6.12 (include/linux/mm_inline.h):
 * active -> max_seq; anon not in the swap cache (or PG_reclaim and dirty)
 * -> max_seq - 1; reclaiming or min_seq[type] + MIN_NR_GENS >= max_seq ->
 * min_seq[type]; else min_seq[type] + 1.  With max_seq 5, min_seq 2/2:
 * active file 5; inactive anon 4; inactive file: 2 + 2 >= 5? no -> 3;
 * reclaiming file 2; anon in the swap cache, not active: 3.  With
 * min_seq[file] 3: 3 + 2 >= 5 -> 3.
 * A write fault's folio is PG_active (lru_gen_in_fault()): 6.12 puts it at
 * max_seq (3 on a new lruvec, gen 3); mainline's lru_gen_folio_seq()
 * gives MIN_NR_GENS - workingset = 2 -> max_seq - 2 + 1 = 2.
 * The flags: 6.12 clears an active folio's refs counter and PG_referenced
 * (PG_workingset stays); 6.1 clears only PG_active.
 */
static void test_add_folio_placement(void)
{
	struct aw_kernel *k12 = profile_kernel(AW_KERNEL_6_12, 1ULL << 30, 1);
	struct aw_kernel *k61 = profile_kernel(AW_KERNEL_6_1, 1ULL << 30, 1);
	struct aw_kernel *ml = profile_kernel(AW_KERNEL_MAINLINE, 1ULL << 30, 1);
	struct lruvec lv;
	struct folio f;

	CHECK(k12 && k61 && ml);
	if (!k12 || !k61 || !ml)
		goto out;
	memset(&lv, 0, sizeof(lv));
	lv.lrugen.max_seq = 5;
	lv.lrugen.min_seq[LRU_GEN_ANON] = lv.lrugen.min_seq[LRU_GEN_FILE] = 2;
	memset(&f, 0, sizeof(f));
	f.flags = 1U << PG_active;			/* file, active */
	CHECK_EQ(lru_gen_folio_seq_from_min(&lv, &f, false), 5);
	f.flags = 1U << PG_anon | 1U << PG_swapbacked;	/* anon, not in swap cache */
	CHECK_EQ(lru_gen_folio_seq_from_min(&lv, &f, false), 4);
	CHECK_EQ(lru_gen_folio_seq_from_min(&lv, &f, true), 4);
	f.flags = 0;					/* file, inactive */
	CHECK_EQ(lru_gen_folio_seq_from_min(&lv, &f, false), 3);
	CHECK_EQ(lru_gen_folio_seq_from_min(&lv, &f, true), 2);
	f.flags = 1U << PG_reclaim | 1U << PG_dirty;	/* file pending writeback */
	CHECK_EQ(lru_gen_folio_seq_from_min(&lv, &f, false), 4);
	f.flags = 1U << PG_anon | 1U << PG_swapbacked | 1U << PG_swapcache;
	CHECK_EQ(lru_gen_folio_seq_from_min(&lv, &f, false), 3);
	lv.lrugen.min_seq[LRU_GEN_FILE] = 3;
	f.flags = 0;
	CHECK_EQ(lru_gen_folio_seq_from_min(&lv, &f, false), 3);

	for (int i = 0; i < 3; i++) {
		struct aw_kernel *k = i == 0 ? k12 : i == 1 ? k61 : ml;
		struct lruvec *lruvec = &k->lruvecs[0];
		pte_t *pte;
		struct folio *fp;
		uint32_t pfn;

		anon_pages(k, 1);
		pte = pte_at(k, BASE);
		CHECK(pte && pte_present(*pte));
		if (!pte || !pte_present(*pte))
			continue;
		pfn = (uint32_t)pte_pfn(*pte);
		fp = pfn_folio(&k->mem, pfn);
		CHECK_EQ(folio_lru_gen(fp), i == 2 ? 2 : 3);
		if (i == 2)
			continue;
		lru_gen_del_folio(lruvec, fp, true);
		fp->flags |= LRU_REFS_MASK | 1U << PG_referenced | 1U << PG_workingset | 1U << PG_active;
		lru_gen_add_folio(lruvec, fp, false);
		CHECK_EQ(folio_lru_gen(fp), 3);
		CHECK(!folio_test(fp, PG_active));
		CHECK(folio_test(fp, PG_workingset));
		CHECK_EQ(fp->flags & LRU_REFS_MASK, i == 0 ? 0 : LRU_REFS_MASK);
		CHECK_EQ(folio_test(fp, PG_referenced), i == 1);
	}
out:
	aw_kernel_destroy(k12);
	aw_kernel_destroy(k61);
	aw_kernel_destroy(ml);
}

/*
 * try_to_inc_min_seq() with an anon folio in the oldest generation and no
 * file folio at all.
 * 6.12 (can_swap form): a write fault puts the folio at max_seq 3 (gen 3);
 * with max_seq 6, min_seq {3, 3}: anon stays at 3 (populated), file steps
 * over 3 and 4 (3 + 2 <= 6, 4 + 2 <= 6) to 5; then min_seq[anon] =
 * min(3, 5) = 3 and min_seq[file] = max(3, old 3) = 3: nothing moves.
 * Without swap only file is looked at: {3, 5}.
 * Mainline: the fault puts it at max_seq - 1 = 2; with max_seq 5, min_seq
 * {2, 2}: anon stays at 2, file steps to 4; "within one generation":
 * seq = 5 - 2 = 3, file 4 > 3 and anon 2 < 3, so file = 3: {2, 3}.
 */
static void test_inc_min_seq_forms(void)
{
	static const struct { enum aw_kernel_profile p; uint64_t swap; unsigned long max, min;
			      unsigned long anon, file; bool moved; } c[] = {
		{ AW_KERNEL_6_12, 1ULL << 30, 6, 3, 3, 3, false },
		{ AW_KERNEL_6_12, 0, 6, 3, 3, 5, true },
		{ AW_KERNEL_6_1, 1ULL << 30, 6, 3, 3, 3, false },
		{ AW_KERNEL_MAINLINE, 1ULL << 30, 5, 2, 2, 3, true },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct aw_kernel *k = profile_kernel(c[i].p, c[i].swap, 1);
		struct lru_gen_folio *g;

		CHECK(k != NULL);
		if (!k)
			continue;
		anon_pages(k, 1);
		g = &k->lruvecs[0].lrugen;
		CHECK_EQ(g->nr_pages[lru_gen_from_seq(c[i].min)][LRU_GEN_ANON], 1);
		g->max_seq = c[i].max;
		g->min_seq[LRU_GEN_ANON] = g->min_seq[LRU_GEN_FILE] = c[i].min;
		CHECK_EQ(try_to_inc_min_seq(&k->lruvecs[0], c[i].swap ? 60 : 0), c[i].moved);
		CHECK_EQ(g->min_seq[LRU_GEN_ANON], c[i].anon);
		CHECK_EQ(g->min_seq[LRU_GEN_FILE], c[i].file);
		aw_kernel_destroy(k);
	}
}


/*
 * should_run_aging() with three generations (max_seq 5, min_seq 3), anon
 * pages 30 in the oldest (seq 3), 10 in seq 4, 10 in the youngest (5):
 * total 50.  Mainline: evictable_min_seq() + MIN_NR_GENS == max_seq (3 + 2
 * == 5): age.  6.1/6.12: exactly MIN_NR_GENS + 1 generations, young 10 * 2
 * = 20 is not above 50 and old 30 * 4 = 120 is not below 50: don't.  With
 * 40 young instead (total 80): 80 > 80 no, old 120 < 80 no -> don't; with
 * 41: 82 > 81 -> age.  Four generations (min_seq 2): 6.x never ages.
 */
static void test_should_run_aging(void)
{
	static const long young[] = { 10, 40, 41 };

	for (int p = 0; p < 3; p++) {
		struct aw_kernel *k = profile_kernel(all_profiles[p], 1ULL << 30, 1);
		struct lru_gen_folio *g;
		unsigned long nr;

		CHECK(k != NULL);
		if (!k)
			continue;
		g = &k->lruvecs[0].lrugen;
		g->max_seq = 5;
		g->min_seq[LRU_GEN_ANON] = g->min_seq[LRU_GEN_FILE] = 3;
		g->nr_pages[lru_gen_from_seq(3)][LRU_GEN_ANON] = 30;
		g->nr_pages[lru_gen_from_seq(4)][LRU_GEN_ANON] = 10;
		for (int i = 0; i < 3; i++) {
			g->nr_pages[lru_gen_from_seq(5)][LRU_GEN_ANON] = young[i];
			CHECK_EQ(aw_should_run_aging(k, &k->lruvecs[0], 5, 60, &nr), p == 0 || i == 2);
			CHECK_EQ(nr, (unsigned long)(40 + young[i]));
		}
		g->min_seq[LRU_GEN_ANON] = g->min_seq[LRU_GEN_FILE] = 2;
		CHECK_EQ(aw_should_run_aging(k, &k->lruvecs[0], 5, 60, &nr), false);
		memset(g->nr_pages, 0, sizeof(g->nr_pages));	/* the lists are empty */
		aw_kernel_destroy(k);
	}
}

/*
 * __get_unmapped_area(): 6.12 and mainline PMD-align an anonymous mapping
 * whose length is a multiple of PMD_SIZE (thp_get_unmapped_area()); 6.1
 * does not.  Top-down below mmap_base (2 MiB aligned): a 4 KiB mapping at
 * base - 4K, then 2 MiB at base - 4K - 2M on 6.1, rounded down to
 * base - 4M on 6.12 and mainline.
 */
static void test_thp_unmapped_area(void)
{
	static const struct { enum aw_kernel_profile profile; uint64_t below_base; } c[] = {
		{ AW_KERNEL_6_1, (2ULL << 20) + PAGE_SIZE },
		{ AW_KERNEL_6_12, 4ULL << 20 },
		{ AW_KERNEL_MAINLINE, 4ULL << 20 },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct aw_kernel *k = profile_kernel(c[i].profile, 0, 1);
		struct aw_task *t;
		struct mm_struct *mm;

		CHECK(k != NULL);
		if (!k)
			continue;
		ev(k, (struct aw_event){ .kind = AW_EV_PROC, .pid = 1, .flags = AW_PROC_NOLAYOUT });
		ev(k, (struct aw_event){ .kind = AW_EV_MMAP, .pid = 1, .len = PAGE_SIZE, .arg = AW_PROT_DEFAULT });
		ev(k, (struct aw_event){ .kind = AW_EV_MMAP, .pid = 1, .len = 2ULL << 20, .arg = AW_PROT_DEFAULT });
		t = aw_task_get(k, 1);
		mm = t ? aw_mm(k, t->mm) : NULL;
		CHECK(mm && mm->nr_vmas == 2);
		if (mm && mm->nr_vmas == 2) {
			CHECK_EQ(mm->vmas[1].vm_start, k->cfg.mmap_base - PAGE_SIZE);
			CHECK_EQ(mm->vmas[0].vm_start, k->cfg.mmap_base - c[i].below_base);
		}
		aw_kernel_destroy(k);
	}
}

/*
 * split_folio() from a partial MADV_COLD of an anonymous THP
 * (madvise_cold_or_pageout_pte_range()).  THP "always", one 2 MiB mapping
 * at BASE (PMD-aligned), pages 0 and 3 written: the write fault maps one
 * THP, zero-filled but for those two subpages.  MADV_COLD of page 15 only
 * covers the THP in part, so the kernel splits it.  6.12 and mainline
 * remap with RMP_USE_SHARED_ZEROPAGE (__split_huge_page() ->
 * try_to_map_unused_to_zeropage()): the 510 zero-filled subpages, page 15
 * among them, now map the zero page and are freed, so 2 pages stay
 * resident and on the LRU, 2 in RSS.  6.1 keeps all 512.  The PTE of page
 * 15 maps ZERO_PFN on 6.12+, and its own page (pfn head + 15) on 6.1.
 * A second process that shares the THP (after fork) is left alone by
 * every profile: folio_likely_mapped_shared() (6.1: mapcount != 1) stops
 * the split, and the PMD stays.
 */
/* pages on every LRU of the machine */
static unsigned long lru_pages(struct aw_kernel *k)
{
	unsigned long n = 0;

	for (int l = 0; l < k->nr_nodes * k->nr_memcgs; l++)
		for (int g = 0; g < MAX_NR_GENS; g++)
			for (int t = 0; t < ANON_AND_FILE; t++)
				n += (unsigned long)k->lruvecs[l].lrugen.nr_pages[g][t];
	return n;
}

static void thp_with_two_pages(struct aw_kernel *k, int pid)
{
	ev(k, (struct aw_event){ .kind = AW_EV_PROC, .pid = pid, .flags = AW_PROC_NOLAYOUT });
	ev(k, (struct aw_event){ .kind = AW_EV_MMAP, .pid = pid, .addr2 = BASE, .len = PMD_SIZE,
				 .arg = AW_PROT_DEFAULT });
	ev(k, (struct aw_event){ .kind = AW_EV_ACCESS, .pid = pid, .addr = BASE, .len = PAGE_SIZE,
				 .repeat = 1, .flags = AW_ACC_WRITE });
	ev(k, (struct aw_event){ .kind = AW_EV_ACCESS, .pid = pid, .addr = BASE + 3 * PAGE_SIZE,
				 .len = PAGE_SIZE, .repeat = 1, .flags = AW_ACC_WRITE });
}

static void madv_cold_page_15(struct aw_kernel *k, int pid)
{
	ev(k, (struct aw_event){ .kind = AW_EV_MADVISE, .pid = pid, .addr = BASE + 15 * PAGE_SIZE,
				 .len = PAGE_SIZE, .arg = AW_MADV_COLD });
}

static void test_split_maps_zero_filled(void)
{
	for (size_t p = 0; p < 3; p++) {
		enum aw_kernel_profile profile = all_profiles[p];
		bool zero = profile != AW_KERNEL_6_1;
		struct aw_kernel *k = profile_kernel(profile, 0, 1);
		struct mm_struct *mm;
		pmd_t *pmd;
		pte_t *pte;
		uint64_t head;

		CHECK(k != NULL);
		if (!k)
			continue;
		k->cfg.thp = AW_THP_ALWAYS;
		thp_with_two_pages(k, 1);
		mm = aw_mm(k, aw_task_get(k, 1)->mm);
		pmd = aw_pmd_lookup(k, mm, BASE, false, NULL);
		CHECK(pmd && pmd_trans_huge(*pmd));
		if (!pmd || !pmd_trans_huge(*pmd)) {
			aw_kernel_destroy(k);
			continue;
		}
		head = pmd_pfn(*pmd);
		CHECK_EQ(lru_pages(k), 512);
		madv_cold_page_15(k, 1);
		CHECK_EQ(mm->rss, zero ? 2 : 512);
		CHECK_EQ(lru_pages(k), zero ? 2 : 512);
		pte = pte_at(k, BASE + 15 * PAGE_SIZE);
		CHECK(pte && pte_present(*pte));
		if (pte)
			CHECK_EQ(pte_pfn(*pte), zero ? ZERO_PFN : head + 15);
		pte = pte_at(k, BASE + 3 * PAGE_SIZE);
		CHECK(pte && pte_pfn(*pte) == head + 3);
		aw_kernel_destroy(k);

		/* shared after fork: no split anywhere */
		k = profile_kernel(profile, 0, 1);
		CHECK(k != NULL);
		if (!k)
			continue;
		k->cfg.thp = AW_THP_ALWAYS;
		thp_with_two_pages(k, 1);
		ev(k, (struct aw_event){ .kind = AW_EV_FORK, .pid = 1, .pid2 = 2 });
		madv_cold_page_15(k, 1);
		pmd = aw_pmd_lookup(k, aw_mm(k, aw_task_get(k, 1)->mm), BASE, false, NULL);
		CHECK(pmd && pmd_trans_huge(*pmd));
		CHECK_EQ(lru_pages(k), 512);
		aw_kernel_destroy(k);
	}
}

/*
 * khugepaged's swap-in is a swap-in like any other: __collapse_huge_page_swapin()
 * -> do_swap_page() reads the slot's shadow (workingset_refault() from
 * __read_swap_cache_async()).  THP madvise, one 2 MiB NOHUGEPAGE mapping,
 * pages 0..9 written (small pages), page 7 paged out (token = min_seq 0,
 * which MADV_PAGEOUT's reclaim_pages() never moves), then MADV_HUGEPAGE
 * and MADV_COLLAPSE: the collapse swaps page 7 in with no aging between,
 * so its token is still min_seq and the refault is recent on every
 * profile: WORKINGSET_REFAULT counts 1 on 6.1 (recent) and on 6.12 and
 * mainline (every refault of the lruvec), and one refault is counted.
 */
static void test_collapse_swapin_refault(void)
{
	for (size_t p = 0; p < 3; p++) {
		struct aw_kernel *k = profile_kernel(all_profiles[p], 1ULL << 30, 1);
		unsigned long ws = 0, refaults = 0;

		CHECK(k != NULL);
		if (!k)
			continue;
		k->cfg.thp = AW_THP_MADVISE;
		ev(k, (struct aw_event){ .kind = AW_EV_PROC, .pid = 1, .flags = AW_PROC_NOLAYOUT });
		ev(k, (struct aw_event){ .kind = AW_EV_MMAP, .pid = 1, .addr2 = BASE, .len = PMD_SIZE,
					 .flags = AW_MAP_NOHUGEPAGE, .arg = AW_PROT_DEFAULT });
		ev(k, (struct aw_event){ .kind = AW_EV_ACCESS, .pid = 1, .addr = BASE, .len = 10 * PAGE_SIZE,
					 .repeat = 1, .flags = AW_ACC_WRITE });
		ev(k, (struct aw_event){ .kind = AW_EV_MADVISE, .pid = 1, .addr = BASE + 7 * PAGE_SIZE,
					 .len = PAGE_SIZE, .arg = AW_MADV_PAGEOUT });
		ev(k, (struct aw_event){ .kind = AW_EV_MADVISE, .pid = 1, .addr = BASE, .len = PMD_SIZE,
					 .arg = AW_MADV_HUGEPAGE });
		ev(k, (struct aw_event){ .kind = AW_EV_MADVISE, .pid = 1, .addr = BASE, .len = PMD_SIZE,
					 .arg = AW_MADV_COLLAPSE });
		CHECK_EQ(k->kh.madv_collapsed, 1);
		for (int n = 0; n < k->nr_nodes; n++) {
			ws += k->node_stats[n].workingset_refaults;
			refaults += k->node_stats[n].refaults;
		}
		CHECK_EQ(refaults, 1);
		CHECK_EQ(ws, 1);
		aw_kernel_destroy(k);
	}
}

/*
 * 6.1's own lru_gen_shrink_lruvec() loop (shrink_lruvec_need_aging), one
 * call at priority 0 with nr_to_reclaim 32, after three forced '+' over
 * 1024 anonymous pages (max_seq 6, all 1024 in seq 3, as below): no aging
 * needed (3 + MIN_NR_GENS < 6), nr_to_scan 1024 >> 0.  The first batch
 * swaps out MIN_LRU_BATCH = 64 anonymous pages, so need_swapping is set
 * and nr_reclaimed 64 >= 32: 6.1's should_abort_scan() stops
 * ("over-swapping can increase allocation latency"): 64 reclaimed, max_seq
 * still 6.  Without that test the loop would run nine batches (576, as
 * mainline's below): 6.1 has no memcg_reclaim_aborts.
 */
static void test_shrink_lruvec_61(void)
{
	static const struct { enum aw_kernel_profile p; int ages; unsigned long reclaimed, max_seq; } c[] = {
		{ AW_KERNEL_6_1, 3, 64, 6 },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct aw_kernel *k = profile_kernel(c[i].p, 1ULL << 30, 1);
		struct aw_scan_control sc = { .priority = 0, .nr_to_reclaim = 32, .target_memcg = 0,
					      .may_swap = true };
		struct lru_gen_folio *g;

		CHECK(k != NULL);
		if (!k)
			continue;
		g = &k->lruvecs[0].lrugen;
		anon_pages(k, 1024);
		for (int a = 0; a < c[i].ages; a++)
			ev_age(k, true);
		CHECK_EQ(g->min_seq[LRU_GEN_ANON], 3);
		CHECK_EQ(g->nr_pages[lru_gen_from_seq(3)][LRU_GEN_ANON], 1024);
		k->mglru->lru_gen_shrink_lruvec(k, &k->lruvecs[0], &sc);
		CHECK_EQ(sc.nr_reclaimed, c[i].reclaimed);
		CHECK_EQ(g->max_seq, c[i].max_seq);
		CHECK_EQ(k->node_stats[0].evicted_pages, c[i].reclaimed);
		aw_kernel_destroy(k);
	}
}

/* the pfn of the page at BASE + i pages */
static uint32_t pfn_at(struct aw_kernel *k, int i)
{
	pte_t *pte = pte_at(k, BASE + (uint64_t)i * PAGE_SIZE);

	CHECK(pte && pte_present(*pte));
	return pte && pte_present(*pte) ? (uint32_t)pte_pfn(*pte) : 0;
}

/* list (gen, anon) holds, head to tail, the pages first, first - 1, ... first - n + 1 */
static void check_anon_list(struct aw_kernel *k, int gen, int first, int n)
{
	struct list_head *head = &k->lruvecs[0].lrugen.folios[gen][LRU_GEN_ANON];
	struct folio *f;
	int i = 0;

	list_for_each_entry(f, head, lru) {
		CHECK(i < n);
		if (i < n)
			CHECK_EQ(f->pfn, pfn_at(k, first - i));
		i++;
	}
	CHECK_EQ(i, n);
}

/*
 * 6.1's reclaim evicts with the walk of the aging it ran: try_to_inc_max_seq()
 * takes one with set_mm_walk(NULL), which stays in current->reclaim_state
 * until lru_gen_shrink_lruvec()'s clear_mm_walk() (set_mm_walk(pgdat)
 * takes none for memcg reclaim).  So after that aging, lru_gen_look_around()
 * moves a young neighbour's generation in its flags only (folio_update_gen(),
 * update_batch_size(), applied by evict_folios()' reset_batch_size()) and
 * leaves it where it is on its list, even for fewer than PAGEVEC_SIZE of
 * them, where without a walk it would folio_activate() them (to the head
 * of the youngest list).  By hand, 6.1 with swap (swappiness 60), one
 * process with 16 pages at BASE (one VMA, one PTE table; 16 < MIN_LRU_BATCH,
 * so should_skip_mm() skips the mm on every walk and no PTE is cleared but
 * by the reference check):
 * - pages 0..7 written: seq 3 (max_seq, in a fault); a forced '+': max_seq
 *   4, min_seq 1/1 (both types at MAX_NR_GENS: inc_min_seq() of empty
 *   gens); pages 8..15 written: seq 4, its list 15..8 head to tail
 *   (list_add() at each fault);
 * - lru_gen_shrink_lruvec() at priority 0: should_run_aging() no (1 + 2 <
 *   4); evict_folios() finds gen 1 empty on both types, try_to_inc_min_seq()
 *   moves min_seq to 3/3 and then anon has MIN_NR_GENS generations: 0
 *   scanned, done;
 * - lru_gen_shrink_lruvec() again: 3 + 2 > 4, out of cold: aging at
 *   max_seq 4 (mm_state seq 3: the walk is set), the mm skipped, max_seq 5;
 *   nr_to_scan 16 >> 0.  evict_folios() (file first, get_type_to_scan(): its
 *   refaulted < MIN_LRU_BATCH; file seq 3 empty) isolates pages 0..7 from
 *   seq 3's tail; min_seq becomes 4 and anon is at MIN_NR_GENS: scanned 0,
 *   but the batch goes to shrink_folio_list() from page 0.  Page 0's young
 *   PTE: look-around over the VMA's 16 PTEs, all young: pages 0..7 are
 *   isolated (PG_referenced), 8..15 sit in seq 4, not max_seq 5's gen: 8
 *   bits, fewer than PAGEVEC_SIZE, but the walk is set: their flags say
 *   gen 1 (seq 5) and they stay on gen 0's list, 15..8; the batch moves
 *   nr_pages.  Page 0 is activated (young and PG_referenced), pages 1..7 kept
 *   ("folio_update_gen() tried to promote this page?"); the putback
 *   activates all eight and move_folios_to_lru() re-adds them from page 0
 *   on, each at the head of seq 5's list: 7..0.  Nothing reclaimed.
 * Without the walk the eight neighbours would have gone to seq 5's list
 * first (15..8 after folio_activate() in order), ahead of 7..0's putback:
 * that list would hold 16 and seq 4's none.
 */
static void test_shrink_lruvec_61_walk_after_aging(void)
{
	struct aw_kernel *k = profile_kernel(AW_KERNEL_6_1, 1ULL << 30, 1);
	struct aw_scan_control sc = { .priority = 0, .nr_to_reclaim = 32, .target_memcg = 0, .may_swap = true };
	struct lru_gen_folio *g;

	CHECK(k != NULL);
	if (!k)
		return;
	g = &k->lruvecs[0].lrugen;
	ev(k, (struct aw_event){ .kind = AW_EV_PROC, .pid = 1, .flags = AW_PROC_NOLAYOUT });
	ev(k, (struct aw_event){ .kind = AW_EV_MMAP, .pid = 1, .addr2 = BASE, .len = 16 * PAGE_SIZE,
				 .arg = AW_PROT_DEFAULT });
	ev(k, (struct aw_event){ .kind = AW_EV_ACCESS, .pid = 1, .addr = BASE, .len = 8 * PAGE_SIZE,
				 .repeat = 1, .flags = AW_ACC_WRITE });
	ev_age(k, true);
	ev(k, (struct aw_event){ .kind = AW_EV_ACCESS, .pid = 1, .addr = BASE + 8 * PAGE_SIZE,
				 .len = 8 * PAGE_SIZE, .repeat = 1, .flags = AW_ACC_WRITE });
	CHECK_EQ(g->max_seq, 4);
	CHECK_EQ(g->min_seq[LRU_GEN_ANON], 1);
	check_anon_list(k, lru_gen_from_seq(4), 15, 8);

	k->mglru->lru_gen_shrink_lruvec(k, &k->lruvecs[0], &sc);
	CHECK_EQ(g->max_seq, 4);
	CHECK_EQ(g->min_seq[LRU_GEN_ANON], 3);
	CHECK_EQ(g->min_seq[LRU_GEN_FILE], 3);

	k->mglru->lru_gen_shrink_lruvec(k, &k->lruvecs[0], &sc);
	CHECK_EQ(sc.nr_reclaimed, 0);
	CHECK_EQ(g->max_seq, 5);
	CHECK_EQ(g->min_seq[LRU_GEN_ANON], 4);
	check_anon_list(k, lru_gen_from_seq(5), 7, 8);
	check_anon_list(k, lru_gen_from_seq(4), 15, 8);
	for (int i = 8; i < 16; i++)
		CHECK_EQ(folio_lru_gen(pfn_folio(&k->mem, pfn_at(k, i))), lru_gen_from_seq(5));
	CHECK_EQ(g->nr_pages[lru_gen_from_seq(5)][LRU_GEN_ANON], 16);
	CHECK_EQ(g->nr_pages[lru_gen_from_seq(4)][LRU_GEN_ANON], 0);
	aw_kernel_destroy(k);
}

/*
 * The flusher does not finish writeback inside one lru_gen_shrink_lruvec():
 * 6.1's loop neither waits for it nor wakes it, so dirty page cache that
 * sort_folio() rotated ("waiting for writeback": folio_inc_gen() with
 * PG_reclaim) is still dirty when the same call comes back to it, and is
 * rotated again (the model's writeback completes when the call returns,
 * aw_try_to_free_mem_cgroup_pages(); corpus/ktext/reclaim-writeback-same-call.aws).
 * By hand, 6.1 with swap (swappiness 60; no refaults, so get_type_to_scan()
 * says file), one process, a 64-page file mapping at BASE:
 * - pwrite of page 0: D, dirty page cache, not in a fault: seq min_seq +
 *   1 = 1 (the model shows it through a PTE neither young nor writable,
 *   docs/model-notes.md, "File descriptors"); pages 1..28 read through the
 *   mapping: in a fault, max_seq 3.  min_seq 0/0, 29 pages.  (28 < MIN_LRU_BATCH: should_skip_mm()
 *   skips the mm, no aging walks it.)
 * - priority 4: should_run_aging() no (0 + 2 < 3), nr_to_scan 29 >> 4 = 1;
 *   evict_folios() finds seq 0 empty on both types, try_to_inc_min_seq()
 *   takes min_seq to 1/1: scanned 1, done.
 * - priority 3, nr_to_scan 29 >> 3 = 3: 1 + 2 == 3 and young 28 * 2 > 29:
 *   aging, max_seq 4; D dirty: rotated to seq 2 with PG_reclaim, nothing
 *   isolated; min_seq 2/2 (anon keeps 3 generations): scanned 1.  Second
 *   round: 2 + 2 == 4, old 1 * 4 < 29: aging, max_seq 5; D at min_seq and
 *   still dirty: rotated to seq 3 (the head of its list); min_seq 3/3;
 *   max_seq moved twice: should_abort_scan().  Nothing reclaimed (the model
 *   reclaimed D in the second round when its writeback completed between
 *   the two).
 */
static void test_shrink_lruvec_61_writeback_same_call(void)
{
	struct aw_kernel *k = profile_kernel(AW_KERNEL_6_1, 1ULL << 30, 1);
	struct aw_scan_control sc = { .priority = 4, .nr_to_reclaim = 32, .target_memcg = 0, .may_swap = true };
	struct lru_gen_folio *g;
	struct list_head *head;
	struct folio *d;

	CHECK(k != NULL);
	if (!k)
		return;
	g = &k->lruvecs[0].lrugen;
	ev(k, (struct aw_event){ .kind = AW_EV_PROC, .pid = 1, .flags = AW_PROC_NOLAYOUT });
	ev(k, (struct aw_event){ .kind = AW_EV_MMAP, .pid = 1, .addr2 = BASE, .len = 64 * PAGE_SIZE,
				 .arg = AW_PROT_DEFAULT, .flags = AW_MAP_FILE });
	ev(k, (struct aw_event){ .kind = AW_EV_FDIO, .pid = 1, .addr = BASE, .len = PAGE_SIZE, .repeat = 1,
				 .flags = AW_ACC_WRITE });
	ev(k, (struct aw_event){ .kind = AW_EV_ACCESS, .pid = 1, .addr = BASE + PAGE_SIZE, .len = 28 * PAGE_SIZE,
				 .repeat = 1 });
	CHECK_EQ(g->nr_pages[lru_gen_from_seq(1)][LRU_GEN_FILE], 1);
	CHECK_EQ(g->nr_pages[lru_gen_from_seq(3)][LRU_GEN_FILE], 28);

	k->mglru->lru_gen_shrink_lruvec(k, &k->lruvecs[0], &sc);
	CHECK_EQ(sc.nr_reclaimed, 0);
	CHECK_EQ(g->min_seq[LRU_GEN_FILE], 1);

	sc.priority = 3;
	k->mglru->lru_gen_shrink_lruvec(k, &k->lruvecs[0], &sc);
	CHECK_EQ(sc.nr_reclaimed, 0);
	CHECK_EQ(g->max_seq, 5);
	CHECK_EQ(g->min_seq[LRU_GEN_ANON], 3);
	CHECK_EQ(g->min_seq[LRU_GEN_FILE], 3);
	CHECK_EQ(g->nr_pages[lru_gen_from_seq(3)][LRU_GEN_FILE], 29);
	head = &g->folios[lru_gen_from_seq(3)][LRU_GEN_FILE];
	d = list_empty(head) ? NULL : list_first_entry(head, struct folio, lru);
	CHECK(d && folio_test(d, PG_dirty) && folio_test(d, PG_reclaim));
	CHECK_EQ(k->node_stats[0].evicted_pages, 0);
	aw_kernel_destroy(k);
}

/*
 * should_abort_scan() in memcg reclaim (memcg_reclaim_aborts): 1024
 * anonymous pages written, three forced '+': the first walk finds them
 * young and moves them to seq 3, the next two find nothing young, so
 * max_seq is 6 and all 1024 sit in seq 3, the oldest (min_seq[anon] 3).
 * One lru_gen_shrink_lruvec() at priority 0 with nr_to_reclaim 32:
 * should_run_aging() says no (3 + MIN_NR_GENS < 6), get_nr_to_scan() is
 * 1024 >> 0 = 1024.  Each evict_folios() isolates one batch of
 * MIN_LRU_BATCH = 64 from seq 3 and swaps all of it out.
 * - 6.12: after the first batch nr_reclaimed 64 >= max(32, compact_gap(0)
 *   = 2): aborted, 64 reclaimed, 960 left in seq 3.
 * - without the abort (the rule off, as mainline has it for memcg
 *   reclaim): try_to_shrink_lruvec() asks get_nr_to_scan() again before
 *   each batch, so before batch i (from 0) nr_to_scan is 1024 - 64 i and
 *   after it scanned is 64 (i + 1); the loop ends at the first i with
 *   64 (i + 1) >= 1024 - 64 i, i = 8: nine batches, 576 reclaimed, 448
 *   left in seq 3.
 */
static void test_memcg_reclaim_aborts(void)
{
	for (int abort = 0; abort < 2; abort++) {
		struct aw_kernel *k = profile_kernel(AW_KERNEL_6_12, 1ULL << 30, 1);
		struct aw_scan_control sc = { .priority = 0, .nr_to_reclaim = 32, .target_memcg = 0,
					      .may_swap = true };
		struct aw_profile prof;
		struct lru_gen_folio *g;

		CHECK(k != NULL);
		if (!k)
			continue;
		prof = *k->prof;
		prof.memcg_reclaim_aborts = abort;
		k->prof = &prof;
		g = &k->lruvecs[0].lrugen;
		anon_pages(k, 1024);
		for (int i = 0; i < 3; i++)
			ev_age(k, true);
		CHECK_EQ(g->max_seq, 6);
		CHECK_EQ(g->min_seq[LRU_GEN_ANON], 3);
		CHECK_EQ(g->nr_pages[lru_gen_from_seq(3)][LRU_GEN_ANON], 1024);
		k->mglru->lru_gen_shrink_lruvec(k, &k->lruvecs[0], &sc);
		CHECK_EQ(sc.nr_reclaimed, abort ? 64 : 576);
		CHECK_EQ(k->node_stats[0].evicted_pages, abort ? 64 : 576);
		CHECK_EQ(g->nr_pages[lru_gen_from_seq(3)][LRU_GEN_ANON], abort ? 960 : 448);
		k->prof = aw_profile(AW_KERNEL_6_12);
		aw_kernel_destroy(k);
	}
}

/*
 * shrink_folio_list() stays the model's for kernel text too (docs/ktext.md,
 * "What stays the model's"); its lazyfree rule (try_to_unmap_one()): a
 * MADV_FREE'd anonymous folio written again after the madvise is not
 * discarded -- reclaim sets PG_swapbacked on it again and puts it back --
 * while a clean one is dropped without a swap slot.  64 pages written,
 * MADV_FREE on all, pages 0..31 written again; three forced '+', then
 * '-' until the oldest evictable generation is gone: no swap slot is ever
 * used (nothing was anon-swapped: the 32 re-dirtied ones went back, the
 * clean ones were discarded), page 0 is still mapped and swap-backed
 * again, and every page evicted is one of the 32 clean ones.
 */
static void test_lazyfree_redirtied_kept(void)
{
	struct aw_kernel *k = profile_kernel(AW_KERNEL_6_12, 1ULL << 30, 1);
	struct folio *f;
	pte_t *pte;

	CHECK(k != NULL);
	if (!k)
		return;
	anon_pages(k, 64);
	ev(k, (struct aw_event){ .kind = AW_EV_MADVISE, .pid = 1, .addr = BASE, .len = 64 * PAGE_SIZE,
				 .arg = AW_MADV_FREE });
	ev(k, (struct aw_event){ .kind = AW_EV_ACCESS, .pid = 1, .addr = BASE, .len = 32 * PAGE_SIZE,
				 .repeat = 1, .flags = AW_ACC_WRITE });
	pte = pte_at(k, BASE);
	f = pte && pte_present(*pte) ? pfn_folio(&k->mem, pte_pfn(*pte)) : NULL;
	CHECK(f && !folio_test(f, PG_swapbacked));	/* lazyfree: MADV_FREE cleared it */
	for (int i = 0; i < 3; i++)
		ev_age(k, true);
	evict_nr(k, 0);
	CHECK_EQ(k->swap_used, 0);
	CHECK(k->node_stats[0].evicted_pages <= 32);
	for (int i = 0; i < 32; i++) {
		pte = pte_at(k, BASE + i * PAGE_SIZE);
		CHECK(pte && pte_present(*pte));
	}
	pte = pte_at(k, BASE);
	f = pte && pte_present(*pte) ? pfn_folio(&k->mem, pte_pfn(*pte)) : NULL;
	CHECK(f && folio_test(f, PG_swapbacked));
	aw_kernel_destroy(k);
}

int main(void)
{
	RUN(test_run_aging_erange);
	RUN(test_should_skip_mm);
	RUN(test_add_folio_placement);
	RUN(test_inc_min_seq_forms);
	RUN(test_should_run_aging);
	RUN(test_thp_unmapped_area);
	RUN(test_split_maps_zero_filled);
	RUN(test_collapse_swapin_refault);
	RUN(test_memcg_reclaim_aborts);
	RUN(test_shrink_lruvec_61);
	RUN(test_shrink_lruvec_61_walk_after_aging);
	RUN(test_shrink_lruvec_61_writeback_same_call);
	RUN(test_lazyfree_redirtied_kept);
	return aw_test_report("test_profiles_aging");
}
