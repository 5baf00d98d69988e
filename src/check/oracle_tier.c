// SPDX-License-Identifier: GPL-2.0-only
/*
 * tier-protection: a shadow of mainline's sort_folio() tier protection
 * (mm/vmscan.c, 6.14+ "mm/mglru: rework workingset protection" and
 * "mm/mglru: rework type selection"), which no packaged kernel tree (6.1,
 * 6.12) can check by running its text beside the model: the tiers, the
 * gains and the lazily promoted workingset are mainline's own.
 *
 * When scan_folios() opens the oldest generation of a type, the shadow
 * computes get_tier_idx() itself from the lruvec's PID inputs as the
 * machine holds them (avg_refaulted, refaulted, avg_total, protected,
 * evicted: read_ctrl_pos() with gains 2:3, positive_ctrl_err()).  For each
 * folio the scan reads off the list it takes the folio's flags before
 * sort_folio() sees them (generation, PG_referenced, the refs counter,
 * PG_workingset, PG_dirty, PG_writeback) and the lruvec's protected
 * counters, and applies the rule:
 *
 *  - a folio whose flags name a younger generation (promoted) is only
 *    moved to its list: neither protected nor isolated;
 *  - a folio with tier > tier_idx (folio_lru_refs(), lru_tier_from_refs())
 *    or every reference bit set (refs + workingset == BIT(LRU_REFS_WIDTH)
 *    + 1, lazily promoted) moves to min_seq + 1 (folio_inc_gen()), and
 *    protected[type][tier] grows by its pages unless lazily promoted;
 *  - any other folio is isolated (no generation afterwards), or, dirty or
 *    under writeback, waits in min_seq + 1; no protected counter grows.
 *
 * What the folio became is read off its flags and the counters when the
 * scan reads the next folio or ends.  Never read: the tier_idx the model
 * passed to sort_folio(), sort_folio()'s answer, the model's own tier or
 * refs helpers, or the profile's gains.
 */
#include <stdlib.h>

#include "oracle.h"
#include "kernel.h"

/* one folio read off the oldest generation's list, and what the rule owes it */
struct tier_sighting {
	uint32_t pfn;		/* AW_NIL: none pending */
	long nr_pages;
	int gen, tier;
	bool promoted, protect, lazy, may_wait;
	unsigned long flags;	/* as sort_folio() found them */
	unsigned long protected_before[MAX_NR_TIERS];
};

struct aw_tier_shadow {
	struct lruvec *lruvec;	/* the scan open, NULL: none */
	int type, tier_idx;
	unsigned long min_seq;
	unsigned long sp_refaulted, sp_total;	/* the first tier's control position, for reports */
	bool reported;		/* one finding per scan: the first folio off the rule stands for the rest */
	struct tier_sighting cur;
};

void aw_tier_shadow_free(struct aw_tier_shadow *t)
{
	free(t);
}

/* the tier rule is mainline's: 6.1 and 6.12 are checked by their own text */
static struct aw_tier_shadow *shadow(struct aw_kernel *k)
{
	struct aw_tier_shadow **slot;

	if (!k->oracle || k->prof != aw_profile(AW_KERNEL_MAINLINE) || !(slot = aw_oracle_tier_slot(k)))
		return NULL;
	if (!*slot) {
		*slot = calloc(1, sizeof(**slot));
		if (!*slot)
			aw_oracle_oom("tier protection shadow");
		(*slot)->cur.pfn = AW_NIL;
	}
	return *slot;
}

/* ---- the rule, restated ------------------------------------------------------ */

/* include/linux/log2.h: order_base_2() for the small refs counts */
static int refs_order(int refs)
{
	int order = 0;

	while ((1 << order) < refs)
		order++;
	return order;
}

/*
 * include/linux/mm_inline.h (mainline): folio_lru_refs() is 0 without
 * PG_referenced, else the counter + 1; lru_tier_from_refs() puts
 * PG_workingset in the last tier, else order_base_2(refs).
 */
static int mainline_tier(unsigned long flags, int *refs, bool *workingset)
{
	*workingset = flags & (1UL << PG_workingset);
	*refs = flags & (1UL << PG_referenced) ? (int)((flags & LRU_REFS_MASK) >> LRU_REFS_PGOFF) + 1 : 0;
	return *workingset ? MAX_NR_TIERS - 1 : refs_order(*refs);
}

/* mm/vmscan.c (mainline): read_ctrl_pos() of one tier, NR_HIST_GENS == 1 */
static void ctrl_pos(const struct lru_gen_folio *lrugen, int type, int tier, unsigned long *refaulted,
		     unsigned long *total)
{
	*refaulted = lrugen->avg_refaulted[type][tier] + lrugen->refaulted[type][tier];
	*total = lrugen->avg_total[type][tier] + lrugen->protected[type][tier] + lrugen->evicted[type][tier];
}

/*
 * mm/vmscan.c (mainline): get_tier_idx(), the gains 2:3, and
 * positive_ctrl_err(): a tier stays evictable while its refaults are few
 * (below MIN_LRU_BATCH) or its refault rate, with the margin, is no higher
 * than the first tier's.
 */
static int mainline_tier_idx(struct aw_tier_shadow *t, const struct lru_gen_folio *lrugen, int type)
{
	const unsigned long sp_gain = 2, pv_gain = 3;
	int tier;

	ctrl_pos(lrugen, type, 0, &t->sp_refaulted, &t->sp_total);
	for (tier = 1; tier < MAX_NR_TIERS; tier++) {
		unsigned long refaulted, total;

		ctrl_pos(lrugen, type, tier, &refaulted, &total);
		if (refaulted >= MIN_LRU_BATCH &&
		    refaulted * (t->sp_total + MIN_LRU_BATCH) * sp_gain > (t->sp_refaulted + 1) * total * pv_gain)
			break;
	}
	return tier - 1;
}

/* ---- the scan, observed --------------------------------------------------- */

static void report(struct aw_kernel *k, struct aw_tier_shadow *t, const struct folio *folio, const char *cause,
		   const char *what)
{
	const struct tier_sighting *s = &t->cur;

	if (t->reported)
		return;
	t->reported = true;
	aw_oracle_report(k, AW_OR_TIER_PROTECTION, cause,
			 "node %d memcg %d: folio 0x%x (%s, %ld pages) in the oldest %s generation (seq %lu): "
			 "tier %d, PG_referenced %d, refs counter %lu, PG_workingset %d; get_tier_idx() from the "
			 "lruvec's counters %d (first tier: %lu refaulted of %lu); %s",
			 folio->nid, folio->memcg, s->pfn, s->promoted ? "promoted" : s->protect ? "protected" :
			 "evictable", s->nr_pages, t->type ? "file" : "anon", t->min_seq, s->tier,
			 !!(s->flags & (1UL << PG_referenced)), (s->flags & LRU_REFS_MASK) >> LRU_REFS_PGOFF,
			 !!(s->flags & (1UL << PG_workingset)), t->tier_idx, t->sp_refaulted, t->sp_total, what);
}

/* what the folio read last became, against what the rule owes it */
static void check_pending(struct aw_kernel *k, struct aw_tier_shadow *t)
{
	const struct tier_sighting *s = &t->cur;
	const unsigned long *protected = t->lruvec->lrugen.protected[t->type];
	const struct folio *folio;
	int next_gen = lru_gen_from_seq(t->min_seq + 1);
	int gen, grown_tier = -1;
	long grown = 0;

	if (s->pfn == AW_NIL)
		return;
	folio = pfn_folio(&k->mem, s->pfn);
	gen = folio_lru_gen(folio);
	for (int tier = 0; tier < MAX_NR_TIERS; tier++) {
		if (protected[tier] != s->protected_before[tier]) {
			grown += (long)(protected[tier] - s->protected_before[tier]);
			grown_tier = tier;
		}
	}
	if (s->promoted) {
		if (gen != s->gen || grown)
			report(k, t, folio, "sort_folio() did not leave a promoted folio in its generation",
			       gen != s->gen ? "its flags name another generation after the sort"
					     : "a protected counter grew");
	} else if (s->protect) {
		if (gen != next_gen)
			report(k, t, folio, "sort_folio() evicted a folio its tier protects",
			       gen < 0 ? "isolated for reclaim, where folio_inc_gen() was owed"
				       : "not moved to min_seq + 1");
		else if (grown != (s->lazy ? 0 : s->nr_pages) || (grown && grown_tier != s->tier))
			report(k, t, folio, "sort_folio() counted a protected folio off its tier",
			       s->lazy ? "a lazily promoted folio was counted as protected"
				       : "protected[type][tier] did not grow by the folio's pages");
	} else if (grown || !(gen < 0 || (s->may_wait && gen == next_gen))) {
		report(k, t, folio, "sort_folio() protected a folio its tier does not",
		       grown ? "a protected counter grew" : "kept in the generations instead of isolated");
	}
	t->cur.pfn = AW_NIL;
}

/* scan_folios() opens lruvec's oldest generation of type: get_tier_idx(), restated */
void aw_or_scan_folios_begin(struct aw_kernel *k, struct lruvec *lruvec, int type)
{
	struct aw_tier_shadow *t = shadow(k);

	if (!t)
		return;
	t->lruvec = lruvec;
	t->type = type;
	t->min_seq = lruvec->lrugen.min_seq[type];
	t->tier_idx = mainline_tier_idx(t, &lruvec->lrugen, type);
	t->cur.pfn = AW_NIL;
	t->reported = false;
}

/* the scan reads folio off the list, before sort_folio() */
void aw_or_sort_folio(struct aw_kernel *k, struct lruvec *lruvec, const struct folio *folio)
{
	struct aw_tier_shadow *t = shadow(k);
	struct tier_sighting *s;
	int refs;
	bool workingset;

	if (!t || t->lruvec != lruvec)
		return;
	check_pending(k, t);
	s = &t->cur;
	s->pfn = folio->pfn;
	s->nr_pages = folio_nr_pages(folio);
	s->flags = folio->flags;
	s->gen = folio_lru_gen(folio);
	s->tier = mainline_tier(folio->flags, &refs, &workingset);
	s->lazy = refs + workingset == (1 << LRU_REFS_WIDTH) + 1;
	s->promoted = s->gen != lru_gen_from_seq(t->min_seq);
	s->protect = !s->promoted && (s->tier > t->tier_idx || s->lazy);
	/* "waiting for writeback" (its own rule, not judged here) also moves it on */
	s->may_wait = folio_test(folio, PG_writeback) || (t->type == LRU_GEN_FILE && folio_test(folio, PG_dirty));
	for (int tier = 0; tier < MAX_NR_TIERS; tier++)
		s->protected_before[tier] = lruvec->lrugen.protected[t->type][tier];
}

/* scan_folios() is done with the list: the last folio read is judged, before any putback */
void aw_or_scan_folios_end(struct aw_kernel *k, struct lruvec *lruvec)
{
	struct aw_tier_shadow **slot = k->oracle ? aw_oracle_tier_slot(k) : NULL;
	struct aw_tier_shadow *t = slot ? *slot : NULL;

	if (!t || t->lruvec != lruvec)
		return;
	check_pending(k, t);
	t->lruvec = NULL;
}
