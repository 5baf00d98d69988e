/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The objects kernel text works on, and the kernel functions it calls that
 * are not MGLRU: included by each generated file after the tree's own
 * MGLRU types (struct lru_gen_folio, lru_gen_mm_state, lru_gen_mm_walk,
 * lru_gen_mm_list, mm_walk ...) and before its code.
 *
 * Each generated file has its own copy of these definitions, laid out
 * around its tree's MGLRU types, so trees with different types (a series
 * that adds a field) link into one binary: nothing here has external
 * linkage, the glue exports only functions with the tree's prefix.
 *
 * The machine is the smallest one kernel text runs on faithfully: nodes
 * with one zone (ZONE_NORMAL) and a pfn range each, a folio per pfn,
 * memcgs with one lruvec per node, mm structs with sorted VMAs and real
 * page tables.  Which kernel function each stub stands for is named next
 * to it; docs/ktext.md says why each one is enough.
 */
#ifndef AW_KTEXT_OBJECTS_H
#define AW_KTEXT_OBJECTS_H


/* include/linux/mm_types.h: the VMA and mm fields the walk reads */
struct address_space_operations {
	int (*read_folio)(void *file, struct folio *folio);
};
struct address_space {
	const struct address_space_operations *a_ops;
	bool unevictable, shmem;
};
struct file {
	struct address_space *f_mapping;
	fmode_t f_mode;
};
#define FMODE_NOREUSE		(1u << 23)

struct mm_struct;
struct vm_area_struct {
	unsigned long vm_start, vm_end;
	struct mm_struct *vm_mm;
	unsigned long vm_flags;
	struct file *vm_file;
	void *anon_vma;
	unsigned long vm_page_prot;	/* pgprot_t: the bits a new PMD takes (khugepaged) */
};
/* the VM_* flags: src/kapi/linux/mm.h */

/* include/linux/mm_types_task.h: the RSS counters 6.1's should_skip_mm() reads */
enum { MM_FILEPAGES, MM_ANONPAGES, MM_SWAPENTS, MM_SHMEMPAGES, NR_MM_COUNTERS };
_Static_assert(MM_FILEPAGES == AW_KTEXT_MM_FILEPAGES && MM_ANONPAGES == AW_KTEXT_MM_ANONPAGES,
	       "the host counts the members by these numbers");

struct mm_struct {
	pgd_t *pgd;
	atomic_t mm_users;
	unsigned long flags;		/* MMF_* (khugepaged: MMF_VM_HUGEPAGE, MMF_DISABLE_THP) */
	struct vm_area_struct *vmas;	/* sorted, non-overlapping */
	int nr_vmas;
	struct task_struct *owner;	/* mm->owner: its memcg is the mm's (get_mem_cgroup_from_mm()) */
	unsigned long aw_kva;		/* the address the PUD filter's key uses (aw_ktext_kva()) */
	bool aw_dead;			/* exited: off the mm list, nothing mapped */
	int aw_index;			/* its index in the machine */
	int aw_live;			/* bound: 1 + its place in kt->aw_live[], 0 if not there */
	bool has_notifiers;
	bool aw_mmap_contended;		/* bound: the host's mmap_lock is taken */
	spinlock_t aw_ptl;		/* its table locks (one CPU: one lock per mm does) */
	int aw_cap_vmas;
	struct {
		struct list_head list;
		unsigned long bitmap;
		struct mem_cgroup *memcg;
	} lru_gen;
};

/* include/linux/mm_types.h: VMA_ITERATOR over the sorted array */
struct vma_iterator {
	struct mm_struct *mm;
	unsigned long addr;
};
#define VMA_ITERATOR(name, __mm, __addr)	struct vma_iterator name = { .mm = (__mm), .addr = (__addr) }
static inline struct vm_area_struct *vma_next(struct vma_iterator *vmi)
{
	struct mm_struct *mm = vmi->mm;

	for (int i = 0; i < mm->nr_vmas; i++) {
		if (mm->vmas[i].vm_end > vmi->addr) {
			vmi->addr = mm->vmas[i].vm_end;
			return &mm->vmas[i];
		}
	}
	return NULL;
}
#define for_each_vma(vmi, vma)	while (((vma) = vma_next(&(vmi))) != NULL)

/* include/linux/mmzone.h, memcontrol.h: nodes, lruvecs and memcgs */
struct pglist_data;
struct lruvec {
	spinlock_t lru_lock;
	AW_KTEXT_LRUVEC_MGLRU		/* the tree's own: lrugen, mm_state */
	struct pglist_data *pgdat;
	struct mem_cgroup *memcg;	/* lruvec_memcg(): mem_cgroup_per_node's memcg */
};

struct mem_cgroup_per_node {
	struct lruvec lruvec;
};

struct mem_cgroup {
	int id;
	struct mem_cgroup_per_node *nodeinfo[MAX_NUMNODES];
	struct lru_gen_mm_list mm_list;
};

#include "ktext_reclaim.h"	/* the reclaim loop's world: zones, memcg protection (issue 30) */

typedef struct pglist_data {
	int node_id;
	unsigned long node_start_pfn;
	unsigned long node_spanned_pages;
	struct lru_gen_mm_walk mm_walk;
	struct lruvec __lruvec;
	struct zone node_zones[MAX_NR_ZONES];	/* should_abort_scan() (ktext_reclaim.h) */
} pg_data_t;

/* include/linux/sched.h, swap.h: the current task's reclaim state */
struct task_struct;
struct reclaim_state {
	struct lru_gen_mm_walk *mm_walk;
};
struct task_struct {
	struct reclaim_state *reclaim_state;
	bool kswapd;
	struct mm_struct *mm;
	spinlock_t alloc_lock;
	struct mem_cgroup *memcg;	/* mem_cgroup_from_task() */
	bool in_lru_fault;		/* lru_gen_in_fault(): a fault in a VMA with recency */
};

/* mm/vmscan.c: struct scan_control, the fields MGLRU reads */
struct scan_control {
	unsigned long nr_to_reclaim;
	unsigned long nr_reclaimed;
	gfp_t gfp_mask;
	int order;
	int priority;
	int reclaim_idx;
	int swappiness;
	unsigned int may_swap:1;
	unsigned int may_writepage:1;
	unsigned int may_unmap:1;
	unsigned int memcg_full_walk:1;
	/* the reclaim loop's (ktext_reclaim.inc.c): 6.12's proactive, 6.1's low/aging feedback */
	unsigned int proactive:1;
	unsigned int memcg_low_reclaim:1;
	unsigned int memcgs_need_aging:1;
	unsigned long last_reclaimed;
	struct mem_cgroup *target_mem_cgroup;
	struct {
		unsigned int dirty, unqueued_dirty, congested, writeback, immediate, file_taken, taken;
	} nr;
};

/* mm/vmscan.c: what shrink_folio_list() reports (include/linux/vmstat.h) */
struct reclaim_stat {
	unsigned int nr_dirty, nr_unqueued_dirty, nr_congested, nr_writeback, nr_immediate, nr_pageout;
	unsigned int nr_activate[2], nr_ref_keep, nr_unmap_fail, nr_lazyfree_fail, nr_demoted;
};

/* include/linux/rmap.h: what rmap hands lru_gen_look_around() */
struct page_vma_mapped_walk {
	unsigned long pfn;
	struct vm_area_struct *vma;
	unsigned long address;
	pmd_t *pmd;
	pte_t *pte;
	spinlock_t *ptl;
};

/*
 * The machine one generated file runs on.  The per-kernel state that the
 * kernel keeps in globals (NODE_DATA(), the root memcg, current,
 * jiffies, lru_gen_caps) lives here, reached through the current
 * machine -- the user-space stand-in for the CPU the text runs on.
 */
struct aw_ktext {
	int nr_nodes, nr_memcgs;
	struct pglist_data *node[MAX_NUMNODES];
	struct mem_cgroup *memcg[AW_KTEXT_MAX_MEMCGS];
	struct task_struct task;
	struct reclaim_state reclaim_state;
	unsigned long aw_jiffies;	/* jiffies */
	bool caps[3];			/* lru_gen_caps: core, mm walk, non-leaf young */
	unsigned long warnings;		/* WARN_ON_ONCE/VM_WARN_ON_ONCE hits */
	const char *last_warning;
	struct mm_struct **mms;
	int nr_mms, cap_mms;
	/*
	 * bound: the shadows of the host's mms on its lists (added, not
	 * deleted), which each call that reads an mm refreshes; and how many
	 * deleted ones wait to be freed (after the split walkers that may hold
	 * one, ktext_bind.inc.c)
	 */
	struct mm_struct **aw_live;
	int aw_nr_live, aw_cap_live, aw_nr_dead;
	unsigned long zero_pfn, huge_zero_pfn;
	/*
	 * The host's machine (ops->bind()).  mms[] is indexed by the host's
	 * mm ids (NULL: none), and a call from the host borrows its
	 * generations for the call's length (depth 0 lends, nested calls
	 * from the host's reclaim do not).
	 */
	const struct aw_ktext_host *host;
	/*
	 * host->lrugen() of each lruvec [memcg * nr_nodes + nid], asked once:
	 * every call from the host lends them all, and an indirect call per
	 * lruvec each way was a tenth of agewalk_fuzz_ktext's time under
	 * libFuzzer's indirect-call hook (docs/results.md, session 20)
	 */
	struct aw_ktext_lrugen *aw_host_lrugen[AW_KTEXT_MAX_MEMCGS * AW_KTEXT_MAX_NODES];
	int depth;
	bool has_scalars;		/* the generation scalars are the text's now */
	int aw_lent_few;		/* in a call on one folio: only its lruvecs are lent */
	unsigned long *aw_pfns;		/* shrink_folio_list()'s, scratch */
	int aw_cap_pfns;
	struct aw_ktext_vma *aw_vmas;	/* the host's VMAs of one mm, scratch */
	int aw_cap_vmas;
	unsigned long walks;		/* walk_mm() calls: mms walked (the call hook in ktext-extract) */
	unsigned long forced_walks;	/* ... with walk->force_scan set */
	unsigned long aw_ran[AW_KTEXT_NR_RAN];	/* what the text executed (ktext_api.h) */
	/* split aging: the walker of each lruvec [memcg * nr_nodes + nid] (ktext_bind.inc.c) */
	struct aw_split *split[AW_KTEXT_MAX_MEMCGS * AW_KTEXT_MAX_NODES];
	/* the reclaim loop (ktext_reclaim.inc.c): the memcg's swappiness, the rotation asked, passes recorded */
	int aw_swappiness;
	int aw_rotate;
	bool aw_record_passes, aw_force_scan;
	unsigned long aw_hook_max_seq;	/* max_seq before the hooked try_to_inc_max_seq() */
};

/*
 * ktext_bind.inc.c: try_to_inc_max_seq() of a split pass runs on a walker of
 * its own and stops before each iterate_mm_list() after the first
 * (tools/ktext-extract routes the calls through this); a no-op elsewhere.
 */
static void aw_split_yield(void);

/* The machine the text is running on (set by the glue around each call). */
static __thread struct aw_ktext *aw_ktext_cur;
static inline struct aw_ktext *aw_ktext_current(void) { return aw_ktext_cur; }

/* The table page below a non-leaf entry: the entry holds the host's table id (docs/ktext.md). */
static inline void *aw_ktext_table(unsigned long entry)
{
	const struct aw_ktext_host *h = aw_ktext_cur->host;

	return h->table(h->ctx, (entry & PTE_PFN_MASK) >> PAGE_SHIFT);
}

#define current			(&aw_ktext_current()->task)
#define current_is_kswapd()	(current->kswapd)
#define NODE_DATA(nid)		(aw_ktext_current()->node[nid])
#define lru_gen_caps		(aw_ktext_current()->caps)
#define static_branch_unlikely(cap)	(*(cap))
#define static_branch_likely(cap)	(*(cap))
#define for_each_node(nid)	for ((nid) = 0; (nid) < aw_ktext_current()->nr_nodes; (nid)++)
#define for_each_node_state(nid, state)	for_each_node(nid)

/* include/asm-generic/bug.h, include/linux/mmdebug.h: counted, reported by the glue */
static inline bool aw_ktext_warn(bool cond, const char *what)
{
	if (cond) {
		aw_ktext_current()->warnings++;
		aw_ktext_current()->last_warning = what;
	}
	return cond;
}
#define AW_STR2(x)			#x
#define AW_STR(x)			AW_STR2(x)
/* WARN_ON() and friends: src/kapi/linux/bug.h; every form counts every hit */
#define aw_warn_report(once, cond, file, line)	aw_ktext_warn(true, file ":" AW_STR(line) ": " cond)
#include "linux/bug.h"
#define VM_WARN_ON_ONCE_FOLIO(c, f)	((void)(f), (void)WARN_ON_ONCE(c))
#define VM_BUG_ON(c)			((void)WARN_ON_ONCE(c))

static inline void aw_ktext_flags_written(void *p, unsigned long old, unsigned long new)
{
	const struct aw_ktext_host *h = aw_ktext_current()->host;

	if (h && h->gen_written && ((old ^ new) & LRU_GEN_MASK))
		h->gen_written(h->ctx, (struct folio *)p, (int)((old & LRU_GEN_MASK) >> LRU_GEN_PGOFF) - 1,
			       (int)((new & LRU_GEN_MASK) >> LRU_GEN_PGOFF) - 1,
			       (new & ~old) & BIT(PG_reclaim));
}

/* include/linux/page-flags.h */
#define AW_FOLIO_FLAG(name, bit)							\
	static inline bool folio_test_##name(const struct folio *f) { return test_bit(bit, &f->flags); } \
	static inline void folio_set_##name(struct folio *f) { set_bit(bit, &f->flags); }	\
	static inline void folio_clear_##name(struct folio *f) { clear_bit(bit, &f->flags); }
AW_FOLIO_FLAG(lru, PG_lru)
AW_FOLIO_FLAG(active, PG_active)
AW_FOLIO_FLAG(referenced, PG_referenced)
AW_FOLIO_FLAG(workingset, PG_workingset)
AW_FOLIO_FLAG(dirty, PG_dirty)
AW_FOLIO_FLAG(writeback, PG_writeback)
AW_FOLIO_FLAG(reclaim, PG_reclaim)
AW_FOLIO_FLAG(swapbacked, PG_swapbacked)
AW_FOLIO_FLAG(swapcache, PG_swapcache)
AW_FOLIO_FLAG(unevictable, PG_unevictable)
AW_FOLIO_FLAG(mlocked, PG_mlocked)
AW_FOLIO_FLAG(locked, PG_locked)
static inline bool folio_mapped(struct folio *f) { return f->mapcount > 0; }
static inline unsigned long get_mm_counter(struct mm_struct *mm, int member)
{
	const struct aw_ktext_host *h = aw_ktext_current()->host;

	return h->mm_counter(h->ctx, mm->aw_index, member);
}
static inline bool folio_test_clear_lru(struct folio *f) { return test_and_clear_bit(PG_lru, &f->flags); }
/* shrink_folio_list()'s reference check (ktext_references.inc.c: folio_referenced() is the host's rmap walk) */
static inline bool folio_test_clear_referenced(struct folio *f) { return test_and_clear_bit(PG_referenced, &f->flags); }
static int folio_referenced(struct folio *folio, int is_locked, struct mem_cgroup *memcg, unsigned long *vm_flags);
AW_FOLIO_FLAG(anon, PG_anon)
static inline int folio_nid(const struct folio *f) { return f->nid; }
static inline enum zone_type folio_zonenum(const struct folio *f) { return ZONE_NORMAL; }
static inline struct pglist_data *folio_pgdat(struct folio *f) { return NODE_DATA(f->nid); }
static inline struct mem_cgroup *folio_memcg(struct folio *f) { return aw_ktext_current()->memcg[f->memcg]; }
#define folio_memcg_rcu(f)	folio_memcg(f)
/* a folio on an LRU list holds a reference: folio_try_get() cannot race with a free here */
static inline bool folio_try_get(struct folio *f) { return true; }
#ifdef AW_KTEXT_KH	/* khugepaged's text frees through the host (ktext_kh_state.h) */
static void aw_kh_folio_put(struct folio *f);
static inline void folio_put(struct folio *f) { aw_kh_folio_put(f); }
#else
static inline void folio_put(struct folio *f) { }
#endif
/* include/linux/swap.h: folio_evictable() */
static inline bool folio_evictable(struct folio *f)
{
	return !folio_test_unevictable(f) && !folio_test_mlocked(f);
}
/*
 * A walk or a look-around moved folio to the youngest generation: the
 * report's "promoted", counted where the model counts it (a
 * folio_update_gen() that changed the generation, through the call hook
 * tools/ktext-extract puts after its definition, and every folio_activate()).
 */
static inline void aw_promoted_hook(struct folio *f)
{
	const struct aw_ktext_host *h = aw_ktext_current()->host;

	if (h && h->promoted)
		h->promoted(h->ctx, f);
}

/*
 * mm/swap.c: folio_activate() for MGLRU (lru_activate(): off its list, PG_active,
 * back on, which lru_gen_add_folio() puts on max_seq), done at once where
 * the kernel batches it per CPU until the next drain, as the model does
 * (docs/model-notes.md).
 */
#ifndef AW_KTEXT_KH	/* the MGLRU text's list operations; khugepaged's file has none */
static inline bool lru_gen_del_folio(struct lruvec *lruvec, struct folio *folio, bool reclaiming);
static inline bool lru_gen_add_folio(struct lruvec *lruvec, struct folio *folio, bool reclaiming);
static inline struct lruvec *mem_cgroup_lruvec(struct mem_cgroup *memcg, struct pglist_data *pgdat);
static inline int folio_lru_gen(struct folio *folio);
static inline void folio_activate(struct folio *f)
{
	struct lruvec *lruvec;

	aw_promoted_hook(f);
	if (folio_lru_gen(f) < 0 || folio_test_unevictable(f))
		return;
	lruvec = mem_cgroup_lruvec(folio_memcg(f), folio_pgdat(f));
	lru_gen_del_folio(lruvec, f, false);
	folio_set_active(f);
	lru_gen_add_folio(lruvec, f, false);
}
#endif

static inline struct pglist_data *lruvec_pgdat(struct lruvec *lruvec) { return lruvec->pgdat; }
static inline struct mem_cgroup *lruvec_memcg(struct lruvec *lruvec) { return lruvec->memcg; }
static inline unsigned long pgdat_end_pfn(pg_data_t *pgdat)
{
	return pgdat->node_start_pfn + pgdat->node_spanned_pages;
}
static inline struct lruvec *mem_cgroup_lruvec(struct mem_cgroup *memcg, struct pglist_data *pgdat)
{
	return &memcg->nodeinfo[pgdat->node_id]->lruvec;
}
static inline bool folio_matches_lruvec(struct folio *folio, struct lruvec *lruvec)
{
	return lruvec == mem_cgroup_lruvec(folio_memcg(folio), folio_pgdat(folio));
}
/* mm/vmscan.c: shrink_folio_list(): the host's reclaim (ktext_bind.inc.c) */
static unsigned int shrink_folio_list(struct list_head *folio_list, struct pglist_data *pgdat,
				      struct scan_control *sc, struct reclaim_stat *stat,
				      bool ignore_references);
/* mm_inline.h: __update_lru_size() keeps the vmstat counters MGLRU does not read */
static inline void __update_lru_size(struct lruvec *lruvec, enum lru_list lru, int zid, long nr) { }
#define mem_cgroup_update_lru_size(lruvec, lru, zid, nr)	do { } while (0)
#define __mod_lruvec_state(lruvec, idx, val)		do { } while (0)
#ifndef AW_KTEXT_KH
/*
 * mm_inline.h: lruvec_add_folio_tail(), where 6.1's sort_folio() puts an
 * unevictable folio back: MGLRU declines it, and the machine has no
 * unevictable list -- a warning, never a silent loss.
 */
static inline bool lru_gen_add_folio(struct lruvec *lruvec, struct folio *folio, bool reclaiming);
static inline void lruvec_add_folio_tail(struct lruvec *lruvec, struct folio *folio)
{
	WARN_ON_ONCE(!lru_gen_add_folio(lruvec, folio, true));
}
/*
 * mm_inline.h: lruvec_add_folio(), move_folios_to_lru()'s putback: MGLRU
 * takes every evictable folio (unevictable ones went to
 * folio_putback_lru() before).
 */
static inline void lruvec_add_folio(struct lruvec *lruvec, struct folio *folio)
{
	WARN_ON_ONCE(!lru_gen_add_folio(lruvec, folio, false));
}
#endif
/*
 * mm/swap.c: folio_putback_lru() of an unevictable folio: the model keeps
 * such folios on no list (docs/model-notes.md), and so does this.
 */
#ifdef AW_KTEXT_KH	/* khugepaged's isolated folios go back through the host */
static void aw_kh_folio_putback_lru(struct folio *f);
static inline void folio_putback_lru(struct folio *folio) { aw_kh_folio_putback_lru(folio); }
#else
static inline void folio_putback_lru(struct folio *folio) { }
#endif
/*
 * The isolation reference: a folio the host reclaimed left the list inside
 * shrink_folio_list(), so the last reference is never dropped here and the
 * free path below it is never taken.
 */
static inline bool folio_put_testzero(struct folio *folio) { return false; }
static inline void __folio_clear_lru_flags(struct folio *folio) { WARN_ON_ONCE(1); }
#define VM_BUG_ON_FOLIO(c, f)		((void)(f), (void)WARN_ON_ONCE(c))
static inline bool folio_matches_lruvec(struct folio *folio, struct lruvec *lruvec);
static inline void workingset_age_nonresident(struct lruvec *lruvec, unsigned long nr) { }
static inline void destroy_large_folio(struct folio *folio) { WARN_ON_ONCE(1); }
static inline void folio_unqueue_deferred_split(struct folio *folio) { }
static inline void mem_cgroup_uncharge_list(struct list_head *list) { WARN_ON_ONCE(!list_empty(list)); }
static inline void free_unref_page_list(struct list_head *list) { WARN_ON_ONCE(!list_empty(list)); }
struct folio_batch { unsigned int nr; struct folio *folios[15]; };
static inline void folio_batch_init(struct folio_batch *fb) { fb->nr = 0; }
static inline unsigned int folio_batch_add(struct folio_batch *fb, struct folio *folio)
{
	WARN_ON_ONCE(1);
	fb->folios[fb->nr++] = folio;
	return 15 - fb->nr;
}
static inline void mem_cgroup_uncharge_folios(struct folio_batch *fb) { }
static inline void free_unref_folios(struct folio_batch *fb) { fb->nr = 0; }
static inline bool mem_cgroup_disabled(void) { return false; }
static inline bool mem_cgroup_trylock_pages(struct mem_cgroup *memcg) { return true; }
static inline void mem_cgroup_unlock_pages(void) { }
static inline struct mem_cgroup *get_mem_cgroup_from_mm(struct mm_struct *mm) { return mm->owner->memcg; }
static inline struct mem_cgroup *mem_cgroup_from_task(struct task_struct *t) { return t->memcg; }
static inline void mem_cgroup_put(struct mem_cgroup *memcg) { }
static inline long mem_cgroup_get_nr_swap_pages(struct mem_cgroup *memcg)
{
	const struct aw_ktext_host *h = aw_ktext_current()->host;

	return h->nr_swap_pages(h->ctx, memcg->id);
}

/* include/linux/mm.h, pgtable.h: pfns, the zero page, table locks */
static inline int pfn_valid(unsigned long pfn)
{
	const struct aw_ktext_host *h = aw_ktext_current()->host;

	return h->folio(h->ctx, pfn) || h->is_table(h->ctx, pfn);
}
static inline struct folio *pfn_folio(unsigned long pfn)
{
	const struct aw_ktext_host *h = aw_ktext_current()->host;

	return h->folio(h->ctx, pfn);
}
static inline bool is_zero_pfn(unsigned long pfn) { return pfn == aw_ktext_current()->zero_pfn; }
static inline bool is_huge_zero_pmd(pmd_t pmd)
{
	return pmd_trans_huge(pmd) && pmd_pfn(pmd) == aw_ktext_current()->huge_zero_pfn;
}
static inline spinlock_t *pmd_lockptr(struct mm_struct *mm, pmd_t *pmd)
{
	return &mm->aw_ptl;
}
static inline pte_t *pte_offset_map_nolock(struct mm_struct *mm, pmd_t *pmd, unsigned long addr,
					   spinlock_t **ptlp)
{
	pmd_t v = pmdp_get(pmd);

	if (!pmd_present(v) || pmd_trans_huge(v))
		return NULL;
	*ptlp = pmd_lockptr(mm, pmd);
	return (pte_t *)aw_ktext_table(pmd_val(v)) + pte_index(addr);
}
/* 6.1's walk_pte_range(): pte_lockptr() then pte_offset_map() */
#define pte_lockptr(mm, pmd)		pmd_lockptr(mm, pmd)
static inline pte_t *pte_offset_map(pmd_t *pmd, unsigned long addr)
{
	return (pte_t *)aw_ktext_table(pmd_val(*pmd)) + pte_index(addr);
}
#define pte_unmap(pte)			((void)(pte))
#define pte_unmap_unlock(pte, ptl)	spin_unlock(ptl)

/* An entry of the host's tables the text changed: the host is told (its agreement oracle compares the table). */
static inline void aw_ktext_entry_written(const void *p)
{
	const struct aw_ktext *kt = aw_ktext_cur;

	if (kt && kt->host && kt->host->table_written)
		kt->host->table_written(kt->host->ctx, p);
}

/* arch/x86/mm/pgtable.c: ptep/pmdp_test_and_clear_young(); no MMU notifiers */
static inline int ptep_test_and_clear_young(struct vm_area_struct *vma, unsigned long addr, pte_t *ptep)
{
	int young = pte_young(*ptep);

	pte_val(*ptep) &= ~_PAGE_ACCESSED;
	if (young)
		aw_ktext_entry_written(ptep);
	return young;
}
static inline int pmdp_test_and_clear_young(struct vm_area_struct *vma, unsigned long addr, pmd_t *pmdp)
{
	int young = pmd_young(*pmdp);

	pmd_val(*pmdp) &= ~_PAGE_ACCESSED;
	if (young)
		aw_ktext_entry_written(pmdp);
	return young;
}
#define ptep_clear_young_notify		ptep_test_and_clear_young
#define pmdp_clear_young_notify		pmdp_test_and_clear_young
static inline bool mm_has_notifiers(struct mm_struct *mm) { return mm->has_notifiers; }

/* the mm's locks and references (include/linux/mmap_lock.h, sched/mm.h) */
static inline bool mmap_read_trylock(struct mm_struct *mm) { return !mm->aw_mmap_contended; }
static inline void mmap_read_unlock(struct mm_struct *mm) { }
static inline bool mmget_not_zero(struct mm_struct *mm) { return atomic_inc_not_zero(&mm->mm_users); }
static inline void mmput_async(struct mm_struct *mm) { mm->mm_users.counter--; }
#define mmput(mm)	mmput_async(mm)

/* VMA predicates (include/linux/mm.h, hugetlb.h, shmem_fs.h, pagemap.h) */
static inline bool vma_is_accessible(struct vm_area_struct *v) { return v->vm_flags & (VM_READ | VM_WRITE | VM_EXEC); }
static inline bool is_vm_hugetlb_page(struct vm_area_struct *v) { return v->vm_flags & VM_HUGETLB; }
static inline bool vma_is_anonymous(struct vm_area_struct *v) { return !v->vm_file; }
static inline struct vm_area_struct *get_gate_vma(struct mm_struct *mm) { return NULL; }
static inline bool mapping_unevictable(struct address_space *m) { return m->unevictable; }
static inline bool shmem_mapping(struct address_space *m) { return m->shmem; }

/* mm/vmscan.c helpers outside the CONFIG_LRU_GEN section */
static inline bool cgroup_reclaim(struct scan_control *sc) { return sc->target_mem_cgroup; }
static inline int reclaimer_offset(void) { return current_is_kswapd() ? 0 : PGSCAN_DIRECT - PGSCAN_KSWAPD; }

/* include/linux/mm.h */

/*
 * include/linux/hash.h: hash_ptr().  A pointer into a page-table page is
 * hashed as the host's address of that entry, so the Bloom filters of
 * kernel text and model hold the same bits for the same tables
 * (docs/ktext.md).
 */
static inline unsigned long aw_ktext_kva(const void *ptr)
{
	struct aw_ktext *kt = aw_ktext_current();
	unsigned long p = (unsigned long)ptr;
	unsigned long kva = kt->host->table_kva(kt->host->ctx, ptr);

	if (kva)
		return kva;
	/*
	 * The PUD filter's key (mm ^ PUD-aligned address, the series'
	 * walk_pud_range() and lru_gen_look_around()): the model's slab
	 * address of the mm in place of ours.
	 */
	for (int i = 0; i < kt->nr_mms; i++) {
		unsigned long d = p ^ (unsigned long)kt->mms[i];

		if (!kt->mms[i])
			continue;
		if (d < (1UL << 47) && !(d & (PUD_SIZE - 1)))
			return kt->mms[i]->aw_kva ^ d;
	}
	return p;
}
static inline u32 hash_ptr(const void *ptr, unsigned int bits) { return hash_long(aw_ktext_kva(ptr), bits); }

/* include/linux/pagewalk.h; mm/pagewalk.c's walk_page_range() is in ktext_pagewalk.inc.c */
static int walk_page_range(struct mm_struct *mm, unsigned long start, unsigned long end,
			   const struct mm_walk_ops *ops, void *private);

#define DECLARE_STATIC_KEY_TRUE(x)
#define DECLARE_STATIC_KEY_FALSE(x)
#define spin_lock_init(l)	((l)->locked = 0)

/* mm/workingset.c's vocabulary: the shadow's fields, the workingset counters */
#include "ktext_workingset.h"

#endif /* AW_KTEXT_OBJECTS_H */
