/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel text as a library: what one tree's extracted MGLRU code exports.
 *
 * tools/ktext-extract turns a kernel tree into one C file; compiled, it
 * provides a `const struct aw_ktext_ops aw_<name>_ops` (the variant's name
 * with non-alphanumerics as '_': aw_k6_12_ops, aw_k6_12_pud_ops).  A
 * struct aw_ktext is one machine of that tree's text: nodes, memcgs and
 * their lruvecs, mm structs with VMAs and page tables, folios.  The
 * functions set the machine up the way the kernel's fault and mmap paths
 * would, call the kernel's own entry points, and read back what they did.
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

/* folio_flags(): the page flags MGLRU keeps, in a layout of our own */
#define AW_KTEXT_F_LRU		0x01
#define AW_KTEXT_F_ACTIVE	0x02
#define AW_KTEXT_F_REFERENCED	0x04
#define AW_KTEXT_F_WORKINGSET	0x08
#define AW_KTEXT_F_DIRTY	0x10
#define AW_KTEXT_F_RECLAIM	0x20

/* flags for map() */
#define AW_KTEXT_YOUNG		0x1	/* the PTE (or PMD) has its accessed bit set */
#define AW_KTEXT_DIRTY		0x2
#define AW_KTEXT_THP		0x4	/* a PMD-mapped folio of HPAGE_PMD_ORDER */
#define AW_KTEXT_ZERO		0x8	/* the zero page (an anonymous read fault), no folio */
#define AW_KTEXT_ANON		0x10	/* an anonymous folio (also a CoW copy in a file VMA) */
#define AW_KTEXT_FILE		0x20	/* a page-cache folio (the VMA decides without either) */

/*
 * Page-table pages and mm structs have the kernel addresses the model gives
 * them (src/sim/pgtable.h, mmops.c) as far as the Bloom filters can tell:
 * hash_ptr() hashes the model's address of the table entry, so both
 * implementations insert the same keys when both allocated their tables in
 * the same order (docs/ktext.md).
 */
#define AW_KTEXT_KVA_TABLES	0xffff888100000000UL
#define AW_KTEXT_KVA_MMS	0xffff888200000000UL	/* mm n at + n * AW_KTEXT_MM_OBJ_SIZE */
#define AW_KTEXT_MM_OBJ_SIZE	0x500UL

struct folio;

/* get_mm_counter() members the text asks the host for (include/linux/mm_types_task.h) */
#define AW_KTEXT_MM_FILEPAGES	0
#define AW_KTEXT_MM_ANONPAGES	1

/*
 * Binding: kernel text on the host's machine.  Instead of the machine of
 * its own above, the text can run on the model's (src/kbind/kbind.c):
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
	/* pfn_folio(): the folio covering pfn, NULL if none */
	struct folio *(*folio)(void *ctx, unsigned long pfn);
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
};

struct aw_ktext_ops {
	const char *name;		/* the variant: k6.12, k6.1, k6.12+pud */
	unsigned int version;		/* VERSION << 16 | PATCHLEVEL << 8 | SUBLEVEL (capped at 255) */
	bool series;			/* a ported series is applied */
	int nr_mm_stats;
	const char *const *mm_stat_names;	/* the tree's MM_* names, in its order */

	/* a machine; NULL when out of memory or the shape is out of range */
	struct aw_ktext *(*create)(int nr_nodes, int nr_memcgs, unsigned long pages_per_node);
	void (*destroy)(struct aw_ktext *kt);
	/*
	 * An mm charged to memcg, on its mm list (lru_gen_add_mm()); its
	 * index, < 0 on error.  kva is its address as far as the Bloom filters
	 * can tell (the PUD key); 0: AW_KTEXT_KVA_MMS + index * AW_KTEXT_MM_OBJ_SIZE.
	 */
	int (*mm_create)(struct aw_ktext *kt, int memcg, unsigned long kva);
	/*
	 * Who names new page-table pages: fn(ctx, mm, addr, level) gives the
	 * address a table page made for addr at level (1 PTE, 2 PMD, 3 PUD
	 * table; 4 the PGD) hashes as; without one, pages are numbered in
	 * allocation order from 1 at AW_KTEXT_KVA_TABLES.
	 */
	void (*name_tables)(struct aw_ktext *kt, unsigned long (*fn)(void *ctx, int mm, unsigned long addr,
								      int level), void *ctx);
	/*
	 * munmap() of [start, end): folios freed (lru_gen_del_folio() as the
	 * last put does), entries cleared, VMAs cut.  A THP only partly in
	 * the range is refused (-1): the machine does not split.
	 */
	int (*unmap)(struct aw_ktext *kt, int mm, unsigned long start, unsigned long end);
	/* free_pgtables(): drop the table below the level-entry (2 PMD, 3 PUD, 4 PGD) at addr */
	void (*free_table)(struct aw_ktext *kt, int mm, unsigned long addr, int level);
	/* the entry at level (1..4) for addr is present (a table below, or a leaf) */
	bool (*present)(struct aw_ktext *kt, int mm, unsigned long addr, int level);
	/* exit: everything unmapped, then lru_gen_del_mm() (__mmput()'s order) */
	void (*mm_exit)(struct aw_ktext *kt, int mm);
	/* the owner moved to memcg: lru_gen_migrate_mm(), new faults charge memcg */
	void (*memcg_move)(struct aw_ktext *kt, int mm, int memcg);
	/* a VMA [start, end); file-backed ones are page cache with read_folio */
	int (*vma_add)(struct aw_ktext *kt, int mm, unsigned long start, unsigned long end,
		       unsigned long vm_flags, bool file);
	/*
	 * Fault one folio in at addr on node nid: allocated, PTE/PMD mapped,
	 * added to the lruvec by lru_gen_add_folio() with PG_active, as
	 * folio_add_lru() does inside a fault.  Returns its pfn, or -1.
	 */
	long (*map)(struct aw_ktext *kt, int mm, unsigned long addr, int nid, unsigned int flags,
		    unsigned long tag);
	/* the tag map() gave the folio at pfn (what it stands for elsewhere), 0 if none */
	unsigned long (*folio_tag)(struct aw_ktext *kt, long pfn);
	/*
	 * An access to a mapped page: the hardware walk sets the accessed bit
	 * at every level, and the dirty bit of the leaf with AW_KTEXT_DIRTY.
	 */
	void (*touch)(struct aw_ktext *kt, int mm, unsigned long addr, unsigned int flags);
	/* context_switch(): lru_gen_use_mm() */
	void (*use_mm)(struct aw_ktext *kt, int mm);
	/*
	 * The debugfs aging command (`+ memcg nid seq swappiness force`):
	 * the kernel's run_aging() with a walk allocated for the task, as
	 * lru_gen_seq_write() does.  0 (done, or seq already retired),
	 * -EINVAL (seq beyond max_seq), -ERANGE (not forced and
	 * MAX_NR_GENS generations exist: eviction has to go first).
	 */
	int (*age)(struct aw_ktext *kt, int memcg, int nid, unsigned long seq, int swappiness,
		   bool force_scan);
	/* try_to_inc_min_seq(), evict_folios()' step that retires empty generations */
	bool (*inc_min_seq)(struct aw_ktext *kt, int memcg, int nid, int swappiness);
	/*
	 * evict_folios() up to reclaim: isolate_folios() (which sorts
	 * promoted folios out of the oldest generation on the way), then
	 * try_to_inc_min_seq().  The machine cannot reclaim: isolated folios
	 * go back, and their number is returned (0: nothing to reclaim).
	 */
	long (*evict)(struct aw_ktext *kt, int memcg, int nid, int swappiness);
	unsigned long (*max_seq)(struct aw_ktext *kt, int memcg, int nid);
	unsigned long (*min_seq)(struct aw_ktext *kt, int memcg, int nid, int type);
	long (*nr_pages)(struct aw_ktext *kt, int memcg, int nid, int gen, int type);
	/* the pfn mapped at addr (PTE or PMD), -1 if none or the zero page */
	long (*pfn_at)(struct aw_ktext *kt, int mm, unsigned long addr);
	/* folio_lru_gen() of the folio at pfn, -1 if none; its AW_KTEXT_F_* flags */
	int (*folio_gen)(struct aw_ktext *kt, long pfn);
	unsigned long (*folio_flags)(struct aw_ktext *kt, long pfn);
	bool (*pte_young)(struct aw_ktext *kt, int mm, unsigned long addr);
	/* the lruvec's mm_state->stats (NR_HIST_GENS == 1), nr_mm_stats of them */
	void (*mm_stats)(struct aw_ktext *kt, int memcg, int nid, unsigned long *out);
	/* test_bloom_filter() for the PMD entry covering addr in mm, at seq */
	bool (*bloom_test_pmd)(struct aw_ktext *kt, int memcg, int nid, unsigned long seq, int mm,
			       unsigned long addr);
	/*
	 * Copy the lruvec's Bloom filter for seq at level (0: the PMD filter;
	 * 1: a series' PUD filter) into out (1 << 15 bits); false if the tree
	 * has no such level or the filter was never allocated.
	 */
	bool (*bloom_bits)(struct aw_ktext *kt, int memcg, int nid, int level, unsigned long seq,
			   unsigned long *out);
	/*
	 * Bound: a machine of this tree's text on host's machine (NULL when
	 * out of memory or host is out of range).  Then only the calls below
	 * and mm_stats, bloom_bits, mm_list, warnings and destroy apply; mm
	 * arguments are the host's mm ids.  A call returns with the host's
	 * generations as the text left them.
	 */
	struct aw_ktext *(*bind)(const struct aw_ktext_host *host);
	/* try_to_inc_max_seq() on (memcg, nid), with a walk (set_mm_walk()); whether max_seq moved */
	bool (*bound_age)(struct aw_ktext *kt, int memcg, int nid, unsigned long seq, int swappiness,
			  bool force_scan);
	/*
	 * evict_folios() on (memcg, nid): nr_to_scan is the budget where the
	 * tree takes one; with_walk sets the task's walk (look-around feeds
	 * it); memcg_reclaim makes sc->target_mem_cgroup that memcg.  Returns
	 * the scan count; reclaimed pages are added to *nr_reclaimed.
	 */
	/*
	 * Split aging: try_to_inc_max_seq()'s loop one mm per step.  begin: 1
	 * opened, 0 nothing to do, -EBUSY one is open; step: 0 walked an mm,
	 * 1 the pass ended, -ENOENT none open.
	 */
	int (*bound_age_begin)(struct aw_ktext *kt, int memcg, int nid, int swappiness, bool force_scan);
	int (*bound_age_step)(struct aw_ktext *kt, int memcg, int nid);
	int (*bound_evict)(struct aw_ktext *kt, int memcg, int nid, unsigned long nr_to_scan, int swappiness,
			   bool with_walk, bool memcg_reclaim, unsigned long *nr_reclaimed);
	/*
	 * folio_referenced_one()'s part for a PTE-mapped folio at addr of mm:
	 * pte/pmd are the host's entries.  Whether the mapping was young.
	 */
	bool (*bound_look_around)(struct aw_ktext *kt, int mm, unsigned long addr, unsigned long pfn,
				  void *pte, void *pmd);
	int (*bound_add_mm)(struct aw_ktext *kt, int mm);
	void (*bound_del_mm)(struct aw_ktext *kt, int mm);
	void (*bound_migrate_mm)(struct aw_ktext *kt, int mm);
	void (*bound_use_mm)(struct aw_ktext *kt, int mm);
	/* the mm list of memcg in order (host mm ids): how many (at most cap written) */
	int (*mm_list)(struct aw_ktext *kt, int memcg, int *out, int cap);
	/*
	 * The lruvec's mm_state: seq, and where the iteration stands as host
	 * mm ids (0: at the list head, -1: not set yet).
	 */
	void (*mm_state)(struct aw_ktext *kt, int memcg, int nid, unsigned long *seq, int *head, int *tail);
	/* walk_page_range() calls so far: mm walks */
	unsigned long (*walks)(struct aw_ktext *kt);
	/* WARN_ON_ONCE()/VM_WARN_ON_ONCE() hits so far, and the last one */
	unsigned long (*warnings)(struct aw_ktext *kt, const char **last);
};

#endif /* AW_KTEXT_API_H */
