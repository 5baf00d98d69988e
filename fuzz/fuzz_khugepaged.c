// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: khugepaged-base and khugepaged-patched in lockstep with every
 * oracle (the khugepaged ones: progress, lazyfree, data-loss, slot; and the
 * MGLRU ones, which both run as base).  The input is the lockstep format
 * (src/event/fuzzin.h) decoded for AW_FUZZ_KHUGEPAGED: the header's variant
 * byte is ignored and THP never is folded into always or madvise, since no
 * khugepaged thread runs with THP never.  A finding prints the report and
 * aborts.  AGEWALK_BUG, AGEWALK_ORACLE and AGEWALK_DIFF_THRESHOLD as for
 * agewalk_fuzz_lockstep.  Crashes convert with `agewalk convert CRASH
 * OUT.aws --from fuzz --fuzz-variant khugepaged` and minimize with
 * `agewalk minimize CRASH --variants khugepaged-base,khugepaged-patched`.
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
	static const char *const variants[2] = { "khugepaged-base", "khugepaged-patched" };
	struct aw_scenario sc;
	struct aw_lockstep ls;
	const char *thr = getenv("AGEWALK_DIFF_THRESHOLD");
	struct aw_lockstep_opts o = {
		.variants = variants, .nr_variants = 2, .bugs = aw_fuzz_bugs_from_env(),
		.oracles = true, .findings_only = true, .diff_threshold = thr ? atol(thr) : 0,
	};

	if (aw_fuzz_decode_target(data, size, &sc, AW_FUZZ_KHUGEPAGED)) {
		aw_scenario_free(&sc);
		return 0;
	}
	o.thp = sc.cfg.thp;
	if (aw_lockstep_run(&ls, &sc, &o)) {
		fprintf(stderr, "agewalk_fuzz_khugepaged: decoder produced a bad event: %s\n", ls.err);
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
