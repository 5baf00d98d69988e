/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the mutator's files share, private to fuzz/mutator.c (the table of
 * mutations, its weights, the entry points), fuzz/mutate_records.c (edits
 * that know records, not what they mean) and fuzz/mutate_domain.c (edits
 * that know the event language: addresses within a PMD or a PUD, kinds,
 * aging passes, madvise advice, khugepaged).
 */
#ifndef AW_MUTATOR_INTERNAL_H
#define AW_MUTATOR_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "fuzzin.h"

/* The mutator's PRNG: local to one call, so there is nothing global. */
struct aw_rng {
	uint64_t s;
};

static inline uint32_t aw_rng_next(struct aw_rng *g)
{
	/* xorshift64* */
	g->s ^= g->s >> 12;
	g->s ^= g->s << 25;
	g->s ^= g->s >> 27;
	return (uint32_t)((g->s * 0x2545F4914F6CDD1DULL) >> 32);
}

static inline uint32_t aw_rng_below(struct aw_rng *g, uint32_t n)
{
	return n ? aw_rng_next(g) % n : 0;
}

/*
 * One mutation of d (size bytes: a header and whole records; room for max):
 * returns the new size.  i is a record index drawn before the mutation was
 * chosen (0 when there is no record), used by the mutations that edit "some
 * record"; the others draw what they need from g.
 */
typedef size_t aw_mutation_fn(uint8_t *d, size_t size, size_t max, struct aw_rng *g, size_t i);

/* Room for one record at index i (if it fits); returns its address or NULL. */
uint8_t *aw_mut_insert_at(uint8_t *d, size_t *size, size_t max, size_t i);

/* Generic record operations (mutate_records.c) */
aw_mutation_fn aw_mut_insert, aw_mut_delete, aw_mut_duplicate, aw_mut_swap, aw_mut_splice,
	aw_mut_delete_run, aw_mut_header, aw_mut_flip;

/* Domain mutations (mutate_domain.c) */
aw_mutation_fn aw_mut_pmd, aw_mut_pud, aw_mut_node_cpu, aw_mut_force_age, aw_mut_remap,
	aw_mut_migrate, aw_mut_memcg, aw_mut_split_age, aw_mut_kind, aw_mut_kh_wakeup,
	aw_mut_lazyfree_dirty, aw_mut_khugepaged, aw_mut_reclaim, aw_mut_fd_read;

#endif /* AW_MUTATOR_INTERNAL_H */
