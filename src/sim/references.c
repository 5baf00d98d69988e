// SPDX-License-Identifier: GPL-2.0-only
/*
 * shrink_folio_list()'s reference check, split where the kernel splits it:
 *
 *   folio_referenced()		mm/rmap.c: the reverse-map walk over the
 *				page tables -- the machine's, on both sides
 *				of a kernel-text pair; for a PTE mapping it
 *				calls the variant's lru_gen_look_around()
 *				through the seam
 *   folio_check_references()	mm/vmscan.c: the verdict -- the variant's,
 *				behind the seam (the model's rule here, or a
 *				tree's own text, src/ktext)
 *
 * Each verdict is logged (struct aw_refs_log) by the seam's caller for
 * whichever implementation ran, with what the machine saw: the mappings
 * the walk found young (and cleared) and the folio's flags after it, so
 * that the kernel-text agreement oracle compares them check by check.
 */
#include "kernel.h"

/*
 * mm/rmap.c: folio_referenced() with rmap_walk() and
 * folio_referenced_one(), on the machine's reverse map: how many mappings
 * were young (each cleared), -1 to keep the folio (the sole mapping of a
 * swap-backed folio by an exiting mm), and in *vm_flags VM_LOCKED if a
 * VM_LOCKED VMA maps it (the walk stops there) or the flags of every VMA
 * whose mapping was young (pra->vm_flags).
 */
int aw_folio_referenced(struct aw_kernel *k, struct folio *folio, struct lru_gen_mm_walk *walk, int target_memcg,
			unsigned long *vm_flags)
{
	uint32_t idx = 0, mm_id;
	uint64_t addr;
	int referenced = 0;

	*vm_flags = 0;
	k->refs_log.young = 0;
	if (!folio->mapcount)
		return 0;
	while (aw_rmap_next(&k->mem, folio, &idx, &mm_id, &addr)) {
		struct mm_struct *mm = aw_mm(k, mm_id);
		struct vm_area_struct *vma;
		bool young = false;

		if (!mm)
			continue;
		/* invalid_folio_referenced_vma(): cgroup reclaim looks at its own mms */
		if (target_memcg >= 0 && mm->memcg != target_memcg)
			continue;
		vma = find_vma(mm, addr);
		if (!vma || addr < vma->vm_start)
			continue;
		/* invalid_folio_referenced_vma(): !vma_has_recency() (6.12, mainline) */
		if (k->prof->referenced_skips_no_recency && (vma->vm_flags & (VM_SEQ_READ | VM_RAND_READ)))
			continue;
		if (vma->vm_flags & VM_LOCKED) {
			*vm_flags |= VM_LOCKED;
			break;
		}
		/*
		 * 6.12: the sole mapping of a swap-backed folio by an exiting
		 * mm is skipped; 6.1 has no such test, but no reclaim meets
		 * such a mapping here: an mm's teardown unmaps everything in
		 * the event that starts it (mmops.c's mm_teardown())
		 */
		if (mm->exiting && folio_test(folio, PG_anon) && folio_test(folio, PG_swapbacked) &&
		    folio->mapcount == 1)
			return -1;
		if (folio_test_large(folio)) {
			/* PMD-mapped: pmdp_clear_flush_young_notify(); no look-around */
			pmd_t *pmd = aw_pmd_lookup(k, mm, addr, false, NULL);

			if (pmd && pmd_trans_huge(*pmd) && pmd_young(*pmd) &&
			    !AW_BUG(k, AW_BUG_EVICT_IGNORE_PMD_YOUNG)) {
				*pmd &= ~_PAGE_ACCESSED;
				young = true;
			}
		} else {
			young = k->mglru->lru_gen_look_around(k, walk, mm, vma, addr, folio->pfn);
		}
		if (young) {
			referenced++;
			*vm_flags |= vma->vm_flags & ~VM_LOCKED;
		}
	}
	k->refs_log.young = referenced;
	return referenced;
}

/*
 * mm/vmscan.c: folio_check_references(), the model's.  6.1/6.12 take the
 * classic rule for MGLRU too; mainline (6.14, "mm/mglru: rework
 * workingset protection") MGLRU's own (lru_gen_set_refs()).
 */
enum folio_references aw_folio_check_references(struct aw_kernel *k, struct folio *folio,
						 struct lru_gen_mm_walk *walk, int target_memcg)
{
	unsigned long vm_flags;
	int referenced_ptes = aw_folio_referenced(k, folio, walk, target_memcg, &vm_flags);
	bool referenced_folio = false;

	if (k->prof->check_references_classic) {
		/* folio_test_clear_referenced(), before any test */
		referenced_folio = folio_test(folio, PG_referenced);
		folio_clear(folio, PG_referenced);
	}
	/* found in a VM_LOCKED VMA: to the unevictable list */
	if (vm_flags & VM_LOCKED)
		return FOLIOREF_ACTIVATE;
	if (referenced_ptes == -1)
		return FOLIOREF_KEEP;
	if (!k->prof->check_references_classic) {
		if (!referenced_ptes)
			return FOLIOREF_RECLAIM;
		return lru_gen_set_refs(folio) ? FOLIOREF_ACTIVATE : FOLIOREF_KEEP;
	}
	if (referenced_ptes) {
		/* keep it once; activate it if referenced before or by several mappings */
		folio_set(folio, PG_referenced);
		if (referenced_folio || referenced_ptes > 1 ||
		    (AW_BUG(k, AW_BUG_CHECK_REFS_PTES_GE) && referenced_ptes >= 1))
			return FOLIOREF_ACTIVATE;
		/* file-backed executable folios are activated after their first use */
		if ((vm_flags & VM_EXEC) && folio_is_file_lru(folio))
			return FOLIOREF_ACTIVATE;
		return FOLIOREF_KEEP;
	}
	/* reclaim if clean, defer dirty folios to writeback */
	if (referenced_folio && folio_is_file_lru(folio))
		return FOLIOREF_RECLAIM_CLEAN;
	return FOLIOREF_RECLAIM;
}

/* The log the agreement oracle reads (struct aw_refs_log): one check, as the machine saw it */
void aw_refs_log_add(struct aw_kernel *k, const struct folio *folio, enum folio_references ref)
{
	struct aw_refs_log *log = &k->refs_log;

	log->checks[log->total++ % AW_REFS_LOG] = (struct aw_refs_check){
		.pfn = folio->pfn, .ref = ref, .young = log->young, .flags = folio->flags };
	log->by_ref[ref]++;
}
