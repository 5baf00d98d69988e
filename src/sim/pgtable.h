/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * x86-64 4-level page tables (arch/x86/include/asm/pgtable*.h).
 *
 * Entries are plain 64-bit words with the x86 bit positions for the bits
 * MGLRU looks at, so that a reader can compare the model with the hardware
 * format.  A table is 512 entries (one 4 KiB page).  Every table page has a
 * synthetic kernel virtual address, handed out by an allocator that reuses
 * freed table pages last-in-first-out, because the PMD-level Bloom filter
 * keys on &pmd[i] and pointer reuse after munmap/exit must be representable.
 *
 * Non-leaf entries store the table id in the pfn field.  Non-present entries
 * with _PAGE_SWP set are the model's swap entries (the payload is a swap
 * slot) or, with _PAGE_FILE_SHADOW, the mark left where a clean file page was
 * dropped (docs/model-notes.md: the kernel keeps that shadow in the page
 * cache, the model has no page cache).
 */
#ifndef AW_PGTABLE_H
#define AW_PGTABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "asm/pgtable_types.h"
#include "linux/pgtable.h"

/*
 * The model's own uses of the software bits 9 and 10 of a non-present
 * entry; the kernel's bits and sizes are src/kapi/asm/pgtable_types.h.
 */
#define _PAGE_SWP		0x200UL		/* model: non-present swap entry */
#define _PAGE_FILE_SHADOW	0x400UL		/* model: non-present, file page dropped */

/* The zero page and the huge zero page have pfns no node owns. */
#define ZERO_PFN		0x100ULL
#define HUGE_ZERO_PFN		0x200ULL

static inline bool pte_swp(pte_t pte) { return !pte_present(pte) && (pte & _PAGE_SWP); }
static inline uint64_t pte_swp_slot(pte_t pte) { return pte >> PAGE_SHIFT; }
static inline pte_t aw_mk_pte(uint64_t pfn, uint64_t flags) { return (pfn << PAGE_SHIFT) | flags; }
static inline pte_t aw_mk_swp(uint64_t slot) { return (slot << PAGE_SHIFT) | _PAGE_SWP; }

static inline bool is_huge_zero_pmd(pmd_t pmd) { return pmd_trans_huge(pmd) && pmd_pfn(pmd) == HUGE_ZERO_PFN; }
static inline bool is_zero_pfn(uint64_t pfn) { return pfn == ZERO_PFN; }

/* One table page: PGD, PUD, PMD or PTE table. */
struct aw_ptable {
	uint64_t e[512];
};

/* The PTE table holding pte, the entry for addr (e[] is its only member). */
static inline struct aw_ptable *aw_pte_table(pte_t *pte, uint64_t addr)
{
	return (struct aw_ptable *)(pte - pte_index(addr));
}

/*
 * Are the n entries from e (n a multiple of 4: an aligned block of
 * AW_PT_BLOCK, or group of AW_PT_GROUP, one cache line) all zero?  Scans
 * that step over the mostly empty tables of a sparse address space skip
 * such runs whole.  An OR of the run two entries at a time, into two
 * accumulators: gcc's -O2 keeps a plain loop scalar, one load and one OR
 * per entry, and this loop was a third of the aging walk's time.  Not
 * memcmp(), which a libFuzzer build routes through its comparison hook on
 * every call.  Inlined with a constant n, the loop unrolls.
 */
#define AW_PT_BLOCK	64
#define AW_PT_GROUP	8
typedef uint64_t aw_pt_pair __attribute__((vector_size(16)));
static inline bool aw_pt_empty(const uint64_t *e, unsigned int n)
{
	aw_pt_pair a = { 0, 0 }, b = { 0, 0 };

	for (unsigned int i = 0; i < n; i += 4) {
		aw_pt_pair x, y;

		memcpy(&x, &e[i], sizeof(x));	/* a load, with no alignment or aliasing claimed */
		memcpy(&y, &e[i + 2], sizeof(y));
		a |= x;
		b |= y;
	}
	a |= b;
	return !(a[0] | a[1]);
}

/*
 * The first of entries i..n-1 of table e (n <= 512) that is not zero, or
 * a value >= n if there is none.  An entry at a time only to the end of
 * i's group of 8; then whole empty blocks of 64 and groups of 8 are
 * skipped, and the entry is found inside the first group that is not
 * empty.  A sparse table's next entry is often in the same block but a
 * few groups on: the digests and walks that step from one mapped entry to
 * the next had spent most of their time in the entry-at-a-time loop.  A
 * block or group that straddles n is read to its end, which is still
 * inside the table (both are aligned).
 */
static inline unsigned int aw_pt_next_nonzero(const uint64_t *e, unsigned int i, unsigned int n)
{
	while (i < n && (i & (AW_PT_GROUP - 1)) && !e[i])
		i++;
	if (i >= n || e[i])
		return i;
	/* i is group-aligned from here */
	while (i < n) {
		if (!(i & (AW_PT_BLOCK - 1)) && aw_pt_empty(&e[i], AW_PT_BLOCK))
			i += AW_PT_BLOCK;
		else if (aw_pt_empty(&e[i], AW_PT_GROUP))
			i += AW_PT_GROUP;
		else
			break;
	}
	while (i < n && !e[i])
		i++;
	return i;
}

/*
 * The table-page allocator.  Table id 0 is never used so that a zero entry
 * is pmd_none().  Ids are reused LIFO, like a per-CPU page list would.
 */
/*
 * Table pages come from chunks of AW_PT_CHUNK consecutive pages, so that
 * a pointer into a table tells its id (aw_table_id_of()): kernel text
 * running on the model's tables hashes &pmd[i] for the Bloom filter, and
 * the key must be the table's synthetic address, as the model's is.
 */
#define AW_PT_CHUNK		16

struct aw_pt_chunk {
	struct aw_ptable *base;		/* AW_PT_CHUNK tables */
	uint32_t first_id;
};

struct aw_pgtable_alloc {
	struct aw_ptable **tables;	/* by id */
	int16_t *memcg;			/* by id: the memcg charged for the table, -1 none */
	uint32_t nr, cap;		/* ids handed out so far (high water mark) */
	uint32_t *free_ids;		/* LIFO stack of freed ids */
	uint32_t nr_free, cap_free;
	uint64_t live;			/* tables in use */
	struct aw_pt_chunk *chunks;	/* sorted by base address */
	uint32_t nr_chunks, cap_chunks;
	/*
	 * The chunk of the last entry aw_entry_written() looked up: a walk or
	 * a fault writes entry after entry of one table, so the next write is
	 * almost always in the same chunk, and the binary search over the
	 * chunks runs only when it is not.  Whether it hits depends only on
	 * the ids written (chunk n holds ids n * AW_PT_CHUNK + 1 ...), never
	 * on where the heap put the chunks.
	 */
	struct aw_pt_chunk hint;
	/*
	 * By id: how many times the table was allocated or had an entry
	 * written (or was about to).  The kernel-text agreement oracle
	 * (src/kbind/kbind_agree.c) compares only the tables whose count
	 * moved on either machine of a pair since it last looked, each pair
	 * keeping the counts it saw.  Every write of an entry counts: through
	 * aw_table_written() where the code knows the id, aw_entry_written()
	 * where it holds a pointer.  Counting more often than the table
	 * changes only costs a comparison.
	 */
	uint64_t *writes;
};

#define AW_KVA_TABLES		0xffff888100000000ULL	/* synthetic direct map of table pages */

int aw_pgtable_alloc_init(struct aw_pgtable_alloc *pa);
void aw_pgtable_alloc_destroy(struct aw_pgtable_alloc *pa);
/* Returns a zeroed table's id, 0 when out of memory. */
uint32_t aw_table_alloc(struct aw_pgtable_alloc *pa);
void aw_table_free(struct aw_pgtable_alloc *pa, uint32_t id);
/* The id of the table page p points into (and the entry's index), 0 if none. */
uint32_t aw_table_id_of(const struct aw_pgtable_alloc *pa, const void *p, unsigned int *index);

static inline struct aw_ptable *aw_table(const struct aw_pgtable_alloc *pa, uint32_t id)
{
	return pa->tables[id];
}

/* Table id was (or is about to be) written: see writes[] above. */
static inline void aw_table_written(struct aw_pgtable_alloc *pa, uint32_t id)
{
	pa->writes[id]++;
}

/* aw_entry_written()'s lookup when entry is outside the hinted chunk: sets the hint. */
uint32_t aw_table_id_rehint(struct aw_pgtable_alloc *pa, const void *entry);

/* The table entry points into was (or is about to be) written. */
static inline void aw_entry_written(struct aw_pgtable_alloc *pa, const void *entry)
{
	/* unsigned: an entry below the hinted chunk wraps to a large offset */
	uintptr_t off = (uintptr_t)entry - (uintptr_t)pa->hint.base;
	uint32_t id;

	if (pa->hint.base && off < AW_PT_CHUNK * sizeof(struct aw_ptable)) {
		id = pa->hint.first_id + (uint32_t)(off / sizeof(struct aw_ptable));
		if (id >= pa->nr)
			id = 0;
	} else {
		id = aw_table_id_rehint(pa, entry);
	}
	aw_table_written(pa, id);	/* id 0 (not a table) is never compared */
}

/* An entry of table id, which the caller may write (counted written). */
static inline uint64_t *aw_table_entry_w(struct aw_pgtable_alloc *pa, uint32_t id, unsigned int i)
{
	aw_table_written(pa, id);
	return &pa->tables[id]->e[i];
}

/* The memcg a table page is charged to (memcg.c), -1 if none. */
static inline int aw_table_memcg(const struct aw_pgtable_alloc *pa, uint32_t id)
{
	return pa->memcg[id];
}

static inline void aw_table_set_memcg(struct aw_pgtable_alloc *pa, uint32_t id, int memcg)
{
	pa->memcg[id] = (int16_t)memcg;
}

/* Kernel virtual address of entry i of table id: what &pmd[i] is in the kernel. */
static inline uint64_t aw_table_entry_kva(uint32_t id, unsigned int i)
{
	return AW_KVA_TABLES + (uint64_t)id * PAGE_SIZE + (uint64_t)i * sizeof(uint64_t);
}

/*
 * A non-leaf entry pointing at table id, with x86's _PAGE_TABLE bits:
 * present, rw, user, accessed and dirty.  A freshly populated table is
 * therefore "young" at the PMD level until a walker clears it.
 */
static inline uint64_t aw_mk_table_entry(uint32_t id)
{
	return ((uint64_t)id << PAGE_SHIFT) | _PAGE_PRESENT | _PAGE_RW | _PAGE_USER |
	       _PAGE_ACCESSED | _PAGE_DIRTY;
}

static inline uint32_t aw_entry_table(uint64_t entry)
{
	return (uint32_t)((entry & PTE_PFN_MASK) >> PAGE_SHIFT);
}

#endif /* AW_PGTABLE_H */
