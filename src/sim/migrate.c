// SPDX-License-Identifier: GPL-2.0-only
/*
 * Migration of mapped folios to another node (mm/migrate.c:
 * migrate_folio_move, folio_migrate_flags, remove_migration_ptes).
 * The new folio gets the old one's flags, memcg and contents; every PTE or
 * PMD that mapped the old folio maps the new one with its young and dirty
 * bits restored from the migration entry.
 */

#include "kernel.h"
#include "pagewalk.h"

static void remap(struct aw_kernel *k, struct folio *nf, uint64_t old_pfn, uint64_t new_pfn)
{
	uint32_t idx = 0, mm_id;
	uint64_t addr;

	while (aw_rmap_next(&k->mem, nf, &idx, &mm_id, &addr)) {
		struct mm_struct *mm = aw_mm(k, mm_id);
		pmd_t *pmd = mm ? aw_pmd_lookup(k, mm, addr, false, NULL) : NULL;
		pte_t *pte;

		if (!pmd)
			continue;
		if (pmd_trans_huge(*pmd) && pmd_pfn(*pmd) == old_pfn) {
			*pmd = (*pmd & ~PTE_PFN_MASK) | (new_pfn << PAGE_SHIFT);
			continue;
		}
		pte = aw_pte_lookup(k, mm, addr, false, NULL);
		if (pte && pte_present(*pte) && pte_pfn(*pte) == old_pfn)
			*pte = (*pte & ~PTE_PFN_MASK) | (new_pfn << PAGE_SHIFT);
	}
}

static int migrate_folio(struct aw_kernel *k, uint32_t pfn, int node)
{
	struct folio *of = pfn_folio(&k->mem, pfn), *nf;
	bool on_lru = folio_lru_gen(of) >= 0;
	uint32_t npfn;

	if (of->nid == node)
		return 0;
	npfn = aw_folio_alloc(&k->mem, node, of->order);
	if (npfn == AW_NIL)
		return -1;
	of = pfn_folio(&k->mem, pfn);
	nf = pfn_folio(&k->mem, npfn);
	/* lru_gen_del_folio(reclaiming=false) keeps "active" in PG_active */
	if (on_lru)
		lru_gen_del_folio(aw_lruvec(k, of->memcg, of->nid), of, false);
	{
		uint8_t nid = nf->nid;

		*nf = *of;	/* folio_migrate_flags(), mem_cgroup_migrate(), the rmap */
		nf->nid = nid;
		nf->pfn = npfn;
		INIT_LIST_HEAD(&nf->lru);
		/* folio_copy(): a THP's subpages too */
		for (unsigned int i = 1; i < folio_nr_pages(of); i++)
			*folio_page_version(nf, i) = *folio_page_version(of, i);
		of->rmap_mm = 0;
		of->rmap_more = AW_NIL;
		of->mapcount = 0;
	}
	remap(k, nf, pfn, npfn);
	trace_aw_folio_migrated(k, nf);
	/* every mm the folio is mapped in (the RFC's contract may clear their marks) */
	{
		uint32_t idx = 0, mm_id;
		uint64_t addr;

		while (aw_rmap_next(&k->mem, nf, &idx, &mm_id, &addr)) {
			struct mm_struct *mm = aw_mm(k, mm_id);

			if (mm)
				aw_mm_event(k, mm, AW_FAULT_MIGRATED);
		}
	}
	if (on_lru)
		lru_gen_add_folio(aw_lruvec(k, nf->memcg, nf->nid), nf, false);
	aw_folio_free(&k->mem, pfn);
	return 1;
}

/* What the migration walk carries: the target node, folios moved so far */
struct aw_migrate_walk {
	int node;
	int moved;
};

/* queue_folios_pmd(): a THP moves whole, the huge zero page stays */
static int migrate_pmd(pmd_t *pmd, uint64_t addr, uint64_t next, struct mm_walk *walk)
{
	struct aw_migrate_walk *mw = walk->private;

	if (!pmd_trans_huge(*pmd))
		return 0;
	walk->action = ACTION_CONTINUE;
	if (!is_huge_zero_pmd(*pmd) && migrate_folio(walk->k, (uint32_t)pmd_pfn(*pmd), mw->node) > 0)
		mw->moved++;
	return 0;
}

static int migrate_pte(pte_t *pte, uint64_t addr, uint64_t next, struct mm_walk *walk)
{
	struct aw_migrate_walk *mw = walk->private;

	if (pte_present(*pte) && !is_zero_pfn(pte_pfn(*pte)) &&
	    migrate_folio(walk->k, (uint32_t)pte_pfn(*pte), mw->node) > 0)
		mw->moved++;
	return 0;
}

static const struct mm_walk_ops migrate_walk_ops = {
	.pmd_entry = migrate_pmd,
	.pte_entry = migrate_pte,
	.skip_pte_none = true,
};

/* move_pages()/mbind(MPOL_MF_MOVE) of a range: each mapped folio once */
int aw_migrate_range(struct aw_kernel *k, struct mm_struct *mm, uint64_t start, uint64_t len, int node)
{
	struct aw_migrate_walk mw = { .node = node };

	walk_page_range(k, mm, start & ~(PAGE_SIZE - 1), start + len, &migrate_walk_ops, &mw);
	return mw.moved;
}
