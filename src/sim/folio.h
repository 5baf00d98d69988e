/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Folios, the pfn space of each NUMA node, and reverse mappings.
 *
 * Only the folio fields MGLRU reads are modelled (include/linux/mm_types.h,
 * page-flags.h): flags with the generation and reference-count fields at
 * LRU_GEN_PGOFF / LRU_REFS_PGOFF, the LRU list links, node, memcg, order,
 * mapcount.  flags and lru have the kernel's types (an unsigned long, a
 * struct list_head), so kernel text that reads and writes them
 * (READ_ONCE(folio->flags), set_mask_bits(), list_move_tail(&folio->lru,
 * ...), lru_to_folio()) can run on these folios unchanged.  A folio is
 * named by its (head) pfn elsewhere in the model, and remembers it.  A
 * folio is 64 bytes; a resident 4 KiB page costs 72 bytes with its PTE.
 *
 * Memory of a node is cut into 2 MiB blocks of 512 pfns, allocated on first
 * use.  A block holds either one PMD-order folio (THP) or 512 order-0 ones.
 * There is no buddy allocator and no compaction (docs/model-notes.md): the
 * walk only needs to know which node a pfn is on.
 */
#ifndef AW_FOLIO_H
#define AW_FOLIO_H

#include <stdbool.h>
#include <stdint.h>

#include "linux/list.h"
#include "linux/mm.h"
#include "linux/mm_types.h"
#include "linux/page-flags.h"
#include "pgtable.h"

#define AW_NIL			0xffffffffU	/* no folio / end of a chain */

/* unsigned long masks, as the kernel's BIT(): ~mask keeps every high bit of flags */
#define LRU_GEN_MASK		(((1UL << LRU_GEN_WIDTH) - 1) << LRU_GEN_PGOFF)
#define LRU_REFS_MASK		(((1UL << LRU_REFS_WIDTH) - 1) << LRU_REFS_PGOFF)
/* 6.14+: the refs counter and PG_referenced are cleared together */
#define LRU_REFS_FLAGS		(LRU_REFS_MASK | (1UL << PG_referenced))


static inline bool folio_test(const struct folio *f, int bit) { return f->flags & (1UL << bit); }
static inline void folio_set(struct folio *f, int bit) { f->flags |= 1UL << bit; }
static inline void folio_clear(struct folio *f, int bit) { f->flags &= ~(1UL << bit); }
/* include/linux/mm_inline.h: folio_is_file_lru() */
static inline int folio_is_file_lru(const struct folio *f) { return !folio_test(f, PG_swapbacked); }
/* include/linux/mm_inline.h: folio_lru_gen() */
static inline int folio_lru_gen(const struct folio *f)
{
	return (int)((f->flags & LRU_GEN_MASK) >> LRU_GEN_PGOFF) - 1;
}
/*
 * Content version of page i of a folio (i = 0 for an order-0 folio).  A THP
 * keeps one version per subpage, in the otherwise unused tail structs that
 * follow its head, so that a collapse, a split, a swap-out or a migration
 * can be checked page by page for lost data.
 */
static inline uint32_t *folio_page_version(struct folio *folio, unsigned int i)
{
	return &folio[i].version;
}
/* include/linux/page-flags.h spellings of the flags the walk reads and writes */
static inline bool folio_test_dirty(const struct folio *f) { return folio_test(f, PG_dirty); }
static inline bool folio_test_anon(const struct folio *f) { return folio_test(f, PG_anon); }
static inline bool folio_test_swapbacked(const struct folio *f) { return folio_test(f, PG_swapbacked); }
static inline bool folio_test_swapcache(const struct folio *f) { return folio_test(f, PG_swapcache); }

/* include/linux/page-flags.h: folio_test_lazyfree(): anon and no longer swap-backed (MADV_FREE) */
static inline bool folio_test_lazyfree(const struct folio *f)
{
	return folio_test_anon(f) && !folio_test_swapbacked(f);
}

enum aw_block_state { AW_BLOCK_UNUSED = 0, AW_BLOCK_SMALL, AW_BLOCK_THP };

struct aw_block {
	struct folio *folios;	/* 512 structs, allocated on first use */
	uint8_t state;
};

struct aw_node_mem {
	uint64_t start_pfn;	/* pgdat->node_start_pfn */
	uint64_t spanned;	/* pfns in the node */
	uint32_t nr_blocks;
	struct aw_block *blocks;
	uint32_t next_block;	/* blocks never used yet start here */
	uint32_t *free_blocks;	/* freed THP blocks (LIFO) */
	uint32_t nr_free_blocks, cap_free_blocks;
	uint32_t *free_small;	/* freed or never-used order-0 pfns (LIFO) */
	uint32_t nr_free_small, cap_free_small;
	uint64_t nr_free;	/* free pages */
};

struct aw_rmap_node {
	uint64_t addr;
	uint32_t mm;
	uint32_t next;		/* index, AW_NIL ends the chain */
};

struct aw_mem {
	int nr_nodes;
	struct aw_node_mem node[8];
	struct aw_rmap_node *rmap;
	uint32_t nr_rmap, cap_rmap, rmap_free;
	uint64_t nr_folio_structs;	/* for the memory figure */
	bool uniform;			/* all nodes span the same number of pfns */
	unsigned int node_shift;	/* log2(pfns per node) when uniform and a power of 2, else 0 */
};

int aw_mem_init(struct aw_mem *mem, int nr_nodes, const uint64_t *node_bytes);
void aw_mem_destroy(struct aw_mem *mem);

/* pfn_to_nid(): -1 if the pfn belongs to no node (zero pages, garbage) */
int aw_pfn_nid(const struct aw_mem *mem, uint64_t pfn);
/* pfn_folio(): the (head) folio covering pfn, NULL if none */
struct folio *aw_pfn_folio_slow(const struct aw_mem *mem, uint64_t pfn);

/*
 * A hot lookup of the model (every PTE the walk finds goes through it), so
 * equal-sized power-of-two nodes take a shift and a mask instead of a
 * search, and a single node (a replayed machine's odd-sized memory) one
 * comparison.
 */
static inline struct folio *pfn_folio(const struct aw_mem *mem, uint64_t pfn)
{
	const struct aw_node_mem *nm = &mem->node[0];
	uint64_t off = pfn - nm->start_pfn;	/* below node 0: wraps, too large */
	const struct aw_block *blk;

	if (mem->node_shift) {
		uint64_t n = off >> mem->node_shift;

		if (n >= (uint64_t)mem->nr_nodes)
			return NULL;
		nm = &mem->node[n];
		off &= (1ULL << mem->node_shift) - 1;
	} else if (mem->nr_nodes != 1) {
		return aw_pfn_folio_slow(mem, pfn);
	} else if (off >= nm->spanned) {
		return NULL;
	}
	blk = &nm->blocks[off / HPAGE_PMD_NR];
	if (!blk->folios || blk->state == AW_BLOCK_UNUSED)
		return NULL;
	return blk->state == AW_BLOCK_THP ? &blk->folios[0] : &blk->folios[off % HPAGE_PMD_NR];
}

/* the pfn of a folio (its head) */
static inline uint64_t folio_pfn(const struct aw_mem *mem, const struct folio *folio)
{
	return folio->pfn;
}

/*
 * Allocate a folio of the given order on node nid; returns its pfn or AW_NIL
 * when the node has no room.  The folio comes back zeroed except pfn, nid,
 * order and PG_zeroed, its lru an empty list (on none).
 */
uint32_t aw_folio_alloc(struct aw_mem *mem, int nid, unsigned int order);
void aw_folio_free(struct aw_mem *mem, uint32_t pfn);
/* Turn a PMD-order folio into 512 order-0 folios in place (split_folio()). */
void aw_folio_split_structs(struct aw_mem *mem, uint32_t pfn);

/* Reverse mappings: every (mm, address) that maps the folio. */
int aw_rmap_add(struct aw_mem *mem, struct folio *folio, uint32_t mm, uint64_t addr);
/* Returns true if the mapping was found and removed. */
bool aw_rmap_remove(struct aw_mem *mem, struct folio *folio, uint32_t mm, uint64_t addr);
/* Move a mapping's address (mremap, migration keeps the folio). */
void aw_rmap_move(struct aw_mem *mem, struct folio *folio, uint32_t mm, uint64_t old_addr,
		  uint32_t new_mm, uint64_t new_addr);
/* Iterate: idx starts at 0; returns false when done. */
bool aw_rmap_next(const struct aw_mem *mem, const struct folio *folio, uint32_t *idx,
		  uint32_t *mm, uint64_t *addr);

#endif /* AW_FOLIO_H */
