// SPDX-License-Identifier: GPL-2.0-only
/*
 * Accesses and page faults (mm/memory.c: handle_mm_fault, do_anonymous_page,
 * do_wp_page, do_swap_page; mm/huge_memory.c: do_huge_pmd_anonymous_page).
 *
 * The model has no TLB: every access walks the page tables, so it sets the
 * accessed bit of the leaf and, as the x86 page walker does, of every
 * non-leaf entry on the way (docs/model-notes.md).  An access of a range
 * with a repeat count sets the same bits once and counts `repeat` accesses
 * per folio, which is what lets a scenario touch 128 MiB a hundred times
 * cheaply.
 */
#include <string.h>

#include "kernel.h"

/* __pud_alloc()/__pmd_alloc()/__pte_alloc(): a new table is charged to mm's memcg (memcg.c) */
static uint32_t alloc_table_entry(struct aw_kernel *k, struct mm_struct *mm, uint64_t *entry)
{
	uint32_t id;

	if (*entry & _PAGE_PRESENT)
		return aw_entry_table(*entry);
	id = aw_table_alloc(&k->pt);
	if (id) {
		*entry = aw_mk_table_entry(id);
		aw_memcg_charge_pgtable(k, mm->memcg, id);
	}
	return id;
}

/*
 * The lookups below hand out entries their callers write (a fault, an
 * unmap, a split, a collapse, the rmap's young test): each marks the
 * table of every entry it hands out or allocates through as written
 * (aw_table_entry_w(), pgtable.h), so the agreement oracle compares it.
 */

/* pud_offset(p4d_offset(pgd_offset(mm, addr))) with optional allocation */
pud_t *aw_pud_lookup(struct aw_kernel *k, struct mm_struct *mm, uint64_t addr, bool alloc)
{
	uint64_t *pgde = aw_table_entry_w(&k->pt, mm->pgd, pgd_index(addr));
	uint32_t pud_id;

	if (!(*pgde & _PAGE_PRESENT) && !alloc)
		return NULL;
	pud_id = alloc_table_entry(k, mm, pgde);
	if (!pud_id)
		return NULL;
	return aw_table_entry_w(&k->pt, pud_id, pud_index(addr));
}

pmd_t *aw_pmd_lookup(struct aw_kernel *k, struct mm_struct *mm, uint64_t addr, bool alloc,
		     pud_t **pudp)
{
	pud_t *pud = aw_pud_lookup(k, mm, addr, alloc);
	uint32_t pmd_id;

	if (pudp)
		*pudp = pud;
	if (!pud || (!(*pud & _PAGE_PRESENT) && !alloc))
		return NULL;
	pmd_id = alloc_table_entry(k, mm, pud);
	if (!pmd_id)
		return NULL;
	return aw_table_entry_w(&k->pt, pmd_id, pmd_index(addr));
}

/*
 * pte_offset_map() with allocation (pte_alloc()), the one walk of the
 * model's faults: path[] gets the PGD, PUD and PMD entries as far as the
 * walk got (NULL past that), so that an access can mark them young
 * without a second walk.  NULL under a PMD leaf.
 */
static pte_t *pte_walk(struct aw_kernel *k, struct mm_struct *mm, uint64_t addr, bool alloc,
		       uint64_t *path[3])
{
	uint64_t *pgde = aw_table_entry_w(&k->pt, mm->pgd, pgd_index(addr));
	uint64_t *pude, *pmde;
	uint32_t id;

	path[0] = pgde;
	path[1] = path[2] = NULL;
	if (!(*pgde & _PAGE_PRESENT) && !alloc)
		return NULL;
	if (!(id = alloc_table_entry(k, mm, pgde)))
		return NULL;
	path[1] = pude = aw_table_entry_w(&k->pt, id, pud_index(addr));
	if (!(*pude & _PAGE_PRESENT) && !alloc)
		return NULL;
	if (!(id = alloc_table_entry(k, mm, pude)))
		return NULL;
	path[2] = pmde = aw_table_entry_w(&k->pt, id, pmd_index(addr));
	if (pmd_trans_huge(*pmde) || (!(*pmde & _PAGE_PRESENT) && !alloc))
		return NULL;
	if (!(id = alloc_table_entry(k, mm, pmde)))
		return NULL;
	return aw_table_entry_w(&k->pt, id, pte_index(addr));
}

/* pte_walk() for callers that want at most the PMD entry (*pmdp, NULL if none) */
pte_t *aw_pte_lookup(struct aw_kernel *k, struct mm_struct *mm, uint64_t addr, bool alloc,
		     pmd_t **pmdp)
{
	uint64_t *path[3];
	pte_t *pte = pte_walk(k, mm, addr, alloc, path);

	if (pmdp)
		*pmdp = path[2];
	return pte;
}

static void mark_walk_young(uint64_t *path[3])
{
	*path[0] |= _PAGE_ACCESSED;
	*path[1] |= _PAGE_ACCESSED;
	*path[2] |= _PAGE_ACCESSED;
}

/* The hardware page walk sets the accessed bit on every level. */
static void mark_path_young(struct aw_kernel *k, struct mm_struct *mm, uint64_t addr)
{
	uint64_t *pgde = aw_table_entry_w(&k->pt, mm->pgd, pgd_index(addr));
	uint64_t *pud, *pmd;

	*pgde |= _PAGE_ACCESSED;
	pud = aw_table_entry_w(&k->pt, aw_entry_table(*pgde), pud_index(addr));
	*pud |= _PAGE_ACCESSED;
	pmd = aw_table_entry_w(&k->pt, aw_entry_table(*pud), pmd_index(addr));
	*pmd |= _PAGE_ACCESSED;
}

/*
 * Access history for the report's hot/single-touch figures: accesses per
 * aging interval of the folio's own lruvec, the current and the previous.
 */
void aw_note_access(struct aw_kernel *k, struct folio *folio, uint32_t repeat)
{
	uint32_t seq = (uint32_t)aw_lruvec(k, folio->memcg, folio->nid)->lrugen.max_seq;
	unsigned int n;

	if (folio->acc_seq != seq) {
		folio->acc_prev = folio->acc_seq + 1 == seq ? folio->acc_cur : 0;
		folio->acc_cur = 0;
		folio->acc_seq = seq;
	}
	n = folio->acc_cur + (repeat > 255 ? 255 : repeat);
	folio->acc_cur = n > 255 ? 255 : (uint8_t)n;
}

/* mm/mempolicy.c in short: the node a new folio should come from */
int aw_alloc_node(struct aw_kernel *k, struct mm_struct *mm, struct vm_area_struct *vma, int cpu)
{
	if (vma && vma->mpol != AW_MPOL_DEFAULT)
		return vma->mpol_node;
	if (mm->mpol != AW_MPOL_DEFAULT)
		return mm->mpol_node;
	return k->cpu_node[cpu];
}

/* Allocate on the policy node, falling back to the others unless bound. */
static uint32_t alloc_folio_policy(struct aw_kernel *k, struct mm_struct *mm,
				   struct vm_area_struct *vma, int cpu, unsigned int order)
{
	int nid = aw_alloc_node(k, mm, vma, cpu);
	bool bind = (vma && vma->mpol == AW_MPOL_BIND) ||
		    ((!vma || vma->mpol == AW_MPOL_DEFAULT) && mm->mpol == AW_MPOL_BIND);
	uint32_t pfn = aw_folio_alloc(&k->mem, nid, order);

	for (int n = 0; pfn == AW_NIL && !bind && n < k->nr_nodes; n++) {
		if (n != nid)
			pfn = aw_folio_alloc(&k->mem, n, order);
	}
	return pfn;
}

/* mm/huge_memory.c: thp_vma_allowable_order() for a fault or khugepaged */
bool aw_vma_thp_allowed(struct aw_kernel *k, struct mm_struct *mm, struct vm_area_struct *vma,
			uint64_t haddr)
{
	if (vma->file || haddr < vma->vm_start || haddr + PMD_SIZE > vma->vm_end)
		return false;
	if (vma->vm_flags & (VM_NOHUGEPAGE | VM_HUGETLB | VM_SPECIAL))
		return false;
	if (mm->thp_disable == AW_THP_DISABLE_COMPLETELY)
		return false;
	if (mm->thp_disable == AW_THP_DISABLE_EXCEPT_ADVISED && !(vma->vm_flags & VM_HUGEPAGE))
		return false;
	switch (k->cfg.thp) {
	case AW_THP_ALWAYS:
		return true;
	case AW_THP_MADVISE:
		return vma->vm_flags & VM_HUGEPAGE;
	default:
		return false;
	}
}

void aw_account_map(struct aw_kernel *k, struct mm_struct *mm, const struct vm_area_struct *vma, long nr)
{
	struct aw_region *r = aw_region_of(k, vma);

	mm->rss += nr;
	if (r)
		r->resident += nr;
}

/* mm/rmap.c: folio_add_new_anon_rmap(): anon, swap-backed unless VM_DROPPABLE (born lazyfree) */
void aw_folio_new_anon(struct folio *folio, const struct vm_area_struct *vma)
{
	folio_set(folio, PG_anon);
	if (!(vma->vm_flags & VM_DROPPABLE))
		folio_set(folio, PG_swapbacked);
}

/* mm/mlock.c: mlock_new_folio() for a VM_LOCKED VMA */
void aw_mlock_new_folio(struct folio *folio, const struct vm_area_struct *vma)
{
	if (vma->vm_flags & VM_LOCKED) {
		folio_set(folio, PG_mlocked);
		folio_set(folio, PG_unevictable);
	}
}

/*
 * A new folio mapped by a fault: charged, flagged, its refault decided
 * over shadow (NULL: none) by workingset_refault() before it goes on the
 * LRU, placed there as folio_add_lru() does inside a fault (PG_active when
 * the VMA has recency, mm/swap.c), and reverse-mapped.  Returns the pfn or
 * AW_NIL.
 */
static uint32_t new_folio(struct aw_kernel *k, struct aw_task *t, struct mm_struct *mm,
			  struct vm_area_struct *vma, uint64_t addr, unsigned int order,
			  bool anon, int cpu, const struct aw_shadow *shadow, bool fault)
{
	/*
	 * lru_gen_in_fault(): lru_gen_enter_fault() marks a fault in a VMA
	 * with recency; a read(2)/write(2) through a descriptor is no fault.
	 */
	bool in_fault = fault && !(vma->vm_flags & (VM_SEQ_READ | VM_RAND_READ));
	uint32_t pfn = alloc_folio_policy(k, mm, vma, cpu, order);
	struct folio *folio;
	uint32_t mm_id = mm->id;
	unsigned long reclaim_calls = k->memcg[mm->memcg].reclaim_calls;

	if (anon)
		vma->anon_vma = true;	/* vmf_anon_prepare() */
	if (pfn == AW_NIL)
		return AW_NIL;
	folio = pfn_folio(&k->mem, pfn);
	folio->memcg = (uint16_t)mm->memcg;
	/* mem_cgroup_charge(): may reclaim, and may OOM-kill the faulting task */
	if (aw_memcg_charge(k, mm->memcg, folio_nr_pages(folio), folio->nid)) {
		aw_folio_free(&k->mem, pfn);
		return AW_NIL;
	}
	if (!t->alive || !aw_mm(k, mm_id)) {
		/* the charge OOM-killed the faulting task itself: undo it */
		folio = pfn_folio(&k->mem, pfn);
		aw_memcg_uncharge(k, folio->memcg, folio_nr_pages(folio));
		aw_folio_free(&k->mem, pfn);
		return AW_NIL;
	}
	folio = pfn_folio(&k->mem, pfn);
	/*
	 * Reclaim in the charge path calls cond_resched(); a task that was
	 * rescheduled comes back through context_switch(), which marks its
	 * mm used again for every node.
	 */
	if (k->memcg[mm->memcg].reclaim_calls != reclaim_calls)
		k->mglru->lru_gen_use_mm(k, mm);
	if (anon)
		aw_folio_new_anon(folio, vma);
	aw_mlock_new_folio(folio, vma);
	if (shadow)
		k->mglru->lru_gen_refault(k, folio, shadow, in_fault);
	/* folio_add_lru(): in a fault with recency the folio is active (mm/swap.c) */
	if (in_fault)
		folio_set(folio, PG_active);
	k->mglru->folio_add_lru(k, folio, in_fault);
	aw_rmap_add(&k->mem, folio, mm->id, addr);
	return pfn;
}

static uint32_t fault_new_folio(struct aw_kernel *k, struct aw_task *t, struct mm_struct *mm,
				struct vm_area_struct *vma, uint64_t addr, unsigned int order,
				bool anon, int cpu, const struct aw_shadow *shadow)
{
	return new_folio(k, t, mm, vma, addr, order, anon, cpu, shadow, true);
}

const char *aw_fault_kind_name(int kind)
{
	static const char *const names[AW_FAULT_NR] = {
		[AW_FAULT_MINOR] = "a first-touch fault",
		[AW_FAULT_HUGE] = "a huge first-touch fault",
		[AW_FAULT_ZERO] = "a zero-page fault",
		[AW_FAULT_COW] = "a copy-on-write fault",
		[AW_FAULT_MAJOR] = "a major fault",
		[AW_FAULT_MIGRATED] = "a migration",
		[AW_FAULT_COLLAPSED] = "a collapse",
	};

	return kind >= 0 && kind < AW_FAULT_NR ? names[kind] : "a fault";
}

/* Swap-in or file re-read of a page that eviction took: a major fault. */
static uint32_t fault_refault(struct aw_kernel *k, struct aw_task *t, struct mm_struct *mm,
			      struct vm_area_struct *vma, uint64_t addr, pte_t old, int cpu, bool fault)
{
	bool anon = pte_swp(old);
	uint64_t slot = pte_swp_slot(old);
	struct aw_shadow shadow;
	uint32_t version = 0, pfn;
	struct folio *folio;

	if (anon) {
		shadow = aw_swap_shadow(&k->swap[slot]);
		version = k->swap[slot].version;
	} else {
		/* model: the file shadow packs workingset and the eviction token; the memcg is the mm's */
		shadow = (struct aw_shadow){ .workingset = (old >> 11) & 1,
					     .evict_seq = (uint32_t)((old >> PAGE_SHIFT) & 0xffffffffULL),
					     .nid = (uint8_t)((old >> 44) & 0xff), .refs = (uint8_t)((old >> 52) & 3),
					     .memcg = (uint16_t)mm->memcg };
	}
	pfn = new_folio(k, t, mm, vma, addr, 0, anon, cpu, &shadow, fault);
	if (pfn == AW_NIL)
		return AW_NIL;
	folio = pfn_folio(&k->mem, pfn);
	folio->version = version;
	if (version)
		folio_clear(folio, PG_zeroed);
	k->node_stats[folio->nid].refaults++;
	k->memcg[folio->memcg].stat.pgmajfault++;	/* count_memcg_event_mm(PGMAJFAULT) */
	if (anon)
		aw_swap_slot_put(k, slot);
	return pfn;
}

/*
 * mm/filemap.c: filemap_add_folio() for a page a read(2) or write(2)
 * through a descriptor finds missing from the page cache (the model's page
 * cache: a file VMA's PTE, `old` none or a shadow).  Charged to the
 * caller's memcg (mem_cgroup_charge()), workingset_refault() on a shadow,
 * then folio_add_lru() outside a fault: not active.  Returns the pfn or
 * AW_NIL; the caller maps it.
 */
uint32_t aw_filemap_add_folio(struct aw_kernel *k, struct aw_task *t, struct mm_struct *mm,
			      struct vm_area_struct *vma, uint64_t addr, pte_t old, int cpu)
{
	if (old & _PAGE_FILE_SHADOW)
		return fault_refault(k, t, mm, vma, addr, old, cpu, false);
	return new_folio(k, t, mm, vma, addr, 0, false, cpu, NULL, false);
}

/*
 * Copy-on-write of an anonymous page shared after fork, of a private file
 * page, or of the zero page (mm/memory.c: do_wp_page(), wp_page_copy()).
 * Returns 0 when the copy is mapped, -1 on failure, and AW_FAULT_RETRY
 * when reclaim during the new folio's charge unmapped the old one: as
 * wp_page_copy() finds !pte_same() under the PTL, the copy is dropped and
 * the access faults again, now on what reclaim left (a swap entry or a
 * file shadow: a major fault).
 */
#define AW_FAULT_RETRY	1
static int fault_cow(struct aw_kernel *k, struct aw_task *t, struct mm_struct *mm,
		     struct vm_area_struct *vma, uint64_t addr, pte_t *pte, int cpu)
{
	uint64_t old_pfn = pte_pfn(*pte);
	struct folio *old = is_zero_pfn(old_pfn) ? NULL : pfn_folio(&k->mem, old_pfn);
	uint32_t pfn;

	if (old && old->mapcount == 1 && folio_test(old, PG_anon)) {
		/* wp_can_reuse_anon_folio(): the last mapper takes it over */
		*pte |= _PAGE_RW;
		return 0;
	}
	pfn = fault_new_folio(k, t, mm, vma, addr, 0, true, cpu, NULL);
	if (pfn == AW_NIL)
		return -1;
	/*
	 * Reclaim during the charge may have unmapped the old folio (the
	 * kernel holds a reference on it, the model does not:
	 * docs/model-notes.md), leaving a swap entry or a file shadow.
	 * wp_page_copy() then drops the copy rather than map it over the
	 * entry; so does the model, and the caller faults again.
	 */
	if (!pte_present(*pte) || pte_pfn(*pte) != old_pfn) {
		aw_rmap_remove(&k->mem, pfn_folio(&k->mem, pfn), mm->id, addr);
		aw_folio_put(k, pfn);
		return AW_FAULT_RETRY;
	}
	if (old) {
		pfn_folio(&k->mem, pfn)->version = old->version;
		aw_rmap_remove(&k->mem, old, mm->id, addr);
		if (!old->mapcount)
			aw_folio_put(k, (uint32_t)old_pfn);
		aw_account_map(k, mm, vma, -1);
	} else if (!is_zero_pfn(old_pfn)) {
		aw_account_map(k, mm, vma, -1);	/* a PTE of memory the model does not track */
	}
	set_pte_at(k, mm, addr, pte, aw_mk_pte(pfn, _PAGE_PRESENT | _PAGE_USER | _PAGE_RW | _PAGE_ACCESSED));
	aw_account_map(k, mm, vma, 1);
	return 0;
}

/*
 * The hardware's part of an access through a present PTE that needs no
 * fault: the accessed bit, and for a write the dirty bit and new content.
 */
static void touch_pte(struct aw_kernel *k, pte_t *pte, bool write, uint32_t repeat)
{
	struct folio *folio;

	*pte |= _PAGE_ACCESSED;
	if (is_zero_pfn(pte_pfn(*pte)))
		return;
	folio = pfn_folio(&k->mem, pte_pfn(*pte));
	if (!folio)	/* a PTE of memory the model does not track */
		return;
	if (write) {
		*pte |= _PAGE_DIRTY;
		folio->version++;
		/* a dirty PTE also keeps a lazyfree folio from being discarded */
		folio_clear(folio, PG_zeroed);
	}
	aw_note_access(k, folio, repeat);
}

/*
 * One 4 KiB page of an access, faulting it in if needed.  *out: the PTE as
 * it is when this returns, if it marked the path young (so that
 * access_ptes() can carry on in the same table).
 */
static int access_pte(struct aw_kernel *k, struct aw_task *t, struct mm_struct *mm,
		      struct vm_area_struct *vma, uint64_t addr, bool write, uint32_t repeat, int cpu,
		      bool resident_only, pte_t **out)
{
	uint64_t *path[3];
	pte_t *pte = pte_walk(k, mm, addr, !resident_only, path);
	uint32_t pfn;

	*out = NULL;
	if (!pte)
		return resident_only ? 0 : -1;
	if (resident_only && (!pte_present(*pte) || (write && !pte_write(*pte))))
		return 0;	/* only what is mapped and needs no fault */
	if (!pte_present(*pte)) {
		pte_t old = *pte;

		int kind = AW_FAULT_MINOR;

		if (pte_swp(old) || (old & _PAGE_FILE_SHADOW)) {
			pfn = fault_refault(k, t, mm, vma, addr, old, cpu, true);
			/* the planted bug: a swap-in told as a first touch */
			if (!pte_swp(old) || !AW_BUG(k, AW_BUG_SWAPIN_REPORTED_MINOR))
				kind = AW_FAULT_MAJOR;
		} else if (!write && !vma->file) {
			/* do_anonymous_page(): reads of never-written memory map the zero page */
			set_pte_at(k, mm, addr, pte, aw_mk_pte(ZERO_PFN, _PAGE_PRESENT | _PAGE_USER | _PAGE_ACCESSED));
			mark_walk_young(path);
			*out = pte;
			aw_mm_event(k, mm, AW_FAULT_ZERO);
			return 0;
		} else {
			/* a write to a private file page lands in an anon copy (CoW) */
			pfn = fault_new_folio(k, t, mm, vma, addr, 0, !vma->file || write, cpu, NULL);
		}
		if (pfn == AW_NIL)
			return -1;
		aw_mm_event(k, mm, kind);
		if (!t->alive)
			return -1;
		pte = pte_walk(k, mm, addr, true, path);	/* the fault may have reclaimed */
		if (!pte)
			return -1;
		/* private file pages stay write-protected: a later write CoWs them */
		set_pte_at(k, mm, addr, pte,
			   aw_mk_pte(pfn, _PAGE_PRESENT | _PAGE_USER | _PAGE_ACCESSED |
				     ((vma->vm_flags & VM_WRITE) &&
				      folio_test(pfn_folio(&k->mem, pfn), PG_anon) ? _PAGE_RW : 0)));
		aw_account_map(k, mm, vma, 1);
	} else if (write && (!pte_write(*pte) || is_zero_pfn(pte_pfn(*pte)))) {
		int ret = fault_cow(k, t, mm, vma, addr, pte, cpu);

		if (ret == AW_FAULT_RETRY)	/* the access faults again on what reclaim left */
			return t->alive ? access_pte(k, t, mm, vma, addr, write, repeat, cpu, resident_only, out)
					: -1;
		if (ret)
			return -1;
		aw_mm_event(k, mm, AW_FAULT_COW);
		if (!t->alive)
			return -1;
		pte = pte_walk(k, mm, addr, true, path);	/* the fault may have reclaimed */
		if (!pte)
			return -1;
	}
	mark_walk_young(path);
	*out = pte;
	touch_pte(k, pte, write, repeat);
	return 0;
}

/* A write through a PMD mapping: every subpage written gets a new version. */
static void thp_write(struct folio *folio, uint64_t haddr, uint64_t addr, uint64_t end, uint64_t stride)
{
	for (uint64_t a = addr; a < end; a += stride)
		(*folio_page_version(folio, (unsigned int)((a - haddr) >> PAGE_SHIFT)))++;
	folio_clear(folio, PG_zeroed);
}

/*
 * One PMD-sized range of an access under THP: a huge fault on pmd_none, the
 * huge zero page for a read, or the PMD leaf's accessed/dirty bits.
 * Returns 1 if handled at PMD level, 0 to fall back to PTEs, -1 on failure.
 */
static int access_pmd(struct aw_kernel *k, struct aw_task *t, struct mm_struct *mm,
		      struct vm_area_struct *vma, uint64_t addr, uint64_t end, uint64_t stride,
		      bool write, uint32_t repeat, int cpu, bool resident_only)
{
	uint64_t haddr = addr & PMD_MASK;
	pmd_t *pmd = aw_pmd_lookup(k, mm, haddr, !resident_only, NULL);
	struct folio *folio;
	uint32_t pfn, mm_id;

	if (!pmd)
		return resident_only ? 1 : -1;	/* nothing mapped under this PMD */
	if (resident_only) {
		if (!pmd_trans_huge(*pmd))
			return pmd_present(*pmd) ? 0 : 1;
		if (write && !(*pmd & _PAGE_RW))
			return 1;
	}
	if (pmd_trans_huge(*pmd)) {
		if (is_huge_zero_pmd(*pmd) && write) {
			*pmd = 0;	/* do_huge_zero_wp_pmd(): replaced by a fresh THP below */
		} else if (write && !(*pmd & _PAGE_RW) &&
			   pfn_folio(&k->mem, pmd_pfn(*pmd))->mapcount > 1) {
			/* do_huge_pmd_wp_page(): shared after fork: split, then CoW the one page */
			aw_split_huge_pmd(k, mm, haddr);
			return 0;
		} else {
			if (write)
				*pmd |= _PAGE_RW;	/* exclusive again: reuse */
			*pmd |= _PAGE_ACCESSED | (write ? _PAGE_DIRTY : 0);
			mark_path_young(k, mm, haddr);
			if (is_huge_zero_pmd(*pmd))
				return 1;
			folio = pfn_folio(&k->mem, pmd_pfn(*pmd));
			if (write)
				thp_write(folio, haddr, addr, end, stride);
			aw_note_access(k, folio, repeat);
			return 1;
		}
	}
	if (!pmd_none(*pmd) || !aw_vma_thp_allowed(k, mm, vma, haddr))
		return 0;
	/* do_huge_pmd_anonymous_page(): vmf_anon_prepare(), then khugepaged_enter_vma() */
	vma->anon_vma = true;
	khugepaged_enter_vma(k, mm, vma, vma->vm_flags);
	if (!write) {
		/* do_huge_pmd_anonymous_page(): read fault maps the huge zero page */
		set_pmd_at(k, mm, haddr, pmd,
			   aw_mk_pte(HUGE_ZERO_PFN, _PAGE_PRESENT | _PAGE_PSE | _PAGE_USER | _PAGE_ACCESSED));
		mark_path_young(k, mm, haddr);
		aw_mm_event(k, mm, AW_FAULT_ZERO);
		return 1;
	}
	mm_id = mm->id;
	pfn = fault_new_folio(k, t, mm, vma, haddr, HPAGE_PMD_ORDER, true, cpu, NULL);
	if (pfn == AW_NIL)
		return t->alive && aw_mm(k, mm_id) ? 0 : -1;	/* fall back to small pages */
	pmd = aw_pmd_lookup(k, mm, haddr, true, NULL);
	if (!pmd || !pmd_none(*pmd))
		return -1;
	set_pmd_at(k, mm, haddr, pmd, aw_mk_pte(pfn, _PAGE_PRESENT | _PAGE_PSE | _PAGE_USER | _PAGE_RW |
						 _PAGE_ACCESSED | _PAGE_DIRTY));
	mark_path_young(k, mm, haddr);
	aw_account_map(k, mm, vma, HPAGE_PMD_NR);
	aw_mm_event(k, mm, AW_FAULT_HUGE);
	folio = pfn_folio(&k->mem, pfn);
	thp_write(folio, haddr, addr, end, stride);
	aw_note_access(k, folio, repeat);
	return 1;
}

static bool vma_access_ok(const struct vm_area_struct *vma, bool write)
{
	if (write)
		return vma->vm_flags & VM_WRITE;
	return vma->vm_flags & (VM_READ | VM_WRITE | VM_EXEC);
}

/*
 * The PTEs of one PMD range.  Most accesses hit a present PTE that needs no
 * fault: the hardware sets its accessed (and dirty) bit and, on the way,
 * the accessed bits of the PGD, PUD and PMD entries above it.  Only a fault
 * can change the tables or clear those bits (its allocation may reclaim,
 * and reclaim may age, split a THP or unmap), so after the slow path the
 * PTE table found next stays valid, and the path it marked stays young,
 * until the next fault: the pages in between take the fast path with the
 * same effect as access_pte().
 */
static int access_ptes(struct aw_kernel *k, struct aw_task *t, struct mm_struct *mm, uint64_t addr,
		       uint64_t end, uint64_t stride, bool write, uint32_t repeat, int cpu,
		       bool resident_only)
{
	struct aw_ptable *pt = NULL;	/* the PTE table, while no fault intervened */
	bool path_young = false;	/* the fast path marked the path since */

	for (uint64_t a = addr; a < end && t->alive; a += stride) {
		struct vm_area_struct *vma;
		pte_t *pte = pt ? &pt->e[pte_index(a)] : NULL;

		if (pte && pte_present(*pte) &&
		    (!write || (pte_write(*pte) && !is_zero_pfn(pte_pfn(*pte))))) {
			if (!path_young) {
				mark_path_young(k, mm, a);
				path_young = true;
			}
			touch_pte(k, pte, write, repeat);
			continue;
		}
		vma = find_vma(mm, a);	/* reclaim never moves VMAs, but be safe */
		if (!vma || a < vma->vm_start)
			break;
		if (access_pte(k, t, mm, vma, a, write, repeat, cpu, resident_only, &pte) < 0)
			return -1;
		pt = pte ? aw_pte_table(pte, a) : NULL;
		path_young = pte != NULL;
	}
	return 0;
}

/*
 * An access of [start, start+len) every `stride` bytes.  Addresses outside
 * any VMA or against its protection would be a SIGSEGV: they are skipped and
 * counted, so a mutated fuzz input never stops the run.
 */
int aw_access(struct aw_kernel *k, struct aw_task *t, uint64_t start, uint64_t len,
	      uint64_t stride, uint32_t repeat, unsigned int flags, int cpu)
{
	bool write = flags & AW_ACC_WRITE, resident_only = flags & AW_ACC_RESIDENT;
	struct mm_struct *mm = aw_mm(k, t->mm);
	uint64_t end = start + len, addr = start;

	if (!mm)
		return -1;
	if (stride < PAGE_SIZE)
		stride = PAGE_SIZE;
	if (repeat == 0)
		repeat = 1;
	k->mglru->lru_gen_use_mm(k, mm);	/* the process ran to make the access */

	while (addr < end && t->alive) {
		struct vm_area_struct *vma = find_vma(mm, addr);
		uint64_t vend, pmd_end;
		int ret;

		if (!vma)
			break;
		if (addr < vma->vm_start) {
			k->ignored_events++;
			addr += (vma->vm_start - addr + stride - 1) / stride * stride;
			continue;
		}
		vend = vma->vm_end < end ? vma->vm_end : end;
		if (!vma_access_ok(vma, write)) {
			addr += (vend - addr + stride - 1) / stride * stride;
			continue;
		}
		pmd_end = ((addr & PMD_MASK) + PMD_SIZE) < vend ? (addr & PMD_MASK) + PMD_SIZE : vend;
		ret = access_pmd(k, t, mm, vma, addr, pmd_end, stride, write, repeat, cpu, resident_only);
		if (ret < 0)
			return t->alive ? -1 : 0;
		if (ret == 0 && access_ptes(k, t, mm, addr, pmd_end, stride, write, repeat, cpu,
					    resident_only) < 0)
			return t->alive ? -1 : 0;
		addr += (pmd_end - addr + stride - 1) / stride * stride;
		mm = aw_mm(k, t->mm);
		if (!mm)
			break;
	}
	return 0;
}

uint64_t aw_pmd_entry_kva(struct aw_kernel *k, struct mm_struct *mm, uint64_t addr)
{
	pud_t *pud = aw_pud_lookup(k, mm, addr, false);

	if (!pud || !pud_present(*pud))
		return 0;
	return aw_table_entry_kva(aw_entry_table(*pud), (unsigned int)pmd_index(addr));
}
