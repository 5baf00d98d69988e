// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz/state_features.c without an engine: the slots that the end state
 * of the generations and of the tier controller sets, as libFuzzer's
 * extra counters and AFL++'s reserved map entries both receive them.
 * Expected buckets are 1 + floor(log2(v)) worked out by hand; the rest
 * are properties a feature set must have for a fuzzer to use it: the
 * same state gives the same set, values in one power-of-two bucket give
 * the same set, a counter crossing a power of two changes the set where
 * that counter's feature lies, and a variant's features are its own.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aw_test.h"
#include "kernel.h"
#include "state_features.h"

static void test_bucket(void)
{
	CHECK_EQ(aw_state_feature_bucket(0), 0);
	CHECK_EQ(aw_state_feature_bucket(1), 1);	/* 2^0 */
	CHECK_EQ(aw_state_feature_bucket(2), 2);	/* 2^1 .. 2^2 - 1 */
	CHECK_EQ(aw_state_feature_bucket(3), 2);
	CHECK_EQ(aw_state_feature_bucket(4), 3);
	CHECK_EQ(aw_state_feature_bucket(7), 3);
	CHECK_EQ(aw_state_feature_bucket(8), 4);
	CHECK_EQ(aw_state_feature_bucket(16383), 14);	/* 2^13 .. 2^14 - 1 */
	CHECK_EQ(aw_state_feature_bucket(16384), 15);	/* 2^14 and above share the last */
	CHECK_EQ(aw_state_feature_bucket(ULONG_MAX), 15);
}

/* every key lands in the array; one counter's 16 buckets are 16 slots */
static void test_slot_range(void)
{
	int out = 0;

	for (unsigned int v = 0; v < AW_MAX_VARIANTS; v++)
		for (unsigned int what = 0; what < AW_SF_NR; what++)
			for (unsigned int t = 0; t < ANON_AND_FILE; t++)
				for (unsigned int tier = 0; tier < MAX_NR_TIERS; tier++)
					for (unsigned int b = 0; b < 16; b++)
						out += aw_state_feature_slot(v, what, t, tier,
									     b ? 1UL << (b - 1) : 0) >=
						       AW_STATE_FEATURES;
	CHECK_EQ(out, 0);
	for (unsigned int b = 0; b < 16; b++)
		for (unsigned int c = 0; c < b; c++)
			CHECK(aw_state_feature_slot(0, AW_SF_REFAULTED, 1, 2, 1UL << b >> 1) !=
			      aw_state_feature_slot(0, AW_SF_REFAULTED, 1, 2, 1UL << c >> 1));
}

static int count(const uint8_t *set)
{
	int n = 0;

	for (int i = 0; i < AW_STATE_FEATURES; i++)
		n += set[i];
	return n;
}

static void collect_lruvec(unsigned int v, const struct lruvec *l, uint8_t *set)
{
	memset(set, 0, AW_STATE_FEATURES);
	aw_state_features_lruvec(v, l, set);
}

/*
 * A fresh lruvec: every counter 0 and max_seq == min_seq.  Its features:
 * per type, one for the generations and 5 counters x 4 tiers, all in
 * bucket 0: 42 keys, each slot 1 and nothing else set.
 */
static void test_zero_lruvec(void)
{
	static struct lruvec l;
	static uint8_t set[AW_STATE_FEATURES];
	int expect = 0;
	static uint8_t want[AW_STATE_FEATURES];

	collect_lruvec(0, &l, set);
	for (unsigned int t = 0; t < ANON_AND_FILE; t++) {
		want[aw_state_feature_slot(0, AW_SF_GENS, t, 0, 0)] = 1;
		for (unsigned int what = 0; what < AW_SF_GENS; what++)
			for (unsigned int tier = 0; tier < MAX_NR_TIERS; tier++)
				want[aw_state_feature_slot(0, what, t, tier, 0)] = 1;
	}
	expect = count(want);
	CHECK(expect >= 30 && expect <= 42);	/* 42 keys, a few may share a slot */
	CHECK_EQ(count(set), expect);
	CHECK(!memcmp(set, want, sizeof(set)));
}

/*
 * refaulted[file][tier 2] = 5 (bucket 3, 4..7): that feature's slot is
 * set; 7 gives the same set, 8 (bucket 4) another; the set of the zero
 * state and of the state with the counter at 5 differ.
 */
static void test_counter_buckets(void)
{
	static struct lruvec l;
	static uint8_t zero[AW_STATE_FEATURES], five[AW_STATE_FEATURES], seven[AW_STATE_FEATURES],
		eight[AW_STATE_FEATURES];

	collect_lruvec(0, &l, zero);
	l.lrugen.refaulted[1][2] = 5;
	collect_lruvec(0, &l, five);
	l.lrugen.refaulted[1][2] = 7;
	collect_lruvec(0, &l, seven);
	l.lrugen.refaulted[1][2] = 8;
	collect_lruvec(0, &l, eight);
	CHECK_EQ(five[aw_state_feature_slot(0, AW_SF_REFAULTED, 1, 2, 4)], 1);
	CHECK_EQ(eight[aw_state_feature_slot(0, AW_SF_REFAULTED, 1, 2, 8)], 1);
	CHECK(!memcmp(five, seven, sizeof(five)));
	CHECK(memcmp(five, eight, sizeof(five)));
	CHECK(memcmp(zero, five, sizeof(zero)));
}

/* max_seq 7, min_seq {4, 7}: 3 generations of anon (bucket 2), 0 more of file (bucket 0) */
static void test_gens(void)
{
	static struct lruvec l;
	static uint8_t set[AW_STATE_FEATURES];

	l.lrugen.max_seq = 7;
	l.lrugen.min_seq[0] = 4;
	l.lrugen.min_seq[1] = 7;
	collect_lruvec(0, &l, set);
	CHECK_EQ(set[aw_state_feature_slot(0, AW_SF_GENS, 0, 0, 2)], 1);
	CHECK_EQ(set[aw_state_feature_slot(0, AW_SF_GENS, 1, 0, 0)], 1);
	CHECK_EQ(aw_state_feature_slot(0, AW_SF_GENS, 0, 0, 2), aw_state_feature_slot(0, AW_SF_GENS, 0, 0, 3));
}

/*
 * aw_state_features_collect() over a lockstep of two variants with one
 * node and one memcg each: base's lruvec zero, the patched one with
 * evicted[anon][0] = 1.  The set is the union of each variant's lruvec
 * set under its own index; variant 1's zero state is not variant 0's.
 */
static void test_collect_variants(void)
{
	static struct aw_lockstep ls;
	static struct lruvec lv[2];
	static uint8_t set[AW_STATE_FEATURES], want[AW_STATE_FEATURES], v0[AW_STATE_FEATURES],
		v1zero[AW_STATE_FEATURES];
	struct aw_kernel *k0 = calloc(1, sizeof(*k0)), *k1 = calloc(1, sizeof(*k1));

	if (!k0 || !k1) {
		CHECK(0);
		free(k0);
		free(k1);
		return;
	}
	k0->nr_nodes = k0->nr_memcgs = k1->nr_nodes = k1->nr_memcgs = 1;
	k0->lruvecs = &lv[0];
	k1->lruvecs = &lv[1];
	lv[1].lrugen.evicted[0][0] = 1;
	ls.nr_variants = 2;
	ls.k[0] = k0;
	ls.k[1] = k1;
	aw_state_features_collect(&ls, set);
	aw_state_features_lruvec(0, &lv[0], want);
	aw_state_features_lruvec(1, &lv[1], want);
	CHECK(!memcmp(set, want, sizeof(set)));
	CHECK_EQ(set[aw_state_feature_slot(1, AW_SF_EVICTED, 0, 0, 1)], 1);
	collect_lruvec(0, &lv[0], v0);
	collect_lruvec(1, &lv[0], v1zero);
	CHECK(memcmp(v0, v1zero, sizeof(v0)));
	/* a missing machine (a variant that failed to start) adds nothing */
	ls.k[1] = NULL;
	memset(set, 0, sizeof(set));
	aw_state_features_collect(&ls, set);
	CHECK(!memcmp(set, v0, sizeof(set)));
	free(k0);
	free(k1);
}

/* without an engine the hand-off does nothing (and does not crash) */
static void test_no_engine(void)
{
	static struct aw_lockstep ls;

	aw_fuzz_state_features(&ls);
	CHECK(1);
}

int main(void)
{
	RUN(test_bucket);
	RUN(test_slot_range);
	RUN(test_zero_lruvec);
	RUN(test_counter_buckets);
	RUN(test_gens);
	RUN(test_collect_variants);
	RUN(test_no_engine);
	return aw_test_report("test_state_features");
}
