/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel text as a library: what one tree's extracted MGLRU code exports.
 *
 * tools/ktext-extract turns a kernel tree into one C file; compiled, it
 * provides a `const struct aw_ktext_ops aw_<name>_ops` (the variant's name
 * with non-alphanumerics as '_': aw_k6_12_ops, aw_k6_12_pud_ops).  The
 * text runs on a host's machine (src/kbind/kbind.c binds it onto the
 * model's): the host's page tables, folios, mm structs and memcgs, reached
 * through struct aw_ktext_host; a struct aw_ktext is the text's own state
 * beside them (its lruvecs' mm lists and Bloom filters, one shadow
 * mm_struct per host mm).  The functions call the kernel's own entry
 * points and read back what they did.
 *
 * Figures are the kernel's own: mm_stats[] in the tree's enum order (see
 * mm_stat_names), generations as lru_gen_from_seq() slots.
 */
#ifndef AW_KTEXT_API_H
#define AW_KTEXT_API_H

#include <stdbool.h>

#define AW_KTEXT_MAX_NODES	4
#define AW_KTEXT_MAX_MEMCGS	8
#define AW_KTEXT_MAX_STATS	16

struct aw_ktext;
struct folio;

/*
 * What the text executed, counted on the text's side of the seam
 * (ktext_bind.inc.c) from what it did, never from what the model says:
 * one line per counter, X(ID, json key, label, work).  work: the counter
 * shows the text ran (an aging pass, an eviction, reclaim); a pair whose
 * work counters are all 0 ran the model alone (agewalk warns).  A new
 * root adds its line here and its increment where the glue calls it.
 */
#define AW_KTEXT_RAN(X)								\
	X(AGING_CALLS, "aging_calls", "try_to_inc_max_seq() calls", 1)		\
	X(AGING_PASSES, "aging_passes", "passes completed (max_seq moved)", 0)	\
	X(AGING_REFUSED_EBUSY, "aging_refused_EBUSY", "split passes refused -EBUSY", 0) \
	X(SPLIT_STEPS, "split_steps", "split-aging steps", 0)			\
	X(EVICT_CALLS, "evict_calls", "evict_folios() calls", 1)		\
	X(FOLIOS_EVICTED, "folios_evicted", "folios evicted", 0)		\
	X(LOOK_AROUND_CALLS, "look_around_calls", "lru_gen_look_around() calls", 0) \
	X(RECLAIM_CALLS, "reclaim_calls", "shrink_folio_list() calls", 1)	\
	X(SHRINK_LRUVEC_CALLS, "shrink_lruvec_calls", "lru_gen_shrink_lruvec() calls", 1) \
	X(RUN_AGING_CALLS, "run_aging_calls", "run_aging() calls", 1)		\
	X(SHADOWS_LEFT, "shadows_left", "lru_gen_eviction() shadows", 1)	\
	X(REFAULT_CALLS, "refault_calls", "lru_gen_refault() calls", 0)	\
	X(PLACEMENTS, "placements", "lru_gen_add_folio() placements", 0)	\
	X(REFERENCE_CHECKS, "reference_checks", "folio_check_references() calls", 0) \
	X(WAITS_CUT, "waits_cut", "waits for another walker cut short", 0)

enum aw_ktext_ran_id {
#define AW_KTEXT_RAN_ENUM(id, key, label, work) AW_KTEXT_RAN_##id,
	AW_KTEXT_RAN(AW_KTEXT_RAN_ENUM)
#undef AW_KTEXT_RAN_ENUM
	AW_KTEXT_NR_RAN
};

/* get_mm_counter() members the text asks the host for (include/linux/mm_types_task.h) */
#define AW_KTEXT_MM_FILEPAGES	0
#define AW_KTEXT_MM_ANONPAGES	1

/*
 * The host: the machine the text runs on (the model's, src/kbind/kbind.c):
 * its page tables, folios, mm structs and memcgs, reached through these
 * callbacks, with plain C types only so that the model's headers and the
 * tree's never meet.  The folios are shared as they are (struct folio is
 * src/kapi/linux/mm_types.h on both sides).  Every callback gets ctx.
 */
struct aw_ktext_vma {
	unsigned long start, end;
	unsigned long vm_flags;		/* the kernel's VM_* values */
	bool file;			/* page cache (vma->vm_file) */
};

/* An mm as the walk sees it at the start of a call (refreshed then). */
struct aw_ktext_mm {
	void *pgd;			/* its PGD table page */
	unsigned long kva;		/* its slab address: the PUD filter's key */
	int memcg;			/* its owner's memcg */
	bool exiting;			/* mmget_not_zero() fails */
	bool mmap_contended;		/* mmap_read_trylock() fails */
	bool ptl_contended;		/* spin_trylock() on its table locks fails */
	bool has_notifiers;
};

/*
 * One lruvec's generations as the host keeps them: the layout of the
 * model's struct lru_gen_folio (static-asserted there).  The text borrows
 * them for one call: scalars copied in and out, the folio lists spliced.
 * protected[type][tier] counts tier >= 1 (the kernel's [tier - 1] in
 * 6.1/6.12).
 */
struct aw_ktext_list { void *next, *prev; };
struct aw_ktext_lrugen {
	unsigned long max_seq;
	unsigned long min_seq[2];
	unsigned long timestamps[4];
	struct aw_ktext_list folios[4][2];
	long nr_pages[4][2];
	unsigned long avg_refaulted[2][4];
	unsigned long avg_total[2][4];
	unsigned long protected[2][4];
	unsigned long evicted[2][4];
	unsigned long refaulted[2][4];
};

struct aw_ktext_host {
	void *ctx;
	int nr_nodes, nr_memcgs;
	unsigned long node_start_pfn[AW_KTEXT_MAX_NODES], node_spanned[AW_KTEXT_MAX_NODES];
	unsigned long zero_pfn, huge_zero_pfn;
	/* the table page a non-leaf entry's pfn field names */
	void *(*table)(void *ctx, unsigned long pfn);
	/* pfn_valid() for a table page's pfn */
	bool (*is_table)(void *ctx, unsigned long pfn);
	/* what a pointer into a table page hashes as (hash_ptr()); 0 if it is not one */
	unsigned long (*table_kva)(void *ctx, const void *p);
	/*
	 * the text wrote the entry p points at (it cleared an accessed bit):
	 * the host marks its table written, as the model's own writes do
	 * (src/sim/pgtable.h); NULL: nothing to tell
	 */
	void (*table_written)(void *ctx, const void *p);
	/* pfn_folio(): the folio covering pfn, NULL if none */
	struct folio *(*folio)(void *ctx, unsigned long pfn);
	/* the lruvec's generations: one place for the host's life (the text keeps it from bind()) */
	struct aw_ktext_lrugen *(*lrugen)(void *ctx, int memcg, int nid);
	/* the mm's state; false if the host has no such mm */
	bool (*mm)(void *ctx, int mm, struct aw_ktext_mm *out);
	/* the mm's VMAs in address order: how many (at most cap are written) */
	int (*vmas)(void *ctx, int mm, struct aw_ktext_vma *out, int cap);
	/* get_mm_counter() */
	unsigned long (*mm_counter)(void *ctx, int mm, int member);
	long (*nr_swap_pages)(void *ctx, int memcg);
	unsigned long (*now)(void *ctx);	/* jiffies, in the host's clock */
	/*
	 * shrink_folio_list() on folios isolated from lruvec (memcg, nid), in
	 * the order the kernel takes them: reclaims some, returns how many
	 * pages, and leaves the rest in pfns[] in the same order (*nr of them).
	 */
	unsigned long (*shrink)(void *ctx, int memcg, int nid, unsigned long *pfns, int *nr);
	/*
	 * the text moved folio's flag generation from old_gen to new_gen (-1:
	 * none); reclaim_set: the same write set PG_reclaim (folio_inc_gen()
	 * for a folio waiting for writeback)
	 */
	void (*gen_written)(void *ctx, struct folio *folio, int old_gen, int new_gen, bool reclaim_set);
	/* a walk or look-around promoted folio (folio_update_gen() moved it, or folio_activate()) */
	void (*promoted)(void *ctx, struct folio *folio);

	/* --- the workingset side (mm/workingset.c, issue 30) --- */
	/*
	 * mod_lruvec_state() of a workingset counter of lruvec (memcg, nid):
	 * item is AW_KTEXT_WORKINGSET_* + type (0 anon, 1 file), nr pages.
	 */
	void (*lruvec_state)(void *ctx, int memcg, int nid, int item, long nr);
	/*
	 * The reclaim loop (issue 30, ktext_reclaim.inc.c): the text's own
	 * try_to_inc_max_seq() from reclaim or run_aging() is a pass the host
	 * records: begin returns its handle (-1: none), end closes it.
	 */
	int (*pass_begin)(void *ctx, int memcg, int nid, unsigned long seq, bool force_scan);
	void (*pass_end)(void *ctx, int memcg, int nid, int handle);
	/*
	 * shrink_folio_list()'s reference check (issue 30,
	 * ktext_references.inc.c): mm/rmap.c's folio_referenced() on the
	 * host's reverse map, for cgroup reclaim of memcg (-1: none): the
	 * young mappings (each cleared; a PTE's through the text's
	 * look_around() above), -1 to keep the folio, and in *vm_flags
	 * VM_LOCKED or the young mappings' VMA flags.
	 */
	int (*folio_referenced)(void *ctx, struct folio *folio, int memcg, unsigned long *vm_flags);
};

/*
 * A workingset shadow's fields (mm/workingset.c: pack_shadow()): the
 * eviction token (min_seq << LRU_REFS_WIDTH | max(refs - 1, 0)), the
 * lruvec's memcg and node, and the workingset bit.
 */
struct aw_ktext_shadow {
	unsigned long token;
	int memcg, nid;
	bool workingset;
};

/* mod_lruvec_state() items the text reports (+ type): include/linux/mmzone.h's WORKINGSET_*_BASE */
#define AW_KTEXT_WORKINGSET_REFAULT	0
#define AW_KTEXT_WORKINGSET_ACTIVATE	2
#define AW_KTEXT_WORKINGSET_RESTORE	4

struct aw_ktext_ops {
	const char *name;		/* the variant: k6.12, k6.1, k6.12+pud */
	unsigned int version;		/* VERSION << 16 | PATCHLEVEL << 8 | SUBLEVEL (capped at 255) */
	bool series;			/* the PUD-filter series is applied (its pair is pud) */
	int nr_mm_stats;
	const char *const *mm_stat_names;	/* the tree's MM_* names, in its order */

	/*
	 * The tree's text on host's machine (NULL when out of memory or host
	 * is out of range).  mm arguments below are the host's mm ids.  A
	 * call returns with the host's generations as the text left them.
	 */
	struct aw_ktext *(*bind)(const struct aw_ktext_host *host);
	void (*destroy)(struct aw_ktext *kt);
	/* try_to_inc_max_seq() on (memcg, nid), with a walk (set_mm_walk()); whether max_seq moved */
	bool (*age)(struct aw_ktext *kt, int memcg, int nid, unsigned long seq, int swappiness, bool force_scan);
	/*
	 * Split aging: try_to_inc_max_seq()'s loop one mm per step.  begin: 1
	 * opened, 0 nothing to do, -EBUSY one is open; step: 0 walked an mm,
	 * 1 the pass ended, -ENOENT none open.
	 */
	int (*age_begin)(struct aw_ktext *kt, int memcg, int nid, int swappiness, bool force_scan);
	int (*age_step)(struct aw_ktext *kt, int memcg, int nid);
	/*
	 * evict_folios() on (memcg, nid): nr_to_scan is the budget where the
	 * tree takes one; with_walk sets the task's walk (look-around feeds
	 * it); memcg_reclaim makes sc->target_mem_cgroup that memcg.  Returns
	 * the scan count; reclaimed pages are added to *nr_reclaimed.
	 */
	int (*evict)(struct aw_ktext *kt, int memcg, int nid, unsigned long nr_to_scan, int swappiness,
		     bool with_walk, bool memcg_reclaim, unsigned long *nr_reclaimed);
	/*
	 * folio_referenced_one()'s part for a PTE-mapped folio at addr of mm:
	 * pte/pmd are the host's entries.  Whether the mapping was young.
	 */
	bool (*look_around)(struct aw_ktext *kt, int mm, unsigned long addr, unsigned long pfn, void *pte,
			    void *pmd);
	/* lru_gen_add_mm(), lru_gen_del_mm(), lru_gen_migrate_mm(), lru_gen_use_mm() of host mm id mm */
	int (*add_mm)(struct aw_ktext *kt, int mm);
	void (*del_mm)(struct aw_ktext *kt, int mm);
	void (*migrate_mm)(struct aw_ktext *kt, int mm);
	void (*use_mm)(struct aw_ktext *kt, int mm);
	/* the lruvec's mm_state->stats (NR_HIST_GENS == 1), nr_mm_stats of them */
	void (*mm_stats)(struct aw_ktext *kt, int memcg, int nid, unsigned long *out);
	/*
	 * Copy the lruvec's Bloom filter for seq at level (0: the PMD filter;
	 * 1: a series' PUD filter) into out (1 << 15 bits); false if the tree
	 * has no such level or the filter was never allocated.
	 */
	bool (*bloom_bits)(struct aw_ktext *kt, int memcg, int nid, int level, unsigned long seq,
			   unsigned long *out);
	/* the mm list of memcg in order (host mm ids): how many (at most cap written) */
	int (*mm_list)(struct aw_ktext *kt, int memcg, int *out, int cap);
	/*
	 * The lruvec's mm_state: seq, and where the iteration stands as host
	 * mm ids (0: at the list head, -1: not set yet).
	 */
	void (*mm_state)(struct aw_ktext *kt, int memcg, int nid, unsigned long *seq, int *head, int *tail);
	/* walk_mm() calls so far: out[0] mms walked, out[1] those with walk->force_scan */
	void (*walks)(struct aw_ktext *kt, unsigned long out[2]);
	/* what the text executed so far: AW_KTEXT_NR_RAN counters in AW_KTEXT_RAN() order */
	void (*ran)(struct aw_ktext *kt, unsigned long *out);
	/* WARN_ON_ONCE()/VM_WARN_ON_ONCE() hits so far, and the last one */
	unsigned long (*warnings)(struct aw_ktext *kt, const char **last);

	/*
	 * --- the workingset side (mm/workingset.c, issue 30) ---
	 * A shadow travels as its fields (struct aw_ktext_shadow), packed and
	 * unpacked by the tree's own pack_shadow()/unpack_shadow(): the host
	 * keeps them where it keeps its own shadows (swap slot, page cache).
	 */
	/* lru_gen_eviction() of an isolated folio: the shadow it leaves */
	void (*eviction)(struct aw_ktext *kt, struct folio *folio, struct aw_ktext_shadow *out);
	/*
	 * lru_gen_refault() of a new folio (not on an LRU yet) over the shadow
	 * it replaces; in_fault is lru_gen_in_fault() (a page fault in a VMA
	 * with recency)
	 */
	void (*refault)(struct aw_ktext *kt, struct folio *folio, const struct aw_ktext_shadow *shadow,
			bool in_fault);
	/* folio_add_lru()'s lru_gen_add_folio() of a new folio; in_fault as above */
	bool (*add_folio)(struct aw_ktext *kt, struct folio *folio, bool in_fault);
	/* -- the reclaim loop (issue 30, ktext_reclaim.inc.c) -- */
	/*
	 * lru_gen_shrink_lruvec() on (memcg, nid) for memcg reclaim of target
	 * (sc->target_mem_cgroup) at priority: *nr_reclaimed is
	 * sc->nr_reclaimed in and out; memcg_swappiness is
	 * mem_cgroup_swappiness().  Returns the memcg LRU rotation asked (1
	 * young, 0 none), -1 where the tree has no memcg LRU (6.1).
	 */
	int (*shrink_lruvec)(struct aw_ktext *kt, int memcg, int nid, int target, int priority,
			     unsigned long nr_to_reclaim, bool may_swap, int memcg_swappiness,
			     unsigned long *nr_reclaimed);
	/* run_aging() of the debugfs '+' on (memcg, nid): 0, -EINVAL or -ERANGE */
	int (*run_aging)(struct aw_ktext *kt, int memcg, int nid, unsigned long seq, int swappiness, bool force_scan);
	/*
	 * -- shrink_folio_list()'s reference check (ktext_references.inc.c) --
	 * folio_check_references() of an isolated folio, for cgroup reclaim
	 * of target_memcg (-1: none): AW_KTEXT_FOLIOREF_*
	 */
	int (*check_references)(struct aw_ktext *kt, struct folio *folio, int target_memcg);
};

/* mm/vmscan.c: enum folio_references, as the host numbers it */
#define AW_KTEXT_FOLIOREF_RECLAIM	0
#define AW_KTEXT_FOLIOREF_RECLAIM_CLEAN	1
#define AW_KTEXT_FOLIOREF_KEEP		2
#define AW_KTEXT_FOLIOREF_ACTIVATE	3

#endif /* AW_KTEXT_API_H */
