// SPDX-License-Identifier: GPL-2.0-only
/*
 * Generic record operations of the mutator (mutator_internal.h): insert,
 * delete, duplicate, swap, splice and delete runs of records, tweak a
 * header field, flip a byte.  They treat the fuzz format as a header and
 * an array of fixed-size records and leave the meaning of a record to the
 * decoder (src/event/fuzzin.c), which folds any bytes into a valid event.
 */
#include <string.h>

#include "mutator_internal.h"

#define H	AW_FUZZ_HEADER
#define R	AW_FUZZ_RECORD

uint8_t *aw_mut_insert_at(uint8_t *d, size_t *size, size_t max, size_t i)
{
	size_t n = aw_fuzz_nr_records(*size);

	if (H + (n + 1) * R > max || n >= AW_FUZZ_MAX_EVENTS)
		return NULL;
	memmove(aw_fuzz_rec(d, i + 1), aw_fuzz_rec(d, i), (n - i) * R);
	*size = H + (n + 1) * R;
	return aw_fuzz_rec(d, i);
}

static void random_record(struct aw_rng *g, uint8_t *r)
{
	for (int i = 0; i < R; i++)
		r[i] = (uint8_t)aw_rng_next(g);
	/* ages and accesses are what the oracles need most: favour them */
	if (aw_rng_below(g, 2))
		aw_fuzz_rec_set(r, AW_FR_KIND, aw_rng_below(g, 2) ? AW_FK_AGE :
					       (aw_rng_below(g, 2) ? AW_FK_READ : AW_FK_WRITE));
}

/* a new event, anywhere */
size_t aw_mut_insert(uint8_t *d, size_t size, size_t max, struct aw_rng *g, size_t i)
{
	size_t n = aw_fuzz_nr_records(size);
	uint8_t *r;

	(void)i;
	if ((r = aw_mut_insert_at(d, &size, max, n ? aw_rng_below(g, (uint32_t)n + 1) : 0)))
		random_record(g, r);
	return size;
}

/* delete record i */
size_t aw_mut_delete(uint8_t *d, size_t size, size_t max, struct aw_rng *g, size_t i)
{
	size_t n = aw_fuzz_nr_records(size);

	(void)max;
	(void)g;
	if (n) {
		memmove(aw_fuzz_rec(d, i), aw_fuzz_rec(d, i + 1), (n - i - 1) * R);
		size -= R;
	}
	return size;
}

/* record i twice in a row */
size_t aw_mut_duplicate(uint8_t *d, size_t size, size_t max, struct aw_rng *g, size_t i)
{
	size_t n = aw_fuzz_nr_records(size);
	uint8_t *r;

	(void)g;
	if (n && (r = aw_mut_insert_at(d, &size, max, i + 1)))
		memcpy(r, aw_fuzz_rec(d, i), R);
	return size;
}

/* swap record i with another */
size_t aw_mut_swap(uint8_t *d, size_t size, size_t max, struct aw_rng *g, size_t i)
{
	size_t n = aw_fuzz_nr_records(size), j;
	uint8_t tmp[R];

	(void)max;
	if (n > 1) {
		j = aw_rng_below(g, (uint32_t)n);
		memcpy(tmp, aw_fuzz_rec(d, i), R);
		memcpy(aw_fuzz_rec(d, i), aw_fuzz_rec(d, j), R);
		memcpy(aw_fuzz_rec(d, j), tmp, R);
	}
	return size;
}

/* splice: copy a run of up to 8 records from i elsewhere */
size_t aw_mut_splice(uint8_t *d, size_t size, size_t max, struct aw_rng *g, size_t i)
{
	size_t n = aw_fuzz_nr_records(size);
	uint8_t *r;

	if (n > 1) {
		size_t len = 1 + aw_rng_below(g, (uint32_t)(n - i < 8 ? n - i : 8)), at = aw_rng_below(g, (uint32_t)n);
		uint8_t run[8 * R];

		memcpy(run, aw_fuzz_rec(d, i), len * R);
		for (size_t k = 0; k < len && (r = aw_mut_insert_at(d, &size, max, at + k)); k++)
			memcpy(r, run + k * R, R);
	}
	return size;
}

/* delete a run from i (splice's counterpart, so lengths do not only grow) */
size_t aw_mut_delete_run(uint8_t *d, size_t size, size_t max, struct aw_rng *g, size_t i)
{
	size_t n = aw_fuzz_nr_records(size);

	(void)max;
	if (n) {
		size_t len = 1 + aw_rng_below(g, (uint32_t)(n - i < 8 ? n - i : 8));

		memmove(aw_fuzz_rec(d, i), aw_fuzz_rec(d, i + len), (n - i - len) * R);
		size -= len * R;
	}
	return size;
}

/* tweak a header field (the reserved bytes would change nothing) */
size_t aw_mut_header(uint8_t *d, size_t size, size_t max, struct aw_rng *g, size_t i)
{
	/*
	 * The value is drawn before the field, here, in aw_mut_node_cpu() and
	 * in the byte flip: a single expression used to leave the order of
	 * the two draws to the compiler, gcc and clang both drew the value
	 * first, and so a seed keeps its mutation.
	 */
	uint32_t v = aw_rng_next(g);

	(void)max;
	(void)i;
	aw_fuzz_hdr_set(d, (enum aw_fuzz_hdr_field)aw_rng_below(g, AW_FH_NR_USED), v);
	return size;
}

/* flip a byte of record i: any byte, not only a field's */
size_t aw_mut_flip(uint8_t *d, size_t size, size_t max, struct aw_rng *g, size_t i)
{
	size_t n = aw_fuzz_nr_records(size);

	(void)max;
	if (n) {
		uint8_t x = (uint8_t)(1 + aw_rng_below(g, 255));

		aw_fuzz_rec(d, i)[aw_rng_below(g, R)] ^= x;
	}
	return size;
}
