// SPDX-License-Identifier: GPL-2.0-only
/*
 * Domain mutations (mutator_internal.h): edits that know what a record
 * means in the event language (src/event/fuzzrec.h) and build the shapes
 * the oracles need and random bytes seldom make: an address moved within
 * its PMD or to the next PMD or PUD, another node or CPU, a forced aging
 * pass, an unmap and remap at the same address, a migration of a live
 * range, a memcg limit, an aging pass split into begin/step/end with an
 * eviction inside, reclaim after an aging pass; for khugepaged, a wake-up
 * after a madvise, clean or dirty PTEs after MADV_FREE, knob stores,
 * prctl, advice, and ranges worth collapsing; descriptor reads of a file
 * mapping, repeated, then reclaim (tiers and sort_folio()'s protection).
 */
#include <stdbool.h>
#include <string.h>

#include "mutator_internal.h"

#define R	AW_FUZZ_RECORD

/* A record of that kind, searched from a random start; n if there is none. */
static size_t pick_kind(uint8_t *d, size_t n, struct aw_rng *g, enum aw_fuzz_kind kind)
{
	size_t start = aw_rng_below(g, (uint32_t)n);

	for (size_t k = 0; k < n; k++) {
		size_t i = (start + k) % n;

		if (aw_fuzz_rec_kind(aw_fuzz_rec(d, i)) == kind)
			return i;
	}
	return n;
}

static bool is_kind(const uint8_t *r, enum aw_fuzz_kind kind)
{
	return aw_fuzz_rec_kind(r) == kind;
}

static bool is_access(const uint8_t *r)
{
	return is_kind(r, AW_FK_READ) || is_kind(r, AW_FK_WRITE);
}

/* Both records act on the same process's same region (as the decoder folds them). */
static bool same_proc_region(const uint8_t *a, const uint8_t *b)
{
	return aw_fuzz_rec_get(a, AW_FR_PROC) % AW_FUZZ_PROCS == aw_fuzz_rec_get(b, AW_FR_PROC) % AW_FUZZ_PROCS &&
	       aw_fuzz_rec_get(a, AW_FR_REGION) % AW_FUZZ_REGIONS ==
	       aw_fuzz_rec_get(b, AW_FR_REGION) % AW_FUZZ_REGIONS;
}

/* the madvise advice of a record (the decoder's 1 + b % 7) */
static int advice(const uint8_t *r)
{
	return 1 + aw_fuzz_rec_get(r, AW_FR_ARG) % (AW_MADV_NR - 1);
}

static void set_advice(uint8_t *r, int adv)
{
	aw_fuzz_rec_set(r, AW_FR_ARG, (uint32_t)(adv - 1));
}

/* An eviction on node (shrink_lruvec() after an aging pass): direct or kswapd, a random batch. */
static void evict_record(struct aw_rng *g, uint8_t *r, uint8_t node)
{
	memset(r, 0, R);
	aw_fuzz_rec_set(r, AW_FR_KIND, AW_FK_EVICT);
	aw_fuzz_rec_set(r, AW_FR_FLAGS, aw_rng_below(g, 2));
	aw_fuzz_rec_set(r, AW_FR_NODE, node);
	aw_fuzz_rec_set(r, AW_FR_ARG, aw_rng_next(g));
}

/* A khugepaged wake-up: mostly a few with the knob's budget, sometimes full scans. */
static void kh_wakeup(struct aw_rng *g, uint8_t *r)
{
	memset(r, 0, R);
	aw_fuzz_rec_set(r, AW_FR_KIND, AW_FK_KHUGEPAGED);
	aw_fuzz_rec_set(r, AW_FR_FLAGS, aw_rng_below(g, 4) ? 0 : 1);
	aw_fuzz_rec_set(r, AW_FR_ARG, aw_rng_below(g, 2) ? 0 : aw_rng_next(g));
	aw_fuzz_rec_set(r, AW_FR_REPEAT, aw_rng_next(g));
}

/* move record i's address within its PMD (512 pages) */
size_t aw_mut_pmd(uint8_t *d, size_t size, size_t max, struct aw_rng *g, size_t i)
{
	(void)max;
	if (aw_fuzz_nr_records(size)) {
		uint32_t off = aw_fuzz_rec_get_u16(aw_fuzz_rec(d, i), AW_FR_OFF) % AW_FUZZ_MAX_PAGES;

		aw_fuzz_rec_set_u16(aw_fuzz_rec(d, i), AW_FR_OFF, (off & ~511U) | aw_rng_below(g, 512));
	}
	return size;
}

/* ...or to the neighbouring PMD, or the neighbouring region (PUD) */
size_t aw_mut_pud(uint8_t *d, size_t size, size_t max, struct aw_rng *g, size_t i)
{
	uint8_t *r;

	(void)max;
	if (!aw_fuzz_nr_records(size))
		return size;
	r = aw_fuzz_rec(d, i);
	if (aw_rng_below(g, 2))
		aw_fuzz_rec_set_u16(r, AW_FR_OFF, (aw_fuzz_rec_get_u16(r, AW_FR_OFF) +
						   (aw_rng_below(g, 2) ? 512 : AW_FUZZ_MAX_PAGES - 512)) %
						  AW_FUZZ_MAX_PAGES);
	else
		aw_fuzz_rec_set(r, AW_FR_REGION, (aw_fuzz_rec_get(r, AW_FR_REGION) +
						  (aw_rng_below(g, 2) ? 1 : AW_FUZZ_REGIONS - 1)) % AW_FUZZ_REGIONS);
	return size;
}

/* another node or CPU for record i */
size_t aw_mut_node_cpu(uint8_t *d, size_t size, size_t max, struct aw_rng *g, size_t i)
{
	(void)max;
	if (aw_fuzz_nr_records(size)) {
		uint32_t v = aw_rng_next(g);	/* the value first, as in aw_mut_header() */

		aw_fuzz_rec_set(aw_fuzz_rec(d, i), aw_rng_below(g, 2) ? AW_FR_NODE : AW_FR_CPU, v);
	}
	return size;
}

/* turn an aging pass into a forced one */
size_t aw_mut_force_age(uint8_t *d, size_t size, size_t max, struct aw_rng *g, size_t i)
{
	size_t n = aw_fuzz_nr_records(size), j;

	(void)max;
	(void)i;
	if ((j = pick_kind(d, n, g, AW_FK_AGE)) < n)
		aw_fuzz_rec_set(aw_fuzz_rec(d, j), AW_FR_KIND, AW_FK_AGE_FORCED);
	return size;
}

/* munmap + mmap at the same address, before record i */
size_t aw_mut_remap(uint8_t *d, size_t size, size_t max, struct aw_rng *g, size_t i)
{
	uint8_t *r;

	if (aw_fuzz_nr_records(size) && (r = aw_mut_insert_at(d, &size, max, i))) {
		uint8_t region = aw_fuzz_rec_get(r, AW_FR_REGION);

		memset(r, 0, R);
		aw_fuzz_rec_set(r, AW_FR_KIND, AW_FK_MUNMAP);
		aw_fuzz_rec_set(r, AW_FR_REGION, region);
		aw_fuzz_rec_set_u16(r, AW_FR_LEN, AW_FUZZ_MAX_PAGES - 1);
		if ((r = aw_mut_insert_at(d, &size, max, i + 1))) {
			memcpy(r, aw_fuzz_rec(d, i), R);
			aw_fuzz_rec_set(r, AW_FR_KIND, AW_FK_MMAP);
			aw_fuzz_rec_set(r, AW_FR_FLAGS, aw_rng_next(g));
			aw_fuzz_rec_set_u16(r, AW_FR_LEN, aw_rng_below(g, AW_FUZZ_MAX_PAGES));
		}
	}
	return size;
}

/* migrate a live range: where some access happened */
/*
 * A record after one of kind a or b (even odds), picked at random: the
 * new record (the picked one is at *j), or NULL if there is none of
 * either kind or no room.
 */
static uint8_t *insert_after_kind(uint8_t *d, size_t *size, size_t max, struct aw_rng *g,
				  enum aw_fuzz_kind a, enum aw_fuzz_kind b, size_t *j)
{
	size_t n = aw_fuzz_nr_records(*size);

	*j = pick_kind(d, n, g, aw_rng_below(g, 2) ? a : b);
	return *j < n ? aw_mut_insert_at(d, size, max, *j + 1) : NULL;
}

size_t aw_mut_migrate(uint8_t *d, size_t size, size_t max, struct aw_rng *g, size_t i)
{
	size_t j;
	uint8_t *r;

	(void)i;
	if ((r = insert_after_kind(d, &size, max, g, AW_FK_WRITE, AW_FK_READ, &j))) {
		memcpy(r, aw_fuzz_rec(d, j), R);
		aw_fuzz_rec_set(r, AW_FR_KIND, AW_FK_MIGRATE);
		aw_fuzz_rec_set(r, AW_FR_NODE, aw_fuzz_rec_get(r, AW_FR_NODE) + 1 + aw_rng_below(g, 2));
	}
	return size;
}

/* the memcg limit: header, or a limit event */
size_t aw_mut_memcg(uint8_t *d, size_t size, size_t max, struct aw_rng *g, size_t i)
{
	size_t n = aw_fuzz_nr_records(size);
	uint8_t *r;

	(void)i;
	if (aw_rng_below(g, 2))
		aw_fuzz_hdr_set(d, AW_FH_MEMCG_LIMIT, aw_rng_next(g));
	else if ((r = aw_mut_insert_at(d, &size, max, n ? aw_rng_below(g, (uint32_t)n) : 0))) {
		memset(r, 0, R);
		aw_fuzz_rec_set(r, AW_FR_KIND, AW_FK_LIMIT);
		aw_fuzz_rec_set(r, AW_FR_ARG, aw_rng_next(g));
	}
	return size;
}

/*
 * Split an aging pass into begin/step/end with an eviction inside (the
 * order lru_gen's try_to_inc_max_seq() and a concurrent shrink_lruvec()
 * can interleave in).
 */
size_t aw_mut_split_age(uint8_t *d, size_t size, size_t max, struct aw_rng *g, size_t i)
{
	size_t n = aw_fuzz_nr_records(size), j;
	uint8_t *r, node;

	(void)i;
	if ((j = pick_kind(d, n, g, AW_FK_AGE)) >= n)
		return size;
	node = aw_fuzz_rec_get(aw_fuzz_rec(d, j), AW_FR_NODE);
	aw_fuzz_rec_set(aw_fuzz_rec(d, j), AW_FR_KIND, AW_FK_AGE_BEGIN);
	r = aw_mut_insert_at(d, &size, max, j + 1);
	if (r) {
		memset(r, 0, R);
		aw_fuzz_rec_set(r, AW_FR_KIND, AW_FK_AGE_STEP);
		aw_fuzz_rec_set(r, AW_FR_NODE, node);
	}
	r = r ? aw_mut_insert_at(d, &size, max, j + 2) : NULL;
	if (r)
		evict_record(g, r, node);
	r = r ? aw_mut_insert_at(d, &size, max, j + 3) : NULL;
	if (r) {
		memset(r, 0, R);
		aw_fuzz_rec_set(r, AW_FR_KIND, AW_FK_AGE_END);
		aw_fuzz_rec_set(r, AW_FR_NODE, node);
	}
	return size;
}

/* change record i's kind */
size_t aw_mut_kind(uint8_t *d, size_t size, size_t max, struct aw_rng *g, size_t i)
{
	(void)max;
	if (aw_fuzz_nr_records(size))
		aw_fuzz_rec_set(aw_fuzz_rec(d, i), AW_FR_KIND, aw_rng_below(g, AW_FUZZ_NR_KINDS));
	return size;
}

/* reclaim right after an aging pass, on its node */
size_t aw_mut_reclaim(uint8_t *d, size_t size, size_t max, struct aw_rng *g, size_t i)
{
	size_t j;
	uint8_t *r;

	(void)i;
	if ((r = insert_after_kind(d, &size, max, g, AW_FK_AGE, AW_FK_AGE_FORCED, &j)))
		evict_record(g, r, aw_fuzz_rec_get(aw_fuzz_rec(d, j), AW_FR_NODE));
	return size;
}

/* a khugepaged wake-up after a madvise (or anywhere) */
size_t aw_mut_kh_wakeup(uint8_t *d, size_t size, size_t max, struct aw_rng *g, size_t i)
{
	size_t n = aw_fuzz_nr_records(size), j = pick_kind(d, n, g, AW_FK_MADVISE);
	uint8_t *r;

	(void)i;
	if ((r = aw_mut_insert_at(d, &size, max, j < n ? j + 1 : (n ? aw_rng_below(g, (uint32_t)n + 1) : 0))))
		kh_wakeup(g, r);
	return size;
}

/*
 * After record i: an madvise of its whole 2 MiB range (below(odds) picks
 * advice a, else b), and for MADV_HUGEPAGE a khugepaged wake-up.
 */
static size_t advise_range(uint8_t *d, size_t size, size_t max, struct aw_rng *g, size_t i, uint32_t odds,
			   int a, int b)
{
	uint8_t *r = aw_mut_insert_at(d, &size, max, i + 1);

	if (!r)
		return size;
	memcpy(r, aw_fuzz_rec(d, i), R);
	aw_fuzz_rec_set(r, AW_FR_KIND, AW_FK_MADVISE);
	aw_fuzz_rec_set(r, AW_FR_FLAGS, 0);	/* widened to whole 2 MiB ranges */
	set_advice(r, aw_rng_below(g, odds) ? a : b);
	if (advice(r) == AW_MADV_HUGEPAGE && (r = aw_mut_insert_at(d, &size, max, i + 2)))
		kh_wakeup(g, r);
	return size;
}

/*
 * Swap-in during a collapse (__collapse_huge_page_swapin(), and the copy
 * that must read the swapped-in pages) needs swap PTEs in a range that is
 * still worth collapsing: a present page or two beside a few swapped-out
 * ones.  A random MADV_PAGEOUT seldom lands there (it takes the whole
 * record's range, and one swap PTE too many fails khugepaged's
 * max_ptes_swap test), so: page out the first pages of a write, with swap
 * configured, then MADV_COLLAPSE the range or advise it and wake khugepaged.
 */
static size_t swap_then_collapse(uint8_t *d, size_t size, size_t max, struct aw_rng *g)
{
	size_t n = aw_fuzz_nr_records(size), j = pick_kind(d, n, g, AW_FK_WRITE);
	uint16_t len;
	uint8_t *r;

	if (j >= n || !(r = aw_mut_insert_at(d, &size, max, j + 1)))
		return size;
	len = aw_fuzz_rec_get_u16(aw_fuzz_rec(d, j), AW_FR_LEN) % AW_FUZZ_ACCESS_PAGES;	/* pages - 1 */
	memcpy(r, aw_fuzz_rec(d, j), R);
	aw_fuzz_rec_set(r, AW_FR_KIND, AW_FK_MADVISE);
	aw_fuzz_rec_set(r, AW_FR_FLAGS, AW_FUZZ_EXACT);
	aw_fuzz_rec_set_u16(r, AW_FR_LEN, len ? aw_rng_below(g, len) : 0);	/* leave a page present */
	set_advice(r, AW_MADV_PAGEOUT);
	if (aw_fuzz_hdr_get(d, AW_FH_SWAP) % 4 == 0)
		aw_fuzz_hdr_set(d, AW_FH_SWAP, 1);
	return advise_range(d, size, max, g, j + 1, 2, AW_MADV_COLLAPSE, AW_MADV_HUGEPAGE);
}

/* knob stores, prctl, advice, collapse-worthy ranges */
size_t aw_mut_khugepaged(uint8_t *d, size_t size, size_t max, struct aw_rng *g, size_t i)
{
	static const int adv[] = { AW_MADV_HUGEPAGE, AW_MADV_COLLAPSE, AW_MADV_FREE, AW_MADV_PAGEOUT,
				   AW_MADV_NOHUGEPAGE };
	size_t n = aw_fuzz_nr_records(size), j;
	uint8_t *r;

	(void)i;
	switch (aw_rng_below(g, 6)) {
	case 0:		/* a knob store */
		if ((r = aw_mut_insert_at(d, &size, max, n ? aw_rng_below(g, (uint32_t)n + 1) : 0))) {
			memset(r, 0, R);
			aw_fuzz_rec_set(r, AW_FR_KIND, AW_FK_KH_SET);
			/* an illegal one in eight */
			aw_fuzz_rec_set(r, AW_FR_FLAGS, aw_rng_below(g, 8) ? aw_rng_below(g, 4) : 7);
			aw_fuzz_rec_set(r, AW_FR_ARG, aw_rng_below(g, 4));
			aw_fuzz_rec_set_u16(r, AW_FR_KH_VALUE, aw_rng_next(g));
		}
		break;
	case 1:		/* prctl for a process */
		if ((r = aw_mut_insert_at(d, &size, max, n ? aw_rng_below(g, (uint32_t)n + 1) : 0))) {
			memset(r, 0, R);
			aw_fuzz_rec_set(r, AW_FR_KIND, AW_FK_PRCTL);
			aw_fuzz_rec_set(r, AW_FR_PROC, aw_rng_below(g, AW_FUZZ_PROCS));
			aw_fuzz_rec_set(r, AW_FR_ARG, aw_rng_below(g, 3));
		}
		break;
	case 2:		/* the advice khugepaged cares about */
		if ((j = pick_kind(d, n, g, AW_FK_MADVISE)) < n)
			set_advice(aw_fuzz_rec(d, j), adv[aw_rng_below(g, 5)]);
		break;
	case 3:		/* swap out a few pages of an accessed range, then collapse it */
		size = swap_then_collapse(d, size, max, g);
		break;
	default:	/* madvise hugepage (or collapse) of an accessed range, then khugepaged */
		if ((j = pick_kind(d, n, g, aw_rng_below(g, 2) ? AW_FK_WRITE : AW_FK_READ)) < n)
			size = advise_range(d, size, max, g, j, 4, AW_MADV_HUGEPAGE, AW_MADV_COLLAPSE);
		break;
	}
	return size;
}

/* After an MADV_FREE: turn the next access of its range into a read or a write (clean or dirty PTEs). */
size_t aw_mut_lazyfree_dirty(uint8_t *d, size_t size, size_t max, struct aw_rng *g, size_t i)
{
	size_t n = aw_fuzz_nr_records(size), start = aw_rng_below(g, (uint32_t)n ? (uint32_t)n : 1);
	uint8_t *r;

	(void)i;
	for (size_t k = 0; k < n; k++) {
		size_t f_i = (start + k) % n;
		const uint8_t *f = aw_fuzz_rec(d, f_i);

		if (!is_kind(f, AW_FK_MADVISE) || advice(f) != AW_MADV_FREE)
			continue;
		for (size_t a = f_i + 1; a < n; a++) {
			uint8_t *x = aw_fuzz_rec(d, a);

			if (is_access(x) && same_proc_region(x, f)) {
				aw_fuzz_rec_set(x, AW_FR_KIND, is_kind(x, AW_FK_READ) ? AW_FK_WRITE : AW_FK_READ);
				return size;
			}
		}
		/* none: touch the freed range again, then let khugepaged look */
		if ((r = aw_mut_insert_at(d, &size, max, f_i + 1))) {
			memcpy(r, aw_fuzz_rec(d, f_i), R);
			aw_fuzz_rec_set(r, AW_FR_KIND, aw_rng_below(g, 2) ? AW_FK_READ : AW_FK_WRITE);
			aw_fuzz_rec_set(r, AW_FR_FLAGS, 0);
			aw_fuzz_rec_set(r, AW_FR_REPEAT, 0);
			if ((r = aw_mut_insert_at(d, &size, max, f_i + 2)))
				kh_wakeup(g, r);
		}
		return size;
	}
	return size;
}

/*
 * Descriptor reads: make an mmap a file mapping, read two of its pages
 * through the descriptor a few calls over (every call marks both folios
 * accessed, climbing the tiers; one time in four a write, which dirties),
 * then reclaim on the record's node, where sort_folio() asks the tier.
 * Without an mmap, record i becomes a read.
 */
size_t aw_mut_fd_read(uint8_t *d, size_t size, size_t max, struct aw_rng *g, size_t i)
{
	size_t n = aw_fuzz_nr_records(size), m = n ? pick_kind(d, n, g, AW_FK_MMAP) : 0, at;
	uint8_t *r;

	if (m == n) {
		if (n)
			aw_fuzz_rec_set(aw_fuzz_rec(d, i), AW_FR_KIND, AW_FK_PREAD);
		return size;
	}
	r = aw_fuzz_rec(d, m);
	aw_fuzz_rec_set(r, AW_FR_FLAGS, (aw_fuzz_rec_get(r, AW_FR_FLAGS) | 4) & ~(uint32_t)AW_FUZZ_DROPPABLE);
	at = m + 1 + aw_rng_below(g, (uint32_t)(n - m));
	if (!(r = aw_mut_insert_at(d, &size, max, at)))
		return size;
	memcpy(r, aw_fuzz_rec(d, m), R);
	aw_fuzz_rec_set(r, AW_FR_KIND, aw_rng_below(g, 4) ? AW_FK_PREAD : AW_FK_PWRITE);
	aw_fuzz_rec_set(r, AW_FR_FLAGS, 0);
	aw_fuzz_rec_set_u16(r, AW_FR_OFF, aw_rng_below(g, 64));
	aw_fuzz_rec_set_u16(r, AW_FR_LEN, 1);
	aw_fuzz_rec_set(r, AW_FR_REPEAT, aw_rng_next(g));
	if ((r = aw_mut_insert_at(d, &size, max, at + 1)))
		evict_record(g, r, (uint8_t)aw_rng_next(g));
	return size;
}
