/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel profiles as data: where the MGLRU code of the releases the model
 * follows (6.1, 6.12, mainline) differs, one named rule says what each
 * release does.  The model reads k->prof->RULE; it never asks which release
 * it runs.  A rule is named after what the kernel does differently, and its
 * comment names the kernel function and which releases do what.
 *
 * Adding a release: one const instance in profile.c (its place in version
 * order), its entry in aw_kernel_profile_names[] and aw_kernel_releases[]
 * (src/event), and its list of rules that differ from its neighbour in
 * tests/unit/test_profile_rules.c.
 */
#ifndef AW_PROFILE_H
#define AW_PROFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "scenario.h"

/* try_to_inc_min_seq(): which types it advances, and how */
enum aw_inc_min_seq_form {
	/* 6.1/6.12: (lruvec, bool can_swap): anon only with can_swap; anon never ahead of file */
	AW_INC_MIN_SEQ_CAN_SWAP,
	/* mainline: (lruvec, int swappiness): for_each_evictable_type(), sequence by sequence */
	AW_INC_MIN_SEQ_EVICTABLE,
};

/* evict_folios(): when a scan reports no progress */
enum aw_evict_cutoff_form {
	/* 6.1/6.12: get_nr_gens(lruvec, !swappiness) == MIN_NR_GENS */
	AW_EVICT_CUTOFF_TYPE,
	/* mainline: evictable_min_seq(min_seq, swappiness) + MIN_NR_GENS > max_seq */
	AW_EVICT_CUTOFF_EVICTABLE,
};

/* should_run_aging() */
enum aw_should_run_aging_form {
	/* 6.1/6.12: the lazy aging of min_seq[!can_swap] (young and old sizes) */
	AW_SHOULD_RUN_AGING_CAN_SWAP,
	/* mainline: age only when eviction is no longer possible */
	AW_SHOULD_RUN_AGING_EVICTABLE,
};

/* lru_gen_look_around(): which neighbours get_pfn_folio() may return */
enum aw_look_around_can_swap {
	AW_LOOK_AROUND_CAN_SWAP_WALK,	/* 6.1: !walk || walk->can_swap */
	AW_LOOK_AROUND_TARGET_ANON,	/* 6.12: !folio_is_file_lru(target) */
	AW_LOOK_AROUND_ANY_TYPE,	/* mainline: no can_swap */
};

/* How a folio's references are kept (include/linux/mm_inline.h) */
enum aw_refs_form {
	/*
	 * 6.1/6.12: PG_referenced is the first access apart; folio_lru_refs()
	 * is the counter + PG_workingset, lru_tier_from_refs() order_base_2(refs + 1).
	 */
	AW_REFS_COUNTER_WORKINGSET,
	/*
	 * mainline ("mm/mglru: rework workingset protection", 6.14):
	 * folio_lru_refs() counts PG_referenced as the first access;
	 * PG_workingset is a tier of its own.
	 */
	AW_REFS_REFERENCED_FIRST,
};

/* lru_gen_add_folio(): the sequence a folio is added at */
enum aw_add_folio_seq_form {
	/* 6.1/6.12: active at max_seq, counted up from min_seq otherwise */
	AW_ADD_SEQ_FROM_MIN,
	/* mainline lru_gen_folio_seq(): counted down from max_seq by PG_workingset */
	AW_ADD_SEQ_FROM_MAX,
};

/* get_type_to_scan() and isolate_folios()'s first type */
enum aw_type_to_scan_form {
	/* 6.1/6.12: isolate_folios() decides the obvious cases; the first tiers compared */
	AW_TYPE_TO_SCAN_FIRST_TIER,
	/* mainline ("mm/mglru: rework type selection", 6.14): all tiers, swappiness <= 1 / >= 200 inside */
	AW_TYPE_TO_SCAN_ALL_TIERS,
};

/* lru_gen_refault(): what "recent" means and what a refault restores */
enum aw_refault_form {
	/* 6.1/6.12: evicted from the current min_seq; every reference bit + PG_workingset */
	AW_REFAULT_MIN_SEQ,
	/* mainline ("mm/mglru: rework refault detection", 6.14): within MAX_NR_GENS of max_seq */
	AW_REFAULT_MAX_SEQ,
};

struct aw_profile {
	/* --- aging: the page table walk and the mm list --- */

	/*
	 * get_pfn_folio(): mainline returns NULL for a folio off its list
	 * ("try to avoid unnecessary memory loads"); 6.1/6.12 return it, so
	 * look-around clears an isolated folio's young PTE.
	 */
	bool get_pfn_folio_gen_test;
	/*
	 * folio_update_gen() / walk_update_folio(): mainline (6.14) promotes
	 * on the second young sighting (the first sets PG_referenced,
	 * lru_gen_set_refs()); 6.1/6.12 on the first.
	 */
	bool two_touch;
	/*
	 * 6.1/6.12 pass bool can_swap (swappiness != 0) through the aging
	 * (try_to_inc_max_seq(), walk->can_swap, get_pfn_folio()); mainline
	 * passes swappiness (6.14, "mm/mglru: rework type selection").
	 */
	bool can_swap_arg;
	/* run_cmd(): swappiness MAX_SWAPPINESS + 1 ("anon only") is mainline's; 6.1/6.12 -EINVAL */
	bool swappiness_anon_only;
	/*
	 * run_aging(): 6.1/6.12 refuse an unforced '+' with -ERANGE while
	 * min_seq[!can_swap] + MAX_NR_GENS - 1 <= max_seq; mainline has no such test.
	 */
	bool aging_refused_at_max_gens;
	/*
	 * should_abort_scan(): 6.12 stops try_to_shrink_lruvec() once
	 * sc->nr_reclaimed >= max(nr_to_reclaim, compact_gap(order)), memcg
	 * reclaim too; mainline never aborts memcg reclaim ("don't abort
	 * memcg reclaim to ensure fairness").  6.1 has a loop of its own
	 * (shrink_lruvec_need_aging): false.
	 */
	bool memcg_reclaim_aborts;
	/*
	 * lru_gen_shrink_lruvec(): 6.1 loops itself, with a get_nr_to_scan()
	 * that evicts after aging (need_aging) and a should_abort_scan() that
	 * ages each memcg at most once and stops an anon batch past
	 * nr_to_reclaim (need_swapping); 6.3+ ("mm: multi-gen LRU: per-node
	 * lru_gen_folio lists", the memcg LRU) call try_to_shrink_lruvec().
	 */
	bool shrink_lruvec_need_aging;
	/*
	 * walk_pmd_range_locked()/walk_pmd_range(): 6.12/mainline clear a
	 * non-leaf PMD's young bit only if !force_scan and no mmu notifiers;
	 * 6.1 whenever should_clear_pmd_young().
	 */
	bool clear_pmd_young_unless_forced;
	/*
	 * walk_pte_range(): what it returns when spin_trylock(ptl) fails:
	 * mainline true (the table may still go into the Bloom filter),
	 * 6.1/6.12 false.
	 */
	bool ptl_trylock_returns;
	/*
	 * 6.1's iterate_mm_list() and lru_gen_del_mm(): walkers counted,
	 * head inclusive, the last walker finishes the iteration; 6.12 and
	 * mainline have the per-lruvec mm_state with head exclusive.
	 */
	bool mm_iteration_nr_walkers;
	/* 6.1 should_skip_mm(): an mm with fewer than MIN_LRU_BATCH pages is not walked */
	bool skip_small_mm;
	/* try_to_inc_min_seq() */
	enum aw_inc_min_seq_form inc_min_seq_form;
	/* should_run_aging() */
	enum aw_should_run_aging_form should_run_aging_form;
	/* inc_min_seq()'s folio_inc_gen(): mainline counts what it moves as protected; 6.1/6.12 do not */
	bool inc_gen_counts_protected;

	/* --- references, tiers and placement --- */

	enum aw_refs_form refs_form;
	/*
	 * folio_mark_accessed() (mm/swap.c): mainline lru_gen_inc_refs() fills
	 * the refs counter after PG_referenced and sets PG_workingset last
	 * (6.14, "mm/mglru: rework workingset protection"); 6.1/6.12
	 * folio_inc_refs() set PG_workingset second, then count.
	 */
	bool inc_refs_counter_first;
	/* LRU_REFS_FLAGS: the bits isolate_folio() and putback clear with the counter */
	unsigned long lru_refs_flags;
	/* get_tier_idx(): the PID gains of tier 0 (sp) and of the others (pv): 1:2 in 6.1/6.12, 2:3 mainline */
	int tier_gain_sp, tier_gain_pv;
	enum aw_type_to_scan_form type_to_scan_form;
	enum aw_add_folio_seq_form add_folio_seq_form;
	/* lru_gen_add_folio(): 6.12 also clears an active folio's refs and PG_referenced */
	bool add_active_clears_refs;
	enum aw_refault_form refault_form;
	/*
	 * lru_gen_refault(): WORKINGSET_REFAULT counts every refault of the
	 * lruvec's own, before the recency test (6.12, mainline: since 6.5);
	 * 6.1 counts only a recent one.
	 */
	bool refault_counted_first;

	/* --- eviction --- */

	enum aw_look_around_can_swap look_around_can_swap;
	/*
	 * 6.1 folio_referenced_one(): looks around a young PTE before it
	 * clears it (and not in VM_SEQ_READ/VM_RAND_READ VMAs); 6.12 and
	 * mainline clear it first, in lru_gen_look_around().
	 */
	bool look_around_before_clear;
	/*
	 * folio_referenced(): 6.12 and mainline (since 6.3) skip a VMA
	 * without recency -- invalid_folio_referenced_vma() tests
	 * vma_has_recency(): VM_SEQ_READ, VM_RAND_READ -- so its young PTE is
	 * neither looked around, cleared nor counted; 6.1 examines it (its
	 * folio_referenced_one() does not count a VM_SEQ_READ one)
	 */
	bool referenced_skips_no_recency;
	/*
	 * folio_check_references(): 6.1/6.12 the classic rule (keep once,
	 * activate referenced twice); mainline (6.14) MGLRU's own
	 * (lru_gen_set_refs()).
	 */
	bool check_references_classic;
	/*
	 * shrink_folio_list(): "folio_update_gen() tried to promote this
	 * page?" -- 6.1/6.12 keep a mapped folio found young after its
	 * isolation; mainline dropped the test.
	 */
	bool keep_promoted_while_isolated;
	/* sort_folio(): 6.1 puts a dirty lazyfree folio back on the anon list first */
	bool sort_dirty_lazyfree_to_anon;
	/*
	 * sort_folio(): mainline moves a protected folio to the head of its
	 * new generation and does not count the lazily promoted; 6.1/6.12
	 * move it to the tail and count it.
	 */
	bool sort_protected_to_head;
	/* sort_folio(): dirty page cache waits for writeback (6.1, mainline); 6.12 has no such test */
	bool sort_waits_writeback;
	/* isolate_folio(): 6.1/6.12 clear PG_referenced (and with it LRU_REFS_FLAGS); mainline keeps it */
	bool isolate_clears_referenced;
	/* isolate_folio(): 6.1 and mainline clear PG_reclaim; 6.12 leaves it */
	bool isolate_clears_reclaim;
	/* scan_folios(): min(nr_to_scan, MAX_LRU_BATCH) folios in mainline (6.17); MAX_LRU_BATCH before */
	bool scan_budget_nr_to_scan;
	/*
	 * evict_folios()' putback: 6.1/6.12 activate every rejected folio;
	 * mainline only one lru_gen_folio_seq() would place at min_seq.
	 */
	bool putback_activates_all;
	enum aw_evict_cutoff_form evict_cutoff_form;

	/* --- memory management around MGLRU --- */

	/*
	 * __get_unmapped_area(): an anon mapping of a PMD_SIZE multiple is PMD
	 * aligned (6.12, mainline: since 6.7 "mm: align larger anonymous
	 * mappings on THP boundaries"); 6.1 places it at page granularity.
	 */
	bool thp_aligned_anon_mmap;
	/*
	 * __split_huge_page(): RMP_USE_SHARED_ZEROPAGE maps an anon THP's
	 * zero-filled subpages to the zero page (6.12, mainline: "map
	 * zero-filled pages to zeropage upon splitting THP"); 6.1 keeps them.
	 */
	bool split_maps_zero_page;
	/*
	 * khugepaged_scan_mm_slot(): an mm with MMF_DISABLE_THP ends the call
	 * at once, like an exiting one (hpage_collapse_test_exit_or_disable(),
	 * 6.12 and mainline: "mm/khugepaged: bypassing unnecessary scans with
	 * MMF_DISABLE_THP check"); 6.1 tests only mm_users and skips the
	 * mm's VMAs one by one, each refused by hugepage_vma_check().
	 */
	bool khugepaged_exit_or_disable;
	/*
	 * madvise_collapse(): a range whose PMD entry is none in an existing
	 * PMD table ends the call (6.1, 6.12: find_pmd_or_thp_or_none() says
	 * SCAN_PMD_NONE, which is not among the results it continues after;
	 * SCAN_PMD_NULL, no table, is).  Mainline has one SCAN_NO_PTE_TABLE
	 * for both, and continues.
	 */
	bool madv_collapse_pmd_none_stops;
};

/* The rules of one release. */
const struct aw_profile *aw_profile(enum aw_kernel_profile release);

/* Every rule by name, where it lies in struct aw_profile: for tests and diagnostics. */
struct aw_profile_rule {
	const char *name;
	size_t offset, size;
};

extern const struct aw_profile_rule aw_profile_rules[];
extern const size_t aw_profile_nr_rules;

#endif /* AW_PROFILE_H */
