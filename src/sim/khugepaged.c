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

#include "khugepaged_internal.h"

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
