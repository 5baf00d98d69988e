// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which fact feeds which rule.  The oracles register these probes on the
 * kernel's tracepoints (trace_events.h); each turns a fact the model (or
 * any other implementation of struct aw_mglru_ops) reported into the
 * rule's own bookkeeping.  The rules that make a shadow learn a key live
 * here, stated from the seed series, not from the code that reported:
 *
 *  - an iteration's first walker starts the seq + 1 filters of both levels
 *    (iterate_mm_list(); the PUD level with the PUD filter only);
 *  - a PTE table walk_pte_range() found suitable is carried into the seq + 1
 *    PMD filter (walk_pmd_range());
 *  - a PUD whose subtree walk_pmd_range() found young is carried into the
 *    seq + 1 PUD filter, and a forced walk owes it the next pass (seed v3
 *    3/4);
 *  - a suitable look-around window marks the max_seq PMD filter and, with
 *    the PUD filter, the PUD filter, and owes its PUD the next pass.
 *
 * The filter's own answers arrive as facts (lru_gen_bloom_test) and are
 * compared with the shadow: a planted bug that skips an insert the rule
 * requires becomes a false negative there.
 */
#include "oracle.h"
#include "cause.h"
#include "kernel.h"

/* seed v3 3/4: the PUD filter's key is (mm, PUD-aligned address) */
static uint64_t pud_key(const struct mm_struct *mm, uint64_t addr)
{
	return mm->kaddr ^ (addr & PUD_MASK);
}

static void probe_event_begin(void *data, struct aw_kernel *k, const struct aw_event *ev)
{
	aw_oracle_event_begin(k);
	aw_or_event_request(k, ev);
}

static void probe_event_end(void *data, struct aw_kernel *k, const struct aw_event *ev)
{
	aw_oracle_event_end(k);
}

static void probe_kernel_destroy(void *data, struct aw_kernel *k)
{
	aw_oracle_detach(k);
}

static void probe_folio_update_gen(void *data, struct aw_kernel *k, const struct folio *folio,
				   int old_gen, int new_gen)
{
	aw_or_gen_moved(k, folio, old_gen, new_gen);
	if (old_gen < 0 && new_gen >= 0)
		aw_or_folio_added(k, folio);
}

static void probe_add_folio(void *data, struct aw_kernel *k, const struct lruvec *lruvec,
			    const struct folio *folio, bool reclaiming)
{
	aw_or_add_folio(k, lruvec, folio, reclaiming);
}

static void probe_folio_inc_gen_batch(void *data, struct aw_kernel *k, const struct lruvec *lruvec,
				      const long *pages)
{
	aw_or_gen_moved_batch(k, lruvec, pages);
}

static void probe_bloom_test(void *data, struct aw_kernel *k, struct lruvec *lruvec, int level,
			     unsigned long seq, uint64_t key, bool hit)
{
	aw_or_filter_test(k, lruvec, level, seq, key, hit);
}

static void probe_iterate_first(void *data, struct aw_kernel *k, struct lru_gen_mm_walk *walk)
{
	aw_or_filter_reset(k, walk->lruvec, BLOOM_FILTER_PMD, walk->seq + 1);
	if (k->features & AW_FEAT_PUD_FILTER)
		aw_or_filter_reset(k, walk->lruvec, BLOOM_FILTER_PUD, walk->seq + 1);
}

static void probe_get_next_mm(void *data, struct aw_kernel *k, struct lru_gen_mm_walk *walk,
			      struct mm_struct *mm, enum aw_mm_skip why)
{
	if (why == AW_MM_TAKEN || why == AW_MM_SKIP_EMPTY)
		aw_or_mm_considered(k, walk, mm, why == AW_MM_TAKEN);
	if (why == AW_MM_SKIP_EMPTY)
		aw_cause_mm_skipped(aw_oracle_causes(k), walk, mm);
	aw_or_mm_skipped(k, walk, mm, why);
}

static void probe_walk_end(void *data, struct aw_kernel *k, struct lru_gen_mm_walk *walk,
			   struct mm_struct *mm, int err)
{
	aw_or_walk_end(k, walk);
	aw_or_walk_done(k, walk, mm, err);
	aw_cause_walk_done(aw_oracle_causes(k), k, walk, mm, err);
}

/* a fault's kind is the entry's change, never the fault code's aw_mm_fault report */
static void probe_set_pte_at(void *data, struct aw_kernel *k, struct mm_struct *mm, uint64_t addr,
			     uint64_t old, uint64_t new)
{
	aw_or_entry_set(k, mm, old, new, false);
}

static void probe_set_pmd_at(void *data, struct aw_kernel *k, struct mm_struct *mm, uint64_t addr,
			     uint64_t old, uint64_t new)
{
	aw_or_entry_set(k, mm, old, new, true);
}

/* two-touch: the walk's sightings are the young bits it clears, leaves only */
static void probe_walk_begin(void *data, struct aw_kernel *k, struct lru_gen_mm_walk *walk,
			     struct mm_struct *mm)
{
	aw_or_walk_begin(k, walk);
}

static void probe_ptep_young(void *data, struct aw_kernel *k, struct mm_struct *mm, uint64_t addr,
			     uint64_t pte)
{
	aw_or_young_cleared(k, pte, false);
}

static void probe_pmdp_young(void *data, struct aw_kernel *k, struct mm_struct *mm, uint64_t addr,
			     uint64_t pmd)
{
	aw_or_young_cleared(k, pmd, true);
}

/* tier protection: the scan's folios, read before sort_folio() and judged by what they became */
static void probe_scan_folios_begin(void *data, struct aw_kernel *k, struct lruvec *lruvec, int type)
{
	aw_or_scan_folios_begin(k, lruvec, type);
}

static void probe_sort_folio(void *data, struct aw_kernel *k, struct lruvec *lruvec, const struct folio *folio)
{
	aw_or_sort_folio(k, lruvec, folio);
}

static void probe_scan_folios_end(void *data, struct aw_kernel *k, struct lruvec *lruvec)
{
	aw_or_scan_folios_end(k, lruvec);
}

static void probe_folio_migrated(void *data, struct aw_kernel *k, const struct folio *folio)
{
	aw_or_folio_migrated(k, folio);
}

static void probe_mm_fork(void *data, struct aw_kernel *k, struct mm_struct *parent, struct mm_struct *child)
{
	aw_cause_fork(aw_oracle_causes(k), parent->id, child->id);
}

static void probe_walk_pte_range(void *data, struct aw_kernel *k, struct lru_gen_mm_walk *walk,
				 uint64_t addr, uint64_t item, bool suitable)
{
	aw_or_walk_table_done(k);
	if (suitable)
		aw_or_filter_insert(k, walk->lruvec, BLOOM_FILTER_PMD, walk->seq + 1, item);
}

static void probe_walk_pud(void *data, struct aw_kernel *k, struct lru_gen_mm_walk *walk,
			   uint64_t addr, uint64_t pudval, bool skipped, bool young)
{
	aw_or_pud_visit(k, walk, addr, pudval, skipped);
	aw_cause_pud_visit(aw_oracle_causes(k), walk, addr, skipped, young);
	if (skipped || !young)
		return;
	aw_or_filter_insert(k, walk->lruvec, BLOOM_FILTER_PUD, walk->seq + 1, pud_key(walk->mm, addr));
	/* a forced walk that finds a PUD young re-marks it for the next pass */
	if (walk->force_scan)
		aw_or_feedback(k, walk->lruvec, walk->mm, addr, walk->seq + 1, "forced walk found it young");
}

static void probe_look_around(void *data, struct aw_kernel *k, struct lruvec *lruvec, struct mm_struct *mm,
			      uint64_t addr, uint64_t pmd_item, unsigned long seq)
{
	aw_or_filter_insert(k, lruvec, BLOOM_FILTER_PMD, seq, pmd_item);
	if (!(k->features & AW_FEAT_PUD_FILTER))
		return;
	aw_or_filter_insert(k, lruvec, BLOOM_FILTER_PUD, seq, pud_key(mm, addr));
	aw_or_feedback(k, lruvec, mm, addr, seq, "look-around found it young");
}

static void probe_inc_max_seq(void *data, struct aw_kernel *k, struct lruvec *lruvec)
{
	aw_or_before_inc_max_seq(k, lruvec);
}

static void probe_aging_done(void *data, struct aw_kernel *k, struct lruvec *lruvec, bool success)
{
	aw_or_pass_finished(k, lruvec);
}

static void probe_reclaim_check(void *data, struct aw_kernel *k, uint32_t pfn, int target_memcg)
{
	aw_or_reclaim_check(k, pfn, target_memcg);
}

static void probe_reclaim_decision(void *data, struct aw_kernel *k, uint32_t pfn, bool reclaim,
				   bool ignore_references)
{
	aw_or_reclaim_decided(k, pfn, reclaim, ignore_references);
}

/* mremap: the moved folios' skip history moves with them */
static void probe_mm_mremap(void *data, struct aw_kernel *k, struct mm_struct *mm, uint64_t old,
			    uint64_t new_addr, uint64_t len)
{
	aw_cause_mremap(aw_oracle_causes(k), mm->id, old, new_addr, len);
}

static void probe_folio_evicted(void *data, struct aw_kernel *k, const struct folio *folio, uint32_t mm,
				uint64_t addr, bool hot)
{
	aw_or_evicted(k, folio, mm, addr, hot);
}

/* ---- khugepaged ----------------------------------------------------------- */

static void probe_kh_range_begin(void *data, struct aw_kernel *k, struct mm_struct *mm,
				 const struct vm_area_struct *vma, uint64_t haddr)
{
	aw_or_kh_range_begin(k, mm, vma, haddr);
}

static void probe_kh_range_end(void *data, struct aw_kernel *k, int result, unsigned int cost)
{
	aw_or_kh_range_end(k, result, cost);
}

static void probe_kh_collapse_begin(void *data, struct aw_kernel *k, struct mm_struct *mm,
				    const struct vm_area_struct *vma, uint64_t haddr, bool is_khugepaged)
{
	aw_or_kh_collapse_begin(k, mm, vma, haddr, is_khugepaged);
}

static void probe_kh_collapse_end(void *data, struct aw_kernel *k, struct mm_struct *mm, uint64_t haddr,
				  int result)
{
	aw_or_kh_collapse_end(k, mm, haddr, result);
}

static void probe_kh_wakeup(void *data, struct aw_kernel *k, unsigned long progress, unsigned long topup,
			    unsigned long traced)
{
	aw_or_kh_wakeup_end(k, progress, topup, traced);
}

static void probe_kh_event_end(void *data, struct aw_kernel *k)
{
	aw_or_kh_event_end(k);
}

/*
 * One table for registering and unregistering.  The order is the order
 * the probes run in where an observer shares a tracepoint.
 */
#define AW_ORACLE_PROBES(X)						\
	X(aw_event_begin, probe_event_begin)				\
	X(aw_event_end, probe_event_end)				\
	X(aw_kernel_destroy, probe_kernel_destroy)			\
	X(folio_update_gen, probe_folio_update_gen)			\
	X(folio_inc_gen_batch, probe_folio_inc_gen_batch)		\
	X(lru_gen_bloom_test, probe_bloom_test)				\
	X(lru_gen_iterate_first, probe_iterate_first)			\
	X(lru_gen_get_next_mm, probe_get_next_mm)			\
	X(mm_vmscan_lru_gen_walk, probe_walk_end)			\
	X(lru_gen_walk_pte_range, probe_walk_pte_range)			\
	X(lru_gen_walk_pud, probe_walk_pud)				\
	X(set_pte_at, probe_set_pte_at)					\
	X(set_pmd_at, probe_set_pmd_at)					\
	X(lru_gen_walk_begin, probe_walk_begin)				\
	X(ptep_test_and_clear_young, probe_ptep_young)			\
	X(pmdp_test_and_clear_young, probe_pmdp_young)			\
	X(lru_gen_add_folio, probe_add_folio)				\
	X(aw_scan_folios_begin, probe_scan_folios_begin)		\
	X(aw_sort_folio, probe_sort_folio)				\
	X(aw_scan_folios_end, probe_scan_folios_end)			\
	X(aw_mm_fork, probe_mm_fork)					\
	X(aw_mm_mremap, probe_mm_mremap)				\
	X(aw_folio_migrated, probe_folio_migrated)			\
	X(lru_gen_look_around, probe_look_around)			\
	X(lru_gen_inc_max_seq, probe_inc_max_seq)			\
	X(lru_gen_aging_done, probe_aging_done)				\
	X(aw_reclaim_check, probe_reclaim_check)			\
	X(aw_reclaim_decision, probe_reclaim_decision)			\
	X(aw_folio_evicted, probe_folio_evicted)			\
	X(aw_khugepaged_range_begin, probe_kh_range_begin)		\
	X(aw_khugepaged_range_end, probe_kh_range_end)			\
	X(mm_collapse_huge_page_begin, probe_kh_collapse_begin)		\
	X(mm_collapse_huge_page, probe_kh_collapse_end)			\
	X(aw_khugepaged_wakeup, probe_kh_wakeup)			\
	X(aw_khugepaged_event_end, probe_kh_event_end)

int aw_oracle_probes_register(struct aw_kernel *k)
{
#define REGISTER(tp, fn)					\
	if (register_trace_##tp(k, fn, NULL)) {			\
		aw_oracle_probes_unregister(k);			\
		return -1;					\
	}
	AW_ORACLE_PROBES(REGISTER)
#undef REGISTER
	return 0;
}

/* Unregisters what is registered; the others answer -ENOENT, ignored. */
void aw_oracle_probes_unregister(struct aw_kernel *k)
{
#define UNREGISTER(tp, fn) (void)unregister_trace_##tp(k, fn, NULL);
	AW_ORACLE_PROBES(UNREGISTER)
#undef UNREGISTER
}
