// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfn space of each node, folio allocation, and reverse mappings.
 */
#include <stdlib.h>
#include <string.h>

#include "folio.h"

/* Node n's pfns start after the previous node's; pfn 0..0xfff stay unowned
 * so the zero pages (ZERO_PFN, HUGE_ZERO_PFN) belong to no node. */
#define AW_FIRST_NODE_PFN	0x1000ULL

int aw_mem_init(struct aw_mem *mem, int nr_nodes, const uint64_t *node_bytes)
{
	uint64_t pfn = AW_FIRST_NODE_PFN;

	memset(mem, 0, sizeof(*mem));
	if (nr_nodes < 1 || nr_nodes > 8)
		return -1;
	mem->nr_nodes = nr_nodes;
	for (int n = 0; n < nr_nodes; n++) {
		struct aw_node_mem *nm = &mem->node[n];
		uint64_t blocks = node_bytes[n] / PMD_SIZE;

		if (blocks == 0 || blocks > (1U << 22))
			return -1;
		nm->start_pfn = pfn;
		nm->spanned = blocks * HPAGE_PMD_NR;
		nm->nr_blocks = (uint32_t)blocks;
		nm->blocks = calloc(blocks, sizeof(*nm->blocks));
		if (!nm->blocks)
			return -1;
		nm->nr_free = nm->spanned;
		pfn += nm->spanned;
	}
	mem->rmap_free = AW_NIL;
	mem->uniform = true;
	for (int n = 1; n < nr_nodes; n++)
		if (mem->node[n].spanned != mem->node[0].spanned)
			mem->uniform = false;
	if (mem->uniform && !(mem->node[0].spanned & (mem->node[0].spanned - 1)))
		mem->node_shift = (unsigned int)__builtin_ctzll(mem->node[0].spanned);
	return 0;
}

void aw_mem_destroy(struct aw_mem *mem)
{
	for (int n = 0; n < mem->nr_nodes; n++) {
		struct aw_node_mem *nm = &mem->node[n];

		/* blocks at and past next_block were never handed out */
		for (uint32_t b = 0; b < nm->next_block; b++)
			free(nm->blocks[b].folios);
		free(nm->blocks);
		free(nm->free_blocks);
		free(nm->free_small);
	}
	free(mem->rmap);
	memset(mem, 0, sizeof(*mem));
}

int aw_pfn_nid(const struct aw_mem *mem, uint64_t pfn)
{
	if (mem->nr_nodes == 1)		/* a replayed machine's memory: no division */
		return pfn - mem->node[0].start_pfn < mem->node[0].spanned ? 0 : -1;
	/* equal-sized nodes (the common case): one division, no loop */
	if (mem->uniform) {
		uint64_t n;

		if (pfn < mem->node[0].start_pfn)
			return -1;
		n = (pfn - mem->node[0].start_pfn) / mem->node[0].spanned;
		return n < (uint64_t)mem->nr_nodes ? (int)n : -1;
	}
	for (int n = 0; n < mem->nr_nodes; n++) {
		const struct aw_node_mem *nm = &mem->node[n];

		if (pfn >= nm->start_pfn && pfn < nm->start_pfn + nm->spanned)
			return n;
	}
	return -1;
}

struct folio *aw_pfn_folio_slow(const struct aw_mem *mem, uint64_t pfn)
{
	int nid = aw_pfn_nid(mem, pfn);
	const struct aw_node_mem *nm;
	const struct aw_block *blk;
	uint64_t off;

	if (nid < 0)
		return NULL;
	nm = &mem->node[nid];
	off = pfn - nm->start_pfn;
	blk = &nm->blocks[off / HPAGE_PMD_NR];
	if (!blk->folios || blk->state == AW_BLOCK_UNUSED)
		return NULL;
	if (blk->state == AW_BLOCK_THP)
		return &blk->folios[0];
	return &blk->folios[off % HPAGE_PMD_NR];
}

static int push_u32(uint32_t **arr, uint32_t *nr, uint32_t *cap, uint32_t v)
{
	if (*nr == *cap) {
		uint32_t ncap = *cap ? *cap * 2 : 256;
		uint32_t *a = realloc(*arr, ncap * sizeof(*a));

		if (!a)
			return -1;
		*arr = a;
		*cap = ncap;
	}
	(*arr)[(*nr)++] = v;
	return 0;
}

static int take_block(struct aw_node_mem *nm, uint32_t *blkno)
{
	if (nm->nr_free_blocks) {
		*blkno = nm->free_blocks[--nm->nr_free_blocks];
		return 0;
	}
	if (nm->next_block >= nm->nr_blocks)
		return -1;
	*blkno = nm->next_block++;
	return 0;
}

/*
 * The block's folio structs, allocated zeroed the first time it is handed
 * out; *fresh says whether they were (a block handed out before keeps what
 * its last user left in them).
 */
static struct aw_block *prepare_block(struct aw_mem *mem, struct aw_node_mem *nm, uint32_t blkno,
				      enum aw_block_state state, bool *fresh)
{
	struct aw_block *blk = &nm->blocks[blkno];

	*fresh = !blk->folios;
	if (!blk->folios) {
		/*
		 * On cache-line boundaries: calloc()'s 16-byte alignment puts
		 * three folios in four across two lines, so the list walks
		 * (the oracles' check_lruvec(), aging's list moves), which read
		 * a folio's links at its start and its memcg, node and order at
		 * its end, missed twice per folio instead of once.
		 */
		blk->folios = aligned_alloc(64, HPAGE_PMD_NR * sizeof(struct folio));
		if (!blk->folios)
			return NULL;
		memset(blk->folios, 0, HPAGE_PMD_NR * sizeof(struct folio));
		mem->nr_folio_structs += HPAGE_PMD_NR;
	}
	blk->state = state;
	return blk;
}

static void init_folio(struct folio *f, uint32_t pfn, int nid, unsigned int order)
{
	memset(f, 0, sizeof(*f));
	f->pfn = pfn;
	f->nid = (uint8_t)nid;
	f->order = (uint8_t)order;
	INIT_LIST_HEAD(&f->lru);
	f->rmap_more = AW_NIL;
	f->flags = 1UL << PG_zeroed;
}

uint32_t aw_folio_alloc(struct aw_mem *mem, int nid, unsigned int order)
{
	struct aw_node_mem *nm = &mem->node[nid];
	struct aw_block *blk;
	uint32_t blkno, pfn;
	uint64_t off;
	bool fresh;

	if (order) {
		if (take_block(nm, &blkno))
			return AW_NIL;
		blk = prepare_block(mem, nm, blkno, AW_BLOCK_THP, &fresh);
		if (!blk)
			return AW_NIL;
		pfn = (uint32_t)(nm->start_pfn + (uint64_t)blkno * HPAGE_PMD_NR);
		init_folio(&blk->folios[0], pfn, nid, order);
		/*
		 * Every subpage starts zero-filled: tails carry their content
		 * versions.  Structs just allocated zeroed already say so; only
		 * a block used before needs the loop (it touches 32 KiB, and
		 * most THP faults of a fuzzed machine take a fresh block).
		 */
		for (int i = 1; !fresh && i < HPAGE_PMD_NR; i++)
			blk->folios[i].version = 0;
		nm->nr_free -= HPAGE_PMD_NR;
		return pfn;
	}
	if (!nm->nr_free_small) {
		/* Carve a fresh block into order-0 pages, lowest pfn handed out first. */
		if (take_block(nm, &blkno))
			return AW_NIL;
		blk = prepare_block(mem, nm, blkno, AW_BLOCK_SMALL, &fresh);
		if (!blk)
			return AW_NIL;
		for (int i = HPAGE_PMD_NR - 1; i >= 0; i--) {
			uint32_t p = (uint32_t)(nm->start_pfn + (uint64_t)blkno * HPAGE_PMD_NR + i);

			if (push_u32(&nm->free_small, &nm->nr_free_small, &nm->cap_free_small, p))
				return AW_NIL;
		}
	}
	pfn = nm->free_small[--nm->nr_free_small];
	/* pfn_folio() without its "no folio" case: a free pfn lies in a block of order-0 folios */
	off = pfn - nm->start_pfn;
	init_folio(&nm->blocks[off / HPAGE_PMD_NR].folios[off % HPAGE_PMD_NR], pfn, nid, 0);
	/*
	 * The next allocation's folio, fetched while the fault goes on: a
	 * fresh folio's line is otherwise a cache miss in the fault path.
	 * A hint only: nothing depends on it.
	 */
	if (nm->nr_free_small) {
		uint64_t next = nm->free_small[nm->nr_free_small - 1] - nm->start_pfn;

		__builtin_prefetch(&nm->blocks[next / HPAGE_PMD_NR].folios[next % HPAGE_PMD_NR], 1);
	}
	nm->nr_free--;
	return pfn;
}

void aw_folio_free(struct aw_mem *mem, uint32_t pfn)
{
	int nid = aw_pfn_nid(mem, pfn);
	struct aw_node_mem *nm;
	uint64_t off;
	struct aw_block *blk;
	struct folio *f;

	if (nid < 0)
		return;
	nm = &mem->node[nid];
	off = pfn - nm->start_pfn;
	blk = &nm->blocks[off / HPAGE_PMD_NR];
	f = pfn_folio(mem, pfn);
	/* free the rmap chain, if the caller left one */
	while (f && f->rmap_more != AW_NIL) {
		uint32_t i = f->rmap_more;

		f->rmap_more = mem->rmap[i].next;
		mem->rmap[i].next = mem->rmap_free;
		mem->rmap_free = i;
	}
	if (blk->state == AW_BLOCK_THP) {
		memset(&blk->folios[0], 0, sizeof(struct folio));
		blk->state = AW_BLOCK_UNUSED;
		push_u32(&nm->free_blocks, &nm->nr_free_blocks, &nm->cap_free_blocks,
			 (uint32_t)(off / HPAGE_PMD_NR));
		nm->nr_free += HPAGE_PMD_NR;
		return;
	}
	/* zeroed, lru included: a freed folio is on no list and must not be put on one */
	memset(f, 0, sizeof(*f));
	push_u32(&nm->free_small, &nm->nr_free_small, &nm->cap_free_small, pfn);
	nm->nr_free++;
}

void aw_folio_split_structs(struct aw_mem *mem, uint32_t pfn)
{
	int nid = aw_pfn_nid(mem, pfn);
	struct aw_node_mem *nm = &mem->node[nid];
	struct aw_block *blk = &nm->blocks[(pfn - nm->start_pfn) / HPAGE_PMD_NR];
	struct folio *head = &blk->folios[0];

	/* Tails inherit flags, memcg and history, and keep their own contents. */
	for (int i = 1; i < HPAGE_PMD_NR; i++) {
		struct folio *t = &blk->folios[i];
		uint32_t version = t->version;

		*t = *head;
		t->pfn = pfn + i;
		t->version = version;
		t->order = 0;
		t->rmap_mm = 0;
		t->rmap_more = AW_NIL;
		t->mapcount = 0;
		/* the caller links it next to the head if the head is on a list */
		INIT_LIST_HEAD(&t->lru);
	}
	head->order = 0;
	blk->state = AW_BLOCK_SMALL;
}

int aw_rmap_add(struct aw_mem *mem, struct folio *folio, uint32_t mm, uint64_t addr)
{
	uint32_t i;

	folio->mapcount++;
	if (!folio->rmap_mm) {
		folio->rmap_mm = mm;
		folio->rmap_addr = addr;
		return 0;
	}
	if (mem->rmap_free != AW_NIL) {
		i = mem->rmap_free;
		mem->rmap_free = mem->rmap[i].next;
	} else {
		if (mem->nr_rmap == mem->cap_rmap) {
			uint32_t cap = mem->cap_rmap ? mem->cap_rmap * 2 : 1024;
			struct aw_rmap_node *r = realloc(mem->rmap, cap * sizeof(*r));

			if (!r) {
				folio->mapcount--;
				return -1;
			}
			mem->rmap = r;
			mem->cap_rmap = cap;
		}
		i = mem->nr_rmap++;
	}
	mem->rmap[i].mm = mm;
	mem->rmap[i].addr = addr;
	mem->rmap[i].next = folio->rmap_more;
	folio->rmap_more = i;
	return 0;
}

bool aw_rmap_remove(struct aw_mem *mem, struct folio *folio, uint32_t mm, uint64_t addr)
{
	uint32_t *link = &folio->rmap_more;

	if (folio->rmap_mm == mm && folio->rmap_addr == addr) {
		/* promote the first chained mapping into the inline slot */
		uint32_t i = folio->rmap_more;

		if (i == AW_NIL) {
			folio->rmap_mm = 0;
			folio->rmap_addr = 0;
		} else {
			folio->rmap_mm = mem->rmap[i].mm;
			folio->rmap_addr = mem->rmap[i].addr;
			folio->rmap_more = mem->rmap[i].next;
			mem->rmap[i].next = mem->rmap_free;
			mem->rmap_free = i;
		}
		folio->mapcount--;
		return true;
	}
	while (*link != AW_NIL) {
		uint32_t i = *link;

		if (mem->rmap[i].mm == mm && mem->rmap[i].addr == addr) {
			*link = mem->rmap[i].next;
			mem->rmap[i].next = mem->rmap_free;
			mem->rmap_free = i;
			folio->mapcount--;
			return true;
		}
		link = &mem->rmap[i].next;
	}
	return false;
}

void aw_rmap_move(struct aw_mem *mem, struct folio *folio, uint32_t mm, uint64_t old_addr,
		  uint32_t new_mm, uint64_t new_addr)
{
	if (folio->rmap_mm == mm && folio->rmap_addr == old_addr) {
		folio->rmap_mm = new_mm;
		folio->rmap_addr = new_addr;
		return;
	}
	for (uint32_t i = folio->rmap_more; i != AW_NIL; i = mem->rmap[i].next) {
		if (mem->rmap[i].mm == mm && mem->rmap[i].addr == old_addr) {
			mem->rmap[i].mm = new_mm;
			mem->rmap[i].addr = new_addr;
			return;
		}
	}
}

bool aw_rmap_next(const struct aw_mem *mem, const struct folio *folio, uint32_t *idx,
		  uint32_t *mm, uint64_t *addr)
{
	/* idx 0: the inline mapping; then 1 + chain position */
	if (*idx == 0) {
		*idx = 1;
		if (folio->rmap_mm) {
			*mm = folio->rmap_mm;
			*addr = folio->rmap_addr;
			/* remember where the chain starts */
			*idx = folio->rmap_more == AW_NIL ? AW_NIL : folio->rmap_more + 2;
			return true;
		}
		*idx = folio->rmap_more == AW_NIL ? AW_NIL : folio->rmap_more + 2;
	}
	if (*idx == AW_NIL)
		return false;
	{
		uint32_t i = *idx - 2;

		*mm = mem->rmap[i].mm;
		*addr = mem->rmap[i].addr;
		*idx = mem->rmap[i].next == AW_NIL ? AW_NIL : mem->rmap[i].next + 2;
	}
	return true;
}
