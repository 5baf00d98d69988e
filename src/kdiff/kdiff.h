/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Model against kernel text: one scenario run by the model's MGLRU code on
 * the model's machine and by a tree's own MGLRU text (src/ktext), event by
 * event, with the first place they disagree reported (docs/ktext.md).
 *
 * The kernel text runs on its own small machine (struct aw_ktext); after
 * each event the model applied, kdiff makes the same change there: a page
 * the model faulted in is mapped on the same node with the same bits
 * (anonymous reads map the zero page), a page the model accessed gets its
 * accessed (and dirty) bits set along the walk, a task that ran marks its
 * mm used.  What MGLRU does with that state is each side's own: the
 * generation a new folio joins, what the walk reads, skips, promotes and
 * records in its Bloom filters.
 *
 * After every event both sides must agree on each lruvec's max_seq and
 * min_seq, its generation sizes, its walk counters (the names both have),
 * both PMD Bloom filters bit for bit, and every mapped page's generation,
 * flags and accessed bit.  Kernel text that warns (WARN_ON_ONCE and
 * friends) is a divergence too.
 *
 * Events beyond what the small machine does (eviction, munmap, fork,
 * madvise, migration, memcg limits, khugepaged ...) are refused with a
 * message: the run stops there, it does not guess.
 */
#ifndef AW_KDIFF_H
#define AW_KDIFF_H

#include <stdbool.h>
#include <stddef.h>

#include "ktext_api.h"
#include "scenario.h"

struct aw_kdiff_result {
	bool diverged;		/* false: agreed on every event (or refused one) */
	bool refused;		/* an event kernel-text runs do not support yet */
	size_t event;		/* index of the event after which they disagree */
	unsigned long checks;	/* comparisons made */
	char what[320];		/* the first disagreement, or why the event was refused */
};

/*
 * Run sc on the model and on ops's text.  The model takes the scenario's
 * configuration with the tree's kernel profile (6.1.y, 6.12.y, mainline
 * otherwise), as the `pud` variant for a tree with the PUD filter series,
 * and with the planted bugs in bugs (1 << enum aw_bug; 0 normally: a
 * planted bug proves a divergence is caught).  Returns 0 when the run
 * could be made (see res), -1 with res->what set when the scenario cannot
 * be set up (shape out of range, memory) or the model refused an event.
 */
int aw_kdiff_run(const struct aw_scenario *sc, const struct aw_ktext_ops *ops, unsigned int bugs,
		 struct aw_kdiff_result *res);

#endif /* AW_KDIFF_H */
