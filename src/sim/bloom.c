// SPDX-License-Identifier: GPL-2.0-only
/*
 * Bloom filters, as mm/vmscan.c (seed base and v3 patch 2/4).
 */
#include <stdlib.h>
#include <string.h>

#include "bloom.h"
#include "linux/array_size.h"
#include "linux/bitmap.h"
#include "linux/minmax.h"

#define BLOOM_WORDS	BITS_TO_LONGS(BIT(BLOOM_FILTER_SHIFT))

/* mm/vmscan.c: __test_bloom_filter() */
bool __test_bloom_filter(aw_bloom_t *filters, unsigned long seq, uint64_t item)
{
	int key[2];
	unsigned long *filter = filters[filter_gen_from_seq(seq)];

	/* no filter yet: everything passes, so the first walk sees it all */
	if (!filter)
		return true;
	get_item_key(item, key);
	return test_bit(key[0], filter) && test_bit(key[1], filter);
}

/* mm/vmscan.c: __update_bloom_filter() */
void __update_bloom_filter(aw_bloom_t *filters, unsigned long seq, uint64_t item)
{
	int key[2];
	unsigned long *filter = filters[filter_gen_from_seq(seq)];

	if (!filter)
		return;
	get_item_key(item, key);
	set_bit(key[0], filter);
	set_bit(key[1], filter);
}

/* mm/vmscan.c: __reset_bloom_filter() */
int __reset_bloom_filter(aw_bloom_t *filters, unsigned long seq)
{
	int gen = filter_gen_from_seq(seq);

	if (filters[gen]) {
		bitmap_zero(filters[gen], BIT(BLOOM_FILTER_SHIFT));
		return 0;
	}
	filters[gen] = calloc(BLOOM_WORDS, sizeof(unsigned long));
	return filters[gen] ? 0 : -1;
}

void aw_bloom_free(aw_bloom_t *filters)
{
	for (int i = 0; i < NR_BLOOM_FILTERS; i++) {
		free(filters[i]);
		filters[i] = NULL;
	}
}

unsigned int aw_bloom_weight(aw_bloom_t *filters, unsigned long seq)
{
	const unsigned long *filter = filters[filter_gen_from_seq(seq)];
	unsigned int n = 0;

	if (!filter)
		return 0;
	for (unsigned int i = 0; i < BLOOM_WORDS; i++)
		n += (unsigned int)__builtin_popcountl(filter[i]);
	return n;
}
