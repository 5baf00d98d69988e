/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Equivalence oracles (docs/oracles.md): what a series says it leaves
 * unchanged must come out the same as base whenever base and the patched
 * variant start from the same page tables.
 *
 *  - forced-walk-equivalence: the PUD filter's seed (v3 3/4) and the RFC's
 *    empty-mm skip both step aside for force_scan, so a forced walk of an
 *    mm reads exactly what base's forced walk of the same mm reads: the
 *    same leaf entries, the same young ones, the same PTE tables walked
 *    and carried into the next PMD filter.  Which mms a forced
 *    walker may leave out is the skip rules' business: the node bit
 *    (force-scan-complete), the empty mark (emptymap-cadence), and the
 *    size test and mmget_not_zero(), which read state the two machines
 *    need not share.
 *  - madv-collapse-equivalence: the khugepaged series changes what
 *    khugepaged counts and skips (cur_progress, the lazyfree skip, both
 *    gated on cc->is_khugepaged); MADV_COLLAPSE passes NULL for the
 *    progress and is_khugepaged = false, so each of its ranges is decided
 *    as base decides it.
 *
 * "The same page tables" is a digest of what the rules read, taken when
 * the walk or the range starts: every entry's kind and accessed, dirty and
 * write bits, and for a mapped folio its node, memcg, order, LRU and
 * anon/swap-backed/referenced flags and whether it is shared -- never a
 * pfn or a swap slot, which differ between two machines whose allocations
 * went differently.  Two runs that diverged elsewhere are still compared
 * wherever the inputs agree; where they do not, nothing is claimed.
 */
#ifndef AW_EQUIV_H
#define AW_EQUIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "oracle.h"

struct aw_kernel;

/* What one forced walk read (the counters the rule fixes) */
enum { AW_EQ_LEAF_TOTAL, AW_EQ_LEAF_YOUNG, AW_EQ_NONLEAF_FOUND, AW_EQ_NONLEAF_ADDED, AW_EQ_PMD_READ, AW_EQ_NR };

struct aw_equiv_walk {
	uint32_t mm;
	int nid, memcg;
	int err;
	uint64_t digest;
	unsigned long stat[AW_EQ_NR];
};

struct aw_equiv_range {
	uint32_t mm;
	uint64_t haddr;
	uint64_t digest;
	int result;			/* enum scan_result */
};

/* One kernel's records of the current event; lives in struct aw_lockstep. */
struct aw_equiv {
	struct aw_kernel *k;
	uint64_t walk_digest;		/* of the forced walk in progress */
	uint64_t range_digest;		/* of the MADV_COLLAPSE range in progress */
	int nr_walks, cap_walks;
	struct aw_equiv_walk *walks;
	int nr_ranges, cap_ranges;
	struct aw_equiv_range *ranges;
};

/* Register the probes on k that fill eq; 0 or -1. */
int aw_equiv_attach(struct aw_equiv *eq, struct aw_kernel *k);
void aw_equiv_free(struct aw_equiv *eq);
/* Forget the previous event's records. */
void aw_equiv_event_begin(struct aw_equiv *eq);

/*
 * Compare variant v's records of the current event with base's.  Returns the oracle
 * that fired (cause and msg filled; the cause holds no address, pid or
 * index), or AW_OR_NR when they agree.
 */
enum aw_oracle_id aw_equiv_compare(const struct aw_equiv *base, const struct aw_equiv *v,
				   char *cause, size_t clen, char *msg, size_t mlen);

/* The digest of the page tables one forced walk of mm reads (every VMA of it). */
uint64_t aw_equiv_mm_digest(struct aw_kernel *k, struct mm_struct *mm);
/* The digest of the 2 MiB range at haddr that a collapse decision reads. */
uint64_t aw_equiv_range_digest(struct aw_kernel *k, struct mm_struct *mm, uint64_t haddr);

#endif /* AW_EQUIV_H */
