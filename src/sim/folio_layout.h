/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * struct folio and its flag bits, shared by the model and by kernel text
 * built from a tree (src/ktext): a variant whose MGLRU code is the
 * kernel's own runs on the model's folios, so both must agree on every
 * byte the other reads or writes -- folio->flags with the page flags,
 * the generation at LRU_GEN_PGOFF and the refs counter at LRU_REFS_PGOFF
 * (include/linux/page-flags-layout.h), and folio->lru, the list_head
 * that links it into lrugen->folios[][] (include/linux/mm_types.h).
 *
 * The includer defines struct list_head first (src/sim/list.h for the
 * model, the shim's own for kernel text): the two are the kernel's
 * two-pointer list_head, so the layouts match.  Nothing else is needed.
 */
#ifndef AW_FOLIO_LAYOUT_H
#define AW_FOLIO_LAYOUT_H

#include <stdint.h>

/*
 * include/linux/page-flags.h: the bits the model and MGLRU use.  Their
 * numbers are the model's own (the kernel's depend on the configuration);
 * kernel text only ever names them.  PG_locked and PG_writeback are bits
 * kernel text tests and the model never sets (no page locks, no
 * writeback); they sit above the refs counter.
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
 * include/linux/page-flags-layout.h: where the generation and the refs
 * counter live.  The widths are the kernel's (order_base_2(MAX_NR_GENS +
 * 1) and MAX_NR_TIERS - 2); the offsets are where this layout has room.
 */
#define LRU_GEN_PGOFF		16
#define LRU_GEN_WIDTH		3
#define LRU_REFS_PGOFF		19
#define LRU_REFS_WIDTH		2

struct folio {
	unsigned long flags;	/* enum pageflags, the generation and the refs counter */
	struct list_head lru;	/* on lrugen->folios[gen][type]; empty when on no list */
	uint64_t rmap_addr;	/* user address of the first mapping (page or PMD aligned) */
	uint32_t pfn;		/* model: folio_pfn() (the kernel computes it from the memmap) */
	uint32_t rmap_mm;	/* mm id of the first mapping, 0 = unmapped */
	uint32_t rmap_more;	/* further mappings: chain in struct aw_mem.rmap */
	uint32_t mapcount;	/* PTE or PMD mappings */
	uint32_t acc_seq;	/* max_seq of its lruvec at the last access (history below) */
	uint32_t version;	/* content version: 0 = zero-filled; bumped by writes */
	uint16_t memcg;		/* folio_memcg(): the memcg's id */
	uint8_t nid;		/* folio_nid() */
	uint8_t order;		/* 0 or HPAGE_PMD_ORDER */
	uint8_t acc_cur;	/* accesses while max_seq == acc_seq (saturating) */
	uint8_t acc_prev;	/* accesses during the interval before */
};

/*
 * 64 bytes, up from 48 when flags were 32 bits and the list links two pfns:
 * the kernel's unsigned long flags and pointer list_head (16 bytes more)
 * let kernel text share the model's folios.  The memory figure in README
 * follows this size; a field more must earn the next cache line.
 */
_Static_assert(sizeof(struct folio) == 64, "struct folio stays 64 bytes");

#endif /* AW_FOLIO_LAYOUT_H */
