/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The structure-aware mutator core shared by libFuzzer
 * (LLVMFuzzerCustomMutator/CustomCrossOver) and AFL++ (afl_custom_fuzz).
 * It edits fuzz inputs (src/event/fuzzin.h) as records, with generic
 * record operations (mutate_records.c: insert, delete, duplicate, swap and
 * splice events, tweak the header, flip bytes) and domain mutations
 * (mutate_domain.c: retarget addresses within a PMD or a PUD, change nodes
 * and CPUs, force an aging pass, unmap and remap at the same address,
 * migrate a live range, change the memcg limit, and split an aging pass
 * into begin/step/end with an eviction inside it; for khugepaged: insert a
 * wake-up after a madvise, turn the access after an MADV_FREE from a read
 * into a write or back (clean or dirty PTEs), store a knob, prctl a
 * process, switch a madvise's advice, and advise an accessed range
 * hugepage (then wake khugepaged) or collapse it).  Each is chosen with a
 * weight that a fuzzing run may set (struct aw_mut_weights).
 */
#ifndef AW_MUTATOR_H
#define AW_MUTATOR_H

#include <stddef.h>
#include <stdint.h>

/*
 * Mutate data (size <= max_size bytes, a buffer of max_size) in place;
 * returns the new size: at most max_size, and a header plus whole records
 * (insertions stop at AW_FUZZ_MAX_EVENTS records) unless max_size is below
 * a header, when data is left alone.  Deterministic in seed.
 */
size_t aw_mutate(uint8_t *data, size_t size, size_t max_size, uint32_t seed);

/*
 * The weights of the mutations, one per entry of the table in mutator.c
 * (named there: insert, delete, ..., flip, fd_read); the default is 1 each.  A
 * mutation is chosen with probability w[k] / total.
 */
#define AW_MUT_NR		22
#define AW_MUT_MAX_WEIGHT	1000000u
struct aw_mut_weights {
	uint32_t w[AW_MUT_NR];
	uint32_t total;		/* their sum, > 0 */
};

/* The name of mutation k, NULL past the last */
const char *aw_mut_name(unsigned int k);
void aw_mut_weights_default(struct aw_mut_weights *w);
/*
 * "NAME=WEIGHT,..." (commas or white space between items, '#' comments;
 * a name not listed keeps its default), or "@FILE" holding the same text.
 * Returns 0, or -1 with a message in err.
 */
int aw_mut_weights_parse(struct aw_mut_weights *w, const char *spec, char *err, size_t errlen);
/*
 * The weights AGEWALK_MUTATOR_WEIGHTS names (the default if unset or
 * empty); exits with a message if it does not parse.  The engines' init
 * hooks read it once (bench/time-to-bug -w sets it).
 */
void aw_mut_weights_from_env(struct aw_mut_weights *w);
/* aw_mutate() with the given weights: the same result for the default ones */
size_t aw_mutate_weighted(const struct aw_mut_weights *w, uint8_t *data, size_t size, size_t max_size,
			  uint32_t seed);
/*
 * One-point crossover: a's header and a prefix of its records, then a
 * suffix of b's, into out (max_size bytes); returns its size, whole records
 * as for aw_mutate(), 0 if a or max_size is below a header.
 */
size_t aw_crossover(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, uint8_t *out,
		    size_t max_size, uint32_t seed);

#endif /* AW_MUTATOR_H */
