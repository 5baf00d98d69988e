// SPDX-License-Identifier: GPL-2.0-only
/*
 * MGLRU generations: placement, promotion, and the generation window
 * (include/linux/mm_inline.h, mm/vmscan.c).
 *
 * The folio's generation lives in two places, as in the kernel: the flag
 * field (what the aging walk rewrites) and the list the folio physically
 * sits on (what eviction and inc_min_seq() move lazily).  Size counters
 * follow the flag generation, through the walker's batch.
 */
#include <string.h>

#include "kernel.h"
#include "linux/array_size.h"
#include "linux/bitmap.h"
#include "linux/minmax.h"

void lru_gen_init_lruvec(struct lruvec *lruvec, int memcg, int nid, int index, uint64_t now)
{
	struct lru_gen_folio *lrugen = &lruvec->lrugen;

	memset(lruvec, 0, sizeof(*lruvec));
	lruvec->memcg = memcg;
	lruvec->nid = nid;
	lruvec->index = index;
	/* mm/vmscan.c: lru_gen_init_lruvec(): four generations, seq 0..3 */
	lrugen->max_seq = MIN_NR_GENS + 1;
	for (int i = 0; i < MAX_NR_GENS; i++)
		lrugen->timestamps[i] = now;
	for (int g = 0; g < MAX_NR_GENS; g++)
		for (int t = 0; t < ANON_AND_FILE; t++)
			INIT_LIST_HEAD(&lrugen->folios[g][t]);
	lruvec->mm_state.seq = MIN_NR_GENS;
}

/* mm/vmscan.c: get_nr_gens() */
int get_nr_gens(const struct lruvec *lruvec, int type)
{
	return (int)(lruvec->lrugen.max_seq - lruvec->lrugen.min_seq[type] + 1);
}

/* mm/vmscan.c: evictable_min_seq() */
unsigned long evictable_min_seq(const unsigned long *min_seq, int swappiness)
{
	unsigned long a = min_seq[!swappiness];
	unsigned long b = min_seq[swappiness <= MAX_SWAPPINESS];

	return a < b ? a : b;
}

/* include/linux/mm_inline.h: lru_gen_update_size() (model: pages by flag gen) */
void lru_gen_update_size(struct lruvec *lruvec, struct folio *folio, int old_gen, int new_gen)
{
	int type = folio_is_file_lru(folio);
	long delta = folio_nr_pages(folio);

	if (old_gen >= 0)
		lruvec->lrugen.nr_pages[old_gen][type] -= delta;
	if (new_gen >= 0)
		lruvec->lrugen.nr_pages[new_gen][type] += delta;
}

/* include/linux/mm_inline.h: lru_gen_folio_seq() */
unsigned long lru_gen_folio_seq(const struct lruvec *lruvec, const struct folio *folio, bool reclaiming)
{
	int gen;
	int type = folio_is_file_lru(folio);
	const struct lru_gen_folio *lrugen = &lruvec->lrugen;
	unsigned long seq;

	/* the planted bug: PG_workingset forgotten, active or not */
	bool workingset = folio_test(folio, PG_workingset) && !AW_BUG(lruvec->k, AW_BUG_FOLIO_SEQ_WORKINGSET);

	if (folio_test(folio, PG_active))
		gen = MIN_NR_GENS - workingset;
	else if (reclaiming)
		gen = MAX_NR_GENS;
	else if ((!folio_is_file_lru(folio) && !folio_test(folio, PG_swapcache)) ||
		 (folio_test(folio, PG_reclaim) && folio_test(folio, PG_dirty)))
		gen = MIN_NR_GENS;
	else
		gen = MAX_NR_GENS - workingset;

	seq = lrugen->max_seq - gen + 1;
	return seq > lrugen->min_seq[type] ? seq : lrugen->min_seq[type];
}

/*
 * 6.1/6.12 include/linux/mm_inline.h: lru_gen_add_folio()'s placement,
 * the same in both: an active folio at max_seq; anon not in the swap
 * cache, or PG_reclaim and dirty/writeback, at max_seq - 1; reclaiming, or
 * no more than MIN_NR_GENS generations of its type, at min_seq; anything
 * else at min_seq + 1.  Mainline (lru_gen_folio_seq(), 6.14 "mm/mglru:
 * rework workingset protection") counts down from max_seq by
 * PG_workingset instead.
 */
unsigned long lru_gen_folio_seq_from_min(const struct lruvec *lruvec, const struct folio *folio, bool reclaiming)
{
	int type = folio_is_file_lru(folio);
	const struct lru_gen_folio *lrugen = &lruvec->lrugen;

	if (folio_test(folio, PG_active))
		return lrugen->max_seq;
	if ((type == LRU_GEN_ANON && !folio_test(folio, PG_swapcache)) ||
	    (folio_test(folio, PG_reclaim) && folio_test(folio, PG_dirty)))
		return lrugen->max_seq - 1;
	if (reclaiming || lrugen->min_seq[type] + MIN_NR_GENS >= lrugen->max_seq)
		return lrugen->min_seq[type];
	return lrugen->min_seq[type] + 1;
}

/*
 * The flags lru_gen_add_folio() clears with the generation: PG_active
 * everywhere; 6.12 also clears an active folio's refs counter and
 * PG_referenced (PG_workingset stays, for PSI), 6.1 does not.
 */
static unsigned long add_folio_mask(const struct aw_kernel *k, const struct folio *folio)
{
	unsigned long mask = LRU_GEN_MASK | BIT(PG_active);

	if (k->prof->add_active_clears_refs && folio_test(folio, PG_active))
		mask |= LRU_REFS_MASK | BIT(PG_referenced);
	return mask;
}

/* include/linux/mm_inline.h: lru_gen_add_folio() (one zone: no [zone] index) */
bool lru_gen_add_folio(struct lruvec *lruvec, struct folio *folio, bool reclaiming)
{
	struct aw_kernel *k = lruvec->k;
	struct lru_gen_folio *lrugen = &lruvec->lrugen;
	int type = folio_is_file_lru(folio);
	unsigned long flags;
	int gen;

	if (folio_test(folio, PG_unevictable))
		return false;
	trace_lru_gen_add_folio(k, lruvec, folio, reclaiming);
	gen = lru_gen_from_seq(k->prof->add_folio_seq_form == AW_ADD_SEQ_FROM_MAX ?
			       lru_gen_folio_seq(lruvec, folio, reclaiming) :
			       lru_gen_folio_seq_from_min(lruvec, folio, reclaiming));
	flags = (gen + 1UL) << LRU_GEN_PGOFF;
	set_mask_bits(&folio->flags, add_folio_mask(k, folio), flags);
	folio_set(folio, PG_lru);
	trace_folio_update_gen(k, folio, -1, gen);
	lru_gen_update_size(lruvec, folio, -1, gen);
	/* for folio_rotate_reclaimable() */
	if (reclaiming)
		list_add_tail(&folio->lru, &lrugen->folios[gen][type]);
	else
		list_add(&folio->lru, &lrugen->folios[gen][type]);
	return true;
}

static bool lru_gen_is_active(const struct lruvec *lruvec, int gen)
{
	unsigned long max_seq = lruvec->lrugen.max_seq;

	return gen == lru_gen_from_seq(max_seq) || gen == lru_gen_from_seq(max_seq - 1);
}

/* include/linux/mm_inline.h: lru_gen_del_folio() */
bool lru_gen_del_folio(struct lruvec *lruvec, struct folio *folio, bool reclaiming)
{
	struct aw_kernel *k = lruvec->k;
	unsigned long flags;
	int gen = folio_lru_gen(folio);

	if (gen < 0)
		return false;
	/*
	 * for folio_migrate_flags(): keep "active" across a del/add.  The
	 * kernel's set_mask_bits() leaves an already set PG_active alone too.
	 */
	flags = !reclaiming && lru_gen_is_active(lruvec, gen) ? BIT(PG_active) : 0;
	set_mask_bits(&folio->flags, LRU_GEN_MASK, flags);
	trace_folio_update_gen(k, folio, gen, -1);
	lru_gen_update_size(lruvec, folio, gen, -1);
	list_del(&folio->lru);
	return true;
}

/* mm/vmscan.c: folio_update_gen(): promotion through page tables */
int folio_update_gen(struct folio *folio, int gen)
{
	unsigned long old_flags = folio->flags;

	/* 6.14+ two-touch rule: first sighting only marks it referenced */
	if (!folio_test(folio, PG_referenced) && !folio_test(folio, PG_workingset)) {
		folio->flags = (folio->flags & ~LRU_REFS_MASK) | BIT(PG_referenced);
		return -1;
	}
	/* lru_gen_del_folio() has isolated this page? */
	if (!(old_flags & LRU_GEN_MASK))
		return -1;
	folio->flags = (old_flags & ~(LRU_GEN_MASK | LRU_REFS_FLAGS)) |
		       (gen + 1UL) << LRU_GEN_PGOFF | BIT(PG_workingset);
	return (int)((old_flags & LRU_GEN_MASK) >> LRU_GEN_PGOFF) - 1;
}

/*
 * 6.1/6.12 mm/vmscan.c: folio_update_gen(): promotion on the first young
 * sighting.  An isolated folio (no generation) gets PG_referenced "for
 * shrink_folio_list()"; any other moves to gen with its reference bits
 * (refs counter, PG_referenced and PG_workingset) cleared.  Replaced in
 * 6.14 by the two-touch rule above ("mm/mglru: rework workingset
 * protection").
 */
int folio_update_gen_first_young(struct folio *folio, int gen)
{
	unsigned long old_flags = folio->flags;

	if (!(old_flags & LRU_GEN_MASK)) {
		folio_set(folio, PG_referenced);
		return -1;
	}
	folio->flags = (old_flags & ~(LRU_GEN_MASK | LRU_REFS_MASK | BIT(PG_referenced) |
				      BIT(PG_workingset))) |
		       (gen + 1UL) << LRU_GEN_PGOFF;
	return (int)((old_flags & LRU_GEN_MASK) >> LRU_GEN_PGOFF) - 1;
}

/* folio_inc_gen()'s flag update: generation gen, the reference bits (refs_flags) cleared */
static inline void folio_age_to(struct folio *folio, int gen, unsigned long refs_flags)
{
	folio->flags = (folio->flags & ~(LRU_GEN_MASK | refs_flags)) | (gen + 1UL) << LRU_GEN_PGOFF;
}

/*
 * mm/vmscan.c: folio_inc_gen() with lru_gen_update_size() on the size
 * array nr_pages: lrugen->nr_pages, or a batch that inc_min_seq() adds
 * once at the end (the sums are the same).
 */
static inline int folio_inc_gen_sized(struct lruvec *lruvec, struct folio *folio, bool reclaiming,
				      long (*nr_pages)[ANON_AND_FILE])
{
	int type = folio_is_file_lru(folio);
	int old_gen = lru_gen_from_seq(lruvec->lrugen.min_seq[type]);
	int new_gen = folio_lru_gen(folio);
	long delta;

	/* folio_update_gen() has promoted this page? */
	if (new_gen >= 0 && new_gen != old_gen)
		return new_gen;
	new_gen = (old_gen + 1) % MAX_NR_GENS;
	folio_age_to(folio, new_gen, aw_lru_refs_flags(lruvec->k));
	if (reclaiming)
		folio_set(folio, PG_reclaim);
	/* lru_gen_update_size(lruvec, folio, old_gen, new_gen) */
	delta = folio_nr_pages(folio);
	nr_pages[old_gen][type] -= delta;
	nr_pages[new_gen][type] += delta;
	return new_gen;
}

/* mm/vmscan.c: folio_inc_gen(): protect a folio of the oldest generation */
int folio_inc_gen(struct aw_kernel *k, struct lruvec *lruvec, struct folio *folio, bool reclaiming)
{
	int old_gen = folio_lru_gen(folio);
	int new_gen = folio_inc_gen_sized(lruvec, folio, reclaiming, lruvec->lrugen.nr_pages);

	if (new_gen != old_gen)
		trace_folio_update_gen(k, folio, old_gen, new_gen);
	return new_gen;
}

/* mm/vmscan.c: lru_gen_set_refs() */
bool lru_gen_set_refs(struct folio *folio)
{
	/* see the comment on LRU_REFS_FLAGS */
	if (!folio_test(folio, PG_referenced) && !folio_test(folio, PG_workingset)) {
		folio->flags = (folio->flags & ~LRU_REFS_MASK) | BIT(PG_referenced);
		return false;
	}
	folio->flags = (folio->flags & ~LRU_REFS_FLAGS) | BIT(PG_workingset);
	return true;
}

/* mm/vmscan.c: update_batch_size(): the size change waits in the walk */
void update_batch_size(struct lru_gen_mm_walk *walk, struct folio *folio, int old_gen, int new_gen)
{
	int type = folio_is_file_lru(folio);
	long delta = folio_nr_pages(folio);

	walk->batched++;
	walk->nr_pages[old_gen][type] -= delta;
	walk->nr_pages[new_gen][type] += delta;
}

/* mm/vmscan.c: reset_batch_size(): apply the walk's size changes */
void reset_batch_size(struct lru_gen_mm_walk *walk)
{
	struct lru_gen_folio *lrugen = &walk->lruvec->lrugen;

	walk->batched = 0;
	for (int gen = 0; gen < MAX_NR_GENS; gen++) {
		for (int type = 0; type < ANON_AND_FILE; type++) {
			lrugen->nr_pages[gen][type] += walk->nr_pages[gen][type];
			walk->nr_pages[gen][type] = 0;
		}
	}
}

/* mm/vmscan.c: inc_min_seq(): retire the oldest generation of one type */
bool inc_min_seq(struct aw_kernel *k, struct lruvec *lruvec, int type, int swappiness)
{
	struct lru_gen_folio *lrugen = &lruvec->lrugen;
	int old_gen = lru_gen_from_seq(lrugen->min_seq[type]);
	struct list_head *head = &lrugen->folios[old_gen][type];

	/*
	 * A type that cannot be evicted is not sorted: its oldest folios
	 * become part of the new youngest generation in place (the kernel's
	 * deliberate cold/hot inversion when swapping is off).
	 */
	if ((type == LRU_GEN_FILE && swappiness == MAX_SWAPPINESS + 1) ||
	    (type == LRU_GEN_ANON && swappiness == 0))
		goto done;

	/*
	 * The kernel stops after MAX_LRU_BATCH folios and inc_max_seq()
	 * restarts after cond_resched(); with nobody else running the restart
	 * continues where it stopped, so the model moves them all at once.
	 *
	 * The loop is the kernel's: take the tail folio, folio_inc_gen(),
	 * list_move_tail() onto its new generation's list, until the list is
	 * empty.  What is summed instead of done per folio is the accounting:
	 * the size deltas (added to nr_pages once at the end) and, when
	 * traced, the oracle's shadow deltas.
	 */
	{
		/* a folio whose type disagrees with the list's may get old_gen back: parked here */
		struct list_head kept;
		long batch[MAX_NR_GENS][ANON_AND_FILE] = { { 0 } };
		/* folio_inc_gen_batch's deltas, for folios of this lruvec (all, unless broken) */
		long moved[MAX_NR_GENS][ANON_AND_FILE] = { { 0 } };
		int index = lruvec->index;

		const int next_gen = (old_gen + 1) % MAX_NR_GENS;
		long aged = 0;		/* pages of the common case: old_gen -> next_gen */
		long shadow_aged = 0;	/* the same, for the tracepoint */
		const bool traced = trace_folio_update_gen_enabled(k) || trace_folio_inc_gen_batch_enabled(k);
		const unsigned long refs_flags = aw_lru_refs_flags(k);
		/* mainline counts what it moves as protected; 6.1/6.12 do not */
		const bool count_protected = k->prof->inc_gen_counts_protected;

		INIT_LIST_HEAD(&kept);
		while (!list_empty(head)) {
			struct folio *folio = lru_to_folio(head);
			int flag_gen = folio_lru_gen(folio);
			int new_gen;

			/* don't count the workingset being lazily promoted */
			if (count_protected && !folio_lazily_promoted(k, folio))
				lrugen->protected[type][folio_lru_tier(k, folio)] += folio_nr_pages(folio);

			if (flag_gen == old_gen && folio_is_file_lru(folio) == type) {
				/*
				 * folio_inc_gen() of a folio nobody promoted, nearly
				 * all of them: the same flag update, with the size
				 * and shadow deltas summed in registers.
				 */
				long nr = folio_nr_pages(folio);

				folio_age_to(folio, next_gen, refs_flags);
				aged += nr;
				new_gen = next_gen;
				if (traced) {
					if (folio->memcg * k->nr_nodes + folio->nid == index)
						shadow_aged += nr;
					else
						trace_folio_update_gen(k, folio, flag_gen, new_gen);
				}
				goto move;
			}
			new_gen = folio_inc_gen_sized(lruvec, folio, false, batch);
			if (new_gen >= MAX_NR_GENS)	/* flags beyond any generation */
				__builtin_trap();
			if (traced && new_gen != flag_gen) {
				if (folio->memcg * k->nr_nodes + folio->nid == index && flag_gen >= 0) {
					long nr = folio_nr_pages(folio);

					moved[flag_gen][folio_is_file_lru(folio)] -= nr;
					moved[new_gen][folio_is_file_lru(folio)] += nr;
				} else {
					trace_folio_update_gen(k, folio, flag_gen, new_gen);
				}
			}
move:
			list_move_tail(&folio->lru, new_gen == old_gen ? &kept : &lrugen->folios[new_gen][type]);
		}
		list_splice_tail_init(&kept, head);
		batch[old_gen][type] -= aged;
		batch[next_gen][type] += aged;
		moved[old_gen][type] -= shadow_aged;
		moved[next_gen][type] += shadow_aged;
		for (int g = 0; g < MAX_NR_GENS; g++)
			for (int t = 0; t < ANON_AND_FILE; t++)
				lrugen->nr_pages[g][t] += batch[g][t];
		if (traced)
			trace_folio_inc_gen_batch(k, lruvec, &moved[0][0]);
	}
done:
	reset_ctrl_pos(lruvec, type, true);
	lrugen->min_seq[type]++;
	return true;
}

/* mm/vmscan.c: try_to_inc_min_seq() */
/*
 * mm/vmscan.c before 6.14 (6.1 .. 6.13): try_to_inc_min_seq(lruvec,
 * can_swap).  Each type steps over its empty oldest generations; then,
 * with swap, anon may not get ahead of file and file not ahead of the new
 * anon min_seq unless it already was: min_seq[anon] = min(anon, file),
 * min_seq[file] = max(new anon, old file).  So an anon folio still in the
 * oldest generation holds file back too.
 */
static bool try_to_inc_min_seq_can_swap(struct lruvec *lruvec, bool can_swap)
{
	struct lru_gen_folio *lrugen = &lruvec->lrugen;
	unsigned long min_seq[ANON_AND_FILE] = { lrugen->min_seq[0], lrugen->min_seq[1] };
	bool success = false;

	for (int type = !can_swap; type < ANON_AND_FILE; type++) {
		while (min_seq[type] + MIN_NR_GENS <= lrugen->max_seq) {
			int gen = lru_gen_from_seq(min_seq[type]);

			if (!list_empty(&lrugen->folios[gen][type]))
				break;	/* the oldest populated generation */
			min_seq[type]++;
		}
	}
	if (can_swap) {
		min_seq[LRU_GEN_ANON] = min(min_seq[LRU_GEN_ANON], min_seq[LRU_GEN_FILE]);
		min_seq[LRU_GEN_FILE] = max(min_seq[LRU_GEN_ANON], lrugen->min_seq[LRU_GEN_FILE]);
	}
	for (int type = !can_swap; type < ANON_AND_FILE; type++) {
		if (min_seq[type] == lrugen->min_seq[type])
			continue;
		reset_ctrl_pos(lruvec, type, true);
		lrugen->min_seq[type] = min_seq[type];
		success = true;
	}
	return success;
}

/* mainline (6.14+, swappiness): try_to_inc_min_seq() */
bool try_to_inc_min_seq(struct lruvec *lruvec, int swappiness)
{
	struct lru_gen_folio *lrugen = &lruvec->lrugen;
	unsigned long min_seq[ANON_AND_FILE] = { lrugen->min_seq[0], lrugen->min_seq[1] };
	bool seq_inc_flag = false, success = false;

	if (lruvec->k->prof->inc_min_seq_form == AW_INC_MIN_SEQ_CAN_SWAP)
		return try_to_inc_min_seq_can_swap(lruvec, swappiness != 0);

	/* for_each_evictable_type(type, swappiness) */
	for (int type = !swappiness; type <= (swappiness <= MAX_SWAPPINESS); type++) {
		while (min_seq[type] + MIN_NR_GENS <= lrugen->max_seq) {
			int gen = lru_gen_from_seq(min_seq[type]);
			if (!list_empty(&lrugen->folios[gen][type]))
				break;	/* the oldest populated generation */
			min_seq[type]++;
			seq_inc_flag = true;
		}
	}
	if (!seq_inc_flag)
		return false;
	/* keep anon and file within one generation of each other */
	if (swappiness && swappiness <= MAX_SWAPPINESS) {
		unsigned long seq = lrugen->max_seq - MIN_NR_GENS;

		if (min_seq[LRU_GEN_ANON] > seq && min_seq[LRU_GEN_FILE] < seq)
			min_seq[LRU_GEN_ANON] = seq;
		else if (min_seq[LRU_GEN_FILE] > seq && min_seq[LRU_GEN_ANON] < seq)
			min_seq[LRU_GEN_FILE] = seq;
	}
	for (int type = 0; type < ANON_AND_FILE; type++) {
		if (min_seq[type] <= lrugen->min_seq[type])
			continue;
		reset_ctrl_pos(lruvec, type, true);
		lrugen->min_seq[type] = min_seq[type];
		success = true;
	}
	return success;
}

/* mm/vmscan.c: inc_max_seq() */
bool inc_max_seq(struct aw_kernel *k, struct lruvec *lruvec, unsigned long seq, int swappiness)
{
	struct lru_gen_folio *lrugen = &lruvec->lrugen;
	int next;

	if (seq != lrugen->max_seq)
		return false;
	trace_lru_gen_inc_max_seq(k, lruvec);	/* before any folio moves */
	for (int type = 0; type < ANON_AND_FILE; type++) {
		if (get_nr_gens(lruvec, type) != MAX_NR_GENS)
			continue;
		inc_min_seq(k, lruvec, type, swappiness);
	}
	next = lru_gen_from_seq(lrugen->max_seq + 1);
	lrugen->timestamps[next] = k->now_ns;
	lrugen->max_seq++;
	return true;
}

int aw_mm_stat_index(const char *name)
{
	static const char *const names[NR_MM_STATS] = {
		"MM_LEAF_TOTAL", "MM_LEAF_YOUNG", "MM_NONLEAF_FOUND", "MM_NONLEAF_ADDED",
		"MM_LEAF_ASSOCIATED", "MM_WALK_TOTAL", "MM_WALK_EMPTY", "MM_LEAF_EMPTY_WALKS",
		"MM_PUD_EMPTY_SKIPPED",
	};

	for (int i = 0; i < NR_MM_STATS; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}
