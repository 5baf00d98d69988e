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
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "fuzzin.h"
#include "mutator.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2,
				 uint8_t *out, size_t max_out, unsigned int seed);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size) __attribute__((weak));

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	aw_fuzz_keep_heap();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct aw_scenario sc;
	struct aw_lockstep ls;
	const char *variants[2] = { "base", aw_fuzz_variant(data, size) };
	const char *thr = getenv("AGEWALK_DIFF_THRESHOLD");
	struct aw_lockstep_opts o = {
		.variants = variants, .nr_variants = 2, .bugs = aw_fuzz_bugs_from_env(),
		.oracles = true, .findings_only = true, .diff_threshold = thr ? atol(thr) : 0,
	};

	if (aw_fuzz_decode(data, size, &sc)) {
		aw_scenario_free(&sc);
		return 0;
	}
	o.thp = sc.cfg.thp;
	if (aw_lockstep_run(&ls, &sc, &o)) {
		/* the decoder only makes valid events: a rejected one is a decoder bug */
		fprintf(stderr, "agewalk_fuzz_lockstep: decoder produced a bad event: %s\n", ls.err);
		abort();
	}
	aw_fuzz_check_findings(&ls);
	aw_lockstep_free(&ls);
	aw_scenario_free(&sc);
	return 0;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	/* one call in eight goes to libFuzzer's own (CMP-guided, dictionary) mutations */
	if (LLVMFuzzerMutate && seed % 8 == 0)
		return LLVMFuzzerMutate(data, size, max_size);
	return aw_mutate(data, size, max_size, seed);
}

size_t LLVMFuzzerCustomCrossOver(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2,
				 uint8_t *out, size_t max_out, unsigned int seed)
{
	return aw_crossover(d1, s1, d2, s2, out, max_out, seed);
}
