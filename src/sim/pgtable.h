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

typedef uint64_t pte_t;
typedef uint64_t pmd_t;
typedef uint64_t pud_t;
typedef uint64_t pgd_t;

#define PAGE_SHIFT		12
#define PAGE_SIZE		(1UL << PAGE_SHIFT)
#define PMD_SHIFT		21
#define PMD_SIZE		(1UL << PMD_SHIFT)
#define PMD_MASK		(~(PMD_SIZE - 1))
#define PUD_SHIFT		30
#define PUD_SIZE		(1UL << PUD_SHIFT)
#define PUD_MASK		(~(PUD_SIZE - 1))
#define PGDIR_SHIFT		39
#define PGDIR_SIZE		(1UL << PGDIR_SHIFT)
#define P4D_SIZE		PGDIR_SIZE	/* 4-level: the p4d is folded into the pgd */
#define P4D_MASK		(~(P4D_SIZE - 1))
#define PTRS_PER_PTE		512
#define PTRS_PER_PMD		512
#define PTRS_PER_PUD		512
#define PTRS_PER_PGD		512
#define HPAGE_PMD_ORDER		9
#define HPAGE_PMD_NR		512
#define TASK_SIZE		(1UL << 47)	/* x86-64 4-level user address space */
#define FIRST_USER_ADDRESS	0UL

#define _PAGE_PRESENT		0x001ULL
#define _PAGE_RW		0x002ULL
#define _PAGE_USER		0x004ULL
#define _PAGE_ACCESSED		0x020ULL
#define _PAGE_DIRTY		0x040ULL
#define _PAGE_PSE		0x080ULL	/* huge: a PMD leaf */
#define _PAGE_SWP		0x200ULL	/* model: non-present swap entry */
#define _PAGE_FILE_SHADOW	0x400ULL	/* model: non-present, file page dropped */
#define PTE_PFN_MASK		0x000ffffffffff000ULL

/* The zero page and the huge zero page have pfns no node owns. */
#define ZERO_PFN		0x100ULL
#define HUGE_ZERO_PFN		0x200ULL

static inline unsigned long pte_index(unsigned long addr) { return (addr >> PAGE_SHIFT) & 511; }
static inline unsigned long pmd_index(unsigned long addr) { return (addr >> PMD_SHIFT) & 511; }
static inline unsigned long pud_index(unsigned long addr) { return (addr >> PUD_SHIFT) & 511; }
static inline unsigned long pgd_index(unsigned long addr) { return (addr >> PGDIR_SHIFT) & 511; }

/* include/linux/pgtable.h: pmd_addr_end() and friends */
static inline unsigned long aw_addr_end(unsigned long addr, unsigned long end, unsigned long size)
{
	unsigned long boundary = (addr + size) & ~(size - 1);

	return (boundary - 1 < end - 1) ? boundary : end;
}
#define pmd_addr_end(a, e)	aw_addr_end(a, e, PMD_SIZE)
#define pud_addr_end(a, e)	aw_addr_end(a, e, PUD_SIZE)
#define pgd_addr_end(a, e)	aw_addr_end(a, e, PGDIR_SIZE)

static inline bool pte_present(pte_t pte) { return pte & _PAGE_PRESENT; }
static inline bool pte_none(pte_t pte) { return pte == 0; }

static inline bool pte_young(pte_t pte) { return pte & _PAGE_ACCESSED; }
static inline bool pte_dirty(pte_t pte) { return pte & _PAGE_DIRTY; }
static inline bool pte_write(pte_t pte) { return pte & _PAGE_RW; }
static inline bool pte_swp(pte_t pte) { return !pte_present(pte) && (pte & _PAGE_SWP); }
static inline uint64_t pte_pfn(pte_t pte) { return (pte & PTE_PFN_MASK) >> PAGE_SHIFT; }
static inline uint64_t pte_swp_slot(pte_t pte) { return pte >> PAGE_SHIFT; }
static inline pte_t aw_mk_pte(uint64_t pfn, uint64_t flags) { return (pfn << PAGE_SHIFT) | flags; }
static inline pte_t aw_mk_swp(uint64_t slot) { return (slot << PAGE_SHIFT) | _PAGE_SWP; }

static inline bool pmd_present(pmd_t pmd) { return pmd & _PAGE_PRESENT; }
static inline bool pmd_none(pmd_t pmd) { return pmd == 0; }
static inline bool pmd_trans_huge(pmd_t pmd) { return (pmd & (_PAGE_PRESENT | _PAGE_PSE)) == (_PAGE_PRESENT | _PAGE_PSE); }
static inline bool pmd_young(pmd_t pmd) { return pmd & _PAGE_ACCESSED; }
static inline bool pmd_dirty(pmd_t pmd) { return pmd & _PAGE_DIRTY; }
static inline uint64_t pmd_pfn(pmd_t pmd) { return (pmd & PTE_PFN_MASK) >> PAGE_SHIFT; }
static inline bool is_huge_zero_pmd(pmd_t pmd) { return pmd_trans_huge(pmd) && pmd_pfn(pmd) == HUGE_ZERO_PFN; }
static inline bool is_zero_pfn(uint64_t pfn) { return pfn == ZERO_PFN; }
static inline bool pud_present(pud_t pud) { return pud & _PAGE_PRESENT; }
static inline bool pud_young(pud_t pud) { return pud & _PAGE_ACCESSED; }
/* a 1 GiB leaf; the model never maps one, the walk only warns on it */
static inline bool pud_leaf(pud_t pud) { return pmd_trans_huge(pud); }
/* the model has no p4d level of its own (4-level paging): a p4d entry is the pgd entry */
static inline bool p4d_leaf(pgd_t p4d) { return pud_leaf(p4d); }
/* ptep_get() and friends: plain reads, nothing updates a table behind the model's back */
static inline pte_t ptep_get(const pte_t *ptep) { return *ptep; }
static inline pud_t pudp_get(const pud_t *pudp) { return *pudp; }
static inline pmd_t pmdp_get_lockless(const pmd_t *pmdp) { return *pmdp; }

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
 * Are the 64 entries from e (a 64-aligned block of a table) all zero?
 * Scans that step over the mostly empty tables of a sparse address space
 * skip such blocks whole; libc's memcmp compares them vector-wide.
 */
#define AW_PT_BLOCK	64
static inline bool aw_pt_block_empty(const uint64_t *e)
{
	static const uint64_t zero[AW_PT_BLOCK];

	return !memcmp(e, zero, sizeof(zero));
}

/*
 * The first of entries i..n-1 of table e (n <= 512) that is not zero, or
 * a value >= n if there is none.  Whole empty blocks are skipped; one that
 * straddles n is read to its end, which is still inside the table.
 */
static inline unsigned int aw_pt_next_nonzero(const uint64_t *e, unsigned int i, unsigned int n)
{
	while (i < n && (i & (AW_PT_BLOCK - 1)) && !e[i])
		i++;
	if (i >= n || e[i])
		return i;
	/* most of a table is empty: skip whole blocks */
	while (i < n && aw_pt_block_empty(&e[i]))
		i += AW_PT_BLOCK;
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
	uint32_t nr, cap;		/* ids handed out so far (high water mark) */
	uint32_t *free_ids;		/* LIFO stack of freed ids */
	uint32_t nr_free, cap_free;
	uint64_t live;			/* tables in use */
	struct aw_pt_chunk *chunks;	/* sorted by base address */
	uint32_t nr_chunks, cap_chunks;
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
