// SPDX-License-Identifier: GPL-2.0-only
/*
 * pread/pwrite through a descriptor (AW_EV_FDIO, src/sim/filemap.c): the
 * references folio_mark_accessed() gives, the tiers they make, the PID
 * controller's get_tier_idx() and sort_folio()'s protection.  Every
 * expected value is worked out by hand from the kernel text quoted next to
 * it, never read back from the model.
 */
#include "aw_profile_test.h"

/* a process (no layout) with a file mapping of n pages at BASE */
static void file_pages(struct aw_kernel *k, unsigned int n)
{
	ev(k, (struct aw_event){ .kind = AW_EV_PROC, .pid = 1, .flags = AW_PROC_NOLAYOUT });
	ev(k, (struct aw_event){ .kind = AW_EV_MMAP, .pid = 1, .addr2 = BASE, .len = n * PAGE_SIZE,
				 .arg = AW_PROT_READ, .flags = AW_MAP_FILE });
}

static void pread_pages(struct aw_kernel *k, uint64_t addr, unsigned int n, uint32_t calls, bool write)
{
	ev(k, (struct aw_event){ .kind = AW_EV_FDIO, .pid = 1, .addr = addr, .len = n * PAGE_SIZE,
				 .repeat = calls, .flags = write ? AW_ACC_WRITE : 0 });
}

static struct folio *folio_at(struct aw_kernel *k, uint64_t addr)
{
	pte_t *pte = pte_at(k, addr);

	return pte && pte_present(*pte) ? pfn_folio(&k->mem, pte_pfn(*pte)) : NULL;
}

static unsigned int counter(const struct folio *f)
{
	return (unsigned int)((f->flags & LRU_REFS_MASK) >> LRU_REFS_PGOFF);
}

/*
 * One page read n = 1..6 times.  6.1/6.12 folio_inc_refs(): PG_referenced,
 * then PG_workingset, then the counter to 3 (LRU_REFS_WIDTH 2);
 * folio_lru_refs() = counter + workingset, lru_tier_from_refs() =
 * order_base_2(refs + 1):
 *   n    1  2  3  4  5  6
 *   ref  1  1  1  1  1  1
 *   ws   0  1  1  1  1  1
 *   cnt  0  0  1  2  3  3
 *   tier 0  1  2  2  3  3   (refs 0 1 2 3 4 4)
 * Mainline lru_gen_inc_refs(): PG_referenced, the counter to 3, then
 * PG_workingset; folio_lru_refs() = counter + 1, tier = workingset ? 3 :
 * order_base_2(refs):
 *   ws   0  0  0  0  1  1
 *   cnt  0  1  2  3  3  3
 *   tier 0  1  2  2  3  3   (refs 1 2 3 4 4 4)
 * The page was not resident: filemap_add_folio() puts it on the LRU
 * outside a fault (not active), mapped by no young PTE.
 */
static void test_refs_walk(void)
{
	static const unsigned int ws612[6] = { 0, 1, 1, 1, 1, 1 }, cnt612[6] = { 0, 0, 1, 2, 3, 3 };
	static const unsigned int wsml[6] = { 0, 0, 0, 0, 1, 1 }, cntml[6] = { 0, 1, 2, 3, 3, 3 };
	static const int tier[6] = { 0, 1, 2, 2, 3, 3 };

	for (int p = 0; p < 3; p++) {
		struct aw_kernel *k = profile_kernel(all_profiles[p], 0, 1);
		bool ml = all_profiles[p] == AW_KERNEL_MAINLINE;
		struct folio *f;

		file_pages(k, 4);
		for (int n = 0; n < 6; n++) {
			pread_pages(k, BASE, 1, 1, false);
			f = folio_at(k, BASE);
			CHECK(f != NULL);
			if (!f)
				break;
			CHECK_EQ(folio_test(f, PG_referenced), 1);
			CHECK_EQ(folio_test(f, PG_workingset), ml ? wsml[n] : ws612[n]);
			CHECK_EQ(counter(f), ml ? cntml[n] : cnt612[n]);
			CHECK_EQ(folio_lru_tier(k, f), tier[n]);
			CHECK_EQ(folio_test(f, PG_active), 0);
			CHECK_EQ(folio_test(f, PG_anon), 0);
			CHECK_EQ(*pte_at(k, BASE) & _PAGE_ACCESSED, 0);
		}
		/* one page resident, the others never read */
		CHECK_EQ(folio_at(k, BASE + PAGE_SIZE) == NULL, 1);
		aw_kernel_destroy(k);
	}
}

/*
 * A write: ->write_begin() takes the folio with FGP_WRITEBEGIN (no
 * FGP_ACCESSED, every tree), ->write_end() dirties it: no reference, PG_dirty.
 */
static void test_write_dirties(void)
{
	for (int p = 0; p < 3; p++) {
		struct aw_kernel *k = profile_kernel(all_profiles[p], 0, 1);
		struct folio *f;

		file_pages(k, 2);
		pread_pages(k, BASE, 1, 3, true);
		f = folio_at(k, BASE);
		CHECK(f != NULL);
		if (f) {
			CHECK_EQ(folio_test(f, PG_dirty), 1);
			CHECK_EQ(folio_test(f, PG_referenced), 0);
			CHECK_EQ(folio_test(f, PG_workingset), 0);
			CHECK_EQ(counter(f), 0);
		}
		aw_kernel_destroy(k);
	}
}

/*
 * filemap_read(): "if (!pos_same_folio(iocb->ki_pos, last_pos - 1,
 * fbatch.folios[0])) folio_mark_accessed(fbatch.folios[0])", last_pos
 * starting at ra->prev_pos.  Through a named region (one descriptor):
 * three calls reading page 0 alone mark it once (the second and third
 * start in the folio the previous ended in); three calls reading pages
 * 0-1 mark page 0 three times (the previous call ended in page 1) and page
 * 1 three times (not the first folio of the call).
 */
static void test_same_folio_once(void)
{
	struct aw_config cfg;
	struct aw_kernel *k;
	struct folio *f;

	aw_config_default(&cfg);
	cfg.kernel = AW_KERNEL_6_12;
	k = aw_kernel_create(&cfg, 1, 0, 0);
	CHECK(k != NULL);
	if (!k)
		return;
	ev(k, (struct aw_event){ .kind = AW_EV_PROC, .pid = 1, .flags = AW_PROC_NOLAYOUT });
	ev(k, (struct aw_event){ .kind = AW_EV_MMAP, .pid = 1, .region = 1, .addr2 = BASE,
				 .len = 4 * PAGE_SIZE, .arg = AW_PROT_READ, .flags = AW_MAP_FILE });
	ev(k, (struct aw_event){ .kind = AW_EV_FDIO, .pid = 1, .region = 1, .addr = 0, .len = PAGE_SIZE,
				 .repeat = 3 });
	f = folio_at(k, BASE);
	CHECK(f != NULL);
	if (f) {
		CHECK_EQ(folio_test(f, PG_referenced), 1);
		CHECK_EQ(folio_test(f, PG_workingset), 0);	/* marked once */
	}
	ev(k, (struct aw_event){ .kind = AW_EV_FDIO, .pid = 1, .region = 1, .addr = 2 * PAGE_SIZE,
				 .len = 2 * PAGE_SIZE, .repeat = 3 });
	for (int i = 2; i < 4; i++) {
		f = folio_at(k, BASE + i * PAGE_SIZE);
		CHECK(f != NULL);
		if (f) {	/* 6.12, three marks: referenced, workingset, counter 1 */
			CHECK_EQ(folio_test(f, PG_workingset), 1);
			CHECK_EQ(counter(f), 1);
		}
	}
	aw_kernel_destroy(k);
}

/*
 * get_tier_idx() with the PID controller's history set by hand:
 * tier 0 refaulted 0 of 1000, tier 1 refaulted 100 of 100.
 * positive_ctrl_err(sp = tier 0, pv = tier 1): pv.refaulted 100 >= 64, and
 * 100 * (1000 + 64) * gain_pv <= (0 + 1) * 100 * gain_sp is false with
 * gains 1:2 (6.1/6.12) and 2:3 (mainline): the loop breaks at tier 1,
 * get_tier_idx() = 0.  Without history every pv has fewer than
 * MIN_LRU_BATCH refaults: 3.
 *
 * Then sort_folio(): four pages read three times (tier 2, table above)
 * and one page read once (tier 0).  "if (tier > tier_idx || ...)": the
 * four are protected (folio_inc_gen(), lrugen->protected counts them), the
 * fifth is isolated and evicted, leaving its shadow.
 */
static void test_tier_protection(void)
{
	for (int p = 0; p < 3; p++) {
		struct aw_kernel *k = profile_kernel(all_profiles[p], 0, 1);
		struct lruvec *lruvec = &k->lruvecs[0];
		struct lru_gen_folio *g = &lruvec->lrugen;
		unsigned long prot = 0, avg = 0;
		pte_t *pte;

		file_pages(k, 5);
		CHECK_EQ(get_tier_idx(lruvec, LRU_GEN_FILE), 3);
		pread_pages(k, BASE, 4, 3, false);
		pread_pages(k, BASE + 4 * PAGE_SIZE, 1, 1, false);
		/*
		 * 6.1/6.12 add the five at min_seq + 1 (lru_gen_add_folio():
		 * min_seq + MIN_NR_GENS >= max_seq is 2 >= 3, false), where a
		 * '-' of a new lruvec finds nothing to evict; a forced aging
		 * pass first (max_seq 4, min_seq 1) makes theirs the oldest
		 * generation on every profile.  The history is set after it:
		 * inc_min_seq()'s reset_ctrl_pos() would halve it.
		 */
		ev_age(k, true);
		g->avg_total[LRU_GEN_FILE][0] = 1000;
		g->avg_refaulted[LRU_GEN_FILE][1] = 100;
		g->avg_total[LRU_GEN_FILE][1] = 100;
		CHECK_EQ(get_tier_idx(lruvec, LRU_GEN_FILE), 0);
		evict_nr(k, 1);
		for (int i = 0; i < 4; i++)
			CHECK(folio_at(k, BASE + i * PAGE_SIZE) != NULL);
		pte = pte_at(k, BASE + 4 * PAGE_SIZE);
		CHECK(pte && (*pte & _PAGE_FILE_SHADOW));
		/*
		 * The four protected pages are counted at tier 2 (the
		 * model's index; 6.1/6.12 store them at tier - 1).  The sort
		 * emptied the oldest generation, so evict_folios()'
		 * try_to_inc_min_seq() moved min_seq on and reset_ctrl_pos()
		 * carried them over: avg_total = (0 + 4 + 0) / 2 = 2,
		 * protected 0.
		 */
		prot = g->protected[LRU_GEN_FILE][2];
		avg = g->avg_total[LRU_GEN_FILE][2];
		CHECK_EQ(prot, 0);
		CHECK_EQ(avg, 2);
		CHECK_EQ(k->node_stats[0].evicted_pages, 1);
		aw_kernel_destroy(k);
	}
}

int main(void)
{
	RUN(test_refs_walk);
	RUN(test_write_dirties);
	RUN(test_same_folio_once);
	RUN(test_tier_protection);
	return aw_test_report("test_fdio");
}
