// SPDX-License-Identifier: GPL-2.0-only
/*
 * The generic page-table walker (mm/pagewalk.c: walk_page_range() and
 * walk_{pud,pmd,pte}_range()), over the tables only: see pagewalk.h for
 * the contract and docs/model-notes.md for how it differs from the kernel.
 *
 * The walk descends level by level, so a range costs one read per PGD,
 * PUD and PMD entry it covers and no table walk per PTE: the PTE loop
 * reads its table directly and rereads the PMD entry only to notice that
 * a callback changed it.  With skip_pte_none it steps over empty 64-entry
 * blocks of a mostly empty table without calling back at all.
 */
#include <errno.h>

#include "kernel.h"
#include "pagewalk.h"

/*
 * Without a pte_hole callback a none entry of an upper level is nothing
 * to do: the address of the first entry of table t at or after addr
 * (whose level maps 1 << shift bytes per entry) that is not none and
 * begins below end, or addr itself if its entry is not none; end if
 * there is none before end.  A small mm's walk over the whole address space
 * (get_mm_counter() for should_skip_mm()) otherwise stepped through every
 * empty PGD, PUD and PMD slot one by one.
 */
static uint64_t skip_none(const struct aw_ptable *t, uint64_t addr, uint64_t end, unsigned int shift)
{
	const unsigned int i = (unsigned int)((addr >> shift) & (PTRS_PER_PTE - 1));
	const uint64_t base = addr & ~((1ULL << (shift + 9)) - 1);	/* the table's first address */
	unsigned int j;

	if (t->e[i])
		return addr;
	j = aw_pt_next_nonzero(t->e, i, PTRS_PER_PTE);
	if (j >= PTRS_PER_PTE)
		return end;
	addr = base + ((uint64_t)j << shift);
	return addr < end ? addr : end;
}

static int walk_hole(uint64_t addr, uint64_t next, int depth, struct mm_walk *walk)
{
	return walk->ops->pte_hole ? walk->ops->pte_hole(addr, next, depth, walk) : 0;
}

/*
 * The PTEs of [addr, end) under *pmd, a PTE table.  The model holds no
 * PTL, so a callback may split, zap or refill what the loop walks: an
 * entry that changed is followed to its new table, and a PMD range left
 * without one (a leaf, none) ends the loop.  addr need not be page aligned:
 * the callbacks get addr, addr + PAGE_SIZE, ... as a loop over the range
 * would.
 */
static int walk_pte_range(pmd_t *pmd, uint64_t addr, uint64_t end, struct mm_walk *walk)
{
	const struct mm_walk_ops *ops = walk->ops;
	pmd_t pmdval = *pmd;
	struct aw_ptable *pt = aw_table(&walk->k->pt, aw_entry_table(pmdval));
	const unsigned int first = (unsigned int)pte_index(addr);
	const unsigned int n = first + (unsigned int)((end - addr + PAGE_SIZE - 1) >> PAGE_SHIFT);

	for (unsigned int i = first; i < n; i++) {
		uint64_t a;
		int err;

		if (*pmd != pmdval) {
			pmdval = *pmd;
			if (!pmd_present(pmdval) || pmd_trans_huge(pmdval))
				return 0;
			pt = aw_table(&walk->k->pt, aw_entry_table(pmdval));
		}
		if (ops->skip_pte_none && (i = aw_pt_next_nonzero(pt->e, i, n)) >= n)
			return 0;
		a = addr + (uint64_t)(i - first) * PAGE_SIZE;
		if (!ops->aw_read_only)
			aw_table_written(&walk->k->pt, aw_entry_table(pmdval));
		err = ops->pte_entry(&pt->e[i], a, a + PAGE_SIZE, walk);
		if (err)
			return err;
	}
	return 0;
}

static int walk_pmd_range(pud_t pud, uint64_t addr, uint64_t end, struct mm_walk *walk)
{
	const struct mm_walk_ops *ops = walk->ops;
	struct aw_ptable *pmdt = aw_table(&walk->k->pt, aw_entry_table(pud));

	for (uint64_t next; addr < end; addr = next) {
		pmd_t *pmd;
		int err = 0;

		if (!ops->pte_hole && (addr = skip_none(pmdt, addr, end, PMD_SHIFT)) >= end)
			return 0;
		pmd = &pmdt->e[pmd_index(addr)];
		next = pmd_addr_end(addr, end);
		if (!pmd_present(*pmd)) {
			err = walk_hole(addr, next, AW_WALK_DEPTH_PMD, walk);
			if (err)
				return err;
			continue;
		}
		walk->action = ACTION_SUBTREE;
		if (ops->pmd_entry && !ops->aw_read_only)
			aw_table_written(&walk->k->pt, aw_entry_table(pud));
		if (ops->pmd_entry)
			err = ops->pmd_entry(pmd, addr, next, walk);
		if (err)
			return err;
		if (walk->action == ACTION_CONTINUE || !ops->pte_entry)
			continue;
		/* split_huge_pmd(); a failed split leaves nothing to walk */
		if (pmd_trans_huge(*pmd))
			aw_split_huge_pmd(walk->k, walk->mm, addr & PMD_MASK);
		/* nor does an entry pmd_entry cleared (the kernel's ACTION_AGAIN would report a hole) */
		if (!pmd_present(*pmd) || pmd_trans_huge(*pmd))
			continue;
		err = walk_pte_range(pmd, addr, next, walk);
		if (err)
			return err;
	}
	return 0;
}

static int walk_pud_range(pgd_t pgd, uint64_t addr, uint64_t end, struct mm_walk *walk)
{
	struct aw_ptable *pudt = aw_table(&walk->k->pt, aw_entry_table(pgd));

	for (uint64_t next; addr < end; addr = next) {
		pud_t pud;
		int err;

		if (!walk->ops->pte_hole && (addr = skip_none(pudt, addr, end, PUD_SHIFT)) >= end)
			return 0;
		pud = pudt->e[pud_index(addr)];
		next = pud_addr_end(addr, end);
		if (!pud_present(pud))
			err = walk_hole(addr, next, AW_WALK_DEPTH_PUD, walk);
		else
			err = walk_pmd_range(pud, addr, next, walk);
		if (err)
			return err;
	}
	return 0;
}

int walk_page_range(struct aw_kernel *k, struct mm_struct *mm, uint64_t start, uint64_t end,
		    const struct mm_walk_ops *ops, void *private)
{
	struct mm_walk walk = { .ops = ops, .mm = mm, .k = k, .private = private };
	struct aw_ptable *pgd;

	if (start >= end || !mm)
		return -EINVAL;
	pgd = aw_table(&k->pt, mm->pgd);
	for (uint64_t addr = start, next; addr < end; addr = next) {
		pgd_t pgde;
		int err;

		if (!ops->pte_hole && (addr = skip_none(pgd, addr, end, PGDIR_SHIFT)) >= end)
			return 0;
		pgde = pgd->e[pgd_index(addr)];
		next = pgd_addr_end(addr, end);
		if (!(pgde & _PAGE_PRESENT))
			err = walk_hole(addr, next, AW_WALK_DEPTH_PGD, &walk);
		else
			err = walk_pud_range(pgde, addr, next, &walk);
		if (err)
			return err;
	}
	return 0;
}
