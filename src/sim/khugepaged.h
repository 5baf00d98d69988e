/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * khugepaged (mm/khugepaged.c): the mm slot list, the scan cursor, the
 * per-wake-up budget, the per-range scan and the collapse of 512 small
 * anonymous pages into one PMD-mapped THP; and MADV_COLLAPSE, which uses
 * the same scan and collapse without khugepaged's limits.
 *
 * Two behaviours (the third seed; docs/khugepaged-plan.md):
 *  - base: mainline before the series: every range costs HPAGE_PMD_NR of
 *    the pages_to_scan budget, lazyfree folios are collapsed like any other,
 *    an mm whose THP was disabled keeps the cursor until its VMAs run out;
 *  - patched (AW_FEAT_KHUGEPAGED_PATCHED): a range costs the PTEs actually
 *    examined (1 for table-less or PMD-mapped ranges), clean lazyfree PTEs
 *    stop a khugepaged collapse (SCAN_PAGE_LAZYFREE), a disabled mm hands
 *    the cursor on, and mm_khugepaged_scan reports each call's progress.
 * The revision (--khugepaged-rev) picks the seed's text (default) or the
 * later v8, whose only reachable difference is that VM_DROPPABLE VMAs are
 * exempt from the lazyfree skip.
 */
#ifndef AW_KHUGEPAGED_H
#define AW_KHUGEPAGED_H

#include <stdbool.h>
#include <stdint.h>

#include "event.h"
#include "mm.h"

struct aw_kernel;

/* mm/khugepaged.c: enum scan_result, in the seed's order (LAZYFREE after ANON) */
enum scan_result {
	SCAN_FAIL,
	SCAN_SUCCEED,
	SCAN_NO_PTE_TABLE,
	SCAN_PMD_MAPPED,
	SCAN_EXCEED_NONE_PTE,
	SCAN_EXCEED_SWAP_PTE,
	SCAN_EXCEED_SHARED_PTE,
	SCAN_PTE_NON_PRESENT,
	SCAN_PTE_UFFD_WP,
	SCAN_PTE_MAPPED_HUGEPAGE,
	SCAN_PAGE_RO,
	SCAN_LACK_REFERENCED_PAGE,
	SCAN_PAGE_NULL,
	SCAN_SCAN_ABORT,
	SCAN_PAGE_COUNT,
	SCAN_PAGE_LRU,
	SCAN_PAGE_LOCK,
	SCAN_PAGE_ANON,
	SCAN_PAGE_LAZYFREE,
	SCAN_PAGE_COMPOUND,
	SCAN_ANY_PROCESS,
	SCAN_VMA_NULL,
	SCAN_VMA_CHECK,
	SCAN_ADDRESS_RANGE,
	SCAN_DEL_PAGE_LRU,
	SCAN_ALLOC_HUGE_PAGE_FAIL,
	SCAN_CGROUP_CHARGE_FAIL,
	SCAN_TRUNCATED,
	SCAN_PAGE_HAS_PRIVATE,
	SCAN_STORE_FAILED,
	SCAN_COPY_MC,
	SCAN_PAGE_FILLED,
	SCAN_PAGE_DIRTY_OR_WRITEBACK,
	SCAN_NR
};

/*
 * Result names: the enum identifiers in lower case without SCAN_ ("pmd_mapped",
 * "page_lazyfree"), as the kh_result_* keys and the report use them.  They
 * are not the SCAN_STATUS strings a kernel prints ("page_pmd_mapped"); replay
 * translates those with its own table.
 */
const char *aw_scan_result_name(int result);
int aw_scan_result_parse(const char *name);	/* -1 if unknown */

/* struct khugepaged_mm_slot */
struct khugepaged_mm_slot {
	struct list_head mm_node;
	uint32_t mm;		/* mm id */
	bool dead;		/* the mm exited while the cursor was on this slot */
};

/* struct khugepaged_scan */
struct khugepaged_scan {
	struct list_head mm_head;
	struct khugepaged_mm_slot *mm_slot;	/* the cursor, NULL = before the head */
	uint64_t address;
};

/* struct collapse_control */
struct collapse_control {
	bool is_khugepaged;
	uint32_t node_load[8];
};


/* Revisions of the patched behaviour (--khugepaged-rev). */
enum aw_kh_rev { AW_KH_REV_SEED = 0, AW_KH_REV_V8 };

/* One mm_khugepaged_scan trace record (P1), plus the wake-up it belongs to. */
struct aw_kh_trace {
	uint32_t mm;
	unsigned int progress;
	bool full_scan_finished;
	uint32_t wakeup;
};

/* One collapse attempt that reached collapse_huge_page(). */
struct aw_kh_collapse {
	uint32_t mm;
	uint64_t haddr;
	uint32_t wakeup;		/* 0 for MADV_COLLAPSE */
	int result;
	uint16_t region;		/* the VMA's region, 0 if none */
};

#define AW_KH_FULL_LOG	8

struct aw_khugepaged {
	struct khugepaged_scan scan;
	unsigned int pages_to_scan, max_ptes_none, max_ptes_swap, max_ptes_shared;
	unsigned long pages_collapsed;	/* khugepaged_pages_collapsed */
	unsigned long full_scans;	/* khugepaged_full_scans */
	unsigned long wakeups;		/* khugepaged_do_scan() calls */
	unsigned long calls;		/* khugepaged_scan_mm_slot() calls */
	unsigned long progress;		/* budget consumed by scan_mm_slot() calls (no top-ups) */
	unsigned long topup;		/* budget filled in by the exhausted-list branch */
	unsigned long result[SCAN_NR];	/* ranges by scan result (khugepaged) */
	unsigned long lazyfree_skips;	/* SCAN_PAGE_LAZYFREE in scan or isolate */
	unsigned long madv_collapsed;	/* MADV_COLLAPSE ranges made PMD-mapped */
	/* progress and calls when full scan n + 1 ended (the first AW_KH_FULL_LOG) */
	unsigned long progress_at_full[AW_KH_FULL_LOG], calls_at_full[AW_KH_FULL_LOG];
	int nr_trace, cap_trace;
	struct aw_kh_trace *trace;	/* mm_khugepaged_scan, patched only */
	int nr_collapses, cap_collapses;
	struct aw_kh_collapse *collapses;
};

/*
 * Whose khugepaged a machine runs (the seam, as struct aw_mglru_ops is
 * MGLRU's): the model's (aw_model_khugepaged), or a tree's text bound by
 * src/kbind/kbind_kh.c.  The public entry points below dispatch through
 * k->khops; what the text asks of the machine are the aw_kh_* actions.
 */
struct aw_khugepaged_ops {
	const char *name;
	void (*enter_vma)(struct aw_kernel *k, struct mm_struct *mm, const struct vm_area_struct *vma,
			  uint64_t vm_flags);
	void (*fork)(struct aw_kernel *k, struct mm_struct *mm, struct mm_struct *oldmm);
	void (*exit)(struct aw_kernel *k, struct mm_struct *mm);
	void (*do_scan)(struct aw_kernel *k, unsigned int pages);
	bool (*list_empty)(struct aw_kernel *k);	/* no mm slot: the thread sleeps */
	int (*madvise_collapse)(struct aw_kernel *k, struct mm_struct *mm, uint64_t start, uint64_t end);
	int (*set)(struct aw_kernel *k, int knob, uint64_t val);
	void (*release)(struct aw_kernel *k);		/* NULL: nothing to free */
	/* whether k counts the report's figure key (kh_progress ...); NULL: every figure */
	bool (*measures)(const struct aw_kernel *k, const char *key);
};

extern const struct aw_khugepaged_ops aw_model_khugepaged;

void khugepaged_init(struct aw_kernel *k);
void khugepaged_destroy(struct aw_kernel *k);
bool aw_kh_patched(const struct aw_kernel *k);

/* mm/huge_memory.c: thp_vma_allowable_order(vma, vm_flags, TVA_ENFORCE_SYSFS
 * or TVA_FORCED_COLLAPSE, PMD_ORDER) outside a fault */
bool aw_thp_vma_allowable_khugepaged(struct aw_kernel *k, struct mm_struct *mm,
				     const struct vm_area_struct *vma, uint64_t vm_flags, bool forced);
/* Registration: khugepaged_enter_vma(), khugepaged_fork(), khugepaged_exit() */
void khugepaged_enter_vma(struct aw_kernel *k, struct mm_struct *mm,
			  const struct vm_area_struct *vma, uint64_t vm_flags);
void khugepaged_fork(struct aw_kernel *k, struct mm_struct *mm, struct mm_struct *oldmm);
void khugepaged_exit(struct aw_kernel *k, struct mm_struct *mm);

/* One wake-up of the khugepaged thread; pages 0 = the pages_to_scan knob. */
void khugepaged_do_scan(struct aw_kernel *k, unsigned int pages);
/* a timer tick: khugepaged_do_scan() unless the thread sleeps on an empty list */
bool khugepaged_wake(struct aw_kernel *k, unsigned int pages);
/* mm/khugepaged.c: madvise_collapse(); 0, or -1 (-EINVAL/-EAGAIN/-ENOMEM) */
int madvise_collapse(struct aw_kernel *k, struct mm_struct *mm, uint64_t start, uint64_t end);
/* The sysfs stores: -1 (EINVAL) for pages_to_scan 0 or max_ptes_* > 511 */
int aw_khugepaged_set(struct aw_kernel *k, int knob, uint64_t val);

/*
 * The machine actions of a collapse, for a khugepaged that is not the
 * model's (the kernel text's host, src/kbind/kbind_kh.c), each the model's
 * own step of collapse_huge_page():
 *  - the huge folio: alloc_charge_folio()'s allocation (node first, then
 *    the nodes of nodemask) and its charge without reclaim;
 *  - do_swap_page() of one swap PTE of the range, the new folio on nid;
 *  - the new PMD mapping: set_pmd_at() of a young dirty entry over a PMD
 *    left none, the rmap, the LRU and the mm counters (resident: the
 *    range's pages that were mapped before);
 *  - a PTE a successful copy unmapped: the rmap; a folio nobody maps is
 *    freed by its last put.
 */
uint32_t aw_kh_alloc_huge(struct aw_kernel *k, int node, unsigned long nodemask);
int aw_kh_charge(struct aw_kernel *k, struct mm_struct *mm, uint32_t pfn);
int aw_kh_swapin_pte(struct aw_kernel *k, struct mm_struct *mm, struct vm_area_struct *vma, uint64_t addr,
		     int nid);
void aw_kh_install_pmd(struct aw_kernel *k, struct mm_struct *mm, struct vm_area_struct *vma, uint64_t haddr,
		       uint32_t pfn, long resident);
/* the model's bookkeeping of a collapse attempt and a scanned range (the report's) */
void aw_kh_record_collapse(struct aw_kernel *k, struct mm_struct *mm, const struct vm_area_struct *vma,
			   uint64_t haddr, bool is_khugepaged, int result);
void aw_kh_note_range(struct aw_kernel *k, int result);
void aw_kh_trace_scan(struct aw_kernel *k, uint32_t mm, unsigned int progress, bool full);

#endif /* AW_KHUGEPAGED_H */
