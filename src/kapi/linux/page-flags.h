/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * include/linux/page-flags.h, include/linux/page-flags-layout.h: the page
 * flags of struct folio (linux/mm_types.h) and where the generation and
 * the refs counter sit in folio->flags, for the model and kernel text.
 */
#ifndef AW_KAPI_LINUX_PAGE_FLAGS_H
#define AW_KAPI_LINUX_PAGE_FLAGS_H

#include <stdbool.h>

#include "linux/bitops.h"
#include "linux/mm_types.h"

/*
 * The bits the model and MGLRU use.  Their numbers are the model's own
 * (the kernel's depend on the configuration); kernel text only ever names
 * them.  PG_locked and PG_writeback are bits kernel text tests and the
 * model never sets (no page locks, no writeback); they sit above the refs
 * counter.
 */
enum pageflags {
	PG_lru,
	PG_active,
	PG_referenced,
	PG_workingset,
	PG_swapbacked,
	PG_dirty,
	PG_reclaim,
	PG_swapcache,
	PG_anon,		/* folio_test_anon(): folio->mapping is an anon_vma */
	PG_unevictable,
	PG_mlocked,
	PG_zeroed,		/* model: never written (content version 0) */
	PG_locked = 24,
	PG_writeback,
};

/*
 * page-flags-layout.h: where the generation and the refs counter live.
 * The widths are the kernel's (order_base_2(MAX_NR_GENS + 1) and
 * MAX_NR_TIERS - 2); the offsets are where this layout has room.
 */
#define LRU_GEN_PGOFF		16
#define LRU_GEN_WIDTH		3
#define LRU_REFS_PGOFF		19
#define LRU_REFS_WIDTH		2

static inline bool folio_test_large(const struct folio *f) { return f->order > 0; }

/* mm/page-writeback.c: folio_mark_dirty() of an anonymous folio: PG_dirty */
static inline void folio_mark_dirty(struct folio *f) { set_bit(PG_dirty, &f->flags); }

#endif /* AW_KAPI_LINUX_PAGE_FLAGS_H */
