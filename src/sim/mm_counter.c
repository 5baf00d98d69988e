// SPDX-License-Identifier: GPL-2.0-only
/*
 * get_mm_counter() for 6.1's should_skip_mm() (mm/vmscan.c, 6.1).
 *
 * The kernel keeps MM_ANONPAGES, MM_FILEPAGES and MM_SHMEMPAGES per mm;
 * the model keeps only mm->rss.  Each counter is the number of pages of
 * that kind the mm maps, so the model reads the same figure from the page
 * tables: a present PTE counts its folio's kind (an anonymous folio in a
 * private file VMA, a CoW copy, is MM_ANONPAGES as mm_counter() says), a
 * THP leaf HPAGE_PMD_NR, the zero pages nothing, and swap entries nothing
 * (they are MM_SWAPENTS, which the test does not read).  The model has no
 * shmem.  should_skip_mm() only asks whether the sum reaches
 * MIN_LRU_BATCH, so the count stops at a limit and an mm is read at most
 * that far -- the cost stays small however big the mm is.
 */
#include "kernel.h"
#include "pagewalk.h"

struct mm_counter_walk {
	bool can_swap;		/* count MM_ANONPAGES (+ MM_SHMEMPAGES) too */
	bool anon_only;		/* count MM_ANONPAGES alone */
	unsigned long size;
	unsigned long limit;
};

static void count_folio(struct mm_counter_walk *cw, const struct folio *folio, unsigned long nr)
{
	if (folio_test(folio, PG_anon) ? !cw->can_swap : cw->anon_only)
		return;
	cw->size += nr;
}

static int mm_counter_pmd(pmd_t *pmd, uint64_t addr, uint64_t next, struct mm_walk *walk)
{
	struct mm_counter_walk *cw = walk->private;

	if (!pmd_trans_huge(*pmd))
		return 0;			/* a PTE table: its PTEs follow */
	walk->action = ACTION_CONTINUE;		/* never split a leaf to count it */
	if (!is_huge_zero_pmd(*pmd))
		count_folio(cw, pfn_folio(&walk->k->mem, pmd_pfn(*pmd)), HPAGE_PMD_NR);
	return cw->size >= cw->limit;
}

static int mm_counter_pte(pte_t *pte, uint64_t addr, uint64_t next, struct mm_walk *walk)
{
	struct mm_counter_walk *cw = walk->private;

	if (!pte_present(*pte) || is_zero_pfn(pte_pfn(*pte)))
		return 0;
	count_folio(cw, pfn_folio(&walk->k->mem, pte_pfn(*pte)), 1);
	return cw->size >= cw->limit;
}

static const struct mm_walk_ops mm_counter_ops = {
	.pmd_entry = mm_counter_pmd,
	.pte_entry = mm_counter_pte,
	.skip_pte_none = true,
	.aw_read_only = true,
};

/*
 * MM_FILEPAGES, plus MM_ANONPAGES + MM_SHMEMPAGES when can_swap, as
 * should_skip_mm() sums them; the result is exact below limit and
 * at least limit otherwise.
 */
unsigned long aw_mm_lru_pages(struct aw_kernel *k, struct mm_struct *mm, bool can_swap,
			      unsigned long limit)
{
	struct mm_counter_walk cw = { .can_swap = can_swap, .limit = limit };

	walk_page_range(k, mm, 0, TASK_SIZE, &mm_counter_ops, &cw);
	return cw.size;
}

/*
 * get_mm_counter() for kernel text (src/kbind): MM_FILEPAGES or
 * MM_ANONPAGES alone, counted the same way and stopping at limit.
 */
unsigned long aw_mm_counter(struct aw_kernel *k, struct mm_struct *mm, bool anon, unsigned long limit)
{
	struct mm_counter_walk cw = { .can_swap = anon, .anon_only = anon, .limit = limit };

	walk_page_range(k, mm, 0, TASK_SIZE, &mm_counter_ops, &cw);
	return cw.size;
}
