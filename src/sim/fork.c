// SPDX-License-Identifier: GPL-2.0-only
/*
 * Process lifetime: fork with copy-on-write (kernel/fork.c: dup_mm,
 * mm/memory.c: copy_page_range), and the default process layout.
 *
 * copy_page_range() copies only a VMA with anon_vma (vma_needs_copy():
 * the model has no VM_PFNMAP, VM_MIXEDMAP or uffd-wp); a VMA without one
 * -- a file mapping never written, an anonymous one only read (zero-page
 * PTEs) -- leaves the child nothing, not even a table: its faults fill
 * it.  In a copied VMA every mapped page is copied, file pages too, old
 * and write-protected on both sides (every model mapping is private, a
 * COW mapping); a later write by either side copies (fault.c).  The
 * child's tables are allocated as copy_pud_range(), copy_pmd_range() and
 * copy_pte_range() allocate them: one for every present entry above,
 * before its entries are looked at, so a parent's table of none entries
 * is one in the child too.  dup_mmap() copies no page of a droppable
 * (VM_WIPEONFORK) VMA and drops VM_LOCKED from the child's VMAs.
 */
#include "kernel.h"
#include "pagewalk.h"

/*
 * The child's PTE for addr, allocating its table: *dpt caches the table
 * for the PMD range being copied (nothing frees tables during a fork).
 */
static pte_t *dst_pte(struct aw_kernel *k, struct mm_struct *dst, uint64_t addr, struct aw_ptable **dpt)
{
	if (!*dpt) {
		pte_t *p = aw_pte_lookup(k, dst, addr, true, NULL);

		if (!p)
			return NULL;
		*dpt = aw_pte_table(p, addr);
	}
	return &(*dpt)->e[pte_index(addr)];
}

static void copy_pte(struct aw_kernel *k, struct mm_struct *dst, pte_t *spte, uint64_t addr,
		     struct aw_ptable **dpt)
{
	pte_t v = *spte, *dpte;

	if (pte_present(v) && !is_zero_pfn(pte_pfn(v))) {
		struct folio *f = pfn_folio(&k->mem, pte_pfn(v));

		if (!f)
			return;
		/* copy_present_pte(): a COW mapping's writable PTE is write-protected on both sides */
		*spte &= ~_PAGE_RW;
		v = *spte & ~_PAGE_ACCESSED;	/* the child's view starts old */
		dpte = dst_pte(k, dst, addr, dpt);
		if (!dpte)
			return;
		*dpte = v;
		aw_rmap_add(&k->mem, f, dst->id, addr);
		dst->rss++;
		return;
	}
	if (pte_swp(v)) {
		dpte = dst_pte(k, dst, addr, dpt);
		if (!dpte)
			return;
		*dpte = v;
		k->swap[pte_swp_slot(v)].next++;	/* swap_duplicate() */
	} else if (pte_present(v)) {
		dpte = dst_pte(k, dst, addr, dpt);
		if (dpte)
			*dpte = v & ~_PAGE_ACCESSED;	/* the zero page */
	}
}

/* What fork's copy walk carries: the child, and its table for the PMD range */
struct aw_copy_walk {
	struct mm_struct *dst;
	struct aw_ptable *dpt;
};

/*
 * copy_pmd_range(): a THP leaf is shared whole (copy_huge_pmd); under a
 * PTE table, copy_pte_range() allocates the child's (pte_alloc_map_lock())
 * before it looks at a single entry.
 */
static int copy_pmd(pmd_t *spmd, uint64_t addr, uint64_t next, struct mm_walk *walk)
{
	struct aw_copy_walk *cw = walk->private;
	struct aw_kernel *k = walk->k;
	pmd_t *dpmd;

	cw->dpt = NULL;	/* a new PMD range: the child's table is looked up again */
	if (!pmd_trans_huge(*spmd)) {
		(void)dst_pte(k, cw->dst, addr, &cw->dpt);
		return 0;
	}
	walk->action = ACTION_CONTINUE;
	/* share the THP, write-protect both sides */
	dpmd = aw_pmd_lookup(k, cw->dst, addr, true, NULL);
	if (!dpmd)
		return 0;
	*spmd &= ~_PAGE_RW;
	*dpmd = *spmd & ~_PAGE_ACCESSED;
	if (!is_huge_zero_pmd(*spmd)) {
		aw_rmap_add(&k->mem, pfn_folio(&k->mem, pmd_pfn(*spmd)), cw->dst->id, addr);
		cw->dst->rss += HPAGE_PMD_NR;
	}
	return 0;
}

/* copy_pte_range(): the parent's table for this PMD, each PTE that is not none */
static int copy_pte_entry(pte_t *spte, uint64_t addr, uint64_t next, struct mm_walk *walk)
{
	struct aw_copy_walk *cw = walk->private;

	copy_pte(walk->k, cw->dst, spte, addr, &cw->dpt);
	return 0;
}

/*
 * A none entry under a present one: copy_pud_range() has allocated the
 * child's PUD table (pud_alloc()) for the present PGD entry, and
 * copy_pmd_range() its PMD table (pmd_alloc()) for the present PUD,
 * before looking at an entry, so a table of none entries has its twin
 * in the child; the none entry itself is skipped (pud_none_or_clear_bad(),
 * pmd_none_or_clear_bad()).  A none PGD entry is skipped by
 * copy_page_range() with nothing allocated.
 */
static int copy_hole(uint64_t addr, uint64_t next, int depth, struct mm_walk *walk)
{
	struct aw_copy_walk *cw = walk->private;

	if (depth == AW_WALK_DEPTH_PMD)
		(void)aw_pmd_lookup(walk->k, cw->dst, addr, true, NULL);
	else if (depth == AW_WALK_DEPTH_PUD)
		(void)aw_pud_lookup(walk->k, cw->dst, addr, true);
	return 0;
}

static const struct mm_walk_ops copy_walk_ops = {
	.pmd_entry = copy_pmd,
	.pte_entry = copy_pte_entry,
	.pte_hole = copy_hole,
	.skip_pte_none = true,
};

/* copy_page_range() */
static void copy_range(struct aw_kernel *k, struct mm_struct *src, struct mm_struct *dst,
		       const struct vm_area_struct *vma)
{
	struct aw_copy_walk cw = { .dst = dst };

	/* vma_needs_copy(): without anon_vma a fault fills the child correctly */
	if (!vma->anon_vma)
		return;
	walk_page_range(k, src, vma->vm_start, vma->vm_end, &copy_walk_ops, &cw);
}

int aw_fork(struct aw_kernel *k, struct aw_task *parent, uint32_t child_pid)
{
	struct mm_struct *src = aw_mm(k, parent->mm), *dst;
	struct aw_task *child = &k->tasks[child_pid];

	if (!src)
		return -1;
	dst = aw_mm_alloc(k, src->memcg);
	if (!dst)
		return -1;
	src = aw_mm(k, parent->mm);
	dst->thp_disable = src->thp_disable;
	dst->mpol = src->mpol;
	dst->mpol_node = src->mpol_node;
	dst->brk_start = src->brk_start;
	dst->brk = src->brk;
	dst->mmap_base = src->mmap_base;
	/* dup_mmap() */
	for (int i = 0; i < src->nr_vmas; i++) {
		struct vm_area_struct v = src->vmas[i];

		v.region = 0;	/* a region names the parent's mapping */
		/* MAP_DROPPABLE's VMA is VM_WIPEONFORK (do_mmap()): the child's starts empty */
		if (v.vm_flags & VM_DROPPABLE)
			v.anon_vma = false;
		v.vm_flags &= ~VM_LOCKED;	/* VM_LOCKED_MASK: mlock is not inherited */
		if (!aw_vma_insert(dst, &v))
			return -1;
	}
	for (int i = 0; i < src->nr_vmas; i++)
		if (!(src->vmas[i].vm_flags & VM_DROPPABLE))
			copy_range(k, src, dst, &src->vmas[i]);
	khugepaged_fork(k, dst, src);	/* dup_mmap() */
	trace_aw_mm_fork(k, src, dst);
	k->mglru->lru_gen_add_mm(k, dst);
	child->pid = child_pid;
	child->mm = dst->id;
	child->cpu = parent->cpu;
	child->memcg = parent->memcg;
	child->alive = true;
	child->vfork_shared = false;
	return 0;
}

/*
 * The small realistic layout every process gets unless told otherwise
 * (aw_setup_layout()): text and heap in one PUD, a library in another, the
 * stack in a third, each faulted in once at start (the first pages of
 * each; AW_LAYOUT_SMALL faults a quarter as many).
 */
int aw_setup_layout(struct aw_kernel *k, struct aw_task *t)
{
	struct mm_struct *mm = aw_mm(k, t->mm);
	static const uint64_t text = 0x555555554000ULL, text_len = 0x20000;
	static const uint64_t heap = 0x555555600000ULL, heap_len = 0x21000;
	static const uint64_t lib = 0x7f8000000000ULL, lib_len = 0x200000;
	static const uint64_t stack_end = 0x7ffffffff000ULL, stack_len = 0x21000;
	const unsigned int shift = k->cfg.layout == AW_LAYOUT_SMALL ? 2 : 0;

	if (!mm)
		return -1;
	if (aw_do_mmap(k, mm, text, text_len, AW_MAP_FILE, AW_PROT_READ | AW_PROT_EXEC, 0, AW_VMA_TEXT, NULL) ||
	    aw_do_mmap(k, mm, heap, heap_len, 0, AW_PROT_DEFAULT, 0, AW_VMA_HEAP, NULL) ||
	    aw_do_mmap(k, mm, lib, lib_len, AW_MAP_FILE, AW_PROT_READ | AW_PROT_EXEC, 0, AW_VMA_LIB, NULL) ||
	    aw_do_mmap(k, mm, stack_end - stack_len, stack_len, 0, AW_PROT_DEFAULT, 0, AW_VMA_STACK, NULL))
		return -1;
	mm->brk_start = heap;
	mm->brk = heap + heap_len;
	find_vma(mm, stack_end - 1)->vm_flags |= VM_GROWSDOWN;
	/* resident: text 8, heap 16, lib 32, stack 8 pages; a quarter of that when small */
	aw_access(k, t, text, (8 >> shift) * PAGE_SIZE, 0, 1, 0, t->cpu);
	aw_access(k, t, heap, (16 >> shift) * PAGE_SIZE, 0, 1, AW_ACC_WRITE, t->cpu);
	aw_access(k, t, lib, (32 >> shift) * PAGE_SIZE, 0, 1, 0, t->cpu);
	aw_access(k, t, stack_end - (8 >> shift) * PAGE_SIZE, (8 >> shift) * PAGE_SIZE, 0, 1, AW_ACC_WRITE,
		  t->cpu);
	return 0;
}
