/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * khugepaged's text as a library (docs/ktext.md "khugepaged text"): the
 * machine actions its collapse asks of the host, with plain C types only,
 * as struct aw_ktext_host does for the MGLRU text, and the entry points
 * each tree exports (struct aw_kh_ops, aw_<tree>_kh_ops).  Not bound onto
 * the model's machine by src/kbind/kbind_kh.c; tests/unit/test_ktext_kh.c
 * runs the scan path on a machine of its own.
 */
#ifndef AW_KTEXT_KH_API_H
#define AW_KTEXT_KH_API_H

#include <stdbool.h>

#include "ktext_api.h"

struct folio;
struct aw_kh;

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
	/* __folio_alloc(order PMD, node, nodemask) of the huge folio (the nodes as bits): NULL on failure */
	struct folio *(*alloc_huge)(void *ctx, int node, unsigned long nodemask);
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
	/* the huge folio's mem_cgroup_charge() to mm's memcg: 0, or -ENOMEM */
	int (*charge)(void *ctx, int mm, struct folio *folio);
	/* pgtable_trans_huge_deposit(): the PTE table the collapse took out of the tree */
	void (*deposit)(void *ctx, int mm, unsigned long table);
	/* the khugepaged series' mm_khugepaged_scan: one khugepaged_scan_mm_slot() call's progress (a tree with it only) */
	void (*trace_scan)(void *ctx, int mm, unsigned int progress, bool full_scan_finished);
};

/* An mm as khugepaged's text sees it (its shadow mm_struct, refreshed by set_mm()). */
struct aw_kh_mm {
	void *pgd;			/* its PGD table page */
	const struct aw_ktext_vma *vmas;	/* in address order */
	int nr_vmas;
	bool exiting;			/* mm_users 0: hpage_collapse_test_exit() */
	bool thp_disabled;		/* MMF_DISABLE_THP */
	bool mmap_contended;		/* mmap_read_trylock() fails */
};

/* What the text's khugepaged state is (mm/khugepaged.c's statics). */
struct aw_kh_state {
	int cursor_mm;			/* khugepaged_scan.mm_slot's mm, -1 for none */
	unsigned long address;		/* khugepaged_scan.address */
	unsigned long pages_collapsed;	/* khugepaged_pages_collapsed */
	unsigned long full_scans;	/* khugepaged_full_scans */
	int nr_slots;			/* mm slots on khugepaged_scan.mm_head */
	unsigned long warnings;		/* WARN_ON_ONCE() and friends hit */
	const char *last_warning;
};

/* One tree's khugepaged text (aw_<tree>_kh_ops; the registry is aw_kh_variants[]). */
struct aw_kh_ops {
	const char *name;
	unsigned int version;		/* KERNEL_VERSION() of the tree */
	struct aw_kh *(*create)(const struct aw_ktext_host *kt, const struct aw_kh_host *host);
	void (*destroy)(struct aw_kh *kh);
	/* /sys/kernel/mm/transparent_hugepage: enabled (THP for PMD order on), khugepaged's knobs */
	void (*knobs)(struct aw_kh *kh, bool thp_enabled, unsigned int pages_to_scan, unsigned int max_ptes_none,
		      unsigned int max_ptes_swap, unsigned int max_ptes_shared);
	void (*set_mm)(struct aw_kh *kh, int id, const struct aw_kh_mm *mm);
	void (*enter)(struct aw_kh *kh, int id);	/* __khugepaged_enter() */
	void (*exit)(struct aw_kh *kh, int id);		/* khugepaged_exit() */
	void (*do_scan)(struct aw_kh *kh);		/* one wake-up: khugepaged_do_scan() */
	void (*state)(struct aw_kh *kh, struct aw_kh_state *out);
	/* khugepaged_enter_vma() of mm id's VMA at start, with vm_flags */
	void (*enter_vma)(struct aw_kh *kh, int id, unsigned long start, unsigned long vm_flags);
	void (*fork)(struct aw_kh *kh, int id, int parent);	/* khugepaged_fork() */
	/* madvise_collapse() over [start, end): 0 or -errno */
	int (*madvise)(struct aw_kh *kh, int id, unsigned long start, unsigned long end);
	/* the tree's enum scan_result as the model names it (aw_scan_result_name()), "unknown" */
	const char *(*result_name)(int status);
	/*
	 * The tree has the khugepaged scan series (src/ktext/series/khugepaged-v7),
	 * read off its text by tools/ktext-extract (the mm_khugepaged_scan
	 * tracepoint, the refined progress, SCAN_PAGE_LAZYFREE, the slot
	 * released when THP is disabled): its model pair is khugepaged-patched,
	 * khugepaged-base otherwise.
	 */
	bool patched;
};

extern const struct aw_kh_ops *const aw_kh_variants[];	/* NULL-terminated, as aw_ktext_variants[] */
extern const char aw_kh_variant_names[];	/* ", kh6.12, kh6.12+pud, kh6.1", or "" */

#endif /* AW_KTEXT_KH_API_H */
