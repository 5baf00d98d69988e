/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * struct aw_kernel: one whole simulated machine (docs/architecture.md).
 *
 * Everything the model mutates hangs off this struct; there is no global
 * mutable state, so several kernels (one per variant) can run side by side
 * over the same events.
 */
#ifndef AW_KERNEL_H
#define AW_KERNEL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "scenario.h"
#include "folio.h"
#include "khugepaged.h"
#include "lru_gen.h"
#include "memcg_events.h"
#include "mm.h"
#include "pgtable.h"
#include "profile.h"
#include "mglru_ops.h"
#include "tracepoint.h"
#include "warn.h"

/* Variant switches: features of one model, never copies. */
#define AW_FEAT_PUD_FILTER	0x01	/* seed v3: PUD-level Bloom filter */
#define AW_FEAT_EMPTYMAP	0x02	/* seed RFC: per-node empty-mm skip */
#define AW_FEAT_KHUGEPAGED_PATCHED 0x04	/* third seed: khugepaged progress, lazyfree, disable */
#define AW_FEAT_KHUGEPAGED_V8	0x08	/* ... as in the later v8 (VM_DROPPABLE exempt) */
#define AW_FEAT_KH_PRCTL_ENTER	0x10	/* prctl enabling THP registers the mm (docs/oracles.md) */
/*
 * A fix tried in the model, not in any series (--fix pud-young,
 * docs/findings/pud-late-region.md): the PUD filter walks a subtree it
 * does not hold when the PUD entry's accessed bit was set since the last
 * walk that passed it, and every walk that passes a PUD clears the bit.
 */
#define AW_FEAT_PUD_YOUNG_FIX	0x20

/*
 * Planted bugs (docs/oracles.md): realistic one-line mistakes, each at the
 * place a developer would have made it, to prove the oracles catch them
 * through the whole engine.  Never on by default.
 */
enum aw_bug {
	AW_BUG_PUD_FORCE_NO_BYPASS,	/* force_scan does not bypass the PUD test */
	AW_BUG_PUD_FORCE_NO_REMARK,	/* a forced walk does not insert young PUDs */
	AW_BUG_PUD_LOOKAROUND_NO_MARK,	/* look-around marks the PMD but not the PUD */
	AW_BUG_EMPTYMAP_SHARED_COUNTER,	/* one re-scan clock for all nodes */
	AW_BUG_EVICT_IGNORE_PMD_YOUNG,	/* eviction ignores a THP's PMD accessed bit */
	AW_BUG_PUD_RESET_WRONG_SEQ,	/* PUD filter reset for seq, not seq + 1 */
	AW_BUG_EMPTYMAP_MARK_ON_FAILED_TRYLOCK,	/* failed mmap_lock trylock marks empty */
	AW_BUG_WALK_BATCH_NOT_FLUSHED,	/* walker batch flushed after inc_max_seq */
	AW_BUG_KHUGEPAGED_COLLAPSE_LAZYFREE,	/* the lazyfree test reads pte_dirty inverted */
	AW_BUG_KHUGEPAGED_PROGRESS_512,	/* PMD-mapped / table-less ranges still cost 512 */
	AW_BUG_KHUGEPAGED_COPY_PRESENT_ONLY,	/* swap PTEs are not swapped in: zero-filled */
	AW_BUG_PUD_FORCE_PMD_TEST,	/* with the PUD filter, force_scan no longer bypasses the PMD test */
	AW_BUG_KHUGEPAGED_MADV_LAZYFREE,	/* the lazyfree skip not gated on cc->is_khugepaged */
	AW_BUG_REFAULT_COUNTED_BEFORE_TEST,	/* 6.1's lru_gen_refault() counts WORKINGSET_REFAULT before the token test */
	/* the reclaim loop (issue 30): caught by the kernel-text agreement oracle */
	AW_BUG_SHOULD_RUN_AGING_CMP,	/* should_run_aging(): the young test compared the wrong way */
	AW_BUG_AGING_REFUSED_OFF_BY_ONE,	/* run_aging(): -ERANGE one generation late */
	AW_BUG_SWAPIN_REPORTED_MINOR,	/* a swap-in fault reported as a first-touch (minor) fault */
	AW_BUG_TWO_TOUCH_FIRST_PROMOTES,	/* mainline's walk promotes on the first young sighting */
	AW_BUG_FOLIO_SEQ_WORKINGSET,	/* lru_gen_folio_seq() ignores PG_workingset */
	/* shrink_folio_list()'s reference check (issue 30): caught against the tree's folio_check_references() */
	AW_BUG_CHECK_REFS_PTES_GE,	/* folio_check_references(): referenced_ptes > 1 tested as >= 1 */
	AW_BUG_TIER_PROTECT_OFF_BY_ONE,	/* sort_folio() protects tier >= tier_idx, not tier > tier_idx */
	AW_BUG_TIER_CTRL_ERR_INVERTED,	/* get_tier_idx(): a tier's refault rate compared the wrong way */
	/* khugepaged's base progress (issue 31): caught by khugepaged-text-agreement against kh6.12/kh6.1 */
	AW_BUG_KHUGEPAGED_SKIP_UNCOUNTED,	/* khugepaged_scan_mm_slot(): an ineligible VMA costs no progress */
	AW_BUG_NR
};
#define AW_BUG(k, b)	((k)->bugs & (1U << (b)))

const char *aw_bug_name(enum aw_bug bug);
int aw_bug_parse(const char *name);	/* -1 if unknown */

/* One aging pass: one try_to_inc_max_seq() call on one lruvec. */
struct aw_pass {
	int pass;			/* 1-based, per node */
	int node, memcg;
	bool forced;			/* force_scan requested */
	bool success;			/* max_seq moved */
	unsigned long seq;		/* the max_seq it tried to retire */
	unsigned long walks;		/* mm walks started (walk_mm calls) */
	unsigned long forced_walks;	/* walks with force_scan set */
	unsigned long sticky_forced_walks;	/* ... set by a newly added mm, not by the pass */
	unsigned long mm_stats[NR_MM_STATS];
	unsigned long aw_stats[NR_AW_WALK_STATS];
	/*
	 * The event that caused it (event_index): the `age` line, or the
	 * event inside which a memcg limit's reclaim aged on its own
	 * (reclaim), so that `agewalk compare` pairs a kernel's pass with it
	 * by cause, not by position (agewalk-exec records the same two).
	 */
	uint64_t event;
	bool reclaim;
	bool unreliable;		/* report only: the trace lost events before it (AW_AGE_LOST) */
	unsigned long evicted_at, refaults_at;	/* report only: the node's counters when it began */
};

/*
 * One `evict` event (apply_evict()): the debugfs '-' it stands for and the
 * lruvec's generations either side of it, as agewalk-exec records them on
 * a kernel, so that two evictions can be compared generation by generation.
 */
struct aw_eviction {
	unsigned long event;		/* index in the event stream */
	int memcg;
	unsigned long seq, max_seq;	/* the '-' command's seq; max_seq then */
	unsigned long min_seq_before[ANON_AND_FILE], min_seq_after[ANON_AND_FILE];
	unsigned long evicted_pages;
	bool refused;			/* -EINVAL: seq + MIN_NR_GENS > max_seq */
};

/* Per node (summed over memcgs) figures for the report. */
struct aw_node_stats {
	int nr_passes, cap_passes;
	struct aw_pass *passes;
	int nr_evictions, cap_evictions;
	struct aw_eviction *evictions;
	unsigned long promoted;		/* by walks and look-around */
	unsigned long evicted;		/* folios reclaimed */
	unsigned long evicted_pages;
	unsigned long single_touch_evicted;
	unsigned long hot_evicted;
	unsigned long refaults;		/* major faults on an evicted page (swap-in, re-read) */
	unsigned long workingset_refaults;	/* pages lru_gen_refault() counted (WORKINGSET_REFAULT_*) */
	unsigned long oom_kills;
	unsigned long lookaround_promoted;
	unsigned long aging_refused;	/* debugfs '+' refused with -ERANGE (6.1/6.12 run_aging()) */
};

/* Per region figures: attributed by the VMA a walk is in. */
struct aw_region_acc {
	unsigned long leaf_total, young, pmd_read, pud_skipped;
};

struct aw_region_pass {
	int pass, node;
	unsigned long leaf_total, young, pmd_read, pud_skipped;
	uint64_t resident;
};

struct aw_region {
	uint32_t pid;
	uint32_t mm;			/* mm id it lives in, 0 = not mapped */
	uint64_t start, len;
	uint64_t resident;		/* present pages of VMAs tagged with it */
	int64_t f_prev_pos;		/* its descriptor's f_ra.prev_pos (filemap.c), -1 fresh */
	struct aw_region_acc acc[AW_MAX_NODES];
	int nr_passes, cap_passes;
	struct aw_region_pass *passes;
	int nr_samples, cap_samples;
	struct aw_region_pass *samples;	/* pass = event index of the sample */
};

struct aw_swap_slot {
	uint32_t next;			/* free list link, or map count when used */
	uint32_t version;		/* contents */
	uint32_t evict_seq;		/* min_seq at eviction (the shadow's token) */
	uint16_t memcg;
	uint8_t nid;
	uint8_t workingset;		/* PG_workingset at eviction */
	uint8_t refs;			/* the token's low bits: max(refs - 1, 0) at eviction */
};

struct aw_memcg {
	uint64_t limit;			/* pages, 0 = unlimited */
	struct aw_memcg_stat stat;	/* memory.stat's counters the model has (memcg_events.h) */
	struct aw_memcg_stat stat_seen;	/* ... at the last record */
	uint64_t usage;			/* pages charged */
	unsigned long oom_kills;
	bool reclaiming;		/* no recursive reclaim from reclaim */
	unsigned long reclaim_calls;	/* try_to_free_mem_cgroup_pages() calls */
};

/*
 * What the reclaim decisions were, call by call (issue 30): each memcg
 * reclaim of one lruvec (lru_gen_shrink_lruvec()) and each debugfs '+'
 * (run_aging()), recorded by the callers of the seam (memcg.c,
 * kernel.c) for whichever implementation ran, so that the kernel-text
 * agreement oracle compares the text's decisions with the model's after
 * each call, not only their sum.  The last AW_RECLAIM_LOG calls are kept
 * (call i at calls[i % AW_RECLAIM_LOG]), the sums of all of them.
 */
#define AW_RECLAIM_LOG	64
enum aw_reclaim_kind { AW_RC_SHRINK, AW_RC_AGE };
struct aw_reclaim_call {
	enum aw_reclaim_kind kind;
	int memcg, nid, priority;	/* priority: -1 for run_aging() */
	long result;			/* pages reclaimed by the call; run_aging()'s errno */
	int rotate;			/* the memcg LRU rotation asked (-1: no memcg LRU) */
	unsigned long max_seq, min_seq[ANON_AND_FILE];	/* the lruvec after the call */
};
struct aw_reclaim_log {
	struct aw_reclaim_call calls[AW_RECLAIM_LOG];
	unsigned long total, reclaimed, refused;	/* all calls, pages, refused run_aging()s */
	unsigned long seen;		/* the agreement oracle's: calls compared so far */
};
void aw_reclaim_log_add(struct aw_kernel *k, const struct aw_reclaim_call *c);

/*
 * shrink_folio_list()'s reference checks, check by check (issue 30):
 * folio_check_references()'s verdict, the mappings the machine's
 * folio_referenced() found young (and cleared), and the folio's flags
 * after it, logged by the seam's caller (references.c) for whichever
 * implementation ran.  The last AW_REFS_LOG are kept, the counts by
 * verdict of all of them.
 */
#define AW_REFS_LOG	64
struct aw_refs_check {
	uint32_t pfn;
	enum folio_references ref;
	int young;		/* folio_referenced(): young mappings, -1 kept */
	unsigned long flags;	/* folio->flags after the check */
};
struct aw_refs_log {
	struct aw_refs_check checks[AW_REFS_LOG];
	unsigned long total, by_ref[FOLIOREF_ACTIVATE + 1];
	unsigned long seen;	/* the agreement oracle's: checks compared so far */
	int young;		/* the last folio_referenced()'s result, for the next entry */
};

struct aw_kernel {
	struct aw_config cfg;
	const struct aw_profile *prof;	/* cfg.kernel's rules (profile.h), set at creation */
	unsigned int features;		/* AW_FEAT_* */
	unsigned int bugs;		/* 1 << enum aw_bug */
	int skip_empty;			/* emptymap re-scan period, 1..64 */
	/*
	 * Observers' state, owned by the check layer (src/check): the model
	 * never reads these, it only fires tracepoints; they live here so
	 * that the check layer's entry points can take the kernel alone.
	 */
	struct aw_oracle *oracle;	/* oracle shadows and findings, NULL = off */
	struct aw_kh_oracle *kh_oracle;	/* khugepaged oracles' shadows, NULL = off */
	struct aw_walk_log *walk_log;	/* --walk-log writer, NULL = off */
	struct aw_tracepoints tracepoints;	/* trace_events.h: who observes what */
	const struct aw_mglru_ops *mglru;	/* the variant's aging and eviction code */
	void *mglru_state;			/* its state, if it has one (kernel text: src/kbind) */
	const struct aw_khugepaged_ops *khops;	/* the variant's khugepaged (khugepaged.h) */
	void *kh_state;				/* its state, if it has one (kernel text: kbind_kh.c) */
	uint64_t now_ns;
	uint64_t event_index;

	struct aw_mem mem;
	struct aw_pgtable_alloc pt;
	int nr_nodes, nr_memcgs;
	int cpu_node[AW_MAX_CPUS];
	struct lruvec *lruvecs;		/* [memcg * nr_nodes + nid] */
	struct lru_gen_mm_walk **open_walk;	/* split aging in progress, per lruvec */
	struct lru_gen_mm_list mm_list[AW_MAX_MEMCGS];
	struct aw_memcg memcg[AW_MAX_MEMCGS];

	struct mm_struct **mms;		/* by id; NULL once freed */
	uint32_t nr_mms, cap_mms;
	uint64_t *free_mm_kaddr;	/* slab objects freed, reused LIFO */
	uint32_t nr_free_kaddr, cap_free_kaddr;
	uint64_t next_mm_kaddr;

	struct aw_task *tasks;		/* by pid (scenario id); index 0 unused */
	uint32_t nr_tasks;

	struct aw_swap_slot *swap;	/* the first cap_swap slots, grown as swap_next moves */
	uint32_t nr_swap, swap_free, swap_used;
	uint32_t swap_next;		/* slots below it have been handed out before */
	uint32_t cap_swap;		/* slots allocated (zeroed) so far, <= nr_swap */

	struct aw_khugepaged kh;	/* khugepaged: slots, cursor, knobs, figures */

	struct aw_node_stats node_stats[AW_MAX_NODES];
	int nr_regions;
	struct aw_region *regions;	/* index region id - 1 */

	char err[256];			/* why the last event failed, if it did */
	struct aw_warn warn;		/* VM_WARN_ON*() hits (warn.h) */
	unsigned long ignored_events;	/* events that could not apply (dead pid ...) */
	uint32_t *wb_pending;		/* folios under writeback, by pfn (aw_writeback_start()) */
	uint32_t nr_wb, cap_wb;
	struct aw_reclaim_log reclaim_log;	/* the reclaim loop's decisions (issue 30) */
	struct aw_refs_log refs_log;		/* shrink_folio_list()'s reference checks (issue 30) */
	struct aw_memcg_event *memcg_events;	/* a limited memcg's reclaim per event (memcg_events.h) */
	int nr_memcg_events, cap_memcg_events;
};

/*
 * LRU_REFS_FLAGS: what folio_inc_gen(), folio_update_gen() and putback
 * clear.  Since 6.14 the refs counter and PG_referenced (PG_workingset
 * stays); in 6.1/6.12 PG_referenced and PG_workingset (with the counter).
 */
static inline unsigned long aw_lru_refs_flags(const struct aw_kernel *k)
{
	return k->prof->lru_refs_flags;
}

/* kernel.c */
struct aw_kernel *aw_kernel_create(const struct aw_config *cfg, int nr_regions,
				   unsigned int features, unsigned int bugs);
void aw_kernel_destroy(struct aw_kernel *k);
/* Apply one event; returns 0, or -1 with k->err set for a malformed event. */
int aw_kernel_apply(struct aw_kernel *k, const struct aw_event *ev);
struct lruvec *aw_lruvec(struct aw_kernel *k, int memcg, int nid);
struct mm_struct *aw_mm(struct aw_kernel *k, uint32_t id);
struct aw_task *aw_task_get(struct aw_kernel *k, uint32_t pid);
int aw_default_swappiness(const struct aw_kernel *k);
int aw_pass_begin(struct aw_kernel *k, struct lruvec *lruvec, bool force_scan, unsigned long seq);
void aw_pass_end(struct aw_kernel *k, struct lruvec *lruvec, int pass_idx, bool success);
void aw_pass_add_walk(struct aw_kernel *k, struct lru_gen_mm_walk *walk);
struct aw_region *aw_region_of(struct aw_kernel *k, const struct vm_area_struct *vma);
int aw_region_sample(struct aw_kernel *k, int region_id);

/* walk.c: the aging walk */
bool try_to_inc_max_seq(struct aw_kernel *k, struct lruvec *lruvec, unsigned long seq,
			int swappiness, bool force_scan);
int aw_age_begin(struct aw_kernel *k, struct lruvec *lruvec, int swappiness, bool force_scan);
int aw_age_step(struct aw_kernel *k, struct lruvec *lruvec);
int aw_age_end(struct aw_kernel *k, struct lruvec *lruvec);
void aw_walk_init(struct lru_gen_mm_walk *walk, struct aw_kernel *k);
bool suitable_to_scan(int total, int young);
void walk_update_folio(struct aw_kernel *k, struct lru_gen_mm_walk *walk, uint32_t pfn,
		       int new_gen, bool dirty);
bool iterate_mm_list(struct lru_gen_mm_walk *walk, struct mm_struct **iter);
int walk_mm(struct mm_struct *mm, struct lru_gen_mm_walk *walk);
struct folio *get_pfn_folio(struct aw_kernel *k, uint64_t pfn, int memcg, int nid, bool can_swap);
uint64_t get_pte_pfn(struct aw_kernel *k, pte_t pte, struct mm_struct *mm, int nid);
void lru_gen_add_mm(struct aw_kernel *k, struct mm_struct *mm);
void lru_gen_del_mm(struct aw_kernel *k, struct mm_struct *mm);
void lru_gen_migrate_mm(struct aw_kernel *k, struct mm_struct *mm, int memcg);
static inline void lru_gen_use_mm(struct mm_struct *mm) { mm->lru_gen.bitmap = ~0ULL; }
void aw_lru_gen_use_mm(struct aw_kernel *k, struct mm_struct *mm);	/* the model's, for the seam */
/*
 * Something happened to mm's memory (enum aw_fault_kind): the aw_mm_fault
 * trace event, and the RFC's empty marks cleared if the contract says so
 * (mm_list.c).
 */
void aw_mm_event(struct aw_kernel *k, struct mm_struct *mm, int kind);
/* the RFC's empty-mm skip placed after get_next_mm(): skip this mm? */
bool aw_empty_skip_after(struct lru_gen_mm_walk *walk, struct mm_struct *mm);

/* lru_gen_bloom.c: the seed's per-level filter helpers (v3 2/4), with their facts */
bool test_bloom_filter(struct lru_gen_mm_state *mm_state, int level, unsigned long seq, uint64_t item);
void update_bloom_filter(struct lru_gen_mm_state *mm_state, int level, unsigned long seq, uint64_t item);
void reset_bloom_filter(struct lru_gen_mm_state *mm_state, int level, unsigned long seq);

/* mm_counter.c: get_mm_counter() sums for 6.1's should_skip_mm() */
unsigned long aw_mm_lru_pages(struct aw_kernel *k, struct mm_struct *mm, bool can_swap,
			      unsigned long limit);
unsigned long aw_mm_counter(struct aw_kernel *k, struct mm_struct *mm, bool anon, unsigned long limit);

/* evict.c: eviction, rmap references, look-around */
int evict_folios(struct aw_kernel *k, unsigned long nr_to_scan, struct lruvec *lruvec, int swappiness,
		 struct lru_gen_mm_walk *walk, unsigned long *nr_reclaimed, bool memcg_reclaim);
int aw_run_eviction(struct aw_kernel *k, struct lruvec *lruvec, unsigned long seq,
		    int swappiness, unsigned long nr_to_reclaim, bool with_walk);
/* 6.1's evict_folios() with its need_swapping, for 6.1's reclaim loop (memcg.c) */
int aw_evict_folios_need_swapping(struct aw_kernel *k, unsigned long nr_to_scan, struct lruvec *lruvec,
				  int swappiness, struct lru_gen_mm_walk *walk, unsigned long *nr_reclaimed,
				  bool *need_swapping);
void aw_writeback_start(struct aw_kernel *k, struct folio *folio);
void aw_writeback_complete(struct aw_kernel *k);
/* evict_folios()' "no progress" cutoff for the profile */
bool aw_evict_cutoff(struct aw_kernel *k, struct lruvec *lruvec, int swappiness);
unsigned long aw_shrink_isolated(struct aw_kernel *k, struct lruvec *lruvec, unsigned long *pfns, int *nr,
				 bool memcg_reclaim);
/* references.c: the machine's folio_referenced(), the model's folio_check_references(), the log */
int aw_folio_referenced(struct aw_kernel *k, struct folio *folio, struct lru_gen_mm_walk *walk, int target_memcg,
			unsigned long *vm_flags);
enum folio_references aw_folio_check_references(struct aw_kernel *k, struct folio *folio,
						 struct lru_gen_mm_walk *walk, int target_memcg);
void aw_refs_log_add(struct aw_kernel *k, const struct folio *folio, enum folio_references ref);
bool lru_gen_look_around(struct aw_kernel *k, struct lru_gen_mm_walk *walk,
			 struct mm_struct *mm, struct vm_area_struct *vma, uint64_t addr,
			 uint32_t target_pfn);
void folio_activate(struct aw_kernel *k, uint32_t pfn);
unsigned long aw_pageout_folio(struct aw_kernel *k, uint32_t pfn);
void aw_swap_slot_put(struct aw_kernel *k, uint64_t slot);
/* unmap + free one folio entirely (used by munmap, exit, eviction) */
void aw_folio_put(struct aw_kernel *k, uint32_t pfn);

/* memcg.c: charging, limit reclaim, OOM */
bool aw_should_run_aging(struct aw_kernel *k, struct lruvec *lruvec, unsigned long max_seq, int swappiness,
			 unsigned long *nr_to_scan);
int aw_memcg_charge(struct aw_kernel *k, int memcg, unsigned int nr_pages, int nid);
int aw_memcg_charge_noreclaim(struct aw_kernel *k, int memcg, unsigned int nr_pages);
void aw_memcg_uncharge(struct aw_kernel *k, int memcg, unsigned int nr_pages);
/* a user page table's memcg charge (__GFP_ACCOUNT), and its free with the uncharge */
void aw_memcg_charge_pgtable(struct aw_kernel *k, int memcg, uint32_t id);
void aw_pgtable_free(struct aw_kernel *k, uint32_t id);
unsigned long aw_try_to_free_mem_cgroup_pages(struct aw_kernel *k, int memcg,
					      unsigned long nr_to_reclaim);
/* the model's lru_gen_shrink_lruvec() and run_aging() behind the seam (mglru_ops.h) */
int aw_model_shrink_lruvec(struct aw_kernel *k, struct lruvec *lruvec, struct aw_scan_control *sc);
int aw_model_run_aging(struct aw_kernel *k, struct lruvec *lruvec, unsigned long seq, int swappiness,
		       bool force_scan);

/* fault.c: accesses and faults */
/* what a fault did, for the aw_mm_fault trace event */
enum aw_fault_kind {
	AW_FAULT_MINOR,		/* a new small page (do_anonymous_page(), a file read) */
	AW_FAULT_HUGE,		/* a new THP (do_huge_pmd_anonymous_page()) */
	AW_FAULT_ZERO,		/* the zero page or the huge zero page mapped by a read */
	AW_FAULT_COW,		/* a copy on write (do_wp_page()) */
	AW_FAULT_MAJOR,		/* a swap-in or a re-read of evicted page cache */
	/* not faults: the other events the RFC's contract may clear the marks on */
	AW_FAULT_MIGRATED,	/* a folio it maps moved to another node */
	AW_FAULT_COLLAPSED,	/* khugepaged or MADV_COLLAPSE made a THP of its pages */
	AW_FAULT_NR
};
const char *aw_fault_kind_name(int kind);
/* flags: AW_ACC_WRITE, AW_ACC_RESIDENT (touch resident pages only, never fault) */
int aw_access(struct aw_kernel *k, struct aw_task *t, uint64_t start, uint64_t len,
	      uint64_t stride, uint32_t repeat, unsigned int flags, int cpu);
/* filemap.c: pread/pwrite of [start, start+len), `repeat` calls (AW_EV_FDIO) */
int aw_file_rw(struct aw_kernel *k, struct aw_task *t, uint64_t start, uint64_t len, uint32_t repeat,
	       bool write, int cpu);
/* mm/swap.c: folio_mark_accessed() as MGLRU has it */
void aw_folio_mark_accessed(struct aw_kernel *k, struct folio *folio);
/* fault.c: filemap_add_folio() of a missing page-cache page (old: none or a shadow) */
uint32_t aw_filemap_add_folio(struct aw_kernel *k, struct aw_task *t, struct mm_struct *mm,
			      struct vm_area_struct *vma, uint64_t addr, pte_t old, int cpu);
/* the refault rule for a swap-in outside a fault; folio on its LRU */
/* the model's workingset side (workingset.c), behind the seam (mglru_ops.h) */
void aw_lru_gen_eviction(struct aw_kernel *k, struct folio *folio, struct aw_shadow *shadow);
void aw_lru_gen_refault(struct aw_kernel *k, struct folio *folio, const struct aw_shadow *shadow, bool in_fault);
void aw_folio_add_lru(struct aw_kernel *k, struct folio *folio, bool in_fault);
/* a swap slot's shadow (the fields lru_gen_eviction() left there) */
static inline struct aw_shadow aw_swap_shadow(const struct aw_swap_slot *s)
{
	return (struct aw_shadow){ .evict_seq = s->evict_seq, .refs = s->refs, .workingset = s->workingset,
				   .memcg = s->memcg, .nid = s->nid };
}
/* page-table helpers shared with mmops.c and fork.c */
pud_t *aw_pud_lookup(struct aw_kernel *k, struct mm_struct *mm, uint64_t addr, bool alloc);
pte_t *aw_pte_lookup(struct aw_kernel *k, struct mm_struct *mm, uint64_t addr, bool alloc,
		     pmd_t **pmdp);
pmd_t *aw_pmd_lookup(struct aw_kernel *k, struct mm_struct *mm, uint64_t addr, bool alloc,
		     pud_t **pudp);
void aw_note_access(struct aw_kernel *k, struct folio *folio, uint32_t repeat);
void aw_folio_new_anon(struct folio *folio, const struct vm_area_struct *vma);
void aw_mlock_new_folio(struct folio *folio, const struct vm_area_struct *vma);
/* nr pages of vma newly mapped (or unmapped, nr < 0): mm RSS and region residency */
void aw_account_map(struct aw_kernel *k, struct mm_struct *mm, const struct vm_area_struct *vma, long nr);
int aw_alloc_node(struct aw_kernel *k, struct mm_struct *mm, struct vm_area_struct *vma, int cpu);
bool aw_vma_thp_allowed(struct aw_kernel *k, struct mm_struct *mm, struct vm_area_struct *vma,
			uint64_t haddr);
void aw_split_huge_pmd(struct aw_kernel *k, struct mm_struct *mm, uint64_t haddr);
/* split_folio(): aw_split_huge_pmd(), then 6.12+ maps zero-filled anon subpages to the zero page */
void aw_split_huge_page(struct aw_kernel *k, struct mm_struct *mm, uint64_t haddr);
/* &pmd[pmd_index(addr)] as a kernel address: the PMD filter's item */
uint64_t aw_pmd_entry_kva(struct aw_kernel *k, struct mm_struct *mm, uint64_t addr);

/* mmops.c: address-space operations */
struct mm_struct *aw_mm_alloc(struct aw_kernel *k, int memcg);
void aw_mm_put(struct aw_kernel *k, struct mm_struct *mm);
int aw_do_mmap(struct aw_kernel *k, struct mm_struct *mm, uint64_t addr, uint64_t len,
	       unsigned int flags, unsigned int prot, int region, int kind, uint64_t *out);
int aw_do_munmap(struct aw_kernel *k, struct mm_struct *mm, uint64_t start, uint64_t len);
void aw_zap_range(struct aw_kernel *k, struct mm_struct *mm, uint64_t start, uint64_t end);
int aw_apply_mm_event(struct aw_kernel *k, const struct aw_event *ev, struct aw_task *t,
		      uint64_t start, uint64_t len);
int aw_setup_layout(struct aw_kernel *k, struct aw_task *t);
int aw_fork(struct aw_kernel *k, struct aw_task *parent, uint32_t child_pid);
int aw_madvise_flags(struct aw_kernel *k, struct mm_struct *mm, uint64_t start, uint64_t end, int advice);

/* madvise.c / migrate.c */
int aw_madvise(struct aw_kernel *k, struct mm_struct *mm, uint64_t start, uint64_t len, int advice);
int aw_migrate_range(struct aw_kernel *k, struct mm_struct *mm, uint64_t start, uint64_t len, int node);

#include "trace.h"

/*
 * pud_offset(), pmd_offset(), pte_offset_map() for the model's tables: a
 * table is a struct aw_ptable reached from its parent entry's table id, so
 * they take the kernel k.  Cheap inline lookups; the parent entry must be
 * a present table entry.
 */
static inline pud_t *pud_offset(struct aw_kernel *k, pgd_t *p4d, unsigned long addr)
{
	return aw_table(&k->pt, aw_entry_table(*p4d))->e + pud_index(addr);
}

static inline pmd_t *pmd_offset(struct aw_kernel *k, pud_t *pud, unsigned long addr)
{
	return aw_table(&k->pt, aw_entry_table(*pud))->e + pmd_index(addr);
}

static inline pte_t *pte_offset_map(struct aw_kernel *k, pmd_t *pmd, unsigned long addr)
{
	return aw_table(&k->pt, aw_entry_table(*pmd))->e + pte_index(addr);
}

/*
 * ptep_test_and_clear_young() / pmdp_test_and_clear_young() (x86,
 * arch/x86/mm/pgtable.c): true if the accessed bit was set; it is clear
 * now.  The walker's and look-around's only way to clear a young bit, so
 * that every one cleared is a fact an observer sees.  Like every write of
 * an entry below, it marks the table written (pgtable.h).
 */
static inline bool ptep_test_and_clear_young(struct aw_kernel *k, struct mm_struct *mm, uint64_t addr,
					     pte_t *ptep)
{
	pte_t pte = *ptep;

	if (!pte_young(pte))
		return false;
	*ptep = pte & ~_PAGE_ACCESSED;
	aw_entry_written(&k->pt, ptep);
	trace_ptep_test_and_clear_young(k, mm, addr, pte);
	return true;
}

static inline bool pmdp_test_and_clear_young(struct aw_kernel *k, struct mm_struct *mm, uint64_t addr,
					     pmd_t *pmdp)
{
	pmd_t pmd = *pmdp;

	if (!pmd_young(pmd))
		return false;
	*pmdp = pmd & ~_PAGE_ACCESSED;
	aw_entry_written(&k->pt, pmdp);
	trace_pmdp_test_and_clear_young(k, mm, addr, pmd);
	return true;
}

/*
 * set_pte_at() / set_pmd_at(): a fault's, a swap-in's or a collapse's
 * write of a leaf entry, through which every such write goes so that an
 * observer sees the entry before and after (the oracles derive a fault's
 * kind from the two, never from what the code says it did).
 */
static inline void set_pte_at(struct aw_kernel *k, struct mm_struct *mm, uint64_t addr, pte_t *ptep,
			      pte_t pte)
{
	pte_t old = *ptep;

	*ptep = pte;
	aw_entry_written(&k->pt, ptep);
	trace_set_pte_at(k, mm, addr, old, pte);
}

static inline void set_pmd_at(struct aw_kernel *k, struct mm_struct *mm, uint64_t addr, pmd_t *pmdp,
			      pmd_t pmd)
{
	pmd_t old = *pmdp;

	*pmdp = pmd;
	aw_entry_written(&k->pt, pmdp);
	trace_set_pmd_at(k, mm, addr, old, pmd);
}

/*
 * The PUD entry's accessed bit (x86 sets it on a page walk through it,
 * as on every non-leaf entry): for AW_FEAT_PUD_YOUNG_FIX only; the
 * kernel's MGLRU never reads it.
 */
static inline bool pudp_test_and_clear_young(struct aw_kernel *k, pud_t *pudp)
{
	if (!pud_young(*pudp))
		return false;
	*pudp &= ~(pud_t)_PAGE_ACCESSED;
	aw_entry_written(&k->pt, pudp);
	return true;
}

#endif /* AW_KERNEL_H */
