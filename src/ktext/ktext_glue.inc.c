/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The end of every generated file (tools/ktext-extract includes this
 * fragment after the tree's text): mm/pagewalk.c's walk_page_range(), the
 * text's own state, its binding to the host's machine, and the struct
 * aw_ktext_ops the tree exports under its own prefix.
 *
 * Entry points whose signatures changed between releases are called
 * through AW_KTEXT_FORM_<function>, which tools/ktext-extract sets from
 * the signature it found; a signature it does not know stops the build
 * there, with the tree and the function named.
 */
#define AW_CAT2(a, b)	a##b
#define AW_CAT(a, b)	AW_CAT2(a, b)

/* the mm_state's counters: stats[NR_HIST_GENS][NR_MM_STATS], hist 0 without LRU_GEN_STATS */
#define AW_KTEXT_MM_STATS(lruvec)	((lruvec)->mm_state.stats[0])
/* the lruvec's Bloom filter for seq at level (0 PMD, 1 the series' PUD), by test_bloom_filter()'s form */
#if AW_KTEXT_FORM_test_bloom_filter == 1
#define AW_KTEXT_BLOOM_FILTER(lruvec, level, seq) \
	((level) == 0 ? (lruvec)->mm_state.filters[filter_gen_from_seq(seq)] : NULL)
#elif AW_KTEXT_FORM_test_bloom_filter == 2
#define AW_KTEXT_BLOOM_FILTER(lruvec, level, seq) \
	((level) == 0 ? (lruvec)->mm_state.filters[filter_gen_from_seq(seq)] : NULL)
#elif AW_KTEXT_FORM_test_bloom_filter == 3
#define AW_KTEXT_BLOOM_FILTER(lruvec, level, seq) \
	((lruvec)->mm_state.filters[(level) ? BLOOM_FILTER_PUD : BLOOM_FILTER_PMD][filter_gen_from_seq(seq)])
#else
#error "unknown test_bloom_filter() form"
#endif


#include "ktext_pagewalk.inc.c"
#include "ktext_state.inc.c"
#include "ktext_bind.inc.c"
#include "ktext_workingset.inc.c"	/* mm/workingset.c and folio_add_lru() (issue 30) */
#include "ktext_reclaim.inc.c"	/* the reclaim loop and run_aging() (issue 30) */
#include "ktext_references.inc.c"	/* shrink_folio_list()'s folio_check_references() (issue 30) */

static const char *const aw_mm_stat_names[] = { AW_KTEXT_MM_STAT_NAMES };

static void aw_mm_stats(struct aw_ktext *kt, int memcg, int nid, unsigned long *out)
{
	struct lruvec *lruvec = aw_lruvec(kt, memcg, nid);

	for (int i = 0; i < NR_MM_STATS; i++)
		out[i] = lruvec ? AW_KTEXT_MM_STATS(lruvec)[i] : 0;
}

static bool aw_bloom_bits(struct aw_ktext *kt, int memcg, int nid, int level, unsigned long seq,
			  unsigned long *out)
{
	struct lruvec *lruvec = aw_lruvec(kt, memcg, nid);
	const unsigned long *filter = lruvec ? AW_KTEXT_BLOOM_FILTER(lruvec, level, seq) : NULL;

	if (!filter)
		return false;
	memcpy(out, filter, BIT(BLOOM_FILTER_SHIFT) / 8);
	return true;
}

static void aw_walks(struct aw_ktext *kt, unsigned long out[2])
{
	out[0] = kt->walks;
	out[1] = kt->forced_walks;
}

static void aw_ran(struct aw_ktext *kt, unsigned long *out)
{
	memcpy(out, kt->aw_ran, sizeof(kt->aw_ran));
}

static unsigned long aw_warnings(struct aw_ktext *kt, const char **last)
{
	if (last)
		*last = kt->last_warning;
	return kt->warnings;
}

_Static_assert(NR_MM_STATS <= AW_KTEXT_MAX_STATS, "AW_KTEXT_MAX_STATS too small for this tree");

const struct aw_ktext_ops AW_CAT(AW_KTEXT_PREFIX, _ops) = {
	.name = AW_KTEXT_NAME,
	.version = AW_KTEXT_VERSION,
	.series = AW_KTEXT_SERIES,
	.nr_mm_stats = NR_MM_STATS,
	.mm_stat_names = aw_mm_stat_names,
	.bind = aw_bind,
	.destroy = aw_destroy,
	.age = aw_bound_age,
	.age_begin = aw_bound_age_begin,
	.age_step = aw_bound_age_step,
	.evict = aw_bound_evict,
	.look_around = aw_bound_look_around,
	.add_mm = aw_bound_add_mm,
	.del_mm = aw_bound_del_mm,
	.migrate_mm = aw_bound_migrate_mm,
	.use_mm = aw_bound_use_mm,
	.mm_stats = aw_mm_stats,
	.bloom_bits = aw_bloom_bits,
	.mm_list = aw_mm_list,
	.mm_state = aw_mm_state,
	.walks = aw_walks,
	.ran = aw_ran,
	.warnings = aw_warnings,
	/* the workingset side (ktext_workingset.inc.c, issue 30) */
	.eviction = aw_bound_eviction,
	.refault = aw_bound_refault,
	.add_folio = aw_bound_add_folio,
	/* the reclaim loop (ktext_reclaim.inc.c) */
	.shrink_lruvec = aw_bound_shrink_lruvec,
	.run_aging = aw_bound_run_aging,
	/* shrink_folio_list()'s reference check (ktext_references.inc.c) */
	.check_references = aw_bound_check_references,
};
