// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the equivalence oracles (src/check/equiv.c): the digest
 * sees what the rules read and nothing else (not the pfns two machines
 * allocate differently), and the comparison fires exactly where the same
 * input gave a different output.  The records are built by hand; what
 * each case expects follows from the rule in equiv.h.
 */
#include <string.h>

#include "aw_kernel_test.h"

#include "equiv.h"
#include "khugepaged.h"

#define BASE_ADDR	0x7e0000000000ULL
#define OTHER_ADDR	0x7f0000000000ULL
#define PG(n)		((uint64_t)(n) * PAGE_SIZE)

static void proc(struct aw_kernel *k, uint32_t pid)
{
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_PROC, .pid = pid, .flags = AW_PROC_NOLAYOUT }), 0);
}

static void map_write(struct aw_kernel *k, uint32_t pid, uint64_t addr, uint64_t len)
{
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_MMAP, .pid = pid, .addr2 = addr, .len = len,
					     .arg = AW_PROT_DEFAULT }), 0);
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_ACCESS, .pid = pid, .addr = addr, .len = len,
					     .repeat = 1, .flags = AW_ACC_WRITE }), 0);
}

static struct mm_struct *mm_of(struct aw_kernel *k, uint32_t pid)
{
	return aw_mm(k, aw_task_get(k, pid)->mm);
}

/*
 * Two machines map and write the same 16 pages for pid 1; the second has
 * first given 8 pages to pid 2, so pid 1's folios have other pfns there.
 * The digests agree; an accessed bit one of them lost makes them differ.
 */
static void test_digest(void)
{
	struct aw_kernel *a = aw_test_kernel(AW_THP_NEVER, 1ULL << 30, 0);
	struct aw_kernel *b = aw_test_kernel(AW_THP_NEVER, 1ULL << 30, 0);
	struct mm_struct *ma, *mb;
	pte_t *pa, *pb;

	proc(b, 2);
	map_write(b, 2, OTHER_ADDR, PG(8));
	proc(a, 1);
	proc(b, 1);
	map_write(a, 1, BASE_ADDR, PG(16));
	map_write(b, 1, BASE_ADDR, PG(16));
	ma = mm_of(a, 1);
	mb = mm_of(b, 1);
	pa = aw_pte_lookup(a, ma, BASE_ADDR, false, NULL);
	pb = aw_pte_lookup(b, mb, BASE_ADDR, false, NULL);
	CHECK(pa && pb);
	if (!pa || !pb)
		return;
	CHECK(pte_pfn(*pa) != pte_pfn(*pb));	/* the setup did what it means to */
	CHECK_EQ(aw_equiv_mm_digest(a, ma), aw_equiv_mm_digest(b, mb));
	CHECK_EQ(aw_equiv_range_digest(a, ma, BASE_ADDR), aw_equiv_range_digest(b, mb, BASE_ADDR));
	*pb &= ~(pte_t)_PAGE_ACCESSED;	/* what a walk or the reference check would do */
	CHECK(aw_equiv_mm_digest(a, ma) != aw_equiv_mm_digest(b, mb));
	CHECK(aw_equiv_range_digest(a, ma, BASE_ADDR) != aw_equiv_range_digest(b, mb, BASE_ADDR));
	aw_kernel_destroy(a);
	aw_kernel_destroy(b);
}

static void add_walk(struct aw_equiv *e, uint32_t mm, uint64_t digest, unsigned long total)
{
	e->walks[e->nr_walks++] = (struct aw_equiv_walk){
		.mm = mm, .digest = digest, .stat = { [AW_EQ_LEAF_TOTAL] = total, [AW_EQ_PMD_READ] = 2 },
	};
}

static void test_walks(void)
{
	struct aw_equiv_walk bw[4], vw[4];
	struct aw_equiv b = { .walks = bw, .cap_walks = 4 }, v = { .walks = vw, .cap_walks = 4 };
	char cause[160], msg[320];

	/* the same tables read the same: silent */
	add_walk(&b, 1, 0xaa, 1025);
	add_walk(&v, 1, 0xaa, 1025);
	CHECK_EQ(aw_equiv_compare(&b, &v, cause, sizeof(cause), msg, sizeof(msg)), AW_OR_NR);
	/* the same tables, one leaf fewer: the finding, naming the counter */
	vw[0].stat[AW_EQ_LEAF_TOTAL] = 1024;
	CHECK_EQ(aw_equiv_compare(&b, &v, cause, sizeof(cause), msg, sizeof(msg)),
		 AW_OR_FORCED_WALK_EQUIV);
	CHECK_STR(cause, "forced walk read the same page tables differently from base: MM_LEAF_TOTAL");
	/* other tables: nothing is claimed */
	vw[0].digest = 0xbb;
	CHECK_EQ(aw_equiv_compare(&b, &v, cause, sizeof(cause), msg, sizeof(msg)), AW_OR_NR);
	/* base walked mm 2 too, the variant did not: the skip rules judge that, not this oracle */
	vw[0].digest = 0xaa;
	vw[0].stat[AW_EQ_LEAF_TOTAL] = 1025;
	add_walk(&b, 2, 0xcc, 512);
	CHECK_EQ(aw_equiv_compare(&b, &v, cause, sizeof(cause), msg, sizeof(msg)), AW_OR_NR);
	/* the second forced walk of mm 1 pairs with the variant's second one */
	add_walk(&b, 1, 0xdd, 7);
	add_walk(&v, 1, 0xdd, 8);
	CHECK_EQ(aw_equiv_compare(&b, &v, cause, sizeof(cause), msg, sizeof(msg)),
		 AW_OR_FORCED_WALK_EQUIV);
}

static void test_ranges(void)
{
	struct aw_equiv_range br[2], vr[2];
	struct aw_equiv b = { .ranges = br, .nr_ranges = 2 }, v = { .ranges = vr, .nr_ranges = 2 };
	char cause[160], msg[320];

	br[0] = vr[0] = (struct aw_equiv_range){ .mm = 1, .haddr = BASE_ADDR, .digest = 7, .result = SCAN_SUCCEED };
	br[1] = vr[1] = (struct aw_equiv_range){ .mm = 1, .haddr = BASE_ADDR + PMD_SIZE, .digest = 8,
						  .result = SCAN_SUCCEED };
	CHECK_EQ(aw_equiv_compare(&b, &v, cause, sizeof(cause), msg, sizeof(msg)), AW_OR_NR);
	/* the second range, same input, another decision */
	vr[1].result = SCAN_PAGE_LAZYFREE;
	CHECK_EQ(aw_equiv_compare(&b, &v, cause, sizeof(cause), msg, sizeof(msg)),
		 AW_OR_MADV_COLLAPSE_EQUIV);
	CHECK_STR(cause, "MADV_COLLAPSE decided the same range differently from base: page_lazyfree, base succeed");
	/* a first range that failed to allocate in one machine ends the comparison */
	vr[0].result = SCAN_ALLOC_HUGE_PAGE_FAIL;
	CHECK_EQ(aw_equiv_compare(&b, &v, cause, sizeof(cause), msg, sizeof(msg)), AW_OR_NR);
	/* so does a first range whose input differs */
	vr[0].result = SCAN_SUCCEED;
	vr[0].digest = 9;
	CHECK_EQ(aw_equiv_compare(&b, &v, cause, sizeof(cause), msg, sizeof(msg)), AW_OR_NR);
}

int main(void)
{
	RUN(test_digest);
	RUN(test_walks);
	RUN(test_ranges);
	return aw_test_report("test_equiv");
}
