// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of first_above.h, find_vma()'s question ("the first range
 * ending above addr") as the model's aw_vma_index() and the converter ask
 * it: the binary search, and the hinted lookup that tries the last answer
 * and its two neighbours first.  The hint may only save work, never change
 * the answer, so every (hint, address) pair is checked against the answer
 * worked out by hand from the ranges below.
 */
#include "aw_test.h"

#include "first_above.h"

/* Shaped like the converter's ranges: start first, so end sits at offset 8. */
struct range {
	uint64_t start, end;
};

/*
 * Four ranges, sorted: [0x1000, 0x2000) [0x3000, 0x5000) [0x5000, 0x6000)
 * [0x9000, 0xa000).  By hand, the first range ending above addr is:
 *   addr < 0x2000          -> 0
 *   0x2000 <= addr < 0x5000 -> 1
 *   0x5000 <= addr < 0x6000 -> 2
 *   0x6000 <= addr < 0xa000 -> 3 (the gap below range 3 too: find_vma()
 *                              answers the range above a hole)
 *   addr >= 0xa000          -> 4, none
 */
static const struct range r4[4] = {
	{ 0x1000, 0x2000 }, { 0x3000, 0x5000 }, { 0x5000, 0x6000 }, { 0x9000, 0xa000 },
};

static int by_hand(uint64_t addr)
{
	if (addr < 0x2000)
		return 0;
	if (addr < 0x5000)
		return 1;
	if (addr < 0x6000)
		return 2;
	if (addr < 0xa000)
		return 3;
	return 4;
}

/* addresses at, just below and just above every boundary, and in the holes */
static const uint64_t probes[] = {
	0, 0xfff, 0x1000, 0x1fff, 0x2000, 0x2fff, 0x3000, 0x4fff, 0x5000, 0x5fff,
	0x6000, 0x8fff, 0x9000, 0x9fff, 0xa000, 0xffffffffffffULL,
};

static void test_search(void)
{
	for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++)
		CHECK_EQ(aw_first_above(&r4[0].end, sizeof(r4[0]), 4, probes[i]), by_hand(probes[i]));
	/* a one-range array: 0 below its end, 1 (none) at and above it */
	CHECK_EQ(aw_first_above(&r4[0].end, sizeof(r4[0]), 1, 0x1fff), 0);
	CHECK_EQ(aw_first_above(&r4[0].end, sizeof(r4[0]), 1, 0x2000), 1);
}

/*
 * Every hint, including ones out of range (a stale hint after ranges were
 * removed; a negative one), gives the search's answer.
 */
static void test_hinted_any_hint(void)
{
	for (int h = -1; h <= 5; h++)
		for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++)
			CHECK_EQ(aw_first_above_hinted(&r4[0].end, sizeof(r4[0]), 4, h, probes[i]),
				 by_hand(probes[i]));
}

/*
 * The cases the neighbours answer, worked by hand: hint 2 and addr 0x2000
 * (range 1 ends above it and range 0 does not: the neighbour below), hint
 * 2 and addr 0x6000 (range 2 ends at it, range 3 above: the neighbour
 * above), hint 3 and addr 0xa000 (the last range ends at it: none, 4),
 * hint 3 and addr 0x1000 (two below: the search, 0).
 */
static void test_hinted_neighbours(void)
{
	CHECK_EQ(aw_first_above_hinted(&r4[0].end, sizeof(r4[0]), 4, 2, 0x2000), 1);
	CHECK_EQ(aw_first_above_hinted(&r4[0].end, sizeof(r4[0]), 4, 2, 0x6000), 3);
	CHECK_EQ(aw_first_above_hinted(&r4[0].end, sizeof(r4[0]), 4, 3, 0xa000), 4);
	CHECK_EQ(aw_first_above_hinted(&r4[0].end, sizeof(r4[0]), 4, 3, 0x1000), 0);
}

/* Another element type: the end at another offset and a larger stride. */
struct vma_like {
	uint64_t vm_start, vm_end;
	uint64_t flags[3];
};

static void test_stride(void)
{
	struct vma_like v[3] = {
		{ .vm_start = 0x10000, .vm_end = 0x20000 },
		{ .vm_start = 0x20000, .vm_end = 0x30000 },
		{ .vm_start = 0x40000, .vm_end = 0x50000 },
	};

	/* 0x30000 is in the hole below v[2]: v[2] is the first ending above it */
	CHECK_EQ(aw_first_above(&v[0].vm_end, sizeof(v[0]), 3, 0x30000), 2);
	CHECK_EQ(aw_first_above_hinted(&v[0].vm_end, sizeof(v[0]), 3, 0, 0x30000), 2);
	CHECK_EQ(aw_first_above_hinted(&v[0].vm_end, sizeof(v[0]), 3, 1, 0x1ffff), 0);
	CHECK_EQ(aw_first_above_hinted(&v[0].vm_end, sizeof(v[0]), 3, 2, 0x50000), 3);
}

int main(void)
{
	RUN(test_search);
	RUN(test_hinted_any_hint);
	RUN(test_hinted_neighbours);
	RUN(test_stride);
	return aw_test_report("test_first_above");
}
