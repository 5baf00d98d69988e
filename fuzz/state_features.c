// SPDX-License-Identifier: GPL-2.0-only
/*
 * Features of the machines' end state, for libFuzzer and AFL++ (issue 32,
 * docs/fuzzing.md "Feature settings").
 *
 * The targets run libFuzzer with -use_counters=0 (lf_defaults.c): an edge
 * is a feature whether it ran once or a hundred times, which took away
 * most of libFuzzer's bookkeeping but also the one signal that told it an
 * input had gone further along a counter the rules compare without a
 * branch of their own.  The tier controller is such a rule:
 * get_tier_idx() and the protection it decides come from refaulted[],
 * evicted[] and their running averages, arithmetic that the edge
 * coverage of the model does not tell apart (AFL++'s hit-count buckets
 * do not either: the controller's arithmetic has no edges whose counts
 * follow the counters).  So each input adds one feature per (variant,
 * counter, type, tier, power-of-two bucket of the value) of the
 * generations' and the PID controller's state at the end of the run.
 *
 * The contract, in two layers:
 *
 *  - aw_state_features_collect() is engine-independent and pure: it sets
 *    to 1 the slot of each feature of ls in a caller's array of
 *    AW_STATE_FEATURES bytes (a feature's slot is aw_state_feature_slot(),
 *    a hash of its key, so two features may share a slot; the same state
 *    always sets the same slots).  tests/unit/test_state_features.c.
 *
 *  - aw_fuzz_state_features() hands those slots to the engine the target
 *    was built for, once per input, after the oracles:
 *      libFuzzer (AW_FUZZ_LIBFUZZER): the slots are libFuzzer's extra
 *        counters, the section __libfuzzer_extra_counters, which libFuzzer
 *        reads after each input and clears before the next.
 *      AFL++ (AW_FUZZ_AFL): the slots are AW_STATE_FEATURES entries of
 *        AFL++'s coverage map, reserved the way every instrumented module
 *        reserves its edges: SanitizerCoverage's trace-pc-guard ABI.  A
 *        constructor hands an array of zeroed guards to
 *        __sanitizer_cov_trace_pc_guard_init(), which AFL++'s runtime
 *        (afl-compiler-rt) implements by giving each guard the next free
 *        map index and growing __afl_final_loc -- the map size the
 *        forkserver reports to afl-fuzz, so the entries are the target's
 *        own, next to the edges and never colliding with them.  A feature
 *        is then one __sanitizer_cov_trace_pc_guard() call on its guard
 *        (the runtime adds 1 at __afl_area_ptr[*guard]); each slot is
 *        called at most once per input, so its count is 1, a feature in
 *        the same sense as libFuzzer's.  AFL++ 4.04c has no extra-counters
 *        region (__sanitizer_cov_8bit_counters_init is libFuzzer's), and
 *        __afl_coverage_interesting() gives one entry per call site, not a
 *        table.  The constructor runs before main(), so before the
 *        deferred forkserver of AFL++'s libAFLDriver starts: the map
 *        already has its final size when afl-fuzz asks for it.
 *      Any other build (the file-replay driver, OSS-Fuzz): nothing.
 *
 *  - aw_fuzz_end_input() runs after the input's teardown: under AFL++
 *    with AGEWALK_AFL_EDGE_FLAGS=1 it turns the map's hit counts into
 *    flags (afl_map.c); otherwise nothing.
 *
 * Process state: the libFuzzer array and the AFL++ guards are global
 * because the engines' ABIs put them there -- libFuzzer finds the array
 * by its section, and each AFL++ guard holds the map index the runtime
 * wrote into it at init and reads on every call.  The AFL++ side also
 * keeps AGEWALK_AFL_EDGE_FLAGS, read once in the same constructor and
 * never written again (libFuzzer's hooks and the driver's loop pass no
 * context).  Nothing else here outlives a call; like the known-findings
 * counts in common.c, they sit outside struct aw_lockstep.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "state_features.h"

/* 0 for 0, else 1 + floor(log2(v)), at most 15 */
unsigned int aw_state_feature_bucket(unsigned long v)
{
	unsigned int b = v ? 64U - (unsigned int)__builtin_clzl(v) : 0;

	return b > 15 ? 15 : b;
}

unsigned int aw_state_feature_slot(unsigned int v, unsigned int what, unsigned int type, unsigned int tier,
				   unsigned long val)
{
	uint32_t key = ((((v * AW_SF_NR + what) * ANON_AND_FILE + type) * MAX_NR_TIERS + tier) << 4) |
		       aw_state_feature_bucket(val);

	/* a multiplicative hash spreads the keys over the 2^12 slots */
	return (key * 2654435761U) >> 20;
}

_Static_assert(AW_STATE_FEATURES == 1U << 12, "aw_state_feature_slot() keeps the top 12 bits");

static void mark(uint8_t *set, unsigned int v, unsigned int what, unsigned int type, unsigned int tier,
		 unsigned long val)
{
	set[aw_state_feature_slot(v, what, type, tier, val)] = 1;
}

void aw_state_features_lruvec(unsigned int v, const struct lruvec *l, uint8_t *set)
{
	const struct lru_gen_folio *g = &l->lrugen;

	for (unsigned int t = 0; t < ANON_AND_FILE; t++) {
		mark(set, v, AW_SF_GENS, t, 0, g->max_seq - g->min_seq[t]);
		for (unsigned int tier = 0; tier < MAX_NR_TIERS; tier++) {
			mark(set, v, AW_SF_REFAULTED, t, tier, g->refaulted[t][tier]);
			mark(set, v, AW_SF_EVICTED, t, tier, g->evicted[t][tier]);
			mark(set, v, AW_SF_PROTECTED, t, tier, g->protected[t][tier]);
			mark(set, v, AW_SF_AVG_REFAULTED, t, tier, g->avg_refaulted[t][tier]);
			mark(set, v, AW_SF_AVG_TOTAL, t, tier, g->avg_total[t][tier]);
		}
	}
}

void aw_state_features_collect(const struct aw_lockstep *ls, uint8_t *set)
{
	for (int v = 0; v < ls->nr_variants; v++) {
		const struct aw_kernel *k = ls->k[v];

		if (!k)
			continue;
		for (int i = 0; i < k->nr_nodes * k->nr_memcgs; i++)
			aw_state_features_lruvec((unsigned int)v, &k->lruvecs[i], set);
	}
}

#if defined(AW_FUZZ_LIBFUZZER)
__attribute__((used, section("__libfuzzer_extra_counters")))
static uint8_t aw_state_features[AW_STATE_FEATURES];

void aw_fuzz_state_features(const struct aw_lockstep *ls)
{
	aw_state_features_collect(ls, aw_state_features);
}

void aw_fuzz_end_input(void)
{
}
#elif defined(AW_FUZZ_AFL)
/* SanitizerCoverage's trace-pc-guard interface, implemented by afl-compiler-rt */
void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop);
void __sanitizer_cov_trace_pc_guard(uint32_t *guard);
/* afl_map.c, built with the host compiler */
void aw_afl_map_flags(void);

static uint32_t aw_afl_guards[AW_STATE_FEATURES];
static bool aw_afl_edge_flags;	/* AGEWALK_AFL_EDGE_FLAGS=1, read before main() */

/* reserve the map entries before main(): the forkserver reports the map's size */
__attribute__((constructor)) static void aw_afl_reserve(void)
{
	const char *env = getenv("AGEWALK_AFL_EDGE_FLAGS");

	aw_afl_edge_flags = env && !strcmp(env, "1");
	__sanitizer_cov_trace_pc_guard_init(aw_afl_guards, aw_afl_guards + AW_STATE_FEATURES);
}

void aw_fuzz_state_features(const struct aw_lockstep *ls)
{
	uint8_t set[AW_STATE_FEATURES];

	memset(set, 0, sizeof(set));
	aw_state_features_collect(ls, set);
	for (unsigned int i = 0; i < AW_STATE_FEATURES; i++)
		if (set[i])
			__sanitizer_cov_trace_pc_guard(&aw_afl_guards[i]);
}

void aw_fuzz_end_input(void)
{
	if (aw_afl_edge_flags)
		aw_afl_map_flags();
}
#else
void aw_fuzz_state_features(const struct aw_lockstep *ls)
{
	(void)ls;
}

void aw_fuzz_end_input(void)
{
}
#endif
