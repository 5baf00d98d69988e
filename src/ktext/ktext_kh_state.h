/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * khugepaged's state per machine, and the machine actions its text calls:
 * included by each generated khugepaged file after the tree's khugepaged
 * types (struct khugepaged_scan, struct collapse_control, enum
 * scan_result) and before its code.
 *
 * mm/khugepaged.c keeps its state in file-scope variables (the knobs, the
 * counters, the cursor, the mm slot hash).  Here each is a name for a
 * field of the machine the text is running on (aw_kh_current(), set by
 * the glue around each call, as aw_ktext_current() is for MGLRU), so the
 * tree's definitions are never taken (tools/ktext-extract: a name the
 * shim defines is the shim's) and no state is global.
 */
#ifndef AW_KTEXT_KH_STATE_H
#define AW_KTEXT_KH_STATE_H

#include "ktext_kh_api.h"

#define AW_KH_SLOTS_HASH_BITS	10	/* mm/khugepaged.c: MM_SLOTS_HASH_BITS */

struct aw_kh {
	struct aw_ktext *kt;		/* folios, page tables, mm structs: the MGLRU shim's objects */
	const struct aw_kh_host *host;
	/* mm/khugepaged.c's file-scope state */
	struct khugepaged_scan scan;	/* khugepaged_scan */
	struct hlist_head slots_hash[1 << AW_KH_SLOTS_HASH_BITS];	/* mm_slots_hash */
	struct kmem_cache slot_cache;	/* mm_slot_cache */
	spinlock_t mm_lock;		/* khugepaged_mm_lock */
	wait_queue_head_t wait;		/* khugepaged_wait */
	unsigned int pages_to_scan, max_ptes_none, max_ptes_swap, max_ptes_shared;
	unsigned int pages_collapsed, full_scans;
	unsigned int scan_sleep_millisecs, alloc_sleep_millisecs;
	unsigned long sleep_expire;
	/* mm/huge_memory.c: /sys/kernel/mm/transparent_hugepage */
	unsigned long thp_flags;	/* transparent_hugepage_flags */
	unsigned long orders_always, orders_madvise, orders_inherit;	/* huge_anon_orders_* */
	unsigned long events[AW_KH_NR_EVENTS];
	struct page **memmap;		/* chunks of 512 pages by pfn >> 9, made when named */
	unsigned long nr_memmap;
};

static __thread struct aw_kh *aw_kh_cur;
static inline struct aw_kh *aw_kh_current(void) { return aw_kh_cur; }
static inline const struct aw_kh_host *aw_kh_host(void) { return aw_kh_cur->host; }

/*
 * The memmap (include/asm-generic/memory_model.h): a small folio's page is
 * the folio's own; any other pfn's page is made when first named (chunks
 * of 512), so that a large folio's pages are contiguous as 6.1's
 * __collapse_huge_page_copy() walks them (page++).
 */
static inline struct page *pfn_to_page(unsigned long pfn)
{
	struct aw_kh *kh = aw_kh_current();
	struct folio *f = pfn_folio(pfn);
	unsigned long c = pfn >> 9;

	if (f && f->pfn == pfn && folio_nr_pages(f) == 1)
		return &f->page;
	if (c >= kh->nr_memmap) {
		unsigned long n = c + 1 > 2 * kh->nr_memmap ? c + 1 : 2 * kh->nr_memmap;
		struct page **m = realloc(kh->memmap, n * sizeof(*m));

		if (!m)
			abort();
		memset(m + kh->nr_memmap, 0, (n - kh->nr_memmap) * sizeof(*m));
		kh->memmap = m;
		kh->nr_memmap = n;
	}
	if (!kh->memmap[c]) {
		kh->memmap[c] = calloc(512, sizeof(struct page));
		if (!kh->memmap[c])
			abort();
		for (unsigned long i = 0; i < 512; i++)
			kh->memmap[c][i].flags = AW_KH_PAGE_MEMMAP | ((c << 9) + i);
	}
	return &kh->memmap[c][pfn & 511];
}
static inline unsigned long page_to_pfn(const struct page *p)
{
	if (p->flags & AW_KH_PAGE_MEMMAP)
		return p->flags & ~AW_KH_PAGE_MEMMAP;
	return container_of(p, const struct folio, page)->pfn;
}
#define pte_page(pte)			pfn_to_page(pte_pfn(pte))

#define khugepaged_scan			(aw_kh_current()->scan)
#define mm_slots_hash			(aw_kh_current()->slots_hash)
#define mm_slot_cache			(&aw_kh_current()->slot_cache)
#define khugepaged_mm_lock		(aw_kh_current()->mm_lock)
#define khugepaged_wait			(aw_kh_current()->wait)
#define khugepaged_pages_to_scan	(aw_kh_current()->pages_to_scan)
#define khugepaged_max_ptes_none	(aw_kh_current()->max_ptes_none)
#define khugepaged_max_ptes_swap	(aw_kh_current()->max_ptes_swap)
#define khugepaged_max_ptes_shared	(aw_kh_current()->max_ptes_shared)
#define khugepaged_pages_collapsed	(aw_kh_current()->pages_collapsed)
#define khugepaged_full_scans		(aw_kh_current()->full_scans)
#define khugepaged_scan_sleep_millisecs	(aw_kh_current()->scan_sleep_millisecs)
#define khugepaged_alloc_sleep_millisecs	(aw_kh_current()->alloc_sleep_millisecs)
#define khugepaged_sleep_expire		(aw_kh_current()->sleep_expire)
#define transparent_hugepage_flags	(aw_kh_current()->thp_flags)
#define huge_anon_orders_always		(aw_kh_current()->orders_always)
#define huge_anon_orders_madvise	(aw_kh_current()->orders_madvise)
#define huge_anon_orders_inherit	(aw_kh_current()->orders_inherit)

/* include/linux/huge_mm.h: the global "enabled" (always or madvise) */
static inline bool hugepage_global_enabled(void)
{
	return transparent_hugepage_flags & (BIT(TRANSPARENT_HUGEPAGE_FLAG) |
					     BIT(TRANSPARENT_HUGEPAGE_REQ_MADV_FLAG));
}
#define hugepage_flags_enabled()	hugepage_global_enabled()	/* 6.1 */

/* mm/huge_memory.c: whether khugepaged or MADV_COLLAPSE may collapse in this VMA: the host's */
static inline bool aw_kh_allowable(struct vm_area_struct *vma, unsigned long vm_flags, bool enforce_sysfs)
{
	return aw_kh_host()->thp_allowable(aw_kh_host()->ctx, vma->vm_mm->aw_index, vma->vm_start,
					   vm_flags, enforce_sysfs);
}
#define thp_vma_allowable_order(vma, vm_flags, tva_flags, order) \
	aw_kh_allowable((vma), (vm_flags), (tva_flags) & TVA_ENFORCE_SYSFS)
#define hugepage_vma_check(vma, vm_flags, smaps, in_pf, enforce_sysfs) \
	aw_kh_allowable((vma), (vm_flags), (enforce_sysfs))	/* 6.1 */
static inline bool thp_vma_suitable_order(struct vm_area_struct *vma, unsigned long addr, int order)
{
	unsigned long haddr = addr & HPAGE_PMD_MASK;

	return haddr >= vma->vm_start && haddr + HPAGE_PMD_SIZE <= vma->vm_end;
}
#define transhuge_vma_suitable(vma, addr)	thp_vma_suitable_order((vma), (addr), PMD_ORDER)	/* 6.1 */

/* include/linux/mm.h: the VMA lookup over the sorted array */
static inline struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr)
{
	for (int i = 0; i < mm->nr_vmas; i++)
		if (mm->vmas[i].vm_end > addr)
			return &mm->vmas[i];
	return NULL;
}

/* include/linux/mm.h, pgtable.h: entries and tables */
#define ptep_get_lockless(p)		ptep_get(p)
#define is_swap_pte(pte)		(!pte_none(pte) && !pte_present(pte))
#define pmd_bad(pmd)			(!pmd_present(pmd) && !pmd_none(pmd))
static inline pte_t *pte_offset_map_lock(struct mm_struct *mm, pmd_t *pmd, unsigned long addr, spinlock_t **ptlp)
{
	pte_t *pte;

	*ptlp = pmd_lockptr(mm, pmd);	/* 6.1's never fails: its callers checked the PMD */
	pte = pte_offset_map_nolock(mm, pmd, addr, ptlp);
	if (pte)
		spin_lock(*ptlp);
	return pte;
}
static inline spinlock_t *pmd_lock(struct mm_struct *mm, pmd_t *pmd)
{
	spinlock_t *ptl = pmd_lockptr(mm, pmd);

	spin_lock(ptl);
	return ptl;
}
/* mm/rmap.c: mm_find_pmd(): the PMD entry of addr, or NULL without a PUD table */
static inline pmd_t *mm_find_pmd(struct mm_struct *mm, unsigned long addr)
{
	pgd_t *pgd = pgd_offset_pgd(mm->pgd, addr);
	p4d_t *p4d = p4d_offset(pgd, addr);
	pud_t *pud;

	if (!p4d_present(*p4d))
		return NULL;
	pud = pud_offset(p4d, addr);
	if (!pud_present(*pud))
		return NULL;
	return pmd_offset(pud, addr);
}
/* mm/memory.c: vm_normal_page(): no special mappings but the zero page */
static inline struct page *vm_normal_page(struct vm_area_struct *vma, unsigned long addr, pte_t pte)
{
	if (is_zero_pfn(pte_pfn(pte)) || pte_special(pte))
		return NULL;
	return pfn_to_page(pte_pfn(pte));
}
/* the entry is cleared in place (its table is already out of the tree); the host drops the rmap */
static inline pte_t ptep_clear(struct mm_struct *mm, unsigned long addr, pte_t *ptep)
{
	pte_t old = ptep_get(ptep);

	*ptep = 0;
	aw_kh_host()->unmap_pte(aw_kh_host()->ctx, mm->aw_index, addr, pte_pfn(old));
	return old;
}
static inline pmd_t pmdp_collapse_flush(struct vm_area_struct *vma, unsigned long addr, pmd_t *pmdp)
{
	pmd_t old = pmdp_get(pmdp);

	*pmdp = 0;
	return old;
}
/* a table entry as the model writes one (the table id in the pfn field; docs/ktext.md) */
#define pmd_populate(mm, pmdp, pgtable)	(*(pmdp) = (pmd_t)((page_to_pfn(pgtable) << PAGE_SHIFT) | AW_KH_PAGE_TABLE))
#define pmd_pgtable(pmd)		pfn_to_page(pmd_pfn(pmd))
#define pgtable_trans_huge_deposit(mm, pmdp, pgtable) \
	aw_kh_host()->deposit(aw_kh_host()->ctx, (mm)->aw_index, page_to_pfn(pgtable))
#define pmd_mkdirty(pmd)		((pmd) | _PAGE_DIRTY)
#define maybe_pmd_mkwrite(pmd, vma)	((vma)->vm_flags & VM_WRITE ? (pmd) | _PAGE_RW : (pmd))
#define mk_huge_pmd(p, prot)	((pmd_t)((page_to_pfn(p) << PAGE_SHIFT) | (prot) | _PAGE_PSE))
static inline void set_pmd_at(struct mm_struct *mm, unsigned long addr, pmd_t *pmdp, pmd_t pmd)
{
	aw_kh_host()->install_pmd(aw_kh_host()->ctx, mm->aw_index, addr & HPAGE_PMD_MASK,
				  pfn_folio(pmd_pfn(pmd)), pmd & _PAGE_RW);
}

/*
 * folio_test_lru(): the kernel keeps an mlocked folio on the unevictable
 * LRU with PG_lru set; the model keeps it off its generations with
 * PG_unevictable alone (docs/model-notes.md), so khugepaged's text sees
 * such a folio as on an LRU, as the kernel's would.  The host's isolation
 * clears PG_unevictable while the folio is isolated.
 */
static inline bool aw_kh_folio_test_lru(const struct folio *f)
{
	return test_bit(PG_lru, &f->flags) || test_bit(PG_unevictable, &f->flags);
}
#define folio_test_lru(f)		aw_kh_folio_test_lru(f)

/* include/linux/mm.h, page-flags.h, pagemap.h: folios and pages */
#define page_folio(p)			pfn_folio(page_to_pfn(p))	/* the host's folio of any of its pfns */
#define folio_page(f, i)		pfn_to_page((f)->pfn + (i))
#define compound_head(p)		pfn_to_page(page_folio(p)->pfn)
#define compound_nr(p)			folio_nr_pages(page_folio(p))
static inline bool folio_trylock(struct folio *f) { return !test_and_set_bit(PG_locked, &f->flags); }
static inline void folio_unlock(struct folio *f) { clear_bit(PG_locked, &f->flags); }
static inline bool folio_test_anon(const struct folio *f);
static inline int folio_ref_count(struct folio *f) { return aw_kh_host()->folio_ref_count(aw_kh_host()->ctx, f); }
static inline int folio_mapcount(struct folio *f) { return f->mapcount; }
static inline bool folio_likely_mapped_shared(struct folio *f) { return f->mapcount > 1; }
static inline bool folio_test_young(struct folio *f) { return false; }	/* no page idle tracking */
static inline bool folio_isolate_lru(struct folio *f) { return aw_kh_host()->isolate_lru(aw_kh_host()->ctx, f); }
static void aw_kh_folio_putback_lru(struct folio *f) { aw_kh_host()->putback_lru(aw_kh_host()->ctx, f); }
static void aw_kh_folio_put(struct folio *f) { aw_kh_host()->put(aw_kh_host()->ctx, f); }
#define folio_get(f)			((void)(f))
#define node_stat_sub_folio(f, item)	((void)(f), (void)(item))
#define node_stat_mod_folio(f, item, n)	((void)(f), (void)(item), (void)(n))
#define mod_node_page_state(pgdat, item, n)	((void)(pgdat), (void)(item), (void)(n))
#define __folio_mark_uptodate(f)	((void)(f))
#define __SetPageUptodate(p)		((void)(p))
#define deferred_split_folio(f, partially)	((void)(f))
#define count_memcg_folio_events(f, item, n)	((void)(f))
#define count_memcg_page_event(p, item)	((void)(p))
#define count_vm_event(item)		aw_kh_host()->event(aw_kh_host()->ctx, (item))
#define add_mm_counter(mm, member, n)	((void)(mm), (void)(member), (void)(n))
#define folio_remove_rmap_pte(f, p, vma)	((void)(f))
#define folio_add_new_anon_rmap(f, vma, addr, flags)	((void)(f))
#define folio_add_lru_vma(f, vma)	((void)(f))
static inline void free_folio_and_swap_cache(struct folio *f) { folio_put(f); }
#define free_swap_cache(f)		((void)(f))
#define free_page_and_swap_cache(p)	free_folio_and_swap_cache(page_folio(p))
static inline int copy_mc_user_highpage(struct page *to, struct page *from, unsigned long addr,
					struct vm_area_struct *vma)
{
	struct folio *huge = page_folio(to);

	aw_kh_host()->copy_page(aw_kh_host()->ctx, huge, (int)(page_to_pfn(to) - huge->pfn), page_to_pfn(from));
	return 0;
}
#define copy_user_highpage(to, from, addr, vma)	((void)copy_mc_user_highpage((to), (from), (addr), (vma)))
static inline void clear_user_highpage(struct page *to, unsigned long addr)
{
	struct folio *huge = page_folio(to);

	aw_kh_host()->copy_page(aw_kh_host()->ctx, huge, (int)(page_to_pfn(to) - huge->pfn), 0);
}
/* 6.1's page forms of the same */
#define PageAnon(p)			folio_test_anon(page_folio(p))
#define PageCompound(p)			folio_test_large(page_folio(p))
#define PageLRU(p)			folio_test_lru(page_folio(p))
#define PageLocked(p)			folio_test_locked(page_folio(p))
#define PageReferenced(p)		folio_test_referenced(page_folio(p))
#define PageSwapCache(p)		folio_test_swapcache(page_folio(p))
#define trylock_page(p)			folio_trylock(page_folio(p))
#define unlock_page(p)			folio_unlock(page_folio(p))
#define page_count(p)			folio_ref_count(page_folio(p))
#define page_mapcount(p)		folio_mapcount(page_folio(p))
#define total_mapcount(p)		folio_mapcount(page_folio(p))
#define page_is_young(p)		folio_test_young(page_folio(p))
#define page_pgdat(p)			folio_pgdat(page_folio(p))
#define isolate_lru_page(p)		(folio_isolate_lru(page_folio(p)) ? 0 : -EBUSY)
#define putback_lru_page(p)		folio_putback_lru(page_folio(p))
#define put_page(p)			folio_put(page_folio(p))
#define page_remove_rmap(p, vma, compound)	((void)(p))
#define page_add_new_anon_rmap(p, vma, addr)	((void)(p))
#define lru_cache_add_inactive_or_unevictable(p, vma)	((void)(p))
#define mem_cgroup_uncharge(f)		((void)(f))

/*
 * mm/memory.c: do_swap_page() of one PTE (the vm_fault khugepaged builds);
 * the host swaps it in and maps it, as a fault would.
 */
static inline vm_fault_t do_swap_page(struct vm_fault *vmf)
{
	return aw_kh_host()->swapin(aw_kh_host()->ctx, vmf->vma->vm_mm->aw_index, vmf->address);
}

/* mm/page_alloc.c, memcontrol.c: the huge folio (6.12's alloc_charge_folio()) */
static inline struct folio *__folio_alloc(gfp_t gfp, unsigned int order, int node, nodemask_t *nmask)
{
	return aw_kh_host()->alloc_huge(aw_kh_host()->ctx, node, nmask ? nmask->bits[0] : 0);
}
/* 6.1's hpage_collapse_alloc_page() */
static inline struct page *__alloc_pages(gfp_t gfp, unsigned int order, int node, nodemask_t *nmask)
{
	struct folio *f = __folio_alloc(gfp, order, node, nmask);

	return f ? pfn_to_page(f->pfn) : NULL;
}
#define prep_transhuge_page(p)		((void)(p))
static inline int mem_cgroup_charge(struct folio *f, struct mm_struct *mm, gfp_t gfp)
{
	return aw_kh_host()->charge(aw_kh_host()->ctx, mm->aw_index, f);
}

/* include/trace/events/huge_memory.h: the tracepoints the oracle reads */
#define trace_mm_khugepaged_scan_pmd(mm, page, writable, referenced, none_or_zero, status, unmapped) \
	aw_kh_host()->trace_scan_pmd(aw_kh_host()->ctx, (mm)->aw_index, (writable), (referenced), \
				     (none_or_zero), (status), (unmapped))
#define trace_mm_collapse_huge_page(mm, isolated, status) \
	aw_kh_host()->trace_collapse(aw_kh_host()->ctx, (mm)->aw_index, (isolated), (status))
/*
 * the khugepaged series' mm_khugepaged_scan (1/5): one
 * khugepaged_scan_mm_slot() call's progress, and whether it left the
 * cursor at the list head; a host without the callback does not trace it
 */
static inline void trace_mm_khugepaged_scan(struct mm_struct *mm, unsigned int progress, bool full_scan_finished)
{
	const struct aw_kh_host *h = aw_kh_host();

	if (h->trace_scan)
		h->trace_scan(h->ctx, mm->aw_index, progress, full_scan_finished);
}
#define trace_mm_collapse_huge_page_swapin(mm, swapped_in, referenced, ret)	((void)(mm))
#define trace_mm_collapse_huge_page_isolate(page, none_or_zero, referenced, writable, status) ((void)0)

/* mm/khugepaged.c without CONFIG_SHMEM: file/shmem collapse is not the model's */
static inline int aw_kh_no_file(void) { WARN_ON_ONCE(1); return 0; }

#endif /* AW_KTEXT_KH_STATE_H */
