// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer's feature settings for agewalk's lockstep targets (issue 32,
 * docs/fuzzing.md "Feature settings"), added to the command line by
 * LLVMFuzzerInitialize() -- which libFuzzer calls before it parses its
 * flags -- unless the command line sets them itself:
 *
 *   -use_counters=0   a feature per edge, not per edge and hit-count
 *                     bucket.  The model's loops run once per page or
 *                     PTE, so every table size an input happens to make
 *                     was a new feature: 16,000 features after 30,000
 *                     inputs instead of 3,000, and libFuzzer spent more
 *                     time keeping their frequencies, and writing the
 *                     inputs that added them, than the model spent
 *                     running.  What finds the bugs is which decisions
 *                     were taken (bench/time-to-bug), not how often.
 *   -entropic_feature_frequency_threshold=16
 *                     a feature hit more than 16 times stops being
 *                     "rare" for the entropic scheduler (default 255),
 *                     so the per-feature frequency update leaves the rare
 *                     list scan sooner.
 *
 * Only under libFuzzer (AW_FUZZ_LIBFUZZER): the file-replay driver and
 * AFL++'s driver take every argument as an input.  AGEWALK_LIBFUZZER_DEFAULTS=0
 * leaves the command line as it is (libFuzzer's own defaults), for A/B
 * measurements.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lf_defaults.h"

static const char *const aw_lf_defaults[] = {
	"-use_counters=0",
	"-entropic_feature_frequency_threshold=16",
};
#define AW_LF_NR_DEFAULTS (sizeof(aw_lf_defaults) / sizeof(aw_lf_defaults[0]))

/* Does argv set the flag of opt ("-name=value")? */
static bool flag_given(int argc, char **argv, const char *opt)
{
	size_t n = strcspn(opt, "=") + 1;

	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], opt, n))
			return true;
	return false;
}

void aw_lf_add_defaults(int *argc, char ***argv)
{
	const char *env = getenv("AGEWALK_LIBFUZZER_DEFAULTS");
	char **in = *argv, **out;
	int n = 0;

	if (env && !strcmp(env, "0"))
		return;
	/* libFuzzer keeps argv for the process's life (re-exec, -jobs): so does this */
	out = malloc(sizeof(*out) * ((size_t)*argc + AW_LF_NR_DEFAULTS + 1));
	if (!out)
		return;
	out[n++] = in[0];
	for (size_t d = 0; d < AW_LF_NR_DEFAULTS; d++)
		if (!flag_given(*argc, in, aw_lf_defaults[d]))
			out[n++] = (char *)aw_lf_defaults[d];
	for (int i = 1; i < *argc; i++)
		out[n++] = in[i];
	out[n] = NULL;
	*argc = n;
	*argv = out;
}
