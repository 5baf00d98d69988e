/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * include/linux/pgtable.h and arch/x86/include/asm/pgtable.h: the index
 * of an address at each level, the *_addr_end() steps, and the accessors
 * that are pure functions of an entry's value (x86-64, 4-level), shared by
 * the model and kernel text.  What reaches a table from its parent entry
 * (pmd_offset() and friends) depends on the machine: each side has its own
 * (src/sim/kernel.h, src/ktext/ktext_prelude.h).
 */
#ifndef AW_KAPI_LINUX_PGTABLE_H
#define AW_KAPI_LINUX_PGTABLE_H

#include <stdbool.h>

#include "asm/pgtable_types.h"
#include "linux/compiler.h"

static inline unsigned long pte_index(unsigned long addr) { return (addr >> PAGE_SHIFT) & (PTRS_PER_PTE - 1); }
static inline unsigned long pmd_index(unsigned long addr) { return (addr >> PMD_SHIFT) & (PTRS_PER_PMD - 1); }
static inline unsigned long pud_index(unsigned long addr) { return (addr >> PUD_SHIFT) & (PTRS_PER_PUD - 1); }
static inline unsigned long pgd_index(unsigned long addr) { return (addr >> PGDIR_SHIFT) & (PTRS_PER_PGD - 1); }

/* The next boundary of size after addr, or end if that comes first. */
static inline unsigned long __aw_addr_end(unsigned long addr, unsigned long end, unsigned long size)
{
	unsigned long boundary = (addr + size) & ~(size - 1);

	return (boundary - 1 < end - 1) ? boundary : end;
}
#define pmd_addr_end(a, e)	__aw_addr_end(a, e, PMD_SIZE)
#define pud_addr_end(a, e)	__aw_addr_end(a, e, PUD_SIZE)
#define p4d_addr_end(a, e)	__aw_addr_end(a, e, P4D_SIZE)
#define pgd_addr_end(a, e)	__aw_addr_end(a, e, PGDIR_SIZE)

static inline bool pte_present(pte_t pte) { return pte & _PAGE_PRESENT; }
static inline bool pte_none(pte_t pte) { return pte == 0; }
static inline bool pte_young(pte_t pte) { return pte & _PAGE_ACCESSED; }
static inline bool pte_dirty(pte_t pte) { return pte & _PAGE_DIRTY; }
static inline bool pte_write(pte_t pte) { return pte & _PAGE_RW; }
static inline bool pte_special(pte_t pte) { return pte & _PAGE_SPECIAL; }
static inline bool pte_devmap(pte_t pte) { return false; }	/* no ZONE_DEVICE */
static inline unsigned long pte_pfn(pte_t pte) { return (pte & PTE_PFN_MASK) >> PAGE_SHIFT; }

static inline bool pmd_present(pmd_t pmd) { return pmd & _PAGE_PRESENT; }
static inline bool pmd_none(pmd_t pmd) { return pmd == 0; }
static inline bool pmd_trans_huge(pmd_t pmd)
{
	return (pmd & (_PAGE_PRESENT | _PAGE_PSE)) == (_PAGE_PRESENT | _PAGE_PSE);
}
static inline bool pmd_leaf(pmd_t pmd) { return pmd_trans_huge(pmd); }
static inline bool pmd_young(pmd_t pmd) { return pmd & _PAGE_ACCESSED; }
static inline bool pmd_dirty(pmd_t pmd) { return pmd & _PAGE_DIRTY; }
static inline bool pmd_devmap(pmd_t pmd) { return false; }
static inline unsigned long pmd_pfn(pmd_t pmd) { return (pmd & PTE_PFN_MASK) >> PAGE_SHIFT; }

static inline bool pud_present(pud_t pud) { return pud & _PAGE_PRESENT; }
static inline bool pud_none(pud_t pud) { return pud == 0; }
static inline bool pud_young(pud_t pud) { return pud & _PAGE_ACCESSED; }
/* a 1 GiB leaf; the model never maps one, the walk only warns on it */
static inline bool pud_leaf(pud_t pud) { return pmd_trans_huge(pud); }
/*
 * x86 has no 512 GiB pages and its p4d_leaf() is a constant false; this
 * one asks the PSE bit as pud_leaf() does, so that the walks' warnings
 * would catch an entry the machine should never make.  Both answer false
 * for every entry the model makes (aw_mk_table_entry()).
 */
static inline bool p4d_leaf(p4d_t p4d) { return pud_leaf(p4d); }
static inline bool p4d_none(p4d_t p4d) { return p4d == 0; }

/* ptep_get() and friends: one read of the entry, as the kernel's READ_ONCE() */
static inline pte_t ptep_get(const pte_t *ptep) { return READ_ONCE(*ptep); }
static inline pmd_t pmdp_get(const pmd_t *pmdp) { return READ_ONCE(*pmdp); }
static inline pmd_t pmdp_get_lockless(const pmd_t *pmdp) { return READ_ONCE(*pmdp); }
static inline pud_t pudp_get(const pud_t *pudp) { return READ_ONCE(*pudp); }
/* 6.1's name for pmdp_get_lockless() */
#define pmd_read_atomic(pmdp)	pmdp_get(pmdp)

#endif /* AW_KAPI_LINUX_PGTABLE_H */
