// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel text behind the model's seam: struct aw_mglru_ops for a tree's
 * extracted MGLRU code, over the host callbacks ktext_bind.inc.c uses to run
 * it on this kernel's page tables, folios, mm structs and memcgs.
 *
 * What the model keeps doing itself, and why that is the kernel's split
 * too: shrink_folio_list() (mm/vmscan.c outside MGLRU: the reclaim
 * decisions and the unmap), the charge and its priority loop (memcg.c),
 * and the pass figures (aging.c), which here come from the text's own
 * counters.  The reclaim of one lruvec (lru_gen_shrink_lruvec()) and the
 * debugfs '+' with its refusals (run_aging()) are the text's
 * (ktext_reclaim.inc.c), and so are a fault's placement, the shadow an
 * eviction leaves and the refault decision (ktext_workingset.inc.c; both
 * issue 30).
 */
#include <stdlib.h>
#include <string.h>

#include "kbind.h"
#include "ktext_variants.h"

struct aw_kbind {
	const struct aw_ktext_ops *ops;
	struct aw_ktext *kt;
	struct aw_ktext_host host;
	struct aw_kernel *k;
	int stat_of[AW_KTEXT_MAX_STATS];	/* the text's stat i -> the model's, -1 none */
	bool memcg_reclaim;			/* the eviction in progress is memcg reclaim */
	unsigned long warnings;			/* the text's WARN_ON_ONCE() hits passed on */
	unsigned long calls;			/* aging passes and evictions the text ran */
	unsigned long checked;			/* ... when the agreement was last checked */
	/*
	 * Since the agreement oracle last looked (aw_kbind_since()): whether
	 * the text ran anything but folio placements, and the folios it placed
	 */
	enum aw_kbind_look look;
	int nr_placed;				/* > AW_KBIND_PLACED: more than placed[] lists */
	uint32_t placed[AW_KBIND_PLACED];
	struct aw_kbind_tables tables;		/* the tables as the oracle last saw them */
	/* split aging in progress, by lruvec index: its pass and the counters at its start */
	struct kb_split {
		int pass_idx;
		unsigned long walks[2];
		unsigned long before[AW_KTEXT_MAX_STATS];
		unsigned long seq;		/* the text's own passes (host_pass_begin()) */
	} split[AW_KTEXT_MAX_MEMCGS * AW_KTEXT_MAX_NODES];
	/* the text's own passes from reclaim and run_aging(), by lruvec index */
	struct kb_split hooked[AW_KTEXT_MAX_MEMCGS * AW_KTEXT_MAX_NODES];
};

_Static_assert(sizeof(struct aw_ktext_lrugen) == sizeof(struct lru_gen_folio),
	       "struct aw_ktext_lrugen is the model's struct lru_gen_folio");
_Static_assert(offsetof(struct aw_ktext_lrugen, folios) == offsetof(struct lru_gen_folio, folios),
	       "the folio lists sit where the model keeps them");
_Static_assert(offsetof(struct aw_ktext_lrugen, nr_pages) == offsetof(struct lru_gen_folio, nr_pages),
	       "nr_pages sits where the model keeps it");
_Static_assert(offsetof(struct aw_ktext_lrugen, protected) == offsetof(struct lru_gen_folio, protected),
	       "the tier counters sit where the model keeps them");
_Static_assert(offsetof(struct aw_ktext_lrugen, refaulted) == offsetof(struct lru_gen_folio, refaulted),
	       "the tier counters sit where the model keeps them");

static struct aw_kbind *kb_of(struct aw_kernel *k)
{
	return k->mglru_state;
}

/*
 * A text call after which the agreement oracle compares more than the
 * folios placed: the whole machine if it may have written page tables
 * (an aging pass walks them, an eviction unmaps and leaves shadows), all
 * but the tables if not (a refault, a change to the mm list).
 */
static void kb_called(struct aw_kbind *kb, bool tables)
{
	enum aw_kbind_look look = tables ? AW_KBIND_LOOK_WHOLE : AW_KBIND_LOOK_UNTABLED;

	kb->calls++;
	if (kb->look < look)
		kb->look = look;
}

/* -- the host: this kernel, as ktext_bind.inc.c reaches it ------------------- */

static void *host_table(void *ctx, unsigned long pfn)
{
	struct aw_kernel *k = ctx;

	return pfn && pfn < k->pt.nr ? aw_table(&k->pt, (uint32_t)pfn)->e : NULL;
}

static bool host_is_table(void *ctx, unsigned long pfn)
{
	struct aw_kernel *k = ctx;

	return pfn && pfn < k->pt.nr;
}

static unsigned long host_table_kva(void *ctx, const void *p)
{
	struct aw_kernel *k = ctx;
	unsigned int index;
	uint32_t id = aw_table_id_of(&k->pt, p, &index);

	return id ? aw_table_entry_kva(id, index) : 0;
}

static void host_table_written(void *ctx, const void *p)
{
	struct aw_kernel *k = ctx;

	aw_entry_written(&k->pt, p);
}

static struct folio *host_folio(void *ctx, unsigned long pfn)
{
	struct aw_kernel *k = ctx;

	return pfn_folio(&k->mem, pfn);
}

static struct aw_ktext_lrugen *host_lrugen(void *ctx, int memcg, int nid)
{
	return (struct aw_ktext_lrugen *)&aw_lruvec(ctx, memcg, nid)->lrugen;
}

static bool host_mm(void *ctx, int id, struct aw_ktext_mm *out)
{
	struct aw_kernel *k = ctx;
	struct mm_struct *mm = aw_mm(k, (uint32_t)id);

	if (!mm)
		return false;
	*out = (struct aw_ktext_mm){ .pgd = aw_table(&k->pt, mm->pgd)->e, .kva = mm->kaddr, .memcg = mm->memcg,
				     .exiting = mm->exiting, .mmap_contended = mm->mmap_contended,
				     .ptl_contended = mm->ptl_contended, .has_notifiers = mm->has_notifiers };
	return true;
}

static int host_vmas(void *ctx, int id, struct aw_ktext_vma *out, int cap)
{
	struct mm_struct *mm = aw_mm(ctx, (uint32_t)id);

	if (!mm)
		return 0;
	for (int i = 0; i < mm->nr_vmas && i < cap; i++)
		out[i] = (struct aw_ktext_vma){ .start = mm->vmas[i].vm_start, .end = mm->vmas[i].vm_end,
						.vm_flags = mm->vmas[i].vm_flags, .file = mm->vmas[i].file };
	return mm->nr_vmas;
}

/*
 * get_mm_counter(): 6.1's should_skip_mm() compares the sum with
 * MIN_LRU_BATCH, so each count may stop there (mm_counter.c).
 */
static unsigned long host_mm_counter(void *ctx, int id, int member)
{
	struct aw_kernel *k = ctx;
	struct mm_struct *mm = aw_mm(k, (uint32_t)id);

	if (!mm || (member != AW_KTEXT_MM_FILEPAGES && member != AW_KTEXT_MM_ANONPAGES))
		return 0;
	return aw_mm_counter(k, mm, member == AW_KTEXT_MM_ANONPAGES, MIN_LRU_BATCH);
}

/* mem_cgroup_get_nr_swap_pages(): the model's swap has no per-memcg limit */
static long host_nr_swap_pages(void *ctx, int memcg)
{
	struct aw_kernel *k = ctx;

	return (long)(k->nr_swap - k->swap_used);
}

/* jiffies: the lruvec timestamps are the model's clock, as the model writes them */
static unsigned long host_now(void *ctx)
{
	return (unsigned long)((struct aw_kernel *)ctx)->now_ns;
}

static unsigned long host_shrink(void *ctx, int memcg, int nid, unsigned long *pfns, int *nr)
{
	struct aw_kernel *k = ctx;

	return aw_shrink_isolated(k, aw_lruvec(k, memcg, nid), pfns, nr, kb_of(k)->memcg_reclaim);
}

/* The text's flag-generation writes reach the model's tracepoint, so the oracles see them. */
static void host_gen_written(void *ctx, struct folio *folio, int old_gen, int new_gen, bool reclaim_set)
{
	struct aw_kernel *k = ctx;

	trace_folio_update_gen(k, folio, old_gen, new_gen);
	/* sort_folio() rotating dirty page cache for writeback: the flusher's work (evict.c) */
	if (reclaim_set && folio_test(folio, PG_dirty) && folio_is_file_lru(folio) && !folio_test(folio, PG_anon))
		aw_writeback_start(k, folio);
}

/* The text's promotions: the report's "promoted", where the model's walk and look-around count theirs */
static void host_promoted(void *ctx, struct folio *folio)
{
	struct aw_kernel *k = ctx;

	k->node_stats[folio->nid].promoted++;
}

/* mod_lruvec_state() of the text's workingset counters: WORKINGSET_REFAULT is workingset_refaults */
static void host_lruvec_state(void *ctx, int memcg, int nid, int item, long nr)
{
	struct aw_kernel *k = ctx;

	if (item / 2 == AW_KTEXT_WORKINGSET_REFAULT / 2 && nid >= 0 && nid < k->nr_nodes) {
		k->node_stats[nid].workingset_refaults += (unsigned long)nr;
		if (memcg >= 0 && memcg < k->nr_memcgs)
			k->memcg[memcg].stat.workingset_refault[item % 2] += (unsigned long)nr;
	}
}

/*
 * folio_referenced() for the text's folio_check_references(): the
 * machine's reverse-map walk, whose PTE mappings go to the text's
 * look-around through the seam (kb_look_around())
 */
static int host_folio_referenced(void *ctx, struct folio *folio, int memcg, unsigned long *vm_flags)
{
	return aw_folio_referenced(ctx, folio, NULL, memcg, vm_flags);
}

static void pass_figures(struct aw_kbind *kb, struct lruvec *lruvec, int idx, const unsigned long *before,
			 const unsigned long *walks_before);

/*
 * The text's own try_to_inc_max_seq() from its reclaim loop or run_aging()
 * (ktext_reclaim.inc.c): a pass recorded as the model's
 * try_to_inc_max_seq() records its own, figures from the text's counters.
 */
static int host_pass_begin(void *ctx, int memcg, int nid, unsigned long seq, bool force_scan)
{
	struct aw_kernel *k = ctx;
	struct aw_kbind *kb = kb_of(k);
	struct lruvec *lruvec = aw_lruvec(k, memcg, nid);
	struct kb_split *h = &kb->hooked[lruvec->index];

	h->pass_idx = aw_pass_begin(k, lruvec, force_scan, seq);
	h->seq = seq;
	kb->ops->walks(kb->kt, h->walks);
	kb->ops->mm_stats(kb->kt, memcg, nid, h->before);
	return h->pass_idx;
}

static void host_pass_end(void *ctx, int memcg, int nid, int handle)
{
	struct aw_kernel *k = ctx;
	struct aw_kbind *kb = kb_of(k);
	struct lruvec *lruvec = aw_lruvec(k, memcg, nid);
	struct kb_split *h = &kb->hooked[lruvec->index];

	if (handle < 0 || handle != h->pass_idx)
		return;
	pass_figures(kb, lruvec, handle, h->before, h->walks);
	aw_pass_end(k, lruvec, handle, lruvec->lrugen.max_seq == h->seq + 1);
}

/* -- the seam ------------------------------------------------------------ */

/*
 * A WARN of the kernel's own is a finding like the model's VM_WARN_ON()s:
 * it goes to the kernel's warn record (abort under the fuzzer).
 */
static void kb_warnings(struct aw_kbind *kb)
{
	const char *last = NULL;
	unsigned long n = kb->ops->warnings(kb->kt, &last);

	if (n != kb->warnings) {
		kb->warnings = n;
		aw_warn_always(&kb->k->warn, last ? last : "kernel text", kb->ops->name, 0);
	}
}

/*
 * The pass figures from the text's own counters: what this pass added.
 * walks_before: the text's walk_mm() calls and those with force_scan at
 * the pass's start; a forced walk in a pass not forced is a sticky one
 * (iterate_mm_list() forces the rest of an iteration), as aging.c counts.
 */
static void pass_figures(struct aw_kbind *kb, struct lruvec *lruvec, int idx, const unsigned long *before,
			 const unsigned long *walks_before)
{
	struct aw_pass *p = &kb->k->node_stats[lruvec->nid].passes[idx];
	unsigned long now[AW_KTEXT_MAX_STATS], walks[2];

	kb->ops->mm_stats(kb->kt, lruvec->memcg, lruvec->nid, now);
	for (int i = 0; i < kb->ops->nr_mm_stats; i++)
		if (kb->stat_of[i] >= 0)
			p->mm_stats[kb->stat_of[i]] += now[i] - before[i];
	kb->ops->walks(kb->kt, walks);
	p->walks += walks[0] - walks_before[0];
	p->forced_walks += walks[1] - walks_before[1];
	if (!p->forced)
		p->sticky_forced_walks += walks[1] - walks_before[1];
}

/* The text's mm_state back into the model's lruvec: what reports and the model's policy read. */
static void mm_state_back(struct aw_kbind *kb, struct lruvec *lruvec)
{
	struct lru_gen_mm_state *ms = &lruvec->mm_state;
	unsigned long stats[AW_KTEXT_MAX_STATS];
	int head, tail;

	kb->ops->mm_state(kb->kt, lruvec->memcg, lruvec->nid, &ms->seq, &head, &tail);
	kb->ops->mm_stats(kb->kt, lruvec->memcg, lruvec->nid, stats);
	for (int i = 0; i < kb->ops->nr_mm_stats; i++)
		if (kb->stat_of[i] >= 0)
			ms->stats[kb->stat_of[i]] = stats[i];
	for (int level = 0; level < BLOOM_FILTER_LEVELS; level++) {
		int klevel = level == BLOOM_FILTER_PMD ? 0 : 1;

		for (unsigned long seq = 0; seq < NR_BLOOM_FILTERS; seq++) {
			aw_bloom_t *f = &ms->filters[level][seq];

			if (!*f && !(*f = calloc(1, (1UL << BLOOM_FILTER_SHIFT) / 8)))
				continue;
			if (!kb->ops->bloom_bits(kb->kt, lruvec->memcg, lruvec->nid, klevel, seq, *f)) {
				free(*f);
				*f = NULL;
			}
		}
	}
}

/* lru_gen_del_mm() can end an iteration (6.1): every lruvec's seq back into the model's copy */
static void kb_sync_seqs(struct aw_kbind *kb)
{
	for (int i = 0; i < kb->k->nr_memcgs * kb->k->nr_nodes; i++) {
		struct lruvec *lruvec = &kb->k->lruvecs[i];
		int head, tail;

		kb->ops->mm_state(kb->kt, lruvec->memcg, lruvec->nid, &lruvec->mm_state.seq, &head, &tail);
	}
}

static bool kb_try_to_inc_max_seq(struct aw_kernel *k, struct lruvec *lruvec, unsigned long seq,
				  int swappiness, bool force_scan)
{
	struct aw_kbind *kb = kb_of(k);
	unsigned long before[AW_KTEXT_MAX_STATS];
	unsigned long walks[2];
	int idx;
	bool ok;

	if (seq <= lruvec->mm_state.seq)	/* try_to_inc_max_seq()'s first test: no pass */
		return false;
	idx = aw_pass_begin(k, lruvec, force_scan, seq);
	kb->ops->mm_stats(kb->kt, lruvec->memcg, lruvec->nid, before);
	kb->ops->walks(kb->kt, walks);
	ok = kb->ops->age(kb->kt, lruvec->memcg, lruvec->nid, seq, swappiness, force_scan);
	kb_called(kb, true);
	kb_warnings(kb);
	mm_state_back(kb, lruvec);
	if (idx >= 0) {
		pass_figures(kb, lruvec, idx, before, walks);
		aw_pass_end(k, lruvec, idx, lruvec->lrugen.max_seq == seq + 1);
	}
	return ok;
}

/*
 * Split aging: the text's own try_to_inc_max_seq() loop, one mm per step
 * (ktext_bind.inc.c), recorded as one pass like the model's aw_age_begin().
 */
static int kb_age_begin(struct aw_kernel *k, struct lruvec *lruvec, int swappiness, bool force_scan)
{
	struct aw_kbind *kb = kb_of(k);
	struct kb_split *sp = &kb->split[lruvec->index];
	int ret = kb->ops->age_begin(kb->kt, lruvec->memcg, lruvec->nid, swappiness, force_scan);

	if (ret <= 0)
		return ret;
	sp->pass_idx = aw_pass_begin(k, lruvec, force_scan, lruvec->lrugen.max_seq);
	return 0;
}

/*
 * One step of the split pass: its walker alone runs in it (the turn), so
 * what the text's counters gained in the step is this pass's, as the
 * model's account_walk() puts each walk on its walker's pass.  Counting
 * from age_begin to the pass's end would also take whatever ran between
 * the steps -- another lruvec's pass, reclaim's aging joining this
 * iteration -- which the model puts on those passes.
 */
static int kb_age_step(struct aw_kernel *k, struct lruvec *lruvec)
{
	struct aw_kbind *kb = kb_of(k);
	struct kb_split *sp = &kb->split[lruvec->index];
	unsigned long seq = lruvec->lrugen.max_seq;
	int ret;

	kb->ops->walks(kb->kt, sp->walks);
	kb->ops->mm_stats(kb->kt, lruvec->memcg, lruvec->nid, sp->before);
	ret = kb->ops->age_step(kb->kt, lruvec->memcg, lruvec->nid);
	if (ret < 0)
		return ret;
	kb_called(kb, true);
	kb_warnings(kb);
	mm_state_back(kb, lruvec);
	if (sp->pass_idx >= 0)
		pass_figures(kb, lruvec, sp->pass_idx, sp->before, sp->walks);
	if (ret == 1 && sp->pass_idx >= 0)
		aw_pass_end(k, lruvec, sp->pass_idx, lruvec->lrugen.max_seq == seq + 1);
	return ret;
}

static int kb_age_end(struct aw_kernel *k, struct lruvec *lruvec)
{
	int ret;

	while ((ret = kb_age_step(k, lruvec)) == 0)
		;
	return ret < 0 ? ret : 0;
}

static bool kb_look_around(struct aw_kernel *k, struct lru_gen_mm_walk *walk, struct mm_struct *mm,
			   struct vm_area_struct *vma, uint64_t addr, uint32_t target_pfn)
{
	struct aw_kbind *kb = kb_of(k);
	pmd_t *pmd;
	pte_t *pte = aw_pte_lookup(k, mm, addr, false, &pmd);

	return pte && kb->ops->look_around(kb->kt, (int)mm->id, addr, target_pfn, pte, pmd);
}

static int kb_evict_folios(struct aw_kernel *k, unsigned long nr_to_scan, struct lruvec *lruvec,
			   int swappiness, struct lru_gen_mm_walk *walk, unsigned long *nr_reclaimed,
			   bool memcg_reclaim)
{
	struct aw_kbind *kb = kb_of(k);
	bool outer = kb->memcg_reclaim;
	int scanned;

	kb->memcg_reclaim = memcg_reclaim;
	scanned = kb->ops->evict(kb->kt, lruvec->memcg, lruvec->nid, nr_to_scan, swappiness, walk != NULL,
				       memcg_reclaim, nr_reclaimed);
	kb->memcg_reclaim = outer;
	kb_called(kb, true);
	kb_warnings(kb);
	mm_state_back(kb, lruvec);
	return scanned;
}

/*
 * lru_gen_shrink_lruvec(): the text's reclaim loop on the model's machine
 * (ktext_reclaim.inc.c).  The text evicts through the host's
 * shrink_folio_list() as memcg reclaim; the memcg's swappiness is
 * vm_swappiness's default (the model has no knob: aw_default_swappiness()).
 */
static int kb_shrink_lruvec(struct aw_kernel *k, struct lruvec *lruvec, struct aw_scan_control *sc)
{
	struct aw_kbind *kb = kb_of(k);
	bool outer = kb->memcg_reclaim;
	int rotate;

	kb->memcg_reclaim = true;
	rotate = kb->ops->shrink_lruvec(kb->kt, lruvec->memcg, lruvec->nid, sc->target_memcg, sc->priority,
					sc->nr_to_reclaim, sc->may_swap, 60, &sc->nr_reclaimed);
	kb->memcg_reclaim = outer;
	kb_called(kb, true);
	kb_warnings(kb);
	mm_state_back(kb, lruvec);
	return rotate;
}

/* run_aging(): the debugfs '+' with the tree's own refusals */
static int kb_run_aging(struct aw_kernel *k, struct lruvec *lruvec, unsigned long seq, int swappiness,
			bool force_scan)
{
	struct aw_kbind *kb = kb_of(k);
	int ret = kb->ops->run_aging(kb->kt, lruvec->memcg, lruvec->nid, seq, swappiness, force_scan);

	kb_called(kb, true);
	kb_warnings(kb);
	mm_state_back(kb, lruvec);
	return ret;
}

static void kb_add_mm(struct aw_kernel *k, struct mm_struct *mm)
{
	struct aw_kbind *kb = kb_of(k);

	if (kb->ops->add_mm(kb->kt, (int)mm->id) < 0)
		aw_warn_always(&k->warn, "kernel text: out of memory for an mm", __FILE__, __LINE__);
	mm->lru_gen.memcg = mm->memcg;
	kb_sync_seqs(kb);
	kb_called(kb, false);	/* the mm list changed: the agreement oracle looks */
}

static void kb_del_mm(struct aw_kernel *k, struct mm_struct *mm)
{
	kb_of(k)->ops->del_mm(kb_of(k)->kt, (int)mm->id);
	mm->lru_gen.memcg = -1;
	kb_sync_seqs(kb_of(k));
	kb_called(kb_of(k), false);
}

/* mm_list.c's lru_gen_migrate_mm(): the model's mm takes the new memcg, the text moves its mm */
static void kb_migrate_mm(struct aw_kernel *k, struct mm_struct *mm, int memcg)
{
	mm->memcg = memcg;
	kb_of(k)->ops->migrate_mm(kb_of(k)->kt, (int)mm->id);
	mm->lru_gen.memcg = memcg;
	kb_sync_seqs(kb_of(k));
	kb_called(kb_of(k), false);
}

static void kb_use_mm(struct aw_kernel *k, struct mm_struct *mm)
{
	kb_of(k)->ops->use_mm(kb_of(k)->kt, (int)mm->id);
}

/*
 * The workingset side (ktext_workingset.inc.c): the tree's
 * lru_gen_eviction(), lru_gen_refault() and folio placement.  The text's
 * shadow is kept as the model keeps its own (swap slot fields, page-cache
 * entry bits): its token split into min_seq and refs.  Each one is an
 * event the agreement oracle compares after.
 */
static void kb_lru_gen_eviction(struct aw_kernel *k, struct folio *folio, struct aw_shadow *shadow)
{
	struct aw_kbind *kb = kb_of(k);
	struct aw_ktext_shadow s;

	kb->ops->eviction(kb->kt, folio, &s);
	*shadow = (struct aw_shadow){ .evict_seq = (uint32_t)(s.token >> LRU_REFS_WIDTH),
				      .refs = (uint8_t)(s.token & ((1UL << LRU_REFS_WIDTH) - 1)),
				      .workingset = s.workingset, .memcg = (uint16_t)s.memcg, .nid = (uint8_t)s.nid };
	kb_called(kb, true);
	kb_warnings(kb);
}

static void kb_lru_gen_refault(struct aw_kernel *k, struct folio *folio, const struct aw_shadow *shadow,
			       bool in_fault)
{
	struct aw_kbind *kb = kb_of(k);
	struct aw_ktext_shadow s = { .token = (unsigned long)shadow->evict_seq << LRU_REFS_WIDTH | shadow->refs,
				     .memcg = shadow->memcg, .nid = shadow->nid, .workingset = shadow->workingset };

	kb->ops->refault(kb->kt, folio, &s, in_fault);
	kb_called(kb, false);
	kb_warnings(kb);
}

static void kb_folio_add_lru(struct aw_kernel *k, struct folio *folio, bool in_fault)
{
	struct aw_kbind *kb = kb_of(k);

	/* false: unevictable, the machine has no list for it (as the model's lru_gen_add_folio()) */
	kb->ops->add_folio(kb->kt, folio, in_fault);
	kb->calls++;
	if (kb->nr_placed < AW_KBIND_PLACED)
		kb->placed[kb->nr_placed] = folio->pfn;
	if (kb->nr_placed <= AW_KBIND_PLACED)
		kb->nr_placed++;
	kb_warnings(kb);
}

/*
 * shrink_folio_list()'s reference check: the tree's folio_check_references()
 * (ktext_references.inc.c).  The walk is the text's own (look-around
 * reaches it), so the model's is not passed; the verdict goes to the log
 * the agreement oracle compares (references.c), not to kb->calls: the
 * check runs inside an eviction, which is one.
 */
static enum folio_references kb_check_references(struct aw_kernel *k, struct folio *folio,
						 struct lru_gen_mm_walk *walk, int target_memcg)
{
	struct aw_kbind *kb = kb_of(k);
	int ref = kb->ops->check_references(kb->kt, folio, target_memcg);

	kb_warnings(kb);
	switch (ref) {
	case AW_KTEXT_FOLIOREF_RECLAIM_CLEAN:
		return FOLIOREF_RECLAIM_CLEAN;
	case AW_KTEXT_FOLIOREF_KEEP:
		return FOLIOREF_KEEP;
	case AW_KTEXT_FOLIOREF_ACTIVATE:
		return FOLIOREF_ACTIVATE;
	case AW_KTEXT_FOLIOREF_RECLAIM:
		return FOLIOREF_RECLAIM;
	default:
		aw_warn_always(&k->warn, "kernel text: folio_check_references() returned no FOLIOREF_*",
			       __FILE__, __LINE__);
		return FOLIOREF_KEEP;
	}
}

static void kb_release(struct aw_kernel *k)
{
	struct aw_kbind *kb = kb_of(k);

	if (!kb)
		return;
	kb->ops->destroy(kb->kt);
	for (int i = 0; i < 2; i++) {
		free(kb->tables.seen[i]);
		free(kb->tables.copy[i]);
	}
	free(kb);
	k->mglru_state = NULL;
}

/*
 * What the text's runs report (aw_mglru_ops.measures): the mm_stats the
 * tree has (a tree without the PUD series has no per-walk counters), the
 * walks and promotions its call hooks count (tools/ktext-extract), and
 * what the machine holds (evictions, refaults, residency, filters); not
 * the model's own instrumentation of its walk, which the text does not
 * fire: PMD entries read, Bloom filter tests, the regions' per-pass
 * figures and the oracles' metrics built on the model's tracepoints.
 */
static bool kb_measures(const struct aw_kernel *k, const char *key, int mm_stat)
{
	static const char *const unmeasured[] = {
		"pmd_entries_read", "bloom_tests_pmd", "bloom_tests_pud", "suppressed_young",
		"suppressed_longest", "bloom_false_positive", "feedback_kept", "feedback_lost",
	};
	const struct aw_kbind *kb = k->mglru_state;

	if (!strncmp(key, "region.", 7))
		return !strcmp(key, "region.resident");
	/* the text's promotions are counted per node, not told apart by pass (the model's: its walk's) */
	if (!strcmp(key, "pass.promoted"))
		return false;
	if (!strncmp(key, "pass.", 5))
		key += 5;
	if (mm_stat >= 0) {
		for (int i = 0; i < kb->ops->nr_mm_stats; i++)
			if (kb->stat_of[i] == mm_stat)
				return true;
		return false;
	}
	for (size_t i = 0; i < sizeof(unmeasured) / sizeof(unmeasured[0]); i++)
		if (!strcmp(key, unmeasured[i]))
			return false;
	return true;
}

static const struct aw_mglru_ops kb_mglru = {
	.name = "kernel text",
	.measures = kb_measures,
	.try_to_inc_max_seq = kb_try_to_inc_max_seq,
	.age_begin = kb_age_begin,
	.age_step = kb_age_step,
	.age_end = kb_age_end,
	.lru_gen_look_around = kb_look_around,
	.evict_folios = kb_evict_folios,
	.lru_gen_add_mm = kb_add_mm,
	.lru_gen_del_mm = kb_del_mm,
	.lru_gen_migrate_mm = kb_migrate_mm,
	.lru_gen_use_mm = kb_use_mm,
	.release = kb_release,
	/* the workingset side (issue 30) */
	.lru_gen_eviction = kb_lru_gen_eviction,
	.lru_gen_refault = kb_lru_gen_refault,
	.folio_add_lru = kb_folio_add_lru,
	.lru_gen_shrink_lruvec = kb_shrink_lruvec,
	.run_aging = kb_run_aging,
	/* shrink_folio_list()'s reference check (issue 30) */
	.folio_check_references = kb_check_references,
};

void aw_kbind_machine_host(struct aw_kernel *k, struct aw_ktext_host *h)
{
	*h = (struct aw_ktext_host){
		.ctx = k, .nr_nodes = k->nr_nodes, .nr_memcgs = k->nr_memcgs,
		.zero_pfn = ZERO_PFN, .huge_zero_pfn = HUGE_ZERO_PFN,
		.table = host_table, .is_table = host_is_table, .table_kva = host_table_kva,
		.table_written = host_table_written,
		.folio = host_folio, .lrugen = host_lrugen, .mm = host_mm, .vmas = host_vmas,
	};
	for (int n = 0; n < k->nr_nodes; n++) {
		h->node_start_pfn[n] = k->mem.node[n].start_pfn;
		h->node_spanned[n] = k->mem.node[n].spanned;
	}
}

static int kb_bind(struct aw_kernel *k, const struct aw_variant *v)
{
	const struct aw_ktext_ops *ops = v->text;
	struct aw_kbind *kb;

	if (k->nr_nodes > AW_KTEXT_MAX_NODES || k->nr_memcgs > AW_KTEXT_MAX_MEMCGS) {
		snprintf(k->err, sizeof(k->err), "kernel text runs on at most %d nodes and %d memcgs",
			 AW_KTEXT_MAX_NODES, AW_KTEXT_MAX_MEMCGS);
		return -1;
	}
	kb = calloc(1, sizeof(*kb));
	if (!kb)
		goto oom;
	kb->ops = ops;
	kb->k = k;
	kb->look = AW_KBIND_LOOK_WHOLE;	/* the first look compares everything */
	kb->tables.audit = getenv("AGEWALK_KBIND_AUDIT_TABLES") &&
			   !strcmp(getenv("AGEWALK_KBIND_AUDIT_TABLES"), "1");
	kb->host = (struct aw_ktext_host){
		.ctx = k, .nr_nodes = k->nr_nodes, .nr_memcgs = k->nr_memcgs,
		.zero_pfn = ZERO_PFN, .huge_zero_pfn = HUGE_ZERO_PFN,
		.table = host_table, .is_table = host_is_table, .table_kva = host_table_kva,
		.table_written = host_table_written,
		.folio = host_folio, .lrugen = host_lrugen, .mm = host_mm, .vmas = host_vmas,
		.mm_counter = host_mm_counter, .nr_swap_pages = host_nr_swap_pages, .now = host_now,
		.shrink = host_shrink, .gen_written = host_gen_written, .promoted = host_promoted,
		.lruvec_state = host_lruvec_state,
		.pass_begin = host_pass_begin, .pass_end = host_pass_end,
		.folio_referenced = host_folio_referenced,
	};
	for (int n = 0; n < k->nr_nodes; n++) {
		kb->host.node_start_pfn[n] = k->mem.node[n].start_pfn;
		kb->host.node_spanned[n] = k->mem.node[n].spanned;
	}
	for (int i = 0; i < ops->nr_mm_stats; i++)
		kb->stat_of[i] = aw_mm_stat_index(ops->mm_stat_names[i]);
	kb->kt = ops->bind(&kb->host);
	if (!kb->kt)
		goto oom;
	k->mglru = &kb_mglru;
	k->mglru_state = kb;
	return 0;
oom:
	free(kb);
	snprintf(k->err, sizeof(k->err), "out of memory binding kernel text");
	return -1;
}

int aw_kbind_agree(struct aw_kernel *model, struct aw_kernel *text, char *msg, size_t len);

static const char *const kb_ran_key[] = {
#define KB_RAN_KEY(id, key, label, work) key,
	AW_KTEXT_RAN(KB_RAN_KEY)
#undef KB_RAN_KEY
};
static const char *const kb_ran_label[] = {
#define KB_RAN_LABEL(id, key, label, work) label,
	AW_KTEXT_RAN(KB_RAN_LABEL)
#undef KB_RAN_LABEL
};
static const bool kb_ran_work[] = {
#define KB_RAN_WORK(id, key, label, work) work,
	AW_KTEXT_RAN(KB_RAN_WORK)
#undef KB_RAN_WORK
};
_Static_assert(AW_KTEXT_NR_RAN + 1 <= AW_TEXT_RAN_MAX, "AW_TEXT_RAN_MAX too small for AW_KTEXT_RAN()");

/*
 * What the text executed, from its own counters (ktext_bind.inc.c); and
 * the debugfs commands refused -ERANGE before reaching it: run_aging()'s
 * test is the machine's (kernel.c) until run_aging() is bound, so those
 * are counted where they are refused, on this variant's machine.
 */
static void kb_text_ran(const struct aw_kernel *k, struct aw_text_ran *out)
{
	const struct aw_kbind *kb = k->mglru == &kb_mglru ? k->mglru_state : NULL;
	unsigned long refused = 0;

	*out = (struct aw_text_ran){ .idle = true };
	if (!kb)
		return;
	kb->ops->ran(kb->kt, out->value);
	for (int i = 0; i < AW_KTEXT_NR_RAN; i++) {
		out->key[i] = kb_ran_key[i];
		out->label[i] = kb_ran_label[i];
		if (kb_ran_work[i] && out->value[i])
			out->idle = false;
	}
	out->nr = AW_KTEXT_NR_RAN;
	for (int n = 0; n < k->nr_nodes; n++)
		refused += k->node_stats[n].aging_refused;
	out->key[out->nr] = "aging_refused_ERANGE";
	out->label[out->nr] = "aging commands refused -ERANGE";
	out->value[out->nr++] = refused;
}

/* -- the variants this build has ----------------------------------------- */

const struct aw_variant *aw_kbind_find(const char *name, struct aw_variant *buf)
{
	const struct aw_ktext_ops *ops = aw_ktext_find(name);
	char release[16];
	int profile;

	if (!ops)
		return aw_kbind_kh_find(name, buf);
	/* the tree's release runs that release's profile; a tree of no known release, mainline's */
	snprintf(release, sizeof(release), "%u.%u", ops->version >> 16, ops->version >> 8 & 0xff);
	profile = aw_kernel_release_profile(release);
	*buf = (struct aw_variant){
		.name = ops->name, .features = AW_FEAT_KHUGEPAGED_PATCHED, .bind = kb_bind,
		.agree = aw_kbind_agree, .text = ops, .text_ran = kb_text_ran,
		.pair = ops->series ? "pud" : "base",
		.kernel = (profile >= 0 ? profile : AW_KERNEL_MAINLINE) + 1,
	};
	return buf;
}

const char *aw_kbind_names(void)
{
	return aw_kbind_variant_names;
}

void aw_kbind_opts(struct aw_lockstep_opts *o)
{
	o->find_variant = aw_kbind_find;
	o->more_variant_names = aw_kbind_names();
}

/* for the agreement oracle (kbind_agree.c) */
const struct aw_ktext_ops *aw_kbind_ops(struct aw_kernel *k, struct aw_ktext **kt, unsigned long *calls,
					 unsigned long **checked)
{
	struct aw_kbind *kb = k->mglru == &kb_mglru ? kb_of(k) : NULL;

	if (!kb)
		return NULL;
	*kt = kb->kt;
	*calls = kb->calls;
	*checked = &kb->checked;
	return kb->ops;
}

struct aw_kbind_tables *aw_kbind_tables(struct aw_kernel *k)
{
	return &kb_of(k)->tables;
}

const int *aw_kbind_stat_of(struct aw_kernel *k)
{
	return kb_of(k)->stat_of;
}

enum aw_kbind_look aw_kbind_since(struct aw_kernel *k, uint32_t *pfns, int *nr)
{
	struct aw_kbind *kb = kb_of(k);
	enum aw_kbind_look look = kb->look;

	if (look == AW_KBIND_LOOK_PLACED && kb->nr_placed > AW_KBIND_PLACED)
		look = AW_KBIND_LOOK_UNTABLED;	/* too many to list: every folio */
	*nr = look == AW_KBIND_LOOK_PLACED ? kb->nr_placed : 0;
	for (int i = 0; i < *nr; i++)
		pfns[i] = kb->placed[i];
	kb->look = AW_KBIND_LOOK_PLACED;
	kb->nr_placed = 0;
	return look;
}
