// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the oracles (src/check/oracle.c, docs/oracles.md): for each oracle a
 * violating situation built by hand -- by corrupting kernel state directly or
 * by calling the oracle hooks with a hand-made walk -- must raise exactly one
 * finding of that oracle, and the matching legal situation must stay silent.
 *
 * No planted --bug switch is used.  Every expected value is derived from the
 * rules (docs/oracles.md); the comment next to
 * each says how.
 */
#include <errno.h>

#include "aw_kernel_test.h"

#include "kernel.h"
#include "event.h"
#include "scenario.h"
#include "oracle.h"

#define BASE_ADDR	0x7e0000000000ULL	/* 1 GiB (hence 2 MiB) aligned */
#define PG(n)		((uint64_t)(n) * PAGE_SIZE)

/* ------------------------------------------------------------------ */
/* helpers */

static struct aw_kernel *new_kernel(unsigned int features, int skip_empty)
{
	struct aw_config cfg;

	aw_config_default(&cfg);
	cfg.nr_nodes = 1;
	cfg.swap_bytes = 1ULL << 30;
	cfg.thp = AW_THP_NEVER;
	cfg.thp_modes = 1u << AW_THP_NEVER;
	cfg.skip_empty = skip_empty;
	return aw_kernel_create(&cfg, 0, features, 0);
}

static void ev_proc(struct aw_kernel *k)
{
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_PROC, .pid = 1, .cpu = 0,
					     .memcg = 0, .flags = AW_PROC_NOLAYOUT }), 0);
}

static void ev_mmap(struct aw_kernel *k, uint64_t addr, uint64_t len)
{
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_MMAP, .pid = 1, .addr2 = addr,
					     .len = len, .arg = AW_PROT_DEFAULT }), 0);
}

static void ev_write(struct aw_kernel *k, uint64_t addr, uint64_t len)
{
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_ACCESS, .pid = 1, .cpu = 0,
					     .addr = addr, .len = len, .repeat = 1,
					     .flags = AW_ACC_WRITE }), 0);
}

static struct mm_struct *mm_of(struct aw_kernel *k)
{
	struct aw_task *t = aw_task_get(k, 1);

	return t && t->alive ? aw_mm(k, t->mm) : NULL;
}

/* Findings of oracle id among those recorded from index 'from' on. */
static int findings_of(struct aw_kernel *k, int from, enum aw_oracle_id id)
{
	int n = 0;

	for (int i = from; i < aw_oracle_nr_findings(k); i++)
		if (aw_oracle_finding(k, i)->oracle == id)
			n++;
	return n;
}

/* Exactly one new finding since 'from', and it is of oracle id. */
#define CHECK_ONE_FINDING(k, from, id) do { \
	CHECK_EQ(aw_oracle_nr_findings(k), (from) + 1); \
	if (aw_oracle_nr_findings(k) > (from)) \
		CHECK_EQ(aw_oracle_finding(k, from)->oracle, id); \
} while (0)

#define CHECK_NO_FINDING(k, from) CHECK_EQ(aw_oracle_nr_findings(k), from)

/*
 * One process (no layout), one 2 MiB anon mapping at BASE_ADDR, its first
 * 16 pages written (16 order-0 folios, THP off), then a forced aging pass.
 * The oracle is attached first so the whole build runs under it: a correct
 * model must leave it silent.
 */
static struct aw_kernel *built_kernel(unsigned int features, bool age)
{
	struct aw_kernel *k = new_kernel(features, 4);

	if (!k)
		return NULL;
	CHECK_EQ(aw_oracle_attach(k), 0);
	ev_proc(k);
	ev_mmap(k, BASE_ADDR, PMD_SIZE);
	ev_write(k, BASE_ADDR, PG(16));
	if (age)
		ev_age(k, true);
	CHECK_NO_FINDING(k, 0);
	return k;
}

static uint32_t pfn_at(struct aw_kernel *k, uint64_t addr)
{
	pte_t *pte = aw_pte_lookup(k, mm_of(k), addr, false, NULL);

	CHECK(pte && pte_present(*pte));
	return pte && pte_present(*pte) ? (uint32_t)pte_pfn(*pte) : AW_NIL;
}

/* ------------------------------------------------------------------ */
/* 1. exact-filter: no false negatives; false positives are a metric */

static void test_exact_filter(void)
{
	struct aw_kernel *k = new_kernel(0, 4);
	const uint64_t key = 0xffff888100001008ULL;
	const uint64_t other = 0xffff888100005ff8ULL;
	struct lruvec *lv;
	int n;

	CHECK(k != NULL);
	if (!k)
		return;
	CHECK_EQ(aw_oracle_attach(k), 0);
	lv = aw_lruvec(k, 0, 0);

	/* reset for seq 5 (shadow slot 5 % 2 = 1), insert key: the shadow holds it */
	aw_or_filter_reset(k, lv, BLOOM_FILTER_PMD, 5);
	aw_or_filter_insert(k, lv, BLOOM_FILTER_PMD, 5, key);

	/* "absent" for a key inserted since the reset: a false negative */
	n = aw_oracle_nr_findings(k);
	aw_or_filter_test(k, lv, BLOOM_FILTER_PMD, 5, key, false);
	CHECK_ONE_FINDING(k, n, AW_OR_EXACT_FILTER);

	/* "present" for it: agrees with the shadow, silent, no false positive */
	n = aw_oracle_nr_findings(k);
	aw_or_filter_test(k, lv, BLOOM_FILTER_PMD, 5, key, true);
	CHECK_NO_FINDING(k, n);
	CHECK_EQ(aw_oracle_metrics(k, 0)->bloom_false_positive, 0);

	/* a key never inserted: "absent" is right, "present" a false positive (metric) */
	aw_or_filter_test(k, lv, BLOOM_FILTER_PMD, 5, other, false);
	CHECK_NO_FINDING(k, n);
	CHECK_EQ(aw_oracle_metrics(k, 0)->bloom_false_positive, 0);
	aw_or_filter_test(k, lv, BLOOM_FILTER_PMD, 5, other, true);
	CHECK_NO_FINDING(k, n);
	CHECK_EQ(aw_oracle_metrics(k, 0)->bloom_false_positive, 1);

	/* the PUD level of the same seq is a separate filter, never reset: NULL */
	aw_or_filter_test(k, lv, BLOOM_FILTER_PUD, 5, other, false);
	CHECK_ONE_FINDING(k, n, AW_OR_EXACT_FILTER);

	/*
	 * seq 4 uses slot 4 % 2 = 0, never reset: a NULL filter tests true
	 * (docs/kernel-rules.md §5: NULL means true), so "absent" is a false negative
	 * for any key, and "present" is simply right (no false positive).
	 */
	n = aw_oracle_nr_findings(k);
	aw_or_filter_test(k, lv, BLOOM_FILTER_PMD, 4, other, false);
	CHECK_ONE_FINDING(k, n, AW_OR_EXACT_FILTER);
	n = aw_oracle_nr_findings(k);
	aw_or_filter_test(k, lv, BLOOM_FILTER_PMD, 4, other, true);
	CHECK_NO_FINDING(k, n);
	CHECK_EQ(aw_oracle_metrics(k, 0)->bloom_false_positive, 1);
	/* inserting into a NULL filter does nothing: it stays NULL (tests true) */
	aw_or_filter_insert(k, lv, BLOOM_FILTER_PMD, 4, key);
	aw_or_filter_test(k, lv, BLOOM_FILTER_PMD, 4, key, false);
	CHECK_ONE_FINDING(k, n, AW_OR_EXACT_FILTER);

	/* double buffering: seq 7 is slot 1 again; its reset forgets the key of seq 5 */
	n = aw_oracle_nr_findings(k);
	aw_or_filter_reset(k, lv, BLOOM_FILTER_PMD, 7);
	aw_or_filter_test(k, lv, BLOOM_FILTER_PMD, 7, key, false);
	CHECK_NO_FINDING(k, n);

	aw_kernel_destroy(k);
}

/* ------------------------------------------------------------------ */
/* 2. structural: counters vs lists, the window, monotonic max_seq */

/* The last generation holding anon pages, -1 if none. */
static int anon_gen(const struct lru_gen_folio *lrugen)
{
	int gen = -1;

	for (int g = 0; g < MAX_NR_GENS; g++)
		if (lrugen->nr_pages[g][LRU_GEN_ANON] > 0)
			gen = g;
	return gen;
}

static void test_structural(void)
{
	struct aw_kernel *k = built_kernel(0, true);
	struct lru_gen_folio *lrugen;
	struct lruvec *lv;
	int gen = -1, n;
	unsigned long max_seq, min_seq1;

	CHECK(k != NULL);
	if (!k)
		return;
	lv = aw_lruvec(k, 0, 0);
	lrugen = &lv->lrugen;
	/*
	 * Initial max_seq 3, min_seq 0 (4 generations); the forced aging
	 * retires the oldest slot first (inc_min_seq) and moves max_seq to 4:
	 * max_seq 4, min_seq[anon] 1, a window of 4.
	 */
	CHECK_EQ(lrugen->max_seq, 4);

	/* the real state is consistent: checking it stays silent */
	n = aw_oracle_nr_findings(k);
	aw_or_before_inc_max_seq(k, lv);
	aw_or_check_structure(k);
	CHECK_NO_FINDING(k, n);

	/* a generation that holds the 16 anon folios */
	gen = anon_gen(lrugen);
	CHECK(gen >= 0);
	if (gen < 0)
		goto out;

	/* nr_pages one more than the pages of the folios whose flags say gen */
	lrugen->nr_pages[gen][LRU_GEN_ANON]++;
	aw_or_before_inc_max_seq(k, lv);
	CHECK_ONE_FINDING(k, n, AW_OR_STRUCTURAL);
	lrugen->nr_pages[gen][LRU_GEN_ANON]--;
	n = aw_oracle_nr_findings(k);
	aw_or_before_inc_max_seq(k, lv);
	CHECK_NO_FINDING(k, n);

	/*
	 * max_seq + 2 without inc_max_seq: the window max_seq - min_seq + 1
	 * grows past MAX_NR_GENS = 4 for both types (anon: 6 - 1 + 1 = 6), so
	 * one finding per type -- two, both structural.
	 */
	max_seq = lrugen->max_seq;
	lrugen->max_seq += 2;
	CHECK(lrugen->max_seq - lrugen->min_seq[LRU_GEN_ANON] + 1 > MAX_NR_GENS);
	CHECK(lrugen->max_seq - lrugen->min_seq[LRU_GEN_FILE] + 1 > MAX_NR_GENS);
	aw_or_before_inc_max_seq(k, lv);
	CHECK_EQ(aw_oracle_nr_findings(k), n + 2);
	CHECK_EQ(findings_of(k, n, AW_OR_STRUCTURAL), 2);
	lrugen->max_seq = max_seq;

	/* window too small for file only: min_seq[file] = max_seq gives 1 < MIN_NR_GENS */
	n = aw_oracle_nr_findings(k);
	min_seq1 = lrugen->min_seq[LRU_GEN_FILE];
	lrugen->min_seq[LRU_GEN_FILE] = lrugen->max_seq;
	aw_or_before_inc_max_seq(k, lv);
	CHECK_ONE_FINDING(k, n, AW_OR_STRUCTURAL);
	if (aw_oracle_nr_findings(k) > n)
		CHECK(strstr(aw_oracle_finding(k, n)->msg, "file") != NULL);
	lrugen->min_seq[LRU_GEN_FILE] = min_seq1;

	/* monotonic max_seq (docs/kernel-rules.md §10.2): the same value twice is fine, going back is not */
	n = aw_oracle_nr_findings(k);
	aw_or_check_structure(k);
	aw_or_check_structure(k);
	CHECK_NO_FINDING(k, n);
	lrugen->max_seq = max_seq - 1;
	aw_or_check_structure(k);
	CHECK_ONE_FINDING(k, n, AW_OR_STRUCTURAL);
	lrugen->max_seq = max_seq;
	/* back up to the old value is a rise from the last seen one: silent */
	n = aw_oracle_nr_findings(k);
	aw_or_check_structure(k);
	CHECK_NO_FINDING(k, n);

	/* per walk Y <= T (docs/oracles.md, structural), checked by aw_or_walk_done */
	{
		struct lru_gen_mm_walk walk;

		aw_walk_init(&walk, k);
		walk.lruvec = lv;
		walk.mm_stats[MM_LEAF_TOTAL] = 3;
		walk.mm_stats[MM_LEAF_YOUNG] = 3;
		walk.mm_stats[MM_LEAF_ASSOCIATED] = 3;
		aw_or_walk_done(k, &walk, mm_of(k), 0);
		CHECK_NO_FINDING(k, n);
		walk.mm_stats[MM_LEAF_YOUNG] = 4;
		aw_or_walk_done(k, &walk, mm_of(k), 0);
		CHECK_ONE_FINDING(k, n, AW_OR_STRUCTURAL);
	}
out:
	aw_kernel_destroy(k);
}

/*
 * The list walk (check_lruvec(), docs/oracles.md, structural): each
 * generation list, followed by its next links from the head, must hold
 * folios whose prev link is the folio before them, that are well-formed
 * members (flag generation, type, memcg, node), and end back at the head,
 * whose prev is the last folio.  The first thing wrong, in that order
 * from the head, is the one reported, once.  It is reported whichever end
 * of the list the walk reaches it from first (the walk runs from both
 * ends at once and walks again from the head to report), and a prev link
 * that points nowhere (list_del()'s poison in kernel text) is compared,
 * never followed.
 */
#define LW_N	16

/* Expect exactly one structural finding naming what (a substring of its message). */
static void check_one_walk_finding(struct aw_kernel *k, const char *what)
{
	int n = aw_oracle_nr_findings(k);

	aw_oracle_run_end(k);
	CHECK_ONE_FINDING(k, n, AW_OR_STRUCTURAL);
	if (aw_oracle_nr_findings(k) > n)
		CHECK(strstr(aw_oracle_finding(k, n)->msg, what) != NULL);
}

static void test_list_walk(void)
{
	struct aw_kernel *k = built_kernel(0, true);
	struct list_head *head, *at[LW_N], *saved;
	struct lru_gen_folio *lrugen;
	char what[96];
	int gen = -1, nr = 0, n;

	CHECK(k != NULL);
	if (!k)
		return;
	lrugen = &aw_lruvec(k, 0, 0)->lrugen;
	gen = anon_gen(lrugen);
	CHECK(gen >= 0);
	if (gen < 0)
		goto out;
	/* the 16 written pages are 16 order-0 folios, all in the one generation (test_structural) */
	head = &lrugen->folios[gen][LRU_GEN_ANON];
	for (struct list_head *h = head->next; h != head && nr < LW_N; h = h->next)
		at[nr++] = h;
	CHECK_EQ(nr, LW_N);
	if (nr != LW_N)
		goto out;
#define PFN_OF(i)	(list_entry(at[i], struct folio, lru)->pfn)
#define NAMED(i)	(snprintf(what, sizeof(what), "folio 0x%x on list gen %d type 0", PFN_OF(i), gen), what)

	/* well-formed: silent */
	n = aw_oracle_nr_findings(k);
	aw_oracle_run_end(k);
	CHECK_NO_FINDING(k, n);

	/* folio 8's prev is folio 2: folio 8 is the first whose prev is not the folio before it */
	saved = at[8]->prev;
	at[8]->prev = at[2];
	check_one_walk_finding(k, NAMED(8));
	at[8]->prev = saved;

	/* the last folio's prev poisoned (LIST_POISON2): that folio, and no crash */
	saved = at[LW_N - 1]->prev;
	at[LW_N - 1]->prev = (struct list_head *)(uintptr_t)0xdead000000000122ULL;
	check_one_walk_finding(k, NAMED(LW_N - 1));
	at[LW_N - 1]->prev = saved;

	/* the first folio's prev poisoned: the first folio */
	saved = at[0]->prev;
	at[0]->prev = (struct list_head *)(uintptr_t)0xdead000000000122ULL;
	check_one_walk_finding(k, NAMED(0));
	at[0]->prev = saved;

	/* folio 4's next skips folio 5: folio 6 follows folio 4 but its prev is folio 5 */
	at[4]->next = at[6];
	check_one_walk_finding(k, NAMED(6));
	at[4]->next = at[5];

	/* folio 11 of another memcg: not a well-formed member */
	list_entry(at[11], struct folio, lru)->memcg = 1;
	check_one_walk_finding(k, NAMED(11));
	list_entry(at[11], struct folio, lru)->memcg = 0;

	/* every folio well-formed from the head, but the head's prev is folio 7, not the last */
	head->prev = at[7];
	check_one_walk_finding(k, "head's prev is not its last folio");
	head->prev = at[LW_N - 1];

	/* folio 13 and the last folio point at each other (a loop at the tail): folio 13's next is wrong */
	at[13]->next = at[LW_N - 1];
	at[LW_N - 1]->prev = at[13];
	at[LW_N - 1]->next = at[13];
	/* from the head: 0..13, the last (its prev is 13: fine), then 13 again, whose prev is not the last */
	check_one_walk_finding(k, NAMED(13));
	at[13]->next = at[14];
	at[LW_N - 1]->prev = at[14];
	at[LW_N - 1]->next = head;

	/* restored: silent again */
	n = aw_oracle_nr_findings(k);
	aw_oracle_run_end(k);
	CHECK_NO_FINDING(k, n);
#undef PFN_OF
#undef NAMED
out:
	aw_kernel_destroy(k);
}

/* ------------------------------------------------------------------ */
/* 3. premature-reclaim: young at folio_check_references => not reclaimed */

static void test_premature_reclaim(void)
{
	struct aw_kernel *k = built_kernel(0, false);
	uint32_t pfn;
	int n;

	CHECK(k != NULL);
	if (!k)
		return;
	pfn = pfn_at(k, BASE_ADDR + PG(3));
	if (pfn == AW_NIL)
		goto out;

	/* young when folio_check_references ran, and reclaimed: docs/kernel-rules.md §10.5 violated */
	n = aw_oracle_nr_findings(k);
	aw_or_reclaim_decision(k, pfn, true, true, false, -1);
	CHECK_ONE_FINDING(k, n, AW_OR_PREMATURE_RECLAIM);

	/* MADV_PAGEOUT ignores references: exempt */
	n = aw_oracle_nr_findings(k);
	aw_or_reclaim_decision(k, pfn, true, true, true, -1);
	CHECK_NO_FINDING(k, n);
	/* not young: reclaim is legal */
	aw_or_reclaim_decision(k, pfn, false, true, false, -1);
	CHECK_NO_FINDING(k, n);
	/* young and kept (KEEP/ACTIVATE): what the rule asks for */
	aw_or_reclaim_decision(k, pfn, true, false, false, -1);
	CHECK_NO_FINDING(k, n);
out:
	aw_kernel_destroy(k);
}

/* ------------------------------------------------------------------ */
/* 4. force-scan-complete: a forced walk skips no PUD (docs/kernel-rules.md §9) */

static void test_force_scan_complete(void)
{
	struct aw_kernel *k = built_kernel(0, false);
	struct lru_gen_mm_walk walk;
	struct mm_struct *mm;
	int n;

	CHECK(k != NULL);
	if (!k)
		return;
	mm = mm_of(k);
	CHECK(mm != NULL);
	if (!mm)
		goto out;
	aw_walk_init(&walk, k);
	walk.lruvec = aw_lruvec(k, 0, 0);
	walk.seq = walk.lruvec->lrugen.max_seq;
	walk.force_scan = true;
	walk.mm_stats[MM_PUD_EMPTY_SKIPPED] = 2;

	/* the forced walk ran (err 0) and skipped 2 PUD subtrees */
	n = aw_oracle_nr_findings(k);
	aw_or_walk_done(k, &walk, mm, 0);
	CHECK_ONE_FINDING(k, n, AW_OR_FORCE_SCAN_COMPLETE);

	/* the mmap_lock trylock failed: the walk never ran, exempt */
	n = aw_oracle_nr_findings(k);
	aw_or_walk_done(k, &walk, mm, -EBUSY);
	CHECK_NO_FINDING(k, n);

	/* not forced: the PUD filter may skip */
	walk.force_scan = false;
	aw_or_walk_done(k, &walk, mm, 0);
	CHECK_NO_FINDING(k, n);

	/* forced and complete */
	walk.force_scan = true;
	walk.mm_stats[MM_PUD_EMPTY_SKIPPED] = 0;
	aw_or_walk_done(k, &walk, mm, 0);
	CHECK_NO_FINDING(k, n);

	/* get_next_mm(): a forced walker never skips an mm for its node bit ... */
	aw_or_mm_skipped(k, &walk, mm, AW_MM_SKIP_BITMAP);
	CHECK_ONE_FINDING(k, n, AW_OR_FORCE_SCAN_COMPLETE);
	/* ... but may for mmget_not_zero() */
	n = aw_oracle_nr_findings(k);
	aw_or_mm_skipped(k, &walk, mm, AW_MM_SKIP_EXITING);
	CHECK_NO_FINDING(k, n);
	/* and a walker that is not forced skips on the node bit */
	walk.force_scan = false;
	aw_or_mm_skipped(k, &walk, mm, AW_MM_SKIP_BITMAP);
	CHECK_NO_FINDING(k, n);
out:
	aw_kernel_destroy(k);
}

/* ------------------------------------------------------------------ */
/* 5. stale-suppression: the designated pass must walk a fed-back PUD */

static void test_stale_suppression(void)
{
	struct aw_kernel *k = built_kernel(AW_FEAT_PUD_FILTER, false);
	struct lru_gen_mm_walk walk;
	struct mm_struct *mm;
	struct lruvec *lv;
	pud_t *pudp = NULL;
	pud_t pudval;
	unsigned long S;
	int n;

	CHECK(k != NULL);
	if (!k)
		return;
	mm = mm_of(k);
	lv = aw_lruvec(k, 0, 0);
	CHECK(mm != NULL);
	if (!mm)
		goto out;
	/* the PUD entry covering BASE_ADDR: present, its subtree holds the 16 pages */
	CHECK(aw_pmd_lookup(k, mm, BASE_ADDR, false, &pudp) != NULL);
	CHECK(pudp && pud_present(*pudp));
	if (!pudp || !pud_present(*pudp))
		goto out;
	pudval = *pudp;

	S = lv->lrugen.max_seq;		/* 3: no aging yet */
	CHECK_EQ(S, 3);
	aw_walk_init(&walk, k);
	walk.lruvec = lv;
	walk.mm = mm;
	walk.seq = S;
	walk.pass_idx = -1;

	/*
	 * Look-around found the PUD young while max_seq == S: the pass for S
	 * (walk.seq == S) must walk it.  Visiting another address of the same
	 * 1 GiB PUD and skipping it violates the obligation.
	 */
	n = aw_oracle_nr_findings(k);
	aw_or_feedback(k, lv, mm, BASE_ADDR, S, "test cause");
	aw_or_pud_visit(k, &walk, BASE_ADDR + 0x1000, pudval, true);
	CHECK_ONE_FINDING(k, n, AW_OR_STALE_SUPPRESSION);
	if (aw_oracle_nr_findings(k) > n)
		CHECK(strstr(aw_oracle_finding(k, n)->msg, "test cause") != NULL);
	/* the obligation was consumed: a second skip is no longer a finding */
	n = aw_oracle_nr_findings(k);
	aw_or_pud_visit(k, &walk, BASE_ADDR + 0x1000, pudval, true);
	CHECK_NO_FINDING(k, n);

	/* the same obligation, met: no finding, feedback_kept 0 -> 1 */
	CHECK_EQ(aw_oracle_metrics(k, 0)->feedback_kept, 0);
	aw_or_feedback(k, lv, mm, BASE_ADDR, S, "test cause");
	aw_or_pud_visit(k, &walk, BASE_ADDR + 0x1000, pudval, false);
	CHECK_NO_FINDING(k, n);
	CHECK_EQ(aw_oracle_metrics(k, 0)->feedback_kept, 1);

	/* recording the same cause twice is one obligation: one finding, not two */
	aw_or_feedback(k, lv, mm, BASE_ADDR, S, "test cause");
	aw_or_feedback(k, lv, mm, BASE_ADDR + PMD_SIZE, S, "test cause");
	aw_or_pud_visit(k, &walk, BASE_ADDR, pudval, true);
	CHECK_ONE_FINDING(k, n, AW_OR_STALE_SUPPRESSION);

	/*
	 * Obligation for S; a walk for S + 1 is not the designated pass: its
	 * skip is silent, and the obligation survives (met later by the pass
	 * for S: feedback_kept 1 -> 2).
	 */
	n = aw_oracle_nr_findings(k);
	aw_or_feedback(k, lv, mm, BASE_ADDR, S, "test cause");
	walk.seq = S + 1;
	aw_or_pud_visit(k, &walk, BASE_ADDR, pudval, true);
	CHECK_NO_FINDING(k, n);
	walk.seq = S;
	aw_or_pud_visit(k, &walk, BASE_ADDR, pudval, false);
	CHECK_NO_FINDING(k, n);
	CHECK_EQ(aw_oracle_metrics(k, 0)->feedback_kept, 2);

	/* a different PUD of the same mm is not covered by the obligation */
	aw_or_feedback(k, lv, mm, BASE_ADDR, S, "test cause");
	aw_or_pud_visit(k, &walk, BASE_ADDR + PUD_SIZE, pudval, true);
	CHECK_NO_FINDING(k, n);

	/*
	 * aw_or_pass_finished: the obligation (due S) stays while max_seq == S
	 * (its pass has not finished); once max_seq > S the pass came and went
	 * without visiting the PUD: exempt, dropped, feedback_lost 0 -> 1.
	 */
	CHECK_EQ(aw_oracle_metrics(k, 0)->feedback_lost, 0);
	aw_or_pass_finished(k, lv);
	CHECK_EQ(aw_oracle_metrics(k, 0)->feedback_lost, 0);
	lv->lrugen.max_seq = S + 1;
	aw_or_pass_finished(k, lv);
	lv->lrugen.max_seq = S;
	CHECK_EQ(aw_oracle_metrics(k, 0)->feedback_lost, 1);
	/* dropped: a late skip by a walk for S is no finding any more */
	aw_or_pud_visit(k, &walk, BASE_ADDR, pudval, true);
	CHECK_NO_FINDING(k, n);
	CHECK_EQ(aw_oracle_metrics(k, 0)->feedback_kept, 2);
out:
	aw_kernel_destroy(k);
}

/* ------------------------------------------------------------------ */
/* 6. emptymap-cadence: skip_empty - 1 skips, then a walk (docs/oracles.md, the empty-mm skip) */

static void test_emptymap_cadence(void)
{
	struct aw_kernel *k = built_kernel(AW_FEAT_EMPTYMAP, false);
	struct lru_gen_mm_walk walk;
	struct mm_struct *mm;
	int n;

	CHECK(k != NULL);
	if (!k)
		return;
	CHECK_EQ(k->skip_empty, 4);
	mm = mm_of(k);
	CHECK(mm != NULL);
	if (!mm)
		goto out;
	aw_walk_init(&walk, k);
	walk.lruvec = aw_lruvec(k, 0, 0);
	walk.mm = mm;
	walk.force_scan = false;

	/*
	 * A completed walk (err 0) with MM_LEAF_ASSOCIATED == 0 marks the mm
	 * empty for node 0 and restarts its count.  The next pass with its node
	 * bit set is count 1 < skip_empty 4: it must be skipped, so walking
	 * it is a finding.
	 */
	n = aw_oracle_nr_findings(k);
	aw_or_walk_done(k, &walk, mm, 0);
	CHECK_NO_FINDING(k, n);
	aw_or_mm_considered(k, &walk, mm, true);
	CHECK_ONE_FINDING(k, n, AW_OR_EMPTYMAP_CADENCE);

	/* skipped on passes 1, 2, 3 (= skip_empty - 1), walked on the 4th: silent */
	n = aw_oracle_nr_findings(k);
	aw_or_walk_done(k, &walk, mm, 0);
	for (int i = 0; i < 3; i++)
		aw_or_mm_considered(k, &walk, mm, false);
	aw_or_mm_considered(k, &walk, mm, true);
	CHECK_NO_FINDING(k, n);

	/* skipped a 4th time: count 4 >= skip_empty, the walk was due */
	aw_or_walk_done(k, &walk, mm, 0);
	for (int i = 0; i < 3; i++)
		aw_or_mm_considered(k, &walk, mm, false);
	CHECK_NO_FINDING(k, n);
	aw_or_mm_considered(k, &walk, mm, false);
	CHECK_ONE_FINDING(k, n, AW_OR_EMPTYMAP_CADENCE);

	/* a first-touch fault does not clear the mark (default contract): still skipped */
	n = aw_oracle_nr_findings(k);
	aw_or_walk_done(k, &walk, mm, 0);
	aw_or_mm_event(k, mm, AW_FAULT_MINOR);
	aw_or_mm_event(k, mm, AW_FAULT_HUGE);
	aw_or_mm_event(k, mm, AW_FAULT_COLLAPSED);
	aw_or_mm_considered(k, &walk, mm, false);
	CHECK_NO_FINDING(k, n);

	/* a major fault / migration clears the mark: the next pass must walk it */
	n = aw_oracle_nr_findings(k);
	aw_or_walk_done(k, &walk, mm, 0);
	aw_or_mm_event(k, mm, AW_FAULT_MAJOR);
	aw_or_mm_considered(k, &walk, mm, true);
	CHECK_NO_FINDING(k, n);
	/* ... and skipping an unmarked mm is a finding */
	aw_or_mm_considered(k, &walk, mm, false);
	CHECK_ONE_FINDING(k, n, AW_OR_EMPTYMAP_CADENCE);

	/* a walk that found an associated leaf clears the mark: walked next, silent */
	n = aw_oracle_nr_findings(k);
	walk.mm_stats[MM_LEAF_TOTAL] = 1;
	walk.mm_stats[MM_LEAF_ASSOCIATED] = 1;
	aw_or_walk_done(k, &walk, mm, 0);
	aw_or_mm_considered(k, &walk, mm, true);
	CHECK_NO_FINDING(k, n);
	walk.mm_stats[MM_LEAF_TOTAL] = 0;
	walk.mm_stats[MM_LEAF_ASSOCIATED] = 0;

	/*
	 * force_scan overrides the skip and does not count a pass: marked,
	 * a forced walk on what would be pass 1 is fine, and the normal
	 * passes afterwards still count 1, 2, 3 skipped, 4 walked.
	 */
	aw_or_walk_done(k, &walk, mm, 0);
	walk.force_scan = true;
	aw_or_mm_considered(k, &walk, mm, true);
	walk.force_scan = false;
	for (int i = 0; i < 3; i++)
		aw_or_mm_considered(k, &walk, mm, false);
	aw_or_mm_considered(k, &walk, mm, true);
	CHECK_NO_FINDING(k, n);

	/*
	 * A walk whose mmap_lock trylock failed (-EBUSY) never ran: it neither
	 * sets nor clears the mark nor restarts the count.  Marked, 2 skips,
	 * a failed walk, then pass 3 is still a skip and pass 4 a walk.
	 */
	aw_or_walk_done(k, &walk, mm, 0);
	aw_or_mm_considered(k, &walk, mm, false);
	aw_or_mm_considered(k, &walk, mm, false);
	walk.mm_stats[MM_LEAF_TOTAL] = 1;
	walk.mm_stats[MM_LEAF_ASSOCIATED] = 1;	/* would clear the mark, had it run */
	aw_or_walk_done(k, &walk, mm, -EBUSY);
	walk.mm_stats[MM_LEAF_TOTAL] = 0;
	walk.mm_stats[MM_LEAF_ASSOCIATED] = 0;
	aw_or_mm_considered(k, &walk, mm, false);
	aw_or_mm_considered(k, &walk, mm, true);
	CHECK_NO_FINDING(k, n);
out:
	aw_kernel_destroy(k);
}

/*
 * The contract's options (contract.h), each against the default: which
 * events clear, what "empty" means, and which clock counts the passes.
 */
static void test_emptymap_contract(void)
{
	struct aw_kernel *k = built_kernel(AW_FEAT_EMPTYMAP, false);
	struct lru_gen_mm_walk walk;
	struct mm_struct *mm;
	int n;

	CHECK(k != NULL);
	if (!k)
		return;
	mm = mm_of(k);
	CHECK(mm != NULL);
	if (!mm)
		goto out;
	aw_walk_init(&walk, k);
	walk.lruvec = aw_lruvec(k, 0, 0);
	walk.mm = mm;
	walk.seq = 10;

	/* clear=major+huge: a huge first-touch fault clears, so skipping next is a finding */
	k->cfg.empty.clear = AW_EMPTY_CLEAR_HUGE;
	n = aw_oracle_nr_findings(k);
	aw_or_walk_done(k, &walk, mm, 0);
	aw_or_mm_event(k, mm, AW_FAULT_MIGRATED);	/* not named: no clear */
	aw_or_mm_considered(k, &walk, mm, false);
	CHECK_NO_FINDING(k, n);
	aw_or_mm_event(k, mm, AW_FAULT_HUGE);
	aw_or_mm_considered(k, &walk, mm, false);
	CHECK_ONE_FINDING(k, n, AW_OR_EMPTYMAP_CADENCE);

	/*
	 * clear=major+migration (the default): the shadow learns of a
	 * migration from the folio that moved, reading its reverse map; the
	 * model's own report (AW_FAULT_MIGRATED) does not clear it.  Marked,
	 * the report alone: skipping is right; the moved folio mapped in mm:
	 * cleared, so skipping is a finding.
	 */
	k->cfg.empty = AW_EMPTY_CONTRACT_DEFAULT;
	n = aw_oracle_nr_findings(k);
	aw_or_walk_done(k, &walk, mm, 0);
	aw_or_mm_event(k, mm, AW_FAULT_MIGRATED);
	aw_or_mm_considered(k, &walk, mm, false);
	CHECK_NO_FINDING(k, n);
	{
		pte_t *pte = aw_pte_lookup(k, mm, BASE_ADDR, false, NULL);

		CHECK(pte && pte_present(*pte));
		if (pte && pte_present(*pte))
			aw_or_folio_migrated(k, pfn_folio(&k->mem, pte_pfn(*pte)));
	}
	aw_or_mm_considered(k, &walk, mm, false);
	CHECK_ONE_FINDING(k, n, AW_OR_EMPTYMAP_CADENCE);

	/* empty=no-leaves: a walk with leaves, none associated, does not mark */
	k->cfg.empty = AW_EMPTY_CONTRACT_DEFAULT;
	k->cfg.empty.pred = AW_EMPTY_NO_LEAVES;
	n = aw_oracle_nr_findings(k);
	walk.mm_stats[MM_LEAF_TOTAL] = 5;
	walk.mm_stats[MM_LEAF_ASSOCIATED] = 0;
	aw_or_walk_done(k, &walk, mm, 0);
	aw_or_mm_considered(k, &walk, mm, true);
	CHECK_NO_FINDING(k, n);
	walk.mm_stats[MM_LEAF_TOTAL] = 0;
	aw_or_walk_done(k, &walk, mm, 0);	/* no leaves at all: marked */
	aw_or_mm_considered(k, &walk, mm, true);
	CHECK_ONE_FINDING(k, n, AW_OR_EMPTYMAP_CADENCE);

	/*
	 * clock=pass: marked by the walk at seq 10; with skip_empty 4 the
	 * passes for seq 11-13 skip and seq 14 walks, however few of them
	 * considered the mm (here only 13 and 14: the mm clock would still
	 * skip at 14).
	 */
	k->cfg.empty = AW_EMPTY_CONTRACT_DEFAULT;
	k->cfg.empty.clock = AW_EMPTY_CLOCK_PASS;
	n = aw_oracle_nr_findings(k);
	walk.seq = 10;
	aw_or_walk_done(k, &walk, mm, 0);
	walk.seq = 13;
	aw_or_mm_considered(k, &walk, mm, false);
	walk.seq = 14;
	aw_or_mm_considered(k, &walk, mm, true);
	CHECK_NO_FINDING(k, n);
	walk.seq = 10;
	aw_or_walk_done(k, &walk, mm, 0);
	walk.seq = 14;
	aw_or_mm_considered(k, &walk, mm, false);	/* due: a finding */
	CHECK_ONE_FINDING(k, n, AW_OR_EMPTYMAP_CADENCE);
out:
	aw_kernel_destroy(k);
}

/* Without AW_FEAT_EMPTYMAP nothing is ever skipped as empty: the oracle is off. */
static void test_emptymap_off(void)
{
	struct aw_kernel *k = built_kernel(0, false);
	struct lru_gen_mm_walk walk;
	int n;

	CHECK(k != NULL);
	if (!k)
		return;
	aw_walk_init(&walk, k);
	walk.lruvec = aw_lruvec(k, 0, 0);
	walk.mm = mm_of(k);
	n = aw_oracle_nr_findings(k);
	aw_or_walk_done(k, &walk, walk.mm, 0);
	aw_or_mm_considered(k, &walk, walk.mm, true);
	CHECK_NO_FINDING(k, n);
	aw_kernel_destroy(k);
}

/* With no oracle attached every hook is a no-op. */
static void test_detached(void)
{
	struct aw_kernel *k = new_kernel(0, 4);

	CHECK(k != NULL);
	if (!k)
		return;
	aw_or_filter_test(k, aw_lruvec(k, 0, 0), BLOOM_FILTER_PMD, 4, 1, false);
	aw_or_reclaim_decision(k, 0, true, true, false, -1);
	CHECK_EQ(aw_oracle_nr_findings(k), 0);
	CHECK_EQ(aw_oracle_metrics(k, 0)->bloom_false_positive, 0);
	aw_kernel_destroy(k);
}

int main(void)
{
	RUN(test_exact_filter);
	RUN(test_structural);
	RUN(test_list_walk);
	RUN(test_premature_reclaim);
	RUN(test_force_scan_complete);
	RUN(test_stale_suppression);
	RUN(test_emptymap_cadence);
	RUN(test_emptymap_contract);
	RUN(test_emptymap_off);
	RUN(test_detached);
	return aw_test_report("test_oracle");
}
