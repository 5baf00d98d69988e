/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * khugepaged's text as a library (docs/ktext.md "khugepaged text"): the
 * machine actions its collapse asks of the host, with plain C types only,
 * as struct aw_ktext_host does for the MGLRU text.  Not bound yet: the
 * generated khugepaged file of each tree compiles against these and
 * exports nothing else (issue 31, step 1).
 */
#ifndef AW_KTEXT_KH_API_H
#define AW_KTEXT_KH_API_H

#include <stdbool.h>

struct folio;

struct aw_kh_host {
	void *ctx;
	/* thp_vma_allowable_order(vma, vm_flags, TVA_ENFORCE_SYSFS or not, PMD_ORDER) (mm/huge_memory.c) */
	bool (*thp_allowable)(void *ctx, int mm, unsigned long start, unsigned long vm_flags, bool enforce_sysfs);
	/* folio_ref_count() as the model counts references (mappings, swap cache, isolation) */
	int (*folio_ref_count)(void *ctx, struct folio *folio);
	/* folio_isolate_lru(), folio_putback_lru(), folio_put() of a small folio the collapse is done with */
	bool (*isolate_lru)(void *ctx, struct folio *folio);
	void (*putback_lru)(void *ctx, struct folio *folio);
	void (*put)(void *ctx, struct folio *folio);
	/* do_swap_page() for one PTE of the range: 0, or VM_FAULT_* */
	unsigned int (*swapin)(void *ctx, int mm, unsigned long addr);
	/* __folio_alloc() + mem_cgroup_charge() of the huge folio: NULL, *charge_failed set on a charge failure */
	struct folio *(*alloc_huge)(void *ctx, int mm, int node, bool *charge_failed);
	/* the collapse's end: the PMD mapping the new folio installed over the range's table */
	void (*install_pmd)(void *ctx, int mm, unsigned long haddr, struct folio *folio, bool writable);
	/* copy (or zero, pfn 0) one page into the huge folio's page i */
	void (*copy_page)(void *ctx, struct folio *huge, int i, unsigned long src_pfn);
	/* a small page's PTE cleared and its folio unmapped (the copy succeeded) */
	void (*unmap_pte)(void *ctx, int mm, unsigned long addr, unsigned long pfn);
	/* count_vm_event() of khugepaged's events, in the tree's order */
	void (*event)(void *ctx, int item);
	/* the tracepoints: a range's scan result, a collapse's, the swap-in, the isolation */
	void (*trace_scan_pmd)(void *ctx, int mm, int writable, int referenced, int none_or_zero,
			       int status, int unmapped);
	void (*trace_collapse)(void *ctx, int mm, int isolated, int status);
};

#endif /* AW_KTEXT_KH_API_H */
