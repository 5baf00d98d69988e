/* SPDX-License-Identifier: GPL-2.0-only */
/* Features of the machines' end state for libFuzzer (state_features.c). */
#ifndef AW_FUZZ_STATE_FEATURES_H
#define AW_FUZZ_STATE_FEATURES_H

#include "lockstep.h"

/* Mark the features of ls's machines as they are now; nothing outside libFuzzer. */
void aw_fuzz_state_features(const struct aw_lockstep *ls);

#endif /* AW_FUZZ_STATE_FEATURES_H */
