// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: khugepaged-base and khugepaged-patched in lockstep with every
 * oracle (the khugepaged ones: progress, lazyfree, data-loss, slot; and the
 * MGLRU ones, which both run as base).  The input is the lockstep format
 * (src/event/fuzzin.h) decoded for AW_FUZZ_KHUGEPAGED: the header's variant
 * byte is ignored and THP never is folded into always or madvise, since no
 * khugepaged thread runs with THP never.  A finding prints the report and
 * aborts unless it is a known finding.  AGEWALK_BUG, AGEWALK_ORACLE and
 * AGEWALK_KNOWN_COUNTS as for agewalk_fuzz_lockstep.  Crashes convert
 * with `agewalk convert CRASH OUT.aws --from fuzz --fuzz-variant
 * khugepaged` and minimize with
 * `agewalk minimize CRASH --variants khugepaged-base,khugepaged-patched`.
 */
#include "common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const variants[2] = { "khugepaged-base", "khugepaged-patched" };

	aw_fuzz_run(data, size, AW_FUZZ_KHUGEPAGED, variants, "agewalk_fuzz_khugepaged");
	return 0;
}
