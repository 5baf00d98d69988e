// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tiers and the PID controller (mm/vmscan.c: read_ctrl_pos, reset_ctrl_pos,
 * positive_ctrl_err, get_tier_idx, get_type_to_scan; include/linux/
 * mm_inline.h: folio_lru_refs, lru_tier_from_refs).
 *
 * Without fd accesses (no folio_mark_accessed() in the model) the refs
 * counter only ever holds what a refault restored, so what decides a
 * folio's tier is PG_referenced and PG_workingset.  Which tier those make
 * depends on the kernel (docs/model-notes.md, "Kernel profiles"): since
 * 6.14 ("mm/mglru: rework workingset protection") PG_workingset alone is
 * tier 3, so page-table promotion and refaults do put folios above tier 0
 * and tier protection is live; in 6.1 and 6.12 PG_workingset counts as one
 * access on top of the counter.
 */
#include "kernel.h"
#include "linux/array_size.h"
#include "linux/bitmap.h"
#include "linux/minmax.h"

/* order_base_2(n): ceil(log2(n)), 0 for n <= 1 */
static int order_base_2(unsigned int n)
{
	int order = 0;

	while ((1U << order) < n)
		order++;
	return order;
}

static unsigned int refs_counter(const struct folio *folio)
{
	return (folio->flags & LRU_REFS_MASK) >> LRU_REFS_PGOFF;
}

/*
 * include/linux/mm_inline.h: folio_lru_refs().  Mainline (6.14+): 0
 * without PG_referenced, else the counter + 1 (all accesses including
 * PG_referenced).  6.1/6.12: the counter + PG_workingset (accesses beyond
 * the first).
 */
int folio_lru_refs(const struct aw_kernel *k, const struct folio *folio)
{
	if (k->prof->refs_form == AW_REFS_COUNTER_WORKINGSET)
		return (int)refs_counter(folio) + folio_test(folio, PG_workingset);
	if (!folio_test(folio, PG_referenced))
		return 0;
	return (int)refs_counter(folio) + 1;
}

/*
 * include/linux/mm_inline.h: lru_tier_from_refs().  Mainline:
 * workingset ? MAX_NR_TIERS - 1 : order_base_2(refs).  6.1/6.12 take refs
 * alone (workingset is already in it) and return order_base_2(refs + 1).
 */
int lru_tier_from_refs(const struct aw_kernel *k, int refs, bool workingset)
{
	if (k->prof->refs_form == AW_REFS_COUNTER_WORKINGSET)
		return order_base_2((unsigned int)refs + 1);
	return workingset ? MAX_NR_TIERS - 1 : order_base_2((unsigned int)refs);
}

int folio_lru_tier(const struct aw_kernel *k, const struct folio *folio)
{
	return lru_tier_from_refs(k, folio_lru_refs(k, folio), folio_test(folio, PG_workingset));
}

/*
 * sort_folio()'s second protection: every reference bit set.  Mainline
 * "refs + workingset == BIT(LRU_REFS_WIDTH) + 1" (the workingset being
 * lazily promoted, not counted as protected); 6.1/6.12 "refs ==
 * BIT(LRU_REFS_WIDTH)" (counted).
 */
bool folio_lazily_promoted(const struct aw_kernel *k, const struct folio *folio)
{
	int refs = folio_lru_refs(k, folio);

	if (k->prof->refs_form == AW_REFS_COUNTER_WORKINGSET)
		return refs == 1 << LRU_REFS_WIDTH;
	return refs + folio_test(folio, PG_workingset) == (1 << LRU_REFS_WIDTH) + 1;
}

/*
 * mm/vmscan.c: read_ctrl_pos().  tier == MAX_NR_TIERS sums every tier
 * (mainline's get_type_to_scan()); otherwise one tier.  6.1/6.12 add the
 * protected count only for tier >= 1; they never count tier 0 as
 * protected, so protected[type][0] is 0 there and one formula serves.
 */
void read_ctrl_pos(const struct lruvec *lruvec, int type, int tier, int gain, struct ctrl_pos *pos)
{
	const struct lru_gen_folio *lrugen = &lruvec->lrugen;

	pos->gain = gain;
	pos->refaulted = pos->total = 0;
	for (int i = tier % MAX_NR_TIERS; i <= min(tier, MAX_NR_TIERS - 1); i++) {
		pos->refaulted += lrugen->avg_refaulted[type][i] + lrugen->refaulted[type][i];
		pos->total += lrugen->avg_total[type][i] + lrugen->protected[type][i] +
			      lrugen->evicted[type][i];
	}
}

/*
 * mm/vmscan.c: reset_ctrl_pos().  With NR_HIST_GENS == 1 only the
 * carryover (a min_seq increment) does anything: the averages take half
 * of themselves plus this generation's counts, which start again at 0.
 */
void reset_ctrl_pos(struct lruvec *lruvec, int type, bool carryover)
{
	struct lru_gen_folio *lrugen = &lruvec->lrugen;

	if (!carryover)
		return;
	for (int tier = 0; tier < MAX_NR_TIERS; tier++) {
		lrugen->avg_refaulted[type][tier] =
			(lrugen->avg_refaulted[type][tier] + lrugen->refaulted[type][tier]) / 2;
		lrugen->avg_total[type][tier] = (lrugen->avg_total[type][tier] + lrugen->protected[type][tier] +
						 lrugen->evicted[type][tier]) / 2;
		lrugen->refaulted[type][tier] = 0;
		lrugen->evicted[type][tier] = 0;
		lrugen->protected[type][tier] = 0;
	}
}

/* mm/vmscan.c: positive_ctrl_err() */
bool positive_ctrl_err(const struct ctrl_pos *sp, const struct ctrl_pos *pv)
{
	/*
	 * Return true if the PV has a limited number of refaults or a lower
	 * refaulted/total than the SP.
	 */
	return pv->refaulted < MIN_LRU_BATCH ||
	       pv->refaulted * (sp->total + MIN_LRU_BATCH) * sp->gain <=
	       (sp->refaulted + 1) * pv->total * pv->gain;
}

/*
 * mm/vmscan.c: get_tier_idx(): the last tier to evict.  Gains 2:3 in
 * mainline (6.14, "mm/mglru: rework workingset protection"), 1:2 in
 * 6.1/6.12.
 */
int get_tier_idx(const struct lruvec *lruvec, int type)
{
	const struct aw_profile *prof = lruvec->k->prof;
	struct ctrl_pos sp, pv;
	int tier;

	read_ctrl_pos(lruvec, type, 0, prof->tier_gain_sp, &sp);
	for (tier = 1; tier < MAX_NR_TIERS; tier++) {
		bool positive;

		read_ctrl_pos(lruvec, type, tier, prof->tier_gain_pv, &pv);
		positive = positive_ctrl_err(&sp, &pv);
		/* the planted bug: the refault rates compared the wrong way (the floor kept) */
		if (AW_BUG(lruvec->k, AW_BUG_TIER_CTRL_ERR_INVERTED) && pv.refaulted >= MIN_LRU_BATCH)
			positive = !positive;
		if (!positive)
			break;
	}
	return tier - 1;
}

/*
 * mm/vmscan.c: get_type_to_scan().  Mainline (6.14, "mm/mglru: rework
 * type selection"): swappiness <= 1 file, >= 200 anon, else all tiers of
 * anon (gain swappiness) against all tiers of file (200 - swappiness).
 * 6.1/6.12 compare the first tiers; isolate_folios() decides the obvious
 * cases before asking (aw_isolate_type() in evict.c).
 */
int get_type_to_scan(const struct lruvec *lruvec, int swappiness)
{
	bool all_tiers = lruvec->k->prof->type_to_scan_form == AW_TYPE_TO_SCAN_ALL_TIERS;
	int tier = all_tiers ? MAX_NR_TIERS : 0;
	struct ctrl_pos sp, pv;

	if (all_tiers && swappiness <= 1)
		return LRU_GEN_FILE;
	if (all_tiers && swappiness >= MAX_SWAPPINESS)
		return LRU_GEN_ANON;
	read_ctrl_pos(lruvec, LRU_GEN_ANON, tier, swappiness, &sp);
	read_ctrl_pos(lruvec, LRU_GEN_FILE, tier, MAX_SWAPPINESS - swappiness, &pv);
	return positive_ctrl_err(&sp, &pv);
}
