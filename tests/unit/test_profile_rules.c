// SPDX-License-Identifier: GPL-2.0-only
/*
 * The profile tables (src/sim/profile.c) against a hand-written list of
 * which rules change from each release to the next, in version order
 * (aw_kernel_releases[], src/event).  A new release is one more instance
 * and one more step here: the rules its kernel does differently from its
 * older neighbour, each checked against that kernel's text.
 */
#include <string.h>

#include "aw_test.h"
#include "profile.h"
#include "scenario.h"

/* 6.1 -> 6.12 */
static const char *const from_6_1_to_6_12[] = {
	"clear_pmd_young_unless_forced",	/* walk_pmd_range(): !force_scan && !mm_has_notifiers() */
	"mm_iteration_nr_walkers",		/* per-lruvec mm_state, head exclusive (6.6) */
	"skip_small_mm",			/* should_skip_mm()'s size test gone */
	"add_active_clears_refs",		/* lru_gen_add_folio() clears an active folio's refs */
	"refault_counted_first",		/* "Multi-gen LRU: Fix workingset accounting" (6.5) */
	"look_around_can_swap",			/* !folio_is_file_lru(target) */
	"look_around_before_clear",		/* lru_gen_look_around() clears the PTE first */
	"referenced_skips_no_recency",		/* invalid_folio_referenced_vma(): vma_has_recency() (6.3) */
	"sort_dirty_lazyfree_to_anon",		/* sort_folio() no longer asks */
	"sort_waits_writeback",			/* evict_folios() handles writeback after the fact */
	"isolate_clears_reclaim",		/* isolate_folio() leaves PG_reclaim */
	"thp_aligned_anon_mmap",		/* "mm: align larger anonymous mappings on THP boundaries" (6.7) */
	"split_maps_zero_page",			/* "map zero-filled pages to zeropage upon splitting THP" */
	"khugepaged_exit_or_disable",		/* "mm/khugepaged: bypassing unnecessary scans with MMF_DISABLE_THP check" */
	"memcg_reclaim_aborts",			/* should_abort_scan() in try_to_shrink_lruvec() */
	"shrink_lruvec_need_aging",		/* 6.1's own loop; the memcg LRU (6.3) */
	NULL
};

/* 6.12 -> mainline */
static const char *const from_6_12_to_mainline[] = {
	"get_pfn_folio_gen_test",
	"two_touch",				/* "mm/mglru: rework workingset protection" (6.14) */
	"can_swap_arg",				/* swappiness instead of can_swap */
	"swappiness_anon_only",			/* swappiness=max: anon only */
	"aging_refused_at_max_gens",		/* "mm/mglru: rework aging feedback" (6.14) */
	"memcg_reclaim_aborts",			/* should_abort_scan(): "don't abort memcg reclaim" */
	"ptl_trylock_returns",
	"inc_min_seq_form",
	"should_run_aging_form",
	"inc_gen_counts_protected",
	"refs_form",
	"inc_refs_counter_first",		/* lru_gen_inc_refs(): counter before PG_workingset */
	"lru_refs_flags",
	"tier_gain_sp",
	"tier_gain_pv",
	"type_to_scan_form",			/* "mm/mglru: rework type selection" (6.14) */
	"add_folio_seq_form",
	"add_active_clears_refs",
	"refault_form",				/* "mm/mglru: rework refault detection" (6.14) */
	"look_around_can_swap",
	"check_references_classic",
	"keep_promoted_while_isolated",
	"sort_protected_to_head",
	"madv_collapse_pmd_none_stops",		/* "mm/khugepaged: unify SCAN_PMD_NONE and SCAN_PMD_NULL into SCAN_NO_PTE_TABLE" */
	"sort_waits_writeback",
	"isolate_clears_referenced",
	"isolate_clears_reclaim",
	"scan_budget_nr_to_scan",		/* proportional reclaim pressure for memcg (6.17) */
	"putback_activates_all",
	"evict_cutoff_form",
	NULL
};

struct release_step {
	enum aw_kernel_profile older, newer;
	const char *const *differ;
};

static const struct release_step steps[] = {
	{ AW_KERNEL_6_1, AW_KERNEL_6_12, from_6_1_to_6_12 },
	{ AW_KERNEL_6_12, AW_KERNEL_MAINLINE, from_6_12_to_mainline },
};

#define NR_STEPS	(sizeof(steps) / sizeof(steps[0]))

static bool listed(const char *const *list, const char *name)
{
	for (; *list; list++)
		if (!strcmp(*list, name))
			return true;
	return false;
}

static bool rule_differs(const struct aw_profile *a, const struct aw_profile *b,
			 const struct aw_profile_rule *r)
{
	return memcmp((const char *)a + r->offset, (const char *)b + r->offset, r->size) != 0;
}

/* One step per pair of neighbours in aw_kernel_releases[], oldest first. */
static void test_steps_follow_version_order(void)
{
	CHECK_EQ(NR_STEPS, AW_KERNEL_NR - 1);
	for (size_t i = 0; i < NR_STEPS && i + 1 < AW_KERNEL_NR; i++) {
		CHECK_EQ(steps[i].older, aw_kernel_releases[i]);
		CHECK_EQ(steps[i].newer, aw_kernel_releases[i + 1]);
	}
}

/* Each step's list is exactly the rules whose values differ. */
static void test_neighbours_differ_as_listed(void)
{
	for (size_t i = 0; i < NR_STEPS; i++) {
		const struct aw_profile *a = aw_profile(steps[i].older), *b = aw_profile(steps[i].newer);

		for (size_t r = 0; r < aw_profile_nr_rules; r++) {
			const struct aw_profile_rule *rule = &aw_profile_rules[r];
			bool differs = rule_differs(a, b, rule), expected = listed(steps[i].differ, rule->name);

			aw_test_checks++;
			if (differs != expected) {
				aw_test_failures++;
				fprintf(stderr, "%s -> %s: rule %s %s, the list says it %s\n",
					aw_kernel_profile_name(steps[i].older), aw_kernel_profile_name(steps[i].newer),
					rule->name, differs ? "differs" : "is the same",
					expected ? "differs" : "is the same");
			}
		}
	}
}

/* Every name listed is a rule (a misspelt one would never be compared). */
static void test_listed_names_are_rules(void)
{
	for (size_t i = 0; i < NR_STEPS; i++) {
		for (const char *const *name = steps[i].differ; *name; name++) {
			bool found = false;

			for (size_t r = 0; r < aw_profile_nr_rules; r++)
				found |= !strcmp(aw_profile_rules[r].name, *name);
			aw_test_checks++;
			if (!found) {
				aw_test_failures++;
				fprintf(stderr, "listed rule %s is not in aw_profile_rules[]\n", *name);
			}
		}
	}
}

/*
 * aw_profile_rules[] names every field that differs anywhere: the older
 * profile with each named rule copied from the newer one is the newer one.
 */
static void test_rule_table_covers_profile(void)
{
	for (size_t i = 0; i < NR_STEPS; i++) {
		const struct aw_profile *b = aw_profile(steps[i].newer);
		struct aw_profile t = *aw_profile(steps[i].older);

		for (size_t r = 0; r < aw_profile_nr_rules; r++)
			memcpy((char *)&t + aw_profile_rules[r].offset, (const char *)b + aw_profile_rules[r].offset,
			       aw_profile_rules[r].size);
		CHECK(!memcmp(&t, b, sizeof(t)));
	}
}

/* The release identities the lab, compare and --version read (src/event) */
static void test_release_identities(void)
{
	char buf[128];

	CHECK_STR(aw_kernel_release_list(buf, sizeof(buf), false, "|", "|"), "6.1|6.12|mainline");
	CHECK_STR(aw_kernel_release_list(buf, sizeof(buf), false, "|", "|"), AW_KERNEL_RELEASE_WORDS);
	CHECK_STR(aw_kernel_release_list(buf, sizeof(buf), true, ", ", " and "), "6.1 and 6.12");
	CHECK_EQ(aw_kernel_release_profile("6.1.0-57-cloud-amd64"), AW_KERNEL_6_1);
	CHECK_EQ(aw_kernel_release_profile("6.12.48+deb13-amd64"), AW_KERNEL_6_12);
	CHECK_EQ(aw_kernel_release_profile("6.1"), AW_KERNEL_6_1);
	CHECK_EQ(aw_kernel_release_profile("6.10.3"), -1);
	CHECK_EQ(aw_kernel_release_profile("mainline"), -1);
	for (int i = 0; i < AW_KERNEL_NR; i++)
		CHECK_EQ(aw_kernel_profile_parse(aw_kernel_profile_name(aw_kernel_releases[i])), aw_kernel_releases[i]);
}

int main(void)
{
	RUN(test_steps_follow_version_order);
	RUN(test_neighbours_differ_as_listed);
	RUN(test_listed_names_are_rules);
	RUN(test_rule_table_covers_profile);
	RUN(test_release_identities);
	return aw_test_report("test_profile_rules");
}
