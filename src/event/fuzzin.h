/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fuzz input format (DESIGN.md §4): a 16-byte header and fixed 16-byte
 * event records, so that every byte string decodes to some valid stream
 * and a mutation of one byte changes one field of one event.
 *
 * The simulated machine is kept small for speed: 2-3 nodes of 512 MiB,
 * four processes, eight regions each in a PUD of its own, mappings of at
 * most 16 MiB, at most AW_FUZZ_MAX_EVENTS events.  The decoder enforces
 * the bounds by folding values into range, never by rejecting an input.
 */
#ifndef AW_FUZZIN_H
#define AW_FUZZIN_H

#include <stddef.h>
#include <stdint.h>

#include "scenario.h"

#define AW_FUZZ_HEADER		16
#define AW_FUZZ_RECORD		16
#define AW_FUZZ_MAX_EVENTS	256
#define AW_FUZZ_PROCS		4
#define AW_FUZZ_REGIONS		8
#define AW_FUZZ_REGION_BASE	0x7e0000000000ULL	/* region r at base + r GiB */
#define AW_FUZZ_MAX_PAGES	4096			/* 16 MiB per mapping */
#define AW_FUZZ_ACCESS_PAGES	16			/* 64 KiB per access (4 KiB stride) */

/*
 * Header bytes: 0 nodes (2 + b % 2), 1 THP mode (b % 3), 2 patched variant
 * (b % 3: pud, emptymap, rfc), 3 skip_empty (1 + b % 8), 4 memcg limit in
 * 4 MiB units (b % 64, 0 = none; 4-252 MiB), 5 swap (b % 4 == 0 ? none : 512 MiB),
 * 6-15 reserved (kept by the mutator, ignored by the decoder).
 *
 * Record bytes: 0 kind (b % AW_FUZZ_NR_KINDS, see aw_fuzz_kinds), 1 flags,
 * 2 process (b % 4), 3 region (b % 8), 4 node, 5 cpu, 6-7 page offset,
 * 8-9 length in pages, 10 argument (advice, prot, lock, swappiness...),
 * 11 repeat, 12-15 reserved.
 */
enum aw_fuzz_kind {
	AW_FK_READ, AW_FK_WRITE, AW_FK_AGE, AW_FK_AGE_FORCED, AW_FK_EVICT, AW_FK_MMAP,
	AW_FK_MUNMAP, AW_FK_MADVISE, AW_FK_MIGRATE, AW_FK_RUN, AW_FK_FORK, AW_FK_EXIT,
	AW_FK_PROC, AW_FK_AGE_BEGIN, AW_FK_AGE_STEP, AW_FK_AGE_END, AW_FK_CONTEND,
	AW_FK_MPROTECT, AW_FK_MREMAP, AW_FK_LIMIT, AW_FK_TIME,
	AW_FUZZ_NR_KINDS
};

/* Which patched variant runs next to base. */
const char *aw_fuzz_variant(const uint8_t *data, size_t size);

/* Decode any byte string into sc (names, config, events).  Never fails
 * except on out of memory (-1). */
int aw_fuzz_decode(const uint8_t *data, size_t size, struct aw_scenario *sc);

/*
 * Encode a scenario into the fuzz format, folding what does not fit
 * (more processes, regions, nodes, larger sizes) into range: a lossy
 * projection used to seed the corpus from corpus/scenarios/.  Returns the
 * number of bytes written into out (at most cap).
 */
size_t aw_fuzz_encode(const struct aw_scenario *sc, const char *variant, uint8_t *out, size_t cap);

#endif /* AW_FUZZIN_H */
