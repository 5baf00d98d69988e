// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the page-table scans in src/sim/pgtable.h:
 * aw_pt_empty() over a block or a group, and aw_pt_next_nonzero(), which
 * the aging walk, the page walker, an mm's teardown and the equivalence
 * digests use to step from one entry that is not zero to the next.  The
 * scans may only skip work, never change the answer, so the answers are
 * worked out by hand from where the entries sit, and then every start i
 * and a set of bounds n are checked against the plain definition ("the
 * first index in [i, n) whose entry is not zero, else any value >= n").
 */
#include "aw_test.h"

#include "pgtable.h"

static uint64_t table[PTRS_PER_PTE];

static void set_only(const unsigned int *idx, int nr)
{
	memset(table, 0, sizeof(table));
	for (int k = 0; k < nr; k++)
		table[idx[k]] = 0x1000 * (idx[k] + 1) | _PAGE_PRESENT;
}

/*
 * Entries at 3, 9, 63, 64, 130 and 511.  By hand:
 *  - from 0: 3 (group 0); from 4: 9 (group 1, past the rest of group 0);
 *  - from 10: 63 (the last entry of block 0, six empty groups on);
 *  - from 64: 64 itself; from 65: 130 (group 16 in block 2, past the
 *    rest of block 1 whole);
 *  - from 131: 511 (blocks 3-7 hold nothing before the very last entry);
 *  - bounds: from 10 below 60, nothing (63 is past n): some value >= 60;
 *    from 65 below 130, nothing: >= 130; from 131 below 511, >= 511.
 */
static void test_by_hand(void)
{
	static const unsigned int at[] = { 3, 9, 63, 64, 130, 511 };

	set_only(at, 6);
	CHECK_EQ(aw_pt_next_nonzero(table, 0, 512), 3);
	CHECK_EQ(aw_pt_next_nonzero(table, 3, 512), 3);
	CHECK_EQ(aw_pt_next_nonzero(table, 4, 512), 9);
	CHECK_EQ(aw_pt_next_nonzero(table, 10, 512), 63);
	CHECK_EQ(aw_pt_next_nonzero(table, 64, 512), 64);
	CHECK_EQ(aw_pt_next_nonzero(table, 65, 512), 130);
	CHECK_EQ(aw_pt_next_nonzero(table, 131, 512), 511);
	CHECK(aw_pt_next_nonzero(table, 10, 60) >= 60);
	CHECK(aw_pt_next_nonzero(table, 65, 130) >= 130);
	CHECK(aw_pt_next_nonzero(table, 131, 511) >= 511);
	CHECK(aw_pt_next_nonzero(table, 512, 512) >= 512);
	/* groups and blocks: group 0 holds 3, group 7 holds 63, block 1 holds 64 */
	CHECK(!aw_pt_empty(&table[0], AW_PT_GROUP));
	CHECK(aw_pt_empty(&table[16], AW_PT_GROUP));
	CHECK(!aw_pt_empty(&table[56], AW_PT_GROUP));
	CHECK(!aw_pt_empty(&table[64], AW_PT_BLOCK));
	CHECK(aw_pt_empty(&table[192], AW_PT_BLOCK));
	CHECK(!aw_pt_empty(&table[448], AW_PT_BLOCK));
}

/* An empty table: nothing from anywhere, whatever the bound. */
static void test_empty(void)
{
	memset(table, 0, sizeof(table));
	CHECK(aw_pt_next_nonzero(table, 0, 512) >= 512);
	CHECK(aw_pt_next_nonzero(table, 5, 100) >= 100);
	CHECK(aw_pt_next_nonzero(table, 64, 65) >= 65);
	for (unsigned int g = 0; g < PTRS_PER_PTE; g += AW_PT_GROUP)
		CHECK(aw_pt_empty(&table[g], AW_PT_GROUP));
}

/* The definition, an entry at a time */
static unsigned int first_from(unsigned int i, unsigned int n)
{
	while (i < n && !table[i])
		i++;
	return i;
}

/* Every start against the definition, for bounds on and off the boundaries */
static void check_all_starts(void)
{
	static const unsigned int bounds[] = { 1, 7, 8, 9, 60, 64, 65, 100, 128, 200, 256, 448, 511, 512 };

	for (size_t b = 0; b < sizeof(bounds) / sizeof(bounds[0]); b++)
		for (unsigned int i = 0; i <= bounds[b]; i++) {
			unsigned int n = bounds[b], want = first_from(i, n), got = aw_pt_next_nonzero(table, i, n);

			if (want < n)
				CHECK_EQ(got, want);
			else
				CHECK(got >= n);
		}
}

/*
 * Patterns that put entries at a group's first and last slot, at a
 * block's, and alone deep in an otherwise empty table; and a full table.
 */
static void test_patterns(void)
{
	static const unsigned int a[] = { 0 }, b[] = { 7, 8 }, c[] = { 63 }, d[] = { 64, 127, 128 },
				  e[] = { 300 }, f[] = { 15, 16, 200, 447, 448 };
	const struct {
		const unsigned int *at;
		int nr;
	} pats[] = { { a, 1 }, { b, 2 }, { c, 1 }, { d, 3 }, { e, 1 }, { f, 5 } };

	for (size_t p = 0; p < sizeof(pats) / sizeof(pats[0]); p++) {
		set_only(pats[p].at, pats[p].nr);
		check_all_starts();
	}
	for (unsigned int i = 0; i < PTRS_PER_PTE; i++)
		table[i] = _PAGE_PRESENT;
	check_all_starts();
}

int main(void)
{
	RUN(test_by_hand);
	RUN(test_empty);
	RUN(test_patterns);
	return aw_test_report("test_pt_scan");
}
