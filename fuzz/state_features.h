/* SPDX-License-Identifier: GPL-2.0-only */
/* Features of the machines' end state for libFuzzer and AFL++ (state_features.c). */
#ifndef AW_FUZZ_STATE_FEATURES_H
#define AW_FUZZ_STATE_FEATURES_H

#include <stdint.h>

#include "lockstep.h"

struct lruvec;

/* the slots features hash into: libFuzzer's extra counters, AFL++'s reserved map entries */
#define AW_STATE_FEATURES	4096

/* what a feature counts (with its variant, type, tier and value bucket) */
enum {
	AW_SF_REFAULTED, AW_SF_EVICTED, AW_SF_PROTECTED, AW_SF_AVG_REFAULTED, AW_SF_AVG_TOTAL,
	AW_SF_GENS,	/* max_seq - min_seq[type], tier 0 */
	AW_SF_NR
};

/* 0 for 0, else 1 + floor(log2(v)), at most 15 */
unsigned int aw_state_feature_bucket(unsigned long v);
/* the slot (< AW_STATE_FEATURES) of a feature whose counter has value val */
unsigned int aw_state_feature_slot(unsigned int v, unsigned int what, unsigned int type, unsigned int tier,
				   unsigned long val);
/* set[slot] = 1 for the features of one lruvec of variant v / of every lruvec of ls; engine-free */
void aw_state_features_lruvec(unsigned int v, const struct lruvec *l, uint8_t *set);
void aw_state_features_collect(const struct aw_lockstep *ls, uint8_t *set);

/* Hand ls's features to the engine the target was built for (libFuzzer, AFL++); else nothing. */
void aw_fuzz_state_features(const struct aw_lockstep *ls);
/*
 * The end of an input, after the last instrumented code of the model
 * (teardown included) ran: under AFL++ with AGEWALK_AFL_EDGE_FLAGS=1 the
 * map's edges become flags (afl_map.c); else, and under the others, nothing.
 */
void aw_fuzz_end_input(void);

#endif /* AW_FUZZ_STATE_FEATURES_H */
