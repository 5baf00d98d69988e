/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * shrink_folio_list()'s reference check as kernel text (a fragment
 * ktext_glue.inc.c includes after the tree's text; issue 30): the tree's
 * own folio_check_references() on the host's isolated folio, its verdict
 * and its PG_referenced writes.  What it asks of mm/rmap.c --
 * folio_referenced(), the reverse-map walk over the page tables -- is the
 * host's (a machine action); for a PTE mapping the host calls back into
 * the text's lru_gen_look_around() (aw_bound_look_around()), so the young
 * bits cleared and the neighbours promoted are the text's too.
 */

/*
 * mm/rmap.c: folio_referenced(), on the host's machine.  is_locked: the
 * reclaim path holds the folio lock (a trylock the host never fails).
 */
static int folio_referenced(struct folio *folio, int is_locked, struct mem_cgroup *memcg, unsigned long *vm_flags)
{
	const struct aw_ktext_host *h = aw_ktext_current()->host;

	*vm_flags = 0;
	if (!h || !h->folio_referenced)
		return 0;
	return h->folio_referenced(h->ctx, folio, memcg ? memcg->id : -1, vm_flags);
}

/* mm/vmscan.c: folio_check_references() of an isolated folio, for cgroup reclaim of target_memcg */
static int aw_bound_check_references(struct aw_ktext *kt, struct folio *folio, int target_memcg)
{
	struct scan_control sc = {
		.target_mem_cgroup = target_memcg >= 0 && target_memcg < kt->nr_memcgs ? kt->memcg[target_memcg] : NULL,
	};
	enum folio_references ref;
	int ret;

	AW_BOUND_ENTER(kt);
	AW_RAN(kt, REFERENCE_CHECKS, 1);
	ref = folio_check_references(folio, &sc);
	AW_BOUND_LEAVE(kt);
	/* by name: a tree that reorders the enum still reads right */
	switch (ref) {
	case FOLIOREF_RECLAIM:
		ret = AW_KTEXT_FOLIOREF_RECLAIM;
		break;
	case FOLIOREF_RECLAIM_CLEAN:
		ret = AW_KTEXT_FOLIOREF_RECLAIM_CLEAN;
		break;
	case FOLIOREF_KEEP:
		ret = AW_KTEXT_FOLIOREF_KEEP;
		break;
	case FOLIOREF_ACTIVATE:
		ret = AW_KTEXT_FOLIOREF_ACTIVATE;
		break;
	default:
		ret = -1;
		break;
	}
	return ret;
}
