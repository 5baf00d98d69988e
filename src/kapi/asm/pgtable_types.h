/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * x86-64 4-level paging (arch/x86/include/asm/page_types.h,
 * pgtable_64_types.h, pgtable_types.h): the sizes, the entry bits MGLRU
 * looks at, and the entry types, for the model's page tables (src/sim)
 * and for kernel text walking them (src/ktext).
 *
 * One difference: an entry is a plain 64-bit word (pte_t is an integer),
 * where the kernel wraps each level's in a struct of its own so that the
 * compiler refuses a pmd where a pte belongs.  The model computes on its
 * entries throughout (pte & _PAGE_ACCESSED, *ptep = 0); kernel text only
 * ever goes through the accessors (linux/pgtable.h, asm/pgtable.h) and
 * pte_val() and friends, so it reads the same on either form.
 */
#ifndef AW_KAPI_ASM_PGTABLE_TYPES_H
#define AW_KAPI_ASM_PGTABLE_TYPES_H

#include <stdint.h>

typedef uint64_t pte_t;
typedef uint64_t pmd_t;
typedef uint64_t pud_t;
typedef uint64_t p4d_t;
typedef uint64_t pgd_t;
#define pte_val(x)		(x)
#define pmd_val(x)		(x)
#define pud_val(x)		(x)
#define p4d_val(x)		(x)

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

/*
 * The entry bits (pteval_t, unsigned long, as the kernel's).  _PAGE_SPECIAL
 * is the kernel's software bit 9; the model reuses bit 9 in non-present
 * entries only (_PAGE_SWP, src/sim/pgtable.h), where pte_special() is
 * never asked.
 */
#define _PAGE_PRESENT		0x001UL
#define _PAGE_RW		0x002UL
#define _PAGE_USER		0x004UL
#define _PAGE_ACCESSED		0x020UL
#define _PAGE_DIRTY		0x040UL
#define _PAGE_PSE		0x080UL	/* huge: a PMD leaf */
#define _PAGE_SPECIAL		0x200UL
#define PTE_PFN_MASK		0x000ffffffffff000UL

#endif /* AW_KAPI_ASM_PGTABLE_TYPES_H */
