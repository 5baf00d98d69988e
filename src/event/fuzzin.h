/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fuzz input format: a 16-byte header and fixed 16-byte event records
 * (their byte layout, field names and accessors are in fuzzrec.h), so that
 * every byte string decodes to some valid stream and a mutation of one
 * byte changes one field of one event.
 *
 * The simulated machine is kept small for speed: 2-3 nodes of 512 MiB,
 * four processes (the layout small: 16 resident pages each), eight
 * regions each in a PUD of its own, mappings of at most 16 MiB, at most
 * AW_FUZZ_MAX_EVENTS events.  The decoder enforces
 * the bounds by folding values into range, never by rejecting an input.
 */
#ifndef AW_FUZZIN_H
#define AW_FUZZIN_H

#include <stddef.h>
#include <stdint.h>

#include "fuzzrec.h"
#include "scenario.h"

#define AW_FUZZ_MAX_EVENTS	256
#define AW_FUZZ_PROCS		4
#define AW_FUZZ_REGIONS		8
#define AW_FUZZ_REGION_BASE	0x7e0000000000ULL	/* region r at base + r GiB */
#define AW_FUZZ_MAX_PAGES	4096			/* 16 MiB per mapping */
#define AW_FUZZ_ACCESS_PAGES	16			/* 64 KiB per access (4 KiB stride) */

/*
 * Header bytes (AW_FH_*): 0 nodes (2 + b % 2), 1 THP mode (b % 3; the
 * khugepaged target folds never into always when (b / 3) % 2, else
 * madvise), 2 patched variant (b % 3: pud, emptymap, rfc; ignored by the
 * khugepaged target), 3 skip_empty (1 + b % 8), 4 memcg limit in 4 MiB
 * units (b % 64, 0 = none; 4-252 MiB), 5 swap (b % 4 == 0 ? none :
 * 512 MiB), 6 the empty-mm contract (fuzzrec.h: AW_FH_EC_*; 0 is the
 * default), 7-15 reserved (kept by the mutator, ignored by the decoder).
 *
 * Record bytes (AW_FR_*): 0 kind (b % AW_FUZZ_NR_KINDS, enum aw_fuzz_kind),
 * 1 flags, 2 process (b % 4), 3 region (b % 8), 4 node, 5 cpu, 6-7 page
 * offset, 8-9 length in pages, 10 argument (advice, prot, lock,
 * swappiness...), 11 repeat, 12-15 reserved.
 *
 * Flag bit 0x08 of mmap and of madvise hugepage/nohugepage/collapse asks
 * for the exact length (and offset); without it the mapping's length is
 * rounded up to a multiple of 2 MiB and those madvise ranges are widened
 * to whole 2 MiB ranges, so most ranges are khugepaged-eligible.  mmap
 * flag 0x10: MAP_DROPPABLE (anonymous only).
 *
 * The khugepaged kinds (appended, so the older kinds kept their numbers):
 *  - KHUGEPAGED: wake-ups.  Argument: pages_to_scan from aw_fuzz_kh_pages
 *    (b % 16; 0 = the knob for half of them); flag 1: AW_KH_FULL, wake up
 *    until 1 + repeat % 2 full scans completed, else 1 + repeat % 8
 *    wake-ups.
 *  - KH_SET: a sysfs store.  Argument: knob 1 + b % 4 (pages_to_scan,
 *    max_ptes_none/swap/shared); flags & 7 == 7: an illegal value the
 *    model ignores (pages_to_scan 0, max_ptes 512 + v % 1024, v = bytes
 *    8-9); flag 2: a listed value (pages_to_scan aw_fuzz_kh_pages[8 +
 *    v % 8], max_ptes aw_fuzz_kh_values[v % 8]); else pages_to_scan
 *    1 + v, max_ptes v % 512.
 *  - PRCTL: PR_SET_THP_DISABLE for the process, argument b % 3 (enable,
 *    disable, disable except advised).
 */
/* pages_to_scan of a KHUGEPAGED record by argument % 16 (0 = the knob) */
extern const uint32_t aw_fuzz_kh_pages[16];
/* KH_SET max_ptes_* values with flag 2, by bytes 8-9 % 8 */
extern const uint32_t aw_fuzz_kh_values[8];

/* The fuzz targets that read this format: they differ in the header. */
enum aw_fuzz_target {
	AW_FUZZ_LOCKSTEP = 0,	/* agewalk_fuzz_lockstep: base + the header's variant */
	AW_FUZZ_KHUGEPAGED,	/* agewalk_fuzz_khugepaged: khugepaged-base/-patched, THP never folded */
};

/* Which patched variant runs next to base (the lockstep target). */
const char *aw_fuzz_variant(const uint8_t *data, size_t size);

/* "khugepaged" (the khugepaged target's --fuzz-variant) or a variant list
 * naming a khugepaged-* variant -> AW_FUZZ_KHUGEPAGED, else LOCKSTEP. */
enum aw_fuzz_target aw_fuzz_target_of(const char *variant);

/* Decode any byte string into sc (names, config, events) as the lockstep
 * target does.  Never fails except on out of memory (-1). */
int aw_fuzz_decode(const uint8_t *data, size_t size, struct aw_scenario *sc);
/* ...as the given target does (the khugepaged target never runs THP never). */
int aw_fuzz_decode_target(const uint8_t *data, size_t size, struct aw_scenario *sc,
			  enum aw_fuzz_target target);

/*
 * Encode a scenario into the fuzz format, folding what does not fit
 * (more processes, regions, nodes, larger sizes) into range: a lossy
 * projection used to seed the corpus from corpus/scenarios/.  Returns the
 * number of bytes written into out (at most cap).
 */
size_t aw_fuzz_encode(const struct aw_scenario *sc, const char *variant, uint8_t *out, size_t cap);
/* variant "khugepaged" encodes for the khugepaged target: variant byte 0,
 * THP never written as madvise. */

#endif /* AW_FUZZIN_H */
