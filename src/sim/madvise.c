// SPDX-License-Identifier: GPL-2.0-only
/*
 * madvise() advice that changes what aging and eviction see (mm/madvise.c):
 * MADV_DONTNEED (zap, keep tables), MADV_FREE (lazyfree), MADV_COLD
 * (deactivate), MADV_PAGEOUT (reclaim ignoring references), and the
 * hugepage flags.  Only exclusively mapped folios are touched by FREE, COLD
 * and PAGEOUT, as the kernel skips folios that may be mapped shared.
 */
#include "kernel.h"
#include "pagewalk.h"

/* mm/swap.c: lru_lazyfree(): anon folio becomes lazyfree, file type */
static void mark_lazyfree(struct aw_kernel *k, uint32_t pfn)
{
	struct folio *folio = pfn_folio(&k->mem, pfn);
	struct lruvec *lruvec = aw_lruvec(k, folio->memcg, folio->nid);
	bool on_lru = folio_lru_gen(folio) >= 0;

	if (!folio_test(folio, PG_anon) || !folio_test(folio, PG_swapbacked))
		return;
	if (on_lru)
		lru_gen_del_folio(lruvec, folio, false);
	folio_clear(folio, PG_active);
	folio_clear(folio, PG_referenced);
	folio_clear(folio, PG_swapbacked);
	folio_clear(folio, PG_dirty);
	if (on_lru)
		lru_gen_add_folio(lruvec, folio, false);
}

/* mm/swap.c: lru_deactivate() under MGLRU: re-placed by lru_gen_folio_seq() */
static void deactivate(struct aw_kernel *k, uint32_t pfn)
{
	struct folio *folio = pfn_folio(&k->mem, pfn);
	struct lruvec *lruvec = aw_lruvec(k, folio->memcg, folio->nid);

	if (folio_lru_gen(folio) < 0 || folio_test(folio, PG_unevictable))
		return;
	lru_gen_del_folio(lruvec, folio, false);
	folio_clear(folio, PG_active);
	folio_clear(folio, PG_referenced);
	lru_gen_add_folio(lruvec, folio, false);
}

static void advise_folio(struct aw_kernel *k, uint64_t *entry, bool pmd_leaf, int advice)
{
	uint64_t pfn = pmd_leaf ? pmd_pfn(*entry) : pte_pfn(*entry);
	struct folio *folio;

	if (is_zero_pfn(pfn) || pfn == HUGE_ZERO_PFN)
		return;
	folio = pfn_folio(&k->mem, pfn);
	if (!folio || folio->mapcount != 1)
		return;
	switch (advice) {
	case AW_MADV_FREE:
		*entry &= ~(_PAGE_ACCESSED | _PAGE_DIRTY);
		mark_lazyfree(k, (uint32_t)pfn);
		break;
	case AW_MADV_COLD:
		*entry &= ~_PAGE_ACCESSED;
		deactivate(k, (uint32_t)pfn);
		break;
	case AW_MADV_PAGEOUT:
		*entry &= ~_PAGE_ACCESSED;
		aw_pageout_folio(k, (uint32_t)pfn);
		break;
	}
}

/*
 * madvise_free_pte_range / madvise_cold_or_pageout_pte_range, as the
 * pmd_entry and pte_entry of one walk (walk->private: the advice).  A THP
 * the range covers whole is advised as one folio.  One it covers in part
 * is split, folio and all (split_folio(), which on 6.12+ also maps its
 * zero-filled subpages to the zero page), and advised page by page --
 * unless it is the huge zero page or mapped by another mm too
 * (folio_likely_mapped_shared(); 6.1: folio_mapcount() != 1): then the
 * kernel leaves the PMD alone and the range under it gets no advice
 * (madvise_free_huge_pmd() returns false and pte_offset_map_lock() finds
 * no PTE table).
 */
static int advise_pmd(pmd_t *pmd, uint64_t addr, uint64_t next, struct mm_walk *walk)
{
	if (!pmd_trans_huge(*pmd))
		return 0;
	walk->action = ACTION_CONTINUE;
	if (!(addr & ~PMD_MASK) && next - addr == PMD_SIZE) {
		advise_folio(walk->k, pmd, true, *(const int *)walk->private);
		return 0;
	}
	if (is_huge_zero_pmd(*pmd) || pfn_folio(&walk->k->mem, pmd_pfn(*pmd))->mapcount != 1)
		return 0;
	aw_split_huge_page(walk->k, walk->mm, addr & PMD_MASK);
	walk->action = ACTION_SUBTREE;
	return 0;
}

static int advise_pte(pte_t *pte, uint64_t addr, uint64_t next, struct mm_walk *walk)
{
	int advice = *(const int *)walk->private;

	if (pte_present(*pte))
		advise_folio(walk->k, pte, false, advice);
	else if (advice == AW_MADV_FREE && pte_swp(*pte))
		aw_zap_range(walk->k, walk->mm, addr, next);	/* free_swap_and_cache() */
	return 0;
}

static const struct mm_walk_ops advise_walk_ops = {
	.pmd_entry = advise_pmd,
	.pte_entry = advise_pte,
	.skip_pte_none = true,
};

/*
 * mm/madvise.c: madvise_walk_vmas() for MADV_COLLAPSE: madvise_collapse()
 * once per VMA the range meets, clipped to it, in address order; the
 * first call that fails ends the walk with its error, and a hole in the
 * range is -ENOMEM once every VMA was visited.  (madvise_collapse()
 * dropping the mmap_lock changes nothing here: no VMA moves meanwhile.)
 */
static int madvise_collapse_walk(struct aw_kernel *k, struct mm_struct *mm, uint64_t start, uint64_t end)
{
	int unmapped = 0;

	for (int i = aw_vma_index(mm, start); start < end; i++) {
		struct vm_area_struct *vma = i < mm->nr_vmas ? &mm->vmas[i] : NULL;
		uint64_t tmp;

		if (!vma)
			return -1;	/* -ENOMEM */
		if (start < vma->vm_start) {
			unmapped = -1;
			start = vma->vm_start;
			if (start >= end)
				break;
		}
		tmp = end < vma->vm_end ? end : vma->vm_end;
		if (madvise_collapse(k, mm, start, tmp))
			return -1;
		start = tmp;
	}
	return unmapped;
}

int aw_madvise(struct aw_kernel *k, struct mm_struct *mm, uint64_t start, uint64_t len, int advice)
{
	uint64_t end = start + len;

	switch (advice) {
	case AW_MADV_DONTNEED:
		aw_zap_range(k, mm, start, end);
		return 0;
	case AW_MADV_FREE:
	case AW_MADV_COLD:
	case AW_MADV_PAGEOUT:
		for (int i = aw_vma_index(mm, start); i < mm->nr_vmas && mm->vmas[i].vm_start < end; i++) {
			struct vm_area_struct *vma = &mm->vmas[i];
			uint64_t s = start > vma->vm_start ? start : vma->vm_start;
			uint64_t e = end < vma->vm_end ? end : vma->vm_end;

			if (vma->vm_flags & (VM_LOCKED | VM_SPECIAL))
				continue;
			if (advice == AW_MADV_FREE && vma->file)
				continue;	/* MADV_FREE is for private anonymous memory */
			walk_page_range(k, mm, s, e, &advise_walk_ops, &advice);
		}
		return 0;
	case AW_MADV_HUGEPAGE:
	case AW_MADV_NOHUGEPAGE:
		return aw_madvise_flags(k, mm, start, end, advice);
	case AW_MADV_COLLAPSE:
		return madvise_collapse_walk(k, mm, start, end);
	default:
		return -1;
	}
}
