/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * MGLRU Bloom filters (mm/vmscan.c: get_item_key, test/update/reset_bloom_filter).
 *
 * One pair of double-buffered filters per level; the seed series (v3 patch
 * 2/4) turned the single PMD-level pair into filters[level][seq % 2], with
 * helpers that take the pair.  This file is that generic pair, so the PMD
 * level (base) and the PUD level (the `pud` variant) share every rule:
 * 2^15 bits, two keys from hash_ptr(item, 30), a NULL filter tests true,
 * reset allocates on first use.
 */
#ifndef AW_BLOOM_H
#define AW_BLOOM_H

#include <stdbool.h>
#include <stdint.h>

#include "linux/hash.h"

#define BLOOM_FILTER_SHIFT	15
#define NR_BLOOM_FILTERS	2

enum bloom_filter_level {
	BLOOM_FILTER_PUD,
	BLOOM_FILTER_PMD,
	BLOOM_FILTER_LEVELS,
};

/* include/linux/hash.h: hash_64() with the 64-bit golden ratio; hash_ptr() on 64-bit */
static inline uint32_t hash_ptr(uint64_t val, unsigned int bits)
{
	return (uint32_t)((val * GOLDEN_RATIO_64) >> (64 - bits));
}

/* mm/vmscan.c: get_item_key() */
static inline void get_item_key(uint64_t item, int key[2])
{
	uint32_t hash = hash_ptr(item, BLOOM_FILTER_SHIFT * 2);

	key[0] = hash & ((1U << BLOOM_FILTER_SHIFT) - 1);
	key[1] = hash >> BLOOM_FILTER_SHIFT;
}

/* mm/vmscan.c: filter_gen_from_seq() */
static inline int filter_gen_from_seq(unsigned long seq)
{
	return seq % NR_BLOOM_FILTERS;
}

/* A filter is a bitmap of 2^15 bits; NULL until the first reset (bitmap_zalloc). */
typedef unsigned long *aw_bloom_t;

bool __test_bloom_filter(aw_bloom_t *filters, unsigned long seq, uint64_t item);
void __update_bloom_filter(aw_bloom_t *filters, unsigned long seq, uint64_t item);
/* Returns -1 if allocation failed (the filter stays NULL, as in the kernel). */
int __reset_bloom_filter(aw_bloom_t *filters, unsigned long seq);
void aw_bloom_free(aw_bloom_t *filters);
/* Bits set in filters[seq % 2], for the filter_fill figure. */
unsigned int aw_bloom_weight(aw_bloom_t *filters, unsigned long seq);

#endif /* AW_BLOOM_H */
