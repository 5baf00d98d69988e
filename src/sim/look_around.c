// SPDX-License-Identifier: GPL-2.0-only
/*
 * Look-around (mm/vmscan.c: lru_gen_look_around()): the rmap walk of
 * eviction found a young PTE; its neighbours in the same PTE table are
 * looked at too, the young ones promoted, and a table dense enough in
 * young PTEs goes into the Bloom filter for the next aging walk.  The
 * profile decides when it runs (look_around_before_clear: 6.1 before the
 * target's PTE is cleared) and which neighbours it may take
 * (look_around_can_swap).
 */
#include "kernel.h"
#include "linux/array_size.h"
#include "linux/minmax.h"
#include "warn.h"

#define PAGEVEC_SIZE	15	/* include/linux/pagevec.h, 6.1 */

/*
 * lru_gen_look_around()'s window: the PMD's part of the VMA around address,
 * at most MIN_LRU_BATCH pages, centred where it can be.
 */
static void look_around_window(uint64_t address, const struct vm_area_struct *vma, unsigned long *start,
			       unsigned long *end)
{
	*start = max(address & PMD_MASK, vma->vm_start);
	*end = min(address | ~PMD_MASK, vma->vm_end - 1) + 1;
	if (*end - *start <= MIN_LRU_BATCH * PAGE_SIZE)
		return;
	if (address - *start < MIN_LRU_BATCH * PAGE_SIZE / 2)
		*end = *start + MIN_LRU_BATCH * PAGE_SIZE;
	else if (*end - address < MIN_LRU_BATCH * PAGE_SIZE / 2)
		*start = *end - MIN_LRU_BATCH * PAGE_SIZE;
	else {
		*start = address - MIN_LRU_BATCH * PAGE_SIZE / 2;
		*end = address + MIN_LRU_BATCH * PAGE_SIZE / 2;
	}
}

/*
 * look_around_before_clear (6.1): lru_gen_look_around() as 6.1's
 * folio_referenced_one() calls it, before the target's young PTE is
 * cleared.  The window: the young PTEs around address.  An
 * isolated folio -- the target itself, whose PTE 6.1 has not cleared yet,
 * or a neighbour isolated by the same batch -- gets PG_referenced; the
 * others are activated at once when few (folio_activate(), fewer than
 * PAGEVEC_SIZE and no walk), else moved to max_seq by their flag
 * generation only, as the walk does.
 */
static void look_around_before_clear(struct aw_kernel *k, struct lru_gen_mm_walk *walk, struct mm_struct *mm,
				     struct vm_area_struct *vma, uint64_t address, pte_t *pte, struct folio *target,
				     bool can_swap)
{
	int memcg = target->memcg, nid = target->nid;
	struct lruvec *lruvec = aw_lruvec(k, memcg, nid);
	unsigned long max_seq = READ_ONCE(lruvec->lrugen.max_seq);
	int gen = lru_gen_from_seq(max_seq), young = 0, i;
	uint64_t bitmap = 0, addr;
	unsigned long start, end;

	if (mm->ptl_contended || (vma->vm_flags & VM_SPECIAL))
		return;
	look_around_window(address, vma, &start, &end);
	pte -= (address - start) / PAGE_SIZE;

	for (i = 0, addr = start; addr != end; i++, addr += PAGE_SIZE) {
		unsigned long pfn = get_pte_pfn(k, pte[i], mm, nid);
		struct folio *folio;

		/* 6.1 skips every PTE that is not young, notifiers or not */
		if (pfn == -1UL || !pte_young(pte[i]))
			continue;
		folio = get_pfn_folio(k, pfn, memcg, nid, can_swap);
		if (!folio)
			continue;
		ptep_test_and_clear_young(k, mm, addr, pte + i);
		young++;
		if (pte_dirty(pte[i]) && !folio_test_dirty(folio) &&
		    !(folio_test_anon(folio) && folio_test_swapbacked(folio) && !folio_test_swapcache(folio)))
			folio_mark_dirty(folio);
		if (folio_lru_gen(folio) < 0)
			folio_set(folio, PG_referenced);
		else if (folio_lru_gen(folio) != gen)
			bitmap |= 1ULL << i;
	}

	/* feedback from rmap walkers to page table walkers */
	if (suitable_to_scan(i, young)) {
		uint64_t pmd_item = aw_pmd_entry_kva(k, mm, address);	/* pvmw->pmd */

		trace_lru_gen_look_around(k, lruvec, mm, address, pmd_item, max_seq);
		update_bloom_filter(&lruvec->mm_state, BLOOM_FILTER_PMD, max_seq, pmd_item);
		/*
		 * The PUD filter series on 6.1: its look-around hunk lands in
		 * this same feedback block (docs/model-notes.md).
		 */
		if ((k->features & AW_FEAT_PUD_FILTER) && !AW_BUG(k, AW_BUG_PUD_LOOKAROUND_NO_MARK))
			update_bloom_filter(&lruvec->mm_state, BLOOM_FILTER_PUD, max_seq,
					    mm->kaddr ^ (address & PUD_MASK));
	}

	if (!walk && __builtin_popcountll(bitmap) < PAGEVEC_SIZE) {
		for (; bitmap; bitmap &= bitmap - 1) {
			uint32_t pfn = (uint32_t)pte_pfn(pte[__builtin_ctzll(bitmap)]);

			folio_activate(k, pfn);
			k->node_stats[nid].promoted++;	/* model */
			k->node_stats[nid].lookaround_promoted++;
		}
		return;
	}
	for (; bitmap; bitmap &= bitmap - 1) {
		struct folio *folio = pfn_folio(&k->mem, pte_pfn(pte[__builtin_ctzll(bitmap)]));
		int old_gen;

		if (folio->memcg != memcg)
			continue;
		old_gen = folio_update_gen_first_young(folio, gen);
		if (old_gen < 0 || old_gen == gen)
			continue;
		trace_folio_update_gen(k, folio, old_gen, gen);
		k->node_stats[nid].promoted++;	/* model */
		k->node_stats[nid].lookaround_promoted++;
		if (walk)
			update_batch_size(walk, folio, old_gen, gen);
		else
			lru_gen_update_size(lruvec, folio, old_gen, gen);
	}
}

/*
 * mm/vmscan.c: lru_gen_look_around() for the young PTE of the folio at
 * target_pfn, which the caller isolated, mapped at address in vma.
 *
 * This function exploits spatial locality when shrink_folio_list() walks the
 * rmap. It scans the adjacent PTEs of a young PTE and promotes hot pages. If
 * the scan was done cacheline efficiently, it adds the PMD entry pointing to
 * the PTE table to the Bloom filter. This forms a feedback loop between the
 * eviction and the aging.
 */
bool lru_gen_look_around(struct aw_kernel *k, struct lru_gen_mm_walk *walk,
			 struct mm_struct *mm, struct vm_area_struct *vma, uint64_t address,
			 uint32_t target_pfn)
{
	int i;
	unsigned long start;
	unsigned long end;
	int young = 1;
	pmd_t *pmd;
	pte_t *pte = aw_pte_lookup(k, mm, address, false, &pmd);	/* pvmw->pte */
	unsigned long addr = address;
	struct folio *folio = pfn_folio(&k->mem, target_pfn);
	int memcg = folio->memcg;
	int nid = folio->nid;
	struct lruvec *lruvec = aw_lruvec(k, memcg, nid);
	struct lru_gen_mm_state *mm_state = &lruvec->mm_state;
	unsigned long max_seq = READ_ONCE(lruvec->lrugen.max_seq);
	int gen = lru_gen_from_seq(max_seq);
	uint32_t last = AW_NIL;
	bool dirty = false;
	/*
	 * 6.12: can_swap = !folio_is_file_lru(folio) (a file target skips
	 * anon neighbours); 6.1: !walk || walk->can_swap; mainline: none.
	 */
	enum aw_look_around_can_swap form = k->prof->look_around_can_swap;
	bool can_swap = form == AW_LOOK_AROUND_ANY_TYPE ||
			(form == AW_LOOK_AROUND_TARGET_ANON ? !folio_is_file_lru(folio) :
			 !walk || walk->swappiness);

	VM_WARN_ON_ONCE(folio_test(folio, PG_lru));

	/*
	 * 6.1's folio_referenced_one() looks around a young PTE before it
	 * clears it, and skips look-around in sequential or random-read VMAs;
	 * the mapping counts once either way (the seam returns one bool).
	 */
	if (k->prof->look_around_before_clear) {
		bool seen = pte && pte_young(*pte) && !(vma->vm_flags & (VM_SEQ_READ | VM_RAND_READ));

		if (seen)
			look_around_before_clear(k, walk, mm, vma, address, pte, folio, can_swap);
		if (pte && ptep_test_and_clear_young(k, mm, addr, pte) && !(vma->vm_flags & VM_SEQ_READ))
			seen = true;
		return seen;
	}

	if (!pte || !ptep_test_and_clear_young(k, mm, addr, pte))	/* _notify() */
		return false;

	if (mm->ptl_contended)		/* spin_is_contended(pvmw->ptl) */
		return true;

	/* exclude special VMAs containing anon pages from COW */
	if (vma->vm_flags & VM_SPECIAL)
		return true;

	look_around_window(addr, vma, &start, &end);

	if (end - start == PAGE_SIZE)
		return true;

	pte -= (addr - start) / PAGE_SIZE;

	for (i = 0, addr = start; addr != end; i++, addr += PAGE_SIZE) {
		unsigned long pfn;
		pte_t ptent = pte[i];	/* ptep_get(pte + i) */

		pfn = get_pte_pfn(k, ptent, mm, nid);
		if (pfn == -1UL)
			continue;

		folio = get_pfn_folio(k, pfn, memcg, nid, can_swap);
		if (!folio)
			continue;

		if (!ptep_test_and_clear_young(k, mm, addr, pte + i))	/* _notify() */
			continue;

		if (last != (uint32_t)pfn) {
			walk_update_folio(k, walk, last, gen, dirty);

			last = (uint32_t)pfn;
			dirty = false;
		}

		if (pte_dirty(ptent))
			dirty = true;

		young++;
	}

	walk_update_folio(k, walk, last, gen, dirty);

	/* feedback from rmap walkers to page table walkers */
	if (suitable_to_scan(i, young)) {
		uint64_t pmd_item = aw_pmd_entry_kva(k, mm, address);	/* pvmw->pmd */
		uint64_t pud_key = mm->kaddr ^ (address & PUD_MASK);

		trace_lru_gen_look_around(k, lruvec, mm, address, pmd_item, max_seq);
		update_bloom_filter(mm_state, BLOOM_FILTER_PMD, max_seq, pmd_item);
		/* seed v3 3/4; the planted bug marks the PMD but not the PUD */
		if ((k->features & AW_FEAT_PUD_FILTER) && !AW_BUG(k, AW_BUG_PUD_LOOKAROUND_NO_MARK))
			update_bloom_filter(mm_state, BLOOM_FILTER_PUD, max_seq, pud_key);
	}

	return true;
}
