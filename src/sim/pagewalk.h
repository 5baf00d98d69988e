/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The generic page-table walker (include/linux/pagewalk.h, mm/pagewalk.c):
 * walk_page_range() visits the page tables of [start, end) in address
 * order and calls the walker's callbacks, so that the model's range
 * operations (zap, mprotect, fork's copy, madvise, migration) each say
 * only what they do with an entry, not how to find it.
 *
 * Where it differs from the kernel's (docs/model-notes.md "Page-table
 * walks"): no locks, no VMAs (the range is walked over the tables, like
 * walk_page_range_novma(); callers pick their VMAs), and only the
 * callbacks and actions the model uses.  The MGLRU aging walk (walk.c)
 * keeps its own walker, as mm/vmscan.c's callbacks do their own loops; it
 * does not include this header.
 */
#ifndef AW_PAGEWALK_H
#define AW_PAGEWALK_H

#include <stdbool.h>
#include <stdint.h>

#include "pgtable.h"

struct aw_kernel;
struct mm_struct;
struct mm_walk;

/* pte_hole() depths: x86-64 4-level, the P4D folded into the PGD */
#define AW_WALK_DEPTH_PGD	0
#define AW_WALK_DEPTH_PUD	2
#define AW_WALK_DEPTH_PMD	3

/*
 * Callbacks, each optional; [addr, next) is the part of the walked range
 * the entry maps.  A non-zero return stops the walk and is what
 * walk_page_range() returns.
 *
 * pmd_entry: every present PMD entry, a PTE table or a THP leaf.  Setting
 *	walk->action to ACTION_CONTINUE skips the entry's PTEs; left at
 *	ACTION_SUBTREE, a leaf is split (aw_split_huge_pmd()) so that
 *	pte_entry sees its PTEs, as walk_pmd_range() does inside a VMA.
 * pte_entry: every PTE of the range under a PTE table, empty ones too
 *	unless skip_pte_none is set.
 * pte_hole:  every entry without a table below it (not present) at the
 *	PGD, PUD or PMD level, with its depth; empty PTEs are no holes.
 */
struct mm_walk_ops {
	int (*pmd_entry)(pmd_t *pmd, uint64_t addr, uint64_t next, struct mm_walk *walk);
	int (*pte_entry)(pte_t *pte, uint64_t addr, uint64_t next, struct mm_walk *walk);
	int (*pte_hole)(uint64_t addr, uint64_t next, int depth, struct mm_walk *walk);
	/*
	 * model: pte_entry only for PTEs that are not pte_none().  Every
	 * kernel user of a PTE range starts with "if (pte_none()) continue";
	 * the flag lets the walk skip empty runs of a table without a call
	 * per entry (the fuzz machine's tables are mostly empty).
	 */
	bool skip_pte_none;
	/*
	 * model: the callbacks only read the entries they are handed.  The
	 * walk otherwise marks the table of each entry it hands to
	 * pmd_entry or pte_entry written (pgtable.h), as the callback may
	 * write it.
	 */
	bool aw_read_only;
};

/* What pmd_entry wants next (the kernel's ACTION_AGAIN has no user here). */
enum page_walk_action {
	ACTION_SUBTREE = 0,	/* descend to the PTEs, splitting a leaf */
	ACTION_CONTINUE = 1,	/* next PMD entry, this one is done */
};

struct mm_walk {
	const struct mm_walk_ops *ops;
	struct mm_struct *mm;
	struct aw_kernel *k;		/* model: the machine the tables live in */
	enum page_walk_action action;	/* reset to ACTION_SUBTREE per PMD entry */
	void *private;
};

/*
 * Walk [start, end) of mm's page tables.  Returns 0, the first non-zero
 * callback return, or -EINVAL for an empty range.  Callbacks may change
 * the tables under the PMD entry being walked (zap, split, fault): the walk
 * rereads that entry before each PTE and goes on in its new table, or
 * leaves the PMD range when it no longer has one.
 */
int walk_page_range(struct aw_kernel *k, struct mm_struct *mm, uint64_t start, uint64_t end,
		    const struct mm_walk_ops *ops, void *private);

#endif /* AW_PAGEWALK_H */
