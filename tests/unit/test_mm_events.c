// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the MGLRU model around address-space events: look-around
 * (window and Bloom feedback), sticky force_scan in iterate_mm_list, memcg
 * limit reclaim and OOM, munmap's floor/ceiling table freeing,
 * mremap moving whole PTE tables, and migration.
 *
 * Every expected value is derived by hand from the kernel rule
 * (the kernel function each test names; docs/model-notes.md); the comment next to each says how.
 */
#include "aw_kernel_test.h"

#include "kernel.h"
#include "event.h"
#include "scenario.h"

#include "aw_events_test.h"

static long lruvec_total(const struct lruvec *lv)
{
	long n = 0;

	for (int g = 0; g < MAX_NR_GENS; g++)
		for (int t = 0; t < ANON_AND_FILE; t++)
			n += lv->lrugen.nr_pages[g][t];
	return n;
}

/*
 * A 2 MiB anon region at BASE_ADDR (one PTE table), all 512 pages written,
 * then a forced AGE: the walk sees every PTE young for the first time, so
 * it clears the young bits and sets PG_referenced only (two-touch rule).
 * max_seq 3 -> 4.  Folios stay in gen 2 (fault: PG_active, d = 2 ->
 * seq max_seq - 1 = 2).
 */
static struct aw_kernel *lookaround_setup(void)
{
	struct aw_kernel *k = new_kernel(1ULL << 30);

	if (!k)
		return NULL;
	ev_proc_pid(k, 1, 0);
	ev_mmap(k, BASE_ADDR, PMD_SIZE);
	ev_access(k, BASE_ADDR, PMD_SIZE, true);
	ev_age(k, true);
	CHECK_EQ(k->lruvecs[0].lrugen.max_seq, 4);
	return k;
}

/*
 * Isolate the target folio as isolate_folio() would, then look around it.
 * The kernel reaches lru_gen_look_around() only from folio_referenced() in
 * shrink_folio_list(), on a folio its caller isolated: isolate_folio()
 * (mm/vmscan.c, 6.12 and mainline) takes PG_lru with folio_test_clear_lru()
 * before lru_gen_del_folio(), which itself leaves PG_lru alone, and
 * look-around checks VM_WARN_ON_ONCE(folio_test_lru(folio)).  The target is
 * PG_referenced (the forced AGE), so mainline's isolate_folio() (these
 * tests run the mainline profile) keeps its refs, and it has no PG_reclaim
 * to clear.
 */
static bool isolate_and_look_around(struct aw_kernel *k, uint64_t addr, uint32_t *pfn_out)
{
	struct mm_struct *mm = mm_of(k, 1);
	pte_t *pte = aw_pte_lookup(k, mm, addr, false, NULL);
	struct folio *f;
	uint32_t pfn;

	CHECK(pte && pte_present(*pte));
	if (!pte || !pte_present(*pte))
		return false;
	pfn = (uint32_t)pte_pfn(*pte);
	f = pfn_folio(&k->mem, pfn);
	CHECK(folio_test(f, PG_lru) && folio_test(f, PG_referenced));
	folio_clear(f, PG_lru);		/* folio_test_clear_lru() */
	CHECK(lru_gen_del_folio(aw_lruvec(k, f->memcg, f->nid), f, true));
	CHECK(folio_lru_gen(f) < 0 && !folio_test(f, PG_lru));
	if (pfn_out)
		*pfn_out = pfn;
	return lru_gen_look_around(k, NULL, mm, find_vma(mm, addr), addr, pfn);
}

/* ------------------------------------------------------------------ */
/* 1. lru_gen_look_around(): the 64-PTE window (docs/kernel-rules.md §8) */

static void lookaround_window_case(int target, int lo, int hi)
{
	struct aw_kernel *k = lookaround_setup();
	struct mm_struct *mm;
	pte_t *pt;
	int wrong = 0;

	CHECK(k != NULL);
	if (!k)
		return;
	mm = mm_of(k, 1);
	pt = aw_pte_lookup(k, mm, BASE_ADDR, false, NULL);
	CHECK(pt != NULL);
	if (!pt)
		goto out;
	CHECK(!pte_young(pt[0]) && !pte_young(pt[511]));	/* cleared by the forced walk */
	/* re-access all 512 pages: every PTE young again */
	ev_access(k, BASE_ADDR, PMD_SIZE, true);
	CHECK(pte_young(pt[0]) && pte_young(pt[511]));

	CHECK(isolate_and_look_around(k, BASE_ADDR + PG(target), NULL));
	/*
	 * The target PTE is cleared by ptep_clear_young_notify(); every other
	 * PTE in [lo, hi) is young, its folio on the LRU of this lruvec, so it
	 * is test-and-cleared; everything outside the window keeps its bit.
	 */
	for (int i = 0; i < 512; i++) {
		bool want_young = !(i >= lo && i < hi);

		if (pte_young(pt[i]) != want_young) {
			if (!wrong)
				fprintf(stderr, "look-around target %d: page %d young=%d\n",
					target, i, (int)pte_young(pt[i]));
			wrong++;
		}
	}
	CHECK_EQ(wrong, 0);
	CHECK(!pte_young(pt[lo]) && !pte_young(pt[hi - 1]));
	if (lo > 0)
		CHECK(pte_young(pt[lo - 1]));
	if (hi < 512)
		CHECK(pte_young(pt[hi]));

	/*
	 * No walk struct: neighbours go through lru_gen_set_refs(); they carry
	 * PG_referenced from the forced AGE, so it returns true (PG_workingset)
	 * and folio_activate() re-adds them with PG_active|PG_workingset:
	 * d = 1 -> seq max_seq = 4 -> gen 4 % 4 = 0.  Outside the window the
	 * folios are untouched: gen 2, PG_referenced, no PG_workingset.
	 */
	{
		int in = target == lo ? lo + 1 : lo;
		int outp = lo > 0 ? lo - 1 : hi;
		struct folio *fin = pfn_folio(&k->mem, pte_pfn(pt[in]));
		struct folio *fout = pfn_folio(&k->mem, pte_pfn(pt[outp]));

		CHECK_EQ(folio_lru_gen(fin), 0);
		CHECK(folio_test(fin, PG_workingset));
		CHECK_EQ(folio_lru_gen(fout), 2);
		CHECK(folio_test(fout, PG_referenced));
		CHECK(!folio_test(fout, PG_workingset));
	}
out:
	put_kernel(k);
}

static void test_lookaround_window(void)
{
	/*
	 * VMA = the whole PMD: start = BASE, end = BASE + 512 pages > 64 pages.
	 * page 0:   addr - start = 0 < 32       -> [start, start + 64) = [0, 64)
	 * page 256: addr - start = 256, end - addr = 256, both >= 32
	 *           -> [addr - 32, addr + 32) = [224, 288)
	 * page 511: end - addr = 1 page < 32   -> [end - 64, end) = [448, 512)
	 */
	lookaround_window_case(0, 0, 64);
	lookaround_window_case(256, 224, 288);
	lookaround_window_case(511, 448, 512);
}

/* One-page VMA: end - start == PAGE_SIZE -> return true after the target. */
static void test_lookaround_one_page_vma(void)
{
	struct aw_kernel *k = new_kernel(1ULL << 30);
	struct mm_struct *mm;
	struct lruvec *lv;
	pte_t *pt;
	uint64_t kva;

	CHECK(k != NULL);
	if (!k)
		return;
	lv = &k->lruvecs[0];
	ev_proc_pid(k, 1, 0);
	/* one page at BASE, a one-page hole, then two pages (no merge) */
	ev_mmap(k, BASE_ADDR, PAGE_SIZE);
	ev_mmap(k, BASE_ADDR + PG(2), PG(2));
	mm = mm_of(k, 1);
	CHECK_EQ(mm->nr_vmas, 2);
	ev_access(k, BASE_ADDR, PAGE_SIZE, true);
	ev_access(k, BASE_ADDR + PG(2), PG(2), true);
	ev_age(k, true);	/* young bits cleared, PG_referenced set */
	ev_access(k, BASE_ADDR, PAGE_SIZE, true);
	ev_access(k, BASE_ADDR + PG(2), PG(2), true);
	pt = aw_pte_lookup(k, mm, BASE_ADDR, false, NULL);
	CHECK(pt != NULL);
	if (!pt)
		goto out;
	kva = aw_pmd_entry_kva(k, mm, BASE_ADDR);
	CHECK_EQ(__reset_bloom_filter(lv->mm_state.filters[BLOOM_FILTER_PMD],
				      lv->lrugen.max_seq), 0);
	CHECK(isolate_and_look_around(k, BASE_ADDR, NULL));
	CHECK(!pte_young(pt[0]));			/* the target itself */
	CHECK(pte_young(pt[2]) && pte_young(pt[3]));	/* other VMA untouched */
	CHECK(!folio_test(pfn_folio(&k->mem, pte_pfn(pt[2])), PG_workingset));
	CHECK_EQ(folio_lru_gen(pfn_folio(&k->mem, pte_pfn(pt[2]))), 2);
	/* returned before the feedback: nothing inserted */
	CHECK(!__test_bloom_filter(lv->mm_state.filters[BLOOM_FILTER_PMD], lv->lrugen.max_seq, kva));
out:
	put_kernel(k);
}

/*
 * The window starts at the VMA's start, not the PTE table's:
 * lru_gen_look_around() takes start = max(addr & PMD_MASK, vm_start).  The
 * layout of test_lookaround_one_page_vma, all three pages young again;
 * the target is the first page of the two-page VMA above the one-page
 * one: window [2, 4) (2 pages, so the loop runs).  Page 3 is young and of
 * this lruvec: cleared.  Page 0 belongs to the VMA below, outside the
 * window: it keeps its young bit and its generation.
 */
static void test_lookaround_vma_below(void)
{
	struct aw_kernel *k = new_kernel(1ULL << 30);
	struct mm_struct *mm;
	pte_t *pt;

	CHECK(k != NULL);
	if (!k)
		return;
	ev_proc_pid(k, 1, 0);
	ev_mmap(k, BASE_ADDR, PAGE_SIZE);
	ev_mmap(k, BASE_ADDR + PG(2), PG(2));
	mm = mm_of(k, 1);
	CHECK_EQ(mm->nr_vmas, 2);
	ev_access(k, BASE_ADDR, PAGE_SIZE, true);
	ev_access(k, BASE_ADDR + PG(2), PG(2), true);
	ev_age(k, true);
	ev_access(k, BASE_ADDR, PAGE_SIZE, true);
	ev_access(k, BASE_ADDR + PG(2), PG(2), true);
	pt = aw_pte_lookup(k, mm, BASE_ADDR, false, NULL);
	CHECK(pt != NULL);
	if (!pt)
		goto out;
	CHECK(isolate_and_look_around(k, BASE_ADDR + PG(2), NULL));
	CHECK(!pte_young(pt[2]) && !pte_young(pt[3]));	/* the target and its window */
	CHECK(pte_young(pt[0]));			/* the VMA below: untouched */
	CHECK_EQ(folio_lru_gen(pfn_folio(&k->mem, pte_pfn(pt[0]))), 2);
out:
	put_kernel(k);
}

/* ------------------------------------------------------------------ */
/* 2. Look-around feedback into the PMD Bloom filter */

static void lookaround_bloom_case(int nr_young_pages, bool want_inserted)
{
	struct aw_kernel *k = lookaround_setup();
	struct mm_struct *mm;
	struct lruvec *lv;
	uint64_t kva;
	aw_bloom_t *filters;

	CHECK(k != NULL);
	if (!k)
		return;
	mm = mm_of(k, 1);
	lv = &k->lruvecs[0];
	filters = lv->mm_state.filters[BLOOM_FILTER_PMD];
	/* re-access pages [0, n): young; the rest stay old */
	ev_access(k, BASE_ADDR, PG(nr_young_pages), true);
	kva = aw_pmd_entry_kva(k, mm, BASE_ADDR);
	CHECK(kva != 0);
	/* the forced pass put this PMD in filters[4 % 2]; start it afresh */
	CHECK_EQ(__reset_bloom_filter(filters, lv->lrugen.max_seq), 0);
	CHECK(!__test_bloom_filter(filters, lv->lrugen.max_seq, kva));
	CHECK(isolate_and_look_around(k, BASE_ADDR, NULL));
	CHECK_EQ(__test_bloom_filter(filters, lv->lrugen.max_seq, kva), want_inserted);
	put_kernel(k);
}

static void test_lookaround_bloom(void)
{
	/*
	 * Target page 0, window [0, 64): i = 64.  young starts at 1 (the
	 * target) and counts the young neighbours 1..n-1.
	 * n = 8: young = 8, 8 * 8 = 64 >= 64 -> inserted.
	 * n = 7: young = 7, 7 * 8 = 56 <  64 -> not inserted.
	 */
	lookaround_bloom_case(8, true);
	lookaround_bloom_case(7, false);
}

/* ------------------------------------------------------------------ */
/* 3. Sticky force_scan for mms added after the last iteration (docs/kernel-rules.md §3) */

static void test_sticky_force_scan(void)
{
	struct aw_kernel *k = new_kernel(1ULL << 30);
	struct lru_gen_mm_state *st;
	const struct aw_pass *p;

	CHECK(k != NULL);
	if (!k)
		return;
	st = &k->lruvecs[0].mm_state;
	ev_proc_pid(k, 1, 0);	/* A */
	ev_proc_pid(k, 2, 0);	/* B */
	/*
	 * Pass 1 (not forced): tail == NULL -> at A, tail = B and force_scan
	 * becomes true; at B tail == B -> tail = fifo.  Both walked forced,
	 * both counted sticky (the pass itself was not forced).
	 */
	ev_age(k, false);
	p = pass_of(k, 0);
	if (p) {
		CHECK_EQ(p->walks, 2);
		CHECK_EQ(p->forced_walks, 2);
		CHECK_EQ(p->sticky_forced_walks, 2);
	}
	CHECK(st->tail == &k->mm_list[0].fifo);
	CHECK(st->head == &k->mm_list[0].fifo);

	/* C added: tail == fifo -> tail = C.  Then A and B run (bits set). */
	ev_proc_pid(k, 3, 0);
	CHECK(st->tail == &mm_of(k, 3)->lru_gen.list);
	ev_run_pid(k, 1);
	ev_run_pid(k, 2);
	/*
	 * Pass 2: A (tail C != A, bit set) walked, B the same, C == tail ->
	 * tail = fifo, force_scan -> C walked forced.  walks 3, forced 1,
	 * sticky 1.
	 */
	ev_age(k, false);
	p = pass_of(k, 1);
	if (p) {
		CHECK(!p->forced);
		CHECK_EQ(p->walks, 3);
		CHECK_EQ(p->forced_walks, 1);
		CHECK_EQ(p->sticky_forced_walks, 1);
		CHECK(p->success);
	}

	/*
	 * D, E added: D finds tail == fifo -> tail = D; E finds tail = D,
	 * leaves it.  Only A runs.  Pass 3: A walked (bit set); B, C skipped
	 * (bits cleared by pass 2, not forced); at D tail == D -> tail = E,
	 * force_scan sticky -> D forced; at E tail == E -> tail = fifo, E
	 * forced.  walks = A, D, E = 3; forced = 2; sticky = 2.
	 */
	ev_proc_pid(k, 4, 0);
	ev_proc_pid(k, 5, 0);
	CHECK(st->tail == &mm_of(k, 4)->lru_gen.list);
	ev_run_pid(k, 1);
	ev_age(k, false);
	p = pass_of(k, 2);
	if (p) {
		CHECK_EQ(p->walks, 3);
		CHECK_EQ(p->forced_walks, 2);
		CHECK_EQ(p->sticky_forced_walks, 2);
		CHECK(p->success);
	}
	CHECK(st->tail == &k->mm_list[0].fifo);
	/* get_next_mm() cleared the node-0 bit of every mm it took */
	CHECK_EQ(mm_of(k, 1)->lru_gen.bitmap & 1, 0);
	CHECK_EQ(mm_of(k, 4)->lru_gen.bitmap & 1, 0);
	CHECK_EQ(mm_of(k, 5)->lru_gen.bitmap & 1, 0);
	/* max_seq 3 -> 6 after three passes */
	CHECK_EQ(k->lruvecs[0].lrugen.max_seq, 6);
	put_kernel(k);
}

/* ------------------------------------------------------------------ */
/* 4. memcg limit reclaim and OOM */

static struct aw_kernel *memcg_kernel(uint64_t swap_bytes)
{
	struct aw_config cfg;

	aw_config_default(&cfg);
	cfg.nr_nodes = 1;
	cfg.nr_memcgs = 2;
	cfg.memcg_limit[1] = 64ULL << 20;
	cfg.swap_bytes = swap_bytes;
	return new_kernel_cfg(&cfg);
}

static void test_memcg_oom(void)
{
	struct aw_kernel *k = memcg_kernel(0);
	struct aw_task *t;

	CHECK(k != NULL);
	if (!k)
		return;
	CHECK_EQ(k->memcg[1].limit, 16384);	/* 64 MiB / 4 KiB */
	ev_proc_pid(k, 1, 1);
	ev_mmap(k, BASE_ADDR, 128ULL << 20);
	ev_access(k, BASE_ADDR, 128ULL << 20, true);
	/*
	 * No swap: swappiness 0, anon is not evictable and there is no file
	 * memory, so reclaim frees nothing.  The 16385th charge: one reclaim
	 * call, then MAX_RECLAIM_RETRIES = 16 more, then the memcg OOM killer
	 * takes the only task: 17 reclaim calls, 1 kill.  Its mm goes, every
	 * charged folio is freed and uncharged: usage 0.
	 */
	CHECK_EQ(k->memcg[1].oom_kills, 1);
	CHECK_EQ(k->memcg[1].reclaim_calls, 17);
	t = aw_task_get(k, 1);
	CHECK(t && !t->alive);
	CHECK(mm_of(k, 1) == NULL);
	CHECK_EQ(k->node_stats[0].evicted, 0);
	CHECK_EQ(lruvec_total(aw_lruvec(k, 1, 0)), 0);	/* nothing left on its LRU */
	/*
	 * The charge loop OOM-kills the faulting task itself and then succeeds
	 * (usage 0 after the victim's teardown, +1 for this folio); the fault
	 * sees the task dead and must uncharge the folio it frees: usage 0.
	 * (Found by this test; fixed in fault_new_folio().)
	 */
	CHECK_EQ(k->memcg[1].usage, 0);
	put_kernel(k);

	k = memcg_kernel(1ULL << 30);
	CHECK(k != NULL);
	if (!k)
		return;
	ev_proc_pid(k, 1, 1);
	ev_mmap(k, BASE_ADDR, 128ULL << 20);
	ev_access(k, BASE_ADDR, 128ULL << 20, true);
	/* with 1 GiB of swap, anon is evictable: reclaim keeps up, no OOM */
	CHECK_EQ(k->memcg[1].oom_kills, 0);
	t = aw_task_get(k, 1);
	CHECK(t && t->alive);
	CHECK(k->node_stats[0].evicted > 0);
	CHECK(k->memcg[1].usage <= 16384);
	/* 32768 pages written, at most 16384 resident: >= 16384 swapped out */
	CHECK(k->node_stats[0].evicted >= 16384);
	put_kernel(k);
}

/* ------------------------------------------------------------------ */
/* 5. user page tables are memcg-charged */

static struct aw_kernel *memcg_kernel_limit(uint64_t limit, uint64_t swap_bytes)
{
	struct aw_config cfg;

	aw_config_default(&cfg);
	cfg.nr_nodes = 1;
	cfg.nr_memcgs = 2;
	cfg.memcg_limit[1] = limit;
	cfg.swap_bytes = swap_bytes;
	return new_kernel_cfg(&cfg);
}

/* the folios on memcg's lruvec of node 0, all generations and types */
static unsigned long memcg_folio_pages(struct aw_kernel *k, int memcg)
{
	return lruvec_total(aw_lruvec(k, memcg, 0));
}

/*
 * User page tables are memcg-charged kernel memory: pte_alloc_one(),
 * pmd_alloc_one() and pud_alloc_one() take GFP_PGTABLE_USER, which is
 * GFP_PGTABLE_KERNEL | __GFP_ACCOUNT (include/asm-generic/pgalloc.h,
 * arch/x86/mm/pgtable.c; 6.1 and 6.12), so memory.current counts them
 * and the limit's reclaim works against them; pte_free() and friends
 * uncharge.  The root memcg is never charged (no objcg).
 *
 * 4 MiB at BASE_ADDR (1 GiB aligned, nothing else mapped: nolayout): the
 * first write allocates the PUD table under the PGD entry, the PMD table
 * and the first PTE table; the 513th page the second PTE table.  1024
 * folios + 4 tables = 1028 pages.  munmap() zaps the folios and
 * free_pgtables() frees all four tables (no VMA left under them): 0.
 */
static void test_memcg_pgtable_charge(void)
{
	struct aw_kernel *k = memcg_kernel_limit(64ULL << 20, 0);

	CHECK(k != NULL);
	if (!k)
		return;
	ev_proc_pid(k, 1, 1);
	ev_mmap(k, BASE_ADDR, 4ULL << 20);
	ev_access(k, BASE_ADDR, 4ULL << 20, true);
	CHECK_EQ(memcg_folio_pages(k, 1), 1024);
	CHECK_EQ(k->memcg[1].usage, 1028);
	ev_munmap(k, BASE_ADDR, 4ULL << 20);
	CHECK_EQ(k->memcg[1].usage, 0);
	put_kernel(k);

	/* the same in the root memcg: folios only */
	k = memcg_kernel_limit(64ULL << 20, 0);
	CHECK(k != NULL);
	if (!k)
		return;
	ev_proc_pid(k, 1, 0);
	ev_mmap(k, BASE_ADDR, 4ULL << 20);
	ev_access(k, BASE_ADDR, 4ULL << 20, true);
	CHECK_EQ(k->memcg[0].usage, 1024);
	put_kernel(k);

	/*
	 * A limit of exactly the working set, 4 MiB = 1024 pages, with swap:
	 * the folios fit, the folios and their 4 tables do not.  The 1021st
	 * folio's charge finds 1020 + 4 charged and reclaims; tables cannot
	 * be reclaimed, so at the end at most 1024 - 4 = 1020 folios are
	 * resident and at least 4 pages went to swap (the kernel's
	 * memcg-thrash-hot-anon-1.5x, whose working set is its limit,
	 * thrashes for this reason; docs/validation.md).
	 */
	k = memcg_kernel_limit(4ULL << 20, 64ULL << 20);
	CHECK(k != NULL);
	if (!k)
		return;
	ev_proc_pid(k, 1, 1);
	ev_mmap(k, BASE_ADDR, 4ULL << 20);
	ev_access(k, BASE_ADDR, 4ULL << 20, true);
	CHECK(k->memcg[1].reclaim_calls >= 1);
	CHECK(k->node_stats[0].evicted_pages >= 4);
	CHECK(memcg_folio_pages(k, 1) <= 1020);
	CHECK_EQ(k->memcg[1].usage, memcg_folio_pages(k, 1) + 4);
	CHECK_EQ(memcg_folio_pages(k, 1) + k->node_stats[0].evicted_pages, 1024);
	put_kernel(k);
}

/* ------------------------------------------------------------------ */
/* 6. munmap: free_pgtables() bounded by the neighbours (floor/ceiling) */

static void test_munmap_floor_ceiling(void)
{
	struct aw_kernel *k = new_kernel(1ULL << 30);
	struct mm_struct *mm;
	pmd_t *pmd;
	uint32_t pte_id;
	uint64_t kva;

	CHECK(k != NULL);
	if (!k)
		return;
	ev_proc_pid(k, 1, 0);
	ev_mmap(k, BASE_ADDR, 64 << 10);
	ev_mmap(k, BASE_ADDR + 0x20000, 64 << 10);
	mm = mm_of(k, 1);
	CHECK_EQ(mm->nr_vmas, 2);
	ev_access(k, BASE_ADDR, 64 << 10, true);
	ev_access(k, BASE_ADDR + 0x20000, 64 << 10, true);
	/* NOLAYOUT: PGD + one PUD table + one PMD table + one PTE table */
	CHECK_EQ(k->pt.live, 4);
	pmd = aw_pmd_lookup(k, mm, BASE_ADDR, false, NULL);
	CHECK(pmd && pmd_present(*pmd) && !pmd_trans_huge(*pmd));
	if (!pmd)
		goto out;
	pte_id = aw_entry_table(*pmd);
	kva = aw_pmd_entry_kva(k, mm, BASE_ADDR);

	/* the second VMA still lives in the same 2 MiB: the PTE table stays */
	ev_munmap(k, BASE_ADDR, 64 << 10);
	CHECK_EQ(mm->nr_vmas, 1);
	CHECK_EQ(k->pt.live, 4);
	pmd = aw_pmd_lookup(k, mm, BASE_ADDR, false, NULL);
	CHECK(pmd && pmd_present(*pmd) && aw_entry_table(*pmd) == pte_id);

	/* the last VMA: PTE, PMD and PUD tables all freed (no VMA in 512 GiB) */
	ev_munmap(k, BASE_ADDR + 0x20000, 64 << 10);
	CHECK_EQ(mm->nr_vmas, 0);
	CHECK_EQ(k->pt.live, 1);
	CHECK_EQ(aw_pmd_entry_kva(k, mm, BASE_ADDR), 0);	/* no PUD entry any more */

	/*
	 * Freed in order PTE, PMD, PUD (pushed on the LIFO in that order);
	 * a new fault allocates top-down PUD, PMD, PTE, popping PUD's id,
	 * then PMD's, then PTE's: every table gets its old id back, so the
	 * PMD filter key &pmd[i] is the same as before.
	 */
	ev_mmap(k, BASE_ADDR, 64 << 10);
	ev_access(k, BASE_ADDR, 64 << 10, true);
	CHECK_EQ(k->pt.live, 4);
	pmd = aw_pmd_lookup(k, mm, BASE_ADDR, false, NULL);
	CHECK(pmd && pmd_present(*pmd));
	if (pmd)
		CHECK_EQ(aw_entry_table(*pmd), pte_id);
	CHECK_EQ(aw_pmd_entry_kva(k, mm, BASE_ADDR), kva);
out:
	put_kernel(k);
}

/* ------------------------------------------------------------------ */
/* 7. mremap moves whole PTE tables when both ends are PMD aligned */

static void test_mremap_moves_table(void)
{
	struct aw_kernel *k = new_kernel(1ULL << 30);
	const uint64_t new_addr = BASE_ADDR + 2 * PMD_SIZE;	/* same PMD table, index + 2 */
	struct mm_struct *mm;
	pmd_t *pmd;
	pte_t *pte;
	uint32_t pte_id;
	uint64_t kva_old, pfn0;

	CHECK(k != NULL);
	if (!k)
		return;
	ev_proc_pid(k, 1, 0);
	ev_mmap(k, BASE_ADDR, PMD_SIZE);
	ev_access(k, BASE_ADDR, PMD_SIZE, true);
	mm = mm_of(k, 1);
	pmd = aw_pmd_lookup(k, mm, BASE_ADDR, false, NULL);
	CHECK(pmd && pmd_present(*pmd) && !pmd_trans_huge(*pmd));
	if (!pmd)
		goto out;
	pte_id = aw_entry_table(*pmd);
	kva_old = aw_pmd_entry_kva(k, mm, BASE_ADDR);
	pte = aw_pte_lookup(k, mm, BASE_ADDR, false, NULL);
	pfn0 = pte_pfn(*pte);
	CHECK_EQ(k->pt.live, 4);

	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_MREMAP, .pid = 1, .addr = BASE_ADDR,
					     .len = PMD_SIZE, .stride = PMD_SIZE,
					     .addr2 = new_addr }), 0);
	CHECK_EQ(mm->nr_vmas, 1);
	CHECK_EQ(mm->vmas[0].vm_start, new_addr);
	/* the rmap addresses moved with the entries (move_pmd_entry) */
	CHECK_EQ(pfn_folio(&k->mem, pfn0)->rmap_addr, new_addr);
	CHECK_EQ(pfn_folio(&k->mem, pfn0)->mapcount, 1);
	/* the old slot is empty */
	pmd = aw_pmd_lookup(k, mm, BASE_ADDR, false, NULL);
	CHECK(!pmd || pmd_none(*pmd));
	/*
	 * move_vma() creates the new VMA (copy_vma) before move_page_tables()
	 * and unmaps the old range only then, so the new VMA bounds
	 * floor/ceiling and the PMD/PUD tables it shares with the old range
	 * survive.  (Found by this test: do_mremap() used to free them.)
	 */
	/* move_normal_pmd(): the PMD entry moves, the PTE table is the same page */
	pmd = aw_pmd_lookup(k, mm, new_addr, false, NULL);
	CHECK(pmd && pmd_present(*pmd) && !pmd_trans_huge(*pmd));
	if (pmd)
		CHECK_EQ(aw_entry_table(*pmd), pte_id);
	/* &pmd[i]: same PMD table, index 2 higher -> 2 * 8 bytes further */
	CHECK_EQ(aw_pmd_entry_kva(k, mm, new_addr), kva_old + 2 * sizeof(pmd_t));
	CHECK(aw_pmd_entry_kva(k, mm, new_addr) != kva_old);
	pte = aw_pte_lookup(k, mm, new_addr, false, NULL);
	CHECK(pte && pte_present(*pte));
	if (pte)
		CHECK_EQ(pte_pfn(*pte), pfn0);
	/* no table allocated or freed: PGD, PUD, PMD, PTE = 4 live */
	CHECK_EQ(k->pt.live, 4);
	CHECK_EQ(mm->rss, 512);
out:
	put_kernel(k);
}

/* ------------------------------------------------------------------ */
/* 8. Migration keeps flags and the PTE's young/dirty bits */

static void test_migrate_keeps_state(void)
{
	struct aw_config cfg;
	struct aw_kernel *k;
	struct mm_struct *mm;
	pte_t *pte;
	uint64_t old_pfn, new_pfn;
	struct folio *nf;

	aw_config_default(&cfg);
	cfg.nr_nodes = 2;
	cfg.node[0].mem_bytes = 1ULL << 30;
	cfg.node[0].cpu_mask = 0x3;
	cfg.node[1].mem_bytes = 1ULL << 30;
	cfg.node[1].cpu_mask = 0xc;
	cfg.swap_bytes = 1ULL << 30;
	k = new_kernel_cfg(&cfg);
	CHECK(k != NULL);
	if (!k)
		return;
	ev_proc_pid(k, 1, 0);	/* cpu 0 -> node 0 */
	ev_mmap(k, BASE_ADDR, PAGE_SIZE);
	ev_access(k, BASE_ADDR, PAGE_SIZE, true);
	mm = mm_of(k, 1);
	pte = aw_pte_lookup(k, mm, BASE_ADDR, false, NULL);
	CHECK(pte && pte_present(*pte));
	if (!pte)
		goto out;
	old_pfn = pte_pfn(*pte);
	CHECK_EQ(aw_pfn_nid(&k->mem, old_pfn), 0);
	ev_age(k, true);	/* first sighting: PG_referenced, young cleared */
	CHECK(folio_test(pfn_folio(&k->mem, old_pfn), PG_referenced));
	CHECK(!pte_young(*pte));
	ev_access(k, BASE_ADDR, PAGE_SIZE, true);
	CHECK(pte_young(*pte) && pte_dirty(*pte));
	CHECK_EQ(lruvec_total(aw_lruvec(k, 0, 0)), 1);
	CHECK_EQ(lruvec_total(aw_lruvec(k, 0, 1)), 0);

	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_MIGRATE, .pid = 1, .addr = BASE_ADDR,
					     .len = PAGE_SIZE, .node = 1 }), 0);
	new_pfn = pte_pfn(*pte);
	CHECK(new_pfn != old_pfn);
	CHECK_EQ(aw_pfn_nid(&k->mem, new_pfn), 1);
	/* remove_migration_pte(): young and dirty restored from the entry */
	CHECK(pte_present(*pte) && pte_young(*pte) && pte_dirty(*pte));
	nf = pfn_folio(&k->mem, new_pfn);
	CHECK_EQ(nf->nid, 1);
	CHECK(folio_test(nf, PG_referenced));		/* folio_migrate_flags() */
	CHECK(folio_test(nf, PG_anon));
	CHECK_EQ(nf->mapcount, 1);
	CHECK_EQ(nf->rmap_addr, BASE_ADDR);
	/*
	 * Old folio on node 0 was in gen 2 (seq 2, not among the two youngest
	 * of max_seq 4): lru_gen_del_folio(reclaiming=false) adds no PG_active.
	 * Node 1's lruvec was never aged: max_seq 3.  lru_gen_folio_seq: anon,
	 * not active, not swapcache, no PG_workingset -> d = 2 -> seq 2, gen 2.
	 */
	CHECK(folio_lru_gen(nf) >= 0);
	CHECK_EQ(folio_lru_gen(nf), 2);
	CHECK_EQ(lruvec_total(aw_lruvec(k, 0, 0)), 0);	/* dropped by 1 */
	CHECK_EQ(lruvec_total(aw_lruvec(k, 0, 1)), 1);
	CHECK_EQ(mm->rss, 1);
out:
	put_kernel(k);
}

/*
 * The process layout (aw_setup_layout()): text, heap,
 * library and stack VMAs with their first pages faulted in.  Standard:
 * text 8 + heap 16 + library 32 + stack 8 = 64 resident pages, of which
 * heap and stack (24) are anonymous; small: a quarter, 2 + 4 + 8 + 2 = 16,
 * 6 of them anonymous.  Same four VMAs either way.
 */
static void test_layout(void)
{
	for (int small = 0; small <= 1; small++) {
		struct aw_config cfg;
		struct aw_kernel *k;
		struct mm_struct *mm;
		const struct lruvec *lruvec;
		long anon = 0, file = 0;

		aw_config_default(&cfg);
		cfg.nr_nodes = 1;
		cfg.layout = small ? AW_LAYOUT_SMALL : AW_LAYOUT_STANDARD;
		k = new_kernel_cfg(&cfg);
		CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_PROC, .pid = 1, .cpu = 0 }), 0);
		mm = aw_mm(k, aw_task_get(k, 1)->mm);
		CHECK_EQ(mm->nr_vmas, 4);
		CHECK_EQ(mm->rss, small ? 16 : 64);
		lruvec = aw_lruvec(k, 0, 0);
		for (int g = 0; g < MAX_NR_GENS; g++) {
			anon += lruvec->lrugen.nr_pages[g][LRU_GEN_ANON];
			file += lruvec->lrugen.nr_pages[g][LRU_GEN_FILE];
		}
		CHECK_EQ(anon, small ? 6 : 24);
		CHECK_EQ(file, small ? 10 : 40);
		put_kernel(k);
	}
}

int main(void)
{
	RUN(test_layout);
	RUN(test_lookaround_window);
	RUN(test_lookaround_one_page_vma);
	RUN(test_lookaround_vma_below);
	RUN(test_lookaround_bloom);
	RUN(test_sticky_force_scan);
	RUN(test_memcg_oom);
	RUN(test_memcg_pgtable_charge);
	RUN(test_munmap_floor_ceiling);
	RUN(test_mremap_moves_table);
	RUN(test_migrate_keeps_state);
	return aw_test_report("test_mm_events");
}
