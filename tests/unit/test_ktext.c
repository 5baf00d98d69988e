// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's own MGLRU text, extracted from each configured tree
 * (tools/ktext-extract, -DAGEWALK_KERNEL_TREES), on a machine we set up by
 * hand.  Every expected figure below is worked out from the kernel rules
 * in the comments, not from a run; where the releases differ, the test
 * says which rule gives which figure.
 *
 * The machine: one node, one memcg, one mm with one anonymous VMA of two
 * PMDs at 1 GiB.  PMD 0 is dense (64 young PTEs), PMD 1 sparse (2).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "aw_test.h"
#include "ktext_api.h"
#include "ktext_variants.h"

#define VMA_START	(1UL << 30)
#define PMD_SZ		(1UL << 21)
#define PG		4096UL
#define VM_RW		0x3UL	/* VM_READ | VM_WRITE */

static int stat_index(const struct aw_ktext_ops *ops, const char *name)
{
	for (int i = 0; i < ops->nr_mm_stats; i++)
		if (!strcmp(ops->mm_stat_names[i], name))
			return i;
	return -1;
}

static unsigned long stat(const struct aw_ktext_ops *ops, struct aw_ktext *kt, const char *name)
{
	unsigned long s[AW_KTEXT_MAX_STATS];
	int i = stat_index(ops, name);

	CHECK(i >= 0);
	ops->mm_stats(kt, 0, 0, s);
	return i >= 0 ? s[i] : ~0UL;
}

/*
 * Pass 1 (forced) after 66 faults; pass 2 (not forced) after touching 10
 * dense and 1 sparse PTE; pass 3 (not forced) with nothing touched.
 */
static void test_walk(const struct aw_ktext_ops *ops)
{
	struct aw_ktext *kt = ops->create(1, 1, 4096);
	long dense[64], sparse[2];
	int mm;

	printf("  %s (Linux %u.%u.%u%s)\n", ops->name, ops->version >> 16, (ops->version >> 8) & 255,
	       ops->version & 255, ops->series ? " + series" : "");
	/* the figures below are worked out for these releases' rules */
	if (ops->version >> 8 != 0x0601 && ops->version >> 8 != 0x060c) {
		printf("  %s: no hand-computed figures for this release; add them\n", ops->name);
		CHECK(!"a release test_ktext has no figures for");
		return;
	}
	CHECK(kt != NULL);
	if (!kt)
		return;
	mm = ops->mm_create(kt, 0, 0);
	CHECK_EQ(mm, 0);
	CHECK_EQ(ops->vma_add(kt, mm, VMA_START, VMA_START + 2 * PMD_SZ, VM_RW, false), 0);

	/* lru_gen_init_lruvec(): max_seq = MIN_NR_GENS + 1, min_seq 0: four generations */
	CHECK_EQ(ops->max_seq(kt, 0, 0), 3);
	CHECK_EQ(ops->min_seq(kt, 0, 0, 0), 0);

	for (int i = 0; i < 64; i++)
		dense[i] = ops->map(kt, mm, VMA_START + i * PG, 0, AW_KTEXT_YOUNG, 0);
	sparse[0] = ops->map(kt, mm, VMA_START + PMD_SZ, 0, AW_KTEXT_YOUNG, 0);
	sparse[1] = ops->map(kt, mm, VMA_START + PMD_SZ + 300 * PG, 0, AW_KTEXT_YOUNG, 0);
	CHECK(dense[63] >= 0 && sparse[1] >= 0);
	/*
	 * lru_gen_add_folio() with PG_active (a fault): seq = max_seq, so
	 * every folio is in generation 3 % MAX_NR_GENS = 3, and PG_active is
	 * cleared in the same update.
	 */
	CHECK_EQ(ops->folio_gen(kt, dense[0]), 3);
	CHECK_EQ(ops->nr_pages(kt, 0, 0, 3, 0), 66);
	CHECK_EQ(ops->folio_flags(kt, dense[0]), AW_KTEXT_F_LRU);

	/*
	 * Pass 1, forced: the mm is new to the list, iterate_mm_list() walks
	 * it.  walk_pmd_range() skips neither the PMD young gate nor the
	 * Bloom test under force_scan: both PMDs are found
	 * (MM_NONLEAF_FOUND 2); walk_pte_range() counts every slot of each
	 * PMD range (MM_LEAF_TOTAL 2 x 512) and the 66 young ones.  The dense
	 * PMD is suitable_to_scan() (young x 8 >= 512 with 64 PTEs of 8 bytes
	 * a cache line), the sparse one not: MM_NONLEAF_ADDED 1, and only the
	 * dense PMD is in the filter for seq 4.  folio_update_gen() to
	 * lru_gen_from_seq(3) = 3 leaves the generation as it was.
	 * inc_max_seq(): four generations exist, so inc_min_seq() moves both
	 * min_seq to 1 (generation 0 is empty), then max_seq becomes 4.
	 */
	CHECK_EQ(ops->age(kt, 0, 0, 3, 60, true), 0);
	CHECK_EQ(ops->max_seq(kt, 0, 0), 4);
	CHECK_EQ(ops->min_seq(kt, 0, 0, 0), 1);
	CHECK_EQ(ops->min_seq(kt, 0, 0, 1), 1);
	CHECK_EQ(stat(ops, kt, "MM_LEAF_TOTAL"), 1024);
	CHECK_EQ(stat(ops, kt, "MM_LEAF_YOUNG"), 66);
	CHECK_EQ(stat(ops, kt, "MM_NONLEAF_FOUND"), 2);
	CHECK_EQ(stat(ops, kt, "MM_NONLEAF_ADDED"), 1);
	CHECK(ops->bloom_test_pmd(kt, 0, 0, 4, mm, VMA_START));
	CHECK(!ops->bloom_test_pmd(kt, 0, 0, 4, mm, VMA_START + PMD_SZ));
	CHECK(!ops->pte_young(kt, mm, VMA_START));
	CHECK_EQ(ops->folio_gen(kt, dense[0]), 3);

	/*
	 * Four generations exist (min_seq 1 .. max_seq 4): run_aging() refuses
	 * a pass that is not forced (-ERANGE, "min_seq[!can_swap] +
	 * MAX_NR_GENS - 1 <= max_seq").  Eviction's try_to_inc_min_seq()
	 * retires the empty ones: anon and file both step over seq 1 and 2
	 * (empty) and stop at 3, since min_seq + MIN_NR_GENS must stay <=
	 * max_seq: min_seq 3, two generations.
	 */
	CHECK_EQ(ops->age(kt, 0, 0, 4, 60, false), -ERANGE);
	CHECK_EQ(ops->max_seq(kt, 0, 0), 4);
	CHECK(ops->inc_min_seq(kt, 0, 0, 60));
	CHECK_EQ(ops->min_seq(kt, 0, 0, 0), 3);
	CHECK_EQ(ops->min_seq(kt, 0, 0, 1), 3);

	/*
	 * Pass 2, not forced: both PMD entries are young (the hardware walk
	 * set them), so the PMD young gate lets both through and
	 * walk_pmd_range_locked() clears them; the seq 4 Bloom filter has
	 * only the dense PMD: the sparse one is skipped with its young PTE
	 * and counts nothing.  The dense PMD: 512 leaves, 10 young, found,
	 * not suitable (10 x 8 < 512), so not carried into seq 5.  The 10
	 * young folios move to lru_gen_from_seq(4) = 0.  inc_max_seq(): two
	 * generations, nothing to retire: max_seq 5, min_seq stays 3.
	 */
	for (int i = 0; i < 10; i++)
		ops->touch(kt, mm, VMA_START + i * PG, 0);
	ops->touch(kt, mm, VMA_START + PMD_SZ, 0);
	ops->use_mm(kt, mm);		/* the task ran: context_switch() */
	CHECK_EQ(ops->age(kt, 0, 0, 4, 60, false), 0);
	CHECK_EQ(ops->max_seq(kt, 0, 0), 5);
	CHECK_EQ(ops->min_seq(kt, 0, 0, 0), 3);
	CHECK_EQ(stat(ops, kt, "MM_LEAF_TOTAL"), 1024 + 512);
	CHECK_EQ(stat(ops, kt, "MM_LEAF_YOUNG"), 66 + 10);
	CHECK_EQ(stat(ops, kt, "MM_NONLEAF_FOUND"), 3);
	CHECK_EQ(stat(ops, kt, "MM_NONLEAF_ADDED"), 1);
	CHECK_EQ(ops->folio_gen(kt, dense[0]), 0);
	CHECK_EQ(ops->folio_gen(kt, dense[9]), 0);
	CHECK_EQ(ops->folio_gen(kt, dense[10]), 3);
	CHECK_EQ(ops->folio_gen(kt, sparse[0]), 3);
	CHECK(ops->pte_young(kt, mm, VMA_START + PMD_SZ));
	CHECK_EQ(ops->nr_pages(kt, 0, 0, 0, 0), 10);
	CHECK_EQ(ops->nr_pages(kt, 0, 0, 3, 0), 56);
	/* folio_update_gen() clears PG_referenced, PG_workingset and the refs */
	CHECK_EQ(ops->folio_flags(kt, dense[0]), AW_KTEXT_F_LRU);
	CHECK(!ops->bloom_test_pmd(kt, 0, 0, 5, mm, VMA_START));

	/*
	 * Pass 3, nothing ran: get_next_mm() finds the node's bit clear in
	 * mm->lru_gen.bitmap (pass 2 cleared it, no lru_gen_use_mm() since),
	 * so the mm is not walked; the iteration still ends and max_seq moves
	 * (three generations before, 3 + 4 - 1 > 5 lets it run).
	 */
	CHECK_EQ(ops->age(kt, 0, 0, 5, 60, false), 0);
	CHECK_EQ(ops->max_seq(kt, 0, 0), 6);
	CHECK_EQ(stat(ops, kt, "MM_LEAF_TOTAL"), 1536);

	/* run_aging(): a retired seq is done already (0, nothing moves), a future one -EINVAL */
	CHECK_EQ(ops->age(kt, 0, 0, 5, 60, false), 0);
	CHECK_EQ(ops->max_seq(kt, 0, 0), 6);
	CHECK_EQ(ops->age(kt, 0, 0, 9, 60, true), -EINVAL);
	/* four generations again (3 .. 6): not forced is refused, forced runs */
	CHECK_EQ(ops->age(kt, 0, 0, 6, 60, false), -ERANGE);
	CHECK_EQ(ops->age(kt, 0, 0, 6, 60, true), 0);
	CHECK_EQ(ops->max_seq(kt, 0, 0), 7);
	CHECK_EQ(ops->min_seq(kt, 0, 0, 0), 4);
	CHECK_EQ(ops->min_seq(kt, 0, 0, 1), 4);
	if (ops->version >> 8 == 0x0601) {
		/*
		 * 6.1: walk_pmd_range() applies the non-leaf PMD young gate
		 * under force_scan too, and pass 2 cleared both PMD entries'
		 * accessed bits (walk_pmd_range_locked()); nothing touched
		 * them since, so the forced pass skips both PMDs: no leaf is
		 * read and sparse[0] keeps its generation.  inc_max_seq()
		 * retires seq 3: all 56 of its folios go to seq 4's slot 0.
		 */
		CHECK_EQ(stat(ops, kt, "MM_LEAF_TOTAL"), 1536);
		CHECK_EQ(stat(ops, kt, "MM_LEAF_YOUNG"), 76);
		CHECK_EQ(stat(ops, kt, "MM_NONLEAF_TOTAL"), 6);	/* 2 per walk, 3 walks */
		CHECK_EQ(stat(ops, kt, "MM_LEAF_OLD"), 54);		/* pass 2: the dense PMD's untouched 54 */
		CHECK_EQ(stat(ops, kt, "MM_NONLEAF_FOUND"), 3);
		CHECK_EQ(ops->folio_gen(kt, sparse[0]), 0);
		CHECK_EQ(ops->nr_pages(kt, 0, 0, 0, 0), 66);
		CHECK_EQ(ops->nr_pages(kt, 0, 0, 2, 0), 0);
	} else {
		/*
		 * 6.12: force_scan bypasses the PMD young gate and the Bloom
		 * filter: 1024 leaves; the one PTE still young is the sparse
		 * one touched before pass 2, so sparse[0] is promoted to
		 * lru_gen_from_seq(6) = 2.  No PMD is suitable.  inc_max_seq()
		 * then retires seq 3: its other 55 folios go one generation up,
		 * to seq 4's slot 0 (10 already there).
		 */
		CHECK_EQ(stat(ops, kt, "MM_LEAF_TOTAL"), 2560);
		CHECK_EQ(stat(ops, kt, "MM_LEAF_YOUNG"), 77);
		CHECK_EQ(stat(ops, kt, "MM_NONLEAF_FOUND"), 5);
		CHECK_EQ(ops->folio_gen(kt, sparse[0]), 2);
		CHECK_EQ(ops->nr_pages(kt, 0, 0, 0, 0), 65);
		CHECK_EQ(ops->nr_pages(kt, 0, 0, 2, 0), 1);
	}
	CHECK_EQ(stat(ops, kt, "MM_NONLEAF_ADDED"), 1);
	CHECK_EQ(ops->folio_gen(kt, sparse[1]), 0);
	CHECK_EQ(ops->nr_pages(kt, 0, 0, 3, 0), 0);

	const char *last = NULL;
	CHECK_EQ(ops->warnings(kt, &last), 0);
	if (last)
		printf("  warning: %s\n", last);
	ops->destroy(kt);
}

/*
 * The PUD filter's own case: one VMA of three PMDs at 1 GiB whose only
 * mappings are 64 zero-page PTEs in PMD 0 (anonymous reads): a subtree
 * with page tables and nothing MGLRU can age.  PMDs 1 and 2 are pmd_none.
 */
static void test_cold_pud(const struct aw_ktext_ops *ops)
{
	struct aw_ktext *kt = ops->create(1, 1, 4096);
	bool v61 = ops->version >> 8 == 0x0601;
	int mm;

	CHECK(kt != NULL);
	if (!kt)
		return;
	mm = ops->mm_create(kt, 0, 0);
	CHECK_EQ(ops->vma_add(kt, mm, VMA_START, VMA_START + 3 * PMD_SZ, VM_RW, false), 0);
	for (int i = 0; i < 64; i++)
		CHECK_EQ(ops->map(kt, mm, VMA_START + i * PG, 0, AW_KTEXT_YOUNG | AW_KTEXT_ZERO, 0), 0);

	/*
	 * Pass 1, forced: PMD 0's 512 slots are leaves (get_pte_pfn() drops
	 * the zero pfn: none young), and walk_pmd_range() counts each
	 * pmd_none slot of the VMA as a leaf: 514, nothing carried.  With
	 * the series walk_pmd_range() found nothing young (the young gate
	 * is skipped under force), so the PUD is not marked for seq 4.
	 * 6.1: should_skip_mm() skips an mm with fewer than MIN_LRU_BATCH
	 * resident pages, forced or not -- zero pages are not in its RSS.
	 */
	CHECK_EQ(ops->age(kt, 0, 0, 3, 60, true), 0);
	CHECK_EQ(stat(ops, kt, "MM_LEAF_TOTAL"), v61 ? 0 : 514);
	CHECK_EQ(stat(ops, kt, "MM_NONLEAF_ADDED"), 0);
	/* no folio anywhere: seq 1 and 2 retire, min_seq 3 */
	CHECK(ops->inc_min_seq(kt, 0, 0, 60));
	CHECK_EQ(ops->min_seq(kt, 0, 0, 0), 3);

	/*
	 * Pass 2, not forced, the task ran.  Base 6.12: PMD 0's accessed bit
	 * (set when its table was made) passes the young gate, the seq 4
	 * PMD filter does not have it: skipped unread; the empty slots
	 * count: 516.  With the series the seq 4 PUD filter does not have
	 * the PUD: the subtree is skipped whole, nothing counts, and
	 * MM_PUD_EMPTY_SKIPPED is 1.
	 */
	ops->use_mm(kt, mm);
	CHECK_EQ(ops->age(kt, 0, 0, 4, 60, false), 0);
	CHECK_EQ(ops->max_seq(kt, 0, 0), 5);
	if (ops->series) {
		CHECK_EQ(stat(ops, kt, "MM_LEAF_TOTAL"), 514);
		CHECK_EQ(stat(ops, kt, "MM_PUD_EMPTY_SKIPPED"), 1);
	} else {
		CHECK_EQ(stat(ops, kt, "MM_LEAF_TOTAL"), v61 ? 0 : 516);
		CHECK(stat_index(ops, "MM_PUD_EMPTY_SKIPPED") < 0);
	}
	CHECK_EQ(stat(ops, kt, "MM_LEAF_YOUNG"), 0);
	CHECK_EQ(ops->warnings(kt, NULL), 0);
	ops->destroy(kt);
}

/* Out-of-range shapes and handles are refused, never crash. */
static void test_bad_input(const struct aw_ktext_ops *ops)
{
	struct aw_ktext *kt;

	CHECK(ops->create(0, 1, 16) == NULL);
	CHECK(ops->create(AW_KTEXT_MAX_NODES + 1, 1, 16) == NULL);
	CHECK(ops->create(1, AW_KTEXT_MAX_MEMCGS + 1, 16) == NULL);
	kt = ops->create(1, 1, 16);
	CHECK(kt != NULL);
	if (!kt)
		return;
	CHECK_EQ(ops->mm_create(kt, 1, 0), -1);
	CHECK_EQ(ops->vma_add(kt, 7, 0, PG, VM_RW, false), -1);
	CHECK_EQ(ops->mm_create(kt, 0, 0), 0);
	CHECK_EQ(ops->vma_add(kt, 0, PG, PG, VM_RW, false), -1);
	CHECK_EQ(ops->vma_add(kt, 0, PG, 3 * PG, VM_RW, false), 0);
	CHECK_EQ(ops->vma_add(kt, 0, 2 * PG, 4 * PG, VM_RW, false), -1);	/* overlaps */
	CHECK_EQ(ops->map(kt, 0, 8 * PG, 0, 0, 0), -1);				/* no VMA */
	CHECK_EQ(ops->map(kt, 0, PG, 1, 0, 0), -1);				/* no node 1 */
	CHECK(ops->map(kt, 0, PG, 0, 0, 0) >= 0);
	CHECK_EQ(ops->map(kt, 0, PG, 0, 0, 0), -1);				/* mapped */
	CHECK_EQ(ops->folio_gen(kt, -1), -1);
	CHECK_EQ(ops->age(kt, 3, 0, 3, 60, true), -EINVAL);
	ops->destroy(kt);
}

int main(void)
{
	int n = 0;

	for (const struct aw_ktext_ops *const *v = aw_ktext_variants; *v; v++, n++) {
		test_walk(*v);
		if ((*v)->version >> 8 == 0x0601 || (*v)->version >> 8 == 0x060c)
			test_cold_pud(*v);
		test_bad_input(*v);
	}
	if (!n) {
		printf("no kernel-text variants built (configure with -DAGEWALK_KERNEL_TREES)\n");
		return 77;
	}
	return aw_test_report("test_ktext");
}
