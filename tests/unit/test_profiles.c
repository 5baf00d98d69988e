// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel profiles and the rules the review found missing from the mainline
 * model (docs/model-notes.md, "Kernel profiles"): tiers, reference checks,
 * eviction and refaults.  test_profiles_aging.c has the aging, placement
 * and THP rules.  Every expected value is worked out by hand from the
 * kernel rule quoted next to it, never read back from the model.
 */
#include <string.h>

#include "aw_profile_test.h"

/*
 * folio_lru_refs() and lru_tier_from_refs().  Mainline (6.14+): refs =
 * PG_referenced ? counter + 1 : 0, tier = workingset ? 3 :
 * order_base_2(refs).  6.1/6.12: refs = counter + workingset, tier =
 * order_base_2(refs + 1).
 */
static void test_tiers(void)
{
	struct aw_kernel *ml = profile_kernel(AW_KERNEL_MAINLINE, 0, 1);
	struct aw_kernel *k12 = profile_kernel(AW_KERNEL_6_12, 0, 1);
	struct folio f;

	CHECK(ml && k12);
	if (!ml || !k12)
		goto out;
	memset(&f, 0, sizeof(f));
	/* nothing: refs 0, tier 0 in both */
	CHECK_EQ(folio_lru_tier(ml, &f), 0);
	CHECK_EQ(folio_lru_tier(k12, &f), 0);
	/* PG_referenced alone: mainline refs 1 -> order_base_2(1) = 0; 6.12 refs 0 -> 0 */
	f.flags = 1U << PG_referenced;
	CHECK_EQ(folio_lru_refs(ml, &f), 1);
	CHECK_EQ(folio_lru_tier(ml, &f), 0);
	CHECK_EQ(folio_lru_tier(k12, &f), 0);
	/* PG_workingset alone: mainline tier 3; 6.12 refs 0 + 1 = 1 -> order_base_2(2) = 1 */
	f.flags = 1U << PG_workingset;
	CHECK_EQ(folio_lru_tier(ml, &f), 3);
	CHECK_EQ(folio_lru_refs(k12, &f), 1);
	CHECK_EQ(folio_lru_tier(k12, &f), 1);
	/* 6.12 refault flags (counter 3 + workingset): refs 4 -> order_base_2(5) = 3, all bits set */
	f.flags = LRU_REFS_MASK | 1U << PG_workingset;
	CHECK_EQ(folio_lru_tier(k12, &f), 3);
	CHECK(folio_lazily_promoted(k12, &f));
	/* mainline: counter 3 + PG_referenced = refs 4, + workingset = 5 = BIT(2) + 1 */
	f.flags = LRU_REFS_MASK | 1U << PG_referenced | 1U << PG_workingset;
	CHECK(folio_lazily_promoted(ml, &f));
	f.flags = 1U << PG_referenced | 1U << PG_workingset;
	CHECK(!folio_lazily_promoted(ml, &f));
out:
	aw_kernel_destroy(ml);
	aw_kernel_destroy(k12);
}

/*
 * The PID controller (mainline gains): positive_ctrl_err(sp, pv) =
 * pv.refaulted < 64 || pv.refaulted * (sp.total + 64) * sp.gain <=
 * (sp.refaulted + 1) * pv.total * pv.gain.
 */
static void test_pid(void)
{
	struct aw_kernel *k = profile_kernel(AW_KERNEL_MAINLINE, 0, 1);
	struct lru_gen_folio *g;

	CHECK(k != NULL);
	if (!k)
		return;
	g = &k->lruvecs[0].lrugen;
	/*
	 * get_tier_idx(anon): sp = tier 0 (gain 2): refaulted 0, total 100.
	 * Tiers 1, 2: refaulted 0 < 64 -> positive, go on.  Tier 3 (gain 3):
	 * 64 * (100 + 64) * 2 = 20992 <= (0 + 1) * 64 * 3 = 192? no -> stop:
	 * tier_idx = 3 - 1 = 2, so sort_folio() protects tier 3 (3 > 2).
	 */
	g->evicted[LRU_GEN_ANON][0] = 100;
	g->refaulted[LRU_GEN_ANON][3] = 64;
	g->evicted[LRU_GEN_ANON][3] = 64;
	CHECK_EQ(get_tier_idx(&k->lruvecs[0], LRU_GEN_ANON), 2);
	/* 63 refaults: 63 < 64 -> positive for every tier -> tier_idx 3, nothing protected */
	g->refaulted[LRU_GEN_ANON][3] = 63;
	CHECK_EQ(get_tier_idx(&k->lruvecs[0], LRU_GEN_ANON), 3);

	/*
	 * get_type_to_scan(60): sp = anon, all tiers: refaulted 63, total
	 * 164, gain 60; pv = file: refaulted 64, total 64, gain 140:
	 * 64 * (164 + 64) * 60 = 875520 <= (63 + 1) * 64 * 140 = 573440? no
	 * -> 0 = anon.  With 63 file refaults: 63 < 64 -> 1 = file.
	 */
	g->refaulted[LRU_GEN_FILE][0] = 64;
	g->evicted[LRU_GEN_FILE][0] = 64;
	CHECK_EQ(get_type_to_scan(&k->lruvecs[0], 60), LRU_GEN_ANON);
	g->refaulted[LRU_GEN_FILE][0] = 63;
	CHECK_EQ(get_type_to_scan(&k->lruvecs[0], 60), LRU_GEN_FILE);
	/* swappiness <= 1 file, >= 200 anon, whatever the counts */
	CHECK_EQ(get_type_to_scan(&k->lruvecs[0], 1), LRU_GEN_FILE);
	CHECK_EQ(get_type_to_scan(&k->lruvecs[0], 200), LRU_GEN_ANON);

	/*
	 * reset_ctrl_pos(carryover), NR_HIST_GENS == 1: avg_refaulted =
	 * (10 + 7) / 2 = 8; avg_total = (20 + protected 5 + evicted 6) / 2 =
	 * 15; the generation's counts start again at 0.
	 */
	g->avg_refaulted[LRU_GEN_FILE][1] = 10;
	g->refaulted[LRU_GEN_FILE][1] = 7;
	g->avg_total[LRU_GEN_FILE][1] = 20;
	g->protected[LRU_GEN_FILE][1] = 5;
	g->evicted[LRU_GEN_FILE][1] = 6;
	reset_ctrl_pos(&k->lruvecs[0], LRU_GEN_FILE, true);
	CHECK_EQ(g->avg_refaulted[LRU_GEN_FILE][1], 8);
	CHECK_EQ(g->avg_total[LRU_GEN_FILE][1], 15);
	CHECK_EQ(g->refaulted[LRU_GEN_FILE][1] + g->protected[LRU_GEN_FILE][1] + g->evicted[LRU_GEN_FILE][1], 0);
	aw_kernel_destroy(k);
}

/*
 * The eviction budget.  8 anonymous pages, aged three times (forced):
 * they end in the oldest generation (seq 3 of 3..6), not young, tier 0.
 * `evict nr 3` is run_eviction(nr_to_reclaim = 3).
 * - mainline: evict_folios(nr_to_reclaim - nr_reclaimed = 3):
 *   scan_folios()' budget min(3, MAX_LRU_BATCH) = 3 folios: 3 isolated,
 *   3 swapped out; 3 >= 3 ends run_eviction().  Evicted: 3.
 * - 6.12: budget MAX_LRU_BATCH; the scan stops at 64 isolated or an empty
 *   list: all 8 isolated and swapped out in one call.  Evicted: 8.
 * Mainline's aging (two-touch): AGE 1 marks PG_referenced (refs 1, tier
 * 0); AGE 3's inc_min_seq() moves the 8 folios and counts them protected
 * at tier 0, then reset_ctrl_pos(carryover) halves: avg_total[anon][0] =
 * (0 + 8 + 0) / 2 = 4.  The 3 evictions count evicted[anon][tier 0] = 3.
 */
static void test_budget(void)
{
	for (int p = 0; p < 2; p++) {
		enum aw_kernel_profile profile = p ? AW_KERNEL_6_12 : AW_KERNEL_MAINLINE;
		struct aw_kernel *k = profile_kernel(profile, 1ULL << 30, 1);
		struct lru_gen_folio *g;

		CHECK(k != NULL);
		if (!k)
			continue;
		g = &k->lruvecs[0].lrugen;
		anon_pages(k, 8);
		ev_age(k, true);
		ev_age(k, true);
		ev_age(k, true);
		CHECK_EQ(g->max_seq, 6);
		CHECK_EQ(g->min_seq[LRU_GEN_ANON], 3);
		if (profile == AW_KERNEL_MAINLINE)
			CHECK_EQ(g->avg_total[LRU_GEN_ANON][0], 4);
		evict_nr(k, 3);
		CHECK_EQ(k->node_stats[0].evicted, p ? 8 : 3);
		CHECK_EQ(g->evicted[LRU_GEN_ANON][0], p ? 8 : 3);
		aw_kernel_destroy(k);
	}
}

/*
 * get_swappiness(): 0 when fewer than MIN_LRU_BATCH (64) swap pages are
 * free.  Swap of 128K = 32 pages: a debugfs `age` without a swappiness
 * takes 0, should_skip_vma() skips the anonymous VMA and its young PTE
 * stays young.  With 1G of swap the same forced pass clears it.
 */
static void test_swappiness_no_swap(void)
{
	for (int big = 0; big < 2; big++) {
		struct aw_kernel *k = profile_kernel(AW_KERNEL_MAINLINE, big ? 1ULL << 30 : 128 << 10, 1);
		pte_t *pte;

		CHECK(k != NULL);
		if (!k)
			continue;
		CHECK_EQ(aw_default_swappiness(k), big ? 60 : 0);
		anon_pages(k, 1);
		pte = pte_at(k, BASE);
		CHECK(pte && pte_young(*pte));
		ev_age(k, true);
		if (pte)
			CHECK_EQ(pte_young(*pte), !big);
		aw_kernel_destroy(k);
	}
}

/*
 * lru_gen_refault() only for the lruvec the shadow names.  One page
 * becomes PG_workingset (mainline: AGE 1 sees it young -> PG_referenced;
 * AGE 2 young again -> promoted with PG_workingset), ages to the oldest
 * generation (AGE 3..5; folio_inc_gen() keeps PG_workingset in mainline),
 * and is swapped out by `evict`: the shadow says memcg 0, workingset.
 * It is read back (max_seq 8, evicted at min_seq 5: |8 - 5| = 3 < 4, recent)
 * - from memcg 0: same lruvec -> PG_workingset again, refaulted[anon][3] = 1;
 * - after the task moved to memcg 1: the folio's lruvec (memcg 1) is not
 *   the shadow's -> nothing restored, nothing counted anywhere.
 */
static void test_refault_lruvec(void)
{
	for (int moved = 0; moved < 2; moved++) {
		struct aw_kernel *k = profile_kernel(AW_KERNEL_MAINLINE, 1ULL << 30, 2);
		struct folio *f;
		pte_t *pte;
		unsigned long counted = 0;

		CHECK(k != NULL);
		if (!k)
			continue;
		anon_pages(k, 1);
		ev_age(k, true);
		ev(k, (struct aw_event){ .kind = AW_EV_ACCESS, .pid = 1, .addr = BASE, .len = PAGE_SIZE,
					 .repeat = 1 });
		ev_age(k, true);
		pte = pte_at(k, BASE);
		CHECK(pte && pte_present(*pte));
		if (!pte || !pte_present(*pte)) {
			aw_kernel_destroy(k);
			continue;
		}
		f = pfn_folio(&k->mem, (uint32_t)pte_pfn(*pte));
		CHECK(folio_test(f, PG_workingset));
		ev_age(k, true);
		ev_age(k, true);
		ev_age(k, true);
		CHECK_EQ(k->lruvecs[0].lrugen.max_seq, 8);
		evict_nr(k, 0);
		CHECK_EQ(k->node_stats[0].evicted, 1);
		CHECK(pte_swp(*pte));
		if (moved)
			ev(k, (struct aw_event){ .kind = AW_EV_MEMCG_MOVE, .pid = 1, .memcg = 1 });
		ev(k, (struct aw_event){ .kind = AW_EV_ACCESS, .pid = 1, .addr = BASE, .len = PAGE_SIZE,
					 .repeat = 1 });
		CHECK(pte_present(*pte));
		f = pfn_folio(&k->mem, (uint32_t)pte_pfn(*pte));
		CHECK_EQ(f->memcg, moved);
		CHECK_EQ(folio_test(f, PG_workingset), !moved);
		for (int l = 0; l < 2; l++)
			for (int t = 0; t < MAX_NR_TIERS; t++)
				counted += k->lruvecs[l].lrugen.refaulted[LRU_GEN_ANON][t];
		CHECK_EQ(counted, moved ? 0 : 1);
		CHECK_EQ(k->lruvecs[0].lrugen.refaulted[LRU_GEN_ANON][3], moved ? 0 : 1);
		/* every swap-in is a refault; WORKINGSET_REFAULT counts only the lruvec's own */
		CHECK_EQ(k->node_stats[0].refaults, 1);
		CHECK_EQ(k->node_stats[0].workingset_refaults, moved ? 0 : 1);
		aw_kernel_destroy(k);
	}
}

/*
 * 64 anonymous pages written, then four forced AGEs: the first finds them
 * young and promotes them, the rest carry them up with min_seq, so they
 * end in the oldest generation (max_seq 7, min_seq 4) with old PTEs.  64
 * is MIN_LRU_BATCH: 6.1's should_skip_mm() walks no smaller mm.
 */
static void oldest_64(struct aw_kernel *k)
{
	anon_pages(k, 64);
	for (int i = 0; i < 4; i++)
		ev_age(k, true);
}

/*
 * lru_gen_refault() for a refault that is not recent.  64 anonymous pages
 * are written (young): 6.1's should_skip_mm() skips an mm with fewer than
 * MIN_LRU_BATCH (64) pages even in a forced walk, and a page still young
 * at eviction would be kept.  AGE 1 finds them young and promotes them to
 * max_seq; three more forced AGEs leave them there, now the oldest
 * generation, and `evict` swaps all 64 out: token = min_seq at eviction.
 * The first page is read back.
 * The numbers: a new lruvec has max_seq 3, min_seq 0/0 (four generations),
 * so each forced AGE also takes min_seq up by one (inc_min_seq(), which
 * carries the oldest generation's folios up): after AGE 4, max_seq 7,
 * min_seq 4/4, the pages in generation 4.  The eviction record says seq 4,
 * max_seq 7, 64 pages, and min_seq 6/6 after: with generation 4 isolated,
 * try_to_inc_min_seq() steps both types while min_seq + MIN_NR_GENS <=
 * max_seq (4 -> 5 -> 6), before shrink_folio_list() takes the tokens, so
 * S = 6.  Four more forced AGEs: every pass adds one to max_seq (11), and
 * at most MAX_NR_GENS generations exist, so min_seq >= max_seq - 3 >= S + 1
 * (6.1/6.12: token != min_seq) and max_seq - S = 5 >= 4 (mainline: not within
 * MAX_NR_GENS): not recent on every profile.  The read-back is a refault
 * of the same lruvec, so nothing is restored (no tier counts it, no
 * PG_workingset), and WORKINGSET_REFAULT counts it on 6.12 and mainline
 * (mod_lruvec_state() before `if (!recent) goto unlock`, since 6.5) but
 * not on 6.1 (after the token test).
 */
static void test_refault_not_recent(void)
{
	for (size_t p = 0; p < 3; p++) {
		enum aw_kernel_profile profile = all_profiles[p];
		struct aw_kernel *k = profile_kernel(profile, 1ULL << 30, 1);
		unsigned long restored = 0;
		pte_t *pte;

		CHECK(k != NULL);
		if (!k)
			continue;
		oldest_64(k);
		evict_nr(k, 0);
		CHECK_EQ(k->node_stats[0].evicted, 64);
		CHECK_EQ(k->node_stats[0].nr_evictions, 1);
		if (k->node_stats[0].nr_evictions == 1) {
			const struct aw_eviction *e = &k->node_stats[0].evictions[0];

			CHECK_EQ(e->seq, 4);
			CHECK_EQ(e->max_seq, 7);
			CHECK_EQ(e->min_seq_before[LRU_GEN_ANON], 4);
			CHECK_EQ(e->min_seq_before[LRU_GEN_FILE], 4);
			CHECK_EQ(e->min_seq_after[LRU_GEN_ANON], 6);
			CHECK_EQ(e->min_seq_after[LRU_GEN_FILE], 6);
			CHECK_EQ(e->evicted_pages, 64);
			CHECK(!e->refused);
		}
		for (int i = 0; i < 4; i++)
			ev_age(k, true);
		ev(k, (struct aw_event){ .kind = AW_EV_ACCESS, .pid = 1, .addr = BASE, .len = PAGE_SIZE,
					 .repeat = 1 });
		pte = pte_at(k, BASE);
		CHECK(pte && pte_present(*pte));
		if (pte && pte_present(*pte))
			CHECK(!folio_test(pfn_folio(&k->mem, (uint32_t)pte_pfn(*pte)), PG_workingset));
		for (int t = 0; t < MAX_NR_TIERS; t++)
			restored += k->lruvecs[0].lrugen.refaulted[LRU_GEN_ANON][t];
		CHECK_EQ(restored, 0);
		CHECK_EQ(k->node_stats[0].refaults, 1);
		CHECK_EQ(k->node_stats[0].workingset_refaults, profile == AW_KERNEL_6_1 ? 0 : 1);
		aw_kernel_destroy(k);
	}
}

/*
 * Mainline's recency boundary (lru_gen_test_recent(): abs_diff(max_seq,
 * token seq) < MAX_NR_GENS).  The setup of test_refault_not_recent: the
 * 64 pages are isolated from generation 4, then try_to_inc_min_seq() runs
 * before shrink_folio_list() (evict_folios()), so lru_gen_eviction()
 * reads min_seq 6: token seq 6, max_seq 7.  Two more forced AGEs: max_seq
 * 9, 9 - 6 = 3 < 4, recent -- the refault counts in a tier (refaulted += 1
 * page).  Three: max_seq 10, 10 - 6 = 4, not recent -- nothing restored.
 */
static void test_refault_distance_mainline(void)
{
	for (int ages = 2; ages <= 3; ages++) {
		struct aw_kernel *k = profile_kernel(AW_KERNEL_MAINLINE, 1ULL << 30, 1);
		unsigned long restored = 0;

		CHECK(k != NULL);
		if (!k)
			continue;
		oldest_64(k);
		evict_nr(k, 0);
		CHECK_EQ(k->node_stats[0].evicted, 64);
		for (int i = 0; i < ages; i++)
			ev_age(k, true);
		CHECK_EQ(k->lruvecs[0].lrugen.max_seq, 7 + ages);
		ev(k, (struct aw_event){ .kind = AW_EV_ACCESS, .pid = 1, .addr = BASE, .len = PAGE_SIZE,
					 .repeat = 1 });
		for (int t = 0; t < MAX_NR_TIERS; t++)
			restored += k->lruvecs[0].lrugen.refaulted[LRU_GEN_ANON][t];
		CHECK_EQ(k->node_stats[0].refaults, 1);
		CHECK_EQ(restored, (unsigned long)(ages == 2));
		aw_kernel_destroy(k);
	}
}

/*
 * A page-cache refault is a refault (a major fault), not a first touch.
 * 64 pages of a file mapping are read, aged into the oldest generation by
 * four forced AGEs (as test_refault_not_recent does with anon pages) and
 * evicted: clean page cache, so each leaves a shadow entry in its PTE
 * (workingset_eviction()) and nothing goes to swap.  Reading page 0
 * again finds the shadow: workingset_refault() counts one refault, and
 * the mapping is a new present page.
 */
static void test_file_refault(void)
{
	struct aw_kernel *k = profile_kernel(AW_KERNEL_MAINLINE, 1ULL << 30, 1);
	pte_t *pte;

	CHECK(k != NULL);
	if (!k)
		return;
	ev(k, (struct aw_event){ .kind = AW_EV_PROC, .pid = 1, .flags = AW_PROC_NOLAYOUT });
	ev(k, (struct aw_event){ .kind = AW_EV_MMAP, .pid = 1, .addr2 = BASE, .len = 64 * PAGE_SIZE,
				 .arg = AW_PROT_DEFAULT, .flags = AW_MAP_FILE });
	ev(k, (struct aw_event){ .kind = AW_EV_ACCESS, .pid = 1, .addr = BASE, .len = 64 * PAGE_SIZE,
				 .repeat = 1 });
	for (int i = 0; i < 4; i++)
		ev_age(k, true);
	evict_nr(k, 0);
	CHECK_EQ(k->node_stats[0].evicted, 64);
	CHECK_EQ(k->swap_used, 0);
	CHECK_EQ(k->node_stats[0].refaults, 0);
	ev(k, (struct aw_event){ .kind = AW_EV_ACCESS, .pid = 1, .addr = BASE, .len = PAGE_SIZE, .repeat = 1 });
	CHECK_EQ(k->node_stats[0].refaults, 1);
	pte = pte_at(k, BASE);
	CHECK(pte && pte_present(*pte));
	aw_kernel_destroy(k);
}

/*
 * shrink_folio_list()'s "folio_update_gen() tried to promote this page?"
 * (6.1/6.12).  64 anonymous pages in one 64-page VMA are written, aged by
 * four forced AGEs into the oldest generation with their PTEs old (AGE 1's
 * walk cleared them), then read again: all 64 PTEs young, no walk since.
 * `evict` isolates all 64 (one batch of MIN_LRU_BATCH).  The first folio's
 * reference check runs look-around over the whole VMA (64 PTEs, within
 * MIN_LRU_BATCH).  On 6.12, whose get_pfn_folio() has no generation test,
 * it clears all 64 young bits and sets PG_referenced on the 63 isolated
 * neighbours.  Their turn: mapped with PG_referenced -> kept (keep_locked)
 * without a reference check, which would have found them old and
 * reclaimed all 63.  Mainline's look-around skips isolated folios, and
 * 6.1's skips anon ones here (get_pfn_folio(..., walk->can_swap), and a
 * debugfs eviction's walk has can_swap clear), so there each neighbour's
 * own check finds its PTE young and keeps it.  Every profile: nothing
 * evicted, every PTE old afterwards.
 */
static void test_keep_promoted_while_isolated(void)
{
	for (size_t p = 0; p < 3; p++) {
		struct aw_kernel *k = profile_kernel(all_profiles[p], 1ULL << 30, 1);
		unsigned int young = 0;

		CHECK(k != NULL);
		if (!k)
			continue;
		oldest_64(k);
		ev(k, (struct aw_event){ .kind = AW_EV_ACCESS, .pid = 1, .addr = BASE, .len = 64 * PAGE_SIZE,
					 .repeat = 1 });
		evict_nr(k, 0);
		CHECK_EQ(k->node_stats[0].evicted, 0);
		for (unsigned int i = 0; i < 64; i++) {
			pte_t *pte = pte_at(k, BASE + i * PAGE_SIZE);

			CHECK(pte && pte_present(*pte));
			young += pte && pte_present(*pte) && pte_young(*pte);
		}
		CHECK_EQ(young, 0);
		aw_kernel_destroy(k);
	}
}

/*
 * One anonymous page at BASE, isolated as isolate_folio() leaves it (PG_lru
 * clear, off its list, no generation): its folio, and its PTE in *pte.
 */
static struct folio *isolated_page(struct aw_kernel *k, pte_t **pte)
{
	struct folio *folio;

	anon_pages(k, 1);
	*pte = pte_at(k, BASE);
	CHECK(*pte && pte_young(**pte));
	if (!*pte || !pte_young(**pte))
		return NULL;
	folio = pfn_folio(&k->mem, pte_pfn(**pte));
	CHECK(get_pfn_folio(k, pte_pfn(**pte), 0, 0, true) == folio);	/* on its list: every profile */
	folio_clear(folio, PG_lru);
	lru_gen_del_folio(&k->lruvecs[0], folio, true);
	CHECK_EQ(folio_lru_gen(folio), -1);
	return folio;
}

/* ... and back on its list, as putback does, before the kernel goes */
static void putback_page(struct aw_kernel *k, struct folio *folio)
{
	folio_set(folio, PG_lru);
	lru_gen_add_folio(&k->lruvecs[0], folio, false);
	aw_kernel_destroy(k);
}

/*
 * evict_folios()' cutoff.  max_seq 5, min_seq {anon 4, file 2}.
 * 6.1/6.12: get_nr_gens(lruvec, !swappiness) == MIN_NR_GENS: swappiness 60
 * asks anon: 5 - 4 + 1 = 2 -> stop; swappiness 0 asks file: 4 -> go on.
 * Mainline: evictable_min_seq() + 2 > max_seq: with 60 the older of the
 * two, file's 2: 4 > 5 no; with 0 file's 2 again: no.
 */
static void test_evict_cutoff(void)
{
	for (int p = 0; p < 3; p++) {
		struct aw_kernel *k = profile_kernel(all_profiles[p], 1ULL << 30, 1);
		struct lruvec *lruvec;

		CHECK(k != NULL);
		if (!k)
			continue;
		lruvec = &k->lruvecs[0];
		lruvec->lrugen.max_seq = 5;
		lruvec->lrugen.min_seq[LRU_GEN_ANON] = 4;
		lruvec->lrugen.min_seq[LRU_GEN_FILE] = 2;
		CHECK_EQ(aw_evict_cutoff(k, lruvec, 60), p != 0);
		CHECK_EQ(aw_evict_cutoff(k, lruvec, 0), false);
		aw_kernel_destroy(k);
	}
}

/*
 * get_pfn_folio() on a folio isolated from its list (PG_lru clear, no
 * generation): mainline declines it (folio_lru_gen() < 0); 6.1 and 6.12
 * have no such test and hand it to look-around, which marks it
 * PG_referenced.
 */
static void test_get_pfn_folio_isolated(void)
{
	for (int p = 0; p < 3; p++) {
		struct aw_kernel *k = profile_kernel(all_profiles[p], 1ULL << 30, 1);
		struct folio *folio;
		pte_t *pte;

		CHECK(k != NULL);
		if (!k)
			continue;
		folio = isolated_page(k, &pte);
		if (folio)
			CHECK(get_pfn_folio(k, pte_pfn(*pte), 0, 0, true) == (p ? folio : NULL));
		if (folio)
			putback_page(k, folio);
		else
			aw_kernel_destroy(k);
	}
}

/*
 * 6.1's folio_referenced_one() looks around a young PTE before clearing
 * it: the isolated target is in the window, young, with no generation, so
 * it gets PG_referenced (and its PTE is cleared inside).  6.12 clears the
 * target's PTE first, so the window skips it: no PG_referenced.  Both
 * count the mapping as referenced.  One page: the window is the page
 * itself (6.12 returns at end - start == PAGE_SIZE).
 */
static void test_look_around_target_61(void)
{
	for (int p = 1; p < 3; p++) {
		struct aw_kernel *k = profile_kernel(all_profiles[p], 1ULL << 30, 1);
		struct aw_task *t;
		struct mm_struct *mm;
		struct folio *folio;
		pte_t *pte;

		CHECK(k != NULL);
		if (!k)
			continue;
		folio = isolated_page(k, &pte);
		t = aw_task_get(k, 1);
		mm = t ? aw_mm(k, t->mm) : NULL;
		CHECK(mm != NULL);
		if (!folio || !mm) {
			aw_kernel_destroy(k);
			continue;
		}
		folio_clear(folio, PG_referenced);
		CHECK(k->mglru->lru_gen_look_around(k, NULL, mm, find_vma(mm, BASE), BASE, folio->pfn));
		CHECK(!pte_young(*pte));
		CHECK_EQ(folio_test(folio, PG_referenced), all_profiles[p] == AW_KERNEL_6_1);
		putback_page(k, folio);
	}
}

int main(void)
{
	RUN(test_tiers);
	RUN(test_pid);
	RUN(test_budget);
	RUN(test_swappiness_no_swap);
	RUN(test_refault_lruvec);
	RUN(test_refault_not_recent);
	RUN(test_refault_distance_mainline);
	RUN(test_file_refault);
	RUN(test_keep_promoted_while_isolated);
	RUN(test_evict_cutoff);
	RUN(test_get_pfn_folio_isolated);
	RUN(test_look_around_target_61);
	return aw_test_report("test_profiles");
}
