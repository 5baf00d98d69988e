// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's own MGLRU text, extracted from each configured tree
 * (tools/ktext-extract, -DAGEWALK_KERNEL_TREES), bound onto the model's
 * machine (src/kbind) beside the model variant it must agree with, every
 * oracle on.  Every expected figure below is worked out from the kernel
 * rules in the comments, not from a run; where the releases differ, the
 * test says which rule gives which figure.  The counters are the text's
 * own (ops->mm_stats()); generations, flags and Bloom filters are read
 * off the text variant's machine, where the text left them.
 *
 * The machine: one node, one memcg, one mm with one anonymous VMA of two
 * PMDs at 1 GiB.  PMD 0 is dense (64 written pages), PMD 1 sparse (2).
 */
#include <stdio.h>
#include <string.h>

#include "aw_test.h"
#include "kbind.h"
#include "ktext_variants.h"

#define VMA_START	(1UL << 30)
#define PMD_SZ		(1UL << 21)
#define PG		4096UL

/* One tree's text beside its model pair, stepped an event at a time. */
struct pair {
	struct aw_scenario sc;
	struct aw_lockstep ls;
	const char *names[2];		/* the model pair, then the tree */
	const struct aw_ktext_ops *ops;
	struct aw_ktext *kt;		/* the text's own state */
	struct aw_kernel *k;		/* the machine it runs on */
	size_t next;			/* the next event to apply */
	bool ok;
};

static bool pair_begin(struct pair *p, const struct aw_ktext_ops *ops, const char *name, const char *text)
{
	struct aw_variant buf;
	const struct aw_variant *v = aw_kbind_find(ops->name, &buf);
	struct aw_lockstep_opts lo = { .variants = p->names, .nr_variants = 2, .oracles = true };
	unsigned long calls, *checked;
	char err[256];

	memset(p, 0, sizeof(*p));
	aw_scenario_init(&p->sc);
	CHECK(v != NULL);
	if (!v || aw_aws_parse_string(name, text, &p->sc, err, sizeof(err))) {
		CHECK(!"the scenario parses");
		return false;
	}
	p->names[0] = v->pair;
	p->names[1] = v->name;
	lo.kernel = v->kernel;
	lo.thp = (int)p->sc.cfg.thp;
	aw_kbind_opts(&lo);
	CHECK_EQ(aw_lockstep_begin(&p->ls, &p->sc, &lo), 0);
	p->ops = ops;
	p->k = p->ls.k[1];
	p->ok = p->k && aw_kbind_ops(p->k, &p->kt, &calls, &checked) == ops;
	CHECK(p->ok);
	return p->ok;
}

/* Apply events up to and including event n; no oracle may find anything. */
static void pair_step_to(struct pair *p, size_t n)
{
	for (; p->next <= n && p->next < p->sc.nr_events; p->next++)
		CHECK_EQ(aw_lockstep_step(&p->ls, &p->sc.events[p->next], p->sc.event_line[p->next]), 0);
	CHECK_EQ(p->ls.nr_findings, 0);
	for (int i = 0; i < p->ls.nr_findings; i++)
		fprintf(stderr, "  finding: %s\n", p->ls.findings[i].msg);
}

static void pair_end(struct pair *p)
{
	const char *last = NULL;

	pair_step_to(p, p->sc.nr_events);
	aw_lockstep_end(&p->ls);
	CHECK_EQ(p->ls.nr_findings, 0);
	CHECK_EQ(p->ops->warnings(p->kt, &last), 0);
	if (last)
		printf("  warning: %s\n", last);
	aw_lockstep_free(&p->ls);
	aw_scenario_free(&p->sc);
}

static int stat_index(const struct aw_ktext_ops *ops, const char *name)
{
	for (int i = 0; i < ops->nr_mm_stats; i++)
		if (!strcmp(ops->mm_stat_names[i], name))
			return i;
	return -1;
}

static unsigned long stat(struct pair *p, const char *name)
{
	unsigned long s[AW_KTEXT_MAX_STATS];
	int i = stat_index(p->ops, name);

	CHECK(i >= 0);
	p->ops->mm_stats(p->kt, 0, 0, s);
	return i >= 0 ? s[i] : ~0UL;
}

static struct lru_gen_folio *lrugen(struct pair *p)
{
	return &aw_lruvec(p->k, 0, 0)->lrugen;
}

static long nr_pages(struct pair *p, int gen)
{
	return lrugen(p)->nr_pages[gen][0];
}

static struct mm_struct *mm_of(struct pair *p)
{
	struct aw_task *t = aw_task_get(p->k, 1);

	return t && t->alive ? aw_mm(p->k, t->mm) : NULL;
}

static pte_t *pte_at(struct pair *p, uint64_t addr)
{
	struct mm_struct *mm = mm_of(p);

	return mm ? aw_pte_lookup(p->k, mm, addr, false, NULL) : NULL;
}

/* The folio mapped at addr (its generation, its flags), NULL if none. */
static struct folio *folio_at(struct pair *p, uint64_t addr)
{
	pte_t *pte = pte_at(p, addr);

	return pte && pte_present(*pte) ? pfn_folio(&p->k->mem, pte_pfn(*pte)) : NULL;
}

static int gen_at(struct pair *p, uint64_t addr)
{
	struct folio *folio = folio_at(p, addr);

	return folio ? folio_lru_gen(folio) : -1;
}

static bool young_at(struct pair *p, uint64_t addr)
{
	pte_t *pte = pte_at(p, addr);

	return pte && pte_young(*pte);
}

/* The flags MGLRU keeps on the folio at addr: PG_lru only, after a fault or folio_update_gen() */
static void check_lru_only(struct pair *p, uint64_t addr)
{
	struct folio *folio = folio_at(p, addr);
	unsigned long mask = 1UL << PG_lru | 1UL << PG_active | 1UL << PG_referenced | 1UL << PG_workingset;

	CHECK(folio != NULL);
	if (folio)
		CHECK_EQ(folio->flags & mask, 1UL << PG_lru);
}

/* test_bloom_filter() of the text's PMD filter for seq, for the PMD entry covering addr */
static bool bloom_has_pmd(struct pair *p, unsigned long seq, uint64_t addr)
{
	struct mm_struct *mm = mm_of(p);
	uint64_t item = mm ? aw_pmd_entry_kva(p->k, mm, addr) : 0;

	CHECK(item != 0);
	return __test_bloom_filter(aw_lruvec(p->k, 0, 0)->mm_state.filters[BLOOM_FILTER_PMD], seq, item);
}

/*
 * Pass 1 (forced) after 66 faults; a generation retirement; pass 2 (not
 * forced) after touching 10 dense and 1 sparse page; pass 3 (not forced)
 * with nothing run; pass 4 forced.  Event indices are in the comments.
 */
static const char dense_sparse[] =
	"swap 8G\nthp never\nmodes never\n"
	"proc P cpu 0 nolayout\n"		/* 0 */
	"mmap P A 4M at 0x40000000\n"		/* 1 */
	"write P A off 0 len 256K\n"		/* 2: dense, 64 pages */
	"write P A off 2M len 4K\n"		/* 3: sparse[0] */
	"write P A off 0x32c000 len 4K\n"	/* 4: sparse[1], PMD 1 + 300 pages */
	"age node 0 force 1\n"			/* 5: pass 1 */
	"evict node 0\n"			/* 6 */
	"read P A off 0 len 40K\n"		/* 7: 10 dense pages */
	"read P A off 2M len 4K\n"		/* 8: sparse[0] */
	"run P\n"				/* 9 */
	"age node 0 force 0\n"			/* 10: pass 2 */
	"age node 0 force 0\n"			/* 11: pass 3 */
	"age node 0 force 1\n";			/* 12: pass 4 */

#define DENSE(i)	(VMA_START + (i) * PG)
#define SPARSE0		(VMA_START + PMD_SZ)
#define SPARSE1		(VMA_START + PMD_SZ + 300 * PG)

static void walk_faults_and_pass1(struct pair *p)
{
	/* lru_gen_init_lruvec(): max_seq = MIN_NR_GENS + 1, min_seq 0: four generations */
	pair_step_to(p, 1);
	CHECK_EQ(lrugen(p)->max_seq, 3);
	CHECK_EQ(lrugen(p)->min_seq[0], 0);
	/*
	 * lru_gen_add_folio() with PG_active (a fault): seq = max_seq, so
	 * every folio is in generation 3 % MAX_NR_GENS = 3, and PG_active is
	 * cleared in the same update.
	 */
	pair_step_to(p, 4);
	CHECK_EQ(gen_at(p, DENSE(0)), 3);
	CHECK_EQ(nr_pages(p, 3), 66);
	check_lru_only(p, DENSE(0));
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
	pair_step_to(p, 5);
	CHECK_EQ(lrugen(p)->max_seq, 4);
	CHECK_EQ(lrugen(p)->min_seq[0], 1);
	CHECK_EQ(lrugen(p)->min_seq[1], 1);
	CHECK_EQ(stat(p, "MM_LEAF_TOTAL"), 1024);
	CHECK_EQ(stat(p, "MM_LEAF_YOUNG"), 66);
	CHECK_EQ(stat(p, "MM_NONLEAF_FOUND"), 2);
	CHECK_EQ(stat(p, "MM_NONLEAF_ADDED"), 1);
	CHECK(bloom_has_pmd(p, 4, VMA_START));
	CHECK(!bloom_has_pmd(p, 4, VMA_START + PMD_SZ));
	CHECK(!young_at(p, VMA_START));
	CHECK_EQ(gen_at(p, DENSE(0)), 3);
	/*
	 * Four generations exist (min_seq 1 .. max_seq 4).  Eviction:
	 * isolate_folios() finds the oldest generations empty, and
	 * try_to_inc_min_seq() retires them: anon and file both step over
	 * seq 1 and 2 and stop at 3, since min_seq + MIN_NR_GENS must stay
	 * <= max_seq: min_seq 3, two generations, nothing reclaimed.
	 */
	pair_step_to(p, 6);
	CHECK_EQ(lrugen(p)->max_seq, 4);
	CHECK_EQ(lrugen(p)->min_seq[0], 3);
	CHECK_EQ(lrugen(p)->min_seq[1], 3);
	CHECK_EQ(nr_pages(p, 3), 66);
}

static void walk_pass2_and_pass3(struct pair *p)
{
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
	pair_step_to(p, 10);
	CHECK_EQ(lrugen(p)->max_seq, 5);
	CHECK_EQ(lrugen(p)->min_seq[0], 3);
	CHECK_EQ(stat(p, "MM_LEAF_TOTAL"), 1024 + 512);
	CHECK_EQ(stat(p, "MM_LEAF_YOUNG"), 66 + 10);
	CHECK_EQ(stat(p, "MM_NONLEAF_FOUND"), 3);
	CHECK_EQ(stat(p, "MM_NONLEAF_ADDED"), 1);
	CHECK_EQ(gen_at(p, DENSE(0)), 0);
	CHECK_EQ(gen_at(p, DENSE(9)), 0);
	CHECK_EQ(gen_at(p, DENSE(10)), 3);
	CHECK_EQ(gen_at(p, SPARSE0), 3);
	CHECK(young_at(p, SPARSE0));
	CHECK_EQ(nr_pages(p, 0), 10);
	CHECK_EQ(nr_pages(p, 3), 56);
	/* folio_update_gen() clears PG_referenced, PG_workingset and the refs */
	check_lru_only(p, DENSE(0));
	CHECK(!bloom_has_pmd(p, 5, VMA_START));
	/*
	 * Pass 3, nothing ran: get_next_mm() finds the node's bit clear in
	 * mm->lru_gen.bitmap (pass 2 cleared it, no lru_gen_use_mm() since),
	 * so the mm is not walked; the iteration still ends and max_seq moves
	 * (three generations before, 3 + 4 - 1 > 5 lets it run).
	 */
	pair_step_to(p, 11);
	CHECK_EQ(lrugen(p)->max_seq, 6);
	CHECK_EQ(stat(p, "MM_LEAF_TOTAL"), 1536);
}

static void walk_pass4(struct pair *p)
{
	/* four generations again (3 .. 6): the forced pass runs */
	pair_step_to(p, 12);
	CHECK_EQ(lrugen(p)->max_seq, 7);
	CHECK_EQ(lrugen(p)->min_seq[0], 4);
	CHECK_EQ(lrugen(p)->min_seq[1], 4);
	if (p->ops->version >> 8 == 0x0601) {
		/*
		 * 6.1: walk_pmd_range() applies the non-leaf PMD young gate
		 * under force_scan too, and pass 2 cleared both PMD entries'
		 * accessed bits (walk_pmd_range_locked()); nothing touched
		 * them since, so the forced pass skips both PMDs: no leaf is
		 * read and sparse[0] keeps its generation.  inc_max_seq()
		 * retires seq 3: all 56 of its folios go to seq 4's slot 0.
		 */
		CHECK_EQ(stat(p, "MM_LEAF_TOTAL"), 1536);
		CHECK_EQ(stat(p, "MM_LEAF_YOUNG"), 76);
		CHECK_EQ(stat(p, "MM_NONLEAF_TOTAL"), 6);	/* 2 per walk, 3 walks */
		CHECK_EQ(stat(p, "MM_LEAF_OLD"), 54);		/* pass 2: the dense PMD's untouched 54 */
		CHECK_EQ(stat(p, "MM_NONLEAF_FOUND"), 3);
		CHECK_EQ(gen_at(p, SPARSE0), 0);
		CHECK_EQ(nr_pages(p, 0), 66);
		CHECK_EQ(nr_pages(p, 2), 0);
	} else {
		/*
		 * 6.12: force_scan bypasses the PMD young gate and the Bloom
		 * filter: 1024 leaves; the one PTE still young is the sparse
		 * one touched before pass 2, so sparse[0] is promoted to
		 * lru_gen_from_seq(6) = 2.  No PMD is suitable.  inc_max_seq()
		 * then retires seq 3: its other 55 folios go one generation up,
		 * to seq 4's slot 0 (10 already there).
		 */
		CHECK_EQ(stat(p, "MM_LEAF_TOTAL"), 2560);
		CHECK_EQ(stat(p, "MM_LEAF_YOUNG"), 77);
		CHECK_EQ(stat(p, "MM_NONLEAF_FOUND"), 5);
		CHECK_EQ(gen_at(p, SPARSE0), 2);
		CHECK_EQ(nr_pages(p, 0), 65);
		CHECK_EQ(nr_pages(p, 2), 1);
	}
	CHECK_EQ(stat(p, "MM_NONLEAF_ADDED"), 1);
	CHECK_EQ(gen_at(p, SPARSE1), 0);
	CHECK_EQ(nr_pages(p, 3), 0);
}

static void test_walk(const struct aw_ktext_ops *ops)
{
	struct pair p;

	printf("  %s (Linux %u.%u.%u%s)\n", ops->name, ops->version >> 16, (ops->version >> 8) & 255,
	       ops->version & 255, ops->series ? " + series" : "");
	/* the figures below are worked out for these releases' rules */
	if (ops->version >> 8 != 0x0601 && ops->version >> 8 != 0x060c) {
		printf("  %s: no hand-computed figures for this release; add them\n", ops->name);
		CHECK(!"a release test_ktext has no figures for");
		return;
	}
	if (!pair_begin(&p, ops, "dense-sparse", dense_sparse))
		return;
	walk_faults_and_pass1(&p);
	walk_pass2_and_pass3(&p);
	walk_pass4(&p);
	pair_end(&p);
}

/*
 * The PUD filter's own case: one VMA of three PMDs at 1 GiB whose only
 * mappings are 64 zero-page PTEs in PMD 0 (anonymous reads): a subtree
 * with page tables and nothing MGLRU can age.  PMDs 1 and 2 are pmd_none.
 */
static const char cold_pud[] =
	"swap 8G\nthp never\nmodes never\n"
	"proc P cpu 0 nolayout\n"		/* 0 */
	"mmap P A 6M at 0x40000000\n"		/* 1 */
	"read P A off 0 len 256K\n"		/* 2: 64 zero-page PTEs */
	"age node 0 force 1\n"			/* 3: pass 1 */
	"evict node 0\n"			/* 4 */
	"run P\n"				/* 5 */
	"age node 0 force 0\n";			/* 6: pass 2 */

static void test_cold_pud(const struct aw_ktext_ops *ops)
{
	bool v61 = ops->version >> 8 == 0x0601;
	struct pair p;

	if (!pair_begin(&p, ops, "cold-pud", cold_pud))
		return;
	/*
	 * Pass 1, forced: PMD 0's 512 slots are leaves (get_pte_pfn() drops
	 * the zero pfn: none young), and walk_pmd_range() counts each
	 * pmd_none slot of the VMA as a leaf: 514, nothing carried.  With
	 * the series walk_pmd_range() found nothing young (the young gate
	 * is skipped under force), so the PUD is not marked for seq 4.
	 * 6.1: should_skip_mm() skips an mm with fewer than MIN_LRU_BATCH
	 * resident pages, forced or not -- zero pages are not in its RSS.
	 */
	pair_step_to(&p, 3);
	CHECK_EQ(stat(&p, "MM_LEAF_TOTAL"), v61 ? 0 : 514);
	CHECK_EQ(stat(&p, "MM_NONLEAF_ADDED"), 0);
	/* no folio anywhere: eviction retires seq 1 and 2, min_seq 3 */
	pair_step_to(&p, 4);
	CHECK_EQ(lrugen(&p)->min_seq[0], 3);
	/*
	 * Pass 2, not forced, the task ran.  Base 6.12: PMD 0's accessed bit
	 * (set when its table was made) passes the young gate, the seq 4
	 * PMD filter does not have it: skipped unread; the empty slots
	 * count: 516.  With the series the seq 4 PUD filter does not have
	 * the PUD: the subtree is skipped whole, nothing counts, and
	 * MM_PUD_EMPTY_SKIPPED is 1.
	 */
	pair_step_to(&p, 6);
	CHECK_EQ(lrugen(&p)->max_seq, 5);
	if (ops->series) {
		CHECK_EQ(stat(&p, "MM_LEAF_TOTAL"), 514);
		CHECK_EQ(stat(&p, "MM_PUD_EMPTY_SKIPPED"), 1);
	} else {
		CHECK_EQ(stat(&p, "MM_LEAF_TOTAL"), v61 ? 0 : 516);
		CHECK(stat_index(ops, "MM_PUD_EMPTY_SKIPPED") < 0);
	}
	CHECK_EQ(stat(&p, "MM_LEAF_YOUNG"), 0);
	pair_end(&p);
}

/* Out-of-range hosts are refused, never crash. */
static void test_bad_host(const struct aw_ktext_ops *ops)
{
	struct aw_ktext_host host = { .nr_nodes = AW_KTEXT_MAX_NODES + 1, .nr_memcgs = 1 };

	CHECK(ops->bind(&host) == NULL);
	host.nr_nodes = 1;
	host.nr_memcgs = AW_KTEXT_MAX_MEMCGS + 1;
	CHECK(ops->bind(&host) == NULL);
	host.nr_memcgs = 0;
	CHECK(ops->bind(&host) == NULL);
}

int main(void)
{
	int n = 0;

	for (const struct aw_ktext_ops *const *v = aw_ktext_variants; *v; v++, n++) {
		test_walk(*v);
		if ((*v)->version >> 8 == 0x0601 || (*v)->version >> 8 == 0x060c)
			test_cold_pud(*v);
		test_bad_host(*v);
	}
	if (!n) {
		printf("no kernel-text variants built (configure with -DAGEWALK_KERNEL_TREES)\n");
		return 77;
	}
	return aw_test_report("test_ktext");
}
