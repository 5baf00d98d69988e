/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The structure-aware mutator core shared by libFuzzer
 * (LLVMFuzzerCustomMutator/CustomCrossOver) and AFL++ (afl_custom_fuzz).
 * It edits fuzz inputs (src/event/fuzzin.h) as records: insert, delete,
 * duplicate, swap and splice events, retarget addresses within a PMD or a
 * PUD, change nodes and CPUs, force an aging pass, unmap and remap at the
 * same address, migrate a live range, change the memcg limit, and split an
 * aging pass into begin/step/end with an eviction inside it; for
 * khugepaged: insert a wake-up after a madvise, turn the access after an
 * MADV_FREE from a read into a write or back (clean or dirty PTEs), store a
 * knob, prctl a process, switch a madvise's advice, and advise an accessed
 * range hugepage (then wake khugepaged) or collapse it.
 */
#ifndef AW_MUTATOR_H
#define AW_MUTATOR_H

#include <stddef.h>
#include <stdint.h>

/* Mutate data (size bytes, buffer of max_size) in place; returns the new size. */
size_t aw_mutate(uint8_t *data, size_t size, size_t max_size, uint32_t seed);
/* One-point crossover: a prefix of a, then a suffix of b, into out; returns its size. */
size_t aw_crossover(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, uint8_t *out,
		    size_t max_size, uint32_t seed);

#endif /* AW_MUTATOR_H */
