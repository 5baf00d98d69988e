/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The seam between the machine and a variant's MGLRU code.
 *
 * The machine -- page tables, folios, lruvecs and their lists, the mm
 * lists, memcgs, faults and address-space operations -- is the model's.
 * What a series under review changes sits behind the kernel's own entry
 * points, so that another implementation of them (the kernel's own text,
 * built from a tree) can run on the same machine and be compared with
 * the model's:
 *
 *   try_to_inc_max_seq()	one aging pass on an lruvec (mm/vmscan.c)
 *   age_begin/step/end		the same pass split, so eviction can run in
 *				the middle of an iteration (model only: the
 *				kernel interleaves through concurrency)
 *   lru_gen_look_around()	the rmap walk's PTE window (mm/vmscan.c)
 *   evict_folios()		one eviction scan (mm/vmscan.c)
 *   lru_gen_add_mm/del_mm/migrate_mm	the mm list (mm/vmscan.c)
 *   lru_gen_use_mm()		an mm ran (include/linux/mm_types.h)
 *   lru_gen_shrink_lruvec()	memcg reclaim of one lruvec at a priority
 *				(mm/vmscan.c: the loop, its aging and eviction)
 *   run_aging()		the debugfs '+' command, with its refusals
 *   folio_check_references()	shrink_folio_list()'s verdict on an isolated
 *				folio (mm/vmscan.c)
 *
 * Each implementation reports what it does through the tracepoints of
 * trace_events.h, never by calling an observer.
 */
#ifndef AW_MGLRU_OPS_H
#define AW_MGLRU_OPS_H

#include <stdbool.h>
#include <stdint.h>

struct aw_kernel;
struct aw_shadow;
struct folio;
struct lruvec;
struct lru_gen_mm_walk;
struct mm_struct;
struct vm_area_struct;

/*
 * mm/vmscan.c: struct scan_control, the fields memcg reclaim of one
 * lruvec reads and writes (try_to_free_mem_cgroup_pages() fills them).
 */
struct aw_scan_control {
	int priority;			/* DEF_PRIORITY..0 */
	unsigned long nr_to_reclaim;
	unsigned long nr_reclaimed;	/* in and out: carried over the lruvecs and priorities */
	int target_memcg;		/* sc->target_mem_cgroup: the memcg over its limit */
	bool may_swap;
};

/* mm/vmscan.c: folio_check_references()'s verdicts, in the kernel's order */
enum folio_references {
	FOLIOREF_RECLAIM,
	FOLIOREF_RECLAIM_CLEAN,	/* reclaim if clean: the same as FOLIOREF_RECLAIM without kswapd */
	FOLIOREF_KEEP,
	FOLIOREF_ACTIVATE,
};

struct aw_mglru_ops {
	const char *name;
	/*
	 * Whether this code counts the report's figure key (src/check/report.c;
	 * "pass.KEY" for a node pass's, "region.KEY" for a region pass's), which reads the
	 * model's mm_stats[mm_stat] (-1: another counter).  NULL: every figure.
	 * The kernel text lacks the model's own instrumentation (PMD entries
	 * read, Bloom filter tests, the oracles' shadows) and a tree without
	 * the PUD series lacks its per-walk counters: those read '-' and null,
	 * not 0.
	 */
	bool (*measures)(const struct aw_kernel *k, const char *key, int mm_stat);
	bool (*try_to_inc_max_seq)(struct aw_kernel *k, struct lruvec *lruvec, unsigned long seq,
				   int swappiness, bool force_scan);
	/* 0 started, -EBUSY one is open, other < 0 failed; see aging.c */
	int (*age_begin)(struct aw_kernel *k, struct lruvec *lruvec, int swappiness, bool force_scan);
	int (*age_step)(struct aw_kernel *k, struct lruvec *lruvec);
	int (*age_end)(struct aw_kernel *k, struct lruvec *lruvec);
	bool (*lru_gen_look_around)(struct aw_kernel *k, struct lru_gen_mm_walk *walk,
				    struct mm_struct *mm, struct vm_area_struct *vma, uint64_t addr,
				    uint32_t target_pfn);
	int (*evict_folios)(struct aw_kernel *k, unsigned long nr_to_scan, struct lruvec *lruvec, int swappiness,
			    struct lru_gen_mm_walk *walk, unsigned long *nr_reclaimed, bool memcg_reclaim);
	void (*lru_gen_add_mm)(struct aw_kernel *k, struct mm_struct *mm);
	void (*lru_gen_del_mm)(struct aw_kernel *k, struct mm_struct *mm);
	void (*lru_gen_migrate_mm)(struct aw_kernel *k, struct mm_struct *mm, int memcg);
	/* include/linux/mm_types.h: context_switch() and faults mark the mm used on every node */
	void (*lru_gen_use_mm)(struct aw_kernel *k, struct mm_struct *mm);
	/* the variant's state goes with the kernel (NULL: none) */
	void (*release)(struct aw_kernel *k);

	/* -- the reclaim loop (issue 30) -- */
	/*
	 * mm/vmscan.c: lru_gen_shrink_lruvec(): memcg reclaim of lruvec at
	 * sc->priority, adding to sc->nr_reclaimed.  Returns the memcg LRU
	 * rotation try_to_shrink_lruvec() asks (1 young, 0 none), or -1 for
	 * code without a memcg LRU (6.1's).
	 */
	int (*lru_gen_shrink_lruvec)(struct aw_kernel *k, struct lruvec *lruvec, struct aw_scan_control *sc);
	/* mm/vmscan.c: run_aging(): the debugfs '+' command: 0, -EINVAL or -ERANGE */
	int (*run_aging)(struct aw_kernel *k, struct lruvec *lruvec, unsigned long seq, int swappiness,
			 bool force_scan);
	/*
	 * --- the workingset side (issue 30): mm/workingset.c and folio_add_lru() ---
	 *
	 *   lru_gen_eviction()	the shadow an isolated folio leaves, and its
	 *				evicted[] tier count (mm/workingset.c)
	 *   lru_gen_refault()	a new folio, not yet on an LRU, over the shadow
	 *				it replaces: the recency test, refaulted[],
	 *				workingset_refaults, the flags restored
	 *				(mm/workingset.c)
	 *   folio_add_lru()	where a new folio lands: lru_gen_add_folio()
	 *				(mm/swap.c, include/linux/mm_inline.h)
	 *
	 * in_fault is lru_gen_in_fault(): a page fault in a VMA with recency.
	 */
	void (*lru_gen_eviction)(struct aw_kernel *k, struct folio *folio, struct aw_shadow *shadow);
	void (*lru_gen_refault)(struct aw_kernel *k, struct folio *folio, const struct aw_shadow *shadow,
				bool in_fault);
	void (*folio_add_lru)(struct aw_kernel *k, struct folio *folio, bool in_fault);

	/*
	 * --- shrink_folio_list()'s reference check (issue 30) ---
	 *
	 * mm/vmscan.c: folio_check_references() of an isolated folio: its
	 * verdict, PG_referenced tested, cleared and set.  Whether each
	 * mapping was young is the machine's folio_referenced() (mm/rmap.c,
	 * references.c: the reverse-map walk, the PMD's accessed bit, the
	 * variant's lru_gen_look_around() for a PTE), which each
	 * implementation calls.  target_memcg: sc->target_mem_cgroup, -1
	 * for none.
	 */
	enum folio_references (*folio_check_references)(struct aw_kernel *k, struct folio *folio,
							 struct lru_gen_mm_walk *walk, int target_memcg);
};


/*
 * A workingset shadow as the machine keeps it (a swap slot's fields, a
 * page-cache entry's bits): mm/workingset.c's pack_shadow() fields, with
 * the token split into min_seq at eviction and the refs it carries.
 */
struct aw_shadow {
	uint32_t evict_seq;	/* token >> LRU_REFS_WIDTH: min_seq[type] at eviction */
	uint8_t refs;		/* token & (BIT(LRU_REFS_WIDTH) - 1): max(refs - 1, 0) */
	bool workingset;
	uint16_t memcg;
	uint8_t nid;
};

/* The model's own MGLRU code (aging.c, walk.c, mm_list.c, evict.c). */
extern const struct aw_mglru_ops aw_model_mglru;

#endif /* AW_MGLRU_OPS_H */
