/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Oracles (docs/oracles.md).  Each simulated kernel carries a struct aw_oracle
 * whose shadows are maintained from the kernel *rules* at the places the
 * model calls the hooks below, never from the code under test: a filter
 * shadow is reset where the rule says a reset happens, feedback is recorded
 * where its cause holds, and the hook then compares what the model did.
 * A violation becomes a finding; legal-but-interesting behaviour (skips
 * without feedback, Bloom false positives) becomes a metric.
 */
#ifndef AW_ORACLE_H
#define AW_ORACLE_H

#include <stdbool.h>
#include <stdint.h>

struct aw_kernel;
struct lruvec;
struct mm_struct;
struct lru_gen_mm_walk;
struct folio;

enum aw_oracle_id {
	AW_OR_PREMATURE_RECLAIM,
	AW_OR_PREMATURE_RECLAIM_DIFF,
	AW_OR_STALE_SUPPRESSION,
	AW_OR_EMPTYMAP_CADENCE,
	AW_OR_FORCE_SCAN_COMPLETE,
	AW_OR_EXACT_FILTER,
	AW_OR_STRUCTURAL,
	AW_OR_KH_LAZYFREE,		/* patched khugepaged collapsed a clean lazyfree PTE */
	AW_OR_KH_PROGRESS,		/* a range's or a wake-up's progress is not the revision's */
	AW_OR_KH_SLOT,			/* MMF_VM_HUGEPAGE without a slot, or the reverse */
	AW_OR_KH_DATA,			/* a collapse lost a page's contents */
	AW_OR_KH_DECISION,		/* a khugepaged range collapsed, or not, against its scan's rules */
	AW_OR_KTEXT_AGREEMENT,		/* kernel text and the model disagree (src/kbind) */
	AW_OR_FORCED_WALK_EQUIV,	/* a forced walk read the same tables differently from base (equiv.h) */
	AW_OR_MADV_COLLAPSE_EQUIV,	/* MADV_COLLAPSE decided the same range differently from base */
	AW_OR_TWO_TOUCH,		/* mainline's walk promoted a folio on the wrong sighting (oracle_gen.c) */
	AW_OR_FOLIO_SEQ,		/* lru_gen_add_folio() placed a folio off lru_gen_folio_seq() */
	AW_OR_TIER_PROTECTION,		/* sort_folio() protected or evicted off its tier (oracle_tier.c) */
	AW_OR_KH_TEXT_AGREEMENT,	/* khugepaged's text and the model disagree (src/kbind/kbind_kh.c) */
	AW_OR_NR
};

const char *aw_oracle_name(enum aw_oracle_id id);

/*
 * A finding's cause names the rule that broke, in words that hold no
 * address, pid, sequence number or event index, so that two inputs that
 * break the same rule get the same signature (aw_lockstep_finding).
 */
struct aw_finding {
	enum aw_oracle_id oracle;
	uint64_t event;			/* index of the event during which it fired */
	char cause[160];
	char msg[320];
};

/* Per node metrics the oracles keep. */
struct aw_oracle_metrics {
	unsigned long suppressed_young;		/* region-passes skipped while holding young leaves */
	unsigned long suppressed_longest;	/* longest run of such passes of one region */
	unsigned long bloom_false_positive;	/* filter said present, the shadow says absent */
	unsigned long feedback_lost;		/* obligations never checked (exempt cases) */
	unsigned long feedback_kept;		/* obligations met */
};

/* Out of memory in an oracle or finding path: a message, then abort(). */
void aw_oracle_oom(const char *what) __attribute__((noreturn));

/*
 * Attach the oracles to k: they register probes on its tracepoints
 * (trace_events.h) and let go when k is destroyed, or on detach.
 */
int aw_oracle_attach(struct aw_kernel *k);
void aw_oracle_detach(struct aw_kernel *k);
/* oracle_probes.c: which tracepoint feeds which rule (attach and detach call these) */
int aw_oracle_probes_register(struct aw_kernel *k);
void aw_oracle_probes_unregister(struct aw_kernel *k);
/* Findings recorded so far; the lockstep engine drains them. */
int aw_oracle_nr_findings(const struct aw_kernel *k);
const struct aw_finding *aw_oracle_finding(const struct aw_kernel *k, int i);
/* The kernel's skip history (cause.h), NULL without oracles */
struct aw_cause_log *aw_oracle_causes(const struct aw_kernel *k);
const struct aw_oracle_metrics *aw_oracle_metrics(const struct aw_kernel *k, int nid);

/* Eviction log of the current event, for the differential oracle. */
struct aw_evicted {
	uint32_t mm;
	uint64_t addr;
	bool hot;
	bool huge;			/* a THP */
	int nid, memcg;			/* the folio's lruvec */
};
int aw_oracle_evicted(const struct aw_kernel *k, const struct aw_evicted **list);
void aw_oracle_event_begin(struct aw_kernel *k);
void aw_oracle_event_end(struct aw_kernel *k);
/*
 * Findings only: skip the suppressed-young metric, whose subtree scan of
 * every skipped PUD costs as much as the walk the skip saved.  For fuzz
 * targets, which never print figures.
 */
void aw_oracle_findings_only(struct aw_kernel *k);
/* After the last event: the full list check the sampling may have skipped. */
void aw_oracle_run_end(struct aw_kernel *k);
void aw_oracle_report(struct aw_kernel *k, enum aw_oracle_id id, const char *cause, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * ---- the oracles' rules, fed by their probes (oracle_probes.c) ----
 * All are no-ops when k->oracle is NULL.  Tests call them directly to
 * build violating states.
 */

/* exact-filter: the rules */
void aw_or_filter_reset(struct aw_kernel *k, struct lruvec *lruvec, int level, unsigned long seq);
void aw_or_filter_insert(struct aw_kernel *k, struct lruvec *lruvec, int level, unsigned long seq,
			 uint64_t key);
void aw_or_filter_test(struct aw_kernel *k, struct lruvec *lruvec, int level, unsigned long seq,
		       uint64_t key, bool answer);
/* stale-suppression: feedback causes and PUD decisions */
void aw_or_feedback(struct aw_kernel *k, struct lruvec *lruvec, struct mm_struct *mm, uint64_t addr,
		    unsigned long due_seq, const char *cause);
void aw_or_pud_visit(struct aw_kernel *k, struct lru_gen_mm_walk *walk, uint64_t addr,
		     uint64_t pudval, bool skipped);
/* emptymap-cadence */
void aw_or_mm_considered(struct aw_kernel *k, struct lru_gen_mm_walk *walk, struct mm_struct *mm,
			 bool walked);
void aw_or_walk_done(struct aw_kernel *k, struct lru_gen_mm_walk *walk, struct mm_struct *mm, int err);
/* force-scan-complete: a get_next_mm() decision (enum aw_mm_skip) */
void aw_or_mm_skipped(struct aw_kernel *k, struct lru_gen_mm_walk *walk, struct mm_struct *mm, int why);
void aw_or_mm_event(struct aw_kernel *k, struct mm_struct *mm, int kind);
/*
 * oracle_fault.c: the kind of fault (enum aw_fault_kind, -1: none) a leaf
 * write makes, from the entry before and after it; and the write itself,
 * which feeds emptymap-cadence and the cause log with that kind
 */
int aw_fault_kind_of_write(uint64_t old, uint64_t new, bool pmd_level);
void aw_or_entry_set(struct aw_kernel *k, struct mm_struct *mm, uint64_t old, uint64_t new, bool pmd_level);
void aw_or_folio_migrated(struct aw_kernel *k, const struct folio *folio);
/* premature-reclaim */
void aw_or_reclaim_decision(struct aw_kernel *k, uint32_t pfn, bool young_before, bool reclaim,
			    bool ignore_references, int target_memcg);
/* the same from two facts: before the reference check (the rule reads the tables), and after */
void aw_or_reclaim_check(struct aw_kernel *k, uint32_t pfn, int target_memcg);
/* the event being applied: does it ask reclaim to ignore references (MADV_PAGEOUT)? */
struct aw_event;
void aw_or_event_request(struct aw_kernel *k, const struct aw_event *ev);
void aw_or_reclaim_decided(struct aw_kernel *k, uint32_t pfn, bool reclaim, bool ignore_references);
void aw_or_evicted(struct aw_kernel *k, const struct folio *folio, uint32_t mm, uint64_t addr, bool hot);
/* structural */
/*
 * A folio's flag generation changed from old_gen to new_gen (-1: none),
 * at every place that writes LRU_GEN_MASK of a folio on an LRU list.  The
 * shadow it keeps (pages per lruvec, flag generation and type) is what the
 * lists would count, so the check before each inc_max_seq() need not walk
 * them.  Call only when k->oracle is set.
 */
void aw_or_gen_moved(struct aw_kernel *k, const struct folio *folio, int old_gen, int new_gen);
/* the same for a batch of folios all of lruvec: pages[gen][type] deltas */
void aw_or_gen_moved_batch(struct aw_kernel *k, const struct lruvec *lruvec, const long *pages);
/*
 * check_lruvec()'s walk of one generation list from both ends at once
 * (oracle_lists.c): true, with each folio's pages added to
 * by_flag[gen * ANON_AND_FILE + type], only if the walk from the head
 * would pass the list; reports nothing.
 */
struct list_head;
bool aw_or_list_well_formed(const struct lruvec *lruvec, const struct list_head *head, int type,
			    uint64_t limit, long *by_flag);
void aw_or_before_inc_max_seq(struct aw_kernel *k, struct lruvec *lruvec);
void aw_or_check_structure(struct aw_kernel *k);
void aw_or_pass_finished(struct aw_kernel *k, struct lruvec *lruvec);

/* khugepaged (oracle_kh.c; no-ops when k->kh_oracle is NULL) */
/*
 * oracle_gen.c: the mainline-only generation rules, shadowed.  two-touch:
 * every young PTE or PMD leaf a walk clears (a sighting), and at the
 * walk's end each folio's flags against the rule; folio-seq: the flags
 * lru_gen_add_folio() starts from, and the generation the folio lands in.
 */
struct aw_gen_shadow;
struct aw_gen_shadow **aw_oracle_gen_slot(struct aw_kernel *k);
void aw_gen_shadow_free(struct aw_gen_shadow *g);
void aw_or_walk_begin(struct aw_kernel *k, struct lru_gen_mm_walk *walk);
void aw_or_young_cleared(struct aw_kernel *k, uint64_t entry, bool pmd_level);
void aw_or_walk_table_done(struct aw_kernel *k);
void aw_or_walk_end(struct aw_kernel *k, struct lru_gen_mm_walk *walk);
void aw_or_add_folio(struct aw_kernel *k, const struct lruvec *lruvec, const struct folio *folio,
		     bool reclaiming);
void aw_or_folio_added(struct aw_kernel *k, const struct folio *folio);
/*
 * oracle_tier.c: mainline's sort_folio() tier protection, shadowed.
 * scan_folios() opening the oldest generation of a type (get_tier_idx()
 * is recomputed from the lruvec's counters), each folio it reads before
 * sort_folio() does, and the scan's end; what each folio became is read
 * off its flags and the protected counters.
 */
struct aw_tier_shadow;
struct aw_tier_shadow **aw_oracle_tier_slot(struct aw_kernel *k);
void aw_tier_shadow_free(struct aw_tier_shadow *t);
void aw_or_scan_folios_begin(struct aw_kernel *k, struct lruvec *lruvec, int type);
void aw_or_sort_folio(struct aw_kernel *k, struct lruvec *lruvec, const struct folio *folio);
void aw_or_scan_folios_end(struct aw_kernel *k, struct lruvec *lruvec);

struct vm_area_struct;
int aw_kh_oracle_attach(struct aw_kernel *k);
void aw_kh_oracle_detach(struct aw_kernel *k);
/* around one range of khugepaged_scan_mm_slot(): cost is what the model added */
void aw_or_kh_range_begin(struct aw_kernel *k, struct mm_struct *mm, const struct vm_area_struct *vma,
			  uint64_t haddr);
void aw_or_kh_range_end(struct aw_kernel *k, int result, unsigned int cost);
/* around collapse_huge_page() after the allocation: lazyfree and no-data-loss */
void aw_or_kh_collapse_begin(struct aw_kernel *k, struct mm_struct *mm, const struct vm_area_struct *vma,
			     uint64_t haddr, bool is_khugepaged);
void aw_or_kh_collapse_end(struct aw_kernel *k, struct mm_struct *mm, uint64_t haddr, int result);
/* end of khugepaged_do_scan(): the trace sums */
void aw_or_kh_wakeup_end(struct aw_kernel *k, unsigned long progress, unsigned long topup,
			 unsigned long traced);
/* end of a khugepaged event's wake-ups: MMF_VM_HUGEPAGE <=> slot */
void aw_or_kh_event_end(struct aw_kernel *k);

#endif /* AW_ORACLE_H */
