// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the MGLRU model: Bloom keys and filters, suitable_to_scan,
 * placement, promotion, the generation window, walk counting and eviction.
 *
 * Every expected value is derived by hand from the kernel rule
 * (the kernel function each test names; docs/model-notes.md); the comment next to each says how.
 */
#include "aw_kernel_test.h"

#include "kernel.h"
#include "event.h"
#include "scenario.h"

#define BASE_ADDR	0x7e0000000000ULL	/* 1 GiB (hence 2 MiB) aligned */

/* ------------------------------------------------------------------ */
/* 1. get_item_key(): hash_ptr(item, 30) = (item * GOLDEN_RATIO_64) >> 34 */

static void test_hash_keys(void)
{
	const uint64_t items[] = { 0xffff888100001000ULL, 0xffff888100001008ULL,
				   0xffff888100200ff8ULL, 12345 };
	int key[2];

	for (size_t n = 0; n < sizeof(items) / sizeof(items[0]); n++) {
		/* explicit mod-2^64 product via 128-bit arithmetic, then the top 30 bits */
		unsigned __int128 prod = (unsigned __int128)items[n] * 0x61C8864680B583EBULL;
		uint64_t low = (uint64_t)prod;		/* mod 2^64 */
		uint32_t hash = (uint32_t)(low >> 34);

		get_item_key(items[n], key);
		CHECK_EQ(key[0], hash & 0x7fff);
		CHECK_EQ(key[1], hash >> 15);
		CHECK(key[0] >= 0 && key[0] < 32768);
		CHECK(key[1] >= 0 && key[1] < 32768);
	}

	/*
	 * item = 1: hash = 0x61C8864680B583EB >> 34.  >> 32 gives 0x61C88646,
	 * >> 2 more gives 0x18722191.  key0 = low 15 bits = 0x2191 (bit 15 of
	 * 0x2191 is 0); key1 = 0x18722191 >> 15 = (0x1872 << 1) | 0 = 0x30E4.
	 */
	get_item_key(1, key);
	CHECK_EQ(key[0], 0x2191);
	CHECK_EQ(key[1], 0x30E4);
	CHECK_EQ(hash_ptr(1, 30), 0x18722191);

	/*
	 * item = 2: 2 * GR = 0xC3910C8D016B07D6 (no wrap, GR < 2^63).
	 * >> 32 = 0xC3910C8D, >> 2 = 0x30E44323.  key0 = 0x4323,
	 * key1 = (0x30E4 << 1) | bit15(0x4323)=0 = 0x61C8.
	 */
	get_item_key(2, key);
	CHECK_EQ(key[0], 0x4323);
	CHECK_EQ(key[1], 0x61C8);
}

/* ------------------------------------------------------------------ */
/* 2. suitable_to_scan(): young * 8 >= total on x86-64 (64 B line / 8 B pte) */

static void test_suitable_to_scan(void)
{
	CHECK(suitable_to_scan(512, 64));	/* 64*8 = 512 >= 512 */
	CHECK(!suitable_to_scan(512, 63));	/* 63*8 = 504 <  512 */
	CHECK(!suitable_to_scan(1, 0));		/* 0 < 1 */
	CHECK(suitable_to_scan(0, 0));		/* 0 >= 0 */
	CHECK(suitable_to_scan(8, 1));		/* 8 >= 8 */
	CHECK(!suitable_to_scan(9, 1));		/* 8 < 9 */
}

/* ------------------------------------------------------------------ */
/* 3. Bloom double buffering: filters[seq % 2], NULL tests true */

static void test_bloom_double_buffer(void)
{
	aw_bloom_t filters[NR_BLOOM_FILTERS] = { 0 };
	const uint64_t item = 0xffff888100001000ULL;
	const uint64_t other = 0xffff888100005ff8ULL;

	/* both NULL: everything passes */
	CHECK(__test_bloom_filter(filters, 4, item));
	CHECK(__test_bloom_filter(filters, 5, item));

	/* pass A: reset(4) allocates filters[4 % 2 = 0] only */
	CHECK_EQ(__reset_bloom_filter(filters, 4), 0);
	CHECK(filters[0] != NULL);
	CHECK(filters[1] == NULL);
	CHECK(!__test_bloom_filter(filters, 4, item));	/* fresh, zeroed */
	__update_bloom_filter(filters, 4, item);
	CHECK(__test_bloom_filter(filters, 4, item));
	/* two keys set: 2 bits, or 1 if they happen to coincide */
	CHECK(aw_bloom_weight(filters, 4) >= 1 && aw_bloom_weight(filters, 4) <= 2);
	CHECK(__test_bloom_filter(filters, 5, item));	/* filters[1] still NULL */
	__update_bloom_filter(filters, 5, other);	/* NULL: no effect, no crash */

	/* pass B: reset(5) allocates filters[1]; nothing was inserted there */
	CHECK_EQ(__reset_bloom_filter(filters, 5), 0);
	CHECK(filters[1] != NULL);
	CHECK(!__test_bloom_filter(filters, 5, other));
	CHECK(!__test_bloom_filter(filters, 5, item));
	CHECK(__test_bloom_filter(filters, 4, item));	/* filters[0] untouched */
	__update_bloom_filter(filters, 5, other);
	CHECK(__test_bloom_filter(filters, 5, other));

	/* pass C: reset(6) clears filters[6 % 2 = 0] in place */
	{
		uint64_t *before = filters[0];

		CHECK_EQ(__reset_bloom_filter(filters, 6), 0);
		CHECK(filters[0] == before);
	}
	CHECK(!__test_bloom_filter(filters, 6, item));
	CHECK(!__test_bloom_filter(filters, 4, item));
	CHECK_EQ(aw_bloom_weight(filters, 6), 0);
	CHECK(__test_bloom_filter(filters, 7, other));	/* filters[1] kept */

	aw_bloom_free(filters);
	CHECK(filters[0] == NULL && filters[1] == NULL);
}

/* ------------------------------------------------------------------ */
/* 4. lru_gen_folio_seq(): d per docs/kernel-rules.md §2, seq = max(max_seq - d + 1, min_seq[type]) */

static struct aw_kernel *new_kernel(enum aw_thp_mode thp, uint64_t swap_bytes)
{
	return aw_test_kernel(thp, swap_bytes, 0);
}

static void test_placement(void)
{
	struct aw_kernel *k = new_kernel(AW_THP_NEVER, 0);
	struct lruvec *lv;
	struct folio f;

	CHECK(k != NULL);
	if (!k)
		return;
	lv = &k->lruvecs[0];
	/* lru_gen_init_lruvec(): max_seq = MIN_NR_GENS + 1 = 3, min_seq 0 */
	CHECK_EQ(lv->lrugen.max_seq, 3);
	CHECK_EQ(lv->lrugen.min_seq[0], 0);
	CHECK_EQ(lv->lrugen.min_seq[1], 0);

	/* (a) anon fault: PG_active, no workingset: d = 2 - 0 = 2 -> 3-2+1 = 2 */
	memset(&f, 0, sizeof(f));
	f.flags = 1U << PG_anon | 1U << PG_swapbacked | 1U << PG_active;
	CHECK_EQ(lru_gen_folio_seq(lv, &f, false), 2);
	/* PG_active wins over reclaiming too */
	CHECK_EQ(lru_gen_folio_seq(lv, &f, true), 2);

	/* (b) PG_active | PG_workingset: d = 1 -> max_seq = 3 */
	f.flags |= 1U << PG_workingset;
	CHECK_EQ(lru_gen_folio_seq(lv, &f, false), 3);

	/* (c) anon, not active, not swapcache: d = 2 -> 2 */
	f.flags = 1U << PG_anon | 1U << PG_swapbacked;
	CHECK_EQ(lru_gen_folio_seq(lv, &f, false), 2);
	/* anon in swapcache, not workingset: falls to d = 4 -> max(0, min_seq[0]=0) = 0 */
	f.flags |= 1U << PG_swapcache;
	CHECK_EQ(lru_gen_folio_seq(lv, &f, false), 0);

	/* (d) clean file, not active, not reclaiming: d = 4 -> max(3-4+1=0, 0) = 0 */
	f.flags = 0;
	CHECK_EQ(lru_gen_folio_seq(lv, &f, false), 0);
	/* with PG_workingset: d = 3 -> 1 */
	f.flags = 1U << PG_workingset;
	CHECK_EQ(lru_gen_folio_seq(lv, &f, false), 1);
	/* dirty + PG_reclaim file: d = 2 -> 2 */
	f.flags = 1U << PG_dirty | 1U << PG_reclaim;
	CHECK_EQ(lru_gen_folio_seq(lv, &f, false), 2);

	/* (e) reclaiming: d = 4 -> 0, even for anon or workingset */
	f.flags = 1U << PG_workingset;
	CHECK_EQ(lru_gen_folio_seq(lv, &f, true), 0);
	f.flags = 1U << PG_anon | 1U << PG_swapbacked;
	CHECK_EQ(lru_gen_folio_seq(lv, &f, true), 0);

	/* clamp to min_seq[type]: with min_seq[file] = 2, d = 4 gives max(0, 2) = 2 */
	lv->lrugen.min_seq[LRU_GEN_FILE] = 2;
	f.flags = 0;
	CHECK_EQ(lru_gen_folio_seq(lv, &f, false), 2);
	/* anon type still uses min_seq[anon] = 0: reclaiming anon -> 0 */
	f.flags = 1U << PG_anon | 1U << PG_swapbacked;
	CHECK_EQ(lru_gen_folio_seq(lv, &f, true), 0);
	lv->lrugen.min_seq[LRU_GEN_FILE] = 0;

	aw_kernel_destroy(k);
}

/* ------------------------------------------------------------------ */
/* 5. folio_update_gen() and lru_gen_set_refs(): the 6.14+ two-touch rule */

static void test_two_touch(void)
{
	struct folio f;

	memset(&f, 0, sizeof(f));
	f.flags = 1U << PG_anon | 1U << PG_swapbacked | 1U << PG_lru |
		  (uint32_t)(1 + 1) << LRU_GEN_PGOFF;	/* gen slot 1 */
	CHECK_EQ(folio_lru_gen(&f), 1);

	/* first sighting: only PG_referenced, -1, gen untouched */
	CHECK_EQ(folio_update_gen(&f, 3), -1);
	CHECK(folio_test(&f, PG_referenced));
	CHECK(!folio_test(&f, PG_workingset));
	CHECK_EQ(folio_lru_gen(&f), 1);

	/* second: returns old gen 1, gen := 3, PG_workingset, PG_referenced cleared */
	CHECK_EQ(folio_update_gen(&f, 3), 1);
	CHECK_EQ(folio_lru_gen(&f), 3);
	CHECK(folio_test(&f, PG_workingset));
	CHECK(!folio_test(&f, PG_referenced));
	CHECK_EQ(f.flags & LRU_REFS_MASK, 0);
	CHECK(folio_test(&f, PG_anon) && folio_test(&f, PG_lru));	/* others kept */

	/* workingset folio: promoted at once, returns the previous gen (3) */
	CHECK_EQ(folio_update_gen(&f, 0), 3);
	CHECK_EQ(folio_lru_gen(&f), 0);

	/* isolated (gen field 0) but referenced: -1, flags gen stays -1 */
	memset(&f, 0, sizeof(f));
	f.flags = 1U << PG_referenced;
	CHECK_EQ(folio_update_gen(&f, 2), -1);
	CHECK_EQ(folio_lru_gen(&f), -1);
	CHECK(!folio_test(&f, PG_workingset));

	/* lru_gen_set_refs(): false + PG_referenced, then true + PG_workingset */
	memset(&f, 0, sizeof(f));
	f.flags = (uint32_t)(2 + 1) << LRU_GEN_PGOFF;
	CHECK(!lru_gen_set_refs(&f));
	CHECK(folio_test(&f, PG_referenced));
	CHECK(!folio_test(&f, PG_workingset));
	CHECK(lru_gen_set_refs(&f));
	CHECK(folio_test(&f, PG_workingset));
	CHECK(!folio_test(&f, PG_referenced));
	CHECK_EQ(folio_lru_gen(&f), 2);		/* set_refs never moves the gen */
	/* workingset already: true again, stays workingset */
	CHECK(lru_gen_set_refs(&f));
	CHECK(folio_test(&f, PG_workingset));
}

/* ------------------------------------------------------------------ */
/* 6. inc_max_seq(): the window of at most MAX_NR_GENS = 4 generations */

static void test_generation_window(void)
{
	struct aw_kernel *k = new_kernel(AW_THP_NEVER, 0);
	struct lruvec *lv;

	CHECK(k != NULL);
	if (!k)
		return;
	lv = &k->lruvecs[0];
	CHECK_EQ(get_nr_gens(lv, LRU_GEN_ANON), 4);	/* 3 - 0 + 1 */
	/* full window: inc_min_seq() retires one generation of each type */
	CHECK(inc_max_seq(k, lv, 3, 60));
	CHECK_EQ(lv->lrugen.max_seq, 4);
	CHECK_EQ(lv->lrugen.min_seq[LRU_GEN_ANON], 1);
	CHECK_EQ(lv->lrugen.min_seq[LRU_GEN_FILE], 1);
	CHECK_EQ(get_nr_gens(lv, LRU_GEN_ANON), 4);	/* 4 - 1 + 1 */
	CHECK_EQ(get_nr_gens(lv, LRU_GEN_FILE), 4);
	/* stale seq: 3 != max_seq 4 -> false, nothing moves */
	CHECK(!inc_max_seq(k, lv, 3, 60));
	CHECK_EQ(lv->lrugen.max_seq, 4);
	CHECK_EQ(lv->lrugen.min_seq[LRU_GEN_ANON], 1);
	/* not evictable type (swappiness 0: anon) still advances min_seq in place */
	CHECK(inc_max_seq(k, lv, 4, 0));
	CHECK_EQ(lv->lrugen.max_seq, 5);
	CHECK_EQ(lv->lrugen.min_seq[LRU_GEN_ANON], 2);
	CHECK_EQ(lv->lrugen.min_seq[LRU_GEN_FILE], 2);
	aw_kernel_destroy(k);
}

/* ------------------------------------------------------------------ */
/* helpers for the event-driven tests */

static void ev_proc(struct aw_kernel *k)
{
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_PROC, .pid = 1, .cpu = 0,
					     .flags = AW_PROC_NOLAYOUT }), 0);
}

static void ev_mmap(struct aw_kernel *k, uint64_t addr, uint64_t len)
{
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_MMAP, .pid = 1, .addr2 = addr,
					     .len = len, .arg = AW_PROT_DEFAULT }), 0);
}

static void ev_access(struct aw_kernel *k, uint64_t addr, uint64_t len, bool write)
{
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_ACCESS, .pid = 1, .cpu = 0,
					     .addr = addr, .len = len, .repeat = 1,
					     .flags = write ? AW_ACC_WRITE : 0 }), 0);
}

static void ev_run(struct aw_kernel *k)
{
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_RUN, .pid = 1, .cpu = 0 }), 0);
}

static struct mm_struct *mm_of_pid1(struct aw_kernel *k)
{
	struct aw_task *t = aw_task_get(k, 1);

	return t ? aw_mm(k, t->mm) : NULL;
}

/* ------------------------------------------------------------------ */
/* 7. Leaf counting: 4 MiB = two full PTE tables under one PMD table */

static void test_leaf_counting(void)
{
	struct aw_kernel *k = new_kernel(AW_THP_NEVER, 1ULL << 30);
	const struct aw_pass *p;

	CHECK(k != NULL);
	if (!k)
		return;
	ev_proc(k);
	ev_mmap(k, BASE_ADDR, 4ULL << 20);
	ev_access(k, BASE_ADDR, 4ULL << 20, true);

	/*
	 * Pass 1 (seq 3), forced: every non-leaf PMD is walked (no young gate,
	 * no filter).  T = 2 tables * 512 PTEs = 1024, all written so Y = 1024,
	 * F = 2, A = 2 (512 young * 8 >= 512 per table).  PMD slots read: the
	 * VMA spans PMD slots 0 and 1 -> 2.
	 */
	ev_age(k, true);
	p = pass_of(k, 0);
	if (p) {
		CHECK_EQ(p->mm_stats[MM_LEAF_TOTAL], 1024);
		CHECK_EQ(p->mm_stats[MM_LEAF_YOUNG], 1024);
		CHECK_EQ(p->mm_stats[MM_NONLEAF_FOUND], 2);
		CHECK_EQ(p->mm_stats[MM_NONLEAF_ADDED], 2);
		CHECK_EQ(p->aw_stats[AW_WS_PMD_READ], 2);
		CHECK_EQ(p->walks, 1);
		CHECK(p->success);
	}
	CHECK_EQ(k->lruvecs[0].lrugen.max_seq, 4);

	/*
	 * The task must run again for a non-forced walk to take the mm:
	 * get_next_mm() clears the node's bitmap bit even on a forced walk and
	 * skips the mm when !force_scan and the bit is clear
	 * (docs/kernel-rules.md §3).  A second non-forced AGE right away
	 * therefore walks nothing; that case is checked on its own kernel
	 * below, and here an AW_EV_RUN (context switch: lru_gen_use_mm) comes
	 * first.
	 *
	 * Pass 2 (seq 4), not forced: the non-leaf accessed bits are still set
	 * (pass 1 was forced and did not clear them) and filters[4 % 2] holds
	 * both PMD entries (added by pass 1 for seq + 1 = 4) -> F = 2, both
	 * tables walked: T = 1024, no PTE young since -> Y = 0, A = 0
	 * (0 * 8 < 512).  The young gate clears the two non-leaf bits.
	 */
	ev_run(k);
	ev_age(k, false);
	p = pass_of(k, 1);
	if (p) {
		CHECK(!p->forced);
		CHECK_EQ(p->forced_walks, 0);
		CHECK_EQ(p->mm_stats[MM_LEAF_TOTAL], 1024);
		CHECK_EQ(p->mm_stats[MM_LEAF_YOUNG], 0);
		CHECK_EQ(p->mm_stats[MM_NONLEAF_FOUND], 2);
		CHECK_EQ(p->mm_stats[MM_NONLEAF_ADDED], 0);
		CHECK_EQ(p->aw_stats[AW_WS_PMD_READ], 2);
	}

	/* Pass 3 (seq 5): non-leaf bits cleared by pass 2 -> both skipped: T 0, F 0 */
	ev_run(k);
	ev_age(k, false);
	p = pass_of(k, 2);
	if (p) {
		CHECK_EQ(p->walks, 1);
		CHECK_EQ(p->mm_stats[MM_LEAF_TOTAL], 0);
		CHECK_EQ(p->mm_stats[MM_LEAF_YOUNG], 0);
		CHECK_EQ(p->mm_stats[MM_NONLEAF_FOUND], 0);
		CHECK_EQ(p->mm_stats[MM_NONLEAF_ADDED], 0);
		CHECK_EQ(p->aw_stats[AW_WS_PMD_READ], 2);	/* slots still read */
	}
	CHECK_EQ(k->lruvecs[0].lrugen.max_seq, 6);
	aw_kernel_destroy(k);

	/*
	 * The literal "second non-forced AGE right away": the mm's bitmap bit
	 * for node 0 was cleared by pass 1, nothing ran since, so get_next_mm()
	 * skips it: no walk, T = 0.  The iteration still ends (last = true),
	 * so max_seq advances 4 -> 5.
	 */
	k = new_kernel(AW_THP_NEVER, 1ULL << 30);
	CHECK(k != NULL);
	if (!k)
		return;
	ev_proc(k);
	ev_mmap(k, BASE_ADDR, 4ULL << 20);
	ev_access(k, BASE_ADDR, 4ULL << 20, true);
	ev_age(k, true);
	ev_age(k, false);
	p = pass_of(k, 1);
	if (p) {
		CHECK_EQ(p->walks, 0);
		CHECK_EQ(p->mm_stats[MM_LEAF_TOTAL], 0);
		CHECK_EQ(p->mm_stats[MM_NONLEAF_FOUND], 0);
		CHECK(p->success);
	}
	CHECK_EQ(k->lruvecs[0].lrugen.max_seq, 5);
	aw_kernel_destroy(k);
}

/* ------------------------------------------------------------------ */
/* 8. A VMA hole inside one PTE table: get_next_vma() hops it */

static void test_vma_hole(void)
{
	struct aw_kernel *k = new_kernel(AW_THP_NEVER, 1ULL << 30);
	const struct aw_pass *p;

	CHECK(k != NULL);
	if (!k)
		return;
	ev_proc(k);
	ev_mmap(k, BASE_ADDR, 64 << 10);
	ev_mmap(k, BASE_ADDR + 0x20000, 64 << 10);
	CHECK_EQ(mm_of_pid1(k)->nr_vmas, 2);	/* not adjacent: no merge */
	ev_access(k, BASE_ADDR, 64 << 10, true);
	ev_access(k, BASE_ADDR + 0x20000, 64 << 10, true);
	ev_age(k, true);
	/*
	 * One PTE table (both inside the first 2 MiB): walk_pte_range counts
	 * 16 PTEs of VMA 1, hops the 64 KiB hole with get_next_vma(PMD_MASK),
	 * counts 16 of VMA 2: T = 32, all young: Y = 32, F = 1, A = 1
	 * (32 * 8 >= 32).  One PMD slot read.
	 */
	p = pass_of(k, 0);
	if (p) {
		CHECK_EQ(p->mm_stats[MM_LEAF_TOTAL], 32);
		CHECK_EQ(p->mm_stats[MM_LEAF_YOUNG], 32);
		CHECK_EQ(p->mm_stats[MM_NONLEAF_FOUND], 1);
		CHECK_EQ(p->mm_stats[MM_NONLEAF_ADDED], 1);
		CHECK_EQ(p->aw_stats[AW_WS_PMD_READ], 1);
	}
	aw_kernel_destroy(k);
}

/* ------------------------------------------------------------------ */
/* 9. A THP leaf: one trans-huge PMD */

static void test_thp_leaf(void)
{
	struct aw_kernel *k = new_kernel(AW_THP_ALWAYS, 1ULL << 30);
	const struct aw_pass *p;
	pmd_t *pmd;

	CHECK(k != NULL);
	if (!k)
		return;
	ev_proc(k);
	ev_mmap(k, BASE_ADDR, 2ULL << 20);
	ev_access(k, BASE_ADDR, 2ULL << 20, true);
	pmd = aw_pmd_lookup(k, mm_of_pid1(k), BASE_ADDR, false, NULL);
	CHECK(pmd && pmd_trans_huge(*pmd));

	/* forced: the huge PMD counts as one leaf (T 1), young (Y 1), no table (F 0) */
	ev_age(k, true);
	p = pass_of(k, 0);
	if (p) {
		CHECK_EQ(p->mm_stats[MM_LEAF_TOTAL], 1);
		CHECK_EQ(p->mm_stats[MM_LEAF_YOUNG], 1);
		CHECK_EQ(p->mm_stats[MM_NONLEAF_FOUND], 0);
		CHECK_EQ(p->mm_stats[MM_NONLEAF_ADDED], 0);
	}
	if (pmd)
		CHECK(!pmd_young(*pmd));	/* pmdp_clear_young_notify */

	/*
	 * Second, not forced, no access: RUN first (see test 7 on the bitmap).
	 * The huge PMD is still a leaf: T 1; not young: get_pmd_pfn() = -1, Y 0.
	 */
	ev_run(k);
	ev_age(k, false);
	p = pass_of(k, 1);
	if (p) {
		CHECK_EQ(p->walks, 1);
		CHECK_EQ(p->mm_stats[MM_LEAF_TOTAL], 1);
		CHECK_EQ(p->mm_stats[MM_LEAF_YOUNG], 0);
		CHECK_EQ(p->mm_stats[MM_NONLEAF_FOUND], 0);
	}
	aw_kernel_destroy(k);
}

/* ------------------------------------------------------------------ */
/* 10. Eviction: the old page goes, the young one is kept */

static void test_evict_old_keep_young(void)
{
	struct aw_kernel *k = new_kernel(AW_THP_NEVER, 1ULL << 30);
	struct lruvec *lv;
	struct mm_struct *mm;
	pte_t *pte0, *pte1;
	struct folio *f0, *f1;
	uint32_t pfn0, pfn1;

	CHECK(k != NULL);
	if (!k)
		return;
	lv = &k->lruvecs[0];
	ev_proc(k);
	ev_mmap(k, BASE_ADDR, 8 << 10);
	ev_access(k, BASE_ADDR, 8 << 10, true);
	mm = mm_of_pid1(k);
	pte0 = aw_pte_lookup(k, mm, BASE_ADDR, false, NULL);
	pte1 = aw_pte_lookup(k, mm, BASE_ADDR + PAGE_SIZE, false, NULL);
	CHECK(pte0 && pte1 && pte_present(*pte0) && pte_present(*pte1));
	if (!pte0 || !pte1)
		goto out;
	pfn0 = (uint32_t)pte_pfn(*pte0);
	pfn1 = (uint32_t)pte_pfn(*pte1);
	f0 = pfn_folio(&k->mem, pfn0);
	f1 = pfn_folio(&k->mem, pfn1);

	/* fault: PG_active, d = 2 -> seq max_seq - 1 = 2, slot 2; PG_active cleared on add */
	CHECK_EQ(folio_lru_gen(f0), 2);
	CHECK_EQ(folio_lru_gen(f1), 2);
	CHECK(!folio_test(f0, PG_active));

	/*
	 * AGE 1 (seq 3, forced): both PTEs young -> first sighting, PG_referenced
	 * only, young bits cleared.  inc_max_seq: window 0..3 full -> min_seq
	 * {1,1} (slot 0 empty), max_seq 4.
	 */
	ev_age(k, true);
	CHECK(folio_test(f0, PG_referenced) && folio_test(f1, PG_referenced));
	CHECK_EQ(folio_lru_gen(f0), 2);
	CHECK(!pte_young(*pte0) && !pte_young(*pte1));
	/* AGE 2 (seq 4): nothing young; window 1..4 full -> min_seq {2,2}, max_seq 5 */
	ev_age(k, true);
	CHECK_EQ(lv->lrugen.min_seq[LRU_GEN_ANON], 2);
	/*
	 * AGE 3 (seq 5): window 2..5 full -> inc_min_seq(anon) moves both folios
	 * from the oldest slot 2 by folio_inc_gen(): gen 3, LRU_REFS_FLAGS cleared
	 * (so PG_referenced is gone); min_seq {3,3}, max_seq 6.
	 */
	ev_age(k, true);
	CHECK_EQ(lv->lrugen.max_seq, 6);
	CHECK_EQ(lv->lrugen.min_seq[LRU_GEN_ANON], 3);
	CHECK_EQ(lv->lrugen.min_seq[LRU_GEN_FILE], 3);
	CHECK_EQ(folio_lru_gen(f0), 3);
	CHECK_EQ(folio_lru_gen(f1), 3);
	CHECK(!folio_test(f0, PG_referenced) && !folio_test(f1, PG_referenced));
	CHECK(!folio_test(f0, PG_workingset) && !folio_test(f1, PG_workingset));

	/* read the second page only: its PTE becomes young */
	ev_access(k, BASE_ADDR + PAGE_SIZE, PAGE_SIZE, false);
	CHECK(pte_young(*pte1));
	CHECK(!pte_young(*pte0));

	/*
	 * EVICT from min_seq 3 (evictable_min_seq(3,3) + 2 = 5 <= 6): both
	 * folios are in the oldest slot, tier 0, isolated.
	 * - page 0: rmap finds no young PTE -> r = 0 -> RECLAIM: swapped out.
	 * - page 1: young PTE -> look-around clears it, r = 1;
	 *   lru_gen_set_refs() on a folio with neither PG_referenced nor
	 *   PG_workingset -> sets PG_referenced, false -> KEEP.
	 * try_to_inc_min_seq() ran right after isolation (same lock hold) and
	 * saw slots 3 and 0 (seq 4) empty: min_seq -> {5,5} (5 + 2 > 6 stops
	 * it); s = max_seq - 2 = 4, neither type below it, no clamp.
	 * Putback (docs/kernel-rules.md §7): lru_gen_folio_seq(page 1, false) = anon not swapcache,
	 * d = 2 -> max(6 - 2 + 1, min_seq[anon] 5) = 5 == min_seq[anon], so
	 * "don't add rejected folios to the oldest generation" sets PG_active
	 * and clears LRU_REFS_FLAGS (PG_referenced goes again); re-added with
	 * PG_active, d = 2 -> seq 5, slot 1, PG_active cleared by the add.
	 * The eviction stops: min_seq moved (and 5 + 2 > 6 anyway).
	 */
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_EVICT, .node = 0, .memcg = 0,
					     .swappiness = AW_SWAPPINESS_DEFAULT }), 0);
	CHECK_EQ(k->node_stats[0].evicted, 1);
	CHECK_EQ(k->node_stats[0].evicted_pages, 1);
	CHECK(!pte_present(*pte0) && pte_swp(*pte0));
	CHECK(pte_present(*pte1));
	CHECK_EQ(pte_pfn(*pte1), pfn1);
	CHECK(!pte_young(*pte1));		/* cleared by the rmap walk */
	CHECK(!folio_test(f1, PG_referenced));	/* cleared by the putback clamp */
	CHECK(!folio_test(f1, PG_workingset));	/* KEEP, not ACTIVATE */
	CHECK(!folio_test(f1, PG_active));	/* consumed by lru_gen_add_folio */
	CHECK_EQ(folio_lru_gen(f1), 1);
	CHECK_EQ(lv->lrugen.min_seq[LRU_GEN_FILE], 5);
	CHECK_EQ(lv->lrugen.min_seq[LRU_GEN_ANON], 5);
	CHECK_EQ(mm->rss, 1);
out:
	aw_kernel_destroy(k);
}

int main(void)
{
	RUN(test_hash_keys);
	RUN(test_suitable_to_scan);
	RUN(test_bloom_double_buffer);
	RUN(test_placement);
	RUN(test_two_touch);
	RUN(test_generation_window);
	RUN(test_leaf_counting);
	RUN(test_vma_hole);
	RUN(test_thp_leaf);
	RUN(test_evict_old_keep_young);
	return aw_test_report("test_model");
}
