// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the tracepoints (src/sim/tracepoint.h): registration
 * follows kernel/tracepoint.c (a probe once per (func, data), in order,
 * removable), and the facts a walk reports are the ones the kernel rules
 * give for a hand-built address space -- the same one as test_model's
 * leaf-counting case: 4 MiB written, two full PTE tables under one PMD
 * table, aged forced and then not.
 */
#include <errno.h>
#include <string.h>

#include "aw_kernel_test.h"

#define BASE_ADDR	0x7e0000000000ULL	/* 1 GiB (hence 2 MiB) aligned */

struct seen {
	int calls;
	int order[8], nr_order;
	/* facts of one pass */
	int pte_young, pmd_young, pte_range, pte_suitable, bloom_test, bloom_hit, bloom_set;
	int bloom_reset, reset_level, iterate_first, taken, walk_begin, walk_end;
	unsigned long reset_seq, test_seq, set_seq, end_total;
	uint64_t next_addr;		/* the PTE young facts come in address order */
	bool addr_order_ok;
};

static void probe_a(void *data, struct aw_kernel *k, struct lruvec *lruvec, bool success)
{
	struct seen *s = data;

	s->calls++;
	s->order[s->nr_order++] = 1;
}

static void probe_b(void *data, struct aw_kernel *k, struct lruvec *lruvec, bool success)
{
	struct seen *s = data;

	s->calls++;
	s->order[s->nr_order++] = 2;
}

static void test_register(void)
{
	struct aw_kernel *k = aw_test_kernel(AW_THP_NEVER, 0, 0);
	struct seen s = { 0 }, t = { 0 };

	CHECK(k != NULL);
	if (!k)
		return;
	CHECK(!trace_lru_gen_aging_done_enabled(k));
	CHECK_EQ(register_trace_lru_gen_aging_done(k, probe_a, &s), 0);
	CHECK(trace_lru_gen_aging_done_enabled(k));
	/* the same (func, data) twice: -EEXIST; other data is another probe */
	CHECK_EQ(register_trace_lru_gen_aging_done(k, probe_a, &s), -EEXIST);
	CHECK_EQ(register_trace_lru_gen_aging_done(k, probe_b, &s), 0);
	CHECK_EQ(register_trace_lru_gen_aging_done(k, probe_a, &t), 0);
	CHECK_EQ(register_trace_lru_gen_aging_done(k, probe_b, &t), 0);
	/* AW_TRACEPOINT_MAX_PROBES = 4: the fifth is refused */
	CHECK_EQ(register_trace_lru_gen_aging_done(k, probe_b, NULL), -ENOSPC);

	/* called in registration order, each with its own data */
	trace_lru_gen_aging_done(k, &k->lruvecs[0], true);
	CHECK_EQ(s.calls, 2);
	CHECK_EQ(t.calls, 2);
	CHECK_EQ(s.order[0], 1);
	CHECK_EQ(s.order[1], 2);

	/* removal keeps the others' order; a second removal is -ENOENT */
	CHECK_EQ(unregister_trace_lru_gen_aging_done(k, probe_a, &s), 0);
	CHECK_EQ(unregister_trace_lru_gen_aging_done(k, probe_a, &s), -ENOENT);
	memset(&s, 0, sizeof(s));
	memset(&t, 0, sizeof(t));
	trace_lru_gen_aging_done(k, &k->lruvecs[0], true);
	CHECK_EQ(s.calls, 1);
	CHECK_EQ(s.order[0], 2);
	CHECK_EQ(t.calls, 2);
	CHECK_EQ(t.order[0], 1);
	CHECK_EQ(t.order[1], 2);
	/* other tracepoints are untouched */
	CHECK(!trace_lru_gen_bloom_test_enabled(k));
	aw_kernel_destroy(k);
}

/* ---- the facts of a walk ------------------------------------------------- */

static void on_pte_young(void *data, struct aw_kernel *k, struct mm_struct *mm, uint64_t addr, uint64_t pte)
{
	struct seen *s = data;

	if (addr != s->next_addr || !pte_young(pte))	/* the old entry, still young */
		s->addr_order_ok = false;
	s->next_addr = addr + PAGE_SIZE;
	s->pte_young++;
}

static void on_pmd_young(void *data, struct aw_kernel *k, struct mm_struct *mm, uint64_t addr, uint64_t pmd)
{
	((struct seen *)data)->pmd_young++;
}

static void on_pte_range(void *data, struct aw_kernel *k, struct lru_gen_mm_walk *walk, uint64_t addr,
			 uint64_t item, bool suitable)
{
	struct seen *s = data;

	s->pte_range++;
	s->pte_suitable += suitable;
}

static void on_bloom_test(void *data, struct aw_kernel *k, struct lruvec *lruvec, int level,
			  unsigned long seq, uint64_t key, bool hit)
{
	struct seen *s = data;

	s->bloom_test++;
	s->bloom_hit += hit;
	s->test_seq = seq;
}

static void on_bloom_set(void *data, struct aw_kernel *k, struct lruvec *lruvec, int level,
			 unsigned long seq, uint64_t key)
{
	struct seen *s = data;

	s->bloom_set++;
	s->set_seq = seq;
}

static void on_bloom_reset(void *data, struct aw_kernel *k, struct lruvec *lruvec, int level,
			   unsigned long seq)
{
	struct seen *s = data;

	s->bloom_reset++;
	s->reset_seq = seq;
	s->reset_level = level;
}

static void on_iterate_first(void *data, struct aw_kernel *k, struct lru_gen_mm_walk *walk)
{
	((struct seen *)data)->iterate_first++;
}

static void on_next_mm(void *data, struct aw_kernel *k, struct lru_gen_mm_walk *walk, struct mm_struct *mm,
		       enum aw_mm_skip why)
{
	((struct seen *)data)->taken += why == AW_MM_TAKEN;
}

static void on_walk_begin(void *data, struct aw_kernel *k, struct lru_gen_mm_walk *walk, struct mm_struct *mm)
{
	((struct seen *)data)->walk_begin++;
}

static void on_walk_end(void *data, struct aw_kernel *k, struct lru_gen_mm_walk *walk, struct mm_struct *mm,
			int err)
{
	struct seen *s = data;

	s->walk_end += !err;
	s->end_total = walk->mm_stats[MM_LEAF_TOTAL];
}

static void observe(struct aw_kernel *k, struct seen *s)
{
	CHECK_EQ(register_trace_ptep_test_and_clear_young(k, on_pte_young, s), 0);
	CHECK_EQ(register_trace_pmdp_test_and_clear_young(k, on_pmd_young, s), 0);
	CHECK_EQ(register_trace_lru_gen_walk_pte_range(k, on_pte_range, s), 0);
	CHECK_EQ(register_trace_lru_gen_bloom_test(k, on_bloom_test, s), 0);
	CHECK_EQ(register_trace_lru_gen_bloom_set(k, on_bloom_set, s), 0);
	CHECK_EQ(register_trace_lru_gen_bloom_reset(k, on_bloom_reset, s), 0);
	CHECK_EQ(register_trace_lru_gen_iterate_first(k, on_iterate_first, s), 0);
	CHECK_EQ(register_trace_lru_gen_get_next_mm(k, on_next_mm, s), 0);
	CHECK_EQ(register_trace_lru_gen_walk_begin(k, on_walk_begin, s), 0);
	CHECK_EQ(register_trace_mm_vmscan_lru_gen_walk(k, on_walk_end, s), 0);
}

static void reset_seen(struct seen *s)
{
	memset(s, 0, sizeof(*s));
	s->next_addr = BASE_ADDR;
	s->addr_order_ok = true;
}

static void test_walk_facts(void)
{
	struct aw_kernel *k = aw_test_kernel(AW_THP_NEVER, 1ULL << 30, 0);	/* base: no PUD filter */
	struct seen s;

	CHECK(k != NULL);
	if (!k)
		return;
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_PROC, .pid = 1, .cpu = 0,
					     .flags = AW_PROC_NOLAYOUT }), 0);
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_MMAP, .pid = 1, .addr2 = BASE_ADDR,
					     .len = 4ULL << 20, .arg = AW_PROT_DEFAULT }), 0);
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_ACCESS, .pid = 1, .cpu = 0, .addr = BASE_ADDR,
					     .len = 4ULL << 20, .repeat = 1, .flags = AW_ACC_WRITE }), 0);
	reset_seen(&s);
	observe(k, &s);

	/*
	 * Pass 1 (seq 3), forced.  iterate_mm_list(): the first walker to
	 * get an mm resets the seq + 1 = 4 PMD filter (base: that level
	 * only).  Forced: no filter test, no non-leaf young gate, so no PMD
	 * young bit is cleared.  Both tables walked: 1024 PTEs, all young,
	 * cleared in address order; each table suitable (512 * 8 >= 512) and
	 * carried into filter 4: two sets.
	 */
	ev_age(k, true);
	CHECK_EQ(s.iterate_first, 1);
	CHECK_EQ(s.bloom_reset, 1);
	CHECK_EQ(s.reset_level, BLOOM_FILTER_PMD);
	CHECK_EQ(s.reset_seq, 4);
	CHECK_EQ(s.taken, 1);
	CHECK_EQ(s.walk_begin, 1);
	CHECK_EQ(s.walk_end, 1);
	CHECK_EQ(s.end_total, 1024);
	CHECK_EQ(s.pte_young, 1024);
	CHECK(s.addr_order_ok);
	CHECK_EQ(s.next_addr, BASE_ADDR + (4ULL << 20));
	CHECK_EQ(s.pmd_young, 0);
	CHECK_EQ(s.bloom_test, 0);
	CHECK_EQ(s.pte_range, 2);
	CHECK_EQ(s.pte_suitable, 2);
	CHECK_EQ(s.bloom_set, 2);
	CHECK_EQ(s.set_seq, 4);

	/*
	 * Pass 2 (seq 4), not forced, after the task ran again.  The two
	 * non-leaf accessed bits are still set (pass 1 did not clear them):
	 * the young gate clears both (two PMD facts), then the seq 4 filter
	 * holds both entries (two tests, two hits).  Nothing is young below:
	 * neither table is suitable, nothing is set; filter 5 is reset.
	 */
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_RUN, .pid = 1, .cpu = 0 }), 0);
	reset_seen(&s);
	ev_age(k, false);
	CHECK_EQ(s.bloom_reset, 1);
	CHECK_EQ(s.reset_seq, 5);
	CHECK_EQ(s.pmd_young, 2);
	CHECK_EQ(s.bloom_test, 2);
	CHECK_EQ(s.bloom_hit, 2);
	CHECK_EQ(s.test_seq, 4);
	CHECK_EQ(s.pte_young, 0);
	CHECK_EQ(s.pte_range, 2);
	CHECK_EQ(s.pte_suitable, 0);
	CHECK_EQ(s.bloom_set, 0);
	CHECK_EQ(s.end_total, 1024);
	aw_kernel_destroy(k);
}

int main(void)
{
	test_register();
	test_walk_facts();
	return aw_test_report("test_tracepoint");
}
