// SPDX-License-Identifier: GPL-2.0-only
/*
 * read(2) and write(2) of a file range through a descriptor: what
 * filemap_read() and generic_perform_write() (mm/filemap.c) do to the
 * folios MGLRU sorts.  The only MGLRU state a descriptor access touches is
 * the folio's references (folio_mark_accessed(): mm/swap.c's
 * folio_inc_refs() in 6.1/6.12, lru_gen_inc_refs() in mainline), which
 * make its tier; page-table accessed bits are not touched, so the aging
 * walk never sees these accesses and sort_folio()'s tier protection is the
 * only thing that keeps such a folio.
 *
 * The descriptor names a file-backed region of the process (a file VMA):
 * the model's page cache is the pages of its file mappings, a page present
 * in the VMA's PTE or dropped to a shadow left in it.  A page the read finds
 * missing is added as filemap_add_folio() would (aw_filemap_add_folio())
 * and shown through a PTE that is neither young nor writable, where the
 * kernel leaves it unmapped (docs/model-notes.md, "File descriptors").
 */
#include "kernel.h"

/*
 * mm/swap.c: folio_mark_accessed() under lru_gen_enabled().  6.1/6.12
 * folio_inc_refs(): PG_referenced, then PG_workingset, then the counter
 * up to LRU_REFS_MASK.  Mainline lru_gen_inc_refs() ("mm/mglru: rework
 * workingset protection", 6.14): PG_referenced (clearing the counter),
 * then the counter, then PG_workingset once the counter is full.
 */
void aw_folio_mark_accessed(struct aw_kernel *k, struct folio *folio)
{
	bool counter_first = k->prof->inc_refs_counter_first;

	if (folio_test(folio, PG_unevictable))
		return;
	if (!folio_test(folio, PG_referenced)) {
		if (counter_first)	/* set_mask_bits(LRU_REFS_MASK, BIT(PG_referenced)) */
			folio->flags &= ~LRU_REFS_MASK;
		folio_set(folio, PG_referenced);
		return;
	}
	if (!counter_first && !folio_test(folio, PG_workingset)) {
		folio_set(folio, PG_workingset);
		return;
	}
	if ((folio->flags & LRU_REFS_MASK) == LRU_REFS_MASK) {
		if (counter_first)
			folio_set(folio, PG_workingset);
		return;
	}
	folio->flags += 1UL << LRU_REFS_PGOFF;
}

/*
 * The page-cache folio of file page `addr` of a file VMA, added if
 * missing; NULL when the model has none to offer (a private page already
 * copied on write, whose page-cache folio the model does not keep; memory
 * it could not allocate).
 */
static struct folio *filemap_get_folio(struct aw_kernel *k, struct aw_task *t, struct mm_struct *mm,
				       struct vm_area_struct *vma, uint64_t addr, int cpu)
{
	pte_t *pte = aw_pte_lookup(k, mm, addr, true, NULL);
	struct folio *folio;
	uint32_t pfn;
	pte_t old;

	if (!pte)
		return NULL;
	if (pte_present(*pte)) {
		folio = is_zero_pfn(pte_pfn(*pte)) ? NULL : pfn_folio(&k->mem, pte_pfn(*pte));
		return folio && !folio_test(folio, PG_anon) ? folio : NULL;
	}
	old = *pte;
	if (pte_swp(old))	/* a swapped-out CoW copy: not the page cache */
		return NULL;
	pfn = aw_filemap_add_folio(k, t, mm, vma, addr, old, cpu);
	if (pfn == AW_NIL || !t->alive || aw_mm(k, t->mm) != mm)
		return NULL;
	pte = aw_pte_lookup(k, mm, addr, true, NULL);	/* the charge may have reclaimed */
	if (!pte || pte_present(*pte)) {
		/* the new folio's reverse mapping (new_folio()) names no PTE now */
		aw_rmap_remove(&k->mem, pfn_folio(&k->mem, pfn), mm->id, addr);
		aw_folio_put(k, pfn);
		return NULL;
	}
	/* new_folio() reverse-mapped it at addr already: the PTE makes that true */
	*pte = aw_mk_pte(pfn, _PAGE_PRESENT | _PAGE_USER);
	aw_account_map(k, mm, vma, 1);
	return pfn_folio(&k->mem, pfn);
}

/*
 * One call: [start, end) of the file range, which begins at byte
 * `file_pos` of the file.  filemap_read() marks every folio it copies from
 * accessed, except the first when the previous read of this file ended in
 * that same folio ("When a read accesses the same folio several times,
 * only mark it as accessed the first time": pos_same_folio(ki_pos,
 * ra->prev_pos - 1)); generic_perform_write()'s ->write_begin() takes the
 * folio with FGP_WRITEBEGIN, which has no FGP_ACCESSED, and ->write_end()
 * dirties it (folio_mark_dirty()).
 */
static void file_rw_once(struct aw_kernel *k, struct aw_task *t, struct mm_struct *mm, uint64_t start,
			 uint64_t end, bool write, int cpu, int64_t *prev_pos, int64_t file_pos)
{
	const struct folio *last = NULL;
	int64_t first_pos = file_pos;

	for (uint64_t a = start; a < end && t->alive && aw_mm(k, t->mm) == mm; a += PAGE_SIZE, file_pos += PAGE_SIZE) {
		struct vm_area_struct *vma = find_vma(mm, a);
		struct folio *folio;

		if (!vma || a < vma->vm_start || !vma->file) {
			k->ignored_events++;	/* not a file: EBADF/EINVAL, nothing read */
			return;
		}
		folio = filemap_get_folio(k, t, mm, vma, a, cpu);
		if (!folio || folio == last)
			continue;
		if (write) {
			folio_set(folio, PG_dirty);
		} else if (last || !prev_pos ||
			   (first_pos >> PAGE_SHIFT) != ((*prev_pos - 1) >> PAGE_SHIFT)) {
			aw_folio_mark_accessed(k, folio);
		}
		last = folio;
	}
	if (!write && prev_pos)
		*prev_pos = file_pos;	/* ra->prev_pos = last_pos */
}

int aw_file_rw(struct aw_kernel *k, struct aw_task *t, uint64_t start, uint64_t len, uint32_t repeat,
	       bool write, int cpu)
{
	struct mm_struct *mm = aw_mm(k, t->mm);
	struct vm_area_struct *vma = mm ? find_vma(mm, start) : NULL;
	struct aw_region *r = vma && start >= vma->vm_start ? aw_region_of(k, vma) : NULL;
	/* the file position is the offset into the region (the whole file) */
	int64_t file_pos = r ? (int64_t)(start - r->start) : 0;

	if (!mm)
		return -1;
	if (repeat == 0)
		repeat = 1;
	k->mglru->lru_gen_use_mm(k, mm);	/* the process ran to make the calls */
	for (uint32_t i = 0; i < repeat && t->alive && aw_mm(k, t->mm) == mm; i++)
		file_rw_once(k, t, mm, start, start + len, write, cpu, r ? &r->f_prev_pos : NULL, file_pos);
	return 0;
}
