// SPDX-License-Identifier: GPL-2.0-only
/*
 * The model's workingset side, behind the seam (struct aw_mglru_ops):
 * mm/workingset.c's lru_gen_eviction() and lru_gen_refault(), and
 * mm/swap.c's folio_add_lru() for a new folio.  The machine calls them
 * where the kernel does: reclaim after unmapping a folio it will free
 * (evict.c), a fault or khugepaged's swap-in before the new folio goes on
 * its LRU (fault.c, khugepaged.c).  A kernel-text variant runs the tree's
 * own functions in their place (src/ktext/ktext_workingset.inc.c).
 */
#include "kernel.h"

/*
 * mm/workingset.c: lru_gen_eviction(): token = min_seq << LRU_REFS_WIDTH |
 * max(refs - 1, 0), the folio's tier counted in evicted[], and the
 * workingset bit (the kernel packs refs there: nonzero exactly when
 * PG_workingset is set, as the counter only grows past PG_workingset).
 */
void aw_lru_gen_eviction(struct aw_kernel *k, struct folio *folio, struct aw_shadow *shadow)
{
	struct lruvec *lruvec = aw_lruvec(k, folio->memcg, folio->nid);
	int type = folio_is_file_lru(folio);
	int refs = folio_lru_refs(k, folio);
	bool workingset = folio_test(folio, PG_workingset);

	*shadow = (struct aw_shadow){ .evict_seq = (uint32_t)lruvec->lrugen.min_seq[type],
				      .refs = (uint8_t)(refs > 1 ? refs - 1 : 0), .workingset = workingset,
				      .memcg = folio->memcg, .nid = (uint8_t)folio->nid };
	lruvec->lrugen.evicted[type][lru_tier_from_refs(k, refs, workingset)] += folio_nr_pages(folio);
}

/* mod_lruvec_state(lruvec, WORKINGSET_REFAULT_BASE + type, nr): the node's and the memcg's */
static void count_refault(struct aw_kernel *k, struct lruvec *lruvec, int type, long nr)
{
	k->node_stats[lruvec->nid].workingset_refaults += (unsigned long)nr;
	k->memcg[lruvec->memcg].stat.workingset_refault[type] += (unsigned long)nr;
}

/*
 * mm/workingset.c: lru_gen_refault() for a new folio, before
 * folio_add_lru() places it.  The shadow names the lruvec it was evicted
 * from; only a refault charged to that same lruvec counts or restores
 * anything (`if (lruvec != folio_lruvec(folio)) goto unlock`; 6.1
 * compares the node and the memcg id, the same).
 *
 * Mainline (6.14, "mm/mglru: rework refault detection"): recent means
 * evicted less than MAX_NR_GENS generations before max_seq; the folio's
 * tier counts a refault, and PG_workingset comes back if it was set, else
 * the refs counter.  6.1/6.12: recent means evicted from the current
 * min_seq; a refault in a fault with recency (lru_gen_in_fault()), or of
 * a folio with every reference bit (refs >= BIT(LRU_REFS_WIDTH) - 1),
 * sets every reference bit and PG_workingset.  PG_active is not the
 * refault's: folio_add_lru() sets it inside such a fault (fault.c), so a
 * khugepaged swap-in or a refault in a VM_SEQ_READ/VM_RAND_READ VMA is
 * not activated (docs/validation.md: until issue 30 the model activated
 * every recent refault).
 */
void aw_lru_gen_refault(struct aw_kernel *k, struct folio *folio, const struct aw_shadow *shadow, bool in_fault)
{
	int type = folio_is_file_lru(folio);
	bool mainline = k->prof->refault_form == AW_REFAULT_MAX_SEQ;
	struct lruvec *lruvec;
	unsigned long seq, d;
	int refs;

	if (shadow->nid >= k->nr_nodes || shadow->memcg >= k->nr_memcgs)
		return;
	lruvec = aw_lruvec(k, shadow->memcg, shadow->nid);
	if (lruvec != aw_lruvec(k, folio->memcg, folio->nid))
		return;
	seq = mainline ? lruvec->lrugen.max_seq : lruvec->lrugen.min_seq[type];
	d = seq > shadow->evict_seq ? seq - shadow->evict_seq : shadow->evict_seq - seq;
	/*
	 * mod_lruvec_state(lruvec, WORKINGSET_REFAULT_BASE + type, delta):
	 * since 6.5 ("Multi-gen LRU: Fix workingset accounting") every
	 * refault of the lruvec's own, before the recency test; 6.1 counts
	 * only a recent one, after it.
	 */
	if (k->prof->refault_counted_first || AW_BUG(k, AW_BUG_REFAULT_COUNTED_BEFORE_TEST))
		count_refault(k, lruvec, type, folio_nr_pages(folio));
	if (mainline ? d >= MAX_NR_GENS : d != 0)
		return;
	/* mainline: refs = token + 1; 6.1/6.12: token + workingset */
	refs = shadow->refs + (mainline ? 1 : shadow->workingset);
	lruvec->lrugen.refaulted[type][lru_tier_from_refs(k, refs, shadow->workingset)] += folio_nr_pages(folio);
	if (!k->prof->refault_counted_first && !AW_BUG(k, AW_BUG_REFAULT_COUNTED_BEFORE_TEST))
		count_refault(k, lruvec, type, folio_nr_pages(folio));
	if (mainline) {
		if (shadow->workingset)
			folio_set(folio, PG_workingset);
		else
			folio->flags = (folio->flags & ~LRU_REFS_MASK) | (refs - 1UL) << LRU_REFS_PGOFF;
		return;
	}
	if (in_fault || refs >= (1 << LRU_REFS_WIDTH) - 1)
		folio->flags |= LRU_REFS_MASK | BIT(PG_workingset);
}

/* mm/swap.c: folio_add_lru() of a new folio: lru_add() -> lru_gen_add_folio() */
void aw_folio_add_lru(struct aw_kernel *k, struct folio *folio, bool in_fault)
{
	(void)in_fault;
	lru_gen_add_folio(aw_lruvec(k, folio->memcg, folio->nid), folio, false);
}
