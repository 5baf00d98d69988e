// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where a mapping without an address goes: where the model puts it.
 *
 * A real kernel places such a mapping top-down below a randomized,
 * page-aligned mmap_base, so a 2 MiB-multiple region can start mid-PMD
 * (always on 6.1, which places anonymous mappings at page granularity) and
 * lands in a PUD of the kernel's choosing.  The model places it top-down
 * below the scenario's mmap_base (aw_get_unmapped_area(),
 * unmapped_area_topdown()), PMD aligned where the profile's
 * __get_unmapped_area() is.  Regions at different addresses are different
 * experiments -- THP or small pages at their ends, one PUD or two -- so the
 * executor computes the model's address and maps there with
 * MAP_FIXED_NOREPLACE.
 *
 * Each worker's address space (an mm: a process and its threads and vfork
 * children) keeps the ranges the scenario mapped, sorted.  The model's
 * per-process layout (text and heap near 0x555555554000, a library and the
 * stack above mmap_base) never lies in the gap searched, so it is left
 * out; the executor's own scratch VMA sits at 4 GiB, far below.
 */
#include <stdlib.h>
#include <string.h>

#include "exec.h"

#define AW_PMD_SIZE	(2ULL << 20)
#define AW_PAGE_SIZE	4096ULL

/* Remove [start, end) from the space, splitting a range that spans it. */
int aw_space_remove(struct aw_xspace *s, uint64_t start, uint64_t end)
{
	for (int i = 0; i < s->nr; i++) {
		struct aw_xrange *r = &s->r[i];

		if (r->end <= start || r->start >= end)
			continue;
		if (r->start < start && r->end > end) {	/* split */
			struct aw_xrange tail = { end, r->end };

			r->end = start;
			return aw_space_add(s, tail.start, tail.end);
		}
		if (r->start < start)
			r->end = start;
		else if (r->end > end)
			r->start = end;
		else {
			memmove(r, r + 1, (size_t)(s->nr - i - 1) * sizeof(*r));
			s->nr--;
			i--;
		}
	}
	return 0;
}

/* Add [start, end), keeping the ranges sorted; what it overlaps is replaced. */
int aw_space_add(struct aw_xspace *s, uint64_t start, uint64_t end)
{
	struct aw_xrange *r;
	int i;

	aw_space_remove(s, start, end);
	if (!(r = aw_grow(s->r, &s->cap, s->nr, sizeof(*r), 16)))
		return -1;
	s->r = r;
	for (i = s->nr; i > 0 && s->r[i - 1].start > start; i--)
		s->r[i] = s->r[i - 1];
	s->r[i] = (struct aw_xrange){ start, end };
	s->nr++;
	return 0;
}

/* The first range ending above addr (the model's aw_vma_index()). */
static int index_of(const struct aw_xspace *s, uint64_t addr)
{
	int i = 0;

	while (i < s->nr && s->r[i].end <= addr)
		i++;
	return i;
}

/*
 * The model's aw_get_unmapped_area() (unmapped_area_topdown()): the
 * highest gap below base that fits len at align, gaps starting at
 * PMD_SIZE; 0 when none does.
 */
uint64_t aw_space_place(const struct aw_xspace *s, uint64_t base, uint64_t len, uint64_t align)
{
	uint64_t high = base;

	for (int i = index_of(s, high > 0 ? high - 1 : 0);; i--) {
		uint64_t gap_end = high, gap_start = i > 0 ? s->r[i - 1].end : AW_PMD_SIZE, cand;

		if (i < s->nr && s->r[i].start < gap_end)
			gap_end = s->r[i].start;
		if (gap_end >= len) {
			cand = (gap_end - len) & ~(align - 1);
			if (cand >= gap_start && cand + len <= gap_end)
				return cand;
		}
		if (i <= 0)
			break;
		high = s->r[i - 1].start;
		if (high <= AW_PMD_SIZE)
			break;
	}
	return 0;
}

/* __get_unmapped_area(): PMD alignment for anonymous 2 MiB multiples, except on 6.1. */
uint64_t aw_place_align(int kver, bool file, uint64_t len)
{
	if (file || (len & (AW_PMD_SIZE - 1)) || kver == AW_KV_6_1)
		return AW_PAGE_SIZE;
	return AW_PMD_SIZE;
}

int aw_space_copy(struct aw_xspace *dst, const struct aw_xspace *src)
{
	dst->nr = dst->cap = 0;
	dst->r = NULL;
	for (int i = 0; i < src->nr; i++)
		if (aw_space_add(dst, src->r[i].start, src->r[i].end))
			return -1;
	return 0;
}
