// SPDX-License-Identifier: GPL-2.0-only
/*
 * khugepaged and MADV_COLLAPSE (mm/khugepaged.c), base and patched by the
 * third seed (docs/khugepaged-plan.md; the seed's text wins where they differ).
 *
 * The model is sequential: khugepaged runs only when an event wakes it, and
 * nothing else runs while it holds the mmap_lock, so the kernel's
 * revalidations after dropping and retaking locks always succeed here.
 * What remains is the order of the list, the cursor, the budget, the
 * per-PTE rules and the collapse itself, which is what the series changes.
 */
#include <stdlib.h>
#include <string.h>

#include "kernel.h"

static const char *const scan_result_names[SCAN_NR] = {
	[SCAN_FAIL] = "fail",
	[SCAN_SUCCEED] = "succeed",
	[SCAN_NO_PTE_TABLE] = "no_pte_table",
	[SCAN_PMD_MAPPED] = "pmd_mapped",
	[SCAN_EXCEED_NONE_PTE] = "exceed_none_pte",
	[SCAN_EXCEED_SWAP_PTE] = "exceed_swap_pte",
	[SCAN_EXCEED_SHARED_PTE] = "exceed_shared_pte",
	[SCAN_PTE_NON_PRESENT] = "pte_non_present",
	[SCAN_PTE_UFFD_WP] = "pte_uffd_wp",
	[SCAN_PTE_MAPPED_HUGEPAGE] = "pte_mapped_hugepage",
	[SCAN_PAGE_RO] = "page_ro",
	[SCAN_LACK_REFERENCED_PAGE] = "lack_referenced_page",
	[SCAN_PAGE_NULL] = "page_null",
	[SCAN_SCAN_ABORT] = "scan_abort",
	[SCAN_PAGE_COUNT] = "page_count",
	[SCAN_PAGE_LRU] = "page_lru",
	[SCAN_PAGE_LOCK] = "page_lock",
	[SCAN_PAGE_ANON] = "page_anon",
	[SCAN_PAGE_LAZYFREE] = "page_lazyfree",
	[SCAN_PAGE_COMPOUND] = "page_compound",
	[SCAN_ANY_PROCESS] = "any_process",
	[SCAN_VMA_NULL] = "vma_null",
	[SCAN_VMA_CHECK] = "vma_check",
	[SCAN_ADDRESS_RANGE] = "address_range",
	[SCAN_DEL_PAGE_LRU] = "del_page_lru",
	[SCAN_ALLOC_HUGE_PAGE_FAIL] = "alloc_huge_page_fail",
	[SCAN_CGROUP_CHARGE_FAIL] = "cgroup_charge_fail",
	[SCAN_TRUNCATED] = "truncated",
	[SCAN_PAGE_HAS_PRIVATE] = "page_has_private",
	[SCAN_STORE_FAILED] = "store_failed",
	[SCAN_COPY_MC] = "copy_mc",
	[SCAN_PAGE_FILLED] = "page_filled",
	[SCAN_PAGE_DIRTY_OR_WRITEBACK] = "page_dirty_or_writeback",
};

const char *aw_scan_result_name(int result)
{
	return result >= 0 && result < SCAN_NR ? scan_result_names[result] : "unknown";
}

int aw_scan_result_parse(const char *name)
{
	for (int i = 0; i < SCAN_NR; i++)
		if (!strcmp(scan_result_names[i], name))
			return i;
	return -1;
}

bool aw_kh_patched(const struct aw_kernel *k)
{
	return k->features & AW_FEAT_KHUGEPAGED_PATCHED;
}

/* mm/khugepaged.c: khugepaged_init() */
void khugepaged_init(struct aw_kernel *k)
{
	struct aw_khugepaged *kh = &k->kh;

	memset(kh, 0, sizeof(*kh));
	INIT_LIST_HEAD(&kh->scan.mm_head);
	kh->pages_to_scan = HPAGE_PMD_NR * 8;
	kh->max_ptes_none = HPAGE_PMD_NR - 1;
	kh->max_ptes_swap = HPAGE_PMD_NR / 8;
	kh->max_ptes_shared = HPAGE_PMD_NR / 2;
}

void khugepaged_destroy(struct aw_kernel *k)
{
	struct list_head *h = &k->kh.scan.mm_head;

	while (h->next && !list_empty(h)) {
		struct list_head *n = h->next;

		list_del_init(n);
		free(container_of(n, struct khugepaged_mm_slot, mm_node));
	}
	free(k->kh.trace);
	free(k->kh.collapses);
	memset(&k->kh, 0, sizeof(k->kh));
}

/* pages_to_scan_store(), max_ptes_*_store(): kstrtoul + range check */
static int model_set(struct aw_kernel *k, int knob, uint64_t val)
{
	struct aw_khugepaged *kh = &k->kh;

	if (knob == AW_KH_PAGES_TO_SCAN) {
		if (val == 0 || val > UINT32_MAX)
			return -1;
		kh->pages_to_scan = (unsigned int)val;
		return 0;
	}
	if (val > HPAGE_PMD_NR - 1)
		return -1;
	switch (knob) {
	case AW_KH_MAX_PTES_NONE: kh->max_ptes_none = (unsigned int)val; return 0;
	case AW_KH_MAX_PTES_SWAP: kh->max_ptes_swap = (unsigned int)val; return 0;
	case AW_KH_MAX_PTES_SHARED: kh->max_ptes_shared = (unsigned int)val; return 0;
	default: return -1;
	}
}

/* mm/huge_memory.c: hugepage_pmd_enabled(): the PMD order is not "never" */
static bool hugepage_pmd_enabled(const struct aw_kernel *k)
{
	return k->cfg.thp != AW_THP_NEVER;
}

/*
 * __thp_vma_allowable_orders() for PMD_ORDER outside a fault: khugepaged
 * (TVA_ENFORCE_SYSFS) or MADV_COLLAPSE (forced: no sysfs mode, no
 * EXCEPT_ADVISED).  File VMAs are never eligible in the model: no
 * CONFIG_READ_ONLY_THP_FOR_FS, no shmem (docs/model-notes.md).
 */
bool aw_thp_vma_allowable_khugepaged(struct aw_kernel *k, struct mm_struct *mm,
				     const struct vm_area_struct *vma, uint64_t vm_flags, bool forced)
{
	uint64_t haddr;

	/* vma_thp_disabled() */
	if ((vm_flags & VM_NOHUGEPAGE) || mm->thp_disable == AW_THP_DISABLE_COMPLETELY)
		return false;
	if (mm->thp_disable == AW_THP_DISABLE_EXCEPT_ADVISED && !(vm_flags & VM_HUGEPAGE) && !forced)
		return false;
	if (vm_flags & (VM_SPECIAL | VM_HUGETLB))	/* VM_NO_KHUGEPAGED */
		return false;
	if (!forced && (k->cfg.thp == AW_THP_NEVER ||
			(k->cfg.thp == AW_THP_MADVISE && !(vm_flags & VM_HUGEPAGE))))
		return false;
	if (vma->file)
		return false;
	/* thp_vma_suitable_order(vma, vm_end - HPAGE_PMD_SIZE, PMD_ORDER) */
	if (vma->vm_end - vma->vm_start < PMD_SIZE)
		return false;
	haddr = (vma->vm_end - PMD_SIZE) & PMD_MASK;
	if (haddr < vma->vm_start)
		return false;
	/* anon_vma is set by the first fault; only faults and smaps pass without it */
	return vma->anon_vma;
}

/* mm/khugepaged.c: __khugepaged_enter(): the slot goes to the list's tail */
static void __khugepaged_enter(struct aw_kernel *k, struct mm_struct *mm)
{
	struct khugepaged_mm_slot *slot;

	if (test_bit(MMF_VM_HUGEPAGE, &mm->flags))	/* test_and_set_bit() */
		return;
	slot = calloc(1, sizeof(*slot));
	if (!slot)
		return;
	set_bit(MMF_VM_HUGEPAGE, &mm->flags);
	slot->mm = mm->id;
	mm->kh_slot = slot;
	list_add_tail(&slot->mm_node, &k->kh.scan.mm_head);
}

/* mm/khugepaged.c: khugepaged_enter_vma() */
static void model_enter_vma(struct aw_kernel *k, struct mm_struct *mm,
			    const struct vm_area_struct *vma, uint64_t vm_flags)
{
	if (!(test_bit(MMF_VM_HUGEPAGE, &mm->flags)) && hugepage_pmd_enabled(k) &&
	    aw_thp_vma_allowable_khugepaged(k, mm, vma, vm_flags, false))
		__khugepaged_enter(k, mm);
}

/* include/linux/khugepaged.h: khugepaged_fork() */
static void model_fork(struct aw_kernel *k, struct mm_struct *mm, struct mm_struct *oldmm)
{
	if (test_bit(MMF_VM_HUGEPAGE, &oldmm->flags))
		__khugepaged_enter(k, mm);
}

/*
 * mm/khugepaged.c: __khugepaged_exit().  A slot the cursor is not on goes
 * now; the cursor's own slot stays, for collect_mm_slot() to free after the
 * next call finds the mm exiting.  The model frees the mm_struct at once
 * (the kernel keeps it until mmdrop), so the slot remembers it is dead.
 */
static void model_exit(struct aw_kernel *k, struct mm_struct *mm)
{
	struct khugepaged_mm_slot *slot = mm->kh_slot;

	if (!(test_bit(MMF_VM_HUGEPAGE, &mm->flags)) || !slot)
		return;
	mm->kh_slot = NULL;
	if (k->kh.scan.mm_slot != slot) {
		list_del_init(&slot->mm_node);
		free(slot);
		clear_bit(MMF_VM_HUGEPAGE, &mm->flags);
		return;
	}
	slot->dead = true;
}

/* hpage_collapse_test_exit(): mm_users is zero */
static bool hpage_collapse_test_exit(const struct khugepaged_mm_slot *slot, const struct mm_struct *mm)
{
	return slot->dead || !mm || mm->exiting;
}

/*
 * hpage_collapse_test_exit_or_disable(): ... or MMF_DISABLE_THP_COMPLETELY.
 * 6.1 has no such test: its scan asks hpage_collapse_test_exit() alone.
 */
static bool hpage_collapse_test_exit_or_disable(const struct aw_kernel *k, const struct khugepaged_mm_slot *slot,
						const struct mm_struct *mm)
{
	if (!k->prof->khugepaged_exit_or_disable)
		return hpage_collapse_test_exit(slot, mm);
	return hpage_collapse_test_exit(slot, mm) || mm->thp_disable == AW_THP_DISABLE_COMPLETELY;
}

/* mm/khugepaged.c: collect_mm_slot(): only an exiting mm loses its slot */
static void collect_mm_slot(struct aw_kernel *k, struct khugepaged_mm_slot *slot, struct mm_struct *mm)
{
	if (!hpage_collapse_test_exit(slot, mm))
		return;
	if (mm)
		mm->kh_slot = NULL;
	list_del_init(&slot->mm_node);
	free(slot);
}

/* mm/khugepaged.c: find_pmd_or_thp_or_none() + check_pmd_state() */
static int find_pmd_or_thp_or_none(struct aw_kernel *k, struct mm_struct *mm, uint64_t addr, pmd_t **pmdp)
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
static bool collapse_skip_lazyfree(struct aw_kernel *k, const struct collapse_control *cc,
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
static bool kh_folio_test_lru(const struct folio *folio)
{
	return folio_test(folio, PG_lru) || folio_test(folio, PG_unevictable);
}

/* A PTE the copy fills with zeroes: none or the zero page (and, with the
 * planted bug, a swap entry the skipped swap-in left behind). */
static bool collapse_pte_is_hole(const struct aw_kernel *k, pte_t pteval)
{
	if (pte_none(pteval) || (pte_present(pteval) && is_zero_pfn(pte_pfn(pteval))))
		return true;
	return AW_BUG(k, AW_BUG_KHUGEPAGED_COPY_PRESENT_ONLY) && pte_swp(pteval);
}

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
	/* pmdp_collapse_flush(); no pgtable_trans_huge_deposit() in the model */
	aw_pgtable_free(k, aw_entry_table(*pmd));
	*pmd = 0;
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
static int collapse_huge_page(struct aw_kernel *k, struct mm_struct *mm, struct vm_area_struct *vma,
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
	if (result == SCAN_SUCCEED)
		result = __collapse_huge_page_isolate(k, vma, aw_table(&k->pt, aw_entry_table(*pmd)), cc, &iso);
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

/*
 * mm/khugepaged.c: hpage_collapse_scan_pmd().  With cur_progress (patched
 * khugepaged) the range costs what it examined: 1 without a PTE table or
 * under a PMD mapping, otherwise one per PTE up to and including the one
 * that ended the scan.
 */
static int hpage_collapse_scan_pmd(struct aw_kernel *k, struct mm_struct *mm, struct vm_area_struct *vma,
				   uint64_t haddr, bool *mmap_locked, unsigned int *cur_progress,
				   struct collapse_control *cc)
{
	struct aw_khugepaged *kh = &k->kh;
	unsigned int none_or_zero = 0, unmapped = 0, shared = 0, referenced = 0;
	bool writable = false;
	const struct aw_ptable *pt;
	pmd_t *pmd;
	int result = find_pmd_or_thp_or_none(k, mm, haddr, &pmd);

	if (result != SCAN_SUCCEED) {
		if (cur_progress)	/* planted: the old flat cost survives here */
			*cur_progress = AW_BUG(k, AW_BUG_KHUGEPAGED_PROGRESS_512) ? HPAGE_PMD_NR : 1;
		return result;
	}
	memset(cc->node_load, 0, sizeof(cc->node_load));
	pt = aw_table(&k->pt, aw_entry_table(*pmd));
	for (unsigned int i = 0; i < HPAGE_PMD_NR; i++) {
		pte_t pteval = pt->e[i];
		struct folio *folio;

		if (cur_progress)
			(*cur_progress)++;
		if (pte_none(pteval) || (pte_present(pteval) && is_zero_pfn(pte_pfn(pteval)))) {
			++none_or_zero;
			if (!cc->is_khugepaged || none_or_zero <= kh->max_ptes_none)
				continue;
			result = SCAN_EXCEED_NONE_PTE;
			goto out_unmap;
		}
		if (!pte_present(pteval)) {
			++unmapped;
			if (!cc->is_khugepaged || unmapped <= kh->max_ptes_swap)
				continue;
			result = SCAN_EXCEED_SWAP_PTE;
			goto out_unmap;
		}
		if (pte_write(pteval))
			writable = true;
		folio = pfn_folio(&k->mem, pte_pfn(pteval));	/* vm_normal_page() */
		if (!folio) {
			result = SCAN_PAGE_NULL;
			goto out_unmap;
		}
		if (collapse_skip_lazyfree(k, cc, vma, pteval, folio)) {
			kh->lazyfree_skips++;
			result = SCAN_PAGE_LAZYFREE;
			goto out_unmap;
		}
		if (!folio_test(folio, PG_anon)) {
			result = SCAN_PAGE_ANON;
			goto out_unmap;
		}
		/* folio_maybe_mapped_shared() */
		if (folio->mapcount > 1 && ++shared > kh->max_ptes_shared && cc->is_khugepaged) {
			result = SCAN_EXCEED_SHARED_PTE;
			goto out_unmap;
		}
		cc->node_load[folio->nid]++;
		if (!kh_folio_test_lru(folio)) {
			result = SCAN_PAGE_LRU;
			goto out_unmap;
		}
		if (cc->is_khugepaged && (pte_young(pteval) || folio_test(folio, PG_referenced)))
			referenced++;
	}
	/*
	 * Only present pages count as writable: zero-page, none and swap PTEs
	 * leave the loop before the test, so a range of those alone is
	 * SCAN_PAGE_RO (MADV_COLLAPSE: EINVAL).
	 */
	if (!writable)
		result = SCAN_PAGE_RO;
	else if (cc->is_khugepaged && (!referenced || (unmapped && referenced < HPAGE_PMD_NR / 2)))
		result = SCAN_LACK_REFERENCED_PAGE;
	else
		result = SCAN_SUCCEED;
out_unmap:
	if (result == SCAN_SUCCEED) {
		result = collapse_huge_page(k, mm, vma, haddr, unmapped, cc);
		*mmap_locked = false;
	}
	return result;
}

/* A collapse attempt or scan result the report counts per range. */
void aw_kh_note_range(struct aw_kernel *k, int result)
{
	if (result >= 0 && result < SCAN_NR)
		k->kh.result[result]++;
	if (result == SCAN_SUCCEED)
		k->kh.pages_collapsed++;
}

/* P1: trace_mm_khugepaged_scan(mm, progress, full_scan_finished) */
void aw_kh_trace_scan(struct aw_kernel *k, uint32_t mm, unsigned int progress, bool full)
{
	struct aw_khugepaged *kh = &k->kh;

	if (kh->nr_trace == kh->cap_trace) {
		int cap = kh->cap_trace ? kh->cap_trace * 2 : 32;
		struct aw_kh_trace *a = realloc(kh->trace, (size_t)cap * sizeof(*a));

		if (!a)
			return;
		kh->trace = a;
		kh->cap_trace = cap;
	}
	kh->trace[kh->nr_trace++] = (struct aw_kh_trace){
		.mm = mm, .progress = progress, .full_scan_finished = full, .wakeup = (uint32_t)kh->wakeups,
	};
}

/* Scan the ranges of one eligible VMA from the cursor; false = stop the call. */
static bool scan_vma_ranges(struct aw_kernel *k, struct khugepaged_mm_slot *slot, struct mm_struct *mm,
			    struct vm_area_struct *vma, unsigned int pages, unsigned int *progress,
			    int *result, struct collapse_control *cc)
{
	struct khugepaged_scan *scan = &k->kh.scan;
	uint64_t hstart = (vma->vm_start + PMD_SIZE - 1) & PMD_MASK, hend = vma->vm_end & PMD_MASK;

	if (scan->address < hstart)
		scan->address = hstart;
	while (scan->address < hend) {
		bool mmap_locked = true;
		unsigned int cur_progress = 0;

		if (hpage_collapse_test_exit_or_disable(k, slot, mm))
			return false;
		trace_aw_khugepaged_range_begin(k, mm, vma, scan->address);
		*result = hpage_collapse_scan_pmd(k, mm, vma, scan->address, &mmap_locked,
						  aw_kh_patched(k) ? &cur_progress : NULL, cc);
		aw_kh_note_range(k, *result);
		scan->address += PMD_SIZE;
		if (!aw_kh_patched(k))
			cur_progress = HPAGE_PMD_NR;
		trace_aw_khugepaged_range_end(k, *result, cur_progress);
		*progress += cur_progress;
		if (!mmap_locked || *progress >= pages)
			return false;	/* collapse_huge_page() dropped mmap_lock, or the budget is spent */
	}
	return true;
}

/*
 * mm/khugepaged.c: khugepaged_scan_mm_slot().  One call scans one mm from
 * the cursor until the budget is spent, a collapse drops the mmap_lock, or
 * the VMAs run out; only in the last case (or when the mm is exiting --
 * patched: or THP got disabled) does the cursor move to the next slot.
 */
static unsigned int khugepaged_scan_mm_slot(struct aw_kernel *k, unsigned int pages, int *result,
					    struct collapse_control *cc)
{
	struct aw_khugepaged *kh = &k->kh;
	struct khugepaged_scan *scan = &kh->scan;
	struct khugepaged_mm_slot *slot;
	struct vm_area_struct *vma = NULL;
	struct mm_struct *mm;
	unsigned int progress = 0;
	uint32_t mm_id;
	bool done;
	int i;

	*result = SCAN_FAIL;
	if (!scan->mm_slot) {
		scan->mm_slot = container_of(scan->mm_head.next, struct khugepaged_mm_slot, mm_node);
		scan->address = 0;
	}
	slot = scan->mm_slot;
	mm_id = slot->mm;
	mm = slot->dead ? NULL : aw_mm(k, mm_id);
	kh->calls++;
	/* mmap_read_trylock() failed: vma stays NULL, so the cursor moves on */
	if (mm && mm->mmap_contended)
		goto breakouterloop;
	progress++;
	if (hpage_collapse_test_exit_or_disable(k, slot, mm))
		goto breakouterloop;
	for (i = aw_vma_index(mm, scan->address); i < mm->nr_vmas; i++) {
		vma = &mm->vmas[i];
		if (hpage_collapse_test_exit_or_disable(k, slot, mm)) {
			progress++;
			break;
		}
		if (!aw_thp_vma_allowable_khugepaged(k, mm, vma, vma->vm_flags, false) ||
		    scan->address > (vma->vm_end & PMD_MASK)) {
			/* skip: (the planted bug forgets the skip's cost) */
			progress += !AW_BUG(k, AW_BUG_KHUGEPAGED_SKIP_UNCOUNTED);
			continue;
		}
		if (!scan_vma_ranges(k, slot, mm, vma, pages, &progress, result, cc))
			goto breakouterloop;
	}
	if (i >= mm->nr_vmas)
		vma = NULL;	/* for_each_vma() ran out */
breakouterloop:
	/* release the slot if the mm is dying or all its VMAs were scanned;
	 * P5 adds "or THP got disabled" */
	done = hpage_collapse_test_exit(slot, mm) ||
	       (aw_kh_patched(k) && mm->thp_disable == AW_THP_DISABLE_COMPLETELY);
	if (done || !vma) {
		if (slot->mm_node.next != &scan->mm_head) {
			scan->mm_slot = container_of(slot->mm_node.next, struct khugepaged_mm_slot, mm_node);
			scan->address = 0;
		} else {
			scan->mm_slot = NULL;
			if (kh->full_scans < AW_KH_FULL_LOG) {
				kh->progress_at_full[kh->full_scans] = kh->progress + progress;
				kh->calls_at_full[kh->full_scans] = kh->calls;
			}
			kh->full_scans++;
		}
		collect_mm_slot(k, slot, mm);
	}
	if (aw_kh_patched(k))
		aw_kh_trace_scan(k, mm_id, progress, scan->mm_slot == NULL);
	return progress;
}

/* mm/khugepaged.c: khugepaged_do_scan(): one wake-up */
static void model_do_scan(struct aw_kernel *k, unsigned int pages)
{
	struct aw_khugepaged *kh = &k->kh;
	struct collapse_control cc = { .is_khugepaged = true };
	unsigned int progress = 0, pass_through_head = 0, topup = 0;
	unsigned long traced = 0;
	int first_trace, result = SCAN_SUCCEED;
	bool wait = true;

	if (!pages)
		pages = kh->pages_to_scan;
	kh->wakeups++;
	first_trace = kh->nr_trace;
	for (;;) {
		if (!kh->scan.mm_slot)
			pass_through_head++;
		if (!list_empty(&kh->scan.mm_head) && hugepage_pmd_enabled(k) && pass_through_head < 2) {
			unsigned int p = khugepaged_scan_mm_slot(k, pages - progress, &result, &cc);

			progress += p;
			kh->progress += p;
		} else {
			topup = pages - progress;	/* the exhausted list fills the budget */
			kh->topup += topup;
			progress = pages;
		}
		if (progress >= pages)
			break;
		if (result == SCAN_ALLOC_HUGE_PAGE_FAIL) {
			if (!wait)
				break;
			wait = false;	/* khugepaged_alloc_sleep(), then once more */
		}
	}
	for (int i = first_trace; i < kh->nr_trace; i++)
		traced += kh->trace[i].progress;
	trace_aw_khugepaged_wakeup(k, progress, topup, traced);
}

/*
 * mm/khugepaged.c: khugepaged() and khugepaged_wait_work(): with no mm on
 * the list the thread sleeps in wait_event_freezable() until
 * __khugepaged_enter() adds one, so a timer tick then is no wake-up at all
 * (and, with nothing to change the list in between, neither are the ticks
 * after it).  Returns whether the thread ran.
 */
bool khugepaged_wake(struct aw_kernel *k, unsigned int pages)
{
	if (k->khops->list_empty(k))
		return false;
	k->khops->do_scan(k, pages);
	return true;
}

static bool model_list_empty(struct aw_kernel *k)
{
	return list_empty(&k->kh.scan.mm_head);
}

/*
 * mm/khugepaged.c: madvise_collapse(): every 2 MiB range of [start, end)
 * with is_khugepaged = false -- no max_ptes_* limits, no referenced test,
 * no lazyfree skip, no progress, no registration.
 */
static int model_madvise_collapse(struct aw_kernel *k, struct mm_struct *mm, uint64_t start, uint64_t end)
{
	struct collapse_control cc = { .is_khugepaged = false };
	struct vm_area_struct *vma = find_vma(mm, start);
	uint64_t hstart = (start + PMD_SIZE - 1) & PMD_MASK, hend = end & PMD_MASK;
	int thps = 0, nr = 0;

	if (!vma || vma->vm_start > start ||
	    !aw_thp_vma_allowable_khugepaged(k, mm, vma, vma->vm_flags, true))
		return -1;	/* -EINVAL */
	for (uint64_t addr = hstart; addr < hend; addr += PMD_SIZE) {
		bool mmap_locked = true;
		int result;

		nr++;
		vma = find_vma(mm, addr);
		/* hugepage_vma_revalidate() */
		if (!vma || vma->vm_start > addr || addr + PMD_SIZE > vma->vm_end ||
		    !aw_thp_vma_allowable_khugepaged(k, mm, vma, vma->vm_flags, true))
			break;
		trace_aw_madvise_collapse_begin(k, mm, addr);
		result = hpage_collapse_scan_pmd(k, mm, vma, addr, &mmap_locked, NULL, &cc);
		trace_aw_madvise_collapse_end(k, mm, addr, result);
		if (result == SCAN_SUCCEED || result == SCAN_PMD_MAPPED) {
			thps++;
			k->kh.madv_collapsed += result == SCAN_SUCCEED;
			continue;
		}
		/* 6.1/6.12: an empty entry of a PMD table is SCAN_PMD_NONE, not continued after */
		if (result == SCAN_NO_PTE_TABLE && k->prof->madv_collapse_pmd_none_stops) {
			pmd_t *pmd = aw_pmd_lookup(k, mm, addr, false, NULL);

			if (pmd && pmd_none(*pmd))
				break;
		}
		/* the results madvise_collapse() lets it continue after */
		if (result != SCAN_NO_PTE_TABLE && result != SCAN_PTE_NON_PRESENT &&
		    result != SCAN_PAGE_RO && result != SCAN_LACK_REFERENCED_PAGE && result != SCAN_PAGE_NULL &&
		    result != SCAN_PAGE_COUNT && result != SCAN_PAGE_LOCK && result != SCAN_PAGE_COMPOUND &&
		    result != SCAN_PAGE_LRU && result != SCAN_DEL_PAGE_LRU)
			break;
	}
	return thps == nr && nr == (int)((hend - hstart) >> PMD_SHIFT) ? 0 : -1;
}

const struct aw_khugepaged_ops aw_model_khugepaged = {
	.name = "model",
	.enter_vma = model_enter_vma,
	.fork = model_fork,
	.exit = model_exit,
	.do_scan = model_do_scan,
	.list_empty = model_list_empty,
	.madvise_collapse = model_madvise_collapse,
	.set = model_set,
};

/* -- the entry points: through the machine's khugepaged ---------------------- */

void khugepaged_enter_vma(struct aw_kernel *k, struct mm_struct *mm,
			  const struct vm_area_struct *vma, uint64_t vm_flags)
{
	k->khops->enter_vma(k, mm, vma, vm_flags);
}

void khugepaged_fork(struct aw_kernel *k, struct mm_struct *mm, struct mm_struct *oldmm)
{
	k->khops->fork(k, mm, oldmm);
}

void khugepaged_exit(struct aw_kernel *k, struct mm_struct *mm)
{
	k->khops->exit(k, mm);
}

void khugepaged_do_scan(struct aw_kernel *k, unsigned int pages)
{
	k->khops->do_scan(k, pages);
}

int madvise_collapse(struct aw_kernel *k, struct mm_struct *mm, uint64_t start, uint64_t end)
{
	return k->khops->madvise_collapse(k, mm, start, end);
}

int aw_khugepaged_set(struct aw_kernel *k, int knob, uint64_t val)
{
	return k->khops->set(k, knob, val);
}
