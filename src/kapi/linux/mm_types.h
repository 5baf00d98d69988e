/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * include/linux/mm_types.h: struct folio, shared by the model (src/sim)
 * and by kernel text built from a tree (src/ktext).  A variant whose MGLRU
 * code is the kernel's own runs on the model's folios, so both must agree
 * on every byte the other reads or writes: folio->flags with the page
 * flags, the generation and the refs counter (linux/page-flags.h), and
 * folio->lru, the list_head that links it into lrugen->folios[][].  The
 * other fields are the model's; kernel text reaches them only through the
 * shim's accessors (folio_nid(), folio_memcg() ...).
 */
#ifndef AW_KAPI_LINUX_MM_TYPES_H
#define AW_KAPI_LINUX_MM_TYPES_H

#include <stdint.h>

#include "linux/list.h"

/*
 * struct page: a folio's head page overlays the folio's first words, as in
 * the kernel (&folio->page; 6.1's khugepaged lists isolated pages by
 * page->lru).  Only kernel text names pages (src/ktext/ktext_kh_state.h).
 */
struct page {
	unsigned long flags;
	struct list_head lru;
};

struct folio {
	union {
		struct {
			unsigned long flags;	/* enum pageflags, the generation and the refs counter */
			struct list_head lru;	/* on lrugen->folios[gen][type]; empty when on no list */
		};
		struct page page;	/* the head page */
	};
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

#endif /* AW_KAPI_LINUX_MM_TYPES_H */
