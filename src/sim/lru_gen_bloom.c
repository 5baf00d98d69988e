// SPDX-License-Identifier: GPL-2.0-only
/*
 * mm/vmscan.c as of the seed series (v3 2/4): test_bloom_filter(),
 * update_bloom_filter() and reset_bloom_filter() take the lruvec's mm_state
 * and a level, and hand the level's double-buffered pair to the generic
 * helpers of bloom.c.  This is where a filter operation becomes a fact:
 * the tracepoints say which filter (lruvec, level, seq) answered what for
 * which key, so an observer keeps its own account of the filters without
 * trusting the walk that uses them.
 */
#include "kernel.h"

static struct lruvec *mm_state_lruvec(struct lru_gen_mm_state *mm_state)
{
	return container_of(mm_state, struct lruvec, mm_state);
}

bool test_bloom_filter(struct lru_gen_mm_state *mm_state, int level, unsigned long seq, uint64_t item)
{
	bool hit = __test_bloom_filter(mm_state->filters[level], seq, item);
	struct lruvec *lruvec = mm_state_lruvec(mm_state);

	trace_lru_gen_bloom_test(lruvec->k, lruvec, level, seq, item, hit);
	return hit;
}

void update_bloom_filter(struct lru_gen_mm_state *mm_state, int level, unsigned long seq, uint64_t item)
{
	struct lruvec *lruvec = mm_state_lruvec(mm_state);

	__update_bloom_filter(mm_state->filters[level], seq, item);
	trace_lru_gen_bloom_set(lruvec->k, lruvec, level, seq, item);
}

/* the kernel's reset ignores a failed allocation: the filter stays NULL */
void reset_bloom_filter(struct lru_gen_mm_state *mm_state, int level, unsigned long seq)
{
	struct lruvec *lruvec = mm_state_lruvec(mm_state);

	(void)__reset_bloom_filter(mm_state->filters[level], seq);
	trace_lru_gen_bloom_reset(lruvec->k, lruvec, level, seq);
}
