/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The model's trace events (no include guard: tracepoint.h and trace.h
 * include this list with their own AW_TRACE_EVENT, as the kernel's
 * define_trace.h does with include/trace/events/).  Every event's first
 * argument is the kernel it fires on.
 *
 * Facts, never rules: each event says what the code did at that moment,
 * with what the kernel would pass to a tracepoint or a stub there.
 * Where the kernel (or a seed series) has a tracepoint of its own, the
 * event carries its name.
 */
#ifndef AW_TRACE_EVENT
#error "include tracepoint.h or trace.h, not trace_events.h"
#endif

/* ---- events: one per applied event, and the kernel's end ---------------- */

/* before kernel_apply() of ev; event_index already counts it */
AW_TRACE_EVENT(aw_event_begin, TP_PROTO(struct aw_kernel *k, const struct aw_event *ev), TP_ARGS(k, ev))
/* after it, whatever it returned */
AW_TRACE_EVENT(aw_event_end, TP_PROTO(struct aw_kernel *k, const struct aw_event *ev), TP_ARGS(k, ev))
/* aw_kernel_destroy(), first thing: observers free what they hang off k */
AW_TRACE_EVENT(aw_kernel_destroy, TP_PROTO(struct aw_kernel *k), TP_ARGS(k))

/* ---- page-table accessors the walker and look-around use ----------------- */

/* ptep_test_and_clear_young() found the accessed bit set and cleared it; pte is the old entry */
AW_TRACE_EVENT(ptep_test_and_clear_young,
	       TP_PROTO(struct aw_kernel *k, struct mm_struct *mm, uint64_t addr, uint64_t pte),
	       TP_ARGS(k, mm, addr, pte))
/* pmdp_test_and_clear_young() on a leaf or non-leaf PMD, the same */
AW_TRACE_EVENT(pmdp_test_and_clear_young,
	       TP_PROTO(struct aw_kernel *k, struct mm_struct *mm, uint64_t addr, uint64_t pmd),
	       TP_ARGS(k, mm, addr, pmd))

/*
 * set_pte_at() / set_pmd_at(): a fault, a swap-in or a collapse wrote a
 * leaf entry of mm at addr; old is the entry before, new the one written.
 * The machine's write itself, whatever the code around it says it was:
 * none -> present is a first touch, a swap or file-shadow entry ->
 * present a major fault, a PTE table -> a huge PMD a collapse.
 */
AW_TRACE_EVENT(set_pte_at,
	       TP_PROTO(struct aw_kernel *k, struct mm_struct *mm, uint64_t addr, uint64_t old, uint64_t new),
	       TP_ARGS(k, mm, addr, old, new))
AW_TRACE_EVENT(set_pmd_at,
	       TP_PROTO(struct aw_kernel *k, struct mm_struct *mm, uint64_t addr, uint64_t old, uint64_t new),
	       TP_ARGS(k, mm, addr, old, new))

/* ---- folio generations and flags ------------------------------------------ */

/*
 * A folio's flag generation went from old_gen to new_gen (-1: none): every
 * write of LRU_GEN_MASK of a folio on an LRU list (lru_gen_add_folio,
 * lru_gen_del_folio, folio_update_gen, folio_inc_gen).
 */
AW_TRACE_EVENT(folio_update_gen,
	       TP_PROTO(struct aw_kernel *k, const struct folio *folio, int old_gen, int new_gen),
	       TP_ARGS(k, folio, old_gen, new_gen))
/*
 * lru_gen_add_folio() on entry, before it writes any flag: folio's flags
 * and lruvec's sequences are what its placement is computed from
 */
AW_TRACE_EVENT(lru_gen_add_folio,
	       TP_PROTO(struct aw_kernel *k, const struct lruvec *lruvec, const struct folio *folio,
			bool reclaiming),
	       TP_ARGS(k, lruvec, folio, reclaiming))
/*
 * inc_min_seq() moved many folios of lruvec at once: pages[gen][type]
 * deltas of MAX_NR_GENS x ANON_AND_FILE, for folios of lruvec only (the
 * others went through folio_update_gen one by one).
 */
AW_TRACE_EVENT(folio_inc_gen_batch,
	       TP_PROTO(struct aw_kernel *k, const struct lruvec *lruvec, const long *pages),
	       TP_ARGS(k, lruvec, pages))
/*
 * scan_folios() opens lruvec's oldest generation of type (its min_seq and
 * the PID controller's counters are as the scan finds them); reads folio
 * off the list's tail, before sort_folio() looks at it; and is done with
 * the list, before any isolated folio is reclaimed or put back.  What the
 * scan decided is in the folios' flags and the counters, not in these.
 */
AW_TRACE_EVENT(aw_scan_folios_begin,
	       TP_PROTO(struct aw_kernel *k, struct lruvec *lruvec, int type), TP_ARGS(k, lruvec, type))
AW_TRACE_EVENT(aw_sort_folio,
	       TP_PROTO(struct aw_kernel *k, struct lruvec *lruvec, const struct folio *folio),
	       TP_ARGS(k, lruvec, folio))
AW_TRACE_EVENT(aw_scan_folios_end, TP_PROTO(struct aw_kernel *k, struct lruvec *lruvec), TP_ARGS(k, lruvec))

/* ---- Bloom filters: test, set and reset, with level, sequence and key ------ */

AW_TRACE_EVENT(lru_gen_bloom_test,
	       TP_PROTO(struct aw_kernel *k, struct lruvec *lruvec, int level, unsigned long seq,
			uint64_t key, bool hit),
	       TP_ARGS(k, lruvec, level, seq, key, hit))
AW_TRACE_EVENT(lru_gen_bloom_set,
	       TP_PROTO(struct aw_kernel *k, struct lruvec *lruvec, int level, unsigned long seq,
			uint64_t key),
	       TP_ARGS(k, lruvec, level, seq, key))
AW_TRACE_EVENT(lru_gen_bloom_reset,
	       TP_PROTO(struct aw_kernel *k, struct lruvec *lruvec, int level, unsigned long seq),
	       TP_ARGS(k, lruvec, level, seq))

/* ---- the mm list ------------------------------------------------------------ */

/* get_next_mm() looked at mm and decided */
AW_TRACE_EVENT(lru_gen_get_next_mm,
	       TP_PROTO(struct aw_kernel *k, struct lru_gen_mm_walk *walk, struct mm_struct *mm,
			enum aw_mm_skip why),
	       TP_ARGS(k, walk, mm, why))
/*
 * iterate_mm_list(): the walker that got the first mm of the iteration
 * for walk->seq -- by the rule, the one that starts the seq + 1 filters
 */
AW_TRACE_EVENT(lru_gen_iterate_first, TP_PROTO(struct aw_kernel *k, struct lru_gen_mm_walk *walk),
	       TP_ARGS(k, walk))
/* an mm's RFC empty marks were cleared (major fault, migration) */
AW_TRACE_EVENT(lru_gen_clear_empty, TP_PROTO(struct aw_kernel *k, struct mm_struct *mm), TP_ARGS(k, mm))

/* ---- the walk ---------------------------------------------------------------- */

/* walk_mm() of mm starts (walk->mm_stats are zero) */
AW_TRACE_EVENT(lru_gen_walk_begin,
	       TP_PROTO(struct aw_kernel *k, struct lru_gen_mm_walk *walk, struct mm_struct *mm),
	       TP_ARGS(k, walk, mm))
/*
 * The seed series' mm_vmscan_lru_gen_walk: one walk_mm() ended with err
 * (0, -EBUSY: trylock failed, -ESTALE: max_seq moved on), with the walk's
 * mm_stats as try_to_inc_max_seq() accounted them.
 */
AW_TRACE_EVENT(mm_vmscan_lru_gen_walk,
	       TP_PROTO(struct aw_kernel *k, struct lru_gen_mm_walk *walk, struct mm_struct *mm, int err),
	       TP_ARGS(k, walk, mm, err))
/* walk_pmd_range() ran walk_pte_range() on the table of the PMD entry item: suitable to carry over */
AW_TRACE_EVENT(lru_gen_walk_pte_range,
	       TP_PROTO(struct aw_kernel *k, struct lru_gen_mm_walk *walk, uint64_t addr, uint64_t item,
			bool suitable),
	       TP_ARGS(k, walk, addr, item, suitable))
/*
 * walk_pud_range() (seed v3 3/4) on one present PUD entry: skipped by the
 * filter, or walked and walk_pmd_range() said young
 */
AW_TRACE_EVENT(lru_gen_walk_pud,
	       TP_PROTO(struct aw_kernel *k, struct lru_gen_mm_walk *walk, uint64_t addr, uint64_t pudval,
			bool skipped, bool young),
	       TP_ARGS(k, walk, addr, pudval, skipped, young))

/* ---- aging --------------------------------------------------------------------- */

/* inc_max_seq() is about to retire max_seq of lruvec (before any folio moves) */
AW_TRACE_EVENT(lru_gen_inc_max_seq, TP_PROTO(struct aw_kernel *k, struct lruvec *lruvec), TP_ARGS(k, lruvec))
/* try_to_inc_max_seq() (or the split form) on lruvec is over */
AW_TRACE_EVENT(lru_gen_aging_done,
	       TP_PROTO(struct aw_kernel *k, struct lruvec *lruvec, bool success), TP_ARGS(k, lruvec, success))

/* ---- look-around and eviction -------------------------------------------------- */

/*
 * lru_gen_look_around() found the window around addr suitable
 * (suitable_to_scan): the feedback from the rmap walk to the page-table
 * walk, for max_seq of lruvec; pmd_item is the PMD entry's address
 */
AW_TRACE_EVENT(lru_gen_look_around,
	       TP_PROTO(struct aw_kernel *k, struct lruvec *lruvec, struct mm_struct *mm, uint64_t addr,
			uint64_t pmd_item, unsigned long seq),
	       TP_ARGS(k, lruvec, mm, addr, pmd_item, seq))
/* shrink_folio_list() is about to check pfn's references (nothing cleared yet) */
AW_TRACE_EVENT(aw_reclaim_check,
	       TP_PROTO(struct aw_kernel *k, uint32_t pfn, int target_memcg), TP_ARGS(k, pfn, target_memcg))
/* ... and decided: reclaim or not, and whether it ignored the references */
AW_TRACE_EVENT(aw_reclaim_decision,
	       TP_PROTO(struct aw_kernel *k, uint32_t pfn, bool reclaim, bool ignore_references),
	       TP_ARGS(k, pfn, reclaim, ignore_references))
/* something happened to mm's memory: a fault resolved, a migration or a collapse (enum aw_fault_kind, kernel.h) */
AW_TRACE_EVENT(aw_mm_fault, TP_PROTO(struct aw_kernel *k, struct mm_struct *mm, int kind), TP_ARGS(k, mm, kind))
/* dup_mm(): child's page tables are copies of parent's, taken now */
AW_TRACE_EVENT(aw_mm_fork, TP_PROTO(struct aw_kernel *k, struct mm_struct *parent, struct mm_struct *child),
	       TP_ARGS(k, parent, child))
/* move_page_tables() (mremap) moved len bytes of mm's mappings from old to new_addr */
AW_TRACE_EVENT(aw_mm_mremap,
	       TP_PROTO(struct aw_kernel *k, struct mm_struct *mm, uint64_t old, uint64_t new_addr, uint64_t len),
	       TP_ARGS(k, mm, old, new_addr, len))
/* migrate_folio() moved a folio: folio is the new one, its mappings already point at it */
AW_TRACE_EVENT(aw_folio_migrated, TP_PROTO(struct aw_kernel *k, const struct folio *folio), TP_ARGS(k, folio))
/* a folio was reclaimed; mm and addr are its first mapping's, hot by the report's rule */
AW_TRACE_EVENT(aw_folio_evicted,
	       TP_PROTO(struct aw_kernel *k, const struct folio *folio, uint32_t mm, uint64_t addr, bool hot),
	       TP_ARGS(k, folio, mm, addr, hot))

/* ---- khugepaged -------------------------------------------------------------------- */

/* one range of khugepaged_scan_mm_slot() starts and ends; cost is the progress added */
AW_TRACE_EVENT(aw_khugepaged_range_begin,
	       TP_PROTO(struct aw_kernel *k, struct mm_struct *mm, const struct vm_area_struct *vma,
			uint64_t haddr),
	       TP_ARGS(k, mm, vma, haddr))
AW_TRACE_EVENT(aw_khugepaged_range_end,
	       TP_PROTO(struct aw_kernel *k, int result, unsigned int cost), TP_ARGS(k, result, cost))
/* collapse_huge_page() after the allocation, and its result */
AW_TRACE_EVENT(mm_collapse_huge_page_begin,
	       TP_PROTO(struct aw_kernel *k, struct mm_struct *mm, const struct vm_area_struct *vma,
			uint64_t haddr, bool is_khugepaged),
	       TP_ARGS(k, mm, vma, haddr, is_khugepaged))
AW_TRACE_EVENT(mm_collapse_huge_page,
	       TP_PROTO(struct aw_kernel *k, struct mm_struct *mm, uint64_t haddr, int result),
	       TP_ARGS(k, mm, haddr, result))
/* one 2 MiB range of madvise_collapse() starts, and its result */
AW_TRACE_EVENT(aw_madvise_collapse_begin,
	       TP_PROTO(struct aw_kernel *k, struct mm_struct *mm, uint64_t haddr), TP_ARGS(k, mm, haddr))
AW_TRACE_EVENT(aw_madvise_collapse_end,
	       TP_PROTO(struct aw_kernel *k, struct mm_struct *mm, uint64_t haddr, int result),
	       TP_ARGS(k, mm, haddr, result))
/* end of khugepaged_do_scan(): progress, the top-up and what the trace event summed */
AW_TRACE_EVENT(aw_khugepaged_wakeup,
	       TP_PROTO(struct aw_kernel *k, unsigned long progress, unsigned long topup, unsigned long traced),
	       TP_ARGS(k, progress, topup, traced))
/* end of one khugepaged event's wake-ups */
AW_TRACE_EVENT(aw_khugepaged_event_end, TP_PROTO(struct aw_kernel *k), TP_ARGS(k))
