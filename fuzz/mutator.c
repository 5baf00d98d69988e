// SPDX-License-Identifier: GPL-2.0-only
/*
 * Structure-aware mutations of fuzz inputs (mutator.h).  Deterministic in
 * the seed; the state is a local PRNG, so there is nothing global.
 */
#include <stdbool.h>
#include <string.h>

#include "fuzzin.h"
#include "mutator.h"

#define H	AW_FUZZ_HEADER
#define R	AW_FUZZ_RECORD

struct rng {
	uint64_t s;
};

static uint32_t next(struct rng *g)
{
	/* xorshift64* */
	g->s ^= g->s >> 12;
	g->s ^= g->s << 25;
	g->s ^= g->s >> 27;
	return (uint32_t)((g->s * 0x2545F4914F6CDD1DULL) >> 32);
}

static uint32_t below(struct rng *g, uint32_t n)
{
	return n ? next(g) % n : 0;
}

static size_t nrec(size_t size)
{
	return aw_fuzz_nr_records(size);
}

static uint8_t *rec(uint8_t *d, size_t i)
{
	return aw_fuzz_rec(d, i);
}

/* Make room for one record at index i (if it fits); returns its address. */
static uint8_t *insert_at(uint8_t *d, size_t *size, size_t max, size_t i)
{
	size_t n = nrec(*size);

	if (H + (n + 1) * R > max || n >= AW_FUZZ_MAX_EVENTS)
		return NULL;
	memmove(rec(d, i + 1), rec(d, i), (n - i) * R);
	*size = H + (n + 1) * R;
	return rec(d, i);
}

static void random_record(struct rng *g, uint8_t *r)
{
	for (int i = 0; i < R; i++)
		r[i] = (uint8_t)next(g);
	/* ages and accesses are what the oracles need most: favour them */
	if (below(g, 2))
		aw_fuzz_rec_set(r, AW_FR_KIND, below(g, 2) ? AW_FK_AGE : (below(g, 2) ? AW_FK_READ : AW_FK_WRITE));
}

static size_t pick_kind(uint8_t *d, size_t n, struct rng *g, enum aw_fuzz_kind kind)
{
	size_t start = below(g, (uint32_t)n);

	for (size_t k = 0; k < n; k++) {
		size_t i = (start + k) % n;

		if (aw_fuzz_rec_kind(rec(d, i)) == kind)
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

/* A khugepaged wake-up: mostly a few with the knob's budget, sometimes full scans. */
static void kh_wakeup(struct rng *g, uint8_t *r)
{
	memset(r, 0, R);
	aw_fuzz_rec_set(r, AW_FR_KIND, AW_FK_KHUGEPAGED);
	aw_fuzz_rec_set(r, AW_FR_FLAGS, below(g, 4) ? 0 : 1);
	aw_fuzz_rec_set(r, AW_FR_ARG, below(g, 2) ? 0 : next(g));
	aw_fuzz_rec_set(r, AW_FR_REPEAT, next(g));
}

/*
 * After record i: an madvise of its whole 2 MiB range (below(g, odds)
 * picks advice a, else b), and for MADV_HUGEPAGE a khugepaged wake-up.
 */
static size_t advise_range(uint8_t *d, size_t size, size_t max, struct rng *g, size_t i, uint32_t odds,
			   int a, int b)
{
	uint8_t *r = insert_at(d, &size, max, i + 1);

	if (!r)
		return size;
	memcpy(r, rec(d, i), R);
	aw_fuzz_rec_set(r, AW_FR_KIND, AW_FK_MADVISE);
	aw_fuzz_rec_set(r, AW_FR_FLAGS, 0);	/* widened to whole 2 MiB ranges */
	set_advice(r, below(g, odds) ? a : b);
	if (advice(r) == AW_MADV_HUGEPAGE && (r = insert_at(d, &size, max, i + 2)))
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
static size_t swap_then_collapse(uint8_t *d, size_t size, size_t max, struct rng *g)
{
	size_t n = nrec(size), j = pick_kind(d, n, g, AW_FK_WRITE);
	uint16_t len;
	uint8_t *r;

	if (j >= n || !(r = insert_at(d, &size, max, j + 1)))
		return size;
	len = aw_fuzz_rec_get_u16(rec(d, j), AW_FR_LEN) % AW_FUZZ_ACCESS_PAGES;	/* pages - 1 */
	memcpy(r, rec(d, j), R);
	aw_fuzz_rec_set(r, AW_FR_KIND, AW_FK_MADVISE);
	aw_fuzz_rec_set(r, AW_FR_FLAGS, AW_FUZZ_EXACT);
	aw_fuzz_rec_set_u16(r, AW_FR_LEN, len ? below(g, len) : 0);	/* leave a page present */
	set_advice(r, AW_MADV_PAGEOUT);
	if (aw_fuzz_hdr_get(d, AW_FH_SWAP) % 4 == 0)
		aw_fuzz_hdr_set(d, AW_FH_SWAP, 1);
	return advise_range(d, size, max, g, j + 1, 2, AW_MADV_COLLAPSE, AW_MADV_HUGEPAGE);
}

static size_t mutate_khugepaged(uint8_t *d, size_t size, size_t max, struct rng *g)
{
	size_t n = nrec(size), j;
	uint8_t *r;

	switch (below(g, 6)) {
	case 0:		/* a knob store */
		if ((r = insert_at(d, &size, max, n ? below(g, (uint32_t)n + 1) : 0))) {
			memset(r, 0, R);
			aw_fuzz_rec_set(r, AW_FR_KIND, AW_FK_KH_SET);
			aw_fuzz_rec_set(r, AW_FR_FLAGS, below(g, 8) ? below(g, 4) : 7);	/* illegal one in eight */
			aw_fuzz_rec_set(r, AW_FR_ARG, below(g, 4));
			aw_fuzz_rec_set_u16(r, AW_FR_KH_VALUE, next(g));
		}
		break;
	case 1:		/* prctl for a process */
		if ((r = insert_at(d, &size, max, n ? below(g, (uint32_t)n + 1) : 0))) {
			memset(r, 0, R);
			aw_fuzz_rec_set(r, AW_FR_KIND, AW_FK_PRCTL);
			aw_fuzz_rec_set(r, AW_FR_PROC, below(g, AW_FUZZ_PROCS));
			aw_fuzz_rec_set(r, AW_FR_ARG, below(g, 3));
		}
		break;
	case 2: {	/* the advice khugepaged cares about */
		static const int adv[] = { AW_MADV_HUGEPAGE, AW_MADV_COLLAPSE, AW_MADV_FREE, AW_MADV_PAGEOUT,
					   AW_MADV_NOHUGEPAGE };

		if ((j = pick_kind(d, n, g, AW_FK_MADVISE)) < n)
			set_advice(rec(d, j), adv[below(g, 5)]);
		break;
	}
	case 3:		/* swap out a few pages of an accessed range, then collapse it */
		size = swap_then_collapse(d, size, max, g);
		break;
	default:	/* madvise hugepage (or collapse) of an accessed range, then khugepaged */
		if ((j = pick_kind(d, n, g, below(g, 2) ? AW_FK_WRITE : AW_FK_READ)) < n)
			size = advise_range(d, size, max, g, j, 4, AW_MADV_HUGEPAGE, AW_MADV_COLLAPSE);
		break;
	}
	return size;
}

/* After an MADV_FREE: turn the next access of its range into a read or a write (clean or dirty PTEs). */
static size_t toggle_dirty(uint8_t *d, size_t size, size_t max, struct rng *g)
{
	size_t n = nrec(size), start = below(g, (uint32_t)n ? (uint32_t)n : 1);
	uint8_t *r;

	for (size_t k = 0; k < n; k++) {
		size_t i = (start + k) % n;
		const uint8_t *f = rec(d, i);

		if (!is_kind(f, AW_FK_MADVISE) || advice(f) != AW_MADV_FREE)
			continue;
		for (size_t a = i + 1; a < n; a++) {
			uint8_t *x = rec(d, a);

			if (is_access(x) && same_proc_region(x, f)) {
				aw_fuzz_rec_set(x, AW_FR_KIND, is_kind(x, AW_FK_READ) ? AW_FK_WRITE : AW_FK_READ);
				return size;
			}
		}
		/* none: touch the freed range again, then let khugepaged look */
		if ((r = insert_at(d, &size, max, i + 1))) {
			memcpy(r, rec(d, i), R);
			aw_fuzz_rec_set(r, AW_FR_KIND, below(g, 2) ? AW_FK_READ : AW_FK_WRITE);
			aw_fuzz_rec_set(r, AW_FR_FLAGS, 0);
			aw_fuzz_rec_set(r, AW_FR_REPEAT, 0);
			if ((r = insert_at(d, &size, max, i + 2)))
				kh_wakeup(g, r);
		}
		return size;
	}
	return size;
}

static size_t mutate_once(uint8_t *d, size_t size, size_t max, struct rng *g)
{
	size_t n = nrec(size), i = n ? below(g, (uint32_t)n) : 0, j;
	uint8_t *r, tmp[R];

	switch (below(g, 21)) {
	case 0:		/* insert a new event */
		if ((r = insert_at(d, &size, max, n ? below(g, (uint32_t)n + 1) : 0)))
			random_record(g, r);
		break;
	case 1:		/* delete one */
		if (n) {
			memmove(rec(d, i), rec(d, i + 1), (n - i - 1) * R);
			size -= R;
		}
		break;
	case 2:		/* duplicate one */
		if (n && (r = insert_at(d, &size, max, i + 1)))
			memcpy(r, rec(d, i), R);
		break;
	case 3:		/* swap two */
		if (n > 1) {
			j = below(g, (uint32_t)n);
			memcpy(tmp, rec(d, i), R);
			memcpy(rec(d, i), rec(d, j), R);
			memcpy(rec(d, j), tmp, R);
		}
		break;
	case 4:		/* splice: copy a run of records elsewhere */
		if (n > 1) {
			size_t len = 1 + below(g, (uint32_t)(n - i < 8 ? n - i : 8)), at = below(g, (uint32_t)n);
			uint8_t run[8 * R];

			memcpy(run, rec(d, i), len * R);
			for (size_t k = 0; k < len && (r = insert_at(d, &size, max, at + k)); k++)
				memcpy(r, run + k * R, R);
		}
		break;
	case 5:		/* move an address within its PMD (512 pages) */
		if (n) {
			uint32_t off = aw_fuzz_rec_get_u16(rec(d, i), AW_FR_OFF) % AW_FUZZ_MAX_PAGES;

			aw_fuzz_rec_set_u16(rec(d, i), AW_FR_OFF, (off & ~511U) | below(g, 512));
		}
		break;
	case 6:		/* ...or to the neighbouring PMD, or the neighbouring region (PUD) */
		if (n) {
			r = rec(d, i);
			if (below(g, 2))
				aw_fuzz_rec_set_u16(r, AW_FR_OFF, (aw_fuzz_rec_get_u16(r, AW_FR_OFF) +
								   (below(g, 2) ? 512 : AW_FUZZ_MAX_PAGES - 512)) %
								  AW_FUZZ_MAX_PAGES);
			else
				aw_fuzz_rec_set(r, AW_FR_REGION, (aw_fuzz_rec_get(r, AW_FR_REGION) +
								  (below(g, 2) ? 1 : AW_FUZZ_REGIONS - 1)) % AW_FUZZ_REGIONS);
		}
		break;
	case 7:		/* another node or CPU */
		if (n) {
			/*
			 * The value is drawn before the field, here, in the
			 * header tweak and in the byte flip: a single
			 * expression used to leave the order of the two draws
			 * to the compiler, gcc and clang both drew the value
			 * first, and so a seed keeps its mutation.
			 */
			uint32_t v = next(g);

			aw_fuzz_rec_set(rec(d, i), below(g, 2) ? AW_FR_NODE : AW_FR_CPU, v);
		}
		break;
	case 8:		/* turn an aging pass into a forced one */
		if ((j = pick_kind(d, n, g, AW_FK_AGE)) < n)
			aw_fuzz_rec_set(rec(d, j), AW_FR_KIND, AW_FK_AGE_FORCED);
		break;
	case 9:		/* munmap + mmap at the same address */
		if (n && (r = insert_at(d, &size, max, i))) {
			uint8_t region = aw_fuzz_rec_get(r, AW_FR_REGION);

			memset(r, 0, R);
			aw_fuzz_rec_set(r, AW_FR_KIND, AW_FK_MUNMAP);
			aw_fuzz_rec_set(r, AW_FR_REGION, region);
			aw_fuzz_rec_set_u16(r, AW_FR_LEN, AW_FUZZ_MAX_PAGES - 1);
			if ((r = insert_at(d, &size, max, i + 1))) {
				memcpy(r, rec(d, i), R);
				aw_fuzz_rec_set(r, AW_FR_KIND, AW_FK_MMAP);
				aw_fuzz_rec_set(r, AW_FR_FLAGS, next(g));
				aw_fuzz_rec_set_u16(r, AW_FR_LEN, below(g, AW_FUZZ_MAX_PAGES));
			}
		}
		break;
	case 10:	/* migrate a live range: where some access happened */
		if ((j = pick_kind(d, n, g, below(g, 2) ? AW_FK_WRITE : AW_FK_READ)) < n &&
		    (r = insert_at(d, &size, max, j + 1))) {
			memcpy(r, rec(d, j), R);
			aw_fuzz_rec_set(r, AW_FR_KIND, AW_FK_MIGRATE);
			aw_fuzz_rec_set(r, AW_FR_NODE, aw_fuzz_rec_get(r, AW_FR_NODE) + 1 + below(g, 2));
		}
		break;
	case 11:	/* the memcg limit: header, or a limit event */
		if (below(g, 2))
			aw_fuzz_hdr_set(d, AW_FH_MEMCG_LIMIT, next(g));
		else if ((r = insert_at(d, &size, max, n ? below(g, (uint32_t)n) : 0))) {
			memset(r, 0, R);
			aw_fuzz_rec_set(r, AW_FR_KIND, AW_FK_LIMIT);
			aw_fuzz_rec_set(r, AW_FR_ARG, next(g));
		}
		break;
	case 12:	/* split an aging pass into begin/step/end with an eviction inside */
		if ((j = pick_kind(d, n, g, AW_FK_AGE)) < n) {
			uint8_t node = aw_fuzz_rec_get(rec(d, j), AW_FR_NODE);

			aw_fuzz_rec_set(rec(d, j), AW_FR_KIND, AW_FK_AGE_BEGIN);
			r = insert_at(d, &size, max, j + 1);
			if (r) {
				memset(r, 0, R);
				aw_fuzz_rec_set(r, AW_FR_KIND, AW_FK_AGE_STEP);
				aw_fuzz_rec_set(r, AW_FR_NODE, node);
			}
			r = r ? insert_at(d, &size, max, j + 2) : NULL;
			if (r) {
				memset(r, 0, R);
				aw_fuzz_rec_set(r, AW_FR_KIND, AW_FK_EVICT);
				aw_fuzz_rec_set(r, AW_FR_FLAGS, below(g, 2));
				aw_fuzz_rec_set(r, AW_FR_NODE, node);
				aw_fuzz_rec_set(r, AW_FR_ARG, next(g));
			}
			r = r ? insert_at(d, &size, max, j + 3) : NULL;
			if (r) {
				memset(r, 0, R);
				aw_fuzz_rec_set(r, AW_FR_KIND, AW_FK_AGE_END);
				aw_fuzz_rec_set(r, AW_FR_NODE, node);
			}
		}
		break;
	case 15:	/* delete a run (splice's counterpart, so lengths do not only grow) */
		if (n) {
			size_t len = 1 + below(g, (uint32_t)(n - i < 8 ? n - i : 8));

			memmove(rec(d, i), rec(d, i + len), (n - i - len) * R);
			size -= len * R;
		}
		break;
	case 13: {	/* tweak a header field (the reserved bytes would change nothing) */
		uint32_t v = next(g);	/* the value first, as in case 7 */

		aw_fuzz_hdr_set(d, (enum aw_fuzz_hdr_field)below(g, AW_FH_NR_USED), v);
		break;
	}
	case 14:	/* change a kind */
		if (n)
			aw_fuzz_rec_set(rec(d, i), AW_FR_KIND, below(g, AW_FUZZ_NR_KINDS));
		break;
	case 16:	/* a khugepaged wake-up after a madvise (or anywhere) */
		j = pick_kind(d, n, g, AW_FK_MADVISE);
		if ((r = insert_at(d, &size, max, j < n ? j + 1 : (n ? below(g, (uint32_t)n + 1) : 0))))
			kh_wakeup(g, r);
		break;
	case 17:	/* clean or dirty PTEs after MADV_FREE */
		size = toggle_dirty(d, size, max, g);
		break;
	case 18:	/* knob stores, prctl, advice, collapse-worthy ranges */
		size = mutate_khugepaged(d, size, max, g);
		break;
	case 19:	/* reclaim right after an aging pass, on its node */
		if ((j = pick_kind(d, n, g, below(g, 2) ? AW_FK_AGE : AW_FK_AGE_FORCED)) < n &&
		    (r = insert_at(d, &size, max, j + 1))) {
			uint8_t node = aw_fuzz_rec_get(rec(d, j), AW_FR_NODE);

			memset(r, 0, R);
			aw_fuzz_rec_set(r, AW_FR_KIND, AW_FK_EVICT);
			aw_fuzz_rec_set(r, AW_FR_FLAGS, below(g, 2));
			aw_fuzz_rec_set(r, AW_FR_NODE, node);
			aw_fuzz_rec_set(r, AW_FR_ARG, next(g));
		}
		break;
	default:	/* flip a byte of a record: any byte, not only a field's */
		if (n) {
			uint8_t x = (uint8_t)(1 + below(g, 255));

			rec(d, i)[below(g, R)] ^= x;
		}
		break;
	}
	return size;
}

size_t aw_mutate(uint8_t *data, size_t size, size_t max_size, uint32_t seed)
{
	struct rng g = { .s = 0x9E3779B97F4A7C15ULL ^ seed };
	int rounds = 1 + (int)below(&g, 4);

	if (max_size < H)
		return size < max_size ? size : max_size;
	if (size < H) {	/* grow a header out of nothing */
		memset(data + size, 0, H - size);
		size = H;
	}
	size = H + nrec(size) * R;	/* drop a partial record */
	while (rounds--)
		size = mutate_once(data, size, max_size, &g);
	return size;
}

size_t aw_crossover(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, uint8_t *out,
		    size_t max_size, uint32_t seed)
{
	struct rng g = { .s = 0xD1B54A32D192ED03ULL ^ seed };
	size_t ra = nrec(na), rb = nrec(nb), size = H;
	size_t ia, ib;

	if (max_size < H || na < H)
		return 0;
	/*
	 * One-point crossover: a's first events, then b's events from a
	 * random point on.  a's prefix builds a machine state (mappings,
	 * generations, marks) and b's suffix acts on it, and the child is
	 * as long as its parents on average.  (Interleaving both parents
	 * whole doubled the length at every crossover, so the corpus soon
	 * held nothing but inputs at the 256-event cap.)
	 */
	ia = below(&g, (uint32_t)ra + 1);
	ib = below(&g, (uint32_t)rb + 1);
	memcpy(out, a, H);
	for (size_t i = 0; i < ia && size + R <= max_size && nrec(size) < AW_FUZZ_MAX_EVENTS; i++, size += R)
		memcpy(out + size, a + H + i * R, R);
	for (size_t i = ib; i < rb && size + R <= max_size && nrec(size) < AW_FUZZ_MAX_EVENTS; i++, size += R)
		memcpy(out + size, b + H + i * R, R);
	return size;
}
