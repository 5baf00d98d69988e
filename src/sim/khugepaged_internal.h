/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What khugepaged.c (the mm slots, the cursor and the scan) and
 * khugepaged_collapse.c (the collapse of one range) share: the per-PTE
 * rules both the scan and the isolation apply, and the collapse itself.
 * Not for the rest of the model: khugepaged.h is the module's contract.
 */
#ifndef AW_KHUGEPAGED_INTERNAL_H
#define AW_KHUGEPAGED_INTERNAL_H

#include "kernel.h"

/* mm/khugepaged.c: find_pmd_or_thp_or_none() + check_pmd_state() */
static inline int find_pmd_or_thp_or_none(struct aw_kernel *k, struct mm_struct *mm, uint64_t addr, pmd_t **pmdp)
{
	pmd_t *pmd = aw_pmd_lookup(k, mm, addr, false, NULL);

	*pmdp = pmd;
	if (!pmd || !pmd_present(*pmd))
		return SCAN_NO_PTE_TABLE;
	if (pmd_trans_huge(*pmd))	/* the huge zero page too */
		return SCAN_PMD_MAPPED;
	return SCAN_SUCCEED;
}

/*
 * P3/P4: the one lazyfree test, shared by the scan and the isolation as in
 * the patch: khugepaged skips a clean PTE of a lazyfree folio.  v8 exempts
 * VM_DROPPABLE, whose folios are lazyfree from birth.
 */
static inline bool collapse_skip_lazyfree(struct aw_kernel *k, const struct collapse_control *cc,
				   const struct vm_area_struct *vma, pte_t pteval, const struct folio *folio)
{
	bool dirty = pte_dirty(pteval);

	/* the planted bug: MADV_COLLAPSE skips lazyfree folios too */
	if (!aw_kh_patched(k) || (!cc->is_khugepaged && !AW_BUG(k, AW_BUG_KHUGEPAGED_MADV_LAZYFREE)))
		return false;
	if ((k->features & AW_FEAT_KHUGEPAGED_V8) && (vma->vm_flags & VM_DROPPABLE))
		return false;
	if (AW_BUG(k, AW_BUG_KHUGEPAGED_COLLAPSE_LAZYFREE))
		dirty = !dirty;	/* planted: the dirty test reads the wrong way round */
	return !dirty && folio_test_lazyfree(folio);
}

/* folio_test_lru(): unevictable (mlocked) folios sit on the unevictable list */
static inline bool kh_folio_test_lru(const struct folio *folio)
{
	return folio_test(folio, PG_lru) || folio_test(folio, PG_unevictable);
}

/* A PTE the copy fills with zeroes: none or the zero page (and, with the
 * planted bug, a swap entry the skipped swap-in left behind). */
static inline bool collapse_pte_is_hole(const struct aw_kernel *k, pte_t pteval)
{
	if (pte_none(pteval) || (pte_present(pteval) && is_zero_pfn(pte_pfn(pteval))))
		return true;
	return AW_BUG(k, AW_BUG_KHUGEPAGED_COPY_PRESENT_ONLY) && pte_swp(pteval);
}

/*
 * mm/khugepaged.c: collapse_huge_page().  Returns with the mmap_lock
 * dropped in the kernel, which ends the scan_mm_slot() call.
 */
int collapse_huge_page(struct aw_kernel *k, struct mm_struct *mm, struct vm_area_struct *vma,
		       uint64_t haddr, unsigned int unmapped, const struct collapse_control *cc);

#endif /* AW_KHUGEPAGED_INTERNAL_H */
