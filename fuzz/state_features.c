// SPDX-License-Identifier: GPL-2.0-only
/*
 * Features of the machines' end state, for libFuzzer (issue 32,
 * docs/fuzzing.md "Feature settings").
 *
 * The targets run with -use_counters=0 (lf_defaults.c): an edge is a
 * feature whether it ran once or a hundred times, which took away most
 * of libFuzzer's bookkeeping but also the one signal that told it an
 * input had gone further along a counter the rules compare without a
 * branch of their own.  The tier controller is such a rule:
 * get_tier_idx() and the protection it decides come from refaulted[],
 * evicted[] and their running averages, arithmetic that the edge
 * coverage of the model does not tell apart.  So each input adds, as
 * libFuzzer's extra counters, one feature per (variant, lruvec kind,
 * counter, type, tier, power-of-two bucket of the value) of the
 * generations' and the PID controller's state at the end of the run.
 *
 * The array is libFuzzer's (it reads the section __libfuzzer_extra_counters
 * after each input and clears it before the next), so it is process state
 * outside struct aw_lockstep, like the known-findings counts in common.c.
 * Other engines never see it: the function does nothing there.
 */
#include <stdint.h>

#include "kernel.h"
#include "state_features.h"

#ifdef AW_FUZZ_LIBFUZZER
#define AW_STATE_FEATURES	4096

__attribute__((used, section("__libfuzzer_extra_counters")))
static uint8_t aw_state_features[AW_STATE_FEATURES];

/* 0 for 0, else 1 + floor(log2(v)), at most 15 */
static unsigned int bucket(unsigned long v)
{
	unsigned int b = v ? 64U - (unsigned int)__builtin_clzl(v) : 0;

	return b > 15 ? 15 : b;
}

enum { F_REFAULTED, F_EVICTED, F_PROTECTED, F_AVG_REFAULTED, F_AVG_TOTAL, F_GENS, F_NR };

static void feature(unsigned int v, unsigned int what, unsigned int type, unsigned int tier, unsigned long val)
{
	uint32_t key = ((((v * F_NR + what) * ANON_AND_FILE + type) * MAX_NR_TIERS + tier) << 4) | bucket(val);

	/* a multiplicative hash spreads the keys over the array */
	aw_state_features[(key * 2654435761U) >> 20] = 1;
}

static void lruvec_features(unsigned int v, const struct lruvec *l)
{
	const struct lru_gen_folio *g = &l->lrugen;

	for (unsigned int t = 0; t < ANON_AND_FILE; t++) {
		feature(v, F_GENS, t, 0, g->max_seq - g->min_seq[t]);
		for (unsigned int tier = 0; tier < MAX_NR_TIERS; tier++) {
			feature(v, F_REFAULTED, t, tier, g->refaulted[t][tier]);
			feature(v, F_EVICTED, t, tier, g->evicted[t][tier]);
			feature(v, F_PROTECTED, t, tier, g->protected[t][tier]);
			feature(v, F_AVG_REFAULTED, t, tier, g->avg_refaulted[t][tier]);
			feature(v, F_AVG_TOTAL, t, tier, g->avg_total[t][tier]);
		}
	}
}

void aw_fuzz_state_features(const struct aw_lockstep *ls)
{
	for (int v = 0; v < ls->nr_variants; v++) {
		const struct aw_kernel *k = ls->k[v];

		if (!k)
			continue;
		for (int i = 0; i < k->nr_nodes * k->nr_memcgs; i++)
			lruvec_features((unsigned int)v, &k->lruvecs[i]);
	}
}
#else
void aw_fuzz_state_features(const struct aw_lockstep *ls)
{
	(void)ls;
}
#endif
