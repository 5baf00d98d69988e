// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the page-table walker (src/sim/pagewalk.c): the order and
 * arguments of pmd_entry, pte_entry and pte_hole over a small mm with
 * known mappings, holes at the PGD, PUD and PMD levels, ranges not aligned
 * to a PMD, skip_pte_none, early stop on a non-zero return, THP leaves
 * (continue, split), and a callback that changes the PMD entry it is in.
 *
 * The mm: one process without the default layout, a 6 MiB anonymous
 * mapping at BASE (PGD 252, PUD 0, PMDs 0-2).  Pages 0, 2, 64, 200 and 511
 * of PMD 0 and pages 7 and 8 of PMD 2 are written; PMD 1 stays empty, so
 * it has no PTE table (a fault allocates the table of the PMD it is in).
 * Every expected record below follows from that layout and from the
 * walk's rules (pagewalk.h); the comment next to each says how.
 */
#include <errno.h>

#include "aw_kernel_test.h"
#include "pagewalk.h"

#define BASE	0x7e0000000000ULL	/* PGD aligned: pgd_index 252, pud_index 0, pmd_index 0 */
#define PG(n)	((uint64_t)(n) * PAGE_SIZE)
#define PMD(n)	((uint64_t)(n) * PMD_SIZE)

enum aw_rec_kind { REC_PMD, REC_PTE, REC_HOLE };

struct aw_rec {
	enum aw_rec_kind kind;
	uint64_t addr, next;
	int depth;		/* holes */
	bool present;		/* PTEs: pte_present(*pte) */
	bool huge;		/* PMDs: pmd_trans_huge(*pmd) */
	pte_t *pte;
};

#define MAX_RECS	1024

/* walk->private: what the callbacks record, and when they stop or meddle */
struct aw_walk_log {
	struct aw_rec r[MAX_RECS + 1];		/* the last one takes what does not fit */
	int n, overflow;
	int nr_pte, nr_pmd, nr_hole;
	int pte_stop, pmd_stop, hole_stop;	/* return `ret` on the nth call of that kind, 0 = never */
	int ret;
	enum page_walk_action leaf_action;	/* what pmd_entry sets for a THP leaf */
	uint64_t change_at;			/* pte_entry at this address writes ... */
	pmd_t *change_pmd, change_to;		/* ... change_to into *change_pmd */
};

static struct aw_rec *rec_add(struct aw_walk_log *l, enum aw_rec_kind kind, uint64_t addr, uint64_t next)
{
	if (l->n == MAX_RECS) {
		l->overflow++;
		return &l->r[MAX_RECS];
	}
	l->r[l->n] = (struct aw_rec){ .kind = kind, .addr = addr, .next = next, .depth = -1 };
	return &l->r[l->n++];
}

static int rec_pmd(pmd_t *pmd, uint64_t addr, uint64_t next, struct mm_walk *walk)
{
	struct aw_walk_log *l = walk->private;

	rec_add(l, REC_PMD, addr, next)->huge = pmd_trans_huge(*pmd);
	if (pmd_trans_huge(*pmd))
		walk->action = l->leaf_action;
	return ++l->nr_pmd == l->pmd_stop ? l->ret : 0;
}

static int rec_pte(pte_t *pte, uint64_t addr, uint64_t next, struct mm_walk *walk)
{
	struct aw_walk_log *l = walk->private;
	struct aw_rec *r = rec_add(l, REC_PTE, addr, next);

	r->present = pte_present(*pte);
	r->pte = pte;
	if (l->change_pmd && addr == l->change_at)
		*l->change_pmd = l->change_to;
	return ++l->nr_pte == l->pte_stop ? l->ret : 0;
}

static int rec_hole(uint64_t addr, uint64_t next, int depth, struct mm_walk *walk)
{
	struct aw_walk_log *l = walk->private;

	rec_add(l, REC_HOLE, addr, next)->depth = depth;
	return ++l->nr_hole == l->hole_stop ? l->ret : 0;
}

static const struct mm_walk_ops all_ops = { .pmd_entry = rec_pmd, .pte_entry = rec_pte, .pte_hole = rec_hole };
static const struct mm_walk_ops skip_ops = { .pmd_entry = rec_pmd, .pte_entry = rec_pte, .pte_hole = rec_hole,
					     .skip_pte_none = true };
static const struct mm_walk_ops upper_ops = { .pmd_entry = rec_pmd, .pte_hole = rec_hole };

/* ------------------------------------------------------------------ */

static struct aw_kernel *new_kernel(enum aw_thp_mode thp)
{
	return aw_test_kernel(thp, 1ULL << 30, 0);
}

static void write_page(struct aw_kernel *k, uint64_t addr)
{
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_ACCESS, .pid = 1, .cpu = 0, .addr = addr,
					     .len = PAGE_SIZE, .repeat = 1, .flags = AW_ACC_WRITE }), 0);
}

/* The mm of the header comment; its process is pid 1. */
static struct mm_struct *setup(struct aw_kernel *k)
{
	static const unsigned int pmd0_pages[] = { 0, 2, 64, 200, 511 };

	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_PROC, .pid = 1, .cpu = 0,
					     .flags = AW_PROC_NOLAYOUT }), 0);
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_MMAP, .pid = 1, .addr2 = BASE,
					     .len = PMD(3), .arg = AW_PROT_DEFAULT }), 0);
	for (unsigned int i = 0; i < sizeof(pmd0_pages) / sizeof(pmd0_pages[0]); i++)
		write_page(k, BASE + PG(pmd0_pages[i]));
	write_page(k, BASE + PMD(2) + PG(7));
	write_page(k, BASE + PMD(2) + PG(8));
	return aw_mm(k, aw_task_get(k, 1)->mm);
}

static void check_rec(const struct aw_walk_log *l, int i, enum aw_rec_kind kind, uint64_t addr, uint64_t next)
{
	CHECK(i < l->n);
	if (i >= l->n)
		return;
	CHECK_EQ(l->r[i].kind, kind);
	CHECK_EQ(l->r[i].addr, addr);
	CHECK_EQ(l->r[i].next, next);
}

static void check_hole(const struct aw_walk_log *l, int i, uint64_t addr, uint64_t next, int depth)
{
	check_rec(l, i, REC_HOLE, addr, next);
	if (i < l->n)
		CHECK_EQ(l->r[i].depth, depth);
}

/* ------------------------------------------------------------------ */

/*
 * 1. Holes at every level: [BASE - 1 GiB, BASE + 1 GiB + 2 MiB) with
 * pmd_entry and pte_hole only.  PGD 251 is empty: one hole of depth 0 up
 * to BASE (pgd_addr_end).  PUD 0 of PGD 252 maps PMDs 0 and 2 (tables),
 * so PMD 1 and PMDs 3..511 are holes of depth 3, one per PMD entry.  PUD 1
 * is empty: one hole of depth 2 for the 2 MiB of it the range covers.
 */
static void test_holes(void)
{
	struct aw_kernel *k = new_kernel(AW_THP_NEVER);
	struct mm_struct *mm = setup(k);
	struct aw_walk_log l;

	memset(&l, 0, sizeof(l));
	CHECK_EQ(walk_page_range(k, mm, BASE - PUD_SIZE, BASE + PUD_SIZE + PMD(1), &upper_ops, &l), 0);
	CHECK_EQ(l.overflow, 0);
	CHECK_EQ(l.n, 1 + 1 + 1 + 1 + 509 + 1);
	check_hole(&l, 0, BASE - PUD_SIZE, BASE, AW_WALK_DEPTH_PGD);
	check_rec(&l, 1, REC_PMD, BASE, BASE + PMD(1));
	check_hole(&l, 2, BASE + PMD(1), BASE + PMD(2), AW_WALK_DEPTH_PMD);
	check_rec(&l, 3, REC_PMD, BASE + PMD(2), BASE + PMD(3));
	/* records 4..512: PMD i = 3..511, each its own hole */
	for (int i = 4; i <= 512; i++)
		check_hole(&l, i, BASE + PMD(i - 1), BASE + PMD(i), AW_WALK_DEPTH_PMD);
	check_hole(&l, 513, BASE + PUD_SIZE, BASE + PUD_SIZE + PMD(1), AW_WALK_DEPTH_PUD);
	CHECK(!l.r[1].huge && !l.r[3].huge);
	aw_kernel_destroy(k);
}

/*
 * 2. Every PTE, in order, over [BASE + 4 KiB, BASE + 4 MiB + 32 KiB): not
 * PMD aligned at either end.  PMD 0: its pmd_entry gets [BASE + 4 KiB,
 * BASE + 2 MiB), then pages 1..511 (511 PTEs, present: 2, 64, 200, 511;
 * page 0 is outside the range).  PMD 1: a hole.  PMD 2: pmd_entry
 * [BASE + 4 MiB, end), pages 0..7 (present: 7; page 8 is outside).
 * Each pte_entry's next is addr + 4 KiB and its pte is the table's entry.
 */
static void test_ptes_unaligned(void)
{
	struct aw_kernel *k = new_kernel(AW_THP_NEVER);
	struct mm_struct *mm = setup(k);
	const uint64_t start = BASE + PG(1), end = BASE + PMD(2) + PG(8);
	struct aw_walk_log l;
	int present = 0;

	memset(&l, 0, sizeof(l));
	CHECK_EQ(walk_page_range(k, mm, start, end, &all_ops, &l), 0);
	CHECK_EQ(l.overflow, 0);
	CHECK_EQ(l.n, 1 + 511 + 1 + 1 + 8);
	check_rec(&l, 0, REC_PMD, start, BASE + PMD(1));
	for (int i = 1; i <= 511; i++) {
		check_rec(&l, i, REC_PTE, BASE + PG(i), BASE + PG(i + 1));
		CHECK(l.r[i].pte == aw_pte_lookup(k, mm, BASE + PG(i), false, NULL));
		present += l.r[i].present;
	}
	CHECK_EQ(present, 4);
	CHECK(l.r[2].present && l.r[64].present && l.r[200].present && l.r[511].present);
	check_hole(&l, 512, BASE + PMD(1), BASE + PMD(2), AW_WALK_DEPTH_PMD);
	check_rec(&l, 513, REC_PMD, BASE + PMD(2), end);
	for (int j = 0; j < 8; j++) {
		check_rec(&l, 514 + j, REC_PTE, BASE + PMD(2) + PG(j), BASE + PMD(2) + PG(j + 1));
		CHECK_EQ(l.r[514 + j].present, j == 7);
		CHECK(l.r[514 + j].pte == aw_pte_lookup(k, mm, BASE + PMD(2) + PG(j), false, NULL));
	}
	aw_kernel_destroy(k);
}

/*
 * 3. skip_pte_none over the same range: pte_entry only for the present
 * PTEs, so the records are pmd 0, pages 2, 64 (first entry of the second
 * 64-entry block), 200, 511 (last entry of the table), the PMD 1 hole,
 * pmd 2 and its page 7 (page 8, present, is past the end: the range ends
 * inside the first block).
 */
static void test_skip_pte_none(void)
{
	struct aw_kernel *k = new_kernel(AW_THP_NEVER);
	struct mm_struct *mm = setup(k);
	const uint64_t start = BASE + PG(1), end = BASE + PMD(2) + PG(8);
	struct aw_walk_log l;

	memset(&l, 0, sizeof(l));
	CHECK_EQ(walk_page_range(k, mm, start, end, &skip_ops, &l), 0);
	CHECK_EQ(l.n, 8);
	check_rec(&l, 0, REC_PMD, start, BASE + PMD(1));
	check_rec(&l, 1, REC_PTE, BASE + PG(2), BASE + PG(3));
	check_rec(&l, 2, REC_PTE, BASE + PG(64), BASE + PG(65));
	check_rec(&l, 3, REC_PTE, BASE + PG(200), BASE + PG(201));
	check_rec(&l, 4, REC_PTE, BASE + PG(511), BASE + PMD(1));
	check_hole(&l, 5, BASE + PMD(1), BASE + PMD(2), AW_WALK_DEPTH_PMD);
	check_rec(&l, 6, REC_PMD, BASE + PMD(2), end);
	check_rec(&l, 7, REC_PTE, BASE + PMD(2) + PG(7), BASE + PMD(2) + PG(8));
	for (int i = 1; i < l.n; i++)
		if (l.r[i].kind == REC_PTE)
			CHECK(l.r[i].present && l.r[i].pte == aw_pte_lookup(k, mm, l.r[i].addr, false, NULL));
	aw_kernel_destroy(k);
}

/*
 * 4. A non-zero return stops the walk at once and is the walk's return:
 * from the third pte_entry (page 200, with skip_pte_none), from the second
 * pmd_entry (PMD 2: no PTE of it is visited), from the first pte_hole
 * (PMD 1: PMD 2 is never reached).  An empty range is -EINVAL, no call.
 */
static void test_early_stop(void)
{
	struct aw_kernel *k = new_kernel(AW_THP_NEVER);
	struct mm_struct *mm = setup(k);
	struct aw_walk_log l;

	memset(&l, 0, sizeof(l));
	l.pte_stop = 3;
	l.ret = 7;
	CHECK_EQ(walk_page_range(k, mm, BASE, BASE + PMD(3), &skip_ops, &l), 7);
	/* pmd 0, pages 0, 2, 64 */
	CHECK_EQ(l.n, 4);
	check_rec(&l, 3, REC_PTE, BASE + PG(64), BASE + PG(65));

	memset(&l, 0, sizeof(l));
	l.pmd_stop = 2;
	l.ret = -5;
	CHECK_EQ(walk_page_range(k, mm, BASE, BASE + PMD(3), &skip_ops, &l), -5);
	/* pmd 0, its 5 present pages, the PMD 1 hole, pmd 2 */
	CHECK_EQ(l.n, 1 + 5 + 1 + 1);
	check_rec(&l, l.n - 1, REC_PMD, BASE + PMD(2), BASE + PMD(3));
	CHECK_EQ(l.nr_pte, 5);

	memset(&l, 0, sizeof(l));
	l.hole_stop = 1;
	l.ret = 1;
	CHECK_EQ(walk_page_range(k, mm, BASE, BASE + PMD(3), &upper_ops, &l), 1);
	CHECK_EQ(l.n, 2);
	check_hole(&l, 1, BASE + PMD(1), BASE + PMD(2), AW_WALK_DEPTH_PMD);

	memset(&l, 0, sizeof(l));
	CHECK_EQ(walk_page_range(k, mm, BASE, BASE, &all_ops, &l), -EINVAL);
	CHECK_EQ(walk_page_range(k, mm, BASE + PG(1), BASE, &all_ops, &l), -EINVAL);
	CHECK_EQ(l.n, 0);
	aw_kernel_destroy(k);
}

/*
 * 5. A THP leaf (THP always, a write fault in a PMD-aligned 4 MiB anon
 * mapping maps PMD 0 with one PMD leaf).  pmd_entry sees it huge.  With
 * ACTION_CONTINUE its PTEs are not visited and it stays a leaf; without a
 * pte_entry it is not split either; left at ACTION_SUBTREE with a
 * pte_entry, the walk splits it and visits its 512 PTEs, all present
 * (a split maps every subpage).
 */
static void test_thp_leaf(void)
{
	struct aw_kernel *k = new_kernel(AW_THP_ALWAYS);
	struct mm_struct *mm;
	struct aw_walk_log l;
	pmd_t *pmd;
	int present = 0;

	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_PROC, .pid = 1, .cpu = 0,
					     .flags = AW_PROC_NOLAYOUT }), 0);
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_MMAP, .pid = 1, .addr2 = BASE,
					     .len = PMD(2), .arg = AW_PROT_DEFAULT }), 0);
	write_page(k, BASE);
	mm = aw_mm(k, aw_task_get(k, 1)->mm);
	pmd = aw_pmd_lookup(k, mm, BASE, false, NULL);
	CHECK(pmd && pmd_trans_huge(*pmd));
	if (!pmd || !pmd_trans_huge(*pmd)) {
		aw_kernel_destroy(k);
		return;
	}

	memset(&l, 0, sizeof(l));
	l.leaf_action = ACTION_CONTINUE;
	CHECK_EQ(walk_page_range(k, mm, BASE, BASE + PMD(2), &all_ops, &l), 0);
	/* the leaf, then PMD 1: no table, a hole */
	CHECK_EQ(l.n, 2);
	check_rec(&l, 0, REC_PMD, BASE, BASE + PMD(1));
	CHECK(l.r[0].huge);
	check_hole(&l, 1, BASE + PMD(1), BASE + PMD(2), AW_WALK_DEPTH_PMD);
	CHECK(pmd_trans_huge(*pmd));

	memset(&l, 0, sizeof(l));
	CHECK_EQ(walk_page_range(k, mm, BASE, BASE + PMD(1), &upper_ops, &l), 0);
	CHECK_EQ(l.n, 1);
	CHECK(l.r[0].huge && pmd_trans_huge(*pmd));

	memset(&l, 0, sizeof(l));
	l.leaf_action = ACTION_SUBTREE;
	CHECK_EQ(walk_page_range(k, mm, BASE, BASE + PMD(1), &all_ops, &l), 0);
	CHECK_EQ(l.n, 1 + 512);
	CHECK(l.r[0].huge);
	for (int i = 1; i < l.n; i++) {
		check_rec(&l, i, REC_PTE, BASE + PG(i - 1), BASE + PG(i));
		present += l.r[i].present;
	}
	CHECK_EQ(present, 512);
	CHECK(pmd_present(*pmd) && !pmd_trans_huge(*pmd));
	aw_kernel_destroy(k);
}

/*
 * 6. A pte_entry that changes its PMD entry.  Pointed at PMD 2's table at
 * page 2, the walk goes on in that table at the same indices: the present
 * entries after index 2 are 7 and 8 (skip_pte_none), handed out as
 * BASE + 28 KiB and BASE + 32 KiB.  Cleared at page 2, the walk leaves
 * PMD 0 and goes on with PMD 1 (hole) and PMD 2.  The entry is restored
 * after each walk.
 */
static void test_pmd_changed(void)
{
	struct aw_kernel *k = new_kernel(AW_THP_NEVER);
	struct mm_struct *mm = setup(k);
	pmd_t *pmd0 = aw_pmd_lookup(k, mm, BASE, false, NULL);
	pmd_t *pmd2 = aw_pmd_lookup(k, mm, BASE + PMD(2), false, NULL);
	const pmd_t saved = *pmd0;
	struct aw_walk_log l;

	memset(&l, 0, sizeof(l));
	l.change_at = BASE + PG(2);
	l.change_pmd = pmd0;
	l.change_to = *pmd2;
	CHECK_EQ(walk_page_range(k, mm, BASE, BASE + PMD(1), &skip_ops, &l), 0);
	*pmd0 = saved;
	CHECK_EQ(l.n, 1 + 2 + 2);
	check_rec(&l, 1, REC_PTE, BASE, BASE + PG(1));
	check_rec(&l, 2, REC_PTE, BASE + PG(2), BASE + PG(3));
	check_rec(&l, 3, REC_PTE, BASE + PG(7), BASE + PG(8));
	check_rec(&l, 4, REC_PTE, BASE + PG(8), BASE + PG(9));
	CHECK(l.r[3].pte == aw_pte_lookup(k, mm, BASE + PMD(2) + PG(7), false, NULL));
	CHECK(l.r[4].pte == aw_pte_lookup(k, mm, BASE + PMD(2) + PG(8), false, NULL));

	memset(&l, 0, sizeof(l));
	l.change_at = BASE + PG(2);
	l.change_pmd = pmd0;
	l.change_to = 0;
	CHECK_EQ(walk_page_range(k, mm, BASE, BASE + PMD(3), &skip_ops, &l), 0);
	*pmd0 = saved;
	/* pmd 0, pages 0 and 2; hole PMD 1; pmd 2, pages 7 and 8 */
	CHECK_EQ(l.n, 3 + 1 + 3);
	check_rec(&l, 2, REC_PTE, BASE + PG(2), BASE + PG(3));
	check_hole(&l, 3, BASE + PMD(1), BASE + PMD(2), AW_WALK_DEPTH_PMD);
	check_rec(&l, 4, REC_PMD, BASE + PMD(2), BASE + PMD(3));
	check_rec(&l, 6, REC_PTE, BASE + PMD(2) + PG(8), BASE + PMD(2) + PG(9));
	aw_kernel_destroy(k);
}

int main(void)
{
	RUN(test_holes);
	RUN(test_ptes_unaligned);
	RUN(test_skip_pte_none);
	RUN(test_early_stop);
	RUN(test_thp_leaf);
	RUN(test_pmd_changed);
	return aw_test_report("test_pagewalk");
}
