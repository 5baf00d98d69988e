/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The first range ending above an address, in an array of ranges sorted
 * by their ends (find_vma()'s question), for the two layers that keep such
 * an array: the model's vmas (mm.c) and the converter's copy of what the
 * model has mapped (procs.c).  The caller names the array by its first
 * range's end and the distance from one range to the next, so one piece of
 * code serves both element types; inlined, the stride is a constant.
 */
#ifndef AW_FIRST_ABOVE_H
#define AW_FIRST_ABOVE_H

#include <stddef.h>
#include <stdint.h>

static inline uint64_t aw_fa_end(const uint64_t *end0, size_t stride, int i)
{
	return *(const uint64_t *)((const char *)end0 + (size_t)i * stride);
}

/*
 * Binary search: the index of the first of the n ranges whose end is
 * above addr, n if none is.
 */
static inline int aw_first_above(const uint64_t *end0, size_t stride, int n, uint64_t addr)
{
	int lo = 0, hi = n;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (aw_fa_end(end0, stride, mid) > addr)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * The same index, tried first at the last answer h and its two
 * neighbours: lookups come in runs on one range, and when a run moves on
 * it is most often to the next range up (a program's text, then its
 * data; one stack page, then the next) or down.  Of agewalk-build.dat's
 * lookups the hint answers 63%, its neighbours 17% more, without the
 * search's cache misses.  Each candidate is checked against both its
 * sides (the array is sorted, so the one before the answer must end at
 * or below addr), so the answer is always the search's.
 */
static inline int aw_first_above_hinted(const uint64_t *end0, size_t stride, int n, int h, uint64_t addr)
{
	if (h >= 0 && h < n) {
		if (aw_fa_end(end0, stride, h) > addr) {
			if (h == 0 || aw_fa_end(end0, stride, h - 1) <= addr)
				return h;
			if (h == 1 || aw_fa_end(end0, stride, h - 2) <= addr)
				return h - 1;	/* h - 1 ends above addr, its predecessor does not */
		} else if (h + 1 == n || aw_fa_end(end0, stride, h + 1) > addr) {
			return h + 1;		/* h ends at or below addr: n if it is the last */
		}
	}
	return aw_first_above(end0, stride, n, addr);
}

#endif /* AW_FIRST_ABOVE_H */
