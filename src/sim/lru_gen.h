/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * MGLRU generations of one lruvec (include/linux/mmzone.h: struct
 * lru_gen_folio, struct lru_gen_mm_state, struct lru_gen_mm_walk;
 * include/linux/mm_inline.h and mm/vmscan.c for the operations).
 *
 * The model has one zone per node (ZONE_NORMAL), so the kernel's
 * [gen][type][zone] arrays are [gen][type] here.
 */
#ifndef AW_LRU_GEN_H
#define AW_LRU_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "linux/swap.h"

#include "bloom.h"
#include "mm.h"

#define MIN_NR_GENS		2
#define MAX_NR_GENS		4
#define MAX_NR_TIERS		4
#define MIN_LRU_BATCH		64
#define MAX_LRU_BATCH		(MIN_LRU_BATCH * 64)
#define ANON_AND_FILE		2
#define LRU_GEN_ANON		0
#define LRU_GEN_FILE		1
#define DEF_PRIORITY		12
#define MAX_RECLAIM_RETRIES	16
#define SWAP_CLUSTER_MAX	32

/* mmzone.h mm stats: mainline TYFA plus the seed's ALWEES (v3 1/4, 4/4) */
enum {
	MM_LEAF_TOTAL,
	MM_LEAF_YOUNG,
	MM_NONLEAF_FOUND,
	MM_NONLEAF_ADDED,
	MM_LEAF_ASSOCIATED,
	MM_WALK_TOTAL,
	MM_WALK_EMPTY,
	MM_LEAF_EMPTY_WALKS,
	MM_PUD_EMPTY_SKIPPED,
	NR_MM_STATS
};

/* The counters by the kernel's names ("MM_LEAF_TOTAL" ...): the index, -1 if the model has none */
int aw_mm_stat_index(const char *name);

/* Model-only walk counters: the cost the PUD filter saves, filter tests. */
enum {
	AW_WS_PMD_READ,		/* PMD slots read by walk_pmd_range() */
	AW_WS_BLOOM_PMD,	/* test_bloom_filter() calls, PMD level */
	AW_WS_BLOOM_PUD,	/* test_bloom_filter() calls, PUD level */
	AW_WS_PROMOTED,		/* folios whose generation moved to max_seq */
	NR_AW_WALK_STATS
};

struct lru_gen_folio {
	unsigned long max_seq;
	unsigned long min_seq[ANON_AND_FILE];
	uint64_t timestamps[MAX_NR_GENS];
	struct list_head folios[MAX_NR_GENS][ANON_AND_FILE];	/* of folio->lru */
	long nr_pages[MAX_NR_GENS][ANON_AND_FILE];
	/*
	 * The PID controller's inputs (tier.c).  NR_HIST_GENS is 1 (no
	 * CONFIG_LRU_GEN_STATS), so the kernel's [hist] index is dropped.
	 * protected[] is indexed by tier in every profile; 6.1/6.12 store
	 * tier t at [t - 1] and never protect tier 0, which is the same.
	 */
	unsigned long avg_refaulted[ANON_AND_FILE][MAX_NR_TIERS];
	unsigned long avg_total[ANON_AND_FILE][MAX_NR_TIERS];
	unsigned long protected[ANON_AND_FILE][MAX_NR_TIERS];
	unsigned long evicted[ANON_AND_FILE][MAX_NR_TIERS];
	unsigned long refaulted[ANON_AND_FILE][MAX_NR_TIERS];
};

struct lru_gen_mm_state {
	unsigned long seq;		/* synced with max_seq after each iteration */
	struct list_head *head;		/* where the current iteration continues after */
	struct list_head *tail;		/* where the last iteration ended before */
	aw_bloom_t filters[BLOOM_FILTER_LEVELS][NR_BLOOM_FILTERS];
	unsigned long stats[NR_MM_STATS];	/* NR_HIST_GENS == 1: cumulative */
	int nr_walkers;			/* 6.1: walkers in the current iteration */
};

struct aw_kernel;

struct lruvec {
	int memcg, nid, index;
	struct aw_kernel *k;		/* model: the machine it is in (lruvec->pgdat's role) */
	struct lru_gen_folio lrugen;
	struct lru_gen_mm_state mm_state;
};

struct aw_kernel;
struct aw_pass;

/* struct lru_gen_mm_walk, plus what the model needs to reach its state */
struct lru_gen_mm_walk {
	struct lruvec *lruvec;
	unsigned long seq;
	unsigned long next_addr;
	long nr_pages[MAX_NR_GENS][ANON_AND_FILE];
	unsigned long mm_stats[NR_MM_STATS];
	unsigned long aw_stats[NR_AW_WALK_STATS];
	int batched;
	int swappiness;
	bool force_scan;

	/* model: mm_walk args (struct mm_walk) and bookkeeping */
	struct aw_kernel *k;
	struct mm_struct *mm;
	struct vm_area_struct *vma;	/* args->vma */
	int pass_idx;			/* index of its aging pass in node_stats, -1 = none */
	struct mm_struct *iter;		/* iterate_mm_list()'s *iter between split-aging steps */
};

/* mm/vmscan.c / mm_inline.h helpers */
static inline int lru_gen_from_seq(unsigned long seq) { return seq % MAX_NR_GENS; }
static inline bool seq_ok_window(unsigned long max_seq, unsigned long min_seq)
{
	return max_seq - min_seq + 1 >= MIN_NR_GENS && max_seq - min_seq + 1 <= MAX_NR_GENS;
}

/* lru_gen.c */
void lru_gen_init_lruvec(struct lruvec *lruvec, int memcg, int nid, int index, uint64_t now);
int get_nr_gens(const struct lruvec *lruvec, int type);
/* evictable_min_seq(): the oldest evictable sequence for this swappiness */
unsigned long evictable_min_seq(const unsigned long *min_seq, int swappiness);

struct aw_kernel;
struct folio;

/* include/linux/mm_inline.h */
bool lru_gen_add_folio(struct lruvec *lruvec, struct folio *folio, bool reclaiming);
bool lru_gen_del_folio(struct lruvec *lruvec, struct folio *folio, bool reclaiming);
void lru_gen_update_size(struct lruvec *lruvec, struct folio *folio, int old_gen, int new_gen);
unsigned long lru_gen_folio_seq(const struct lruvec *lruvec, const struct folio *folio, bool reclaiming);
unsigned long lru_gen_folio_seq_from_min(const struct lruvec *lruvec, const struct folio *folio, bool reclaiming);

/* mm/vmscan.c */
int folio_update_gen(struct folio *folio, int gen);
int folio_update_gen_first_young(struct folio *folio, int gen);	/* 6.1/6.12 */
int folio_inc_gen(struct aw_kernel *k, struct lruvec *lruvec, struct folio *folio, bool reclaiming);
bool lru_gen_set_refs(struct folio *folio);
void update_batch_size(struct lru_gen_mm_walk *walk, struct folio *folio, int old_gen, int new_gen);
void reset_batch_size(struct lru_gen_mm_walk *walk);
bool inc_min_seq(struct aw_kernel *k, struct lruvec *lruvec, int type, int swappiness);
bool try_to_inc_min_seq(struct lruvec *lruvec, int swappiness);
bool inc_max_seq(struct aw_kernel *k, struct lruvec *lruvec, unsigned long seq, int swappiness);

/* tier.c: tiers and the PID controller (mm/vmscan.c, include/linux/mm_inline.h) */
struct ctrl_pos {
	unsigned long refaulted;
	unsigned long total;
	int gain;
};
int folio_lru_refs(const struct aw_kernel *k, const struct folio *folio);
int lru_tier_from_refs(const struct aw_kernel *k, int refs, bool workingset);
int folio_lru_tier(const struct aw_kernel *k, const struct folio *folio);
bool folio_lazily_promoted(const struct aw_kernel *k, const struct folio *folio);
void read_ctrl_pos(const struct lruvec *lruvec, int type, int tier, int gain, struct ctrl_pos *pos);
void reset_ctrl_pos(struct lruvec *lruvec, int type, bool carryover);
bool positive_ctrl_err(const struct ctrl_pos *sp, const struct ctrl_pos *pv);
int get_tier_idx(const struct lruvec *lruvec, int type);
int get_type_to_scan(const struct lruvec *lruvec, int swappiness);

#endif /* AW_LRU_GEN_H */
