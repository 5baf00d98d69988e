// SPDX-License-Identifier: GPL-2.0-only
/*
 * The releases' rules (profile.h), one const instance per release, in
 * version order.  tests/unit/test_profile_rules.c lists by hand which
 * rules differ between neighbours and fails if these tables disagree.
 */
#include "profile.h"
#include "folio.h"

/* Debian bookworm's 6.1 */
static const struct aw_profile aw_profile_6_1 = {
	.get_pfn_folio_gen_test		= false,
	.two_touch			= false,
	.can_swap_arg			= true,
	.swappiness_anon_only		= false,
	.aging_refused_at_max_gens	= true,
	.memcg_reclaim_aborts		= false,
	.shrink_lruvec_need_aging	= true,
	.clear_pmd_young_unless_forced	= false,
	.ptl_trylock_returns		= false,
	.mm_iteration_nr_walkers		= true,
	.skip_small_mm			= true,
	.inc_min_seq_form		= AW_INC_MIN_SEQ_CAN_SWAP,
	.should_run_aging_form		= AW_SHOULD_RUN_AGING_CAN_SWAP,
	.inc_gen_counts_protected	= false,

	.refs_form			= AW_REFS_COUNTER_WORKINGSET,
	.inc_refs_counter_first		= false,
	.lru_refs_flags			= LRU_REFS_MASK | 1UL << PG_referenced | 1UL << PG_workingset,
	.tier_gain_sp			= 1,
	.tier_gain_pv			= 2,
	.type_to_scan_form		= AW_TYPE_TO_SCAN_FIRST_TIER,
	.add_folio_seq_form		= AW_ADD_SEQ_FROM_MIN,
	.add_active_clears_refs		= false,
	.refault_form			= AW_REFAULT_MIN_SEQ,
	.refault_counted_first		= false,

	.look_around_can_swap		= AW_LOOK_AROUND_CAN_SWAP_WALK,
	.look_around_before_clear	= true,
	.referenced_skips_no_recency	= false,
	.check_references_classic	= true,
	.keep_promoted_while_isolated	= true,
	.sort_dirty_lazyfree_to_anon	= true,
	.sort_protected_to_head		= false,
	.sort_waits_writeback		= true,
	.isolate_clears_referenced	= true,
	.isolate_clears_reclaim		= true,
	.scan_budget_nr_to_scan		= false,
	.putback_activates_all		= true,
	.evict_cutoff_form		= AW_EVICT_CUTOFF_TYPE,

	.thp_aligned_anon_mmap		= false,
	.split_maps_zero_page		= false,
	.khugepaged_exit_or_disable	= false,
	.madv_collapse_pmd_none_stops	= true,
};

/* Debian trixie's 6.12 */
static const struct aw_profile aw_profile_6_12 = {
	.get_pfn_folio_gen_test		= false,
	.two_touch			= false,
	.can_swap_arg			= true,
	.swappiness_anon_only		= false,
	.aging_refused_at_max_gens	= true,
	.memcg_reclaim_aborts		= true,
	.shrink_lruvec_need_aging	= false,
	.clear_pmd_young_unless_forced	= true,
	.ptl_trylock_returns		= false,
	.mm_iteration_nr_walkers		= false,
	.skip_small_mm			= false,
	.inc_min_seq_form		= AW_INC_MIN_SEQ_CAN_SWAP,
	.should_run_aging_form		= AW_SHOULD_RUN_AGING_CAN_SWAP,
	.inc_gen_counts_protected	= false,

	.refs_form			= AW_REFS_COUNTER_WORKINGSET,
	.inc_refs_counter_first		= false,
	.lru_refs_flags			= LRU_REFS_MASK | 1UL << PG_referenced | 1UL << PG_workingset,
	.tier_gain_sp			= 1,
	.tier_gain_pv			= 2,
	.type_to_scan_form		= AW_TYPE_TO_SCAN_FIRST_TIER,
	.add_folio_seq_form		= AW_ADD_SEQ_FROM_MIN,
	.add_active_clears_refs		= true,
	.refault_form			= AW_REFAULT_MIN_SEQ,
	.refault_counted_first		= true,

	.look_around_can_swap		= AW_LOOK_AROUND_TARGET_ANON,
	.look_around_before_clear	= false,
	.referenced_skips_no_recency	= true,
	.check_references_classic	= true,
	.keep_promoted_while_isolated	= true,
	.sort_dirty_lazyfree_to_anon	= false,
	.sort_protected_to_head		= false,
	.sort_waits_writeback		= false,
	.isolate_clears_referenced	= true,
	.isolate_clears_reclaim		= false,
	.scan_budget_nr_to_scan		= false,
	.putback_activates_all		= true,
	.evict_cutoff_form		= AW_EVICT_CUTOFF_TYPE,

	.thp_aligned_anon_mmap		= true,
	.split_maps_zero_page		= true,
	.khugepaged_exit_or_disable	= true,
	.madv_collapse_pmd_none_stops	= true,
};

/* mainline: the model's default (6.14's workingset rework, 6.17's scan budget) */
static const struct aw_profile aw_profile_mainline = {
	.get_pfn_folio_gen_test		= true,
	.two_touch			= true,
	.can_swap_arg			= false,
	.swappiness_anon_only		= true,
	.aging_refused_at_max_gens	= false,
	.memcg_reclaim_aborts		= false,
	.shrink_lruvec_need_aging	= false,
	.clear_pmd_young_unless_forced	= true,
	.ptl_trylock_returns		= true,
	.mm_iteration_nr_walkers		= false,
	.skip_small_mm			= false,
	.inc_min_seq_form		= AW_INC_MIN_SEQ_EVICTABLE,
	.should_run_aging_form		= AW_SHOULD_RUN_AGING_EVICTABLE,
	.inc_gen_counts_protected	= true,

	.refs_form			= AW_REFS_REFERENCED_FIRST,
	.inc_refs_counter_first		= true,
	.lru_refs_flags			= LRU_REFS_FLAGS,
	.tier_gain_sp			= 2,
	.tier_gain_pv			= 3,
	.type_to_scan_form		= AW_TYPE_TO_SCAN_ALL_TIERS,
	.add_folio_seq_form		= AW_ADD_SEQ_FROM_MAX,
	.add_active_clears_refs		= false,
	.refault_form			= AW_REFAULT_MAX_SEQ,
	.refault_counted_first		= true,

	.look_around_can_swap		= AW_LOOK_AROUND_ANY_TYPE,
	.look_around_before_clear	= false,
	.referenced_skips_no_recency	= true,
	.check_references_classic	= false,
	.keep_promoted_while_isolated	= false,
	.sort_dirty_lazyfree_to_anon	= false,
	.sort_protected_to_head		= true,
	.sort_waits_writeback		= true,
	.isolate_clears_referenced	= false,
	.isolate_clears_reclaim		= true,
	.scan_budget_nr_to_scan		= true,
	.putback_activates_all		= false,
	.evict_cutoff_form		= AW_EVICT_CUTOFF_EVICTABLE,

	.thp_aligned_anon_mmap		= true,
	.split_maps_zero_page		= true,
	.khugepaged_exit_or_disable	= true,
	.madv_collapse_pmd_none_stops	= false,
};

static const struct aw_profile *const aw_profiles[AW_KERNEL_NR] = {
	[AW_KERNEL_6_1]		= &aw_profile_6_1,
	[AW_KERNEL_6_12]	= &aw_profile_6_12,
	[AW_KERNEL_MAINLINE]	= &aw_profile_mainline,
};

const struct aw_profile *aw_profile(enum aw_kernel_profile release)
{
	if ((unsigned int)release >= AW_KERNEL_NR)
		return aw_profiles[AW_KERNEL_MAINLINE];
	return aw_profiles[release];
}

#define AW_RULE(field) { #field, offsetof(struct aw_profile, field), sizeof(((struct aw_profile *)0)->field) }

const struct aw_profile_rule aw_profile_rules[] = {
	AW_RULE(get_pfn_folio_gen_test),
	AW_RULE(two_touch),
	AW_RULE(can_swap_arg),
	AW_RULE(swappiness_anon_only),
	AW_RULE(aging_refused_at_max_gens),
	AW_RULE(memcg_reclaim_aborts),
	AW_RULE(shrink_lruvec_need_aging),
	AW_RULE(clear_pmd_young_unless_forced),
	AW_RULE(ptl_trylock_returns),
	AW_RULE(mm_iteration_nr_walkers),
	AW_RULE(skip_small_mm),
	AW_RULE(inc_min_seq_form),
	AW_RULE(should_run_aging_form),
	AW_RULE(inc_gen_counts_protected),
	AW_RULE(refs_form),
	AW_RULE(inc_refs_counter_first),
	AW_RULE(lru_refs_flags),
	AW_RULE(tier_gain_sp),
	AW_RULE(tier_gain_pv),
	AW_RULE(type_to_scan_form),
	AW_RULE(add_folio_seq_form),
	AW_RULE(add_active_clears_refs),
	AW_RULE(refault_form),
	AW_RULE(refault_counted_first),
	AW_RULE(look_around_can_swap),
	AW_RULE(look_around_before_clear),
	AW_RULE(referenced_skips_no_recency),
	AW_RULE(check_references_classic),
	AW_RULE(keep_promoted_while_isolated),
	AW_RULE(sort_dirty_lazyfree_to_anon),
	AW_RULE(sort_protected_to_head),
	AW_RULE(sort_waits_writeback),
	AW_RULE(isolate_clears_referenced),
	AW_RULE(isolate_clears_reclaim),
	AW_RULE(scan_budget_nr_to_scan),
	AW_RULE(putback_activates_all),
	AW_RULE(evict_cutoff_form),
	AW_RULE(thp_aligned_anon_mmap),
	AW_RULE(split_maps_zero_page),
	AW_RULE(khugepaged_exit_or_disable),
	AW_RULE(madv_collapse_pmd_none_stops),
};

const size_t aw_profile_nr_rules = sizeof(aw_profile_rules) / sizeof(aw_profile_rules[0]);
