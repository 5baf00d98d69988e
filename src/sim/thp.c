// SPDX-License-Identifier: GPL-2.0-only
/*
 * Splitting a PMD-mapped THP (mm/huge_memory.c: __split_huge_pmd_locked,
 * split_folio).
 *
 * The kernel splits the PMD mapping at once and the folio later (deferred
 * split).  The model splits both at once, so that every folio is either
 * order 0 or PMD-mapped and the walk never meets a PTE-mapped large folio
 * (docs/model-notes.md).  Every PMD mapping of the folio, in every mm,
 * becomes a PTE table first, with the PMD's young and dirty bits copied to
 * each PTE as __split_huge_pmd_locked() does.
 *
 * Where the kernel splits the folio itself at once (split_folio() from
 * madvise's partial FREE, COLD and PAGEOUT), aw_split_huge_page() adds what
 * 6.12 and mainline do on that path: zero-filled subpages of an anonymous
 * THP are mapped to the shared zero page and freed.
 */
#include "kernel.h"

static void pmd_to_pte_table(struct aw_kernel *k, struct mm_struct *mm, uint64_t haddr)
{
	pmd_t *pmd = aw_pmd_lookup(k, mm, haddr, false, NULL);
	pmd_t val;
	uint32_t id;
	struct aw_ptable *pt;
	uint64_t flags;

	if (!pmd || !pmd_trans_huge(*pmd))
		return;
	val = *pmd;
	id = aw_table_alloc(&k->pt);
	if (!id)
		return;
	pt = aw_table(&k->pt, id);
	flags = val & (_PAGE_PRESENT | _PAGE_USER | _PAGE_RW | _PAGE_ACCESSED | _PAGE_DIRTY);
	for (int i = 0; i < PTRS_PER_PTE; i++)
		pt->e[i] = is_huge_zero_pmd(val) ?
			aw_mk_pte(ZERO_PFN, _PAGE_PRESENT | _PAGE_USER | (val & _PAGE_ACCESSED)) :
			aw_mk_pte(pmd_pfn(val) + i, flags);
	/* the new table's entry keeps the PMD's accessed bit (it was walked) */
	*pmd = aw_mk_table_entry(id) | (val & _PAGE_ACCESSED);
}

void aw_split_huge_pmd(struct aw_kernel *k, struct mm_struct *mm, uint64_t haddr)
{
	pmd_t *pmd = aw_pmd_lookup(k, mm, haddr, false, NULL);
	struct folio *head;
	uint32_t pfn, idx = 0, rmm;
	uint64_t raddr;
	uint32_t mms[64];
	uint64_t addrs[64];
	int n = 0;

	if (!pmd || !pmd_trans_huge(*pmd))
		return;
	if (is_huge_zero_pmd(*pmd)) {
		pmd_to_pte_table(k, mm, haddr);
		return;
	}
	pfn = (uint32_t)pmd_pfn(*pmd);
	head = pfn_folio(&k->mem, pfn);

	/* every mapping of the folio becomes PTE-mapped */
	while (n < 64 && aw_rmap_next(&k->mem, head, &idx, &rmm, &raddr)) {
		mms[n] = rmm;
		addrs[n++] = raddr;
	}
	for (int m = 0; m < n; m++)
		pmd_to_pte_table(k, aw_mm(k, mms[m]), addrs[m]);

	/*
	 * then the folio: 512 order-0 folios, tails right after the head.
	 * The kernel's lru_add_page_tail() (6.12; lru_add_split_folio() later)
	 * puts each tail before the head, list_add_tail(&tail->lru,
	 * &folio->lru), in descending order, so reclaim meets the head first
	 * and then tails 1, 2, ...; the model puts them after it, so reclaim
	 * meets tail 511 first and the head last (docs/model-notes.md).
	 */
	{
		bool on_list = !list_empty(&head->lru);

		for (int m = 0; m < n; m++)
			aw_rmap_remove(&k->mem, head, mms[m], addrs[m]);
		head->mapcount = 0;
		aw_folio_split_structs(&k->mem, pfn);
		for (int i = HPAGE_PMD_NR - 1; i >= 1 && on_list; i--)
			list_add(&pfn_folio(&k->mem, pfn + i)->lru, &head->lru);
		for (int i = 0; i < HPAGE_PMD_NR; i++) {
			struct folio *f = pfn_folio(&k->mem, pfn + i);

			for (int m = 0; m < n; m++)
				aw_rmap_add(&k->mem, f, mms[m], addrs[m] + (uint64_t)i * PAGE_SIZE);
		}
	}
}

/*
 * mm/migrate.c: try_to_map_unused_to_zeropage(), for every mapping of the
 * order-0 folio at pfn that the split left: a page still zero-filled
 * (content version 0, so pages_identical() with ZERO_PAGE(0)) is mapped to
 * the zero page instead, unless the folio is mlocked or the VMA VM_LOCKED.
 * The kernel does it while remove_migration_pte() restores the mappings
 * that unmap_folio() took; the folio, mapped by nobody then, is freed by
 * free_page_and_swap_cache() at the end of __split_huge_page().
 */
static void map_unused_to_zeropage(struct aw_kernel *k, uint32_t pfn)
{
	struct folio *f = pfn_folio(&k->mem, pfn);
	uint32_t idx = 0, rmm, mms[64];
	uint64_t raddr, addrs[64];
	int n = 0;

	if (!f || f->version || folio_test(f, PG_mlocked))
		return;
	while (n < 64 && aw_rmap_next(&k->mem, f, &idx, &rmm, &raddr)) {
		mms[n] = rmm;
		addrs[n++] = raddr;
	}
	for (int m = 0; m < n; m++) {
		struct mm_struct *mm = aw_mm(k, mms[m]);
		struct vm_area_struct *vma = find_vma(mm, addrs[m]);
		pte_t *pte = aw_pte_lookup(k, mm, addrs[m], false, NULL);

		if (!vma || addrs[m] < vma->vm_start || (vma->vm_flags & VM_LOCKED))
			continue;
		if (!pte || !pte_present(*pte) || pte_pfn(*pte) != pfn)
			continue;
		/* pfn_pte(my_zero_pfn(), vm_page_prot): x86's protections carry _PAGE_ACCESSED */
		*pte = aw_mk_pte(ZERO_PFN, _PAGE_PRESENT | _PAGE_USER | _PAGE_ACCESSED);
		aw_account_map(k, mm, vma, -1);		/* dec_mm_counter() */
		if (aw_rmap_remove(&k->mem, f, mms[m], addrs[m]) && !f->mapcount) {
			aw_folio_put(k, pfn);
			return;
		}
	}
}

/*
 * mm/huge_memory.c: split_folio() of a PMD-mapped THP, as
 * madvise_cold_or_pageout_pte_range() and madvise_free_huge_pmd() call it
 * for a range that covers the THP in part.  6.12 and mainline pass
 * RMP_USE_SHARED_ZEROPAGE to remap_page() for an anonymous folio
 * (__split_huge_page(), since 6.12's "map zero-filled pages to zeropage
 * upon splitting THP"); 6.1 keeps every subpage.
 */
void aw_split_huge_page(struct aw_kernel *k, struct mm_struct *mm, uint64_t haddr)
{
	pmd_t *pmd = aw_pmd_lookup(k, mm, haddr, false, NULL);
	uint32_t pfn;
	bool anon;

	if (!pmd || !pmd_trans_huge(*pmd) || is_huge_zero_pmd(*pmd))
		return;
	pfn = (uint32_t)pmd_pfn(*pmd);
	anon = folio_test_anon(pfn_folio(&k->mem, pfn));
	aw_split_huge_pmd(k, mm, haddr);
	if (!k->prof->split_maps_zero_page || !anon)
		return;
	for (int i = 0; i < HPAGE_PMD_NR; i++)
		map_unused_to_zeropage(k, pfn + (uint32_t)i);
}
