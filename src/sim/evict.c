// SPDX-License-Identifier: GPL-2.0-only
/*
 * Eviction (mm/vmscan.c: evict_folios, isolate_folios, scan_folios,
 * sort_folio, isolate_folio, run_eviction); the reference check
 * (folio_referenced(), folio_check_references()) is in references.c,
 * look-around in look_around.c.
 *
 * shrink_folio_list() is reduced to what decides MGLRU outcomes: the
 * reference check, swap-out of anon folios (swap entries in the PTEs),
 * discarding clean lazyfree folios, dropping clean file folios (a shadow
 * mark in the PTE), and putting back the rest.  There is no writeback:
 * a folio is reclaimed or kept within one call (docs/model-notes.md).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "linux/array_size.h"
#include "linux/bitmap.h"
#include "linux/minmax.h"
#include "warn.h"

/* Per-call reclaim context: the parts of struct scan_control the model uses. */
#define AW_ISOLATE_MAX	(MAX_LRU_BATCH + 1)

struct aw_reclaim {
	struct lru_gen_mm_walk *walk;	/* current->reclaim_state->mm_walk */
	int target_memcg;		/* -1: not cgroup reclaim (debugfs, kswapd) */
	bool ignore_references;		/* MADV_PAGEOUT */
	unsigned long nr_reclaimed;
	bool need_swapping;		/* 6.1: the batch shrink_folio_list() got was anon */
};

static struct aw_region *region_at(struct aw_kernel *k, struct mm_struct *mm, uint64_t addr)
{
	struct vm_area_struct *vma = find_vma(mm, addr);

	return vma && addr >= vma->vm_start ? aw_region_of(k, vma) : NULL;
}

/* mm/swap.c: folio_activate() for MGLRU: move to the youngest generation */
void folio_activate(struct aw_kernel *k, uint32_t pfn)
{
	struct folio *folio = pfn_folio(&k->mem, pfn);
	struct lruvec *lruvec;

	if (folio_lru_gen(folio) < 0 || folio_test(folio, PG_unevictable))
		return;
	lruvec = aw_lruvec(k, folio->memcg, folio->nid);
	lru_gen_del_folio(lruvec, folio, false);
	folio_set(folio, PG_active);
	lru_gen_add_folio(lruvec, folio, false);
}

/*
 * Make room for nr more slots from swap_next on (the array holds the first
 * cap_swap slots, zeroed as calloc() would have).  False only when the
 * host is out of memory.
 */
static bool swap_reserve(struct aw_kernel *k, unsigned int nr)
{
	uint64_t need = (uint64_t)k->swap_next + nr, cap;
	struct aw_swap_slot *a;

	if (need > k->nr_swap)
		need = k->nr_swap;
	if (need <= k->cap_swap)
		return true;
	cap = k->cap_swap ? (uint64_t)k->cap_swap * 2 : 1024;
	if (cap < need)
		cap = need;
	if (cap > k->nr_swap)
		cap = k->nr_swap;
	a = realloc(k->swap, cap * sizeof(*a));
	if (!a)
		return false;
	memset(a + k->cap_swap, 0, (cap - k->cap_swap) * sizeof(*a));
	k->swap = a;
	k->cap_swap = (uint32_t)cap;
	return true;
}

static uint32_t swap_slot_alloc(struct aw_kernel *k)
{
	uint32_t s = k->swap_free;

	if (s == AW_NIL) {
		if (k->swap_next >= k->nr_swap)
			return AW_NIL;
		s = k->swap_next++;
		k->swap[s].next = 0;
		k->swap_used++;
		return s;
	}
	k->swap_free = k->swap[s].next;
	k->swap[s].next = 0;
	k->swap_used++;
	return s;
}

/* Drop one reference to a swap slot; the last frees it (free_swap_and_cache()). */
void aw_swap_slot_put(struct aw_kernel *k, uint64_t slot)
{
	struct aw_swap_slot *s = &k->swap[slot];

	if (s->next && --s->next == 0) {
		s->next = k->swap_free;
		k->swap_free = (uint32_t)slot;
		k->swap_used--;
	}
}

static void account_unmap(struct aw_kernel *k, struct mm_struct *mm, uint64_t addr, long nr)
{
	struct aw_region *r = region_at(k, mm, addr);

	mm->rss -= nr;
	if (r)
		r->resident -= nr;
}

/* A PMD-mapped THP swapped out: its PMD becomes a table of swap entries. */
static void pmd_to_swap_table(struct aw_kernel *k, pmd_t *pmd, const uint32_t *slots)
{
	uint32_t id = aw_table_alloc(&k->pt);
	struct aw_ptable *pt;

	if (!id) {
		*pmd = 0;
		return;
	}
	pt = aw_table(&k->pt, id);
	for (int i = 0; i < PTRS_PER_PTE; i++)
		pt->e[i] = aw_mk_swp(slots[i]);
	*pmd = aw_mk_table_entry(id);
}

/*
 * A write after MADV_FREE makes a lazyfree folio anon again (try_to_unmap_one());
 * a VM_DROPPABLE mapping is dropped dirty or not.
 */
static bool lazyfree_redirtied(struct aw_kernel *k, struct folio *folio)
{
	uint32_t idx = 0, mm_id;
	uint64_t addr;

	if (folio_test(folio, PG_dirty))
		return true;
	while (aw_rmap_next(&k->mem, folio, &idx, &mm_id, &addr)) {
		struct mm_struct *mm = aw_mm(k, mm_id);
		struct vm_area_struct *vma = mm ? find_vma(mm, addr) : NULL;
		pmd_t *pmd = mm ? aw_pmd_lookup(k, mm, addr, false, NULL) : NULL;
		pte_t *pte;

		/* "Unlike MADV_FREE mappings, VM_DROPPABLE ones can be dropped even if dirtied" */
		if (vma && addr >= vma->vm_start && (vma->vm_flags & VM_DROPPABLE))
			continue;

		if (pmd && pmd_trans_huge(*pmd)) {
			if (pmd_dirty(*pmd))
				return true;
			continue;
		}
		pte = mm ? aw_pte_lookup(k, mm, addr, false, NULL) : NULL;
		if (pte && pte_dirty(*pte))
			return true;
	}
	return false;
}

/*
 * try_to_unmap() plus swap-out or discard of one isolated folio.  Returns
 * false if it cannot be reclaimed now (no swap space, a re-dirtied
 * lazyfree folio); the caller puts it back.
 */
static bool reclaim_one(struct aw_kernel *k, uint32_t pfn)
{
	struct folio *folio = pfn_folio(&k->mem, pfn);
	bool anon = folio_test(folio, PG_anon), lazyfree = folio_test_lazyfree(folio);
	bool to_swap = anon && !lazyfree;
	unsigned int nr = folio_nr_pages(folio);
	struct aw_shadow shadow = { 0 };
	uint32_t slots[HPAGE_PMD_NR];
	uint32_t idx = 0, mm_id;
	uint64_t addr;

	if (lazyfree && lazyfree_redirtied(k, folio)) {
		folio_set(folio, PG_swapbacked);
		return false;
	}
	/* add_to_swap(): one slot per page */
	if (to_swap && (k->nr_swap - k->swap_used < nr || !swap_reserve(k, nr)))
		return false;
	/*
	 * __remove_mapping() -> workingset_eviction() -> lru_gen_eviction():
	 * the shadow left in the swap slots or the page cache (not for a
	 * lazyfree discard), through the seam
	 */
	if (to_swap || !anon)
		k->mglru->lru_gen_eviction(k, folio, &shadow);
	for (unsigned int i = 0; to_swap && i < nr; i++) {
		struct aw_swap_slot *s;

		slots[i] = swap_slot_alloc(k);
		s = &k->swap[slots[i]];
		s->version = *folio_page_version(folio, i);
		s->evict_seq = shadow.evict_seq;
		s->memcg = shadow.memcg;
		s->nid = shadow.nid;
		s->workingset = shadow.workingset;
		s->refs = shadow.refs;
		s->next = folio->mapcount;	/* swap map count */
	}
	/*
	 * A file folio has one page-cache shadow, which the model keeps in
	 * a PTE: the first mapper's.  A file page that fork shared (fork.c)
	 * has more mappers; theirs go none, so that only one fault refaults,
	 * as in the kernel, where the second mapper's fault finds the folio
	 * the first one read back (a minor fault; the model, having no page
	 * cache shared between mms, gives it a folio of its own).
	 */
	bool shadow_left = false;

	while (aw_rmap_next(&k->mem, folio, &idx, &mm_id, &addr)) {
		struct mm_struct *mm = aw_mm(k, mm_id);
		pmd_t *pmd;
		pte_t *pte;

		if (!mm)
			continue;
		pmd = aw_pmd_lookup(k, mm, addr, false, NULL);
		if (pmd && pmd_trans_huge(*pmd)) {
			if (to_swap)
				pmd_to_swap_table(k, pmd, slots);
			else
				*pmd = 0;
		} else if ((pte = aw_pte_lookup(k, mm, addr, false, NULL))) {
			if (to_swap)
				*pte = aw_mk_swp(slots[0]);
			else if (!anon && !shadow_left)	/* the model's page-cache shadow */
				*pte = _PAGE_FILE_SHADOW | (uint64_t)shadow.workingset << 11 |
				       (uint64_t)shadow.evict_seq << PAGE_SHIFT | (uint64_t)shadow.nid << 44 |
				       (uint64_t)shadow.refs << 52;
			else	/* clean lazyfree: discarded; a file page's other mappers */
				*pte = 0;
			shadow_left |= !anon;
		}
		account_unmap(k, mm, addr, nr);
	}
	return true;
}

/* Free a folio nobody maps any more: off the LRU, uncharged, pfns freed. */
void aw_folio_put(struct aw_kernel *k, uint32_t pfn)
{
	struct folio *folio = pfn_folio(&k->mem, pfn);

	if (!folio)
		return;
	if (folio_lru_gen(folio) >= 0)
		lru_gen_del_folio(aw_lruvec(k, folio->memcg, folio->nid), folio, false);
	aw_memcg_uncharge(k, folio->memcg, folio_nr_pages(folio));
	aw_folio_free(&k->mem, pfn);
}

/*
 * Eviction figures for the report: history normalised to the folio's
 * lruvec now.  "hot" = at least two accesses in the last two aging
 * intervals; "single touch" = exactly one.
 */
static void account_eviction(struct aw_kernel *k, struct folio *folio, struct lruvec *lruvec)
{
	struct aw_node_stats *ns = &k->node_stats[folio->nid];
	uint32_t seq = (uint32_t)lruvec->lrugen.max_seq;
	unsigned int recent = 0;

	if (folio->acc_seq == seq)
		recent = folio->acc_cur + folio->acc_prev;
	else if (folio->acc_seq + 1 == seq)
		recent = folio->acc_cur;
	ns->evicted++;
	ns->evicted_pages += folio_nr_pages(folio);
	k->memcg[folio->memcg].stat.pgsteal += folio_nr_pages(folio);	/* PGSTEAL_DIRECT */
	trace_aw_folio_evicted(k, folio, folio->rmap_mm, folio->rmap_addr, recent >= 2);
	if (recent >= 2)
		ns->hot_evicted++;
	else if (recent == 1)
		ns->single_touch_evicted++;
}

/*
 * 6.1/6.12 shrink_folio_list(): "folio_update_gen() tried to promote this
 * page?"  isolate_folio() cleared PG_referenced, so a mapped folio that has
 * it again was found young after its isolation -- by look-around from an
 * earlier folio of the same batch, or by a walk -- and is kept as it is,
 * before any reference check (keep_locked; the putback then activates it).
 * Mainline's workingset rework (6.14) dropped the test: its isolate_folio()
 * leaves PG_referenced set, and folio_check_references() decides.
 */
static bool promoted_while_isolated(const struct aw_kernel *k, const struct folio *folio,
				    const struct aw_reclaim *rc)
{
	return k->prof->keep_promoted_while_isolated && !rc->ignore_references && folio->mapcount &&
	       folio_test(folio, PG_referenced);
}

/*
 * mm/vmscan.c: shrink_folio_list(), reduced (see the file comment).  Folios
 * not reclaimed stay in list[] (compacted) for the caller to put back.
 */
static unsigned long shrink_folio_list(struct aw_kernel *k, struct lruvec *lruvec, uint32_t *list,
				       int *nr, struct aw_reclaim *rc)
{
	unsigned long reclaimed = 0;
	int kept = 0;

	for (int i = 0; i < *nr; i++) {
		uint32_t pfn = list[i];
		struct folio *folio = pfn_folio(&k->mem, pfn);
		enum folio_references ref;
		bool reclaim;

		trace_aw_reclaim_check(k, pfn, rc->target_memcg);
		if (promoted_while_isolated(k, folio, rc)) {
			trace_aw_reclaim_decision(k, pfn, false, false);
			list[kept++] = pfn;	/* keep_locked */
			continue;
		}
		if (rc->ignore_references) {
			ref = FOLIOREF_RECLAIM;
		} else {
			ref = k->mglru->folio_check_references(k, folio, rc->walk, rc->target_memcg);
			aw_refs_log_add(k, folio, ref);
		}
		/* without kswapd, FOLIOREF_RECLAIM_CLEAN goes where FOLIOREF_RECLAIM does */
		reclaim = ref == FOLIOREF_RECLAIM || ref == FOLIOREF_RECLAIM_CLEAN;
		trace_aw_reclaim_decision(k, pfn, reclaim, rc->ignore_references);
		if (ref == FOLIOREF_ACTIVATE) {
			if (!folio_test(folio, PG_mlocked))
				folio_set(folio, PG_active);
		} else if (reclaim && folio_is_file_lru(folio) && !folio_test(folio, PG_anon) &&
			   folio_test(folio, PG_dirty)) {
			/*
			 * Dirty page cache outside kswapd: PG_reclaim, then
			 * activate_locked; the flusher writes it back (evict.c's
			 * writeback, when the reclaim call returns).
			 */
			folio_set(folio, PG_reclaim);
			folio_set(folio, PG_active);
			aw_writeback_start(k, folio);
		} else if (reclaim && reclaim_one(k, pfn)) {
			account_eviction(k, folio, lruvec);
			reclaimed += folio_nr_pages(folio);
			/* aw_folio_free() drops the reverse-map chain with the folio */
			aw_memcg_uncharge(k, folio->memcg, folio_nr_pages(folio));
			aw_folio_free(&k->mem, pfn);
			continue;
		} else if (reclaim && folio_test(folio, PG_swapbacked) &&
			   folio_test(folio, PG_anon)) {
			/* no swap space, or a re-dirtied lazyfree folio: activate_locked */
			folio_set(folio, PG_active);
		}
		list[kept++] = pfn;
	}
	*nr = kept;
	return reclaimed;
}

/*
 * shrink_folio_list() for kernel text's evict_folios() (src/kbind): the
 * folios pfns[] were isolated from lruvec, in the order the kernel takes
 * them; the survivors stay in pfns[] in that order.  The walk stays the
 * text's: look-around reaches it through the seam, not through rc.
 */
unsigned long aw_shrink_isolated(struct aw_kernel *k, struct lruvec *lruvec, unsigned long *pfns, int *nr,
				 bool memcg_reclaim)
{
	struct aw_reclaim rc = { .target_memcg = memcg_reclaim ? lruvec->memcg : -1 };
	uint32_t list[AW_ISOLATE_MAX];
	unsigned long reclaimed = 0;
	int done = 0;

	/* in batches of the model's own isolation limit: one call, same order */
	while (done < *nr) {
		int n = *nr - done < AW_ISOLATE_MAX ? *nr - done : AW_ISOLATE_MAX, kept;

		for (int i = 0; i < n; i++)
			list[i] = (uint32_t)pfns[done + i];
		kept = n;
		reclaimed += shrink_folio_list(k, lruvec, list, &kept, &rc);
		for (int i = 0; i < kept; i++)
			pfns[done + i] = list[i];
		memmove(&pfns[done + kept], &pfns[done + n], (*nr - done - n) * sizeof(*pfns));
		*nr -= n - kept;
		done += kept;
	}
	return reclaimed;
}

/*
 * Writeback of dirty page cache that sort_folio() rotated (PG_reclaim):
 * the flusher's work, which the model completes when the reclaim entry
 * that started it returns -- lru_gen_shrink_lruvec() (memcg.c) or the
 * debugfs '-' (aw_run_eviction()), never between the evict_folios() of
 * their loops, which neither wait for the flusher nor wake it.  A machine
 * action outside MGLRU, so a variant whose eviction scan is kernel text
 * gets the same (its rotated folios reach aw_writeback_start() through the
 * generation-write hook).
 */
void aw_writeback_start(struct aw_kernel *k, struct folio *folio)
{
	if (k->nr_wb == k->cap_wb) {
		uint32_t cap = k->cap_wb ? 2 * k->cap_wb : 64;
		uint32_t *a = realloc(k->wb_pending, cap * sizeof(*a));

		if (!a) {
			/* no room to wait: complete now */
			folio_clear(folio, PG_dirty);
			folio_clear(folio, PG_reclaim);
			return;
		}
		k->wb_pending = a;
		k->cap_wb = cap;
	}
	k->wb_pending[k->nr_wb++] = folio->pfn;
}

/*
 * folio_end_writeback(): the rotated folios are clean, and PG_reclaim goes
 * (the kernel then rotates the folio to the tail, folio_rotate_reclaimable();
 * the model leaves it where it is, docs/model-notes.md).
 */
void aw_writeback_complete(struct aw_kernel *k)
{
	for (uint32_t i = 0; i < k->nr_wb; i++) {
		struct folio *folio = pfn_folio(&k->mem, k->wb_pending[i]);

		if (folio) {
			folio_clear(folio, PG_dirty);
			folio_clear(folio, PG_reclaim);
		}
	}
	k->nr_wb = 0;
}

/* mm/vmscan.c: sort_folio(): true if it moved the folio instead of isolating it */
static bool sort_folio(struct aw_kernel *k, struct lruvec *lruvec, struct folio *folio, int tier_idx)
{
	struct lru_gen_folio *lrugen = &lruvec->lrugen;
	int type = folio_is_file_lru(folio);
	int gen = folio_lru_gen(folio);
	int tier = folio_lru_tier(k, folio);
	bool lazily_promoted = folio_lazily_promoted(k, folio);

	/*
	 * 6.1: dirty lazyfree -- MADV_FREE'd, then written again -- goes back to
	 * the anon list, at the tail (lruvec_add_folio_tail()), before anything
	 * else is asked (found by kernel text in lockstep, docs/validation.md).
	 */
	if (k->prof->sort_dirty_lazyfree_to_anon && type == LRU_GEN_FILE && folio_test(folio, PG_anon) &&
	    folio_test(folio, PG_dirty)) {
		lru_gen_del_folio(lruvec, folio, true);
		folio_set(folio, PG_swapbacked);
		lru_gen_add_folio(lruvec, folio, true);
		return true;
	}

	/* promoted: the walker moved its flag generation */
	if (gen != lru_gen_from_seq(lrugen->min_seq[type])) {
		list_move(&folio->lru, &lrugen->folios[gen][type]);
		return true;
	}

	/*
	 * protected: a tier above tier_idx, or every reference bit set.
	 * Mainline moves it to the head of its new generation and does not
	 * count the lazily promoted workingset; 6.1/6.12 move it to the tail
	 * and count it (docs/model-notes.md, "Kernel profiles").
	 */
	if (tier > tier_idx || lazily_promoted ||
	    (AW_BUG(k, AW_BUG_TIER_PROTECT_OFF_BY_ONE) && tier == tier_idx)) {
		bool to_head = k->prof->sort_protected_to_head;

		gen = folio_inc_gen(k, lruvec, folio, false);
		if (to_head)
			list_move(&folio->lru, &lrugen->folios[gen][type]);
		else
			list_move_tail(&folio->lru, &lrugen->folios[gen][type]);
		if (!to_head || !lazily_promoted)
			lrugen->protected[type][tier] += folio_nr_pages(folio);
		return true;
	}

	/*
	 * waiting for writeback: dirty page cache (never with the model's
	 * files).  6.12 has no such test here: evict_folios() handles folios
	 * under writeback after shrink_folio_list().
	 */
	if (k->prof->sort_waits_writeback && type == LRU_GEN_FILE && folio_test(folio, PG_dirty) &&
	    !folio_test(folio, PG_anon)) {
		gen = folio_inc_gen(k, lruvec, folio, true);
		list_move(&folio->lru, &lrugen->folios[gen][type]);
		aw_writeback_start(k, folio);
		return true;
	}
	return false;
}

/*
 * MADV_PAGEOUT's isolation (reclaim_pages()), whatever the profile: as
 * mainline's isolate_folio(), PG_referenced kept and PG_reclaim cleared.
 */
static bool isolate_folio_for_pageout(struct lruvec *lruvec, struct folio *folio)
{
	/* see the comment on LRU_REFS_FLAGS */
	if (!folio_test(folio, PG_referenced))
		folio->flags &= ~LRU_REFS_MASK;
	folio_clear(folio, PG_reclaim);
	folio_clear(folio, PG_lru);
	lru_gen_del_folio(lruvec, folio, true);
	return true;
}

/*
 * mm/vmscan.c: isolate_folio().  A folio not referenced loses its refs
 * counter and LRU_REFS_FLAGS (6.1/6.12: with PG_workingset).  6.1/6.12
 * then clear PG_referenced "for shrink_folio_list()" (isolate_clears_
 * referenced); 6.1 and mainline clear PG_reclaim, 6.12 leaves it (found by
 * review against both texts: the refs decide the tier, and with it the
 * shadow and the counters, docs/validation.md).
 */
static bool isolate_folio(struct aw_kernel *k, struct lruvec *lruvec, struct folio *folio)
{
	if (!folio_test(folio, PG_referenced))
		folio->flags &= ~aw_lru_refs_flags(k);
	if (k->prof->isolate_clears_reclaim)
		folio_clear(folio, PG_reclaim);
	if (k->prof->isolate_clears_referenced)
		folio_clear(folio, PG_referenced);
	folio_clear(folio, PG_lru);
	lru_gen_del_folio(lruvec, folio, true);
	return true;
}

/*
 * mm/vmscan.c: scan_folios() (one zone).  The budget is min(nr_to_scan,
 * MAX_LRU_BATCH) folios in mainline ("mm: vmscan: apply proportional
 * reclaim pressure for memcg when MGLRU is enabled", 6.17), MAX_LRU_BATCH
 * in 6.1/6.12.
 */
static int scan_folios(struct aw_kernel *k, unsigned long nr_to_scan, struct lruvec *lruvec, int type,
		       int tier, uint32_t *list, int *nr)
{
	struct lru_gen_folio *lrugen = &lruvec->lrugen;
	int remaining = MAX_LRU_BATCH, scanned = 0, isolated = 0;
	int gen;
	struct list_head *head;

	if (k->prof->scan_budget_nr_to_scan)
		remaining = (int)min(nr_to_scan, (unsigned long)MAX_LRU_BATCH);
	if (get_nr_gens(lruvec, type) == MIN_NR_GENS)
		return 0;
	trace_aw_scan_folios_begin(k, lruvec, type);
	gen = lru_gen_from_seq(lrugen->min_seq[type]);
	head = &lrugen->folios[gen][type];
	while (!list_empty(head)) {
		struct folio *folio = lru_to_folio(head);
		int delta = (int)folio_nr_pages(folio);

		scanned += delta;
		trace_aw_sort_folio(k, lruvec, folio);
		/* the kernel's list of isolated folios is an array of pfns here */
		if (!sort_folio(k, lruvec, folio, tier) && isolate_folio(k, lruvec, folio)) {
			list[(*nr)++] = (uint32_t)folio_pfn(&k->mem, folio);
			isolated += delta;
		}
		if (!--remaining || isolated >= MIN_LRU_BATCH || *nr >= AW_ISOLATE_MAX - 1)
			break;
	}
	trace_aw_scan_folios_end(k, lruvec);
	return isolated || !remaining ? scanned : 0;
}

/*
 * The first type isolate_folios() tries.  Mainline asks get_type_to_scan()
 * (which handles swappiness <= 1 and >= 200 itself); 6.1/6.12 make the
 * obvious choices first: no swap file, anon older than file anon, 1 file,
 * 200 anon (the model's reclaim always has __GFP_IO).
 */
static int first_type(struct aw_kernel *k, struct lruvec *lruvec, int swappiness)
{
	const unsigned long *min_seq = lruvec->lrugen.min_seq;

	if (k->prof->type_to_scan_form == AW_TYPE_TO_SCAN_ALL_TIERS)
		return get_type_to_scan(lruvec, swappiness);
	if (!swappiness)
		return LRU_GEN_FILE;
	if (min_seq[LRU_GEN_ANON] < min_seq[LRU_GEN_FILE])
		return LRU_GEN_ANON;
	if (swappiness == 1)
		return LRU_GEN_FILE;
	if (swappiness == MAX_SWAPPINESS)
		return LRU_GEN_ANON;
	return get_type_to_scan(lruvec, swappiness);
}

/* mm/vmscan.c: isolate_folios(): the chosen type, then the other evictable one */
static int isolate_folios(struct aw_kernel *k, unsigned long nr_to_scan, struct lruvec *lruvec,
			  int swappiness, int *type_scanned, uint32_t *list, int *nr)
{
	int type = first_type(k, lruvec, swappiness);

	for (int i = !swappiness; i <= (swappiness <= MAX_SWAPPINESS); i++) {
		int scanned;
		int tier = get_tier_idx(lruvec, type);

		*type_scanned = type;
		scanned = scan_folios(k, nr_to_scan, lruvec, type, tier, list, nr);
		if (scanned)
			return scanned;
		type = !type;
	}
	return 0;
}

/*
 * evict_folios()' putback: don't add rejected folios to the oldest
 * generation.  Mainline sets PG_active (and clears the reference bits)
 * only when lru_gen_folio_seq() would place the folio there; 6.1/6.12 do
 * it for every rejected folio (the model has no writeback, so none waits
 * on PG_reclaim, and the clean-folio retry ends in the same place).
 */
static void putback(struct aw_kernel *k, struct lruvec *lruvec, uint32_t *list, int nr, int type)
{
	/*
	 * move_folios_to_lru() takes the list from its tail: the first folio
	 * isolated goes back first (list[] is in isolation order).
	 */
	for (int i = 0; i < nr; i++) {
		struct folio *folio = pfn_folio(&k->mem, list[i]);
		unsigned long min_seq = lruvec->lrugen.min_seq[type];

		if (folio_test(folio, PG_unevictable))
			continue;
		if (k->prof->putback_activates_all && folio_test(folio, PG_reclaim) &&
		    folio_test(folio, PG_dirty)) {
			/* 6.1/6.12: waiting for writeback; restore LRU_REFS_FLAGS cleared by isolate_folio() */
			if (folio_test(folio, PG_workingset))
				folio_set(folio, PG_referenced);
		} else if (k->prof->putback_activates_all ||
			   lru_gen_folio_seq(lruvec, folio, false) == min_seq)
			folio->flags = (folio->flags & ~aw_lru_refs_flags(k)) | BIT(PG_active);
		folio_set(folio, PG_lru);
		lru_gen_add_folio(lruvec, folio, false);
	}
}

/*
 * evict_folios(): no progress to report once the type it would evict
 * next is down to MIN_NR_GENS generations.  Mainline asks the oldest
 * evictable generation (evictable_min_seq()); 6.1/6.12 ask the type
 * !swappiness alone (get_nr_gens(lruvec, !swappiness) == MIN_NR_GENS), so
 * anon down to two generations stops the scan there even while file has
 * more (found by kernel text in lockstep, docs/validation.md).
 */
bool aw_evict_cutoff(struct aw_kernel *k, struct lruvec *lruvec, int swappiness)
{
	const struct lru_gen_folio *lrugen = &lruvec->lrugen;

	if (k->prof->evict_cutoff_form == AW_EVICT_CUTOFF_EVICTABLE)
		return evictable_min_seq(lrugen->min_seq, swappiness) + MIN_NR_GENS > lrugen->max_seq;
	return get_nr_gens(lruvec, !swappiness) == MIN_NR_GENS;
}

static int evict_folios_rc(struct aw_kernel *k, unsigned long nr_to_scan, struct lruvec *lruvec,
			   int swappiness, struct aw_reclaim *rc)
{
	uint32_t list[AW_ISOLATE_MAX];
	int nr = 0, type = 0, scanned;

	scanned = isolate_folios(k, nr_to_scan, lruvec, swappiness, &type, list, &nr);
	scanned += try_to_inc_min_seq(lruvec, swappiness);
	if (aw_evict_cutoff(k, lruvec, swappiness))
		scanned = 0;
	if (!nr)
		return scanned;

	rc->nr_reclaimed += shrink_folio_list(k, lruvec, list, &nr, rc);
	if (type == LRU_GEN_ANON)
		rc->need_swapping = true;
	/*
	 * The kernel retries once the clean, unmapped, inactive folios that
	 * may have missed folio_rotate_reclaimable(); the model has no
	 * writeback, so such a folio already failed for good and the retry
	 * would decide the same.
	 */
	putback(k, lruvec, list, nr, type);
	if (rc->walk && rc->walk->batched) {
		rc->walk->lruvec = lruvec;
		reset_batch_size(rc->walk);
	}
	return scanned;
}

/* mm/vmscan.c: evict_folios(); nr_to_scan is mainline's budget (scan_folios()) */
/*
 * 6.1 mm/vmscan.c: evict_folios(lruvec, sc, swappiness, &need_swapping)
 * for 6.1's own reclaim loop (memcg.c): *need_swapping is set once a batch
 * that reached shrink_folio_list() was anonymous.  walk is
 * current->reclaim_state->mm_walk: NULL until an aging in the same call
 * took one.  The model's eviction, not the variant's: only the model's
 * lru_gen_shrink_lruvec() calls it.
 */
int aw_evict_folios_need_swapping(struct aw_kernel *k, unsigned long nr_to_scan, struct lruvec *lruvec,
				  int swappiness, struct lru_gen_mm_walk *walk, unsigned long *nr_reclaimed,
				  bool *need_swapping)
{
	struct aw_reclaim rc = { .walk = walk, .target_memcg = lruvec->memcg };
	int scanned = evict_folios_rc(k, nr_to_scan, lruvec, swappiness, &rc);

	*nr_reclaimed += rc.nr_reclaimed;
	if (rc.need_swapping)
		*need_swapping = true;
	return scanned;
}

int evict_folios(struct aw_kernel *k, unsigned long nr_to_scan, struct lruvec *lruvec, int swappiness,
		 struct lru_gen_mm_walk *walk, unsigned long *nr_reclaimed, bool memcg_reclaim)
{
	struct aw_reclaim rc = {
		.walk = walk,
		.target_memcg = memcg_reclaim ? lruvec->memcg : -1,
	};
	int scanned = evict_folios_rc(k, nr_to_scan, lruvec, swappiness, &rc);

	*nr_reclaimed += rc.nr_reclaimed;
	return scanned;
}

/* mm/vmscan.c: run_eviction(): the debugfs '-' command's loop */
static int run_eviction(struct aw_kernel *k, struct lruvec *lruvec, unsigned long seq, int swappiness,
			unsigned long nr_to_reclaim, struct lru_gen_mm_walk *walk)
{
	unsigned long reclaimed = 0;

	for (;;) {
		if (seq < evictable_min_seq(lruvec->lrugen.min_seq, swappiness))
			return 0;
		if (reclaimed >= nr_to_reclaim)
			return 0;
		/* mainline: evict_folios(nr_to_reclaim - sc->nr_reclaimed, ...) */
		if (!k->mglru->evict_folios(k, nr_to_reclaim - reclaimed, lruvec, swappiness, walk, &reclaimed,
					    false))
			return 0;
	}
}

/*
 * The debugfs '-' command: run_eviction() through the variant's
 * evict_folios(), then the page-cache writeback its scans started (the
 * loop neither waits for the flusher nor wakes it: a folio it rotated
 * comes back to min_seq still dirty; see aw_writeback_start()).
 */
int aw_run_eviction(struct aw_kernel *k, struct lruvec *lruvec, unsigned long seq,
		    int swappiness, unsigned long nr_to_reclaim, bool with_walk)
{
	struct lru_gen_mm_walk walk;
	int ret;

	if (seq + MIN_NR_GENS > lruvec->lrugen.max_seq)
		return -EINVAL;
	aw_walk_init(&walk, k);
	walk.lruvec = lruvec;
	ret = run_eviction(k, lruvec, seq, swappiness, nr_to_reclaim, with_walk ? &walk : NULL);
	aw_writeback_complete(k);
	return ret;
}

/* MADV_PAGEOUT: reclaim_pages() on the isolated folios, references ignored */
unsigned long aw_pageout_folio(struct aw_kernel *k, uint32_t pfn)
{
	struct folio *folio = pfn_folio(&k->mem, pfn);
	struct lruvec *lruvec;
	struct aw_reclaim rc = { .target_memcg = -1, .ignore_references = true };
	uint32_t list[1] = { pfn };
	int nr = 1;
	unsigned long done;

	if (!folio || folio_lru_gen(folio) < 0)
		return 0;
	lruvec = aw_lruvec(k, folio->memcg, folio->nid);
	isolate_folio_for_pageout(lruvec, folio);
	done = shrink_folio_list(k, lruvec, list, &nr, &rc);
	putback(k, lruvec, list, nr, folio_is_file_lru(folio));
	return done;
}
