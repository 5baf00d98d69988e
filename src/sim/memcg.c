// SPDX-License-Identifier: GPL-2.0-only
/*
 * memcg charging, limit reclaim and OOM (mm/memcontrol.c: try_charge_memcg,
 * mem_cgroup_out_of_memory; mm/vmscan.c: try_to_free_mem_cgroup_pages,
 * do_try_to_free_pages, lru_gen_shrink_lruvec, try_to_shrink_lruvec,
 * get_nr_to_scan, should_run_aging).
 */
#include <stdint.h>

#include "kernel.h"

/*
 * 6.12 mm/vmscan.c: should_run_aging(): the aging is lazy.  Out of cold
 * folios (fewer than MIN_NR_GENS generations of the type !can_swap asks):
 * age.  More than MIN_NR_GENS + 1 generations: don't.  Exactly that many:
 * age when the youngest holds more than 1/MIN_NR_GENS of the pages or the
 * oldest fewer than 1/(MIN_NR_GENS + 2).  (6.1 has the same tests; its
 * get_nr_to_scan() around them differs, docs/model-notes.md.)
 */
static bool should_run_aging_can_swap(struct aw_kernel *k, struct lruvec *lruvec, unsigned long max_seq,
				      bool can_swap, unsigned long *nr_to_scan)
{
	const struct lru_gen_folio *lrugen = &lruvec->lrugen;
	const unsigned long *min_seq = lrugen->min_seq;
	unsigned long old = 0, young = 0, total = 0;

	/* whether this lruvec is completely out of cold folios */
	if (min_seq[!can_swap] + MIN_NR_GENS > max_seq) {
		*nr_to_scan = 0;
		return true;
	}
	for (int type = !can_swap; type < ANON_AND_FILE; type++) {
		for (unsigned long seq = min_seq[type]; seq <= max_seq; seq++) {
			long n = lrugen->nr_pages[lru_gen_from_seq(seq)][type];
			unsigned long size = n > 0 ? (unsigned long)n : 0;

			total += size;
			if (seq == max_seq)
				young += size;
			else if (seq + MIN_NR_GENS == max_seq)
				old += size;
		}
	}
	*nr_to_scan = total;
	if (min_seq[!can_swap] + MIN_NR_GENS < max_seq)
		return false;
	if (AW_BUG(k, AW_BUG_SHOULD_RUN_AGING_CMP))	/* planted: the young test the wrong way */
		return young * MIN_NR_GENS < total || old * (MIN_NR_GENS + 2) < total;
	return young * MIN_NR_GENS > total || old * (MIN_NR_GENS + 2) < total;
}

/* mm/vmscan.c: should_run_aging() (mainline; 6.1/6.12 above) */
bool aw_should_run_aging(struct aw_kernel *k, struct lruvec *lruvec, unsigned long max_seq, int swappiness,
			 unsigned long *nr_to_scan)
{
	struct lru_gen_folio *lrugen = &lruvec->lrugen;
	unsigned long size = 0;
	unsigned long min_seq[ANON_AND_FILE] = { lrugen->min_seq[0], lrugen->min_seq[1] };

	if (k->prof->should_run_aging_form == AW_SHOULD_RUN_AGING_CAN_SWAP)
		return should_run_aging_can_swap(k, lruvec, max_seq, swappiness != 0, nr_to_scan);
	*nr_to_scan = 0;
	/* have to run aging, since eviction is not possible anymore */
	if (evictable_min_seq(min_seq, swappiness) + MIN_NR_GENS > max_seq)
		return true;
	for (int type = !swappiness; type <= (swappiness <= MAX_SWAPPINESS); type++) {
		for (unsigned long seq = min_seq[type]; seq <= max_seq; seq++) {
			long n = lrugen->nr_pages[lru_gen_from_seq(seq)][type];

			size += n > 0 ? (unsigned long)n : 0;
		}
	}
	*nr_to_scan = size;
	/* better to run aging even though eviction is still possible */
	return evictable_min_seq(min_seq, swappiness) + MIN_NR_GENS == max_seq;
}

/* mm/vmscan.c: get_nr_to_scan() */
static long get_nr_to_scan(struct aw_kernel *k, struct lruvec *lruvec, int priority, int swappiness)
{
	unsigned long max_seq = lruvec->lrugen.max_seq;
	unsigned long nr_to_scan;
	bool success = aw_should_run_aging(k, lruvec, max_seq, swappiness, &nr_to_scan);

	/* try to get away with not aging at the default priority */
	if (!success || priority == DEF_PRIORITY)
		return (long)(nr_to_scan >> priority);
	/* stop scanning this lruvec as it's low on cold folios */
	return k->mglru->try_to_inc_max_seq(k, lruvec, max_seq, swappiness, false) ? -1 : 0;
}

/*
 * mm/vmscan.c: try_to_shrink_lruvec() for memcg reclaim (no mm_walk).
 * Returns whether the memcg LRU should rotate this lruvec (6.12:
 * get_nr_to_scan() said stop, low on cold folios).
 */
static bool try_to_shrink_lruvec(struct aw_kernel *k, struct lruvec *lruvec, int priority,
				 unsigned long nr_to_reclaim, unsigned long *nr_reclaimed)
{
	int swappiness = aw_default_swappiness(k);	/* get_swappiness() */
	unsigned long scanned = 0;
	long nr_to_scan;

	for (;;) {
		int delta;

		nr_to_scan = get_nr_to_scan(k, lruvec, priority, swappiness);
		if (nr_to_scan <= 0)
			break;
		/*
		 * mainline passes nr_to_scan down (scan_folios()' budget); the
		 * writeback it starts completes when the reclaim call returns
		 * (aw_try_to_free_mem_cgroup_pages())
		 */
		delta = k->mglru->evict_folios(k, (unsigned long)nr_to_scan, lruvec, swappiness, NULL,
					       nr_reclaimed, true);
		if (!delta)
			break;
		scanned += delta;
		if (scanned >= (unsigned long)nr_to_scan)
			break;
		/*
		 * should_abort_scan(): 6.12 stops once nr_reclaimed reaches
		 * max(nr_to_reclaim, compact_gap(0) = 2), memcg reclaim too
		 * (the rest of it is kswapd's); mainline never aborts memcg
		 * reclaim
		 */
		if (k->prof->memcg_reclaim_aborts && *nr_reclaimed >= (nr_to_reclaim > 2 ? nr_to_reclaim : 2))
			break;
	}
	return nr_to_scan < 0;
}

/* the pages of the generations eviction may take: should_run_aging()'s total */
static unsigned long evictable_size(const struct lruvec *lruvec, bool can_swap)
{
	const struct lru_gen_folio *lrugen = &lruvec->lrugen;
	unsigned long total = 0;

	for (int type = !can_swap; type < ANON_AND_FILE; type++) {
		for (unsigned long seq = lrugen->min_seq[type]; seq <= lrugen->max_seq; seq++) {
			long n = lrugen->nr_pages[lru_gen_from_seq(seq)][type];

			total += n > 0 ? (unsigned long)n : 0;
		}
	}
	return total;
}

/*
 * 6.1 mm/vmscan.c: get_nr_to_scan(): should_run_aging()'s tests, but the
 * size (total >> priority, memcg online) is worked out before them, and
 * an lruvec that needed aging and got it is scanned in the same call
 * (6.12 stops there, -1).  min_seq and max_seq are the values at entry.
 *
 * An aging that gets past try_to_inc_max_seq()'s first test (max_seq >
 * mm_state.seq) takes a walk with set_mm_walk(NULL), which 6.1 leaves in
 * current->reclaim_state until lru_gen_shrink_lruvec()'s clear_mm_walk():
 * *mm_walk is that walk from then on, with the aging's can_swap.
 */
static unsigned long get_nr_to_scan_need_aging(struct aw_kernel *k, struct lruvec *lruvec, int priority,
					       int swappiness, bool *need_aging, struct lru_gen_mm_walk *walk,
					       struct lru_gen_mm_walk **mm_walk)
{
	unsigned long max_seq = lruvec->lrugen.max_seq;
	unsigned long min_seq = lruvec->lrugen.min_seq[!swappiness];
	unsigned long nr_to_scan = evictable_size(lruvec, swappiness != 0) >> priority;
	unsigned long unused;

	*need_aging = aw_should_run_aging(k, lruvec, max_seq, swappiness, &unused);
	if (!*need_aging)
		return nr_to_scan;
	/* skip the aging path at the default priority */
	if (priority == DEF_PRIORITY)
		goto done;
	if (max_seq > READ_ONCE(lruvec->mm_state.seq)) {
		/* try_to_inc_max_seq(): walk = set_mm_walk(NULL); walk->can_swap = can_swap */
		*mm_walk = walk;
		walk->swappiness = swappiness;
	}
	if (k->mglru->try_to_inc_max_seq(k, lruvec, max_seq, swappiness, false))
		return nr_to_scan;
done:
	return min_seq + MIN_NR_GENS <= max_seq ? nr_to_scan : 0;
}

/*
 * 6.1 mm/vmscan.c: lru_gen_shrink_lruvec() with its own loop, for memcg
 * reclaim (sc->may_swap, no kswapd): should_abort_scan() stops once this
 * call aged the lruvec twice ("age each memcg at most once") or once an
 * anonymous batch went past nr_to_reclaim ("over-swapping"); memcg
 * reclaim is never aborted otherwise.  6.1 has no memcg LRU: -1.
 * (sc->memcgs_need_aging, written after the loop, is kswapd's.)
 *
 * The walk: set_mm_walk(pgdat) leaves none outside kswapd, so eviction
 * starts without one (look-around activates a few young neighbours with
 * folio_activate()); after an aging that took one, the rest of this call
 * evicts with it (look-around moves the neighbours' generation only, in
 * the walk's batch, and evict_folios() applies the batch:
 * reset_batch_size()) until clear_mm_walk().
 */
static int shrink_lruvec_need_aging(struct aw_kernel *k, struct lruvec *lruvec, struct aw_scan_control *sc)
{
	unsigned long seq = lruvec->lrugen.max_seq;	/* DEFINE_MAX_SEQ() at entry */
	bool need_aging = false, need_swapping = false;
	unsigned long scanned = 0;
	struct lru_gen_mm_walk walk_struct, *walk = NULL;	/* current->reclaim_state->mm_walk */

	aw_walk_init(&walk_struct, k);
	for (;;) {
		int swappiness = sc->may_swap ? aw_default_swappiness(k) : 0;	/* get_swappiness() */
		unsigned long nr_to_scan = get_nr_to_scan_need_aging(k, lruvec, sc->priority, swappiness,
								      &need_aging, &walk_struct, &walk);
		int delta;

		if (!nr_to_scan)
			break;
		delta = aw_evict_folios_need_swapping(k, nr_to_scan, lruvec, swappiness, walk, &sc->nr_reclaimed,
						      &need_swapping);
		if (!delta)
			break;
		scanned += (unsigned long)delta;
		if (scanned >= nr_to_scan)
			break;
		if (lruvec->lrugen.max_seq - seq > 1)
			break;
		if (sc->nr_reclaimed >= sc->nr_to_reclaim && need_swapping)
			break;
	}
	return -1;
}

/*
 * mm/vmscan.c: lru_gen_shrink_lruvec(): the model's, behind the seam
 * (mglru_ops.h): 6.1's own loop, or try_to_shrink_lruvec() and its
 * result as the rotation of the memcg LRU (MEMCG_LRU_YOUNG), which the
 * model does not keep.
 */
int aw_model_shrink_lruvec(struct aw_kernel *k, struct lruvec *lruvec, struct aw_scan_control *sc)
{
	if (k->prof->shrink_lruvec_need_aging)
		return shrink_lruvec_need_aging(k, lruvec, sc);
	return try_to_shrink_lruvec(k, lruvec, sc->priority, sc->nr_to_reclaim, &sc->nr_reclaimed);
}

/* One call's decision and where it left the lruvec, for the agreement oracle. */
static void log_shrink(struct aw_kernel *k, const struct lruvec *lruvec, int priority, unsigned long before,
		       const struct aw_scan_control *sc, int rotate)
{
	struct aw_reclaim_call c = { .kind = AW_RC_SHRINK, .memcg = lruvec->memcg, .nid = lruvec->nid,
				     .priority = priority, .result = (long)(sc->nr_reclaimed - before),
				     .rotate = rotate, .max_seq = lruvec->lrugen.max_seq };

	for (int type = 0; type < ANON_AND_FILE; type++)
		c.min_seq[type] = lruvec->lrugen.min_seq[type];
	aw_reclaim_log_add(k, &c);
}

/*
 * mm/vmscan.c: try_to_free_mem_cgroup_pages() → do_try_to_free_pages():
 * priorities DEF_PRIORITY..0 over the nodes, starting at the local one;
 * each lruvec through the variant's lru_gen_shrink_lruvec().
 *
 * The page-cache writeback its sort_folio() started (dirty page cache
 * rotated with PG_reclaim) completes when lru_gen_shrink_lruvec()
 * returns, not between the evict_folios() of its loop: the loop neither
 * waits for the flusher nor wakes it (6.1's and 6.12's
 * lru_gen_shrink_lruvec(), try_to_shrink_lruvec()), so a rotated folio
 * that comes back to min_seq in the same call is still dirty and
 * sort_folio() rotates it again.  Completing it here is the one point
 * both sides share: a kernel-text variant runs the whole loop as text
 * (docs/model-notes.md, "Writeback").
 */
unsigned long aw_try_to_free_mem_cgroup_pages(struct aw_kernel *k, int memcg,
					      unsigned long nr_to_reclaim)
{
	struct aw_scan_control sc = { .target_memcg = memcg, .may_swap = true };	/* MEMCG_RECLAIM_MAY_SWAP */

	sc.nr_to_reclaim = nr_to_reclaim < SWAP_CLUSTER_MAX ? SWAP_CLUSTER_MAX : nr_to_reclaim;
	for (sc.priority = DEF_PRIORITY; sc.priority >= 0; sc.priority--) {
		for (int nid = 0; nid < k->nr_nodes; nid++) {
			struct lruvec *lruvec = aw_lruvec(k, memcg, nid);
			unsigned long before = sc.nr_reclaimed;
			int rotate = k->mglru->lru_gen_shrink_lruvec(k, lruvec, &sc);

			aw_writeback_complete(k);
			log_shrink(k, lruvec, sc.priority, before, &sc, rotate);
		}
		if (sc.nr_reclaimed >= sc.nr_to_reclaim)
			break;
	}
	return sc.nr_reclaimed;
}

/* The log the agreement oracle reads (struct aw_reclaim_log) */
void aw_reclaim_log_add(struct aw_kernel *k, const struct aw_reclaim_call *c)
{
	struct aw_reclaim_log *log = &k->reclaim_log;

	log->calls[log->total++ % AW_RECLAIM_LOG] = *c;
	if (c->kind == AW_RC_SHRINK)
		log->reclaimed += (unsigned long)c->result;
	else if (c->result)
		log->refused++;
}

/* mm/oom_kill.c: oom_badness() over the memcg's tasks: the biggest mm dies */
static bool mem_cgroup_out_of_memory(struct aw_kernel *k, int memcg, int nid)
{
	struct mm_struct *victim = NULL;
	uint32_t victim_id;

	for (uint32_t pid = 1; pid < k->nr_tasks; pid++) {
		struct aw_task *t = &k->tasks[pid];
		struct mm_struct *mm = t->alive ? aw_mm(k, t->mm) : NULL;

		if (mm && mm->memcg == memcg && !mm->exiting && (!victim || mm->rss > victim->rss))
			victim = mm;
	}
	if (!victim)
		return false;
	k->memcg[memcg].oom_kills++;
	k->node_stats[nid].oom_kills++;
	/* every task using the victim mm is killed; the mm goes with the last */
	victim_id = victim->id;
	for (uint32_t pid = 1; pid < k->nr_tasks && aw_mm(k, victim_id); pid++) {
		struct aw_task *t = &k->tasks[pid];

		if (t->alive && t->mm == victim_id) {
			t->alive = false;
			t->mm = 0;
			aw_mm_put(k, aw_mm(k, victim_id));
		}
	}
	return true;
}

static bool charge_fits(const struct aw_memcg *mc, unsigned int nr_pages)
{
	return !mc->limit || mc->usage + nr_pages <= mc->limit;
}

/*
 * mm/memcontrol.c: try_charge_memcg().  Small charges retry as long as
 * reclaim makes progress; otherwise MAX_RECLAIM_RETRIES reclaim attempts,
 * then the memcg OOM killer.  THP charges do not reclaim (the fault's
 * GFP_TRANSHUGE_LIGHT cannot block) and fail, so the fault falls back.
 */
int aw_memcg_charge(struct aw_kernel *k, int memcg, unsigned int nr_pages, int nid)
{
	struct aw_memcg *mc = &k->memcg[memcg];
	int retries = MAX_RECLAIM_RETRIES;

	while (!charge_fits(mc, nr_pages)) {
		unsigned long reclaimed;

		if (nr_pages > 1 || mc->reclaiming)
			return -1;
		mc->reclaiming = true;
		mc->reclaim_calls++;
		reclaimed = aw_try_to_free_mem_cgroup_pages(k, memcg, nr_pages);
		mc->reclaiming = false;
		if (charge_fits(mc, nr_pages))
			break;
		if (reclaimed && nr_pages <= 8)
			continue;
		if (retries-- > 0)
			continue;
		if (!mem_cgroup_out_of_memory(k, memcg, nid))
			return -1;
		retries = MAX_RECLAIM_RETRIES;
	}
	mc->usage += nr_pages;
	return 0;
}

/* A charge that may not reclaim (a GFP_NOWAIT-like caller): fits or fails. */
int aw_memcg_charge_noreclaim(struct aw_kernel *k, int memcg, unsigned int nr_pages)
{
	struct aw_memcg *mc = &k->memcg[memcg];

	if (!charge_fits(mc, nr_pages))
		return -1;
	mc->usage += nr_pages;
	return 0;
}

void aw_memcg_uncharge(struct aw_kernel *k, int memcg, unsigned int nr_pages)
{
	struct aw_memcg *mc = &k->memcg[memcg];

	mc->usage = mc->usage > nr_pages ? mc->usage - nr_pages : 0;
}

/*
 * A user page table is memcg-charged kernel memory: pte_alloc_one(),
 * pmd_alloc_one() and pud_alloc_one() allocate with GFP_PGTABLE_USER
 * (__GFP_ACCOUNT), so __memcg_kmem_charge_page() charges the page to the
 * current task's memcg -- the faulting task's, the mm's here -- and the
 * page counter the limit reclaims against counts it (6.1 and 6.12; the
 * root memcg is never charged).  It is not on an LRU: reclaim cannot take
 * it back, so a working set of exactly the limit does not fit beside its
 * own page tables.  The charge itself does not reclaim here: the fault's
 * folio charge, which follows every table allocation of a fault at once,
 * reclaims for both (docs/model-notes.md).
 */
void aw_memcg_charge_pgtable(struct aw_kernel *k, int memcg, uint32_t id)
{
	if (memcg <= 0 || memcg >= k->nr_memcgs)
		return;
	k->memcg[memcg].usage++;
	aw_table_set_memcg(&k->pt, id, memcg);
}

/* free a page table (pte_free()/pmd_free()/pud_free()): its charge goes with it */
void aw_pgtable_free(struct aw_kernel *k, uint32_t id)
{
	int memcg = aw_table_memcg(&k->pt, id);

	if (memcg > 0)
		aw_memcg_uncharge(k, memcg, 1);
	aw_table_free(&k->pt, id);
}
