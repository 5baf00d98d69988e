// SPDX-License-Identifier: GPL-2.0-only
/*
 * Address-space operations: mm lifetime, mmap/munmap/mremap/mprotect/brk,
 * madvise, migration and fork (mm/mmap.c, mm/vma.c, mm/memory.c:
 * zap_pte_range/free_pgtables/copy_page_range, mm/mremap.c:
 * move_page_tables, mm/madvise.c, mm/migrate.c).
 */
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "pagewalk.h"

#define AW_MM_SLAB_BASE		0xffff888200000000ULL	/* synthetic mm_struct slab */
#define AW_MM_OBJ_SIZE		0x500ULL		/* sizeof(struct mm_struct), rounded */

static uint64_t mm_kaddr_alloc(struct aw_kernel *k)
{
	/* slab objects are reused last-freed-first, like a per-CPU freelist */
	if (k->nr_free_kaddr)
		return k->free_mm_kaddr[--k->nr_free_kaddr];
	k->next_mm_kaddr += AW_MM_OBJ_SIZE;
	return AW_MM_SLAB_BASE + k->next_mm_kaddr - AW_MM_OBJ_SIZE;
}

static void mm_kaddr_free(struct aw_kernel *k, uint64_t kaddr)
{
	if (k->nr_free_kaddr == k->cap_free_kaddr) {
		uint32_t cap = k->cap_free_kaddr ? k->cap_free_kaddr * 2 : 16;
		uint64_t *a = realloc(k->free_mm_kaddr, cap * sizeof(*a));

		if (!a)
			return;
		k->free_mm_kaddr = a;
		k->cap_free_kaddr = cap;
	}
	k->free_mm_kaddr[k->nr_free_kaddr++] = kaddr;
}

struct mm_struct *aw_mm_alloc(struct aw_kernel *k, int memcg)
{
	struct mm_struct *mm;

	if (k->nr_mms == k->cap_mms) {
		uint32_t cap = k->cap_mms ? k->cap_mms * 2 : 16;
		struct mm_struct **a = realloc(k->mms, cap * sizeof(*a));

		if (!a)
			return NULL;
		memset(a + k->cap_mms, 0, (cap - k->cap_mms) * sizeof(*a));
		k->mms = a;
		k->cap_mms = cap;
	}
	mm = calloc(1, sizeof(*mm));
	if (!mm)
		return NULL;
	mm->pgd = aw_table_alloc(&k->pt);
	if (!mm->pgd) {
		free(mm);
		return NULL;
	}
	mm->id = k->nr_mms ? k->nr_mms : 1;
	if (!k->nr_mms)
		k->nr_mms = 1;
	k->nr_mms = mm->id + 1;
	k->mms[mm->id] = mm;
	mm->kaddr = mm_kaddr_alloc(k);
	mm->users = 1;
	mm->memcg = memcg;
	mm->mmap_base = k->cfg.mmap_base;
	mm->lru_gen.memcg = -1;
	INIT_LIST_HEAD(&mm->lru_gen.list);
	return mm;
}

/* Is any VMA left in [start, end)? */
static bool range_has_vma(struct mm_struct *mm, uint64_t start, uint64_t end)
{
	return !aw_range_free(mm, start, end);
}

/* find_vma(mm, addr), through *last: the VMA found for the previous page */
static struct vm_area_struct *find_vma_cached(struct mm_struct *mm, uint64_t addr,
					      struct vm_area_struct **last)
{
	struct vm_area_struct *vma = *last;

	/* VMAs are sorted and disjoint: one holding addr is what find_vma() returns */
	if (vma && addr >= vma->vm_start && addr < vma->vm_end)
		return vma;
	return *last = find_vma(mm, addr);
}

static void zap_pte(struct aw_kernel *k, struct mm_struct *mm, pte_t *pte, uint64_t addr,
		    struct vm_area_struct **last_vma)
{
	pte_t v = *pte;

	*pte = 0;
	if (pte_present(v)) {
		struct folio *folio;

		if (is_zero_pfn(pte_pfn(v)))
			return;
		folio = pfn_folio(&k->mem, pte_pfn(v));
		mm->rss--;
		{
			struct vm_area_struct *vma = find_vma_cached(mm, addr, last_vma);
			struct aw_region *r = vma && addr >= vma->vm_start ? aw_region_of(k, vma) : NULL;

			if (r)
				r->resident--;
		}
		if (folio && aw_rmap_remove(&k->mem, folio, mm->id, addr) && !folio->mapcount)
			aw_folio_put(k, (uint32_t)pte_pfn(v));
	} else if (pte_swp(v)) {
		aw_swap_slot_put(k, pte_swp_slot(v));
	}
}

static void zap_pmd_leaf(struct aw_kernel *k, struct mm_struct *mm, pmd_t *pmd, uint64_t haddr)
{
	pmd_t v = *pmd;
	struct folio *folio;

	*pmd = 0;
	if (is_huge_zero_pmd(v))
		return;
	folio = pfn_folio(&k->mem, pmd_pfn(v));
	mm->rss -= HPAGE_PMD_NR;
	{
		struct vm_area_struct *vma = find_vma(mm, haddr);
		struct aw_region *r = vma && haddr >= vma->vm_start ? aw_region_of(k, vma) : NULL;

		if (r)
			r->resident -= HPAGE_PMD_NR;
	}
	if (folio && aw_rmap_remove(&k->mem, folio, mm->id, haddr) && !folio->mapcount)
		aw_folio_put(k, (uint32_t)pmd_pfn(v));
}

/*
 * mm/memory.c: zap_pmd_range() / zap_pte_range() as a walk's callbacks
 * (walk->private: the VMA the last PTE was in).  A THP the range covers
 * whole goes as a leaf; one it covers in part is split by the walk
 * (__split_huge_pmd) and zapped page by page.
 */
static int zap_pmd(pmd_t *pmd, uint64_t addr, uint64_t next, struct mm_walk *walk)
{
	if (!pmd_trans_huge(*pmd) || addr != (addr & PMD_MASK) || next - addr != PMD_SIZE)
		return 0;
	zap_pmd_leaf(walk->k, walk->mm, pmd, addr);
	walk->action = ACTION_CONTINUE;
	return 0;
}

static int zap_pte_entry(pte_t *pte, uint64_t addr, uint64_t next, struct mm_walk *walk)
{
	/*
	 * The next PTE's folio, fetched while this one is zapped: an exit
	 * zaps folios scattered over memory, a cache miss each.  A hint only.
	 */
	if (pte_index(addr) < PTRS_PER_PTE - 1 && pte_present(pte[1]) && !is_zero_pfn(pte_pfn(pte[1]))) {
		struct folio *f = pfn_folio(&walk->k->mem, pte_pfn(pte[1]));

		if (f)
			__builtin_prefetch(f, 1);
	}
	zap_pte(walk->k, walk->mm, pte, addr, walk->private);
	return 0;
}

static const struct mm_walk_ops zap_walk_ops = {
	.pmd_entry = zap_pmd,
	.pte_entry = zap_pte_entry,
	.skip_pte_none = true,
};

/* mm/memory.c: zap_page_range_single(): unmap [start, end), keep the tables */
void aw_zap_range(struct aw_kernel *k, struct mm_struct *mm, uint64_t start, uint64_t end)
{
	struct vm_area_struct *last_vma = NULL;	/* zapping moves no VMA */

	walk_page_range(k, mm, start, end, &zap_walk_ops, &last_vma);
}

/*
 * mm/memory.c: free_pgtables() bounded by floor/ceiling: a table is freed
 * only when no remaining VMA shares the range it maps.  Each table it
 * looks into may have an entry cleared: marked written (pgtable.h).
 */
static void free_pgtables(struct aw_kernel *k, struct mm_struct *mm, uint64_t start, uint64_t end)
{
	struct aw_ptable *pgd = aw_table(&k->pt, mm->pgd);

	aw_table_written(&k->pt, mm->pgd);

	for (uint64_t ga = start & ~(PGDIR_SIZE - 1); ga < end; ga += PGDIR_SIZE) {
		uint64_t *pgde = &pgd->e[pgd_index(ga)];
		struct aw_ptable *pud;

		if (!(*pgde & _PAGE_PRESENT))
			continue;
		pud = aw_table(&k->pt, aw_entry_table(*pgde));
		aw_table_written(&k->pt, aw_entry_table(*pgde));
		for (uint64_t ua = ga > (start & PUD_MASK) ? ga : (start & PUD_MASK);
		     ua < end && ua < ga + PGDIR_SIZE; ua += PUD_SIZE) {
			uint64_t *pude = &pud->e[pud_index(ua)];
			struct aw_ptable *pmdt;

			if (!(*pude & _PAGE_PRESENT))
				continue;
			pmdt = aw_table(&k->pt, aw_entry_table(*pude));
			aw_table_written(&k->pt, aw_entry_table(*pude));
			for (uint64_t ma = ua > (start & PMD_MASK) ? ua : (start & PMD_MASK);
			     ma < end && ma < ua + PUD_SIZE; ma += PMD_SIZE) {
				uint64_t *pmde = &pmdt->e[pmd_index(ma)];

				if (pmd_present(*pmde) && !pmd_trans_huge(*pmde) &&
				    !range_has_vma(mm, ma, ma + PMD_SIZE)) {
					aw_pgtable_free(k, aw_entry_table(*pmde));
					*pmde = 0;
				}
			}
			if (!range_has_vma(mm, ua, ua + PUD_SIZE)) {
				aw_pgtable_free(k, aw_entry_table(*pude));
				*pude = 0;
			}
		}
		if (!range_has_vma(mm, ga, ga + PGDIR_SIZE)) {
			aw_pgtable_free(k, aw_entry_table(*pgde));
			*pgde = 0;
		}
	}
}

/*
 * free_pgtables(k, mm, 0, TASK_SIZE) of an mm without VMAs (exit_mmap()):
 * every table goes, in the same order (PTE tables of a PMD table in
 * address order, then that PMD table, ..., then the PUD table), so the
 * allocator's free list and the next tables' addresses are the same.  It
 * only skips the per-slot floor/ceiling arithmetic and VMA lookups.  The
 * tables whose entries it clears are marked written, as there.
 */
static void free_pgtables_all(struct aw_kernel *k, struct mm_struct *mm)
{
	struct aw_ptable *pgd = aw_table(&k->pt, mm->pgd);
	const unsigned int nr_pgd = TASK_SIZE / PGDIR_SIZE;

	aw_table_written(&k->pt, mm->pgd);

	for (unsigned int gi = aw_pt_next_nonzero(pgd->e, 0, nr_pgd); gi < nr_pgd;
	     gi = aw_pt_next_nonzero(pgd->e, gi + 1, nr_pgd)) {
		uint64_t *pgde = &pgd->e[gi];
		struct aw_ptable *pud;

		if (!(*pgde & _PAGE_PRESENT))
			continue;
		pud = aw_table(&k->pt, aw_entry_table(*pgde));
		aw_table_written(&k->pt, aw_entry_table(*pgde));
		for (unsigned int ui = aw_pt_next_nonzero(pud->e, 0, PTRS_PER_PUD); ui < PTRS_PER_PUD;
		     ui = aw_pt_next_nonzero(pud->e, ui + 1, PTRS_PER_PUD)) {
			uint64_t *pude = &pud->e[ui];
			struct aw_ptable *pmdt;

			if (!(*pude & _PAGE_PRESENT))
				continue;
			pmdt = aw_table(&k->pt, aw_entry_table(*pude));
			aw_table_written(&k->pt, aw_entry_table(*pude));
			for (unsigned int mi = aw_pt_next_nonzero(pmdt->e, 0, PTRS_PER_PMD); mi < PTRS_PER_PMD;
			     mi = aw_pt_next_nonzero(pmdt->e, mi + 1, PTRS_PER_PMD)) {
				uint64_t *pmde = &pmdt->e[mi];

				if (pmd_present(*pmde) && !pmd_trans_huge(*pmde)) {
					aw_pgtable_free(k, aw_entry_table(*pmde));
					*pmde = 0;
				}
			}
			aw_pgtable_free(k, aw_entry_table(*pude));
			*pude = 0;
		}
		aw_pgtable_free(k, aw_entry_table(*pgde));
		*pgde = 0;
	}
}

/* Split VMAs so that start and end are VMA boundaries (THP mappings too). */
static int split_at(struct aw_kernel *k, struct mm_struct *mm, uint64_t addr)
{
	pmd_t *pmd = aw_pmd_lookup(k, mm, addr, false, NULL);

	if ((addr & ~PMD_MASK) && pmd && pmd_trans_huge(*pmd))
		aw_split_huge_pmd(k, mm, addr & PMD_MASK);
	return aw_vma_split(mm, addr);
}

/* mm/vma.c: do_vmi_munmap() */
int aw_do_munmap(struct aw_kernel *k, struct mm_struct *mm, uint64_t start, uint64_t len)
{
	uint64_t end = start + len;
	int i;

	if (split_at(k, mm, start) || split_at(k, mm, end))
		return -1;
	aw_zap_range(k, mm, start, end);
	for (i = aw_vma_index(mm, start); i < mm->nr_vmas && mm->vmas[i].vm_start < end;)
		aw_vma_remove_at(mm, i);
	free_pgtables(k, mm, start, end);
	return 0;
}

static uint64_t vm_flags_from(unsigned int flags, unsigned int prot)
{
	uint64_t vm = 0;

	if (prot & AW_PROT_READ)
		vm |= VM_READ;
	if (prot & AW_PROT_WRITE)
		vm |= VM_WRITE;
	if (prot & AW_PROT_EXEC)
		vm |= VM_EXEC;
	if (flags & AW_MAP_LOCKED)
		vm |= VM_LOCKED;
	if (flags & AW_MAP_SEQ_READ)
		vm |= VM_SEQ_READ;
	if (flags & AW_MAP_RAND_READ)
		vm |= VM_RAND_READ;
	if (flags & AW_MAP_DROPPABLE)
		vm |= VM_DROPPABLE;
	if (flags & AW_MAP_HUGEPAGE)
		vm |= VM_HUGEPAGE;
	if (flags & AW_MAP_NOHUGEPAGE)
		vm |= VM_NOHUGEPAGE;
	if (flags & AW_MAP_NORESERVE)
		vm |= VM_NORESERVE;
	return vm;
}

/*
 * mm/mmap.c: __get_unmapped_area().  6.12 and mainline ask
 * thp_get_unmapped_area() for an anonymous mapping whose length is a
 * multiple of PMD_SIZE, so it is PMD aligned (since 6.7, "mm: align larger
 * anonymous mappings on THP boundaries"); 6.1 places every mapping at page
 * granularity, so a 2 MiB-multiple region below an odd-sized one starts
 * mid-PMD and its first and last extents cannot be THPs.
 */
static uint64_t unmapped_area_align(const struct aw_kernel *k, bool file, uint64_t len)
{
	if (file || (len & (PMD_SIZE - 1)) || !k->prof->thp_aligned_anon_mmap)
		return PAGE_SIZE;
	return PMD_SIZE;
}

/*
 * mm/mmap.c: do_mmap().  Top-down placement below mmap_base, aligned as
 * unmapped_area_align() says; MAP_FIXED replaces what was there.
 */
int aw_do_mmap(struct aw_kernel *k, struct mm_struct *mm, uint64_t addr, uint64_t len,
	       unsigned int flags, unsigned int prot, int region, int kind, uint64_t *out)
{
	struct vm_area_struct vma = { 0 };

	len = (len + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	if (!len || len > TASK_SIZE)
		return -1;
	if (addr) {
		if ((addr & (PAGE_SIZE - 1)) || addr + len > TASK_SIZE || addr + len < addr)
			return -1;
		if (!aw_range_free(mm, addr, addr + len) && aw_do_munmap(k, mm, addr, len))
			return -1;
	} else {
		addr = aw_get_unmapped_area(mm, len, unmapped_area_align(k, flags & AW_MAP_FILE, len));
		if (!addr)
			return -1;
	}
	vma.vm_start = addr;
	vma.vm_end = addr + len;
	vma.vm_flags = vm_flags_from(flags, prot);
	vma.file = flags & AW_MAP_FILE;
	vma.region = (uint16_t)region;
	vma.kind = (uint8_t)kind;
	struct vm_area_struct *v = aw_vma_insert(mm, &vma);

	if (!v)
		return -1;
	/* __mmap_region(): a new VMA has no anon_vma yet, so this registers
	 * nothing unless a merge gave it one (the model does not merge) */
	khugepaged_enter_vma(k, mm, v, v->vm_flags);
	if (out)
		*out = addr;
	return 0;
}

/* mm/mmap.c: exit_mmap() + mmdrop(): the last user is gone */
static void mm_teardown(struct aw_kernel *k, struct mm_struct *mm)
{
	/*
	 * mmput() → __mmput(): exit_mmap() then lru_gen_del_mm().  The walker
	 * cannot take the mm in between because mm_users is already 0.
	 */
	mm->exiting = true;
	khugepaged_exit(k, mm);	/* __mmput(), before exit_mmap() */
	/* exit_mmap() → unmap_vmas(): zap each VMA's range, not the whole space */
	for (int i = 0; i < mm->nr_vmas; i++)
		aw_zap_range(k, mm, mm->vmas[i].vm_start, mm->vmas[i].vm_end);
	mm->nr_vmas = 0;
	free_pgtables_all(k, mm);	/* free_pgtables(k, mm, 0, TASK_SIZE) */
	k->mglru->lru_gen_del_mm(k, mm);
	aw_pgtable_free(k, mm->pgd);
	for (int r = 0; r < k->nr_regions; r++) {
		if (k->regions[r].mm == mm->id)
			k->regions[r].mm = 0;
	}
	mm_kaddr_free(k, mm->kaddr);
	k->mms[mm->id] = NULL;
	free(mm->vmas);
	free(mm);
}

void aw_mm_put(struct aw_kernel *k, struct mm_struct *mm)
{
	if (--mm->users <= 0)
		mm_teardown(k, mm);
}

/*
 * mm/mprotect.c: change_pmd_range() / change_pte_range() for a write
 * protect: a THP leaf is write-protected whole, never split.
 */
static int wrprotect_pmd(pmd_t *pmd, uint64_t addr, uint64_t next, struct mm_walk *walk)
{
	if (pmd_trans_huge(*pmd)) {
		*pmd &= ~_PAGE_RW;
		walk->action = ACTION_CONTINUE;
	}
	return 0;
}

static int wrprotect_pte(pte_t *pte, uint64_t addr, uint64_t next, struct mm_walk *walk)
{
	if (pte_present(*pte))
		*pte &= ~_PAGE_RW;
	return 0;
}

static const struct mm_walk_ops wrprotect_walk_ops = {
	.pmd_entry = wrprotect_pmd,
	.pte_entry = wrprotect_pte,
	.skip_pte_none = true,
};

/* mm/mprotect.c: mprotect_fixup() + change_protection() (write-protect only) */
static int do_mprotect(struct aw_kernel *k, struct mm_struct *mm, uint64_t start, uint64_t end,
		       unsigned int prot)
{
	uint64_t vm = vm_flags_from(0, prot);

	if (split_at(k, mm, start) || split_at(k, mm, end))
		return -1;
	for (int i = aw_vma_index(mm, start); i < mm->nr_vmas && mm->vmas[i].vm_start < end; i++) {
		struct vm_area_struct *vma = &mm->vmas[i];

		vma->vm_flags = (vma->vm_flags & ~(VM_READ | VM_WRITE | VM_EXEC)) | vm;
		if (!(vm & VM_WRITE))
			walk_page_range(k, mm, vma->vm_start, vma->vm_end, &wrprotect_walk_ops, NULL);
	}
	return 0;
}

/*
 * mm/mremap.c: move_vma() → move_page_tables().  Whole PMD tables move when
 * source and destination are PMD aligned (move_normal_pmd), THP leaves move
 * as leaves (move_huge_pmd), the rest PTE by PTE.  Keys of the PMD filter
 * (&pmd[i]) change; the folios and the PTE table pages stay.
 */
static void move_one_pte(struct aw_kernel *k, struct mm_struct *mm, uint64_t from, uint64_t to)
{
	pte_t *src = aw_pte_lookup(k, mm, from, false, NULL), *dst, v;

	if (!src || !*src)
		return;
	v = *src;
	*src = 0;
	dst = aw_pte_lookup(k, mm, to, true, NULL);
	if (!dst)
		return;
	*dst = v;
	if (pte_present(v) && !is_zero_pfn(pte_pfn(v))) {
		struct folio *f = pfn_folio(&k->mem, pte_pfn(v));

		if (f)
			aw_rmap_move(&k->mem, f, mm->id, from, mm->id, to);
	}
}

static void move_pmd_entry(struct aw_kernel *k, struct mm_struct *mm, uint64_t from, uint64_t to)
{
	pmd_t *src = aw_pmd_lookup(k, mm, from, false, NULL), *dst, v;

	if (!src || !*src)
		return;
	v = *src;
	*src = 0;
	dst = aw_pmd_lookup(k, mm, to, true, NULL);
	if (!dst)
		return;
	if (*dst && !pmd_trans_huge(*dst))
		aw_pgtable_free(k, aw_entry_table(*dst));	/* empty table at the destination */
	*dst = v;
	if (pmd_trans_huge(v) && !is_huge_zero_pmd(v)) {
		aw_rmap_move(&k->mem, pfn_folio(&k->mem, pmd_pfn(v)), mm->id, from, mm->id, to);
		return;
	}
	if (pmd_trans_huge(v))
		return;
	for (int i = 0; i < PTRS_PER_PTE; i++) {
		pte_t p = aw_table(&k->pt, aw_entry_table(v))->e[i];

		if (pte_present(p) && !is_zero_pfn(pte_pfn(p)))
			aw_rmap_move(&k->mem, pfn_folio(&k->mem, pte_pfn(p)), mm->id,
				     from + (uint64_t)i * PAGE_SIZE, mm->id, to + (uint64_t)i * PAGE_SIZE);
	}
}

static int do_mremap(struct aw_kernel *k, struct mm_struct *mm, uint64_t old, uint64_t old_len,
		     uint64_t new_len, uint64_t new_addr, uint64_t *out)
{
	struct vm_area_struct *vma = find_vma(mm, old), copy;
	uint64_t len;

	new_len = (new_len + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	if (!vma || old < vma->vm_start || old + old_len > vma->vm_end || !new_len)
		return -1;
	if (!new_addr && new_len <= old_len) {
		if (new_len < old_len)
			aw_do_munmap(k, mm, old + new_len, old_len - new_len);
		*out = old;
		return 0;
	}
	if (!new_addr && aw_range_free(mm, old + old_len, old + new_len)) {
		/* expand in place */
		if (split_at(k, mm, old))
			return -1;
		vma = find_vma(mm, old);
		vma->vm_end = old + new_len;
		*out = old;
		return 0;
	}
	if (split_at(k, mm, old) || split_at(k, mm, old + old_len))
		return -1;
	copy = *find_vma(mm, old);
	if (!new_addr) {
		new_addr = aw_get_unmapped_area(mm, new_len, unmapped_area_align(k, copy.file, new_len));
		if (!new_addr)
			return -1;
	} else if (!aw_range_free(mm, new_addr, new_addr + new_len)) {
		aw_do_munmap(k, mm, new_addr, new_len);
	}
	/*
	 * move_vma(): the new VMA exists (copy_vma) before move_page_tables()
	 * and the old range is unmapped only afterwards, so the new VMA bounds
	 * free_pgtables() and tables shared with the destination survive.
	 */
	copy.vm_start = new_addr;
	copy.vm_end = new_addr + new_len;
	if (!aw_vma_insert(mm, &copy))
		return -1;
	len = old_len < new_len ? old_len : new_len;
	for (uint64_t off = 0; off < len;) {
		uint64_t from = old + off, to = new_addr + off;

		if (!(from & ~PMD_MASK) && !(to & ~PMD_MASK) && len - off >= PMD_SIZE) {
			move_pmd_entry(k, mm, from, to);
			off += PMD_SIZE;
		} else {
			pmd_t *pmd = aw_pmd_lookup(k, mm, from, false, NULL);

			if (pmd && pmd_trans_huge(*pmd))
				aw_split_huge_pmd(k, mm, from & PMD_MASK);
			move_one_pte(k, mm, from, to);
			off += PAGE_SIZE;
		}
	}
	trace_aw_mm_mremap(k, mm, old, new_addr, len);
	/* what was not moved (a shrinking move) is unmapped; then the old VMA goes */
	aw_zap_range(k, mm, old, old + old_len);
	for (int i = aw_vma_index(mm, old); i < mm->nr_vmas && mm->vmas[i].vm_start < old + old_len;)
		aw_vma_remove_at(mm, i);
	free_pgtables(k, mm, old, old + old_len);
	*out = new_addr;
	return 0;
}

/* mm/mmap.c: brk(): the heap VMA grows or shrinks at its end */
static int do_brk(struct aw_kernel *k, struct mm_struct *mm, uint64_t len, bool shrink)
{
	struct vm_area_struct *heap;

	len = (len + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	if (!mm->brk_start)
		return -1;
	if (shrink) {
		if (len > mm->brk - mm->brk_start)
			len = mm->brk - mm->brk_start;
		if (len && aw_do_munmap(k, mm, mm->brk - len, len))
			return -1;
		mm->brk -= len;
		return 0;
	}
	if (!aw_range_free(mm, mm->brk, mm->brk + len))
		return -1;
	heap = mm->brk > mm->brk_start ? find_vma(mm, mm->brk - 1) : NULL;
	if (heap && heap->vm_end == mm->brk && heap->kind == AW_VMA_HEAP) {
		heap->vm_end += len;
		khugepaged_enter_vma(k, mm, heap, heap->vm_flags);	/* do_brk_flags() */
	} else if (aw_do_mmap(k, mm, mm->brk, len, 0, AW_PROT_DEFAULT, 0, AW_VMA_HEAP, NULL)) {
		return -1;
	}
	mm->brk += len;
	return 0;
}

/* Set or clear VM flags on [start, end), splitting VMAs (madvise_update_vma). */
static int update_vma_flags(struct aw_kernel *k, struct mm_struct *mm, uint64_t start, uint64_t end,
			    uint64_t set, uint64_t clear)
{
	if (split_at(k, mm, start) || split_at(k, mm, end))
		return -1;
	for (int i = aw_vma_index(mm, start); i < mm->nr_vmas && mm->vmas[i].vm_start < end; i++)
		mm->vmas[i].vm_flags = (mm->vmas[i].vm_flags & ~clear) | set;
	return 0;
}

int aw_apply_mm_event(struct aw_kernel *k, const struct aw_event *ev, struct aw_task *t,
		      uint64_t start, uint64_t len)
{
	struct mm_struct *mm = aw_mm(k, t->mm);
	uint64_t out;
	int ret = -1;

	if (!mm)
		return -1;
	switch (ev->kind) {
	case AW_EV_MUNMAP:
		ret = aw_do_munmap(k, mm, start, len);
		break;
	case AW_EV_MPROTECT:
		ret = do_mprotect(k, mm, start, start + len, ev->arg);
		break;
	case AW_EV_BRK:
		ret = do_brk(k, mm, ev->len, ev->flags & AW_BRK_SHRINK);
		break;
	case AW_EV_MREMAP:
		ret = do_mremap(k, mm, start, len, ev->stride, ev->addr2, &out);
		if (!ret && ev->region && ev->region <= k->nr_regions) {
			k->regions[ev->region - 1].start = out;
			k->regions[ev->region - 1].len = ev->stride;
		}
		break;
	case AW_EV_MBIND:
		if (split_at(k, mm, start) || split_at(k, mm, start + len))
			break;
		for (int i = aw_vma_index(mm, start); i < mm->nr_vmas && mm->vmas[i].vm_start < start + len; i++) {
			mm->vmas[i].mpol = (uint8_t)ev->arg;
			mm->vmas[i].mpol_node = (uint8_t)ev->node;
		}
		ret = 0;
		break;
	default:
		break;
	}
	return ret;
}

/* madvise(MADV_HUGEPAGE / MADV_NOHUGEPAGE): VM flags only */
int aw_madvise_flags(struct aw_kernel *k, struct mm_struct *mm, uint64_t start, uint64_t end, int advice)
{
	if (advice != AW_MADV_HUGEPAGE)
		return update_vma_flags(k, mm, start, end, VM_NOHUGEPAGE, VM_HUGEPAGE);
	if (update_vma_flags(k, mm, start, end, VM_HUGEPAGE, VM_NOHUGEPAGE))
		return -1;
	/* hugepage_madvise(): khugepaged_enter_vma() with the new flags */
	for (int i = aw_vma_index(mm, start); i < mm->nr_vmas && mm->vmas[i].vm_start < end; i++)
		khugepaged_enter_vma(k, mm, &mm->vmas[i], mm->vmas[i].vm_flags);
	return 0;
}
