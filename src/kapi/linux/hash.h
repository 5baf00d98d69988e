/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * include/linux/hash.h: hash_64_generic(), the multiplicative hash, which
 * the Bloom filter's keys (mm/vmscan.c: get_item_key()) come from.
 * hash_ptr() is not here: the model hashes a table's synthetic address
 * (src/sim/bloom.h), kernel text a host pointer it first turns into that
 * address (src/ktext/ktext_objects.h).
 */
#ifndef AW_KAPI_LINUX_HASH_H
#define AW_KAPI_LINUX_HASH_H

#include <stdint.h>

#define GOLDEN_RATIO_64		0x61C8864680B583EBULL

static inline uint32_t hash_64(uint64_t val, unsigned int bits)
{
	return (uint32_t)(val * GOLDEN_RATIO_64 >> (64 - bits));
}

static inline uint32_t hash_long(unsigned long val, unsigned int bits) { return hash_64(val, bits); }

#endif /* AW_KAPI_LINUX_HASH_H */
