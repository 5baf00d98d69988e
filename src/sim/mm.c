// SPDX-License-Identifier: GPL-2.0-only
/*
 * VMA bookkeeping of one mm (mm/mmap.c, mm/vma.c as far as placement goes).
 *
 * VMAs are a sorted array rather than a maple tree: the walk and the fault
 * path only need "first VMA ending above addr" and in-order iteration.
 */
#include <stdlib.h>
#include <string.h>

#include "first_above.h"
#include "mm.h"

/*
 * The index of the first vma ending above addr (nr_vmas if none): the
 * last answer and its neighbours first, as a replay's faults come in runs
 * (first_above.h).
 */
int aw_vma_index(const struct mm_struct *mm, uint64_t addr)
{
	if (!mm->nr_vmas)
		return 0;	/* and mm->vmas may be NULL */
	return aw_first_above_hinted(&mm->vmas[0].vm_end, sizeof(*mm->vmas), mm->nr_vmas, mm->vma_hint, addr);
}

/* mm/mmap.c: find_vma(): the first VMA with vm_end > addr */
struct vm_area_struct *find_vma(struct mm_struct *mm, uint64_t addr)
{
	int i = aw_vma_index(mm, addr);

	if (i >= mm->nr_vmas)
		return NULL;
	mm->vma_hint = i;
	return &mm->vmas[i];
}

struct vm_area_struct *aw_vma_insert(struct mm_struct *mm, const struct vm_area_struct *vma)
{
	int i = aw_vma_index(mm, vma->vm_start);

	if (mm->nr_vmas == mm->cap_vmas) {
		int cap = mm->cap_vmas ? mm->cap_vmas * 2 : 16;
		struct vm_area_struct *v = realloc(mm->vmas, cap * sizeof(*v));

		if (!v)
			return NULL;
		mm->vmas = v;
		mm->cap_vmas = cap;
	}
	memmove(&mm->vmas[i + 1], &mm->vmas[i], (mm->nr_vmas - i) * sizeof(*vma));
	mm->vmas[i] = *vma;
	mm->nr_vmas++;
	return &mm->vmas[i];
}

void aw_vma_remove_at(struct mm_struct *mm, int idx)
{
	memmove(&mm->vmas[idx], &mm->vmas[idx + 1], (mm->nr_vmas - idx - 1) * sizeof(mm->vmas[0]));
	mm->nr_vmas--;
}

/* mm/vma.c: split_vma(), without the page-table side (callers handle THP) */
int aw_vma_split(struct mm_struct *mm, uint64_t addr)
{
	struct vm_area_struct *vma = find_vma(mm, addr);
	struct vm_area_struct tail;

	if (!vma || vma->vm_start >= addr)
		return 0;	/* no VMA spans addr: already a boundary */
	tail = *vma;
	tail.vm_start = addr;
	vma->vm_end = addr;
	return aw_vma_insert(mm, &tail) ? 0 : -1;
}

bool aw_range_free(const struct mm_struct *mm, uint64_t start, uint64_t end)
{
	int i = aw_vma_index(mm, start);

	return i >= mm->nr_vmas || mm->vmas[i].vm_start >= end;
}

/*
 * mm/mmap.c: unmapped_area_topdown(): the highest gap below mmap_base that
 * fits len at the alignment (thp_get_unmapped_area() asks for PMD alignment).
 */
uint64_t aw_get_unmapped_area(struct mm_struct *mm, uint64_t len, uint64_t align)
{
	uint64_t high = mm->mmap_base;

	for (int i = aw_vma_index(mm, high > 0 ? high - 1 : 0); ; i--) {
		/* gap between vma[i-1].vm_end and min(high, vma[i].vm_start) */
		uint64_t gap_end = high;
		uint64_t gap_start = i > 0 ? mm->vmas[i - 1].vm_end : PMD_SIZE;
		uint64_t cand;

		if (i < mm->nr_vmas && mm->vmas[i].vm_start < gap_end)
			gap_end = mm->vmas[i].vm_start;
		if (gap_end >= len) {
			cand = (gap_end - len) & ~(align - 1);
			if (cand >= gap_start && cand + len <= gap_end)
				return cand;
		}
		if (i <= 0)
			break;
		high = mm->vmas[i - 1].vm_start;
		if (high <= PMD_SIZE)
			break;
	}
	return 0;
}
