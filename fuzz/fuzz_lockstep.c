// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: base and one patched variant in lockstep with every oracle.
 * The input (src/event/fuzzin.h) picks the topology, THP mode, memcg limit,
 * skip_empty and the patched variant, then events.  A finding prints the
 * report and aborts, unless its signature is in corpus/known-findings (as
 * built in): those are counted and the run goes on, so the differential
 * oracle stays live past the PUD filter's and the empty-mm skip's own hot
 * evictions.  Planted bugs for the time-to-bug benchmark come from
 * AGEWALK_BUG (comma-separated names); AGEWALK_ORACLE limits the aborts to
 * one oracle's findings (the benchmark waits for the intended oracle).
 * AGEWALK_KNOWN_COUNTS=DIR has the known findings' hit counts written to
 * DIR/known-PID.tsv (common.c), for a campaign to sum.
 */
#include "common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *const variants[2] = { "base", aw_fuzz_variant(data, size) };

	aw_fuzz_run(data, size, AW_FUZZ_LOCKSTEP, variants, "agewalk_fuzz_lockstep");
	return 0;
}
