// SPDX-License-Identifier: GPL-2.0-only
/*
 * khugepaged's collapse of one 2 MiB range (mm/khugepaged.c:
 * collapse_huge_page() and its steps), for khugepaged and MADV_COLLAPSE:
 * the huge folio's allocation and charge, the swap-in of the range's swap
 * PTEs, the isolation of every folio under the PTL with the scan's rules
 * again, the copy, the new PMD mapping, and the putback of what was
 * isolated.  The machine actions are exported (aw_kh_*, khugepaged.h) so
 * that khugepaged's text, bound onto this machine, acts through the same
 * steps (src/kbind/kbind_kh.c).
 */
#include <stdlib.h>

#include "khugepaged_internal.h"

void aw_kh_record_collapse(struct aw_kernel *k, struct mm_struct *mm, const struct vm_area_struct *vma,
			   uint64_t haddr, bool is_khugepaged, int result)
{
	struct aw_khugepaged *kh = &k->kh;
	struct aw_kh_collapse *c;

	if (kh->nr_collapses == kh->cap_collapses) {
		int cap = kh->cap_collapses ? kh->cap_collapses * 2 : 16;
		struct aw_kh_collapse *a = realloc(kh->collapses, (size_t)cap * sizeof(*a));

		if (!a)
			return;
		kh->collapses = a;
		kh->cap_collapses = cap;
	}
	c = &kh->collapses[kh->nr_collapses++];
	c->mm = mm->id;
	c->haddr = haddr;
	c->wakeup = is_khugepaged ? (uint32_t)kh->wakeups : 0;
	c->result = result;
	c->region = vma->region;
}

/*
 * __collapse_huge_page_swapin(): do_swap_page() for every swap PTE of the
 * range.  The model swaps in on the collapse's target node and charges
 * without reclaim (docs/model-notes.md); a failure fails the collapse.
 */
int aw_kh_swapin_pte(struct aw_kernel *k, struct mm_struct *mm, struct vm_area_struct *vma, uint64_t addr,
		     int nid)
{
	pte_t *pte = aw_pte_lookup(k, mm, addr, false, NULL);
	struct aw_swap_slot *s;
	struct folio *folio;
	uint32_t pfn;

	if (!pte || !pte_swp(*pte))
		return SCAN_SUCCEED;
	s = &k->swap[pte_swp_slot(*pte)];
	pfn = aw_folio_alloc(&k->mem, nid, 0);
	if (pfn == AW_NIL)
		return SCAN_FAIL;
	/* no reclaim here: it could unmap this very range or OOM-kill its owner */
	if (aw_memcg_charge_noreclaim(k, mm->memcg, 1)) {
		aw_folio_free(&k->mem, pfn);
		return SCAN_FAIL;
	}
	folio = pfn_folio(&k->mem, pfn);
	folio->memcg = (uint16_t)mm->memcg;
	folio->version = s->version;
	if (s->version)
		folio_clear(folio, PG_zeroed);
	aw_folio_new_anon(folio, vma);
	/*
	 * do_swap_page() outside a fault of the task's (no
	 * lru_gen_enter_fault()): workingset_refault() on the slot's
	 * shadow, then folio_add_lru()
	 */
	{
		struct aw_shadow shadow = aw_swap_shadow(s);

		k->mglru->lru_gen_refault(k, folio, &shadow, false);
	}
	k->mglru->folio_add_lru(k, folio, false);
	aw_rmap_add(&k->mem, folio, mm->id, addr);
	aw_swap_slot_put(k, pte_swp_slot(*pte));
	/* mk_pte(vm_page_prot) is young; a read fault leaves it clean */
	set_pte_at(k, mm, addr, pte, aw_mk_pte(pfn, _PAGE_PRESENT | _PAGE_USER | _PAGE_ACCESSED |
					       (vma->vm_flags & VM_WRITE ? _PAGE_RW : 0)));
	aw_account_map(k, mm, vma, 1);
	k->node_stats[folio->nid].refaults++;
	k->memcg[folio->memcg].stat.pgmajfault++;	/* do_swap_page()'s PGMAJFAULT */
	/* a major fault (the RFC clears the mm's empty marks) */
	aw_mm_event(k, mm, AW_FAULT_MAJOR);
	return SCAN_SUCCEED;
}

/*
 * __collapse_huge_page_swapin(): do_swap_page() for every swap PTE of the
 * range.  The model swaps in on the collapse's target node and charges
 * without reclaim (docs/model-notes.md); a failure fails the collapse.
 */
static int __collapse_huge_page_swapin(struct aw_kernel *k, struct mm_struct *mm,
				       struct vm_area_struct *vma, uint64_t haddr, int nid)
{
	if (AW_BUG(k, AW_BUG_KHUGEPAGED_COPY_PRESENT_ONLY))
		return SCAN_SUCCEED;	/* planted: no swap-in, the copy takes holes for them */
	for (unsigned int i = 0; i < HPAGE_PMD_NR; i++)
		if (aw_kh_swapin_pte(k, mm, vma, haddr + (uint64_t)i * PAGE_SIZE, nid) != SCAN_SUCCEED)
			return SCAN_FAIL;
	return SCAN_SUCCEED;
}

/*
 * The folios a collapse took off the LRU (folio_isolate_lru()), in the
 * kernel's two lists: the small ones by PTE, the large ones (PTE-mapped
 * THPs) in compound_pagelist, each once, in the order first met.
 */
struct kh_isolated {
	uint32_t small[HPAGE_PMD_NR];	/* by PTE index; AW_NIL: none */
	uint32_t compound[HPAGE_PMD_NR];
	int nr_compound;
};

/* folio_isolate_lru(): off its generation (PG_active kept for an active one) */
static void kh_isolate_lru(struct aw_kernel *k, struct folio *folio)
{
	if (!folio_test(folio, PG_lru))
		return;	/* an unevictable folio: on no list the model keeps */
	folio_clear(folio, PG_lru);
	lru_gen_del_folio(aw_lruvec(k, folio->memcg, folio->nid), folio, false);
}

/*
 * folio_putback_lru(): folio_add_lru() outside a fault, then the
 * isolation's reference goes -- the last one for a folio nobody maps.
 */
static void kh_putback_lru(struct aw_kernel *k, struct folio *folio)
{
	if (!folio->mapcount) {
		aw_folio_put(k, folio->pfn);
		return;
	}
	if (!folio_test(folio, PG_unevictable))
		k->mglru->folio_add_lru(k, folio, false);
}

/*
 * release_pte_pages(): a failed isolation puts back the small folios of
 * the PTEs before the one it stopped at, last first, then the large ones.
 * Each lands where folio_add_lru() puts it: a failed collapse moves its
 * folios on the LRU (lru_gen_folio_seq()).
 */
static void release_pte_pages(struct aw_kernel *k, struct kh_isolated *iso, int upto)
{
	while (--upto >= 0)
		if (iso->small[upto] != AW_NIL)
			kh_putback_lru(k, pfn_folio(&k->mem, iso->small[upto]));
	for (int i = 0; i < iso->nr_compound; i++)
		kh_putback_lru(k, pfn_folio(&k->mem, iso->compound[i]));
	iso->nr_compound = 0;
}

/* __collapse_huge_page_isolate(): the scan's rules again, under the PTL, isolating each folio */
static int __collapse_huge_page_isolate(struct aw_kernel *k, struct vm_area_struct *vma,
					const struct aw_ptable *pt, const struct collapse_control *cc,
					struct kh_isolated *iso)
{
	struct aw_khugepaged *kh = &k->kh;
	unsigned int none_or_zero = 0, shared = 0, referenced = 0;
	bool writable = false;
	unsigned int i;
	int result;

	iso->nr_compound = 0;
	for (i = 0; i < HPAGE_PMD_NR; i++)
		iso->small[i] = AW_NIL;
	for (i = 0; i < HPAGE_PMD_NR; i++) {
		pte_t pteval = pt->e[i];
		struct folio *folio;
		bool seen = false;

		if (collapse_pte_is_hole(k, pteval)) {
			++none_or_zero;
			if (!cc->is_khugepaged || none_or_zero <= kh->max_ptes_none)
				continue;
			result = SCAN_EXCEED_NONE_PTE;
			goto out;
		}
		if (!pte_present(pteval)) {
			result = SCAN_PTE_NON_PRESENT;
			goto out;
		}
		folio = pfn_folio(&k->mem, pte_pfn(pteval));
		if (!folio) {
			result = SCAN_PAGE_NULL;
			goto out;
		}
		if (collapse_skip_lazyfree(k, cc, vma, pteval, folio)) {
			kh->lazyfree_skips++;
			result = SCAN_PAGE_LAZYFREE;
			goto out;
		}
		if (folio->mapcount > 1 && ++shared > kh->max_ptes_shared && cc->is_khugepaged) {
			result = SCAN_EXCEED_SHARED_PTE;
			goto out;
		}
		/* a large folio met before is isolated already ("goto next") */
		for (int c = 0; folio_nr_pages(folio) > 1 && c < iso->nr_compound; c++)
			seen |= iso->compound[c] == folio->pfn;
		if (!seen) {
			if (!kh_folio_test_lru(folio)) {
				result = SCAN_DEL_PAGE_LRU;
				goto out;
			}
			kh_isolate_lru(k, folio);
			if (folio_nr_pages(folio) > 1)
				iso->compound[iso->nr_compound++] = folio->pfn;
			else
				iso->small[i] = folio->pfn;
		}
		if (cc->is_khugepaged && (pte_young(pteval) || folio_test(folio, PG_referenced)))
			referenced++;
		if (pte_write(pteval))
			writable = true;
	}
	/* a range with no writable page is not collapsed, for khugepaged or MADV_COLLAPSE */
	if (!writable)
		result = SCAN_PAGE_RO;
	else if (cc->is_khugepaged && !referenced)
		result = SCAN_LACK_REFERENCED_PAGE;
	else
		return SCAN_SUCCEED;
out:
	release_pte_pages(k, iso, (int)i);
	return result;
}

/*
 * __collapse_huge_page_copy() and __collapse_huge_page_copy_succeeded():
 * each subpage takes the contents of its PTE's page (zeroes for a hole);
 * each small folio goes back to the LRU before it loses this mapping (and
 * is freed if that was the last), the large ones after the last PTE.
 * Returns the pages that were resident (counted in RSS) before: neither
 * holes nor zero-page PTEs.
 */
static long __collapse_huge_page_copy(struct aw_kernel *k, struct mm_struct *mm, struct aw_ptable *pt,
				      struct folio *thp, uint64_t haddr, struct kh_isolated *iso)
{
	long resident = 0;

	for (unsigned int i = 0; i < HPAGE_PMD_NR; i++) {
		pte_t pteval = pt->e[i];
		uint64_t addr = haddr + (uint64_t)i * PAGE_SIZE;
		struct folio *src;

		if (collapse_pte_is_hole(k, pteval)) {
			*folio_page_version(thp, i) = 0;	/* clear_user_highpage() */
			/* the zero page was never counted in RSS: it becomes anon memory now */
			if (pte_swp(pteval))
				aw_swap_slot_put(k, pte_swp_slot(pteval));
			pt->e[i] = 0;
			continue;
		}
		src = pfn_folio(&k->mem, pte_pfn(pteval));
		*folio_page_version(thp, i) = src->version;	/* copy_mc_user_highpage() */
		if (src->version)
			folio_clear(thp, PG_zeroed);
		pt->e[i] = 0;
		resident++;
		if (iso->small[i] == src->pfn) {
			/* release_pte_folio(), then the mapping goes and free_page_and_swap_cache() */
			aw_rmap_remove(&k->mem, src, mm->id, addr);
			kh_putback_lru(k, src);
			continue;
		}
		/* a large folio's: its isolation reference keeps it until the list's putback */
		aw_rmap_remove(&k->mem, src, mm->id, addr);
	}
	release_pte_pages(k, iso, 0);
	return resident;
}

/* hpage_collapse_find_target_node(): the first node with the most pages */
static int hpage_collapse_find_target_node(const struct aw_kernel *k, const struct collapse_control *cc)
{
	int target = 0;
	uint32_t max = 0;

	for (int nid = 0; nid < k->nr_nodes; nid++)
		if (cc->node_load[nid] > max) {
			max = cc->node_load[nid];
			target = nid;
		}
	return target;
}

/*
 * alloc_charge_folio(): a PMD folio on the target node, falling back only to
 * nodes with as many pages (cc->alloc_nmask), charged to the mm's memcg
 * without reclaim, like the model's THP faults.
 */
static int alloc_charge_folio(struct aw_kernel *k, struct mm_struct *mm, const struct collapse_control *cc,
			      uint32_t *pfnp)
{
	int target = hpage_collapse_find_target_node(k, cc);
	unsigned long nodemask = 0;
	uint32_t pfn;

	/* the nodes as loaded as the target: hpage_collapse_find_target_node()'s alloc_nmask */
	for (int nid = 0; nid < k->nr_nodes; nid++)
		if (cc->node_load[nid] == cc->node_load[target])
			nodemask |= 1UL << nid;
	pfn = aw_kh_alloc_huge(k, target, nodemask);
	if (pfn == AW_NIL)
		return SCAN_ALLOC_HUGE_PAGE_FAIL;
	if (aw_kh_charge(k, mm, pfn)) {
		aw_folio_free(&k->mem, pfn);
		return SCAN_CGROUP_CHARGE_FAIL;
	}
	*pfnp = pfn;
	return SCAN_SUCCEED;
}

/* __folio_alloc(GFP_TRANSHUGE, HPAGE_PMD_ORDER, node, nodemask): node, then the mask's others */
uint32_t aw_kh_alloc_huge(struct aw_kernel *k, int node, unsigned long nodemask)
{
	uint32_t pfn = node >= 0 && node < k->nr_nodes ? aw_folio_alloc(&k->mem, node, HPAGE_PMD_ORDER) : AW_NIL;

	for (int nid = 0; pfn == AW_NIL && nid < k->nr_nodes; nid++)
		if (nid != node && (nodemask >> nid & 1))
			pfn = aw_folio_alloc(&k->mem, nid, HPAGE_PMD_ORDER);
	return pfn;
}

/* mem_cgroup_charge() of the huge folio to the mm's memcg, without reclaim like the model's THP faults */
int aw_kh_charge(struct aw_kernel *k, struct mm_struct *mm, uint32_t pfn)
{
	if (aw_memcg_charge_noreclaim(k, mm->memcg, HPAGE_PMD_NR))
		return -1;
	pfn_folio(&k->mem, pfn)->memcg = (uint16_t)mm->memcg;
	return 0;
}

/* Install the new THP: set_pmd_at() of a young, dirty PMD; the table goes. */
static void collapse_install(struct aw_kernel *k, struct mm_struct *mm, struct vm_area_struct *vma,
			     pmd_t *pmd, uint32_t pfn, uint64_t haddr, long resident)
{
	/*
	 * pmdp_collapse_flush(); no pgtable_trans_huge_deposit() in the model.
	 * The entry keeps the table's value until set_pmd_at(), so that what
	 * the oracles read off the write is table -> THP, a collapse, not
	 * none -> THP, a huge fault (oracle_fault.c).
	 */
	aw_pgtable_free(k, aw_entry_table(*pmd));
	aw_kh_install_pmd(k, mm, vma, haddr, pfn, resident);
}

void aw_kh_install_pmd(struct aw_kernel *k, struct mm_struct *mm, struct vm_area_struct *vma, uint64_t haddr,
		       uint32_t pfn, long resident)
{
	struct folio *thp = pfn_folio(&k->mem, pfn);
	pmd_t *pmd = aw_pmd_lookup(k, mm, haddr, false, NULL);

	set_pmd_at(k, mm, haddr, pmd, aw_mk_pte(pfn, _PAGE_PRESENT | _PAGE_PSE | _PAGE_USER | _PAGE_ACCESSED |
						_PAGE_DIRTY | (vma->vm_flags & VM_WRITE ? _PAGE_RW : 0)));
	aw_folio_new_anon(thp, vma);
	aw_mlock_new_folio(thp, vma);
	aw_rmap_add(&k->mem, thp, mm->id, haddr);
	/* folio_add_lru_vma() outside a fault: no PG_active */
	lru_gen_add_folio(aw_lruvec(k, thp->memcg, thp->nid), thp, false);
	aw_account_map(k, mm, vma, HPAGE_PMD_NR - resident);
}

/*
 * mm/khugepaged.c: collapse_huge_page().  Returns with the mmap_lock
 * dropped in the kernel, which ends the scan_mm_slot() call.
 */
int collapse_huge_page(struct aw_kernel *k, struct mm_struct *mm, struct vm_area_struct *vma,
			      uint64_t haddr, unsigned int unmapped, const struct collapse_control *cc)
{
	struct kh_isolated iso;
	uint32_t pfn = AW_NIL;
	pmd_t *pmd;
	long resident;
	int result = alloc_charge_folio(k, mm, cc, &pfn);

	if (result != SCAN_SUCCEED)
		goto out;
	trace_mm_collapse_huge_page_begin(k, mm, vma, haddr, cc->is_khugepaged);
	if (unmapped)
		result = __collapse_huge_page_swapin(k, mm, vma, haddr, pfn_folio(&k->mem, pfn)->nid);
	if (result == SCAN_SUCCEED)
		result = find_pmd_or_thp_or_none(k, mm, haddr, &pmd);
	if (result == SCAN_SUCCEED) {
		aw_table_written(&k->pt, aw_entry_table(*pmd));	/* the copy below clears its PTEs */
		result = __collapse_huge_page_isolate(k, vma, aw_table(&k->pt, aw_entry_table(*pmd)), cc, &iso);
	}
	if (result != SCAN_SUCCEED) {
		struct folio *thp = pfn_folio(&k->mem, pfn);

		aw_memcg_uncharge(k, thp->memcg, HPAGE_PMD_NR);
		aw_folio_free(&k->mem, pfn);
		trace_mm_collapse_huge_page(k, mm, haddr, result);
		goto out;
	}
	resident = __collapse_huge_page_copy(k, mm, aw_table(&k->pt, aw_entry_table(*pmd)),
					     pfn_folio(&k->mem, pfn), haddr, &iso);
	collapse_install(k, mm, vma, pmd, pfn, haddr, resident);
	trace_mm_collapse_huge_page(k, mm, haddr, result);
	aw_mm_event(k, mm, AW_FAULT_COLLAPSED);
out:
	aw_kh_record_collapse(k, mm, vma, haddr, cc->is_khugepaged, result);
	return result;
}
