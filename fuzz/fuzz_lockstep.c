// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: base and one patched variant in lockstep with every oracle.
 * The input (src/event/fuzzin.h) picks the topology, THP mode, memcg limit,
 * skip_empty and the patched variant, then events.  A finding prints the
 * report and aborts.  Planted bugs for the time-to-bug benchmark come from
 * AGEWALK_BUG (comma-separated names); AGEWALK_ORACLE limits the aborts to
 * one oracle's findings (the benchmark waits for the intended oracle);
 * AGEWALK_DIFF_THRESHOLD sets how many hot folios a patched variant may
 * evict that base keeps before the differential oracle fires (default 0:
 * the v3 PUD filter does it on purpose, see corpus/regressions/
 * pud-late-region-hot-eviction.aws, so long campaigns hunting other
 * mistakes raise it).
 */
#include "common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *const variants[2] = { "base", aw_fuzz_variant(data, size) };

	aw_fuzz_run(data, size, AW_FUZZ_LOCKSTEP, variants, "agewalk_fuzz_lockstep");
	return 0;
}
