/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The end of every generated file: mm/pagewalk.c's walk_page_range(), the
 * machine (what the kernel's fault, mmap and fork paths would have set up),
 * and the struct aw_ktext_ops the tree exports under its own prefix.
 *
 * Entry points whose signatures changed between releases are called
 * through AW_KTEXT_FORM_<function>, which tools/ktext-extract sets from
 * the signature it found; a signature it does not know stops the build
 * there, with the tree and the function named.
 */
#ifndef AW_KTEXT_GLUE_H
#define AW_KTEXT_GLUE_H

#define AW_CAT2(a, b)	a##b
#define AW_CAT(a, b)	AW_CAT2(a, b)

/* the mm_state's counters: stats[NR_HIST_GENS][NR_MM_STATS], hist 0 without LRU_GEN_STATS */
#define AW_KTEXT_MM_STATS(lruvec)	((lruvec)->mm_state.stats[0])
#if AW_KTEXT_FORM_test_bloom_filter == 1
#define AW_KTEXT_TEST_BLOOM_PMD(lruvec, seq, pmd)	test_bloom_filter(get_mm_state(lruvec), seq, pmd)
#define AW_KTEXT_BLOOM_FILTER(lruvec, level, seq) \
	((level) == 0 ? (lruvec)->mm_state.filters[filter_gen_from_seq(seq)] : NULL)
#elif AW_KTEXT_FORM_test_bloom_filter == 2
#define AW_KTEXT_TEST_BLOOM_PMD(lruvec, seq, pmd)	test_bloom_filter(lruvec, seq, pmd)
#define AW_KTEXT_BLOOM_FILTER(lruvec, level, seq) \
	((level) == 0 ? (lruvec)->mm_state.filters[filter_gen_from_seq(seq)] : NULL)
#elif AW_KTEXT_FORM_test_bloom_filter == 3
#define AW_KTEXT_TEST_BLOOM_PMD(lruvec, seq, pmd) \
	test_bloom_filter(get_mm_state(lruvec), BLOOM_FILTER_PMD, seq, pmd)
#define AW_KTEXT_BLOOM_FILTER(lruvec, level, seq) \
	((lruvec)->mm_state.filters[(level) ? BLOOM_FILTER_PUD : BLOOM_FILTER_PMD][filter_gen_from_seq(seq)])
#else
#error "unknown test_bloom_filter() form"
#endif


#include "ktext_pagewalk.h"
#include "ktext_machine.h"
#include "ktext_bind.h"

/*
 * The debugfs '+' command (lru_gen_seq_write(): set_mm_walk(), run_aging(),
 * clear_mm_walk()).  Which argument carries swappiness depends on the
 * release: can_swap before 6.14, swappiness after, a scan_control in 6.1.
 */
static int aw_age(struct aw_ktext *kt, int memcg, int nid, unsigned long seq, int swappiness,
		  bool force_scan)
{
	struct lruvec *lruvec = aw_lruvec(kt, memcg, nid);
	int err;

	if (!lruvec)
		return -EINVAL;
	AW_ENTER(kt);
#if AW_KTEXT_FORM_set_mm_walk == 1
	set_mm_walk(NULL, true);
#else
	set_mm_walk(NULL);
#endif
#if AW_KTEXT_FORM_run_aging == 1
	err = run_aging(lruvec, seq, swappiness != 0, force_scan);
#elif AW_KTEXT_FORM_run_aging == 2
	err = run_aging(lruvec, seq, swappiness, force_scan);
#elif AW_KTEXT_FORM_run_aging == 3
	{
		/* lru_gen_seq_write()'s scan_control */
		struct scan_control sc = { .may_writepage = true, .may_unmap = true, .may_swap = true,
					   .reclaim_idx = MAX_NR_ZONES - 1, .gfp_mask = GFP_KERNEL };

		err = run_aging(lruvec, seq, &sc, swappiness != 0, force_scan);
	}
#else
#error "unknown run_aging() form"
#endif
	clear_mm_walk();
	AW_LEAVE();
	return err;
}

static bool aw_inc_min_seq(struct aw_ktext *kt, int memcg, int nid, int swappiness)
{
	struct lruvec *lruvec = aw_lruvec(kt, memcg, nid);
	bool ok;

	if (!lruvec)
		return false;
	AW_ENTER(kt);
#if AW_KTEXT_FORM_try_to_inc_min_seq == 1
	ok = try_to_inc_min_seq(lruvec, swappiness != 0);
#elif AW_KTEXT_FORM_try_to_inc_min_seq == 2
	ok = try_to_inc_min_seq(lruvec, swappiness);
#else
#error "unknown try_to_inc_min_seq() form"
#endif
	AW_LEAVE();
	return ok;
}

static long aw_evict(struct aw_ktext *kt, int memcg, int nid, int swappiness)
{
	struct lruvec *lruvec = aw_lruvec(kt, memcg, nid);
	struct scan_control sc = { .gfp_mask = GFP_KERNEL, .reclaim_idx = MAX_NR_ZONES - 1, .may_swap = 1,
				   .may_unmap = 1, .may_writepage = 1, .swappiness = swappiness,
				   .nr_to_reclaim = SWAP_CLUSTER_MAX_AW };
	LIST_HEAD(list);
	long n = 0;
	int type;

	if (!lruvec)
		return -1;
	AW_ENTER(kt);
	isolate_folios(lruvec, &sc, swappiness, &type, &list);
	aw_inc_min_seq(kt, memcg, nid, swappiness);
	while (!list_empty(&list)) {
		struct folio *folio = lru_to_folio(&list);

		list_del(&folio->lru);
		folio_set_lru(folio);
		lru_gen_add_folio(lruvec, folio, true);
		n++;
	}
	AW_LEAVE();
	return n;
}

static unsigned long aw_max_seq(struct aw_ktext *kt, int memcg, int nid)
{
	struct lruvec *lruvec = aw_lruvec(kt, memcg, nid);

	return lruvec ? lruvec->lrugen.max_seq : 0;
}

static unsigned long aw_min_seq(struct aw_ktext *kt, int memcg, int nid, int type)
{
	struct lruvec *lruvec = aw_lruvec(kt, memcg, nid);

	return lruvec && (type == 0 || type == 1) ? lruvec->lrugen.min_seq[type] : 0;
}

static long aw_nr_pages(struct aw_ktext *kt, int memcg, int nid, int gen, int type)
{
	struct lruvec *lruvec = aw_lruvec(kt, memcg, nid);

	if (!lruvec || gen < 0 || gen >= (int)MAX_NR_GENS || type < 0 || type > 1)
		return 0;
	return lruvec->lrugen.nr_pages[gen][type][ZONE_NORMAL];
}

static struct folio *aw_folio(struct aw_ktext *kt, long pfn)
{
	struct folio *folio;

	AW_ENTER(kt);
	folio = pfn >= 0 && pfn_valid(pfn) ? pfn_folio(pfn) : NULL;
	AW_LEAVE();
	return folio;
}

static int aw_folio_gen(struct aw_ktext *kt, long pfn)
{
	struct folio *folio = aw_folio(kt, pfn);

	return folio ? folio_lru_gen(folio) : -1;
}

static unsigned long aw_folio_flags(struct aw_ktext *kt, long pfn)
{
	struct folio *f = aw_folio(kt, pfn);

	if (!f)
		return 0;
	return (folio_test_lru(f) ? AW_KTEXT_F_LRU : 0) | (folio_test_active(f) ? AW_KTEXT_F_ACTIVE : 0) |
	       (folio_test_referenced(f) ? AW_KTEXT_F_REFERENCED : 0) |
	       (folio_test_workingset(f) ? AW_KTEXT_F_WORKINGSET : 0) |
	       (folio_test_dirty(f) ? AW_KTEXT_F_DIRTY : 0) | (folio_test_reclaim(f) ? AW_KTEXT_F_RECLAIM : 0);
}

static const char *const aw_mm_stat_names[] = { AW_KTEXT_MM_STAT_NAMES };

static void aw_mm_stats(struct aw_ktext *kt, int memcg, int nid, unsigned long *out)
{
	struct lruvec *lruvec = aw_lruvec(kt, memcg, nid);

	for (int i = 0; i < NR_MM_STATS; i++)
		out[i] = lruvec ? AW_KTEXT_MM_STATS(lruvec)[i] : 0;
}

static bool aw_bloom_test_pmd(struct aw_ktext *kt, int memcg, int nid, unsigned long seq, int mmi,
			      unsigned long addr)
{
	struct lruvec *lruvec = aw_lruvec(kt, memcg, nid);
	struct mm_struct *mm = aw_mm(kt, mmi);
	unsigned long *pmd = mm ? aw_entry(kt, mm, addr, 2, false) : NULL;
	bool ok;

	if (!lruvec || !pmd)
		return false;
	AW_ENTER(kt);
	ok = AW_KTEXT_TEST_BLOOM_PMD(lruvec, seq, pmd);
	AW_LEAVE();
	return ok;
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

static unsigned long aw_folio_tag(struct aw_ktext *kt, long pfn)
{
	struct folio *folio = aw_folio(kt, pfn);

	return folio ? folio->rmap_addr : 0;
}

static unsigned long aw_walks(struct aw_ktext *kt)
{
	return kt->walks;
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
	.create = aw_create,
	.destroy = aw_destroy,
	.mm_create = aw_mm_create,
	.name_tables = aw_name_tables,
	.unmap = aw_unmap,
	.free_table = aw_free_table,
	.present = aw_present,
	.mm_exit = aw_mm_exit,
	.memcg_move = aw_memcg_move,
	.vma_add = aw_vma_add,
	.map = aw_map,
	.touch = aw_touch,
	.use_mm = aw_use_mm,
	.pfn_at = aw_pfn_at,
	.age = aw_age,
	.inc_min_seq = aw_inc_min_seq,
	.evict = aw_evict,
	.max_seq = aw_max_seq,
	.min_seq = aw_min_seq,
	.nr_pages = aw_nr_pages,
	.folio_gen = aw_folio_gen,
	.folio_tag = aw_folio_tag,
	.folio_flags = aw_folio_flags,
	.pte_young = aw_pte_young,
	.mm_stats = aw_mm_stats,
	.bloom_test_pmd = aw_bloom_test_pmd,
	.bloom_bits = aw_bloom_bits,
	.warnings = aw_warnings,
	.bind = aw_bind,
	.bound_age = aw_bound_age,
	.bound_age_begin = aw_bound_age_begin,
	.bound_age_step = aw_bound_age_step,
	.bound_evict = aw_bound_evict,
	.bound_look_around = aw_bound_look_around,
	.bound_add_mm = aw_bound_add_mm,
	.bound_del_mm = aw_bound_del_mm,
	.bound_migrate_mm = aw_bound_migrate_mm,
	.bound_use_mm = aw_bound_use_mm,
	.mm_list = aw_mm_list,
	.mm_state = aw_mm_state,
	.walks = aw_walks,
};

#endif /* AW_KTEXT_GLUE_H */
