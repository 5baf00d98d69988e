// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel profiles and the rules the review found missing from the mainline
 * model (docs/model-notes.md, "Kernel profiles").  Every expected value is
 * worked out by hand from the kernel rule quoted next to it, never read
 * back from the model.
 */
#include <string.h>

#include "aw_kernel_test.h"

#define BASE	0x10000000ULL

/* the three profiles, mainline first */
static const enum aw_kernel_profile all_profiles[3] = { AW_KERNEL_MAINLINE, AW_KERNEL_6_12, AW_KERNEL_6_1 };

static struct aw_kernel *profile_kernel(enum aw_kernel_profile profile, uint64_t swap_bytes, int memcgs)
{
	struct aw_config cfg;

	aw_config_default(&cfg);
	cfg.swap_bytes = swap_bytes;
	cfg.nr_memcgs = memcgs;
	cfg.kernel = profile;
	return aw_kernel_create(&cfg, 0, 0, 0);
}

static void ev(struct aw_kernel *k, struct aw_event e)
{
	CHECK_EQ(apply(k, e), 0);
}

/* one process (no layout) with n anonymous pages written at BASE */
static void anon_pages(struct aw_kernel *k, unsigned int n)
{
	ev(k, (struct aw_event){ .kind = AW_EV_PROC, .pid = 1, .flags = AW_PROC_NOLAYOUT });
	ev(k, (struct aw_event){ .kind = AW_EV_MMAP, .pid = 1, .addr2 = BASE, .len = n * PAGE_SIZE,
				 .arg = AW_PROT_DEFAULT });
	ev(k, (struct aw_event){ .kind = AW_EV_ACCESS, .pid = 1, .addr = BASE, .len = n * PAGE_SIZE,
				 .repeat = 1, .flags = AW_ACC_WRITE });
}

static void evict_nr(struct aw_kernel *k, uint64_t nr)
{
	ev(k, (struct aw_event){ .kind = AW_EV_EVICT, .swappiness = AW_SWAPPINESS_DEFAULT, .len = nr });
}

static pte_t *pte_at(struct aw_kernel *k, uint64_t addr)
{
	struct aw_task *t = aw_task_get(k, 1);
	struct mm_struct *mm = t ? aw_mm(k, t->mm) : NULL;

	return mm ? aw_pte_lookup(k, mm, addr, false, NULL) : NULL;
}

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
	CHECK_EQ(lru_gen_folio_seq_6x(&lv, &f, false), 5);
	f.flags = 1U << PG_anon | 1U << PG_swapbacked;	/* anon, not in swap cache */
	CHECK_EQ(lru_gen_folio_seq_6x(&lv, &f, false), 4);
	CHECK_EQ(lru_gen_folio_seq_6x(&lv, &f, true), 4);
	f.flags = 0;					/* file, inactive */
	CHECK_EQ(lru_gen_folio_seq_6x(&lv, &f, false), 3);
	CHECK_EQ(lru_gen_folio_seq_6x(&lv, &f, true), 2);
	f.flags = 1U << PG_reclaim | 1U << PG_dirty;	/* file pending writeback */
	CHECK_EQ(lru_gen_folio_seq_6x(&lv, &f, false), 4);
	f.flags = 1U << PG_anon | 1U << PG_swapbacked | 1U << PG_swapcache;
	CHECK_EQ(lru_gen_folio_seq_6x(&lv, &f, false), 3);
	lv.lrugen.min_seq[LRU_GEN_FILE] = 3;
	f.flags = 0;
	CHECK_EQ(lru_gen_folio_seq_6x(&lv, &f, false), 3);

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
	RUN(test_run_aging_erange);
	RUN(test_should_skip_mm);
	RUN(test_add_folio_placement);
	RUN(test_inc_min_seq_forms);
	RUN(test_evict_cutoff);
	RUN(test_get_pfn_folio_isolated);
	RUN(test_look_around_target_61);
	RUN(test_should_run_aging);
	RUN(test_thp_unmapped_area);
	RUN(test_split_maps_zero_filled);
	RUN(test_collapse_swapin_refault);
	return aw_test_report("test_profiles");
}
