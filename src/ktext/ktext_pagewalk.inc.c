/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mm/pagewalk.c's walk_page_range() for kernel text (a fragment
 * ktext_glue.inc.c includes into each generated file): the callbacks
 * MGLRU's walk_mm() sets, over the host's VMAs and page tables.
 */

/* mm/mmap.c: find_vma(): the first VMA ending above addr */
static struct vm_area_struct *aw_find_vma(struct mm_struct *mm, unsigned long addr)
{
	for (int i = 0; i < mm->nr_vmas; i++)
		if (mm->vmas[i].vm_end > addr)
			return &mm->vmas[i];
	return NULL;
}

/*
 * mm/pagewalk.c: walk_page_range() for the callbacks MGLRU sets
 * (test_walk, p4d_entry): per VMA in [start, end), test_walk() decides
 * (> 0 skip, < 0 stop), then each present p4d entry of the range goes to
 * p4d_entry(); the first non-zero return ends the walk and is returned.
 * With 4-level paging the p4d is the pgd entry.
 */
static int aw_walk_p4d_range(unsigned long addr, unsigned long end, struct mm_walk *walk)
{
	pgd_t *pgd = pgd_offset_pgd(walk->mm->pgd, addr);
	unsigned long next;
	int err = 0;

	do {
		p4d_t *p4d = p4d_offset(pgd, addr);

		next = pgd_addr_end(addr, end);
		if (p4d_none(*p4d))
			continue;
		if (walk->ops->p4d_entry)
			err = walk->ops->p4d_entry(p4d, addr, next, walk);
		if (err)
			break;
	} while (pgd++, addr = next, addr != end);
	return err;
}

static void aw_bound_vmas(struct aw_ktext *kt, struct mm_struct *mm);

static int walk_page_range(struct mm_struct *mm, unsigned long start, unsigned long end,
			   const struct mm_walk_ops *ops, void *private)
{
	struct mm_walk walk = { .ops = ops, .mm = mm, .private = private };
	struct vm_area_struct *vma;
	unsigned long next;
	int err = 0;

	if (start >= end)
		return -EINVAL;
	aw_bound_vmas(aw_ktext_current(), mm);	/* bound: the host's VMAs as they are now */
	vma = aw_find_vma(mm, start);
	do {
		if (!vma) {
			next = end;
		} else if (start < vma->vm_start) {
			next = min(end, vma->vm_start);
		} else {
			walk.vma = vma;
			next = min(end, vma->vm_end);
			vma = aw_find_vma(mm, vma->vm_end);
			err = ops->test_walk ? ops->test_walk(start, next, &walk) : 0;
			if (err > 0) {
				err = 0;
				continue;
			}
			if (err < 0)
				break;
			err = aw_walk_p4d_range(start, next, &walk);
		}
		if (err)
			break;
	} while (start = next, start < end);
	return err;
}
