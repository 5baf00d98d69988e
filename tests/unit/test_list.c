// SPDX-License-Identifier: GPL-2.0-only
/*
 * src/kapi/linux/list.h against include/linux/list.h's meaning, and the
 * generation lists built from it: where lru_gen_add_folio() links a folio
 * (include/linux/mm_inline.h: list_add(), or list_add_tail() when
 * reclaiming) and the order inc_min_seq() leaves behind (mm/vmscan.c: take
 * lru_to_folio(), folio_inc_gen(), list_move_tail() onto the new
 * generation, until the oldest list is empty).  Every expected order is
 * worked out by hand in the comment next to it.
 */
#include "aw_kernel_test.h"
#include "kernel.h"

struct item {
	int v;
	struct list_head node;
};

/* the values of list h from the head end, into out[]; returns how many */
static int values(struct list_head *h, int *out, int max)
{
	struct item *it;
	int n = 0;

	list_for_each_entry(it, h, node)
		if (n < max)
			out[n++] = it->v;
	return n;
}

static void check_values(struct list_head *h, const int *want, int nr)
{
	int got[8];
	int n = values(h, got, 8);

	CHECK_EQ(n, nr);
	for (int i = 0; i < n && i < nr; i++)
		CHECK_EQ(got[i], want[i]);
}

static void test_list_primitives(void)
{
	struct item it[4] = { { .v = 0 }, { .v = 1 }, { .v = 2 }, { .v = 3 } };
	struct list_head a, b;
	struct item *pos, *n;
	int seen[4], nr = 0;

	INIT_LIST_HEAD(&a);
	INIT_LIST_HEAD(&b);
	CHECK(list_empty(&a));
	/* list_add() is a stack: 0, 1, 2 added -> 2 1 0 from the head end */
	for (int i = 0; i < 3; i++)
		list_add(&it[i].node, &a);
	check_values(&a, (int[]){ 2, 1, 0 }, 3);
	/* list_add_tail() is a queue: 3 goes to the tail end -> 2 1 0 3 */
	list_add_tail(&it[3].node, &a);
	check_values(&a, (int[]){ 2, 1, 0, 3 }, 4);
	/* lru_to_folio()'s entry: the tail end's, 3 */
	CHECK_EQ(list_last_entry(&a, struct item, node)->v, 3);
	CHECK_EQ(list_first_entry(&a, struct item, node)->v, 2);
	/* list_move(1): out of the middle, onto b's head end; list_move_tail(2) after it */
	list_move(&it[1].node, &b);
	list_move_tail(&it[2].node, &b);
	check_values(&a, (int[]){ 0, 3 }, 2);
	check_values(&b, (int[]){ 1, 2 }, 2);
	/* list_del(): the entry is left an empty list of its own (not poisoned) */
	list_del(&it[0].node);
	CHECK(list_empty(&it[0].node));
	check_values(&a, (int[]){ 3 }, 1);
	/* list_splice_tail_init(b, a): b's 1 2 follow a's 3, b is left empty */
	list_splice_tail_init(&b, &a);
	check_values(&a, (int[]){ 3, 1, 2 }, 3);
	CHECK(list_empty(&b));
	list_splice_tail_init(&b, &a);		/* an empty list: nothing moves */
	check_values(&a, (int[]){ 3, 1, 2 }, 3);
	/* from the tail end back, deleting as it goes: 2 1 3 */
	list_for_each_entry_safe_reverse(pos, n, &a, node) {
		seen[nr++] = pos->v;
		list_del(&pos->node);
	}
	CHECK_EQ(nr, 3);
	CHECK_EQ(seen[0], 2);
	CHECK_EQ(seen[1], 1);
	CHECK_EQ(seen[2], 3);
	CHECK(list_empty(&a));
}

/* a fresh file folio of memcg 0, node 0 */
static struct folio *new_file_folio(struct aw_kernel *k)
{
	uint32_t pfn = aw_folio_alloc(&k->mem, 0, 0);
	struct folio *f = pfn == AW_NIL ? NULL : pfn_folio(&k->mem, pfn);

	CHECK(f != NULL);
	if (f) {
		CHECK_EQ(folio_pfn(&k->mem, f), pfn);
		CHECK(list_empty(&f->lru));	/* on no list yet */
	}
	return f;
}

/* the folios of list h from the head end must be want[0..nr) */
static void check_folios(struct list_head *h, struct folio **want, int nr)
{
	struct folio *f;
	int i = 0;

	list_for_each_entry(f, h, lru) {
		CHECK(i < nr && f == want[i]);
		i++;
	}
	CHECK_EQ(i, nr);
}

static void test_generation_lists(void)
{
	struct aw_kernel *k = aw_test_kernel(AW_THP_NEVER, 0, 0);
	struct folio *a, *b, *c, *e;
	struct lru_gen_folio *lrugen;
	struct lruvec *lv;

	CHECK(k != NULL);
	if (!k)
		return;
	lv = &k->lruvecs[0];
	lrugen = &lv->lrugen;
	a = new_file_folio(k);
	b = new_file_folio(k);
	c = new_file_folio(k);
	e = new_file_folio(k);
	if (!a || !b || !c || !e)
		goto out;
	/*
	 * max_seq 3, min_seq 0 (lru_gen_init_lruvec()).  A clean file folio,
	 * not active, no PG_workingset: mainline lru_gen_folio_seq() gives
	 * gen = MAX_NR_GENS, seq = max(3 - 4 + 1, 0) = 0; reclaiming gives
	 * the same seq.  Generation 0 of file, then: A, B, C by list_add()
	 * -> C B A from the head end; E reclaiming, list_add_tail() -> C B A E.
	 */
	CHECK(lru_gen_add_folio(lv, a, false));
	CHECK(lru_gen_add_folio(lv, b, false));
	CHECK(lru_gen_add_folio(lv, c, false));
	CHECK(lru_gen_add_folio(lv, e, true));
	check_folios(&lrugen->folios[0][LRU_GEN_FILE], (struct folio *[]){ c, b, a, e }, 4);
	CHECK_EQ(lrugen->nr_pages[0][LRU_GEN_FILE], 4);
	/*
	 * The walker promotes B to generation 2 (flags and, through its
	 * batch, nr_pages); the list stays where it was (lazy).
	 */
	b->flags = (b->flags & ~LRU_GEN_MASK) | (2 + 1UL) << LRU_GEN_PGOFF;
	lrugen->nr_pages[0][LRU_GEN_FILE]--;
	lrugen->nr_pages[2][LRU_GEN_FILE]++;
	/*
	 * inc_max_seq(3): both types have 4 generations, inc_min_seq() of
	 * each.  File, from the tail end: E -> gen 1 (folio_inc_gen(): old
	 * gen 0 + 1), A -> gen 1, B -> its flag gen 2 (promoted), C -> gen 1;
	 * each list_move_tail()ed: gen 1 = E A C, gen 2 = B, gen 0 empty.
	 */
	CHECK(inc_max_seq(k, lv, 3, 60));
	CHECK(list_empty(&lrugen->folios[0][LRU_GEN_FILE]));
	check_folios(&lrugen->folios[1][LRU_GEN_FILE], (struct folio *[]){ e, a, c }, 3);
	check_folios(&lrugen->folios[2][LRU_GEN_FILE], (struct folio *[]){ b }, 1);
	CHECK_EQ(lrugen->nr_pages[0][LRU_GEN_FILE], 0);
	CHECK_EQ(lrugen->nr_pages[1][LRU_GEN_FILE], 3);
	CHECK_EQ(lrugen->nr_pages[2][LRU_GEN_FILE], 1);
	CHECK_EQ(lrugen->min_seq[LRU_GEN_FILE], 1);
	/* lru_gen_del_folio(): off its list, the list closes over the gap */
	CHECK(lru_gen_del_folio(lv, a, true));
	CHECK(list_empty(&a->lru));
	check_folios(&lrugen->folios[1][LRU_GEN_FILE], (struct folio *[]){ e, c }, 2);
	CHECK(!lru_gen_del_folio(lv, a, true));	/* no generation: nothing to do */
out:
	aw_kernel_destroy(k);
}

int main(void)
{
	RUN(test_list_primitives);
	RUN(test_generation_lists);
	return aw_test_report("test_list");
}
